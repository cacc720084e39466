"""The four robots' minds: what each wants, and the one step it takes toward it.

Every robot is in one mode: `patrol` (walking its beat round its home: the
cells within `PATROL_RADIUS` steps in depth-first order; the sentinel holds
its post, below), `alert` (heard the player, or another robot saw them),
`chase` (sees the player), `search` (lost them) or `return` (going home),
and shows an intent label. What a robot knows of the player is their last
known cell (seen, heard, or seen by another robot this turn or the last) and
their heading: the step between two known cells one apart. Robot path costs
are in tenths: floor 10, cover 17, an alarm cell that sounded in the last
`ALARM_TURNS` turns 30 (`costs`). Every search is the engine's
(`twinsolve.search.fields`, `twinsolve.search.grid`); per tick the fields,
BFS distances, depth-first orders and articulation points are computed once
and shared by all robots through one `FieldCache` (keyed by origin).

- Sentinel, "guard chokepoint": never chases, never steps off its post to
  capture (a player who walks into it is caught by the rules all the same).
  Its post is chosen against a cell, the player's last known one (alerted,
  searching) or their entry cell (the level's `P`, which every robot knows:
  on patrol and going back), and chosen again only when that cell changes:
  of the cells it reaches no later than the player (BFS distances from that
  cell and from itself), the articulation points that separate the player
  from the exit first (alerted, nearest the player: the first way out on
  their way that it holds in time guards the most; against the entry,
  nearest itself: the one it surely holds in time), then any articulation
  point, then junctions of degree >= 3 (nearest itself); it walks there and
  holds;
  never on the exit, a cell next to it, or the entry. It judges on the
  maze with every door open: a closed door opens again within its period,
  and a post that flickered with the doors would guard nothing. Sentinels
  take distinct posts.
- Hunter, "chase": A* to the player's last known cell each turn, stepping to
  the path's second cell.
- Interceptor, "intercept": cuts the player off ahead. Extrapolating their
  heading up to `LOOKAHEAD` cells from the last known cell (stopping at
  walls and closed doors) gives the predicted point. Three BFS fields: from
  the player's possible cells (the last known cell and its passable
  neighbours: they may have stepped already), from itself, and from the
  predicted point. Every cell of the maze it reaches no later than the
  player is a candidate, those ahead (nearer the predicted point than the
  player) first; it takes the candidate nearest the predicted point (the
  fields are built towards it), then the farthest from the player, then the
  nearest to itself, then the first in cell order, and A* there: on the
  route ahead, it waits where the player will arrive; standing there while
  no news of the player comes, it goes for the last known cell. Lost, it
  keeps to the ambush its last news gave, then searches like the hunter.
- Scout, "sweep": once the player is lost, sweeps the whole connected region
  of the last known cell in depth-first order (`dfs_order` from that cell:
  the visit order is the sweep order), marking cells it stands on or sees as
  checked (scouts searching share the marks); each scout claims the nearest
  unclaimed unchecked cell (Manhattan distance, then the sweep order), so
  scouts never claim the same cell; after `SWEEP_TURNS` fruitless turns it
  forgets and returns home.
- Coordination, "hold ring": when the player was seen this turn or the last,
  alert robots other than the sentinel that neither see nor hear the player
  themselves (who does goes for them as its kind does) take distinct posts
  around the last known cell: the articulation points of
  the region within `RING_RADIUS` steps first, then the rings at 2 to 4
  steps, then any other cell of the region. Two robots never hold the same
  post (nor a sentinel's); a robot that finds none free holds its own cell.
  A robot that stood on its post through a turn closes in, "close in": it
  goes for the last known cell, so a ring round a player who stays put
  tightens instead of waiting for ever.

Any robot but the sentinel that sees the player on a neighbouring cell steps
onto them ("catch"). A robot whose target lies behind a closed door walks
the route the maze with every door open gives, up to the door, and waits
there: it never stands still with an empty path while a route exists.

`Planner(kinds)` runs the brains of one game's robots (`kinds[i]` is robot
i's kind): `planner.brains()` gives the brain per robot that
`twinsolve.robots.game.Game` calls, each with that robot's `View` only, and
the planner learns the map from the views' public `Layout`. It owns what the
robots remember (`planner.minds[i]`, robot i's) and what they share: the
per-tick cache, the last sighting, the cells claimed this tick. Coordination
goes through it, never through the game: scouts' shared marks and claims,
sentinels' distinct posts, the ring. It is the game's `Memory`: an undo
brings the minds back as they were before the turn. A robot's planned `path`
starts at the cell it stands on after its step and ends at its target.

`patrol_routes(level)` runs a planner on the level with no robot ever
perceiving the player: each robot's walk on patrol, what `twinsolve render
LEVEL --solution` draws.
"""

