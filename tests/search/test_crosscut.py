"""The cross-cut rule (`twinsolve.search.crosscut`): an island's land may not cut an
open region across with known sea on both sides.

- On random 4x4 and 4x5 grids (and their transposes) whose clues are read off a
  random connected sea, with some of its cells known: the bounds and the rule
  alone find exactly brute force's solutions, and the rule acts, both by
  narrowing labels and, through them, by contradictions.
- By hand: a small copy of 683_14x24's corner (a sea walled in on the left, an
  island's land at the corner between it and the sea below) is settled by
  propagation with the rule and not without it; the doctest's 3x3; land the island
  may own, not yet joined to its clue, is part of the region, so a stronger state
  keeps the cut a weaker one found.
- `Propagator.add_rule(trials=False)`: such a rule sits out probing's trials and
  runs at the fixpoints probing starts from; while the passes go on to a fixpoint
  it waits for the end of a pass instead of running after each removal.
"""

from __future__ import annotations

import random

import pytest
from conftest import clues_off, grown_sea
from test_islands import alone_with, settled

from twinsolve.search.crosscut import CrossCut
from twinsolve.search.grid import Grid
from twinsolve.search.islands import TECHNIQUES
from twinsolve.search.propagate import (
    IS_FALSE,
    IS_TRUE,
    UNDECIDED,
    Contradiction,
    Propagator,
    Store,
)

LAND, SEA = IS_FALSE, IS_TRUE


