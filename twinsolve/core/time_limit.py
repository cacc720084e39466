"""A hard stop for one run: the time limit bounds model building, solving and checking.

The rules. Inside `with TimeLimit(seconds) as limit:` the code has `seconds`
of wall-clock time (None: no limit). Two things enforce it:

- cooperative: `checkpoint()` in a loop raises `TimeLimitReached` once a
  limit active in this thread has passed `seconds` (cheap: one read of the time).
  Model-building loops call it; back-ends that can stop with a partial
  answer (`feasible`, a count so far) watch their own `Deadline` instead,
  which ends at the same moment; work that yields the first answer calls
  `checkpoint(grace=True)`, which waits for the grace to be spent too.
- hard: in the main thread a real-time interval timer (`setitimer`,
  `SIGALRM`) raises `TimeLimitReached` at `seconds + grace_seconds(seconds)`
  wherever the Python code is, so a loop that never checks its deadline
  still ends. Code blocked in C (a CP-SAT or SAT call) sees it when the call
  returns; those calls get the remaining time as their own limit
  (`remaining()`: `models.sat_common` and `models.cpsat_common` bound every
  solver call by it, through the solver's own time-out or interrupt).

Where the stop is raised. An exception raised from a signal handler lands
between any two bytecodes, and in some places that is a disaster: inside a
`__del__` or a garbage-collector callback the interpreter prints it
("Exception ignored in ...") and drops it, so the run goes on unbounded; inside
a native solver's Python wrapper (PySAT's `delete` frees the solver, then
clears its pointer) it leaves the native object half-used, and the
interpreter later frees it a second time (a segmentation fault at exit).
So the hard stop is delivered only where it is safe (`interruptible`): no
frame on the stack runs a `__del__`, an `__enter__` / `__exit__`, a gc
callback or code of a native-solver wrapper or of the import and weak
reference machinery (`DEFERRED_MODULES`). Anywhere else the ring is held: it
rings again every `RERING_S` until the code is back where a stop may land,
which for a solver call is as soon as it has returned into twinsolve's own
code, with the solver whole (a `with` block then frees it). Once raised, it
rings no more: a stop raised where it is safe propagates, and ringing on would
cut the cleanup of the `with` and `finally` blocks it unwinds through in two.

`TimeLimitReached` is a `BaseException`, so a back-end's `except Exception`
cannot swallow it; it names its `TimeLimit` and the `phase` the run was in
(`Stopwatch` sets "building the model" and "solving", `core.run` "checking
the answer"), so the caller can tell its own stop from an outer one.

On exit the previous `SIGALRM` handler and timer are restored, the timer less
the time spent inside, so limits nest: the earlier end wins, and an outer alarm
that comes first is handed to its own handler. Outside the main thread (a Dask
thread, a test runner's thread) signals are not ours to take: only the
cooperative checkpoints apply.

>>> with TimeLimit(None):
...     checkpoint()  # no limit: never raises
"""

from __future__ import annotations

import gc
import signal
import threading
import time
from types import FrameType, TracebackType
from typing import Any

__all__ = ["TimeLimit", "TimeLimitReached", "checkpoint", "set_phase", "GRACE_S",
           "grace_seconds", "remaining", "interruptible", "DEFERRED_MODULES"]

GRACE_S = 1.0  # at most this long beyond the timeout, for the back-end's own clean stop
_SOON = 1e-6   # a timer of 0 would disarm it: "now" is the smallest positive delay
RERING_S = 0.01  # a ring held where a stop may not land rings again this often

# Top-level modules whose code a stop never cuts in two: native-solver wrappers (a
# PySAT or CP-SAT object would be left half-used), the import system (a module half
# run) and weak references (their callbacks' exceptions are dropped).
DEFERRED_MODULES = frozenset({"pysat", "ortools", "google", "importlib", "weakref",
                              "_weakrefset"})
# Functions the interpreter calls where an exception is dropped (__del__) or where a
# stop would leave a resource half acquired or half released.
_DEFERRED_NAMES = frozenset({"__del__", "__enter__", "__exit__", "__aenter__", "__aexit__"})


