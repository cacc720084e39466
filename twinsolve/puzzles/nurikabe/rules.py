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
from ...core.instance_file import Metadata, read_layout
from ...core.limits import Limits, Poller
from ...core.result import Result, Status, Stopwatch, Tally, solutions_wanted

__all__ = ["CellKind", "Cell", "EMPTY", "UNKNOWN", "Instance", "ClueCell", "MAX_SIDE",
           "BRUTE_MAX_FREE", "parse", "format", "verify", "objective", "render", "brute",
           "build_instance", "clue_problem", "clue_cells", "flood", "islands",
           "solution_from_shaded", "shaded_grid"]

NAME = "nurikabe"
KEY = AnswerKey("shaded")  # the solution key: 1 = shaded (the sea)
BRUTE_MAX_FREE = 22  # cells without a clue that brute force enumerates, at most

# The clue grid (`core.clue_grid`): `-` no clue, `?` an island's clue cell whose size is not
# given, a number the size of its island.


@dataclass(frozen=True)
class Instance(ClueGrid):
    PUZZLE: ClassVar[str] = NAME

    clues: tuple[tuple[Cell, ...], ...]


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
    grid = checked_grid(rows, cols, clues,
                        cell_problem(lambda number: clue_problem(number, rows, cols)),
                        source, line)
    return Instance(rows, cols, grid, tuple(meta))


# ---------------------------------------------------------------- parsing

def parse(text: str, source: str | None = None) -> Instance:
    """Read a Nurikabe instance; any problem is an `InstanceError` with line and column.

    >>> parse("nurikabe 2 3\\n- 2 -\\n? - -\\n").clues[0][1].number
    2
    """
    layout = read_layout(text, source)
    rows, cols = read_header(layout, NAME)
    too_long = f"clues here are 1..{rows * cols}"
    grid = read_cell_rows(layout, rows, cols, lambda number: clue_problem(number, rows, cols),
                          too_long)
    return Instance(rows, cols, grid, layout.metadata)


def format(instance: Instance) -> str:  # noqa: A001 - the contract's name
    return format_grid(NAME, instance, lambda cell: cell.token)


# ---------------------------------------------------------------- solutions

solution_from_shaded = KEY.solution
shaded_grid = KEY.grid


# ---------------------------------------------------------------- checking

def flood(start: tuple[int, int], allowed: Sequence[Sequence[bool]]) -> set[tuple[int, int]]:
    """Cells reachable from `start` through orthogonal steps on `allowed` cells."""
    return reachable([start], allowed)


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


def verify(instance: Instance, solution: Any) -> list[str]:
    """Check every rule literally; [] if the shading solves the puzzle."""
    shaded, problems = KEY.shape(instance, solution)
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
    if solution is not None and not KEY.shape(instance, solution)[1]:
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

def _is_solution(sea: int, board: Bitboard, clues: list[tuple[int, int | None]],
                 clue_mask: int) -> bool:
    if board.blocks(sea) or (sea and board.flood(sea & -sea, sea) != sea):
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
    board = Bitboard(instance.rows, instance.cols)
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
    return brute_answer(instance, limits, KEY, first, tally, stopped, watch.stats(nodes=nodes))

