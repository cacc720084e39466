"""The hand-written search engine against oracles: networkx, brute force, published counts.

Grids up to 40x40 (hypothesis and seeded random) are checked against networkx
for distance fields, shortest paths, components and articulation points;
BFS and bidirectional BFS against networkx and each other on random graphs,
permutation puzzles and a symmetric integer walk; Dijkstra, A* and 0-1 BFS
against networkx Dijkstra; the propagation driver against N-queens counts
(OEIS A000170) and brute force, and 4x4 Sudoku (288 grids).
"""

from __future__ import annotations

import doctest
import itertools
import random
import sys

import networkx as nx
import pytest
from conftest import sampled, serpentine_lines
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search import bfs as bfs_module
from twinsolve.search import costs as costs_module
from twinsolve.search import fields as fields_module
from twinsolve.search import grid as grid_module
from twinsolve.search import propagate as propagate_module
from twinsolve.search import statespace as statespace_module
from twinsolve.search.bfs import bfs, bfs_distances, bidirectional_bfs
from twinsolve.search.costs import astar, dijkstra, dijkstra_distances, zero_one_bfs
from twinsolve.search.grid import DELTAS, Direction, Grid
from twinsolve.search.propagate import Contradiction, Propagator, Store, most_constrained, search
from twinsolve.search.statespace import LimitHit, StateSpace


@pytest.mark.parametrize("module", [statespace_module, bfs_module, costs_module, grid_module,
                                    fields_module, propagate_module])
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(module)
    assert attempted > 0 and failed == 0


# -- grid ------------------------------------------------------------------------------------


def random_grid(rng: random.Random, rows: int, cols: int, density: float) -> Grid:
    return Grid(rows, cols, [i for i in range(rows * cols) if rng.random() < density])


def grid_graph(grid: Grid, cells=None) -> nx.Graph:
    """The networkx graph of open cells (within `cells` if given), built from coordinates."""
    allowed = {i for i in range(grid.size) if grid.open[i] and (cells is None or i in cells)}
    g = nx.Graph()
    g.add_nodes_from(allowed)
    for i in allowed:
        r, c = divmod(i, grid.cols)
        if c + 1 < grid.cols and i + 1 in allowed:
            g.add_edge(i, i + 1)
        if r + 1 < grid.rows and i + grid.cols in allowed:
            g.add_edge(i, i + grid.cols)
    return g


def nx_multi_source_distances(g: nx.Graph, sources) -> dict[int, int]:
    """Distances from the nearest source via a super-source (the classic reduction)."""
    h = g.copy()
    h.add_node("super")
    h.add_edges_from(("super", s) for s in sources if s in g)
    return {v: d - 1 for v, d in nx.single_source_shortest_path_length(h, "super").items()
            if v != "super"}


def check_grid_against_networkx(grid: Grid, rng: random.Random, cells=None) -> None:
    g = grid_graph(grid, cells)
    within = None if cells is None else cells
    # distance field from a few sources (some possibly closed: those are ignored)
    sources = rng.sample(range(grid.size), min(grid.size, rng.randint(1, 4)))
    expected = nx_multi_source_distances(g, sources)
    field = grid.distances(sources, within=within)
    assert field == [expected.get(i, -1) for i in range(grid.size)]
    # components, as sets of frozensets
    ours = grid.components(within)
    assert {frozenset(c) for c in ours} == {frozenset(c) for c in nx.connected_components(g)}
    assert all(c == sorted(c) for c in ours) and [c[0] for c in ours] == sorted(c[0] for c in ours)
    labels = grid.component_labels(within)
    assert all(labels[i] == k for k, comp in enumerate(ours) for i in comp)
    # articulation points
    assert grid.articulation_points(within) == sorted(nx.articulation_points(g))
    # shortest paths between random pairs
    for _ in range(5):
        a, b = rng.randrange(grid.size), rng.randrange(grid.size)
        path = grid.shortest_path(a, b, within=within)
        if a in g and b in g and nx.has_path(g, a, b):
            assert path is not None and path[0] == a and path[-1] == b
            assert len(path) - 1 == nx.shortest_path_length(g, a, b)
            assert all(g.has_edge(u, v) for u, v in itertools.pairwise(path))
        else:
            assert path is None


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the second under `slow`
def test_grid_matches_networkx(examples):
    @settings(max_examples=examples)
    @given(rows=st.integers(1, 40), cols=st.integers(1, 40), density=st.floats(0.0, 0.6),
           seed=st.integers(0, 10**6))
    def check(rows, cols, density, seed):
        rng = random.Random(seed)
        check_grid_against_networkx(random_grid(rng, rows, cols, density), rng)
    check()


