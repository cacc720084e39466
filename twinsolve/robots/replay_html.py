"""A replay of the stealth game as one self-contained HTML page that animates it.

The page shows the game turn by turn on a <canvas>: the map (walls, floor,
cover, alarm cells, doors, the exit), and per frame the doors open or
closed, the shards left, the EMP pickups, the skill point, the alarm cells
sounding, the player (a ring while shielded, a cross when captured) and the
robots, one colour and letter per kind (S sentinel, H hunter, I interceptor,
C scout; grey with a badge counting the turns while stunned), the exit
closed or open. Frame 0 is the game before its first turn, frame k the
state after turn k. Below the title: a timeline slider, first / previous /
play / next / last buttons and a speed choice (keyboard: left and right
arrows step, space plays and pauses, Home and End jump; the address
`page.html#turn=40` opens at turn 40). The algorithm view is a set of
layers, each a checkbox in the side panel: the robots' planned paths, the cells
each robot's search visited this turn, their targets (ringed), their intent
labels, and fog (cells the player has not seen so far dark, cells seen
before but not in sight now dimmed; a wall counts as seen with any of its
eight neighbours). The side panel holds the turn, tick, action, events,
shards left, EMP charges, shield, silence, undos left, the exit and the
outcome, a table of the robots (kind, cell, state, intent, search nodes,
stunned turns), and a log of the turns with events (click one to go there).

The idea: everything the page draws is data computed here, in Python, from
the replay alone (the parsed level's static map, the start record
re-made by the engine, the recorded turns, the colours) and embedded as one
JSON document in a <script type="application/json"> element; the inline
script only draws it. No request leaves the page (no fonts, images, styles
or scripts from elsewhere), so the file can be mailed and still play. Every
"<" of the JSON is written as the escape \\u003c, so no string in it (a level
named "</script>", say) can end the element. Keys are sorted and nothing
depends on the time, so the same replay gives the same bytes. The canvas
scales its cells (CELL_PIXELS) to the window, so the 64x64 level fits a
laptop screen as well as the small ones; where even the smallest cells do
not fit, the page scrolls and the controls stay in view. Without JavaScript a
<noscript> block in the board's place shows frame 0 as a still picture: the SVG
of `picture.draw` inline (no XML declaration, no namespace: HTML implies both),
so a reader still sees the level; the colours of both are `picture`'s.
"""

from __future__ import annotations

import html
import json
from typing import Any

from ..graphics import canvas
from .level import Item, Level, RobotKind
from .picture import PALETTE, ROBOT_COLOURS, draw
from .play import new_game, start_record
from .replay import level_of

__all__ = ["page", "page_data", "still_svg", "PALETTE", "ROBOT_COLOURS", "CELL_PIXELS"]

CELL_PIXELS = (12, 28)  # the smallest and largest cell side the canvas scales to

# What the canvas paints (PALETTE, ROBOT_COLOURS) is `picture`'s table, by name; the
# legend is made from the same table.
_LEGEND = (("wall", "wall"), ("floor", "floor"), ("cover", "cover"), ("alarm", "alarm cell"),
           ("alarm_sounding", "alarm sounding"), ("door_closed", "door closed"),
           ("door_open", "door open"), ("exit_closed", "exit closed"), ("exit_open", "exit open"),
           ("shard", "data shard"), ("emp", "EMP pickup"), ("skill", "skill point"),
           ("player", "player"))
_LAYERS = (("paths", "planned paths", True), ("visited", "visited cells", False),
           ("targets", "targets", True), ("intents", "intents", True), ("fog", "fog", False))
_SPEEDS = (1, 2, 4, 8, 16, 32)  # turns per second
_DEFAULT_SPEED = 4


