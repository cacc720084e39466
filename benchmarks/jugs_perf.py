"""Water-jug (and clock) performance figures: `python -m benchmarks.jugs_perf`.

Prints medians over `--repeats` runs, each through `twinsolve.core.run.run`
(so every timed plan is verified):

1. `hand` on generated 4-jug puzzles with capacities up to 50 (target: each
   under 1 s): `holds`, `total` and `exact` goals, pour-only decanting, and
   goals the rules' facts refute. Then, for scale, the farthest `exact` goals
   of two such puzzles (not part of the target: they need a good part of a
   2 * 10^5- and a 5 * 10^5-state space).
2. hand, cpsat and sat on the published puzzles of
   ../shared/corpus/jugs/known.txt (when the corpus is there): medians and
   the ratios cpsat / hand and sat / hand.
3. hand, cpsat and sat on the shipped clocks (instances/clock).

`four_jug_puzzles(seed)` is the deterministic generator behind section 1 and
behind instances/jugs/gen-*.txt: `--write DIR` writes those files again.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

from twinsolve.core.limits import Limits
from twinsolve.core.result import Result
from twinsolve.core.run import load_file, run
from twinsolve.puzzles.jugs import rules as jugs
from twinsolve.puzzles.jugs.hand import space as jug_space
from twinsolve.puzzles.jugs.rules import Goal, GoalKind, Instance, MoveKind
from twinsolve.search.bfs import bfs_distances

__all__ = ["four_jug_puzzles", "write_generated", "known_puzzles", "median_run", "DEEPEST",
           "main"]

ROOT = Path(__file__).resolve().parents[1]
ALL_MOVES = (MoveKind.FILL, MoveKind.EMPTY, MoveKind.POUR)


def median_run(instance: Any, backend: str, repeats: int, limits: Limits) -> tuple[float, Result]:
    """Median wall seconds of `run` (verification included) and the last result.

    A run without an answer (timeout, ...) is not repeated.
    """
    times, result = [], None
    for _ in range(max(1, repeats)):
        started = time.perf_counter()
        result = run(instance, backend, limits)
        times.append(time.perf_counter() - started)
        if not result.status.is_answer:
            break
    return statistics.median(times), result


# ---------------------------------------------------------------- generated puzzles

def _depths(instance: Instance, max_depth: int) -> dict[tuple[int, ...], int]:
    return bfs_distances(instance.start, jug_space(instance).successors, max_depth=max_depth)


def four_jug_puzzles(seed: int = 2024) -> list[tuple[str, Instance]]:
    """Deterministic 4-jug puzzles, capacities 20..50, as (file stem, instance).

    Goals: a level and a total drawn at random (moves from empty, all kinds),
    exact states 12 moves deep, a pour-only decanting from a full first jug,
    and two goals the rules refute (a level above every capacity, an exact
    state with no jug empty or full).
    """
    rng = random.Random(seed)
    puzzles: list[tuple[str, Instance]] = []
    for number in range(3):
        caps = tuple(sorted(rng.sample(range(20, 51), 4), reverse=True))
        empty = (0,) * 4
        base = Instance(caps, empty, ALL_MOVES, Goal(GoalKind.HOLDS, (0,)))
        h = jugs.level_gcd(base)
        holds = h * rng.randint(1, caps[0] // h)
        total = h * rng.randint(1, sum(caps) // h)
        depth = _depths(base, 12)
        deep = sorted(state for state, d in depth.items() if d == 12)
        stem = f"gen-4jugs-{number}"
        puzzles += [
            (f"{stem}-holds", Instance(caps, empty, ALL_MOVES, Goal(GoalKind.HOLDS, (holds,)))),
            (f"{stem}-total", Instance(caps, empty, ALL_MOVES, Goal(GoalKind.TOTAL, (total,)))),
            (f"{stem}-exact", Instance(caps, empty, ALL_MOVES,
                                       Goal(GoalKind.EXACT, rng.choice(deep)))),
        ]
    caps = (50, 37, 29, 13)
    full = (50, 0, 0, 0)
    pour_only = Instance(caps, full, (MoveKind.POUR,), Goal(GoalKind.HOLDS, (0,)))
    depth = _depths(pour_only, 40)
    farthest = max(depth.values())
    far = sorted(state for state, d in depth.items() if d == farthest)
    puzzles.append(("gen-decant-50-37-29-13",
                    Instance(caps, full, (MoveKind.POUR,), Goal(GoalKind.EXACT, far[0]))))
    puzzles.append(("gen-4jugs-unreachable-holds",
                    Instance((48, 36, 30, 21), (0,) * 4, ALL_MOVES, Goal(GoalKind.HOLDS, (49,)))))
    puzzles.append(("gen-4jugs-unreachable-exact",
                    Instance((50, 31, 23, 17), (0,) * 4, ALL_MOVES,
                             Goal(GoalKind.EXACT, (1, 1, 5, 5)))))
    return puzzles


# The farthest states from the empty start of two 4-jug puzzles, found by a full BFS
# (bfs_distances: 187,584 and 468,496 reachable states); the exact goals that take hand longest.
DEEPEST = (
    ((50, 31, 23, 17), (1, 1, 5, 17), 20),
    ((50, 45, 36, 27), (16, 2, 25, 27), 40),
)


def write_generated(folder: Path, seed: int = 2024) -> list[Path]:
    """Write `four_jug_puzzles(seed)` as instance files with metadata from `hand`."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, instance in four_jug_puzzles(seed):
        result = run(instance, "hand", Limits(timeout=120, count=True))
        meta = [("source", f"benchmarks.jugs_perf.four_jug_puzzles(seed={seed}); "
                           "expectations from hand, confirmed by brute without its size cap")]
        if result.status.value == "optimal":
            meta += [("expect-objective", str(result.objective)),
                     ("expect-solutions", str(result.count))]
        else:
            meta += [("expect-solutions", "0")]
        instance = Instance(instance.capacities, instance.start, instance.kinds, instance.goal,
                            tuple(meta))
        path = folder / f"{stem}.txt"
        path.write_text(jugs.format(instance))
        written.append(path)
    return written


