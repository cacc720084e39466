"""Replays of the stealth game: one JSON file with the level, seed, moves and every turn.

A replay holds what is needed to re-simulate the game (the level file's
text, the seed, the move string) and what was seen (each turn's record from
`twinsolve.robots.play.record`, robots' plans included), so it can be
watched without the engine and checked against it:

    {"format": "twinsolve-robots-replay", "version": 1,
     "level": {"name": "First Contact", "source": "instances/robots/level-1.txt",
               "text": "robots 12 16\\n..."},
     "seed": 11, "moves": "RRDW...", "turns": [{"tick": 0, ...}, ...]}

`verify` re-simulates the moves and compares every recorded turn with the
engine's; the first turn that differs is the answer (or None). Because the
game is deterministic to the byte, any difference is a damaged or edited
file, or a change of the rules. `read` refuses anything that is not a
replay with the project's one-line error (`InstanceError` naming the file,
and the line and column of bad JSON); `write` writes atomically.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from ..core.atomic import write_text
from ..core.errors import InstanceError, UsageError
from ..core.instance_file import read_text
from ..core.run import file_problem
from .level import Level, parse
from .play import moves_of, new_game, turns

__all__ = ["FORMAT", "VERSION", "build", "write", "read", "level_of", "simulate", "verify",
           "Mismatch"]

FORMAT = "twinsolve-robots-replay"
VERSION = 1


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
    """The replay in the file at `path`; `InstanceError` naming the file when it is not one."""
    source = str(path)
    problem = file_problem(path)
    if problem:
        raise InstanceError(source, None, None, problem)
    text = read_text(path, source)
    try:
        replay = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InstanceError(source, exc.lineno, exc.colno,
                            f"not a replay: bad JSON ({exc.msg})") from None
    if not isinstance(replay, dict) or replay.get("format") != FORMAT:
        raise InstanceError(source, None, None,
                            f"not a twinsolve replay (no \"format\": \"{FORMAT}\")")
    if replay.get("version") != VERSION:
        raise InstanceError(source, None, None,
                            f"replay version {replay.get('version')!r} is not supported "
                            f"(this twinsolve reads {VERSION})")
    level = replay.get("level")
    if not isinstance(level, dict) or not isinstance(level.get("text"), str):
        raise InstanceError(source, None, None, "damaged replay: no level text")
    seed = replay.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise InstanceError(source, None, None, f"damaged replay: seed {seed!r} is no "
                                                "whole number >= 0")
    if not isinstance(replay.get("moves"), str):
        raise InstanceError(source, None, None, "damaged replay: no move string")
    try:
        moves_of(replay["moves"])
    except UsageError as exc:
        raise InstanceError(source, None, None, "damaged replay: its moves, "
                                                + str(exc).removeprefix("--moves: ")) from None
    records = replay.get("turns")
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise InstanceError(source, None, None, "damaged replay: \"turns\" is no list of turns")
    level_of(replay, source)  # the level must parse
    return replay


def level_of(replay: dict[str, Any], source: str | None = None) -> Level:
    """The replay's level; a bad level text is an `InstanceError` naming the replay."""
    try:
        return parse(replay["level"]["text"])
    except InstanceError as exc:
        raise InstanceError(source, None, None,
                            f"damaged replay: its level, line {exc.line}: {exc.message}") from None


def simulate(replay: dict[str, Any]) -> list[dict[str, Any]]:
    """The records the engine makes for the replay's level, seed and moves."""
    game = new_game(level_of(replay), replay["seed"])
    return list(turns(game, moves_of(replay["moves"])))


@dataclass(frozen=True)
class Mismatch:
    """The first turn (0-based index into the turns) where a replay and the engine differ."""

    turn: int
    what: str

    def __str__(self) -> str:
        return f"turn {self.turn} differs: {self.what}"


def verify(replay: dict[str, Any]) -> Mismatch | None:
    """None when every recorded turn is what the engine makes of the moves; else the first
    turn that differs, and how."""
    recorded, made = replay["turns"], simulate(replay)
    for index, (theirs, ours) in enumerate(zip(recorded, made, strict=False)):
        if theirs != ours:
            keys = sorted(set(theirs) | set(ours))
            field = next(key for key in keys if theirs.get(key) != ours.get(key))
            return Mismatch(index, f"recorded {field} {_short(theirs.get(field))}, "
                                   f"the engine makes {_short(ours.get(field))}")
    if len(recorded) != len(made):
        return Mismatch(min(len(recorded), len(made)),
                        f"{len(recorded)} turns recorded, the moves make {len(made)}")
    return None


def _short(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 3] + "..."