def page(replay: dict[str, Any]) -> str:
    """The HTML page that animates `replay`: a dict as `twinsolve.robots.replay.read` gives
    it, checked whole against the replay schema and its level, so every field drawn is there
    and in range (a damaged file never gets this far).

    >>> from twinsolve.robots import level as levels, play, replay
    >>> level = levels.parse("robots 1 4\\nP*.E\\n")
    >>> game = play.new_game(level, 0)
    >>> records = list(play.turns(game, "RR"))
    >>> text = page(replay.build(level, "robots 1 4\\nP*.E\\n", None, 0, records))
    >>> text.startswith("<!DOCTYPE html>"), "twinsolve replay" in text
    (True, True)
    """
    data = page_data(replay)
    title = f"{data['name']} - twinsolve replay"
    last = data["frames"][-1]
    facts = [f"level file {data['source']}" if data["source"] else "",  # its name, no folder
             f"{data['rows']}x{data['cols']}", f"seed {data['seed']}",
             f"{len(data['frames']) - 1} turns", f"outcome {last['outcome']}"]
    subtitle = " · ".join(fact for fact in facts if fact)
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
        "<header>", f"<h1>{html.escape(data['name'])} <small>twinsolve replay</small></h1>",
        f'<p class="meta">{html.escape(subtitle)}</p>', "</header>",
        "<main>", _stage_html(len(data["frames"]) - 1, still_svg(replay, data)), _panel_html(),
        "</main>",
        "<noscript><p>This replay is drawn by its inline script: allow JavaScript to watch "
        "it. The picture shows its first turn.</p></noscript>",
        f'<script type="application/json" id="replay-data">{_script_json(data)}</script>',
        f"<script>{_SCRIPT}</script>", "</body>", "</html>", ""])


def page_data(replay: dict[str, Any]) -> dict[str, Any]:
    """What the page embeds: the level's name and static map, the colours, and the frames
    (the start record the engine makes for the level and seed, then every recorded turn)."""
    level = level_of(replay)
    about = replay["level"]
    start = start_record(new_game(level, replay["seed"]))
    return {"name": _level_name(about, level), "source": _file_name(about["source"]),
            "seed": replay["seed"], "moves": replay["moves"], "rows": level.rows,
            "cols": level.cols, "map": [_map_row(row) for row in level.tiles],
            "exit": list(level.exit), "shards_total": len(level.cells_with(Item.SHARD)),
            "turn_limit": level.turns, "kinds": _robot_kinds(), "palette": PALETTE,
            "cell_pixels": list(CELL_PIXELS), "frames": [start, *replay["turns"]]}


def _file_name(source: str) -> str:
    r"""The level file's name without its folders (a Windows path's too): where it lay on the
    recording machine is nobody's business.

    >>> _file_name("/home/ann/levels/maze.txt"), _file_name("C:\\levels\\maze.txt")
    ('maze.txt', 'maze.txt')
    """
    return source.replace("\\", "/").rsplit("/", 1)[-1]


def _level_name(about: dict[str, Any], level: Level) -> str:
    """The replay's name for the level, else the level file's `# name:`, else its file name."""
    return (str(about.get("name") or "") or dict(level.meta).get("name", "")
            or _file_name(str(about.get("source") or "")) or "untitled level")


def _map_row(row: tuple) -> str:
    """One map row as the level file's tile characters (`#` `.` `g` `r` `D`)."""
    return "".join(tile.value for tile in row)


def _robot_kinds() -> dict[str, dict[str, str]]:
    """Per robot kind as the records name it: its letter (the level file's) and colour."""
    return {kind.name.lower(): {"letter": kind.value, "colour": ROBOT_COLOURS[kind]}
            for kind in RobotKind}


