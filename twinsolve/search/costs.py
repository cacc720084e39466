"""Cheapest paths with non-negative integer move costs: Dijkstra, A*, 0-1 BFS, and every
goal within a cost bound.

Each search takes a weighted `StateSpace` (its moves `(cost, move, next_state)`,
`twinsolve.search.statespace`), or, as before, a start state, `successors(state)
-> iterable of (cost, move, next_state)`, a goal predicate and optionally a
canonical `key` (default: the state itself). All take a `node_limit` on
expanded states and a deadline (anything with `expired()`, polled every 256
nodes), checked by the engine's one `Poller`. Dijkstra, A* and 0-1 BFS return
a `SearchResult` whose `cost` is the path cost.

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

Every goal within a bound. Once a search has found the optimum, how many
optimal solutions are there? `goals_within(space, bound)` enumerates every
path from the start that ends at its first goal and costs at most `bound`
(with the optimum as the bound: every optimal solution), depth-first, pruning
a path as soon as its cost so far plus `heuristic` exceeds the bound. Paths
are told apart, states are never merged (no `key`), so on a tree (each state
reached one way, as in a search over partial decisions) the paths are the
goal leaves. Why depth-first rather than best-first: within the bound every
surviving path must be walked anyway, depth-first needs memory for one path's
siblings only, and it reaches a second goal soon, which is all a uniqueness
check needs (`stop_at=2`). It needs a space without cycles of cost 0 within
the bound (their paths never end), which trees and positive costs satisfy.

Example: on the integers, +1 costs 1 and *2 costs 3; reach 10 from 1.

>>> succ = lambda x: ((1, "+1", x + 1), (3, "*2", 2 * x)) if x <= 20 else ()
>>> r = dijkstra(1, succ, lambda x: x == 10)
>>> r.cost, r.path
(7, ('+1', '+1', '+1', '+1', '*2'))
>>> astar(1, succ, lambda x: x == 10, lambda x: max(0, 10 - 2 * x)).cost
7
>>> space = StateSpace(1, succ, lambda x: x == 10, weighted=True)
>>> dijkstra(space).cost, goals_within(space, 7).count   # only +1+1+1+1*2
(7, 1)
>>> goals_within(space, 8).count   # and +1*2+1*2, +1+1+1*2+1+1
3
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from heapq import heappop, heappush
from typing import Any

from .statespace import (
    ROOT,
    CostSuccessors,
    Expiring,
    LimitHit,
    Poller,
    SearchResult,
    StateSpace,
    trace,
)

__all__ = ["dijkstra", "astar", "zero_one_bfs", "goals_within", "GoalCount",
           "dijkstra_distances", "CostSuccessors"]

Key = Callable[[Any], Hashable]
Heuristic = Callable[[Any], int]


def _weighted(start: Any, successors: CostSuccessors | None,
              is_goal: Callable[[Any], bool] | None, key: Key | None) -> StateSpace:
    """The space a cost search runs on: `start` itself when it is one, else the space
    the loose arguments describe (the older calling form, kept for its callers)."""
    if isinstance(start, StateSpace):
        if successors is not None or is_goal is not None or key is not None:
            raise TypeError("give a StateSpace alone, or start, successors and is_goal")
        return start
    if successors is None or is_goal is None:
        raise TypeError("a cost search needs a StateSpace, or start, successors and is_goal")
    return StateSpace(start, successors, is_goal, key=key, weighted=True)


def dijkstra(
    start: Any,
    successors: CostSuccessors | None = None,
    is_goal: Callable[[Any], bool] | None = None,
    *,
    key: Key | None = None,
    node_limit: int | None = None,
    deadline: Expiring | None = None,
) -> SearchResult:
    """A cheapest path from the start to a goal state (costs are integers >= 0).

    `start` is a `StateSpace`, or a start state given with `successors` and `is_goal`.
    """
    space = _weighted(start, successors, is_goal, key)
    return _cheapest(space, _heap(None), node_limit, deadline)


def astar(
    start: Any,
    successors: CostSuccessors | None = None,
    is_goal: Callable[[Any], bool] | None = None,
    heuristic: Heuristic | None = None,
    *,
    key: Key | None = None,
    node_limit: int | None = None,
    deadline: Expiring | None = None,
) -> SearchResult:
    """A cheapest path, guided by an admissible `heuristic` (a lower bound on the cost to go).

    `start` is a `StateSpace` (then pass `heuristic=` by name), or a start state
    given with `successors`, `is_goal` and `heuristic`.
    """
    if heuristic is None:
        raise TypeError("astar needs a heuristic (Dijkstra is A* without one)")
    space = _weighted(start, successors, is_goal, key)
    return _cheapest(space, _heap(heuristic), node_limit, deadline)


# A frontier is (entries, push, pop, top): `entries` is true while any is left;
# `push(g, cost, key, state)` adds the key at cost g, reached by a move of `cost`;
# `pop()` returns an entry `(priority, order, g, key)` of the cheapest; `top` is the
# dearest move cost it takes. Plain closures over C containers, since they run once
# per move and state.
Frontier = tuple[Any, Callable[[int, int, Hashable, Any], None], Callable[[], tuple], float]


def _heap(heuristic: Heuristic | None) -> Frontier:
    """Dijkstra's and A*'s frontier: a binary heap of `(priority, counter, g, key)`,
    priority g plus the `heuristic` of the state (none: g)."""
    heap: list[tuple[int, int, int, Hashable]] = []
    counter = itertools.count()

    def push(g: int, cost: int, k: Hashable, state: Any) -> None:
        f = g if heuristic is None else g + heuristic(state)
        heappush(heap, (f, next(counter), g, k))

    return heap, push, functools.partial(heappop, heap), math.inf


def _deque() -> Frontier:
    """0-1 BFS's frontier: a deque of `(0, 0, g, key)`, cost-0 moves to the front and
    cost-1 moves to the back. Invariant: it holds distances d..d+1 in order, so a pop
    whose distance is still the best known is final, exactly as in Dijkstra."""
    queue: deque[tuple[int, int, int, Hashable]] = deque()

    def push(g: int, cost: int, k: Hashable, state: Any) -> None:
        if cost:
            queue.append((0, 0, g, k))
        else:
            queue.appendleft((0, 0, g, k))

    return queue, push, queue.popleft, 1


def _cheapest(space: StateSpace, frontier: Frontier, node_limit: int | None,
              deadline: Expiring | None) -> SearchResult:
    """The one loop of Dijkstra, A* and 0-1 BFS (module docstring): pop the cheapest
    state of `frontier`, skip it when stale, test it, expand it. A move cost outside 0 to
    the frontier's `top` (for 0-1 BFS: other than 0 or 1) is refused."""
    start, key = space.initial, space.key
    successors, is_goal = space.moves(costs=True), space.goal_test()
    start_key = start if key is None else key(start)
    best = {start_key: 0}
    parents: dict[Hashable, tuple[Any, Any, Any]] = {start_key: (ROOT, None, start)}
    entries, push, pop, top = frontier
    push(0, 0, start_key, start)
    poll = Poller(node_limit, deadline)
    nodes = 0
    while entries:
        _f, _order, g, k = pop()
        if g > best[k]:
            continue  # stale: a cheaper path to k was pushed after this entry
        state = parents[k][2]
        if is_goal(state):
            moves, states = trace(parents, k)
            return SearchResult(True, moves, states, g, nodes)
        if nodes >= poll.at and (hit := poll(nodes)) is not None:
            return SearchResult(False, nodes=nodes, limit_hit=hit)
        nodes += 1
        for cost, move, nxt in successors(state):
            if not 0 <= cost <= top or (top == 1 and 0 < cost < 1):
                raise _refused(cost, top, state)
            ng = g + cost
            nk = nxt if key is None else key(nxt)
            old = best.get(nk)
            if old is None or ng < old:
                best[nk] = ng
                parents[nk] = (k, move, nxt)
                push(ng, cost, nk, nxt)
    return SearchResult(False, nodes=nodes, exhausted=True)


