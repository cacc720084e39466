"""The terminal game and its replay viewer, driven as a person drives them: the real
`twinsolve` command in a pseudo-terminal (pexpect), its output read through a terminal
emulator (pyte) into the characters a person sees. What the screen must show is taken
from the engine (the level file, and the records `twinsolve.robots.play` makes for the
same moves), never written into the test by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte
import pytest
from conftest import ROOT
from pyte.graphics import FG_BG_256

from twinsolve.core.geometry import DELTAS
from twinsolve.robots import play
from twinsolve.robots import replay as replays
from twinsolve.robots.game import UNDOS
from twinsolve.robots.level import Item, Tile
from twinsolve.robots.terminal import CYAN, GOLD, PANEL_WIDTH, PINK, minimum_size

TWINSOLVE = Path(sys.executable).parent / "twinsolve"
LEVELS = ROOT / "instances" / "robots"
LEVEL_1 = LEVELS / "level-1.txt"
STRESS = LEVELS / "stress-64x64.txt"
ROWS, COLUMNS = 24, 80
MAP_COLUMNS = COLUMNS - PANEL_WIDTH - 1  # the map window, left of the HUD's '|' column
RIGHT_KEYPAD, RIGHT_CSI = "\x1bOC", "\x1b[C"  # Right in keypad mode (curses turns it on), and out
HOME, END = "\x1bOH", "\x1bOF"
BACKSPACE = "\x7f"
WASD = {"R": "d", "D": "s", "L": "a", "U": "w", "W": " ", "X": "e", "Z": "u"}


class Emulator(pyte.Screen):
    """pyte's screen with REP (CSI n b: repeat the last character n times), which ncurses
    sends on xterm for runs of one character (a row of walls) and pyte does not know."""

    last = " "

    def draw(self, data: str) -> None:
        if data:
            self.last = data[-1]
        super().draw(data)

    def repeat_last(self, count: int = 1, *args, **kwargs) -> None:
        self.draw(self.last * max(count, 1))


class Stream(pyte.ByteStream):
    csi = {**pyte.ByteStream.csi, "b": "repeat_last"}


class Session:
    """One `twinsolve` run in a pseudo-terminal, and the screen it draws."""

    def __init__(self, folder: Path, *args: str, term: str = "xterm-256color",
                 size: tuple[int, int] = (ROWS, COLUMNS)) -> None:
        env = {key: value for key, value in os.environ.items()
               if key not in ("LINES", "COLUMNS")}  # ncurses would believe them over the pty
        env.update(TERM=term, HOME=str(folder))
        self.child = pexpect.spawn(str(TWINSOLVE), list(args), dimensions=size, env=env,
                                   cwd=str(folder), timeout=20)
        self.screen = Emulator(size[1], size[0])
        self.stream = Stream(self.screen)

    @property
    def lines(self) -> list[str]:
        return list(self.screen.display)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def read(self, until: Callable[[Session], bool] | None = None, timeout: float = 15.0,
             quiet: float = 0.05) -> list[str]:
        """Feed the output to the screen until `until(self)` holds (AssertionError after
        `timeout` seconds), then until the output rests for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        while until is not None and not until(self):
            if time.monotonic() > deadline:
                raise AssertionError("the screen never showed what was awaited:\n" + self.text)
            if not self._feed(0.05):
                if not self.child.isalive():
                    raise AssertionError("the program ended early:\n" + self.text)
        while self._feed(quiet):
            pass
        return self.lines

    def _feed(self, wait: float) -> bool:
        try:
            self.stream.feed(self.child.read_nonblocking(65536, timeout=wait))
            return True
        except (pexpect.TIMEOUT, pexpect.EOF):
            return False

    def press(self, keys: str, until: Callable[[Session], bool] | None = None) -> list[str]:
        self.child.send(keys)
        return self.read(until)

    def shows(self, *words: str) -> Callable[[Session], bool]:
        return lambda session: all(word in session.text for word in words)

    def map_char(self, y: int, x: int) -> str:
        return self.screen.buffer[y][x].data

    def find(self, glyph: str) -> list[tuple[int, int]]:
        """The map window's cells that show `glyph`."""
        return [(y, x) for y, line in enumerate(self.lines) for x, char in
                enumerate(line[:MAP_COLUMNS]) if char == glyph]

    def quit(self) -> int:
        """Press Q (and Y when the game asks whether to quit); the exit status."""
        self.child.send("q")
        try:
            self.read(self.shows("Quit this game?"), timeout=2)
        except AssertionError:
            if self.child.isalive() and "Quit this game?" not in self.text:
                raise
        if "Quit this game?" in self.text:
            self.child.send("y")
        return self.finish()

    def finish(self) -> int:
        """Wait for the program to end; its exit status."""
        self.child.expect(pexpect.EOF, timeout=20)
        self.child.close()
        return self.child.exitstatus