def test_grid_matches_networkx_seeded_sizes():
    rng = random.Random(2024)
    for rows, cols in [(1, 1), (1, 40), (40, 1), (2, 2), (7, 13), (40, 40), (40, 40), (25, 33)]:
        for density in (0.0, 0.2, 0.35, 0.5):
            check_grid_against_networkx(random_grid(rng, rows, cols, density), rng)


@settings(max_examples=30)
@given(rows=st.integers(1, 30), cols=st.integers(1, 30), seed=st.integers(0, 10**6))
def test_grid_within_subset_matches_networkx(rows, cols, seed):
    rng = random.Random(seed)
    grid = random_grid(rng, rows, cols, 0.2)
    cells = {i for i in range(grid.size) if rng.random() < 0.7}
    check_grid_against_networkx(grid, rng, cells)
    mask = bytes(2 if i in cells else 0 for i in range(grid.size))  # any non-zero byte is "in"
    assert grid.articulation_points(mask) == grid.articulation_points(cells)
    assert grid.components(mask) == grid.components(cells)


def test_grid_open_close_updates():
    rng = random.Random(7)
    grid = random_grid(rng, 30, 30, 0.25)
    for _ in range(40):
        cell = rng.randrange(grid.size)
        if rng.random() < 0.5:
            grid.close_cell(cell)
            assert not grid.is_open(cell)
        else:
            grid.open_cell(cell)
            assert grid.is_open(cell)
        check_grid_against_networkx(grid, rng)
    copy = grid.copy()
    copy.close_cell(next(i for i in range(grid.size) if grid.open[i]))
    assert copy.open != grid.open and copy.neighbours is grid.neighbours


def test_grid_neighbour_order_and_tables():
    grid = Grid(3, 4)
    centre = grid.index(1, 1)
    assert grid.neighbours[centre] == (centre + 1, centre + 4, centre - 1, centre - 4)
    assert grid.neighbours[0] == (1, 4)
    assert grid.neighbours[11] == (10, 7)
    for d in Direction:
        for i in range(grid.size):
            r, c = grid.coords(i)
            rr, cc = r + DELTAS[d][0], c + DELTAS[d][1]
            inside = 0 <= rr < grid.rows and 0 <= cc < grid.cols
            assert grid.steps[d][i] == (grid.index(rr, cc) if inside else -1)
    text = ["..#.", "#...", "...."]
    assert Grid.from_strings(text).to_strings() == text
    with pytest.raises(ValueError):
        Grid.from_strings(["..", "..."])


def test_grid_deep_articulation_no_recursion():
    # A 99x99 serpentine corridor: a DFS 5000 cells deep, every inner corridor cell is a cut.
    rows = 99
    grid = Grid.from_strings(serpentine_lines(rows))
    g = grid_graph(grid)
    assert nx.is_connected(g)
    aps = grid.articulation_points()
    assert aps == sorted(nx.articulation_points(g))
    assert len(aps) == g.number_of_nodes() - 2
    assert Grid(60, 60).articulation_points() == []


