"""Breadth-first search over a `StateSpace`: shortest paths in moves.

The idea: a FIFO frontier (a deque of canonical keys) and a `parents` dict
keyed by canonical key, holding `(parent_key, move, state)`. The goal test
runs when a state is generated, which is safe for unit costs and saves the
last layer. `nodes` counts states popped and expanded; `node_limit` caps it,
and a deadline (anything with `expired()`) is polled every 256 nodes, by the
engine's one `Poller`. Moves come from `space.moves()`, unit-cost pairs.

`bidirectional_bfs` grows a forward tree from the initial state and a
backward tree (via `predecessors`) from `goal_state`, always expanding the
smaller frontier one whole layer at a time, and stops when a generated key is
already in the other tree. `bfs_distances` maps every reachable key to its
depth.

Example: from 0, reach 5 with steps +2 and -1.

>>> space = StateSpace(0, lambda x: (("+2", x + 2), ("-1", x - 1)), goal_state=5)
>>> r = bfs(space)
>>> r.path, r.states, r.cost
(('+2', '+2', '+2', '-1'), (0, 2, 4, 6, 5), 4)
>>> back = lambda x: (("+2", x - 2), ("-1", x + 1))  # moves are not reversible
>>> bidirectional_bfs(StateSpace(0, space.successors, goal_state=5, predecessors=back)).cost
4
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable
from typing import Any

from ..core.limits import Expiring, LimitHit, Poller
from .statespace import ROOT, SearchResult, StateSpace, Successors, trace, trace_both

__all__ = ["bfs", "bidirectional_bfs", "bfs_distances"]


def bfs(
    space: StateSpace, *, node_limit: int | None = None, deadline: Expiring | None = None
) -> SearchResult:
    """A shortest path (fewest moves) from `space.initial` to a goal state."""
    start, successors, is_goal, key = space.initial, space.moves(), space.goal_test(), space.key
    if is_goal(start):
        return SearchResult(True, (), (start,), 0)
    start_key = start if key is None else key(start)
    parents: dict[Hashable, tuple[Any, Any, Any]] = {start_key: (ROOT, None, start)}
    frontier = deque([start_key])
    popleft, push = frontier.popleft, frontier.append
    poll = Poller(node_limit, deadline)
    nodes = 0
    while frontier:
        if nodes >= poll.at and (hit := poll(nodes)) is not None:
            return SearchResult(False, nodes=nodes, limit_hit=hit)
        k = popleft()
        state = k if key is None else parents[k][2]
        nodes += 1
        for move, nxt in successors(state):
            nk = nxt if key is None else key(nxt)
            if nk in parents:
                continue
            parents[nk] = (k, move, nxt)
            if is_goal(nxt):
                moves, states = trace(parents, nk)
                return SearchResult(True, moves, states, len(moves), nodes)
            push(nk)
    return SearchResult(False, nodes=nodes, exhausted=True)


def bfs_distances(
    initial: Any,
    successors: Successors,
    *,
    key: Callable[[Any], Hashable] | None = None,
    max_depth: int | None = None,
) -> dict[Hashable, int]:
    """Depth (fewest moves from `initial`) of every reachable canonical key.

    With `max_depth`, only keys at depth <= max_depth are returned. Keys are
    in BFS order, so the last one is a farthest state.

    >>> bfs_distances(0, lambda x: [("+1", x + 1)] if x < 3 else [])
    {0: 0, 1: 1, 2: 2, 3: 3}
    """
    depth = {initial if key is None else key(initial): 0}
    layer = [initial]
    d = 0
    while layer and d != max_depth:
        d += 1
        next_layer = []
        for state in layer:
            for _move, nxt in successors(state):
                nk = nxt if key is None else key(nxt)
                if nk not in depth:
                    depth[nk] = d
                    next_layer.append(nxt)
        layer = next_layer
    return depth


def bidirectional_bfs(
    space: StateSpace, *, node_limit: int | None = None, deadline: Expiring | None = None
) -> SearchResult:
    """A shortest path from `space.initial` to `space.goal_state`, searching from both ends.

    Needs `goal_state`; `is_goal` is ignored. Returns the same path length as
    `bfs` (the move labels may differ when several shortest paths exist).
    `exhausted` means one side ran out of states, which proves there is no path.
    """
    if space.goal_state is None:
        raise ValueError("bidirectional_bfs needs space.goal_state")
    key, key_of = space.key, space.key_fn()
    start, goal = space.initial, space.goal_state
    forward, backward = space.moves(), space.backward()
    start_key, goal_key = key_of(start), key_of(goal)
    if start_key == goal_key:
        return SearchResult(True, (), (start,), 0)
    # forward: key -> (parent key, move, state); backward: key -> (key one step nearer the goal,
    # predecessor label, state). trace_both re-derives the backward half's labels from successors.
    fwd: dict[Hashable, tuple[Any, Any, Any]] = {start_key: (ROOT, None, start)}
    bwd: dict[Hashable, tuple[Any, Any, Any]] = {goal_key: (ROOT, None, goal)}
    flayer, blayer = [start_key], [goal_key]
    poll = Poller(node_limit, deadline)
    nodes = 0
    # Why stopping at the first meeting is exact: before a layer is expanded, fwd holds exactly
    # the keys at distance <= df from the start and bwd those at distance <= db from the goal,
    # and they are disjoint (every key is checked against the other tree when it is added), so
    # the shortest path D >= df + db + 1. A key generated now has distance df + 1 and, if bwd
    # holds it, distance <= db to the goal: that path has length <= df + db + 1 <= D. The classic
    # bug (a meeting through a half-built layer) cannot happen, because the other tree is never
    # mid-layer while this one expands.
    while flayer and blayer:
        if len(flayer) <= len(blayer):
            flayer, meet, nodes, hit = _expand_layer(flayer, fwd, bwd, forward, key, nodes, poll)
        else:
            blayer, meet, nodes, hit = _expand_layer(blayer, bwd, fwd, backward, key, nodes, poll)
        if hit is not None:
            return SearchResult(False, nodes=nodes, limit_hit=hit)
        if meet is not ROOT:
            moves, states = trace_both(space, fwd, bwd, meet)
            return SearchResult(True, moves, states, len(moves), nodes)
    return SearchResult(False, nodes=nodes, exhausted=True)


def _expand_layer(
    layer: list[Hashable],
    mine: dict[Hashable, tuple[Any, Any, Any]],
    other: dict[Hashable, tuple[Any, Any, Any]],
    step: Successors,
    key: Callable[[Any], Hashable] | None,
    nodes: int,
    poll: Poller,
) -> tuple[list[Hashable], Any, int, LimitHit | None]:
    """Expand one whole layer; returns (next layer, meeting key or ROOT, nodes, limit hit)."""
    next_layer: list[Hashable] = []
    push = next_layer.append
    for k in layer:
        if nodes >= poll.at and (hit := poll(nodes)) is not None:
            return next_layer, ROOT, nodes, hit
        nodes += 1
        for move, nxt in step(mine[k][2]):
            nk = nxt if key is None else key(nxt)
            if nk in mine:
                continue
            mine[nk] = (k, move, nxt)
            if nk in other:
                return next_layer, nk, nodes, None
            push(nk)
    return next_layer, ROOT, nodes, None
