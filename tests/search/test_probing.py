"""Failed-literal probing and the in-propagation stop of `twinsolve.search.propagate`.

- Tiny problems: probing fixes a value the rules alone leave open; it finds a
  contradiction the rules alone miss; it leaves the store as it found it
  when every trial holds; `candidates` and `order` choose what is tried;
  `probe_passes` stops probing before its fixpoint; a pass takes the trials
  made since the last change instead of making them again; the passes after
  a removal try only `candidates_near`'s, and a whole pass closes them.
- Forcing: what every value of a variable implies holds (a value both
  trials fix, the union of what three trials leave), which probing alone
  leaves open; the solutions stay the same.
- Random small constraint problems (hypothesis) against brute force: with
  probing (to a fixpoint or one pass, forcing or not) the search counts
  exactly the brute-force solutions, probing never removes a value some
  solution uses, and after `propagate()` every value left on a candidate
  propagates without failing (a probing fixpoint, near passes or not); the lookahead with
  forcing keeps every value some solution takes, and so does its learning.
- Limits: a deadline stops propagation (root or mid-trial) with
  `LimitReached`, not a contradiction; `search` reports it as a stop, and
  a trial under way is undone, its value kept.
"""

from __future__ import annotations

import itertools

import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search.lookahead import Lookahead
from twinsolve.search.propagate import Contradiction, LimitReached, Propagator, Store, search
from twinsolve.search.statespace import LimitHit

A, B, C = 0, 1, 2


def implies(if_var: int, if_value: int, then_var: int, then_value: int):
    """The rule `if_var == if_value  ->  then_var == then_value`."""
    def rule(store: Store) -> None:
        if store.value(if_var) == if_value:
            store.assign(then_var, then_value)
    return rule


def not_both_one(store: Store) -> None:
    """B and C are not both 1."""
    if store.value(B) == 1:
        store.remove(C, 1)
    if store.value(C) == 1:
        store.remove(B, 1)


def abc(probe: bool, a_zero_fails: bool = False) -> Propagator:
    """A = 1 forces B = C = 1, which `not_both_one` forbids (optionally A = 0 too)."""
    prop = Propagator(Store.booleans(3))
    prop.add_rule(implies(A, 1, B, 1), (A,))
    prop.add_rule(implies(A, 1, C, 1), (A,))
    if a_zero_fails:
        prop.add_rule(implies(A, 0, B, 1), (A,))
        prop.add_rule(implies(A, 0, C, 1), (A,))
    prop.add_rule(not_both_one, (B, C))
    if probe:
        prop.enable_probing()
    return prop


def test_probing_fixes_a_value_the_rules_alone_leave_open():
    plain = abc(probe=False)
    assert plain.propagate() and plain.store.assignment() == (None, None, None)
    probed = abc(probe=True)
    assert probed.propagate()
    assert probed.store.assignment() == (0, None, None)  # A = 1 fails, so A = 0
    assert probed.probes > 0 and plain.probes == 0
    assert search(probed, max_solutions=None).count == search(plain, max_solutions=None).count == 3


def test_probing_finds_a_contradiction_the_rules_alone_miss():
    plain = abc(probe=False, a_zero_fails=True)
    assert plain.propagate()  # nothing to see without a trial
    probed = abc(probe=True, a_zero_fails=True)
    assert not probed.propagate()  # both values of A fail
    unsat = search(abc(probe=True, a_zero_fails=True), max_solutions=None)
    assert (unsat.count, unsat.nodes, unsat.exhausted) == (0, 0, True)  # decided at the root
    assert search(plain, max_solutions=None).count == 0


def test_trials_that_hold_leave_the_store_as_it_was():
    prop = Propagator(Store.uniform(3, range(3)))
    prop.add_rule(lambda store: None, None)
    prop.enable_probing()
    assert prop.propagate()
    assert prop.store.dom == [0b111] * 3 and prop.store.trail == []
    assert prop.probes == 9  # every value of every variable, one pass


def test_candidates_and_order_choose_what_is_tried():
    tried = []

    def spy(store: Store) -> None:
        tried.append(store.assignment())

    prop = Propagator(Store.booleans(3))
    prop.add_rule(spy, None)
    prop.enable_probing(candidates=lambda store: [2], order=lambda store, var: (1, 0))
    assert prop.propagate()
    assert tried == [(None, None, None), (None, None, 1), (None, None, 0)]
    assert prop.probes == 2


