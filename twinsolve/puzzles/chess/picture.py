"""Solitaire Chess as a picture: the board, and a win as a sequence of small boards.

What is drawn. The puzzle: the board at its size from the instance, light
and dark squares (a1, the bottom-left square, dark as in chess), file
letters below and rank numbers on the left, every piece as its chess glyph
(♚♛♜♝♞♟: the pieces have no colour here, all are drawn filled), with text
saying the rule and the number of pieces.

With a solution, by default (`STYLES`: `win=arrows`), the win on one
board, as a book prints it: the start position with an arrow
per capture from the mover's square to its target, each arrow numbered in a
disc at its middle, the square of the piece left at the end highlighted,
and under the board the captures in order in short notation ("3. Nxb5"; a
pawn by its file, "axb3"; a file or rank added when another piece of the
mover's kind could take on the same square, as in chess). One board at its
full size reads at any scale: on a sheet's slot and in the report's small
thumbnails alike. `win=boards` draws the win as a strip instead: one
board per position, the start first and then the board after each capture,
the capture shown as its two squares highlighted (from pale, to darker) and
an arrow, each board captioned in short notation. A win of more than
`core.drawing.SEQUENCE_LIMIT` captures shows its first and last ones around
a "… N more moves …" note in the strip and in the list, as the text picture
(`rules.render`) does. Pages wrap to the room asked for (`width`, `height`:
a sheet's slot); the drawing of one board says which board it shows
(`board`: a sheet gives it the page's common square size, `cell`).
"""

from __future__ import annotations

from typing import Any

from ...core.drawing import shown
from ...graphics.canvas import Board, Drawing, text_width
from ...graphics.layout import (
    MAX_HEIGHT,
    PAGE_GAP,
    PAGE_MARGIN,
    body_width,
    fit_size,
    plan_page,
    stack,
    text_block,
    wrap,
)
from .rules import Cell, Instance, apply_move, between, reaches, read_move, square_name

__all__ = ["draw", "short_notation", "GLYPHS", "LIGHT", "DARK", "FROM", "TO", "ARROW",
           "STYLES"]

GLYPHS = {Cell.KING: "♚", Cell.QUEEN: "♛", Cell.ROOK: "♜", Cell.BISHOP: "♝",
          Cell.KNIGHT: "♞", Cell.PAWN: "♟"}
LIGHT = "#f0d9b5"
DARK = "#b58863"
FROM = "#f6f07a"
TO = "#e8913a"
ARROW = "#1f5fa8"
BIG_SQUARE = 12.0     # mm, at most: the puzzle's board is at most 8 x 12 = 96 mm wide
SMALL_BOARD = 40.0    # mm: a board of the strip is about this wide
MOVE_MM = 3.5         # the list of captures under the board
CAPTION_MM = 3.2      # a board's caption in the strip
ARROWS_LEAST = 7.0    # mm: the squares under which the arrows' numbers no longer read
# The picture's styles (`--style NAME=VALUE`): how a win is drawn.
STYLES = {"win": ("arrows", "boards")}

Square = tuple[int, int]
Grid = list[list[Cell]]


def draw(instance: Instance, solution: dict[str, Any] | None = None, *, win: str = "arrows",
         width: float | None = None, height: float | None = None,
         cell: float | None = None) -> Drawing:
    """The board, or with `solution` the win (`STYLES`: on one board with numbered arrows,
    or as a strip of boards), on a page at most `width` x `height` mm (None: the largest),
    its squares `cell` mm wide when given (a sheet's common cell).

    >>> from twinsolve.puzzles.chess.rules import parse
    >>> page = draw(parse("chess 2 2\\nN.\\n.B\\n"), {"moves": ["Na2xBb1"]})
    >>> page.board.cell, page.count("circle")  # one arrow, numbered in its disc
    (12.0, 1)
    """
    if win not in STYLES["win"]:
        raise ValueError(f"win must be one of {', '.join(STYLES['win'])}, got {win!r}")
    lines = _facts(instance)
    room = body_width(width)
    tallest = min(height or MAX_HEIGHT, MAX_HEIGHT) - 2 * PAGE_MARGIN
    if not solution:
        heading = text_block(lines, width=room, bold_first=True)
        square = cell or _square(instance, room, tallest - heading.height - PAGE_GAP)
        board = _board(instance, instance_grid(instance), square)
        return _with_board(stack([heading, board]), instance, square)
    moves = solution["moves"]
    grids, captures = _replay(instance, moves)
    if win == "arrows":  # the board and the list of captures under it say it all
        return _arrows_page(instance, grids, captures, room, tallest, cell)
    lines.append(f"solution: {len(moves)} capture{'s' * (len(moves) != 1)}")
    square = min(8.0, SMALL_BOARD / max(instance.rows, instance.cols))

    def frame(k: int) -> Drawing:
        return _board(instance, grids[k], square, captures[k - 1] if k else None)

    def caption(k: int) -> str:
        if not k:
            return "start"
        origin, target = captures[k - 1]
        return f"{k}. {short_notation(instance.rows, grids[k - 1], origin, target)}"

    # A strip of boards, each shrunk with the strip as its room asks: no one board to scale.
    return plan_page(lines, len(moves), frame, caption, noun="moves", width=width,
                     height=height, caption_size=CAPTION_MM)


