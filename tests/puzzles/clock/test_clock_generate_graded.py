"""Graded clock generation (issue 12): `twinsolve.puzzles.clock.generate`'s protocol.

- A batch per level (three seeds, retried as the driver does): every puzzle
  has exactly one optimal plan by `hand`, `cpsat` and `sat`, through
  `core.run.run` (so `verify` ran), its answer lines are exactly
  `expect-unique` and `expect-objective` and the harness's metadata check
  accepts every answer; it grades to its level, also after a round trip
  through its file text; its one plan is one step repeated (moves commute).
- Exactness: the level-d solver (the node-limited search of
  `search.plan_levels.solves_within`) solves it, the level-(d-1) solver does not.
- Requests: a requested length is the optimum; `hours` and `steps` are
  obeyed; same seed, same text; different seeds, different puzzles;
  impossible requests are refused by `check` or give None from `attempt`.
- `grade` on the shipped dials: only the one-step prime cycle has one
  optimal plan (hard); the others have many, or none.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import ROOT, assert_plan_puzzle_graded, first_generated, sampled

from twinsolve.bench.verdict import against_metadata
from twinsolve.core.errors import UsageError
from twinsolve.core.generation import Generated, Request
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.clock import generate, rules
from twinsolve.puzzles.clock.rules import Instance, format, parse

SEEDS = ("seed-1", "seed-2", "seed-3")
CASES = [(level, seed) for level in generate.LEVELS for seed in SEEDS]


def generated(level: str, seed: str, **options) -> Generated:
    """The first puzzle of `attempt` over the rngs seed-0, seed-1, ... (as the driver)."""
    return first_generated(generate, Request("clock", level, options=options), seed)


@pytest.fixture(scope="module")
def batch() -> dict[tuple[str, str], Generated]:
    return {(level, seed): generated(level, seed) for level, seed in CASES}


# Three solvers on each puzzle: the first seed of each level in the default run.
@pytest.mark.parametrize("level, seed", sampled(CASES, keep=lambda case: case[1] == SEEDS[0]))
def test_generated_puzzle_is_unique_by_three_backends(batch, level, seed):
    instance = batch[level, seed].instance
    meta = dict(instance.meta)
    plans = set()
    for backend in ("hand", "cpsat", "sat"):
        result = run(instance, backend, Limits(unique=True, timeout=60))
        assert result.status is Status.OPTIMAL, (backend, result.message)
        assert result.unique is True and result.verified is True, backend
        assert against_metadata(meta, result) is None, backend
        plans.add(tuple(result.solution["steps"]))
    assert len(plans) == 1
    assert len(set(plans.pop())) == 1     # one step, repeated: any mixture could be reordered


@pytest.mark.parametrize("level, seed", CASES)
def test_generated_puzzle_carries_its_answer_and_grades_exactly_to_its_level(batch, level,
                                                                              seed):
    assert_plan_puzzle_graded(generate, rules, batch[level, seed], level)


@pytest.mark.parametrize("level, options", [
    ("easy", {"length": 1}),
    ("medium", {"length": 3}),        # short, but the search expands more than 30%
    ("hard", {"length": 8}),          # ... more than 60%
    ("hard", {"length": 120}),
    ("medium", {"hours": 1_000_000}),
    ("hard", {"steps": 4}),
    ("easy", {"steps": 1, "hours": 60}),
])
def test_requests_are_obeyed(level, options):
    found = generated(level, "ask", **options)
    instance, evidence = found.instance, found.grade.evidence
    assert found.grade.level == level
    assert evidence["length"] == options.get("length", evidence["length"])
    assert instance.hours == options.get("hours", instance.hours)
    assert len(instance.moves) == options.get("steps", len(instance.moves))
    result = run(instance, "hand", Limits(unique=True, timeout=60))
    assert (result.objective, result.unique) == (evidence["length"], True)


def test_steps_are_written_as_on_the_shipped_dials():
    for k in range(10):
        instance = generated("medium", f"written-{k}").instance
        assert all(-instance.hours // 2 < s <= instance.hours // 2 for s in instance.steps)
        assert len(instance.moves) == len(instance.steps)    # distinct and non-zero


def test_same_seed_same_puzzle_different_seeds_different_puzzles():
    texts = [format(generated("hard", f"det-{k}").instance) for k in range(6)]
    assert texts == [format(generated("hard", f"det-{k}").instance) for k in range(6)]
    assert len(set(texts)) == len(texts)


@pytest.mark.parametrize("request_, words", [
    (Request("clock", "easy", options={"length": 0}), "--length must be a whole number 1..120"),
    (Request("clock", "hard", options={"length": 121}), "1..120, got 121"),
    (Request("clock", "easy", options={"length": 5}), "at most 4 moves, not 5"),
    (Request("clock", "medium", options={"length": 11}), "at most 10 moves, not 11"),
    (Request("clock", "hard", options={"length": 12, "hours": 12}),
     "a dial of 12 hours has no shortest plan of 12 moves"),
    (Request("clock", "easy", options={"hours": 1}),
     "--hours must be a whole number 2..1000000"),
    (Request("clock", "easy", options={"steps": 0}), "--steps must be a whole number 1..4"),
    (Request("clock", "easy", options={"steps": 3, "hours": 3}), "only 2 steps"),
    (Request("clock", "easy", rows=12, cols=12), "no grid size"),
    (Request("clock", "easy", symmetric=True), "no clues"),
])
def test_impossible_requests_are_refused(request_, words):
    with pytest.raises(UsageError, match=words):
        generate.check(request_)


def test_an_unreachable_level_gives_up_attempt_by_attempt():
    # A 12-hour dial has no unique plan past 4 moves with 2 or 3 steps that a medium
    # search (at most 60% of the dial) proves.
    request = Request("clock", "medium", options={"hours": 12})
    generate.check(request)
    assert all(generate.attempt(request, random.Random(n)) is None for n in range(30))


SHIPPED = ROOT / "instances" / "clock"


@pytest.mark.parametrize("name", sampled(sorted(p.name for p in SHIPPED.glob("*.txt")), keep=2))
def test_shipped_instances_grade_sensibly(name):
    instance = parse((SHIPPED / name).read_text(), name)
    graded = generate.grade(instance)
    meta = dict(instance.meta)
    if name == "prime-cycle-999983.txt":      # one step: one plan, half the dial
        assert graded.level == "hard"
        assert graded.evidence == {"length": 500000, "plans": 1, "nodes": 500000,
                                   "reachable": 999983, "share": 0.5}
    else:
        assert graded.level is None and "reason" in graded.evidence
        if "expect-solutions" in meta and meta["expect-solutions"] != "0":
            assert graded.evidence["plans"] == int(meta["expect-solutions"])


def test_a_one_step_dial_grades_by_its_share():
    assert generate.grade(Instance(10, 0, 2, (1,))).level == "easy"      # 2 of 10
    assert generate.grade(Instance(10, 0, 5, (1,))).level == "medium"    # 5 of 10
    assert generate.grade(Instance(10, 0, 9, (1,))).level == "hard"      # 9 of 10
    assert generate.grade(Instance(10, 0, 9, (1, 3))).level == "medium"  # 3+3+3 alone
    tied = generate.grade(Instance(10, 0, 7, (1, 3)))                    # 3+3+1 in 3 orders
    assert tied.level is None and tied.evidence["plans"] == 3


def test_default_size_and_options():
    assert generate.DEFAULT_SIZE is None and generate.LEVELS == ("easy", "medium", "hard")
    assert [option.name for option in generate.OPTIONS] == ["length", "hours", "steps"]
    assert Path(generate.__file__).name == "generate.py"
