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

from ...core.errors import InstanceError, UsageError, quoted
from ...core.play import (
    Board,
    Move,
    cell_item,
    cell_targets,
    cycle,
    mark,
    playable,
    read_cell,
    read_mark,
)
from ...graphics.canvas import Drawing
from ...graphics.layout import fit_cell
from .picture import CELL_MM, INSIDE, MARGIN_MM, OUTSIDE
from .rules import EMPTY, UNKNOWN, Cell, Instance, build_instance, clue_problem

__all__ = ["PLAN", "EDIT_TOKENS", "start", "apply", "board", "moves", "items", "moves_to",
           "remaining",
           "blank", "edit"]

PLAN = False
EDIT_TOKENS = ("-", "?")  # and any clue number, typed
_VALUES = "?10"           # the order a click cycles through
_WORDS = {"1": "inside", "0": "outside", "?": "undecided"}
_DOT = "#5a5a5a"
_GRID = "#8c8c8c"


def start(instance: Instance) -> dict[str, list[str]]:
    playable(instance.rows, instance.cols)
    return {"inside": ["?" * instance.cols] * instance.rows}


def apply(instance: Instance, position: dict[str, Any], move: str) -> dict[str, list[str]]:
    r, c, value = read_mark(move, instance.rows, instance.cols, _VALUES)
    rows = list(position["inside"])
    rows[r] = rows[r][:c] + value + rows[r][c + 1:]
    return {"inside": rows}


def _cell_size(instance: Instance) -> float:
    return fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM)


def board(instance: Instance, position: dict[str, Any]) -> Board:
    grid = position["inside"]
    cell = _cell_size(instance)
    targets = cell_targets(instance.rows, instance.cols, MARGIN_MM, MARGIN_MM, cell,
                           lambda r, c: _WORDS[grid[r][c]])
    page = Drawing(instance.cols * cell + 2 * MARGIN_MM, instance.rows * cell + 2 * MARGIN_MM,
                   background=OUTSIDE)
    for target in targets:
        r, c = read_cell(target.item, instance.rows, instance.cols)
        x, y, w, h = target.box
        page.rect(x, y, w, h, fill=INSIDE if grid[r][c] == "1" else OUTSIDE, stroke=_GRID,
                  width=max(0.08, 0.025 * cell))
        clue = instance.clues[r][c]
        if clue.is_clue:
            page.text(x + w / 2, y + h / 2, clue.token, size=cell * 0.5, bold=True)
        elif grid[r][c] == "0":
            page.circle(x + w / 2, y + h / 2, cell * 0.1, fill=_DOT)
    undecided = sum(row.count("?") for row in grid)
    cells = instance.rows * instance.cols
    return Board(page, tuple(targets), complete=undecided == 0,
                 status=f"{cells - undecided} of {cells} cells decided")


def moves(instance: Instance, position: dict[str, Any]) -> list[Move]:
    return [move for r, row in enumerate(position["inside"]) for c, value in enumerate(row)
            for move in cycle(cell_item(r, c), value, _VALUES, _WORDS)]


def items(instance: Instance, position: dict[str, Any]) -> dict[str, str]:
    return {cell_item(r, c): value for r, row in enumerate(position["inside"])
            for c, value in enumerate(row) if value != "?"}


def moves_to(instance: Instance, solution: dict[str, Any]) -> list[str]:
    return [mark(r, c, value) for r, row in enumerate(solution["inside"])
            for c, value in enumerate(row) if value != "?"]


def remaining(instance: Instance, position: dict[str, Any]) -> Instance:
    return instance


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
    if not (isinstance(token, str) and token.isascii() and token.isdigit() and len(token) < 7):
        raise UsageError(f"a Cave cell holds '-', '?' or a clue number, not {quoted(token)}")
    problem = clue_problem(int(token), instance.rows, instance.cols)
    if problem:
        raise UsageError(problem)
    return Cell.clue(int(token))