# ---------------------------------------------------------------- the published puzzles

def corpus_folder() -> Path:
    return Path(os.environ.get("TWINSOLVE_CORPUS", ROOT.parent / "shared" / "corpus"))


def known_puzzles(path: Path) -> list[tuple[str, Instance, int]]:
    """The rows `capacities | start | moves | goal | fewest` of known.txt."""
    rows = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        caps, start, moves, goal, fewest = (part.strip() for part in line.split("|"))
        goal = goal.replace("some jug holds", "holds")
        text = f"jugs\ncapacities {caps}\nstart {start}\nmoves {moves}\ngoal {goal}\n"
        rows.append((f"{caps} / {goal}", jugs.parse(text, str(path)), int(fewest)))
    return rows


# ---------------------------------------------------------------- sections

def _generated(repeats: int) -> None:
    print("== hand on 4-jug puzzles, capacities up to 50 (target: each under 1 s)")
    worst = 0.0
    for stem, instance in four_jug_puzzles():
        seconds, result = median_run(instance, "hand", repeats, Limits(timeout=60))
        worst = max(worst, seconds)
        caps = " ".join(map(str, instance.capacities))
        print(f"  {stem:32s} {caps:12s} goal {str(instance.goal):18s} {result.status.value:8s}"
              f" {str(result.objective):>4s} moves  nodes {result.stats.nodes:6d}"
              f"  median {seconds:.3f} s")
    print(f"  slowest median {worst:.3f} s")
    for caps, goal, moves in DEEPEST:
        instance = Instance(caps, (0,) * 4, ALL_MOVES, Goal(GoalKind.EXACT, goal))
        seconds, result = median_run(instance, "hand", 1, Limits(timeout=120))
        print(f"  for scale, a farthest state of {' '.join(map(str, caps))} ({moves} moves): "
              f"{result.status.value} {result.objective}, {result.stats.nodes} nodes, "
              f"{seconds:.3f} s (bidirectional)")


def _compare(rows: list[tuple[str, Any]], repeats: int, timeout: float) -> None:
    for name, instance in rows:
        cells, base = [], None
        for backend in ("hand", "cpsat", "sat"):
            seconds, result = median_run(instance, backend, repeats, Limits(timeout=timeout))
            base = seconds if backend == "hand" else base
            ratio = ""
            if backend != "hand" and result.status.is_answer:
                ratio = f" (x{seconds / max(base, 1e-6):,.0f})"
            answer = result.objective if result.status.value == "optimal" else result.status.value
            cells.append(f"{backend} {answer} {seconds:.3f} s{ratio}")
        print(f"  {name:26s} " + " | ".join(cells))


def _known(repeats: int, timeout: float) -> None:
    path = corpus_folder() / "jugs" / "known.txt"
    print("== hand vs cpsat vs sat on the published puzzles (median s, ratio to hand)")
    if not path.exists():
        print(f"  skipped: no corpus at {path} (set TWINSOLVE_CORPUS)")
        return
    rows = known_puzzles(path)
    _compare([(f"{name} [{fewest}]", instance) for name, instance, fewest in rows],
             repeats, timeout)


def _clocks(repeats: int, timeout: float) -> None:
    print(f"== hand vs cpsat vs sat on instances/clock (timeout {timeout:g} s)")
    files = sorted((ROOT / "instances" / "clock").glob("*.txt"))
    _compare([(path.stem, load_file(path)) for path in files], repeats, timeout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.jugs_perf",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=20.0,
                        help="per run of cpsat / sat in sections 2 and 3")
    parser.add_argument("--write", type=Path, metavar="DIR",
                        help="write the generated puzzles to DIR and stop")
    args = parser.parse_args(argv)
    if args.write:
        for path in write_generated(args.write):
            print(path)
        return 0
    _generated(args.repeats)
    _known(args.repeats, args.timeout)
    _clocks(args.repeats, args.timeout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
