"""The CP-SAT helpers every model shares (`models.cpsat_common`): counting by
forbid-and-re-solve and by one enumeration, against brute force.

The puzzle-free problem: n Booleans with a given sum, and a free auxiliary Boolean,
so every assignment of the decisions is met twice by CP-SAT's enumeration and must
be counted once.
"""

from __future__ import annotations

import itertools

import pytest
from ortools.sat.python import cp_model

from twinsolve.core.limits import Limits
from twinsolve.models import cpsat_common


def choose(n: int, total: int) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    model = cp_model.CpModel()
    xs = [model.new_bool_var(f"x{i}") for i in range(n)]
    spare = model.new_bool_var("spare")  # not a decision: free in every solution
    model.add(sum(xs) == total)
    model.add_bool_or([spare, spare.negated()])
    return model, xs


def brute(n: int, total: int) -> set[tuple[int, ...]]:
    return {values for values in itertools.product((0, 1), repeat=n) if sum(values) == total}


@pytest.mark.parametrize("n,total", [(4, 2), (5, 1), (3, 3), (3, 4)])
def test_enumeration_meets_each_assignment_once(n, total):
    model, xs = choose(n, total)
    limits = Limits(timeout=30)
    count = cpsat_common.enumerate_solutions(model, xs, limits, limits.deadline())
    expected = brute(n, total)
    assert (count.found, count.complete) == (len(expected), True)
    assert (count.first is None) == (not expected)
    assert count.first is None or count.first in expected
    assert count.effort.calls == 1


def test_enumeration_stopped_at_the_solutions_wanted_is_not_complete():
    model, xs = choose(4, 2)
    limits = Limits(timeout=30)
    count = cpsat_common.enumerate_solutions(model, xs, limits, limits.deadline(), stop_at=2)
    assert (count.found, count.complete, count.unique) == (2, False, False)


@pytest.mark.parametrize("asked,found,complete", [
    (Limits(timeout=30), 1, False),               # one wanted: the search stops there
    (Limits(timeout=30, unique=True), 2, False),  # a second settles uniqueness
    (Limits(timeout=30, count=True), 6, True),    # to the end
])
def test_solve_and_count_goes_as_far_as_asked(asked, found, complete):
    model, xs = choose(4, 2)
    count = cpsat_common.solve_and_count(model, xs, asked, asked.deadline())
    assert (count.found, count.complete) == (found, complete)
    assert count.first in brute(4, 2)
    assert count.effort.calls == min(found + int(complete), 7)


def test_solve_and_count_of_an_infeasible_model_is_a_complete_empty_count():
    model, xs = choose(3, 4)
    limits = Limits(timeout=30, unique=True)
    count = cpsat_common.solve_and_count(model, xs, limits, limits.deadline())
    assert (count.found, count.complete, count.first, count.unique) == (0, True, None, False)


@pytest.mark.parametrize("budget,calls", [(0.0, 2), (10.0, 1)])
def test_enumeration_past_its_budget_starts_again_with_the_fallback(budget, calls):
    """No budget: the first run stops at once and the fallback (presolve on) counts
    everything; an ample one: one run counts everything."""
    model, xs = choose(4, 2)
    limits = Limits(timeout=30, options={"cp_model_presolve": False})
    count = cpsat_common.enumerate_with_fallback(model, xs, limits, limits.deadline(), None,
                                                 budget, {"cp_model_presolve": True})
    assert (count.found, count.complete) == (len(brute(4, 2)), True)
    assert count.first in brute(4, 2)
    assert count.effort.calls == calls


@pytest.mark.parametrize("n", range(1, 6))
def test_count_clauses_alone_keep_exactly_the_assignments_of_that_sum(n):
    # No linear constraint: the cardinality encoding's clauses alone must allow every
    # assignment of the sum and no other (the auxiliary counters are free to repeat an
    # assignment, so the distinct ones are compared), for every sum and two impossible.
    for total in range(-1, n + 2):
        model = cp_model.CpModel()
        xs = [model.new_bool_var(f"x{i}") for i in range(n)]
        cpsat_common.add_count_clauses(model, xs, total)
        limits = Limits(timeout=30, count=True)
        count = cpsat_common.enumerate_solutions(model, xs, limits, limits.deadline())
        assert count.complete and count.found == len(brute(n, total)), (n, total)
