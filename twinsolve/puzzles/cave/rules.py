"""Cave (also Corral, Bag): the rules, the file format, and the independent checker.

Rules. Shade some cells of a ROWS x COLS grid as the cave (inside). All
inside cells form one orthogonally connected region, and there is at least
one; every outside cell reaches the edge of the grid through outside cells
(the cave has no holes). Every clue cell is inside; a clue number equals the
number of inside cells visible from it along its row and column, itself
included, each direction stopping at the first outside cell or the edge. A
`?` clue is an inside cell with no count. A clue therefore lies in
1..ROWS+COLS-1.

File: `cave ROWS COLS` (1..200 each), then ROWS lines of COLS
whitespace-separated tokens: `-` (no clue), `?` (inside, no count) or a
number. Solution: `{"inside": ["0110", ...]}`, one digit per cell, 1 = inside.
It is a feasibility puzzle: there is no objective.

The idea every back-end shares: one Boolean per cell; clues fix their cell
inside and bound the runs of inside cells in the four directions; the two
global rules are connectivity constraints, one on the inside cells and one on
the outside cells together with a virtual border cell. `verify` checks the
rules literally (ray walks and breadth-first searches); `brute` enumerates
every shading with bitboards, so the two disagree only if one of them is wrong.

References: Erich Friedman / janko.at "Corral"; pzprjs "cave" (puzz.link).
"""

from __future__ import annotations

import enum
import re
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from rich.text import Text

from ...core import drawing
from ...core.errors import InstanceError, quoted
from ...core.geometry import DELTAS
from ...core.instance_file import Layout, Metadata, format_metadata, read_layout
from ...core.limits import LimitHit, Limits, Poller
from ...core.result import Result, Status, Stopwatch, Tally, solutions_wanted

__all__ = ["CellKind", "Cell", "EMPTY", "UNKNOWN", "Instance", "ClueCell", "MAX_SIDE",
           "BRUTE_MAX_CELLS", "parse", "format", "verify", "objective", "render",
           "brute", "build_instance", "clue_problem", "clue_cells", "count_visible",
           "solution_from_inside", "inside_grid"]

MAX_SIDE = 200
BRUTE_MAX_CELLS = 20

# Right, down, left, up: the order the search engine's grid graph uses.

_NUMBER = re.compile(r"[0-9]+")
_TOKEN = re.compile(r"\S+")


class CellKind(enum.Enum):
    EMPTY = "-"     # no clue: inside or outside, the solver decides
    UNKNOWN = "?"   # a clue cell without a count: inside
    NUMBER = "n"    # a numbered clue: inside, sees exactly `number` inside cells


