"""The encoding library's lazy-cut loops (`models.lazy_cuts`), against brute force.

The puzzle-free problem: the regions of a small grid that are connected and have no
holes, with no constraint but "some cell is in", so the loops' cuts do all the work.
"""

from __future__ import annotations

import itertools

import pytest

from twinsolve.core.limits import Deadline, Limits
from twinsolve.core.result import Result, Stats, Status
from twinsolve.models import lazy_cuts, sat_common
from twinsolve.search.graph import components


def brute_regions(rows: int, cols: int) -> list[tuple[bool, ...]]:
    """Every non-empty region of the grid, connected and without holes, by enumeration."""
    inner, outer = lazy_cuts.region_graphs(rows, cols)
    found = []
    for values in itertools.product((False, True), repeat=rows * cols):
        outside = [not v for v in values] + [True]
        if any(values) and len(components(inner, values)) == 1 \
                and len(components(outer, outside)) == 1:
            found.append(values)
    return found


def violated(rows: int, cols: int) -> lazy_cuts.Violated:
    inner, outer = lazy_cuts.region_graphs(rows, cols)
    return lambda values: lazy_cuts.region_cuts(values, inner, outer)


def sat_regions(rows: int, cols: int, wanted: int | None) -> tuple[lazy_cuts.CutTally, list]:
    """The SAT loop's solutions, each read back from the clause that forbids it."""
    cells = list(range(1, rows * cols + 1))
    tally, seen = lazy_cuts.CutTally(), []
    with sat_common.SatSession("cadical195", [cells], Deadline(None)) as session:
        added = session.add

        def watch(clause):  # a forbidding clause names every cell: record the solution
            if len(clause) == len(cells) and sorted(map(abs, clause)) == cells:
                seen.append(tuple(lit < 0 for lit in clause))
            added(clause)
        session.add = watch
        lazy_cuts.sat_loop(session, cells, violated(rows, cols), tally, wanted)
    return tally, seen


def test_the_sat_loop_counts_exactly_the_valid_models():
    tally, seen = sat_regions(3, 3, wanted=None)
    expected = brute_regions(3, 3)
    assert tally.complete and tally.found == len(expected) == len(set(seen))
    assert set(seen) == set(expected)
    assert tally.cuts > 0 and tally.rounds > tally.found + 1  # cut rounds, then UNSAT


def test_the_sat_loop_stops_at_the_solutions_wanted():
    tally, seen = sat_regions(3, 3, wanted=2)
    assert tally.found == 2 and not tally.complete and seen[0] == tuple(tally.first)
    assert set(seen) <= set(brute_regions(3, 3))


def test_cuts_stay_for_later_questions_under_assumptions():
    """The next valid model under an assumption, after the cuts of earlier calls."""
    rows, cols = 2, 3
    cells = list(range(1, rows * cols + 1))
    tally = lazy_cuts.CutTally()
    with sat_common.SatSession("cadical195", [cells], Deadline(None)) as session:
        for corner in (0, 5, 0):  # two opposite corners in turn, then the first again
            values = lazy_cuts.valid_model(session, cells, violated(rows, cols), tally,
                                           [cells[corner], cells[5 - corner]])
            assert tuple(values) in brute_regions(rows, cols) and values[0] and values[5]
        rounds = tally.rounds
        assert lazy_cuts.valid_model(session, cells, violated(rows, cols), tally,
                                     [cells[0], cells[5], -cells[1], -cells[4]]) is False
        assert tally.rounds > rounds


def test_the_cpsat_loop_agrees_with_brute_force():
    from ortools.sat.python import cp_model
    rows, cols = 2, 3
    model = cp_model.CpModel()
    cells = [model.new_bool_var(f"in[{v}]") for v in range(rows * cols)]
    model.add_bool_or(cells)
    tally, effort = lazy_cuts.cpsat_loop(model, cells, violated(rows, cols),
                                         Limits(count=True), Deadline(None))
    assert tally.complete and tally.found == len(brute_regions(rows, cols))
    assert tuple(tally.first) in brute_regions(rows, cols)
    assert effort.calls == tally.rounds > tally.found


def _regions_model(rows: int, cols: int) -> lazy_cuts.CutModel:
    from ortools.sat.python import cp_model
    model = cp_model.CpModel()
    cells = [model.new_bool_var(f"in[{v}]") for v in range(rows * cols)]
    model.add_bool_or(cells)
    return model, cells, violated(rows, cols)