def brute_sight(grid, cell, direction, radius, stop, include_blocker):
    r, c = grid.coords(cell)
    dr, dc = DELTAS[direction]
    seen = []
    while True:
        r, c = r + dr, c + dc
        if not (0 <= r < grid.rows and 0 <= c < grid.cols):
            return seen
        if radius is not None and len(seen) == radius:
            return seen
        i = grid.index(r, c)
        if not grid.open[i] or (stop is not None and stop(i)):
            return seen + [i] if include_blocker else seen
        seen.append(i)


def test_line_of_sight_matches_brute_force():
    rng = random.Random(11)
    for _ in range(30):
        grid = random_grid(rng, rng.randint(1, 20), rng.randint(1, 20), 0.25)
        marked = {i for i in range(grid.size) if rng.random() < 0.1}
        for cell in rng.sample(range(grid.size), min(10, grid.size)):
            for radius in (None, 0, 1, 3):
                for stop in (None, marked.__contains__):
                    for blocker in (False, True):
                        lines = grid.sight_lines(cell, radius=radius, stop=stop,
                                                 include_blocker=blocker)
                        assert list(lines) == [brute_sight(grid, cell, d, radius, stop, blocker)
                                               for d in Direction]


def test_distance_field_limits_and_downhill():
    rng = random.Random(5)
    grid = random_grid(rng, 40, 40, 0.3)
    sources = [i for i in range(grid.size) if grid.open[i]][:3]
    full = grid.distances(sources)
    capped = grid.distances(sources, max_dist=7)
    assert capped == [d if d <= 7 else -1 for d in full]
    targets = set(sources)
    for cell in range(grid.size):
        if full[cell] < 0:
            assert grid.path_to_nearest(cell, targets) is None
            continue
        walk = [cell]
        while (nxt := grid.downhill(full, walk[-1])) is not None:
            walk.append(nxt)
        assert walk[-1] in targets and len(walk) - 1 == full[cell]
        assert all(grid.open[i] for i in walk)
        path = grid.path_to_nearest(cell, targets)
        assert path is not None and len(path) - 1 == full[cell] and path[-1] in targets


# -- breadth-first search --------------------------------------------------------------------


def random_digraph(rng: random.Random, n: int, p: float) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from((u, v) for u in range(n) for v in range(n) if u != v and rng.random() < p)
    return g


def graph_space(g: nx.DiGraph, start: int, goal: int) -> StateSpace:
    succ = {u: tuple(((u, v), v) for v in sorted(g.successors(u))) for u in g}
    pred = {v: tuple(((u, v), u) for u in sorted(g.predecessors(v))) for v in g}
    return StateSpace(start, succ.__getitem__, goal_state=goal, predecessors=pred.__getitem__)


def assert_valid_path(space: StateSpace, result) -> None:
    assert result.found
    assert result.states[0] == space.initial and space.goal_test()(result.states[-1])
    assert len(result.states) == len(result.path) + 1 == result.cost + 1
    for move, a, b in zip(result.path, result.states, result.states[1:], strict=False):
        assert (move, b) in list(space.successors(a))


@settings(max_examples=100)
@given(n=st.integers(1, 40), p=st.floats(0.0, 0.2), seed=st.integers(0, 10**6))
def test_bfs_and_bidirectional_shortest_on_random_digraphs(n, p, seed):
    rng = random.Random(seed)
    g = random_digraph(rng, n, p)
    start, goal = rng.randrange(n), rng.randrange(n)
    space = graph_space(g, start, goal)
    one, two = bfs(space), bidirectional_bfs(space)
    if nx.has_path(g, start, goal):
        length = nx.shortest_path_length(g, start, goal)
        for result in (one, two):
            assert_valid_path(space, result)
            assert result.cost == length and result.limit_hit is None
    else:
        assert not one.found and one.exhausted and one.limit_hit is None
        assert not two.found and two.exhausted
        assert one.nodes == len(nx.descendants(g, start)) + 1


