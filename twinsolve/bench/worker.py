"""The benchmark worker process: runs one task at a time for the harness.

Started as `python -m twinsolve.bench.worker` in a process group of its own,
it pays the imports once and then serves tasks forever. The protocol is one
JSON object per line: the harness writes a task to stdin —

    {"id": 3, "text": "<instance text>", "source": "path", "backend": "sat",
     "limits": {"timeout": 10, "seed": 0, "unique": false, "count": false,
                "options": {}}, "memory_mb": 2048}

— and reads one reply from the worker's protocol channel:

    {"id": 3, "result": {...Result fields...}, "wall_s": 0.13, "cpu_s": 0.12,
     "mem_mb": 4.2, "retire": false}

The measurements are the run's own, taken around parsing, running and
checking: `wall_s` (wall-clock seconds), `cpu_s` (user + system seconds of
this process and of the programs it started and waited for) and `mem_mb`
(the peak resident memory the run added, in MiB: see below), for every run,
with or without a memory budget.

Why the protocol uses a duplicate of the original stdout: solver libraries may
print to file descriptor 1, so fd 1 is pointed at stderr and only the worker
writes the protocol stream.

Before each task, outside its clocks, the worker frees the garbage earlier
tasks left and has the C allocator settle what was freed
(twinsolve.system.memory's `collect_leftovers`), so no run pays for
another's: the collector would otherwise free it in the middle of the next
run (a peer's CP-SAT model left by a time-out took 0.6 s to free), and the
allocator merge the freed chunks at the next run's first large request (1.1
s of CPU after 1.3 GB freed). The imports are left out of those collections
once warmed up (`keep_imports`).

Memory (`memory_mb`, the `--memory` budget) is what the run adds, not what the
worker holds: its ~100 MB of imports are not the run's doing. Before each
task the worker notes its resident size and resets its peak
(twinsolve.system.memory.RunMemory); a run whose peak rose more than the budget
above that baseline (child programs' peaks counted whole) is `memout`, even
when it finished between two of the harness's polls. The harness polls the
same quantity while the run lasts and kills a run that is over it, and
replaces the worker when its reply says `retire` (a peak that cannot be
reset is over the budget, so a later run could hide behind it). The
address-space limit (RLIMIT_AS) stays as a backstop: set per task to what the
process already maps plus the budget plus slack, so a run that allocates far
past it fails with MemoryError (also `memout`) instead of taking the machine
down.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sys
import time
from typing import Any

from ..core.errors import InstanceError, UsageError
from ..core.limits import Limits
from ..core.result import Result, Status
from ..core.run import parse_text, run
from ..system.memory import RunMemory, collect_leftovers, keep_imports, mapped_bytes

__all__ = ["main", "USAGE_ERROR"]

USAGE_ERROR = "usage_error"  # set in a reply's result when the back-end refused its spec

# Headroom above the requested budget for the address space (not the resident
# set): thread stacks and malloc arenas reserve address space they never touch.
_ADDRESS_SLACK = 1 << 30


def _cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _over_budget(result: Result, memory: RunMemory, memory_mb: int | None) -> Result:
    """`memout` for a run whose peak added more than `memory_mb`, whatever it answered."""
    added = memory.added()
    if not memory_mb or added <= memory_mb << 20 or result.status is Status.MEMOUT:
        return result
    return result.with_(status=Status.MEMOUT, solution=None, objective=None, unique=None,
                        count=None, verified=None,
                        message=f"the run added {added / (1 << 20):.0f} MB at its peak "
                                f"(limit {memory_mb} MB)")


def _run_task(task: dict[str, Any]) -> dict[str, Any]:
    # Earlier runs' garbage, freed now rather than while this run is timed, and before the
    # address-space cap below is set from what the process maps.
    collect_leftovers()
    limits = Limits.from_json(task["limits"])
    memory_mb = task.get("memory_mb")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if memory_mb:
        cap = mapped_bytes() + memory_mb * (1 << 20) + _ADDRESS_SLACK
        resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY
                                                else min(cap, hard), hard))
    memory = RunMemory()  # before the clocks start: resetting the peak takes a moment
    start, wall = _cpu_seconds(), time.perf_counter()
    try:
        instance = parse_text(task["text"], task.get("source"))
        result = run(instance, task["backend"], limits)
    except (InstanceError, UsageError) as exc:
        # The user's mistake, not the back-end's (a bad option value, say): the
        # harness stops the suite on it and reports it as a usage error.
        refused = {**Result(Status.ERROR, message=str(exc)).to_json(), USAGE_ERROR: True}
        return {"id": task.get("id"), "result": refused, "wall_s": 0.0, "cpu_s": 0.0}
    except MemoryError:
        result = Result(Status.MEMOUT, message="out of memory (address-space limit)")
    finally:
        if memory_mb:
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    cpu_s, wall_s = _cpu_seconds() - start, time.perf_counter() - wall
    result = _over_budget(result, memory, memory_mb)
    # "retire": this worker can no longer see every run over the budget (see
    # twinsolve.system.memory); the harness starts a fresh one for the next task.
    return {"id": task.get("id"), "result": result.to_json(), "wall_s": wall_s,
            "cpu_s": cpu_s, "mem_mb": memory.added() / (1 << 20),
            "retire": bool(memory_mb) and memory.stale(memory_mb << 20)}


def _warm_up() -> None:
    """Import every puzzle and back-end module now, so no run pays for imports."""
    import importlib

    from ..core.registry import puzzles

    for entry in puzzles():
        for target in [entry.rules_module] + [b.target for b in entry.backends]:
            try:
                importlib.import_module(target.partition(":")[0])
            except ImportError:
                pass  # a missing optional solver fails only the runs that need it


def _die_with_parent() -> None:
    """Ask Linux to SIGKILL this worker when the harness dies, even by `kill -9`.

    Without it a worker stuck in a hanging back-end would outlive a killed
    harness forever (it sits in its own process group, out of reach of a
    terminal's Ctrl-C).
    """
    parent = os.getppid()
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the harness died before prctl took effect
        os._exit(1)


def main() -> int:
    _die_with_parent()
    _warm_up()
    keep_imports()
    protocol = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)  # anything a solver prints goes to stderr, not into the protocol
    protocol.write(json.dumps({"ready": True, "pid": os.getpid()}) + "\n")
    for line in sys.stdin:
        if not line.strip():
            continue
        reply = _run_task(json.loads(line))
        protocol.write(json.dumps(reply) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
