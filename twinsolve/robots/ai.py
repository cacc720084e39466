"""The four robots' minds: what each wants, and the one step it takes toward it.

Every robot is in one mode: `patrol` (walking its beat round its home: the
cells within `PATROL_RADIUS` steps in depth-first order; the sentinel holds
its post, below), `alert` (heard the player,
or another robot saw them), `chase` (sees the player), `search` (lost them)
or `return` (going home), and shows an intent label. Robot path costs are in
tenths: floor 10, cover 17, an alarm cell that sounded in the last
`ALARM_TURNS` turns 30 (`costs`). Every search is the engine's
(`twinsolve.search.fields`, `twinsolve.search.grid`); per tick the fields,
BFS distances and articulation points are computed once and shared by all
robots through one `FieldCache` (keyed by origin).

- Sentinel, "guard chokepoint": never chases. Alerted, it takes the cells it
  reaches no later than the player (BFS distances from the player's last
  known cell and from itself), preferring the articulation points that
  separate the player from the exit, then any articulation point, then
  junctions of degree >= 3, nearest first; walks there and holds. It judges
  on the maze with every door open: a closed door opens again within its
  period, and a post that flickered with the doors would guard nothing. On
  patrol it holds a post chosen the same way on its first turn against an
  intruder at the player's entry cell (the level's `P`; every robot knows
  where the intruder comes in); sentinels take distinct posts.
- Hunter, "chase": seeing the player, A* to their cell each turn, stepping
  to the path's second cell; without sight, A* to the last known cell.
- Interceptor, "intercept": while it sees the player, extrapolates their
  heading up to `LOOKAHEAD` cells (stopping at walls and closed doors): the
  player's possible cells. Of those it reaches no later than the player
  (BFS distance fields from the player and from itself), it takes the one
  farthest from the player and nearest to itself, the most turns to spare
  (their distance minus its own) first, and A* there: standing on the route
  ahead, it waits where the player will arrive. Otherwise like the hunter.
- Scout, "sweep": once the player is lost, sweeps the region around the last
  known cell (`SWEEP_RADIUS` steps) depth-first (`dfs_order`), marking cells
  it stands on or sees as checked (scouts searching share the marks); each
  scout claims the nearest unclaimed unchecked cell (Manhattan distance,
  then the depth-first order), so scouts never claim the same cell; after
  `SWEEP_TURNS` fruitless turns it forgets and returns home.
- Coordination, "hold ring": when the player was seen this turn or the last,
  alert robots other than the sentinel that do not see the player themselves
  take distinct posts around the last known cell: the articulation points of
  the region within `RING_RADIUS` steps first, then cells at 2 to 4 steps.

Any robot that sees the player on a neighbouring cell steps onto them ("catch").

`Planner(kinds)` runs the brains of one game's robots (`kinds[i]` is robot
i's kind): `planner.brains()` gives the brain per robot that
`twinsolve.robots.game.Game` calls, each with that robot's `View` only, and
the planner learns the map from the views' public `Layout`. It owns what the
robots remember (`planner.minds[i]`, robot i's) and what they share: the
per-tick cache, the last sighting, the cells claimed this tick. Coordination
goes through it, never through the game: scouts' shared marks and claims,
sentinels' distinct posts. It is the game's `Memory`: an undo brings the
minds back as they were before the turn.
"""

from __future__ import annotations

import copy
import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..search.fields import FieldCache, astar_path, dfs_order
from ..search.grid import Grid
from .game import ALARM_TURNS, Brain, Layout, View
from .level import RobotKind, Tile

__all__ = ["Mode", "Mind", "Planner", "costs", "random_walk", "LOOKAHEAD", "SWEEP_TURNS",
           "RING_RADIUS", "INTENTS"]

LOOKAHEAD = 4
SWEEP_TURNS = 14
RING_RADIUS = 4
SWEEP_RADIUS = 6  # the region a scout sweeps: cells this many steps from the last known one,
#                  about what one scout can check within SWEEP_TURNS
PATROL_RADIUS = 3  # a patrolling robot walks the cells this many steps from home
INTENTS = {RobotKind.SENTINEL: "guard chokepoint", RobotKind.HUNTER: "chase",
           RobotKind.INTERCEPTOR: "intercept", RobotKind.SCOUT: "sweep"}