def permutation_space(n: int, goal: tuple[int, ...], start: tuple[int, ...]) -> StateSpace:
    """Permutation puzzle: swap the first two, rotate left, reverse the first three."""

    def successors(p):
        return (("swap", (p[1], p[0]) + p[2:]), ("rot", p[1:] + p[:1]),
                ("rev3", p[2::-1] + p[3:]))

    def predecessors(p):  # the inverse moves: swap and rev3 are involutions
        return (("swap", (p[1], p[0]) + p[2:]), ("rot", p[-1:] + p[:-1]),
                ("rev3", p[2::-1] + p[3:]))

    return StateSpace(start, successors, goal_state=goal, predecessors=predecessors)


def test_bidirectional_equals_bfs_on_permutation_puzzles():
    rng = random.Random(3)
    for n in (4, 5, 6, 7):
        goal = tuple(range(n))
        depths = bfs_distances(goal, permutation_space(n, goal, goal).backward())
        for _ in range(12):
            start = tuple(rng.sample(range(n), n))
            space = permutation_space(n, goal, start)
            one, two = bfs(space), bidirectional_bfs(space)
            assert_valid_path(space, one)
            assert_valid_path(space, two)
            assert one.cost == two.cost == depths[start]
            if one.cost > 3:
                assert two.nodes < one.nodes  # the point of searching from both ends


def symmetric_walk(start: int, goal: int, with_key: bool) -> StateSpace:
    """Steps of +-1 and +-3 on [-30, 30]; symmetric under negation, so key=abs is exact."""

    def successors(x):
        return tuple((f"{d:+d}", x + d) for d in (1, 3, -1, -3) if -30 <= x + d <= 30)

    return StateSpace(start, successors, goal_state=goal, key=abs if with_key else None)


@pytest.mark.parametrize("start,goal", [(0, 17), (5, -17), (-29, 28), (4, 4), (2, -2), (30, 1)])
def test_symmetry_key_keeps_shortest_paths(start, goal):
    plain = bfs(symmetric_walk(start, goal, False))
    keyed_space = symmetric_walk(start, goal, True)
    keyed, keyed_two = bfs(keyed_space), bidirectional_bfs(keyed_space)
    # with key=abs, reaching -goal counts as reaching the goal
    mirror = bfs(symmetric_walk(start, -goal, False))
    best = min(plain.cost, mirror.cost)
    for result in (keyed, keyed_two):
        assert_valid_path(keyed_space, result)
        assert result.cost == best and abs(result.states[-1]) == abs(goal)
    assert keyed.nodes <= plain.nodes


def infinite_walk() -> StateSpace:
    return StateSpace(0, lambda x: (("+1", x + 1), ("-1", x - 1), ("*2", 2 * x)),
                      is_goal=lambda x: False)


def test_bfs_node_limit_and_deadline():
    result = bfs(infinite_walk(), node_limit=500)
    assert not result.found and result.nodes == 500 and result.limit_hit == LimitHit.NODES
    assert not result.exhausted
    space = StateSpace(0, infinite_walk().successors, goal_state=10**9)
    two = bidirectional_bfs(space, node_limit=300)
    assert not two.found and two.nodes == 300 and two.limit_hit is LimitHit.NODES
    zero = bfs(infinite_walk(), node_limit=0)
    assert zero.nodes == 0 and zero.limit_hit is LimitHit.NODES

    class AfterCalls:
        def __init__(self, calls):
            self.calls = calls

        def expired(self):
            self.calls -= 1
            return self.calls < 0

    timed = bfs(infinite_walk(), deadline=AfterCalls(3))
    assert timed.limit_hit is LimitHit.DEADLINE and timed.limit_hit == "deadline"
    assert 256 * 3 <= timed.nodes <= 256 * 4


