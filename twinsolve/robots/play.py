"""Playing a level without a terminal: a move string or a scripted player, a record per turn.

`load(path)` reads a level file (the project's one-line errors); `new_game`
sets the four robots' planner on it (their brains, and the game's memory:
the minds the records print); `turns(game, actions)` plays and yields
one record per turn, the JSON object `twinsolve play LEVEL --moves M --json`
prints per line: tick (the tick the turn was played on), action, player,
shards left, exit open, the shards and EMP pickups still on the map, the
skill point's cell, EMP charges, shields, silent turns left, undos left, the
alarm cells sounding, the cells the player sees (`sight`), robots (kind,
cell, state, intent, target, planned path, the cells its search visited this
turn, search nodes, stunned turns), doors (cell, open on the next tick),
events and outcome. Cells are [row, col]; the state is the one after the
turn. The same level, seed and moves give the same records, byte for byte.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..core.errors import InstanceError, UsageError
from ..core.instance_file import read_text
from ..core.run import file_problem
from .ai import Mind, Planner
from .game import ACTIONS, ALARM_TURNS, Game, Outcome
from .level import Level, parse
from .players import PLAYERS

__all__ = ["load", "new_game", "minds", "turns", "record", "start_record", "moves_of",
           "scripted", "shipped_levels", "resolve_level", "source_of", "LEVELS"]

LEVELS = Path(__file__).resolve().parents[2] / "instances" / "robots"  # the shipped levels


def shipped_levels() -> list[Path]:
    """The shipped level files in play order: level-1, level-2, ..., then the others by name
    (the 64x64 stress level); `twinsolve play N` plays the N-th."""
    def order(path: Path) -> tuple:
        number = path.stem.removeprefix("level-")
        return (0, int(number), "") if number.isdigit() else (1, 0, path.name)
    return sorted(LEVELS.glob("*.txt"), key=order) if LEVELS.is_dir() else []


def source_of(path: Path) -> str:
    """How a replay names its level file: a shipped level relative to the project
    (`instances/robots/level-1.txt`, the same on every machine), any other as given."""
    try:
        return str(path.resolve().relative_to(LEVELS.parents[1]))
    except ValueError:
        return str(path)


def resolve_level(name: str) -> Path:
    """The level file `name` names: a path, or the number of a shipped level."""
    path = Path(name)
    if name.isdigit() and not path.exists():
        levels = shipped_levels()
        if not levels:
            raise UsageError(f"no shipped levels in {LEVELS}: name a level file")
        if not 1 <= int(name) <= len(levels):
            raise UsageError(f"no shipped level {name}: the levels are 1..{len(levels)} "
                             "('twinsolve play' lists them)")
        return levels[int(name) - 1]
    return path


def load(path: str | os.PathLike[str]) -> Level:
    """The level in the file at `path`; `InstanceError` naming the file otherwise."""
    source = str(path)
    problem = file_problem(path)
    if problem:
        raise InstanceError(source, None, None, problem)
    return parse(read_text(path, source), source)


def new_game(level: Level, seed: int | None = None) -> Game:
    """A game of `level` whose robots think with one shared `Planner`, its memory."""
    planner = Planner([robot.kind for robot in level.robots])
    return Game(level, planner.brains(), seed, memory=planner)


def minds(game: Game) -> list[Mind]:
    """The robots' minds of a `new_game` (its planner's), robot i's at index i."""
    planner = game.memory
    if not isinstance(planner, Planner):
        raise ValueError("the robots of this game have no planner (see new_game)")
    return planner.minds


def moves_of(text: str) -> str:
    """The actions of a move string (spaces and commas ignored); `UsageError` naming the
    first character that is no action."""
    actions = []
    for position, char in enumerate(text, start=1):
        if char in " ,":
            continue
        if char.upper() not in ACTIONS:
            raise UsageError(f"--moves: character {position} is {char!r}, not an action "
                             f"({', '.join(ACTIONS)}: right, down, left, up, wait, EMP, undo)")
        actions.append(char.upper())
    return "".join(actions)


def scripted(game: Game, name: str, limit: int, seed: int = 0) -> Iterator[str]:
    """The actions of scripted player `name`, at most `limit` of them; `seed` seeds the
    player's own generator (its tie-breaks), never the game's."""
    player, rng = PLAYERS[name](), random.Random(f"twinsolve play {name} {seed}")
    for _ in range(limit):
        if game.state.outcome is not Outcome.PLAYING and not game.accepts("Z"):
            return  # over (a player may still undo a capture)
        yield player(game, rng)


def _cell(game: Game, index: int | None) -> list[int] | None:
    return None if index is None else list(divmod(index, game.level.cols))


def record(game: Game, tick: int, action: str, events: list[str]) -> dict[str, Any]:
    """The JSON-ready record of the turn just played (module docstring)."""
    state = game.state
    robots = []
    for body, mind in zip(state.robots, minds(game), strict=True):
        robots.append({
            "kind": body.kind.name.lower(), "cell": _cell(game, body.cell),
            "state": mind.mode.value, "intent": mind.intent,
            "target": _cell(game, mind.target),
            "path": [_cell(game, v) for v in mind.path],
            "visited": [_cell(game, v) for v in mind.visited],
            "nodes": mind.nodes, "stunned": body.stunned})
    cols = game.level.cols
    doors = [{"cell": [cell // cols, cell % cols], "open": game.grid.is_open(cell)}
             for cell in game.door_cells]
    return {"tick": tick, "action": action, "player": _cell(game, state.player),
            "shards_left": len(state.shards), "exit_open": game.exit_open(),
            "shards": [_cell(game, v) for v in sorted(state.shards)],
            "pickups": [_cell(game, v) for v in sorted(state.pickups)],
            "skill": _cell(game, state.skill), "emp": state.emp, "shield": state.shield,
            "silence": state.silence, "undos_left": game.undos_left,
            "alarms": [_cell(game, v) for v, when in sorted(state.alarms.items())
                       if state.tick - when < ALARM_TURNS],
            "sight": [_cell(game, v) for v in sorted(game.player_sight())],
            "robots": robots, "doors": doors, "events": events,
            "outcome": state.outcome.value}


def start_record(game: Game) -> dict[str, Any]:
    """The record of the game before its first turn (action "", no events)."""
    return record(game, game.state.tick, "", [])


def turns(game: Game, actions: Iterable[str]) -> Iterator[dict[str, Any]]:
    """Play `actions` in turn until the game ends; one record per turn played. After a
    capture an undo plays on while undos are left (`Game.accepts`); any other action there
    ends the game."""
    for action in actions:
        if not game.accepts(action):
            return
        tick = game.state.tick
        events = game.play(action)
        yield record(game, tick, action, events)
