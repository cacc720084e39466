"""A picture of a stealth-game level, or of one turn of a game, on the project's canvas.

What is drawn: the map (walls; floor with a faint grid; cover green; alarm cells
red, bright while sounding; doors closed, barred, or open, an outline; the exit
with its "E", grey while closed, green once open), the data shards (gold
diamonds), the EMP pickups (cyan discs marked "e"), the skill point (a pink
star, apart from both), the player (a blue disc; a ring round it while shielded, a red cross when
captured), the robots (a rounded box in its kind's colour with its letter: S
sentinel, H hunter, I interceptor, C scout; grey, edged in its colour, with a
badge counting the turns left while stunned), and under the map a legend line,
wrapped to the picture's width.

Without a record the level is shown as it starts: the robots at their homes, the
doors as on tick 0, the exit open only when the level has no shard. With a
record (one turn's dict from `twinsolve.robots.play.record` or `start_record`,
cells [row, col]) the state of that turn: where the player, the robots and the
items are, which doors are open and which alarm cells sound, each robot's
planned path as a thin line in its colour and its target ringed (dashed, with
crosshair ticks), and a status line (tick, action, shards left, EMP charges,
the exit, the outcome) under the legend.

With `routes` (`routes_of(level)`: what `twinsolve render LEVEL --solution`
draws, a level's answer being how its robots keep watch) the robots' patrol
routes over the level as it starts: each robot's walk on patrol while nobody
perceives the player (`ai.patrol_routes`: once round its beat and home, a
sentinel up to its post) as a broad translucent band in its colour, each step
drawn once, and a sentinel's post ringed.

Sizes: `CELL_MM` per cell, scaled down so that the whole picture fits the page
of `graphics.layout` (`MAX_WIDTH` x `MAX_HEIGHT`, 180 x 250 mm; the cell side
is its `fit_cell`, in steps of 0.01 mm): the 64x64 stress level gets 2.76 mm
cells. The legend is laid out with `graphics.layout.text_width`, an upper
bound of DejaVu Sans widths computed without the font (SVG output needs no
matplotlib). The colours are the
replay page's, defined here once: `replay_html` imports `PALETTE` and
`ROBOT_COLOURS` from this module.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..graphics.canvas import Drawing
from ..graphics.layout import CellGrid, fit_cell, fit_size, text_width
from .ai import patrol_routes
from .level import Item, Level, RobotKind, Tile

__all__ = ["draw", "routes_of", "PALETTE", "ROBOT_COLOURS", "CELL_MM"]

CELL_MM = 6.0  # a cell's side before scaling down
MARGIN = 1.5  # round the map, mm
MIN_WIDTH = 90.0  # so that the legend of a tiny level still reads as a line or two
LEGEND_TEXT = 2.6  # mm
LEGEND_GAP = 1.2  # between the map, the legend's lines and the status line
_SWATCH = LEGEND_TEXT * 1.3  # a legend entry's mark
_LINE = LEGEND_TEXT * 1.25 + LEGEND_GAP / 2  # from one legend line to the next

# What the replay page and the picture paint, by name. The rgba entries (the page's
# cell grid and fog) are the page's alone: matplotlib reads no CSS colour functions.
PALETTE = {
    "wall": "#37474f", "floor": "#eceff1", "cover": "#a5d6a7", "alarm": "#f4b4b0",
    "alarm_sounding": "#e53935", "door_closed": "#6d4c41", "door_open": "#a1887f",
    # The design's colours: gold data shards, a cyan EMP pickup, the skill point apart.
    "exit_closed": "#90a4ae", "exit_open": "#2e7d32", "shard": "#ffb300",
    "shard_edge": "#8d6e00", "emp": "#00acc1", "emp_edge": "#006064", "emp_ink": "#ffffff",
    "skill": "#d81b60", "player": "#1e63d6", "shield": "#4dd0e1",
    "stunned": "#9e9e9e", "grid": "rgba(0,0,0,0.07)", "fog_unseen": "rgba(12,14,18,0.86)",
    "fog_dim": "rgba(12,14,18,0.45)",
}
ROBOT_COLOURS = {RobotKind.SENTINEL: "#c62828", RobotKind.HUNTER: "#ef6c00",
                 RobotKind.INTERCEPTOR: "#7b1fa2", RobotKind.SCOUT: "#00796b"}
_GRID = "#d3d9dc"  # the page's faint grid, opaque: the floor seen through rgba(0,0,0,0.07)
_INK = "#263238"  # outlines and the legend's words

Cell = tuple[int, int]


def routes_of(level: Level) -> list[list[list[int]]]:
    """The robots' patrol routes of `level` (`ai.patrol_routes`), robot by robot in the
    level's order, as cells [row, col]: what `draw` takes as `routes`."""
    return [[list(divmod(cell, level.cols)) for cell in walk] for walk in patrol_routes(level)]


