"""Nurikabe's targets (issue 30), measured side by side in one run on one worker.

    python -m benchmarks.nurikabe_perf [--backends hand,sat,cpsat,puzzlekit]
        [--every N] [--only KEYS] [--timeout S] [--dataset FILE] [--no-solve] [--grades]
        [--generate N]

Solving: every chosen back-end runs on every puzzle of a puzzlekit-dataset
JSON file (default: `nurikabe/janko-dev.json` of the shared corpus; `--every
N` takes every Nth puzzle) through `twinsolve.core.run.run`, so every answer
is verified, the back-ends taking turns puzzle by puzzle (the driver and the
table of `benchmarks.slitherlink_perf`, shared in `benchmarks.clue_grid_perf`).
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

from collections.abc import Sequence

from benchmarks import clue_grid_perf
from twinsolve.puzzles.nurikabe import generate
from twinsolve.puzzles.nurikabe.puzzlekit import read_dataset

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    return clue_grid_perf.main("nurikabe", generate, read_dataset, __doc__, argv, symmetric=True)


if __name__ == "__main__":
    raise SystemExit(main())
