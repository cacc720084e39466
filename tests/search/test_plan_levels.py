"""The shortest-plan grader and drawer (`twinsolve.search.plan_levels`), on toy state spaces.

- Levels: the first band admitting (length, share) is the level; a share
  above a band's bound moves a short plan up; several optimal plans, no
  plan, or a search past the budget give no level, with the reason.
- Exactness: the restricted solver (`solves_within`, a real node-limited
  search) solves an instance exactly at its graded level and above, never
  below, on every target of random dials.
- Laziness: on an infinite space the reachable count stops where the
  decision is settled (evidence says so), and both grader and solver end.
- `survey` agrees with the engine's own layer count for every goal; `draw`
  is deterministic by rng, keeps only unique plans of wanted lengths, and
  adds the answer lines.
- Requests: sizes, symmetry, unknown levels and bad lengths are refused.
- The module imports only `core` and `search`.
"""

from __future__ import annotations

import ast
import random
from dataclasses import dataclass
from pathlib import Path

import pytest

from twinsolve.core.errors import UsageError
from twinsolve.core.generation import Grade, Request
from twinsolve.search import plan_levels as grading
from twinsolve.search.layers import count_shortest_paths
from twinsolve.search.plan_levels import (
    Band,
    Hit,
    PlanProblem,
    check_plan_request,
    draw,
    grade_plan,
    reachable_counter,
    solves_within,
    survey,
    wanted_lengths,
    whole_option,
)
from twinsolve.search.statespace import StateSpace

BANDS = (Band("easy", 4, 30, range(2, 5)), Band("medium", 10, 60, range(5, 11)),
         Band("hard", None, None, range(11, 21)))
LEVELS = [b.level for b in BANDS]


def dial(hours: int, steps: tuple[int, ...], target: int, both: bool = True) -> PlanProblem:
    """Positions 0..hours-1 from 0, moves +s mod hours; all positions are reachable when
    gcd(hours, steps) = 1 (the tests count them with `reachable_counter` anyway)."""
    space = StateSpace(0, lambda x: [(s, (x + s) % hours) for s in steps], goal_state=target,
                       predecessors=lambda x: [(s, (x - s) % hours) for s in steps])
    return PlanProblem(space, both_ends=both and len(steps) > 1,
                       reachable=reachable_counter(space))


def line(goal: int, end: int | None = None) -> PlanProblem:
    """0, 1, 2, ... by +1 (up to `end`, or forever): a forward search only."""
    space = StateSpace(0, lambda x: [("+1", x + 1)] if end is None or x < end else [],
                       is_goal=lambda x: x == goal)
    return PlanProblem(space, both_ends=False, reachable=reachable_counter(space))


# ---------------------------------------------------------------- levels

def test_band_admits_length_and_share():
    easy = BANDS[0]
    assert easy.admits(4, 3, 10) and not easy.admits(5, 1, 100)
    assert easy.admits(2, 30, 100) and not easy.admits(2, 31, 100)
    assert BANDS[2].admits(10**6, 10**6, 1)
    assert easy.node_limit(100, budget=10**6) == 30 and easy.node_limit(10**9, 50) == 50
    assert BANDS[2].node_limit(7, budget=123) == 123


@pytest.mark.parametrize("goal, end, level", [
    (3, 19, "easy"),      # 3 moves, 3 of 20 states expanded
    (4, 9, "medium"),     # 4 moves, but 4 of 10 states: more than 30%
    (10, 99, "medium"),
    (9, 12, "hard"),      # 9 moves, 9 of 13 states: more than 60%
    (11, 99, "hard"),
])
def test_level_is_the_first_band_admitting_length_and_share(goal, end, level):
    graded = grade_plan(line(goal, end), BANDS)
    assert graded.level == level
    assert graded.evidence == {"length": goal, "plans": 1, "nodes": goal,
                               "reachable": end + 1, "share": round(goal / (end + 1), 4)}


def test_no_level_without_exactly_one_optimal_plan():
    two = grade_plan(dial(12, (4, 7), 11), BANDS)          # +4+7 and +7+4
    assert two == Grade(None, {"length": 2, "plans": 2, "nodes": two.evidence["nodes"],
                               "reason": "2 optimal plans"})
    none = grade_plan(dial(12, (4, 8), 3), BANDS)          # gcd 4: the search runs dry
    assert none.level is None and none.evidence["reason"] == "unreachable: search exhausted"
    told = PlanProblem(line(3).space, False, lambda cap: cap, unreachable="odd, not even")
    assert grade_plan(told, BANDS) == Grade(None, {"reason": "unreachable: odd, not even",
                                                   "nodes": 0})
    assert not solves_within(told, BANDS[2])


def test_a_search_past_the_budget_is_not_graded():
    graded = grade_plan(line(500), BANDS, budget=100)
    assert graded.level is None and graded.evidence["reason"].startswith("not graded")
    assert not solves_within(line(500), BANDS[2], budget=100)


def test_start_at_the_goal_is_the_easiest():
    graded = grade_plan(line(0, 5), BANDS)
    assert graded.level == "easy" and graded.evidence["length"] == 0


@pytest.mark.parametrize("seed", range(6))
def test_restricted_solver_is_exact_on_every_target(seed):
    rng = random.Random(seed)
    hours = rng.randrange(20, 120)
    steps = tuple(rng.sample(range(1, hours), rng.choice((1, 2, 3))))
    graded_some = 0
    for target in range(1, hours):
        problem = dial(hours, steps, target)
        level = grade_plan(problem, BANDS).level
        solved = [solves_within(problem, band) for band in BANDS]
        if level is None:
            assert not any(solved), target
            continue
        graded_some += 1
        d = LEVELS.index(level)
        assert solved == [i >= d for i in range(len(BANDS))], (target, level)
    assert graded_some > 0