def draw(level: Level, record: dict[str, Any] | None = None,
         routes: list[list[list[int]]] | None = None) -> Drawing:
    """The picture of `level` as it starts, or of the turn `record` describes, with the
    robots' patrol `routes` when given (module docstring); deterministic, so `canvas.svg`
    of it gives the same bytes every time.

    >>> from twinsolve.robots import level as levels
    >>> picture = draw(levels.parse("robots 1 4\\nP*.E\\n"))
    >>> picture.width, picture.count("polygon") >= 1
    (90.0, True)
    """
    state = record if record is not None else _start_state(level)
    entries = _legend_entries(record is not None, routes is not None)
    status = _status_text(level, record) if record is not None else ""
    cell, lines = _fit(level, entries, bool(status))
    width = _page_width(level, cell)
    board = CellGrid(level.rows, level.cols, cell, x=MARGIN, y=MARGIN)  # where the map lies
    map_bottom = MARGIN + level.rows * cell
    height = map_bottom + _below_height(len(lines), bool(status)) + MARGIN
    picture = Drawing(width, height, background="#ffffff")
    _draw_tiles(picture, board, level, _cells(state.get("alarms", [])))
    _draw_doors(picture, board, state["doors"])
    _draw_exit(picture, board, level.exit, state["exit_open"])
    if routes is not None:
        _draw_routes(picture, board, level, routes)
    _draw_plans(picture, board, state["robots"])
    _draw_items(picture, board, state)
    _draw_robots(picture, board, state["robots"])
    _draw_player(picture, board, state)
    legend_top = map_bottom + LEGEND_GAP
    _draw_legend(picture, lines, legend_top)
    if status:
        _draw_status(picture, status, legend_top + len(lines) * _LINE, width)
    return picture


def _start_state(level: Level) -> dict[str, Any]:
    """The level as it starts, in the shape of a record (the fields the picture reads)."""
    shards = level.cells_with(Item.SHARD)
    skills = level.cells_with(Item.SKILL)
    return {
        "player": list(level.player), "shards": [list(cell) for cell in shards],
        "pickups": [list(cell) for cell in level.cells_with(Item.EMP)],
        "skill": list(skills[0]) if skills else None, "alarms": [], "shield": 0,
        "exit_open": not shards, "outcome": "playing",
        "doors": [{"cell": list(door.cell), "open": door.is_open(0)} for door in level.doors],
        "robots": [{"kind": robot.kind.name.lower(), "cell": list(robot.home), "path": [],
                    "target": None, "stunned": 0} for robot in level.robots]}


def _cells(cells: list) -> set[Cell]:
    return {(cell[0], cell[1]) for cell in cells}


def _kind(robot: dict[str, Any]) -> RobotKind:
    return RobotKind[robot["kind"].upper()]


# -- layout --------------------------------------------------------------------------------

def _page_width(level: Level, cell: float) -> float:
    return max(level.cols * cell + 2 * MARGIN, MIN_WIDTH)


