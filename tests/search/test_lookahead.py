"""The lookahead's order of trials and its bounds (`search.lookahead.Lookahead`): the
variables tried longest ago first, ties to the one whose root probes reached furthest;
`patience` trials in a row that remove nothing at most; with `forcing`, what every value
of a variable implies once each trial has probed.

The store of every test: x2 = 0 narrows x0 and x1 (its probes reach furthest); x0 = 1
with x1 fixed either way is a contradiction that only probing one level deeper finds.
"""

from __future__ import annotations

from twinsolve.search.lookahead import Lookahead
from twinsolve.search.propagate import (
    IS_FALSE,
    IS_TRUE,
    UNDECIDED,
    Contradiction,
    Propagator,
    Store,
    search,
)


def rules(s: Store) -> None:
    """The rules of the store above (x0, x1 and x2 of a store of at least three)."""
    if s.value(2) == 0:
        s.restrict(0, IS_FALSE)
        s.restrict(1, IS_FALSE)
    if s.value(0) == 1 and s.value(1) is not None:
        raise Contradiction


def probed() -> Propagator:
    """The store above, at its root's probing fixpoint (nothing decided)."""
    store = Store.booleans(3)
    prop = Propagator(store)
    prop.add_rule(rules)
    prop.enable_probing(lambda s: [2, 0, 1] if s.value(2) is None else [0, 1])
    assert prop.propagate() and store.dom == [UNDECIDED] * 3
    return prop


def test_trials_go_furthest_reach_first_then_untried_before_retried():
    """The first pass starts with x2, whose probes reach furthest; x0 = 1 falls, and the
    second pass starts with x1 (never tried) before x2 (tried in the first pass)."""
    prop = probed()
    tried: list[int | None] = []
    lookahead = Lookahead(prop, lambda s: [0, 1, 2], focus=tried.append)
    assert lookahead.run() is True and prop.store.dom[0] == IS_FALSE
    trials = [var for var in tried if var is not None]
    # pass 1: x2 (both values hold), then x0 = 0 holds and x0 = 1 fails;
    # pass 2: x1 (never tried), then x2; x0 is fixed now
    assert trials == [2, 2, 0, 0, 1, 1, 2, 2]
    assert lookahead.trials == len(trials)


def test_patience_bounds_the_trials_in_a_row_that_remove_nothing():
    """x0 = 1 falls at the 4th trial; the second pass's 4 trials all hold."""
    prop = probed()
    stopped = Lookahead(prop, lambda s: [0, 1, 2], patience=3)  # 3 hold before x0 = 1
    assert stopped.run() is None and stopped.trials == 3 and prop.store.dom[0] == UNDECIDED
    prop = probed()
    settled = Lookahead(prop, lambda s: [0, 1, 2], patience=4)
    assert settled.run() is True and settled.trials == 8 and prop.store.dom[0] == IS_FALSE


def test_forcing_keeps_what_every_value_implies_after_its_probing():
    """A = 0 makes X = 1 by a rule; A = 1 with X = 0 is a contradiction the rules only
    detect, so under A = 1 probing removes X = 0. X = 1 either way: the lookahead with
    forcing fixes it; probing's own forcing (its trials run no probing) and the
    lookahead without forcing (both values of A hold) leave it open."""
    A, X = 0, 1

    def rules(s):
        if s.value(A) == 1 and s.value(X) == 0:
            raise Contradiction
        if s.value(A) == 0:
            s.restrict(X, IS_TRUE)

    def root() -> Propagator:
        prop = Propagator(Store.booleans(2))
        prop.add_rule(rules)
        prop.enable_probing(forcing=True)
        assert prop.propagate() and prop.store.dom == [UNDECIDED] * 2
        return prop

    plain = root()
    assert Lookahead(plain, lambda s: [A]).run() is True
    assert plain.store.dom == [UNDECIDED] * 2
    forced = root()
    lookahead = Lookahead(forced, lambda s: [A], forcing=True)
    assert lookahead.run() is True and forced.store.dom == [UNDECIDED, IS_TRUE]
    # both values of A, then a second pass (after the narrowing) whose two find nothing
    assert lookahead.trials == 4 and lookahead.fruitful == 2
    assert sorted(search(forced, max_solutions=None).solutions) == [(0, 1), (1, 1)]


def test_learning_keeps_what_a_trial_implied_as_a_rule():
    """A = 1 with X = 0 is a contradiction the rules only detect, so the lookahead's trial
    A = 1, probing X, narrows X to 1 and holds (so does A = 0, narrowing nothing). With
    learning, that implication stays a rule: once X = 0, A = 0 follows backwards by
    propagation alone, where the probing left (on X only, now fixed) tries nothing."""
    A, X = 0, 1

    def rules(s):
        if s.value(A) == 1 and s.value(X) == 0:
            raise Contradiction

    for learn, learned, after in ((False, 0, UNDECIDED), (True, 1, IS_FALSE)):
        prop = Propagator(Store.booleans(2))
        prop.add_rule(rules)
        prop.enable_probing(lambda s: [X])
        assert prop.propagate() and prop.store.dom == [UNDECIDED] * 2
        lookahead = Lookahead(prop, lambda s: [A], learn=learn)
        assert lookahead.run() is True and prop.store.dom == [UNDECIDED] * 2
        assert lookahead.trials == 2 and lookahead.learned == learned
        prop.store.restrict(X, IS_FALSE)
        assert prop.propagate() and prop.store.dom[A] == after, learn


def test_a_removal_probed_near_its_changes_still_ends_at_a_whole_fixpoint():
    """With `near`, the lookahead's removal of x0 = 1 propagates while the caller probes
    nothing (here: no cell is near); x0 = 0 then makes x3 = 1 a contradiction that only
    probing finds, so the lookahead's closing pass over every candidate finds it, and
    the store ends where a lookahead probing everything after each removal ends."""

    def ended(near: bool) -> list[int]:
        store = Store.booleans(4)
        prop = Propagator(store)

        def after_x0(s):  # x0 = 0 with x3 = 1 is a contradiction
            if s.value(0) == 0 and s.value(3) == 1:
                raise Contradiction

        prop.add_rule(rules)
        prop.add_rule(after_x0)
        calls: list[bool] = []
        prop.enable_probing(lambda s: [] if calls and calls[-1] else
                            [v for v in range(4) if s.dom[v] == UNDECIDED])
        assert prop.propagate() and store.dom == [UNDECIDED] * 4
        lookahead = Lookahead(prop, lambda s: [0, 1, 2], near=calls.append if near else None)
        assert lookahead.run() is True
        assert calls == ([True, False] if near else [])
        return store.dom

    assert ended(near=True) == ended(near=False) == [IS_FALSE, UNDECIDED, UNDECIDED, IS_FALSE]