def test_probing_runs_again_only_after_a_change():
    prop = Propagator(Store.booleans(3))
    prop.add_rule(lambda store: None, None)
    prop.enable_probing()
    assert prop.propagate() and prop.probes == 6
    assert prop.propagate() and prop.probes == 6  # nothing changed: the last pass stands
    prop.store.assign(0, 1)
    assert prop.propagate() and prop.probes == 10  # the two unfixed variables, again


def b_then_a(passes: int | None = None, candidates_near=None) -> Propagator:
    """B = 1 fails; A = 1 fails only once B = 0 (so a second pass finds it), probing A
    then B, at most `passes` passes, with `candidates_near` (`enable_probing`)."""
    prop = Propagator(Store.booleans(2))

    def b_one_fails(store: Store) -> None:
        if store.value(B) == 1:
            raise Contradiction

    def not_a_one_with_b_zero(store: Store) -> None:
        if store.value(A) == 1 and store.value(B) == 0:
            raise Contradiction
    prop.add_rule(b_one_fails, (B,))
    prop.add_rule(not_a_one_with_b_zero, (A, B))
    prop.enable_probing(candidates=lambda store: [A, B], candidates_near=candidates_near)
    prop.probe_passes = passes
    return prop


def test_probe_passes_bound_the_passes():
    """Pass 1 finds B = 1 fails and removes it; only then does A = 1 fail (it needs B = 0),
    which a second pass finds and one pass does not."""
    fixpoint, one = b_then_a(None), b_then_a(1)
    assert fixpoint.propagate() and one.propagate()
    assert fixpoint.store.assignment() == (0, 0)
    assert one.store.assignment() == (None, 0)
    assert (fixpoint.probes, one.probes) == (6, 4)  # both: A, B (B = 1 fails); then A again


def test_passes_after_a_removal_probe_near_it_and_a_whole_pass_closes():
    """`candidates_near` gives the passes after a removal their candidates: here none, so the
    pass after B = 1's removal tries nothing, and the whole pass that closes it finds
    A = 1 failing (it needs B = 0); the next near pass is asked from that removal on."""
    asked = []

    def near(store: Store, origin: int) -> list[int]:
        asked.append(changed_since(store, origin))
        return []

    prop = b_then_a(candidates_near=near)
    assert prop.propagate() and prop.store.assignment() == (0, 0)
    assert asked == [[B], [A]]  # what each removal's pass changed
    assert prop.probes == 6  # A, B (B = 1 fails); none; A (A = 1 fails); none; none


def test_a_pass_takes_the_trials_made_since_the_last_change():
    """Pass 1 removes A = 1 (its first removal), then tries B and C in the store pass 2
    starts from: pass 2, which confirms the fixpoint, takes those four trials' outcomes
    (and how far they reached) instead of making them again."""
    tried = []

    def a_one_fails(store: Store) -> None:
        tried.append(store.assignment())
        if store.value(A) == 1:
            raise Contradiction

    prop = Propagator(Store.booleans(3))
    prop.add_rule(a_one_fails, None)
    prop.enable_probing(candidates=lambda store: [A, B, C])
    assert prop.propagate() and prop.store.assignment() == (0, None, None)
    assert prop.probes == 6  # A = 0, A = 1 (fails), then B and C once each way
    assert tried.count((0, 1, None)) == 1 and tried.count((0, None, 0)) == 1
    assert set(prop.impact) == {(B, 0), (B, 1), (C, 0), (C, 1)}  # the last pass's


def forked(forcing: bool) -> Propagator:
    """A = 1 fixes B = 1; A = 0 fixes C = 1, which fixes B = 1. No rule reads back, so no
    single trial fails: B = 1 follows from both values of A only."""
    prop = Propagator(Store.booleans(3))
    prop.add_rule(implies(A, 1, B, 1), (A,))
    prop.add_rule(implies(A, 0, C, 1), (A,))
    prop.add_rule(implies(C, 1, B, 1), (C,))
    prop.enable_probing(forcing=forcing)
    return prop


def test_forcing_keeps_what_every_value_of_a_variable_implies():
    probed, forced = forked(False), forked(True)
    assert probed.propagate() and probed.store.assignment() == (None, None, None)
    assert forced.propagate() and forced.store.assignment() == (None, 1, None)
    every = search(forked(False), max_solutions=None)
    assert sorted(every.solutions) == [(0, 1, 1), (1, 1, 0), (1, 1, 1)]
    assert sorted(search(forced, max_solutions=None).solutions) == sorted(every.solutions)


