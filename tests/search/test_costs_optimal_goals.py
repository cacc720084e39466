"""Every goal within a cost bound (`costs.goals_within`), the one stop rule (`Poller`)
and the one successor convention (`StateSpace.moves`), against oracles.

- On random positive-weight digraphs, the optimal paths to one goal are
  exactly networkx's `all_shortest_paths`, whatever admissible heuristic
  prunes them; with several goals, they are the simple paths (ending at
  their first goal) of optimal cost, by brute force.
- On random DAGs with 0-cost moves and bounds above the optimum, and on
  random trees of keep/flip decisions (the mirror's setting), every path
  within the bound, by brute force.
- `stop_at`, the node limit and the deadline stop the walk where they say.
- The poller stops every search at exactly `node_limit` nodes and reads the
  clock at nodes 0, 256, 512, ...; a weighted space is refused by the searches
  that count moves, and a unit space's moves cost 1 in the cost searches.
"""

from __future__ import annotations

import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search.bfs import bfs, bidirectional_bfs
from twinsolve.search.costs import astar, dijkstra, goals_within, zero_one_bfs
from twinsolve.search.layers import count_shortest_paths
from twinsolve.search.statespace import LimitHit, Poller, StateSpace


def random_digraph(rng: random.Random, n: int, p: float, weights: tuple[int, ...]) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u in range(n):
        for v in range(n):
            if u != v and rng.random() < p:
                g.add_edge(u, v, weight=rng.choice(weights))
    return g


def weighted_space(g: nx.DiGraph, start: int, goals: set[int]) -> StateSpace:
    """Moves labelled by their edge, in a fixed order (sorted targets)."""
    def successors(u):
        return [(g[u][v]["weight"], (u, v), v) for v in sorted(g[u])]
    return StateSpace(start, successors, goals.__contains__, weighted=True)


def heuristics(g: nx.DiGraph, goals: set[int], rng: random.Random) -> list:
    """No heuristic, the exact cost to go, half of it, and a random admissible one."""
    exact = nx.multi_source_dijkstra_path_length(g.reverse(copy=True), goals)
    inf = 10**9  # a state that reaches no goal: any bound is admissible there
    fuzzy = {v: rng.randint(0, d) for v, d in exact.items()}
    return [None, lambda v: exact.get(v, inf), lambda v: exact.get(v, inf) // 2,
            lambda v: fuzzy.get(v, inf)]


def path_nodes(found) -> list[tuple[int, ...]]:
    return sorted(states for _moves, states in found.paths)


def path_cost(g: nx.DiGraph, nodes) -> int:
    return sum(g[u][v]["weight"] for u, v in zip(nodes, nodes[1:], strict=False))


@pytest.mark.parametrize("seed", range(40))
def test_optimal_paths_to_one_goal_match_networkx(seed):
    rng = random.Random(seed)
    g = random_digraph(rng, rng.randint(2, 9), rng.uniform(0.2, 0.6), (1, 2, 3))
    start, goal = rng.sample(range(g.number_of_nodes()), 2)
    space = weighted_space(g, start, {goal})
    optimum = dijkstra(space)
    if not nx.has_path(g, start, goal):
        assert not optimum.found and optimum.exhausted
        nothing = goals_within(space, 6)
        assert nothing.count == 0 and nothing.complete
        return
    expected = sorted(tuple(p) for p in nx.all_shortest_paths(g, start, goal, weight="weight"))
    assert optimum.cost == nx.dijkstra_path_length(g, start, goal)
    for h in heuristics(g, {goal}, rng):
        found = goals_within(space, optimum.cost, h, keep_paths=True)
        assert found.complete and found.limit_hit is None
        assert path_nodes(found) == expected
        assert found.count == len(expected)
        for moves, states in found.paths:   # labels and states tell the same path
            assert moves == tuple(zip(states, states[1:], strict=False))
        # counting without keeping walks the same tree
        assert goals_within(space, optimum.cost, h).count == found.count
        assert goals_within(space, optimum.cost, h).nodes == found.nodes
    # one less than the optimum: nothing
    assert goals_within(space, optimum.cost - 1).count == 0


@pytest.mark.parametrize("seed", range(40))
def test_optimal_paths_to_several_goals_match_brute_force(seed):
    rng = random.Random(1000 + seed)
    n = rng.randint(3, 8)
    g = random_digraph(rng, n, rng.uniform(0.2, 0.5), (1, 2, 3))
    start = rng.randrange(n)
    goals = set(rng.sample([v for v in range(n) if v != start], rng.randint(1, min(3, n - 1))))
    space = weighted_space(g, start, goals)
    optimum = dijkstra(space)
    # positive costs: optimal paths are simple; a path ends at its first goal
    brute = sorted(tuple(p) for t in goals for p in nx.all_simple_paths(g, start, t)
                   if not goals & set(p[:-1]))
    if not optimum.found:
        assert brute == []
        return
    best = min(path_cost(g, p) for p in brute)
    assert optimum.cost == best
    expected = [p for p in brute if path_cost(g, p) == best]
    for h in heuristics(g, goals, rng):
        found = goals_within(space, best, h, keep_paths=True)
        assert found.complete and path_nodes(found) == expected