def test_bfs_is_deterministic_and_trivial_cases():
    rng = random.Random(9)
    for _ in range(20):
        n = 7
        start = tuple(rng.sample(range(n), n))
        runs = [(bfs(s).path, bidirectional_bfs(s).path)
                for s in (permutation_space(n, tuple(range(n)), start) for _ in range(2))]
        assert runs[0] == runs[1]
    here = bfs(StateSpace(3, lambda x: (), goal_state=3))
    assert here.found and here.path == () and here.states == (3,) and here.cost == 0
    assert bidirectional_bfs(StateSpace(3, lambda x: (), goal_state=3)).states == (3,)
    with pytest.raises(ValueError):
        StateSpace(0, lambda x: ())
    with pytest.raises(ValueError):
        bidirectional_bfs(StateSpace(0, lambda x: (), is_goal=lambda x: True))
    # predecessors that lie (not reversible) are caught instead of returning a bogus path
    walk = StateSpace(0, lambda x: (("+2", x + 2), ("-1", x - 1)), goal_state=5)
    with pytest.raises(ValueError, match="inconsistent"):
        bidirectional_bfs(walk)


# -- costs -----------------------------------------------------------------------------------


def random_weighted(rng: random.Random, n: int, p: float, max_w: int) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u in range(n):
        for v in range(n):
            if u != v and rng.random() < p:
                g.add_edge(u, v, weight=rng.randint(0, max_w))
    return g


def weighted_successors(g: nx.DiGraph):
    table = {u: tuple((g[u][v]["weight"], (u, v), v) for v in sorted(g.successors(u))) for u in g}
    return table.__getitem__


def path_cost(g: nx.DiGraph, result) -> int:
    assert len(result.path) == len(result.states) - 1
    total = 0
    for (u, v), a, b in zip(result.path, result.states, result.states[1:], strict=False):
        assert (u, v) == (a, b)
        total += g[u][v]["weight"]
    return total


@settings(max_examples=80)
@given(n=st.integers(1, 40), p=st.floats(0.02, 0.25), max_w=st.sampled_from([1, 5]),
       seed=st.integers(0, 10**6))
def test_cost_searches_match_networkx_dijkstra(n, p, max_w, seed):
    rng = random.Random(seed)
    g = random_weighted(rng, n, p, max_w)
    succ = weighted_successors(g)
    start, goal = rng.randrange(n), rng.randrange(n)
    is_goal = goal.__eq__
    exact = nx.single_source_dijkstra_path_length(g.reverse(copy=False), goal)
    half = lambda x: exact.get(x, 0) // 2  # consistent  # noqa: E731
    hrng = random.Random(seed + 1)
    fuzzy = {v: hrng.randint(0, d) for v, d in exact.items()}  # admissible, inconsistent
    results = [dijkstra(start, succ, is_goal), astar(start, succ, is_goal, half),
               astar(start, succ, is_goal, lambda x: fuzzy.get(x, 0)),
               astar(start, succ, is_goal, lambda x: exact.get(x, 0))]
    if max_w == 1:
        results.append(zero_one_bfs(start, succ, is_goal))
    if start in exact:
        cost = nx.dijkstra_path_length(g, start, goal)
        for result in results:
            assert result.found and result.cost == cost == path_cost(g, result)
            assert result.states[0] == start and result.states[-1] == goal
        for result in results[:2] + results[4:]:  # consistent: each state expanded at most once
            assert result.nodes <= n
    else:
        for result in results:
            assert not result.found and result.exhausted and result.cost is None
    sources = rng.sample(range(n), min(n, 3))
    assert dijkstra_distances(sources, succ) == nx.multi_source_dijkstra_path_length(g, sources)
    capped = dijkstra_distances(sources, succ, max_cost=4)
    assert capped == {v: d for v, d in nx.multi_source_dijkstra_path_length(g, sources).items()
                      if d <= 4}