def _refused(cost: Any, top: float, state: Any) -> ValueError:
    if top == 1:
        return ValueError(f"0-1 BFS needs move costs 0 or 1, got {cost} from {state!r}")
    return ValueError(f"negative move cost {cost} from {state!r}")


def zero_one_bfs(
    start: Any,
    successors: CostSuccessors | None = None,
    is_goal: Callable[[Any], bool] | None = None,
    *,
    key: Key | None = None,
    node_limit: int | None = None,
    deadline: Expiring | None = None,
) -> SearchResult:
    """A cheapest path when every move costs 0 or 1 (anything else raises ValueError).

    `start` is a `StateSpace`, or a start state given with `successors` and `is_goal`.
    """
    return _cheapest(_weighted(start, successors, is_goal, key), _deque(), node_limit,
                     deadline)


# ---------------------------------------------------------------- every goal within a bound

@dataclass(frozen=True)
class GoalCount:
    """What `goals_within` found.

    `count` goal paths of cost <= the bound; `complete` is True when every
    one was counted (False when `stop_at` or a limit cut the walk short, and
    then `limit_hit` names the limit). `nodes` counts states expanded (goals
    are counted, not expanded). `paths` holds `(moves, states)` per goal path
    in the order found, only when asked for with `keep_paths`.
    """

    count: int
    complete: bool
    nodes: int
    limit_hit: LimitHit | None = None
    paths: tuple[tuple[tuple[Any, ...], tuple[Any, ...]], ...] = ()


