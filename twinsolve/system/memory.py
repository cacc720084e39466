"""How much memory this process uses, and how much one run of work adds to it.

Two questions, two tools:
- *How much room is left?* The benchmark harness caps each worker's address
  space (RLIMIT_AS) a little above the `--memory` budget; a back-end that
  plans a large allocation (a layer count over all positions) asks `address_space_left`
  first, so it can take a cheaper road instead of dying of MemoryError.
- *How much did this run add?* `RunMemory` is started before a run and read
  after it. A long-lived worker already holds ~100 MB of imports, which are
  not the run's doing, so what counts is the run's peak resident size minus
  the resident size it started from (its baseline), plus the peak of any
  program it ran. Polling the resident size misses a run that rises and
  falls between two polls; the kernel's high-water mark (VmHWM) does not,
  and on Linux writing "5" to /proc/self/clear_refs resets it to the current
  size, so after the run `VmHWM - baseline` is exactly the run's own peak.
  Child programs: RUSAGE_CHILDREN's ru_maxrss is the largest peak of any
  child waited for so far and cannot be reset, so a run's children count
  only when they raise it. That is exact while every earlier child stayed
  within the budget (a child over it then always raises the maximum);
  `stale` says when it no longer holds, and the harness then replaces the
  worker.
  A forked solver call (`system.forked`) is a child too, but it starts with
  all of its parent's pages resident, so its kernel peak is mostly the
  parent's: the child measures what it added itself (`start_own_peak`,
  `own_peak_above`), the parent files that with the child's kernel peak
  (`note_forked`), and a run counts the forked calls' largest growth, and
  a rise of the children's peak only when a forked call does not explain it.

Garbage another run left. Python's cyclic collector runs when allocations
pass its thresholds, so what one run left unreachable in a reference cycle
is freed in the middle of whichever run comes next, on that run's clock and
within its memory. A measured run therefore starts with `collect_leftovers`
(a full collection, then the C allocator's trim, untimed), after
`keep_imports` once the imports are done (`gc.freeze`: what is alive then
is never scanned again, so the collection before each run costs what later
work left, not the ~70,000 objects of every puzzle's imports: about 15 ms a
run otherwise).

Linux reads /proc/self/statm and /proc/self/status; elsewhere the resident
size reads as 0, the peak comes from getrusage, and without a reset a run's
own peak counts only when it passes every earlier peak (and `stale` is
true once that peak is over the budget).
"""

from __future__ import annotations

import ctypes
import functools
import gc
import os
import resource
import sys
from collections.abc import Callable

__all__ = ["mapped_bytes", "address_space_left", "resident_bytes", "peak_resident_bytes",
           "children_peak_bytes", "reset_peak", "private_bytes", "start_own_peak", "own_peak_above",
           "note_forked", "RunMemory", "keep_imports", "collect_leftovers", "allocator_trim"]

_PAGE = os.sysconf("SC_PAGE_SIZE")
_RU_MAXRSS_UNIT = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB elsewhere


def _statm_field(index: int, pid: int | str = "self") -> int:
    try:
        with open(f"/proc/{pid}/statm") as statm:
            return int(statm.read().split()[index]) * _PAGE
    except (OSError, ValueError, IndexError):
        return 0


def mapped_bytes() -> int:
    """Bytes of address space this process has mapped now (0 when unknown)."""
    return _statm_field(0)


def resident_bytes(pid: int | str = "self") -> int:
    """Bytes of process `pid` (this one by default) resident in memory now (0 when unknown)."""
    return _statm_field(1, pid)