from __future__ import annotations

import copy
import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from ..search.fields import FieldCache, astar_path, dfs_order
from ..search.grid import Grid
from .game import ALARM_TURNS, Brain, Game, Layout, RobotBody, View
from .level import Level, RobotKind, Tile

__all__ = ["Mode", "Mind", "Planner", "costs", "random_walk", "predicted_point", "patrol_beat",
           "patrol_routes", "LOOKAHEAD", "SWEEP_TURNS", "RING_RADIUS", "PATROL_RADIUS",
           "ROUTE_TURNS", "INTENTS"]

LOOKAHEAD = 4
SWEEP_TURNS = 14
RING_RADIUS = 4
PATROL_RADIUS = 3  # a patrolling robot walks the cells this many steps from home
ROUTE_TURNS = 200  # the longest patrol walk `patrol_routes` follows
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
    path: tuple[int, ...] = ()     # from the cell it stands on after its step to the target
    visited: tuple[int, ...] = ()  # cells its own searches expanded this turn
    nodes: int = 0                 # search nodes it spent this turn (cached fields are free)
    last_known: int | None = None  # the player's cell as it last knew it
    heading: tuple[int, int] | None = None  # (rows, cols) of the player's last known step
    moved_at: int = 0  # the tick the last known cell last changed
    lost: int = 0
    checked: set[int] = field(default_factory=set)
    beat: int = 0  # the patrol beat's next cell
    post: int | None = None  # a sentinel's post
    post_against: int | None = None  # the cell its post was chosen against


def costs(tiles: Sequence[Tile], tick: int, alarms: Mapping[int, int]) -> list[int]:
    """Entering a cell (`tiles`: one per cell): floor 10, cover 17, an alarm that sounded
    lately 30."""
    table = [17 if tile is Tile.COVER else 10 for tile in tiles]
    for cell, when in alarms.items():
        if tick - when < ALARM_TURNS:
            table[cell] = 30
    return table


def predicted_point(grid: Grid, cell: int, heading: tuple[int, int] | None,
                    cells: int = LOOKAHEAD) -> int:
    """`cell` moved along `heading` up to `cells` steps, stopping before the border, a wall
    or a closed door (`cell` itself without a heading).

    >>> predicted_point(Grid.from_strings(["......#"]), 1, (0, 1))
    5
    >>> predicted_point(Grid.from_strings(["...#..."]), 1, (0, 1))
    2
    """
    if heading is None:
        return cell
    r, c = divmod(cell, grid.cols)
    dr, dc = heading
    for _ in range(cells):
        r, c = r + dr, c + dc
        if not (0 <= r < grid.rows and 0 <= c < grid.cols) or not grid.is_open(r * grid.cols + c):
            break
        cell = r * grid.cols + c
    return cell


def patrol_beat(grid: Grid, home: int) -> list[int]:
    """A patrolling robot's beat: the cells within `PATROL_RADIUS` steps of `home` over
    `grid`'s passable cells, in depth-first order from home.

    >>> patrol_beat(Grid.from_strings(["........"]), 1)
    [1, 2, 3, 4, 0]
    """
    near = grid.distances([home], max_dist=PATROL_RADIUS)
    region = bytes(1 if d >= 0 else 0 for d in near)
    return dfs_order(grid, home, within=region) or [home]


def patrol_routes(level: Level, turns: int = ROUTE_TURNS) -> list[list[int]]:
    """Each robot's walk on patrol (its cells from home, one a turn), as the planner makes
    it while no robot perceives the player: a robot on its beat once round it, back home;
    a sentinel up to its post; at most `turns` turns each (a door may keep one waiting).
    The picture of a level's solution draws them (`picture.routes_of`)."""
    game = Game(level, [_stay] * len(level.robots))
    planner = Planner([robot.kind for robot in level.robots])
    bodies = game.state.robots
    walks = [[body.cell] for body in bodies]
    rounds = [len(patrol_beat(game.grid, body.home)) for body in bodies]
    walking = set(range(len(bodies)))
    for tick in range(turns):
        grid = game.passability(tick)
        for index, body in enumerate(bodies):
            view = View(index, body.kind, body.home, body.cell, grid, None, None, tick,
                        MappingProxyType({}), game.layout)
            body.cell = planner.decide(view)
            if index in walking:
                walks[index].append(body.cell)
                if _walked(planner.minds[index], body, rounds[index]):
                    walking.discard(index)
        if not walking:
            break
    return walks


