"""Ctrl-C during a solver call in native code: stop the call, then raise as Python does.

A solver blocked in C code (CP-SAT, PySAT) does not see a
`KeyboardInterrupt` until it returns, which may be the whole time limit
later. `on_interrupt(stop)` wraps such a call: Python's own SIGINT handler
still raises `KeyboardInterrupt` once the call returns, and a watcher thread,
woken through `signal.set_wakeup_fd`, calls `stop()` (`stop_search`,
`interrupt`) so that it returns at once. The interrupt then wins: the caller
never reports the stopped call as a time-out. `interrupt_deferred()` holds a
Ctrl-C back for a few statements that must not be cut in two (freeing a
solver and forgetting its pointer) and raises it right after.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["on_interrupt", "interrupt_deferred"]


class _Watcher:
    """One daemon thread per process, woken by the signal wakeup fd (module docstring)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._lock = threading.Lock()
        self._stops: list[Callable[[], None]] = []
        self._reader, self._writer = socket.socketpair()
        self._writer.setblocking(False)  # set_wakeup_fd requires it
        threading.Thread(target=self._watch, name="twinsolve-interrupt", daemon=True).start()

    @property
    def fd(self) -> int:
        return self._writer.fileno()

    def add(self, stop: Callable[[], None]) -> None:
        with self._lock:
            self._stops.append(stop)

    def remove(self, stop: Callable[[], None]) -> None:
        with self._lock:
            self._stops.remove(stop)

    def _watch(self) -> None:
        while data := self._reader.recv(64):
            if signal.SIGINT in data:
                # Under the lock: a stop is never called after its call has ended.
                with self._lock:
                    for stop in self._stops:
                        try:
                            stop()
                        except Exception:  # noqa: BLE001 - a solver already freed
                            pass


_watcher: _Watcher | None = None


def _current_watcher() -> _Watcher:
    global _watcher
    if _watcher is None or _watcher.pid != os.getpid():  # a forked child needs its own thread
        _watcher = _Watcher()
    return _watcher


@contextmanager
def on_interrupt(stop: Callable[[], None]) -> Iterator[None]:
    """While inside, Ctrl-C (SIGINT) also calls `stop()` from another thread.

    For a solver call that blocks in C code: `stop` makes it return early
    (`CpSolver.stop_search`, a PySAT solver's `interrupt`), and Python's
    SIGINT handler raises `KeyboardInterrupt` as soon as it has. Does nothing
    outside the main thread or when SIGINT is not handled by Python (ignored,
    as in a benchmark worker): then no `KeyboardInterrupt` would follow.
    """
    handled = callable(signal.getsignal(signal.SIGINT))
    if not handled or threading.current_thread() is not threading.main_thread():
        yield
        return
    watcher = _current_watcher()
    previous = signal.set_wakeup_fd(watcher.fd, warn_on_full_buffer=False)
    watcher.add(stop)
    try:
        yield
    finally:
        watcher.remove(stop)
        signal.set_wakeup_fd(previous)


@contextmanager
def interrupt_deferred() -> Iterator[None]:
    """While inside, a Ctrl-C waits; it is raised as KeyboardInterrupt on leaving.

    Why: PySAT's `delete()` frees the solver, then clears its pointer; an
    interrupt between the two makes `__del__` free it again (the process aborts
    with "double free"). Main thread only, with a Python SIGINT handler.
    """
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous) or threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[tuple[int, Any]] = []
    signal.signal(signal.SIGINT, lambda signum, frame: held.append((signum, frame)))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if held:
            previous(*held[0])
