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
from ...graphics.canvas import Drawing
from ...graphics.grid_pictures import (
    CELL_MM,
    MARGIN_MM,
    answer_rows,
    at,
    frame,
    grid_page,
    number_clues,
    summary,
)
from .rules import KEY, Instance, clue_cells

__all__ = ["draw", "CELL_MM", "MARGIN_MM", "SEA", "ISLAND"]

ISLAND = "#ffffff"        # paper: an unshaded cell
SEA = "#3c3c3c"           # a shaded cell: dark grey, the numbers never sit on it
GRID = "#8c8c8c"
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
    shaded = None if solution is None else answer_rows(instance, solution, KEY, "Nurikabe")
    if drawing.too_big(instance.rows, instance.cols):
        return summary(instance, len(clue_cells(instance)), shaded, "shaded", ISLAND)
    page, cell = grid_page(instance, ISLAND, width, height, cell)
    _draw_cells(page, instance, shaded, cell)
    number_clues(page, clue_cells(instance), cell)
    return page


def _draw_cells(page: Drawing, instance: Instance, shaded: Any, cell: float) -> None:
    """Every cell, the sea filled and island cells dotted, then the grid's frame."""
    width = max(0.08, 0.025 * cell)
    for r in range(instance.rows):
        for c in range(instance.cols):
            sea = shaded is not None and shaded[r][c]
            page.rect(at(c, cell), at(r, cell), cell, cell, fill=SEA if sea else ISLAND,
                      stroke=GRID, width=width)
            if shaded is not None and not sea and not instance.clues[r][c].is_clue:
                page.circle(at(c, cell) + cell / 2, at(r, cell) + cell / 2, cell * 0.08,
                            fill=DOT)
    frame(page, instance.rows, instance.cols, cell)