def all_paths_within(successors, is_goal, start, bound: int) -> list[tuple]:
    """Brute force: every path (as its states) from `start` to its first goal, cost <= bound."""
    out = []

    def walk(state, cost, states):
        if is_goal(state):
            out.append(states)
            return
        for c, _move, nxt in successors(state):
            if cost + c <= bound:
                walk(nxt, cost + c, states + (nxt,))

    if bound >= 0:
        walk(start, 0, (start,))
    return sorted(out)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 9), p=st.floats(0.1, 0.7), extra=st.integers(0, 3),
       seed=st.integers(0, 10**6))
def test_bounds_above_the_optimum_and_free_moves_on_dags(n, p, extra, seed):
    """Costs 0 and 1 (or 0, 1 and 2) on a DAG (edges go up in number, so no 0-cost
    cycle): every path of cost <= bound, for the optimum and bounds above it."""
    rng = random.Random(seed)
    weights = rng.choice(((0, 1), (0, 1, 2)))
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                g.add_edge(u, v, weight=rng.choice(weights))
    goals = {v for v in range(1, n) if rng.random() < 0.4} or {n - 1}
    space = weighted_space(g, 0, goals)
    optimum = dijkstra(space)
    bound = (optimum.cost if optimum.found else 0) + extra
    expected = all_paths_within(space.moves(costs=True), space.goal_test(), 0, bound)
    found = goals_within(space, bound, keep_paths=True)
    assert found.complete and path_nodes(found) == expected
    assert found.count == len(expected)
    if optimum.found:
        at_optimum = goals_within(space, optimum.cost)
        assert at_optimum.count == sum(path_cost(g, q) == optimum.cost for q in expected)
        assert at_optimum.count >= 1
        if all(w <= 1 for _u, _v, w in g.edges(data="weight")):   # 0-1 BFS applies
            assert zero_one_bfs(space).cost == optimum.cost


def random_decision_tree(rng: random.Random, depth: int):
    """The mirror's kind of space: a state is the tuple of keep (0) / flip (1) decisions
    so far; some prefixes are dead ends, some complete the goal."""
    dead = {(): False}
    goal = {}

    def successors(state):
        if goal.setdefault(state, len(state) > 0 and rng.random() < 0.15) or len(state) == depth:
            return []
        out = []
        for bit in (0, 1):
            child = state + (bit,)
            if not dead.setdefault(child, rng.random() < 0.2):
                out.append((bit, bit, child))
        return out

    return successors, goal


@pytest.mark.parametrize("seed", range(30))
def test_goal_leaves_of_a_decision_tree(seed):
    rng = random.Random(5000 + seed)
    successors, goal = random_decision_tree(rng, rng.randint(1, 8))
    # Draw the whole tree once, so that the searches below all see the same one.
    stack, leaves = [()], []
    while stack:
        state = stack.pop()
        children = successors(state)
        if goal[state]:
            leaves.append(state)
        stack.extend(child for _c, _m, child in children)
    space = StateSpace((), successors, lambda s: goal[s], weighted=True)
    optimum = astar(space, heuristic=lambda s: 0)
    if not leaves:
        assert not optimum.found
        return
    best = min(sum(leaf) for leaf in leaves)
    assert optimum.cost == best
    found = goals_within(space, best, keep_paths=True)
    assert sorted(states[-1] for _m, states in found.paths) == sorted(
        leaf for leaf in leaves if sum(leaf) == best)
    # the move labels are the decisions
    assert all(moves == states[-1] for moves, states in found.paths)


# -- stopping ---------------------------------------------------------------------------------


class CountingDeadline:
    """A deadline that expires after `calls` questions (and counts them)."""

    def __init__(self, calls: int) -> None:
        self.calls = calls
        self.asked = 0

    def expired(self) -> bool:
        self.asked += 1
        return self.asked > self.calls


def grid_space(size: int, weighted: bool) -> StateSpace:
    """A size x size grid walk from the corner to a goal nowhere: every state is expanded."""
    def moves(state):
        r, c = state
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            if 0 <= r + dr < size and 0 <= c + dc < size:
                yield ((1, (dr, dc), (r + dr, c + dc)) if weighted
                       else ((dr, dc), (r + dr, c + dc)))
    return StateSpace((0, 0), moves, lambda s: False, weighted=weighted)


