"""`twinsolve.search.grid.LowLink` against networkx and a brute force.

One traversal gives both forms: the plain articulation points (every cell
marked, `Grid.articulation_points`) are checked against
`nx.articulation_points` and against "remove the vertex, count the
components"; the per-subtree counts (`cut_off`, `sub`, the returned cut
list) against "remove the vertex, count the marked cells no longer
reachable from the root". A removal is searched by hand on the neighbour
table (`reachable`): a networkx graph copied per removed vertex took
twenty-odd times as long. Random grids come from hypothesis, with and
without a virtual border node joined to every edge cell (the table Cave's
no-holes rule uses), and one `LowLink` is reused across runs, as a
propagation rule reuses it.
"""

from __future__ import annotations

import random

import networkx as nx
import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search.grid import Grid, LowLink

BLOCKED, MARKED, PLAIN = 0, 1, 2  # cell states of the random cases


def table_graph(neighbours, state) -> nx.Graph:
    """The networkx graph of the vertices whose state is not BLOCKED."""
    g = nx.Graph()
    g.add_nodes_from(v for v, s in enumerate(state) if s != BLOCKED)
    g.add_edges_from((v, w) for v, nv in enumerate(neighbours) for w in nv
                     if state[v] != BLOCKED and state[w] != BLOCKED)
    return g


def with_border(grid: Grid) -> list[tuple[int, ...]]:
    """The grid's neighbour table plus a vertex `size` joined to every edge cell."""
    n = grid.size
    edge = tuple(i for i in range(n) if len(grid.neighbours[i]) < 4)
    return [nb + (n,) if i in edge else nb for i, nb in enumerate(grid.neighbours)] + [edge]


def reachable(neighbours, state, start: int, removed: int | None = None) -> set[int]:
    """The vertices a plain search reaches from `start` through vertices that are not
    BLOCKED, with `removed` taken out of the graph."""
    seen, todo = {start}, [start]
    while todo:
        for w in neighbours[todo.pop()]:
            if w not in seen and w != removed and state[w] != BLOCKED:
                seen.add(w)
                todo.append(w)
    return seen


def cut_off_brute(neighbours, state, root: int, u: int, before: set[int]) -> int:
    """Marked vertices of `before` (the root's component) that lose every path to `root`
    when `u` is removed."""
    after = reachable(neighbours, state, root, removed=u)
    return sum(1 for v in before - after if v != u and state[v] == MARKED)


def check_run(lowlink: LowLink, neighbours, state, root: int) -> None:
    g = table_graph(neighbours, state)
    cuts = lowlink.run(state, root, BLOCKED, MARKED)
    component = nx.node_connected_component(g, root)
    assert [v for v in range(len(state)) if lowlink.reached(v)] == sorted(component)
    expected = {u: cut_off_brute(neighbours, state, root, u, component)
                for u in component if u != root}
    assert {u: lowlink.cut_off(u) for u in expected} == expected
    assert lowlink.cut_off(root) == 0
    assert all(lowlink.cut_off(v) == 0 for v in range(len(state)) if v not in component)
    # The returned list: each vertex that cuts a marked one off, once.
    assert len(cuts) == len(set(cuts))
    assert set(cuts) == {u for u, k in expected.items() if k > 0}
    # `sub` counts the marked vertices of each DFS subtree (read off the parent links).
    subtree = {v: 0 for v in component}
    for v in component:
        w = v
        while w >= 0:
            subtree[w] += state[v] == MARKED
            w = lowlink.parent[w] if w != root else -1
    assert {v: lowlink.sub[v] for v in component} == subtree
    # The root is a cut vertex iff it has two or more DFS children.
    assert (lowlink.root_children(root) >= 2) == (root in set(nx.articulation_points(g)))


def random_state(rng: random.Random, n: int, blocked: float, marked: float) -> list[int]:
    return [BLOCKED if rng.random() < blocked else MARKED if rng.random() < marked else PLAIN
            for _ in range(n)]


