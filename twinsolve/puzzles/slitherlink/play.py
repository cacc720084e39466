"""Slitherlink played by hand: each cell marked inside the loop, outside it, or undecided.

Position: `{"inside": ["1?0-", ...]}` as `twinsolve.explain.hint` reads it:
`1` inside, `0` outside, `?` undecided (the answer is written as its inside
cells, `rules`). A move sets one cell (`r3c7 1`); a click cycles a cell
undecided -> inside -> outside, a right click the other way
(`core.play.CellMarking`). The board is drawn as the puzzle is printed
(`picture`): dots at the grid points and the clues, no cell borders; inside
cells are tinted, undecided ones greyed, and the loop already fixed (each
side between an inside cell and an outside one, the grid's edge counting as
outside) is drawn as lines. It is complete when no cell is undecided, and
`verify` judges it then. An author edits a cell by typing `-` (no clue) or a
clue 0..4.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import UsageError
from ...core.play import Board, CellMarking, ClueEditing, clue_number
from ...graphics.canvas import Drawing
from ...graphics.layout import fit_cell
from .picture import CELL_MM, INK, INSIDE, LOOP, MARGIN_MM, PAPER
from .rules import MAX_CLUE, Instance, build_instance, clue_cells, clue_problem

__all__ = ["PLAN", "EDIT_TOKENS", "start", "apply", "board", "moves", "items", "moves_to",
           "remaining", "blank", "edit"]

PLAN = False
EDIT_TOKENS = ("-", *map(str, range(MAX_CLUE + 1)))
_MARKING = CellMarking("inside", {"1": "inside", "0": "outside", "?": "undecided"})
_UNDECIDED = "#ececec"
_FILLS = {"1": INSIDE, "0": PAPER, "?": _UNDECIDED}
# The four sides of a cell: the neighbour across it, and the side's ends as grid points
# (row, col) relative to the cell's top-left corner.
_SIDES = (((-1, 0), (0, 0), (0, 1)), ((1, 0), (1, 0), (1, 1)),
          ((0, -1), (0, 0), (1, 0)), ((0, 1), (0, 1), (1, 1)))

start, apply, moves = _MARKING.start, _MARKING.apply, _MARKING.moves
items, moves_to, remaining = _MARKING.items, _MARKING.moves_to, _MARKING.remaining


def board(instance: Instance, position: dict[str, Any]) -> Board:
    cell = fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM)
    page = Drawing(instance.cols * cell + 2 * MARGIN_MM, instance.rows * cell + 2 * MARGIN_MM,
                   background=PAPER)

    def draw_cell(page: Drawing, r: int, c: int, value: str, box: Any) -> None:
        page.rect(*box, fill=_FILLS[value], stroke=None)

    # The cells first, then the loop, the dots and the clues on top of them all.
    played = _MARKING.board(instance, position, page, (MARGIN_MM, MARGIN_MM), cell, draw_cell)
    _draw_loop(page, position["inside"], cell)
    _draw_dots_and_clues(page, instance, cell)
    return played


def _at(index: int, cell: float) -> float:
    """The page coordinate of grid line `index` (rows and columns alike)."""
    return MARGIN_MM + index * cell


def _draw_loop(page: Drawing, grid: list[str], cell: float) -> None:
    """Every side between an inside cell and an outside one (past the edge: outside)."""
    rows, cols = len(grid), len(grid[0])
    width = max(0.3, 0.1 * cell)
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value != "1":
                continue
            for (dr, dc), (r1, c1), (r2, c2) in _SIDES:
                nr, nc = r + dr, c + dc
                if 0 <= nr < rows and 0 <= nc < cols and grid[nr][nc] != "0":
                    continue
                page.line(_at(c + c1, cell), _at(r + r1, cell), _at(c + c2, cell),
                          _at(r + r2, cell), stroke=LOOP, width=width)


def _draw_dots_and_clues(page: Drawing, instance: Instance, cell: float) -> None:
    radius = max(0.25, 0.07 * cell)
    for r in range(instance.rows + 1):
        for c in range(instance.cols + 1):
            page.circle(_at(c, cell), _at(r, cell), radius, fill=INK, stroke=None)
    for r, c, clue in clue_cells(instance):
        page.text(_at(c, cell) + cell / 2, _at(r, cell) + cell / 2, str(clue),
                  size=cell * 0.55)


def _clue_of(token: Any, instance: Instance) -> int | None:
    """The clue an author's token names: `-` (none) or a number 0..4."""
    if token == "-":
        return None
    number = clue_number(token, f"a Slitherlink cell holds '-' or a clue 0..{MAX_CLUE}")
    problem = clue_problem(number)
    if problem:
        raise UsageError(problem)
    return number


_EDITING = ClueEditing(build_instance, None, _clue_of)
blank, edit = _EDITING.blank, _EDITING.edit
