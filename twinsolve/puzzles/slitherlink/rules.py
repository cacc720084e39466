"""Slitherlink (also Fences, Loop the Loop): the rules, the file format, the checker.

Rules. Draw one loop along the lines of a ROWS x COLS grid of cells: it
runs between the grid's points (the corners of the cells) along cell sides,
never crosses or touches itself (two or no loop sides meet at each point)
and closes on itself; there is one loop and it is not empty. A clue in a
cell (0..4) is the number of the cell's four sides that the loop uses.

The answer as cells. A loop splits the cells into those it encloses
(inside) and the others (outside), and the loop is exactly the set of cell
sides between an inside and an outside cell, the cells past the grid's edge
counting as outside. So an answer is written as its inside cells, as Cave's
is: `{"inside": ["0110", ...]}`, one digit per cell, 1 = inside the loop.
Rows and columns count from 0 at the top left; a grid point (r, c) is the
top-left corner of cell (r, c), 0 <= r <= ROWS and 0 <= c <= COLS.

File: `slitherlink ROWS COLS` (1..200 each), then ROWS lines of COLS
whitespace-separated tokens: `-` (no clue) or a clue 0..4. A feasibility
puzzle: there is no objective.

`verify` checks the rules literally on the loop: it derives the loop's
sides from the inside cells (`loop_sides`), checks that two or none meet at
every point and that walking the loop from one side visits every side
(one loop), and counts each clue's sides. `brute` enumerates every set of
inside cells with numpy (clues first), then checks the survivors the same
way, so it shares no reasoning with the back-ends, which work with inside
cells as a connected region without holes.

References: Nikoli; janko.at "Slitherlink"; pzprjs "slither" (puzz.link);
Simon Tatham's "Loopy".
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from rich.text import Text

from ...core import drawing
from ...core.clue_grid import (
    MAX_SIDE,
    AnswerKey,
    ClueGrid,
    brute_answer,
    checked_grid,
    format_grid,
    read_header,
    read_rows,
)
from ...core.errors import quoted
from ...core.instance_file import Layout, Metadata, read_layout
from ...core.limits import Limits, Poller
from ...core.result import Result, Status, Stopwatch, Tally, solutions_wanted

__all__ = ["NAME", "Instance", "MAX_SIDE", "MAX_CLUE", "BRUTE_MAX_CELLS", "Sides", "parse",
           "format", "verify", "objective", "render", "brute", "build_instance",
           "clue_cells", "clue_problem", "solution_from_inside", "inside_grid", "loop_sides",
           "inside_from_sides", "side_count", "loop_problems"]

NAME = "slitherlink"
KEY = AnswerKey("inside")  # the solution key: 1 = inside the loop
MAX_CLUE = 4
BRUTE_MAX_CELLS = 20
_CHUNK = 1 << 14  # masks brute force checks at once


@dataclass(frozen=True)
class Instance(ClueGrid):
    """A grid of clues: `clues[r][c]` is the number of sides of cell (r, c) on the loop,
    or None for a cell without a clue."""

    PUZZLE: ClassVar[str] = NAME

    clues: tuple[tuple[int | None, ...], ...]


def clue_cells(instance: Instance) -> list[tuple[int, int, int]]:
    """(row, col, clue) of every clue, in row-major order."""
    return [(r, c, clue) for r, row in enumerate(instance.clues)
            for c, clue in enumerate(row) if clue is not None]


def clue_problem(number: int) -> str | None:
    """Why `number` cannot be a clue, or None if it can."""
    if not 0 <= number <= MAX_CLUE:
        return f"clue {number} is impossible: a cell has 4 sides, so clues are 0..{MAX_CLUE}"
    return None


def _cell_problem(clue: Any) -> str | None:
    if clue is None:
        return None
    if type(clue) is not int:
        return "not a clue"
    return clue_problem(clue)


def build_instance(rows: int, cols: int, clues: Iterable[Iterable[int | None]],
                   meta: Metadata = (), source: str | None = None,
                   line: int | None = None) -> Instance:
    """An `Instance` from a grid of clues (int or None), checked like a parsed file.

    Importers use it so that every instance obeys the same limits; a problem
    is an `InstanceError` at `source`:`line` naming the row and column.
    """
    grid = checked_grid(rows, cols, clues, _cell_problem, source, line)
    return Instance(rows, cols, grid, tuple(meta))


# ---------------------------------------------------------------- parsing

def _read_token(layout: Layout, line: int, column: int, token: str) -> int | None:
    if token == "-":
        return None
    if token.isascii() and token.isdigit():
        digits = token.lstrip("0") or "0"
        if len(digits) == 1 and clue_problem(int(digits)) is None:
            return int(digits)
        raise layout.error(line, column, f"clue {quoted(token)} is impossible: a cell has 4 "
                           f"sides, so clues are 0..{MAX_CLUE}")
    raise layout.error(line, column, f"token {quoted(token)} is not '-' or a clue "
                       f"0..{MAX_CLUE}")


def parse(text: str, source: str | None = None) -> Instance:
    """Read a Slitherlink instance; any problem is an `InstanceError` with line and column.

    >>> parse("slitherlink 2 3\\n- 2 -\\n3 - 0\\n").clues
    ((None, 2, None), (3, None, 0))
    """
    layout = read_layout(text, source)
    rows, cols = read_header(layout, NAME)
    grid = read_rows(layout, rows, cols,
                     lambda line, column, token: _read_token(layout, line, column, token))
    return Instance(rows, cols, grid, layout.metadata)


def format(instance: Instance) -> str:  # noqa: A001 - the contract's name
    return format_grid(NAME, instance, lambda clue: "-" if clue is None else str(clue))


# ---------------------------------------------------------------- solutions

solution_from_inside = KEY.solution
inside_grid = KEY.grid


@dataclass(frozen=True)
class Sides:
    """The loop's sides: `across[r][c]` is the side on top of cell (r, c) (0 <= r <= ROWS,
    between points (r, c) and (r, c+1)); `down[r][c]` the side left of cell (r, c)
    (0 <= c <= COLS, between points (r, c) and (r+1, c))."""

    across: tuple[tuple[bool, ...], ...]
    down: tuple[tuple[bool, ...], ...]

    def at_point(self, r: int, c: int) -> int:
        """How many loop sides meet at point (r, c)."""
        rows, cols = len(self.down), len(self.across[0])
        count = 0
        if c > 0 and self.across[r][c - 1]:
            count += 1
        if c < cols and self.across[r][c]:
            count += 1
        if r > 0 and self.down[r - 1][c]:
            count += 1
        if r < rows and self.down[r][c]:
            count += 1
        return count


def loop_sides(inside: Sequence[Sequence[bool]]) -> Sides:
    """The sides between an inside and an outside cell (past the edge: outside).

    >>> sides = loop_sides([[True, False]])
    >>> sides.across, sides.down
    (((True, False), (True, False)), ((True, True, False),))
    """
    rows, cols = len(inside), len(inside[0])

    def at(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and bool(inside[r][c])

    across = tuple(tuple(at(r - 1, c) != at(r, c) for c in range(cols)) for r in range(rows + 1))
    down = tuple(tuple(at(r, c - 1) != at(r, c) for c in range(cols + 1)) for r in range(rows))
    return Sides(across, down)


def inside_from_sides(across: Sequence[Sequence[Any]], down: Sequence[Sequence[Any]]
                      ) -> list[list[bool]]:
    """The cells enclosed by a set of sides (`Sides`' layout): each row scanned from the
    left, a cell is inside when an odd number of vertical sides lie left of it.

    >>> inside_from_sides([[1, 0], [1, 0]], [[1, 1, 0]])
    [[True, False]]
    """
    rows, cols = len(down), len(across[0])
    grid = []
    for r in range(rows):
        crossing, row = False, []
        for c in range(cols):
            crossing ^= bool(down[r][c])
            row.append(crossing)
        grid.append(row)
    return grid


def side_count(sides: Sides, r: int, c: int) -> int:
    """How many sides of cell (r, c) are on the loop."""
    return (sides.across[r][c] + sides.across[r + 1][c] + sides.down[r][c]
            + sides.down[r][c + 1])


def _walk(sides: Sides) -> tuple[int, int]:
    """(sides on the loop, sides reached by walking along them from the first)."""
    rows, cols = len(sides.down), len(sides.across[0])
    links: dict[tuple[int, int], list[tuple[int, int]]] = {}
    total = 0
    for r in range(rows + 1):
        for c in range(cols):
            if sides.across[r][c]:
                total += 1
                links.setdefault((r, c), []).append((r, c + 1))
                links.setdefault((r, c + 1), []).append((r, c))
    for r in range(rows):
        for c in range(cols + 1):
            if sides.down[r][c]:
                total += 1
                links.setdefault((r, c), []).append((r + 1, c))
                links.setdefault((r + 1, c), []).append((r, c))
    if not links:
        return 0, 0
    start = next(iter(links))
    seen, todo = {start}, [start]
    while todo:
        point = todo.pop()
        for other in links[point]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    reached = sum(len(links[point]) for point in seen) // 2
    return total, reached


def loop_problems(sides: Sides) -> list[str]:
    """What stops `sides` from being one loop: points where other than 0 or 2 sides meet,
    no side at all, or sides that are not all joined."""
    rows, cols = len(sides.down), len(sides.across[0])
    problems = []
    for r in range(rows + 1):
        for c in range(cols + 1):
            met = sides.at_point(r, c)
            if met not in (0, 2):
                problems.append(f"{met} loop sides meet at point ({r}, {c}): the loop "
                                f"{'crosses or touches itself' if met == 4 else 'ends'} there")
    total, reached = _walk(sides)
    if total == 0:
        problems.append("there is no loop (no cell is inside)")
    elif reached != total:
        problems.append(f"the loop is not one loop: walking it from one side reaches {reached} "
                        f"of its {total} sides")
    return problems


def verify(instance: Instance, solution: Any) -> list[str]:
    """Check every rule literally on the loop the inside cells give; [] if valid."""
    inside, problems = KEY.shape(instance, solution)
    if inside is None:
        return problems
    sides = loop_sides(inside)
    problems = loop_problems(sides)
    for r, c, clue in clue_cells(instance):
        used = side_count(sides, r, c)
        if used != clue:
            problems.append(f"clue {clue} at row {r}, column {c} has {used} sides on the loop")
    return problems


def objective(instance: Instance, solution: Any) -> None:
    """Slitherlink is a feasibility puzzle: no objective."""
    return None


# ---------------------------------------------------------------- drawing

def render(instance: Instance, solution: dict[str, Any] | None = None,
           width: int | None = None) -> Text:
    """The grid's points `·`, its clues, and the loop in box-drawing lines when
    `solution` is given (inside cells shaded); no line wider than `width`, else a
    summary (`core.drawing`)."""
    sides = inside = None
    if solution is not None and not KEY.shape(instance, solution)[1]:
        inside = inside_grid(solution)
        sides = loop_sides(inside)
    rows, cols = instance.rows, instance.cols
    text = Text()
    text.append(f"Slitherlink {rows}x{cols}\n", style="bold")
    gap = drawing.cell_gap(width, lambda g: cols * (2 + 2 * g) + 1)
    if drawing.too_big(rows, cols) or gap is None:
        counts = [(len(clue_cells(instance)), "clues")]
        if inside is not None:
            counts.append((sum(map(sum, inside)), "cells inside"))
        text.append(drawing.grid_summary(rows, cols, counts, width) + "\n")
        return drawing.wrapped(text, width)
    span = 1 + 2 * gap  # characters of a side between two points
    for r in range(rows + 1):
        for c in range(cols + 1):
            text.append("·", style="dim")
            if c < cols:
                on = sides is not None and sides.across[r][c]
                text.append(("─" if on else " ") * span, style="bold")
        text.append("\n")
        if r == rows:
            break
        for c in range(cols + 1):
            on = sides is not None and sides.down[r][c]
            text.append("│" if on else " ", style="bold")
            if c < cols:
                clue = instance.clues[r][c]
                label = (" " if clue is None else str(clue)).center(span)
                shaded = inside is not None and inside[r][c]
                text.append(label, style="bold black on bright_yellow" if shaded else "bold")
        text.append("\n")
    return drawing.wrapped(text, width)


# ---------------------------------------------------------------- brute force

def _clue_filter(instance: Instance, masks: np.ndarray) -> np.ndarray:
    """The masks (bit r*cols+c set: (r, c) inside) whose loop sides match every clue."""
    rows, cols = instance.rows, instance.cols
    keep = np.ones(masks.shape, dtype=bool)
    for r, c, clue in clue_cells(instance):
        own = (masks >> (r * cols + c)) & 1
        count = np.zeros(masks.shape, dtype=np.int64)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            other = (masks >> (rr * cols + cc)) & 1 if 0 <= rr < rows and 0 <= cc < cols else 0
            count += own ^ other
        keep &= count == clue
    return masks[keep]


def _is_loop(instance: Instance, mask: int) -> bool:
    cols = instance.cols
    inside = [[mask >> (r * cols + c) & 1 for c in range(cols)] for r in range(instance.rows)]
    return not loop_problems(loop_sides(inside))


def brute(instance: Instance, limits: Limits) -> Result:
    """Every set of inside cells in turn, as integers 1 .. 2^cells-1: the test oracle.

    numpy checks the clues on blocks of masks at once; each survivor's loop is
    checked literally (`loop_problems`). The first solution is the smallest
    integer; with `limits.unique` it stops at the second, with `limits.count`
    it counts them all.
    """
    watch = Stopwatch()
    if instance.cells > BRUTE_MAX_CELLS:
        return Result(Status.UNSUPPORTED, message=f"brute handles at most {BRUTE_MAX_CELLS} "
                      f"cells; this grid has {instance.cells}")
    poller = Poller(limits.node_limit, limits.deadline(), every=_CHUNK)
    watch.built()
    total = 1 << instance.cells
    first, found, nodes, stopped = None, 0, 0, None
    wanted = solutions_wanted(limits)
    for start in range(1, total, _CHUNK):
        if nodes >= poller.at and (stopped := poller(nodes)) is not None:
            break
        block = np.arange(start, min(start + _CHUNK, total), dtype=np.int64)
        nodes += len(block)
        for mask in _clue_filter(instance, block).tolist():
            if _is_loop(instance, mask):
                found += 1
                first = mask if first is None else first
                if wanted is not None and found >= wanted:
                    break
        if wanted is not None and found >= wanted:
            break
    tally = Tally.of_search(found, wanted, stopped=stopped is not None)
    return brute_answer(instance, limits, KEY, first, tally, stopped, watch.stats(nodes=nodes))