@pytest.mark.parametrize("stop_at", [1, 2, 3, 5, 100])
def test_stop_at(stop_at):
    succ = lambda x: ((1, "a", x + 1), (1, "b", x + 1)) if x < 4 else ()  # noqa: E731
    space = StateSpace(0, succ, goal_state=4, weighted=True)
    total = goals_within(space, 4)
    assert total.count == 16 and total.complete
    found = goals_within(space, 4, stop_at=stop_at, keep_paths=True)
    if stop_at <= 16:
        assert (found.count, found.complete, len(found.paths)) == (stop_at, False, stop_at)
        assert found.limit_hit is None
    else:
        assert found == goals_within(space, 4, keep_paths=True)
        assert found.complete and found.count == 16
    if stop_at == 2:
        # Depth-first, last move first: the second goal comes after 4 expansions. The
        # order is what a uniqueness check pays (the mirror's node counts depend on it).
        assert [moves for moves, _states in found.paths] == [tuple("bbbb"), tuple("bbba")]
        assert found.nodes == 4


def test_goals_within_limits():
    space = grid_space(30, weighted=True)
    # a bound that keeps thousands of walks alive
    assert goals_within(space, 8).nodes > 2000
    found = goals_within(space, 8, node_limit=700)
    assert (found.nodes, found.complete, found.limit_hit) == (700, False, LimitHit.NODES)
    # the clock is read at nodes 0, 256 and 512: expiring at the third question stops at 512
    found = goals_within(space, 8, deadline=CountingDeadline(calls=2))
    assert (found.nodes, found.complete, found.limit_hit) == (512, False, LimitHit.DEADLINE)
    # a negative bound, or a heuristic above the bound at the start: nothing is walked
    assert goals_within(space, -1) == goals_within(space, 3, lambda s: 4)
    assert goals_within(space, -1).nodes == 0 and goals_within(space, -1).complete
    with pytest.raises(ValueError, match="negative move cost"):
        goals_within(StateSpace(0, lambda x: ((-1, "back", x - 1),), lambda x: False,
                                weighted=True), 3)


def test_poller_schedule():
    poller = Poller(node_limit=None, deadline=None)
    assert poller.at == Poller.NEVER   # never due: an unlimited search pays one comparison a node
    deadline = CountingDeadline(calls=10**9)
    poller = Poller(node_limit=600, deadline=deadline)
    due = []
    for nodes in range(2000):
        if nodes >= poller.at:
            due.append(nodes)
            if poller(nodes) is not None:
                break
    assert due == [0, 256, 512, 600]
    assert deadline.asked == 3   # the node limit reads no clock
    assert Poller(node_limit=0, deadline=None)(0) is LimitHit.NODES


@pytest.mark.parametrize("limit", [0, 1, 255, 256, 257, 700])
def test_every_search_stops_at_the_node_limit_and_the_deadline(limit):
    unit, weighted = grid_space(40, weighted=False), grid_space(40, weighted=True)
    # steps of 2 on the endless grid never reach (1, 1), from either end
    apart = StateSpace((0, 0), lambda s: [((dr, dc), (s[0] + dr, s[1] + dc))
                                          for dr, dc in ((0, 2), (2, 0), (0, -2), (-2, 0))],
                       goal_state=(1, 1))
    searches = [lambda **kw: bfs(unit, **kw),
                lambda **kw: bidirectional_bfs(apart, **kw),
                lambda **kw: count_shortest_paths(unit, **kw),
                lambda **kw: dijkstra(weighted, **kw),
                lambda **kw: astar(weighted, heuristic=lambda s: 0, **kw),
                lambda **kw: zero_one_bfs(weighted, **kw),
                lambda **kw: goals_within(weighted, 80, **kw)]
    for search in searches:
        assert search(node_limit=limit).nodes == limit
        assert search(node_limit=limit).limit_hit is LimitHit.NODES
        stopped = search(deadline=CountingDeadline(calls=limit // 256))
        assert stopped.limit_hit is LimitHit.DEADLINE
        assert stopped.nodes == 256 * (limit // 256)


# -- one successor convention -----------------------------------------------------------------


def test_one_successor_convention():
    unit = grid_space(6, weighted=False)
    weighted = grid_space(6, weighted=True)
    assert [c for c, _m, _s in unit.moves(costs=True)((0, 0))] == [1, 1]
    assert list(weighted.moves(costs=True)((0, 0))) == list(weighted.successors((0, 0)))
    with pytest.raises(ValueError, match="weighted"):
        bfs(weighted)
    with pytest.raises(ValueError, match="weighted"):
        count_shortest_paths(weighted)
    # a unit space in a cost search: its moves cost 1, so Dijkstra's cost is BFS's length
    to_corner = StateSpace((0, 0), unit.successors, goal_state=(5, 5))
    assert dijkstra(to_corner).cost == bfs(to_corner).cost == 10
    assert zero_one_bfs(to_corner).cost == 10
    manhattan = lambda s: 10 - s[0] - s[1]  # noqa: E731
    assert goals_within(to_corner, 10, manhattan).count == 252   # C(10, 5) lattice paths
    # the older calling form still works, and the two forms do not mix
    assert dijkstra((0, 0), weighted.successors, (5, 5).__eq__).cost == 10
    with pytest.raises(TypeError):
        dijkstra(weighted, weighted.successors, (5, 5).__eq__)
    with pytest.raises(TypeError):
        dijkstra((0, 0))
    with pytest.raises(TypeError):
        astar(weighted)
