"""The robots' searches against an independent path-finder (issue 26), as the game's design
tested its search core three ways on the real maps: on every shipped level, at several door
ticks of a scripted game, every robot's cost field and BFS field (the very tables the
planner's per-tick cache handed the robots), the cost of an A* path from every robot to the
player and to its target, and the articulation points of the tick's grid and of the maze
with every door open are compared with tcod's `dijkstra2d` and `path2d` (fields and paths)
and networkx (articulation points). Any difference fails naming the level, the tick and the
cell.

tcod is in the test extra; where it is missing (no wheel for the platform) the tcod tests
skip and say why. A robot standing on a door that has just closed has no field (the
engine's searches start only from usable cells, as the rules let it leave but nobody enter),
so it is left out, as is a path whose end stands on a closed door.
"""

from __future__ import annotations

import networkx as nx
import pytest

from twinsolve.robots import play
from twinsolve.robots.ai import costs
from twinsolve.search.fields import astar_path
from twinsolve.search.grid import Grid

try:
    import numpy as np
    import tcod.path
except ImportError:  # no tcod wheel here: the tcod tests skip with the reason below
    tcod = None
NO_TCOD = "tcod is not installed (pip install tcod, part of the test extra): the robots' " \
          "fields and paths are not checked against it"
needs_tcod = pytest.mark.skipif(tcod is None, reason=NO_TCOD)

LEVELS = play.shipped_levels()
TICKS = (0, 1, 3, 5, 8, 11)  # door ticks the scripted game stops on: several door states
BLOCKED = 2**31 - 1  # tcod's "never reached" in an int32 distance array


def states(path):
    """(tick, planner, game) after each turn of the evasive player's game on `path` whose
    tick is one of TICKS: the planner's cache then holds the tick's fields."""
    game = play.new_game(play.load(path))
    for record in play.turns(game, play.scripted(game, "evasive", max(TICKS) + 1)):
        if record["tick"] in TICKS:
            yield record["tick"], game.memory, game


def where(grid: Grid, cell: int) -> str:
    r, c = divmod(cell, grid.cols)
    return f"cell ({r}, {c})"


def tcod_costs(grid: Grid, cost) -> np.ndarray:
    """tcod's cost array: entering a cell costs its entry, 0 means closed."""
    table = np.array([cost[v] if grid.is_open(v) else 0 for v in range(grid.size)],
                     dtype=np.int32)
    return table.reshape(grid.rows, grid.cols)


def tcod_field(grid: Grid, cost, source: int) -> list[int]:
    dist = np.full((grid.rows, grid.cols), BLOCKED, dtype=np.int32)
    dist[divmod(source, grid.cols)] = 0
    tcod.path.dijkstra2d(dist, tcod_costs(grid, cost), 1, None, out=dist)
    return [-1 if d == BLOCKED else int(d) for d in dist.ravel()]


def first_difference(name: str, tick: int, what: str, grid: Grid, ours, theirs) -> str | None:
    for v, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        if a != b:
            return f"{name} tick {tick}: {what} at {where(grid, v)}: engine {a}, tcod {b}"
    return None


def tcod_path_cost(grid: Grid, cost, start: int, goal: int) -> int | None:
    cells = tcod.path.path2d(tcod_costs(grid, cost), start_points=[divmod(start, grid.cols)],
                             end_points=[divmod(goal, grid.cols)], cardinal=1, diagonal=None)
    if len(cells) == 0:
        return None
    return sum(cost[int(r) * grid.cols + int(c)] for r, c in cells[1:])


def path_problem(grid: Grid, cost, found) -> str | None:
    """Why `found` is no path of open, side-adjacent cells of its stated cost (None: it is)."""
    for a, b in zip(found.cells, found.cells[1:], strict=False):
        if b not in grid.neighbours[a] or not grid.is_open(b):
            return f"steps from {where(grid, a)} to {where(grid, b)}, no open neighbour"
    if sum(cost[v] for v in found.cells[1:]) != found.cost:
        return f"costs {sum(cost[v] for v in found.cells[1:])}, says {found.cost}"
    return None


