"""Replays (`twinsolve play ... --record FILE`, `twinsolve play --replay FILE --verify`):
a recorded game verifies, a tampered one fails naming its first differing turn, and a
damaged or foreign file is one line, exit 2, with nothing written; the level list and
the level numbers of `twinsolve play`. The commands run in the test's process
(`conftest.cli`); the recording and one refusal in a real one (`conftest.twinsolve`)."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, twinsolve

from twinsolve.core.errors import InstanceError
from twinsolve.robots import play, replay

LEVEL_2 = ROOT / "instances" / "robots" / "level-2.txt"



@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A scripted game of level 2, recorded through the command line."""
    path = tmp_path_factory.mktemp("replay") / "greedy.json"
    done = twinsolve("play", "2", "--player", "greedy", "--seed", "4", "--record", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == f"wrote {path}"
    return path


def test_a_recorded_game_holds_its_level_seed_moves_and_every_turn(recorded, cli):
    written = json.loads(recorded.read_text())
    assert written["format"] == replay.FORMAT and written["version"] == replay.VERSION
    assert written["level"] == {"name": "Gatehouse", "source": "instances/robots/level-2.txt",
                                "text": LEVEL_2.read_text()}
    assert written["seed"] == 4
    assert written["moves"] == "".join(turn["action"] for turn in written["turns"])
    # the same game as the headless JSON lines of the same moves
    lines = cli("play", str(LEVEL_2), "--moves", written["moves"], "--seed", "4", "--json")
    assert [json.loads(line) for line in lines.stdout.splitlines()] == written["turns"]


def test_a_recorded_game_verifies(recorded, cli):
    done = cli("play", "--replay", str(recorded), "--verify")
    turns = len(json.loads(recorded.read_text())["turns"])
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.strip() == f"{recorded}: all {turns} turns verified"


@pytest.mark.parametrize("turn, field, value", [(7, "player", [1, 1]),
                                                (12, "shards_left", 0),
                                                (3, "events", ["won"])])
def test_a_tampered_replay_fails_naming_the_first_differing_turn(recorded, tmp_path, turn,
                                                                 field, value, cli):
    written = json.loads(recorded.read_text())
    written["turns"][turn][field] = value
    written["turns"][turn + 5][field] = value  # a later change is not the first
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(written))
    done = cli("play", "--replay", str(tampered), "--verify")
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith(f"{tampered}: turn {turn} differs: recorded {field} "
                                  f"{json.dumps(value, separators=(',', ':'))}, the engine makes ")


def test_a_replay_with_a_turn_missing_or_moves_changed_fails(recorded):
    written = json.loads(recorded.read_text())
    shorter = dict(written, turns=written["turns"][:-1])
    assert str(replay.verify(shorter)) == (f"turn {len(shorter['turns'])} differs: "
                                           f"{len(shorter['turns'])} turns recorded, the moves "
                                           f"make {len(written['turns'])}")
    first = written["moves"][0]
    other = dict(written, moves=("W" if first != "W" else "R") + written["moves"][1:])
    assert replay.verify(other).turn == 0


def _replay_text(recorded, **changes) -> str:
    written = json.loads(recorded.read_text())
    written.update(changes)
    return json.dumps(written)


@pytest.mark.parametrize("text, problem", [
    ('{"format": "twinsolve-robots-replay",\n  "version": 1,,}', ":2:16: not valid JSON: "),
    ("", ":1:1: not valid JSON"),
    ('[1, 2]', ': not a twinsolve replay (no "format": "twinsolve-robots-replay")'),
    ('{"format": "something-else"}', ': not a twinsolve replay'),
    ("robots 3 3\n...\n", ":1:1: not valid JSON"),
])
def test_a_foreign_or_damaged_file_is_one_line_and_exit_2(tmp_path, text, problem, cli):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    before = sorted(tmp_path.iterdir())
    for extra in ((), ("--verify",), ("--html", str(tmp_path / "out.html"))):
        done = cli("play", "--replay", str(bad), *extra)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith(f"twinsolve: {bad}{problem}"), done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert sorted(tmp_path.iterdir()) == before  # no page was written


