"""Graded water-jug generation (issue 12): `twinsolve.puzzles.jugs.generate`'s protocol.

- A batch per level (two or three seeds, retried as the driver does): every
  puzzle has exactly one optimal plan by `hand` and `sat` (and `cpsat` on
  the easy and medium ones), through `core.run.run` (so `verify` ran), its
  answer lines are exactly `expect-unique` and `expect-objective` and the
  harness's metadata check accepts every answer; it grades to its level,
  also after a round trip through its file text.
- Exactness: the level-d solver (the node-limited search of
  `search.plan_levels.solves_within`) solves it, the level-(d-1) solver does not.
- Requests: a requested length is the optimum (also a short medium one and
  a long hard one); `jugs` and `goal` are obeyed; same seed, same text;
  different seeds, different puzzles; impossible requests are refused by
  `check` or give None from `attempt`.
- `grade` on the shipped files (the corpus's published puzzles among them).
"""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import ROOT, assert_plan_puzzle_graded, first_generated, sampled

from twinsolve.bench.verdict import against_metadata
from twinsolve.core.errors import UsageError
from twinsolve.core.generation import Generated, Request
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.jugs import generate, rules
from twinsolve.puzzles.jugs.rules import Goal, GoalKind, MoveKind, format, parse

# level -> (options, seeds, back-ends that prove uniqueness); hard on two jugs, whose
# plans the planning encodings prove in about a second (three jugs: up to a minute).
BATCH = {
    "easy": ({}, ("seed-1", "seed-2", "seed-3"), ("hand", "cpsat", "sat")),
    "medium": ({}, ("seed-1", "seed-2", "seed-3"), ("hand", "cpsat", "sat")),
    "hard": ({"jugs": 2, "length": 12}, ("seed-1", "seed-2"), ("hand", "sat")),
}
CASES = [(level, seed) for level, (_, seeds, _) in BATCH.items() for seed in seeds]


def generated(level: str, seed: str, **options) -> Generated:
    """The first puzzle of `attempt` over the rngs seed-0, seed-1, ... (as the driver)."""
    return first_generated(generate, Request("jugs", level, options=options), seed)


@pytest.fixture(scope="module")
def batch() -> dict[tuple[str, str], Generated]:
    return {(level, seed): generated(level, seed, **BATCH[level][0]) for level, seed in CASES}


@pytest.mark.parametrize("level, seed", sampled(CASES, keep=3))
def test_generated_puzzle_is_unique_by_two_backends(batch, level, seed):
    instance = batch[level, seed].instance
    meta = dict(instance.meta)
    for backend in BATCH[level][2]:
        result = run(instance, backend, Limits(unique=True, timeout=60))
        assert result.status is Status.OPTIMAL, (backend, result.message)
        assert result.unique is True and result.verified is True, backend
        assert against_metadata(meta, result) is None, backend


@pytest.mark.parametrize("level, seed", CASES)
def test_generated_puzzle_carries_its_answer_and_grades_exactly_to_its_level(batch, level,
                                                                              seed):
    assert_plan_puzzle_graded(generate, rules, batch[level, seed], level,
                              length_asked="length" in BATCH[level][0])


@pytest.mark.parametrize("level, length, options", [
    ("easy", 5, {}),
    ("medium", 4, {}),            # short, but the goal is among the last states reached
    ("medium", 8, {"jugs": 3}),
    ("hard", 30, {}),
])
def test_requested_length_is_the_optimum(level, length, options):
    found = generated(level, "len", length=length, **options)
    assert found.grade.evidence["length"] == length and found.grade.level == level
    result = run(found.instance, "hand", Limits(unique=True, timeout=60))
    assert (result.objective, result.unique) == (length, True)
    if "jugs" in options:
        assert found.instance.jugs == options["jugs"]


@pytest.mark.parametrize("goal", ["holds", "total", "exact"])
@pytest.mark.parametrize("level", ["easy", "medium"])
def test_goal_kind_is_obeyed(goal, level):
    found = generated(level, "goal", goal=goal)
    assert found.instance.goal.kind is GoalKind(goal) and found.grade.level == level


