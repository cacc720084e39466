"""Nurikabe: the rules, the file format, and the independent checker.

Rules. Shade some cells of a ROWS x COLS grid (the sea); the unshaded cells
fall into islands, the maximal orthogonally connected groups of unshaded
cells. Every island holds exactly one clue cell, and a clue number equals
the size of its island (a `?` clue is an island's clue cell without a size).
Clue cells are never shaded. The shaded cells form one orthogonally
connected region (no shaded cell at all counts as connected), and no 2x2
block is shaded entirely (no pool). A clue therefore lies in 1..ROWS*COLS.

File: `nurikabe ROWS COLS` (1..200 each), then ROWS lines of COLS
whitespace-separated tokens: `-` (no clue), `?` (a clue without a size) or
a number. Solution: `{"shaded": ["1001", ...]}`, one digit per cell, 1 =
shaded (the sea). It is a feasibility puzzle: there is no objective.

The idea every back-end shares: one Boolean per cell (shaded or not); the
sea is a connectivity constraint, the islands are the unshaded components,
each owned by its one clue. `verify` checks the rules literally (breadth-first
searches over the answer); `brute` enumerates every shading of the cells
without a clue with bitboards, so the two disagree only if one is wrong.

References: Nikoli, "Nurikabe"; janko.at "Nurikabe"; pzprjs "nurikabe" (puzz.link).
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
           "BRUTE_MAX_FREE", "parse", "format", "verify", "objective", "render", "brute",
           "build_instance", "clue_problem", "clue_cells", "flood", "islands",
           "solution_from_shaded", "shaded_grid"]

MAX_SIDE = 200
BRUTE_MAX_FREE = 22  # cells without a clue that brute force enumerates, at most

_NUMBER = re.compile(r"[0-9]+")
_TOKEN = re.compile(r"\S+")


class CellKind(enum.Enum):
    EMPTY = "-"     # no clue: shaded or not, the solver decides
    UNKNOWN = "?"   # an island's clue cell whose size is not given
    NUMBER = "n"    # a numbered clue: its island has exactly `number` cells


@dataclass(frozen=True)
class Cell:
    """One cell of the puzzle: its kind, and the size when it is a numbered clue.

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
    PUZZLE: ClassVar[str] = "nurikabe"

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
    """Why `number` cannot be a clue on a rows x cols grid, or None if it can."""
    most = rows * cols
    if not 1 <= number <= most:
        return (f"clue {number} is impossible: clues here are 1..{most} (an island holds its "
                "clue cell and at most every cell of the grid)")
    return None