def _below_height(lines: int, status: bool) -> float:
    """The height under the map: the gap, the legend's lines, the status line."""
    return LEGEND_GAP + (lines + status) * _LINE


def _fit(level: Level, entries: list[_Entry], status: bool
         ) -> tuple[float, list[list[_Entry]]]:
    """The cell side (at most CELL_MM, in steps of 0.01 mm) and the legend's lines such
    that the picture fits MAX_WIDTH x MAX_HEIGHT. A smaller cell narrows the page and may
    wrap the legend onto more lines, so the two are settled together: the cell only
    shrinks."""
    cell = CELL_MM
    while True:
        lines = _wrap(entries, _page_width(level, cell) - 2 * MARGIN)
        fit = fit_cell(level.rows, level.cols, CELL_MM, margin=MARGIN,
                       below=_below_height(len(lines), status))
        fit = math.floor(fit * 100 + 1e-9) / 100
        if fit >= cell:
            return cell, lines
        cell = fit


# -- the map -------------------------------------------------------------------------------

def _draw_tiles(picture: Drawing, board: CellGrid, level: Level, sounding: set[Cell]) -> None:
    """The floor as one rectangle, then cover and alarm cells, the grid, the walls on top."""
    s = board.cell
    picture.rect(board.x, board.y, level.cols * s, level.rows * s, fill=PALETTE["floor"])
    colours = {Tile.COVER: "cover", Tile.ALARM: "alarm"}
    for cell, tile in _tiles(level):
        if tile in colours:
            name = "alarm_sounding" if cell in sounding else colours[tile]
            picture.rect(*board.corner(*cell), s, s, fill=PALETTE[name])
    _draw_grid(picture, board, level)
    for cell, tile in _tiles(level):
        if tile is Tile.WALL:
            # the outline in the fill's colour closes the hairline seams antialiasing
            # leaves between neighbouring walls in a PNG
            picture.rect(*board.corner(*cell), s, s, fill=PALETTE["wall"],
                         stroke=PALETTE["wall"], width=s * 0.02)


def _tiles(level: Level) -> list[tuple[Cell, Tile]]:
    return [((r, c), tile) for r, row in enumerate(level.tiles) for c, tile in enumerate(row)]


def _draw_grid(picture: Drawing, board: CellGrid, level: Level) -> None:
    s, width = board.cell, board.cell * 0.025
    right, bottom = board.x + level.cols * s, board.y + level.rows * s
    for r in range(1, level.rows):
        picture.line(board.x, board.y + r * s, right, board.y + r * s, stroke=_GRID, width=width)
    for c in range(1, level.cols):
        picture.line(board.x + c * s, board.y, board.x + c * s, bottom, stroke=_GRID, width=width)


def _draw_doors(picture: Drawing, board: CellGrid, doors: list[dict[str, Any]]) -> None:
    for door in doors:
        x, y = board.corner(*door["cell"])
        _door_mark(picture, x, y, board.cell, door["open"])


def _door_mark(picture: Drawing, x: float, y: float, s: float, is_open: bool) -> None:
    """An open door: an outline on the floor; a closed one: a brown block with bars."""
    if is_open:
        inset = s * 0.12
        picture.rect(x + inset, y + inset, s - 2 * inset, s - 2 * inset,
                     stroke=PALETTE["door_open"], width=s * 0.1)
        return
    picture.rect(x + s * 0.04, y + s * 0.04, s * 0.92, s * 0.92, fill=PALETTE["door_closed"])
    for k in (1, 2, 3):
        picture.rect(x + k * s / 4 - s * 0.035, y + s * 0.1, s * 0.07, s * 0.8,
                     fill="#ffffff", opacity=0.28)


def _draw_exit(picture: Drawing, board: CellGrid, cell: Cell, is_open: bool) -> None:
    _exit_mark(picture, *board.corner(*cell), board.cell, is_open)


