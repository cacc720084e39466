"""Damaged replay files never crash `twinsolve play --replay F --verify / --html OUT` (issue 23).

Each fault of the issue first: a turn with an extra key set to null (StopIteration in
`verify`), JSON nested 200,000 deep (RecursionError), a 5000-digit seed (ValueError from
`int`), a turn missing fields (KeyError in the page), pages written from clearly damaged
replays (a robot "x", a player at [1000000, 1000000]), a byte-order mark refused,
`"version": true` taken for 1. Then what the schema holds against the level (cells, the
level's robots and doors, counts, ticks in order), a fuzz test that mutates a real recorded
replay (what is read, `verify`, the page and the terminal viewer's drawing all take), and a
few real processes: exit 2, one line, no traceback, no page.

The replays are made in-process: the greedy player on shipped level 2 (two robots, two
doors), cut short so that re-simulating one takes milliseconds.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, twinsolve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twinsolve.cli import main
from twinsolve.core.errors import InstanceError, UsageError
from twinsolve.robots import play, replay, replay_html, terminal

LEVEL_2 = ROOT / "instances" / "robots" / "level-2.txt"
TURNS = 15


def _greedy_replay(turns: int) -> dict[str, Any]:
    level = play.load(LEVEL_2)
    game = play.new_game(level, level.seed)
    records = list(play.turns(game, play.scripted(game, "greedy", turns)))
    return replay.build(level, LEVEL_2.read_text(), play.source_of(LEVEL_2), level.seed,
                        records)


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    made = _greedy_replay(TURNS)
    assert replay.verify(made) is None and len(made["turns"]) == TURNS
    return made


def _write(folder: Path, document: Any, name: str = "bad.json") -> Path:
    path = folder / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


def _refused(capsys, path: Path, words: str, *extra: str) -> None:
    """`play --replay path --verify` and `--html OUT`: exit 2, one line naming the file and
    `words`, nothing on stdout, no page written."""
    page = path.parent / "out.html"
    for option in (("--verify",), ("--html", str(page))):
        code = main(["play", "--replay", str(path), *option])
        out, err = capsys.readouterr()
        assert (code, out) == (2, ""), err
        assert err.startswith(f"twinsolve: {path}") and err.count("\n") == 1, err
        assert words in err, err
        assert not page.exists()


def _changed(recorded: dict[str, Any], change) -> dict[str, Any]:
    damaged = copy.deepcopy(recorded)
    change(damaged)
    return damaged


# ------------------------------------------------------------------ the faults

def test_a_turn_with_an_extra_key_set_to_null_is_refused(recorded, tmp_path, capsys):
    damaged = _changed(recorded, lambda r: r["turns"][3].update(extra=None))
    _refused(capsys, _write(tmp_path, damaged), 'damaged replay: turn 3: unknown field "extra"')


def test_verify_names_a_field_one_record_lacks_instead_of_stopping(recorded):
    # The API on an unchecked dict: the field that only the file has is named, no
    # StopIteration from looking for a differing value where both are "absent".
    damaged = _changed(recorded, lambda r: r["turns"][3].update(extra=None))
    assert str(replay.verify(damaged)) == "turn 3 differs: recorded extra null, the engine " \
                                          "makes nothing"


def test_json_nested_200000_deep_is_refused_at_its_place(tmp_path, capsys):
    text = '{"format": "twinsolve-robots-replay",\n "turns": ' + "[" * 200_000 + "]" * 200_000 \
        + "}"
    # The object is the first level, so the 100th bracket (column 11 + 99) is the 101st.
    _refused(capsys, _write(tmp_path, text), ":2:110: arrays and objects nested over 100 deep")


def test_a_5000_digit_seed_is_refused_at_its_place(recorded, tmp_path, capsys):
    text = json.dumps(dict(recorded, seed=7)).replace('"seed": 7', '"seed": ' + "9" * 5000)
    column = text.index("9" * 5000) + 1
    _refused(capsys, _write(tmp_path, text), f":1:{column}: number with 5000 digits (at most "
                                             "4300)")


@pytest.mark.parametrize("field", ["outcome", "robots", "tick"])
def test_a_turn_missing_a_field_is_refused_before_any_page(recorded, tmp_path, capsys, field):
    damaged = _changed(recorded, lambda r: r["turns"][-1].pop(field))
    _refused(capsys, _write(tmp_path, damaged),
             f"damaged replay: turn {TURNS - 1}: {field}: missing")


def test_a_robot_of_no_kind_is_refused(recorded, tmp_path, capsys):
    damaged = _changed(recorded, lambda r: r["turns"][2]["robots"][1].update(kind="x"))
    _refused(capsys, _write(tmp_path, damaged), 'damaged replay: turn 2: robots[1].kind: "x" '
                                                "is not one of sentinel, hunter")


def test_a_player_far_off_the_map_is_refused(recorded, tmp_path, capsys):
    damaged = _changed(recorded, lambda r: r["turns"][5].update(player=[1000000, 1000000]))
    _refused(capsys, _write(tmp_path, damaged), "damaged replay: turn 5: player: [1000000, "
                                                "1000000] is outside the 16x20 map")


def test_a_byte_order_mark_is_accepted(recorded, tmp_path, capsys):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(recorded).encode())
    assert main(["play", "--replay", str(path), "--verify"]) == 0
    assert capsys.readouterr().out == f"{path}: all {TURNS} turns verified\n"
    assert main(["play", "--replay", str(path), "--html", str(tmp_path / "page.html")]) == 0
    assert (tmp_path / "page.html").read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize("version, shown", [(True, "true"), (1.0, "1.0"), ("1", '"1"'),
                                            (None, "null")])
def test_a_version_that_is_not_the_number_1_is_refused(recorded, tmp_path, capsys, version,
                                                       shown):
    path = _write(tmp_path, dict(recorded, version=version))
    _refused(capsys, path, f"replay version {shown} is not supported (this twinsolve reads 1)")


# ------------------------------------------------------------------ the schema, against the level

def _set(path: tuple, value: Any):
    def change(document: dict[str, Any]) -> None:
        *parents, last = path
        for step in parents:
            document = document[step]
        document[last] = value
    return change


@pytest.mark.parametrize("path, value, words", [
    (("turns", 0, "player"), [0, 0], "turn 0: player: [0, 0] is a wall"),
    (("turns", 1, "robots", 0, "cell"), [-1, 3], "turn 1: robots[0].cell: [-1, 3] is outside"),
    (("turns", 1, "robots", 0, "kind"), "scout",
     "turn 1: robots[0]: kind \"scout\" is not the level's robot here, a hunter"),
    (("turns", 1, "robots"), [], "turn 1: robots: 0 robots, the level has 2"),
    (("turns", 2, "doors", 0, "cell"), [1, 1],
     "turn 2: doors[0]: cell [1, 1] is not the level's door here, at [2, 7]"),
    (("turns", 2, "shards"), [[1, 1]], "turn 2: shards[0]: [1, 1] is not one of the level's "
                                       "shards"),
    (("turns", 2, "emp"), 3, "turn 2: emp: 3 is not a whole number 0..2"),
    (("turns", 2, "undos_left"), 4, "turn 2: undos_left: 4 is not a whole number 0..3"),
    (("turns", 4, "tick"), 9, "turn 4: tick: 9 is out of order"),
    (("turns", 0, "tick"), 1, "turn 0: tick: 1 is out of order (the first turn is on tick 0)"),
    (("turns", 2, "tick"), 100_000, "turn 2: tick: 100000 is not a whole number 0..400"),
    pytest.param(("turns", 2, "robots", 1, "nodes"), 10**4000, "robots[1].nodes: a number of "
                 "4001 digits is not a whole number 0..9007199254740991", id="4001-digit-nodes"),
    (("turns", 2, "robots", 1, "path"), [[1, 2, 3]], "robots[1].path[0]: [1, 2, 3] is not a "
                                                     "cell [row, col]"),
    (("turns", 2, "exit_open"), 0, "turn 2: exit_open: 0 is not true or false"),
    (("turns", 2, "events"), ["\ud800"], 'turn 2: events[0]: "\\ud800" holds a lone surrogate'),
    (("level", "name"), "\udcff", 'level.name: "\\udcff" holds a lone surrogate'),
    (("seed",), 2**63, "seed: 9223372036854775808 is not a whole number 0..9223372036854775807"),
    (("extra",), 1, 'damaged replay: unknown field "extra"'),
])
def test_the_schema_holds_each_field_against_the_level(recorded, tmp_path, path, value, words):
    bad = _write(tmp_path, _changed(recorded, _set(path, value)))
    with pytest.raises(InstanceError) as caught:
        replay.read(bad)
    assert str(caught.value).startswith(f"{bad}: damaged replay: ")
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_turn_after_an_undo_may_go_back_in_time(tmp_path):
    level = play.load(LEVEL_2)
    game = play.new_game(level, 0)
    records = list(play.turns(game, "WWWZZWZZZW"))
    assert [record["tick"] for record in records] == [0, 1, 2, 3, 2, 1, 2, 1, 1, 1]
    made = replay.build(level, LEVEL_2.read_text(), None, 0, records)
    assert replay.verify(replay.read(_write(tmp_path, made))) is None


def test_the_schema_names_every_field_the_engine_records(recorded):
    record = recorded["turns"][0]
    assert set(replay._TURN) == set(record)
    assert set(replay._ROBOT) == set(record["robots"][0])
    assert set(replay._DOOR) == set(record["doors"][0])


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_a_recorded_game_of_every_shipped_level_is_accepted(tmp_path):
    for path in play.shipped_levels():
        level = play.load(path)
        game = play.new_game(level, level.seed)
        records = list(play.turns(game, play.scripted(game, "evasive", 40)))
        made = replay.build(level, path.read_text(), None, level.seed, records)
        assert replay.read(_write(tmp_path, made)) == made


# ------------------------------------------------------------------ fuzzing

_WRONG = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.just(2**63),
                   st.just(10**4000), st.floats(allow_nan=True), st.text(max_size=8),
                   st.just([]), st.just([1]), st.just([0, 99]), st.just({}), st.just({"a": None}))
_KINDS = ("drop", "replace", "add", "borrow", "digits", "cut", "nest", "bom")
_CHANGING = ("robots", "player", "sight", "action", "events", "tick", "doors", "skill")


@st.composite
def _mutated(draw, recorded: dict[str, Any]) -> str:
    """The text of `recorded` damaged once: a field dropped, replaced by a wrong value or
    borrowed from another turn (well-formed, but not what the engine makes), a key added;
    or the text itself: a number made 5000 digits long, the text cut, nested, given a
    byte-order mark."""
    document = copy.deepcopy(recorded)
    kind = draw(st.sampled_from(_KINDS), label="kind")
    if kind in ("drop", "replace", "add"):
        parent, key = _somewhere(draw, document)
        if kind == "drop" and isinstance(parent, dict):
            del parent[key]
        elif kind == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(_WRONG)
        else:
            parent[key] = draw(_WRONG)
    elif kind == "borrow":
        turns = document["turns"]
        here = draw(st.integers(0, len(turns) - 1))
        there = (here + draw(st.integers(1, len(turns) - 1))) % len(turns)
        key = draw(st.sampled_from(_CHANGING))
        turns[here][key] = copy.deepcopy(turns[there][key])
    return _damaged_text(draw, kind, json.dumps(document))


def _damaged_text(draw, kind: str, text: str) -> str:
    if kind == "digits":
        number = draw(st.sampled_from(list(re.finditer(r"\d+", text))))
        return text[:number.start()] + "9" * 5000 + text[number.end():]
    if kind == "cut":
        return text[:draw(st.integers(0, len(text) - 1))]
    if kind == "nest":
        depth = draw(st.sampled_from([50, 101, 5000]))
        return "[" * depth + text + "]" * depth
    return "\ufeff" + text if kind == "bom" else text


def _somewhere(draw, document: dict[str, Any]) -> tuple[Any, Any]:
    """A (container, key or index) pair: a random walk down from the top or, more often,
    from one of the turns."""
    turns = document["turns"]
    parent: Any = document if draw(st.integers(0, 3)) == 0 else \
        turns[draw(st.integers(0, len(turns) - 1))]
    key = draw(st.sampled_from(sorted(parent)))
    while True:
        value = parent[key]
        children = sorted(value) if isinstance(value, dict) else range(len(value)) \
            if isinstance(value, list) else []
        if not children or not draw(st.booleans()):
            return parent, key
        parent, key = value, draw(st.sampled_from(list(children)))


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_fuzzed_replays_are_read_whole_or_refused_in_one_line(recorded, tmp_path, data):
    text = data.draw(_mutated(recorded), label="text")
    path = tmp_path / "fuzzed.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        read = replay.read(path)
    except InstanceError as exc:
        assert str(exc).startswith(f"{path}") and "\n" not in str(exc)
        return
    try:  # a replay that was read: the engine, the page and the terminal viewer take it
        replay.verify(read)
        assert replay_html.page(read).startswith("<!DOCTYPE html>")
        _show_frames(terminal.replay_timeline(read, str(path)))
    except (InstanceError, UsageError):
        pass


class _Window:
    """Just enough of a curses window for `terminal.draw`: a 100x40 grid of characters."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], str] = {}

    def getmaxyx(self) -> tuple[int, int]:
        return 40, 100

    def erase(self) -> None:
        self.cells.clear()

    def refresh(self) -> None:
        pass

    def addnstr(self, y: int, x: int, text: str, room: int, attr: int) -> None:
        for offset, char in enumerate(text[:room]):
            self.cells[y, x + offset] = char


