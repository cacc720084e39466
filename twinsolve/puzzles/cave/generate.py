"""Cave puzzles with exactly one solution, for the shipped instance folder.

The idea (as in Tatham's collection: keep a puzzle only if the solver proves
it unique): draw a random cave — a connected region grown cell by cell from a
random start, its holes filled so the outside reaches the border — and read
the clue of every inside cell off it. Clue all of them, which makes the
solution unique; then, in a random order, drop every clue whose removal
keeps the solution unique (the `hand` back-end proves it with `unique=True`,
`sat` when `hand` runs out of time).
What remains is a minimal clue set for that cave. The same seed always gives
the same puzzle, byte for byte.

`python -m twinsolve.puzzles.cave.generate --out instances/cave` writes the shipped set.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from ...core.geometry import DELTAS
from ...core.limits import Limits
from ...core.result import Status
from ...core.run import run
from ...core.writing import write_instances
from .rules import EMPTY, Cell, Instance, count_visible, solution_from_inside

__all__ = ["random_cave", "unique_puzzle", "SHIPPED", "main"]

# (rows, cols, seed) of the shipped puzzles.
SHIPPED = ((6, 6, 1), (8, 8, 2), (8, 8, 3), (10, 10, 4), (10, 10, 5), (12, 12, 6), (15, 15, 7))


def _neighbours(rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr, dc in DELTAS
            if 0 <= r + dr < rows and 0 <= c + dc < cols]


def _fill_holes(inside: list[list[bool]]) -> None:
    """Outside cells that cannot reach the border join the cave (no holes)."""
    rows, cols = len(inside), len(inside[0])
    seen = {(r, c) for r in range(rows) for c in range(cols)
            if (r in (0, rows - 1) or c in (0, cols - 1)) and not inside[r][c]}
    stack = list(seen)
    while stack:
        r, c = stack.pop()
        for cell in _neighbours(rows, cols, r, c):
            if cell not in seen and not inside[cell[0]][cell[1]]:
                seen.add(cell)
                stack.append(cell)
    for r in range(rows):
        for c in range(cols):
            if not inside[r][c] and (r, c) not in seen:
                inside[r][c] = True


def random_cave(rows: int, cols: int, rng: random.Random, share: float = 0.55
                ) -> list[list[bool]]:
    """A connected region of about `share` of the cells, grown from a random cell."""
    inside = [[False] * cols for _ in range(rows)]
    start = (rng.randrange(rows), rng.randrange(cols))
    inside[start[0]][start[1]] = True
    frontier = _neighbours(rows, cols, *start)
    for _ in range(max(1, int(share * rows * cols)) - 1):
        frontier = [cell for cell in frontier if not inside[cell[0]][cell[1]]]
        if not frontier:
            break
        r, c = frontier.pop(rng.randrange(len(frontier)))
        inside[r][c] = True
        frontier.extend(_neighbours(rows, cols, r, c))
    _fill_holes(inside)
    return inside


# Who settles each uniqueness question, in order: `hand` first (14x faster than
# `sat` on 20x20: 4.0 s against 56 s for the whole puzzle), `sat` when `hand` runs
# out of time. Both prove what they answer, so the puzzle does not depend on which did.
_ORACLES = (("hand", 20.0), ("sat", 60.0))


def _is_unique(instance: Instance) -> bool:
    """True when the clues have exactly one solution; False when another one exists.

    Unsettled by every oracle in time (never seen on the shipped sizes) counts
    as not unique: the clue stays, so the puzzle is still unique, just less
    minimal.
    """
    for backend, seconds in _ORACLES:
        result = run(instance, backend, Limits(timeout=seconds, unique=True))
        if result.status is Status.SOLVED and result.unique is not None:
            return result.unique
    return False


def unique_puzzle(rows: int, cols: int, seed: int) -> Instance:
    """A minimal-clue puzzle whose only solution is a random cave (see the docstring)."""
    rng = random.Random(seed)
    inside = random_cave(rows, cols, rng)
    clues = [[Cell.clue(count_visible(inside, r, c)) if inside[r][c] else EMPTY
              for c in range(cols)] for r in range(rows)]
    order = [(r, c) for r in range(rows) for c in range(cols) if inside[r][c]]
    rng.shuffle(order)
    for r, c in order:
        kept = clues[r][c]
        clues[r][c] = EMPTY
        if not _is_unique(Instance(rows, cols, tuple(map(tuple, clues)))):
            clues[r][c] = kept
    meta = (("source", "twinsolve.puzzles.cave.generate.unique_puzzle"
                       f"({rows}, {cols}, seed={seed})"),
            ("expect-unique", "true"),
            ("expect-solution", json.dumps(solution_from_inside(inside), separators=(",", ":"))))
    return Instance(rows, cols, tuple(map(tuple, clues)), meta)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write the shipped Cave puzzles")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    named = ((f"unique-{rows:02d}x{cols:02d}-seed{seed}.txt", unique_puzzle(rows, cols, seed))
             for rows, cols, seed in SHIPPED)
    for path in write_instances(args.out, named):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
