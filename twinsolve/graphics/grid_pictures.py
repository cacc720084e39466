"""Pictures of clue grids whose answer is a grid of Boolean cells (`core.clue_grid`).

Rules. A clue grid is drawn on a page of square cells, `CELL_MM` wide or
less so that it fits the page or the room given, `MARGIN_MM` round it; a
grid too large to draw is one line of text instead (its size, its clues and
how many cells the answer has in). An answer that does not fit the grid is
a ValueError naming the grid's shape. The outline of a set of cells (where
a cell in meets a cell out, past the edge counting as out) is drawn as
straight runs between grid points.

The idea: what the pictures of these puzzles share (the page, the frame,
numbered clues, the outline, the summary) is here once; each puzzle's
`picture.py` keeps its colours and what it draws in a cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core import drawing
from ..core.clue_grid import AnswerKey, ClueCell, ClueGrid
from .canvas import Board, Drawing
from .layout import MAX_HEIGHT, MAX_WIDTH, fit_cell, line_page

__all__ = ["CELL_MM", "MARGIN_MM", "TEXT_MM", "answer_rows", "grid_page", "at", "frame",
           "number_clues", "outline_runs", "summary"]

CELL_MM = 8.0
MARGIN_MM = 3.0
TEXT_MM = 3.0            # the summary's text height
INK = "#000000"

Rows = tuple[tuple[bool, ...], ...]


def answer_rows(instance: ClueGrid, solution: Any, key: AnswerKey, title: str) -> Rows:
    """The answer's rows as Booleans; ValueError when it is malformed or the wrong shape."""
    grid = key.grid(solution)
    if len(grid) != instance.rows or any(len(row) != instance.cols for row in grid):
        raise ValueError(f"a {title} answer for this grid has {instance.rows} rows of "
                         f"{instance.cols} cells")
    return grid


def grid_page(instance: ClueGrid, background: str, width: float | None, height: float | None,
              cell: float | None) -> tuple[Drawing, float]:
    """The page of the grid and its cell size: `cell` when given (a sheet's common cell),
    else `CELL_MM` or less to fit `width` x `height` mm (None: the page)."""
    cell = cell or fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM,
                            max_width=width or MAX_WIDTH, max_height=height or MAX_HEIGHT)
    page = Drawing(instance.cols * cell + 2 * MARGIN_MM, instance.rows * cell + 2 * MARGIN_MM,
                   background=background, board=Board(instance.rows, instance.cols, cell))
    return page, cell


def at(index: int, cell: float) -> float:
    """The page coordinate of grid line `index` (rows and columns alike)."""
    return MARGIN_MM + index * cell


def frame(page: Drawing, rows: int, cols: int, cell: float) -> None:
    """The grid's frame, heavier than its lines."""
    right, bottom = at(cols, cell), at(rows, cell)
    page.polygon([(at(0, cell), at(0, cell)), (right, at(0, cell)), (right, bottom),
                  (at(0, cell), bottom)], stroke=INK, width=max(0.12, 0.05 * cell))


def number_clues(page: Drawing, clues: Sequence[ClueCell], cell: float) -> None:
    """Each clue (`?` for one without a number) centred in its cell, smaller when it has
    three digits or more."""
    for r, c, number in clues:
        label = "?" if number is None else str(number)
        size = cell * (0.55 if len(label) < 3 else 0.4)
        page.text(at(c, cell) + cell / 2, at(r, cell) + cell / 2, label, size=size, bold=True)


def outline_runs(inside: Any) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The outline of the cells in as straight runs between grid points ((row, col) pairs).

    A horizontal edge on grid line r between columns c and c+1 is on the
    outline when exactly one of the cells above and below is in (off the
    grid counts as out); vertical edges alike. Consecutive outline edges on
    one grid line join into one run, horizontal runs first.

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


def summary(instance: ClueGrid, clues: int, answer: Rows | None, word: str,
            background: str) -> Drawing:
    """One line, as the terminal picture gives it: the size, the clues and, with an answer,
    how many cells are in (`word`: "inside", "shaded", ...)."""
    counts = [(clues, "clues")]
    if answer is not None:
        counts.append((sum(map(sum, answer)), f"cells {word}"))
    return line_page(drawing.grid_summary(instance.rows, instance.cols, counts), size=TEXT_MM,
                     margin=MARGIN_MM, background=background)
