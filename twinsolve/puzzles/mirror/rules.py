"""Mirror maze: the rules, the file format, and the independent checker.

Rules. A ROWS x COLS grid of cells: `.` empty; `/` and `\\` fixed two-sided
mirrors; `?` a rotatable mirror that stands as `/` and may be flipped to `\\`;
`#` a wall; `T` a target; `S` a laser emitting to the right, and `>` `<` `^`
`v` lasers emitting in that direction. Every laser's beam starts in its own
cell moving in its direction. Each step it enters the next cell: leaving the
grid or entering a wall is a fail, entering a target is a hit (the beam
stops), a mirror turns it (`/`: right->up, down->left, left->down, up->right;
`\\`: right->down, down->right, left->up, up->left), empty and laser cells let
it pass. A beam that comes back to a (cell, direction) state it was in
before loops for ever: a fail. Goal `any` (the default): some beam hits some
target; goal `all`: every target is hit by some beam. Each `?` keeps ONE
orientation for the whole run, for every beam and every pass. Objective: the
fewest flips.

File: `mirror ROWS COLS [goal any|all]`, then ROWS lines of COLS characters
(a body line starting with `#` is a grid row). Solution:
`{"flips": [[r, c], ...]}`, the flipped `?` cells, sorted.

`verify` re-traces every beam one cell at a time with a set of visited
states; `brute` tries flip sets in order of size with the same tracer. The
solvers (`twinsolve.puzzles.mirror.hand`, `twinsolve.puzzles.mirror.models`) share none of
this code beyond the instance and the `reflect` table.
"""

from __future__ import annotations

import collections
import enum
import itertools
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from rich.text import Text

from ...core import drawing
from ...core.errors import quoted
from ...core.geometry import DELTAS, Direction, Sized
from ...core.instance_file import Layout, Metadata, format_metadata, read_layout
from ...core.limits import Limits, Poller
from ...core.result import Result, Stats, Status, Stopwatch, Tally

__all__ = ["CellKind", "Goal", "Direction", "Instance", "Beam", "MAX_SIDE", "BRUTE_MAX_MIRRORS",
           "reflect", "parse", "format", "verify", "objective", "render", "brute",
           "trace_beam", "flips_of", "solution_from_flips"]

MAX_SIDE = 1000
BRUTE_MAX_MIRRORS = 16

RIGHT, DOWN, LEFT, UP = Direction.RIGHT, Direction.DOWN, Direction.LEFT, Direction.UP


class CellKind(enum.Enum):
    """What stands in a cell; the value is its character in the file."""

    EMPTY = "."
    SLASH = "/"           # fixed mirror
    BACKSLASH = "\\"      # fixed mirror
    ROTATABLE = "?"       # stands as '/', may be flipped to '\'
    WALL = "#"
    TARGET = "T"
    SOURCE = "S"          # laser emitting to the right
    SOURCE_RIGHT = ">"
    SOURCE_LEFT = "<"
    SOURCE_UP = "^"
    SOURCE_DOWN = "v"

    @property
    def emits(self) -> Direction | None:
        """The direction a laser cell emits in, None for every other kind."""
        return _EMITS.get(self)

    @property
    def passes(self) -> bool:
        """A beam goes straight through: empty cells and laser cells."""
        return self is CellKind.EMPTY or self in _EMITS


_EMITS = {CellKind.SOURCE: RIGHT, CellKind.SOURCE_RIGHT: RIGHT, CellKind.SOURCE_LEFT: LEFT,
          CellKind.SOURCE_UP: UP, CellKind.SOURCE_DOWN: DOWN}
_BY_CHAR = {kind.value: kind for kind in CellKind}


class Goal(enum.Enum):
    ANY = "any"   # some beam hits some target
    ALL = "all"   # every target is hit by some beam


# The reflection tables, written out as the rules state them. Each is an involution
# (reflecting twice gives the direction back), which is why a beam can be traced backwards.
_REFLECT = {
    "/": {RIGHT: UP, DOWN: LEFT, LEFT: DOWN, UP: RIGHT},
    "\\": {RIGHT: DOWN, DOWN: RIGHT, LEFT: UP, UP: LEFT},
}