def grace_seconds(timeout: float) -> float:
    """Time past the limit for a cooperative stop: 10% of it plus 0.25 s, at most GRACE_S."""
    return min(GRACE_S, 0.25 + 0.1 * timeout)


class TimeLimitReached(BaseException):
    """The time of `limit` ran out while the run was in `phase`."""

    def __init__(self, limit: TimeLimit, phase: str) -> None:
        super().__init__(f"time limit of {limit.seconds:g} s reached while {phase}")
        self.limit = limit
        self.phase = phase


_local = threading.local()  # .active: this thread's limits, innermost last


def _active() -> list[TimeLimit]:
    if not hasattr(_local, "active"):
        _local.active = []
    return _local.active


def checkpoint(grace: bool = False, slack: float = 0.0) -> None:
    """Raise `TimeLimitReached` if a limit active in this thread has run out.

    With `grace`, only once its grace is spent too (where the hard stop rings):
    for work that yields a back-end's first answer, which it still returns
    (as `feasible`) when the deadline has just passed. With `slack`, also a
    limit that ends within `slack` seconds (a solver stopped by `remaining()`
    returns a moment before the end it was given).
    """
    for limit in _active():  # outermost first: its end ends everything inside it
        if limit.expired(grace, slack):
            raise TimeLimitReached(limit, limit.phase)


def remaining() -> float | None:
    """Seconds until the earliest hard stop of the limits active in this thread (0 when
    one has passed), or None when none is active.

    For solver calls in native code, which the hard stop cannot cut short: they
    take this as their own time-out, however deep they are called
    (`core.limits.Deadline.within_run`).

    >>> remaining() is None
    True
    """
    ends = [limit._hard_end for limit in _active() if limit._end is not None]
    if not ends:
        return None
    return max(0.0, min(ends) - time.perf_counter())


def interruptible(frame: FrameType | None) -> bool:
    """Whether a stop raised in `frame` propagates with nothing left half done: no frame
    of its stack runs a `__del__`, `__enter__` or `__exit__`, a gc callback, code of a
    `DEFERRED_MODULES` module, or this module's own entering and leaving of a block
    (module docstring)."""
    callbacks = {getattr(callback, "__code__", None) for callback in gc.callbacks}
    while frame is not None:
        code = frame.f_code
        if code.co_name in _DEFERRED_NAMES or code in _ENTER_EXIT or code in callbacks:
            return False
        module = frame.f_globals.get("__name__") or ""
        if module.partition(".")[0] in DEFERRED_MODULES:
            return False
        frame = frame.f_back
    return True


def set_phase(phase: str) -> None:
    """Name what the run is doing now ("solving"), for the message of a stop."""
    active = _active()
    if active:
        active[-1].phase = phase