def grid_weighted(rows: int, cols: int, seed: int):
    """A grid whose moves cost the weight (0 or 1) of the entered cell."""
    rng = random.Random(seed)
    weight = [rng.randint(0, 1) for _ in range(rows * cols)]
    grid = Grid(rows, cols)

    def succ(i):
        return tuple((weight[j], j, j) for j in grid.neighbours[i])

    g = nx.DiGraph()
    for i in range(grid.size):
        for j in grid.neighbours[i]:
            g.add_edge(i, j, weight=weight[j])
    return succ, g


def test_costs_deterministic_and_agree_on_grids():
    succ, g = grid_weighted(30, 30, 4)
    goal = 30 * 30 - 1
    first = [dijkstra(0, succ, goal.__eq__), zero_one_bfs(0, succ, goal.__eq__)]
    again = [dijkstra(0, succ, goal.__eq__), zero_one_bfs(0, succ, goal.__eq__)]
    cost = nx.dijkstra_path_length(g, 0, goal)
    for a, b in zip(first, again, strict=True):
        assert a == b and a.cost == cost


def test_costs_limits_and_bad_costs():
    def succ(x):
        return ((1, "+1", x + 1), (1, "-1", x - 1))

    never = lambda x: False  # noqa: E731
    for search_fn in (dijkstra, zero_one_bfs):
        result = search_fn(0, succ, never, node_limit=100)
        assert not result.found and result.nodes == 100 and result.limit_hit is LimitHit.NODES
    result = astar(0, succ, never, lambda x: 0, node_limit=50)
    assert result.nodes == 50 and not result.exhausted
    with pytest.raises(ValueError):
        dijkstra(0, lambda x: ((-1, "back", x - 1),), never)
    with pytest.raises(ValueError):
        zero_one_bfs(0, lambda x: ((2, "jump", x + 2),), never)


# -- propagation driver ----------------------------------------------------------------------


def queens(n: int) -> Propagator:
    """Row r holds a queen in column x[r]; a fixed queen removes what it attacks in other rows."""
    prop = Propagator(Store.uniform(n, range(n)))

    def attacks(r):
        def rule(s):
            c = s.value(r)
            if c is None:
                return
            for other in range(n):
                if other != r:
                    gap = abs(other - r)
                    attacked = 1 << c | 1 << c + gap  # bits past n are harmless
                    if c >= gap:
                        attacked |= 1 << c - gap
                    s.restrict(other, ~attacked)
        return rule

    for r in range(n):
        prop.add_rule(attacks(r), watches=(r,))
    return prop


def brute_queens(n: int) -> list[tuple[int, ...]]:
    return [p for p in itertools.permutations(range(n))
            if all(abs(p[i] - p[j]) != j - i for i in range(n) for j in range(i + 1, n))]


def test_queens_counts_match_table_and_brute_force():
    published = [1, 0, 0, 2, 10, 4, 40, 92]  # OEIS A000170, n = 1..8
    for n, expected in enumerate(published, start=1):
        result = search(queens(n), max_solutions=None)
        assert result.count == expected and result.exhausted and result.limit_hit is None
        if n <= 7:
            assert sorted(result.solutions) == brute_queens(n)


def test_search_stops_at_limits_and_counts_without_keeping():
    prop = queens(8)
    first = search(prop)
    assert first.count == 1 and len(first.solutions) == 1 and first.unique is None
    assert first.solutions[0] in set(brute_queens(8))
    two = search(prop, max_solutions=2)
    assert two.count == 2 and two.unique is False and not two.exhausted
    counted = search(prop, max_solutions=None, keep=0)
    assert counted.count == 92 and counted.solutions == ()
    limited = search(prop, max_solutions=None, node_limit=10)
    assert limited.nodes == 10 and limited.limit_hit is LimitHit.NODES and not limited.exhausted
    assert store_is_pristine(prop.store, 8)
    assert search(queens(3)).unique is False and search(queens(3)).exhausted
    with pytest.raises(ValueError):
        search(prop, max_solutions=0)


