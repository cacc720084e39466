"""The play contract: what a puzzle's `play` module gives a person playing it by hand.

A puzzle that can be played in the studio (`twinsolve.studio`) declares a
`play` module (`core.declaration`: `PLAN`, `start`, `apply`, `board`,
`items`, `moves_to`, `remaining`, `EDIT_TOKENS`, `blank`, `edit`). This module
holds the vocabulary those modules share, so that each says only what is its
own, and the studio reads every puzzle alike:

- a position is the solution keys' JSON with unknowns (the state
  `twinsolve.explain.hint` reads), made only by `start` and `apply`, never
  taken from a client;
- a move is a string; the moves of a marks puzzle (`PLAN` False) are
  `"ITEM VALUE"` (`"r3c7 1"`: the cell in row 3, column 7 set to 1), so the
  moves to any position, and to the items an explanation decides, are
  written the same way (`mark`, `read_mark`);
- `Board` is what `board(instance, position)` returns: the drawing (a
  `graphics.canvas.Drawing`, in millimetres), the `Target`s a person clicks
  (boxes in the drawing's millimetres, named as the explanation names items:
  `cell_item`), whether the position is `complete` (nothing undecided, or
  the goal reached: the moment `verify` has the last word) and one line of
  `status`;
- `moves(instance, position)` gives the `Move`s a person can make there
  (each made by clicking or dragging its `path` of targets, a right click
  when `alt`, or its button when `listed`), apart from the drawing so that a
  search over positions (the studio's frontier view) never draws;
- `CellMarking` is the whole play of a puzzle whose answer is a grid of
  Boolean cells under one solution key (Cave's and Slitherlink's `inside`,
  Nurikabe's `shaded`): rows of `1`, `0` and `?` (undecided), every cell a
  target cycling `?` -> `1` -> `0` on a click. Its puzzle says only its words
  for the values and how one cell looks (`board`'s `draw_cell`).

>>> read_mark("r1c2 ?", 3, 4, "01?")
(1, 2, '?')
>>> [m.move for m in cycle("r0c0", "?", "?10")]
['r0c0 1', 'r0c0 0']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from . import drawing
from .clue_grid import EMPTY, UNKNOWN, Cell
from .errors import InstanceError, UsageError, quoted

__all__ = ["Target", "Move", "Board", "cell_item", "read_cell", "mark", "read_mark", "cycle",
           "cell_targets", "playable", "clue_number", "clue_cell", "ClueEditing", "CellMarking",
           "MAX_PLAY_CELLS"]

# The most cells a board offers to click: a board is sent whole after every move, and a
# person does not play 40,000 cells by hand.
MAX_PLAY_CELLS = 10_000

_CELL = re.compile(r"r(\d{1,6})c(\d{1,6})")


@dataclass(frozen=True)
class Target:
    """A place to click: `item` (its name), `box` (x, y, width, height in mm) and what it
    shows (`state`, e.g. "flipped", for a page or a test to read; "" for nothing)."""

    item: str
    box: tuple[float, float, float, float]
    state: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"item": self.item, "box": [round(v, 3) for v in self.box],
                "state": self.state}


@dataclass(frozen=True)
class Move:
    """A move a person can make now: `move` (what `apply` takes), `label` (for people),
    `path` (the targets clicked or dragged in order to make it; empty: only its button),
    `alt` (made by a right click on its one target), `listed` (offered as a button)."""

    move: str
    label: str
    path: tuple[str, ...] = ()
    alt: bool = False
    listed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "label": self.label, "path": list(self.path),
                "alt": self.alt, "listed": self.listed}


@dataclass(frozen=True)
class Board:
    """What a position looks like and what can be done on it (module docstring)."""

    drawing: Any  # a graphics.canvas.Drawing (core does not import the drawing layer)
    targets: tuple[Target, ...] = ()
    complete: bool = False
    status: str = ""


def cell_item(row: int, col: int) -> str:
    """The name of a grid cell, as explanations name it: `r3c7` (from 0 at the top left)."""
    return f"r{row}c{col}"


def read_cell(item: Any, rows: int, cols: int) -> tuple[int, int]:
    """(row, col) of a cell item on a rows x cols grid; `UsageError` otherwise.

    >>> read_cell("r2c0", 3, 3)
    (2, 0)
    """
    match = _CELL.fullmatch(item) if isinstance(item, str) else None
    if match is None:
        raise UsageError(f"{quoted(item)} is not a cell (rROWcCOL, e.g. r0c0)")
    row, col = int(match.group(1)), int(match.group(2))
    if not (row < rows and col < cols):
        raise UsageError(f"{item} is off the {rows}x{cols} board")
    return row, col


def mark(row: int, col: int, value: str) -> str:
    """The move that sets a cell: `r3c7 1`."""
    return f"{cell_item(row, col)} {value}"


def read_mark(move: Any, rows: int, cols: int, values: Iterable[str]) -> tuple[int, int, str]:
    """(row, col, value) of a marks puzzle's move `ITEM VALUE`; `UsageError` naming what is
    wrong with it."""
    words = move.split() if isinstance(move, str) else []
    if len(words) != 2:
        raise UsageError(f"move {quoted(move)} is not 'CELL VALUE' (e.g. 'r0c0 1')")
    row, col = read_cell(words[0], rows, cols)
    allowed = tuple(values)
    if words[1] not in allowed:
        raise UsageError(f"move {quoted(move)}: a cell here holds {', '.join(allowed)}, "
                         f"not {quoted(words[1])}")
    return row, col, words[1]


def cycle(item: str, current: str, values: str, labels: dict[str, str] | None = None
          ) -> tuple[Move, Move]:
    """The two moves of a cell whose value cycles through `values`: a click sets the next
    value, a right click the previous one."""
    at = values.index(current)
    after, before = values[(at + 1) % len(values)], values[(at - 1) % len(values)]
    words = labels or {}
    return (Move(f"{item} {after}", f"{item}: {words.get(after, after)}", (item,)),
            Move(f"{item} {before}", f"{item}: {words.get(before, before)}", (item,), alt=True))


def playable(rows: int, cols: int) -> None:
    """`UsageError` for a grid too large to play by hand (`MAX_PLAY_CELLS`, or a side the
    pictures summarise instead of drawing, `core.drawing.too_big`): a grid puzzle's
    `start` asks first, before it makes a position of that size."""
    if rows * cols > MAX_PLAY_CELLS or drawing.too_big(rows, cols):
        raise UsageError(f"a {rows}x{cols} board is too large to play by hand here (at most "
                         f"{MAX_PLAY_CELLS:,} cells)")


def clue_number(token: Any, holds: str) -> int:
    """The number an author typed into a cell; otherwise `UsageError` "`holds`, not TOKEN"
    (`holds` says what the cell may hold; whether the number fits is the puzzle's to say).

    >>> clue_number("12", "a cell holds '-' or a clue number")
    12
    """
    if not (isinstance(token, str) and token.isascii() and token.isdigit() and len(token) < 7):
        raise UsageError(f"{holds}, not {quoted(token)}")
    return int(token)


def clue_cell(token: Any, holds: str, problem: Callable[[int], str | None]) -> Cell:
    """The `core.clue_grid.Cell` an author's token names: `-`, `?` or a clue number that
    `problem(number)` finds nothing wrong with (else `UsageError` with what it says).

    >>> clue_cell("?", "a cell holds '-', '?' or a clue number", lambda number: None).token
    '?'
    """
    if token == "-":
        return EMPTY
    if token == "?":
        return UNKNOWN
    number = clue_number(token, holds)
    found = problem(number)
    if found:
        raise UsageError(found)
    return Cell.clue(number)


@dataclass(frozen=True)
class ClueEditing:
    """An author's editing of a clue grid (`core.clue_grid`): `blank` is the grid of
    `empty` cells, `edit` sets one cell to what `read(token, instance)` makes of the
    author's token (`UsageError` when the cell cannot hold it), and
    `build(rows, cols, clues, meta)` checks the grid like a parsed file. A puzzle's play
    module binds both."""

    build: Callable[..., Any]
    empty: Any
    read: Callable[[Any, Any], Any]

    @classmethod
    def of_cells(cls, build: Callable[..., Any], holds: str,
                 clue_problem: Callable[[int, int, int], str | None]) -> ClueEditing:
        """The editing of a grid of `core.clue_grid.Cell`s: `-`, `?` or a clue number that
        `clue_problem(number, rows, cols)` accepts (`clue_cell`; `holds` for a token that is
        none of them)."""
        def read(token: Any, instance: Any) -> Cell:
            return clue_cell(token, holds,
                             lambda number: clue_problem(number, instance.rows, instance.cols))
        return cls(build, EMPTY, read)

    def blank(self, rows: int, cols: int) -> Any:
        try:
            return self.build(rows, cols, [[self.empty] * cols for _ in range(rows)])
        except InstanceError as exc:
            raise UsageError(exc.message) from None

    def edit(self, instance: Any, item: str, token: str) -> Any:
        r, c = read_cell(item, instance.rows, instance.cols)
        clues = [list(row) for row in instance.clues]
        clues[r][c] = self.read(token, instance)
        return self.build(instance.rows, instance.cols, clues, instance.meta)


def cell_targets(rows: int, cols: int, x: float, y: float, cell: float,
                 state: Any = None) -> list[Target]:
    """A target per cell of a grid whose top left corner is (x, y), cells `cell` mm wide;
    `state(r, c)` names what each shows. `UsageError` for a board too large to play."""
    playable(rows, cols)
    return [Target(cell_item(r, c), (x + c * cell, y + r * cell, cell, cell),
                   state(r, c) if state else "")
            for r in range(rows) for c in range(cols)]


# draw_cell(page, row, col, value, box): one cell of a `CellMarking` board drawn on `page`.
DrawCell = Callable[[Any, int, int, str, tuple[float, float, float, float]], None]


@dataclass(frozen=True)
class CellMarking:
    """The play of a grid of Boolean cells under the solution key `key`: a position is
    `{key: ["1?0", ...]}` (`1`, `0`, `?` undecided), a move sets one cell (`r3c7 1`), a
    click cycles `values` (undecided -> 1 -> 0), a right click the other way; `words`
    names each value for people (labels and targets' states). The instance needs only
    `rows` and `cols`. A puzzle's play module binds its `start`, `apply`, `moves`,
    `items`, `moves_to` and `remaining`, and its `board` calls `board` here with its
    own drawing of a cell.

    >>> marking = CellMarking("shaded", {"1": "shaded", "0": "white", "?": "undecided"})
    >>> class Grid:
    ...     rows, cols = 1, 2
    >>> position = marking.apply(Grid, marking.start(Grid), "r0c1 1")
    >>> position, marking.items(Grid, position), marking.moves_to(Grid, position)
    ({'shaded': ['?1']}, {'r0c1': '1'}, ['r0c1 1'])
    """

    key: str
    words: dict[str, str]
    values: str = "?10"

    def start(self, instance: Any) -> dict[str, list[str]]:
        playable(instance.rows, instance.cols)
        return {self.key: ["?" * instance.cols] * instance.rows}

    def apply(self, instance: Any, position: dict[str, Any], move: str
              ) -> dict[str, list[str]]:
        r, c, value = read_mark(move, instance.rows, instance.cols, self.values)
        rows = list(position[self.key])
        rows[r] = rows[r][:c] + value + rows[r][c + 1:]
        return {self.key: rows}

    def moves(self, instance: Any, position: dict[str, Any]) -> list[Move]:
        return [move for r, row in enumerate(position[self.key])
                for c, value in enumerate(row)
                for move in cycle(cell_item(r, c), value, self.values, self.words)]

    def items(self, instance: Any, position: dict[str, Any]) -> dict[str, str]:
        return {cell_item(r, c): value for r, row in enumerate(position[self.key])
                for c, value in enumerate(row) if value != "?"}

    def moves_to(self, instance: Any, solution: dict[str, Any]) -> list[str]:
        return [mark(r, c, value) for r, row in enumerate(solution[self.key])
                for c, value in enumerate(row) if value != "?"]

    def remaining(self, instance: Any, position: dict[str, Any]) -> Any:
        return instance  # marks set in any order: the puzzle left is the puzzle

    def board(self, instance: Any, position: dict[str, Any], page: Any,
              origin: tuple[float, float], cell: float, draw_cell: DrawCell) -> Board:
        """The `Board` of `position` on `page` (made by the puzzle), the grid's top left
        corner at `origin`, cells `cell` mm wide: a target per cell, each drawn by
        `draw_cell` in row-major order, complete when no cell is undecided."""
        grid = position[self.key]
        targets = cell_targets(instance.rows, instance.cols, *origin, cell,
                               lambda r, c: self.words[grid[r][c]])
        for index, target in enumerate(targets):
            r, c = divmod(index, instance.cols)
            draw_cell(page, r, c, grid[r][c], target.box)
        undecided = sum(row.count("?") for row in grid)
        cells = instance.rows * instance.cols
        return Board(page, tuple(targets), complete=undecided == 0,
                     status=f"{cells - undecided} of {cells} cells decided")