class Mode(enum.Enum):
    PATROL = "patrol"
    ALERT = "alert"
    CHASE = "chase"
    SEARCH = "search"
    RETURN = "return"


@dataclass
class Mind:
    """A robot's memory and its plan this turn (what the headless game prints)."""

    mode: Mode = Mode.PATROL
    intent: str = "patrol"
    target: int | None = None
    path: tuple[int, ...] = ()
    visited: tuple[int, ...] = ()  # cells its own searches expanded this turn
    nodes: int = 0                 # search nodes it spent this turn (cached fields are free)
    last_known: int | None = None
    last_seen_at: int | None = None  # the player's cell the last time it saw them
    heading: tuple[int, int] | None = None
    lost: int = 0
    checked: set[int] = field(default_factory=set)
    beat: int = 0  # the patrol beat's next cell
    post: int | None = None  # a sentinel's patrol post


def costs(tiles: Sequence[Tile], tick: int, alarms: Mapping[int, int]) -> list[int]:
    """Entering a cell (`tiles`: one per cell): floor 10, cover 17, an alarm that sounded
    lately 30."""
    table = [17 if tile is Tile.COVER else 10 for tile in tiles]
    for cell, when in alarms.items():
        if tick - when < ALARM_TURNS:
            table[cell] = 30
    return table


