"""Slitherlink on paper: dots, clues, and with an answer the loop drawn as lines.

What is drawn. A black dot at every grid point, each clue in the middle of
its cell, and no cell borders (as printed puzzles are). With an answer the
loop is one thick dark line along the cell sides between inside and outside
cells (straight runs joined), and the inside is tinted very lightly so the
loop reads at a glance; the clues stay on top. The only texts are the clues.

The idea. Cells are about `CELL_MM` wide, shrunk so that the page fits the
printable area of A4 (`graphics.layout.fit_cell`); a puzzle and its answer
share that geometry. The loop is found side by side (`rules.loop_sides`) and
each straight run of sides is one line. A grid over `core.drawing.GRID_LIMIT`
a side is one line of text (`core.drawing.grid_summary`), like the terminal
picture.
"""

from __future__ import annotations

from typing import Any

from ...core import drawing
from ...graphics.canvas import Board, Drawing
from ...graphics.layout import MAX_HEIGHT, MAX_WIDTH, fit_cell, line_page
from .rules import Instance, clue_cells, inside_grid, loop_sides

__all__ = ["draw", "loop_runs", "CELL_MM", "MARGIN_MM"]

CELL_MM = 8.0
MARGIN_MM = 3.0
TEXT_MM = 3.0            # the summary's text height

PAPER = "#ffffff"
INSIDE = "#e3f1fb"       # a very light blue: the loop reads first
INK = "#000000"
LOOP = "#1f4e79"         # dark blue, near black in greyscale


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
    inside = None if solution is None else _inside(instance, solution)
    if drawing.too_big(instance.rows, instance.cols):
        return _summary(instance, inside)
    cell = cell or fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM,
                            max_width=width or MAX_WIDTH, max_height=height or MAX_HEIGHT)
    page = Drawing(instance.cols * cell + 2 * MARGIN_MM, instance.rows * cell + 2 * MARGIN_MM,
                   background=PAPER, board=Board(instance.rows, instance.cols, cell))
    if inside is not None:
        _draw_inside(page, inside, cell)
        _draw_loop(page, inside, cell)
    _draw_dots(page, instance, cell)
    _draw_clues(page, instance, cell)
    return page


def _inside(instance: Instance, solution: Any) -> tuple[tuple[bool, ...], ...]:
    """The answer's rows as Booleans; ValueError when it is malformed or the wrong shape."""
    grid = inside_grid(solution)
    if len(grid) != instance.rows or any(len(row) != instance.cols for row in grid):
        raise ValueError(f"a Slitherlink answer for this grid has {instance.rows} rows of "
                         f"{instance.cols} cells")
    return grid


def _at(index: int, cell: float) -> float:
    """The page coordinate of grid line `index` (rows and columns alike)."""
    return MARGIN_MM + index * cell


def _draw_inside(page: Drawing, inside: Any, cell: float) -> None:
    for r, row in enumerate(inside):
        for c, on in enumerate(row):
            if on:
                page.rect(_at(c, cell), _at(r, cell), cell, cell, fill=INSIDE, stroke=None)


def loop_runs(inside: Any) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The loop as straight runs between grid points ((row, col) pairs), horizontal
    runs first.

    >>> loop_runs([[True, False]])
    [((0, 0), (0, 1)), ((1, 0), (1, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1))]
    """
    sides = loop_sides(inside)
    runs = []
    for r, line in enumerate(sides.across):
        runs += [((r, a), (r, b)) for a, b in _spans(line)]
    columns = len(sides.down[0])
    for c in range(columns):
        runs += [((a, c), (b, c)) for a, b in _spans([row[c] for row in sides.down])]
    return runs


def _spans(flags: Any) -> list[tuple[int, int]]:
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


def _draw_loop(page: Drawing, inside: Any, cell: float) -> None:
    width = max(0.3, 0.1 * cell)
    for (r1, c1), (r2, c2) in loop_runs(inside):
        page.line(_at(c1, cell), _at(r1, cell), _at(c2, cell), _at(r2, cell), stroke=LOOP,
                  width=width)


def _draw_dots(page: Drawing, instance: Instance, cell: float) -> None:
    radius = max(0.25, 0.07 * cell)
    for r in range(instance.rows + 1):
        for c in range(instance.cols + 1):
            page.circle(_at(c, cell), _at(r, cell), radius, fill=INK, stroke=None)


def _draw_clues(page: Drawing, instance: Instance, cell: float) -> None:
    for r, c, clue in clue_cells(instance):
        page.text(_at(c, cell) + cell / 2, _at(r, cell) + cell / 2, str(clue),
                  size=cell * 0.55, bold=False)


def _summary(instance: Instance, inside: Any) -> Drawing:
    """One line, as the terminal picture gives it: the size, the clues, the cells inside."""
    counts = [(len(clue_cells(instance)), "clues")]
    if inside is not None:
        counts.append((sum(map(sum, inside)), "cells inside"))
    return line_page(drawing.grid_summary(instance.rows, instance.cols, counts), size=TEXT_MM,
                     margin=MARGIN_MM, background=PAPER)