def _square(instance: Instance, width: float, height: float) -> float:
    """`BIG_SQUARE`, or less so that the board with its coordinates fits width x height."""
    side = instance.rows + 0.55, instance.cols + 0.55  # the coordinates take 0.55 square
    return max(min(BIG_SQUARE, (width - 0.5) / side[1], (height - 0.5) / side[0]), 1.0)


def _with_board(page: Drawing, instance: Instance, square: float) -> Drawing:
    """The page, saying which board it shows (a sheet gives the boards of a page one
    square size)."""
    page.board = Board(instance.rows, instance.cols, square)
    return page


def _arrows_page(instance: Instance, grids: list[Grid], captures: list[tuple[Square, Square]],
                 room: float, tallest: float, cell: float | None) -> Drawing:
    """The win on the start position: numbered arrows, the survivor's square, and the
    list of captures under it; the board as large as the room left by the list allows."""
    notes = [f"{k + 1}. {short_notation(instance.rows, grids[k], *captures[k])}"
             if isinstance(k, int) else k.label("moves") for k in shown(len(captures))]
    listed = wrap([_word(note) for note in notes], max_width=room, gap=MOVE_MM * 1.2,
                  row_gap=MOVE_MM * 0.4) if notes else None
    left = tallest - (listed.height + PAGE_GAP if listed else 0.0)
    square = cell or _square(instance, room, left)
    board = _board(instance, grids[0], square)
    edge = square * 0.55
    if captures:
        r, c = captures[-1][1]
        board.rect(edge + c * square, r * square, square, square, stroke=TO,
                   width=square * 0.08)
    taken: list[tuple[float, float]] = []
    for number, capture in enumerate(captures, 1):
        _numbered_arrow(board, capture, square, edge, number, taken)
    page = stack([board, *([listed] if listed else [])])
    page.board = Board(instance.rows, instance.cols, square, least=ARROWS_LEAST)
    return page


def _word(text: str) -> Drawing:
    word = Drawing(text_width(text, MOVE_MM), MOVE_MM * 1.4)
    return word.text(0, MOVE_MM * 0.7, text, size=MOVE_MM, anchor="start")


def _numbered_arrow(picture: Drawing, capture: tuple[Square, Square], square: float,
                    edge: float, number: int, taken: list[tuple[float, float]]) -> None:
    """A capture's arrow and its number in a disc on it, where no disc stands yet (the
    middle, else a little before or after it)."""
    _arrow(picture, capture, square, edge)
    (r1, c1), (r2, c2) = capture
    radius = square * 0.2
    for t in (0.5, 0.35, 0.65, 0.25, 0.75):
        x = edge + (c1 + 0.5 + t * (c2 - c1)) * square
        y = (r1 + 0.5 + t * (r2 - r1)) * square
        if all((x - a) ** 2 + (y - b) ** 2 >= (2 * radius) ** 2 for a, b in taken):
            break
    taken.append((x, y))
    label = str(number)
    picture.circle(x, y, radius, fill=ARROW, stroke="#ffffff", width=square * 0.03)
    picture.text(x, y, label, size=fit_size(label, radius * 1.6, square * 0.26), bold=True,
                 fill="#ffffff")


def _facts(instance: Instance) -> list[str]:
    """The lines of text above the picture: the goal and the rules that matter here."""
    pieces = instance.pieces
    rules = ("knights only" if instance.knights
             else "kings are never taken; pawns take toward the top")
    return [f"goal: capture until one piece is left ({pieces} pieces, {pieces - 1} "
            f"capture{'s' * (pieces != 2)})",
            f"every move is a capture; {rules}"]


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
