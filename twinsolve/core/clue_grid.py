"""Clue grids: the file format, the answer keys and the checks that grid puzzles share.

Rules. A clue grid is a ROWS x COLS grid (1..`MAX_SIDE` each) of clues. Its
file is the header `NAME ROWS COLS` and then ROWS lines of COLS
whitespace-separated tokens; what a token may be is the puzzle's to say (a
`read_token` it passes), for example `-` (no clue), `?` (a clue cell without
a number) or a number, which `Cell` holds. Its answer key is a grid of
Boolean cells under one key: `{"inside": ["0110", ...]}`, one digit per
cell, 1 = the cell is in (inside, shaded, ...).

The idea: each puzzle keeps its rules (what a clue means, what a token may
be, how a clue is checked) and passes them in; the reading, writing and the
one-line errors that name the line and column are here once, so every
puzzle built on a clue grid reports the same problem with the same words.
Also here: `reachable` (a breadth-first flood on a Boolean grid, for the
checkers), `Bitboard` (a grid's cells as the bits of an integer, for brute
force) and `brute_answer` (a brute-force oracle's `Result`); for the generators,
`fill_holes` (a region without holes), `check_grid_request` (a size and level a
generator can meet), `level_evidence` (what a level was decided on) and
`branching_grade` (the grade only a search gives).
"""

from __future__ import annotations

import enum
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from .errors import InstanceError, UsageError, quoted
from .generation import Grade
from .geometry import DELTAS, Sized
from .instance_file import Layout, Metadata, format_metadata
from .limits import LimitHit, Limits
from .result import Result, Status, Tally

if TYPE_CHECKING:
    from .generation import Request

__all__ = ["MAX_SIDE", "CellKind", "Cell", "EMPTY", "UNKNOWN", "ClueGrid", "ClueCell",
           "clue_cells", "read_header", "read_rows", "read_cell", "read_cell_rows", "cell_problem",
           "format_grid",
           "checked_grid", "AnswerKey", "reachable", "fill_holes",
           "Bitboard", "brute_answer", "check_grid_request", "level_evidence",
           "branching_grade"]

MAX_SIDE = 200

T = TypeVar("T")

_NUMBER = re.compile(r"[0-9]+")
_TOKEN = re.compile(r"\S+")


class CellKind(enum.Enum):
    EMPTY = "-"     # no clue: the solver decides the cell
    UNKNOWN = "?"   # a clue cell without a number
    NUMBER = "n"    # a numbered clue


@dataclass(frozen=True)
class Cell:
    """One cell of a clue grid: its kind, and the number when it is a numbered clue.

    >>> Cell.clue(3).token, EMPTY.token, UNKNOWN.is_clue
    ('3', '-', True)
    """

    kind: CellKind = CellKind.EMPTY
    number: int | None = None

    def __post_init__(self) -> None:
        if (self.kind is CellKind.NUMBER) != (self.number is not None):
            raise ValueError(f"a {self.kind.name} cell cannot carry number {self.number!r}")

    @classmethod
    def clue(cls, number: int) -> Cell:
        return cls(CellKind.NUMBER, number)

    @property
    def is_clue(self) -> bool:
        return self.kind is not CellKind.EMPTY

    @property
    def token(self) -> str:
        return str(self.number) if self.kind is CellKind.NUMBER else self.kind.value


EMPTY = Cell(CellKind.EMPTY)
UNKNOWN = Cell(CellKind.UNKNOWN)


@dataclass(frozen=True)
class ClueGrid(Sized):
    """A clue grid's instance: a puzzle's `Instance` is a subclass naming its `PUZZLE`;
    `clues[r][c]` is what its tokens read as."""

    rows: int
    cols: int
    clues: tuple[tuple[Any, ...], ...]
    meta: Metadata = ()

    @property
    def variant(self) -> str:
        return "plain"