@pytest.mark.parametrize("examples", sampled([40, 120]))  # the second under `slow`
def test_cut_off_counts_match_brute_force(examples):
    @settings(max_examples=examples)
    @given(rows=st.integers(1, 9), cols=st.integers(1, 9), blocked=st.floats(0.0, 0.5),
           marked=st.floats(0.0, 1.0), border=st.booleans(), seed=st.integers(0, 10**6))
    def check(rows, cols, blocked, marked, border, seed):
        rng = random.Random(seed)
        grid = Grid(rows, cols)
        neighbours = with_border(grid) if border else grid.neighbours
        lowlink = LowLink(neighbours)
        for _ in range(3):  # one LowLink, several runs: its scratch is never cleared
            state = random_state(rng, len(neighbours), blocked, marked)
            if border:
                state[-1] = MARKED  # the border node, as Cave roots its no-holes search there
            open_ = [v for v, s in enumerate(state) if s != BLOCKED]
            if open_:
                root = len(state) - 1 if border else rng.choice(open_)
                check_run(lowlink, neighbours, state, root)
    check()


def components_without(neighbours, state, u: int) -> int:
    """The number of components of the vertices that are not BLOCKED, `u` removed."""
    left = {v for v, s in enumerate(state) if s != BLOCKED and v != u}
    count = 0
    while left:
        left -= reachable(neighbours, state, left.pop(), removed=u)
        count += 1
    return count


@settings(max_examples=80)
@given(rows=st.integers(1, 12), cols=st.integers(1, 12), density=st.floats(0.0, 0.5),
       seed=st.integers(0, 10**6))
def test_plain_articulation_points_match_networkx_and_brute_force(rows, cols, density, seed):
    rng = random.Random(seed)
    grid = Grid(rows, cols, [i for i in range(rows * cols) if rng.random() < density])
    g = table_graph(grid.neighbours, grid.open)
    points = grid.articulation_points()
    assert points == sorted(nx.articulation_points(g))
    before = nx.number_connected_components(g)
    assert points == [u for u in sorted(g)
                      if components_without(grid.neighbours, grid.open, u) > before]


def test_every_cell_marked_gives_the_plain_form_from_one_run():
    # A connected grid: the non-root cut list plus the root test is the articulation set.
    grid = Grid.from_strings(["..#..", "..#..", "....."])
    g = table_graph(grid.neighbours, grid.open)
    lowlink = LowLink(grid.neighbours)
    cuts = lowlink.run(grid.open, 0, blocked=0, marked=1)
    plain = set(cuts) | ({0} if lowlink.root_children(0) >= 2 else set())
    assert sorted(plain) == sorted(nx.articulation_points(g)) == grid.articulation_points()
    assert plain == {11, 12, 13}  # the bottom row's middle joins the two halves


def test_deep_corridor_needs_no_recursion():
    # A 60x60 serpentine: the DFS is 1800 cells deep; each corridor cell cuts off the rest.
    lines = ["." * 60 if r % 2 == 0 else ("#" * 59 + "." if r % 4 == 1 else "." + "#" * 59)
             for r in range(60)]
    grid = Grid.from_strings(lines)
    order = nx.dfs_preorder_nodes(table_graph(grid.neighbours, grid.open), 0)
    far_end = list(order)[-1]
    lowlink = LowLink(grid.neighbours)
    cuts = lowlink.run(grid.open, 0, blocked=0, marked=1)
    size = sum(grid.open)
    assert len(cuts) == size - 2  # all but the two ends
    assert max(map(lowlink.cut_off, cuts)) == size - 2 and lowlink.cut_off(far_end) == 0


@settings(max_examples=100)
@given(rows=st.integers(1, 8), cols=st.integers(1, 8), blocked=st.floats(0.0, 0.45),
       seed=st.integers(0, 10_000))
def test_separators_are_the_cells_whose_removal_cuts_target_from_source(rows, cols, blocked,
                                                                         seed):
    rng = random.Random(seed)
    grid = Grid(rows, cols, [i for i in range(rows * cols) if rng.random() < blocked])
    open_cells = grid.open_cells()
    if len(open_cells) < 2:
        return
    source, target = rng.sample(open_cells, 2)
    g = table_graph(grid.neighbours, list(grid.open))
    expected = []
    if nx.has_path(g, source, target):
        for v in sorted(g.nodes):
            if v in (source, target):
                continue
            if target not in reachable(grid.neighbours, grid.open, source, removed=v):
                expected.append(v)
    assert grid.separators(source, target) == expected
