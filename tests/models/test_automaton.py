"""`twinsolve.models.automaton`: listed states, the automaton plan, the growing walk.

- `explore` lists what the engine's BFS reaches, layer by layer: depths,
  the moves out of every listed state (no-ops dropped), the prefix of the
  table a horizon needs, and where a cap or the doubling rule stops it.
- On random labelled digraphs (hypothesis) the automaton's fewest moves,
  `unique` and `count` equal the layer-counting BFS of `search.layers`, and
  the plan it returns is a walk from the start to a goal.
- `WalkBuilder` hands horizons past its cap to the fallback and says so;
  an expired deadline stops exploring, and the run is a timeout.
"""

from __future__ import annotations

import random

import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.core.limits import Deadline, LimitReached, Limits
from twinsolve.core.result import Status
from twinsolve.models.automaton import WalkBuilder, build_walk_cpsat, explore, solve_walk_cpsat
from twinsolve.models.planning_steps import PlanTimer
from twinsolve.search.bfs import bfs_distances
from twinsolve.search.layers import count_shortest_paths
from twinsolve.search.statespace import StateSpace


def _doubler(limit: int):
    """States 0..limit; move 0 adds one, move 1 doubles, move 2 stays put (a no-op)."""
    def successors(x: int):
        out = [(2, x)]
        if x + 1 <= limit:
            out.append((0, x + 1))
        if 0 < 2 * x <= limit:
            out.append((1, 2 * x))
        return out
    return successors


def test_explore_lists_what_the_bfs_reaches_and_drops_no_ops():
    step = _doubler(40)
    graph = explore(1, step, lambda x: x == 37, 3, Deadline(None))
    depth = bfs_distances(1, step)
    assert graph.complete and set(graph.states) == set(depth) and graph.states[0] == 1
    assert graph.depth == max(depth.values())
    assert [depth[s] for s in graph.states] == sorted(depth[s] for s in graph.states)
    assert graph.goals == (graph.states.index(37),)
    listed = {(graph.states[t], m, graph.states[h]) for t, m, h in graph.transitions}
    expected = {(x, m, y) for x in depth for m, y in step(x) if y != x}
    assert listed == expected and len(graph.transitions) == len(expected)
    # The table a horizon needs: the moves out of states less than that deep.
    for horizon in range(graph.depth + 2):
        assert all(depth[graph.states[t]] < horizon for t, _, _ in graph.table(horizon))
        assert len(graph.table(horizon)) == sum(
            1 for x, _, _ in expected if depth[x] < horizon)


def test_explore_stops_at_a_depth_at_the_cap_and_by_the_doubling_rule():
    step = _doubler(10_000)
    near = explore(1, step, lambda x: False, 3, Deadline(None), max_depth=5)
    assert not near.complete and near.depth == 5 and not near.capped
    assert set(near.states) == {x for x, d in bfs_distances(1, step).items() if d <= 5}
    assert near.covers(5) and not near.covers(6)
    capped = explore(1, step, lambda x: False, 3, Deadline(None), max_transitions=100)
    assert capped.capped and not capped.covers(capped.depth + 1)
    assert len(capped.transitions) <= 100
    assert len(explore(1, step, lambda x: False, 3, Deadline(None),
                       max_depth=capped.depth + 1).transitions) > 100
    # Past depth 12 the listing goes on only while the table at most doubles.
    grown = explore(1, step, lambda x: False, 3, Deadline(None), past=12)
    within = len(grown.table(12))
    assert grown.covers(12) and grown.depth > 12
    assert len(grown.transitions) <= 2 * within
    deeper = explore(1, step, lambda x: False, 3, Deadline(None), max_depth=grown.depth + 1)
    assert len(deeper.transitions) > 2 * within


def test_explore_polls_the_deadline_and_checks_labels():
    with pytest.raises(LimitReached):
        explore(1, _doubler(10), lambda x: False, 3, Deadline(0))
    with pytest.raises(ValueError, match="move label"):
        explore(1, _doubler(10), lambda x: False, 1, Deadline(None))  # label 1 of 1


