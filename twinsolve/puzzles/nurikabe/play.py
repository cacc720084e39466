"""Nurikabe played by hand: each cell marked shaded (the sea), white (an island) or undecided.

Position: `{"shaded": ["1?0-", ...]}` as `twinsolve.explain.hint` reads it:
`1` shaded, `0` white, `?` undecided. A move sets one cell (`r3c7 1`); a
click cycles a cell undecided -> shaded -> white, a right click the other
way (`core.play.CellMarking`). The board is drawn as the puzzle is printed
(`picture`): the clue grid in a black frame, the sea dark grey, the cells
known to be white dotted (as players mark them), the numbered islands' clues
on top (in white on a clue cell shaded by mistake, so it still reads). It
is complete when no cell is undecided, and `verify` judges it then. An
author edits a cell by typing `-` (no clue), `?` (an island's clue without a
size) or a clue number 1..ROWS*COLS.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import InstanceError, UsageError
from ...core.play import Board, CellMarking, clue_number, read_cell
from ...graphics.canvas import Drawing
from ...graphics.layout import fit_cell
from .picture import CELL_MM, DOT, GRID, INK, ISLAND, MARGIN_MM, SEA
from .rules import EMPTY, UNKNOWN, Cell, Instance, build_instance, clue_problem

__all__ = ["PLAN", "EDIT_TOKENS", "start", "apply", "board", "moves", "items", "moves_to",
           "remaining", "blank", "edit"]

PLAN = False
EDIT_TOKENS = ("-", "?")  # and any clue number, typed
_MARKING = CellMarking("shaded", {"1": "shaded", "0": "white", "?": "undecided"})

start, apply, moves = _MARKING.start, _MARKING.apply, _MARKING.moves
items, moves_to, remaining = _MARKING.items, _MARKING.moves_to, _MARKING.remaining


def board(instance: Instance, position: dict[str, Any]) -> Board:
    cell = fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM)
    page = Drawing(instance.cols * cell + 2 * MARGIN_MM, instance.rows * cell + 2 * MARGIN_MM,
                   background=ISLAND)

    def draw_cell(page: Drawing, r: int, c: int, value: str, box: Any) -> None:
        x, y, w, h = box
        page.rect(x, y, w, h, fill=SEA if value == "1" else ISLAND, stroke=GRID,
                  width=max(0.08, 0.025 * cell))
        clue = instance.clues[r][c]
        if clue.is_clue:
            size = cell * (0.55 if len(clue.token) < 3 else 0.4)
            page.text(x + w / 2, y + h / 2, clue.token, size=size, bold=True,
                      fill=ISLAND if value == "1" else INK)
        elif value == "0":
            page.circle(x + w / 2, y + h / 2, cell * 0.08, fill=DOT)

    played = _MARKING.board(instance, position, page, (MARGIN_MM, MARGIN_MM), cell, draw_cell)
    left, top = MARGIN_MM, MARGIN_MM
    right, bottom = left + instance.cols * cell, top + instance.rows * cell
    page.polygon([(left, top), (right, top), (right, bottom), (left, bottom)], stroke=INK,
                 width=max(0.12, 0.05 * cell))
    return played


def blank(rows: int, cols: int) -> Instance:
    try:
        return build_instance(rows, cols, [[EMPTY] * cols for _ in range(rows)])
    except InstanceError as exc:
        raise UsageError(exc.message) from None


def edit(instance: Instance, item: str, token: str) -> Instance:
    r, c = read_cell(item, instance.rows, instance.cols)
    clues = [list(row) for row in instance.clues]
    clues[r][c] = _cell_of(token, instance)
    return build_instance(instance.rows, instance.cols, clues, instance.meta)


def _cell_of(token: Any, instance: Instance) -> Cell:
    """The cell an author's token names: `-`, `?` or a clue number that fits the grid."""
    if token == "-":
        return EMPTY
    if token == "?":
        return UNKNOWN
    number = clue_number(token, "a Nurikabe cell holds '-', '?' or a clue number")
    problem = clue_problem(number, instance.rows, instance.cols)
    if problem:
        raise UsageError(problem)
    return Cell.clue(number)