class ClueCell(NamedTuple):
    row: int
    col: int
    number: int | None  # None for a `?` clue


def clue_cells(instance: ClueGrid) -> list[ClueCell]:
    """The clue cells of a grid of `Cell`s in row-major order; `number` is None for `?`."""
    return [ClueCell(r, c, cell.number)
            for r, row in enumerate(instance.clues) for c, cell in enumerate(row) if cell.is_clue]


# ---------------------------------------------------------------- the file

def read_header(layout: Layout, name: str) -> tuple[int, int]:
    """ROWS and COLS of the header `NAME ROWS COLS`, and nothing after them."""
    usage = f"{name} ROWS COLS"
    rows, cols, rest = layout.grid_header(name, usage, MAX_SIDE)
    if rest:
        raise layout.header_error(f"header must be exactly '{usage}', got "
                                  f"{quoted(' '.join(layout.header))}")
    return rows, cols


def read_rows(layout: Layout, rows: int, cols: int,
              read_token: Callable[[int, int, str], T]) -> tuple[tuple[T, ...], ...]:
    """The body's ROWS lines of COLS tokens, each read by `read_token(line, column, token)`
    (which raises the token's own `InstanceError`)."""
    grid = []
    # Line by line, so the first problem reported is the first one in the file.
    for line in layout.body:
        if len(grid) == rows:
            raise layout.error(line.number, 1, f"more than {rows} rows of clues")
        tokens = list(_TOKEN.finditer(line.text))
        if len(tokens) != cols:
            column = tokens[cols].start() + 1 if len(tokens) > cols else None
            raise layout.error(line.number, column,
                               f"row has {len(tokens)} tokens, expected {cols}")
        grid.append(tuple(read_token(line.number, match.start() + 1, match.group())
                          for match in tokens))
    if len(grid) < rows:
        last = layout.body[-1].number if layout.body else layout.header_line
        raise layout.error(last, None, f"expected {rows} rows of clues, found {len(grid)}")
    return tuple(grid)


def read_cell(layout: Layout, line: int, column: int, token: str,
              clue_problem: Callable[[int], str | None], too_long: str) -> Cell:
    """A `-`, `?` or number token as a `Cell`; `clue_problem(number)` says why a number
    cannot be a clue, `too_long` why a number of more than 6 digits cannot (no need to
    read it as a number: it is past any grid's size)."""
    if token == "-":
        return EMPTY
    if token == "?":
        return UNKNOWN
    if not _NUMBER.fullmatch(token):
        raise layout.error(line, column, f"token {quoted(token)} is not '-', '?' or a clue "
                           "number")
    digits = token.lstrip("0") or "0"
    if len(digits) > 6:
        raise layout.error(line, column, f"a clue of {len(digits)} digits is impossible: "
                           f"{too_long}")
    problem = clue_problem(int(digits))
    if problem:
        raise layout.error(line, column, problem)
    return Cell.clue(int(digits))


def read_cell_rows(layout: Layout, rows: int, cols: int,
                   clue_problem: Callable[[int], str | None],
                   too_long: str) -> tuple[tuple[Cell, ...], ...]:
    """The body as a grid of `Cell`s (`read_rows` of `read_cell`)."""
    return read_rows(layout, rows, cols, lambda line, column, token: read_cell(
        layout, line, column, token, clue_problem, too_long))


def cell_problem(clue_problem: Callable[[int], str | None]) -> Callable[[Any], str | None]:
    """What is wrong with one cell of a grid of `Cell`s, for `checked_grid`: not a `Cell`,
    or a number `clue_problem` refuses."""
    def problem(cell: Any) -> str | None:
        if not isinstance(cell, Cell):
            return "not a Cell"
        return clue_problem(cell.number) if cell.number is not None else None
    return problem