@dataclass(frozen=True)
class Cell:
    """One cell of the puzzle: its kind, and the count when it is a numbered clue.

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
class Instance:
    PUZZLE: ClassVar[str] = "cave"

    rows: int
    cols: int
    clues: tuple[tuple[Cell, ...], ...]
    meta: Metadata = ()

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def variant(self) -> str:
        return "plain"


class ClueCell(NamedTuple):
    row: int
    col: int
    number: int | None  # None for a `?` clue


def clue_cells(instance: Instance) -> list[ClueCell]:
    """The clue cells in row-major order; `number` is None for `?`."""
    return [ClueCell(r, c, cell.number)
            for r, row in enumerate(instance.clues) for c, cell in enumerate(row) if cell.is_clue]


# ---------------------------------------------------------------- building

def clue_problem(number: int, rows: int, cols: int) -> str | None:
    """Why `number` cannot be a clue on a rows x cols grid, or None if it can: each message
    states the range, 1..ROWS+COLS-1."""
    most = rows + cols - 1
    if number < 1:
        return (f"clue {number} is impossible: clues here are 1..{most} (a clue counts its "
                "own cell, so it is at least 1)")
    if number > most:
        return (f"clue {number} is impossible: clues here are 1..{most} (at most "
                f"ROWS+COLS-1 = {most} cells are visible from a cell)")
    return None


def _size_problem(value: int, what: str) -> str | None:
    if not 1 <= value <= MAX_SIDE:
        return f"{what} must be a whole number 1..{MAX_SIDE}, got {value}"
    return None


def build_instance(rows: int, cols: int, clues: Iterable[Iterable[Cell]], meta: Metadata = (),
                   source: str | None = None, line: int | None = None) -> Instance:
    """An `Instance` from a grid of `Cell`s, checked like a parsed file.

    Importers use it so that every instance obeys the same limits; a problem
    is an `InstanceError` at `source`:`line` naming the row and column.
    """
    for value, what in ((rows, "ROWS"), (cols, "COLS")):
        problem = _size_problem(value, what)
        if problem:
            raise InstanceError(source, line, None, problem)
    grid = tuple(tuple(row) for row in clues)
    if len(grid) != rows or any(len(row) != cols for row in grid):
        raise InstanceError(source, line, None, f"clue grid is not {rows} x {cols}")
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if not isinstance(cell, Cell):
                raise InstanceError(source, line, None, f"row {r} column {c}: not a Cell")
            problem = cell.number is not None and clue_problem(cell.number, rows, cols)
            if problem:
                raise InstanceError(source, line, None, f"row {r} column {c}: {problem}")
    return Instance(rows, cols, grid, tuple(meta))


# ---------------------------------------------------------------- parsing

def _read_header(layout: Layout) -> tuple[int, int]:
    rows, cols, rest = layout.grid_header("cave", "cave ROWS COLS", MAX_SIDE)
    if rest:
        raise layout.header_error(f"header must be exactly 'cave ROWS COLS', got "
                                  f"{quoted(' '.join(layout.header))}")
    return rows, cols


def _read_token(layout: Layout, line: int, column: int, token: str, rows: int,
                cols: int) -> Cell:
    if token == "-":
        return EMPTY
    if token == "?":
        return UNKNOWN
    if not _NUMBER.fullmatch(token):
        raise layout.error(line, column, f"token {quoted(token)} is not '-', '?' or a clue "
                           "number")
    digits = token.lstrip("0") or "0"
    if len(digits) > 6:
        most = rows + cols - 1
        raise layout.error(line, column, f"a clue of {len(digits)} digits is impossible: clues "
                           f"here are 1..{most} (at most ROWS+COLS-1 = {most} cells are "
                           "visible from a cell)")
    problem = clue_problem(int(digits), rows, cols)
    if problem:
        raise layout.error(line, column, problem)
    return Cell.clue(int(digits))


def parse(text: str, source: str | None = None) -> Instance:
    """Read a Cave instance; any problem is an `InstanceError` with line and column.

    >>> parse("cave 2 3\\n- 2 -\\n? - -\\n").clues[0][1].number
    2
    """
    layout = read_layout(text, source)
    rows, cols = _read_header(layout)
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
        grid.append(tuple(_read_token(layout, line.number, match.start() + 1, match.group(),
                                      rows, cols) for match in tokens))
    if len(grid) < rows:
        last = layout.body[-1].number if layout.body else layout.header_line
        raise layout.error(last, None, f"expected {rows} rows of clues, found {len(grid)}")
    return Instance(rows, cols, tuple(grid), layout.metadata)


def format(instance: Instance) -> str:  # noqa: A001 - the contract's name
    rows = "".join(" ".join(cell.token for cell in row) + "\n" for row in instance.clues)
    return format_metadata(instance.meta) + f"cave {instance.rows} {instance.cols}\n" + rows


# ---------------------------------------------------------------- solutions

def solution_from_inside(grid: Iterable[Iterable[Any]]) -> dict[str, list[str]]:
    """`{"inside": [...]}` from rows of truthy / falsy values (bools, 0/1, numpy).

    >>> solution_from_inside([[True, False], [0, 1]])
    {'inside': ['10', '01']}
    """
    return {"inside": ["".join("1" if value else "0" for value in row) for row in grid]}


def inside_grid(solution: Any) -> tuple[tuple[bool, ...], ...]:
    """The rows of a `{"inside": [...]}` solution as Booleans; ValueError if malformed.

    Shape is not checked against any instance (`verify` does that).
    """
    if not isinstance(solution, dict) or not isinstance(solution.get("inside"), list):
        raise ValueError('solution must be {"inside": [row strings of 0 and 1]}')
    grid = []
    for r, row in enumerate(solution["inside"]):
        if not isinstance(row, str) or any(ch not in "01" for ch in row):
            raise ValueError(f"inside row {r} must be a string of 0 and 1, got {quoted(row)}")
        grid.append(tuple(ch == "1" for ch in row))
    return tuple(grid)


# ---------------------------------------------------------------- checking

def count_visible(inside: Sequence[Sequence[bool]], row: int, col: int) -> int:
    """Inside cells seen from (row, col), itself included, each ray stopping at the
    first outside cell or the edge. The cell itself is assumed inside."""
    rows, cols = len(inside), len(inside[0])
    seen = 1
    for dr, dc in DELTAS:
        r, c = row + dr, col + dc
        while 0 <= r < rows and 0 <= c < cols and inside[r][c]:
            seen += 1
            r, c = r + dr, c + dc
    return seen


def _reachable(starts: list[tuple[int, int]],
               allowed: Sequence[Sequence[bool]]) -> set[tuple[int, int]]:
    """Cells reachable from `starts` through orthogonal steps on `allowed` cells."""
    rows, cols = len(allowed), len(allowed[0])
    seen = set(starts)
    queue = deque(starts)
    while queue:
        r, c = queue.popleft()
        for dr, dc in DELTAS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and allowed[nr][nc] and (nr, nc) not in seen:
                seen.add((nr, nc))
                queue.append((nr, nc))
    return seen


def _shape_problems(instance: Instance, solution: Any) -> tuple[tuple | None, list[str]]:
    try:
        grid = inside_grid(solution)
    except ValueError as exc:
        return None, [str(exc)]
    if len(grid) != instance.rows:
        return None, [f"inside has {len(grid)} rows, expected {instance.rows}"]
    for r, row in enumerate(grid):
        if len(row) != instance.cols:
            return None, [f"inside row {r} has {len(row)} cells, expected {instance.cols}"]
    return grid, []


def verify(instance: Instance, solution: Any) -> list[str]:
    """Check every rule literally; [] if the shading is a valid cave for the clues."""
    inside, problems = _shape_problems(instance, solution)
    if inside is None:
        return problems
    for r, c, number in clue_cells(instance):
        if not inside[r][c]:
            problems.append(f"clue at row {r}, column {c} is outside the cave")
            continue
        seen = count_visible(inside, r, c)
        if number is not None and seen != number:
            problems.append(f"clue {number} at row {r}, column {c} sees {seen} inside cells")
    cave = [(r, c) for r in range(instance.rows) for c in range(instance.cols) if inside[r][c]]
    if not cave:
        return problems + ["no cell is inside the cave"]
    if len(_reachable(cave[:1], inside)) != len(cave):
        problems.append("the inside cells are not one connected region")
    # No holes: flood the outside from the outside cells on the border.
    outside = [[not value for value in row] for row in inside]
    cells = [(r, c) for r in range(instance.rows) for c in range(instance.cols) if outside[r][c]]
    border = [(r, c) for r, c in cells
              if r in (0, instance.rows - 1) or c in (0, instance.cols - 1)]
    unreached = len(cells) - len(_reachable(border, outside))
    if unreached:
        problems.append(f"{unreached} outside cell(s) are enclosed by the cave "
                        "(not connected to the edge)")
    return problems


def objective(instance: Instance, solution: Any) -> None:
    """Cave is a feasibility puzzle: no objective."""
    return None


# ---------------------------------------------------------------- drawing

def render(instance: Instance, solution: dict[str, Any] | None = None,
           width: int | None = None) -> Text:
    """The grid: clue numbers, inside cells highlighted, outside cells as dim blocks; no
    line wider than `width` (cells as narrow as the widest clue and unspaced, else a
    summary: `core.drawing`).

    A grid over `core.drawing.GRID_LIMIT` a side is summarised: its clues and inside cells.
    """
    inside = None
    if solution is not None and not _shape_problems(instance, solution)[1]:
        inside = inside_grid(solution)
    text = Text()
    text.append(f"Cave {instance.rows}x{instance.cols}\n", style="bold")
    widest = max([1] + [len(cell.token) for row in instance.clues for cell in row])
    gap = drawing.cell_gap(width, lambda g: instance.cols * (max(widest, 1 + g) + g))
    if drawing.too_big(instance.rows, instance.cols) or gap is None:
        counts = [(len(clue_cells(instance)), "clues")]
        if inside is not None:
            counts.append((sum(map(sum, inside)), "cells inside"))
        text.append(drawing.grid_summary(instance.rows, instance.cols, counts, width) + "\n")
        return drawing.wrapped(text, width)
    cell_width, blank = max(widest, 1 + gap), " " * gap
    for r, row in enumerate(instance.clues):
        for c, cell in enumerate(row):
            label = cell.token if cell.is_clue else "·"
            if inside is None:
                text.append(label.rjust(cell_width) + blank,
                            style="bold" if cell.is_clue else "dim")
            elif inside[r][c]:
                shown = label if cell.is_clue else ""
                text.append(shown.rjust(cell_width) + blank, style="bold black on bright_yellow")
            else:
                text.append("▒" * cell_width + blank, style="dim")
        text.append("\n")
    return drawing.wrapped(text, width)


# ---------------------------------------------------------------- brute force

class _Bitboard:
    """A shading as an integer, bit r*cols+c set when (r, c) is inside.

    Flood fills shift whole rows of bits at once; the column masks stop a
    shift left or right from wrapping into the neighbouring row.
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.cols = cols
        self.full = (1 << rows * cols) - 1
        first = sum(1 << r * cols for r in range(rows))
        self.not_first_col = self.full & ~first
        self.not_last_col = self.full & ~(first << (cols - 1))
        self.border = sum(1 << r * cols + c for r in range(rows) for c in range(cols)
                          if r in (0, rows - 1) or c in (0, cols - 1))

    def flood(self, seed: int, region: int) -> int:
        reach = seed & region
        while True:
            grown = (reach
                     | ((reach << 1) & self.not_first_col) | ((reach >> 1) & self.not_last_col)
                     | ((reach << self.cols) & self.full) | (reach >> self.cols)) & region
            if grown == reach:
                return reach
            reach = grown


