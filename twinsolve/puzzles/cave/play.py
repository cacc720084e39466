"""Cave played by hand: each cell marked inside, outside or not yet decided.

Position: `{"inside": ["1?0-", ...]}` as `twinsolve.explain.hint` reads it:
`1` inside, `0` outside, `?` undecided. A move sets one cell (`r3c7 1`); a
click cycles a cell undecided -> inside -> outside, a right click the other
way. The board is the clue grid with the inside cells shaded and outside
cells dotted; it is complete when no cell is undecided, and `verify` judges
it then. An author edits a cell by typing `-` (no clue), `?` (inside, no
count) or a number (`core.play`, the contract).
"""

from __future__ import annotations

from typing import Any

from ...core.play import Board, CellMarking, ClueEditing
from ...graphics.canvas import Drawing
from ...graphics.layout import fit_cell
from .picture import CELL_MM, INSIDE, MARGIN_MM, OUTSIDE
from .rules import Instance, build_instance, clue_problem

__all__ = ["PLAN", "EDIT_TOKENS", "start", "apply", "board", "moves", "items", "moves_to",
           "remaining",
           "blank", "edit"]

PLAN = False
EDIT_TOKENS = ("-", "?")  # and any clue number, typed
_MARKING = CellMarking("inside", {"1": "inside", "0": "outside", "?": "undecided"})
_DOT = "#5a5a5a"
_GRID = "#8c8c8c"

start, apply, moves = _MARKING.start, _MARKING.apply, _MARKING.moves
items, moves_to, remaining = _MARKING.items, _MARKING.moves_to, _MARKING.remaining


def _cell_size(instance: Instance) -> float:
    return fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM)


def board(instance: Instance, position: dict[str, Any]) -> Board:
    cell = _cell_size(instance)
    page = Drawing(instance.cols * cell + 2 * MARGIN_MM, instance.rows * cell + 2 * MARGIN_MM,
                   background=OUTSIDE)

    def draw_cell(page: Drawing, r: int, c: int, value: str, box: Any) -> None:
        x, y, w, h = box
        page.rect(x, y, w, h, fill=INSIDE if value == "1" else OUTSIDE, stroke=_GRID,
                  width=max(0.08, 0.025 * cell))
        clue = instance.clues[r][c]
        if clue.is_clue:
            page.text(x + w / 2, y + h / 2, clue.token, size=cell * 0.5, bold=True)
        elif value == "0":
            page.circle(x + w / 2, y + h / 2, cell * 0.1, fill=_DOT)

    return _MARKING.board(instance, position, page, (MARGIN_MM, MARGIN_MM), cell, draw_cell)


_EDITING = ClueEditing.of_cells(build_instance, "a Cave cell holds '-', '?' or a clue number",
                                clue_problem)
blank, edit = _EDITING.blank, _EDITING.edit