def reflect(direction: Direction | int, mirror: str) -> Direction:
    """The direction a beam moving in `direction` leaves a `mirror` ('/' or '\\\\') in.

    >>> reflect(Direction.RIGHT, "/").name, reflect(Direction.RIGHT, "\\\\").name
    ('UP', 'DOWN')
    """
    return _REFLECT[mirror][Direction(direction)]


@dataclass(frozen=True)
class Instance(Sized):
    PUZZLE: ClassVar[str] = "mirror"

    rows: int
    cols: int
    grid: tuple[tuple[CellKind, ...], ...]
    goal: Goal = Goal.ANY
    meta: Metadata = ()

    @property
    def variant(self) -> str:
        return f"goal {self.goal.value}"

    def kind(self, r: int, c: int) -> CellKind:
        return self.grid[r][c]

    def positions(self, *kinds: CellKind) -> list[tuple[int, int]]:
        """Cells of the given kinds, in row-major order."""
        return [(r, c) for r, row in enumerate(self.grid) for c, kind in enumerate(row)
                if kind in kinds]

    def sources(self) -> list[tuple[int, int, Direction]]:
        """Every laser as (row, col, direction), in row-major order."""
        return [(r, c, _EMITS[kind]) for r, row in enumerate(self.grid)
                for c, kind in enumerate(row) if kind in _EMITS]

    def targets(self) -> list[tuple[int, int]]:
        return self.positions(CellKind.TARGET)

    def rotatable(self) -> list[tuple[int, int]]:
        """The `?` cells in row-major order (the index of a mirror in this list is its id)."""
        return self.positions(CellKind.ROTATABLE)

    @classmethod
    def from_strings(cls, lines: Sequence[str], goal: Goal | str = Goal.ANY,
                     meta: Metadata = ()) -> Instance:
        """An instance from grid rows (for tests and generators); checked like a file."""
        header = f"mirror {len(lines)} {len(lines[0]) if lines else 0} goal {Goal(goal).value}"
        return parse(format_metadata(meta) + header + "\n" + "".join(f"{x}\n" for x in lines))


# ---------------------------------------------------------------- parsing

def _read_header(layout: Layout) -> tuple[int, int, Goal]:
    rows, cols, rest = layout.grid_header("mirror", "mirror ROWS COLS [goal any|all]", MAX_SIDE)
    goal = Goal.ANY
    if rest:
        if len(rest) != 2 or rest[0] != "goal" or rest[1] not in ("any", "all"):
            raise layout.header_error(f"unexpected {quoted(' '.join(rest))} in header "
                                      "(the only option is 'goal any' or 'goal all')")
        goal = Goal(rest[1])
    return rows, cols, goal


def _read_row(layout: Layout, number: int, text: str, cols: int) -> tuple[CellKind, ...]:
    row = text.rstrip()
    for column, char in enumerate(row, start=1):
        if char not in _BY_CHAR:
            raise layout.error(number, column, f"unknown character {char!r} (cells are "
                               "'.', '/', '\\', '?', '#', 'T', 'S', '>', '<', '^', 'v')")
    if len(row) != cols:
        column = cols + 1 if len(row) > cols else None
        raise layout.error(number, column, f"row has {len(row)} cells, expected {cols}")
    return tuple(_BY_CHAR[char] for char in row)


def parse(text: str, source: str | None = None) -> Instance:
    """Read a mirror maze; any problem is an `InstanceError` with line and column.

    >>> parse("mirror 1 3\\nS?T\\n").rotatable()
    [(0, 1)]
    """
    layout = read_layout(text, source)
    rows, cols, goal = _read_header(layout)
    grid = []
    for line in layout.body:
        if len(grid) == rows:
            raise layout.error(line.number, 1, f"more than {rows} rows in the grid")
        grid.append(_read_row(layout, line.number, line.text, cols))
    if len(grid) < rows:
        last = layout.body[-1].number if layout.body else layout.header_line
        raise layout.error(last, None, f"expected {rows} rows in the grid, found {len(grid)}")
    instance = Instance(rows, cols, tuple(grid), goal, layout.metadata)
    if not instance.sources():
        raise layout.error(layout.header_line, None,
                           "the grid has no laser (S, >, <, ^ or v)")
    if not instance.targets():
        raise layout.error(layout.header_line, None, "the grid has no target (T)")
    return instance


