"""Solitaire Chess played by hand: capture until one piece is left.

Position: the captures so far, `{"moves": ["Nb1xPc3", ...]}` (the solution
keys). A move is a capture in that notation; on the board a person clicks
the mover and then its prey, or drags the one onto the other, and every
legal capture is also a button. The board is drawn after the captures,
squares named as in chess (`a1` at the bottom left), the last capture's two
squares highlighted. Complete with one piece left; with more and no capture
left it is a dead end, said in the status. The puzzle left from a position
is the board as it stands (`remaining`). An author types a piece letter
(`K Q R B N P`, `.` to clear).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...core.errors import UsageError, quoted
from ...core.play import Board, Move, Target, playable
from ...graphics.canvas import Drawing
from .picture import DARK, FROM, GLYPHS, LIGHT, TO
from .rules import (
    MAX_SIDE,
    Cell,
    Instance,
    apply_move,
    legal_moves,
    move_name,
    read_move,
    square_name,
)

__all__ = ["PLAN", "EDIT_TOKENS", "start", "apply", "board", "moves", "items", "moves_to",
           "remaining",
           "blank", "edit"]

PLAN = True
EDIT_TOKENS = tuple(cell.value for cell in Cell)
_SQUARE, _EDGE = 12.0, 6.0
Grid = list[list[Cell]]


def start(instance: Instance) -> dict[str, list[str]]:
    playable(instance.rows, instance.cols)
    return {"moves": []}


def _replayed(instance: Instance, moves: list[str]) -> tuple[Grid, tuple | None]:
    """The board after `moves` (made by `apply`, so legal) and the last capture's squares."""
    grid = [list(row) for row in instance.board]
    last = None
    for text in moves:
        _, origin, _, target = read_move(instance.rows, instance.cols, text)
        apply_move(grid, origin, target)
        last = (origin, target)
    return grid, last


def apply(instance: Instance, position: dict[str, Any], move: str) -> dict[str, list[str]]:
    grid, _ = _replayed(instance, position["moves"])
    read = read_move(instance.rows, instance.cols, move)
    if isinstance(read, str):
        raise UsageError(f"move {quoted(move)}: {read}")
    mover, origin, captured, target = read
    if (grid[origin[0]][origin[1]], grid[target[0]][target[1]]) != (mover, captured):
        raise UsageError(f"move {quoted(move)}: those pieces are not on those squares")
    if (origin, target) not in legal_moves(grid):
        raise UsageError(f"move {quoted(move)}: not a legal capture here")
    return {"moves": [*position["moves"], move]}


def _drawing(instance: Instance, grid: Grid, last: tuple | None) -> Drawing:
    rows, cols = instance.rows, instance.cols
    page = Drawing(_EDGE + cols * _SQUARE + 1, rows * _SQUARE + _EDGE + 1, background="#ffffff")
    for r in range(rows):
        for c in range(cols):
            dark = (c + rows - r) % 2 == 1  # a1 is dark
            page.rect(_EDGE + c * _SQUARE, r * _SQUARE, _SQUARE, _SQUARE,
                      fill=DARK if dark else LIGHT)
    for (r, c), colour in zip(last or (), (FROM, TO), strict=False):
        page.rect(_EDGE + c * _SQUARE, r * _SQUARE, _SQUARE, _SQUARE, fill=colour, opacity=0.75)
    for c in range(cols):
        page.text(_EDGE + (c + 0.5) * _SQUARE, rows * _SQUARE + _EDGE / 2,
                  square_name(rows, (rows - 1, c))[0], size=3.6, fill="#555555")
    for r in range(rows):
        page.text(_EDGE / 2, (r + 0.5) * _SQUARE, str(rows - r), size=3.6, fill="#555555")
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell is not Cell.EMPTY:
                page.text(_EDGE + (c + 0.5) * _SQUARE, (r + 0.5) * _SQUARE, GLYPHS[cell],
                          size=_SQUARE * 0.8)
    return page


def board(instance: Instance, position: dict[str, Any]) -> Board:
    grid, last = _replayed(instance, position["moves"])
    targets = tuple(Target(square_name(instance.rows, (r, c)),
                           (_EDGE + c * _SQUARE, r * _SQUARE, _SQUARE, _SQUARE),
                           grid[r][c].name.lower())
                    for r in range(instance.rows) for c in range(instance.cols))
    captures = legal_moves(grid)
    left = sum(cell is not Cell.EMPTY for row in grid for cell in row)
    if left == 1:
        status = "one piece left: solved"
    elif not captures:
        status = f"{left} pieces left and no capture: a dead end (undo)"
    else:
        status = f"{left} pieces left, {len(captures)} capture{'s' * (len(captures) != 1)} " \
                 "possible"
    return Board(_drawing(instance, grid, last), targets, complete=left == 1,
                 status=status)


def moves(instance: Instance, position: dict[str, Any]) -> list[Move]:
    """Every legal capture, by its notation, made on the mover's and the prey's squares."""
    grid, _ = _replayed(instance, position["moves"])
    found = []
    for origin, target in legal_moves(grid):
        name = move_name(instance.rows, grid[origin[0]][origin[1]], origin,
                         grid[target[0]][target[1]], target)
        found.append(Move(name, name, (square_name(instance.rows, origin),
                                       square_name(instance.rows, target)), listed=True))
    return found


def items(instance: Instance, position: dict[str, Any]) -> dict[str, str]:
    return {f"move {number}": move for number, move in enumerate(position["moves"], 1)}


def moves_to(instance: Instance, solution: dict[str, Any]) -> list[str]:
    return list(solution["moves"])


def remaining(instance: Instance, position: dict[str, Any]) -> Instance:
    grid, _ = _replayed(instance, position["moves"])
    return replace(instance, board=tuple(tuple(row) for row in grid), meta=())


def blank(rows: int, cols: int) -> Instance:
    """An empty board but for a king in the bottom left corner (a board holds a piece)."""
    for side, what in ((rows, "ROWS"), (cols, "COLS")):
        if not 1 <= side <= MAX_SIDE:
            raise UsageError(f"{what} must be a whole number 1..{MAX_SIDE}, got {side}")
    board = [[Cell.EMPTY] * cols for _ in range(rows)]
    board[-1][0] = Cell.KING
    return Instance(rows, cols, tuple(tuple(row) for row in board))


def edit(instance: Instance, item: str, token: str) -> Instance:
    squares = {square_name(instance.rows, (r, c)): (r, c) for r, c in instance.squares()}
    if item not in squares:
        raise UsageError(f"{quoted(item)} is not a square of this board (a1 is bottom left)")
    if token not in EDIT_TOKENS:
        raise UsageError(f"a square holds one of {' '.join(EDIT_TOKENS)}, not {quoted(token)}")
    if instance.knights and token not in (Cell.KNIGHT.value, Cell.EMPTY.value):
        raise UsageError("the knights variant has knights (N) only")
    r, c = squares[item]
    board = [list(row) for row in instance.board]
    board[r][c] = Cell(token)
    edited = replace(instance, board=tuple(tuple(row) for row in board))
    if not edited.pieces:
        raise UsageError("a board keeps at least one piece (place another first)")
    return edited
