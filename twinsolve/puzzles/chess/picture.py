"""Solitaire Chess as a picture: the board, and a win as a sequence of small boards.

What is drawn. The puzzle: the board at its size from the instance, light
and dark squares (a1, the bottom-left square, dark as in chess), file
letters below and rank numbers on the left, every piece as its chess glyph
(♚♛♜♝♞♟: the pieces have no colour here, all are drawn filled), with text
saying the rule and the number of pieces.

With a solution: the text, then one small board per position of the win,
the start first and then the board after each capture, the capture shown as
its two squares highlighted (from pale, to darker) and an arrow from the
mover's square to its target, captioned in short notation ("3. Nxb5";
a pawn by its file, "axb3"; a file or rank added when another piece of the
mover's kind could take on the same square, as in chess). A win of more
than `core.drawing.SEQUENCE_LIMIT` captures shows its first and last ones
around a "… N more moves …" note, as the text picture (`rules.render`) does.
"""

from __future__ import annotations

from typing import Any

from ...graphics.canvas import Drawing
from ...graphics.layout import BODY_WIDTH, fit_size, headed_page, plan_page
from .rules import Cell, Instance, apply_move, between, reaches, read_move, square_name

__all__ = ["draw", "short_notation", "GLYPHS", "LIGHT", "DARK", "FROM", "TO", "ARROW"]

GLYPHS = {Cell.KING: "♚", Cell.QUEEN: "♛", Cell.ROOK: "♜", Cell.BISHOP: "♝",
          Cell.KNIGHT: "♞", Cell.PAWN: "♟"}
LIGHT = "#f0d9b5"
DARK = "#b58863"
FROM = "#f6f07a"
TO = "#e8913a"
ARROW = "#1f5fa8"
BIG_SQUARE = 12.0     # mm, at most: the puzzle's board is at most 8 x 12 = 96 mm wide
SMALL_BOARD = 34.0    # mm: a board of the sequence is about this wide

Square = tuple[int, int]
Grid = list[list[Cell]]


def draw(instance: Instance, solution: dict[str, Any] | None = None) -> Drawing:
    """The board, or with `solution` the boards after each capture of the win."""
    lines = _facts(instance)
    if not solution:
        square = min(BIG_SQUARE, (BODY_WIDTH - 6) / instance.cols)
        return headed_page(lines, _board(instance, instance_grid(instance), square))
    moves = solution["moves"]
    grids, captures = _replay(instance, moves)
    lines.append(f"solution: {len(moves)} capture{'s' * (len(moves) != 1)}")
    square = min(8.0, SMALL_BOARD / max(instance.rows, instance.cols))

    def frame(k: int) -> Drawing:
        return _board(instance, grids[k], square, captures[k - 1] if k else None)

    def caption(k: int) -> str:
        if not k:
            return "start"
        origin, target = captures[k - 1]
        return f"{k}. {short_notation(instance.rows, grids[k - 1], origin, target)}"

    return plan_page(lines, len(moves), frame, caption, noun="moves")


def _facts(instance: Instance) -> list[str]:
    """The lines of text above the picture: the goal and the rules that matter here."""
    pieces = instance.pieces
    rules = ("knights only" if instance.knights
             else "kings are never taken; pawns take toward the top")
    return [f"goal: capture until one piece is left ({pieces} pieces, so {pieces - 1} "
            f"capture{'s' * (pieces != 2)})",
            f"board {instance.rows} x {instance.cols}; every move is a capture; {rules}"]


def instance_grid(instance: Instance) -> Grid:
    """The start position as a list-of-lists board (rows from the top)."""
    return [list(row) for row in instance.board]


def _replay(instance: Instance, moves: list[str]) -> tuple[list[Grid], list[tuple[Square,
                                                                                Square]]]:
    """The board before the first move and after each, and each move's two squares."""
    grid = instance_grid(instance)
    grids, captures = [grid], []
    for number, text in enumerate(moves, start=1):
        move = read_move(instance.rows, instance.cols, text)
        if isinstance(move, str):
            raise ValueError(f"move {number} {text!r}: {move}")
        _, origin, _, target = move
        grid = [row[:] for row in grid]
        apply_move(grid, origin, target)
        grids.append(grid)
        captures.append((origin, target))
    return grids, captures