def _show_frames(timeline: terminal.Timeline) -> None:
    """Draw the first, a middle and the last frame, with and without the robots' plans."""
    window = _Window()
    for index in sorted({0, timeline.last // 2, timeline.last}):
        for plans in (False, True):
            frame = terminal.Frame(timeline, index, plans, "replay", "", "", None, "test")
            assert terminal.draw(window, terminal.Palette.plain(), frame)
            assert "@" in window.cells.values()


# ------------------------------------------------------------------ real processes

@pytest.mark.parametrize("name, damage", [
    ("deep", lambda r: "[" * 200_000 + "]" * 200_000),
    ("no-outcome", lambda r: _changed(r, lambda d: d["turns"][-1].pop("outcome"))),
    ("robot-x", lambda r: _changed(r, lambda d: d["turns"][2]["robots"][0].update(kind="x"))),
])
def test_a_damaged_replay_in_a_real_process_is_one_line_and_exit_2(recorded, tmp_path, name,
                                                                     damage):
    path = _write(tmp_path, damage(recorded), f"{name}.json")
    for option in (("--verify",), ("--html", "out.html")):
        done = twinsolve("play", "--replay", path.name, *option, cwd=tmp_path)
        assert (done.returncode, done.stdout) == (2, ""), done.stderr
        assert done.stderr.startswith(f"twinsolve: {path.name}") and \
            done.stderr.count("\n") == 1, done.stderr
        assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
        assert not (tmp_path / "out.html").exists()
