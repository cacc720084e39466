"""The engine's shared `solve` of propagation-and-branching back-ends (`search.branching`)."""

from __future__ import annotations

import pytest

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Deadline, LimitHit, LimitReached, Limits
from twinsolve.core.result import Status, Stopwatch
from twinsolve.search.branching import check_probe_option, solve_by_search
from twinsolve.search.propagate import Propagator, Store


def all_different(store: Store) -> None:
    for v in range(3):
        x = store.value(v)
        if x is not None:
            for w in range(3):
                if w != v:
                    store.remove(w, x)


def permutations() -> Propagator:
    """x0, x1, x2 in {1, 2, 3}, all different: six solutions."""
    prop = Propagator(Store.uniform(3, range(1, 4)))
    prop.add_rule(all_different, watches=range(3))
    return prop


class Permutations:
    """The search's view of the example model (`branching.Searchable`)."""

    def __init__(self, prop: Propagator) -> None:
        self.prop = prop

    def choose(self, store: Store) -> int | None:
        return next((v for v in range(3) if not store.is_fixed(v)), None)

    def solution(self, values) -> dict:
        return {"x": list(values)}


def solve(prop: Propagator, limits: Limits, **settling) -> object:
    return solve_by_search(Permutations(prop), limits, Deadline(None), Stopwatch(),
                           order=lambda s, v: s.values(v), probes=lambda: 7, **settling)


def test_the_search_answers_counts_and_statistics():
    prop = permutations()
    result = solve(prop, Limits(count=True, unique=True))
    assert result.status is Status.SOLVED and result.solution == {"x": [1, 2, 3]}
    assert (result.count, result.unique, result.message) == (6, False, None)
    assert result.stats.nodes > 0
    assert result.stats.counters == {"propagations": prop.runs, "probes": 7}


def test_a_node_limit_is_named_and_settles_nothing():
    result = solve(permutations(), Limits(count=True, node_limit=3))
    assert result.status is Status.SOLVED and result.count is None
    assert result.message == f"hand stopped: {LimitHit.NODES} limit"
    early = solve(permutations(), Limits(count=True, node_limit=1))
    assert (early.status, early.message) == (Status.TIMEOUT, result.message)


def test_a_root_that_decides_every_variable_is_the_one_solution_without_search():
    prop = permutations()

    def settle() -> bool:
        prop.store.assign(0, 3)
        prop.store.assign(1, 1)
        return prop.propagate()

    result = solve(prop, Limits(unique=True, count=True), settle=settle,
                   decided=lambda: all(prop.store.is_fixed(v) for v in range(3)))
    assert result.status is Status.SOLVED and result.solution == {"x": [3, 1, 2]}
    assert (result.unique, result.count, result.stats.nodes) == (True, 1, 0)


def test_a_root_that_settles_part_of_it_goes_on_searching():
    prop = permutations()

    def settle() -> bool:
        prop.store.assign(0, 2)
        return prop.propagate()

    result = solve(prop, Limits(count=True), settle=settle, decided=lambda: False)
    assert result.count == 2 and result.solution == {"x": [2, 1, 3]}


def fails() -> bool:
    return False


def out_of_time() -> bool:
    raise LimitReached(LimitHit.DEADLINE)


@pytest.mark.parametrize("settle, status, message", [
    (fails, Status.UNSAT, None), (out_of_time, Status.TIMEOUT, "hand stopped: time limit")])
def test_a_root_that_fails_or_runs_out_of_time(settle, status, message):
    result = solve(permutations(), Limits(unique=True), settle=settle, decided=lambda: False)
    assert (result.status, result.message, result.stats.nodes) == (status, message, 0)
    assert result.unique is (False if status is Status.UNSAT else None)


def test_the_probe_option():
    check_probe_option(Limits(options={"probe": False}))
    with pytest.raises(UsageError, match="no option 'depth'"):
        check_probe_option(Limits(options={"depth": 2}))


def test_without_probing_no_probes_are_counted():
    result = solve_by_search(Permutations(permutations()), Limits(), Deadline(None),
                             Stopwatch(), order=lambda s, v: s.values(v))
    assert result.status is Status.SOLVED and set(result.stats.counters) == {"propagations"}