def build_instance(rows: int, cols: int, clues: Iterable[Iterable[Cell]], meta: Metadata = (),
                   source: str | None = None, line: int | None = None) -> Instance:
    """An `Instance` from a grid of `Cell`s, checked like a parsed file (for importers);
    a problem is an `InstanceError` at `source`:`line` naming the row and column."""
    for value, what in ((rows, "ROWS"), (cols, "COLS")):
        if not 1 <= value <= MAX_SIDE:
            raise InstanceError(source, line, None,
                                f"{what} must be a whole number 1..{MAX_SIDE}, got {value}")
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
    rows, cols, rest = layout.grid_header("nurikabe", "nurikabe ROWS COLS", MAX_SIDE)
    if rest:
        raise layout.header_error(f"header must be exactly 'nurikabe ROWS COLS', got "
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
    if len(digits) > 6:  # past any grid's cell count: no need to read it as a number
        raise layout.error(line, column, f"a clue of {len(digits)} digits is impossible: "
                           f"clues here are 1..{rows * cols}")
    problem = clue_problem(int(digits), rows, cols)
    if problem:
        raise layout.error(line, column, problem)
    return Cell.clue(int(digits))


def parse(text: str, source: str | None = None) -> Instance:
    """Read a Nurikabe instance; any problem is an `InstanceError` with line and column.

    >>> parse("nurikabe 2 3\\n- 2 -\\n? - -\\n").clues[0][1].number
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
    return format_metadata(instance.meta) + f"nurikabe {instance.rows} {instance.cols}\n" + rows


# ---------------------------------------------------------------- solutions

def solution_from_shaded(grid: Iterable[Iterable[Any]]) -> dict[str, list[str]]:
    """`{"shaded": [...]}` from rows of truthy / falsy values (bools, 0/1, numpy).

    >>> solution_from_shaded([[True, False], [0, 1]])
    {'shaded': ['10', '01']}
    """
    return {"shaded": ["".join("1" if value else "0" for value in row) for row in grid]}


def shaded_grid(solution: Any) -> tuple[tuple[bool, ...], ...]:
    """The rows of a `{"shaded": [...]}` solution as Booleans; ValueError if malformed.

    Shape is not checked against any instance (`verify` does that).
    """
    if not isinstance(solution, dict) or not isinstance(solution.get("shaded"), list):
        raise ValueError('solution must be {"shaded": [row strings of 0 and 1]}')
    grid = []
    for r, row in enumerate(solution["shaded"]):
        if not isinstance(row, str) or any(ch not in "01" for ch in row):
            raise ValueError(f"shaded row {r} must be a string of 0 and 1, got {quoted(row)}")
        grid.append(tuple(ch == "1" for ch in row))
    return tuple(grid)


# ---------------------------------------------------------------- checking

def flood(start: tuple[int, int], allowed: Sequence[Sequence[bool]]) -> set[tuple[int, int]]:
    """Cells reachable from `start` through orthogonal steps on `allowed` cells."""
    rows, cols = len(allowed), len(allowed[0])
    seen = {start}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for dr, dc in DELTAS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and allowed[nr][nc] and (nr, nc) not in seen:
                seen.add((nr, nc))
                queue.append((nr, nc))
    return seen


def islands(shaded: Sequence[Sequence[bool]]) -> list[set[tuple[int, int]]]:
    """The unshaded components of a shading, in order of their first cell (row-major)."""
    land = [[not value for value in row] for row in shaded]
    found: list[set[tuple[int, int]]] = []
    seen: set[tuple[int, int]] = set()
    for r, row in enumerate(land):
        for c, value in enumerate(row):
            if value and (r, c) not in seen:
                found.append(flood((r, c), land))
                seen |= found[-1]
    return found


def _shape_problems(instance: Instance, solution: Any) -> tuple[tuple | None, list[str]]:
    try:
        grid = shaded_grid(solution)
    except ValueError as exc:
        return None, [str(exc)]
    if len(grid) != instance.rows:
        return None, [f"shaded has {len(grid)} rows, expected {instance.rows}"]
    for r, row in enumerate(grid):
        if len(row) != instance.cols:
            return None, [f"shaded row {r} has {len(row)} cells, expected {instance.cols}"]
    return grid, []


def verify(instance: Instance, solution: Any) -> list[str]:
    """Check every rule literally; [] if the shading solves the puzzle."""
    shaded, problems = _shape_problems(instance, solution)
    if shaded is None:
        return problems
    clues = {(r, c): number for r, c, number in clue_cells(instance)}
    problems += [f"clue at row {r}, column {c} is shaded" for (r, c) in clues if shaded[r][c]]
    for r in range(instance.rows - 1):
        for c in range(instance.cols - 1):
            if shaded[r][c] and shaded[r][c + 1] and shaded[r + 1][c] and shaded[r + 1][c + 1]:
                problems.append(f"the 2x2 block at rows {r}-{r + 1}, columns {c}-{c + 1} is "
                                "shaded (a pool)")
    sea = [(r, c) for r in range(instance.rows) for c in range(instance.cols) if shaded[r][c]]
    if sea and len(flood(sea[0], shaded)) != len(sea):
        problems.append("the shaded cells are not one connected region")
    for island in islands(shaded):
        held = sorted(cell for cell in island if cell in clues)
        r, c = min(island)
        if not held:
            problems.append(f"the island at row {r}, column {c} ({len(island)} cells) has no "
                            "clue")
        elif len(held) > 1:
            problems.append(f"the island at row {r}, column {c} holds {len(held)} clues")
        elif clues[held[0]] is not None and clues[held[0]] != len(island):
            problems.append(f"clue {clues[held[0]]} at row {held[0][0]}, column {held[0][1]} "
                            f"has an island of {len(island)} cells")
    return problems


def objective(instance: Instance, solution: Any) -> None:
    """Nurikabe is a feasibility puzzle: no objective."""
    return None


# ---------------------------------------------------------------- drawing

def render(instance: Instance, solution: dict[str, Any] | None = None,
           width: int | None = None) -> Text:
    """The grid: clue numbers, shaded cells as dark blocks, island cells as dots; no line
    wider than `width` (cells unspaced when needed, else a summary: `core.drawing`)."""
    shaded = None
    if solution is not None and not _shape_problems(instance, solution)[1]:
        shaded = shaded_grid(solution)
    text = Text()
    text.append(f"Nurikabe {instance.rows}x{instance.cols}\n", style="bold")
    widest = max([1] + [len(cell.token) for row in instance.clues for cell in row])
    gap = drawing.cell_gap(width, lambda g: instance.cols * (max(widest, 1 + g) + g))
    if drawing.too_big(instance.rows, instance.cols) or gap is None:
        counts = [(len(clue_cells(instance)), "clues")]
        if shaded is not None:
            counts.append((sum(map(sum, shaded)), "cells shaded"))
        text.append(drawing.grid_summary(instance.rows, instance.cols, counts, width) + "\n")
        return drawing.wrapped(text, width)
    cell_width, blank = max(widest, 1 + gap), " " * gap
    for r, row in enumerate(instance.clues):
        for c, cell in enumerate(row):
            label = cell.token if cell.is_clue else "·"
            if shaded is not None and shaded[r][c]:
                text.append("█" * cell_width + blank, style="dim")
            else:
                text.append(label.rjust(cell_width) + blank,
                            style="bold" if cell.is_clue else "dim")
        text.append("\n")
    return drawing.wrapped(text, width)


# ---------------------------------------------------------------- brute force

class _Bitboard:
    """A shading as an integer, bit r*cols+c set when (r, c) is shaded.

    Flood fills shift whole rows of bits at once; the column masks stop a
    shift left or right from wrapping into the neighbouring row.
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.cols = cols
        self.full = (1 << rows * cols) - 1
        first = sum(1 << r * cols for r in range(rows))
        self.not_first_col = self.full & ~first
        self.not_last_col = self.full & ~(first << (cols - 1))
        # The top-left cells of the 2x2 blocks: not in the last row or column.
        self.corners = self.not_last_col & ((1 << (rows - 1) * cols) - 1)

    def flood(self, seed: int, region: int) -> int:
        reach = seed & region
        while True:
            grown = (reach
                     | ((reach << 1) & self.not_first_col) | ((reach >> 1) & self.not_last_col)
                     | ((reach << self.cols) & self.full) | (reach >> self.cols)) & region
            if grown == reach:
                return reach
            reach = grown

    def has_pool(self, sea: int) -> bool:
        cols = self.cols
        return bool(sea & (sea >> 1) & (sea >> cols) & (sea >> (cols + 1)) & self.corners)


def _is_solution(sea: int, board: _Bitboard, clues: list[tuple[int, int | None]],
                 clue_mask: int) -> bool:
    if board.has_pool(sea) or (sea and board.flood(sea & -sea, sea) != sea):
        return False
    land = board.full ^ sea
    covered = 0
    for bit, number in clues:
        island = board.flood(bit, land)
        if island & clue_mask != bit or (number is not None and island.bit_count() != number):
            return False
        covered |= island
    return covered == land  # every island holds a clue


def brute(instance: Instance, limits: Limits) -> Result:
    """Every shading of the cells without a clue, as integers: the test oracle for tiny grids.

    The first solution is the one with the smallest integer (bit r*cols+c set
    when (r, c) is shaded). With `limits.unique` it stops at the second
    solution; with `limits.count` it counts them all.
    """
    watch = Stopwatch()
    clues = [(1 << r * instance.cols + c, number) for r, c, number in clue_cells(instance)]
    clue_mask = sum(bit for bit, _ in clues)
    board = _Bitboard(instance.rows, instance.cols)
    free = board.full ^ clue_mask
    if free.bit_count() > BRUTE_MAX_FREE:
        return Result(Status.UNSUPPORTED, message=f"brute handles at most {BRUTE_MAX_FREE} "
                      f"cells without a clue; this grid has {free.bit_count()}")
    poller = Poller(limits.node_limit, limits.deadline(), every=4096)  # a mask costs little
    watch.built()
    first, found, nodes, stopped = None, 0, 0, None
    wanted = solutions_wanted(limits)
    sea = 0
    while True:  # every subset of `free`, in increasing order
        if nodes >= poller.at and (stopped := poller(nodes)) is not None:
            break
        nodes += 1
        if _is_solution(sea, board, clues, clue_mask):
            found += 1
            first = sea if first is None else first
            if wanted is not None and found >= wanted:
                break
        if sea == free:
            break
        sea = ((sea | clue_mask) + 1) & free  # the next subset: carry across clue cells
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
    return Result.answer(Status.SOLVED, solution_from_shaded(grid), tally=tally, asked=limits,
                         stats=stats, message=message)
