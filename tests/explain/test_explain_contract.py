"""Every puzzle's explanation (issue 28): replaying the steps from nothing decides exactly the
verified solution, no step decides an item twice or a value the solution does not have, the
same instance gives the same bytes (in another process too, whatever its hash seed), and
the capability is asked of the registry and refused in one line when absent."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, sampled
from explain_items import solution_items

from twinsolve.core import registry
from twinsolve.core.declaration import Absent
from twinsolve.core.errors import InstanceError, UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import load_file, run
from twinsolve.explain import explain, hint
from twinsolve.explain.steps import NoSolution, decided_items

# Every registered puzzle (plugins too) must explain itself; the kit runs on each.
PUZZLES = tuple(entry.name for entry in registry.puzzles())
# One quick instance of each puzzle for the default run: these, else its first shipped file.
CHOSEN = {"cave": "unique-06x06-seed1.txt", "lightsout": "all-on-05x05.txt",
          "mirror": "easy-08x08.txt", "jugs": "die-hard-holds-4.txt",
          "clock": "design-12-hours.txt", "chess": "unique-6x6-09.txt"}
SAMPLES = {puzzle: CHOSEN.get(puzzle) or min((path.name for path in
                                              (ROOT / "instances" / puzzle).glob("*.txt")),
                                             default=None)
           for puzzle in PUZZLES}
# Explained only by hand: a 500,000-move plan (one step, but half a million items), and
# Lights Out boards of thousands of cells (a chase row each; the test would take minutes).
TOO_BIG_CELLS = 400


def _shipped() -> list[Path]:
    files = []
    for puzzle in PUZZLES:
        for path in sorted((ROOT / "instances" / puzzle).rglob("*.txt")):
            instance = load_file(path)
            cells = getattr(instance, "rows", 0) * getattr(instance, "cols", 0)
            if path.stem != "prime-cycle-999983" and not (puzzle == "lightsout"
                                                          and cells > TOO_BIG_CELLS):
                files.append(path)
    return files


def test_every_registered_puzzle_declares_an_explanation():
    for name in PUZZLES:
        assert registry.has(registry.puzzle(name), "explanation"), name


@pytest.mark.parametrize("path", sampled(_shipped(), lambda p: p.name in SAMPLES.values()),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_steps_replay_to_the_verified_solution(path):
    instance = load_file(path)
    try:
        found = explain(instance)
    except NoSolution:  # only where hand proves there is none
        assert run(instance, "hand", Limits(timeout=60)).status is Status.UNSAT, path
        return
    entry = registry.puzzle_of(instance)
    assert entry.rules.verify(instance, found.solution) == []
    assert found.complete
    want = solution_items(instance, found.solution)
    replayed = decided_items(found.steps)  # raises when a step decides an item again
    assert replayed == want
    for step in found.steps:
        assert step.reason and step.technique in found.techniques, step
        for item, value in step.decided:
            assert want[item] == value


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_the_same_instance_gives_the_same_bytes(puzzle):
    assert SAMPLES[puzzle], f"{puzzle} ships no instance in instances/{puzzle}/"
    instance = load_file(ROOT / "instances" / puzzle / SAMPLES[puzzle])
    first = json.dumps(explain(instance).to_json())
    assert first == json.dumps(explain(instance).to_json())


@pytest.mark.slow
def test_the_same_bytes_in_another_process_with_another_hash_seed(tmp_path):
    path = ROOT / "instances" / "cave" / SAMPLES["cave"]
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    proc = subprocess.run([sys.executable, "-m", "twinsolve", "explain", str(path), "--json"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    mine = explain(load_file(path)).to_json()
    theirs = json.loads(proc.stdout)
    assert json.dumps(theirs["steps"]) == json.dumps(mine["steps"])


def test_a_level_stops_the_steps_where_its_techniques_stop():
    instance = load_file(ROOT / "instances" / "cave" / "unique-10x10-seed4.txt")  # hard
    full, medium = explain(instance), explain(instance, "medium")
    assert not medium.complete and medium.summary
    assert len(medium.steps) < len(full.steps)
    assert {step.technique for step in medium.steps} <= {"bounds", "reach", "articulation",
                                                          "holes"}
    want = solution_items(instance, full.solution)
    assert all(want[item] == value for item, value in decided_items(medium.steps).items())


def test_an_unknown_level_is_refused_in_one_line():
    instance = load_file(ROOT / "instances" / "jugs" / SAMPLES["jugs"])
    with pytest.raises(UsageError, match="jugs has no level 'impossible' .levels: easy"):
        explain(instance, "impossible")


def test_an_absent_explanation_is_refused_naming_the_puzzle(monkeypatch):
    instance = load_file(ROOT / "instances" / "clock" / SAMPLES["clock"])
    entry = dataclasses.replace(registry.puzzle_of(instance), explanation=Absent("not yet"))
    monkeypatch.setattr(registry, "puzzle_of", lambda _: entry)
    with pytest.raises(UsageError, match="^clock has no explanation of its solving steps: "
                                         "not yet$"):
        explain(instance)
    with pytest.raises(UsageError, match="^clock has no explanation"):
        hint(instance, {})


def test_no_solution_is_said_with_the_contradiction():
    from twinsolve.puzzles.cave.rules import parse

    with pytest.raises(NoSolution, match="no solution: the outside cells r0c1 would cut"):
        explain(parse("cave 1 3\n1 - 1\n"))


@pytest.mark.parametrize("state, words", [
    ([], "a position is a JSON object"),
    ({"inside": "01"}, "'inside' is a list of 6 strings"),
    ({"inside": ["0"] * 5}, "'inside' has 5 rows, the grid 6"),
    ({"inside": ["0?x???"] + ["??????"] * 5}, "row 0 column 2 is 'x'"),
    ({"inside": ["??????"] * 6, "extra": 1}, "the position has key 'extra'"),
])
def test_a_bad_position_is_refused_in_one_line(state, words):
    instance = load_file(ROOT / "instances" / "cave" / SAMPLES["cave"])
    with pytest.raises((InstanceError, UsageError)) as caught:
        hint(instance, state)
    assert words in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("puzzle, state, words", [
    ("jugs", {"moves": [["fill", 0]]}, "'moves' item 0 is"),
    ("chess", {"moves": "Pa2xBb3"}, "'moves' is a list"),
    ("clock", {"steps": [True]}, "'steps' item 0 is True"),
    ("mirror", {"flips": [[0, "x"]]}, "'flips' item 0 is not a [row, column] pair"),
    ("lightsout", {"presses": ["12345"] * 5}, "row 0 column 1 is '2'"),
])
def test_every_puzzle_refuses_a_bad_position_in_one_line(puzzle, state, words):
    instance = load_file(ROOT / "instances" / puzzle / SAMPLES[puzzle])
    with pytest.raises(InstanceError) as caught:
        hint(instance, state)
    assert words in str(caught.value) and "\n" not in str(caught.value)