def _exit_mark(picture: Drawing, x: float, y: float, s: float, is_open: bool) -> None:
    picture.rect(x + s * 0.04, y + s * 0.04, s * 0.92, s * 0.92, radius=s * 0.08,
                 fill=PALETTE["exit_open" if is_open else "exit_closed"])
    picture.text(x + s / 2, y + s / 2, "E", size=s * 0.62, bold=True,
                 fill="#ffffff" if is_open else "#546e7a")


# -- the robots' plans ---------------------------------------------------------------------

def _draw_plans(picture: Drawing, board: CellGrid, robots: list[dict[str, Any]]) -> None:
    """Each robot's planned path (a thin line ending in a dot) and its target ringed, drawn
    before the items and the bodies so that those stay on top."""
    s = board.cell
    for robot in robots:
        colour = ROBOT_COLOURS[_kind(robot)]
        path = [board.centre(*cell) for cell in robot.get("path") or []]
        if len(path) >= 2:
            picture.polyline(path, stroke=colour, width=s * 0.09, opacity=0.8)
            picture.circle(*path[-1], s * 0.11, fill=colour, opacity=0.8)
    for robot in robots:
        if robot.get("target"):
            _target_ring(picture, *board.centre(*robot["target"]), s,
                         ROBOT_COLOURS[_kind(robot)])


def _draw_routes(picture: Drawing, board: CellGrid, level: Level,
                 routes: list[list[list[int]]]) -> None:
    """Each robot's patrol route, a step drawn once (a walk goes back along its beat's
    dead ends), and a sentinel's post ringed."""
    s = board.cell
    for robot, walk in zip(level.robots, routes, strict=True):
        colour = ROBOT_COLOURS[robot.kind]
        for run in _runs([(cell[0], cell[1]) for cell in walk]):
            picture.polyline([board.centre(*cell) for cell in run], stroke=colour,
                             width=s * 0.3, opacity=0.35)
        if robot.kind is RobotKind.SENTINEL and walk:
            _target_ring(picture, *board.centre(*walk[-1]), s, colour)


def _runs(walk: list[Cell]) -> list[list[Cell]]:
    """`walk` cut into runs of steps not taken before (either way): every step once.

    >>> _runs([(0, 0), (0, 1), (0, 2), (0, 1), (1, 1)])
    [[(0, 0), (0, 1), (0, 2)], [(0, 1), (1, 1)]]
    """
    runs: list[list[Cell]] = []
    taken: set[frozenset[Cell]] = set()
    for a, b in zip(walk, walk[1:], strict=False):
        step = frozenset((a, b))
        if a == b or step in taken:
            continue
        taken.add(step)
        if runs and runs[-1][-1] == a:
            runs[-1].append(b)
        else:
            runs.append([a, b])
    return runs


def _target_ring(picture: Drawing, cx: float, cy: float, s: float, colour: str) -> None:
    # the canvas dashes lines only, so the dashed ring is a closed 32-sided polyline
    ring = [(cx + s * 0.44 * math.cos(k * math.pi / 16), cy + s * 0.44 * math.sin(k * math.pi / 16))
            for k in range(33)]
    picture.polyline(ring, stroke=colour, width=s * 0.07, dash=(s * 0.2, s * 0.11))
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):  # crosshair ticks, the middle clear
        picture.line(cx + dx * s * 0.3, cy + dy * s * 0.3, cx + dx * s * 0.56,
                     cy + dy * s * 0.56, stroke=colour, width=s * 0.07)


# -- items, robots, the player -------------------------------------------------------------

def _draw_items(picture: Drawing, board: CellGrid, state: dict[str, Any]) -> None:
    for cell in state["shards"]:
        _shard_mark(picture, *board.centre(*cell), board.cell)
    for cell in state["pickups"]:
        _emp_mark(picture, *board.centre(*cell), board.cell)
    if state.get("skill"):
        _skill_mark(picture, *board.centre(*state["skill"]), board.cell)


