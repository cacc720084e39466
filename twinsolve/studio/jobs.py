"""Heavy work off the server: each solve, count, search or generation in a process of its own.

The rules: the server never runs a back-end, a generator or an explanation
itself. A job runs in a child process forked from the server (so it starts
in milliseconds, with every module already imported), in that process's only
thread, where the time limit's hard stop works (`core.time_limit`: a signal,
which only a main thread may take). The child sends back one picklable value
or one line of error and exits. The server waits at most the job's seconds
plus a grace, then kills the child: a back-end that loops, crashes or eats
memory costs its own process, never the server, which keeps serving. At most
`SLOTS` jobs run at once (the machine's cores); more wait their turn, each
within its own limit.

Only plain values cross: a `Result` travels as its JSON form, an instance as
its text, so nothing the server keeps comes from a child but data.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from ..core.errors import InstanceError, UsageError
from ..core.time_limit import grace_seconds

__all__ = ["run_job", "SLOTS", "KILL_SLACK_S"]

SLOTS = max(1, min(2, os.cpu_count() or 1))
KILL_SLACK_S = 1.0   # past the job's own hard stop, before the server kills it
_FORK = multiprocessing.get_context("fork")
_slots = threading.BoundedSemaphore(SLOTS)


def _child(send: Any, work: Callable[..., Any], args: tuple) -> None:
    """In the forked process: run `work`, send ("ok", value) or ("error", one line)."""
    try:
        reply = ("ok", work(*args))
    except (InstanceError, UsageError) as exc:
        reply = ("error", str(exc))
    except MemoryError:
        reply = ("error", "out of memory")
    except BaseException as exc:  # a job's crash is its answer, never the server's
        reply = ("error", f"{type(exc).__name__}: {exc}".splitlines()[0])
    try:
        send.send(reply)
    except Exception as exc:  # the value could not be sent (not picklable, too large)
        send.send(("error", f"the job's answer could not be sent back: {exc}"))


def run_job(work: Callable[..., Any], *args: Any, seconds: float, what: str) -> Any:
    """`work(*args)` in a child process, within `seconds` (plus the hard stop's grace);
    its value, or a `UsageError` of one line: its own error, a crash, or the time out.
    `what` names the job in those messages ("solving with sat")."""
    with _slots:
        receive, send = _FORK.Pipe(duplex=False)
        child = _FORK.Process(target=_child, args=(send, work, args), daemon=True)
        started = time.perf_counter()
        child.start()
        send.close()
        try:
            if not receive.poll(seconds + grace_seconds(seconds) + KILL_SLACK_S):
                raise UsageError(f"{what}: stopped after {time.perf_counter() - started:.1f} s "
                                 f"(the limit is {seconds:g} s)")
            kind, value = receive.recv()
        except (EOFError, OSError):
            raise UsageError(f"{what}: its process ended without an answer "
                             f"(exit code {child.exitcode})") from None
        finally:
            receive.close()
            if child.is_alive():
                child.kill()
            child.join()
    if kind == "error":
        raise UsageError(f"{what}: {value}")
    return value