def test_reachable_counter_stops_at_its_cap():
    reachable = reachable_counter(dial(50, (1,), 3).space)
    assert reachable(1000) == 50 and reachable(50) == 50 and reachable(7) == 7
    endless = reachable_counter(line(3).space)
    assert endless(1234) == 1234


def test_an_infinite_space_is_graded_from_a_bounded_count():
    graded = grade_plan(line(3), BANDS)              # counts 20,000 states, not forever
    assert graded.level == "easy"
    assert graded.evidence["reachable_capped"] is True
    assert graded.evidence["reachable"] == grading.EXACT_REACHABLE
    assert solves_within(line(3), BANDS[0])          # doubles its count until it can tell


# ---------------------------------------------------------------- drawing

@pytest.mark.parametrize("seed", range(5))
def test_survey_agrees_with_the_engine_for_every_goal(seed):
    rng = random.Random(100 + seed)
    hours = rng.randrange(10, 60)
    steps = tuple(rng.sample(range(1, hours), rng.choice((2, 3))))
    hits = survey(dial(hours, steps, 0).space, lambda x: [x, ("parity", x % 2)], max_depth=8)
    for target in range(hours):
        engine = count_shortest_paths(dial(hours, steps, target).space)
        if engine.found and engine.cost <= 8:
            assert hits[target] == Hit(engine.cost, engine.count), target
        else:
            assert target not in hits
    for parity in (0, 1):   # a label met by many states: its first layer's plans summed
        goal = StateSpace(0, dial(hours, steps, 0).space.successors,
                          is_goal=lambda x, p=parity: x % 2 == p)
        engine = count_shortest_paths(goal)
        if engine.found and engine.cost <= 8:
            assert hits[("parity", parity)] == Hit(engine.cost, engine.count)


@dataclass(frozen=True)
class Toy:
    target: int
    meta: tuple = ()


def test_draw_keeps_unique_plans_of_wanted_lengths_in_a_seeded_order():
    hits = {1: Hit(1, 1), 2: Hit(2, 1), 3: Hit(2, 5), 4: Hit(3, 1), 5: Hit(2, 1)}
    graded: list[int] = []

    def grade(toy: Toy) -> Grade:
        graded.append(toy.target)
        return Grade("easy" if toy.target != 2 else "medium", {"length": hits[toy.target].length})

    first = draw(hits, range(2, 3), random.Random("a"), Toy, grade, "easy")
    again = draw(hits, range(2, 3), random.Random("a"), Toy, grade, "easy")
    assert first == again and first.instance.target == 5
    assert set(graded) <= {2, 5}                    # never 3 (5 plans) nor 1, 4 (lengths)
    assert first.instance.meta == (("expect-unique", "true"), ("expect-objective", "2"))
    assert first.grade.level == "easy"
    assert draw(hits, range(2, 3), random.Random("a"), Toy, grade, "hard") is None
    assert draw(hits, range(7, 9), random.Random("a"), Toy, grade, "easy") is None


def test_draw_tries_at_most_its_budget():
    hits = {n: Hit(3, 1) for n in range(50)}
    seen: list[int] = []
    found = draw(hits, range(3, 4), random.Random(1), Toy,
                 lambda toy: seen.append(toy.target) or Grade(None), "easy", tries=5)
    assert found is None and len(seen) == 5 and len(set(seen)) == 5


# ---------------------------------------------------------------- requests

def test_wanted_lengths():
    assert wanted_lengths(BANDS, "medium", None) == range(5, 11)
    assert wanted_lengths(BANDS, "medium", 3) == range(3, 4)


@pytest.mark.parametrize("request_, words", [
    (Request("toy", "easy", rows=3, cols=3), "no grid size"),
    (Request("toy", "easy", symmetric=True), "no clues"),
    (Request("toy", "extreme"), "levels are easy, medium, hard"),
    (Request("toy", "easy", options={"length": 0}), "--length must be a whole number 1..50"),
    (Request("toy", "easy", options={"length": -2}), "1..50"),
    (Request("toy", "easy", options={"length": True}), "1..50"),
    (Request("toy", "easy", options={"length": "six"}), "1..50"),
    (Request("toy", "hard", options={"length": 51}), "1..50, got 51"),
    (Request("toy", "easy", options={"length": 5}), "level easy have optimal plans of at "
                                                     "most 4 moves, not 5"),
])
def test_impossible_requests_are_refused(request_, words):
    with pytest.raises(UsageError, match=words):
        check_plan_request(request_, BANDS, "toy", longest=50)


def test_possible_requests_give_their_length():
    assert check_plan_request(Request("toy", "hard"), BANDS, "toy", 50) is None
    assert check_plan_request(Request("toy", "hard", options={"length": 50}),
                              BANDS, "toy", 50) == 50
    assert check_plan_request(Request("toy", "medium", options={"length": 2}),
                              BANDS, "toy", 50) == 2
    assert whole_option(Request("toy", "easy"), "jugs", 2, 4) is None
    with pytest.raises(UsageError, match="--jugs must be a whole number 2..4, got 5"):
        whole_option(Request("toy", "easy", options={"jugs": 5}), "jugs", 2, 4)


def test_grading_imports_only_core_and_search():
    tree = ast.parse(Path(grading.__file__).read_text())
    imported = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):   # `from ..core.x` and `from .bfs` resolved
            base = {0: "", 1: "twinsolve.search.", 2: "twinsolve."}[node.level]
            imported.append(base + (node.module or ""))
        elif isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
    ours = [name for name in imported if name.startswith("twinsolve")]
    assert ours and all(name.startswith(("twinsolve.core.", "twinsolve.search."))
                        for name in ours), ours