def format(instance: Instance) -> str:  # noqa: A001 - the contract's name
    header = f"mirror {instance.rows} {instance.cols}"
    if instance.goal is not Goal.ANY:
        header += f" goal {instance.goal.value}"
    rows = "".join("".join(kind.value for kind in row) + "\n" for row in instance.grid)
    return format_metadata(instance.meta) + header + "\n" + rows


# ---------------------------------------------------------------- solutions

def solution_from_flips(flips: Iterable[tuple[int, int]]) -> dict[str, list[list[int]]]:
    """`{"flips": [[r, c], ...]}`, sorted, from any iterable of cells."""
    return {"flips": [[int(r), int(c)] for r, c in sorted(flips)]}


def flips_of(instance: Instance, solution: Any) -> tuple[frozenset[tuple[int, int]], list[str]]:
    """The flipped cells of a solution, and what is wrong with its shape ([] if nothing)."""
    if not isinstance(solution, dict) or not isinstance(solution.get("flips"), list):
        return frozenset(), ['solution must be {"flips": [[row, col], ...]}']
    cells: set[tuple[int, int]] = set()
    for entry in solution["flips"]:
        if not (isinstance(entry, (list, tuple)) and len(entry) == 2
                and all(type(v) is int for v in entry)):
            return frozenset(), [f"flip {quoted(entry)} is not a [row, col] pair of integers"]
        r, c = entry
        if not (0 <= r < instance.rows and 0 <= c < instance.cols):
            return frozenset(), [f"flip [{r}, {c}] is outside the grid"]
        if instance.grid[r][c] is not CellKind.ROTATABLE:
            return frozenset(), [f"flip [{r}, {c}] is not a rotatable mirror '?'"]
        if (r, c) in cells:
            return frozenset(), [f"flip [{r}, {c}] is listed twice"]
        cells.add((r, c))
    return frozenset(cells), []


# ---------------------------------------------------------------- checking

class Beam(NamedTuple):
    """One traced beam: the target it hit (None if it failed), why it stopped, its states."""

    hit: tuple[int, int] | None
    end: str                                      # "target", "wall", "edge" or "loop"
    path: tuple[tuple[int, int, Direction], ...]  # (row, col, direction leaving the cell)


def trace_beam(instance: Instance, source: tuple[int, int, Direction],
               flipped: Iterable[tuple[int, int]]) -> Beam:
    """Follow one laser's beam cell by cell, the `?` cells in `flipped` standing as '\\\\'."""
    flipped = set(flipped)
    r, c, direction = source
    path = [(r, c, direction)]
    seen = {(r, c, direction)}
    while True:
        dr, dc = DELTAS[direction]
        r, c = r + dr, c + dc
        if not (0 <= r < instance.rows and 0 <= c < instance.cols):
            return Beam(None, "edge", tuple(path))
        kind = instance.grid[r][c]
        if kind is CellKind.WALL:
            return Beam(None, "wall", tuple(path))
        if kind is CellKind.TARGET:
            return Beam((r, c), "target", tuple(path))
        if kind is CellKind.SLASH or (kind is CellKind.ROTATABLE and (r, c) not in flipped):
            direction = reflect(direction, "/")
        elif kind is CellKind.BACKSLASH or kind is CellKind.ROTATABLE:
            direction = reflect(direction, "\\")
        if (r, c, direction) in seen:
            return Beam(None, "loop", tuple(path))
        seen.add((r, c, direction))
        path.append((r, c, direction))


def _goal_problems(instance: Instance, flipped: Iterable[tuple[int, int]]) -> list[str]:
    flipped = set(flipped)
    hit = {beam.hit for beam in (trace_beam(instance, s, flipped) for s in instance.sources())}
    hit.discard(None)
    if instance.goal is Goal.ANY:
        return [] if hit else ["no beam reaches a target"]
    missed = [t for t in instance.targets() if t not in hit]
    if missed:
        return [f"{len(missed)} target(s) not hit by any beam, first at row {missed[0][0]}, "
                f"column {missed[0][1]}"]
    return []


def verify(instance: Instance, solution: Any) -> list[str]:
    """Trace every beam with the given flips; [] if the goal is met."""
    flipped, problems = flips_of(instance, solution)
    if problems:
        return problems
    return _goal_problems(instance, flipped)


def objective(instance: Instance, solution: Any) -> int:
    """The number of flipped mirrors."""
    return len(solution["flips"])


# ---------------------------------------------------------------- drawing