def _script_json(data: dict[str, Any]) -> str:
    """`data` as JSON that is safe inside a <script> element: every "<" escaped."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return text.replace("<", "\\u003c")  # "<" appears only inside JSON strings


def still_svg(replay: dict[str, Any], data: dict[str, Any]) -> str:
    """Frame 0 of the page (`data`, as `page_data(replay)` gives) as inline SVG: the text
    of `canvas.svg(picture.draw(level, start))` less the XML declaration and the namespace,
    which no HTML page may hold or needs."""
    text = canvas.svg(draw(level_of(replay), data["frames"][0]), f"{data['name']}: turn 0")
    first, _, rest = text.partition("\n")
    if first.startswith("<?xml"):
        text = rest
    return text.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1).rstrip("\n")


def _stage_html(turns: int, still: str) -> str:
    """The controls above the canvas, and the canvas; in its place without JavaScript,
    `still` (the first frame's SVG)."""
    speeds = "".join(f'<option value="{speed}"{" selected" if speed == _DEFAULT_SPEED else ""}>'
                     f"{speed} turns/s</option>" for speed in _SPEEDS)
    return "\n".join([
        '<section id="stage">', '<div class="controls">',
        '<button type="button" id="first" title="first turn (Home)">|&#9664;</button>',
        '<button type="button" id="back" title="previous turn (left arrow)">&#9664;</button>',
        '<button type="button" id="play" title="play / pause (space)">&#9654; Play</button>',
        '<button type="button" id="forward" title="next turn (right arrow)">&#9654;</button>',
        '<button type="button" id="last" title="last turn (End)">&#9654;|</button>',
        f'<input type="range" id="timeline" min="0" max="{turns}" value="0" step="1" '
        'aria-label="turn">',
        '<span id="turn-label" class="turn-label"></span>',
        f'<label class="speed">speed <select id="speed">{speeds}</select></label>', "</div>",
        '<div id="board-wrap"><canvas id="board" width="1" height="1"></canvas>',
        f'<noscript><div id="still">{still}</div></noscript></div>',
        "</section>"])


def _panel_html() -> str:
    """The side panel: the turn's facts, the robots' table, the event log, the legend."""
    facts = (("turn", "turn"), ("tick", "played on tick"), ("action", "action"),
             ("events", "events"), ("shards", "shards left"), ("emp", "EMP charges"),
             ("shield", "shield"), ("silence", "silent turns"), ("undos", "undos left"),
             ("exit", "exit"), ("outcome", "outcome"))
    rows = "".join(f'<dt>{label}</dt><dd id="fact-{name}"></dd>' for name, label in facts)
    swatches = "".join(f'<li><span class="swatch" style="background:{PALETTE[name]}"></span>'
                       f"{label}</li>" for name, label in _LEGEND)
    layers = "".join(f'<label><input type="checkbox" id="layer-{name}"{" checked" if on else ""}>'
                     f" {label}</label>" for name, label, on in _LAYERS)
    robots = "".join(f'<li><span class="swatch robot" style="background:{ROBOT_COLOURS[kind]}">'
                     f"{kind.value}</span>{kind.name.lower()}</li>" for kind in RobotKind)
    return "\n".join([
        '<aside id="panel">', "<h2>Layers</h2>", f'<div class="layers">{layers}</div>',
        "<h2>This turn</h2>", f'<dl class="facts">{rows}</dl>', "<h2>Robots</h2>",
        '<table id="robots"><thead><tr><th>robot</th><th>cell</th><th>state</th>'
        '<th>intent</th><th>nodes</th><th title="stunned turns left">stun</th></tr></thead>'
        "<tbody></tbody></table>",
        "<h2>Turns with events</h2>", '<ol id="event-log"></ol>', "<h2>Legend</h2>",
        f'<ul class="legend">{swatches}{robots}</ul>', "</aside>"])


_CSS = """
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif;
       color: #222; background: #f3f4f6; }
header { padding: 10px 20px 0; }
h1 { font-size: 1.35em; margin: 0; }
h1 small { font-size: 0.65em; font-weight: normal; color: #666; margin-left: 0.4em; }
p.meta { margin: 2px 0 0; color: #555; }
main { display: flex; gap: 18px; padding: 8px 20px 20px; align-items: flex-start; }
#stage { flex: 1 1 auto; min-width: 0; }
.controls, .layers { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; }
.controls { position: sticky; top: 0; z-index: 1; padding: 6px 0; background: #f3f4f6; }
.layers label { white-space: nowrap; margin-right: 4px; }
button { font: inherit; min-width: 2.4em; padding: 2px 8px; border: 1px solid #b8bcc4;
         border-radius: 4px; background: #fff; cursor: pointer; }
button:hover { background: #e8eaee; }
#play { min-width: 5.6em; }
#timeline { flex: 1 1 200px; min-width: 160px; }
.turn-label { font-variant-numeric: tabular-nums; min-width: 6.5em; }
#board-wrap { display: inline-block; padding: 6px; background: #1f2329; border-radius: 6px;
              line-height: 0; }
#still svg { display: block; max-width: 100%; height: auto; }
#panel { flex: 0 0 360px; min-width: 0; background: #fff; border: 1px solid #dde0e5;
         border-radius: 6px; padding: 10px 12px; }
#panel h2 { font-size: 1em; margin: 10px 0 4px; border-bottom: 1px solid #e4e6ea; }
#panel h2:first-child { margin-top: 0; }
dl.facts { display: grid; grid-template-columns: auto 1fr; gap: 1px 10px; margin: 0; }
dl.facts dt { color: #666; }
dl.facts dd { margin: 0; font-variant-numeric: tabular-nums; }
/* Words stay whole: only the intent ("guard chokepoint") may wrap, between its words. */
#robots { border-collapse: collapse; width: 100%; font-size: 12px; }
#robots th, #robots td { text-align: left; padding: 2px 3px; border-bottom: 1px solid #eee;
                         white-space: nowrap; }
#robots th { color: #666; font-weight: normal; }
#robots td:nth-child(4) { white-space: normal; }
#event-log { max-height: 180px; overflow-y: auto; margin: 0; padding-left: 0;
             list-style: none; font-size: 12.5px; }
#event-log button { min-width: 0; padding: 0 6px; margin: 1px 0; text-align: left; }
#event-log button.current { background: #dbe7fb; border-color: #1e63d6; }
ul.legend { columns: 2; margin: 0; padding: 0; list-style: none; font-size: 12.5px; }
.swatch { display: inline-block; width: 14px; height: 14px; margin-right: 5px;
          vertical-align: -2px; border: 1px solid rgba(0,0,0,0.25); border-radius: 2px; }
.swatch.robot { color: #fff; font: bold 10px/13px sans-serif; text-align: center; }
@media (max-width: 900px) { main { flex-direction: column; } #panel { flex: none; width: 100%; } }
"""

# The drawing: `draw()` paints frame `view.frame` in layers (map, doors and exit,
# visited cells, items, robots, player, fog, paths, targets, intent labels), and
# `show()` writes the side panel; every control ends in `go(k)`.
_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var frames = data.frames, rows = data.rows, cols = data.cols, colours = data.palette;
  var last = frames.length - 1;
  var canvas = document.getElementById("board"), ctx = canvas.getContext("2d");
  var slider = document.getElementById("timeline");
  var playButton = document.getElementById("play"), speedChoice = document.getElementById("speed");
  var ACTIONS = {R: "right", D: "down", L: "left", U: "up", W: "wait", X: "EMP", Z: "undo"};
  var TILES = {"#": "wall", ".": "floor", "g": "cover", "r": "alarm", "D": "floor"};
  var view = {frame: 0, cell: 20, timer: null};
  var firstSeen = firstSeenFrames();

  function at(cell) { return cell[0] * cols + cell[1]; }
  function isWall(r, c) { return data.map[r][c] === "#"; }
  function cellSet(cells) {
    var set = {};
    cells.forEach(function (cell) { set[at(cell)] = true; });
    return set;
  }
  function kindOf(robot) { return data.kinds[robot.kind] || {letter: "?", colour: "#555"}; }

  // The frame in which each cell was first in the player's sight (-1: never); a wall
  // takes the earliest of its eight neighbours, as the player sees a wall by its side.
  function firstSeenFrames() {
    var seen = [], r, c;
    for (var i = 0; i < rows * cols; i++) { seen.push(-1); }
    frames.forEach(function (frame, k) {
      frame.sight.forEach(function (cell) { if (seen[at(cell)] < 0) { seen[at(cell)] = k; } });
    });
    var walls = seen.slice();
    for (r = 0; r < rows; r++) {
      for (c = 0; c < cols; c++) {
        if (isWall(r, c)) { walls[r * cols + c] = earliestNeighbour(seen, r, c); }
      }
    }
    return walls;
  }
  function neighbours(r, c) {
    var found = [];
    for (var dr = -1; dr <= 1; dr++) {
      for (var dc = -1; dc <= 1; dc++) {
        var nr = r + dr, nc = c + dc;
        if ((dr || dc) && nr >= 0 && nr < rows && nc >= 0 && nc < cols && !isWall(nr, nc)) {
          found.push(nr * cols + nc);
        }
      }
    }
    return found;
  }
  function earliestNeighbour(seen, r, c) {
    var best = -1;
    neighbours(r, c).forEach(function (i) {
      if (seen[i] >= 0 && (best < 0 || seen[i] < best)) { best = seen[i]; }
    });
    return best;
  }

  // ---------------------------------------------------------------- geometry
  function fitBoard() {
    var wrap = document.getElementById("board-wrap");
    var width = document.getElementById("stage").clientWidth - 12;
    var boardTop = wrap.getBoundingClientRect().top + window.scrollY;
    var height = window.innerHeight - boardTop - 16;
    var size = Math.floor(Math.min(width / cols, height / rows));
    view.cell = Math.max(data.cell_pixels[0], Math.min(data.cell_pixels[1], size));
    var ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(cols * view.cell * ratio);
    canvas.height = Math.round(rows * view.cell * ratio);
    canvas.style.width = cols * view.cell + "px";
    canvas.style.height = rows * view.cell + "px";
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  }
  function left(cell) { return cell[1] * view.cell; }
  function top(cell) { return cell[0] * view.cell; }
  function middle(cell) { return [left(cell) + view.cell / 2, top(cell) + view.cell / 2]; }
  function fillCell(cell, colour, inset) {
    var d = inset || 0, s = view.cell;
    ctx.fillStyle = colour;
    ctx.fillRect(left(cell) + d, top(cell) + d, s - 2 * d, s - 2 * d);
  }
  function roundedBox(x, y, w, h, radius) {
    ctx.beginPath();
    ctx.moveTo(x + radius, y);
    ctx.arcTo(x + w, y, x + w, y + h, radius);
    ctx.arcTo(x + w, y + h, x, y + h, radius);
    ctx.arcTo(x, y + h, x, y, radius);
    ctx.arcTo(x, y, x + w, y, radius);
    ctx.closePath();
  }
  function circle(centre, radius) {
    ctx.beginPath();
    ctx.arc(centre[0], centre[1], radius, 0, 2 * Math.PI);
  }
  function letter(cell, text, colour, scale) {
    var centre = middle(cell);
    ctx.fillStyle = colour;
    ctx.font = "bold " + Math.round(view.cell * (scale || 0.6)) + "px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(text, centre[0], centre[1] + 1);
  }

  // ---------------------------------------------------------------- the world
  function drawMap(frame) {
    var sounding = cellSet(frame.alarms), s = view.cell;
    for (var r = 0; r < rows; r++) {
      for (var c = 0; c < cols; c++) {
        var tile = TILES[data.map[r][c]] || "floor";
        var colour = tile === "alarm" && sounding[r * cols + c] ? "alarm_sounding" : tile;
        fillCell([r, c], colours[colour]);
        if (tile !== "wall") {
          ctx.strokeStyle = colours.grid;
          ctx.lineWidth = 1;
          ctx.strokeRect(c * s + 0.5, r * s + 0.5, s - 1, s - 1);
        }
      }
    }
  }
  function drawDoors(frame) {
    var s = view.cell;
    frame.doors.forEach(function (door) {
      if (door.open) {
        ctx.strokeStyle = colours.door_open;
        ctx.lineWidth = Math.max(2, s / 8);
        ctx.strokeRect(left(door.cell) + 2, top(door.cell) + 2, s - 4, s - 4);
        return;
      }
      fillCell(door.cell, colours.door_closed, 1);
      ctx.fillStyle = "rgba(255,255,255,0.28)";
      for (var k = 1; k <= 3; k++) {
        ctx.fillRect(left(door.cell) + k * s / 4 - 1, top(door.cell) + 2, 2, s - 4);
      }
    });
  }
  function drawExit(frame) {
    var cell = data.exit;
    fillCell(cell, frame.exit_open ? colours.exit_open : colours.exit_closed, 1);
    letter(cell, "E", frame.exit_open ? "#fff" : "#546e7a", 0.62);
  }
  function drawItems(frame) {
    var s = view.cell;
    frame.shards.forEach(function (cell) {
      var c = middle(cell), h = s * 0.34;
      ctx.beginPath();
      ctx.moveTo(c[0], c[1] - h); ctx.lineTo(c[0] + h * 0.75, c[1]);
      ctx.lineTo(c[0], c[1] + h); ctx.lineTo(c[0] - h * 0.75, c[1]);
      ctx.closePath();
      ctx.fillStyle = colours.shard; ctx.fill();
      ctx.strokeStyle = colours.shard_edge; ctx.lineWidth = 1; ctx.stroke();
    });
    frame.pickups.forEach(function (cell) {
      circle(middle(cell), s * 0.33);
      ctx.fillStyle = colours.emp; ctx.fill();
      ctx.strokeStyle = colours.emp_edge; ctx.lineWidth = 1; ctx.stroke();
      letter(cell, "e", colours.emp_ink, 0.5);
    });
    if (frame.skill) { drawStar(middle(frame.skill), s * 0.38, colours.skill); }
  }
  function drawStar(centre, radius, colour) {
    ctx.beginPath();
    for (var k = 0; k < 10; k++) {
      var angle = -Math.PI / 2 + k * Math.PI / 5, length = k % 2 ? radius * 0.45 : radius;
      ctx.lineTo(centre[0] + length * Math.cos(angle), centre[1] + length * Math.sin(angle));
    }
    ctx.closePath();
    ctx.fillStyle = colour; ctx.fill();
  }
  function drawRobots(frame) {
    var s = view.cell;
    frame.robots.forEach(function (robot) {
      var kind = kindOf(robot), x = left(robot.cell) + s * 0.1, y = top(robot.cell) + s * 0.1;
      roundedBox(x, y, s * 0.8, s * 0.8, s * 0.18);
      ctx.fillStyle = robot.stunned > 0 ? colours.stunned : kind.colour;
      ctx.fill();
      ctx.strokeStyle = robot.stunned > 0 ? kind.colour : "rgba(0,0,0,0.45)";
      ctx.lineWidth = robot.stunned > 0 ? 2 : 1;
      ctx.stroke();
      letter(robot.cell, kind.letter, "#fff", 0.56);
      if (robot.stunned > 0) { stunBadge(robot); }
    });
  }
  function stunBadge(robot) {
    var s = view.cell, centre = [left(robot.cell) + s * 0.86, top(robot.cell) + s * 0.16];
    circle(centre, s * 0.2);
    ctx.fillStyle = colours.emp; ctx.fill();
    ctx.fillStyle = colours.emp_ink;
    ctx.font = "bold " + Math.round(s * 0.3) + "px system-ui, sans-serif";
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.fillText(String(robot.stunned), centre[0], centre[1] + 1);
  }
  function drawPlayer(frame) {
    var s = view.cell, centre = middle(frame.player);
    if (frame.shield > 0) {
      circle(centre, s * 0.46);
      ctx.strokeStyle = colours.shield; ctx.lineWidth = Math.max(2, s / 9); ctx.stroke();
    }
    circle(centre, s * 0.34);
    ctx.fillStyle = colours.player; ctx.fill();
    ctx.strokeStyle = "#fff"; ctx.lineWidth = 2; ctx.stroke();
    if (frame.outcome === "captured") {
      ctx.strokeStyle = colours.alarm_sounding; ctx.lineWidth = Math.max(2, s / 7);
      ctx.beginPath();
      ctx.moveTo(centre[0] - s * 0.4, centre[1] - s * 0.4);
      ctx.lineTo(centre[0] + s * 0.4, centre[1] + s * 0.4);
      ctx.moveTo(centre[0] + s * 0.4, centre[1] - s * 0.4);
      ctx.lineTo(centre[0] - s * 0.4, centre[1] + s * 0.4);
      ctx.stroke();
    }
  }
  function drawFog(frame) {
    var now = cellSet(frame.sight), walls = {}, r, c;
    frame.sight.forEach(function (cell) {
      neighbourCells(cell).forEach(function (i) { walls[i] = true; });
    });
    for (r = 0; r < rows; r++) {
      for (c = 0; c < cols; c++) {
        var i = r * cols + c, visible = isWall(r, c) ? walls[i] : now[i];
        if (visible) { continue; }
        var known = firstSeen[i] >= 0 && firstSeen[i] <= view.frame;
        fillCell([r, c], known ? colours.fog_dim : colours.fog_unseen);
      }
    }
  }
  function neighbourCells(cell) {
    var found = [];
    for (var dr = -1; dr <= 1; dr++) {
      for (var dc = -1; dc <= 1; dc++) {
        var r = cell[0] + dr, c = cell[1] + dc;
        if (r >= 0 && r < rows && c >= 0 && c < cols && isWall(r, c)) { found.push(r * cols + c); }
      }
    }
    return found;
  }

  // ---------------------------------------------------------------- the algorithm view
  function drawVisited(frame) {
    frame.robots.forEach(function (robot) {
      ctx.globalAlpha = 0.28;
      robot.visited.forEach(function (cell) {
        fillCell(cell, kindOf(robot).colour, view.cell * 0.12);
      });
      ctx.globalAlpha = 1;
    });
  }
  // Paths and targets pass under the robots and the player: their cells are cut out.
  function clipOutBodies(frame) {
    var s = view.cell, holes = {};
    ctx.beginPath();
    ctx.rect(0, 0, cols * s, rows * s);
    frame.robots.map(function (robot) { return robot.cell; }).concat([frame.player])
      .forEach(function (cell) {
        if (holes[at(cell)]) { return; }
        holes[at(cell)] = true;
        ctx.rect(left(cell) + s * 0.1, top(cell) + s * 0.1, s * 0.8, s * 0.8);
      });
    ctx.clip("evenodd");
  }
  function drawPaths(frame) {
    var s = view.cell;
    clipOutBodies(frame);
    frame.robots.forEach(function (robot) {
      if (robot.path.length < 2) { return; }
      ctx.strokeStyle = kindOf(robot).colour;
      ctx.globalAlpha = 0.78;
      ctx.lineWidth = Math.max(2, s * 0.16);
      ctx.lineJoin = "round"; ctx.lineCap = "round";
      ctx.beginPath();
      robot.path.forEach(function (cell, k) {
        var p = middle(cell);
        if (k === 0) { ctx.moveTo(p[0], p[1]); } else { ctx.lineTo(p[0], p[1]); }
      });
      ctx.stroke();
      circle(middle(robot.path[robot.path.length - 1]), Math.max(3, s * 0.16));
      ctx.fillStyle = kindOf(robot).colour; ctx.fill();
      ctx.globalAlpha = 1;
    });
  }
  function drawTargets(frame) {
    var s = view.cell;
    clipOutBodies(frame);
    frame.robots.forEach(function (robot) {
      if (!robot.target) { return; }
      var centre = middle(robot.target);
      ctx.strokeStyle = kindOf(robot).colour;
      ctx.lineWidth = Math.max(2, s * 0.12);
      ctx.setLineDash([s * 0.22, s * 0.12]);
      circle(centre, s * 0.46); ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();  // crosshair ticks outside the ring, the cell's middle left clear
      [[0, -1], [1, 0], [0, 1], [-1, 0]].forEach(function (d) {
        ctx.moveTo(centre[0] + d[0] * s * 0.34, centre[1] + d[1] * s * 0.34);
        ctx.lineTo(centre[0] + d[0] * s * 0.62, centre[1] + d[1] * s * 0.62);
      });
      ctx.stroke();
    });
  }
  function drawIntents(frame) {
    var s = view.cell, size = Math.max(10, Math.round(s * 0.5));
    ctx.font = "600 " + size + "px system-ui, sans-serif";
    ctx.textAlign = "left"; ctx.textBaseline = "middle";
    frame.robots.forEach(function (robot) {
      var kind = kindOf(robot), text = kind.letter + " " + robot.intent;
      var w = ctx.measureText(text).width + 8, h = size + 6;
      var x = Math.min(left(robot.cell) + s * 0.8, cols * s - w - 1);
      var y = Math.max(1, top(robot.cell) - h + s * 0.2);
      roundedBox(x, y, w, h, 3);
      ctx.fillStyle = "rgba(255,255,255,0.9)"; ctx.fill();
      ctx.strokeStyle = kind.colour; ctx.lineWidth = 1; ctx.stroke();
      ctx.fillStyle = kind.colour;
      ctx.fillText(text, x + 4, y + h / 2 + 1);
    });
  }

  function layerOn(name) { return document.getElementById("layer-" + name).checked; }
  // Each layer paints from the context's saved state, so no line join, dash or alpha
  // one layer sets can change how another frame is drawn: a frame is always the same picture.
  function paint(layer, frame) {
    ctx.save();
    layer(frame);
    ctx.restore();
  }
  function draw() {
    var frame = frames[view.frame];
    ctx.clearRect(0, 0, cols * view.cell, rows * view.cell);
    [drawMap, drawDoors, drawExit].forEach(function (layer) { paint(layer, frame); });
    if (layerOn("visited")) { paint(drawVisited, frame); }
    [drawItems, drawRobots, drawPlayer].forEach(function (layer) { paint(layer, frame); });
    if (layerOn("fog")) { paint(drawFog, frame); }
    if (layerOn("paths")) { paint(drawPaths, frame); }
    if (layerOn("targets")) { paint(drawTargets, frame); }
    if (layerOn("intents")) { paint(drawIntents, frame); }
  }

  // ---------------------------------------------------------------- the panel
  function say(name, text) { document.getElementById("fact-" + name).textContent = String(text); }
  function show() {
    var frame = frames[view.frame];
    document.getElementById("turn-label").textContent = "turn " + view.frame + " / " + last;
    say("turn", view.frame + " of " + last);
    say("tick", frame.tick);
    say("action", view.frame === 0 ? "(start)"
                                   : frame.action + " (" + (ACTIONS[frame.action] || "?") + ")");
    say("events", frame.events.length ? frame.events.join(", ") : "none");
    say("shards", frame.shards_left + " of " + data.shards_total);
    say("emp", frame.emp);
    say("shield", frame.shield);
    say("silence", frame.silence);
    say("undos", frame.undos_left);
    say("exit", frame.exit_open ? "open" : "closed");
    say("outcome", frame.outcome);
    showRobots(frame);
    markLoggedTurn();
  }
  function showRobots(frame) {
    var body = document.querySelector("#robots tbody");
    while (body.firstChild) { body.removeChild(body.firstChild); }
    frame.robots.forEach(function (robot) {
      var kind = kindOf(robot), row = body.insertRow();
      var badge = document.createElement("span");
      badge.className = "swatch robot";
      badge.style.background = kind.colour;
      badge.textContent = kind.letter;
      var first = row.insertCell();
      first.appendChild(badge);
      first.appendChild(document.createTextNode(robot.kind));
      [robot.cell.join(","), robot.state, robot.intent, robot.nodes,
       robot.stunned > 0 ? robot.stunned : ""].forEach(function (value) {
        row.insertCell().textContent = String(value);
      });
    });
  }
  function buildEventLog() {
    var list = document.getElementById("event-log");
    frames.forEach(function (frame, k) {
      if (!frame.events.length) { return; }
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = "turn " + k + ": " + frame.events.join(", ");
      button.setAttribute("data-turn", String(k));
      button.addEventListener("click", function () { stop(); go(k); });
      var item = document.createElement("li");
      item.appendChild(button);
      list.appendChild(item);
    });
    if (!list.firstChild) {
      var none = document.createElement("li");
      none.textContent = "none";
      list.appendChild(none);
    }
  }
  function markLoggedTurn() {
    document.querySelectorAll("#event-log button").forEach(function (button) {
      button.classList.toggle("current", Number(button.getAttribute("data-turn")) === view.frame);
    });
  }

  // ---------------------------------------------------------------- controls
  function go(k) {
    view.frame = Math.max(0, Math.min(last, k));
    slider.value = String(view.frame);
    draw();
    show();
  }
  function stop() {
    if (view.timer !== null) { clearInterval(view.timer); view.timer = null; }
    playButton.innerHTML = "&#9654; Play";
  }
  function start() {
    if (view.frame >= last) { go(0); }
    stop();
    view.timer = setInterval(function () {
      if (view.frame >= last) { stop(); return; }
      go(view.frame + 1);
    }, 1000 / Number(speedChoice.value));
    playButton.innerHTML = "&#10074;&#10074; Pause";
  }
  function toggle() { if (view.timer === null) { start(); } else { stop(); } }
  function step(delta) { stop(); go(view.frame + delta); }

  slider.addEventListener("input", function () { go(Number(slider.value)); });
  playButton.addEventListener("click", toggle);
  speedChoice.addEventListener("change", function () { if (view.timer !== null) { start(); } });
  document.getElementById("first").addEventListener("click", function () { step(-last); });
  document.getElementById("back").addEventListener("click", function () { step(-1); });
  document.getElementById("forward").addEventListener("click", function () { step(1); });
  document.getElementById("last").addEventListener("click", function () { step(last); });
  document.querySelectorAll(".layers input").forEach(function (box) {
    box.addEventListener("change", draw);
  });
  var KEYS = {ArrowLeft: function () { step(-1); }, ArrowRight: function () { step(1); },
              Home: function () { step(-last); }, End: function () { step(last); }, " ": toggle};
  document.addEventListener("keydown", function (event) {
    var act = KEYS[event.key];
    if (!act || event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.target && event.target.tagName === "SELECT" && event.key !== " ") { return; }
    event.preventDefault();  // no native slider step or button press on top of ours
    act();
  });
  document.addEventListener("keyup", function (event) {
    if (event.key === " ") { event.preventDefault(); }
  });
  window.addEventListener("resize", function () { fitBoard(); draw(); });

  buildEventLog();
  fitBoard();
  var asked = /^#turn=(\d+)$/.exec(window.location.hash);
  go(asked ? Number(asked[1]) : 0);
})();
"""
