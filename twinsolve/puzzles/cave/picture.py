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
from ...graphics.canvas import Board, Drawing
from ...graphics.layout import MAX_HEIGHT, MAX_WIDTH, fit_cell, line_page
from .rules import Instance, clue_cells, inside_grid

__all__ = ["draw", "outline_runs", "CELL_MM", "MARGIN_MM", "INSIDE", "OUTSIDE", "SHADED",
           "STYLES"]

CELL_MM = 8.0
MARGIN_MM = 3.0
TEXT_MM = 3.0            # the summary's text height

OUTSIDE = "#ffffff"       # paper: an unshaded cell
SHADED = "#8a8a8a"        # a cell outside the cave (the published convention): mid grey
INSIDE = "#a6d4f2"        # a cave cell with shade=inside: a light sky blue
# The picture's styles (`--style NAME=VALUE`): which side of the answer is shaded.
STYLES = {"shade": ("outside", "inside")}
GRID = "#8c8c8c"
INK = "#000000"
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
    inside = None if solution is None else _inside(instance, solution)
    if drawing.too_big(instance.rows, instance.cols):
        return _summary(instance, inside)
    cell = cell or fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM,
                            max_width=width or MAX_WIDTH, max_height=height or MAX_HEIGHT)
    page = Drawing(instance.cols * cell + 2 * MARGIN_MM, instance.rows * cell + 2 * MARGIN_MM,
                   background=OUTSIDE, board=Board(instance.rows, instance.cols, cell))
    _draw_cells(page, instance, inside, cell, shade)
    if inside is not None:
        _draw_outline(page, inside, cell)
    _draw_clues(page, instance, cell)
    return page


def _inside(instance: Instance, solution: Any) -> tuple[tuple[bool, ...], ...]:
    """The answer's rows as Booleans; ValueError when it is malformed or the wrong shape."""
    grid = inside_grid(solution)
    if len(grid) != instance.rows or any(len(row) != instance.cols for row in grid):
        raise ValueError(f"a Cave answer for this grid has {instance.rows} rows of "
                         f"{instance.cols} cells")
    return grid


def _at(index: int, cell: float) -> float:
    """The page coordinate of grid line `index` (rows and columns alike)."""
    return MARGIN_MM + index * cell


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
            page.rect(_at(c, cell), _at(r, cell), cell, cell, fill=fill, stroke=GRID,
                      width=width)
    right, bottom = _at(instance.cols, cell), _at(instance.rows, cell)
    page.polygon([(_at(0, cell), _at(0, cell)), (right, _at(0, cell)), (right, bottom),
                  (_at(0, cell), bottom)], stroke=INK, width=max(0.12, 0.05 * cell))


def outline_runs(inside: Any) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The cave's boundary as straight runs between grid points ((row, col) pairs).

    A horizontal edge on grid line r between columns c and c+1 is on the
    boundary when exactly one of the cells above and below is inside (off the
    grid counts as outside); vertical edges alike. Consecutive boundary edges
    on one grid line join into one run, horizontal runs first.

    >>> outline_runs([[True, False]])
    [((0, 0), (0, 1)), ((1, 0), (1, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1))]
    """
    rows, cols = len(inside), len(inside[0])

    def filled(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and bool(inside[r][c])

    runs = []
    for line in range(rows + 1):  # horizontal grid lines
        edges = [filled(line - 1, c) != filled(line, c) for c in range(cols)]
        runs += [((line, a), (line, b)) for a, b in _spans(edges)]
    for line in range(cols + 1):  # vertical grid lines
        edges = [filled(r, line - 1) != filled(r, line) for r in range(rows)]
        runs += [((a, line), (b, line)) for a, b in _spans(edges)]
    return runs


def _spans(flags: list[bool]) -> list[tuple[int, int]]:
    """The maximal runs of True in `flags` as (start, stop) pairs.

    >>> _spans([True, True, False, True])
    [(0, 2), (3, 4)]
    """
    spans, start = [], None
    for index, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            spans.append((start, index))
            start = None
    return spans


def _draw_outline(page: Drawing, inside: Any, cell: float) -> None:
    width = max(0.25, 0.09 * cell)
    for (r1, c1), (r2, c2) in outline_runs(inside):
        page.line(_at(c1, cell), _at(r1, cell), _at(c2, cell), _at(r2, cell), stroke=OUTLINE,
                  width=width)


def _draw_clues(page: Drawing, instance: Instance, cell: float) -> None:
    """Each clue centred in its cell, smaller when it has three digits."""
    for r, c, number in clue_cells(instance):
        label = "?" if number is None else str(number)
        size = cell * (0.55 if len(label) < 3 else 0.4)
        page.text(_at(c, cell) + cell / 2, _at(r, cell) + cell / 2, label, size=size,
                  bold=True)


def _summary(instance: Instance, inside: Any) -> Drawing:
    """One line, as the terminal picture gives it: the size, the clues, the cells inside."""
    counts = [(len(clue_cells(instance)), "clues")]
    if inside is not None:
        counts.append((sum(map(sum, inside)), "cells inside"))
    return line_page(drawing.grid_summary(instance.rows, instance.cols, counts), size=TEXT_MM,
                     margin=MARGIN_MM, background=OUTSIDE)