def private_bytes(pid: int) -> int:
    """Bytes process `pid` holds alone (smaps_rollup's Private_*, not the pages it shares
    with its parent after a fork), or its resident size when that is unknown."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as rollup:
            private = [int(line.split()[1]) * 1024 for line in rollup
                       if line.startswith((b"Private_Clean:", b"Private_Dirty:"))]
    except (OSError, ValueError, IndexError):
        private = []
    return sum(private) if private else resident_bytes(pid)


def keep_imports() -> None:
    """Leave everything alive now out of the collector's later passes (`gc.freeze`, after a
    full collection): a long-lived process calls it once its imports and warm-up are done,
    so that `collect_leftovers` scans only what came after (the module docstring)."""
    gc.collect()
    gc.freeze()


def collect_leftovers() -> None:
    """Free the garbage earlier work left (a full collection), and have the C allocator
    settle what was freed (glibc's `malloc_trim`, where there is one): called before a
    measured run, outside its clocks, so the run pays for no other run's leftovers.

    Why, the collection: a puzzlekit run stopped at its time limit on 261_20x36 of the
    janko.at Nurikabe corpus leaves a CP-SAT model behind whose freeing took 0.6 s, and
    `hand` on the next puzzle (0.24 s alone) was measured at 0.94 s
    (`benchmarks.nurikabe_perf`). The allocator: glibc merges the chunks a large free
    left (1.3 GB after a puzzlekit run stopped on 1030_32x32) only at a later, larger
    request, so `hand` on the next puzzle, 0.008 s alone, took 1.1 s of CPU even after
    the collection; trimmed first, 0.008 s (and the memory goes back to the system, so
    the next run's baseline is its own)."""
    gc.collect()
    trim = allocator_trim()
    if trim is not None:
        trim(0)


@functools.cache
def allocator_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None where the C library has none (macOS, musl)."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


def address_space_left() -> int | None:
    """Bytes the soft RLIMIT_AS still allows, or None when there is no limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    return max(0, soft - mapped_bytes())


def peak_resident_bytes() -> int:
    """This process's resident high-water mark in bytes (since start or the last reset)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * _RU_MAXRSS_UNIT


def children_peak_bytes() -> int:
    """The largest resident peak of any child process waited for so far, in bytes."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * _RU_MAXRSS_UNIT


def reset_peak() -> bool:
    """Reset the resident high-water mark to the current size (Linux); False if impossible."""
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
        return True
    except OSError:
        return False


def start_own_peak() -> int:
    """Reset the peak and return the size to measure growth from (in a forked child)."""
    reset_peak()
    return resident_bytes() or peak_resident_bytes()


def own_peak_above(baseline: int) -> int:
    """Bytes this process's peak rose above `baseline` (from `start_own_peak`)."""
    return max(0, peak_resident_bytes() - baseline)


# One record per forked call this process made: (the child's kernel peak, what it added).
_forked: list[tuple[int, int]] = []


def note_forked(child_peak_kib: int, added: int) -> None:
    """File a reaped forked call: its `ru_maxrss` and the growth it measured itself."""
    _forked.append((child_peak_kib * _RU_MAXRSS_UNIT, added))


class RunMemory:
    """What one run adds to this process's resident memory at its peak, children included.

    Start it just before the run, call `added()` after; `baseline` is the
    resident size the run started from.
    """

    def __init__(self) -> None:
        self._reset = reset_peak()
        self._own_peak = peak_resident_bytes()
        # Without a resident reading (not Linux), the peak so far bounds the baseline.
        self.baseline = resident_bytes() or self._own_peak
        self._children_peak = children_peak_bytes()
        self._forked_from = len(_forked)

    def added(self) -> int:
        """Bytes: the run's own peak above its baseline, plus its child programs' peak,
        plus the largest growth of a forked call it made."""
        own = peak_resident_bytes()
        children = children_peak_bytes()
        forked = _forked[self._forked_from:]
        forked_peak = max((peak for peak, _ in forked), default=0)
        forked_added = max((added for _, added in forked), default=0)
        # A peak that did not rise is no larger than before the run: with the reset
        # that means nothing was added; without it the run stayed under an old peak.
        own_added = own - self.baseline if own > self._own_peak else 0
        # A rise a forked call explains is its parent's pages, counted in own_added.
        raised = children > self._children_peak and children > forked_peak
        children_added = children if raised else 0
        return max(0, own_added) + children_added + forked_added

    def stale(self, budget: int) -> bool:
        """True when a later run here could hide a peak over `budget` bytes from `added`.

        That happens once a peak that cannot be reset (a child's, or this
        process's own without clear_refs) is already over the budget: a
        later run's peak over the budget but under it would not raise it.
        """
        own_stuck = not self._reset and peak_resident_bytes() - self.baseline > budget
        return own_stuck or children_peak_bytes() > budget
