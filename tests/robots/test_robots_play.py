"""Playing without a terminal: `twinsolve play LEVEL --moves M --json` and the scripted
players, deterministic to the byte; and the robots carry no search loop of their own (their
searches against an independent path-finder: test_robots_pathfinder.py)."""

from __future__ import annotations

import ast
import json

import pytest
from conftest import ROOT

LEVELS = sorted((ROOT / "instances" / "robots").glob("*.txt"))


def test_the_same_level_seed_and_moves_give_the_same_json_twice(cli):
    level = str(LEVELS[1])
    runs = [cli("play", level, "--moves", "RRDDLLWWXZUURR", "--seed", "5", "--json")
            for _ in range(2)]
    assert runs[0].returncode == 0, runs[0].stderr
    assert runs[0].stdout == runs[1].stdout
    records = [json.loads(line) for line in runs[0].stdout.splitlines()]
    assert [record["tick"] for record in records][:3] == [0, 1, 2]
    first = records[0]
    assert set(first) == {"tick", "action", "player", "shards_left", "exit_open", "shards",
                          "pickups", "skill", "emp", "shield", "silence", "undos_left",
                          "alarms", "sight", "robots", "doors", "events", "outcome"}
    assert all(len(record["shards"]) == record["shards_left"] for record in records)
    assert [r["undos_left"] for r in records if r["action"] == "Z"] == [2]
    assert set(first["robots"][0]) == {"kind", "cell", "state", "intent", "target", "path",
                                       "visited", "nodes", "stunned"}


def test_a_scripted_player_plays_a_level_to_its_end(cli):
    done = cli("play", str(LEVELS[0]), "--player", "greedy", "--json")
    assert done.returncode == 0, done.stderr
    last = json.loads(done.stdout.splitlines()[-1])
    assert last["outcome"] in {"won", "captured", "timeout"}


@pytest.mark.parametrize("args, words", [
    (["--moves", "RRQ"], "--moves: character 3 is 'Q', not an action"),
    (["--moves", "R", "--seed", "-1"], "seed"),
])
def test_bad_arguments_end_with_one_line_and_exit_2(args, words, cli):
    done = cli("play", str(LEVELS[0]), *args)
    assert done.returncode == 2 and words in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_bad_level_file_names_its_line(tmp_path, cli):
    bad = tmp_path / "bad.txt"
    bad.write_text("robots 1 3\nP?E\n")
    done = cli("play", str(bad), "--moves", "R")
    assert done.returncode == 2
    assert done.stderr.strip() == (f"twinsolve: {bad}:2:2: unknown map character '?' (the map "
                                   "uses '#', '.', 'g', 'r', 'D', '*', 'C', 'E', 'H', 'I', 'P', "
                                   "'S', 'e', 'k')")
    assert bad.read_text() == "robots 1 3\nP?E\n"


def test_the_robots_carry_no_search_loop_of_their_own():
    """No deque or heap frontier under twinsolve/robots: every search is the engine's."""
    for source in sorted((ROOT / "twinsolve" / "robots").glob("*.py")):
        tree = ast.parse(source.read_text(), str(source))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in ("collections", "heapq",
                                                                     "queue"):
                names = {alias.name for alias in node.names}
                assert node.module != "heapq" and "deque" not in names, \
                    f"{source.name}:{node.lineno} imports a search frontier"
            if isinstance(node, ast.Import):
                assert not {alias.name for alias in node.names} & {"heapq", "queue"}, \
                    f"{source.name}:{node.lineno} imports a search frontier"
            if isinstance(node, ast.Attribute) and node.attr in ("heappush", "heappop",
                                                                 "popleft", "deque"):
                pytest.fail(f"{source.name}:{node.lineno} uses {node.attr}")
