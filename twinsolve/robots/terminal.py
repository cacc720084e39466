"""The stealth game full screen in a terminal (curses), and the replay viewer.

The screen: the map on the left, the HUD on the right of a `|` column.

- The map is seen through the player's eyes. Cells in sight now are drawn
  in full (the robots and the skill point only there); cells seen before
  are remembered, dimmed: the walls, the floor, the doors, the exit, shards
  and EMP pickups still lying there; cells never seen are blank. The player
  sees along rows and columns; the walls and doors bordering what they see
  count as seen. A level larger than the map window scrolls: the window is
  centred on the player, clamped to the level's edges.
- Every thing has its own character, so the map reads without colour
  (colours are added where `curses.has_colors()`): `@` the player, `S` `H`
  `I` `C` the sentinel, hunter, interceptor and scout (lower case while
  stunned), `*` a data shard (gold), `e` an EMP pickup (cyan), `k` the
  skill point (pink; magenta with eight colours), `>` the open exit, `X` the exit still locked, `+`
  a closed door, `/` an open one, a digit on a door the turns until it
  opens (reverse video: closed now) or closes (plain), `"` cover, `^` an
  alarm cell, `!` one ringing, `#` a wall, `.` floor. No letter on the map
  is a key's: the EMP key `E` is no map character. Where the terminal
  cannot dim, remembered floor is drawn blank (the remembered walls still
  outline it) so sight stays distinct from memory. On the capture screen
  the robot that caught you is drawn on your cell, in reverse video.
- The algorithm view (V) lifts the fog and draws each robot's plan this
  turn in its kind's colour (the replay page's: sentinel red, hunter
  orange, interceptor purple, scout teal): `o` its planned path, which
  starts at the robot's cell, `:` the cells its search visited, `T`
  (reverse video, on top of whatever stands there) its target.
- The HUD: the level's name, the turn and turns left, shards left, EMP
  charges, undos left, the active skill (shield, silence turns), one line per
  robot with its kind and intent ("H hunter: chase", "h hunter: stunned 5":
  the turns it will not act), "footsteps behind you!" when a robot that was
  out of sight starts chasing (turns to `alert` or `chase`), the last turn's events,
  the legend when there is room, and a key hint. Winning, capture and running
  out of time end in a box with the score (turns, shards collected, undos
  used) and how to go on.

Keys, playing (`play`): arrows or WASD move, space waits, E releases an EMP,
U or Backspace undoes (on the capture screen too, while undos are left), V
toggles the algorithm view, R restarts and Q quits (each asks first while
the game is on: Y confirms, any other key goes back), ? shows the rules and
the keys in a page (any key turns it; the last page closes). Watching a
replay (`watch`): Left / Right step one turn, Home / End jump to the first /
last, space plays and pauses, + and - change the speed, V, ? and Q as above
(Q without asking).

The idea: one renderer over records. Everything drawn comes from a turn's
record (`twinsolve.robots.play.record`: the player, shards, robots with
their plans, doors, sight, events, outcome), the level's static map (and its
doors' timers) and the cells remembered so far (the union of what was seen
up to the shown turn). A `Timeline` holds the records (the start record
first); the live game appends one per turn it plays, the replay viewer the
file's (after the start record the engine makes from the replay's level and
seed); both build a `Frame` (which record, which view, which text) and call
`draw`. The game's tick after a turn is not in its record (an undo goes
back), so the timeline keeps it, replaying undos as a stack.

`play(path, seed, record)` plays a level; with `--record FILE` every attempt
of the session (a restart begins a new one) is written when the player
leaves, one replay each: the first to FILE, the next to FILE-2, FILE-3, ...
(before the suffix); an attempt without a turn is left out unless none has
one. `watch(replay, source)` shows a replay read by
`twinsolve.robots.replay.read`, which has checked the whole file against the
replay schema and its level (a damaged one is an `InstanceError` naming the
file, the turn and the field, never a traceback), so every record has what
the screen draws. Ctrl-C interrupts either at once (the CLI's
"interrupted", no replay written).

The smallest terminal (`minimum_size`) is the HUD's 31 columns and 15 rows
(six status lines, a robots heading and four robots, the events line, the
key hint, two blank lines) beside a `|` and a map window of 17x17, the
sight of the shipped levels' keenest player (vision 8: eight cells each way
and their own), or the whole level when it is smaller (and never narrower
than the 36-column boxes): 48x15 for level 1, 49x16 for level 2, 49x17
for the others, so 80x24 plays every shipped level. Smaller, the screen
says so until it is enlarged; a level larger than the window scrolls.
"""

from __future__ import annotations

import curses
import enum
import locale
import os
import sys
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from ..core.errors import UsageError
from ..core.instance_file import read_text
from . import play as headless
from . import replay as replays
from .game import EMP_RADIUS, EMP_TURNS, UNDOS, Outcome
from .level import Door, Item, Level, RobotKind, Tile

__all__ = ["play", "watch", "replay_timeline", "draw", "Frame", "Timeline", "Board", "Palette",
           "Role", "Glyph", "minimum_size", "door_countdown", "catcher", "footsteps_cue",
           "help_pages", "replay_names", "PANEL_WIDTH", "HUD_ROWS", "SIGHT_WINDOW",
           "BOX_COLUMNS", "SPEEDS", "FOOTSTEPS_CUE", "GOLD", "CYAN", "PINK"]

PANEL_WIDTH = 31   # the HUD's columns: one margin and 30 for text
HUD_ROWS = 15      # its essential lines (module docstring)
SIGHT_WINDOW = 17  # the shipped levels' widest sight: vision 8 each way and the player's cell
BOX_COLUMNS = 36   # the end and question boxes: 32 columns of text, a margin and a frame each
#                    side (the rules page wraps its text to the screen)
SPEEDS = (1, 2, 4, 8, 16, 32)  # replay speeds, turns per second
DEFAULT_SPEED = 2  # index into SPEEDS: 4 turns a second

