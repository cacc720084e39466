"""Clock stepping played by hand: turn the dial by the given steps until it shows the target.

Position: the plan so far, `{"steps": [4, 7], "times": [3, 7, 2]}` (the
solution keys). A move is one normalised step as a number (`"4"`), offered
as a button per step ("+4 → 7"). The board is the puzzle's own picture of
the dial as it stands now (`picture.draw` of the puzzle left to solve, whose
start is the current time). Complete when the dial shows the target. Clocks
are authored as text (`EDIT_TOKENS` is empty).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.errors import UsageError, quoted
from ...core.play import Board, Move
from .picture import draw
from .rules import Instance

__all__ = ["PLAN", "EDIT_TOKENS", "start", "apply", "board", "moves", "items", "moves_to",
           "remaining",
           "blank", "edit"]

PLAN = True
EDIT_TOKENS: tuple[str, ...] = ()


def start(instance: Instance) -> dict[str, list[int]]:
    return {"steps": [], "times": [instance.start]}


def apply(instance: Instance, position: dict[str, Any], move: str) -> dict[str, list[int]]:
    step = int(move) if isinstance(move, str) and move.isascii() and move.isdigit() \
        and len(move) < 10 else None
    if step not in instance.moves:
        steps = " ".join(map(str, instance.moves))
        raise UsageError(f"move {quoted(move)} is not one of the steps {steps}")
    now = position["times"][-1]
    return {"steps": [*position["steps"], step],
            "times": [*position["times"], (now + step) % instance.hours]}


def board(instance: Instance, position: dict[str, Any]) -> Board:
    now = position["times"][-1]
    count = len(position["steps"])
    done = now == instance.target
    return Board(draw(remaining(instance, position)), (), complete=done,
                 status=f"{count} step{'s' * (count != 1)}, the dial shows {now:,}"
                        + ("; target reached" if done else f", the target is {instance.target:,}"))


def moves(instance: Instance, position: dict[str, Any]) -> list[Move]:
    now = position["times"][-1]
    return [Move(str(step), f"+{step:,} → {(now + step) % instance.hours:,}", listed=True)
            for step in instance.moves]


def items(instance: Instance, position: dict[str, Any]) -> dict[str, str]:
    return {f"move {number}": str(step) for number, step in enumerate(position["steps"], 1)}


def moves_to(instance: Instance, solution: dict[str, Any]) -> list[str]:
    return [str(step) for step in solution["steps"]]


def remaining(instance: Instance, position: dict[str, Any]) -> Instance:
    return replace(instance, start=position["times"][-1], meta=())


def blank(rows: int, cols: int) -> Instance:
    raise UsageError("a clock has no board to author cell by cell: edit the instance's text")


def edit(instance: Instance, item: str, token: str) -> Instance:
    raise UsageError("a clock has no board to author cell by cell: edit the instance's text")
