"""Nurikabe on paper: the clue grid, and with an answer the sea shaded and the islands white.

What is drawn. One square per cell with a thin grey edge and a black frame
round the grid; every clue (its number, or `?` for a clue without a size) in
the middle of its cell. With an answer the shaded cells (the sea) are filled
dark grey, as published Nurikabe solutions show them, and each island stays
white with a small dot in its cells without a clue, so the islands read as
numbered white regions even in greyscale; the clues stay on top. Nothing
else is written: the only texts are the clues.

The idea. Cells are about `CELL_MM` wide, shrunk so that the page fits the
printable area of A4, or the room asked for (`width`, `height`: a sheet's
slot; `graphics.layout.fit_cell`), and the drawing says so (`board`); a
puzzle and its answer share that geometry. A grid over
`core.drawing.GRID_LIMIT` a side is one line of text
(`core.drawing.grid_summary` on a `graphics.layout.line_page`), like the
terminal picture.
"""

from __future__ import annotations

from typing import Any

from ...core import drawing
from ...graphics.canvas import Board, Drawing
from ...graphics.layout import MAX_HEIGHT, MAX_WIDTH, fit_cell, line_page
from .rules import Instance, clue_cells, shaded_grid

__all__ = ["draw", "CELL_MM", "MARGIN_MM", "SEA", "ISLAND"]

CELL_MM = 8.0
MARGIN_MM = 3.0
TEXT_MM = 3.0            # the summary's text height

ISLAND = "#ffffff"        # paper: an unshaded cell
SEA = "#3c3c3c"           # a shaded cell: dark grey, the numbers never sit on it
GRID = "#8c8c8c"
INK = "#000000"
DOT = "#5a5a5a"


def draw(instance: Instance, solution: dict[str, Any] | None = None, *,
         width: float | None = None, height: float | None = None,
         cell: float | None = None) -> Drawing:
    """The clue grid, with the sea of `solution` (`{"shaded": [...]}`) when given, within
    `width` x `height` mm (None: the page), its cells `cell` mm wide when given (a
    sheet's common cell).

    Raises ValueError when the answer does not fit the grid.

    >>> from twinsolve.puzzles.nurikabe.rules import parse
    >>> page = draw(parse("nurikabe 2 2\\n2 -\\n- -\\n"), {"shaded": ["00", "11"]})
    >>> page.count("rect"), page.count("text"), page.count("circle"), page.board.cell
    (4, 1, 1, 8.0)
    """
    shaded = None if solution is None else _shaded(instance, solution)
    if drawing.too_big(instance.rows, instance.cols):
        return _summary(instance, shaded)
    cell = cell or fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM,
                            max_width=width or MAX_WIDTH, max_height=height or MAX_HEIGHT)
    page = Drawing(instance.cols * cell + 2 * MARGIN_MM, instance.rows * cell + 2 * MARGIN_MM,
                   background=ISLAND, board=Board(instance.rows, instance.cols, cell))
    _draw_cells(page, instance, shaded, cell)
    _draw_clues(page, instance, cell)
    return page


def _shaded(instance: Instance, solution: Any) -> tuple[tuple[bool, ...], ...]:
    """The answer's rows as Booleans; ValueError when it is malformed or the wrong shape."""
    grid = shaded_grid(solution)
    if len(grid) != instance.rows or any(len(row) != instance.cols for row in grid):
        raise ValueError(f"a Nurikabe answer for this grid has {instance.rows} rows of "
                         f"{instance.cols} cells")
    return grid


def _at(index: int, cell: float) -> float:
    """The page coordinate of grid line `index` (rows and columns alike)."""
    return MARGIN_MM + index * cell


def _draw_cells(page: Drawing, instance: Instance, shaded: Any, cell: float) -> None:
    """Every cell, the sea filled and island cells dotted, then the grid's frame."""
    width = max(0.08, 0.025 * cell)
    for r in range(instance.rows):
        for c in range(instance.cols):
            sea = shaded is not None and shaded[r][c]
            page.rect(_at(c, cell), _at(r, cell), cell, cell, fill=SEA if sea else ISLAND,
                      stroke=GRID, width=width)
            if shaded is not None and not sea and not instance.clues[r][c].is_clue:
                page.circle(_at(c, cell) + cell / 2, _at(r, cell) + cell / 2, cell * 0.08,
                            fill=DOT)
    right, bottom = _at(instance.cols, cell), _at(instance.rows, cell)
    page.polygon([(_at(0, cell), _at(0, cell)), (right, _at(0, cell)), (right, bottom),
                  (_at(0, cell), bottom)], stroke=INK, width=max(0.12, 0.05 * cell))


def _draw_clues(page: Drawing, instance: Instance, cell: float) -> None:
    """Each clue centred in its cell, smaller when it has three digits or more."""
    for r, c, number in clue_cells(instance):
        label = "?" if number is None else str(number)
        size = cell * (0.55 if len(label) < 3 else 0.4)
        page.text(_at(c, cell) + cell / 2, _at(r, cell) + cell / 2, label, size=size,
                  bold=True)


def _summary(instance: Instance, shaded: Any) -> Drawing:
    """One line, as the terminal picture gives it: the size, the clues, the cells shaded."""
    counts = [(len(clue_cells(instance)), "clues")]
    if shaded is not None:
        counts.append((sum(map(sum, shaded)), "cells shaded"))
    return line_page(drawing.grid_summary(instance.rows, instance.cols, counts), size=TEXT_MM,
                     margin=MARGIN_MM, background=ISLAND)