def format_grid(name: str, instance: ClueGrid, token: Callable[[Any], str]) -> str:
    """The file of `instance`: its metadata, `NAME ROWS COLS`, each clue as `token(clue)`."""
    rows = "".join(" ".join(token(clue) for clue in row) + "\n" for row in instance.clues)
    return format_metadata(instance.meta) + f"{name} {instance.rows} {instance.cols}\n" + rows


def checked_grid(rows: int, cols: int, clues: Iterable[Iterable[T]],
                 cell_problem: Callable[[T], str | None], source: str | None = None,
                 line: int | None = None) -> tuple[tuple[T, ...], ...]:
    """The clues as a grid, checked like a parsed file (for importers): the sizes, the
    shape, and each cell by `cell_problem(cell)`; a problem is an `InstanceError` at
    `source`:`line` naming the row and column."""
    for value, what in ((rows, "ROWS"), (cols, "COLS")):
        if not 1 <= value <= MAX_SIDE:
            raise InstanceError(source, line, None,
                                f"{what} must be a whole number 1..{MAX_SIDE}, got {value}")
    grid = tuple(tuple(row) for row in clues)
    if len(grid) != rows or any(len(row) != cols for row in grid):
        raise InstanceError(source, line, None, f"clue grid is not {rows} x {cols}")
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            problem = cell_problem(cell)
            if problem:
                raise InstanceError(source, line, None, f"row {r} column {c}: {problem}")
    return grid


# ---------------------------------------------------------------- the answer key

@dataclass(frozen=True)
class AnswerKey:
    """An answer key of rows of 0/1 strings under one name: `{"inside": ["0110", ...]}`."""

    name: str

    def solution(self, grid: Iterable[Iterable[Any]]) -> dict[str, list[str]]:
        """The key from rows of truthy / falsy values (bools, 0/1, numpy).

        >>> AnswerKey("inside").solution([[True, False], [0, 1]])
        {'inside': ['10', '01']}
        """
        return {self.name: ["".join("1" if value else "0" for value in row) for row in grid]}

    def grid(self, solution: Any) -> tuple[tuple[bool, ...], ...]:
        """The rows of a key as Booleans; ValueError if malformed.

        Shape is not checked against any instance (`shape` does that).
        """
        key = self.name
        if not isinstance(solution, dict) or not isinstance(solution.get(key), list):
            raise ValueError(f'solution must be {{"{key}": [row strings of 0 and 1]}}')
        grid = []
        for r, row in enumerate(solution[key]):
            if not isinstance(row, str) or any(ch not in "01" for ch in row):
                raise ValueError(f"{key} row {r} must be a string of 0 and 1, got {quoted(row)}")
            grid.append(tuple(ch == "1" for ch in row))
        return tuple(grid)

    def shape(self, instance: ClueGrid,
              solution: Any) -> tuple[tuple[tuple[bool, ...], ...] | None, list[str]]:
        """(the key's rows, []) when `solution` is a well-formed key of the instance's
        shape, else (None, [what is wrong])."""
        try:
            grid = self.grid(solution)
        except ValueError as exc:
            return None, [str(exc)]
        if len(grid) != instance.rows:
            return None, [f"{self.name} has {len(grid)} rows, expected {instance.rows}"]
        for r, row in enumerate(grid):
            if len(row) != instance.cols:
                return None, [f"{self.name} row {r} has {len(row)} cells, expected "
                              f"{instance.cols}"]
        return grid, []


# ---------------------------------------------------------------- checking and brute force

def reachable(starts: Iterable[tuple[int, int]],
              allowed: Sequence[Sequence[bool]]) -> set[tuple[int, int]]:
    """Cells reachable from `starts` through orthogonal steps on `allowed` cells."""
    rows, cols = len(allowed), len(allowed[0])
    seen = set(starts)
    queue = deque(seen)
    while queue:
        r, c = queue.popleft()
        for dr, dc in DELTAS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and allowed[nr][nc] and (nr, nc) not in seen:
                seen.add((nr, nc))
                queue.append((nr, nc))
    return seen