PLAYER = "@"
ROBOT_GLYPHS = {kind.name.lower(): kind.value for kind in RobotKind}  # S H I C
SHARD, PICKUP, SKILL = Item.SHARD.value, Item.EMP.value, Item.SKILL.value  # * e k
EXIT_OPEN, EXIT_SHUT = ">", "X"  # not E: that is the EMP key
DOOR_SHUT, DOOR_OPEN = "+", "/"
WALL, FLOOR, COVER, ALARM, RINGING = "#", ".", '"', "^", "!"
PATH, VISITED, TARGET = "o", ":", "T"
SEPARATOR = "|"
FOOTSTEPS_CUE = "footsteps behind you!"
_CHASING = ("alert", "chase")  # the states of a robot coming for the player


class Role(enum.Enum):
    """What a character on screen is, for its colour and attributes."""

    WALL = "wall"
    FLOOR = "floor"
    COVER = "cover"
    ALARM = "alarm"
    RINGING = "ringing"
    DOOR = "door"
    EXIT_SHUT = "exit shut"
    EXIT_OPEN = "exit open"
    SHARD = "shard"
    PICKUP = "pickup"
    SKILL = "skill"
    PLAYER = "player"
    ROBOT = "robot"
    STUNNED = "stunned"
    PATH = "path"
    VISITED = "visited"
    TARGET = "target"
    CAUGHT = "caught"  # the robot that caught the player, drawn on their cell
    TEXT = "text"
    TITLE = "title"
    GOOD = "good"
    WARNING = "warning"


class Glyph(NamedTuple):
    """A map cell's character and what it is; `kind` names the robot (its colour) of a
    robot's own mark: its letter, path, visited cells and target."""

    char: str
    role: Role
    kind: str | None = None
    reverse: bool = False  # a closed door's countdown


_TERRAIN = {Tile.WALL: Glyph(WALL, Role.WALL), Tile.FLOOR: Glyph(FLOOR, Role.FLOOR),
            Tile.COVER: Glyph(COVER, Role.COVER), Tile.ALARM: Glyph(ALARM, Role.ALARM),
            Tile.DOOR: Glyph(DOOR_SHUT, Role.DOOR)}
_BLOCKERS = (Tile.WALL, Tile.DOOR)  # seen when they border a cell in sight

Cell = tuple[int, int]
T = TypeVar("T")


# -- the static map ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Board:
    """The level's static map: its terrain, name and number of shards."""

    level: Level
    name: str
    shards: int

    @classmethod
    def of(cls, level: Level, fallback_name: str) -> Board:
        name = dict(level.meta).get("name") or fallback_name
        return cls(level, _printable(name), len(level.cells_with(Item.SHARD)))

    def terrain(self, cell: Cell) -> Glyph:
        return _TERRAIN[self.level.tile(cell)]

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.level.rows and 0 <= cell[1] < self.level.cols

    def in_view(self, sight: Iterable[Cell]) -> set[Cell]:
        """The cells in sight and the walls and doors bordering them (what stops the eye is
        seen too, though sight lines hold only the open cells)."""
        seen = set(sight)
        borders = set()
        for r, c in seen:
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    near = (r + dr, c + dc)
                    if self.inside(near) and self.level.tile(near) in _BLOCKERS:
                        borders.add(near)
        return seen | borders


def door_countdown(door: Door, tick: int) -> int | None:
    """The turns from `tick` until `door` changes (opens or closes); None when it never
    does.

    >>> door = Door((0, 0), period=8, open=5, phase=0)   # open on ticks 0-4, 8-12, ...
    >>> door_countdown(door, 0), door_countdown(door, 4), door_countdown(door, 5)
    (5, 1, 3)
    """
    now = door.is_open(tick)
    return next((k for k in range(1, door.period + 1) if door.is_open(tick + k) != now), None)


def minimum_size(level: Level) -> tuple[int, int]:
    """(columns, rows) the screen needs for `level` (module docstring)."""
    columns = max(PANEL_WIDTH + 1 + min(level.cols, SIGHT_WINDOW), BOX_COLUMNS)
    rows = max(HUD_ROWS, min(level.rows, SIGHT_WINDOW))
    return columns, rows


# -- the records shown -------------------------------------------------------------------------

class Timeline:
    """The records shown in order (the start record first), the game's tick after each,
    and the turn each cell was first seen on (so what is remembered at any turn is cheap)."""

    def __init__(self, board: Board, start: dict[str, Any]) -> None:
        self.board = board
        self.records: list[dict[str, Any]] = []
        self.ticks: list[int] = []
        self._clock: list[int] = []  # the tick after each turn still in force: an undo pops one
        self._first_seen: dict[Cell, int] = {}
        self.append(start)

    @property
    def last(self) -> int:
        return len(self.records) - 1

    def append(self, record: dict[str, Any]) -> None:
        action = record["action"]
        if not self.records:
            self._clock = [record["tick"]]
        elif action == "Z":
            if "undo" in record["events"] and len(self._clock) > 1:
                self._clock.pop()
        else:
            self._clock.append(record["tick"] + 1)
        index = len(self.records)
        self.records.append(record)
        self.ticks.append(self._clock[-1])
        for cell in self.board.in_view(_cells(record["sight"])):
            self._first_seen.setdefault(cell, index)

    def remembered(self, index: int) -> set[Cell]:
        """The cells seen on turns 0..index."""
        return {cell for cell, first in self._first_seen.items() if first <= index}

    def turns(self) -> list[dict[str, Any]]:
        """The turn records (the start record left out): what a replay holds."""
        return self.records[1:]


def _cells(pairs: Iterable[list[int]]) -> list[Cell]:
    return [(pair[0], pair[1]) for pair in pairs]


@dataclass(frozen=True)
class Frame:
    """One screen: which record of the timeline, in which view, with which text.

    `banner` is the replay's line (None in the live game), `hint` the key hint under the
    HUD, `carry_on` how to go on after the end (a function of the end's record), `help` the
    rules page's text and which page is open (None: closed), `program` the command named
    by the too-small message, and `question` a yes/no question waiting for its key.
    """

    timeline: Timeline
    index: int
    plans: bool
    banner: str | None
    hint: str
    carry_on: Callable[[dict[str, Any]], str]
    help: tuple[tuple[str, ...], int] | None
    program: str
    question: str | None = None

    @property
    def board(self) -> Board:
        return self.timeline.board

    @property
    def record(self) -> dict[str, Any]:
        return self.timeline.records[self.index]

    @property
    def tick(self) -> int:
        return self.timeline.ticks[self.index]

    @property
    def before(self) -> dict[str, Any] | None:
        """The record shown before this one (None at the start)."""
        return self.timeline.records[self.index - 1] if self.index else None


