"""The rules of the stealth game: one turn at a time, deterministic to the byte.

One turn (`Game.play(action)`):
1. the player acts: `R` `D` `L` `U` move one cell (into a wall or a closed
   door: no move, event `blocked`), `W` waits, `X` releases an EMP charge
   (every robot within Manhattan distance `EMP_RADIUS` is stunned: it does
   not act on the EMP's turn nor on the `EMP_TURNS` turns after it, and its
   `stunned` count says how many of those are left), `Z` undoes the last
   turn (`UNDOS` per game: the whole state before it comes back, the random
   generator's included; after a capture too, the one moment a player wants
   it most, while undos are left);
   stepping on a shard picks it up (the exit opens when none is left), on
   `e` gains an EMP charge, onto the open exit wins at once;
2. a move makes footsteps (none while silent): every robot whose cell is
   within `FOOTSTEPS` steps of the player over passable cells hears them
   (halved on cover, plus `ALARM_BONUS` on an alarm cell, which also sounds);
3. the skill point takes one random step (or stays when boxed in); the
   player catching it (on the same cell) gains at random a shield (absorbs
   one capture), silence (no footsteps for `SILENCE_TURNS` turns) or an EMP
   charge;
4. every robot that is not stunned acts, in the level's order: its `Brain`
   is given only what the rules let it see (`View`: its own state, what it
   perceives, the level's public `Layout`), never the game, and names the
   cell it steps to (its own, or a passable neighbour); a robot moving onto
   the player, or swapping cells with them, captures them unless a shield
   absorbs it;
5. the doors update: the tick advances and a new passability snapshot is
   built, shared by everyone in the next turn. Nobody may enter a closed
   door; an entity on a door cell that just closed may leave it. When the
   tick reaches the level's `turns` the game is lost on time.

Sight: the player sees along rows and columns up to `vision` cells, walls
and closed doors blocking; a robot sees the player only in its row or column
within `robot_vision` (halved when the player is on cover) with nothing
between. Every random choice comes from one `random.Random(seed)`.

What the brains remember between turns (the robots' minds, kept by their
planner, `twinsolve.robots.ai.Planner`) is no part of the state the rules
read: the game holds it as an opaque `Memory`, saved before every turn and
brought back with an undo, like the rest of the state.

Cells are flat indices `row * cols + col` of a `twinsolve.search.grid.Grid`,
the engine's grid, which answers every distance and sight question.
"""

from __future__ import annotations

import copy
import enum
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from ..core.geometry import Direction
from ..search.grid import Grid
from .level import Item, Level, RobotKind, Tile

__all__ = ["Game", "View", "Layout", "Brain", "Memory", "Outcome", "RobotBody", "ACTIONS",
           "EMP_RADIUS", "EMP_TURNS", "UNDOS", "FOOTSTEPS", "ALARM_BONUS", "SILENCE_TURNS",
           "ALARM_TURNS"]

ACTIONS = "RDLUWXZ"
_DIRECTION = {"R": Direction.RIGHT, "D": Direction.DOWN, "L": Direction.LEFT, "U": Direction.UP}
EMP_RADIUS, EMP_TURNS = 4, 5
UNDOS = 3
FOOTSTEPS, ALARM_BONUS = 4, 5
SILENCE_TURNS = 5
ALARM_TURNS = 5  # an alarm cell that sounded this recently costs robots more to cross
GIFTS = ("shield", "silence", "emp")


class Outcome(enum.Enum):
    PLAYING = "playing"
    WON = "won"
    CAPTURED = "captured"
    TIMEOUT = "timeout"


@dataclass
class RobotBody:
    """A robot as the rules see it (its mind is its brain's, which the rules never read)."""

    kind: RobotKind
    home: int
    cell: int
    stunned: int = 0  # the turns it will not act (an EMP's own turn left out)
    fresh: bool = False  # stunned by this turn's EMP


@dataclass(frozen=True)
class Layout:
    """The level's public facts, the same all game long: what any robot may know of the map
    (the cells' tiles, the walls-only maze with every door open, the exit, the player's
    entry cell: the level's `P`, how far robots see)."""

    tiles: tuple[Tile, ...]
    maze: Grid
    exit: int
    entry: int
    robot_vision: int


@dataclass(frozen=True)
class View:
    """Everything one robot may know this turn, and all its brain is given: its own state
    (index, kind, home, cell), the passability snapshot, whether it sees the player (their
    cell if so), where it heard footsteps (the source), the tick, the alarm cells that
    sounded, and the level's public layout. Nothing in it leads back to the game."""

    robot: int
    kind: RobotKind
    home: int
    cell: int
    grid: Grid
    sees: int | None
    heard: int | None
    tick: int
    alarms: Mapping[int, int]  # alarm cell -> tick it last sounded (a read-only copy)
    layout: Layout


Brain = Callable[[View], int]  # the cell the robot steps to


class Memory(Protocol):
    """What the brains remember between turns, outside the rules (the planner's minds):
    `save()` is called before every turn, `restore(saved)` by the undo of that turn."""

    def save(self) -> object: ...

    def restore(self, saved: object) -> None: ...


