"""The engine's region rules (`twinsolve.search.regions`) against brute force and by hand.

- `hole_free_region` on every small grid up to 3x4: the search over the rules
  finds exactly the colourings a plain oracle accepts (one connected inside,
  every outside cell joined to the border, no checkerboard block), so the
  rules are sound and complete once every cell is decided; with extra
  variables after the cells in the store too.
- Each rule forces what it should on its own: walled-off cells, cut
  vertices, holes, the diagonal pairs, the 2x2 pool; the `member` and
  `nonempty` variants (a region of unshaded cells, an empty region).
"""

from __future__ import annotations

import itertools

import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search.grid import Grid, LowLink
from twinsolve.search.propagate import (
    FALSE,
    IS_FALSE,
    IS_TRUE,
    TRUE,
    UNDECIDED,
    Contradiction,
    Propagator,
    Store,
    search,
)
from twinsolve.search.regions import (
    NoCheckerboard,
    NoUniformBlock,
    ReachesBorder,
    RegionConnected,
    blocks,
    hole_free_region,
)


def components(grid, cells):
    """Connected components of `cells` (a set), by plain flood fill."""
    left, out = set(cells), []
    while left:
        todo, part = [left.pop()], set()
        while todo:
            v = todo.pop()
            part.add(v)
            for w in grid.neighbours[v]:
                if w in left:
                    left.discard(w)
                    todo.append(w)
        out.append(part)
    return out


def is_hole_free_region(grid, values):
    """The oracle: inside nonempty and connected, outside parts touch the edge, no
    checkerboard block."""
    inside = {i for i, v in enumerate(values) if v == TRUE}
    outside = set(range(grid.size)) - inside
    if len(components(grid, inside)) != 1:
        return False
    edge = {i for i in range(grid.size) if len(grid.neighbours[i]) < 4}
    if any(not part & edge for part in components(grid, outside)):
        return False
    return all(not (values[a] == values[d] != values[b] == values[c])
               for a, b, c, d in blocks(grid))


def solve_all(grid, extra=0):
    store = Store.booleans(grid.size + extra)
    prop = Propagator(store)
    for rule, watches, priority in hole_free_region(grid):
        prop.add_rule(rule, watches, priority=priority)
    for v in range(grid.size, grid.size + extra):  # a puzzle's own variables, fixed here
        store.restrict(v, IS_TRUE if v % 2 else IS_FALSE)
    found = search(prop, max_solutions=None)
    return {values[:grid.size] for values in found.solutions}, found


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 4), (2, 2), (2, 3), (3, 3), (3, 4)])
def test_hole_free_region_finds_exactly_the_oracles_colourings(rows, cols):
    grid = Grid(rows, cols)
    expected = {values for values in itertools.product((FALSE, TRUE), repeat=grid.size)
                if is_hole_free_region(grid, values)}
    found, result = solve_all(grid)
    assert result.exhausted and found == expected
    assert len(expected) > (1 if grid.size > 1 else 0)


def test_extra_variables_after_the_cells_are_never_read():
    grid = Grid(2, 3)
    assert solve_all(grid, extra=5)[0] == solve_all(grid)[0]


def fixpoint(grid, rules, fixed):
    """The domains after propagating `rules` from cells fixed by `fixed` ({cell: mask})."""
    store = Store.booleans(grid.size)
    prop = Propagator(store)
    for rule in rules:
        prop.add_rule(rule)
    for cell, mask in fixed.items():
        store.restrict(cell, mask)
    return store.dom if prop.propagate() else None


def test_region_connected_walls_off_and_forces_cut_vertices():
    grid = Grid(3, 3)  # 0 1 2 / 3 4 5 / 6 7 8: the inside at 0 and 8; 1, 4, 5 outside
    fixed = {0: IS_TRUE, 8: IS_TRUE, 1: IS_FALSE, 4: IS_FALSE, 5: IS_FALSE}
    dom = fixpoint(grid, [RegionConnected(grid)], fixed)
    assert [dom[i] for i in (3, 6, 7)] == [IS_TRUE] * 3  # the one path left: cut vertices
    assert dom[2] == IS_FALSE  # reaches no inside cell
    reach_only = fixpoint(grid, [RegionConnected(grid, cuts=False)], fixed)
    assert reach_only[2] == IS_FALSE and reach_only[3] == UNDECIDED
    open_grid = fixpoint(Grid(2, 3), [RegionConnected(Grid(2, 3))], {0: IS_TRUE, 5: IS_TRUE})
    assert open_grid == [IS_TRUE, UNDECIDED, UNDECIDED, UNDECIDED, UNDECIDED, IS_TRUE]
    assert fixpoint(grid, [RegionConnected(grid)],
                    {0: IS_TRUE, 8: IS_TRUE, 5: IS_FALSE, 7: IS_FALSE}) is None