def _stay(view: View) -> int:
    return view.cell


def _walked(mind: Mind, body: RobotBody, round_: int) -> bool:
    """Whether a patrol walk is done: a sentinel on its post, any other robot home again
    from the last cell of its beat."""
    if body.kind is RobotKind.SENTINEL:
        return body.cell == mind.post
    return body.cell == body.home and mind.beat >= round_


def _manhattan(cols: int, a: int, b: int) -> int:
    return abs(a // cols - b // cols) + abs(a % cols - b % cols)


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
        self._orders: dict[int, list[int]] = {}  # this tick's depth-first orders, by origin

    def brains(self) -> list[Brain]:
        return [self.decide] * len(self.kinds)

    # -- the game's memory: the minds, as an undo brings them back -------------------------

    def save(self) -> tuple[list[Mind], tuple[int, int] | None]:
        return copy.deepcopy(self.minds), self.sighting

    def restore(self, saved: tuple[list[Mind], tuple[int, int] | None]) -> None:
        self.minds, self.sighting = saved  # the game hands each saved copy back once
        self._tick = None  # the tick's shared results are rebuilt

    def __deepcopy__(self, memo: dict) -> Planner:
        """A planner with copies of these minds and what they share between turns; the
        per-tick results are left out, to be made on its next decision (`Game.fork`)."""
        other = Planner(self.kinds)
        other.minds, other.sighting = copy.deepcopy((self.minds, self.sighting), memo)
        return other

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
        self._orders = {}

    def decide(self, view: View) -> int:
        """The brain every robot shares: perceive, choose a target, step toward it."""
        self._refresh(view)
        mind = self.minds[view.robot]
        mind.visited, mind.nodes, mind.path = (), 0, ()
        before = self.cache.nodes + self.maze.nodes
        self._perceive(view, mind)
        target = self._target(view, mind)
        mind.target = target
        step = self._step_toward(view.grid, view.cell, target, mind)
        mind.nodes += self.cache.nodes + self.maze.nodes - before
        return step

    def _know(self, view: View, mind: Mind, cell: int) -> None:
        """The player is at `cell`: a step from the last known cell gives their heading."""
        before = mind.last_known
        if before is not None and before != cell and _manhattan(view.grid.cols, before,
                                                                cell) == 1:
            (r0, c0), (r1, c1) = divmod(before, view.grid.cols), divmod(cell, view.grid.cols)
            mind.heading = (r1 - r0, c1 - c0)
        if cell != before:
            mind.moved_at = view.tick
        mind.last_known = cell
        mind.lost = 0

    def _perceive(self, view: View, mind: Mind) -> None:
        if view.sees is not None:
            self._know(view, mind, view.sees)
            # The sentinel never chases: seeing the player only alerts it.
            mind.mode = Mode.ALERT if view.kind is RobotKind.SENTINEL else Mode.CHASE
            self.sighting = (view.tick, view.sees)
            return
        if view.heard is not None:
            self._know(view, mind, view.heard)
            mind.mode = Mode.ALERT
            return
        if self.sighting is not None and view.tick - self.sighting[0] <= 1 \
                and mind.mode in (Mode.PATROL, Mode.ALERT, Mode.RETURN):
            self._know(view, mind, self.sighting[1])
            mind.mode = Mode.ALERT
            return
        if mind.mode in (Mode.CHASE, Mode.ALERT):
            mind.mode, mind.lost = Mode.SEARCH, 0
            mind.checked = set()
        elif mind.mode is Mode.SEARCH:
            mind.lost += 1
            if mind.lost >= SWEEP_TURNS:
                mind.mode, mind.last_known, mind.checked = Mode.RETURN, None, set()
                mind.heading = None

    # -- targets -------------------------------------------------------------------------------

    def _target(self, view: View, mind: Mind) -> int:
        kind = view.kind
        if kind is RobotKind.SENTINEL:
            return self._guard(view, mind)
        if view.sees is not None and view.sees in view.grid.neighbours[view.cell]:
            mind.intent = "catch"  # a player in reach is caught
            return view.sees
        if mind.mode is Mode.RETURN:
            mind.intent = "return"
            if view.cell != view.home:
                return view.home
            mind.mode, mind.beat = Mode.PATROL, 0
        if mind.mode is Mode.PATROL:
            mind.intent = "patrol"
            return self._beat(view, mind)
        if mind.mode is Mode.ALERT and view.sees is None and view.heard is None \
                and self.sighting is not None and view.tick - self.sighting[0] <= 1:
            return self._ring_post(view, mind)
        mind.intent = INTENTS[kind]
        if kind is RobotKind.SCOUT and mind.mode is Mode.SEARCH:
            return self._sweep(view, mind)
        if mind.mode is Mode.SEARCH and mind.last_known == view.cell:
            # Where the player was last known, and nobody there: nothing left to go for.
            mind.mode, mind.last_known, mind.heading = Mode.RETURN, None, None
            mind.intent = "return"
            return view.home
        if kind is RobotKind.INTERCEPTOR and mind.last_known is not None:
            return self._ambush(view, mind)
        return mind.last_known if mind.last_known is not None else view.home

    def _beat(self, view: View, mind: Mind) -> int:
        """The next cell of its beat (`beat`), walked round and round."""
        beat = patrol_beat(view.grid, view.home)
        mind.nodes += len(beat)
        if beat[mind.beat % len(beat)] == view.cell:
            mind.beat += 1
        return beat[mind.beat % len(beat)]

    def _guard(self, view: View, mind: Mind) -> int:
        """The sentinel's post (module docstring), chosen again only when the cell it is
        held against changes; on patrol and going back, against the player's entry."""
        if view.sees == view.cell:
            mind.intent = "catch"  # they walked into it: it stands, and that is a capture
            return view.cell
        if mind.mode is Mode.RETURN:
            mind.mode = Mode.PATROL
        against = view.layout.entry if mind.mode is Mode.PATROL else mind.last_known
        if against is None:
            against = view.layout.entry
        mind.intent = INTENTS[RobotKind.SENTINEL]
        if mind.post is None or mind.post_against != against:
            # Sentinels take distinct posts: the ones the planner's minds hold are taken.
            taken = {other.post for i, other in enumerate(self.minds) if i != view.robot}
            mind.post = self._chokepoint(self.maze, view.cell, against, taken,
                                         alerted=mind.mode is not Mode.PATROL)
            mind.post_against = against
        return mind.post

    def _chokepoint(self, cache: FieldCache, cell: int, player: int,
                    taken: set[int | None] = frozenset(), alerted: bool = True) -> int:
        """The cell to hold against a player at `player` on `cache`'s grid, for a robot on
        `cell`, none of `taken` (module docstring); its own cell when nothing qualifies.
        `alerted`: the player was there lately (else it is their entry, long ago)."""
        grid = cache.grid
        player_dist = cache.bfs(player)
        mine = cache.bfs(cell)
        exit_cuts = set(grid.separators(player, self.layout.exit))
        cuts = set(cache.articulation_points())
        # Never the exit, its doorstep or the entry: a guard there bars the game, not a way.
        exit_ = self.layout.exit
        barred = {*taken, exit_, *grid.neighbours[exit_], self.layout.entry}
        candidates = [v for v in range(grid.size) if v not in barred and mine[v] >= 0
                      and (player_dist[v] < 0 or mine[v] <= player_dist[v])]

        def rank(v: int) -> tuple:
            degree = sum(grid.is_open(w) for w in grid.neighbours[v])
            tier = 0 if v in exit_cuts else 1 if v in cuts else 2 if degree >= 3 else 3
            # Alerted, a way out nearest the player first: the first one on their way that it
            # holds in time guards the most. Any other post nearest itself: against the
            # entry, long ago, the one it surely holds in time, near its beat.
            near = player_dist[v] if tier == 0 and alerted else mine[v]
            return (tier, near, mine[v], v)
        best = min(candidates, key=rank, default=cell)
        return best if rank(best)[0] < 3 else cell

    def _ambush(self, view: View, mind: Mind) -> int:
        """The interceptor's ambush cell (module docstring); the player's cell when it is
        within reach or no cell qualifies."""
        grid, player = view.grid, mind.last_known
        mine = self.cache.bfs(view.cell)
        if 0 <= mine[player] <= 1:
            return player  # within reach: no ambush needed
        near = self.cache.bfs(player)
        # From the last known cell and its passable neighbours, all at 0: every path from
        # the cell leaves through a neighbour, so that field is this one less one step.
        theirs = [d - 1 if d > 0 else d for d in near]
        ahead = self.cache.bfs(predicted_point(grid, player, mind.heading))
        candidates = [v for v in range(grid.size)
                      if 0 <= mine[v] and (theirs[v] < 0 or mine[v] <= theirs[v])
                      and ahead[v] >= 0]
        # Ahead: nearer the predicted point than the player's cells (none without a heading).
        onward = [v for v in candidates if ahead[v] < theirs[v]] or candidates
        ambush = min(onward, key=lambda v: (ahead[v], -theirs[v], mine[v], v), default=player)
        if ambush == view.cell and mind.moved_at < view.tick:
            return player  # in place, and they stopped: waiting would wait for ever
        return ambush

    def _sweep_order(self, grid: Grid, origin: int) -> list[int]:
        """The depth-first order of the region of `origin` this tick, shared by the scouts."""
        order = self._orders.get(origin)
        if order is None:
            order = self._orders[origin] = dfs_order(grid, origin)
        return order

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
        order = self._sweep_order(grid, origin)
        mind.nodes += len(order)
        frontier = [(i, v) for i, v in enumerate(order)
                    if v not in checked and v not in self.claims]
        if not frontier:
            mind.lost = SWEEP_TURNS - 1  # nothing left to check: give up next turn
            self.claims[here] = view.robot
            return here
        cols = grid.cols
        _, goal = min(frontier, key=lambda entry: (_manhattan(cols, entry[1], here), entry[0]))
        self.claims[goal] = view.robot
        return goal

    def _ring_post(self, view: View, mind: Mind) -> int:
        grid, centre = view.grid, self.sighting[1]
        if mind.intent == "close in" or (mind.intent == "hold ring"
                                         and mind.target == view.cell):
            mind.intent = "close in"  # it held its post a turn: the ring closes
            return centre
        mind.intent = "hold ring"
        around = grid.distances([centre], max_dist=RING_RADIUS)
        mind.nodes += len(around) - around.count(-1)
        region = bytes(1 if d >= 0 else 0 for d in around)
        cuts = [v for v in grid.articulation_points(region) if v != centre]
        rings = [v for v in range(grid.size) if 2 <= around[v] <= RING_RADIUS]
        rest = [v for v in range(grid.size) if around[v] == 1]
        mine = self.cache.bfs(view.cell)
        # A sentinel's post is held already: nobody else takes it.
        held = {other.post for kind, other in zip(self.kinds, self.minds, strict=True)
                if kind is RobotKind.SENTINEL}
        for posts in (cuts, rings, rest):
            free = [v for v in posts if v not in self.claims and v not in held and mine[v] >= 0]
            if free:
                post = min(free, key=lambda v: (mine[v], v))
                self.claims[post] = view.robot
                return post
        return view.cell

    # -- moving ----------------------------------------------------------------------------

    def _step_toward(self, grid: Grid, cell: int, target: int, mind: Mind) -> int:
        """The first step of a cheapest path to `target`; when closed doors bar every path,
        the first step of the maze's path with every door open, or staying when that step
        is a closed door (it waits at the door)."""
        if target == cell:
            return cell
        found = astar_path(grid, cell, target, self.cost)
        if found is None:
            found = astar_path(self.layout.maze, cell, target, self.cost)
        if found is None:
            return cell
        step = found.cells[1]
        waits = not grid.is_open(step)
        # The path starts where the robot stands after its step.
        mind.path = found.cells if waits else found.cells[1:]
        mind.visited = found.expanded
        mind.nodes += found.nodes
        return cell if waits else step


def random_walk(rng: random.Random) -> Brain:
    """The baseline robot's brain (the strength benchmark's yardstick): a uniformly random
    passable neighbour, or staying, drawn from `rng`, which its caller hands it (the
    benchmark: the game's one seeded generator)."""
    def brain(view: View) -> int:
        grid, here = view.grid, view.cell
        return rng.choice([here] + [w for w in grid.neighbours[here] if grid.is_open(w)])
    return brain