@pytest.fixture
def session(tmp_path):
    """Start sessions in tmp_path; none outlives its test."""
    started = []

    def start(*args: str, **options) -> Session:
        started.append(Session(tmp_path, *args, **options))
        return started[-1]
    yield start
    for run in started:
        if run.child.isalive():
            run.child.terminate(force=True)


def records(path: Path, moves: str, seed: int) -> list[dict]:
    """The engine's records for `moves` on the level at `path` (the start record first)."""
    game = play.new_game(play.load(path), seed)
    return [play.start_record(game), *play.turns(game, moves)]


def at(record: dict) -> tuple[int, int]:
    return tuple(record["player"])


def caught_moves(path: Path, seed: int = 0) -> str:
    """The greedy player's moves on the level at `path` up to its capture (asserted)."""
    game = play.new_game(play.load(path), seed)
    moves = "".join(record["action"] for record in play.turns(
        game, play.scripted(game, "greedy", game.level.turns, seed)))
    assert game.state.outcome.value == "captured", moves
    return moves


def turn_line(tick: int, level) -> str:
    return f"turn {tick} of {level.turns}"


# -- the live game ------------------------------------------------------------------------------

def test_the_hud_shows_the_level_and_the_map_only_what_the_player_sees(session):
    level = play.load(LEVEL_1)
    start = records(LEVEL_1, "", 0)[0]
    game = session("play", "1", "--seed", "0")
    game.read(game.shows("turn 0"))
    assert dict(level.meta)["name"] == "First Contact" and "First Contact" in game.text
    shards = len(level.cells_with(Item.SHARD))
    assert shards == 3 and f"shards left {shards} of {shards}" in game.text
    assert turn_line(0, level) in game.text and f"undos left {UNDOS}" in game.text
    assert "H hunter: patrol" in game.text  # kind and intent label
    assert game.find("@") == [level.player]
    hunter = tuple(start["robots"][0]["cell"])
    assert hunter not in [tuple(cell) for cell in start["sight"]]
    assert game.find("H") == [] and game.map_char(*hunter) == " "  # in the fog
    assert game.find("*") == []  # no shard in sight at the start
    colour = game.screen.buffer[level.player[0]][level.player[1]].fg
    assert colour != "default"  # xterm-256color has colours: the player is drawn in one
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_arrows_and_wasd_move_the_player_a_turn_at_a_time(session):
    level = play.load(LEVEL_1)
    expected = records(LEVEL_1, "RRRR", 0)
    game = session("play", "1", "--seed", "0")
    game.read(game.shows("turn 0"))
    for tick, key in enumerate([RIGHT_KEYPAD, RIGHT_CSI, "d"], start=1):
        game.press(key, game.shows(turn_line(tick, level)))
        assert game.find("@") == [at(expected[tick])]
    assert at(expected[3]) == (at(expected[0])[0], at(expected[0])[1] + 3)
    # Seen at the start, out of sight now: remembered, dimmed (another colour).
    sight_now = set(map(tuple, expected[3]["sight"]))
    in_sight = next(cell for cell in sight_now if level.tile(cell) is Tile.FLOOR
                    and cell != at(expected[3]))
    left_behind = set(map(tuple, expected[0]["sight"])) - sight_now
    for cell in [cell for cell in left_behind if level.tile(cell) is Tile.FLOOR]:
        assert game.map_char(*cell) == "."
        assert game.screen.buffer[cell[0]][cell[1]].fg != \
            game.screen.buffer[in_sight[0]][in_sight[1]].fg
    game.press("d", game.shows(turn_line(4, level)))  # a wall ahead: the turn passes, no move
    assert game.find("@") == [at(expected[4])] == [at(expected[3])]
    assert "events: blocked" in game.text
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_undo_brings_the_player_back_and_spends_an_undo(session):
    level = play.load(LEVEL_1)
    game = session("play", "1", "--seed", "0")
    game.read(game.shows("turn 0"))
    game.press("d", game.shows(turn_line(1, level)))
    game.press("u", game.shows(f"undos left {UNDOS - 1}"))
    assert game.find("@") == [level.player] and turn_line(0, level) in game.text
    game.press("d", game.shows(turn_line(1, level)))
    game.press(BACKSPACE, game.shows(f"undos left {UNDOS - 2}"))
    assert game.find("@") == [level.player] and "events: undo" in game.text
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_algorithm_view_lifts_the_fog_and_draws_the_plans(session):
    level = play.load(LEVEL_1)
    after = records(LEVEL_1, "W", 0)[1]
    hunter = after["robots"][0]
    marked = [tuple(cell) for cell in hunter["path"] + hunter["visited"]
              if tuple(cell) not in (tuple(hunter["cell"]), tuple(hunter["target"]))]
    assert marked, "the hunter plans a path on its first turn"
    game = session("play", "1", "--seed", "0")
    game.read(game.shows("turn 0"))
    game.press(" ", game.shows(turn_line(1, level)))
    assert game.find("H") == []
    game.press("v", lambda s: s.find("H") != [])
    assert game.find("H") == [tuple(hunter["cell"])]
    assert all(game.map_char(*cell) in "o:" for cell in marked)
    target = tuple(hunter["target"])
    assert game.screen.buffer[target[0]][target[1]].reverse  # the target is ringed
    shards = level.cells_with(Item.SHARD)
    assert sorted(game.find("*")) == sorted(shards)  # no fog: every shard shows
    assert game.map_char(*level.exit) == "X"  # locked: X, never E (the EMP key)
    game.press("v", lambda s: s.find("H") == [])
    assert [glyph for glyph in "o:T" if game.find(glyph)] == []
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_question_mark_shows_the_rules_then_the_keys_and_any_key_turns_the_page(session):
    level = play.load(LEVEL_1)
    game = session("play", "1", "--seed", "0")
    game.read(game.shows("turn 0"))
    game.press("?", game.shows("THE RULES", "page 1 of 2"))
    for words in ("data shard", "sentinel", "interceptor", "EMP", "on a timer", "undos"):
        assert words in game.text
    game.press("q", game.shows("KEYS", "page 2 of 2"))  # Q turns the page, it does not quit
    for words in ("move", "wait a turn", "release an EMP", "undo", "algorithm view",
                  "restart (asks first)", "quit (asks first)"):
        assert words in game.text
    game.press("d", lambda s: "KEYS" not in s.text)
    assert game.find("@") == [level.player] and turn_line(0, level) in game.text
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_q_and_r_ask_first_during_a_game(session):
    level = play.load(LEVEL_1)
    game = session("play", "1", "--seed", "0")
    game.read(game.shows("turn 0"))
    game.press("s", game.shows(turn_line(1, level)))
    game.press("q", game.shows("Quit this game?", "Y yes"))
    game.press("n", lambda s: "Quit this game?" not in s.text)  # any other key: back
    assert game.child.isalive() and turn_line(1, level) in game.text
    game.press("r", game.shows("Restart from turn 0?"))
    game.press("x", lambda s: "Restart" not in s.text)
    assert turn_line(1, level) in game.text            # no restart
    game.press("r", game.shows("Restart from turn 0?"))
    game.press("y", game.shows(turn_line(0, level)))   # restarted
    assert game.find("@") == [level.player]
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_a_capture_shows_the_robot_that_caught_you_and_undo_takes_it_back(session):
    level = play.load(LEVEL_1)
    moves = caught_moves(LEVEL_1)
    played = records(LEVEL_1, moves, 0)
    last = played[-1]
    game = session("play", "1", "--seed", "0")
    game.read(game.shows("turn 0"))
    game.press("".join(WASD[action] for action in moves), game.shows("CAPTURED"))
    collected = len(level.cells_with(Item.SHARD)) - last["shards_left"]
    for words in ("the hunter caught you", f"turns {len(moves)}",
                  f"shards collected {collected} of 3", f"undos used 0 of {UNDOS}",
                  "U undo", "R restart", "Q quit"):
        assert words in game.text
    hunter = tuple(last["robots"][0]["cell"])
    if hunter == at(last):  # caught on the player's cell: the robot is drawn there
        assert game.map_char(*hunter) == "H" and game.screen.buffer[hunter[0]][hunter[1]].reverse
    else:                   # it swapped cells with them: it stands where they were
        assert game.map_char(*hunter) == "H"
    assert game.find("@") == [] or hunter != at(last)
    game.press("a")  # the game is over: moving does nothing
    game.press("u", game.shows(f"undos left {UNDOS - 1}"))
    assert "CAPTURED" not in game.text and turn_line(len(moves) - 1, level) in game.text
    assert game.find("@") == [at(played[-2])]
    game.press("q", game.shows("Quit this game?"))     # the game is on again: Q asks
    game.press("n", lambda s: "Quit" not in s.text)
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_a_capture_with_no_undo_left_ends_for_good_and_r_restarts_without_asking(session):
    level = play.load(LEVEL_1)
    moves = caught_moves(LEVEL_1)
    spent = "RZ" * UNDOS + moves  # every undo spent first
    game = session("play", "1", "--seed", "0")
    game.read(game.shows("turn 0"))
    game.press("".join(WASD[action] for action in spent), game.shows("CAPTURED"))
    assert "U undo" not in game.text and f"undos used {UNDOS} of {UNDOS}" in game.text
    game.press("u")
    game.press("?", game.shows("THE RULES"))  # (a key after it, to know it was read)
    game.press("?", game.shows("KEYS"))
    game.press("?", game.shows("CAPTURED"))
    game.press("r", game.shows(turn_line(0, level)))   # over: no question
    assert "CAPTURED" not in game.text and game.find("@") == [level.player]
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@pytest.mark.parametrize("keys, title", [("dd", "YOU ESCAPED"), ("   ", "OUT OF TIME")])
def test_winning_and_running_out_of_time_end_on_their_screens(session, tmp_path, keys, title):
    (tmp_path / "tiny.txt").write_text("# name: Tiny\nrobots 3 5\n#####\n#P*E#\n#####\n"
                                       "turns 3\n")
    level = play.load(tmp_path / "tiny.txt")
    moves = "".join({"d": "R", " ": "W"}[key] for key in keys)
    last = records(tmp_path / "tiny.txt", moves, 0)[-1]
    assert last["outcome"] == {"YOU ESCAPED": "won", "OUT OF TIME": "timeout"}[title]
    game = session("play", "tiny.txt", "--seed", "0")
    game.read(game.shows("Tiny", "turn 0", "no robots"))
    game.press(keys, game.shows(title))
    collected = len(level.cells_with(Item.SHARD)) - last["shards_left"]
    assert f"turns {len(keys)}" in game.text and f"shards collected {collected} of 1" in game.text
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_record_keeps_every_attempt_of_the_session_and_each_verifies(session, tmp_path):
    level = play.load(LEVEL_1)
    game = session("play", "1", "--seed", "0", "--record", "r.json")
    game.read(game.shows("turn 0"))
    game.press("s", game.shows(turn_line(1, level)))
    game.press("r", game.shows("Restart from turn 0?"))
    game.press("y", game.shows(turn_line(0, level)))  # a restart: a second attempt begins
    for tick, key in enumerate("dd", start=1):
        game.press(key, game.shows(turn_line(tick, level)))
    game.press("u", game.shows(f"undos left {UNDOS - 1}"))
    assert game.quit() == 0
    first = json.loads((tmp_path / "r.json").read_text())
    second = json.loads((tmp_path / "r-2.json").read_text())
    assert (first["moves"], second["moves"]) == ("D", "RRZ")
    assert first["turns"] == records(LEVEL_1, "D", 0)[1:]
    assert second["turns"] == records(LEVEL_1, "RRZ", 0)[1:]
    # The level named as the project names it, never this machine's folders.
    assert first["level"]["source"] == "instances/robots/level-1.txt"
    said = game.child.before.decode()
    assert "wrote r.json" in said and "wrote r-2.json" in said
    for name in ("r.json", "r-2.json"):
        checked = subprocess.run([str(TWINSOLVE), "play", "--replay", name, "--verify"],
                                 cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_a_terminal_too_small_says_so_and_the_game_appears_when_it_grows(session):
    level = play.load(LEVEL_1)
    columns, rows = minimum_size(level)
    assert columns <= COLUMNS and rows <= ROWS
    game = session("play", "1", "--seed", "0", size=(10, 40))
    game.read(lambda s: "press Q" in " ".join(line.strip() for line in s.lines))
    said = " ".join(line.strip() for line in game.lines)
    assert f"terminal 40x10 is too small: twinsolve play needs at least {columns}x{rows}" \
        in said and "enlarge it" in said
    # Too small to see, too small to play: a move is ignored. (The screen cannot show
    # that the key was read, so give the program time to read it before the resize.)
    game.child.send("d")
    game.read(quiet=0.5)
    game.screen.resize(ROWS, COLUMNS)
    game.child.setwinsize(ROWS, COLUMNS)  # the child gets SIGWINCH
    game.read(game.shows("First Contact", turn_line(0, level)))
    assert "too small" not in game.text and game.find("@") == [level.player]
    assert game.quit() == 0


def test_every_shipped_level_fits_80x24():
    for path in play.shipped_levels():
        columns, rows = minimum_size(play.load(path))
        assert columns <= COLUMNS and rows <= ROWS, path.name


def _path_out_of(level, rows: int, columns: int) -> str:
    """The moves of a shortest walk (floor, cover and alarms, no doors) from the start to
    the nearest cell outside the level's top-left `rows` x `columns`."""
    start = level.player
    came = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell[0] >= rows or cell[1] >= columns:
            moves = ""
            while came[cell] is not None:
                cell, move = came[cell]
                moves = move + moves
            return moves
        for move, (dr, dc) in zip("RDLU", DELTAS, strict=True):
            near = (cell[0] + dr, cell[1] + dc)
            if 0 <= near[0] < level.rows and 0 <= near[1] < level.cols and near not in came \
                    and level.tile(near) in (Tile.FLOOR, Tile.COVER, Tile.ALARM):
                came[near] = (cell, move)
                queue.append(near)
    raise AssertionError("no cell outside the window is reachable")


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_64x64_level_scrolls_to_keep_the_player_in_view(session):
    level = play.load(STRESS)
    moves = _path_out_of(level, ROWS, MAP_COLUMNS)
    played = records(STRESS, moves, 0)
    last = played[-1]
    assert last["outcome"] == "playing" and len(played) - 1 == len(moves)
    game = session("play", str(STRESS), "--seed", "0")
    game.read(game.shows("turn 0"))
    game.press("".join(WASD[action] for action in moves),
               game.shows(turn_line(len(moves), level)))
    shown = game.find("@")
    assert len(shown) == 1, game.text
    (y, x), (r, c) = shown[0], at(last)
    assert (r >= ROWS or c >= MAP_COLUMNS) and (r - y, c - x) != (0, 0)  # it scrolled
    for cell in map(tuple, last["sight"]):  # what the player sees is drawn where it is
        sy, sx = cell[0] - (r - y), cell[1] - (c - x)
        if 0 <= sy < ROWS and 0 <= sx < MAP_COLUMNS and level.tile(cell) is Tile.FLOOR \
                and cell != (r, c) and list(cell) not in last["shards"] + last["pickups"] \
                and cell not in [tuple(robot["cell"]) for robot in last["robots"]] \
                and list(cell) != last["skill"]:
            assert game.map_char(sy, sx) == ".", (cell, game.text)
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_without_colours_the_screen_uses_no_colour_and_still_reads(session):
    level = play.load(LEVEL_1)
    played = records(LEVEL_1, "R", 0)
    game = session("play", "1", "--seed", "0", term="xterm-mono")
    game.read(game.shows("turn 0"))
    assert "First Contact" in game.text and game.find("@") == [level.player]
    game.press("d", game.shows(turn_line(1, level)))
    # xterm-mono cannot dim: floor out of sight is blank, the walls beside it remain.
    left_behind = [cell for cell in set(map(tuple, played[0]["sight"]))
                   - set(map(tuple, played[1]["sight"])) if level.tile(cell) is Tile.FLOOR]
    assert left_behind and all(game.map_char(*cell) == " " for cell in left_behind)
    assert all(game.map_char(r, c - 1) == "#" for r, c in left_behind if c == 1)
    assert all(game.map_char(*cell) in '."' for cell in map(tuple, played[1]["sight"])
               if cell != at(played[1]))
    game.press("v", lambda s: s.find("H") != [])
    assert game.find("o") or game.find(":")  # the plans, in characters of their own
    colours = {(char.fg, char.bg) for row in game.screen.buffer.values()
               for char in row.values()}
    assert colours == {("default", "default")}
    assert game.quit() == 0


# -- the replay viewer --------------------------------------------------------------------------

@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_replay_viewer_steps_jumps_and_plays_the_recorded_turns(session, tmp_path):
    made = subprocess.run([str(TWINSOLVE), "play", "1", "--player", "greedy", "--record",
                           "r.json"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    turns = json.loads((tmp_path / "r.json").read_text())["turns"]
    total, level = len(turns), play.load(LEVEL_1)
    viewer = session("play", "--replay", "r.json")
    viewer.read(viewer.shows(f"replay 0/{total}"))
    assert viewer.find("@") == [level.player] and "First Contact" in viewer.text
    viewer.press(RIGHT_KEYPAD, viewer.shows(f"replay 1/{total}"))
    assert viewer.find("@") == [at(turns[0])] and turn_line(1, level) in viewer.text
    viewer.press(END, viewer.shows(f"replay {total}/{total}"))
    # (a capture on the player's cell draws the robot there, not the @)
    assert viewer.find("@") == [at(turns[-1])] or turns[-1]["outcome"] == "captured"
    assert {"won": "YOU ESCAPED", "captured": "CAPTURED", "timeout": "OUT OF TIME"}[
        turns[-1]["outcome"]] in viewer.text
    viewer.press(HOME, viewer.shows(f"replay 0/{total}"))
    viewer.press("+")
    viewer.press(" ", viewer.shows(f"replay 3/{total}"))  # playing on by itself
    viewer.press(" ", viewer.shows("paused"))
    assert viewer.quit() == 0


def test_a_damaged_replay_is_one_line_and_exit_2(session, tmp_path):
    turns = records(LEVEL_1, "RRD", 0)[1:]
    del turns[1]["player"]
    replay = replays.build(play.load(LEVEL_1), LEVEL_1.read_text(), str(LEVEL_1), 0, turns)
    (tmp_path / "bad.json").write_text(json.dumps(replay))
    viewer = session("play", "--replay", "bad.json")
    assert viewer.finish() == 2
    said = viewer.child.before.decode().strip().splitlines()  # curses never started
    assert said == ["twinsolve: bad.json: damaged replay: turn 1: player: missing"]


def test_a_terminal_that_cannot_move_the_cursor_is_refused(session):
    game = session("play", "1", term="dumb")
    assert game.finish() == 2
    said = game.child.before.decode().strip().splitlines()
    assert len(said) == 1 and "needs a terminal that moves the cursor" in said[0]


# -- what the screen tells the player (issue 26) ------------------------------------------------

TINY = ("# name: Tiny\nrobots 5 7\n"
        "#######\n"
        "#P.e..#\n"
        "###.###\n"
        "#H....#\n"
        "##E####\n")


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_footsteps_are_heard_and_the_hud_counts_an_emps_five_turns(session, tmp_path):
    (tmp_path / "tiny.txt").write_text(TINY)
    played = records(tmp_path / "tiny.txt", "RRX", 0)
    hunter = [record["robots"][0] for record in played]
    unseen = {tuple(cell) for cell in played[1]["sight"]}
    assert hunter[1]["state"] == "patrol" and hunter[2]["state"] == "alert"
    assert tuple(hunter[1]["cell"]) not in unseen  # it came for them from out of sight
    game = session("play", "tiny.txt", "--seed", "0")
    game.read(game.shows("Tiny", "turn 0"))
    game.press("d", game.shows("turn 1 of"))
    assert "footsteps behind you!" not in game.text
    game.press("d", game.shows("turn 2 of", "footsteps behind you!"))
    game.press("e", game.shows("h hunter: stunned 5"))  # the rules' five turns
    assert "events: emp" in game.text
    game.press(" ", game.shows("h hunter: stunned 4"))
    assert "footsteps behind you!" not in game.text
    assert game.quit() == 0


TWO = ("# name: Two\nrobots 5 15\n"
       "###############\n"
       "#H.....P.....I#\n"
       "#.###########.#\n"
       "#.............#\n"
       "######E########\n"
       "robot-vision 6\n")


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_algorithm_view_colours_each_robot_and_starts_its_path_at_it(session, tmp_path):
    (tmp_path / "two.txt").write_text(TWO)
    after = records(tmp_path / "two.txt", "W", 0)[1]
    planned = [robot for robot in after["robots"] if len(robot["path"]) >= 2]
    assert len(planned) == 2 and all(robot["path"][0] == robot["cell"] for robot in planned)
    game = session("play", "two.txt", "--seed", "0")
    game.read(game.shows("Two", "turn 0"))
    game.press(" ", game.shows("turn 1 of"))
    game.press("v", lambda s: s.find("o") != [])
    colours = {}
    for robot in planned:
        (r, c), step = robot["cell"], robot["path"][1]  # the path goes on from the robot
        assert game.map_char(*step) in "oT", game.text
        colours[robot["kind"]] = game.screen.buffer[step[0]][step[1]].fg
        assert game.map_char(r, c) == robot["kind"][0].upper()
        assert game.screen.buffer[r][c].fg == colours[robot["kind"]]  # in its plan's colour
    assert colours["hunter"] != colours["interceptor"]
    # No letter of the map is a key's: the exit is > once open (no shard here), never E.
    assert game.map_char(4, 6) == ">" and game.find("E") == []
    assert game.quit() == 0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_doors_count_the_turns_until_they_change(session):
    from twinsolve.robots.terminal import door_countdown
    level = play.load(LEVELS / "level-2.txt")
    played = records(LEVELS / "level-2.txt", "W", 0)
    game = session("play", "2", "--seed", "0")
    game.read(game.shows("turn 0"))
    game.press("v", lambda s: s.find("@") != [])
    game.press(" ", game.shows(turn_line(1, level)))
    for door, shown in zip(level.doors, played[1]["doors"], strict=True):
        left = door_countdown(door, 1)
        char = game.map_char(*door.cell)
        cell = game.screen.buffer[door.cell[0]][door.cell[1]]
        if left is not None and left <= 9:
            assert char == str(left) and cell.reverse == (not shown["open"]), door
        else:
            assert char == ("/" if shown["open"] else "+"), door
    assert "3 door: changes in 3 turns" in game.text
    assert game.quit() == 0


ITEMS = ("# name: Items\nrobots 3 8\n"
         "########\n"
         "#P*ek.E#\n"
         "########\n")


@pytest.mark.parametrize("term, colours", [
    ("xterm-256color", {"*": FG_BG_256[GOLD], "e": FG_BG_256[CYAN], "k": FG_BG_256[PINK]}),
    pytest.param("xterm", {"*": "brown", "e": "cyan", "k": "magenta"},  # ANSI yellow: brown
                 marks=pytest.mark.slow),
])
def test_shards_are_gold_emp_pickups_cyan_and_the_skill_point_apart(session, tmp_path, term,
                                                                     colours):
    """The design's colours (issue 26), with 256 colours and with the eight of ANSI."""
    (tmp_path / "items.txt").write_text(ITEMS)
    game = session("play", "items.txt", "--seed", "0", term=term)
    game.read(game.shows("Items", "turn 0"))
    cells = {char: game.screen.buffer[1][x] for x, char in ((2, "*"), (3, "e"), (4, "k"))}
    assert {char: cell.data for char, cell in cells.items()} == {c: c for c in "*ek"}
    assert {char: cell.fg for char, cell in cells.items()} == colours
    assert len(set(colours.values())) == 3
    assert game.quit() == 0