def test_forcing_keeps_the_union_of_what_the_trials_leave():
    """X = 0 leaves Y {0}, X = 1 and X = 2 leave it {1}: Y loses 2 and keeps 0 and 1;
    Z, which X = 2 leaves alone, keeps all its values."""
    prop = Propagator(Store.uniform(3, range(3)))
    prop.add_rule(implies(0, 0, 1, 0), (0,))
    prop.add_rule(implies(0, 1, 1, 1), (0,))
    prop.add_rule(implies(0, 2, 1, 1), (0,))
    prop.add_rule(implies(0, 1, 2, 0), (0,))
    prop.add_rule(implies(0, 0, 2, 0), (0,))
    prop.enable_probing(candidates=lambda store: [0], forcing=True)
    assert prop.propagate()
    assert [prop.store.values(v) for v in range(3)] == [[0, 1, 2], [0, 1], [0, 1, 2]]


# ---------------------------------------------------------------- against brute force


@st.composite
def binary_problems(draw):
    """Variables with domains in 0..2 and forbidden value pairs between some of them."""
    n = draw(st.integers(1, 5))
    domains = [draw(st.sets(st.integers(0, 2), min_size=1)) for _ in range(n)]
    pairs = [(v, w) for v in range(n) for w in range(v + 1, n)]
    forbidden = draw(st.lists(st.tuples(st.sampled_from(pairs), st.integers(0, 2),
                                        st.integers(0, 2)), max_size=12) if pairs else st.just([]))
    return domains, forbidden


def changed_since(store: Store, origin: int) -> list[int]:
    """The variables narrowed since trail position `origin` (probing's `candidates_near`)."""
    return sorted({var for var, _ in store.trail[origin:]})


def build(domains, forbidden, probe: bool, forcing: bool = False,
          candidates_near=None) -> Propagator:
    """A forbidden pair (v, x, w, y) is the rule: v == x removes y from w, and back;
    `candidates_near`, probing's (`Propagator.enable_probing`)."""
    prop = Propagator(Store(domains))
    for (v, w), x, y in forbidden:
        def rule(store, v=v, w=w, x=x, y=y):
            if store.value(v) == x:
                store.remove(w, y)
            if store.value(w) == y:
                store.remove(v, x)
        prop.add_rule(rule, (v, w))
    if probe:
        prop.enable_probing(forcing=forcing, candidates_near=candidates_near)
    return prop


def brute(domains, forbidden) -> list[tuple[int, ...]]:
    return [values for values in itertools.product(*(sorted(d) for d in domains))
            if not any(values[v] == x and values[w] == y for (v, w), x, y in forbidden)]


@pytest.mark.parametrize("examples", sampled([50, 150]))  # the second under `slow`
def test_probing_is_sound_and_reaches_a_probing_fixpoint(examples):
    @settings(max_examples=examples)
    @given(binary_problems())
    def check(problem):
        domains, forbidden = problem
        solutions = brute(domains, forbidden)
        probed = search(build(domains, forbidden, True), max_solutions=None)
        assert sorted(probed.solutions) == solutions and probed.exhausted
        plain = search(build(domains, forbidden, False), max_solutions=None)
        assert plain.count == probed.count
        one_pass = build(domains, forbidden, True)
        one_pass.probe_passes = 1
        assert sorted(search(one_pass, max_solutions=None).solutions) == solutions
        forced = search(build(domains, forbidden, True, forcing=True), max_solutions=None)
        assert sorted(forced.solutions) == solutions

        near = search(build(domains, forbidden, True, candidates_near=changed_since),
                      max_solutions=None)
        assert sorted(near.solutions) == solutions

        for forcing, nearby in ((True, None), (False, changed_since), (False, None)):
            prop = build(domains, forbidden, True, forcing, nearby)
            if not prop.propagate():
                assert solutions == []
                return
            for v in range(len(prop.store)):  # nothing true removed
                assert {s[v] for s in solutions} <= set(prop.store.values(v)), forcing
            if forcing:
                continue
            # Without forcing, a fixpoint of probing (near passes or not): every value
            # left on an unfixed variable survives its trial.
            store = prop.store
            trial = build(domains, forbidden, False)
            trial.store.dom = list(store.dom)
            for v in range(len(store)):
                if not store.is_fixed(v):
                    for x in store.values(v):
                        mark = trial.store.mark()
                        trial.store.assign(v, x)
                        assert trial.propagate(), (v, x, nearby)
                        trial.store.undo(mark)
    check()


