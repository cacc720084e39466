"""Grid geometry every puzzle, the engine and the robots share: the four directions,
and `Sized`, what a grid instance's size says.

Cells are (row, column) pairs counted from 0 at the top left. The four
orthogonal directions come in one fixed order, right, down, left, up
(`Direction`, and `DELTAS` their (dr, dc) steps), so that every algorithm
visits neighbours alike and breaks ties alike (docs/architecture.md).

>>> [DELTAS[d] for d in (Direction.RIGHT, Direction.UP)]
[(0, 1), (-1, 0)]
"""

from __future__ import annotations

import enum

__all__ = ["Direction", "DELTAS", "Sized"]


class Direction(enum.IntEnum):
    RIGHT = 0
    DOWN = 1
    LEFT = 2
    UP = 3


# (dr, dc) per Direction, in the fixed order right, down, left, up.
DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class Sized:
    """A grid puzzle's instance, a frozen dataclass of `rows` and `cols` (and more), mixes
    this in for its number of `cells` (a plain class: its annotations are no fields)."""

    rows: int
    cols: int

    @property
    def cells(self) -> int:
        return self.rows * self.cols