# -- colours -------------------------------------------------------------------------------------

# A robot kind's colour: (one of curses' eight, a 256-colour terminal's nearer shade), the
# replay page's colours (`picture.ROBOT_COLOURS`) as near as a terminal has them.
_KIND_COLOURS = {"sentinel": (curses.COLOR_RED, 160), "hunter": (curses.COLOR_YELLOW, 208),
                 "interceptor": (curses.COLOR_MAGENTA, 129), "scout": (curses.COLOR_CYAN, 30)}
GOLD, CYAN, PINK = 220, 44, 162  # the items' shades: shards, EMP pickups, the skill point
# What a robot's own marks add to its colour.
_KIND_EXTRA = {Role.ROBOT: curses.A_BOLD, Role.PATH: curses.A_BOLD, Role.VISITED: 0,
               Role.TARGET: curses.A_REVERSE | curses.A_BOLD}


class Palette:
    """The curses attribute of each role (and of each robot kind's marks, where the
    terminal has colours), and how remembered cells look."""

    def __init__(self, attrs: dict[Role, int], memory: int, blank_memory_floor: bool,
                 kinds: dict[str, int] | None = None) -> None:
        self.attrs = attrs
        self.memory = memory
        self.blank_memory_floor = blank_memory_floor
        self.kinds = kinds or {}

    def __call__(self, role: Role, kind: str | None = None) -> int:
        if kind in self.kinds and role in _KIND_EXTRA:
            return self.kinds[kind] | _KIND_EXTRA[role]
        return self.attrs.get(role, curses.A_NORMAL)

    @classmethod
    def for_terminal(cls) -> Palette:
        """Colours when the terminal has them (and enough pairs), plain attributes else."""
        if curses.has_colors():
            try:
                return cls._coloured()
            except curses.error:
                pass  # too few colour pairs, or none to set: fall back to plain
        return cls.plain()

    @classmethod
    def plain(cls) -> Palette:
        attrs = {Role.PLAYER: curses.A_BOLD, Role.ROBOT: curses.A_BOLD,
                 Role.SHARD: curses.A_BOLD, Role.EXIT_OPEN: curses.A_BOLD,
                 Role.RINGING: curses.A_REVERSE, Role.TARGET: curses.A_REVERSE,
                 Role.CAUGHT: curses.A_BOLD | curses.A_REVERSE,
                 Role.TITLE: curses.A_BOLD, Role.GOOD: curses.A_BOLD,
                 Role.WARNING: curses.A_BOLD | curses.A_REVERSE}
        can_dim = bool(_termattrs() & curses.A_DIM)
        return cls(attrs, curses.A_DIM if can_dim else curses.A_NORMAL, not can_dim)

    @classmethod
    def _coloured(cls) -> Palette:
        curses.start_color()
        try:
            curses.use_default_colors()
            background = -1
        except curses.error:
            background = curses.COLOR_BLACK
        grey = 8 if curses.COLORS >= 16 else curses.COLOR_BLUE
        scheme = {
            Role.WALL: (curses.COLOR_WHITE, 0), Role.FLOOR: (curses.COLOR_WHITE, 0),
            Role.COVER: (curses.COLOR_GREEN, 0), Role.ALARM: (curses.COLOR_RED, 0),
            Role.DOOR: (curses.COLOR_BLUE, curses.A_BOLD),
            Role.EXIT_SHUT: (curses.COLOR_RED, curses.A_BOLD),
            Role.EXIT_OPEN: (curses.COLOR_GREEN, curses.A_BOLD),
            # The design's colours: gold data shards, a cyan EMP pickup, the skill point apart
            # (pink), in a 256-colour terminal's shades where it has them.
            Role.SHARD: (_shade(curses.COLOR_YELLOW, GOLD), curses.A_BOLD),
            Role.PICKUP: (_shade(curses.COLOR_CYAN, CYAN), curses.A_BOLD),
            Role.SKILL: (_shade(curses.COLOR_MAGENTA, PINK), curses.A_BOLD),
            Role.PLAYER: (curses.COLOR_WHITE, curses.A_BOLD),
            Role.ROBOT: (curses.COLOR_RED, curses.A_BOLD), Role.STUNNED: (curses.COLOR_BLUE, 0),
            Role.PATH: (curses.COLOR_MAGENTA, curses.A_BOLD), Role.VISITED: (curses.COLOR_BLUE, 0),
            Role.TARGET: (curses.COLOR_MAGENTA, curses.A_REVERSE | curses.A_BOLD),
            Role.CAUGHT: (curses.COLOR_RED, curses.A_REVERSE | curses.A_BOLD),
            Role.TITLE: (curses.COLOR_WHITE, curses.A_BOLD),
            Role.GOOD: (curses.COLOR_GREEN, curses.A_BOLD),
            Role.WARNING: (curses.COLOR_RED, curses.A_BOLD),
        }
        attrs = {}
        for number, (role, (colour, extra)) in enumerate(scheme.items(), start=1):
            curses.init_pair(number, colour, background)
            attrs[role] = curses.color_pair(number) | extra
        number = len(scheme) + 1
        curses.init_pair(number, curses.COLOR_RED, curses.COLOR_WHITE)
        attrs[Role.RINGING] = curses.color_pair(number) | curses.A_REVERSE
        curses.init_pair(number + 1, grey, background)
        memory = curses.color_pair(number + 1)
        kinds = {}
        for offset, (kind, (eight, shade)) in enumerate(_KIND_COLOURS.items(), start=2):
            curses.init_pair(number + offset, _shade(eight, shade), background)
            kinds[kind] = curses.color_pair(number + offset)
        return cls(attrs, memory, False, kinds)


def _shade(eight: int, shade: int) -> int:
    """A 256-colour terminal's `shade`, else the nearest of curses' eight colours."""
    return shade if curses.COLORS >= 256 else eight


def _termattrs() -> int:
    try:
        return curses.termattrs()
    except curses.error:
        return 0


# -- drawing -------------------------------------------------------------------------------------

