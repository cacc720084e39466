"""Test-only back-ends that misbehave on purpose, for every puzzle.

They prove the harness survives what real solvers do on bad days: `crash`
kills its process with SIGSEGV, `abort` with SIGABRT (as a C++ assertion
would), `hang` ignores its time limit, `memory` allocates without bound,
`burst` needs 48 MB for a few milliseconds and then answers as `hand` does
(a run over a small budget that ends between two polls of the harness), and
`wrong` returns an answer that `verify` rejects. Four more have a known
cost, for the harness's measurements, and then answer as `hand` does:
`spin` burns 0.5 s of CPU, `sleep` sleeps 0.5 s (no CPU), `hold` holds 200
MB for 0.3 s, and `litter` leaves garbage behind whose freeing burns 0.5 s
of CPU (a reference cycle in the collector's oldest generation, as a large
model a run held to its end; and it starts with a full collection, as a run
that allocates enough wakes the collector, so without the harness's own
collection between runs it would pay for the litter of the run before).
They are registered as `fault-*` back-ends (test only: never planned by
default, not listed).
"""

from __future__ import annotations

import gc
import os
import signal
import time
from typing import Any

from ..core.limits import Limits
from ..core.result import Result, Status, Stopwatch
from ..core.run import run

__all__ = ["crash", "abort", "hang", "memory", "burst", "wrong", "spin", "sleep", "hold", "litter"]

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


def _burn(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:  # CPU time, whatever else runs on the host
        pass


def spin(instance: Any, limits: Limits) -> Result:
    _burn(COST_S)
    return run(instance, "hand", limits)


def sleep(instance: Any, limits: Limits) -> Result:
    time.sleep(COST_S)
    return run(instance, "hand", limits)


def hold(instance: Any, limits: Limits) -> Result:
    block = _resident_block(HOLD_MB)
    time.sleep(HOLD_S)  # resident long enough for the harness's polls to see it too
    del block
    return run(instance, "hand", limits)


class _Litter:
    """A reference cycle whose freeing burns `COST_S` of CPU (its finalizer)."""

    left: _Litter | None = None  # holds one while it ages into the oldest generation

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        _burn(COST_S)


def litter(instance: Any, limits: Limits) -> Result:
    gc.collect()  # whatever garbage is pending is freed now, and this run pays for it
    _Litter.left = _Litter()
    gc.collect()  # still held: it moves to the oldest generation, which is seldom collected
    _Litter.left = None  # garbage now, which only a full collection frees
    return run(instance, "hand", limits)
