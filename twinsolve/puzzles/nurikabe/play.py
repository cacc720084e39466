"""Nurikabe played by hand: each cell marked shaded, unshaded or not yet decided.

Position: `{"shaded": ["1?0?", ...]}` as `twinsolve.explain.hint` reads it:
`1` shaded (the sea), `0` white (an island cell), `?` undecided. A move sets
one cell (`r3c7 1`); a click cycles a cell undecided -> shaded -> white, a
right click the other way (`core.play.CellMarking`). The board
is the clue grid with the shaded cells filled and white cells dotted; it
is complete when no cell is undecided, and `verify` judges it then. An
author edits a cell by typing `-` (no clue), `?` (a clue without a size) or
a number (`core.play`, the contract).
"""

from __future__ import annotations

from typing import Any

from ...core.play import Board, CellMarking, ClueEditing
from ...graphics.canvas import Drawing
from ...graphics.layout import fit_cell
from .picture import CELL_MM, DOT, GRID, ISLAND, MARGIN_MM, SEA
from .rules import Instance, build_instance, clue_problem

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
            page.text(x + w / 2, y + h / 2, clue.token, size=cell * 0.5, bold=True,
                      fill="#ffffff" if value == "1" else "#000000")
        elif value == "0":
            page.circle(x + w / 2, y + h / 2, cell * 0.08, fill=DOT)

    return _MARKING.board(instance, position, page, (MARGIN_MM, MARGIN_MM), cell, draw_cell)


_EDITING = ClueEditing.of_cells(build_instance, "a Nurikabe cell holds '-', '?' or a clue number",
                                clue_problem)
blank, edit = _EDITING.blank, _EDITING.edit
