"""Cave on paper: the clue grid, and with an answer the cave outlined and the outside shaded.

What is drawn. One square per cell with a thin grey edge and a black frame
round the grid; every clue (a number, or `?` for a clue without a count) in
the middle of its cell. With an answer, the cells outside the cave are
shaded grey and the cave stays white, as published Cave (Corral) solutions
and twinsolve's own terminal picture mark them (`STYLES`: `shade=inside`
shades the cave light blue instead and leaves the outside white); and a
thick dark line runs along every cell edge between inside and outside (the
grid's frame counts as outside), so the cave reads by its outline alone in
either style. The clues, which are all inside, stay on top. Nothing else is
written: the only texts are the clues.

The idea. Cells are about `CELL_MM` wide, shrunk so that the page fits the
printable area of A4, or the room asked for (`width`, `height`: a sheet's
slot; `graphics.layout.fit_cell`), and the drawing says so (`board`, which
a sheet scales to one cell size per page); a puzzle and its
answer share that geometry, so cell for cell they differ only in the cave's
fill and outline. The outline is found edge by edge (an edge is on it when
its two sides differ) and each straight run of such edges is one line. A grid
over `core.drawing.GRID_LIMIT` a side is one line of text
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
    outline_runs,
    summary,
)
from .rules import KEY, Instance, clue_cells

__all__ = ["draw", "outline_runs", "CELL_MM", "MARGIN_MM", "INSIDE", "OUTSIDE", "SHADED",
           "STYLES"]

OUTSIDE = "#ffffff"       # paper: an unshaded cell
SHADED = "#8a8a8a"        # a cell outside the cave (the published convention): mid grey
INSIDE = "#a6d4f2"        # a cave cell with shade=inside: a light sky blue
# The picture's styles (`--style NAME=VALUE`): which side of the answer is shaded.
STYLES = {"shade": ("outside", "inside")}
GRID = "#8c8c8c"
OUTLINE = "#1a1a1a"


def draw(instance: Instance, solution: dict[str, Any] | None = None, *,
         shade: str = "outside", width: float | None = None, height: float | None = None,
         cell: float | None = None) -> Drawing:
    """The clue grid, with the cave of `solution` (`{"inside": [...]}`) when given, its
    `shade` side shaded (`STYLES`), within `width` x `height` mm (None: the page), its
    cells `cell` mm wide when given (a sheet's common cell).

    Raises ValueError when the answer does not fit the grid or the style is unknown.

    >>> from twinsolve.puzzles.cave.rules import parse
    >>> page = draw(parse("cave 2 2\\n2 -\\n- -\\n"), {"inside": ["11", "00"]})
    >>> page.count("rect"), page.count("text"), page.count("line"), page.board.cell
    (4, 1, 4, 8.0)
    """
    if shade not in STYLES["shade"]:
        raise ValueError(f"shade must be one of {', '.join(STYLES['shade'])}, got {shade!r}")
    inside = None if solution is None else answer_rows(instance, solution, KEY, "Cave")
    if drawing.too_big(instance.rows, instance.cols):
        return summary(instance, len(clue_cells(instance)), inside, "inside", OUTSIDE)
    page, cell = grid_page(instance, OUTSIDE, width, height, cell)
    _draw_cells(page, instance, inside, cell, shade)
    if inside is not None:
        _draw_outline(page, inside, cell)
    number_clues(page, clue_cells(instance), cell)
    return page


def _fill(inside: Any, r: int, c: int, shade: str) -> str:
    """A cell's colour: paper, or the shade of its side of the answer (`shade`)."""
    if inside is None:
        return OUTSIDE
    if shade == "outside":
        return OUTSIDE if inside[r][c] else SHADED
    return INSIDE if inside[r][c] else OUTSIDE


def _draw_cells(page: Drawing, instance: Instance, inside: Any, cell: float,
                shade: str) -> None:
    """Every cell, shaded by its side of the answer, then the grid's frame."""
    width = max(0.08, 0.025 * cell)
    for r in range(instance.rows):
        for c in range(instance.cols):
            fill = _fill(inside, r, c, shade)
            page.rect(at(c, cell), at(r, cell), cell, cell, fill=fill, stroke=GRID,
                      width=width)
    frame(page, instance.rows, instance.cols, cell)


def _draw_outline(page: Drawing, inside: Any, cell: float) -> None:
    width = max(0.25, 0.09 * cell)
    for (r1, c1), (r2, c2) in outline_runs(inside):
        page.line(at(c1, cell), at(r1, cell), at(c2, cell), at(r2, cell), stroke=OUTLINE,
                  width=width)
