"""`twinsolve.search.fields` against networkx, hand-made cases and its own contracts.

The oracle graph is built from coordinates, not from the grid's neighbour
tables: a networkx DiGraph on the usable cells whose edge u -> v weighs
`cost[v]` (entering v costs cost[v]), its edges added per cell in the order
right, down, left, up, so that `dfs_preorder_nodes` walks them in the engine's
order. Random grids come from hypothesis (walls at random, costs from
{10, 17, 30}, `within` absent, a set, or a mask); hand-made grids pin the
exact path the neighbour order and the insertion-order ties pick.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from itertools import pairwise

import networkx as nx
import pytest
from conftest import sampled, serpentine_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search import fields as fields_module
from twinsolve.search.fields import (
    FieldCache,
    GridPath,
    astar_path,
    cost_field,
    cost_field_search,
    dfs_order,
    downhill,
)
from twinsolve.search.grid import Grid

ORDER = ((0, 1), (1, 0), (0, -1), (-1, 0))  # right, down, left, up, as (dr, dc)
COSTS = (10, 17, 30)  # floor, cover, alarm, in tenths


@dataclass(frozen=True)
class Case:
    grid: Grid
    cost: list[int]
    within: frozenset[int] | None

    def usable(self, i: int) -> bool:
        return bool(self.grid.open[i]) and (self.within is None or i in self.within)

    def mask(self) -> bytes | None:
        """`within` as a bytes mask, the other form the engine accepts."""
        if self.within is None:
            return None
        return bytes(1 if i in self.within else 0 for i in range(self.grid.size))


@st.composite
def cases(draw, max_side: int = 8, restricted: bool = True) -> Case:
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    n = rows * cols

    def per_cell() -> bytes:
        """One byte a cell, drawn at once: lists drawn cell by cell took most of the time of
        the tests that use these cases."""
        return draw(st.binary(min_size=n, max_size=n))

    walls = [i for i, byte in enumerate(per_cell()) if byte >= 192]  # one cell in four
    cost = [COSTS[byte % 3] for byte in per_cell()]
    within = None
    if restricted and draw(st.booleans()):
        within = frozenset(i for i, byte in enumerate(per_cell()) if byte < 192)
    return Case(Grid(rows, cols, walls), cost, within)


def oracle(case: Case) -> nx.DiGraph:
    """The networkx graph of the usable cells, edge u -> v weighing cost[v]."""
    grid = case.grid
    g = nx.DiGraph()
    g.add_nodes_from(i for i in range(grid.size) if case.usable(i))
    for u in list(g.nodes):
        r, c = divmod(u, grid.cols)
        for dr, dc in ORDER:
            rr, cc = r + dr, c + dc
            if 0 <= rr < grid.rows and 0 <= cc < grid.cols:
                v = rr * grid.cols + cc
                if case.usable(v):
                    g.add_edge(u, v, weight=case.cost[v])
    return g


def as_field(size: int, lengths: dict) -> list[int]:
    return [lengths.get(i, -1) for i in range(size)]


def walk_cost(cells, cost) -> int:
    return sum(cost[v] for v in cells[1:])


def assert_walk(case: Case, cells) -> None:
    """`cells` is a walk of side-adjacent usable cells."""
    cols = case.grid.cols
    assert all(case.usable(v) for v in cells)
    for u, v in pairwise(cells):
        (r, c), (rr, cc) = divmod(u, cols), divmod(v, cols)
        assert abs(r - rr) + abs(c - cc) == 1


# -- cost fields -----------------------------------------------------------------------------


@pytest.mark.parametrize("examples", sampled([25, 80]))  # the second under `slow`
def test_cost_field_equals_networkx_multi_source_dijkstra(examples):
    @settings(max_examples=examples)
    @given(cases(), st.data())
    def check(case, data):
        n = case.grid.size
        sources = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4))
        g = oracle(case)
        usable_sources = {s for s in sources if s in g}
        expected = (as_field(n, nx.multi_source_dijkstra_path_length(g, usable_sources))
                    if usable_sources else [-1] * n)
        assert cost_field(case.grid, sources, case.cost, within=case.within) == expected
        assert cost_field(case.grid, sources, case.cost, within=case.mask()) == expected
    check()


@settings(max_examples=60)
@given(cases(), st.data())
def test_cost_field_start_costs_equal_networkx_with_a_super_source(case, data):
    n = case.grid.size
    starts = data.draw(st.dictionaries(st.integers(0, n - 1), st.integers(0, 60), max_size=4))
    g = oracle(case)
    g.add_node("super")
    g.add_weighted_edges_from(("super", s, start) for s, start in starts.items() if s in g)
    lengths = nx.single_source_dijkstra_path_length(g, "super")
    assert cost_field(case.grid, starts, case.cost, within=case.within) == as_field(n, lengths)


@settings(max_examples=60)
@given(cases(), st.data())
def test_cost_field_max_cost_keeps_exactly_the_cells_within_the_bound(case, data):
    n = case.grid.size
    source = data.draw(st.integers(0, n - 1))
    max_cost = data.draw(st.integers(0, 150))
    g = oracle(case)
    lengths = (nx.single_source_dijkstra_path_length(g, source, cutoff=max_cost)
               if source in g else {})
    found = cost_field_search(case.grid, [source], case.cost, within=case.within,
                              max_cost=max_cost)
    assert found.costs == as_field(n, lengths)
    assert found.nodes == len(lengths)  # every cell within the bound settled once, no other


@settings(max_examples=60)
@given(cases())
def test_cost_field_search_settles_each_reachable_cell_exactly_once(case):
    field = cost_field_search(case.grid, [0], case.cost, within=case.within)
    reachable = nx.descendants(oracle(case), 0) | {0} if case.usable(0) else set()
    assert field.nodes == len(reachable)
    assert {i for i, d in enumerate(field.costs) if d >= 0} == reachable


def test_cost_field_is_minus_one_beyond_a_wall_and_from_closed_sources():
    grid = Grid.from_strings(["..#..", "..#.."])
    cost = [10] * grid.size
    field = cost_field(grid, [0], cost)
    assert field == [0, 10, -1, -1, -1, 10, 20, -1, -1, -1]
    assert cost_field(grid, [2, 7], cost) == [-1] * grid.size  # walls as sources: ignored
    assert cost_field(grid, [], cost) == [-1] * grid.size


def test_cost_field_within_keeps_the_search_inside_the_given_cells():
    grid = Grid(3, 3)
    cost = [10] * 9
    # Inside {0, 1, 2, 5, 8} the only way to 8 is round the top-right corner.
    assert cost_field(grid, [0], cost, within={0, 1, 2, 5, 8}) == [
        0, 10, 20, -1, -1, 30, -1, -1, 40]
    assert cost_field(grid, [0], cost) == [0, 10, 20, 10, 20, 30, 20, 30, 40]


def test_cost_field_refuses_bad_costs_and_start_costs():
    grid = Grid(2, 2)
    with pytest.raises(ValueError, match="entries"):
        cost_field(grid, [0], [10, 10, 10])
    with pytest.raises(ValueError, match=">= 0"):
        cost_field(grid, [0], [10, -1, 10, 10])
    with pytest.raises(ValueError, match="negative"):
        cost_field(grid, {0: -5}, [10] * 4)
    grid.close_cell(1)
    assert cost_field(grid, [0], [10, -1, 10, 10]) == [0, -1, 10, 20]  # walls' costs unread


@settings(max_examples=60)
@given(cases(), st.data())
def test_downhill_walks_a_cheapest_path_to_a_source(case, data):
    n = case.grid.size
    sources = data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3))
    field = cost_field(case.grid, sources, case.cost, within=case.within)
    for cell in range(n):
        if field[cell] < 0:
            assert downhill(case.grid, field, case.cost, cell) is None
            continue
        walk = [cell]
        while (nxt := downhill(case.grid, field, case.cost, walk[-1])) is not None:
            walk.append(nxt)
        assert walk[-1] in sources and field[walk[-1]] == 0
        assert_walk(case, walk)
        assert walk_cost(walk[::-1], case.cost) == field[cell]


# -- A* --------------------------------------------------------------------------------------


@pytest.mark.parametrize("examples", sampled([25, 80]))  # the second under `slow`
def test_astar_path_cost_equals_networkx_and_the_path_is_a_walk_of_that_cost(examples):
    @settings(max_examples=examples)
    @given(cases(), st.data())
    def check(case, data):
        n = case.grid.size
        start, goal = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
        g = oracle(case)
        found = astar_path(case.grid, start, goal, case.cost, within=case.within)
        if start not in g or goal not in g or not nx.has_path(g, start, goal):
            assert found is None
            return
        assert found is not None
        assert found.cost == nx.astar_path_length(g, start, goal, weight="weight")
        assert found.cells[0] == start and found.cells[-1] == goal
        assert_walk(case, found.cells)
        assert walk_cost(found.cells, case.cost) == found.cost
        assert astar_path(case.grid, start, goal, case.cost, within=case.mask()) == found
    check()


@settings(max_examples=60)
@given(cases(), st.data())
def test_astar_expands_each_cell_at_most_once_and_only_cells_under_the_optimum(case, data):
    n = case.grid.size
    start, goal = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    found = astar_path(case.grid, start, goal, case.cost, within=case.within)
    if found is None:
        return
    assert len(set(found.expanded)) == found.nodes == len(found.expanded)
    assert goal not in found.expanded
    # A consistent heuristic: an expanded cell's cost from the start plus its heuristic
    # never exceeds the optimum.
    from_start = cost_field(case.grid, [start], case.cost, within=case.within)
    step = min(case.cost[i] for i in range(n) if case.usable(i))
    gr, gc = divmod(goal, case.grid.cols)
    for v in found.expanded:
        r, c = divmod(v, case.grid.cols)
        assert from_start[v] + (abs(r - gr) + abs(c - gc)) * step <= found.cost


@settings(max_examples=60)
@given(cases(restricted=False), st.data())
def test_astar_gives_the_identical_result_on_repeat_and_on_a_copied_grid(case, data):
    n = case.grid.size
    start, goal = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    first = astar_path(case.grid, start, goal, case.cost)
    assert astar_path(case.grid, start, goal, case.cost) == first
    assert astar_path(case.grid.copy(), start, goal, list(case.cost)) == first


def test_astar_picks_the_route_the_neighbour_order_and_fifo_ties_pick():
    # Six cheapest routes from corner to corner of an even 3x3 field, all cost 40 with
    # f = 40 everywhere on them. Right is tried before down and equal f pops first in,
    # first out, so 5 (queued from 2) is expanded before 7 (queued from 4) and becomes
    # the parent of 8: along the top, then down the right side.
    grid = Grid(3, 3)
    cost = [10] * 9
    found = astar_path(grid, 0, 8, cost)
    assert found == GridPath(cells=(0, 1, 2, 5, 8), cost=40,
                             expanded=(0, 1, 3, 2, 4, 6, 5, 7))
    # Backwards, left comes before up: along the bottom, then up the left side.
    assert astar_path(grid, 8, 0, cost).cells == (8, 7, 6, 3, 0)
    # Two equal routes round a wall from the left side to the right: down is tried
    # before up, so the route under the wall is found first.
    ring = Grid.from_strings(["...", ".#.", "..."])
    assert astar_path(ring, 3, 5, [10] * 9).cells == (3, 6, 7, 8, 5)


def test_astar_prefers_the_cheaper_longer_route_over_the_dear_short_one():
    grid = Grid.from_strings(["...", "...", "..."])
    cost = [10, 10, 10, 10, 50, 10, 10, 10, 10]  # the centre costs more than going round
    found = astar_path(grid, 3, 5, cost)
    assert found.cost == 40 and 4 not in found.cells


def test_astar_returns_none_when_the_goal_is_walled_off_or_unusable():
    grid = Grid.from_strings([".#.", ".#.", ".#."])
    cost = [10] * 9
    assert astar_path(grid, 0, 2, cost) is None
    assert astar_path(grid, 0, 1, cost) is None  # a closed goal
    assert astar_path(grid, 1, 0, cost) is None  # a closed start
    assert astar_path(Grid(1, 3), 0, 2, [10] * 3, within={0, 2}) is None


def test_astar_from_a_cell_to_itself_is_the_one_cell_path_at_cost_zero():
    assert astar_path(Grid(2, 2), 3, 3, [10] * 4) == GridPath(cells=(3,), cost=0, expanded=())


def test_astar_within_keeps_the_path_inside_the_given_cells():
    grid = Grid(3, 3)
    found = astar_path(grid, 0, 8, [10] * 9, within={0, 3, 6, 7, 8})
    assert found.cells == (0, 3, 6, 7, 8) and set(found.expanded) <= {0, 3, 6, 7}


@settings(max_examples=60)
@given(cases(), st.data())
def test_astar_with_a_caller_lower_bound_of_zero_finds_the_same_cost(case, data):
    n = case.grid.size
    start, goal = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    guided = astar_path(case.grid, start, goal, case.cost, within=case.within)
    blind = astar_path(case.grid, start, goal, case.cost, within=case.within, min_step=0)
    assert (guided is None) == (blind is None)
    if guided is not None:
        assert guided.cost == blind.cost
        # With no guidance A* is Dijkstra: every cell cheaper than the goal is expanded.
        from_start = cost_field(case.grid, [start], case.cost, within=case.within)
        cheaper = {v for v in range(n) if 0 <= from_start[v] < blind.cost}
        assert cheaper <= set(blind.expanded)


# -- depth-first order -----------------------------------------------------------------------


@pytest.mark.parametrize("examples", sampled([25, 80]))  # the second under `slow`
def test_dfs_order_equals_networkx_dfs_preorder_in_neighbour_order(examples):
    @settings(max_examples=examples)
    @given(cases(), st.data())
    def check(case, data):
        start = data.draw(st.integers(0, case.grid.size - 1))
        g = oracle(case)
        expected = list(nx.dfs_preorder_nodes(g, start)) if start in g else []
        assert dfs_order(case.grid, start, within=case.within) == expected
        assert dfs_order(case.grid, start, within=case.mask()) == expected
    check()


def serpentine(side: int) -> tuple[Grid, list[int]]:
    """A side x side grid whose open cells form one snake, and the snake from cell 0."""
    grid = Grid.from_strings(serpentine_lines(side))
    snake = []
    for r in range(0, side, 2):
        cells = [r * side + c for c in range(side)]
        snake.extend(cells if r % 4 == 0 else cells[::-1])
        if r + 1 < side:
            snake.append((r + 1) * side + (side - 1 if r % 4 == 0 else 0))
    return grid, snake


def test_dfs_order_follows_a_64x64_serpentine_without_recursion_error():
    grid, snake = serpentine(64)
    assert len(snake) > sys.getrecursionlimit()  # a recursive DFS would fail here
    assert dfs_order(grid, 0) == snake
    assert dfs_order(grid, snake[-1]) == snake[::-1]
    found = astar_path(grid, 0, snake[-1], [10] * grid.size)
    assert found.cells == tuple(snake) and found.cost == 10 * (len(snake) - 1)


def test_dfs_order_is_empty_from_an_unusable_cell():
    grid = Grid.from_strings([".#."])
    assert dfs_order(grid, 1) == []
    assert dfs_order(grid, 0, within={2}) == []
    assert dfs_order(grid, 0) == [0]


# -- the cache -------------------------------------------------------------------------------


def test_field_cache_computes_each_field_once_and_matches_direct_calls(monkeypatch):
    grid = Grid.from_strings(["....#", ".##..", "....."])
    cost = [(10, 17, 30)[i % 3] for i in range(grid.size)]
    calls = []
    real = fields_module.cost_field_search

    def counting(*args, **kwargs):
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(fields_module, "cost_field_search", counting)
    cache = FieldCache(grid, cost)
    origins = [0, 3, 0, 14, 3, 0]
    for origin in origins:
        assert list(cache.field(origin)) == real(grid, [origin], cost).costs
    assert calls == [[0], [3], [14]]
    assert (cache.misses, cache.hits) == (3, 3)
    assert cache.field(0) is cache.field(0)  # shared, not recomputed
    for origin in (0, 9, 0):
        assert list(cache.bfs(origin)) == grid.distances([origin])
    assert list(cache.articulation_points()) == grid.articulation_points()
    assert cache.articulation_points() == cache.articulation_points()
    assert (cache.misses, cache.hits) == (6, 8)


def test_field_cache_counts_the_search_nodes_of_its_misses_only():
    grid = Grid.from_strings(["..#", "..#", "###"])  # four usable cells
    cost = [10] * grid.size
    cache = FieldCache(grid, cost)
    cache.field(0)
    cache.field(0)
    cache.bfs(4)
    cache.articulation_points()
    assert cache.nodes == cost_field_search(grid, [0], cost).nodes + 4 + 4 == 12


def test_field_cache_drops_its_fields_when_the_open_mask_changes():
    grid = Grid(3, 3)
    cost = [10] * 9
    cache = FieldCache(grid, cost)
    before = cache.field(0)
    assert cache.articulation_points() == ()
    grid.close_cell(1)
    assert list(cache.field(0)) == cost_field(grid, [0], cost) != list(before)
    assert list(cache.articulation_points()) == grid.articulation_points() == [3, 5]
    assert cache.drops == 1 and cache.misses == 4
    cache.clear()
    cache.field(0)
    assert cache.misses == 5


def test_field_cache_keeps_the_costs_and_within_it_was_given():
    grid = Grid(2, 3)
    cost = [10] * 6
    within = {0, 1, 2, 5}
    cache = FieldCache(grid, cost, within=within)
    cost[1] = 30  # the caller's later edits do not leak into the cache
    within.add(3)
    assert list(cache.field(0)) == cost_field(grid, [0], [10] * 6, within={0, 1, 2, 5})
    assert list(cache.bfs(5)) == grid.distances([5], within={0, 1, 2, 5})
    assert cache.field(0)[3] == -1
