"""Two scripted players, for tests and benchmarks: greedy and evasive.

- greedy: walks the shortest path (BFS over the passable cells of this tick)
  to the nearest shard left, then to the exit; waits when none is reachable.
- evasive: the same goals, but only through cells it reaches strictly before
  every robot could (BFS distance fields from the player and from each robot
  that is not stunned, the same fields the robots use); with no such path it
  takes the greedy step if that cell is safe, else the neighbour (or staying)
  farthest from the nearest robot.

A player is a function `(game) -> action` (one of `twinsolve.robots.game.ACTIONS`).
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.geometry import Direction
from .game import Game

__all__ = ["greedy", "evasive", "PLAYERS", "Player"]

Player = Callable[[Game], str]
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


def greedy(game: Game) -> str:
    path = game.grid.path_to_nearest(game.state.player, _goals(game))
    return _action(game, path[1]) if path and len(path) > 1 else "W"


def _robot_reach(game: Game) -> list[int]:
    """Per cell, the fewest steps any active robot needs to reach it (-1: none can)."""
    grid = game.grid
    sources = [body.cell for body in game.state.robots if not body.stunned]
    return grid.distances(sources) if sources else [-1] * grid.size


def evasive(game: Game) -> str:
    grid, here = game.grid, game.state.player
    robots = _robot_reach(game)
    mine = grid.distances([here])
    safe = bytes(1 if v == here or (mine[v] >= 0 and (robots[v] < 0 or mine[v] < robots[v]))
                 else 0 for v in range(grid.size))
    path = grid.path_to_nearest(here, _goals(game), within=safe)
    if path and len(path) > 1:
        return _action(game, path[1])
    step = grid.path_to_nearest(here, _goals(game))
    if step and len(step) > 1 and safe[step[1]]:
        return _action(game, step[1])
    options = [here] + [w for w in grid.neighbours[here] if grid.is_open(w)]
    best = max(options, key=lambda v: (robots[v] if robots[v] >= 0 else grid.size, -v))
    return _action(game, best)


PLAYERS: dict[str, Player] = {"greedy": greedy, "evasive": evasive}
