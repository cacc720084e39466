"""Positions with unknowns, as `hint` takes them: the solution keys' JSON, `?` undecided.

A grid puzzle's position is its solution key with one string per row and one
character per cell, `?` for a cell not decided yet (Cave: `{"inside":
["01?0", ...]}`; Lights Out: `{"presses": ["1?0", ...]}`). A plan puzzle's
position is the prefix of the plan made so far (`{"moves": [...]}`), read by
the puzzle itself. Anything else is an `InstanceError` naming the key, the
row and what is wrong, in one line; the CLI puts the state's file name in
front.

>>> grid_state({"inside": ["1?", "00"]}, "inside", 2, 2, "01")
[[1, None], [0, 0]]
"""

from __future__ import annotations

from typing import Any

from ..core.errors import InstanceError, quoted

__all__ = ["UNKNOWN", "grid_state", "known_cells", "position_error"]

UNKNOWN = "?"


def position_error(message: str) -> InstanceError:
    """The one error of a position that is not one (no file: the CLI names it)."""
    return InstanceError(None, None, None, message)


def grid_state(state: dict[str, Any], key: str, rows: int, cols: int, values: str
               ) -> list[list[int | None]]:
    """`state[key]` as rows of cell values (the index of the character in `values`) or
    None where it is `?`; `InstanceError` for anything else (module docstring)."""
    unknown_keys = sorted(set(state) - {key})
    if unknown_keys:
        raise position_error(f"the position has key {quoted(unknown_keys[0])}; it takes only "
                             f"{key!r}")
    grid = state.get(key)
    if not isinstance(grid, list) or not all(isinstance(row, str) for row in grid):
        raise position_error(f"the position's {key!r} is a list of {rows} strings, one per row")
    if len(grid) != rows:
        raise position_error(f"the position's {key!r} has {len(grid)} rows, the grid {rows}")
    return [_row(text, r, key, cols, values) for r, text in enumerate(grid)]


def _row(text: str, r: int, key: str, cols: int, values: str) -> list[int | None]:
    if len(text) != cols:
        raise position_error(f"the position's {key!r} row {r} has {len(text)} cells, "
                             f"the grid {cols}")
    cells: list[int | None] = []
    for c, char in enumerate(text):
        if char == UNKNOWN:
            cells.append(None)
        elif char in values:
            cells.append(values.index(char))
        else:
            allowed = ", ".join(values) + f" or {UNKNOWN}"
            raise position_error(f"the position's {key!r} row {r} column {c} is "
                                 f"{quoted(char)}; a cell is {allowed}")
    return cells


def known_cells(grid: list[list[int | None]]) -> dict[tuple[int, int], int]:
    """The decided cells of a grid position, row by row.

    >>> known_cells([[1, None], [0, 0]])
    {(0, 0): 1, (1, 0): 0, (1, 1): 0}
    """
    return {(r, c): value for r, row in enumerate(grid) for c, value in enumerate(row)
            if value is not None}
