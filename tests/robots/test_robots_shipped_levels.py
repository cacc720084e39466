"""The shipped levels of the stealth game (instances/robots/): each parses and round-trips,
has the size, robots and options its place in the set calls for, is a real maze (corridors,
chokepoints, loops), and can be won: every shard and the exit are reachable from the start
over the engine's grid, with doors counted passable because each one does open."""

from __future__ import annotations

from pathlib import Path

import pytest

from twinsolve.robots import level as levels
from twinsolve.robots.ai import patrol_beat
from twinsolve.robots.game import FOOTSTEPS
from twinsolve.robots.level import Item, Level, RobotKind, Tile
from twinsolve.search.grid import Grid

FOLDER = Path(__file__).resolve().parents[2] / "instances" / "robots"
CAMPAIGN = ("level-1", "level-2", "level-3", "level-4")
STRESS = "stress-64x64"
ALL_KINDS = set(RobotKind)

# name -> (rows, cols, robot kinds by map letter, shards)
SHAPES = {
    "level-1": (12, 16, "H", 3),
    "level-2": (16, 20, "SH", 4),
    "level-3": (20, 26, "SHI", 5),
    "level-4": (24, 32, "SHIC", 6),
    STRESS: (64, 64, "SHIC", 16),
}


def load(name: str) -> Level:
    path = FOLDER / f"{name}.txt"
    return levels.parse(path.read_text(), str(path))


def flat(level: Level, cell: tuple[int, int]) -> int:
    return cell[0] * level.cols + cell[1]


def walls(level: Level) -> list[int]:
    return [r * level.cols + c for r in range(level.rows) for c in range(level.cols)
            if level.tiles[r][c] is Tile.WALL]


def grid(level: Level) -> Grid:
    """Passable = not a wall: doors count as passable (each opens on its schedule)."""
    return Grid(level.rows, level.cols, closed=walls(level))


def count(level: Level, tile: Tile) -> int:
    return sum(row.count(tile) for row in level.tiles)


def route(level: Level) -> int:
    """Moves of the greedy route: nearest shard next, then the exit."""
    maze = grid(level)
    here, moves = flat(level, level.player), 0
    left = {flat(level, cell) for cell in level.cells_with(Item.SHARD)}
    while left:
        dist = maze.distances([here])
        here = min(left, key=lambda cell: (dist[cell], cell))
        assert dist[here] > 0
        moves += dist[here]
        left.discard(here)
    to_exit = maze.distances([here])[flat(level, level.exit)]
    assert to_exit > 0
    return moves + to_exit


def test_the_folder_ships_exactly_the_five_levels():
    assert sorted(path.stem for path in FOLDER.iterdir()) == sorted([*CAMPAIGN, STRESS])


@pytest.mark.parametrize("name", [*CAMPAIGN, STRESS])
def test_a_shipped_level_parses_and_round_trips(name):
    path = FOLDER / f"{name}.txt"
    text = path.read_text()
    level = levels.parse(text, str(path))
    written = levels.format(level)
    assert levels.parse(written, "written") == level
    assert written == text  # the file is already in the canonical layout


@pytest.mark.parametrize("name", [*CAMPAIGN, STRESS])
def test_a_shipped_level_names_itself_and_makes_no_claims(name):
    text = (FOLDER / f"{name}.txt").read_text()
    assert text.startswith("# name: ")
    assert text.splitlines()[1].startswith("# note: ")
    meta = dict(load(name).meta)
    assert meta["name"].strip() and meta["note"].strip()
    assert not [key for key in meta if key.startswith("expect-")]


@pytest.mark.parametrize("name", [*CAMPAIGN, STRESS])
def test_a_shipped_level_has_its_size_robots_and_shards(name):
    level = load(name)
    rows, cols, kinds, shards = SHAPES[name]
    assert (level.rows, level.cols) == (rows, cols)
    assert sorted(robot.kind.value for robot in level.robots) == sorted(kinds)
    assert len(level.cells_with(Item.SHARD)) == shards
    assert len(level.cells_with(Item.SKILL)) <= 1


def test_level_4_and_the_stress_level_field_all_four_kinds_once_each():
    for name in ("level-4", STRESS):
        kinds = [robot.kind for robot in load(name).robots]
        assert set(kinds) == ALL_KINDS and len(kinds) == 4, name
    stress = load(STRESS)
    assert (stress.rows, stress.cols) == (64, 64)
    assert len(stress.doors) >= 8 and count(stress, Tile.COVER) >= 20
    assert count(stress, Tile.ALARM) >= 10 and len(stress.cells_with(Item.SHARD)) >= 12


def test_player_vision_rises_from_6_to_8_over_the_campaign():
    visions = [load(name).vision for name in CAMPAIGN]
    assert visions[0] == 6 and visions[-1] == 8
    assert visions == sorted(visions)
    assert 6 <= load(STRESS).vision <= 8


def test_the_campaign_gets_harder_level_by_level():
    campaign = [load(name) for name in CAMPAIGN]
    areas = [level.rows * level.cols for level in campaign]
    assert areas == sorted(set(areas))  # strictly bigger maps
    robots = [len(level.robots) for level in campaign]
    assert robots == sorted(set(robots))  # strictly more robots
    kinds = [{robot.kind for robot in level.robots} for level in campaign]
    assert all(kinds[i] < kinds[i + 1] for i in range(len(kinds) - 1))  # new kinds
    shards = [len(level.cells_with(Item.SHARD)) for level in campaign]
    assert shards == sorted(set(shards))
    cover = [count(level, Tile.COVER) / len(grid(level).open_cells()) for level in campaign]
    assert cover == sorted(set(cover), reverse=True)  # ever less cover per open cell
    covers = [count(level, Tile.COVER) for level in campaign]
    assert covers == sorted(covers, reverse=True)  # and fewer covers outright
    doors = [len(level.doors) for level in campaign]
    assert doors[0] == 0 and all(n >= 1 for n in doors[1:]) and doors == sorted(doors)
    assert count(campaign[-1], Tile.ALARM) >= 3
    routes = [route(level) for level in campaign]
    assert routes == sorted(set(routes))  # longer routes