@pytest.mark.parametrize("changes, problem", [
    ({"version": 2}, "replay version 2 is not supported (this twinsolve reads 1)"),
    ({"seed": -1}, f"damaged replay: seed: -1 is not a whole number 0..{2**63 - 1}"),
    ({"seed": "4"}, 'damaged replay: seed: "4" is not a whole number'),
    ({"moves": "RRQ"}, "damaged replay: moves: character 3 is 'Q', not an action"),
    ({"turns": {"0": 1}}, "damaged replay: turns: an object of 1 field is not a list"),
    ({"level": {"name": "", "source": "", "text": "robots 2 2\nP?\n"}},
     "damaged replay: its level, line 2: "),
    ({"level": {"text": "robots 2 2\nP?\n"}}, "damaged replay: level.name: missing"),
    ({"level": "level-2.txt"}, 'damaged replay: level: "level-2.txt" is not an object'),
])
def test_a_damaged_replay_names_what_is_wrong(recorded, tmp_path, changes, problem, cli):
    bad = tmp_path / "bad.json"
    bad.write_text(_replay_text(recorded, **changes))
    with pytest.raises(InstanceError) as error:
        replay.read(bad)
    assert str(error.value).startswith(f"{bad}: {problem}")
    done = cli("play", "--replay", str(bad), "--verify")
    assert (done.returncode, done.stderr.count("\n")) == (2, 1)
    assert done.stderr.startswith(f"twinsolve: {bad}: {problem}")


@pytest.mark.parametrize("args, words", [
    (["--replay", "missing.json", "--verify"], "missing.json"),
    (["1", "--replay", "x.json"], "--replay FILE takes no LEVEL"),
    (["--replay", "x.json", "--seed", "3"], "--replay FILE takes no --seed"),
    (["1", "--verify"], "--verify goes with --replay FILE"),
    (["--html", "x.html"], "--html goes with --replay FILE"),
    (["--replay", "x.json", "--verify", "--html", "y.html"], "not allowed with argument"),
    (["9"], "no shipped level 9: the levels are 1..5"),
    (["0"], "no shipped level 0"),
    (["--moves", "RR"], "play needs a LEVEL"),
    (["1", "--json"], "--json goes with --moves or --player"),
    (["1"], "the terminal game needs a terminal"),
    (["--replay", str(LEVEL_2)], "level-2.txt:1:1: not valid JSON"),
])
def test_bad_play_arguments_are_one_line_and_exit_2(tmp_path, args, words, cli):
    done = cli("play", *args, cwd=tmp_path)
    assert done.returncode == 2, done.stdout
    assert words in done.stderr and done.stderr.count("\n") <= 2, done.stderr
    assert "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_record_that_cannot_be_written_is_one_line_and_exit_2(tmp_path):
    folder = tmp_path / "a-folder"
    folder.mkdir()
    done = twinsolve("play", "1", "--moves", "RRR", "--record", str(folder))
    assert done.returncode == 2 and done.stderr.startswith(f"twinsolve: cannot write {folder}")
    assert list(folder.iterdir()) == []


def test_play_without_a_level_lists_the_shipped_levels_and_a_number_plays_one(cli):
    done = cli("play")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "the shipped levels ('twinsolve play N' plays level N):"
    names = [dict(play.load(path).meta)["name"] for path in play.shipped_levels()]
    assert names[:4] == ["First Contact", "Gatehouse", "Crossfire", "Black Site"]
    assert [line.split()[0] for line in lines[1:]] == [str(n) for n in range(1, len(names) + 1)]
    assert all(name in line for name, line in zip(names, lines[1:], strict=True))
    by_number = cli("play", "3", "--moves", "RDDW", "--json")
    by_file = cli("play", str(ROOT / "instances" / "robots" / "level-3.txt"),
                  "--moves", "RDDW", "--json")
    assert by_number.returncode == 0 and by_number.stdout == by_file.stdout != ""