@st.composite
def digraphs(draw):
    """A random digraph on 3..14 nodes with labelled arcs (a function of node and label),
    sparse enough for long plans; the goals are not the start but for one draw in ten."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    nodes, labels = rng.randint(3, 14), rng.randint(2, 3)
    arcs = {(v, m): rng.randrange(nodes) for v in range(nodes) for m in range(labels)
            if rng.random() < 0.55}
    first = 0 if rng.random() < 0.1 else 1
    goals = set(rng.sample(range(first, nodes), rng.randint(1, 2)))
    return nodes, labels, arcs, goals


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the second under `slow`
def test_fewest_moves_and_counts_match_the_layer_count(examples):
    @settings(max_examples=examples)
    @given(digraphs())
    def check(graph_data):
        nodes, labels, arcs, goals = graph_data

        def step(v):
            return [(m, arcs[v, m]) for m in range(labels) if (v, m) in arcs]

        def fallback(horizon):
            raise AssertionError("no fallback without a cap")

        asked = Limits(unique=True, count=True, timeout=60)
        builder = WalkBuilder(0, step, goals.__contains__, labels, Deadline(None), None, fallback)
        outcome = solve_walk_cpsat(builder, 0, nodes, asked, PlanTimer())
        # The oracle: distinct labels are distinct moves, no-ops never on a shortest plan.
        space = StateSpace(0, lambda v: [(m, w) for m, w in step(v) if w != v],
                           is_goal=goals.__contains__)
        oracle = count_shortest_paths(space)
        if not oracle.found:
            assert outcome.status is Status.UNSAT
            return
        assert outcome.status is Status.OPTIMAL
        assert len(outcome.moves) == oracle.cost
        assert (outcome.unique, outcome.count) == (oracle.count == 1, oracle.count)
        at = 0
        for move in outcome.moves:  # the plan is a walk from the start to a goal
            at = arcs[at, move]
        assert at in goals
    check()


def test_the_builder_falls_back_past_its_cap_and_says_so():
    step = _doubler(10_000)
    built = []

    def fallback(horizon):
        built.append(horizon)
        return build_walk_cpsat(explore(1, step, lambda x: x == 300, 3, Deadline(None),
                                        max_depth=horizon), horizon)

    builder = WalkBuilder(1, step, lambda x: x == 300, 3, Deadline(None), 200, fallback,
                          "steps")
    outcome = solve_walk_cpsat(builder, 0, 10_000, Limits(timeout=60), PlanTimer())
    oracle = bfs_distances(1, step)[300]
    assert outcome.status is Status.OPTIMAL and len(outcome.moves) == oracle
    assert built and built[0] > builder.graph.depth
    assert outcome.stats.counters["encoding"] == "automaton+steps"
    assert outcome.stats.counters["transitions"] <= 200


def test_a_complete_listing_bounds_the_horizon_and_proves_no_plan():
    step = _doubler(20)
    builder = WalkBuilder(1, step, lambda x: x == 99, 3, Deadline(None), None, None)
    outcome = solve_walk_cpsat(builder, 0, 10**6, Limits(timeout=60), PlanTimer())
    assert outcome.status is Status.UNSAT
    assert builder.longest == 19  # 20 states: no shortest plan is longer than 19 moves
    assert outcome.stats.counters["horizons"] <= 20


def test_an_expired_deadline_while_exploring_is_a_timeout():
    builder = WalkBuilder(1, _doubler(10_000), lambda x: x == 9999, 3, Deadline(0), None, None)
    outcome = solve_walk_cpsat(builder, 1, 10_000, Limits(timeout=60), PlanTimer())
    assert outcome.status is Status.TIMEOUT and outcome.moves is None


def test_horizon_zero_and_an_uncovered_horizon():
    graph = explore(1, _doubler(4), lambda x: x == 1, 3, Deadline(None), max_depth=1)
    assert build_walk_cpsat(graph, 0).model.validate() == ""
    with pytest.raises(ValueError, match="depth 1"):
        build_walk_cpsat(graph, 2)