@pytest.mark.parametrize("learn", [False, True])
@pytest.mark.parametrize("examples", sampled([40, 120]))  # the second under `slow`
def test_lookahead_with_forcing_removes_no_solution(examples, learn):
    """The lookahead one level deeper, forcing at both levels, on every variable: it
    keeps every value some solution takes, says False only without solutions, and a
    search from where it stops counts them all; learning too (its implications stay
    rules for that search)."""
    @settings(max_examples=examples)
    @given(binary_problems())
    def check(problem):
        domains, forbidden = problem
        solutions = brute(domains, forbidden)
        prop = build(domains, forbidden, True, forcing=True)
        if not prop.propagate():
            assert solutions == []
            return
        settled = Lookahead(prop, lambda store: range(len(store)), forcing=True,
                            learn=learn).run()
        if settled is False:
            assert solutions == []
            return
        for v in range(len(prop.store)):
            assert {s[v] for s in solutions} <= set(prop.store.values(v))
        found = search(prop, max_solutions=None)
        assert sorted(found.solutions) == solutions and found.exhausted
    check()


# ---------------------------------------------------------------- limits


class After:
    """A deadline that expires once `when()` is true."""

    def __init__(self, when) -> None:
        self.when = when

    def expired(self) -> bool:
        return self.when()


def chain(n: int) -> Propagator:
    """x0 = 1 forces x1 = 1 ... x(n-1) = 1, and x(n-1) = 1 fails: many rule runs per trial."""
    prop = Propagator(Store.booleans(n))
    for v in range(n - 1):
        prop.add_rule(implies(v, 1, v + 1, 1), (v,))

    def last(store: Store) -> None:
        if store.value(n - 1) == 1:
            raise Contradiction
    prop.add_rule(last, (n - 1,))
    prop.enable_probing(candidates=lambda store: [0], order=lambda store, var: (1, 0))
    return prop


def test_a_deadline_mid_trial_keeps_the_value_and_undoes_the_trial():
    prop = chain(80)
    prop.deadline = After(lambda: prop.probes > 0)
    with pytest.raises(LimitReached) as stop:
        prop.propagate()
    assert stop.value.hit is LimitHit.DEADLINE
    assert prop.store.assignment() == (None,) * 80 and prop.store.trail == []
    prop.deadline = None
    prop.schedule_all()  # a stop leaves no fixpoint behind: resume from every rule
    assert prop.propagate() and prop.store.value(0) == 0  # the same trial, run to its end


def test_search_reports_a_stop_in_propagation_as_a_stop_not_unsat():
    # Probing alone proves this unsat at the root; a deadline inside it must not say so.
    prop = abc(probe=True, a_zero_fails=True)
    expired = search(prop, max_solutions=None, deadline=After(lambda: True))
    assert (expired.count, expired.exhausted, expired.limit_hit) == (0, False, LimitHit.DEADLINE)
    assert expired.unique is None and prop.deadline is None  # the search's deadline is its own
    late = chain(80)
    during = search(late, deadline=After(lambda: late.probes > 0))
    assert (during.count, during.exhausted, during.limit_hit) == (0, False, LimitHit.DEADLINE)
    assert late.store.assignment() == (None,) * 80


def chain_of(length: int, start: int, store_size: int):
    """Rules: variable `start` = 1 fixes the next `length` variables to 1, one by one."""
    def rule(store: Store) -> None:
        for v in range(start, start + length):
            if store.value(v) == 1:
                store.assign(v + 1, 1)
    return rule, range(start, min(start + length + 1, store_size))


def test_most_impact_names_the_variable_whose_trials_reach_furthest():
    # Variable 0 = 1 fixes 1..2; variable 3 = 1 fixes 4..8: variable 3 reaches further.
    prop = Propagator(Store.booleans(9))
    for length, start in ((2, 0), (5, 3)):
        rule, watches = chain_of(length, start, 9)
        prop.add_rule(rule, watches)
    assert prop.most_impact() is None  # no probing pass yet
    prop.enable_probing(lambda store: [0, 3])
    assert prop.propagate()
    assert prop.impact == {(0, 0): 1, (0, 1): 3, (3, 0): 1, (3, 1): 6}
    assert prop.most_impact() == 3
    assert prop.most_impact(among=lambda var: var != 3) == 0  # the best of those allowed
    assert prop.most_impact(among=lambda var: var > 8) is None
    prop.store.assign(3, 0)  # a branch: the trials are read again on its store
    assert prop.propagate() and prop.most_impact() == 0
    prop.store.assign(0, 1)
    assert prop.propagate() and prop.most_impact() is None  # nothing left to try
