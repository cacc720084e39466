"""Python calls run in a forked child that is killed at a deadline.

The rules. A `ForkedServer(handle)` is a forked copy of this process that
answers requests: `ask(request, seconds)` sends `request` (it must pickle),
the child runs `handle(request)` and sends back what it returned, and `ask`
returns it as `Returned(value)`, or None when `seconds` passed first. The
child is then killed with SIGKILL wherever it is, and the server is stopped
(`alive` is False). That is the point: a native solver that can be neither
interrupted nor given a budget (PySAT's Kissat and Lingeling), or that heeds
an interrupt only now and then (Glucose 4.1, at its restarts), still stops on
time. Whatever ends the caller's wait (the deadline, Ctrl-C, the run's hard
stop, an error), the child is killed and reaped before `ask` returns or
raises; `close()` does the same when the caller is done, and the child dies
with this process even when this process is killed by `kill -9`
(PR_SET_PDEATHSIG). An exception in `handle` is raised again in the caller
(a `MemoryError` stays one), or as `ForkedCallFailed` naming it when it does
not pickle; a child that dies without an answer is `ForkedCallFailed`, and
so is a fork that fails (a `MemoryError` when memory is what it lacked).
`call_forked(work, seconds)` is one request to a server of its own.

The idea. `fork` copies the whole process, a native solver with its clauses
included (copy-on-write, milliseconds), so nothing is rebuilt or serialised
on the way in. The child keeps its state between requests (a solver keeps
what it learnt), so one fork serves a whole session of calls; only requests
and answers travel, pickled and length-prefixed, through two pipes. The child
closes every other descriptor it inherited (an end of another server's pipe
held open would hide that server's death from its reader), ignores SIGINT
(Ctrl-C reaches the whole foreground process group; the parent takes it and
kills the child), and never returns into the caller's code: it leaves by
`os._exit`, so no `finally`, `atexit` handler or buffered stream of the
parent runs twice.

Memory. A forked child's resident size starts as its parent's (it shares
every page), so the kernel's peak for it says nothing about what it added.
The child measures that itself (its peak above its size at the fork) and
reports it with every answer; when the server ends, the parent files it with
the child's kernel peak (`memory.note_forked`), so a run counts the child's
own growth once (`memory.RunMemory`). That growth is real: besides what it
allocates, the child copies every shared page it writes (a solver built in
the parent and changed by the search is then held twice).

Where `fork` is missing, `AVAILABLE` is False and callers run in process.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import pickle
import select
import signal
import struct
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from . import memory
from .interrupts import interrupt_deferred

__all__ = ["AVAILABLE", "Returned", "ForkedCallFailed", "ForkedServer", "call_forked"]

AVAILABLE = hasattr(os, "fork")
_T = TypeVar("_T")
_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_HEADER = struct.Struct("!Q")  # every message: its length, then its pickle
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Returned(Generic[_T]):
    """What the forked call returned."""

    value: _T


class ForkedCallFailed(RuntimeError):
    """The forked call raised something that does not pickle, or its child died."""


class ForkedServer:
    """A forked child answering `handle(request)` until it is closed or killed (module doc)."""

    def __init__(self, handle: Callable[[Any], Any]) -> None:
        self._owner = os.getpid()  # a copy of this object in another child is not its owner
        self._pid: int | None = None
        self._added = 0  # the child's growth, as it last reported it
        # Why in an `__enter__` and with Ctrl-C held: the interpreter runs its at-fork
        # callbacks (logging's lock release) inside os.fork(), and a stop or a
        # KeyboardInterrupt raised there is dropped ("Exception ignored") with the
        # lock left held; the run's hard stop never lands in an `__enter__`
        # (core.time_limit), and a Ctrl-C waits for the fork's end.
        with interrupt_deferred(), _Unstoppable(lambda: self._start(handle)):
            pass

    def _start(self, handle: Callable[[Any], Any]) -> None:
        parent = os.getpid()
        to_child, from_parent = os.pipe()[::-1]  # (write end, read end)
        from_child, to_parent = os.pipe()
        with warnings.catch_warnings():
            # Why it is safe despite Python's warning about threads: the child runs
            # only `handle` (native code) and pickling, and never takes a lock another
            # thread of the parent could hold.
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                pid = os.fork()
            except OSError as exc:
                for fd in (to_child, from_parent, from_child, to_parent):
                    os.close(fd)
                raise _fork_failed(exc) from None
        if pid == 0:
            _child(handle, from_parent, to_parent, parent)  # never returns
        os.close(from_parent)
        os.close(to_parent)
        self._to_child, self._from_child = to_child, from_child
        self._pid = pid

    @property
    def alive(self) -> bool:
        return self._pid is not None

    def ask(self, request: Any, seconds: float | None) -> Returned | None:
        """`handle(request)` in the child: its value, or None (the child killed) at `seconds`
        (None: no deadline)."""
        if self._pid is None:
            raise ForkedCallFailed("the forked server has already stopped")
        ends = None if seconds is None else time.monotonic() + max(seconds, 0.0)
        try:
            try:
                _write_all(self._to_child, _message(request))
            except BrokenPipeError:  # the child is dead: say how, below
                data: bytes | None = b""
            else:
                data = _read_message(self._from_child, ends)
        except BaseException:  # Ctrl-C, the run's hard stop, a broken pipe: no orphan
            self.close()
            raise
        if data is None:
            self.close()
            return None
        if not data:
            status = self._reap()
            raise ForkedCallFailed(f"the forked call died without an answer "
                                   f"({_how_it_ended(status)})")
        kind, payload, self._added = pickle.loads(data)
        if kind == "error":
            raise payload
        return Returned(payload)

    def close(self) -> None:
        """Kill the child (if it still runs) and reap it; its memory is filed."""
        with self:  # the work is in __exit__ (below)
            pass

    def __enter__(self) -> ForkedServer:
        return self

    def __exit__(self, *exc: object) -> None:
        # Why here: the run's hard stop never lands inside an `__exit__`
        # (core.time_limit), so killing and reaping are never cut in two.
        if self._pid is not None and os.getpid() == self._owner:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            self._reap()

    def __del__(self) -> None:
        # The safety net for a server dropped without `close()` (a stop that landed
        # between its making and its first use): its child must not idle on.
        with contextlib.suppress(Exception):
            self.__exit__()

    def _reap(self) -> int:
        pid, self._pid = self._pid, None
        os.close(self._to_child)
        os.close(self._from_child)
        _, status, usage = os.wait4(pid, 0)
        memory.note_forked(usage.ru_maxrss, self._added)
        return status


class _Unstoppable:
    """`with _Unstoppable(work):` runs `work()` in `__enter__`, where the run's hard stop
    never lands (core.time_limit: it rings again once the block is left)."""

    def __init__(self, work: Callable[[], None]) -> None:
        self._work = work

    def __enter__(self) -> None:
        self._work()

    def __exit__(self, *exc: object) -> None:
        return None


def _fork_failed(exc: OSError) -> Exception:
    """Out of memory is a memout like any other; anything else names its cause."""
    what = f"cannot fork a child for the call: {exc.strerror or exc}"
    return MemoryError(what) if exc.errno == errno.ENOMEM else ForkedCallFailed(what)


def call_forked(work: Callable[[], _T], seconds: float) -> Returned[_T] | None:
    """`work()` run in a forked child for at most `seconds`: its value, or None at the deadline."""
    with ForkedServer(lambda _request: work()) as server:
        return server.ask(None, seconds)


def _message(payload: Any) -> bytes:
    data = pickle.dumps(payload)
    return _HEADER.pack(len(data)) + data


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _read_message(fd: int, ends: float | None) -> bytes | None:
    """One message's pickle; b"" at end of file (the writer died); None when `ends` comes."""
    buffer = bytearray()
    wanted = _HEADER.size
    header_read = False
    while len(buffer) < wanted:
        if ends is not None:
            left = ends - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
        chunk = os.read(fd, min(_CHUNK, wanted - len(buffer)))
        if not chunk:
            return b""
        buffer += chunk
        if not header_read and len(buffer) == _HEADER.size:
            (length,) = _HEADER.unpack(buffer)
            buffer.clear()
            wanted, header_read = length, True
    return bytes(buffer)


