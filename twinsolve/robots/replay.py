"""Replays of the stealth game: one JSON file with the level, seed, moves and every turn.

A replay holds what is needed to re-simulate the game (the level file's
text, the seed, the move string) and what was seen (each turn's record from
`twinsolve.robots.play.record`, robots' plans included), so it can be
watched without the engine and checked against it:

    {"format": "twinsolve-robots-replay", "version": 1,
     "level": {"name": "First Contact", "source": "instances/robots/level-1.txt",
               "text": "robots 12 16\\n..."},
     "seed": 11, "moves": "RRDW...", "turns": [{"tick": 0, ...}, ...]}

`read` takes a file only whole: its JSON through the project's one strict
reader (`core.json_text`: a byte-order mark dropped, nesting and numbers
bounded), then every field against the schema below and against the
replay's own level, before anything uses it; so `verify`, the page
(`replay_html`) and the terminal viewer only ever see well-formed data.
Anything else is one `InstanceError` naming the file and, for a damaged
replay, the place: `r.json: damaged replay: turn 3: robots[0].cell: [5, 99]
is outside the 12x16 map` (turns counted from 0, as `verify` counts them).

The schema (`_TOP`, `_LEVEL`, `_TURN`, `_ROBOT`, `_DOOR`) is the one
statement of what a replay holds: every field present, no field unknown,
each of its type, and in range for the level: cells inside the map (the
player, robots and the skill point on no wall; shards, EMP pickups and
sounding alarms where the level has them), the robots and doors the level's
own, in its order; counts within what the rules can give (EMP charges at
most the pickups plus the skill point's gift, `UNDOS`, `SILENCE_TURNS`,
`EMP_TURNS`); ticks below the level's time limit (an undo after a capture
on the last tick is on the limit itself) and in order (turn 0 on tick 0,
each turn on the next tick, or back to an earlier one after an undo).
Whether the turns are what the engine makes of the moves is not the
schema's question but `verify`'s: it re-simulates the moves and compares
every recorded turn with the engine's; the first turn that differs is the
answer (or None). Because the game is deterministic to the byte, any
difference is a damaged or edited file, or a change of the rules. `write`
writes through twinsolve.files.atomic (atomically, for a plain file).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..core.errors import InstanceError, UsageError
from ..core.instance_file import read_text
from ..core.json_text import parse_json
from ..core.limits import MAX_SEED
from ..core.run import file_problem
from ..files.atomic import write_text
from .ai import Mode
from .game import ACTIONS, EMP_TURNS, SILENCE_TURNS, UNDOS, Outcome
from .level import Item, Level, RobotKind, Tile, parse
from .play import moves_of, new_game, turns

__all__ = ["FORMAT", "VERSION", "build", "write", "read", "check", "level_of", "simulate",
           "verify", "Mismatch"]

FORMAT = "twinsolve-robots-replay"
VERSION = 1
# Search nodes are shown by the page's script, whose numbers are exact only up to 2**53 - 1.
MAX_NODES = 2**53 - 1


def build(level: Level, level_text: str, source: str | None, seed: int,
          records: list[dict[str, Any]]) -> dict[str, Any]:
    """The replay of a game of `level` (parsed from `level_text`) played with `seed`."""
    return {"format": FORMAT, "version": VERSION,
            "level": {"name": dict(level.meta).get("name", ""), "source": source or "",
                      "text": level_text},
            "seed": seed, "moves": "".join(record["action"] for record in records),
            "turns": records}


def write(path: str | os.PathLike[str], replay: dict[str, Any]) -> None:
    """Write `replay` to `path` atomically (`UsageError` when it cannot be written)."""
    write_text(path, json.dumps(replay, separators=(",", ":")) + "\n")


def read(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The replay in the file at `path`, checked whole (`check`); `InstanceError` naming the
    file, and the place, when it is not one."""
    source = str(path)
    problem = file_problem(path)
    if problem:
        raise InstanceError(source, None, None, problem)
    replay = parse_json(read_text(path, source), source)
    check(replay, source)
    return replay


def level_of(replay: dict[str, Any], source: str | None = None) -> Level:
    """The replay's level; a bad level text is an `InstanceError` naming the replay."""
    try:
        return parse(replay["level"]["text"])
    except InstanceError as exc:
        raise InstanceError(source, None, None,
                            f"damaged replay: its level, line {exc.line}: {exc.message}") from None


# ---------------------------------------------------------------- the schema

