"""Cheapest paths with non-negative integer move costs: Dijkstra, A* and 0-1 BFS.

All three take a start state, `successors(state) -> iterable of (cost, move,
next_state)`, a goal predicate, and optionally a canonical `key` (default:
the state itself), a `node_limit` on expanded states and a deadline (anything
with `expired()`, polled every 256 nodes). They return a `SearchResult` whose
`cost` is the path cost.

The idea: a binary heap of `(priority, counter, g, key)`. The counter is the
insertion order, so equal priorities pop first-in first-out and results are
the same on every run; states live in a `parents` dict, never in the heap.
Stale heap entries (a cheaper path was found since) are skipped on pop, and
the goal test runs on pop, which is what makes the cost optimal. A* adds an
admissible `heuristic(state)`; with an inconsistent one, states are reopened
and the answer is still optimal (but keep the heuristic consistent when a
non-identity `key` is given: reopening a class may swap its representative).
0-1 BFS replaces the heap by a deque (cost-0 moves to the front, cost-1 moves
to the back) and is linear time.

Example: on the integers, +1 costs 1 and *2 costs 3; reach 10 from 1.

>>> succ = lambda x: ((1, "+1", x + 1), (3, "*2", 2 * x)) if x <= 20 else ()
>>> r = dijkstra(1, succ, lambda x: x == 10)
>>> r.cost, r.path
(7, ('+1', '+1', '+1', '+1', '*2'))
>>> astar(1, succ, lambda x: x == 10, lambda x: max(0, 10 - 2 * x)).cost
7
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from heapq import heappop, heappush
from typing import Any

from .statespace import ROOT, Expiring, LimitHit, SearchResult, trace

__all__ = ["dijkstra", "astar", "zero_one_bfs", "dijkstra_distances", "CostSuccessors"]

# A weighted successor function: state -> iterable of (cost, move_label, next_state).
CostSuccessors = Callable[[Any], Iterable[tuple[int, Any, Any]]]
Key = Callable[[Any], Hashable]

_POLL = 255  # poll the deadline when nodes & _POLL == 0


def dijkstra(
    start: Any,
    successors: CostSuccessors,
    is_goal: Callable[[Any], bool],
    *,
    key: Key | None = None,
    node_limit: int | None = None,
    deadline: Expiring | None = None,
) -> SearchResult:
    """A cheapest path from `start` to a goal state (costs are integers >= 0)."""
    return _best_first(start, successors, is_goal, None, key, node_limit, deadline)


def astar(
    start: Any,
    successors: CostSuccessors,
    is_goal: Callable[[Any], bool],
    heuristic: Callable[[Any], int],
    *,
    key: Key | None = None,
    node_limit: int | None = None,
    deadline: Expiring | None = None,
) -> SearchResult:
    """A cheapest path, guided by an admissible `heuristic` (a lower bound on the cost to go)."""
    return _best_first(start, successors, is_goal, heuristic, key, node_limit, deadline)


def _best_first(
    start: Any,
    successors: CostSuccessors,
    is_goal: Callable[[Any], bool],
    heuristic: Callable[[Any], int] | None,
    key: Key | None,
    node_limit: int | None,
    deadline: Expiring | None,
) -> SearchResult:
    start_key = start if key is None else key(start)
    best = {start_key: 0}
    parents: dict[Hashable, tuple[Any, Any, Any]] = {start_key: (ROOT, None, start)}
    heap = [(0 if heuristic is None else heuristic(start), 0, 0, start_key)]
    counter = 1
    nodes = 0
    while heap:
        _f, _order, g, k = heappop(heap)
        if g > best[k]:
            continue  # stale: a cheaper path to k was pushed after this entry
        state = parents[k][2]
        if is_goal(state):
            moves, states = trace(parents, k)
            return SearchResult(True, moves, states, g, nodes)
        if nodes == node_limit:
            return SearchResult(False, nodes=nodes, limit_hit=LimitHit.NODES)
        if deadline is not None and not nodes & _POLL and deadline.expired():
            return SearchResult(False, nodes=nodes, limit_hit=LimitHit.DEADLINE)
        nodes += 1
        for cost, move, nxt in successors(state):
            if cost < 0:
                raise ValueError(f"negative move cost {cost} from {state!r}")
            ng = g + cost
            nk = nxt if key is None else key(nxt)
            old = best.get(nk)
            if old is None or ng < old:
                best[nk] = ng
                parents[nk] = (k, move, nxt)
                f = ng if heuristic is None else ng + heuristic(nxt)
                heappush(heap, (f, counter, ng, nk))
                counter += 1
    return SearchResult(False, nodes=nodes, exhausted=True)


def zero_one_bfs(
    start: Any,
    successors: CostSuccessors,
    is_goal: Callable[[Any], bool],
    *,
    key: Key | None = None,
    node_limit: int | None = None,
    deadline: Expiring | None = None,
) -> SearchResult:
    """A cheapest path when every move costs 0 or 1 (anything else raises ValueError)."""
    start_key = start if key is None else key(start)
    best = {start_key: 0}
    parents: dict[Hashable, tuple[Any, Any, Any]] = {start_key: (ROOT, None, start)}
    # Invariant: the deque holds distances d..d+1 in order, so a pop whose distance is still
    # the best known is final, exactly as in Dijkstra.
    frontier = deque([(0, start_key)])
    popleft, push_front, push_back = frontier.popleft, frontier.appendleft, frontier.append
    nodes = 0
    while frontier:
        d, k = popleft()
        if d > best[k]:
            continue
        state = parents[k][2]
        if is_goal(state):
            moves, states = trace(parents, k)
            return SearchResult(True, moves, states, d, nodes)
        if nodes == node_limit:
            return SearchResult(False, nodes=nodes, limit_hit=LimitHit.NODES)
        if deadline is not None and not nodes & _POLL and deadline.expired():
            return SearchResult(False, nodes=nodes, limit_hit=LimitHit.DEADLINE)
        nodes += 1
        for cost, move, nxt in successors(state):
            if cost != 0 and cost != 1:
                raise ValueError(f"0-1 BFS needs move costs 0 or 1, got {cost} from {state!r}")
            nd = d + cost
            nk = nxt if key is None else key(nxt)
            old = best.get(nk)
            if old is None or nd < old:
                best[nk] = nd
                parents[nk] = (k, move, nxt)
                if cost:
                    push_back((nd, nk))
                else:
                    push_front((nd, nk))
    return SearchResult(False, nodes=nodes, exhausted=True)


def dijkstra_distances(
    sources: Iterable[Any],
    successors: CostSuccessors,
    *,
    key: Key | None = None,
    max_cost: int | None = None,
) -> dict[Hashable, int]:
    """Cheapest cost from the nearest source to every reachable canonical key.

    With `max_cost`, only keys at cost <= max_cost are returned.

    >>> succ = lambda x: ((1, "+1", x + 1), (5, "+10", x + 10)) if x < 12 else ()
    >>> dijkstra_distances([0], succ)[12]
    7
    """
    best: dict[Hashable, int] = {}
    states: dict[Hashable, Any] = {}
    heap: list[tuple[int, int, Hashable]] = []
    counter = 0
    for source in sources:
        k = source if key is None else key(source)
        if k not in best:
            best[k] = 0
            states[k] = source
            heap.append((0, counter, k))
            counter += 1
    done: dict[Hashable, int] = {}
    while heap:
        g, _order, k = heappop(heap)
        if k in done:
            continue
        done[k] = g
        for cost, _move, nxt in successors(states[k]):
            if cost < 0:
                raise ValueError(f"negative move cost {cost}")
            ng = g + cost
            if max_cost is not None and ng > max_cost:
                continue
            nk = nxt if key is None else key(nxt)
            old = best.get(nk)
            if old is None or ng < old:
                best[nk] = ng
                states[nk] = nxt
                heappush(heap, (ng, counter, nk))
                counter += 1
    return done

