"""Small Slitherlink instances for tests: the contract kit's hypothesis strategy.

Mostly clues read off a random loop (`generate.random_loop`; solvable, now and then
one clue nudged), else random clues (often unsat). Grids stay at 16 cells or fewer, so
brute force (2^cells sets of inside cells) stays quick. Hypothesis is a test
dependency: only the test kit and the tests import this module.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from . import rules
from .generate import clues_of, random_loop

__all__ = ["small_instances", "grids"]

MAX_CELLS = 16


@st.composite
def grids(draw, max_rows: int = 4, max_cols: int = 4):
    """Small grids: clues of a random loop (some left out, sometimes one nudged), else
    random clues."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rows = rng.randint(1, max_rows)
    cols = rng.randint(1, min(max_cols, MAX_CELLS // rows))
    grid: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    if rng.random() < 0.75:
        numbers = clues_of(random_loop(rows, cols, rng, rng.uniform(0.2, 0.8)))
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        for r, c in rng.sample(cells, max(1, round(len(cells) * rng.uniform(0.3, 0.8)))):
            clue = numbers[r][c]
            if rng.random() < 0.1:
                clue = min(rules.MAX_CLUE, max(0, clue + rng.choice((-1, 1))))
            grid[r][c] = clue
    else:
        for r in range(rows):
            for c in range(cols):
                if rng.random() < 0.5:
                    grid[r][c] = rng.randint(0, 3)
    return rules.Instance(rows, cols, tuple(tuple(row) for row in grid))


def small_instances() -> st.SearchStrategy[rules.Instance]:
    return grids()
