"""The picture of a stealth-game level (`twinsolve.robots.picture`): every shipped level
draws in SVG (one also in PNG and PDF, every one under `slow`); the SVG holds one robot
marker per robot, one shard marker per shard and one wall cell per wall; the same input
gives the same bytes; with a record the robots, the player, the shards, the doors, the
alarms, the paths and the targets are the record's; the replay page carries the first
frame as inline SVG.

What the picture must show is read back from the SVG (markers found by colour and
shape, cells from their positions on the map's floor rectangle) and compared with the
level file and the engine's records, never with numbers written in by hand.
"""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import picture_checks as checks
import pytest
from conftest import ROOT, sampled

from twinsolve.graphics import canvas
from twinsolve.graphics.layout import MAX_HEIGHT, MAX_WIDTH
from twinsolve.robots import picture, play, replay
from twinsolve.robots.level import Item, RobotKind, Tile
from twinsolve.robots.picture import PALETTE, ROBOT_COLOURS
from twinsolve.robots.replay_html import page

LEVELS = sorted((ROOT / "instances" / "robots").glob("*.txt"))
LEVEL_2 = ROOT / "instances" / "robots" / "level-2.txt"
STRESS = ROOT / "instances" / "robots" / "stress-64x64.txt"
LETTERS = {kind.value: kind for kind in RobotKind}
KIND_OF_COLOUR = {colour: kind for kind, colour in ROBOT_COLOURS.items()}


# ------------------------------------------------------------------ reading the SVG back

@dataclass(frozen=True)
class Shape:
    tag: str
    attrib: dict
    text: str

    def number(self, name: str) -> float:
        return float(self.attrib[name])

    def points(self) -> list[tuple[float, float]]:
        return [tuple(float(v) for v in pair.split(",")) for pair in self.attrib["points"].split()]


