"""Test-only back-ends that misbehave on purpose, for every puzzle.

They prove the harness survives what real solvers do on bad days: `crash`
kills its process with SIGSEGV, `abort` with SIGABRT (as a C++ assertion
would), `hang` ignores its time limit, `memory` allocates without bound, and
`wrong` returns an answer that `verify` rejects. They are registered as
`fault-*` back-ends (test only: never planned by default, not listed).
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from ..core.limits import Limits
from ..core.result import Result, Status, Stopwatch

__all__ = ["crash", "abort", "hang", "memory", "wrong"]


def crash(instance: Any, limits: Limits) -> Result:
    os.kill(os.getpid(), signal.SIGSEGV)
    raise AssertionError("unreachable")


def abort(instance: Any, limits: Limits) -> Result:
    os.abort()


def hang(instance: Any, limits: Limits) -> Result:
    while True:  # ignores limits.timeout: only the harness can stop it
        time.sleep(0.05)


def memory(instance: Any, limits: Limits) -> Result:
    hoard = []
    while True:  # 64 MiB at a time, touched so it is really resident
        hoard.append(bytearray(64 << 20))
        hoard[-1][::4096] = b"\x01" * len(hoard[-1][::4096])


def wrong(instance: Any, limits: Limits) -> Result:
    watch = Stopwatch()
    watch.built()
    return Result(Status.SOLVED, {"not": "a solution"}, None, stats=watch.stats(nodes=1))
