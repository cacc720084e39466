"""The stealth game, live: the same engine and robots as `twinsolve play`, on the server.

A game is `robots.play.new_game` on a level (a shipped level by number, or a
level file under the studio's folders), its seed the level's own unless
given, held by the server under a random name. Each turn is one request
with one action (`R D L U W X Z`: move, wait, EMP, undo, as the game's rules
name them): `Game.accepts` says whether the game takes it (after a capture
only an undo, while undos are left), `robots.play.turns` plays it and gives
the turn's record, the JSON object `twinsolve play --json` prints, which the
page shows in its head-up display. The board is the replay page itself
(`robots.replay_html.page` of the game so far, opened at its last turn): the
same canvas, fog, robots, intents and algorithm view layers. The replay is
`robots.replay.build` of the records: the file `twinsolve play --replay`
opens.

At most `GAMES` games are kept; starting one more forgets the one left
longest unplayed. A turn takes a lock of its own game only.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import UsageError, quoted
from ..core.instance_file import read_text
from ..robots import play, replay
from ..robots.game import ACTIONS, Game
from ..robots.level import Item, Level
from ..robots.replay_html import page
from .folders import Folders

__all__ = ["Games", "LiveGame", "GAMES"]

GAMES = 16


@dataclass
class LiveGame:
    level: Level
    text: str
    source: str
    seed: int
    game: Game
    records: list[dict[str, Any]] = field(default_factory=list)
    used: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def replay(self) -> dict[str, Any]:
        return replay.build(self.level, self.text, self.source, self.seed, self.records)

    def facts(self) -> dict[str, Any]:
        """What the page shows beside the board: the last record, and what it may do next."""
        last = self.records[-1] if self.records else play.start_record(self.game)
        return {"record": last, "turns": len(self.records), "turn_limit": self.level.turns,
                "shards_total": len(self.level.cells_with(Item.SHARD)),
                "accepts": {action: self.game.accepts(action) for action in ACTIONS},
                "name": dict(self.level.meta).get("name", "") or self.source}


class Games:
    """The live games, by name (module docstring)."""

    def __init__(self, folders: Folders) -> None:
        self.folders = folders
        self._games: dict[str, LiveGame] = {}
        self._lock = threading.Lock()

    def levels(self) -> list[dict[str, Any]]:
        """The shipped levels, in play order, with their names."""
        found = []
        for number, path in enumerate(play.shipped_levels(), 1):
            level = play.load(path)
            found.append({"number": number, "file": path.name,
                          "name": dict(level.meta).get("name", path.stem),
                          "size": f"{level.rows}x{level.cols}", "robots": len(level.robots)})
        return found

    def _level_file(self, request: dict[str, Any]) -> tuple[Any, str]:
        """(path, how a replay names it) of the level the request asks for."""
        if "folder" in request:
            path = self.folders.readable(request.get("folder"), request.get("path"))
            return path, str(request.get("path"))
        number = request.get("level")
        levels = play.shipped_levels()
        if type(number) is not int or not 1 <= number <= len(levels):
            raise UsageError(f"no shipped level {quoted(number)}: the levels are "
                             f"1..{len(levels)}")
        return levels[number - 1], play.source_of(levels[number - 1])

    def start(self, request: dict[str, Any]) -> tuple[str, LiveGame]:
        path, source = self._level_file(request)
        level = play.load(path)
        seed = request.get("seed", level.seed)
        if seed is None:
            seed = level.seed
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise UsageError(f"a seed is a whole number 0..2^63-1, not {quoted(seed)}")
        live = LiveGame(level, read_text(path, source), source, seed,
                        play.new_game(level, seed))
        name = secrets.token_hex(8)
        with self._lock:
            while len(self._games) >= GAMES:
                oldest = min(self._games, key=lambda key: self._games[key].used)
                del self._games[oldest]
            self._games[name] = live
        return name, live

    def get(self, name: Any) -> LiveGame:
        with self._lock:
            live = self._games.get(name) if isinstance(name, str) else None
        if live is None:
            raise UsageError("no such game (it ended, or the studio was restarted): start one")
        live.used = time.monotonic()
        return live

    def turn(self, name: Any, action: Any) -> dict[str, Any]:
        """Play one action; the turn's record and what the game takes next."""
        live = self.get(name)
        if not isinstance(action, str) or len(action) != 1 or action not in ACTIONS:
            raise UsageError(f"an action is one of {', '.join(ACTIONS)}, not {quoted(action)}")
        with live.lock:
            if not live.game.accepts(action):
                outcome = live.game.state.outcome.value
                raise UsageError(f"the game takes no {action!r} now ({outcome}"
                                 f"{', no undos left' if action == 'Z' else ''})")
            live.records.extend(play.turns(live.game, action))
            return live.facts()

    def page(self, name: Any) -> str:
        """The replay page of the game so far (module docstring)."""
        live = self.get(name)
        with live.lock:
            return page(live.replay())