def test_region_connected_of_unshaded_cells_and_the_empty_region():
    grid = Grid(1, 3)
    dom = fixpoint(grid, [RegionConnected(grid, IS_FALSE)], {0: IS_FALSE, 2: IS_FALSE})
    assert dom[1] == IS_FALSE
    every_blocked = {i: IS_TRUE for i in range(3)}
    assert fixpoint(grid, [RegionConnected(grid, IS_FALSE)], every_blocked) is None
    assert fixpoint(grid, [RegionConnected(grid, IS_FALSE, nonempty=False)],
                    every_blocked) is not None


def test_reaches_border_fills_holes_and_forces_the_way_out():
    grid = Grid(3, 3)
    ring = {i: IS_TRUE for i in (1, 3, 5, 7)}
    assert fixpoint(grid, [ReachesBorder(grid)], ring)[4] == IS_TRUE  # a hole: inside
    assert fixpoint(grid, [ReachesBorder(grid)], {**ring, 4: IS_FALSE}) is None
    dom = fixpoint(grid, [ReachesBorder(grid)], {4: IS_FALSE, 3: IS_TRUE, 5: IS_TRUE,
                                                 7: IS_TRUE})
    assert dom[1] == IS_FALSE  # the centre's only way to the edge
    dom = fixpoint(grid, [ReachesBorder(grid, IS_TRUE)], {4: IS_TRUE, 1: IS_FALSE,
                                                         3: IS_FALSE, 5: IS_FALSE})
    assert dom[7] == IS_TRUE  # the member value is a parameter


def test_block_rules_force_the_last_cell():
    grid = Grid(2, 2)
    dom = fixpoint(grid, [NoCheckerboard(0, 1, 2, 3)], {0: IS_TRUE, 3: IS_TRUE, 1: IS_FALSE})
    assert dom[2] == IS_TRUE
    dom = fixpoint(grid, [NoCheckerboard(0, 1, 2, 3)], {1: IS_FALSE, 2: IS_FALSE, 0: IS_TRUE})
    assert dom[3] == IS_FALSE
    pool = NoUniformBlock(0, 1, 2, 3, IS_TRUE)
    assert fixpoint(grid, [pool], {0: IS_TRUE, 1: IS_TRUE, 2: IS_TRUE})[3] == IS_FALSE
    assert fixpoint(grid, [pool], {0: IS_TRUE, 1: IS_TRUE}) == [IS_TRUE, IS_TRUE,
                                                                UNDECIDED, UNDECIDED]
    assert fixpoint(grid, [pool], dict.fromkeys(range(4), IS_TRUE)) is None


def test_blocks_and_bad_members():
    assert blocks(Grid(2, 3)) == [(0, 1, 3, 4), (1, 2, 4, 5)]
    assert blocks(Grid(1, 5)) == []
    with pytest.raises(ValueError):
        RegionConnected(Grid(2, 2), UNDECIDED)


def _outcome(rule, store):
    """The cells after one run of `rule` on `store`, or None on a contradiction."""
    try:
        rule(store)
    except Contradiction:
        return None
    return list(store.dom)


@pytest.mark.parametrize("examples", sampled([50, 150]))  # the second under `slow`
def test_region_connected_run_after_run_finds_what_a_fresh_one_finds(examples):
    """`RegionConnected` remembers the cells after its last run and skips a run that
    could find nothing; along random assignments (a few cells at once, as a trial's
    propagation makes them) and undos on one store, with articulation forcing or not
    and an empty region allowed or not, it must find what a fresh rule finds on the
    same cells."""
    assignment = st.tuples(st.integers(0, 19), st.sampled_from([IS_TRUE, IS_FALSE]))

    @settings(max_examples=examples, deadline=None)
    @given(st.lists(st.tuples(st.lists(assignment, min_size=1, max_size=4,
                                       unique_by=lambda pair: pair[0]), st.booleans()),
                    max_size=25), st.booleans(), st.booleans())
    def check(steps, cuts, nonempty):
        grid = Grid(4, 5)
        options = {"cuts": cuts, "nonempty": nonempty}
        kept = RegionConnected(grid, IS_TRUE, **options)
        store = Store.booleans(grid.size)
        marks = []
        for assignments, back in steps:
            if back and marks:
                store.undo(marks.pop())
            assignments = [(cell, value) for cell, value in assignments
                           if store.dom[cell] == UNDECIDED]
            if not assignments:
                continue
            marks.append(store.mark())
            for cell, value in assignments:
                store.restrict(cell, value)
            fresh = Store.booleans(grid.size)
            fresh.dom[:] = store.dom
            expected = _outcome(RegionConnected(grid, IS_TRUE, **options), fresh)
            got = _outcome(kept, store)
            assert got == expected
            if got is None:
                store.undo(marks.pop())
    check()


