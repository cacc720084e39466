"""Water jugs played by hand: fill, empty and pour until the goal holds.

Position: the plan so far, `{"moves": ["fill 0", ...], "states": [[0, 0],
...]}` (the solution keys). A move is the rules' own label (`fill 0`,
`empty 1`, `pour 0 1`), offered as buttons; on the board a click fills a
jug, a right click empties it, and dragging one jug onto another pours.
Complete when the last state meets the goal. The puzzle left from a
position is the same jugs starting from its levels (`remaining`): that is
how a check knows how far the plan is from the fewest moves. Jugs are
authored as text (`EDIT_TOKENS` is empty).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.errors import UsageError, quoted
from ...core.play import Board, Move, Target
from ...graphics.canvas import Drawing
from ...graphics.layout import text_width
from .picture import GLASS, GOAL, INSIDE, WATER
from .rules import Instance, MoveKind, apply_move, move_text, moves_of, parse_move

__all__ = ["PLAN", "EDIT_TOKENS", "start", "apply", "board", "moves", "items", "moves_to",
           "remaining",
           "blank", "edit"]

PLAN = True
EDIT_TOKENS: tuple[str, ...] = ()
_TALLEST, _WIDTH, _COLUMN, _TOP, _TEXT = 50.0, 14.0, 22.0, 12.0, 3.6


def start(instance: Instance) -> dict[str, list]:
    return {"moves": [], "states": [list(instance.start)]}


def apply(instance: Instance, position: dict[str, Any], move: str) -> dict[str, list]:
    chosen = parse_move(move, instance.jugs)
    if chosen is None:
        raise UsageError(f"move {quoted(move)} is not 'fill i', 'empty i' or 'pour i j' with "
                         f"jugs 0..{instance.jugs - 1}")
    if chosen.kind not in instance.kinds:
        raise UsageError(f"move {quoted(move)}: {chosen.kind} is not allowed here")
    after = apply_move(instance.capacities, position["states"][-1], chosen)
    return {"moves": [*position["moves"], str(chosen)],
            "states": [*position["states"], list(after)]}


def _jug(index: int) -> str:
    return f"j{index}"


def _path(label: str) -> tuple[tuple[str, ...], bool]:
    """The jugs a move is made on, and whether by a right click (empty)."""
    words = label.split()
    return tuple(_jug(int(w)) for w in words[1:]), words[0] == MoveKind.EMPTY.value


def board(instance: Instance, position: dict[str, Any]) -> Board:
    levels = position["states"][-1]
    scale = _TALLEST / max(instance.capacities)
    goal = f"goal: {instance.goal}"
    width = max(instance.jugs * _COLUMN, text_width(goal, _TEXT)) + 8
    page = Drawing(width, _TOP + _TALLEST + 16, background="#ffffff")
    page.text(4, 5, goal, size=_TEXT, fill=GOAL, anchor="start", bold=True)
    targets = []
    for i, (level, capacity) in enumerate(zip(levels, instance.capacities, strict=True)):
        x, height = 4 + i * _COLUMN + (_COLUMN - _WIDTH) / 2, max(capacity * scale, 1.0)
        bottom = _TOP + _TALLEST
        page.rect(x, bottom - height, _WIDTH, height, fill=INSIDE, stroke=GLASS, width=0.5)
        if level:
            page.rect(x, bottom - level * scale, _WIDTH, level * scale, fill=WATER)
        page.text(x + _WIDTH / 2, bottom + 4, f"{level}/{capacity}", size=_TEXT, bold=True)
        page.text(x + _WIDTH / 2, bottom + 9, f"jug {i + 1}", size=_TEXT * 0.8)
        targets.append(Target(_jug(i), (x, bottom - height, _WIDTH, height), f"level {level}"))
    done = instance.goal.reached(levels)
    count = len(position["moves"])
    return Board(page, tuple(targets), complete=done,
                 status=f"{count} move{'s' * (count != 1)}, levels {' '.join(map(str, levels))}"
                        + ("; goal reached" if done else ""))


def moves(instance: Instance, position: dict[str, Any]) -> list[Move]:
    """Every allowed move, each always legal (one that changes nothing is allowed too)."""
    found = []
    for chosen in moves_of(instance):
        # the move keeps the solution keys' 0-based name; its label counts jugs from 1
        move = str(chosen)
        path, alt = _path(move)
        found.append(Move(move, move_text(chosen), path, alt=alt, listed=True))
    return found


def items(instance: Instance, position: dict[str, Any]) -> dict[str, str]:
    return {f"move {number}": move for number, move in enumerate(position["moves"], 1)}


def moves_to(instance: Instance, solution: dict[str, Any]) -> list[str]:
    return list(solution["moves"])


def remaining(instance: Instance, position: dict[str, Any]) -> Instance:
    return replace(instance, start=tuple(position["states"][-1]), meta=())


def blank(rows: int, cols: int) -> Instance:
    raise UsageError("jugs have no board to author cell by cell: edit the instance's text")


def edit(instance: Instance, item: str, token: str) -> Instance:
    raise UsageError("jugs have no board to author cell by cell: edit the instance's text")
