"""Grid geometry every puzzle, the engine and the robots share: the four directions.

Cells are (row, column) pairs counted from 0 at the top left. The four
orthogonal directions come in one fixed order, right, down, left, up
(`Direction`, and `DELTAS` their (dr, dc) steps), so that every algorithm
visits neighbours alike and breaks ties alike (docs/architecture.md).

>>> [DELTAS[d] for d in (Direction.RIGHT, Direction.UP)]
[(0, 1), (-1, 0)]
"""

from __future__ import annotations

import enum

__all__ = ["Direction", "DELTAS"]


class Direction(enum.IntEnum):
    RIGHT = 0
    DOWN = 1
    LEFT = 2
    UP = 3


# (dr, dc) per Direction, in the fixed order right, down, left, up.
DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))