def draw(screen: Any, palette: Palette, frame: Frame) -> bool:
    """Draw `frame` on the curses window `screen`; False when the window is too small (the
    screen then says so instead)."""
    height, width = screen.getmaxyx()
    screen.erase()
    need_columns, need_rows = minimum_size(frame.board.level)
    if width < need_columns or height < need_rows:
        _too_small(screen, palette, width, height, need_columns, need_rows, frame)
        screen.refresh()
        return False
    if frame.help is not None:
        _draw_help(screen, palette, frame.help, width, height)
        screen.refresh()
        return True
    map_columns = width - PANEL_WIDTH - 1
    _draw_map(screen, palette, frame, height, map_columns)
    for y in range(height):
        _put(screen, y, map_columns, SEPARATOR, palette(Role.TEXT))
    _draw_panel(screen, palette, frame, map_columns + 1, height)
    if frame.question is not None:
        _draw_box(screen, palette, [(frame.question, Role.TITLE),
                                    ("Y yes   any other key: no", Role.TEXT)], width, height)
    elif frame.record["outcome"] != Outcome.PLAYING.value:
        _draw_box(screen, palette, _ending_lines(frame), width, height)
    screen.refresh()
    return True


def _too_small(screen: Any, palette: Palette, width: int, height: int, need_columns: int,
               need_rows: int, frame: Frame) -> None:
    message = (f"terminal {width}x{height} is too small: {frame.program} needs at least "
               f"{need_columns}x{need_rows} -- enlarge it or press Q")
    if frame.question is not None:
        message = f"{frame.question} Y yes, any other key: no"
    for y, line in enumerate(textwrap.wrap(message, max(width - 1, 1))[:height]):
        _put(screen, y, 0, line, palette(Role.WARNING))


def _put(screen: Any, y: int, x: int, text: str, attr: int) -> None:
    """Write `text` at (y, x), cut at the window's edge; never fails on the last cell."""
    height, width = screen.getmaxyx()
    if not (0 <= y < height and 0 <= x < width) or not text:
        return
    try:
        # The bottom-right cell raises after it is written (the cursor cannot move on).
        screen.addnstr(y, x, text, width - x, attr)
    except curses.error:
        pass


@dataclass(frozen=True)
class Viewport:
    """The part of the level the map window shows: rows top.., columns left.."""

    top: int
    left: int
    rows: int
    cols: int


