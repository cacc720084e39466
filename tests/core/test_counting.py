"""The one unique/count contract (`core.result.Tally`): what a search's tally may claim.

Every back-end builds `unique` / `count` through `Result.answer` from a
`Tally`, so these tests pin the contract once: on a simulated search over a
solution set of known size, stopped after `solutions_wanted` solutions or by a
limit at any point, whatever the tally reports is true (`unique` is "exactly
one", `count` is the size), and it reports as much as it can know.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twinsolve.core.limits import Limits
from twinsolve.core.result import (
    NO_SOLUTION,
    UNSETTLED,
    Result,
    Stats,
    Status,
    Tally,
    solutions_wanted,
)

ASKED = [Limits(unique=unique, count=count)
         for unique, count in itertools.product((False, True), repeat=2)]


def _search(total: int, wanted: int | None, stop_after: int | None) -> Tally:
    """A search over `total` candidates that are all solutions, ended after `wanted`
    solutions or, by a limit, after `stop_after` candidates (None: no limit)."""
    found = 0
    for tried in range(total):
        if stop_after is not None and tried >= stop_after:
            return Tally.of_search(found, wanted, stopped=True)
        found += 1
        if wanted is not None and found >= wanted:
            break
    return Tally.of_search(found, wanted)


@given(total=st.integers(0, 6), asked=st.sampled_from(ASKED),
       stop_after=st.none() | st.integers(0, 6))
def test_a_tally_reports_only_what_is_true(total, asked, stop_after):
    tally = _search(total, solutions_wanted(asked), stop_after)
    unique, count = tally.reported(asked)
    if unique is not None:
        assert unique == (total == 1)
    if count is not None:
        assert count == total
    # ... and as much as the search can know: without a limit every question is answered.
    if stop_after is None:
        assert (unique is None) == (not asked.unique)
        assert (count is None) == (not asked.count)


@pytest.mark.parametrize("found, complete, unique, count", [
    (0, True, False, 0),     # a proof there is none
    (1, True, True, 1),
    (2, True, False, 2),
    (0, False, None, None),  # stopped before any
    (1, False, None, None),  # one found, a second not ruled out
    (2, False, False, None),  # two found: not unique, count not known
    (5, False, False, None),
])
def test_tally_table(found, complete, unique, count):
    tally = Tally(found, complete)
    assert (tally.unique, tally.count) == (unique, count)
    assert tally.reported(Limits()) == (None, None)
    assert tally.reported(Limits(unique=True, count=True)) == (unique, count)
    assert tally.reported(Limits(count=True)) == (None, count)


def test_of_search_is_complete_only_when_candidates_ran_out():
    assert Tally.of_search(1, wanted=2) == Tally(1, complete=True)
    assert Tally.of_search(2, wanted=2) == Tally(2, complete=False)
    assert Tally.of_search(7, wanted=None) == Tally(7, complete=True)
    assert Tally.of_search(1, wanted=None, stopped=True) == Tally(1, complete=False)
    assert Tally.of_search(0, wanted=1) == NO_SOLUTION


def test_solutions_wanted():
    assert solutions_wanted(Limits()) == 1
    assert solutions_wanted(Limits(unique=True)) == 2
    assert solutions_wanted(Limits(count=True)) is None
    assert solutions_wanted(Limits(unique=True, count=True)) is None


def test_result_answer_and_unsat_read_the_tally():
    stats = Stats(nodes=3)
    asked = Limits(unique=True, count=True)
    found = Result.answer(Status.SOLVED, {"x": 1}, 4, tally=Tally(2, complete=False),
                          asked=asked, stats=stats, message="m")
    assert (found.status, found.solution, found.objective) == (Status.SOLVED, {"x": 1}, 4)
    assert (found.unique, found.count, found.stats, found.message) == (False, None, stats, "m")
    none = Result.unsat(asked, stats=stats)
    assert (none.status, none.unique, none.count, none.solution) == (Status.UNSAT, False, 0, None)
    assert Result.unsat(Limits()).unique is None and Result.unsat(Limits()).count is None
    assert Result.answer(Status.FEASIBLE, {}, 1, tally=UNSETTLED, asked=asked).unique is None