class _Bad(Exception):
    """One problem with a value, and the path to it (keys and list indices) once known."""

    def __init__(self, problem: str, *path: str | int) -> None:
        super().__init__(problem)
        self.problem = problem
        self.path = list(path)

    def place(self) -> str:
        """Where, as a reader finds it: `turn 3: robots[0].cell`, `seed`, or '' (the top)."""
        path, head = self.path, ""
        if len(path) >= 2 and path[0] == "turns" and isinstance(path[1], int):
            head, path = f"turn {path[1]}", path[2:]
        tail = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path)
        tail = tail.removeprefix(".")
        return ": ".join(part for part in (head, tail) if part)


@contextmanager
def _at(step: str | int) -> Iterator[None]:
    """Problems found inside the block are at `step` below the current place."""
    try:
        yield
    except _Bad as bad:
        bad.path.insert(0, step)
        raise


@dataclass(frozen=True)
class _Limits:
    """What a record's values may be in a game of one level."""

    level: Level
    walls: frozenset[tuple[int, int]]
    shards: frozenset[tuple[int, int]]
    pickups: frozenset[tuple[int, int]]
    alarms: frozenset[tuple[int, int]]
    skills: int   # skill points in play: 0 or 1 (the game uses the first `k`)

    @classmethod
    def of(cls, level: Level) -> _Limits:
        def tiles(kind: Tile) -> frozenset[tuple[int, int]]:
            return frozenset((r, c) for r, row in enumerate(level.tiles)
                             for c, tile in enumerate(row) if tile is kind)
        return cls(level, tiles(Tile.WALL), frozenset(level.cells_with(Item.SHARD)),
                   frozenset(level.cells_with(Item.EMP)), tiles(Tile.ALARM),
                   min(1, len(level.cells_with(Item.SKILL))))


# A check raises _Bad for a value that is not as it should be; the level's fields are
# checked before there is a level, with None.
Check = Callable[[Any, "_Limits | None"], None]


def _shown(value: Any) -> str:
    """`value` in a message: short, on one line, in JSON's spelling (`null`, `true`,
    `"x"`: what the file says), a list or object too long for that by its size."""
    if isinstance(value, str):
        return json.dumps(value if len(value) <= 40 else value[:37] + "...")
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, list) and len(value) <= 4 and not any(
            isinstance(item, list | dict | str) for item in value):
        return json.dumps(value, separators=(", ", ": "))
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' * (len(value) != 1)}"
    if isinstance(value, dict):
        return f"an object of {len(value)} field{'s' * (len(value) != 1)}"
    return json.dumps(value)


def _is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole(low: int, high: int | Callable[[_Limits], int]) -> Check:
    """A whole number low..high (`high` may depend on the level)."""
    def check(value: Any, limits: _Limits) -> None:
        top = high(limits) if callable(high) else high
        if not _is_whole(value) or not low <= value <= top:
            raise _Bad(f"{_shown(value)} is not a whole number {low}..{top}")
    return check


def _flag(value: Any, limits: _Limits) -> None:
    if not isinstance(value, bool):
        raise _Bad(f"{_shown(value)} is not true or false")


def _text(value: Any, limits: _Limits | None) -> None:
    if not isinstance(value, str):
        raise _Bad(f"{_shown(value)} is not a string")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # JSON's "\ud800": no text a page or a terminal can show
        raise _Bad(f"{_shown(value)} holds a lone surrogate (not valid Unicode)") from None


def _one_of(*choices: str) -> Check:
    def check(value: Any, limits: _Limits) -> None:
        if not isinstance(value, str) or value not in choices:
            raise _Bad(f"{_shown(value)} is not one of {', '.join(choices)}")
    return check


def _cell(among: str | None = None, open_: bool = False) -> Check:
    """A cell [row, col] inside the map; with `open_` no wall; with `among` one of the
    level's cells of that kind (a `_Limits` field: shards, pickups, alarms)."""
    def check(value: Any, limits: _Limits) -> None:
        if not (isinstance(value, list) and len(value) == 2 and all(map(_is_whole, value))):
            raise _Bad(f"{_shown(value)} is not a cell [row, col]")
        rows, cols = limits.level.rows, limits.level.cols
        cell = (value[0], value[1])
        if not (0 <= cell[0] < rows and 0 <= cell[1] < cols):
            raise _Bad(f"{_shown(value)} is outside the {rows}x{cols} map")
        if open_ and cell in limits.walls:
            raise _Bad(f"{_shown(value)} is a wall")
        if among is not None and cell not in getattr(limits, among):
            raise _Bad(f"{_shown(value)} is not one of the level's {among}")
    return check


