"""Small Cave instances for tests: the contract kit's hypothesis strategy.

Clues read off a random cave (solvable, now and then one number nudged), else random clues
(often unsat); brute force enumerates 2^cells shadings.
Hypothesis is a test dependency: only the test kit and the tests import this module.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from ...core.geometry import DELTAS
from . import rules as cave

__all__ = ["small_instances", "grids", "random_cave"]


def random_cave(rng: random.Random, rows: int, cols: int) -> list[list[bool]]:
    """A random valid cave: one component of random cells, its holes filled."""
    bits = [[rng.random() < 0.6 for _ in range(cols)] for _ in range(rows)]
    start = (rng.randrange(rows), rng.randrange(cols))
    bits[start[0]][start[1]] = True
    region, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in DELTAS:
            cell = (r + dr, c + dc)
            if 0 <= cell[0] < rows and 0 <= cell[1] < cols and bits[cell[0]][cell[1]] \
                    and cell not in region:
                region.add(cell)
                todo.append(cell)
    outside = {(r, c) for r in range(rows) for c in range(cols)} - region
    reach = {(r, c) for r, c in outside if r in (0, rows - 1) or c in (0, cols - 1)}
    todo = list(reach)
    while todo:
        r, c = todo.pop()
        for dr, dc in DELTAS:
            cell = (r + dr, c + dc)
            if cell in outside and cell not in reach:
                reach.add(cell)
                todo.append(cell)
    return [[(r, c) not in reach for c in range(cols)] for r in range(rows)]


@st.composite
def grids(draw, max_rows: int = 4, max_cols: int = 5):
    """Small Cave grids: mostly clues read off a random cave (solvable, sometimes with one
    number nudged), else random clues (often unsat). Brute enumerates 2^cells shadings."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rows, cols = rng.randint(1, max_rows), rng.randint(1, max_cols)
    most = rows + cols - 1
    grid = [[cave.EMPTY] * cols for _ in range(rows)]
    if rng.random() < 0.7:
        inside = random_cave(rng, rows, cols)
        cells = [(r, c) for r in range(rows) for c in range(cols) if inside[r][c]]
        for r, c in rng.sample(cells, max(1, round(len(cells) * rng.uniform(0.4, 0.8)))):
            seen = cave.count_visible(inside, r, c)
            if rng.random() < 0.15:
                seen = min(most, max(1, seen + rng.choice((-1, 1))))
            grid[r][c] = cave.UNKNOWN if rng.random() < 0.15 else cave.Cell.clue(seen)
    else:
        for r in range(rows):
            for c in range(cols):
                if rng.random() < 0.5:
                    grid[r][c] = (cave.UNKNOWN if rng.random() < 0.2
                                  else cave.Cell.clue(rng.randint(1, most)))
    return cave.Instance(rows, cols, tuple(tuple(row) for row in grid))


def small_instances() -> st.SearchStrategy[cave.Instance]:
    return grids()
