"""Lights Out played by hand: press cells until every light is off.

Position: `{"presses": ["0110", ...]}`, how many times each cell has been
pressed (0..K-1: presses commute and K presses undo themselves, so that is
all a position is). A click presses a cell once more, a right click takes a
press back; the move sets the cell's count (`r3c7 1`, `core.play`). The
board shows the lights as they are after the presses (the picture's
colours) and a dot, or the count for K > 2, on each pressed cell; it is
complete when every light is off. An author sets a cell's light with a
digit 0..K-1.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.errors import UsageError, quoted
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
from .picture import CELL_MM, MARGIN_MM, light_fill
from .rules import MAX_SIDE, Instance, press_effect

__all__ = ["PLAN", "EDIT_TOKENS", "start", "apply", "board", "moves", "items", "moves_to",
           "remaining",
           "blank", "edit", "lights_after"]

PLAN = False
EDIT_TOKENS = ("0", "1")  # and 2..K-1 on a `mod K` board
_GRID, _INK, _PRESS = "#555555", "#000000", "#1f5fa8"


def _digits(instance: Instance) -> str:
    return "0123456789"[:instance.modulus]


def start(instance: Instance) -> dict[str, list[str]]:
    playable(instance.rows, instance.cols)
    return {"presses": ["0" * instance.cols] * instance.rows}


def apply(instance: Instance, position: dict[str, Any], move: str) -> dict[str, list[str]]:
    r, c, value = read_mark(move, instance.rows, instance.cols, _digits(instance))
    rows = list(position["presses"])
    rows[r] = rows[r][:c] + value + rows[r][c + 1:]
    return {"presses": rows}


def lights_after(instance: Instance, presses: list[str]) -> list[list[int]]:
    """Every light after the presses (the rules' `press_effect`, mod K)."""
    lights = [list(row) for row in instance.lights]
    for r, row in enumerate(presses):
        for c, count in enumerate(row):
            for hr, hc in press_effect(instance, r, c) if count != "0" else ():
                lights[hr][hc] = (lights[hr][hc] + int(count)) % instance.modulus
    return lights


def board(instance: Instance, position: dict[str, Any]) -> Board:
    presses = position["presses"]
    lights = lights_after(instance, presses)
    cell = fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM)
    targets = cell_targets(instance.rows, instance.cols, MARGIN_MM, MARGIN_MM, cell,
                           lambda r, c: f"on {lights[r][c]}" if lights[r][c] else "off")
    page = Drawing(instance.cols * cell + 2 * MARGIN_MM, instance.rows * cell + 2 * MARGIN_MM,
                   background="#ffffff")
    for target in targets:
        r, c = read_cell(target.item, instance.rows, instance.cols)
        x, y, w, h = target.box
        page.rect(x, y, w, h, fill=light_fill(lights[r][c], instance.modulus), stroke=_GRID,
                  width=max(0.08, 0.025 * cell))
        count = presses[r][c]
        if count != "0" and instance.modulus == 2:
            page.circle(x + w / 2, y + h / 2, cell * 0.14, fill=_PRESS)
        elif count != "0":
            page.text(x + w / 2, y + h / 2, count, size=cell * 0.45, fill=_PRESS, bold=True)
    on = sum(1 for row in lights for light in row if light)
    pressed = sum(int(d) for row in presses for d in row)
    return Board(page, tuple(targets), complete=on == 0,
                 status=f"{on} light{'s' * (on != 1)} on, {pressed} press{'es' * (pressed != 1)}")


def moves(instance: Instance, position: dict[str, Any]) -> list[Move]:
    digits = _digits(instance)
    words = {d: f"pressed {d} time{'s' * (d != '1')}" for d in digits}
    return [move for r, row in enumerate(position["presses"]) for c, value in enumerate(row)
            for move in cycle(cell_item(r, c), value, digits, words)]


def items(instance: Instance, position: dict[str, Any]) -> dict[str, str]:
    return {cell_item(r, c): value for r, row in enumerate(position["presses"])
            for c, value in enumerate(row)}


def moves_to(instance: Instance, solution: dict[str, Any]) -> list[str]:
    return [mark(r, c, value) for r, row in enumerate(solution["presses"])
            for c, value in enumerate(row) if value != "0"]


def remaining(instance: Instance, position: dict[str, Any]) -> Instance:
    return instance


def blank(rows: int, cols: int) -> Instance:
    for side, what in ((rows, "ROWS"), (cols, "COLS")):
        if not 1 <= side <= MAX_SIDE:
            raise UsageError(f"{what} must be a whole number 1..{MAX_SIDE}, got {side}")
    return Instance(rows, cols, ((0,) * cols,) * rows)


def edit(instance: Instance, item: str, token: str) -> Instance:
    r, c = read_cell(item, instance.rows, instance.cols)
    if not (isinstance(token, str) and len(token) == 1 and token in _digits(instance)):
        raise UsageError(f"a light here is a digit 0..{instance.modulus - 1}, not {quoted(token)}")
    lights = [list(row) for row in instance.lights]
    lights[r][c] = int(token)
    return replace(instance, lights=tuple(tuple(row) for row in lights))