def _or_none(check: Check) -> Check:
    def either(value: Any, limits: _Limits) -> None:
        if value is not None:
            check(value, limits)
    return either


def _list(item: Check) -> Check:
    def check(value: Any, limits: _Limits) -> None:
        if not isinstance(value, list):
            raise _Bad(f"{_shown(value)} is not a list")
        for index, entry in enumerate(value):
            try:  # what `_at` does, without its cost per cell
                item(entry, limits)
            except _Bad as bad:
                bad.path.insert(0, index)
                raise
    return check


def _record(fields: dict[str, Check]) -> Check:
    """An object with exactly these fields, each as its check says, in the table's order."""
    def check(value: Any, limits: _Limits | None) -> None:
        _fields(value, fields)
        for key, field in fields.items():
            try:
                field(value[key], limits)
            except _Bad as bad:
                bad.path.insert(0, key)
                raise
    return check


def _fields(value: Any, fields: dict[str, Any]) -> None:
    """`value` is an object with every one of `fields` and no other."""
    if not isinstance(value, dict):
        raise _Bad(f"{_shown(value)} is not an object")
    unknown = next((key for key in value if key not in fields), None)
    if unknown is not None:
        raise _Bad(f"unknown field {_shown(unknown)}")
    missing = next((key for key in fields if key not in value), None)
    if missing is not None:
        raise _Bad("missing", missing)


def _listed(what: str, expected: Callable[[_Limits], tuple], item: Check,
            same: Callable[[dict[str, Any], Any], str | None]) -> Check:
    """The level's robots or doors: as many as it has, in its order, each an `item` that is
    the level's own (`same(record, the level's) -> a problem or None`)."""
    def check(value: Any, limits: _Limits) -> None:
        _list(item)(value, limits)
        theirs = expected(limits)
        if len(value) != len(theirs):
            raise _Bad(f"{len(value)} {what}, the level has {len(theirs)}")
        for index, (record, own) in enumerate(zip(value, theirs, strict=True)):
            problem = same(record, own)
            if problem is not None:
                raise _Bad(problem, index)
    return check


def _same_robot(robot: dict[str, Any], own: Any) -> str | None:
    kind = own.kind.name.lower()
    return None if robot["kind"] == kind else \
        f"kind {_shown(robot['kind'])} is not the level's robot here, a {kind}"


def _same_door(door: dict[str, Any], own: Any) -> str | None:
    return None if tuple(door["cell"]) == own.cell else \
        f"cell {_shown(door['cell'])} is not the level's door here, at {list(own.cell)}"


_ROBOT: dict[str, Check] = {
    "kind": _one_of(*(kind.name.lower() for kind in RobotKind)),
    "cell": _cell(open_=True), "state": _one_of(*(mode.value for mode in Mode)),
    "intent": _text, "target": _or_none(_cell()), "path": _list(_cell()),
    "visited": _list(_cell()), "nodes": _whole(0, MAX_NODES), "stunned": _whole(0, EMP_TURNS)}
_DOOR: dict[str, Check] = {"cell": _cell(), "open": _flag}
_TURN: dict[str, Check] = {
    "tick": _whole(0, lambda limits: limits.level.turns),  # below it but for an undo
    "action": _one_of(*ACTIONS), "player": _cell(open_=True),
    "shards_left": _whole(0, lambda limits: len(limits.shards)), "exit_open": _flag,
    "shards": _list(_cell(among="shards")), "pickups": _list(_cell(among="pickups")),
    "skill": _or_none(_cell(open_=True)),
    # EMP charges come from the pickups and the skill point's gift; a shield from the gift.
    "emp": _whole(0, lambda limits: len(limits.pickups) + limits.skills),
    "shield": _whole(0, lambda limits: limits.skills), "silence": _whole(0, SILENCE_TURNS),
    "undos_left": _whole(0, UNDOS), "alarms": _list(_cell(among="alarms")),
    "sight": _list(_cell()),
    "robots": _listed("robots", lambda limits: limits.level.robots, _record(_ROBOT),
                      _same_robot),
    "doors": _listed("doors", lambda limits: limits.level.doors, _record(_DOOR), _same_door),
    "events": _list(_text), "outcome": _one_of(*(outcome.value for outcome in Outcome))}