class TimeLimit:
    """`seconds` of wall-clock time for the code inside (module docstring)."""

    def __init__(self, seconds: float | None, grace: float | None = None,
                 phase: str = "running") -> None:
        self.seconds = seconds
        if grace is None and seconds is not None:
            grace = grace_seconds(seconds)
        self.grace = grace or 0.0
        self._start = time.perf_counter()
        self._phase, self._since = phase, self._start  # what it does now, since when
        self._spent: dict[str, float] = {}  # seconds in each earlier phase
        self._end: float | None = None
        self._hard_end = 0.0
        self._armed = False
        self._previous: Any = None
        self._outer_due: float | None = None  # when the timer found on entry rings
        self._outer_interval = 0.0
        self._ringing = False  # held once: ringing every RERING_S until it lands
        self._delivered = False  # raised where it propagates: it rings no more

    @property
    def phase(self) -> str:
        return self._phase

    @phase.setter
    def phase(self, name: str) -> None:
        if name != self._phase:
            now = time.perf_counter()
            self._spent[self._phase] = self._spent.get(self._phase, 0.0) + now - self._since
            self._phase, self._since = name, now

    def elapsed(self) -> float:
        """Seconds since the limit was entered."""
        return time.perf_counter() - self._start

    def spent(self, phase: str) -> float:
        """Seconds spent so far in `phase`, all its stretches together."""
        now = time.perf_counter() - self._since if phase == self._phase else 0.0
        return self._spent.get(phase, 0.0) + now

    def expired(self, grace: bool = False, slack: float = 0.0) -> bool:
        """Past `seconds` (the cooperative end), or with `grace` past the hard stop's time;
        `slack` seconds early."""
        if self._end is None:
            return False
        return time.perf_counter() + slack >= (self._hard_end if grace else self._end)

    def __enter__(self) -> TimeLimit:
        if self.seconds is None:
            return self
        now = time.perf_counter()
        self._start = self._since = now
        self._spent = {}
        self._end = now + self.seconds
        self._hard_end = self._end + self.grace
        self._ringing = self._delivered = False
        _active().append(self)
        if threading.current_thread() is threading.main_thread():
            self._arm(now)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        try:
            # Why only while our handler is in place: an outer limit that rang first
            # has already put back what it found, which is older than what we found.
            if self._armed and signal.getsignal(signal.SIGALRM) == self._on_alarm:
                self._restore()
        finally:
            self._armed = False
            self._leave()

    def _leave(self) -> None:
        """No longer active in this thread (idempotent)."""
        active = _active()
        if self in active:
            active.remove(self)

    # ---------------------------------------------------------------- the timer

    def _arm(self, now: float) -> None:
        previous = signal.getsignal(signal.SIGALRM)
        if previous is None:  # a handler installed from C: it could not be put back
            return
        delay, self._outer_interval = signal.getitimer(signal.ITIMER_REAL)
        self._outer_due = now + delay if delay > 0 else None
        self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
        self._armed = True
        due = self._hard_end if self._outer_due is None else min(self._hard_end,
                                                                self._outer_due)
        signal.setitimer(signal.ITIMER_REAL, max(due - now, _SOON))

    def _restore(self) -> None:
        """Disarm: the previous handler back, and the previous timer less the time spent.

        On exit, or as the stop rings (so an alarm that rings as the block ends
        still leaves everything as it was found).
        """
        signal.setitimer(signal.ITIMER_REAL, 0)
        self._armed = False
        signal.signal(signal.SIGALRM, self._previous)
        if self._outer_due is not None:
            left = self._outer_due - time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, max(left, _SOON), self._outer_interval)
        elif self._outer_interval > 0:
            signal.setitimer(signal.ITIMER_REAL, self._outer_interval, self._outer_interval)

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        if not self._armed or self._delivered:
            return
        if self._outer_due is not None and self._outer_due < self._hard_end:
            self._hand_on(signum, frame)
            return
        if not interruptible(frame):
            if not self._ringing:  # held: ring again soon, where it may land
                self._ringing = True
                signal.setitimer(signal.ITIMER_REAL, RERING_S, RERING_S)
            return
        # Why no more rings: the stop now unwinds through `with` and `finally` blocks,
        # whose cleanup (freeing a solver) a second stop would cut in two.
        self._delivered = True
        signal.setitimer(signal.ITIMER_REAL, 0)
        raise TimeLimitReached(self, self.phase)

    def _hand_on(self, signum: int, frame: FrameType | None) -> None:
        """The outer alarm came first: re-arm our own time, then its handler has it."""
        self._outer_due = None  # rung: nothing to put back on exit
        signal.setitimer(signal.ITIMER_REAL, max(self._hard_end - time.perf_counter(), _SOON))
        previous = self._previous
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:  # what that alarm would have done: end the process
            self._restore()
            signal.raise_signal(signal.SIGALRM)


# The frames where a ring must not raise: entering the block (it would never be left)
# and leaving it (which disarms the timer).
_ENTER_EXIT = frozenset({TimeLimit.__enter__.__code__, TimeLimit._arm.__code__,
                         TimeLimit.__exit__.__code__, TimeLimit._restore.__code__,
                         TimeLimit._leave.__code__})
