"""Test-only back-ends that misbehave on purpose, for every puzzle.

They prove the harness survives what real solvers do on bad days: `crash`
kills its process with SIGSEGV, `abort` with SIGABRT (as a C++ assertion
would), `hang` ignores its time limit, `memory` allocates without bound,
`burst` needs 48 MB for a few milliseconds and then answers as `hand` does
(a run over a small budget that ends between two polls of the harness), and
`wrong` returns an answer that `verify` rejects. Three more have a known
cost, for the harness's measurements, and then answer as `hand` does:
`spin` burns 0.5 s of CPU, `sleep` sleeps 0.5 s (no CPU), `hold` holds 200
MB for 0.3 s. They are registered as `fault-*` back-ends (test only: never
planned by default, not listed).
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any

from ..core.limits import Limits
from ..core.result import Result, Status, Stopwatch
from ..core.run import run

__all__ = ["crash", "abort", "hang", "memory", "burst", "wrong", "spin", "sleep", "hold"]

BURST_MB = 48
COST_S = 0.5    # spin's CPU seconds, sleep's seconds
HOLD_MB = 200   # what hold keeps resident
HOLD_S = 0.3


def crash(instance: Any, limits: Limits) -> Result:
    os.kill(os.getpid(), signal.SIGSEGV)
    raise AssertionError("unreachable")


def abort(instance: Any, limits: Limits) -> Result:
    os.abort()


def hang(instance: Any, limits: Limits) -> Result:
    while True:  # ignores limits.timeout: only the harness can stop it
        time.sleep(0.05)


def _resident_block(mb: int) -> bytearray:
    block = bytearray(mb << 20)
    block[::4096] = b"\x01" * len(block[::4096])  # touched, so it is really resident
    return block


def memory(instance: Any, limits: Limits) -> Result:
    hoard = []
    while True:  # 64 MiB at a time
        hoard.append(_resident_block(64))


def burst(instance: Any, limits: Limits) -> Result:
    _resident_block(BURST_MB)  # resident for a moment, then dropped
    return run(instance, "hand", limits)


def wrong(instance: Any, limits: Limits) -> Result:
    watch = Stopwatch()
    watch.built()
    return Result(Status.SOLVED, {"not": "a solution"}, None, stats=watch.stats(nodes=1))


def spin(instance: Any, limits: Limits) -> Result:
    end = time.process_time() + COST_S
    while time.process_time() < end:  # CPU time, whatever else runs on the host
        pass
    return run(instance, "hand", limits)


def sleep(instance: Any, limits: Limits) -> Result:
    time.sleep(COST_S)
    return run(instance, "hand", limits)


def hold(instance: Any, limits: Limits) -> Result:
    block = _resident_block(HOLD_MB)
    time.sleep(HOLD_S)  # resident long enough for the harness's polls to see it too
    del block
    return run(instance, "hand", limits)
