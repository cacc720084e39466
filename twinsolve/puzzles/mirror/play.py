"""The mirror maze played by hand: flip rotatable mirrors until the beams hit the targets.

Position: `{"flips": [[r, c], ...]}`, the flipped `?` mirrors, sorted: every
position is a whole answer, so the board is always complete and `verify`
says whether the goal is met. A click on a `?` flips it (`r3c7 1`) or flips
it back (`r3c7 0`). The board is the picture (`picture.draw`): the beams as
they go with these flips, the flipped mirrors in magenta, the targets hit in
gold. An author types a cell's character (`. / \\ ? # T S > < ^ v`).
"""

from __future__ import annotations

from typing import Any

from ...core.errors import InstanceError, UsageError, quoted
from ...core.play import Board, Move, Target, cell_item, mark, playable, read_cell, read_mark
from . import rules
from .picture import draw, layout
from .rules import CellKind, Instance

__all__ = ["PLAN", "EDIT_TOKENS", "start", "apply", "board", "moves", "items", "moves_to",
           "remaining",
           "blank", "edit"]

PLAN = False
EDIT_TOKENS = tuple(kind.value for kind in CellKind)
_FLIP = {False: "flip to \\", True: "flip back to /"}


def start(instance: Instance) -> dict[str, list]:
    playable(instance.rows, instance.cols)
    return {"flips": []}


def apply(instance: Instance, position: dict[str, Any], move: str) -> dict[str, list]:
    r, c, value = read_mark(move, instance.rows, instance.cols, "01")
    if instance.kind(r, c) is not CellKind.ROTATABLE:
        raise UsageError(f"move {quoted(move)}: {cell_item(r, c)} is no rotatable mirror")
    flips = {tuple(cell) for cell in position["flips"]} - {(r, c)}
    if value == "1":
        flips.add((r, c))
    return rules.solution_from_flips(flips)


def _state(kind: CellKind, flipped: bool) -> str:
    if kind is not CellKind.ROTATABLE:
        return kind.name.lower()
    return "flipped" if flipped else "standing"


def board(instance: Instance, position: dict[str, Any]) -> Board:
    flipped = {tuple(cell) for cell in position["flips"]}
    grid = layout(instance)
    # Every cell is a target (an author edits any of them); only a `?` has moves.
    targets = [Target(cell_item(r, c), (*grid.corner(r, c), grid.cell, grid.cell),
                      _state(instance.kind(r, c), (r, c) in flipped))
               for r in range(instance.rows) for c in range(instance.cols)]
    problems = rules.verify(instance, position)
    count = len(flipped)
    status = f"{count} flip{'s' * (count != 1)}: " + ("goal met" if not problems else problems[0])
    return Board(draw(instance, position), tuple(targets), complete=True,
                 status=status)


def moves(instance: Instance, position: dict[str, Any]) -> list[Move]:
    flipped = {tuple(cell) for cell in position["flips"]}
    return [Move(mark(r, c, "0" if on else "1"), f"{cell_item(r, c)}: {_FLIP[on]}",
                 (cell_item(r, c),))
            for r, c in instance.rotatable() for on in [(r, c) in flipped]]


def items(instance: Instance, position: dict[str, Any]) -> dict[str, str]:
    flipped = {tuple(cell) for cell in position["flips"]}
    return {cell_item(r, c): "1" if (r, c) in flipped else "0" for r, c in instance.rotatable()}


def moves_to(instance: Instance, solution: dict[str, Any]) -> list[str]:
    return [mark(r, c, "1") for r, c in solution["flips"]]


def remaining(instance: Instance, position: dict[str, Any]) -> Instance:
    return instance


def blank(rows: int, cols: int) -> Instance:
    """An empty maze but for what every maze needs: a laser at the top left (shining
    right) and a target at the bottom right."""
    lines = [list("." * cols) for _ in range(rows)]
    lines[0][0], lines[-1][-1] = CellKind.SOURCE.value, CellKind.TARGET.value
    return _maze(["".join(line) for line in lines])


def _maze(lines: list[str], *like: Any) -> Instance:
    try:
        return Instance.from_strings(lines, *like)
    except InstanceError as exc:
        raise UsageError(exc.message) from None


def edit(instance: Instance, item: str, token: str) -> Instance:
    r, c = read_cell(item, instance.rows, instance.cols)
    if token not in EDIT_TOKENS:
        raise UsageError(f"a maze cell is one of {' '.join(EDIT_TOKENS)}, not {quoted(token)}")
    lines = ["".join(kind.value for kind in row) for row in instance.grid]
    lines[r] = lines[r][:c] + token + lines[r][c + 1:]
    return _maze(lines, instance.goal, instance.meta)