def viewport(level: Level, player: Cell, rows: int, cols: int) -> Viewport:
    """The window of `rows` x `cols` cells centred on the player, kept inside the level."""
    rows, cols = min(rows, level.rows), min(cols, level.cols)
    top = min(max(player[0] - rows // 2, 0), level.rows - rows)
    left = min(max(player[1] - cols // 2, 0), level.cols - cols)
    return Viewport(top, left, rows, cols)


@dataclass(frozen=True)
class Layers:
    """What stands on the cells beyond their terrain, in three layers: `still` (doors, the
    exit, alarms ringing, shards and pickups: remembered where seen once), `moving` (the
    skill point, robots, the player: drawn only in sight) and `marks` (the robots' plans,
    under both), with the robots' `targets` (cell -> the robot kind aiming there)."""

    still: dict[Cell, Glyph]
    moving: dict[Cell, Glyph]
    marks: dict[Cell, Glyph]
    targets: dict[Cell, str]


def _door_glyph(door: Door | None, record_door: dict[str, Any], tick: int) -> Glyph:
    """A door as drawn: its countdown (1-9 turns until it changes, reverse video while
    closed), else its open or closed sign."""
    opened = record_door["open"]
    left = door_countdown(door, tick) if door is not None else None
    if left is not None and left <= 9:
        return Glyph(str(left), Role.DOOR, reverse=not opened)
    return Glyph(DOOR_OPEN if opened else DOOR_SHUT, Role.DOOR)


def catcher(record: dict[str, Any], before: dict[str, Any] | None) -> dict[str, Any] | None:
    """The robot that caught the player in `record` (None when nobody did): the one on their
    cell, or the one that swapped cells with them (now on their cell of `before`)."""
    if record["outcome"] != Outcome.CAPTURED.value:
        return None
    cells = [record["player"]] + ([before["player"]] if before is not None else [])
    return next((robot for cell in cells for robot in record["robots"]
                 if robot["cell"] == cell and not robot["stunned"]), None)


def layers(board: Board, record: dict[str, Any], plans: bool, tick: int = 0,
           before: dict[str, Any] | None = None) -> Layers:
    """What stands where in `record` (`Layers`), shown on `tick` (the doors' countdowns);
    the robots' plans only when `plans`; `before`, the record shown before it, says who
    swapped cells with a captured player."""
    doors = {door.cell: door for door in board.level.doors}
    still: dict[Cell, Glyph] = {}
    for door in record["doors"]:
        cell = (door["cell"][0], door["cell"][1])
        still[cell] = _door_glyph(doors.get(cell), door, tick)
    still[board.level.exit] = Glyph(EXIT_OPEN, Role.EXIT_OPEN) if record["exit_open"] else \
        Glyph(EXIT_SHUT, Role.EXIT_SHUT)
    still.update((cell, Glyph(RINGING, Role.RINGING)) for cell in _cells(record["alarms"]))
    still.update((cell, Glyph(PICKUP, Role.PICKUP)) for cell in _cells(record["pickups"]))
    still.update((cell, Glyph(SHARD, Role.SHARD)) for cell in _cells(record["shards"]))
    moving: dict[Cell, Glyph] = {}
    if record["skill"] is not None:
        moving[tuple(record["skill"])] = Glyph(SKILL, Role.SKILL)
    marks: dict[Cell, Glyph] = {}
    targets: dict[Cell, str] = {}
    for robot in record["robots"]:
        glyph, kind = ROBOT_GLYPHS[robot["kind"]], robot["kind"]
        moving[tuple(robot["cell"])] = Glyph(glyph.lower(), Role.STUNNED) if robot["stunned"] \
            else Glyph(glyph, Role.ROBOT, kind)
        if plans:
            marks.update((cell, Glyph(VISITED, Role.VISITED, kind))
                         for cell in _cells(robot["visited"]))
    if plans:  # every path over every search, every target over every path
        for robot in record["robots"]:
            marks.update((cell, Glyph(PATH, Role.PATH, robot["kind"]))
                         for cell in _cells(robot["path"]))
        for robot in record["robots"]:
            if robot["target"] is not None:
                target = (robot["target"][0], robot["target"][1])
                marks[target] = Glyph(TARGET, Role.TARGET, robot["kind"])
                targets[target] = robot["kind"]
    player = tuple(record["player"])
    caught = catcher(record, before)
    if caught is not None and tuple(caught["cell"]) == player:
        moving[player] = Glyph(ROBOT_GLYPHS[caught["kind"]], Role.CAUGHT)  # not under the @
    else:
        moving[player] = Glyph(PLAYER, Role.PLAYER)
    return Layers(still, moving, marks, targets)


def _draw_map(screen: Any, palette: Palette, frame: Frame, height: int, width: int) -> None:
    board, record = frame.board, frame.record
    window = viewport(board.level, (record["player"][0], record["player"][1]), height, width)
    seen = board.in_view(_cells(record["sight"]))
    remembered = frame.timeline.remembered(frame.index)
    on_top = layers(board, record, frame.plans, frame.tick, frame.before)
    for y in range(window.rows):
        for x in range(window.cols):
            cell = (window.top + y, window.left + x)
            shown = _cell_look(board, palette, on_top, cell, frame.plans or cell in seen,
                               cell in remembered)
            if shown is not None:
                _put(screen, y, x, shown[0], shown[1])


def _cell_look(board: Board, palette: Palette, on_top: Layers, cell: Cell, in_sight: bool,
               remembered: bool) -> tuple[str, int] | None:
    """The character and attribute of one map cell; None for a cell never seen."""
    if in_sight:
        glyph = on_top.moving.get(cell) or on_top.still.get(cell) or \
            on_top.marks.get(cell) or board.terrain(cell)
        attr = palette(glyph.role, glyph.kind)
        if glyph.reverse:
            attr |= curses.A_REVERSE
        if cell in on_top.targets:
            attr |= curses.A_REVERSE  # the target is ringed whatever stands on it
        return glyph.char, attr
    if not remembered:
        return None
    glyph = on_top.still.get(cell) or board.terrain(cell)
    if glyph.role is Role.FLOOR and palette.blank_memory_floor:
        return None
    return glyph.char, palette.memory | (curses.A_REVERSE if glyph.reverse else 0)


def _draw_panel(screen: Any, palette: Palette, frame: Frame, left: int, height: int) -> None:
    for y, (text, role) in enumerate(panel_lines(frame, height)):
        _put(screen, y, left + 1, text[:PANEL_WIDTH - 1], palette(role))


def panel_lines(frame: Frame, height: int) -> list[tuple[str, Role]]:
    """The HUD's lines for a panel `height` rows tall: the status, the robots (cut to fit,
    with how many more), the footsteps cue, the events, the legend when there is room, the
    key hint last."""
    top = _status_lines(frame)
    cue = [(FOOTSTEPS_CUE, Role.WARNING)] if footsteps_cue(frame) else []
    events = [*cue, _events_line(frame.record)]
    hint = [(frame.hint, Role.TEXT)]
    room = height - len(top) - len(events) - len(hint) - 2  # two blank separators
    lines = [*top, ("", Role.TEXT), *_robot_lines(frame.record, room), *events]
    legend = _legend_lines()
    if len(lines) + 1 + len(legend) + 1 + len(hint) <= height:
        lines += [("", Role.TEXT), *legend]
    lines += [("", Role.TEXT)] * (height - len(lines) - len(hint))
    return lines + hint


def footsteps_cue(frame: Frame) -> bool:
    """Whether a robot the player could not see started coming for them this turn (its
    state turned to alert or chase, from out of their sight before the turn): the cue a
    person hears as footsteps."""
    before = frame.before
    if before is None or frame.record["action"] == "Z":
        return False
    seen = frame.board.in_view(_cells(before["sight"]))
    return any(robot["state"] in _CHASING and earlier["state"] not in _CHASING
               and tuple(earlier["cell"]) not in seen
               for robot, earlier in zip(frame.record["robots"], before["robots"], strict=True))


def _status_lines(frame: Frame) -> list[tuple[str, Role]]:
    record, board = frame.record, frame.board
    limit = board.level.turns
    lines = [(board.name, Role.TITLE)]
    if frame.banner is not None:
        lines.append((frame.banner, Role.TITLE))
    lines += [
        (f"turn {frame.tick} of {limit} ({max(limit - frame.tick, 0)} left)", Role.TEXT),
        (f"shards left {record['shards_left']} of {board.shards}", Role.TEXT),
        (f"EMP {record['emp']}   undos left {record['undos_left']}", Role.TEXT),
        (f"skill: {_skill_text(record)}", Role.TEXT),
    ]
    return lines


def _skill_text(record: dict[str, Any]) -> str:
    active = []
    if record["shield"]:
        active.append(f"shield {record['shield']}")
    if record["silence"]:
        active.append(f"silence {record['silence']} turns")
    return ", ".join(active) or "none"


def _robot_lines(record: dict[str, Any], room: int) -> list[tuple[str, Role]]:
    """The robots heading and a line per robot, at most `room` lines in all."""
    lines = []
    for robot in record["robots"]:
        glyph = ROBOT_GLYPHS[robot["kind"]]
        text = f"{glyph} {robot['kind']}: {_printable(robot['intent'])}"
        if robot["stunned"]:
            text = f"{glyph.lower()} {robot['kind']}: stunned {robot['stunned']}"
        lines.append((text, Role.STUNNED if robot["stunned"] else Role.TEXT))
    if not lines:
        return [("no robots", Role.TEXT)]
    if len(lines) + 1 > room:
        keep = max(room - 2, 0)
        lines = lines[:keep] + [(f"... and {len(lines) - keep} more", Role.TEXT)]
    return [("robots", Role.TITLE), *lines]


def _events_line(record: dict[str, Any]) -> tuple[str, Role]:
    events = ", ".join(_printable(event) for event in record["events"]) or "none"
    return f"events: {events}", Role.TEXT


def _legend_lines() -> list[tuple[str, Role]]:
    return [(text, Role.TEXT) for text in (
        f"{PLAYER} you   {' '.join(ROBOT_GLYPHS.values())} robots",
        f"{' '.join(ROBOT_GLYPHS.values()).lower()} robots stunned",
        f"{SHARD} shard   {PICKUP} EMP   {SKILL} skill",
        f"{EXIT_OPEN} exit    {EXIT_SHUT} exit (locked)",
        f"{DOOR_SHUT} door    {DOOR_OPEN} door (open)",
        "3 door: changes in 3 turns",
        f"{COVER} cover   {ALARM} alarm   {RINGING} ringing",
        f"{PATH} path  {VISITED} searched  {TARGET} target",
    )]


def _ending_lines(frame: Frame) -> list[tuple[str, Role]]:
    """The end box: what happened, the score, how to go on."""
    record, board = frame.record, frame.board
    outcome = Outcome(record["outcome"])
    caught = catcher(record, frame.before)
    title, why, role = {
        Outcome.WON: ("YOU ESCAPED", "every shard taken, out the exit", Role.GOOD),
        Outcome.CAPTURED: ("CAPTURED", f"the {caught['kind'] if caught else 'robot'} "
                                       "caught you", Role.WARNING),
        Outcome.TIMEOUT: ("OUT OF TIME", f"the {board.level.turns} turns ran out", Role.WARNING),
    }[outcome]
    collected = board.shards - record["shards_left"]
    return [(title, role), (why, Role.TEXT), ("", Role.TEXT),
            (f"turns {frame.tick}", Role.TEXT),
            (f"shards collected {collected} of {board.shards}", Role.TEXT),
            (f"undos used {UNDOS - record['undos_left']} of {UNDOS}", Role.TEXT),
            ("", Role.TEXT), (frame.carry_on(record), Role.TITLE)]


def _draw_box(screen: Any, palette: Palette, lines: list[tuple[str, Role]], width: int,
              height: int) -> None:
    """A framed box in the middle of the screen; lines that do not fit are left off the end
    (the callers put what matters first)."""
    lines = lines[:max(height - 2, 0)]
    inner = min(max(len(text) for text, _ in lines) + 2, width - 2)
    top, left = max((height - len(lines) - 2) // 2, 0), max((width - inner - 2) // 2, 0)
    border = palette(Role.TITLE)
    _put(screen, top, left, "+" + "-" * inner + "+", border)
    for y, (text, role) in enumerate(lines, start=top + 1):
        _put(screen, y, left, "|" + " " * inner + "|", border)
        _put(screen, y, left + 2, text[:inner - 2], palette(role))
    _put(screen, top + len(lines) + 1, left, "+" + "-" * inner + "+", border)


# -- the rules page ------------------------------------------------------------------------------

def _rules(level: Level) -> tuple[str, ...]:
    """The rules, a paragraph a line (an empty line: a gap), as the player needs them."""
    return (
        "THE RULES",
        f"Take every data shard {SHARD}, then leave by the exit: {EXIT_SHUT} while locked, "
        f"{EXIT_OPEN} once the last shard is taken. You have {level.turns} turns.",
        "You see along rows and columns; the rest is fog, and what you saw before stays "
        "drawn, dimmed.",
        f"A robot sees you only in its own row or column with nothing between (half as far "
        f"while you stand on cover {COVER}), and hears your footsteps through corridors: less "
        f"on cover, more on an alarm {ALARM}, which rings {RINGING}. A robot that steps onto "
        "you, or swaps cells with you, catches you.",
        "S sentinel: guards a chokepoint and never chases, but walk into it and you are "
        "caught. H hunter: chases you. I interceptor: cuts you off ahead. C scout: sweeps "
        "where it lost you. Lower case: stunned.",
        f"EMP: pick up {PICKUP}, press E: every robot within {EMP_RADIUS} steps is stunned "
        f"for that turn and {EMP_TURNS} more.",
        f"Doors {DOOR_SHUT} {DOOR_OPEN} open and close on a timer; a digit on a door counts "
        "the turns until it changes (reverse video: closed now).",
        f"The skill point {SKILL} wanders: catch it for a shield, silence or an EMP charge.",
        f"{UNDOS} undos a game, on the capture screen too.",
    )


_PLAY_KEYS = (
    "KEYS",
    "arrows, WASD   move",
    "space          wait a turn",
    "E              release an EMP",
    f"U, Backspace   undo ({UNDOS} a game)",
    "V              algorithm view",
    "R              restart (asks first)",
    "Q              quit (asks first)",
    "?              this page",
)


def help_pages(text: Iterable[str], width: int, height: int) -> list[list[str]]:
    """`text` (a paragraph a line; a line in capitals heads a block) wrapped to a box on a
    `width` x `height` screen, in pages whose last line says how to go on; a block starts a
    new page when it does not fit on the one begun."""
    inner, room = max(width - 6, 10), max(height - 3, 1)  # the frame and the footer
    blocks: list[list[str]] = []
    for paragraph in text:
        if paragraph.isupper() or not blocks:
            blocks.append([])
        if "   " in paragraph:
            blocks[-1].append(paragraph[:inner])  # a row of a key table: kept as it is
        else:
            blocks[-1] += textwrap.wrap(paragraph, inner) or [""]
    pages: list[list[str]] = [[]]
    for block in blocks:
        if pages[-1] and len(pages[-1]) + 1 + len(block) > room:
            pages.append([])
        if pages[-1]:
            pages[-1].append("")
        for line in block:  # a block longer than a page goes on over several
            if len(pages[-1]) == room:
                pages.append([])
            pages[-1].append(line)
    for number, page in enumerate(pages, start=1):
        more = number < len(pages)
        page.append(f"page {number} of {len(pages)}: any key "
                    f"{'turns the page' if more else 'closes this'}")
    return pages


def _draw_help(screen: Any, palette: Palette, help_: tuple[tuple[str, ...], int], width: int,
               height: int) -> None:
    text, page = help_
    pages = help_pages(text, width, height)
    lines = pages[min(page, len(pages) - 1)]
    _draw_box(screen, palette, [(line, Role.TITLE if line.isupper() else Role.TEXT)
                                for line in lines], width, height)


def _printable(text: str) -> str:
    """Text from a file, safe to draw: control characters become '?'."""
    return "".join(char if char.isprintable() else "?" for char in str(text))


# -- the live game -------------------------------------------------------------------------------

_MOVE_KEYS = {curses.KEY_RIGHT: "R", curses.KEY_DOWN: "D", curses.KEY_LEFT: "L",
              curses.KEY_UP: "U", curses.KEY_BACKSPACE: "Z", 127: "Z", 8: "Z"}
_MOVE_LETTERS = {"d": "R", "s": "D", "a": "L", "w": "U", " ": "W", "e": "X", "u": "Z"}
_PLAY_HINT = "? help V view R restart Q quit"
_QUESTIONS = {"q": "Quit this game?", "r": "Restart from turn 0?"}


def _play_carry_on(record: dict[str, Any]) -> str:
    """How to go on from the end of a game: an undo after a capture, while undos are left."""
    if record["outcome"] == Outcome.CAPTURED.value and record["undos_left"]:
        return "U undo   R restart   Q quit"
    return "R restart   Q quit"


def _letter(key: int) -> str | None:
    """The key as a lower-case character, None for special keys."""
    return chr(key).lower() if 32 <= key < 127 else None


def _action(key: int) -> str | None:
    """The game action a key stands for (one of `ACTIONS`), or None."""
    return _MOVE_KEYS.get(key) or _MOVE_LETTERS.get(_letter(key) or "")


class Attempt:
    """One live game from its start (a restart begins a new one): the game, its timeline."""

    def __init__(self, board: Board, seed: int) -> None:
        self.game = headless.new_game(board.level, seed)
        self.timeline = Timeline(board, headless.start_record(self.game))

    @property
    def over(self) -> bool:
        return self.game.state.outcome is not Outcome.PLAYING

    def act(self, action: str) -> None:
        if not self.game.accepts(action):
            return  # the game is over: an undo after a capture, restart and quit remain
        tick = self.game.state.tick
        events = self.game.play(action)
        self.timeline.append(headless.record(self.game, tick, action, events))


def replay_names(record: str, count: int) -> list[str]:
    """The files `--record FILE` writes for `count` attempts: FILE, then FILE-2, FILE-3, ...
    (the number before the suffix).

    >>> replay_names("runs/game.json", 3)
    ['runs/game.json', 'runs/game-2.json', 'runs/game-3.json']
    """
    path = Path(record)
    return [record] + [str(path.with_name(f"{path.stem}-{n}{path.suffix}"))
                       for n in range(2, count + 1)]


def play(path: Path, seed: int, record: str | None = None) -> int:
    """Play the level in the file at `path` with `seed` full screen; with `record`, write
    the replay of every attempt when the player leaves (module docstring). Returns 0."""
    level = headless.load(path)
    text = ""
    if record is not None:
        _check_writable(record)
        text = read_text(path, str(path))  # now: the replay holds the level that was played
    board = Board.of(level, Path(path).stem)
    attempts = _with_screen(lambda screen, palette: _play_loop(screen, palette, board, seed))
    if record is not None:
        kept = [attempt for attempt in attempts if attempt.timeline.turns()] or attempts[-1:]
        for name, attempt in zip(replay_names(record, len(kept)), kept, strict=True):
            replays.write(name, replays.build(level, text, headless.source_of(Path(path)), seed,
                                              attempt.timeline.turns()))
            print(f"wrote {name}")
    return 0


def _check_writable(record: str) -> None:
    """Refuse a replay path that cannot be written before the game, not after it."""
    target = Path(record)
    if target.is_dir():
        raise UsageError(f"--record {record}: is a folder, not a file")
    folder = next((p for p in [target.parent, *target.parent.parents] if p.exists()), Path("."))
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise UsageError(f"--record {record}: cannot write into {folder}")


@dataclass
class _Playing:
    """Where the live game is: the attempts so far (the last is played), the view, the
    rules page's page (None: closed), the question waiting for Y (its key)."""

    attempts: list[Attempt]
    plans: bool = False
    page: int | None = None
    asking: str | None = None

    @property
    def attempt(self) -> Attempt:
        return self.attempts[-1]


def _play_loop(screen: Any, palette: Palette, board: Board, seed: int) -> list[Attempt]:
    at = _Playing([Attempt(board, seed)])
    rules = (*_rules(board.level), *_PLAY_KEYS)
    keys = _Keys(screen)
    while True:
        timeline = at.attempt.timeline
        frame = Frame(timeline, timeline.last, at.plans, None, _PLAY_HINT, _play_carry_on,
                      None if at.page is None else (rules, at.page), "twinsolve play",
                      None if at.asking is None else _QUESTIONS[at.asking])
        fits = draw(screen, palette, frame)
        key = keys.next()
        if key is None:
            return at.attempts
        if key in (-1, curses.KEY_RESIZE):
            continue
        if _play_key(at, key, fits, rules, screen, board, seed):
            return at.attempts


def _play_key(at: _Playing, key: int, fits: bool, rules: tuple[str, ...], screen: Any,
              board: Board, seed: int) -> bool:
    """Act on one key of the live game; True when the player leaves."""
    letter, action = _letter(key), _action(key)
    if at.page is not None:  # any key turns the rules page, Q too; the last one closes
        pages = len(help_pages(rules, *reversed(screen.getmaxyx())))
        at.page = at.page + 1 if at.page + 1 < pages else None
    elif at.asking is not None:
        asked, at.asking = at.asking, None
        if letter == "y" and asked == "q":
            return True
        if letter == "y":
            at.attempts.append(Attempt(board, seed))
    elif not fits and letter != "q":
        pass  # a screen too small to show the game takes only Q (its message asks)
    elif letter in _QUESTIONS:
        if not at.attempt.over:
            at.asking = letter  # a game still on asks first
        elif letter == "q":
            return True
        else:
            at.attempts.append(Attempt(board, seed))
    elif letter == "?":
        at.page = 0
    elif letter == "v":
        at.plans = not at.plans
    elif action is not None:
        at.attempt.act(action)
    return False


class _Keys:
    """The window's keys; None once the terminal's input is gone.

    A blocking read fails (-1) when a signal interrupts it, which is no reason to stop;
    many failures in a row with no key between mean the input was closed. Arrows and
    Home / End are decoded by curses from the terminal's description (ESC O C for Right
    once keypad mode is on); a terminal that ignores keypad mode sends ESC [ C instead,
    which `_escape` decodes.
    """

    GIVE_UP = 50
    SEQUENCES = {"A": curses.KEY_UP, "B": curses.KEY_DOWN, "C": curses.KEY_RIGHT,
                 "D": curses.KEY_LEFT, "H": curses.KEY_HOME, "F": curses.KEY_END}

    def __init__(self, screen: Any) -> None:
        self.screen = screen
        self.failures = 0

    def next(self, timeout_ms: int = -1) -> int | None:
        self.screen.timeout(timeout_ms)
        key = self.screen.getch()
        if key == 27:
            return self._escape()
        if key != -1 or timeout_ms >= 0:
            self.failures = 0
            return key
        self.failures += 1
        return None if self.failures >= self.GIVE_UP else -1

    def _escape(self) -> int:
        """The key of ESC [ X or ESC O X (the rest of the sequence is already waiting);
        Escape itself (27) otherwise."""
        self.failures = 0
        self.screen.timeout(25)
        if self.screen.getch() not in (ord("["), ord("O")):
            return 27
        final = self.screen.getch()
        return self.SEQUENCES.get(chr(final), 27) if 0 <= final < 128 else 27


# -- the replay viewer ---------------------------------------------------------------------------

_WATCH_KEYS = (
    "KEYS (REPLAY)",
    "Left / Right   a turn back / on",
    "Home / End     first / last turn",
    "space          play / pause",
    "+ / -          faster / slower",
    "V              algorithm view",
    "Q              quit",
    "?              this page",
)
_WATCH_HINT = "? help  space play  Q quit"


def _watch_carry_on(record: dict[str, Any]) -> str:
    return "Left / Home rewind   Q quit"


def watch(replay: dict[str, Any], source: str) -> int:
    """Show `replay` (as `twinsolve.robots.replay.read` returns it) full screen. Returns 0."""
    timeline = replay_timeline(replay, source)
    _with_screen(lambda screen, palette: _watch_loop(screen, palette, timeline))
    return 0


def replay_timeline(replay: dict[str, Any], source: str) -> Timeline:
    """What the viewer shows of `replay` (as `replay.read` returns it): the start record the
    engine makes from its level and seed, then every recorded turn."""
    level = replays.level_of(replay, source)
    board = Board.of(level, replay["level"]["name"] or Path(source).stem)
    timeline = Timeline(board, headless.start_record(headless.new_game(level, replay["seed"])))
    for record in replay["turns"]:
        timeline.append(record)
    return timeline


@dataclass
class _Watching:
    """Where the viewer is: the shown turn, playing or not, the speed, the view."""

    position: int = 0
    playing: bool = False
    speed: int = DEFAULT_SPEED
    plans: bool = False
    page: int | None = None  # the rules page's page (None: closed)

    def banner(self, last: int) -> str:
        state = "playing" if self.playing else "paused"
        return f"replay {self.position}/{last}, {state} {SPEEDS[self.speed]}/s"


def _watch_loop(screen: Any, palette: Palette, timeline: Timeline) -> None:
    at, last = _Watching(), timeline.last
    rules = (*_rules(timeline.board.level), *_WATCH_KEYS)
    keys = _Keys(screen)
    while True:
        frame = Frame(timeline, at.position, at.plans, at.banner(last), _WATCH_HINT,
                      _watch_carry_on, None if at.page is None else (rules, at.page),
                      "twinsolve play --replay")
        fits = draw(screen, palette, frame)
        # Playing, the wait for a key is the time between turns; paused, it is forever.
        key = keys.next(1000 // SPEEDS[at.speed] if at.playing else -1)
        if key is None:
            return
        if key == -1:
            if at.playing:  # no key within a turn's time: the next turn
                at.position = min(at.position + 1, last)
                at.playing = at.position < last
        elif key == curses.KEY_RESIZE:
            continue
        elif at.page is not None:  # any key turns the rules page, Q too; the last closes
            pages = len(help_pages(rules, *reversed(screen.getmaxyx())))
            at.page = at.page + 1 if at.page + 1 < pages else None
        elif _letter(key) == "q":
            return
        elif fits:
            _watch_key(at, key, last)


def _watch_key(at: _Watching, key: int, last: int) -> None:
    letter = _letter(key)
    if key in (curses.KEY_RIGHT, curses.KEY_LEFT, curses.KEY_HOME, curses.KEY_END):
        at.playing = False  # stepping by hand pauses
        at.position = {curses.KEY_RIGHT: min(at.position + 1, last),
                       curses.KEY_LEFT: max(at.position - 1, 0),
                       curses.KEY_HOME: 0, curses.KEY_END: last}[key]
    elif letter == " ":
        if at.position == last:
            at.position = 0  # playing from the end starts over
        at.playing = not at.playing and last > 0
    elif letter in ("+", "="):
        at.speed = min(at.speed + 1, len(SPEEDS) - 1)
    elif letter in ("-", "_"):
        at.speed = max(at.speed - 1, 0)
    elif letter == "v":
        at.plans = not at.plans
    elif letter == "?":
        at.page = 0


# -- the terminal --------------------------------------------------------------------------------

def _with_screen(run: Callable[[Any, Palette], T]) -> T:
    """Run `run(screen, palette)` full screen and give the terminal back as it was, however
    `run` ends; a terminal curses cannot drive is a `UsageError`."""
    try:
        locale.setlocale(locale.LC_ALL, "")  # so curses writes the terminal's encoding
    except locale.Error:
        pass  # an unknown locale in the environment: curses writes ASCII
    _check_terminal()
    try:
        screen = curses.initscr()
    except curses.error as exc:
        raise UsageError(f"cannot start the terminal game: {exc}") from None
    try:
        curses.noecho()
        curses.cbreak()
        screen.keypad(True)
        curses.set_escdelay(25)  # Escape sequences (arrows) arrive at once: no long wait
        try:
            curses.curs_set(0)
        except curses.error:
            pass  # a terminal that cannot hide the cursor shows it
        return run(screen, Palette.for_terminal())
    finally:
        screen.keypad(False)
        curses.nocbreak()
        curses.echo()
        curses.endwin()


def _check_terminal() -> None:
    """A terminal type curses knows and that can move the cursor; else a `UsageError`."""
    term = os.environ.get("TERM", "")
    try:
        curses.setupterm(term or "unknown", sys.__stdout__.fileno())
    except curses.error:
        raise UsageError(f"the terminal game does not know terminal type TERM={term!r} "
                         "(try TERM=xterm)") from None
    if not curses.tigetstr("cup"):
        raise UsageError(f"the terminal game needs a terminal that moves the cursor; "
                         f"TERM={term!r} cannot (try TERM=xterm)")