def test_four_jugs_decant_from_the_largest():
    instance = generated("medium", "four", jugs=4).instance
    assert instance.jugs == 4 and instance.kinds == (MoveKind.POUR,)
    assert instance.start == (max(instance.capacities), 0, 0, 0)


def test_same_seed_same_puzzle_different_seeds_different_puzzles():
    texts = [format(generated("medium", f"det-{k}").instance) for k in range(6)]
    assert texts == [format(generated("medium", f"det-{k}").instance) for k in range(6)]
    assert len(set(texts)) == len(texts)


@pytest.mark.parametrize("request_, words", [
    (Request("jugs", "easy", options={"length": 0}), "--length must be a whole number 1..40"),
    (Request("jugs", "hard", options={"length": 41}), "1..40, got 41"),
    (Request("jugs", "easy", options={"length": 7}), "at most 6 moves, not 7"),
    (Request("jugs", "medium", options={"length": 11}), "at most 10 moves, not 11"),
    (Request("jugs", "easy", options={"jugs": 1}), "--jugs must be a whole number 2..4"),
    (Request("jugs", "easy", options={"jugs": 5}), "2..4, got 5"),
    (Request("jugs", "easy", options={"goal": "most"}),
     "--goal must be holds, total or exact"),
    (Request("jugs", "easy", options={"goal": "total", "jugs": 4}), "keeps the total"),
    (Request("jugs", "easy", rows=3, cols=5), "no grid size"),
    (Request("jugs", "easy", symmetric=True), "no clues"),
])
def test_impossible_requests_are_refused(request_, words):
    with pytest.raises(UsageError, match=words):
        generate.check(request_)


def test_an_unreachable_level_gives_up_attempt_by_attempt():
    # Three moves with more than 80% of the states expanded: no jug set drawn has one
    # (an exhaustive scan of the small families tops out at 60%).
    request = Request("jugs", "hard", options={"length": 3})
    generate.check(request)
    began = time.perf_counter()
    assert all(generate.attempt(request, random.Random(n)) is None for n in range(30))
    assert time.perf_counter() - began < 10   # bounded by draws, not by a clock


SHIPPED = ROOT / "instances" / "jugs"


@pytest.mark.parametrize("name", sampled(sorted(p.name for p in SHIPPED.glob("*.txt")), keep=3))
def test_shipped_instances_grade_sensibly(name):
    instance = parse((SHIPPED / name).read_text(), name)
    graded = generate.grade(instance)
    meta = dict(instance.meta)
    if meta.get("expect-solutions") == "1":      # the published puzzles: 6 to 9 moves
        assert graded.level == "medium", graded.evidence
        assert graded.evidence["length"] == int(meta["expect-objective"])
        assert 0 < graded.evidence["share"] <= 0.8
    else:                                        # several optimal plans, or none
        assert graded.level is None and "reason" in graded.evidence
        if meta.get("expect-solutions") != "0":
            assert graded.evidence["plans"] == int(meta["expect-solutions"])
    assert generate.grade(instance) == graded    # deterministic


def test_grading_budget_is_deterministic_on_a_large_space():
    # Half a million reachable states: counted only as far as the level needs.
    instance = parse((SHIPPED / "gen-4jugs-0-holds.txt").read_text())
    one_fill = replace(instance, goal=Goal(GoalKind.EXACT, (43, 0, 0, 0)))
    graded = generate.grade(one_fill)
    assert graded.level == "easy" and graded.evidence["length"] == 1
    assert graded.evidence["reachable"] == 20_000 and graded.evidence["reachable_capped"]
    assert generate.solves_at(one_fill, "easy")


def test_default_size_and_options():
    assert generate.DEFAULT_SIZE is None and generate.LEVELS == ("easy", "medium", "hard")
    assert [option.name for option in generate.OPTIONS] == ["length", "jugs", "goal"]
    assert Path(generate.__file__).name == "generate.py"
