"""The engine's neighbour-list BFS and components (`search.graph`) against networkx,
and against the grid engine (`search.grid.Grid`), which runs the same loops on a grid."""

from __future__ import annotations

import networkx as nx
import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search import graph
from twinsolve.search.grid import Grid


@st.composite
def graphs(draw) -> tuple[list[list[int]], list[bool]]:
    """A random symmetric graph on up to 12 vertices and a random allowed mask."""
    n = draw(st.integers(1, 12))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        neighbours[u].append(v)
        neighbours[v].append(u)
    allowed = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    return neighbours, allowed


def _nx(neighbours: list[list[int]], allowed: list[bool]) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(v for v in range(len(neighbours)) if allowed[v])
    g.add_edges_from((u, v) for u in g for v in neighbours[u] if allowed[v])
    return g


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the second under `slow`
def test_distances_match_networkx(examples):
    @settings(max_examples=examples)
    @given(graphs(), st.data())
    def check(case, data):
        neighbours, allowed = case
        n = len(neighbours)
        sources = data.draw(st.lists(st.integers(0, n - 1), max_size=3))
        max_dist = data.draw(st.none() | st.integers(0, 4))
        g = _nx(neighbours, allowed)
        live = [s for s in sources if allowed[s]]
        want = nx.multi_source_dijkstra_path_length(g, live, cutoff=max_dist) if live else {}
        expected = [want.get(v, -1) for v in range(n)]
        assert graph.distances(neighbours, sources, allowed, max_dist) == expected
        if all(allowed):
            assert graph.distances(neighbours, sources, max_dist=max_dist) == expected
    check()


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the second under `slow`
def test_components_match_networkx(examples):
    @settings(max_examples=examples)
    @given(graphs())
    def check(case):
        neighbours, allowed = case
        found = graph.components(neighbours, allowed)
        parts = nx.connected_components(_nx(neighbours, allowed))
        expected = sorted(sorted(part) for part in parts)
        assert found == expected  # ordered by first vertex, each sorted
        labels = graph.component_labels(neighbours, allowed)
        for label, part in enumerate(found):
            assert all(labels[v] == label for v in part)
        assert all(labels[v] == -1 for v in range(len(neighbours)) if not allowed[v])
    check()


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the second under `slow`
def test_same_answers_as_the_grid_engine(examples):
    @settings(max_examples=examples)
    @given(st.integers(1, 5), st.integers(1, 5), st.data())
    def check(rows, cols, data):
        cells = rows * cols
        closed = data.draw(st.lists(st.integers(0, cells - 1), unique=True))
        grid = Grid(rows, cols, closed)
        sources = data.draw(st.lists(st.integers(0, cells - 1), max_size=3))
        assert graph.distances(grid.neighbours, sources, grid.open) == grid.distances(sources)
        assert graph.components(grid.neighbours, grid.open) == grid.components()
    check()