def sea_case(rng):
    """A 4x4 or 4x5 grid (or its transpose) whose clues are read off a random connected
    sea of 6 to 10 cells (one clue in eight off by one), and some of its cells known
    (what makes the rule act before the search has decided much)."""
    rows, cols = 4, rng.choice((4, 5))
    grid = Grid(rows, cols)
    sea = grown_sea(rng, grid, 6, 10)
    if rng.random() < 0.5:
        grid = Grid(cols, rows)
        sea = {(v % cols) * rows + v // cols for v in sea}
    known = rng.sample(sorted(sea), rng.randint(2, 4))
    return grid, clues_off(rng, grid, sea), known


def with_known_sea(rule, known):
    """`rule`, run once the cells `known` are sea (a wrapper for `alone_with`): the
    cases start from a state where the sea has parts."""
    def run(store):
        for v in known:
            store.restrict(v, SEA)
        rule(store)
    return run


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@pytest.mark.parametrize("part", (2, 0, 1))
def test_the_rule_alone_keeps_exactly_the_solutions_brute_force_finds(part):
    rng = random.Random(f"crosscut {part}")
    acted = 0
    for _ in range(20):
        grid, clues, known = sea_case(rng)
        rule = CrossCut(grid, LAND, [cell for cell, _ in clues])
        got, expected, did = alone_with(grid, clues, with_known_sea(rule, known))
        # The known cells are part of the case: brute force's solutions with them sea.
        expected = {sea for sea in expected if set(known) <= sea}
        assert got == expected, (grid.rows, grid.cols, clues, known)
        acted += bool(did)
    assert acted >= 5


# A 4x7 copy of 683_14x24's top right: the sea at (0,0) and (1,0) walled in by the 11's
# land at (2,0), the sea below in row 3.
CORNER = dict(rows=4, cols=7, clues=[(14, 11)], techniques=TECHNIQUES,
              fixed=[(v, SEA) for v in (0, 7, 21, 22, 23, 24, 25, 26, 27)])


def test_a_small_copy_of_683s_corner_is_settled_with_the_rule_only(monkeypatch):
    # The 11 needs 10 cells of the 3x6 region; a cell of its top row or right column
    # would wall the sea at the left in, so the sea goes round and the 11 fills the rest.
    assert settled(**CORNER) == ["#######", "#.....#", "......#", "#######"]
    monkeypatch.setattr(CrossCut, "__call__", lambda self, store: None)
    assert "?" in "".join(settled(**CORNER))


def labels_after(grid, clues, cells, labels):
    """The labels the rule alone leaves, from `cells` and `labels` (lists per cell)."""
    store = Store(())
    store.dom = list(cells) + list(labels)
    CrossCut(grid, LAND, [cell for cell, _ in clues])(store)
    return store.dom[grid.size:]


def test_the_island_of_the_doctest_keeps_off_the_cells_that_would_cut():
    # 3x3, the island of cell 3: land at 5 cuts the sea at 2 from the sea at 8.
    grid = Grid(3, 3)
    cells = [UNDECIDED] * 9
    cells[3], cells[2], cells[8] = LAND, SEA, SEA
    labels = [1 | 2] * 9
    labels[3], labels[2], labels[8] = 2, 1, 1
    after = labels_after(grid, [(3, None)], cells, labels)
    assert [i for i in range(9) if after[i] == 1] == [2, 5, 8]
    assert all(after[i] == 3 for i in (0, 1, 4, 6, 7))


def test_land_the_island_may_own_beside_the_region_counts_as_part_of_it():
    # The same 3x3, with land at 1 that only the island may own, not yet joined to its
    # clue: the join from 3 may pass through it, so it is part of the region, and land
    # at 5 still cuts the sea at 2 from the sea at 8. The rule finds that in this state
    # as in the weaker one where 1 is undecided: a stronger state keeps what it found
    # (were the region undecided cells only, 1 would be a way out and 5 kept its label).
    grid = Grid(3, 3)
    cells = [UNDECIDED] * 9
    cells[3], cells[2], cells[8] = LAND, SEA, SEA
    labels = [1 | 2] * 9
    labels[3], labels[2], labels[8] = 2, 1, 1
    weaker = labels_after(grid, [(3, None)], cells, labels)
    cells[1], labels[1] = LAND, 2
    after = labels_after(grid, [(3, None)], cells, labels)
    assert weaker[5] == after[5] == 1
    assert after[1] == 2 and all(after[i] == 3 for i in (0, 4, 6, 7))


@pytest.mark.parametrize("trials", (True, False))
def test_a_rule_kept_out_of_the_trials_runs_at_the_fixpoints_probing_starts_from(trials):
    store = Store.uniform(2, range(2))
    prop = Propagator(store)
    runs = []

    def dear(s):  # x0 = 1 is a contradiction
        runs.append(s.values(0))
        if s.value(0) == 1:
            s.restrict(1, 0)

    prop.add_rule(dear, trials=trials)
    prop.enable_probing()
    assert prop.propagate()
    if trials:  # probing's trial of x0 = 1 fails
        assert store.values(0) == [0]
    else:  # the trial does without the rule; it ran at the start, before probing
        assert store.values(0) == [0, 1] and runs == [[0, 1]]
        store.assign(0, 1)
        assert not prop.propagate() and runs[-1] == [1]


@pytest.mark.parametrize("passes", (None, 1))
def test_a_rule_kept_out_of_the_trials_waits_for_the_end_of_the_pass(passes):
    """Three values fail their trials in one pass: while the passes go on to a fixpoint,
    the rule kept out of the trials runs after the passes found nothing more (once, not
    after each removal), and the passes go on from what it narrows, to a fixpoint of
    every rule; with one pass (a search's node), it runs after each removal."""
    store = Store.uniform(4, range(2))
    prop = Propagator(store)
    runs = []

    def cheap(s):  # x0 = 1, x1 = 1 and x2 = 1 are each a contradiction
        if any(s.value(v) == 1 for v in range(3)):
            raise Contradiction

    def dear(s):  # the first three all 0: x3 is 0
        runs.append(list(s.dom))
        if all(s.value(v) == 0 for v in range(3)):
            s.restrict(3, 1)

    prop.add_rule(cheap)
    prop.add_rule(dear, trials=False)
    prop.enable_probing()
    prop.probe_passes = passes
    assert prop.propagate()
    assert [store.value(v) for v in range(3)] == [0, 0, 0]
    assert store.value(3) == 0
    # What the rule saw at each run (1: the value 0 only, 3: both): at the start, then
    # (a) after the passes, or (b) after each removal; last, woken by its own narrowing.
    if passes is None:
        assert runs == [[3, 3, 3, 3], [1, 1, 1, 3], [1, 1, 1, 1]]
        mark = store.mark()
        prop.schedule_all()
        assert prop.propagate() and store.mark() == mark  # a fixpoint of every rule
    else:
        assert runs == [[3, 3, 3, 3], [1, 3, 3, 3], [1, 1, 3, 3], [1, 1, 1, 3], [1, 1, 1, 1]]


def test_a_waiting_rule_runs_before_the_closing_pass_over_every_candidate():
    """With `candidates_near`: a pass removes x0 = 1, the near pass after it finds
    nothing; the rule kept out of the trials runs then, before the pass over every
    candidate that closes the probing (what it narrows would make that pass's trials
    stale); a near pass from what it narrowed, then that closing pass, end it."""
    store = Store.uniform(4, range(2))
    prop = Propagator(store)
    events = []

    def cheap(s):  # x0 = 1 is a contradiction
        if s.value(0) == 1:
            raise Contradiction

    def dear(s):  # x0 = 0: x3 is 0
        events.append("dear")
        if s.value(0) == 0:
            s.restrict(3, 1)

    def every(s):
        events.append("every")
        return range(4)

    def near(s, origin):
        events.append("near")
        return sorted({v for v, _ in s.trail[origin:]})

    prop.add_rule(cheap)
    prop.add_rule(dear, trials=False)
    prop.enable_probing(every, candidates_near=near)
    assert prop.propagate()
    assert store.values(0) == [0] and store.values(3) == [0]
    # (the rule runs twice in a row: its own narrowing of x3 wakes it)
    assert events == ["dear", "every", "near", "dear", "dear", "near", "every"]