class Planner:
    """The brains of one game's robots, their minds, and what they share (module docstring)."""

    def __init__(self, kinds: Sequence[RobotKind]) -> None:
        self.kinds = tuple(kinds)
        self.minds = [Mind() for _ in self.kinds]  # robot i's memory and plan
        self.layout: Layout | None = None  # the map, from the first view
        self.maze: FieldCache | None = None  # the layout's maze, every door open
        self._tick: int | None = None
        self.cache: FieldCache | None = None
        self.cost: list[int] = []
        self.sighting: tuple[int, int] | None = None  # (tick, the player's cell)
        self.claims: dict[int, int] = {}  # cell -> robot, this tick (scouts, ring posts)

    def brains(self) -> list[Brain]:
        return [self.decide] * len(self.kinds)

    # -- the game's memory: the minds, as an undo brings them back -------------------------

    def save(self) -> list[Mind]:
        return copy.deepcopy(self.minds)

    def restore(self, saved: list[Mind]) -> None:
        self.minds = saved  # the game hands each saved copy back once

    # -- shared per tick ---------------------------------------------------------------------

    def _refresh(self, view: View) -> None:
        if self._tick == view.tick and self.cache is not None and self.cache.grid is view.grid:
            return
        if self.maze is None or self.layout is not view.layout:
            self.layout = view.layout
            self.maze = FieldCache(view.layout.maze, costs(view.layout.tiles, 0, {}))
        self._tick = view.tick
        self.cost = costs(self.layout.tiles, view.tick, view.alarms)
        self.cache = FieldCache(view.grid, self.cost)
        self.maze.clear()  # its fields are from this tick's origins: keep memory per tick
        self.claims = {}

    def decide(self, view: View) -> int:
        """The brain every robot shares: perceive, choose a target, step toward it."""
        self._refresh(view)
        mind = self.minds[view.robot]
        mind.visited, mind.nodes, mind.path = (), 0, ()
        before = self.cache.nodes
        self._perceive(view, mind)
        target = self._target(view, mind)
        mind.target = target
        step = self._step_toward(view.grid, view.cell, target, mind)
        mind.nodes += self.cache.nodes - before
        return step

    def _perceive(self, view: View, mind: Mind) -> None:
        if view.sees is not None:
            if mind.last_seen_at is not None and mind.last_seen_at != view.sees:
                (r0, c0), (r1, c1) = (divmod(mind.last_seen_at, view.grid.cols),
                                      divmod(view.sees, view.grid.cols))
                if abs(r1 - r0) + abs(c1 - c0) == 1:
                    mind.heading = (r1 - r0, c1 - c0)
            mind.last_seen_at = mind.last_known = view.sees
            # The sentinel never chases: seeing the player only alerts it.
            mind.mode = Mode.ALERT if view.kind is RobotKind.SENTINEL else Mode.CHASE
            mind.lost = 0
            self.sighting = (view.tick, view.sees)
            return
        mind.last_seen_at = None
        if view.heard is not None:
            mind.last_known, mind.lost = view.heard, 0
            mind.mode = Mode.ALERT
            return
        if self.sighting is not None and view.tick - self.sighting[0] <= 1 \
                and mind.mode in (Mode.PATROL, Mode.ALERT, Mode.RETURN):
            mind.last_known, mind.mode = self.sighting[1], Mode.ALERT
            return
        if mind.mode in (Mode.CHASE, Mode.ALERT):
            mind.mode, mind.lost = Mode.SEARCH, 0
            mind.checked = set()
        elif mind.mode is Mode.SEARCH:
            mind.lost += 1
            if mind.lost >= SWEEP_TURNS:
                mind.mode, mind.last_known, mind.checked = Mode.RETURN, None, set()

    # -- targets -------------------------------------------------------------------------------

    def _target(self, view: View, mind: Mind) -> int:
        kind = view.kind
        if view.sees is not None and view.sees in view.grid.neighbours[view.cell]:
            # A player in reach is caught by any robot, the sentinel too: catching a
            # player next to its post is guarding it, not chasing.
            mind.intent = "catch"
            return view.sees
        if mind.mode is Mode.RETURN:
            mind.intent = "return"
            if view.cell != view.home:
                return view.home
            mind.mode, mind.beat = Mode.PATROL, 0
        if mind.mode is Mode.PATROL:
            mind.intent = "patrol"
            return self._beat(view, mind)
        if kind is RobotKind.SENTINEL:
            mind.intent = INTENTS[kind]
            return self._chokepoint(self.maze, view.cell, mind.last_known)
        if mind.mode is Mode.ALERT and view.sees is None and self.sighting is not None \
                and view.tick - self.sighting[0] <= 1:
            mind.intent = "hold ring"
            return self._ring_post(view, mind)
        mind.intent = INTENTS[kind]
        if kind is RobotKind.SCOUT and mind.mode is Mode.SEARCH:
            return self._sweep(view, mind)
        if kind is RobotKind.INTERCEPTOR and view.sees is not None:
            return self._ambush(view, mind)
        if mind.mode is Mode.SEARCH and mind.last_known == view.cell:
            mind.mode, mind.last_known = Mode.RETURN, None
            mind.intent = "return"
            return view.home
        return mind.last_known if mind.last_known is not None else view.home

    def _beat(self, view: View, mind: Mind) -> int:
        """The next cell of its beat: the cells within `PATROL_RADIUS` steps of home in
        depth-first order, walked round and round (the sentinel keeps to its home)."""
        if view.kind is RobotKind.SENTINEL:
            mind.intent = INTENTS[RobotKind.SENTINEL]
            if mind.post is None:
                # Sentinels take distinct posts: the ones the planner's minds hold are taken.
                taken = {other.post for other in self.minds}
                before = self.maze.nodes
                mind.post = self._chokepoint(self.maze, view.cell, view.layout.entry, taken)
                mind.nodes += self.maze.nodes - before
            return mind.post
        near = view.grid.distances([view.home], max_dist=PATROL_RADIUS)
        mind.nodes += len(near) - near.count(-1)
        region = bytes(1 if d >= 0 else 0 for d in near)
        beat = dfs_order(view.grid, view.home, within=region) or [view.home]
        if beat[mind.beat % len(beat)] == view.cell:
            mind.beat += 1
        return beat[mind.beat % len(beat)]

    def _chokepoint(self, cache: FieldCache, cell: int, player: int | None,
                    taken: set[int | None] = frozenset()) -> int:
        """The cell to hold against a player at `player` on `cache`'s grid, for a robot on
        `cell`, none of `taken` (module docstring); its own cell when nothing qualifies."""
        if player is None:
            return cell
        grid = cache.grid
        player_dist = cache.bfs(player)
        mine = cache.bfs(cell)
        exit_cuts = set(grid.separators(player, self.layout.exit))
        cuts = set(cache.articulation_points())
        candidates = [v for v in range(grid.size) if v not in taken and mine[v] >= 0
                      and (player_dist[v] < 0 or mine[v] <= player_dist[v])]

        def rank(v: int) -> tuple:
            degree = sum(grid.is_open(w) for w in grid.neighbours[v])
            tier = 0 if v in exit_cuts else 1 if v in cuts else 2 if degree >= 3 else 3
            return (tier, mine[v], v)
        best = min(candidates, key=rank, default=cell)
        return best if rank(best)[0] < 3 else cell

    def _ambush(self, view: View, mind: Mind) -> int:
        """The farthest cell of the player's predicted route that this robot reaches no
        later than they do (nearest to it on ties); the player's cell when none."""
        grid, player = view.grid, view.sees
        route = [player]  # the player's possible cells: here, then along their heading
        if mind.heading is not None:
            r, c = divmod(player, grid.cols)
            dr, dc = mind.heading
            for _ in range(LOOKAHEAD):
                r, c = r + dr, c + dc
                if not (0 <= r < grid.rows and 0 <= c < grid.cols) or \
                        not grid.is_open(r * grid.cols + c):
                    break
                route.append(r * grid.cols + c)
        theirs = self.cache.bfs(player)
        mine = self.cache.bfs(view.cell)
        if 0 <= mine[player] <= 1:
            return player  # within reach: no ambush needed
        ahead = [v for v in route[1:] if 0 <= mine[v] <= theirs[v]]
        # Farthest from the player and nearest to itself: the most turns to spare first
        # (on the route, waiting keeps them all), then the nearer, then the farther on.
        return max(ahead, key=lambda v: (theirs[v] - mine[v], -mine[v], theirs[v], -v),
                   default=player)

    def _sweep(self, view: View, mind: Mind) -> int:
        grid, here = view.grid, view.cell
        origin = mind.last_known if mind.last_known is not None else here
        mind.checked.add(here)
        for line in grid.sight_lines(here, radius=view.layout.robot_vision):
            mind.checked.update(line)
        # Scouts searching share what they checked (the planner's minds): one sweep, split.
        searching = [other.checked for kind, other in zip(self.kinds, self.minds, strict=True)
                     if kind is RobotKind.SCOUT and other.mode is Mode.SEARCH]
        checked = set().union(*searching)
        near = grid.distances([origin], max_dist=SWEEP_RADIUS)
        mind.nodes += len(near) - near.count(-1)
        region = bytes(1 if d >= 0 else 0 for d in near)
        order = dfs_order(grid, origin, within=region)
        r0, c0 = divmod(here, grid.cols)
        frontier = [(i, v) for i, v in enumerate(order)
                    if v not in checked and v not in self.claims]
        if not frontier:
            mind.lost = SWEEP_TURNS - 1  # nothing left to check: give up next turn
            self.claims[here] = view.robot
            return here
        _, goal = min(frontier, key=lambda entry: (abs(entry[1] // grid.cols - r0)
                                                   + abs(entry[1] % grid.cols - c0), entry[0]))
        self.claims[goal] = view.robot
        return goal

    def _ring_post(self, view: View, mind: Mind) -> int:
        grid, centre = view.grid, self.sighting[1]
        around = grid.distances([centre], max_dist=RING_RADIUS)
        mind.nodes += len(around) - around.count(-1)
        region = bytes(1 if d >= 0 else 0 for d in around)
        cuts = [v for v in grid.articulation_points(region) if v != centre]
        rings = [v for v in range(grid.size) if 2 <= around[v] <= RING_RADIUS]
        mine = self.cache.bfs(view.cell)
        for posts in (cuts, rings):
            free = [v for v in posts if v not in self.claims and mine[v] >= 0]
            if free:
                post = min(free, key=lambda v: (mine[v], v))
                self.claims[post] = view.robot
                return post
        return mind.last_known if mind.last_known is not None else view.cell

    # -- moving ----------------------------------------------------------------------------

    def _step_toward(self, grid: Grid, cell: int, target: int, mind: Mind) -> int:
        if target == cell:
            return cell
        found = astar_path(grid, cell, target, self.cost)
        if found is None:
            return cell
        mind.path, mind.visited = found.cells, found.expanded
        mind.nodes += found.nodes
        return found.cells[1]


def random_walk(rng: random.Random) -> Brain:
    """The baseline robot's brain (the strength benchmark's yardstick): a uniformly random
    passable neighbour, or staying, drawn from `rng`, which its caller hands it (the
    benchmark: the game's one seeded generator)."""
    def brain(view: View) -> int:
        grid, here = view.grid, view.cell
        return rng.choice([here] + [w for w in grid.neighbours[here] if grid.is_open(w)])
    return brain
