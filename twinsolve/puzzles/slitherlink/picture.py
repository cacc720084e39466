"""Slitherlink on paper: dots, clues, and with an answer the loop drawn as lines.

What is drawn. A black dot at every grid point, each clue in the middle of
its cell, and no cell borders (as printed puzzles are). With an answer the
loop is one thick dark line along the cell sides between inside and outside
cells (straight runs joined), and the inside is tinted very lightly so the
loop reads at a glance; the clues stay on top. The only texts are the clues.

The idea. Cells are about `CELL_MM` wide, shrunk so that the page fits the
printable area of A4 (`graphics.layout.fit_cell`); a puzzle and its answer
share that geometry (`graphics.grid_pictures`). The loop is the outline of
the inside cells (the sides `rules.loop_sides` finds), and each straight run
of sides is one line. A grid over `core.drawing.GRID_LIMIT`
a side is one line of text (`core.drawing.grid_summary`), like the terminal
picture.
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
    grid_page,
    outline_runs,
    summary,
)
from .rules import KEY, Instance, clue_cells

__all__ = ["draw", "loop_runs", "CELL_MM", "MARGIN_MM"]

PAPER = "#ffffff"
INSIDE = "#e3f1fb"       # a very light blue: the loop reads first
INK = "#000000"
LOOP = "#1f4e79"         # dark blue, near black in greyscale

# The loop is the outline of its inside cells, as straight runs between grid points
# ((row, col) pairs), horizontal runs first.
loop_runs = outline_runs


def draw(instance: Instance, solution: dict[str, Any] | None = None, *,
         width: float | None = None, height: float | None = None,
         cell: float | None = None) -> Drawing:
    """The dots and clues, with the loop of `solution` (`{"inside": [...]}`) when given,
    within `width` x `height` mm (None: the page), its cells `cell` mm wide when given (a
    sheet's common cell).

    Raises ValueError when the answer does not fit the grid.

    >>> from twinsolve.puzzles.slitherlink.rules import parse
    >>> page = draw(parse("slitherlink 1 2\\n4 -\\n"), {"inside": ["10"]})
    >>> page.count("circle"), page.count("text"), page.count("line"), page.board.cell
    (6, 1, 4, 8.0)
    """
    inside = None if solution is None else answer_rows(instance, solution, KEY, "Slitherlink")
    if drawing.too_big(instance.rows, instance.cols):
        return summary(instance, len(clue_cells(instance)), inside, "inside", PAPER)
    page, cell = grid_page(instance, PAPER, width, height, cell)
    if inside is not None:
        _draw_inside(page, inside, cell)
        _draw_loop(page, inside, cell)
    _draw_dots(page, instance, cell)
    _draw_clues(page, instance, cell)
    return page


def _draw_inside(page: Drawing, inside: Any, cell: float) -> None:
    for r, row in enumerate(inside):
        for c, on in enumerate(row):
            if on:
                page.rect(at(c, cell), at(r, cell), cell, cell, fill=INSIDE, stroke=None)


def _draw_loop(page: Drawing, inside: Any, cell: float) -> None:
    width = max(0.3, 0.1 * cell)
    for (r1, c1), (r2, c2) in loop_runs(inside):
        page.line(at(c1, cell), at(r1, cell), at(c2, cell), at(r2, cell), stroke=LOOP,
                  width=width)


def _draw_dots(page: Drawing, instance: Instance, cell: float) -> None:
    radius = max(0.25, 0.07 * cell)
    for r in range(instance.rows + 1):
        for c in range(instance.cols + 1):
            page.circle(at(c, cell), at(r, cell), radius, fill=INK, stroke=None)


def _draw_clues(page: Drawing, instance: Instance, cell: float) -> None:
    for r, c, clue in clue_cells(instance):
        page.text(at(c, cell) + cell / 2, at(r, cell) + cell / 2, str(clue),
                  size=cell * 0.55, bold=False)