def _how_it_ended(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"


def _child(handle: Callable[[Any], Any], reader: int, writer: int, parent: int) -> None:
    """The child's whole life: answer requests until end of file, then leave without
    unwinding into the parent's code."""
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        with contextlib.suppress(ValueError):  # the parent's wakeup fd is not the child's
            signal.set_wakeup_fd(-1)
        _close_all_but(reader, writer)
        _die_with(parent)
        baseline = memory.start_own_peak()
        while data := _read_message(reader, None):
            try:
                kind, payload = "value", handle(pickle.loads(data))
            except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
                kind, payload = "error", exc
            added = memory.own_peak_above(baseline)
            try:
                answer = _message((kind, payload, added))
            except Exception as exc:  # noqa: BLE001 - an answer that does not pickle fails
                failed = payload if kind == "error" else exc
                answer = _message(("error", ForkedCallFailed(
                    f"the forked call failed: {type(failed).__name__}: {failed}"), added))
            _write_all(writer, answer)
        code = 0
    finally:
        os._exit(code)


def _close_all_but(*kept: int) -> None:
    low = 3
    for fd in sorted(kept):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, os.sysconf("SC_OPEN_MAX"))


def _die_with(parent: int) -> None:
    """Have the kernel kill this child when its parent dies (Linux); gone already: go."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(1)