def fill_holes(inside: list[list[bool]]) -> None:
    """Outside cells that cannot reach the border join the inside, in place: a region
    without holes (filling makes no checkerboard: a filled cell has no outside neighbour).

    >>> ring = [[c != 1 for c in range(3)] if r == 1 else [True] * 3 for r in range(3)]
    >>> fill_holes(ring); ring[1]
    [True, True, True]
    """
    rows, cols = len(inside), len(inside[0])
    outside = [[not cell for cell in row] for row in inside]
    border = [(r, c) for r in range(rows) for c in range(cols)
              if (r in (0, rows - 1) or c in (0, cols - 1)) and outside[r][c]]
    open_sea = reachable(border, outside)
    for r in range(rows):
        for c in range(cols):
            if (r, c) not in open_sea:
                inside[r][c] = True


class Bitboard:
    """A set of cells as an integer, bit r*cols+c set when (r, c) is in it.

    Every operation shifts whole rows of bits at once (Python's integers do it
    in C, so a set of a thousand cells costs a few machine words per step); the
    column masks stop a shift left or right from wrapping into the neighbouring
    row.

    >>> board = Bitboard(3, 3)          # cells 0 1 2 / 3 4 5 / 6 7 8
    >>> bin(board.around(1 << 4)), bin(board.flood(1, 0b100011011))  # 0 1 3 4, not 8
    ('0b10101010', '0b11011')
    >>> board.blocks(0b11011), board.touching(1 << 4), bin(board.crowded(0b111101111))
    (1, 27, '0b10000')
    >>> board.block_cells(board.touching(1 << 4)) == board.full
    True
    >>> bin(board.box(1, 2, 0, 1))      # rows 1..2, columns 0..1: cells 3 4 6 7
    '0b11011000'
    >>> board.groups(0b100010001), board.groups(0b100010001, corners=True)  # a diagonal
    ([1, 16, 256], [273])
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.cols = cols
        self.full = (1 << rows * cols) - 1
        self.first_col = first = sum(1 << r * cols for r in range(rows))
        self.not_first_col = self.full & ~first
        self.not_last_col = self.full & ~(first << (cols - 1))
        # The top-left cells of the 2x2 blocks: not in the last row or column.
        self.corners = self.not_last_col & ((1 << (rows - 1) * cols) - 1)

    def around(self, cells: int) -> int:
        """The cells beside `cells` (orthogonally) that are not in it."""
        cols = self.cols
        return (((cells << 1) & self.not_first_col) | ((cells >> 1) & self.not_last_col)
                | ((cells << cols) & self.full) | (cells >> cols)) & ~cells

    def box(self, top: int, bottom: int, left: int, right: int) -> int:
        """The cells of rows `top`..`bottom` and columns `left`..`right`, both included."""
        cols = self.cols
        rows = (1 << (bottom + 1) * cols) - (1 << top * cols)
        # The first column's bits times a run of ones: each row gets the run, none carries.
        return rows & (self.first_col * ((1 << right - left + 1) - 1) << left)

    def flood(self, seed: int, region: int, steps: int | None = None,
              corners: bool = False) -> int:
        """The cells of `region` connected to `seed` within it (within `steps` steps of
        it when given); with `corners`, cells that touch at a corner are connected too."""
        reach = seed & region
        while steps is None or steps > 0:
            grown = reach | self.around(reach)
            if corners:
                grown |= self.block_cells(self.touching(reach))
            grown &= region
            if grown == reach:
                break
            reach = grown
            if steps is not None:
                steps -= 1
        return reach

    def groups(self, cells: int, corners: bool = False) -> list[int]:
        """The connected groups of `cells` (`flood`'s connection), each a set, in the order
        of their lowest cells."""
        found = []
        while cells:
            group = self.flood(cells & -cells, cells, corners=corners)
            found.append(group)
            cells &= ~group
        return found

    def blocks(self, cells: int) -> int:
        """The top-left cells of the 2x2 blocks wholly in `cells`."""
        cols = self.cols
        return cells & (cells >> 1) & (cells >> cols) & (cells >> (cols + 1)) & self.corners

    def touching(self, cells: int) -> int:
        """The top-left cells of the 2x2 blocks holding a cell of `cells`."""
        cols = self.cols
        return (cells | (cells >> 1) | (cells >> cols) | (cells >> (cols + 1))) & self.corners

    def block_cells(self, corners: int) -> int:
        """The cells of the 2x2 blocks whose top-left cells are `corners`."""
        cols = self.cols
        return corners | (corners << 1) | (corners << cols) | (corners << (cols + 1))

    def crowded(self, cells: int) -> int:
        """The cells (anywhere) with three or four of their neighbours in `cells`."""
        cols = self.cols
        east = (cells >> 1) & self.not_last_col
        west = (cells << 1) & self.not_first_col
        south, north = cells >> cols, (cells << cols) & self.full
        return (east & west & (south | north)) | (south & north & (east | west))


def brute_answer(instance: ClueGrid, limits: Limits, key: AnswerKey, first: int | None,
                 tally: Tally, stopped: LimitHit | None, stats) -> Result:
    """A brute-force oracle's `Result`: the first answer found (a `Bitboard` integer) under
    `key`, or none (unsat when the search was complete, else timeout)."""
    message = f"brute stopped: {stopped} limit" if stopped else None
    if first is None:
        status = Status.UNSAT if tally.complete else Status.TIMEOUT
        return Result.answer(status, tally=tally, asked=limits, stats=stats, message=message)
    cols = instance.cols
    grid = [[first >> (r * cols + c) & 1 for c in range(cols)] for r in range(instance.rows)]
    return Result.answer(Status.SOLVED, key.solution(grid), tally=tally,
                         asked=limits, stats=stats, message=message)


# ---------------------------------------------------------------- generators

def check_grid_request(request: Request, title: str, sides: range,
                       min_cells: Mapping[str, int]) -> None:
    """Refuse a generator's request whose rows or columns are outside `sides` or whose grid
    has fewer cells than `min_cells[level]`, naming the puzzle by its `title`."""
    rows, cols = request.rows, request.cols
    for size, what in ((rows, "rows"), (cols, "columns")):
        if size is None or size not in sides:
            raise UsageError(f"a generated {title} has {sides.start}..{sides.stop - 1} {what}, "
                             f"got {size}")
    if rows * cols < min_cells[request.level]:
        raise UsageError(f"a {rows}x{cols} grid has no {request.level} {title} puzzle "
                         f"(it needs at least {min_cells[request.level]} cells)")


def level_evidence(clues: Sequence[Any], techniques: Sequence[str], effort: dict[str, int],
                   nodes: int = 0, depth: int = 0) -> dict[str, Any]:
    """A grade's evidence: how many `clues` there are, the `techniques` that decided the
    level, their `effort` counters, and the search `nodes` and `depth` where it branched."""
    return {"clues": len(clues), "techniques": list(techniques),
            **effort, "nodes": nodes, "depth": depth}


def branching_grade(clues: Sequence[Any], techniques: Sequence[str], found: Any,
                    node_limit: int) -> Grade:
    """The grade of a puzzle its techniques cannot finish, from `found` (the engine's
    search with every technique for two solutions within `node_limit` nodes): extreme
    when it proved one, else no level and why."""
    if found.unique:
        return Grade("extreme", level_evidence(clues, [*techniques, "branching"], {},
                                               found.nodes, found.depth))
    if found.unique is None:
        return Grade(None, {"undecided": f"not settled in {node_limit} search nodes",
                            "clues": len(clues)})
    return Grade(None, {"solutions": "2+" if found.count >= 2 else 0, "clues": len(clues)})
