"""Small Nurikabe instances for tests: the contract kit's hypothesis strategy.

Clues read off a random valid shading (solvable, now and then a number nudged or hidden
as `?`), else random clues (often unsat); brute force enumerates the shadings of the
cells without a clue. Hypothesis is a test dependency: only the test kit and the tests
import this module.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from . import rules as nurikabe

__all__ = ["small_instances", "grids", "random_shading"]


def _pool_free(shaded: list[list[bool]]) -> bool:
    rows, cols = len(shaded), len(shaded[0])
    return not any(shaded[r][c] and shaded[r][c + 1] and shaded[r + 1][c]
                   and shaded[r + 1][c + 1] for r in range(rows - 1) for c in range(cols - 1))


def random_shading(rng: random.Random, rows: int, cols: int) -> list[list[bool]]:
    """A random valid sea: connected, no 2x2 pool (its islands then take one clue each).

    Cells are taken out of an all-sea grid in a random order while the sea stays
    connected, until no pool is left (a cell whose removal would split the sea stays).
    """
    shaded = [[True] * cols for _ in range(rows)]
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(cells)
    for r, c in cells:
        if _pool_free(shaded) and rng.random() < 0.7:
            break
        shaded[r][c] = False
        sea = [(i, j) for i in range(rows) for j in range(cols) if shaded[i][j]]
        if sea and len(nurikabe.flood(sea[0], shaded)) != len(sea):
            shaded[r][c] = True
    return shaded


@st.composite
def grids(draw, max_rows: int = 4, max_cols: int = 5):
    """Small Nurikabe grids: mostly the clues of a random valid shading (solvable,
    sometimes with one number nudged or hidden as `?`), else random clues (often unsat)."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rows, cols = rng.randint(1, max_rows), rng.randint(1, max_cols)
    grid = [[nurikabe.EMPTY] * cols for _ in range(rows)]
    if rng.random() < 0.75:
        shaded = random_shading(rng, rows, cols)
        for island in nurikabe.islands(shaded):
            r, c = rng.choice(sorted(island))
            size = len(island)
            if rng.random() < 0.1:
                size = max(1, size + rng.choice((-1, 1)))
            grid[r][c] = nurikabe.UNKNOWN if rng.random() < 0.1 else nurikabe.Cell.clue(size)
    else:
        for r in range(rows):
            for c in range(cols):
                if rng.random() < 0.3:
                    grid[r][c] = (nurikabe.UNKNOWN if rng.random() < 0.15
                                  else nurikabe.Cell.clue(rng.randint(1, 4)))
    return nurikabe.Instance(rows, cols, tuple(tuple(row) for row in grid))


def small_instances() -> st.SearchStrategy[nurikabe.Instance]:
    return grids()