def short_notation(rows: int, grid: Grid, origin: Square, target: Square) -> str:
    """A capture in short notation on the board before it: "Nxb5", "axb3", "Rdxd4".

    >>> from twinsolve.puzzles.chess.rules import parse
    >>> board = instance_grid(parse("chess 2 3\\nR.N\\nP.R\\n"))  # both rooks can take c2
    >>> [short_notation(2, board, *move) for move in [((0, 0), (0, 2)), ((1, 0), (0, 1))]]
    ['Raxc2', 'axb2']
    """
    mover = grid[origin[0]][origin[1]]
    name = square_name(rows, target)
    if mover is Cell.PAWN:
        return f"{square_name(rows, origin)[0]}x{name}"
    rivals = [(r, c) for r, row in enumerate(grid) for c, cell in enumerate(row)
              if cell is mover and (r, c) != origin and reaches(mover, (r, c), target)
              and all(grid[y][x] is Cell.EMPTY for y, x in between((r, c), target))]
    where = square_name(rows, origin)
    if not rivals:
        hint = ""
    elif all(c != origin[1] for _, c in rivals):
        hint = where[0]
    elif all(r != origin[0] for r, _ in rivals):
        hint = where[1:]
    else:
        hint = where
    return f"{mover.value}{hint}x{name}"


def _board(instance: Instance, grid: Grid, square: float,
           capture: tuple[Square, Square] | None = None) -> Drawing:
    """One board: squares, coordinates, the last capture's squares and arrow, the pieces."""
    rows, cols = instance.rows, instance.cols
    edge = square * 0.55  # room for the rank numbers on the left and the files below
    picture = Drawing(edge + cols * square + 0.5, rows * square + edge + 0.5)
    picture.rect(edge, 0, cols * square, rows * square, fill=LIGHT)
    for r in range(rows):
        for c in range(cols):
            if (c + rows - r) % 2 == 1:  # a1 (c = 0, rank 1) is dark
                picture.rect(edge + c * square, r * square, square, square, fill=DARK)
    if capture is not None:
        for (r, c), colour in zip(capture, (FROM, TO), strict=True):
            picture.rect(edge + c * square, r * square, square, square, fill=colour,
                         opacity=0.75)
    picture.rect(edge, 0, cols * square, rows * square, stroke="#5a4030", width=square * 0.04)
    _coordinates(picture, rows, cols, square, edge)
    if capture is not None:  # under the pieces, so that the mover stays in sight
        _arrow(picture, capture, square, edge)
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell is not Cell.EMPTY:
                picture.text(edge + (c + 0.5) * square, (r + 0.5) * square, GLYPHS[cell],
                             size=square * 0.8)
    return picture


def _coordinates(picture: Drawing, rows: int, cols: int, square: float, edge: float) -> None:
    size = square * 0.32
    for c in range(cols):
        letter = square_name(rows, (rows - 1, c))[0]
        picture.text(edge + (c + 0.5) * square, rows * square + edge * 0.5, letter,
                     size=size, fill="#555555")
    for r in range(rows):
        rank = str(rows - r)
        picture.text(edge * 0.5, (r + 0.5) * square, rank,
                     size=fit_size(rank, edge, size), fill="#555555")


def _arrow(picture: Drawing, capture: tuple[Square, Square], square: float,
           edge: float) -> None:
    """A straight arrow from the mover's square toward the captured piece's, its head
    stopping short of the target's centre where the mover now stands."""
    (r1, c1), (r2, c2) = capture
    x1, y1 = edge + (c1 + 0.5) * square, (r1 + 0.5) * square
    x2, y2 = edge + (c2 + 0.5) * square, (r2 + 0.5) * square
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    x2, y2 = x2 - ux * square * 0.22, y2 - uy * square * 0.22  # the tip
    head, half = square * 0.36, square * 0.2
    bx, by = x2 - ux * head, y2 - uy * head  # the base of the head
    picture.line(x1, y1, bx, by, stroke=ARROW, width=square * 0.1, opacity=0.8)
    picture.polygon([(x2, y2), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)],
                    fill=ARROW, opacity=0.8)
