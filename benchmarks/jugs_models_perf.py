"""Water jugs, CP-SAT: the automaton against the step encoding (`-m benchmarks.jugs_models_perf`).

For every puzzle: `hand`, `cpsat` (`encoding=automaton`, the default) and
`cpsat:encoding=steps` (the planning encoding before it), each the median
wall time over `--repeats` runs through `twinsolve.core.run.run` (every plan
verified), its status and nodes (CP-SAT branches, summed over horizons),
then the ratio steps / automaton. A run that stops at the time limit
(default 30 s, as in issue 16) is not repeated, and a ratio against it is a
lower bound (">="). Three sets:

1. the shipped puzzles (instances/jugs/, graded/ included);
2. `long_decantings()`: 3-jug pour-only puzzles, the largest jug full, the
   goal a farthest state (14 to 20 moves), found by the engine's BFS;
3. `--generated DIR`: any folder of puzzles, e.g. 3-jug pour-only ones from
   `twinsolve generate jugs --difficulty hard --length 18 --option jugs=3
   --count 5 --seed 11 --out DIR` (the generator draws the family, so keep
   the files whose moves are `pour` alone).

One warm-up CP-SAT call comes first: the first solve of a process pays
about 0.3 s of loading.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from benchmarks.jugs_perf import median_run
from twinsolve.core.limits import Limits
from twinsolve.core.result import Result, Status
from twinsolve.core.run import load_file, run
from twinsolve.puzzles.jugs.hand import space
from twinsolve.puzzles.jugs.rules import Goal, GoalKind, Instance, MoveKind
from twinsolve.search.bfs import bfs_distances

__all__ = ["long_decantings", "DECANTINGS", "main"]

ROOT = Path(__file__).resolve().parents[1]
SPECS = ("hand", "cpsat", "cpsat:encoding=steps")
_PROVEN = (Status.OPTIMAL, Status.SOLVED, Status.UNSAT)
# Capacities of 3-jug decantings whose farthest states lie 14 to 20 pours away.
DECANTINGS = ((23, 14, 13), (24, 14, 13), (21, 13, 8), (26, 15, 11), (19, 11, 7))


def long_decantings(least: int = 14) -> list[tuple[str, Instance]]:
    """(name, puzzle): for each of `DECANTINGS`, the largest jug full and pour moves only,
    every farthest state as an `exact` goal when it is at least `least` pours away."""
    found = []
    for caps in DECANTINGS:
        base = Instance(caps, (caps[0], 0, 0), (MoveKind.POUR,), Goal(GoalKind.HOLDS, (0,)))
        depth = bfs_distances(base.start, space(base).successors)
        deepest = max(depth.values())
        if deepest >= least:
            found += [(f"decant {'-'.join(map(str, caps))} -> {'-'.join(map(str, state))}",
                       Instance(caps, base.start, base.kinds, Goal(GoalKind.EXACT, state)))
                      for state, d in depth.items() if d == deepest]
    return found


def _files(folder: Path) -> list[tuple[str, Instance]]:
    return [(str(path.relative_to(folder)), load_file(path))
            for path in sorted(folder.rglob("*.txt"))]


def _cell(seconds: float, result: Result) -> str:
    mark = " " if result.status in _PROVEN else "*"
    length = "" if result.objective is None else str(result.objective)
    return f"{result.status.value:>8}{mark}{length:>3} {seconds:7.3f} s {result.stats.nodes:>8}"


def _compare(title: str, puzzles: list[tuple[str, Instance]], repeats: int,
             timeout: float) -> list[float]:
    """Print one row per puzzle; returns the steps / automaton time ratios."""
    print(f"\n{title}")
    print(f"{'puzzle':<44} " + " | ".join(f"{spec:>31}" for spec in SPECS)
          + " | steps/auto")
    ratios = []
    for name, instance in puzzles:
        cells, timed = [], {}
        for spec in SPECS:
            seconds, result = median_run(instance, spec, repeats, Limits(timeout=timeout))
            timed[spec] = (seconds, result)
            cells.append(_cell(seconds, result))
        (auto_s, _), (steps_s, steps) = timed["cpsat"], timed["cpsat:encoding=steps"]
        ratio = steps_s / auto_s if auto_s > 0 else float("inf")
        ratios.append(ratio)
        bound = "  " if steps.status in _PROVEN else ">="
        print(f"{name[:44]:<44} " + " | ".join(cells) + f" | {bound}{ratio:,.1f}", flush=True)
    return ratios


def _summary(ratios: list[float]) -> None:
    ordered = sorted(ratios)
    print(f"steps / automaton over {len(ordered)} puzzles: median {ordered[len(ordered) // 2]:,.1f}"
          f", least {ordered[0]:,.2f}, most {ordered[-1]:,.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds per run (default 30)")
    parser.add_argument("--generated", type=Path, default=None,
                        help="a folder of generated puzzles to compare too")
    parser.add_argument("--skip-shipped", action="store_true")
    args = parser.parse_args(argv)
    run(load_file(ROOT / "instances" / "jugs" / "die-hard-holds-4.txt"), "cpsat", Limits())
    print(f"medians of {args.repeats} runs, time limit {args.timeout:g} s; each cell: status "
          "(* = stopped at the limit, not repeated), moves, time, nodes")
    sets = [] if args.skip_shipped else [
        ("shipped (instances/jugs)", _files(ROOT / "instances" / "jugs"))]
    sets.append(("3-jug pour-only decantings, farthest goals", long_decantings()))
    if args.generated is not None:
        sets.append((f"generated ({args.generated})", _files(args.generated)))
    for title, puzzles in sets:
        _summary(_compare(title, puzzles, args.repeats, args.timeout))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
