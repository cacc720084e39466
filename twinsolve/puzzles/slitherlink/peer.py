"""A peer solver from another project, as an optional Slitherlink back-end for the benchmark.

`puzzlekit` (MIT, `pip install puzzlekit`, imported lazily; `models.puzzlekit_peer`
runs it): a collection of OR-Tools CP-SAT puzzle models. Its Slitherlink
model takes `num_rows`, `num_cols` and a grid of tokens (`-` no clue, a clue
0..4: our tokens) and models the loop with CP-SAT's circuit constraint over
the grid's points; it answers each cell's loop sides as a 4-bit number (8
top, 4 left, 2 bottom, 1 right; `-` for none). `solve_puzzlekit` converts
our instance to that input, runs `puzzlekit.solver("slitherlink",
...).solve(...)`, reads the vertical sides of the answer back into inside
cells (a cell is inside when an odd number of loop sides lie left of it in
its row) and returns `{"inside": [...]}`; the runner then checks it with
`verify` like any other answer.

What it does not do (`models.puzzlekit_peer`): `unique` and `count` stay None
even when asked; it runs on one CP-SAT worker unless `workers=N` is given;
without puzzlekit installed the back-end answers `unsupported` with the
install command.
"""

from __future__ import annotations

from typing import Any

from ...core.limits import Limits
from ...core.result import Result, Status
from ...models import puzzlekit_peer
from ...models.puzzlekit_peer import PUZZLEKIT_MISSING
from . import rules

__all__ = ["solve_puzzlekit", "puzzlekit_supports", "check_puzzlekit_options",
           "PUZZLEKIT_MISSING", "inside_from_walls"]

check_puzzlekit_options = puzzlekit_peer.check_options

_TOP, _LEFT, _BOTTOM, _RIGHT = 8, 4, 2, 1  # puzzlekit's bits of a cell's loop sides


def puzzlekit_supports(instance: Any) -> str | None:
    """None if puzzlekit can run `instance`, else why not (the registry's `supports`)."""
    return puzzlekit_peer.supports(instance, rules.Instance, rules.NAME)


def inside_from_walls(grid: Any, rows: int, cols: int) -> list[list[bool]]:
    """puzzlekit's answer (a 4-bit number per cell, `-` for none) as inside cells.

    >>> inside_from_walls([["15", "4"]], 1, 2)  # cell 0: all four sides; cell 1: its left
    [[True, False]]
    """
    matrix = grid.matrix if hasattr(grid, "matrix") else grid
    bits = [[int(token) if str(token).isdigit() else 0 for token in row] for row in matrix]
    down = [[bool(bits[r][c] & _LEFT) if c < cols else bool(bits[r][cols - 1] & _RIGHT)
             for c in range(cols + 1)] for r in range(rows)]
    across = [[False] * cols for _ in range(rows + 1)]  # not read: rows are scanned
    return rules.inside_from_sides(across, down)


def solve_puzzlekit(instance: rules.Instance, limits: Limits) -> Result:
    """Run puzzlekit's Slitherlink model on `instance` (see the module docstring)."""
    reason = puzzlekit_supports(instance)
    if reason:
        return Result(Status.UNSUPPORTED, message=reason)
    rows, cols = instance.rows, instance.cols
    grid = [["-" if clue is None else str(clue) for clue in row] for row in instance.clues]
    return puzzlekit_peer.solve(
        rules.NAME, rows, cols, grid, limits,
        lambda found: rules.solution_from_inside(inside_from_walls(found, rows, cols)))