@needs_tcod
@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.stem)
def test_every_robots_fields_equal_tcods_at_several_door_ticks(path):
    problems, checked = [], 0
    for tick, planner, game in states(path):
        cache = planner.cache  # the tick's grid and cost table, as the robots used them
        grid = cache.grid
        unit = [1] * grid.size
        for index, body in enumerate(game.state.robots):
            if not grid.is_open(body.cell):
                continue  # on a door that just closed: no field starts there
            robot = f"robot {index}"
            problems.append(first_difference(path.stem, tick, f"{robot}'s cost field", grid,
                                             cache.field(body.cell),
                                             tcod_field(grid, cache.cost, body.cell)))
            problems.append(first_difference(path.stem, tick, f"{robot}'s BFS field", grid,
                                             cache.bfs(body.cell),
                                             tcod_field(grid, unit, body.cell)))
            checked += 1
    assert checked >= len(TICKS)
    assert [problem for problem in problems if problem] == []


@needs_tcod
@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.stem)
def test_every_robots_astar_path_costs_what_tcods_path_costs(path):
    problems, checked = [], 0
    for _tick, _planner, game in states(path):
        grid = game.grid
        cost = costs(game.tiles, game.state.tick, game.state.alarms)
        for index, (body, mind) in enumerate(zip(game.state.robots, play.minds(game),
                                                 strict=True)):
            for goal in {game.state.player, mind.target} - {None, body.cell}:
                if not (grid.is_open(body.cell) and grid.is_open(goal)):
                    continue
                place = f"{path.stem} tick {game.state.tick}: robot {index} to {where(grid, goal)}"
                found = astar_path(grid, body.cell, goal, cost)
                expected = tcod_path_cost(grid, cost, body.cell, goal)
                if (found and found.cost) != expected:
                    problems.append(f"{place}: engine {found and found.cost}, tcod {expected}")
                elif found is not None and path_problem(grid, cost, found):
                    problems.append(f"{place}: {path_problem(grid, cost, found)}")
                checked += 1
    assert checked >= len(TICKS)
    assert problems == []


def undirected(grid: Grid) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(v for v in range(grid.size) if grid.is_open(v))
    g.add_edges_from((v, w) for v in range(grid.size) if grid.is_open(v)
                     for w in grid.neighbours[v] if w > v and grid.is_open(w))
    return g


def cut_difference(name: str, tick: int, what: str, grid: Grid, ours) -> str | None:
    theirs = set(nx.articulation_points(undirected(grid)))
    extra, missing = sorted(set(ours) - theirs), sorted(theirs - set(ours))
    if extra or missing:
        v, side = (extra[0], "engine only") if extra else (missing[0], "networkx only")
        return f"{name} tick {tick}: {what}: articulation point at {where(grid, v)}, {side}"
    return None


@pytest.mark.parametrize("path", LEVELS, ids=lambda p: p.stem)
def test_the_articulation_points_equal_networkxs_at_several_door_ticks(path):
    problems = []
    for tick, planner, _game in states(path):
        problems.append(cut_difference(path.stem, tick, "the tick's grid", planner.cache.grid,
                                       planner.cache.articulation_points()))
    maze = planner.maze  # the maze with every door open, the sentinel's
    problems.append(cut_difference(path.stem, tick, "the maze", maze.grid,
                                   maze.articulation_points()))
    assert [problem for problem in problems if problem] == []


@needs_tcod
def test_a_difference_names_the_level_the_tick_and_the_cell():
    grid = Grid.from_strings(["...", ".#.", "..."])
    ours = tcod_field(grid, [10] * 9, 0)
    ours[5] += 1
    assert first_difference("level-x", 7, "robot 0's cost field", grid, ours,
                            tcod_field(grid, [10] * 9, 0)) == \
        "level-x tick 7: robot 0's cost field at cell (1, 2): engine 31, tcod 30"
    assert cut_difference("level-x", 7, "the maze", grid, [4]) == \
        "level-x tick 7: the maze: articulation point at cell (1, 1), engine only"