def _rays(instance: Instance) -> list[tuple[int, list[list[int]]]]:
    """For each numbered clue: its number and, per direction, the cell bits outward."""
    rays = []
    for r, c, number in clue_cells(instance):
        if number is None:
            continue
        lines = []
        for dr, dc in DELTAS:
            bits, nr, nc = [], r + dr, c + dc
            while 0 <= nr < instance.rows and 0 <= nc < instance.cols:
                bits.append(1 << nr * instance.cols + nc)
                nr, nc = nr + dr, nc + dc
            lines.append(bits)
        rays.append((number, lines))
    return rays


def _is_cave(mask: int, board: _Bitboard, clue_mask: int, rays: list) -> bool:
    if not mask or mask & clue_mask != clue_mask:
        return False
    for number, lines in rays:
        seen = 1
        for bits in lines:
            for bit in bits:
                if not mask & bit:
                    break
                seen += 1
        if seen != number:
            return False
    if board.flood(mask & -mask, mask) != mask:  # inside connected, from its lowest cell
        return False
    outside = board.full ^ mask
    return board.flood(board.border, outside) == outside  # no holes


def brute(instance: Instance, limits: Limits) -> Result:
    """Every shading in turn, as integers 0 .. 2^cells-1: the test oracle for tiny grids.

    The first solution is the one with the smallest integer (bit r*cols+c set
    when (r, c) is inside). With `limits.unique` it stops at the second
    solution; with `limits.count` it counts them all.
    """
    watch = Stopwatch()
    if instance.cells > BRUTE_MAX_CELLS:
        return Result(Status.UNSUPPORTED, message=f"brute handles at most {BRUTE_MAX_CELLS} "
                      f"cells; this grid has {instance.cells}")
    board = _Bitboard(instance.rows, instance.cols)
    clue_mask = sum(1 << r * instance.cols + c for r, c, _ in clue_cells(instance))
    rays = _rays(instance)
    poller = Poller(limits.node_limit, limits.deadline(), every=4096)  # a mask costs little
    watch.built()
    first, found, nodes, stopped = None, 0, 0, None
    wanted = solutions_wanted(limits)
    for mask in range(board.full + 1):
        if nodes >= poller.at and (stopped := poller(nodes)) is not None:
            break
        nodes += 1
        if _is_cave(mask, board, clue_mask, rays):
            found += 1
            first = mask if first is None else first
            if wanted is not None and found >= wanted:
                break
    tally = Tally.of_search(found, wanted, stopped=stopped is not None)
    return _brute_result(instance, limits, first, tally, stopped, watch.stats(nodes=nodes))


def _brute_result(instance: Instance, limits: Limits, first: int | None, tally: Tally,
                  stopped: LimitHit | None, stats) -> Result:
    message = f"brute stopped: {stopped} limit" if stopped else None
    if first is None:
        status = Status.UNSAT if tally.complete else Status.TIMEOUT
        return Result.answer(status, tally=tally, asked=limits, stats=stats, message=message)
    cols = instance.cols
    grid = [[first >> (r * cols + c) & 1 for c in range(cols)] for r in range(instance.rows)]
    return Result.answer(Status.SOLVED, solution_from_inside(grid), tally=tally, asked=limits,
                         stats=stats, message=message)