def _shard_mark(picture: Drawing, cx: float, cy: float, s: float) -> None:
    h = s * 0.34
    picture.polygon([(cx, cy - h), (cx + h * 0.75, cy), (cx, cy + h), (cx - h * 0.75, cy)],
                    fill=PALETTE["shard"], stroke=PALETTE["shard_edge"], width=s * 0.04)


def _emp_mark(picture: Drawing, cx: float, cy: float, s: float) -> None:
    picture.circle(cx, cy, s * 0.33, fill=PALETTE["emp"], stroke=PALETTE["emp_edge"],
                   width=s * 0.04)
    picture.text(cx, cy, "e", size=s * 0.5, bold=True, fill=PALETTE["emp_ink"])


def _skill_mark(picture: Drawing, cx: float, cy: float, s: float) -> None:
    """A five-pointed star, its points alternately 0.38 and 0.17 of a cell from the middle."""
    points = []
    for k in range(10):
        angle, length = -math.pi / 2 + k * math.pi / 5, s * (0.17 if k % 2 else 0.38)
        points.append((cx + length * math.cos(angle), cy + length * math.sin(angle)))
    picture.polygon(points, fill=PALETTE["skill"])


def _draw_robots(picture: Drawing, board: CellGrid, robots: list[dict[str, Any]]) -> None:
    for robot in robots:
        cx, cy = board.centre(*robot["cell"])
        _robot_mark(picture, cx, cy, board.cell, _kind(robot), robot.get("stunned", 0))


def _robot_mark(picture: Drawing, cx: float, cy: float, s: float, kind: RobotKind,
                stunned: int = 0) -> None:
    colour, side = ROBOT_COLOURS[kind], s * 0.8
    if stunned > 0:
        picture.rect(cx - side / 2, cy - side / 2, side, side, radius=s * 0.18,
                     fill=PALETTE["stunned"], stroke=colour, width=s * 0.08)
    else:
        picture.rect(cx - side / 2, cy - side / 2, side, side, radius=s * 0.18, fill=colour,
                     stroke=_INK, width=s * 0.03)
    picture.text(cx, cy, kind.value, size=s * 0.56, bold=True, fill="#ffffff")
    if stunned > 0:
        bx, by = cx + s * 0.36, cy - s * 0.34
        picture.circle(bx, by, s * 0.2, fill=PALETTE["emp"])
        picture.text(bx, by, str(stunned), size=s * 0.3, bold=True, fill=PALETTE["emp_ink"])


def _draw_player(picture: Drawing, board: CellGrid, state: dict[str, Any]) -> None:
    cx, cy = board.centre(*state["player"])
    _player_mark(picture, cx, cy, board.cell, state.get("shield", 0) > 0,
                 state.get("outcome") == "captured")


def _player_mark(picture: Drawing, cx: float, cy: float, s: float, shielded: bool = False,
                 captured: bool = False) -> None:
    if shielded:
        picture.circle(cx, cy, s * 0.46, stroke=PALETTE["shield"], width=s * 0.1)
    picture.circle(cx, cy, s * 0.34, fill=PALETTE["player"], stroke="#ffffff", width=s * 0.06)
    if captured:
        d = s * 0.4
        for sign in (1, -1):
            picture.line(cx - d, cy - sign * d, cx + d, cy + sign * d,
                         stroke=PALETTE["alarm_sounding"], width=s * 0.12)


# -- the legend and the status line --------------------------------------------------------

@dataclass(frozen=True)
class _Entry:
    """A legend entry: a swatch (a mark drawn in a cell of side `s` at x, y) and its label."""

    label: str
    mark: Callable[[Drawing, float, float, float], None]

    def width(self) -> float:
        """The swatch, the label and the space before the next entry, in mm."""
        return _SWATCH + LEGEND_TEXT * 1.4 + text_width(self.label, LEGEND_TEXT)


def _tile_mark(name: str) -> Callable[[Drawing, float, float, float], None]:
    def mark(picture: Drawing, x: float, y: float, s: float) -> None:
        picture.rect(x, y, s, s, fill=PALETTE[name], stroke=_INK, width=0.1)
    return mark