def test_region_connected_counts_a_trials_news_from_the_fixpoint_it_started_from():
    """Two probing-like trials from one fixpoint: the first shades the far end of a
    corridor (a search: a member joined to none of the fixpoint's, which the cell
    between cuts off), and once it is undone, the second's only news is a member beside
    a member of the fixpoint, so it skips the search, though its cells differ from the
    first trial's (`propagate.Since`: the last run in the current line, not the last
    run)."""
    rule, store, counted = _settled_from_cell_0(Grid(1, 3))
    assert counted.searches == 1  # the fixpoint's run
    mark = store.mark()
    store.restrict(2, IS_TRUE)  # a trial shades the far end
    rule(store)
    assert counted.searches == 2 and store.dom[1] == IS_TRUE  # the cut between, forced
    store.undo(mark)
    store.restrict(1, IS_TRUE)  # another trial: a member beside cell 0
    rule(store)
    assert counted.searches == 2, "no search: its news is a member beside a member"


def test_region_connected_walks_round_a_blocked_cell_but_not_a_blocked_corridor():
    """Trials that block a corner cell, or the centre, the open cells round each joined
    without it, or that shade two cells joined to the region through each other, or
    the far corner, which no cell cuts off from the region, cost no search
    (`RegionConnected._same`: nothing can be cut off, no new cut vertex); two
    cells of a corridor blocked at once, each with one open side left, do: the cell past
    them is cut off from the region, and the run blocks it."""
    rule, store, counted = _settled_from_cell_0(Grid(3, 3))
    mark = store.mark()
    for trial in ({8: IS_FALSE}, {4: IS_FALSE}, {1: IS_TRUE, 2: IS_TRUE}, {8: IS_TRUE}):
        for cell, value in trial.items():
            store.restrict(cell, value)
        rule(store)
        assert counted.searches == 1 and store.mark() == mark + len(trial), trial
        store.undo(mark)

    corridor = Grid(1, 4)
    rule = RegionConnected(corridor, IS_TRUE)
    store = Store.booleans(corridor.size)
    store.restrict(0, IS_TRUE)
    rule(store)
    store.restrict(1, IS_FALSE)
    store.restrict(2, IS_FALSE)
    rule(store)
    assert store.dom[3] == IS_FALSE, "the cell past the corridor is cut off"


@pytest.mark.parametrize("cuts", (True, False))
def test_region_connected_searches_for_the_first_member_whatever_came_before(cuts):
    """A run with no member yet searches nothing, so nothing says what a first member
    reaches: the run after it searches, and blocks what the new member cannot reach
    (here, past a blocked cell of a corridor), with articulation forcing or not."""
    corridor = Grid(1, 3)
    rule = RegionConnected(corridor, IS_TRUE, cuts=cuts, nonempty=False)
    store = Store.booleans(corridor.size)
    store.restrict(1, IS_FALSE)
    rule(store)
    assert store.dom == [UNDECIDED, IS_FALSE, UNDECIDED]
    store.restrict(2, IS_TRUE)
    rule(store)
    assert store.dom[0] == IS_FALSE


def _settled_from_cell_0(grid: Grid) -> tuple[RegionConnected, Store, _Counted]:
    """A `RegionConnected` of shaded cells run once on `grid` with cell 0 shaded, its
    searches counted: (the rule, the store, the counting `LowLink`)."""
    rule = RegionConnected(grid, IS_TRUE)
    store = Store.booleans(grid.size)
    store.restrict(0, IS_TRUE)
    rule.lowlink = counted = _Counted(grid.neighbours)
    rule(store)
    return rule, store, counted


class _Counted(LowLink):
    """A `LowLink` counting its searches."""

    __slots__ = ("searches",)

    def __init__(self, neighbours) -> None:
        super().__init__(neighbours)
        self.searches = 0

    def run(self, *args):
        self.searches += 1
        return super().run(*args)
