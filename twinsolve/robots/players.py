"""Three scripted players, for tests and benchmarks: greedy, evasive and cautious.

- greedy: walks a shortest path (BFS over the passable cells of this tick)
  to the nearest shard left, then to the exit; waits when none is reachable.
  Between first steps on equally short paths it picks with its own seeded
  generator (`random.Random`), so seeded games differ; the game's generator
  is left alone.
- evasive: the same goals, but only through cells it reaches strictly before
  every robot could (BFS distance fields from the player and from each robot
  that is not stunned, the same fields the robots use); with no such path it
  takes the greedy step if that cell is safe, else the neighbour (or staying)
  farthest from the nearest robot. After `PATIENCE` turns in a row without
  a safe path it stops hiding and takes the greedy step anyway, as a person
  does when waiting does not clear the way (a guard that holds its post
  never moves aside, and hiding until the time runs out loses too).
- cautious: a skilled player, the one that shows a level can be won. Its
  goals are every shard and every EMP pickup, then the exit; it plans its
  way round the sentinels that can act (they hold their posts: walking into
  one is a capture), straight on when no way goes round but never into one,
  and stuns such a sentinel with an EMP once it is two steps off. While no
  robot that comes for the player (any but a sentinel) is within `DANGER`
  steps it walks that way; otherwise it tries each action (stay, each open
  move, an EMP when a robot is within its reach) on a fork of the game
  (`Game.fork`), plays on `HORIZON` turns, walking on and hiding as the
  evasive player does, and takes the action whose better line it survives
  longest, then spends no EMP, then won, then collected the most, then ended
  nearest a goal, then its planned step, then the first in the order
  `ACTIONS`. Caught, it takes its last move back (an undo, while undos are
  left) and never plays that move from there again; when every move from
  there was caught, it takes back the one before. It reads the robots as a
  person reads them in the algorithm view: by playing the real rules
  forward, never by changing them.

A player is a function `(game, rng) -> action` (one of
`twinsolve.robots.game.ACTIONS`); `PLAYERS` maps each name to a factory
that makes a fresh one per game (the evasive player counts its waiting).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core.geometry import Direction
from .game import ACTIONS, EMP_RADIUS, Game, Outcome
from .level import RobotKind

__all__ = ["greedy", "Evasive", "Cautious", "PLAYERS", "PATIENCE", "DANGER", "HORIZON",
           "Player"]

PATIENCE = 10
DANGER = 8   # steps: a robot this near makes the cautious player look ahead
HORIZON = 6  # turns it looks ahead

Player = Callable[[Game, random.Random], str]
_LETTER = {Direction.RIGHT: "R", Direction.DOWN: "D", Direction.LEFT: "L", Direction.UP: "U"}


def _goals(game: Game, pickups: bool = False) -> list[int]:
    """The shards left (and with `pickups` the EMP pickups left), else the exit."""
    left = game.state.shards | game.state.pickups if pickups else game.state.shards
    return sorted(left) if left else [game.exit]


def _action(game: Game, step: int) -> str:
    """The letter that moves the player to the neighbouring cell `step` (W: stay)."""
    grid, here = game.grid, game.state.player
    for direction, letter in _LETTER.items():
        if grid.steps[direction][here] == step:
            return letter
    return "W"


def _toward(game: Game, rng: random.Random, within: bytes | None = None,
            pickups: bool = False) -> int | None:
    """A first step on a shortest path to the nearest goal (within `within`), chosen by
    `rng` among the equally good ones; None when no goal is reachable."""
    grid, here = game.grid, game.state.player
    dist = grid.distances(_goals(game, pickups), within=within)
    if dist[here] <= 0:
        return None
    nearer = [w for w in grid.neighbours[here] if dist[w] == dist[here] - 1]
    return rng.choice(nearer) if nearer else None


def greedy(game: Game, rng: random.Random) -> str:
    step = _toward(game, rng)
    return "W" if step is None else _action(game, step)


def _robot_reach(game: Game) -> list[int]:
    """Per cell, the fewest steps any active robot needs to reach it (-1: none can)."""
    grid = game.grid
    sources = [body.cell for body in game.state.robots if not body.stunned]
    return grid.distances(sources) if sources else [-1] * grid.size


class Evasive:
    """The evasive player of one game (module docstring); it remembers how long it hid."""

    def __init__(self) -> None:
        self.hiding = 0  # turns in a row without a safe path

    def __call__(self, game: Game, rng: random.Random) -> str:
        grid, here = game.grid, game.state.player
        robots = _robot_reach(game)
        mine = grid.distances([here])
        safe = bytes(1 if v == here or (mine[v] >= 0 and (robots[v] < 0 or mine[v] < robots[v]))
                     else 0 for v in range(grid.size))
        step = _toward(game, rng, within=safe)
        if step is not None:
            self.hiding = 0
            return _action(game, step)
        self.hiding += 1
        step = _toward(game, rng)
        if step is not None and (safe[step] or self.hiding > PATIENCE):
            return _action(game, step)
        options = [here] + [w for w in grid.neighbours[here] if grid.is_open(w)]
        best = max(options, key=lambda v: (robots[v] if robots[v] >= 0 else grid.size, -v))
        return _action(game, best)


class Cautious:
    """The cautious player of one game (module docstring); it remembers its moves, to take
    one back after a capture and try another."""

    def __init__(self) -> None:
        self.played: list[tuple[int, str]] = []  # (tick, action) of its moves in force
        self.banned: dict[int, set[str]] = {}  # tick -> the moves that led to a capture

    def __call__(self, game: Game, rng: random.Random) -> str:
        if game.state.outcome is Outcome.CAPTURED:  # asked only while an undo is left
            return self._take_back()
        action = self._choose(game, rng, self.banned.get(game.state.tick, set()))
        if action is None:  # every move from here was caught: take back the one before
            return self._take_back() if game.undos_left and self.played else "W"
        self.played.append((game.state.tick, action))
        return action

    def _take_back(self) -> str:
        if self.played:
            tick, action = self.played.pop()
            self.banned.setdefault(tick, set()).add(action)
        return "Z"

    def _choose(self, game: Game, rng: random.Random, banned: set[str]) -> str | None:
        grid, here = game.grid, game.state.player
        walk = _walk(game, rng)
        near = grid.distances([here], max_dist=DANGER)
        # The robots that come for the player make the danger; a sentinel holds its post.
        if walk not in banned and not any(
                not body.stunned and body.kind is not RobotKind.SENTINEL
                and near[body.cell] >= 0 for body in game.state.robots):
            return walk
        choices = ["W"] + [_action(game, w) for w in grid.neighbours[here] if grid.is_open(w)]
        if _emp_reaches(game):
            choices.append("X")
        outlook = {action: self._outlook(game, action) for action in choices
                   if action not in banned}
        if not outlook:
            return None
        return max(outlook, key=lambda action: (
            *outlook[action], action == walk, -ACTIONS.index(action)))

    @staticmethod
    def _outlook(game: Game, action: str) -> tuple[int, bool, bool, int, int]:
        """How the better of two lines that start with `action` ends (the player walking on,
        or hiding as the evasive player does), bigger is better: the turns survived, no EMP
        spent on it, won, items collected, minus the steps left to the nearest goal."""
        return max(_line(game, action, policy) for policy in (_walk, Evasive()))


def _line(game: Game, action: str, policy: Player) -> tuple[int, bool, bool, int, int]:
    """`Cautious._outlook` of one line: `action`, then `policy` up to `HORIZON` turns."""
    trial, rng = game.fork(), random.Random(0)
    before = len(trial.state.shards) + len(trial.state.pickups)
    survived = 0
    for turn in range(HORIZON):
        trial.play(action if turn == 0 else policy(trial, rng))
        if trial.state.outcome is not Outcome.PLAYING:
            break
        survived += 1
    outcome = trial.state.outcome
    if outcome is not Outcome.CAPTURED:
        survived = HORIZON
    collected = before - len(trial.state.shards) - len(trial.state.pickups)
    return (survived, action != "X", outcome is Outcome.WON, collected, -_goal_distance(trial))


def _walk(game: Game, rng: random.Random) -> str:
    """The cautious player's way on when nothing comes for it: an EMP when the sentinel
    that bars every way to a goal is two steps off; else its planned step (round the
    sentinels), never into one."""
    if _emp_frees(game, reach=2):
        return "X"
    step = _around_robots(game, rng)
    if step is None or any(body.cell == step and not body.stunned
                           and body.kind is RobotKind.SENTINEL for body in game.state.robots):
        return "W"  # never into a guard: it holds, and that is a capture
    return _action(game, step)


def _emp_reaches(game: Game) -> bool:
    """Whether an EMP now would stun a robot that can act."""
    here, cols = game.state.player, game.level.cols
    return game.state.emp > 0 and any(
        not body.stunned and abs(body.cell // cols - here // cols)
        + abs(body.cell % cols - here % cols) <= EMP_RADIUS for body in game.state.robots)


def _emp_frees(game: Game, reach: int = EMP_RADIUS) -> bool:
    """Whether an EMP now would stun a sentinel `reach` steps off or nearer while sentinels
    bar every way to a goal."""
    if not game.state.emp:
        return False
    grid, here = game.grid, game.state.player
    if grid.distances(_goals(game, pickups=True), within=_open_around_robots(game))[here] >= 0:
        return False
    near = grid.distances([here], max_dist=reach)
    return any(not body.stunned and body.kind is RobotKind.SENTINEL and near[body.cell] >= 0
               for body in game.state.robots)


def _open_around_robots(game: Game) -> bytes:
    """The passable cells but those of the sentinels that can act: a way round the robots
    that hold their posts (the others move on; the look ahead sees them)."""
    mask = bytearray(game.grid.open)
    for body in game.state.robots:
        if not body.stunned and body.kind is RobotKind.SENTINEL:
            mask[body.cell] = 0
    mask[game.state.player] = 1
    return bytes(mask)


def _around_robots(game: Game, rng: random.Random) -> int | None:
    """The cautious player's next step to its nearest goal (shards and EMP pickups, then the
    exit) round the sentinels that can act; straight at it when no way goes round them."""
    step = _toward(game, rng, within=_open_around_robots(game), pickups=True)
    return step if step is not None else _toward(game, rng, pickups=True)


def _goal_distance(game: Game) -> int:
    """Steps from the player to the nearest goal round the sentinels (straight when no way
    goes round them); the grid's size when none is reachable."""
    for within in (_open_around_robots(game), None):
        dist = game.grid.distances(_goals(game, pickups=True), within=within)
        if dist[game.state.player] >= 0:
            return dist[game.state.player]
    return game.grid.size


PLAYERS: dict[str, Callable[[], Player]] = {"greedy": lambda: greedy, "evasive": Evasive,
                                            "cautious": Cautious}
