"""How fast the mirror maze back-ends are, on easy and on hard levels.

    python -m benchmarks.mirror_perf [--levels 5] [--repeats 5] [--dense]

Families of generated levels (`twinsolve.puzzles.mirror.generate`, fixed seeds):

- easy-20x20 / easy-50x50: `random_level` with 30 / 150 rotatable mirrors;
- hard-20x20 / hard-50x50: `hard_level`, where the relaxed 0-1 BFS bound is
  below the exact optimum (a beam must cross a `?` twice with conflicting
  needs), so A* has to work past its first bound;
- with `--dense`, easy-50x50-dense / hard-50x50-dense with 250 rotatable mirrors.

Every back-end solves every level `--repeats` times (one warm-up call first,
so imports are not timed; a run over a second is not repeated); each level's
time is the median of its repeats and a family's figure is the median over
its levels (max beside it). Then, with `--shipped DIR` (default
`instances/mirror` when it exists), one line per shipped level: its relaxed
bound and optimum, and each back-end's time and nodes.
Answers are verified and must agree across back-ends. The targets from the
issue are checked at the end: hand 20x20 < 10 ms; 50x50 hand < 0.2 s,
cpsat and sat < 3 s.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from twinsolve.core.limits import Limits
from twinsolve.core.registry import puzzle
from twinsolve.core.result import Result, Status
from twinsolve.core.run import check, load_file
from twinsolve.puzzles.mirror.generate import RELAXATION_GAP, hard_level, random_level
from twinsolve.puzzles.mirror.hand import relaxed_bound
from twinsolve.puzzles.mirror.rules import Instance, parse

__all__ = ["main", "Family", "families", "measure", "shipped"]

BACKENDS = ("hand", "cpsat", "sat")
# (family, back-end) -> seconds: the targets for the median.
TARGETS = {("easy-20x20", "hand"): 0.010, ("hard-20x20", "hand"): 0.010,
           **{(f"{kind}-50x50", backend): limit for kind in ("easy", "hard")
              for backend, limit in (("hand", 0.2), ("cpsat", 3.0), ("sat", 3.0))}}
_DENSE = {"density": 0.3, "wall_share": 0.05}


@dataclass
class Family:
    name: str
    make: Callable[[int], Instance]
    levels: list[Instance] = field(default_factory=list)
    seconds: dict[str, list[float]] = field(default_factory=dict)   # per level, median
    nodes: dict[str, list[int]] = field(default_factory=dict)
    gaps: list[int] = field(default_factory=list)   # optimum - relaxed bound, per level


def families(dense: bool) -> list[Family]:
    found = [
        Family("easy-20x20", lambda s: random_level(20, 20, s, rotatable=30, min_flips=3,
                                                    **_DENSE)),
        Family("hard-20x20", lambda s: hard_level(20, 20, s, rotatable=30, min_flips=3,
                                                  **_DENSE)),
        Family("easy-50x50", lambda s: random_level(50, 50, s, rotatable=150, min_flips=5,
                                                    **_DENSE)),
        Family("hard-50x50", lambda s: hard_level(50, 50, s, rotatable=150, min_flips=4,
                                                  **_DENSE)),
    ]
    if dense:
        found += [
            Family("easy-50x50-dense", lambda s: random_level(
                50, 50, s, rotatable=250, min_flips=6, **_DENSE)),
            Family("hard-50x50-dense", lambda s: hard_level(
                50, 50, s, rotatable=250, min_flips=5, **_DENSE)),
        ]
    return found


def _solve_timed(level: Instance, backend: str, limits: Limits) -> tuple[Result, float]:
    solve = puzzle("mirror").backend(backend).solve
    started = time.perf_counter()
    result = solve(level, limits)
    return result, time.perf_counter() - started


def _median_run(level: Instance, backend: str, limits: Limits,
                repeats: int) -> tuple[Result, float]:
    """The verified result and the median time of up to `repeats` runs (one if slow)."""
    result, seconds = _solve_timed(level, backend, limits)
    times = [seconds]
    while len(times) < repeats and seconds < 1.0:
        result, seconds = _solve_timed(level, backend, limits)
        times.append(seconds)
    return check(level, result), statistics.median(times)


def measure(family: Family, count: int, repeats: int, limits: Limits) -> None:
    """Generate `count` levels of `family` and time every back-end on them."""
    family.levels = [family.make(1000 + seed) for seed in range(count)]
    for level in family.levels:
        optima = set()
        for backend in BACKENDS:
            result, seconds = _median_run(level, backend, limits, repeats)
            if result.status is not Status.OPTIMAL:
                raise SystemExit(f"{family.name}: {backend} gave {result.status} "
                                 f"({result.message})")
            optima.add(result.objective)
            family.seconds.setdefault(backend, []).append(seconds)
            family.nodes.setdefault(backend, []).append(result.stats.nodes)
        if len(optima) != 1:
            raise SystemExit(f"{family.name}: back-ends disagree on the optimum: {optima}")
        family.gaps.append(optima.pop() - relaxed_bound(level))


def _report(family: Family) -> list[str]:
    lines = [f"{family.name}: {len(family.levels)} levels, rotatable mirrors "
             f"{statistics.median(len(lv.rotatable()) for lv in family.levels):.0f}, "
             f"optimum - relaxed bound: {family.gaps}"]
    hand = statistics.median(family.seconds["hand"])
    for backend in BACKENDS:
        seconds, nodes = family.seconds[backend], family.nodes[backend]
        median = statistics.median(seconds)
        target = TARGETS.get((family.name, backend))
        verdict = "" if target is None else (
            f"  target < {target * 1000:g} ms: {'ok' if median < target else 'MISSED'}")
        lines.append(f"  {backend:5s} median {median * 1000:9.1f} ms  "
                     f"max {max(seconds) * 1000:9.1f} ms  x{median / hand:7.1f} hand  "
                     f"nodes median {statistics.median(nodes):9.0f} max {max(nodes):9d}{verdict}")
    return lines


def shipped(folder: Path, repeats: int, limits: Limits) -> None:
    """One line per shipped level: bound, optimum, each back-end's time and nodes."""
    print(f"shipped levels in {folder} (ms / nodes; ! = disagrees with the metadata, "
          "? = not proven in time)")
    for path in sorted(folder.glob("*.txt")):
        level = load_file(path)
        expected = dict(level.meta).get("expect-objective")
        cells = []
        for backend in BACKENDS:
            result, seconds = _median_run(level, backend, limits, repeats)
            proven = result.status in (Status.OPTIMAL, Status.UNSAT)
            wrong = result.status is Status.WRONG or (proven and expected != (
                None if result.objective is None else str(result.objective)))
            flag = "!" if wrong else " " if proven else "?"
            cells.append(f"{backend} {seconds * 1000:8.1f} / {result.stats.nodes:<7d}{flag}")
        print(f"  {path.stem:18s} ?={len(level.rotatable()):<4d} bound "
              f"{relaxed_bound(level)!s:>4} opt {expected or 'unsat':>5}  " + "  ".join(cells),
              flush=True)


def _warm_up(limits: Limits) -> None:
    """Import OR-Tools and PySAT and run each back-end once, outside the timings."""
    level = parse(RELAXATION_GAP)
    for backend in BACKENDS:
        _solve_timed(level, backend, limits)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=5, help="levels per family")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per level")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--dense", action="store_true", help="add 250-mirror 50x50 families")
    parser.add_argument("--shipped", type=Path, default=Path("instances/mirror"),
                        help="also time the levels in this folder (skipped if missing)")
    args = parser.parse_args(argv)
    limits = Limits(timeout=args.timeout)
    _warm_up(limits)
    missed = 0
    for family in families(args.dense):
        started = time.perf_counter()
        measure(family, args.levels, args.repeats, limits)
        lines = _report(family)
        print("\n".join(lines) + f"\n  (generated and measured in "
              f"{time.perf_counter() - started:.1f} s)", flush=True)
        missed += sum("MISSED" in line for line in lines)
    print("all targets met" if not missed else f"{missed} target(s) missed")
    if args.shipped.is_dir():
        shipped(args.shipped, args.repeats, limits)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
