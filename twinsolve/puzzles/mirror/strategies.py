"""Small mirror maze instances for tests: the contract kit's hypothesis strategy.

Random levels: lasers, targets, rotatable mirrors, fixed mirrors and walls; goal any or all;
unsolvable levels included.
Hypothesis is a test dependency: only the test kit and the tests import this module.
"""

from __future__ import annotations

from hypothesis import strategies as st

from . import rules as mirror

__all__ = ["small_instances", "levels"]

_LASERS = (mirror.CellKind.SOURCE, mirror.CellKind.SOURCE_RIGHT, mirror.CellKind.SOURCE_LEFT,
           mirror.CellKind.SOURCE_UP, mirror.CellKind.SOURCE_DOWN)
_FILL = (mirror.CellKind.EMPTY, mirror.CellKind.EMPTY, mirror.CellKind.SLASH,
         mirror.CellKind.BACKSLASH, mirror.CellKind.WALL)


@st.composite
def levels(draw, max_side: int = 6, max_rotatable: int = 12, max_lasers: int = 3):
    """Random levels: 1..max_lasers lasers, 1..3 targets, up to max_rotatable `?` cells,
    fixed mirrors and walls elsewhere; goal any or all. Unsolvable levels included."""
    rows, cols = draw(st.integers(1, max_side)), draw(st.integers(2, max_side))
    cells = rows * cols
    lasers = draw(st.integers(1, min(max_lasers, cells - 1)))
    targets = draw(st.integers(1, min(3, cells - lasers)))
    rotatable = draw(st.integers(0, min(max_rotatable, cells - lasers - targets)))
    order = draw(st.permutations(range(cells)))
    grid = [draw(st.sampled_from(_FILL)) for _ in range(cells)]
    for index in order[:lasers]:
        grid[index] = draw(st.sampled_from(_LASERS))
    for index in order[lasers:lasers + targets]:
        grid[index] = mirror.CellKind.TARGET
    for index in order[lasers + targets:lasers + targets + rotatable]:
        grid[index] = mirror.CellKind.ROTATABLE
    goal = draw(st.sampled_from((mirror.Goal.ANY, mirror.Goal.ALL)))
    rows_of = tuple(tuple(grid[r * cols:(r + 1) * cols]) for r in range(rows))
    return mirror.Instance(rows, cols, rows_of, goal)


def small_instances() -> st.SearchStrategy[mirror.Instance]:
    return levels()