@dataclass
class _State:
    """Everything a turn changes (one deep copy per turn is what undo restores)."""

    tick: int
    player: int
    shards: set[int]
    pickups: set[int]  # EMP pickups still on the map
    skill: int | None
    robots: list[RobotBody]
    emp: int = 0
    shield: int = 0
    silence: int = 0
    alarms: dict[int, int] = field(default_factory=dict)
    outcome: Outcome = Outcome.PLAYING
    rng: tuple = ()


class Game:
    """A game of `level` with one brain per robot (`brains[i]` for `level.robots[i]`), and
    what they remember (`memory`, None: nothing to bring back on undo)."""

    def __init__(self, level: Level, brains: Sequence[Brain], seed: int | None = None,
                 memory: Memory | None = None) -> None:
        if len(brains) != len(level.robots):
            raise ValueError(f"{len(level.robots)} robots need as many brains, got "
                             f"{len(brains)}")
        self.level = level
        self.brains = list(brains)
        self.memory = memory
        cols = level.cols
        placed: dict[Item, list[int]] = {item: [] for item in Item}
        for (r, c), item in level.items:
            placed[item].append(r * cols + c)
        self._walls = [r * cols + c for r in range(level.rows) for c in range(cols)
                       if level.tiles[r][c] is Tile.WALL]
        self._doors = [(d.cell[0] * cols + d.cell[1], d) for d in level.doors]
        self.door_cells = [cell for cell, _ in self._doors]
        self.tiles = [tile for row in level.tiles for tile in row]
        self.exit = level.exit[0] * cols + level.exit[1]
        self.start = level.player[0] * cols + level.player[1]  # the player's entry cell
        self.rng = random.Random(level.seed if seed is None else seed)
        skills = placed[Item.SKILL]
        self.state = _State(
            tick=0, player=self.start,
            shards=set(placed[Item.SHARD]), pickups=set(placed[Item.EMP]),
            skill=skills[0] if skills else None,
            robots=[RobotBody(robot.kind, robot.home[0] * cols + robot.home[1],
                              robot.home[0] * cols + robot.home[1]) for robot in level.robots])
        self.undos_left = UNDOS
        self._history: list[tuple[_State, object]] = []  # (state, the brains' memory) per turn
        self.grid = self.passability(0)
        self.maze = Grid(level.rows, cols, self._walls)  # the walls only, every door open
        self.layout = Layout(tuple(self.tiles), self.maze, self.exit, self.start,
                             level.robot_vision)
        self.events: list[str] = []

    def fork(self) -> Game:
        """A copy of the game to try moves on (a scripted player looks ahead with it): the
        state, the rules' generator and the brains' memory copied; the level, the maze and
        this tick's passability (never changed once built) shared; no history, so an undo in
        the copy undoes nothing. Brains that keep state outside the game's memory (a random
        walk's generator) are shared too: a player looking ahead plays against planners."""
        shared = (self.level, self.layout, self.maze, self.tiles, self.door_cells, self._walls,
                  self._doors, self.grid)
        memo = {id(thing): thing for thing in shared}
        memo[id(self._history)] = []
        return copy.deepcopy(self, memo)

    # -- the world -------------------------------------------------------------------------

    def passability(self, tick: int) -> Grid:
        """Walls and the doors closed on `tick` closed: the passability everyone shares on
        that tick (a new grid each call)."""
        grid = Grid(self.level.rows, self.level.cols, self._walls)
        for cell, door in self._doors:
            if not door.is_open(tick):
                grid.close_cell(cell)
        return grid

    def exit_open(self) -> bool:
        return not self.state.shards

    def player_seen_by(self, body: RobotBody) -> bool:
        """Whether a robot sees the player: same row or column, within robot vision
        (halved on cover), nothing blocking between."""
        player, cols = self.state.player, self.level.cols
        radius = self.level.robot_vision
        if self.tiles[player] is Tile.COVER:
            radius //= 2
        if body.cell == player:
            return True
        (r, c), (pr, pc) = divmod(body.cell, cols), divmod(player, cols)
        if r == pr:
            direction = Direction.RIGHT if pc > c else Direction.LEFT
        elif c == pc:
            direction = Direction.DOWN if pr > r else Direction.UP
        else:
            return False
        return player in self.grid.line_of_sight(body.cell, direction, radius=radius)

    def player_sight(self) -> set[int]:
        """The cells the player sees: their own and along the four lines, up to vision."""
        seen = {self.state.player}
        for line in self.grid.sight_lines(self.state.player, radius=self.level.vision):
            seen.update(line)
        return seen

    def footsteps(self) -> list[int]:
        """The distance field of the player's footsteps (-1 where unheard)."""
        player = self.state.player
        radius = FOOTSTEPS // 2 if self.tiles[player] is Tile.COVER else FOOTSTEPS
        if self.tiles[player] is Tile.ALARM:
            radius += ALARM_BONUS
        return self.grid.distances([player], max_dist=radius)

    # -- a turn ----------------------------------------------------------------------------

    def play(self, action: str) -> list[str]:
        """One turn (module docstring); the events it made, e.g. `["shard", "captured"]`."""
        if action not in ACTIONS or len(action) != 1:
            raise ValueError(f"unknown action {action!r} (one of {', '.join(ACTIONS)})")
        if not self.accepts(action):
            raise ValueError(f"the game is over ({self.state.outcome.value})")
        self.events = []
        if action == "Z":
            self._undo()
            return self.events
        memory = None if self.memory is None else self.memory.save()
        self._history.append((copy.deepcopy(self._with_rng()), memory))
        state = self.state
        before = state.player
        moved = self._player_acts(action)
        if state.outcome is Outcome.PLAYING:
            heard = self._sound(moved)
            self._wander()
            self._robots_act(before, heard)
        self._advance()
        return self.events

    def accepts(self, action: str) -> bool:
        """Whether `action` may be played now: any while playing; after a capture, an undo
        while undos are left (`Z`); nothing after a win or the time running out."""
        outcome = self.state.outcome
        return outcome is Outcome.PLAYING or (
            outcome is Outcome.CAPTURED and action == "Z" and self.undos_left > 0)

    def _with_rng(self) -> _State:
        self.state.rng = self.rng.getstate()
        return self.state

    def _undo(self) -> None:
        if not self._history or not self.undos_left:
            self.events.append("no-undo")
            return
        self.undos_left -= 1
        self.state, memory = self._history.pop()
        if self.memory is not None:
            self.memory.restore(memory)
        self.rng.setstate(self.state.rng)
        self.grid = self.passability(self.state.tick)
        self.events.append("undo")

    def _player_acts(self, action: str) -> bool:
        """The player's action; True when they moved."""
        state = self.state
        if action == "X":
            if not state.emp:
                self.events.append("no-emp")
                return False
            state.emp -= 1
            pr, pc = divmod(state.player, self.level.cols)
            for body in state.robots:
                r, c = divmod(body.cell, self.level.cols)
                if abs(r - pr) + abs(c - pc) <= EMP_RADIUS:
                    body.stunned = EMP_TURNS
                    body.fresh = True  # skips this turn too, without counting it
            self.events.append("emp")
            return False
        if action == "W":
            return False
        target = self.grid.steps[_DIRECTION[action]][state.player]
        if target < 0 or not self.grid.is_open(target):
            self.events.append("blocked")
            return False
        state.player = target
        self._collect(target)
        if target == self.exit and self.exit_open():
            state.outcome = Outcome.WON
            self.events.append("won")
        return True

    def _collect(self, cell: int) -> None:
        state = self.state
        if cell in state.shards:
            state.shards.discard(cell)
            self.events.append("shard")
            if not state.shards:
                self.events.append("exit-open")
        if cell in state.pickups:
            state.pickups.discard(cell)
            state.emp += 1
            self.events.append("emp-pickup")
        if state.skill == cell:
            self._catch_skill()

    def _catch_skill(self) -> None:
        state = self.state
        state.skill = None
        gift = self.rng.choice(GIFTS)
        if gift == "shield":
            state.shield += 1
        elif gift == "silence":
            state.silence = SILENCE_TURNS
        else:
            state.emp += 1
        self.events.append(f"skill-{gift}")

    def _sound(self, moved: bool) -> int | None:
        """Footsteps of a move: the source robots hear (the player's cell), or None."""
        state = self.state
        if state.silence:
            state.silence -= 1
            return None
        if not moved:
            return None
        if self.tiles[state.player] is Tile.ALARM:
            state.alarms[state.player] = state.tick
            self.events.append("alarm")
        return state.player

    def _wander(self) -> None:
        state = self.state
        if state.skill is None:
            return
        moves = [w for w in self.grid.neighbours[state.skill] if self.grid.is_open(w)]
        if moves:
            state.skill = self.rng.choice(moves)
        if state.skill == state.player:
            self._catch_skill()

    def _robots_act(self, player_before: int, heard_at: int | None) -> None:
        state = self.state
        field_ = self.footsteps() if heard_at is not None else None
        for index, body in enumerate(state.robots):
            if body.stunned:
                if body.fresh:
                    body.fresh = False
                else:
                    body.stunned -= 1
                continue
            heard = heard_at if field_ is not None and field_[body.cell] >= 0 else None
            view = View(index, body.kind, body.home, body.cell, self.grid,
                        state.player if self.player_seen_by(body) else None, heard, state.tick,
                        MappingProxyType(dict(state.alarms)), self.layout)
            step = self.brains[index](view)
            if step != body.cell and (step not in self.grid.neighbours[body.cell]
                                      or not self.grid.is_open(step)):
                raise ValueError(f"robot {index} may not step from {body.cell} to {step}")
            start, body.cell = body.cell, step
            if step == state.player or (start == state.player and step == player_before):
                if state.shield:
                    state.shield -= 1
                    self.events.append("shield")
                    continue
                state.outcome = Outcome.CAPTURED
                self.events.append("captured")
                return

    def _advance(self) -> None:
        state = self.state
        state.tick += 1
        self.grid = self.passability(state.tick)
        if state.outcome is Outcome.PLAYING and state.tick >= self.level.turns:
            state.outcome = Outcome.TIMEOUT
            self.events.append("timeout")
