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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text

from ...core import drawing
from ...core.clue_grid import (
    EMPTY,
    MAX_SIDE,
    UNKNOWN,
    AnswerKey,
    Bitboard,
    Cell,
    CellKind,
    ClueCell,
    ClueGrid,
    brute_answer,
    cell_problem,
    checked_grid,
    clue_cells,
    format_grid,
    reachable,
    read_cell_rows,
    read_header,
)
from ...core.geometry import DELTAS
from ...core.instance_file import Metadata, read_layout
from ...core.limits import Limits, Poller
from ...core.result import Result, Status, Stopwatch, Tally, solutions_wanted

__all__ = ["CellKind", "Cell", "EMPTY", "UNKNOWN", "Instance", "ClueCell", "MAX_SIDE",
           "BRUTE_MAX_CELLS", "parse", "format", "verify", "objective", "render",
           "brute", "build_instance", "clue_problem", "clue_cells", "count_visible",
           "solution_from_inside", "inside_grid"]

NAME = "cave"
KEY = AnswerKey("inside")  # the solution key: 1 = inside the cave
BRUTE_MAX_CELLS = 20

# The clue grid (`core.clue_grid`): `-` no clue, `?` an inside cell without a count, a number
# the inside cells it sees.


@dataclass(frozen=True)
class Instance(ClueGrid):
    PUZZLE: ClassVar[str] = NAME

    clues: tuple[tuple[Cell, ...], ...]


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


def build_instance(rows: int, cols: int, clues: Iterable[Iterable[Cell]], meta: Metadata = (),
                   source: str | None = None, line: int | None = None) -> Instance:
    """An `Instance` from a grid of `Cell`s, checked like a parsed file.

    Importers use it so that every instance obeys the same limits; a problem
    is an `InstanceError` at `source`:`line` naming the row and column.
    """
    grid = checked_grid(rows, cols, clues,
                        cell_problem(lambda number: clue_problem(number, rows, cols)),
                        source, line)
    return Instance(rows, cols, grid, tuple(meta))


# ---------------------------------------------------------------- parsing

def parse(text: str, source: str | None = None) -> Instance:
    """Read a Cave instance; any problem is an `InstanceError` with line and column.

    >>> parse("cave 2 3\\n- 2 -\\n? - -\\n").clues[0][1].number
    2
    """
    layout = read_layout(text, source)
    rows, cols = read_header(layout, NAME)
    most = rows + cols - 1
    too_long = (f"clues here are 1..{most} (at most ROWS+COLS-1 = {most} cells are visible "
                "from a cell)")
    grid = read_cell_rows(layout, rows, cols, lambda number: clue_problem(number, rows, cols),
                          too_long)
    return Instance(rows, cols, grid, layout.metadata)


def format(instance: Instance) -> str:  # noqa: A001 - the contract's name
    return format_grid(NAME, instance, lambda cell: cell.token)


# ---------------------------------------------------------------- solutions

solution_from_inside = KEY.solution
inside_grid = KEY.grid


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


def verify(instance: Instance, solution: Any) -> list[str]:
    """Check every rule literally; [] if the shading is a valid cave for the clues."""
    inside, problems = KEY.shape(instance, solution)
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
    if len(reachable(cave[:1], inside)) != len(cave):
        problems.append("the inside cells are not one connected region")
    # No holes: flood the outside from the outside cells on the border.
    outside = [[not value for value in row] for row in inside]
    cells = [(r, c) for r in range(instance.rows) for c in range(instance.cols) if outside[r][c]]
    border = [(r, c) for r, c in cells
              if r in (0, instance.rows - 1) or c in (0, instance.cols - 1)]
    unreached = len(cells) - len(reachable(border, outside))
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
    if solution is not None and not KEY.shape(instance, solution)[1]:
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

class _Board(Bitboard):
    """A shading as a `Bitboard`, bit r*cols+c set when (r, c) is inside, and the border's
    cells."""

    def __init__(self, rows: int, cols: int) -> None:
        super().__init__(rows, cols)
        self.border = sum(1 << r * cols + c for r in range(rows) for c in range(cols)
                          if r in (0, rows - 1) or c in (0, cols - 1))


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


def _is_cave(mask: int, board: _Board, clue_mask: int, rays: list) -> bool:
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
    board = _Board(instance.rows, instance.cols)
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
    return brute_answer(instance, limits, KEY, first, tally, stopped, watch.stats(nodes=nodes))