_LEVEL: dict[str, Check] = {"name": _text, "source": _text, "text": _text}
_TOP = ("format", "version", "level", "seed", "moves", "turns")


def _moves(value: Any, limits: _Limits) -> None:
    _text(value, limits)
    try:
        moves_of(value)
    except UsageError as exc:
        raise _Bad(str(exc).removeprefix("--moves: ")) from None


def _turns(value: Any, limits: _Limits) -> None:
    """Every record as `_TURN` says, and the ticks in order (module docstring)."""
    _list(_record(_TURN))(value, limits)
    for index, record in enumerate(value):
        tick, before = record["tick"], value[index - 1] if index else None
        if before is None:
            ordered, why = tick == 0, "the first turn is on tick 0"
        elif before["action"] == "Z":  # an undo goes back to an earlier tick, or stays
            ordered, why = tick <= before["tick"], f"after an undo on tick {before['tick']}"
        else:
            ordered, why = tick == before["tick"] + 1, f"after a turn on tick {before['tick']}"
        if not ordered:
            raise _Bad(f"{tick} is out of order ({why})", index, "tick")
        if tick == limits.level.turns and record["action"] != "Z":
            raise _Bad(f"{tick} is past the last tick, {tick - 1} (only an undo after a "
                       "capture comes on the time limit)", index, "tick")


def check(replay: Any, source: str | None = None) -> Level:
    """The level of `replay` (decoded JSON) when it is a whole, well-formed replay (module
    docstring); otherwise an `InstanceError` naming `source` and the first problem."""
    if not isinstance(replay, dict) or replay.get("format") != FORMAT:
        raise InstanceError(source, None, None,
                            f"not a twinsolve replay (no \"format\": \"{FORMAT}\")")
    version = replay.get("version", VERSION)  # none at all: a missing field, below
    if not _is_whole(version) or version != VERSION:
        raise InstanceError(source, None, None, f"replay version {_shown(version)} is not "
                                                f"supported (this twinsolve reads {VERSION})")
    try:
        _fields(replay, dict.fromkeys(_TOP))
        with _at("level"):
            _record(_LEVEL)(replay["level"], None)  # strings: they need no level's limits
        level = level_of(replay, source)
        limits = _Limits.of(level)
        for key, field in (("seed", _whole(0, MAX_SEED)), ("moves", _moves), ("turns", _turns)):
            with _at(key):
                field(replay[key], limits)
    except _Bad as bad:
        place = bad.place()
        raise InstanceError(source, None, None,
                            f"damaged replay: {place + ': ' if place else ''}{bad.problem}"
                            ) from None
    return level


# ---------------------------------------------------------------- re-simulating

def simulate(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """The records the engine makes for the replay's level, seed and moves."""
    return list(_made(replay))


def _made(replay: dict[str, Any]) -> Iterator[dict[str, Any]]:
    game = new_game(level_of(replay), replay["seed"])
    return turns(game, moves_of(replay["moves"]))


@dataclass(frozen=True)
class Mismatch:
    """The first turn (0-based index into the turns) where a replay and the engine differ."""

    turn: int
    what: str

    def __str__(self) -> str:
        return f"turn {self.turn} differs: {self.what}"


_ABSENT = object()  # a field one record has and the other lacks


def verify(replay: dict[str, Any]) -> Mismatch | None:
    """None when every recorded turn is what the engine makes of the moves; else the first
    turn that differs, and how. `replay` is as `read` gives it.

    The engine's records are compared as they are made, one at a time, so a long move
    string costs time but never memory."""
    recorded = replay["turns"]
    made = 0
    for index, ours in enumerate(_made(replay)):
        made = index + 1
        if index >= len(recorded):
            continue  # counting the turns the moves make beyond the recorded ones
        theirs = recorded[index]
        if theirs != ours:
            field = next(key for key in sorted(set(theirs) | set(ours))
                         if theirs.get(key, _ABSENT) != ours.get(key, _ABSENT))
            return Mismatch(index, f"recorded {field} {_value(theirs, field)}, "
                                   f"the engine makes {_value(ours, field)}")
    if len(recorded) != made:
        return Mismatch(min(len(recorded), made),
                        f"{len(recorded)} turns recorded, the moves make {made}")
    return None


def _value(record: dict[str, Any], field: str, limit: int = 60) -> str:
    if field not in record:
        return "nothing"
    text = json.dumps(record[field], separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 3] + "..."
