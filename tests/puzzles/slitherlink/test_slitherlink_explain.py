"""Slitherlink's explanation and hints (`explain.py`, through `twinsolve.explain`).

- The steps replay to the verified solution, each cell once, every step of a
  technique the levels name; the hardest one is the puzzle's grade; a level
  stops the steps exactly where that level's grader stops.
- A step names the rules that fixed its cells' sides or corners (a clue it names
  is one of its cells or touches one), and the rule of its technique; else the
  side and the cell across it that were known before.
- Hints: the first wrong cell is a mistake, else the next step, else None;
  positions that are not one are refused by key.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import ROOT, sampled

from twinsolve.core.errors import InstanceError
from twinsolve.core.run import load_file
from twinsolve.explain import explain, hint
from twinsolve.explain.steps import BIFURCATION, Mistake, NoSolution, Step, decided_items
from twinsolve.puzzles.slitherlink import generate, rules

GRADED = ROOT / "instances" / "slitherlink" / "graded"


def items(solution):
    return {f"r{r}c{c}": int(ch) for r, row in enumerate(solution["inside"])
            for c, ch in enumerate(row)}


@pytest.mark.parametrize("name", sampled(["slitherlink-easy-10x10-s1-01.txt",
                                          "slitherlink-extreme-10x10-s1-01.txt"]))
def test_the_steps_replay_to_the_solution_and_levels_stop_where_the_grader_does(name):
    instance = load_file(GRADED / name)
    found = explain(instance)
    assert found.complete and rules.verify(instance, found.solution) == []
    assert decided_items(found.steps) == items(found.solution)
    level = generate.grade(instance).level
    assert found.steps[found.hardest()].technique in generate.LEVEL_TECHNIQUES[level]
    assert json.dumps(found.to_json()) == json.dumps(explain(instance).to_json())
    for easier in generate.LEVELS:
        limited = explain(instance, easier)
        settled = generate.LEVELS.index(easier) >= generate.LEVELS.index(level)
        assert limited.complete is settled, easier
        assert all(step.technique in generate.LEVEL_TECHNIQUES[easier]
                   for step in limited.steps)


CLUE_NAMED = re.compile(r"the \d at r(\d+)c(\d+) counts its sides")
LINK_NAMED = re.compile(r"its side toward r(\d+)c(\d+) is (on|off) the loop \(found before\), "
                        r"and r\d+c\d+ is (inside|outside)")
# What the rule of each technique that no easier one has says (`explain._said`).
TECHNIQUE_SAYS = {"patterns": "a pattern of the clues", "loop": "the loop is one loop",
                  "probing": "to a contradiction"}


@pytest.mark.parametrize("name", sorted(path.name for path in GRADED.glob("*.txt")))
def test_a_step_names_the_clues_at_its_cells_and_its_technique(name):
    """A clue a step's sentence names reads a side or a corner of one of the step's cells:
    it is that cell or touches it at a side or a corner. Not the clues the same
    propagation happened to use elsewhere on the grid. A patterns, loop or probing step
    names what its technique found, which the step needs even where it was elsewhere. And a
    step no rule of its propagation bears on names the side found before and the cell
    across it that give its value."""
    found = explain(load_file(GRADED / name))
    inside = found.solution["inside"]
    named = linked = 0
    for step in found.steps:
        cells = [tuple(int(x) for x in item[1:].split("c")) for item, _ in step.decided]
        for r, c in CLUE_NAMED.findall(step.reason):
            named += 1
            assert any(abs(int(r) - rr) <= 1 and abs(int(c) - cc) <= 1
                       for rr, cc in cells), step
        if step.technique in TECHNIQUE_SAYS:
            assert TECHNIQUE_SAYS[step.technique] in step.reason, step
        for r, c, state, across in LINK_NAMED.findall(step.reason):
            # No rule fixed its sides this step: the side and the cell across were known,
            # and they give the cell's value, as the verified answer has them.
            (rr, cc), value = cells[0], step.decided[0][1]
            assert abs(int(r) - rr) + abs(int(c) - cc) == 1, step
            assert int(inside[int(r)][int(c)]) == (across == "inside"), step
            assert value == (across == "inside") ^ (state == "on"), step
            linked += 1
    assert named and linked  # the steps do name clues, and sides found before


def test_a_puzzle_needing_branching_shows_a_bifurcation():
    instance = rules.parse("slitherlink 2 2\n- -\n- -\n")  # 13 answers
    found = explain(instance)
    assert any(step.kind == BIFURCATION for step in found.steps)
    assert found.complete and rules.verify(instance, found.solution) == []


def test_unsolvable_clues_have_no_steps():
    with pytest.raises(NoSolution):
        explain(rules.parse("slitherlink 1 2\n0 4\n"))


def test_hints_name_the_first_mistake_else_the_next_step():
    instance = load_file(GRADED / "slitherlink-medium-10x10-s1-01.txt")
    solution = json.loads(dict(instance.meta)["expect-solution"])["inside"]
    blank = ["?" * instance.cols] * instance.rows
    first = hint(instance, {"inside": blank})
    assert isinstance(first, Step) and first == explain(instance).steps[0]
    wrong = [("1" if solution[0][0] == "0" else "0") + "?" * (instance.cols - 1)] + blank[1:]
    mistake = hint(instance, {"inside": wrong})
    assert isinstance(mistake, Mistake) and mistake.item == "r0c0"
    assert hint(instance, {"inside": solution}) is None
    with pytest.raises(InstanceError, match="takes only 'inside'"):
        hint(instance, {"loop": blank})