@dataclass(frozen=True)
class Map:
    """Where the SVG's map lies: its floor rectangle, found by colour, and the cell side."""

    x: float
    y: float
    width: float
    height: float
    cell: float

    def holds(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.width and self.y <= y <= self.y + self.height

    def cell_at(self, x: float, y: float) -> tuple[int, int]:
        return int((y - self.y) // self.cell), int((x - self.x) // self.cell)

    def centre(self, cell) -> tuple[float, float]:
        return self.x + (cell[1] + 0.5) * self.cell, self.y + (cell[0] + 0.5) * self.cell


def shapes(text: str) -> list[Shape]:
    root = ET.fromstring(text.encode())
    return [Shape(element.tag.removeprefix(checks.SVG), dict(element.attrib), element.text or "")
            for element in root.iter()]


def map_of(found: list[Shape], level) -> Map:
    floors = [s for s in found if s.tag == "rect" and s.attrib.get("fill") == PALETTE["floor"]]
    floor = max(floors, key=lambda s: s.number("width") * s.number("height"))
    x, y, width, height = (floor.number(name) for name in ("x", "y", "width", "height"))
    assert width / level.cols == pytest.approx(height / level.rows, abs=0.01)  # square cells
    return Map(x, y, width, height, width / level.cols)


def on_map(found: list[Shape], where: Map, tag: str, fill: str) -> list[Shape]:
    """The shapes of `tag` and `fill` whose anchor (corner, centre or first point) lies on
    the map, the legend's swatches below it left out."""
    def anchor(s: Shape) -> tuple[float, float]:
        if tag in ("polygon", "polyline"):
            return s.points()[0]
        if tag == "circle":
            return s.number("cx"), s.number("cy")
        return s.number("x"), s.number("y")
    return [s for s in found if s.tag == tag and s.attrib.get("fill") == fill
            and where.holds(*anchor(s))]


def robot_marks(found: list[Shape], where: Map) -> Counter:
    """(kind, cell) of every robot letter drawn on the map."""
    return Counter((LETTERS[s.text], where.cell_at(s.number("x"), s.number("y")))
                   for s in on_map(found, where, "text", "#ffffff") if s.text in LETTERS)


def shard_cells(found: list[Shape], where: Map) -> Counter:
    """The cell of every shard diamond (its top point lies in the cell's upper half)."""
    return Counter(where.cell_at(*s.points()[0])
                   for s in on_map(found, where, "polygon", PALETTE["shard"]))


def player_cells(found: list[Shape], where: Map) -> list[tuple[int, int]]:
    return [where.cell_at(s.number("cx"), s.number("cy"))
            for s in on_map(found, where, "circle", PALETTE["player"])]


def drawn(level, record=None) -> tuple[list[Shape], Map]:
    found = shapes(canvas.svg(picture.draw(level, record)))
    return found, map_of(found, level)


# ------------------------------------------------------------------ games to picture

def greedy_records(path: Path, limit: int) -> tuple:
    level = play.load(path)
    game = play.new_game(level, level.seed)
    return level, list(play.turns(game, play.scripted(game, "greedy", limit)))


@pytest.fixture(scope="module")
def level_2_game():
    return greedy_records(LEVEL_2, 10)


@pytest.fixture(scope="module")
def planned_turn():
    """A turn of level 3's greedy game in which robots have planned paths and targets."""
    level, records = greedy_records(ROOT / "instances" / "robots" / "level-3.txt", 60)
    record = next(r for r in records
                  if sum(len(robot["path"]) >= 2 for robot in r["robots"]) >= 2
                  and any(robot["target"] for robot in r["robots"]))
    return level, record


# ------------------------------------------------------------------ every shipped level

@pytest.mark.parametrize("path", sampled(LEVELS), ids=lambda path: path.stem)
def test_every_shipped_level_draws_in_png_and_pdf_at_the_drawing_size(path):
    checks.check_formats(picture.draw(play.load(path)), dpi=24)


@pytest.mark.parametrize("path", LEVELS, ids=lambda path: path.stem)
def test_every_shipped_level_draws_its_robots_shards_walls_and_player(path):
    level = play.load(path)
    text = canvas.svg(picture.draw(level), "a level")
    root = ET.fromstring(text.encode())
    width, height = (float(root.attrib[name].removesuffix("mm")) for name in ("width", "height"))
    assert width <= MAX_WIDTH and height <= MAX_HEIGHT

    found = shapes(text)
    where = map_of(found, level)
    assert where.cell <= picture.CELL_MM
    assert robot_marks(found, where) == Counter((r.kind, r.home) for r in level.robots)
    assert shard_cells(found, where) == Counter(level.cells_with(Item.SHARD))
    walls = sum(tile is Tile.WALL for row in level.tiles for tile in row)
    assert len(on_map(found, where, "rect", PALETTE["wall"])) == walls
    assert player_cells(found, where) == [level.player]


def test_cells_are_six_mm_and_shrink_to_fit_the_stress_level():
    _, small = drawn(play.load(ROOT / "instances" / "robots" / "level-1.txt"))
    _, large = drawn(play.load(STRESS))
    assert small.cell == pytest.approx(picture.CELL_MM)
    assert 2.6 <= large.cell <= MAX_WIDTH / 64  # 64 columns across 180 mm


def test_robot_kinds_have_distinct_colours_and_the_page_uses_the_same_table():
    from twinsolve.robots import replay_html

    assert len(set(ROBOT_COLOURS.values())) == len(RobotKind)
    assert replay_html.PALETTE is PALETTE and replay_html.ROBOT_COLOURS is ROBOT_COLOURS


def hue(colour: str) -> float:
    """The hue of a #rrggbb colour in degrees."""
    import colorsys

    red, green, blue = (int(colour[k:k + 2], 16) / 255 for k in (1, 3, 5))
    return 360 * colorsys.rgb_to_hsv(red, green, blue)[0]


def test_shards_are_gold_emp_pickups_cyan_and_the_skill_point_neither():
    """The design's colours (issue 26), as drawn: the shard diamonds and EMP discs on the
    level 2 picture are filled with them."""
    assert 35 <= hue(PALETTE["shard"]) <= 55            # gold
    assert 175 <= hue(PALETTE["emp"]) <= 195            # cyan
    skill = hue(PALETTE["skill"])
    assert min(abs(skill - hue(PALETTE[name])) for name in ("shard", "emp")) >= 60
    level = play.load(LEVEL_2)
    found, where = drawn(level)
    assert sorted(shard_cells(found, where)) == sorted(level.cells_with(Item.SHARD))
    discs = on_map(found, where, "circle", PALETTE["emp"])
    assert sorted(where.cell_at(s.number("cx"), s.number("cy")) for s in discs) == \
        sorted(level.cells_with(Item.EMP))


def test_the_same_input_gives_the_same_svg_bytes(level_2_game):
    level, records = level_2_game
    checks.check_same_svg(picture.draw, level, play.load(LEVEL_2), records[-1])


# ------------------------------------------------------------------ one turn of a game

def test_a_record_draws_the_robots_where_the_record_has_them(level_2_game):
    level, records = level_2_game
    record = records[-1]
    cells = Counter((RobotKind[r["kind"].upper()], tuple(r["cell"])) for r in record["robots"])
    homes = Counter((r.kind, r.home) for r in level.robots)
    assert cells != homes  # some robot has left its home in ten turns
    found, where = drawn(level, record)
    assert robot_marks(found, where) == cells
    assert player_cells(found, where) == [tuple(record["player"])] != [level.player]
    assert shard_cells(found, where) == Counter(tuple(cell) for cell in record["shards"])


def test_planned_paths_are_thin_lines_through_their_cells_and_targets_are_ringed(planned_turn):
    level, record = planned_turn
    found, where = drawn(level, record)
    lines = [s for s in found if s.tag == "polyline" and s.attrib.get("stroke") in KIND_OF_COLOUR]
    paths = Counter((KIND_OF_COLOUR[s.attrib["stroke"]], tuple(s.points()))
                    for s in lines if "stroke-dasharray" not in s.attrib)
    expected = Counter((RobotKind[r["kind"].upper()],
                        tuple(tuple(round(v, 2) for v in where.centre(cell)) for cell in r["path"]))
                       for r in record["robots"] if len(r["path"]) >= 2)
    assert paths == expected
    assert all(float(s.attrib["stroke-width"]) < where.cell / 5 for s in lines)  # thin

    def ring_centre(s: Shape) -> tuple[int, int]:
        points = s.points()[:-1]  # a closed ring repeats its first point
        return where.cell_at(sum(x for x, _ in points) / len(points),
                             sum(y for _, y in points) / len(points))
    rings = Counter((KIND_OF_COLOUR[s.attrib["stroke"]], ring_centre(s))
                    for s in lines if "stroke-dasharray" in s.attrib)
    assert rings == Counter((RobotKind[r["kind"].upper()], tuple(r["target"]))
                            for r in record["robots"] if r["target"])


def test_doors_and_sounding_alarms_follow_the_record(level_2_game):
    level, records = level_2_game
    record = copy.deepcopy(records[-1])
    alarm = next((r, c) for r, row in enumerate(level.tiles) for c, tile in enumerate(row)
                 if tile is Tile.ALARM)
    for opened in (True, False):
        for door in record["doors"]:
            door["open"] = opened
        record["alarms"] = [list(alarm)] if opened else []
        found, where = drawn(level, record)
        closed = {where.cell_at(s.number("x"), s.number("y"))
                  for s in on_map(found, where, "rect", PALETTE["door_closed"])}
        assert closed == (set() if opened else {door.cell for door in level.doors})
        sounding = {where.cell_at(s.number("x"), s.number("y"))
                    for s in on_map(found, where, "rect", PALETTE["alarm_sounding"])}
        assert sounding == ({alarm} if opened else set())


def test_a_stunned_robot_is_grey_with_its_turns_and_a_capture_is_crossed(level_2_game):
    level, records = level_2_game
    record = copy.deepcopy(records[-1])
    record["robots"][0]["stunned"] = 3
    record["outcome"] = "captured"
    found, where = drawn(level, record)
    grey = on_map(found, where, "rect", PALETTE["stunned"])
    assert [where.cell_at(s.number("x"), s.number("y")) for s in grey] == \
        [tuple(record["robots"][0]["cell"])]
    assert any(s.tag == "text" and s.text == "3" for s in found)
    cross = [s for s in found if s.tag == "line" and s.attrib.get("stroke") ==
             PALETTE["alarm_sounding"]]
    assert len(cross) == 2 and all(
        where.cell_at((s.number("x1") + s.number("x2")) / 2,
                      (s.number("y1") + s.number("y2")) / 2) == tuple(record["player"])
        for s in cross)


def test_a_record_adds_a_status_line_under_the_legend(level_2_game):
    level, records = level_2_game
    record = records[-1]
    texts = [s.text for s in shapes(canvas.svg(picture.draw(level, record)))]
    status = [t for t in texts if t.startswith("tick ")]
    assert status == [f"tick {record['tick']} · action {record['action']} · shards left "
                      f"{len(record['shards'])} of {len(level.cells_with(Item.SHARD))} · "
                      f"EMP {record['emp']} · exit closed · {record['outcome']}"]
    assert not [t for t in (s.text for s in shapes(canvas.svg(picture.draw(level))))
                if t.startswith("tick ")]


# ------------------------------------------------------------------ the replay page

NOSCRIPT_SVG = re.compile(r'<noscript><div id="still">(<svg .*?</svg>)</div></noscript>', re.S)


def test_the_replay_page_shows_the_first_frame_as_inline_svg(level_2_game):
    level, records = level_2_game
    text = page(replay.build(level, LEVEL_2.read_text(), "instances/robots/level-2.txt",
                             level.seed, records))
    found = NOSCRIPT_SVG.findall(text)
    assert len(found) == 1
    start = play.start_record(play.new_game(level, level.seed))
    expected = canvas.svg(picture.draw(level, start))
    # The page's copy: no XML declaration, no namespace (HTML implies it), its own title.
    inline = found[0].replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    untitled = re.sub(r"<title>.*?</title>\n", "", inline)
    assert expected == '<?xml version="1.0" encoding="UTF-8"?>\n' + untitled + "\n"
    assert canvas.svg(picture.draw(level, records[-1])) != expected  # frame 0, not the last
    assert "<?xml" not in text and "http://" not in text


# ------------------------------------------------------------------ patrol routes (issue 27)

LEVEL_4 = ROOT / "instances" / "robots" / "level-4.txt"


def test_each_patrol_route_walks_the_robots_beat_from_home_or_up_to_the_sentinels_post():
    """The routes are the planner's own walk while nobody perceives the player: a step or a
    wait a turn, from home; round the whole beat and home again, a sentinel to its post."""
    from twinsolve.robots.ai import PATROL_RADIUS, patrol_routes

    level = play.load(LEVEL_4)
    game = play.new_game(level)
    game.play("W")  # unseen and unheard: every robot's first patrol step, its post chosen
    maze = game.maze
    for index, (robot, walk) in enumerate(zip(level.robots, patrol_routes(level),
                                              strict=True)):
        home = robot.home[0] * level.cols + robot.home[1]
        assert walk[0] == home and walk[1] == game.state.robots[index].cell
        assert all(b == a or b in maze.neighbours[a] for a, b in
                   zip(walk, walk[1:], strict=False))
        if robot.kind is RobotKind.SENTINEL:
            assert walk[-1] == game.memory.minds[index].post
            continue
        near = game.passability(0).distances([home], max_dist=PATROL_RADIUS)
        assert {v for v, d in enumerate(near) if d >= 0} <= set(walk), robot  # its beat
        assert walk[-1] == home and len(walk) > 1


def test_render_solution_of_a_level_draws_the_patrol_routes(tmp_path, cli):
    """`render LEVEL --solution` draws every robot's route in its colour over the plain
    picture (it once wrote a copy of the plain one)."""
    done = cli("render", LEVEL_4, "--out", tmp_path)
    solved = cli("render", LEVEL_4, "--solution", "--out", tmp_path)
    assert done.returncode == solved.returncode == 0, done.stderr + solved.stderr
    plain = (tmp_path / "level-4.svg").read_text()
    routes = (tmp_path / "level-4-solution.svg").read_text()
    assert plain != routes and "patrol route" in routes and "patrol route" not in plain
    level = play.load(LEVEL_4)
    found = shapes(routes)
    where = map_of(found, level)
    bands = [s for s in found if s.tag == "polyline" and where.holds(*s.points()[0])
             and s.attrib.get("stroke") in KIND_OF_COLOUR and s.attrib.get("opacity")]
    drawn_cells = {KIND_OF_COLOUR[s.attrib["stroke"]]: set() for s in bands}
    for s in bands:
        drawn_cells[KIND_OF_COLOUR[s.attrib["stroke"]]] |= {where.cell_at(*p) for p in s.points()}
    for robot, walk in zip(level.robots, picture.routes_of(level), strict=True):
        if len({tuple(cell) for cell in walk}) > 1:
            assert {tuple(cell) for cell in walk} <= drawn_cells[robot.kind], robot