def _pigeons(holes: int) -> lazy_cuts.CutModel:
    """holes + 1 pigeons in `holes` holes: no model, and a long proof without the LP."""
    from ortools.sat.python import cp_model
    model = cp_model.CpModel()
    sits = [[model.new_bool_var(f"p{p}h{h}") for h in range(holes)] for p in range(holes + 1)]
    for row in sits:
        model.add_exactly_one(row)
    for h in range(holes):
        model.add_at_most_one(row[h] for row in sits)
    return model, [row[0] for row in sits], lambda values: []


def _never() -> lazy_cuts.CutModel:
    raise AssertionError("the second model was built though the first answered")


@pytest.mark.parametrize("limits", [Limits(count=True), Limits(unique=True), Limits()])
def test_the_stages_answer_with_the_first_model_when_it_can(limits):
    stages = [lazy_cuts.Stage(lambda: _regions_model(2, 3), budget=10.0),
              lazy_cuts.Stage(_never)]
    tally, effort = lazy_cuts.cpsat_stages(stages, limits, Deadline(None))
    everything = brute_regions(2, 3)
    expected = {None: len(everything), True: 2}.get(limits.unique if not limits.count
                                                    else None, 1)
    assert tally.found == expected and tuple(tally.first) in everything
    assert effort.calls == tally.rounds


def test_the_stages_turn_to_the_next_model_when_the_budget_stops_one():
    options = {"linearization_level": 0, "symmetry_level": 0}
    built = []

    def second():
        built.append(True)
        return _regions_model(2, 3)

    stages = [lazy_cuts.Stage(lambda: _pigeons(11), budget=0.01), lazy_cuts.Stage(second)]
    tally, effort = lazy_cuts.cpsat_stages(stages, Limits(count=True, options=options),
                                           Deadline(None))
    assert built == [True]
    assert tally.complete and tally.found == len(brute_regions(2, 3))
    assert effort.calls == tally.rounds > tally.found + 1  # the first's call counted too


def test_a_stage_bounded_in_rounds_hands_its_cuts_to_the_next():
    """Regions holding two opposite corners: the first stage stops after one round,
    whose model cannot be valid yet; the second starts with its cuts, so no model it is
    given violates one of them, and its count is still exact."""
    rows, cols = 3, 3
    check = violated(rows, cols)
    first_cuts: list = []
    given: list = []

    def corners(seen: list, cuts: list | None = None) -> lazy_cuts.CutModel:
        model, cells, _ = _regions_model(rows, cols)
        model.add(cells[0] == 1)
        model.add(cells[-1] == 1)

        def cut(values):
            seen.append(values)
            found = check(values)
            if cuts is not None:
                cuts.extend(found)
            return found
        return model, cells, cut

    stages = [lazy_cuts.Stage(lambda: corners([], first_cuts), rounds=1),
              lazy_cuts.Stage(lambda: corners(given), rounds=1)]
    tally, effort = lazy_cuts.cpsat_stages(stages, Limits(count=True), Deadline(None))
    assert first_cuts and given  # the first model violated cuts; the second stage ran
    for values in given:
        for on, off in first_cuts:
            assert any(values[i] for i in on) or not all(values[i] for i in off)
    expected = [v for v in brute_regions(rows, cols) if v[0] and v[-1]]
    assert tally.complete and tally.found == len(expected)
    assert tally.rounds == effort.calls and tally.cuts >= len(first_cuts)


def test_stages_are_needed():
    with pytest.raises(ValueError, match="at least one stage"):
        lazy_cuts.cpsat_stages([], Limits(), Deadline(None))


@pytest.mark.parametrize("complete, status, expected", [
    (True, Status.UNSAT, Status.UNSAT), (False, Status.TIMEOUT, Status.TIMEOUT)])
def test_the_answer_of_a_loop_without_solutions(complete, status, expected):
    tally = lazy_cuts.CutTally(complete=complete, status=status, cuts=3, rounds=2)
    result = tally.result(Limits(unique=True, count=True), Stats(), dict)
    assert isinstance(result, Result) and result.status is expected
    assert (result.unique, result.count) == ((False, 0) if complete else (None, None))
    assert tally.counters() == {"cuts": 3, "rounds": 2}


def test_forbid_and_cut_clauses_read_as_stated():
    assert lazy_cuts.forbid([1, 2, 3], [True, False, True]) == [-1, 2, -3]
    assert lazy_cuts.cut_clause([5, 6, 7], ([0], [2])) == [5, -7]