def store_is_pristine(store: Store, n: int) -> bool:
    return store.dom == [(1 << n) - 1] * n and store.trail == []


SUDOKU_UNITS = (
    [[r * 4 + c for c in range(4)] for r in range(4)]
    + [[r * 4 + c for r in range(4)] for c in range(4)]
    + [[(br + r) * 4 + bc + c for r in range(2) for c in range(2)]
       for br in (0, 2) for bc in (0, 2)])


def sudoku4(clues: dict[int, int]) -> Propagator:
    store = Store([(clues[i],) if i in clues else range(1, 5) for i in range(16)])
    prop = Propagator(store)

    def all_different(unit):
        def rule(s):
            for v in unit:
                x = s.value(v)
                if x is not None:
                    for w in unit:
                        if w != v:
                            s.remove(w, x)
            union = 0
            for v in unit:
                union |= s.dom[v]
            if union.bit_count() < len(unit):
                raise Contradiction  # pigeonhole
        return rule

    for unit in SUDOKU_UNITS:
        prop.add_rule(all_different(unit), watches=unit)
    return prop


def all_sudoku4() -> list[tuple[int, ...]]:
    """Every 4x4 Sudoku, in order: rows of distinct digits put one under the other, a
    partial grid kept while no unit repeats a digit among the rows it has (a brute force
    that prunes as it goes, not the 331776 stackings of four rows checked whole)."""
    rows = list(itertools.permutations(range(1, 5)))
    grids: list[tuple[int, ...]] = [()]
    for _ in range(4):
        grids = [cells for grid in grids for row in rows
                 if repeats_nothing(cells := grid + row)]
    return grids


def repeats_nothing(cells: tuple[int, ...]) -> bool:
    """No unit holds a digit twice among the first len(cells) cells."""
    for unit in SUDOKU_UNITS:
        digits = [cells[i] for i in unit if i < len(cells)]
        if len(set(digits)) < len(digits):
            return False
    return True


def test_sudoku4_counts_match_brute_force():
    every = all_sudoku4()
    assert len(every) == 288
    assert search(sudoku4({}), max_solutions=None).count == 288
    rng = random.Random(1)
    for _ in range(40):
        solution = rng.choice(every)
        clues = {i: solution[i] for i in rng.sample(range(16), rng.randint(0, 7))}
        if rng.random() < 0.2:  # sometimes an inconsistent clue
            clues[rng.randrange(16)] = rng.randint(1, 4)
        expected = [g for g in every if all(g[i] == x for i, x in clues.items())]
        result = search(sudoku4(clues), max_solutions=None)
        assert sorted(result.solutions) == expected and result.count == len(expected)
        assert search(sudoku4(clues), max_solutions=2).unique is (len(expected) == 1)


def test_last_conflict_keeps_every_solution_and_ends_thrashing():
    # Completeness: the same solutions as the plain search, with a choice that would
    # wander (the highest index first), on queens and on 4x4 Sudokus.
    def highest(store):
        return next((v for v in reversed(range(len(store.dom))) if not store.is_fixed(v)),
                    None)

    for n in range(4, 8):
        plain = search(queens(n), choose=highest, max_solutions=None)
        conflict = search(queens(n), choose=highest, max_solutions=None, last_conflict=True)
        assert sorted(conflict.solutions) == sorted(plain.solutions) == brute_queens(n)
        assert conflict.exhausted
    rng = random.Random(3)
    for _ in range(20):
        clues = {i: rng.randint(1, 4) for i in rng.sample(range(16), rng.randint(0, 5))}
        expected = search(sudoku4(clues), max_solutions=None).solutions
        assert sorted(search(sudoku4(clues), choose=highest, max_solutions=None,
                             last_conflict=True).solutions) == sorted(expected)
    # Thrashing: k free Booleans branched on first, then y and z, which no values
    # satisfy (y = z and y != z). The plain search meets the failure under each of the
    # 2^k assignments of the free ones; with last_conflict the culprit is tried again
    # at once after each backtrack, so the nodes grow with k, not 2^k.
    k = 10

    def thrash(last_conflict):
        prop = Propagator(Store.uniform(k + 2, range(2)))
        y, z = k, k + 1

        def clash(s):
            if s.is_fixed(y) and s.is_fixed(z):
                raise Contradiction

        prop.add_rule(clash, watches=(y, z))
        return search(prop, choose=lambda s: next(
            (v for v in range(k + 2) if not s.is_fixed(v)), None),
            max_solutions=None, last_conflict=last_conflict)

    plain, conflict = thrash(False), thrash(True)
    assert plain.count == conflict.count == 0 and plain.exhausted and conflict.exhausted
    assert plain.nodes > 2 ** k and conflict.nodes < 40 * k


