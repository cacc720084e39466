"""Nurikabe's targets (issue 30), measured side by side in one run on one worker.

    python -m benchmarks.nurikabe_perf [--backends hand,sat,cpsat,puzzlekit]
        [--every N] [--timeout S] [--dataset FILE] [--no-solve] [--grades] [--generate N]

Solving: every chosen back-end runs on every puzzle of a puzzlekit-dataset
JSON file (default: `nurikabe/janko-dev.json` of the shared corpus; `--every
N` takes every Nth puzzle) through `twinsolve.core.run.run`, so every answer
is verified, the back-ends taking turns puzzle by puzzle (the driver and the
table of `benchmarks.slitherlink_perf`, shared: `solve_all`, `report`).
twinsolve's back-ends prove uniqueness; the peer puzzlekit cannot (and takes
no `?` clue: two puzzles), so it only solves, which makes the comparison
conservative for twinsolve.

Targets: `sat` and `cpsat` at least 5x faster than puzzlekit at the median;
`hand` settles at least 95% without branching and takes no puzzle over 1 s.

`--grades`: the level `grade` gives every puzzle, as counts. `--generate N`:
N puzzles of 10x10 per level through the generator's driver (every try and
the proof included), median and worst seconds per puzzle (target: median
under 2 s at every level).
"""

from __future__ import annotations

import argparse
import collections
import os
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.slitherlink_perf import report, solve_all
from twinsolve.generation.driver import find_one, make_plan
from twinsolve.puzzles.nurikabe import generate
from twinsolve.puzzles.nurikabe import puzzlekit as dataset

__all__ = ["main", "default_dataset", "grades", "generation"]


def default_dataset() -> Path:
    """The corpus's janko set: $TWINSOLVE_CORPUS or `shared/corpus` beside the project."""
    root = Path(__file__).resolve().parents[1]
    corpus = Path(os.environ.get("TWINSOLVE_CORPUS", root.parent / "shared" / "corpus"))
    return corpus / "nurikabe" / "janko-dev.json"


def grades(pairs) -> str:
    counts = collections.Counter(generate.grade(instance).level for _, instance in pairs)
    return "grades: " + ", ".join(f"{level} {counts[level]}" for level in
                                   (*generate.LEVELS, None) if counts[level])


def generation(count: int, symmetric: bool = False) -> list[str]:
    lines = []
    for level in generate.LEVELS:
        times = []
        for seed in range(count):
            plan = make_plan("nurikabe", seed=seed, level=level, size=(10, 10),
                             symmetric=symmetric)
            started = time.perf_counter()
            find_one(plan, 0)
            times.append(time.perf_counter() - started)
        lines.append(f"generate 10x10{' symmetric' if symmetric else ''} {level:<7} median "
                     f"{statistics.median(times):.3f} s, worst {max(times):.3f} s over "
                     f"{count} puzzles (target median 2 s)")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.nurikabe_perf",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="hand,sat,cpsat,puzzlekit")
    parser.add_argument("--dataset", type=Path, default=None)
    parser.add_argument("--every", type=int, default=1, help="every Nth puzzle")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--no-solve", action="store_true", help="skip the solving table")
    parser.add_argument("--grades", action="store_true", help="the grade distribution")
    parser.add_argument("--generate", type=int, default=0, metavar="N",
                        help="time N generated 10x10 puzzles per level")
    parser.add_argument("--symmetric", action="store_true", help="generate symmetric ones")
    args = parser.parse_args(argv)
    path = args.dataset or default_dataset()
    pairs = dataset.read_dataset(path)[::args.every]
    print(f"{path}: {len(pairs)} puzzles, one worker, load average "
          f"{os.getloadavg()[0]:.2f}", flush=True)
    if not args.no_solve:
        print(report(solve_all(pairs, args.backends.split(","), args.timeout), len(pairs)),
              flush=True)
    if args.grades:
        print(grades(pairs), flush=True)
    for line in generation(args.generate, args.symmetric) if args.generate else ():
        print(line, flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