def render(instance: Instance, solution: dict[str, Any] | None = None,
           width: int | None = None) -> Text:
    """The grid. With a solution: each `?` drawn as it stands (flipped ones magenta),
    and the cells the beams pass through lit. No line is wider than `width` (compact
    cells, else a summary: `core.drawing`); a grid over `core.drawing.GRID_LIMIT` a
    side is summarised: its mirrors, lasers and targets, and the flips."""
    flipped, problems = flips_of(instance, solution) if solution is not None else (set(), [])
    shown = solution is not None and not problems
    text = Text()
    text.append(f"Mirror maze {instance.rows}x{instance.cols} ({instance.variant})\n",
                style="bold")
    gap = drawing.cell_gap(width, lambda g: (1 + g) * instance.cols)
    if drawing.too_big(instance.rows, instance.cols) or gap is None:
        text.append(drawing.grid_summary(instance.rows, instance.cols,
                                         _counts(instance, flipped if shown else None),
                                         width) + "\n")
        return drawing.wrapped(text, width)
    lit: set[tuple[int, int]] = set()
    if shown:
        for source in instance.sources():
            lit.update((r, c) for r, c, _ in trace_beam(instance, source, flipped).path)
    for r, row in enumerate(instance.grid):
        for c, kind in enumerate(row):
            text.append(*_cell_look(kind, (r, c) in flipped, (r, c) in lit, shown))
            text.append(" " * gap)
        text.append("\n")
    return drawing.wrapped(text, width)


def _counts(instance: Instance, flipped: AbstractSet[tuple[int, int]] | None
            ) -> list[tuple[int, str]]:
    """What a summary of a grid too large to draw tells: (number, what) pairs."""
    kinds = collections.Counter(kind for row in instance.grid for kind in row)
    counts = [(kinds[CellKind.SLASH] + kinds[CellKind.BACKSLASH], "fixed mirrors"),
              (kinds[CellKind.ROTATABLE], "rotatable mirrors"),
              (sum(kinds[kind] for kind in _EMITS), "lasers"),
              (kinds[CellKind.TARGET], "targets")]
    if flipped is not None:
        counts.append((len(flipped), "flipped"))
    return counts


def _cell_look(kind: CellKind, flipped: bool, lit: bool, shown: bool) -> tuple[str, str]:
    """(character, style) of one cell in `render`."""
    if kind is CellKind.ROTATABLE and shown:
        return ("\\", "bold magenta") if flipped else ("/", "bold cyan")
    if kind is CellKind.TARGET or kind in _EMITS:
        return kind.value, "bold yellow"
    if lit:
        return ("·" if kind is CellKind.EMPTY else kind.value), "red"
    return kind.value, "dim" if kind in (CellKind.EMPTY, CellKind.WALL) else ""


# ---------------------------------------------------------------- brute force

def brute(instance: Instance, limits: Limits) -> Result:
    """Flip sets in order of size, each traced plainly: the test oracle for at most 16 `?`.

    The first size with a solution is the optimum; every set of that size is
    tried, so `unique` and `count` are exact. UNSAT costs all 2^k sets.
    """
    watch = Stopwatch()
    mirrors = instance.rotatable()
    if len(mirrors) > BRUTE_MAX_MIRRORS:
        return Result(Status.UNSUPPORTED, message=f"brute handles at most {BRUTE_MAX_MIRRORS} "
                      f"rotatable mirrors; this grid has {len(mirrors)}")
    poller = Poller(limits.node_limit, limits.deadline())
    watch.built()
    nodes = 0
    for size in range(len(mirrors) + 1):
        found = []
        for flips in itertools.combinations(mirrors, size):
            if nodes >= poller.at and (hit := poller(nodes)) is not None:
                return Result(Status.TIMEOUT, stats=watch.stats(nodes=nodes),
                              message=f"brute stopped: {hit} limit")
            nodes += 1
            if not _goal_problems(instance, flips):
                found.append(flips)
        if found:
            return _brute_answer(limits, found, watch.stats(nodes=nodes))
    return Result.unsat(limits, stats=watch.stats(nodes=nodes))


def _brute_answer(limits: Limits, found: list[tuple], stats: Stats) -> Result:
    return Result.answer(Status.OPTIMAL, solution_from_flips(found[0]), len(found[0]),
                         tally=Tally(len(found), complete=True), asked=limits, stats=stats)
