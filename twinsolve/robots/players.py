"""Two scripted players, for tests and benchmarks: greedy and evasive.

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

A player is a function `(game, rng) -> action` (one of
`twinsolve.robots.game.ACTIONS`); `PLAYERS` maps each name to a factory
that makes a fresh one per game (the evasive player counts its waiting).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core.geometry import Direction
from .game import Game

__all__ = ["greedy", "Evasive", "PLAYERS", "PATIENCE", "Player"]

PATIENCE = 10

Player = Callable[[Game, random.Random], str]
_LETTER = {Direction.RIGHT: "R", Direction.DOWN: "D", Direction.LEFT: "L", Direction.UP: "U"}


def _goals(game: Game) -> list[int]:
    return sorted(game.state.shards) if game.state.shards else [game.exit]


def _action(game: Game, step: int) -> str:
    """The letter that moves the player to the neighbouring cell `step` (W: stay)."""
    grid, here = game.grid, game.state.player
    for direction, letter in _LETTER.items():
        if grid.steps[direction][here] == step:
            return letter
    return "W"


def _toward(game: Game, rng: random.Random, within: bytes | None = None) -> int | None:
    """A first step on a shortest path to the nearest goal (within `within`), chosen by
    `rng` among the equally good ones; None when no goal is reachable."""
    grid, here = game.grid, game.state.player
    dist = grid.distances(_goals(game), within=within)
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


PLAYERS: dict[str, Callable[[], Player]] = {"greedy": lambda: greedy, "evasive": Evasive}
