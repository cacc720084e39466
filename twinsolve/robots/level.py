"""Level files of the stealth game: reading, checking and writing them.

File (the project's instance-file layout: `#` comments and `# key: value`
metadata before the header, the body read literally):

    robots ROWS COLS
    ROWS lines of COLS map characters
    option lines, any order, each at most once (doors: once per door)

Map characters: `#` wall, `.` floor, `g` cover (green), `r` alarm (red),
`D` door, and on floor: `P` the player's start (exactly one), `E` the exit
(exactly one), `*` a data shard, `e` an EMP pickup, `k` the skill point, and
the robots `S` sentinel, `H` hunter, `I` interceptor, `C` scout (a robot's
start cell is its home).

Options: `vision N` (the player's sight, 1..64, default 6), `robot-vision
N` (1..64, default 5), `turns N` (the time limit, 1..100000, default 300),
`seed N` (0..2^63-1, default 0), and for every `D` exactly one line `door
ROW COL period P open O phase F`: the door is open on tick t when `(t + F)
mod P < O` (1 <= P <= 1000, 0 <= O <= P, 0 <= F < P).

`parse` raises `InstanceError` (file, line, column, problem) for anything
else, and nothing else; `format` writes the options that differ from the
defaults, so `parse(format(level)) == level`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ..core.errors import quoted
from ..core.instance_file import Layout, ascii_int, format_metadata, read_layout, tokens
from ..core.limits import MAX_SEED

__all__ = ["Tile", "Item", "RobotKind", "Door", "Robot", "Level", "parse", "format",
           "MAX_SIDE", "DEFAULTS"]

MAX_SIDE = 128
USAGE = "robots ROWS COLS"


class Tile(enum.Enum):
    """What a cell is made of."""

    WALL = "#"
    FLOOR = "."
    COVER = "g"
    ALARM = "r"
    DOOR = "D"


class Item(enum.Enum):
    """What lies on a floor cell at the start."""

    SHARD = "*"
    EMP = "e"
    SKILL = "k"


class RobotKind(enum.Enum):
    SENTINEL = "S"
    HUNTER = "H"
    INTERCEPTOR = "I"
    SCOUT = "C"


Cell = tuple[int, int]


@dataclass(frozen=True)
class Door:
    """A door at `cell`, open on tick t when (t + phase) mod period < open."""

    cell: Cell
    period: int
    open: int
    phase: int

    def is_open(self, tick: int) -> bool:
        return (tick + self.phase) % self.period < self.open


@dataclass(frozen=True)
class Robot:
    kind: RobotKind
    home: Cell


@dataclass(frozen=True)
class Level:
    rows: int
    cols: int
    tiles: tuple[tuple[Tile, ...], ...]
    player: Cell
    exit: Cell
    items: tuple[tuple[Cell, Item], ...]  # row-major order
    robots: tuple[Robot, ...]  # row-major order
    doors: tuple[Door, ...]  # row-major order
    vision: int = 6
    robot_vision: int = 5
    turns: int = 300
    seed: int = 0
    meta: tuple[tuple[str, str], ...] = ()

    def tile(self, cell: Cell) -> Tile:
        return self.tiles[cell[0]][cell[1]]

    def cells_with(self, item: Item) -> list[Cell]:
        return [cell for cell, there in self.items if there is item]


# name -> (attribute, low, high); the defaults are the dataclass's.
_NUMBERS = {"vision": ("vision", 1, 64), "robot-vision": ("robot_vision", 1, 64),
            "turns": ("turns", 1, 100_000), "seed": ("seed", 0, MAX_SEED)}
DEFAULTS = {name: Level.__dataclass_fields__[attribute].default
            for name, (attribute, _low, _high) in _NUMBERS.items()}
_DOOR_WORDS = ("period", "open", "phase")
_DOOR_USAGE = "door ROW COL period P open O phase F"
_ON_FLOOR = {"P", "E", *(item.value for item in Item), *(kind.value for kind in RobotKind)}
_TILES = {tile.value: tile for tile in Tile}
_CHARS = "', '".join([*_TILES, *sorted(_ON_FLOOR)])


def parse(text: str, source: str | None = None) -> Level:
    """Read a level; any problem is an `InstanceError` naming the line and column.

    >>> level = parse("robots 1 4\\nP*.E\\n")
    >>> level.player, level.exit, level.items
    ((0, 0), (0, 3), (((0, 1), <Item.SHARD: '*'>),))
    """
    layout = read_layout(text, source)
    rows, cols, extra = layout.grid_header("robots", USAGE, MAX_SIDE)
    if extra:
        raise layout.word_error(3, f"unexpected {quoted(extra[0])} after COLS: '{USAGE}'")
    if len(layout.body) < rows:
        last = layout.body[-1].number if layout.body else layout.header_line
        raise layout.error(last, None, f"expected {rows} map rows, found {len(layout.body)}")
    tiles, marks = [], {}
    for r, line in enumerate(layout.body[:rows]):
        tiles.append(_read_row(layout, line.number, line.text, cols, r, marks))
    found = dict(DEFAULTS)
    doors = _read_options(layout, layout.body[rows:], tiles, found)
    player, exit_cell = (_single(layout, marks, char, what) for char, what in
                         (("P", "player start"), ("E", "exit")))
    items = tuple((cell, Item(char)) for cell, char in sorted(marks.items())
                  if char in {item.value for item in Item})
    robots = tuple(Robot(RobotKind(char), cell) for cell, char in sorted(marks.items())
                   if char in {kind.value for kind in RobotKind})
    numbers = {_NUMBERS[name][0]: value for name, value in found.items()}
    return Level(rows, cols, tuple(tiles), player, exit_cell, items, robots,
                 tuple(sorted(doors.values(), key=lambda door: door.cell)), **numbers,
                 meta=layout.metadata)


def _read_row(layout: Layout, number: int, text: str, cols: int, r: int,
              marks: dict[Cell, str]) -> tuple[Tile, ...]:
    row = text.rstrip()
    row_tiles = []
    for c, char in enumerate(row):
        if char in _ON_FLOOR:
            marks[(r, c)] = char
            row_tiles.append(Tile.FLOOR)
        elif char in _TILES:
            row_tiles.append(_TILES[char])
        else:
            raise layout.error(number, c + 1, f"unknown map character {char!r} "
                                              f"(the map uses '{_CHARS}')")
    if len(row) != cols:
        raise layout.error(number, cols + 1 if len(row) > cols else None,
                           f"map row has {len(row)} cells, expected {cols}")
    return tuple(row_tiles)


def _single(layout: Layout, marks: dict[Cell, str], char: str, what: str) -> Cell:
    cells = sorted(cell for cell, there in marks.items() if there == char)
    if len(cells) != 1:
        raise layout.error(layout.header_line, None,
                           f"the map needs exactly one {what} ({char!r}), found {len(cells)}")
    return cells[0]


def _whole(layout: Layout, number: int, word: tuple[int, str] | None, what: str,
           low: int, high: int) -> int:
    """A whole number low..high from a (column, token) pair, or the error at it."""
    if word is None:
        raise layout.error(number, None, f"{what} needs a value")
    value = ascii_int(word[1], max_digits=19)
    if value is None or not low <= value <= high:
        raise layout.error(number, word[0], f"{what} must be a whole number {low}..{high}, "
                                            f"got {quoted(word[1])}")
    return value


def _read_options(layout: Layout, lines: tuple, tiles: list, found: dict[str, int]
                  ) -> dict[Cell, Door]:
    """The option lines into `found` (name -> number); the doors, by cell."""
    seen: dict[str, int] = {}
    doors: dict[Cell, Door] = {}
    for line in lines:
        words = tokens(line.text)
        if not words:
            continue
        column, name = words[0]
        if name == "door":
            door = _read_door(layout, line.number, words, tiles)
            if door.cell in doors:
                raise layout.error(line.number, column,
                                   f"a second door line for cell {door.cell[0]} {door.cell[1]}")
            doors[door.cell] = door
            continue
        if name not in _NUMBERS:
            raise layout.error(line.number, column, f"unknown option {quoted(name)} (options are "
                               f"{', '.join(_NUMBERS)} and door)")
        if name in seen:
            raise layout.error(line.number, column,
                               f"second {name!r} line (first on line {seen[name]})")
        if len(words) > 2:
            raise layout.error(line.number, words[2][0], f"{name} takes one number")
        seen[name] = line.number
        _attribute, low, high = _NUMBERS[name]
        found[name] = _whole(layout, line.number, words[1] if len(words) > 1 else None,
                             name, low, high)
    for r, row in enumerate(tiles):
        for c, tile in enumerate(row):
            if tile is Tile.DOOR and (r, c) not in doors:
                last = layout.body[-1].number
                raise layout.error(last, None, f"the door at row {r} column {c} has no "
                                               f"'{_DOOR_USAGE}' line")
    return doors


def _read_door(layout: Layout, number: int, words: list[tuple[int, str]], tiles: list
               ) -> Door:
    if len(words) != 9 or tuple(word for _, word in words[3:9:2]) != _DOOR_WORDS:
        raise layout.error(number, words[0][0], f"a door line reads '{_DOOR_USAGE}'")
    rows, cols = len(tiles), len(tiles[0])
    r = _whole(layout, number, words[1], "ROW", 0, rows - 1)
    c = _whole(layout, number, words[2], "COL", 0, cols - 1)
    if tiles[r][c] is not Tile.DOOR:
        raise layout.error(number, words[1][0], f"row {r} column {c} is no door ('D')")
    period = _whole(layout, number, words[4], "period", 1, 1000)
    opened = _whole(layout, number, words[6], "open", 0, period)
    phase = _whole(layout, number, words[8], "phase", 0, period - 1)
    return Door((r, c), period, opened, phase)


def format(level: Level) -> str:  # noqa: A001 - the contract's name
    """The level file; options equal to their defaults are left out."""
    grid = [[tile.value for tile in row] for row in level.tiles]
    marks = [(level.player, "P"), (level.exit, "E"),
             *((cell, item.value) for cell, item in level.items),
             *((robot.home, robot.kind.value) for robot in level.robots)]
    for (r, c), char in marks:
        grid[r][c] = char
    lines = [f"robots {level.rows} {level.cols}", *("".join(row) for row in grid)]
    for name, (attribute, _low, _high) in _NUMBERS.items():
        value = getattr(level, attribute)
        if value != DEFAULTS[name]:
            lines.append(f"{name} {value}")
    lines += [f"door {d.cell[0]} {d.cell[1]} period {d.period} open {d.open} phase {d.phase}"
              for d in level.doors]
    return format_metadata(level.meta) + "\n".join(lines) + "\n"