def _centred(paint: Callable[..., None], *extra: Any
             ) -> Callable[[Drawing, float, float, float], None]:
    """A mark drawn about a cell's middle, as a swatch drawn from its corner."""
    def mark(picture: Drawing, x: float, y: float, s: float) -> None:
        paint(picture, x + s / 2, y + s / 2, s, *extra)
    return mark


def _legend_entries(with_plans: bool, with_routes: bool = False) -> list[_Entry]:
    entries = [_Entry(label, _tile_mark(name)) for name, label in
               (("wall", "wall"), ("floor", "floor"), ("cover", "cover"),
                ("alarm", "alarm cell"))]
    entries += [
        _Entry("door closed", lambda p, x, y, s: _door_mark(p, x, y, s, False)),
        _Entry("door open", lambda p, x, y, s: _door_mark(p, x, y, s, True)),
        _Entry("exit", lambda p, x, y, s: _exit_mark(p, x, y, s, False)),
        _Entry("data shard", _centred(_shard_mark)), _Entry("EMP pickup", _centred(_emp_mark)),
        _Entry("skill point", _centred(_skill_mark)), _Entry("player", _centred(_player_mark))]
    entries += [_Entry(kind.name.lower(), _centred(_robot_mark, kind)) for kind in RobotKind]
    if with_plans:
        entries += [_Entry("planned path", _path_mark),
                    _Entry("target", _centred(_target_ring, _INK))]
    if with_routes:
        entries += [_Entry("patrol route", _route_mark),
                    _Entry("sentinel's post", _centred(_target_ring, _INK))]
    return entries


def _route_mark(picture: Drawing, x: float, y: float, s: float) -> None:
    picture.polyline([(x, y + s / 2), (x + s, y + s / 2)], stroke=_INK, width=s * 0.3,
                     opacity=0.35)


def _path_mark(picture: Drawing, x: float, y: float, s: float) -> None:
    picture.polyline([(x, y + s * 0.75), (x + s / 2, y + s * 0.75), (x + s / 2, y + s * 0.25),
                      (x + s, y + s * 0.25)], stroke=_INK, width=s * 0.09, opacity=0.8)


def _wrap(entries: list[_Entry], width: float) -> list[list[_Entry]]:
    """The entries in lines no wider than `width` (a line holds one entry at least)."""
    lines: list[list[_Entry]] = [[]]
    used = 0.0
    for entry in entries:
        if lines[-1] and used + entry.width() > width:
            lines.append([])
            used = 0.0
        lines[-1].append(entry)
        used += entry.width()
    return lines


def _draw_legend(picture: Drawing, lines: list[list[_Entry]], top: float) -> None:
    for number, line in enumerate(lines):
        x, middle = MARGIN, top + number * _LINE + _SWATCH / 2
        for entry in line:
            entry.mark(picture, x, middle - _SWATCH / 2, _SWATCH)
            picture.text(x + _SWATCH + LEGEND_TEXT * 0.4, middle, entry.label,
                         size=LEGEND_TEXT, anchor="start", fill=_INK)
            x += entry.width()


def _status_text(level: Level, record: dict[str, Any]) -> str:
    shards = len(level.cells_with(Item.SHARD))
    facts = [f"tick {record.get('tick', 0)}",
             f"action {record['action']}" if record.get("action") else "start",
             f"shards left {len(record['shards'])} of {shards}",
             f"EMP {record.get('emp', 0)}",
             "exit open" if record["exit_open"] else "exit closed",
             str(record.get("outcome", "playing"))]
    return " · ".join(facts)


def _draw_status(picture: Drawing, text: str, top: float, width: float) -> None:
    """One line, its text made smaller if it would not fit the page's width."""
    picture.text(MARGIN, top + _SWATCH / 2, text, size=fit_size(text, width - 2 * MARGIN,
                                                                LEGEND_TEXT),
                 anchor="start", fill=_INK)