def goals_within(
    space: StateSpace,
    bound: int,
    heuristic: Heuristic | None = None,
    *,
    stop_at: int | None = None,
    keep_paths: bool = False,
    node_limit: int | None = None,
    deadline: Expiring | None = None,
) -> GoalCount:
    """Every path from `space.initial` to its first goal with cost at most `bound`.

    Depth-first, pruning a path whose cost plus `heuristic` (admissible, so
    no path within the bound is lost; default 0) exceeds `bound`; stops after
    `stop_at` goals when given. The children of a state are walked last one
    first. `space.key` is not used: paths are enumerated, not states.

    >>> succ = lambda x: ((1, "a", x + 1), (1, "b", x + 1), (2, "ab", x + 2)) if x < 2 else ()
    >>> found = goals_within(StateSpace(0, succ, goal_state=2, weighted=True), 2,
    ...                      keep_paths=True)
    >>> found.count, found.complete, [moves for moves, _states in found.paths]
    (5, True, [('ab',), ('b', 'b'), ('b', 'a'), ('a', 'b'), ('a', 'a')])
    """
    start = space.initial
    successors, is_goal = space.moves(costs=True), space.goal_test()
    found = 0
    paths: list[tuple[tuple, tuple]] = []
    poll = Poller(node_limit, deadline)
    nodes = 0
    # A stack of (g, state, trail); trail = (parent's trail, move, state), the path so far,
    # built only when paths are kept.
    stack = [(0, start, (None, None, start) if keep_paths else None)]
    if (0 if heuristic is None else heuristic(start)) > bound:
        stack.clear()
    while stack:
        g, state, trail = stack.pop()
        if is_goal(state):
            found += 1
            if keep_paths:
                paths.append(_unwind(trail))
            if stop_at is not None and found >= stop_at:
                return GoalCount(found, False, nodes, paths=tuple(paths))
            continue
        if nodes >= poll.at and (hit := poll(nodes)) is not None:
            return GoalCount(found, False, nodes, hit, tuple(paths))
        nodes += 1
        for cost, move, child in successors(state):
            if cost < 0:
                raise ValueError(f"negative move cost {cost} from {state!r}")
            ng = g + cost
            if ng + (0 if heuristic is None else heuristic(child)) <= bound:
                stack.append((ng, child, (trail, move, child) if keep_paths else None))
    return GoalCount(found, True, nodes, paths=tuple(paths))


def _unwind(trail: tuple[Any, Any, Any]) -> tuple[tuple, tuple]:
    """(moves, states) from a trail of (parent trail, move, state) links."""
    moves: list[Any] = []
    states: list[Any] = []
    while trail is not None:
        parent, move, state = trail
        states.append(state)
        if parent is not None:
            moves.append(move)
        trail = parent
    return tuple(reversed(moves)), tuple(reversed(states))


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

