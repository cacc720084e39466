"""Slitherlink's targets (issue 30), measured side by side in one run on one worker.

    python -m benchmarks.slitherlink_perf [--backends hand,sat,cpsat,puzzlekit]
        [--every N] [--only KEYS] [--timeout S] [--dataset FILE] [--no-solve] [--grades]
        [--generate N]

Solving: every chosen back-end runs on every puzzle of a puzzlekit-dataset
JSON file (default: `slitherlink/janko-dev.json` of the shared corpus, found
as the tests find it; `--every N` takes every Nth puzzle) through
`twinsolve.core.run.run`, so every answer is verified. The back-ends take
turns puzzle by puzzle (hand, sat, cpsat, puzzlekit on the first puzzle,
then on the second, ...), so a noisy machine slows them alike. twinsolve's
back-ends prove uniqueness; the peer puzzlekit cannot, so it only solves,
which makes the comparison conservative for twinsolve. A run counts as
solved when it returns `solved`, passes `verify`, equals the published
solution and (for twinsolve's back-ends) proves it unique; each back-end gets
one untimed warm-up run first. Printed per back-end: solved / wrong / other,
median, 90th percentile and maximum wall time, median nodes; for `hand` the
puzzles settled without branching; then each back-end's median against
puzzlekit's over the puzzles both solved.

Targets: `sat` and `cpsat` at least 5x faster than puzzlekit at the median;
`hand` settles at least 95% without branching and takes no puzzle over 1 s.

`--grades`: the level `grade` gives every puzzle, as counts. `--generate N`:
N puzzles of 10x10 per level through the generator's driver (every try and
the proof included), median and worst seconds per puzzle (target: median
under 2 s at every level). The script is `benchmarks.clue_grid_perf`'s, which
Nurikabe's shares.
"""


from __future__ import annotations

from collections.abc import Sequence

from benchmarks import clue_grid_perf
from twinsolve.puzzles.slitherlink import generate
from twinsolve.puzzles.slitherlink.puzzlekit import read_dataset

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    return clue_grid_perf.main("slitherlink", generate, read_dataset, __doc__, argv)


if __name__ == "__main__":
    raise SystemExit(main())