def test_search_is_iterative_and_global_rules_run():
    # 1500 booleans chained equal: 2 solutions. The rule narrows one link a run, so the
    # fixpoint is n runs deep: a recursive search would overflow the stack. (The rule's scan
    # makes the test quadratic in n: 3000 took seconds.)
    n = 1500
    assert n > sys.getrecursionlimit()
    prop = Propagator(Store.booleans(n))

    def chain(s):
        for v in range(n - 1):
            if s.dom[v] != s.dom[v + 1]:
                both = s.dom[v] & s.dom[v + 1]
                s.restrict(v, both)
                s.restrict(v + 1, both)

    prop.add_rule(chain)  # watches everything
    # a branching order that goes deep first: the last variable, then the rest
    result = search(prop, max_solutions=None,
                    choose=lambda s: next((v for v in range(n - 1, -1, -1)
                                           if not s.is_fixed(v)), None))
    assert result.count == 2 and result.solutions == ((0,) * n, (1,) * n)
    # a rule watching only a variable that never changes still runs at the root
    prop = Propagator(Store([(1,), (0, 1)]))
    prop.add_rule(lambda s: s.assign(1, s.value(0)), watches=(0,))
    assert search(prop, max_solutions=None).solutions == ((1, 1),)
    assert search(prop, max_solutions=None).solutions == ((1, 1),)  # and again on a reused store


@settings(max_examples=50)
@given(ops=st.lists(st.tuples(st.sampled_from(["assign", "remove", "restrict", "mark", "undo"]),
                              st.integers(0, 5), st.integers(0, 63)), max_size=40))
def test_store_trail_restores_exactly(ops):
    store = Store.uniform(6, range(6))
    snapshots = []
    for op, v, x in ops:
        try:
            if op == "assign":
                store.assign(v, x % 6)
            elif op == "remove":
                store.remove(v, x % 6)
            elif op == "restrict":
                store.restrict(v, x)
            elif op == "mark":
                snapshots.append((store.mark(), list(store.dom)))
            elif snapshots:
                mark, dom = snapshots.pop()
                store.undo(mark)
                assert store.dom == dom
        except Contradiction:
            pass  # a failed narrowing changes nothing
        assert all(store.dom)
        for w in range(6):
            assert store.values(w) == [i for i in range(6) if store.contains(w, i)]
            assert store.size(w) == len(store.values(w))
            assert store.is_fixed(w) == (store.size(w) == 1)
    store.undo(0)
    assert store.dom == [63] * 6


def test_most_constrained_picks_smallest_domain_lowest_index():
    store = Store([range(5), (1, 2, 3), (4,), (0, 1, 2), range(2)])
    assert most_constrained(store) == 4
    store.assign(4, 1)
    assert most_constrained(store) == 1
    for v in range(4):
        store.assign(v, store.min_value(v))
    assert most_constrained(store) is None


def test_search_deadline():
    class Expired:
        def expired(self):
            return True

    result = search(queens(8), max_solutions=None, deadline=Expired())
    assert result.limit_hit is LimitHit.DEADLINE and result.nodes == 0 and not result.exhausted
