"""Cave's explanation (issue 28): every step's premises force its conclusion, checked by an
independent SAT encoding (`explain_oracle`); the hardest step's technique is the grader's
level (one technique code for both); hints find mistakes and next steps."""

from __future__ import annotations

import dataclasses
import functools
import json
from pathlib import Path

import pytest
from conftest import ROOT, sampled
from explain_oracle import CaveOracle, check_steps

from twinsolve.core.run import load_file
from twinsolve.explain import explain, hint
from twinsolve.explain.steps import Mistake, Step
from twinsolve.puzzles.cave import generate
from twinsolve.puzzles.cave.explain import techniques_of
from twinsolve.puzzles.cave.puzzlekit import read_dataset
from twinsolve.puzzles.cave.rules import clue_cells, parse, verify

CAVES = sorted((ROOT / "instances" / "cave").rglob("*.txt"))
QUICK = ("unique-06x06-seed1.txt",)
EXTREME = ROOT / "instances" / "cave" / "graded" / "cave-extreme-10x10-s1-01.txt"


def _level_of(technique: str) -> str:
    return next(level for level in generate.LEVELS if technique in techniques_of(level))


@pytest.mark.parametrize("path", sampled(CAVES, lambda p: p.name in QUICK),
                         ids=lambda p: p.name)
def test_every_steps_premises_force_its_conclusion(path):
    instance = load_file(path)
    assert check_steps(instance, explain(instance)) == []


def test_the_oracle_finds_a_step_whose_premises_do_not_force_it():
    instance = load_file(ROOT / "instances" / "cave" / QUICK[0])
    found = explain(instance)
    clues = {f"r{r}c{c}" for r, c, _ in clue_cells(instance)}
    step = next(s for s in found.steps[1:] if s.technique == "bounds")
    weakened = dataclasses.replace(step, premises=tuple(p for p in step.premises
                                                        if p not in clues))
    broken = dataclasses.replace(found, steps=(found.steps[0], weakened))
    assert len(check_steps(instance, broken)) == 1
    oracle = CaveOracle(instance)
    try:  # and a true one holds: the clue cells are inside given themselves
        assert oracle.forces({}, {0 * 6 + 2}, {2: 1})
    finally:
        oracle.close()


@pytest.mark.slow
def test_the_bifurcation_of_an_extreme_puzzle_names_the_guess():
    instance = load_file(EXTREME)
    found = explain(instance)
    guesses = [s for s in found.steps if s.kind == "bifurcation"]
    assert guesses and all(s.technique == "branching" for s in guesses)
    assert "suppose it" in guesses[0].reason or "supposing it" in guesses[0].reason
    assert found.steps[found.hardest()].kind == "bifurcation"


def test_where_several_caves_fit_a_bifurcation_step_makes_the_choice():
    instance = parse("cave 2 3\n? - -\n- - -\n")
    found = explain(instance)
    choices = [s for s in found.steps if s.kind == "bifurcation"]
    assert found.complete and choices and "more than one solution" in choices[0].reason
    assert verify(instance, found.solution) == []
    assert "more than one solution" in found.summary[0]


@pytest.mark.parametrize("path", sampled(sorted((ROOT / "instances" / "cave" / "graded")
                                                .glob("*.txt")),
                                         lambda p: "medium" in p.name and "01" in p.name),
                         ids=lambda p: p.name)
def test_the_hardest_step_is_the_graders_level(path):
    instance = load_file(path)
    found = explain(instance)
    hardest = found.steps[found.hardest()]
    assert _level_of(hardest.technique) == generate.grade(instance).level == \
        dict(instance.meta)["difficulty"]


CORPUS_SHARES = 8  # the corpus in this many slices, one test each (they run in parallel)


@functools.cache
def _janko(path: Path) -> list:
    return read_dataset(path.read_text(encoding="utf-8"), "janko-dev.json")


@pytest.mark.slow
@pytest.mark.parametrize("share", range(CORPUS_SHARES))
def test_the_whole_corpus_is_explained_soundly_at_its_level(corpus, share):
    """Every janko-dev puzzle: complete, the published solution, premises forcing every
    step (SAT), the hardest step at the grader's level."""
    for key, instance in _janko(corpus("cave", "janko-dev.json"))[share::CORPUS_SHARES]:
        found = explain(instance)
        assert found.complete, key
        assert found.solution == json.loads(dict(instance.meta)["expect-solution"]), key
        assert check_steps(instance, found) == [], key
        hardest = found.steps[found.hardest()].technique
        assert _level_of(hardest) == generate.grade(instance).level, key


def _position(solution: list[str], known: set[tuple[int, int]]) -> dict:
    return {"inside": ["".join(ch if (r, c) in known else "?" for c, ch in enumerate(row))
                       for r, row in enumerate(solution)]}


def test_hints_name_the_first_mistake_then_the_next_step_then_nothing():
    instance = load_file(ROOT / "instances" / "cave" / QUICK[0])
    solution = explain(instance).solution["inside"]
    everything = {(r, c) for r in range(6) for c in range(6)}
    assert hint(instance, _position(solution, everything)) is None
    first = hint(instance, _position(solution, set()))
    assert isinstance(first, Step) and first.technique == "bounds"
    # r0c0 is outside in the solution: claiming it inside is the mistake found
    wrong = _position(solution, {(0, 0), (5, 5)})
    wrong["inside"][0] = "1" + wrong["inside"][0][1:]
    found = hint(instance, wrong)
    assert isinstance(found, Mistake) and found.item == "r0c0"
    assert "cannot be inside" in found.reason
    # a clue cell marked outside
    clue = _position(solution, {(0, 2)})
    clue["inside"][0] = "??0???"
    assert hint(instance, clue) == Mistake("r0c2", "r0c2 holds a clue, so it is inside")


def test_a_hint_from_a_partial_position_decides_only_unknown_cells():
    instance = load_file(ROOT / "instances" / "cave" / QUICK[0])
    found = explain(instance)
    solution = found.solution["inside"]
    known = {(r, c) for step in found.steps[:8] for key, _ in step.decided
             for r, c in [tuple(map(int, key[1:].split("c")))]}
    step = hint(instance, _position(solution, known))
    assert isinstance(step, Step)
    for key, value in step.decided:
        r, c = map(int, key[1:].split("c"))
        assert (r, c) not in known and int(solution[r][c]) == value