@pytest.mark.parametrize("name", [*CAMPAIGN, STRESS])
def test_every_door_opens_on_its_schedule_and_closes_too(name):
    level = load(name)
    assert len(level.doors) == count(level, Tile.DOOR)
    for door in level.doors:
        assert door.period >= 2 and 1 <= door.open < door.period, door
        states = {door.is_open(tick) for tick in range(door.period)}
        assert states == {True, False}, door


@pytest.mark.parametrize("name", [*CAMPAIGN, STRESS])
def test_every_shard_and_the_exit_are_reachable_from_the_start(name):
    level = load(name)
    maze = grid(level)
    dist = maze.distances([flat(level, level.player)])
    assert dist[flat(level, level.player)] == 0
    for cell in level.cells_with(Item.SHARD):
        assert dist[flat(level, cell)] > 0, cell
    assert dist[flat(level, level.exit)] > 0
    # no sealed pockets either: every non-wall cell (items, robots, doors) is reachable
    unreachable = [maze.coords(cell) for cell in maze.open_cells() if dist[cell] < 0]
    assert unreachable == []
    assert route(level) * 2 <= level.turns  # the time limit leaves room to hide


@pytest.mark.parametrize("name", [*CAMPAIGN, STRESS])
def test_a_shipped_level_is_a_maze_with_chokepoints_and_loops(name):
    level = load(name)
    maze = grid(level)
    cells = maze.open_cells()
    # a closed border
    border = [(r, c) for r in range(level.rows) for c in range(level.cols)
              if r in (0, level.rows - 1) or c in (0, level.cols - 1)]
    assert all(level.tile(cell) is Tile.WALL for cell in border)
    # corridors, not open noise: most open cells have exactly two open neighbours,
    # and few 2x2 blocks are all open
    degrees = [len(maze.open_neighbours(cell)) for cell in cells]
    assert sum(d == 2 for d in degrees) >= 0.5 * len(cells)
    blocks = sum(all(maze.is_open(i) for i in (top, top + 1, top + level.cols,
                                                top + level.cols + 1))
                 for top in range(level.cols * (level.rows - 1)) if top % level.cols
                 < level.cols - 1)
    assert blocks <= 0.15 * len(cells)
    assert 0.35 <= len(walls(level)) / (level.rows * level.cols) <= 0.65
    # chokepoints for a sentinel to guard, and each sentinel starts on one
    chokepoints = set(maze.articulation_points())
    assert len(chokepoints) >= 5
    for robot in level.robots:
        if robot.kind is RobotKind.SENTINEL:
            assert flat(level, robot.home) in chokepoints, robot
    # loops to evade around: independent cycles = edges - cells + 1 (one component)
    edges = sum(len(maze.open_neighbours(cell)) for cell in cells) // 2
    assert edges - len(cells) + 1 >= 10
    # each door sits in a doorway: open on two opposite sides, walls on the other two
    for door in level.doors:
        r, c = door.cell
        across = [level.tile((r, c - 1)), level.tile((r, c + 1))]
        along = [level.tile((r - 1, c)), level.tile((r + 1, c))]
        walled = [pair for pair in (across, along) if pair == [Tile.WALL, Tile.WALL]]
        passable = [pair for pair in (across, along) if Tile.WALL not in pair]
        assert len(walled) == 1 and len(passable) == 1, door


@pytest.mark.parametrize("name", [*CAMPAIGN, STRESS])
def test_no_robot_starts_within_earshot_or_sight_of_the_player(name):
    level = load(name)
    dist = grid(level).distances([flat(level, level.player)])
    for robot in level.robots:
        assert dist[flat(level, robot.home)] > 2 * FOOTSTEPS, robot
        same_line = robot.home[0] == level.player[0] or robot.home[1] == level.player[1]
        near = (abs(robot.home[0] - level.player[0]) + abs(robot.home[1] - level.player[1])
                <= level.robot_vision)
        assert not (same_line and near), robot


def beats(level: Level) -> list[set[int]]:
    """Each robot's beat on the level's maze at the start (`ai.patrol_beat`)."""
    maze = grid(level)
    return [set(patrol_beat(maze, flat(level, robot.home))) for robot in level.robots]


@pytest.mark.parametrize("name", [*CAMPAIGN, STRESS])
def test_no_robot_keeps_to_a_pocket_and_an_emp_lies_off_every_beat(name):
    """Issue 26: level 1's hunter never left a 7-cell pocket, and the EMP lay behind it. A
    level teaches when its robots walk where the player goes (every beat has two ways out
    or more; a sentinel holds its post) and an EMP can be fetched without crossing one."""
    level = load(name)
    maze = grid(level)
    watched = set()
    for robot, beat in zip(level.robots, beats(level), strict=True):
        ways_out = {w for v in beat for w in maze.open_neighbours(v) if w not in beat}
        assert len(ways_out) >= 2 or robot.kind is RobotKind.SENTINEL, robot  # it holds
        watched |= beat
    pickups = [flat(level, cell) for cell in level.cells_with(Item.EMP)]
    if pickups:
        free = bytes(0 if v in watched else maze.open[v] for v in range(maze.size))
        reach = maze.distances([flat(level, level.player)], within=free)
        assert any(reach[cell] >= 0 for cell in pickups)
