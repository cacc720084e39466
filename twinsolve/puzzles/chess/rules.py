"""Solitaire Chess: the rules, the file format, the independent checker, and `brute`.

Rules. A ROWS x COLS board (1..8 each way) holds chess pieces: King, Queen,
Rook, Bishop, kNight, Pawn. Every move is a capture: a piece moves as in
chess onto a square holding another piece and removes it. Rooks, bishops
and queens slide, so the squares in between must be empty; knights jump;
kings step one square any way; pawns capture one square diagonally toward
the top row only and are never promoted. The king cannot be captured. Goal:
one piece left, so every win takes exactly pieces - 1 moves. The `knights`
variant (the puzzle of the seed article) has knights only.

File: `chess ROWS COLS [knights]`, then ROWS lines of COLS characters from
`K Q R B N P .`, top row first. Solution: `{"moves": ["Pa2xBb3", ...]}`:
the mover's letter and square, `x`, the captured piece's letter and square;
files are letters from the left (a, b, ...), ranks count from the bottom
(rank 1 is the bottom row, rank ROWS the top row).

The question besides "is there a win": how many distinct winning move
sequences there are (`count`), and whether there is exactly one (`unique`).

`verify` replays the moves on a plain list-of-lists board with the rules
spelled out square by square, and `brute` tries every move sequence with no
memo at all; both are independent of the bitboards of the `hand` solver.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text

from ...core import drawing
from ...core.errors import quoted
from ...core.instance_file import Layout, Metadata, format_metadata, read_layout
from ...core.limits import LimitReached, Limits, Poller
from ...core.result import Result, Stats, Status, Stopwatch, Tally

__all__ = ["Cell", "PIECES", "SLIDERS", "Instance", "parse", "format", "verify", "objective",
           "render", "brute", "reaches", "between", "square_name", "move_name", "read_move",
           "apply_move", "legal_moves", "notation", "answer", "MAX_SIDE", "BRUTE_MAX_PIECES"]

MAX_SIDE = 8
BRUTE_MAX_PIECES = 7
_FILES = "abcdefgh"


class Cell(str, enum.Enum):
    """What a square holds: nothing, or one piece (the value is its file letter)."""

    EMPTY = "."
    KING = "K"
    QUEEN = "Q"
    ROOK = "R"
    BISHOP = "B"
    KNIGHT = "N"
    PAWN = "P"

    def __str__(self) -> str:
        return self.value


PIECES = (Cell.KING, Cell.QUEEN, Cell.ROOK, Cell.BISHOP, Cell.KNIGHT, Cell.PAWN)
SLIDERS = (Cell.QUEEN, Cell.ROOK, Cell.BISHOP)
_BY_LETTER = {cell.value: cell for cell in Cell}

Square = tuple[int, int]
Board = tuple[tuple[Cell, ...], ...]


@dataclass(frozen=True)
class Instance:
    PUZZLE: ClassVar[str] = "chess"

    rows: int
    cols: int
    board: Board
    knights: bool = False
    meta: Metadata = ()

    @property
    def pieces(self) -> int:
        return sum(cell is not Cell.EMPTY for row in self.board for cell in row)

    @property
    def variant(self) -> str:
        return "knights" if self.knights else "plain"

    def squares(self) -> Iterator[Square]:
        """Every square, row-major from the top left."""
        for r in range(self.rows):
            for c in range(self.cols):
                yield r, c


# ---------------------------------------------------------------- geometry

def reaches(kind: Cell, origin: Square, target: Square) -> bool:
    """Whether `kind` on `origin` attacks `target` on an otherwise empty board."""
    dr, dc = target[0] - origin[0], target[1] - origin[1]
    if (dr, dc) == (0, 0):
        return False
    straight = dr == 0 or dc == 0
    diagonal = abs(dr) == abs(dc)
    if kind is Cell.KNIGHT:
        return {abs(dr), abs(dc)} == {1, 2}
    if kind is Cell.KING:
        return max(abs(dr), abs(dc)) == 1
    if kind is Cell.PAWN:  # diagonally toward the top row (row 0)
        return dr == -1 and abs(dc) == 1
    if kind is Cell.ROOK:
        return straight
    if kind is Cell.BISHOP:
        return diagonal
    if kind is Cell.QUEEN:
        return straight or diagonal
    return False


def between(origin: Square, target: Square) -> list[Square]:
    """The squares strictly between two squares on one line (none for a knight's jump)."""
    dr, dc = target[0] - origin[0], target[1] - origin[1]
    if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return []
    steps = max(abs(dr), abs(dc))
    step_r, step_c = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    return [(origin[0] + step_r * i, origin[1] + step_c * i) for i in range(1, steps)]


def square_name(rows: int, square: Square) -> str:
    """`a1` is the bottom-left square: file letter from the left, rank from the bottom."""
    return f"{_FILES[square[1]]}{rows - square[0]}"


def move_name(rows: int, mover: Cell, origin: Square, captured: Cell, target: Square) -> str:
    """The notation of one capture, e.g. `Pa2xBb3`."""
    return (f"{mover.value}{square_name(rows, origin)}x"
            f"{captured.value}{square_name(rows, target)}")


_MOVE = re.compile(r"([KQRBNP])([a-h])([1-8])x([KQRBNP])([a-h])([1-8])")


def read_move(rows: int, cols: int, text: Any) -> tuple[Cell, Square, Cell, Square] | str:
    """(mover, origin, captured, target) from notation, or what is wrong with it."""
    match = _MOVE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return "not a capture in the form Pa2xBb3"
    squares = []
    for file, rank in ((match.group(2), match.group(3)), (match.group(5), match.group(6))):
        col, row = _FILES.index(file), rows - int(rank)
        if not (0 <= row < rows and 0 <= col < cols):
            return f"square {file}{rank} is off the {rows}x{cols} board"
        squares.append((row, col))
    return _BY_LETTER[match.group(1)], squares[0], _BY_LETTER[match.group(4)], squares[1]


def _legal(board: list[list[Cell]], origin: Square, target: Square) -> str | None:
    """Why moving the piece on `origin` onto `target` is not a legal capture, or None."""
    mover, captured = board[origin[0]][origin[1]], board[target[0]][target[1]]
    if mover is Cell.EMPTY:
        return "no piece on the origin square"
    if captured is Cell.EMPTY:
        return "nothing to capture on the target square"
    if captured is Cell.KING:
        return "the king cannot be captured"
    if not reaches(mover, origin, target):
        return f"a {mover.name.lower()} does not move that way"
    if any(board[r][c] is not Cell.EMPTY for r, c in between(origin, target)):
        return "the path is blocked"
    return None


def apply_move(board: list[list[Cell]], origin: Square, target: Square) -> None:
    """Play a capture on a list-of-lists board (no checks)."""
    board[target[0]][target[1]] = board[origin[0]][origin[1]]
    board[origin[0]][origin[1]] = Cell.EMPTY


def legal_moves(board: list[list[Cell]]) -> list[tuple[Square, Square]]:
    """Every legal capture (origin, target), origins row-major, then targets row-major."""
    occupied = [(r, c) for r, row in enumerate(board) for c, cell in enumerate(row)
                if cell is not Cell.EMPTY]
    return [(a, b) for a in occupied for b in occupied if a != b and _legal(board, a, b) is None]


# ---------------------------------------------------------------- parsing

def _read_header(layout: Layout) -> tuple[int, int, bool]:
    rows, cols, words = layout.grid_header("chess", "chess ROWS COLS [knights]", MAX_SIDE)
    knights = False
    for word in words:
        if word == "knights" and not knights:
            knights = True
        else:
            raise layout.header_error(f"unexpected {quoted(word)} in header (option: knights)")
    return rows, cols, knights


def _read_cell(layout: Layout, line: int, column: int, char: str, knights: bool) -> Cell:
    cell = _BY_LETTER.get(char)
    if cell is None:
        hint = " (pieces are upper-case letters)" if char.upper() in _BY_LETTER else ""
        raise layout.error(line, column,
                           f"unknown piece {char!r}: expected one of K Q R B N P .{hint}")
    if knights and cell not in (Cell.KNIGHT, Cell.EMPTY):
        raise layout.error(line, column,
                           f"piece {char!r} in the knights variant, which has knights (N) only")
    return cell


def parse(text: str, source: str | None = None) -> Instance:
    """Read a Solitaire Chess instance; any problem is an `InstanceError`."""
    layout = read_layout(text, source)
    rows, cols, knights = _read_header(layout)
    body = layout.body
    if len(body) < rows:
        last = body[-1].number if body else layout.header_line
        raise layout.error(last, None, f"expected {rows} rows of squares, found {len(body)}")
    if len(body) > rows:
        raise layout.error(body[rows].number, 1, f"more than {rows} rows of squares")
    board = []
    for line in body:
        row_text = line.text.rstrip()
        if len(row_text) != cols:
            raise layout.error(line.number, min(len(row_text), cols) + 1,
                               f"row has {len(row_text)} squares, expected {cols}")
        board.append(tuple(_read_cell(layout, line.number, column, char, knights)
                           for column, char in enumerate(row_text, start=1)))
    instance = Instance(rows, cols, tuple(board), knights, layout.metadata)
    if instance.pieces == 0:
        raise layout.error(body[0].number, 1, "the board has no pieces")
    return instance


def format(instance: Instance) -> str:  # noqa: A001 - the contract's name
    header = f"chess {instance.rows} {instance.cols}" + (" knights" if instance.knights else "")
    rows = "".join("".join(cell.value for cell in row) + "\n" for row in instance.board)
    return format_metadata(instance.meta) + header + "\n" + rows


# ---------------------------------------------------------------- checking

def verify(instance: Instance, solution: Any) -> list[str]:
    """Replay the moves on a plain board; [] if each is a legal capture and one piece is left."""
    if not isinstance(solution, dict) or not isinstance(solution.get("moves"), list):
        return ['solution must be {"moves": ["Pa2xBb3", ...]}']
    board = [list(row) for row in instance.board]
    for number, text in enumerate(solution["moves"], start=1):
        move = read_move(instance.rows, instance.cols, text)
        if isinstance(move, str):
            return [f"move {number} {quoted(text)}: {move}"]
        mover, origin, captured, target = move
        problem = _legal(board, origin, target)
        if problem is None and board[origin[0]][origin[1]] is not mover:
            problem = f"the piece on {square_name(instance.rows, origin)} is not {mover.value}"
        if problem is None and board[target[0]][target[1]] is not captured:
            problem = f"the piece on {square_name(instance.rows, target)} is not {captured.value}"
        if problem is not None:
            return [f"move {number} {quoted(text)}: {problem}"]
        apply_move(board, origin, target)
    left = sum(cell is not Cell.EMPTY for row in board for cell in row)
    if left != 1:
        return [f"{left} pieces left after {len(solution['moves'])} moves, expected 1"]
    return []


def objective(instance: Instance, solution: Any) -> None:
    """None: a feasibility puzzle (every win takes pieces - 1 moves)."""
    return None


def answer(moves: list[str] | None, tally: Tally, limits: Limits, stats: Stats,
           message: str | None = None) -> Result:
    """The Result every back-end gives: SOLVED with a move list, or UNSAT (`moves` None,
    after a search that ran to the end).

    `tally` holds the winning sequences found: all of them, or (the search
    stopped early) a lower bound, which still settles `unique` once it
    reaches 2. `unique` and `count` are filled only when asked.
    """
    if moves is None:
        return Result.unsat(limits, stats=stats, message=message)
    if limits.count and tally.count is None and message is None:
        message = f"count unknown: stopped after {tally.found} winning sequence(s)"
    return Result.answer(Status.SOLVED, {"moves": list(moves)}, tally=tally, asked=limits,
                         stats=stats, message=message)


# ---------------------------------------------------------------- drawing

def render(instance: Instance, solution: dict[str, Any] | None = None,
           width: int | None = None) -> Text:
    """The board with rank numbers and file letters, then the moves if any (a long list
    elided in the middle); no line wider than `width` (`core.drawing`)."""
    text = Text()
    text.append(f"Solitaire Chess {instance.rows}x{instance.cols} ({instance.variant}, "
                f"{instance.pieces} pieces)\n", style="bold")
    gap = drawing.cell_gap(width, lambda g: 2 + (1 + g) * instance.cols)
    if gap is None:
        counts = [(instance.pieces, "pieces")]
        text.append(drawing.grid_summary(instance.rows, instance.cols, counts, width) + "\n")
    else:
        for r, row in enumerate(instance.board):
            text.append(f"{instance.rows - r} ", style="dim")
            for cell in row:
                text.append(cell.value + " " * gap, style="dim" if cell is Cell.EMPTY else "bold")
            text.append("\n")
        text.append("  " + (" " * gap).join(_FILES[:instance.cols]) + "\n", style="dim")
    if solution and isinstance(solution.get("moves"), list):
        moves = solution["moves"]
        shown = [str(moves[i]) if isinstance(i, int) else i.label("moves")
                 for i in drawing.shown(len(moves))]
        text.append("moves: " + " ".join(shown) + "\n", style="magenta")
    return drawing.wrapped(text, width)


# ---------------------------------------------------------------- brute force

def _count_all(board: list[list[Cell]], left: int, path: list[tuple[Square, Square]],
               first: list[list[tuple[Square, Square]]], poller: Poller,
               nodes: list[int]) -> int:
    """Winning sequences from `board`, trying every move (no memo); `first` gets the first."""
    if nodes[0] >= poller.at:
        poller.stop(nodes[0])
    nodes[0] += 1
    if left == 1:
        if not first:
            first.append(list(path))
        return 1
    total = 0
    for origin, target in legal_moves(board):
        captured = board[target[0]][target[1]]
        apply_move(board, origin, target)
        path.append((origin, target))
        total += _count_all(board, left - 1, path, first, poller, nodes)
        path.pop()
        board[origin[0]][origin[1]] = board[target[0]][target[1]]
        board[target[0]][target[1]] = captured
    return total


def brute(instance: Instance, limits: Limits) -> Result:
    """Every move sequence in turn, no memo: the test oracle, for at most 7 pieces."""
    watch = Stopwatch()
    if instance.pieces > BRUTE_MAX_PIECES:
        return Result(Status.UNSUPPORTED, message=f"brute handles at most {BRUTE_MAX_PIECES} "
                      f"pieces; this board has {instance.pieces}")
    board = [list(row) for row in instance.board]
    watch.built()
    first: list[list[tuple[Square, Square]]] = []
    nodes = [0]
    try:
        poller = Poller(limits.node_limit, limits.deadline(), every=1024)
        total = _count_all(board, instance.pieces, [], first, poller, nodes)
    except LimitReached as stop:
        return Result(Status.TIMEOUT, stats=watch.stats(nodes=nodes[0]),
                      message=f"brute stopped: {stop.hit} limit")
    stats = watch.stats(nodes=nodes[0], sequences=total)
    if not first:
        return Result.unsat(limits, stats=stats)
    return answer(notation(instance, first[0]), Tally(total, complete=True), limits, stats)


def notation(instance: Instance, path: list[tuple[Square, Square]]) -> list[str]:
    """The names of a sequence of (origin, target) captures played from the start."""
    board = [list(row) for row in instance.board]
    names = []
    for origin, target in path:
        names.append(move_name(instance.rows, board[origin[0]][origin[1]], origin,
                               board[target[0]][target[1]], target))
        apply_move(board, origin, target)
    return names
