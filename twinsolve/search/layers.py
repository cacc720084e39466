"""Shortest paths counted layer by layer, one way or from both ends.

The number of shortest move sequences can be astronomically larger than the
state space, so it is never enumerated path by path. Breadth-first search
finds every state's depth one whole layer at a time, and the number of
shortest sequences reaching a state is the sum, over the moves into it from
the previous layer, of the numbers reaching their sources. Moves count with
multiplicity: two moves with different labels from one state to another are
two sequences. A move to a state of the same or an earlier layer is never on
a shortest path, so no-ops and loops drop out by themselves.

`count_shortest_paths` runs forward until the first layer holding a goal
(`is_goal` or `goal_state`) and sums the goals' numbers there.

`bidirectional_count_shortest_paths` needs `goal_state` and `predecessors`;
both trees carry numbers (forward: sequences from the start; backward:
sequences to the goal, so `predecessors` must yield each move into a state
exactly once, as `(label, source)`). Always expanding the smaller frontier by
a whole layer, it stops after the first layer that meets the other tree.
Why the meeting layer gives the exact count: before the layer is expanded,
the trees hold the states within df of the start and within db of the goal
and share none, so a shortest path is at least df + db + 1 long; a state of
the new layer that the other tree holds closes a path of df + 1 + (its
depth there) <= df + db + 1 moves, so the shortest length is df + db + 1 and
every meeting state sits in the other tree's last layer. Each shortest path
passes through exactly one state at distance df + 1 from the start, so the
count is the sum of forward number x backward number over the meeting states.

Both return a `PathCount` with one shortest path (labels and states, as
`SearchResult`), its length, and `count`; node counting, `node_limit` and the
deadline work as in `twinsolve.search.bfs` (the engine's one `Poller`), and
moves come from `space.moves()`, as there. States are told apart by the
space's canonical `key`; with a symmetry key the count is that of paths
between classes, so leave `key` unset to count move sequences.

>>> space = StateSpace(0, lambda x: (("+1", x + 1), ("+2", x + 2)), goal_state=4)
>>> found = count_shortest_paths(space)
>>> found.cost, found.count, found.path
(2, 1, ('+2', '+2'))
>>> space = StateSpace(0, lambda x: (("+1", x + 1), ("+2", x + 2)), goal_state=3)
>>> count_shortest_paths(space).count   # +1+2 and +2+1
2
>>> back = lambda x: (("+1", x - 1), ("+2", x - 2))
>>> bidirectional_count_shortest_paths(
...     StateSpace(0, space.successors, goal_state=3, predecessors=back)).count
2
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from ..core.limits import Limits
from ..core.result import Result, Status, Stopwatch, Tally
from .statespace import (
    ROOT,
    Expiring,
    LimitHit,
    Poller,
    SearchResult,
    StateSpace,
    Successors,
    trace,
    trace_both,
)

__all__ = ["PathCount", "count_shortest_paths", "bidirectional_count_shortest_paths",
           "shortest", "shortest_plan", "shortest_tally", "solve_shortest"]

Tree = dict[Hashable, tuple[Any, Any, Any]]  # key -> (parent key, move, state), as in bfs


@dataclass(frozen=True)
class PathCount:
    """One shortest path and how many there are.

    `path`, `states`, `cost`, `nodes`, `exhausted` and `limit_hit` mean what
    they mean in `SearchResult`; `count` is the number of distinct shortest
    move sequences (0 when no goal is reachable or a limit stopped the search).
    """

    found: bool
    path: tuple[Any, ...] = ()
    states: tuple[Any, ...] = ()
    cost: int | None = None
    count: int = 0
    nodes: int = 0
    exhausted: bool = False
    limit_hit: LimitHit | None = None


@dataclass
class _Side:
    """One search tree: parents, path numbers, the last full layer and its depth."""

    tree: Tree
    ways: dict[Hashable, int]
    layer: list[Hashable]
    step: Successors
    depth: int = 0


def _expand(side: _Side, key: Callable[[Any], Hashable] | None, nodes: int, poll: Poller
            ) -> tuple[dict[Hashable, int], int, LimitHit | None]:
    """Expand `side`'s whole last layer: the new keys with their path numbers."""
    tree, ways = side.tree, side.ways
    fresh: dict[Hashable, int] = {}
    for k in side.layer:
        if nodes >= poll.at and (hit := poll(nodes)) is not None:
            return fresh, nodes, hit
        nodes += 1
        here = ways[k]
        for move, nxt in side.step(tree[k][2]):
            nk = nxt if key is None else key(nxt)
            if nk in fresh:
                fresh[nk] += here
            elif nk not in tree:
                fresh[nk] = here
                tree[nk] = (k, move, nxt)
    ways.update(fresh)
    side.layer = list(fresh)
    side.depth += 1
    return fresh, nodes, None


def count_shortest_paths(space: StateSpace, *, node_limit: int | None = None,
                         deadline: Expiring | None = None) -> PathCount:
    """One shortest path from `space.initial` to a goal, and the number of them."""
    key, key_of = space.key, space.key_fn()
    is_goal = space.goal_test()
    start = space.initial
    if is_goal(start):
        return PathCount(True, (), (start,), 0, 1)
    start_key = key_of(start)
    side = _Side({start_key: (ROOT, None, start)}, {start_key: 1}, [start_key], space.moves())
    poll = Poller(node_limit, deadline)
    nodes = 0
    while side.layer:
        fresh, nodes, hit = _expand(side, key, nodes, poll)
        if hit is not None:
            return PathCount(False, nodes=nodes, limit_hit=hit)
        goals = [k for k in fresh if is_goal(side.tree[k][2])]
        if goals:
            moves, states = trace(side.tree, goals[0])
            return PathCount(True, moves, states, len(moves), sum(fresh[k] for k in goals),
                             nodes)
    return PathCount(False, nodes=nodes, exhausted=True)


def bidirectional_count_shortest_paths(space: StateSpace, *, node_limit: int | None = None,
                                       deadline: Expiring | None = None) -> PathCount:
    """As `count_shortest_paths`, searching from both ends (needs `goal_state`)."""
    if space.goal_state is None:
        raise ValueError("bidirectional_count_shortest_paths needs space.goal_state")
    key, key_of = space.key, space.key_fn()
    start, goal = space.initial, space.goal_state
    start_key, goal_key = key_of(start), key_of(goal)
    if start_key == goal_key:
        return PathCount(True, (), (start,), 0, 1)
    fwd = _Side({start_key: (ROOT, None, start)}, {start_key: 1}, [start_key], space.moves())
    bwd = _Side({goal_key: (ROOT, None, goal)}, {goal_key: 1}, [goal_key], space.backward())
    poll = Poller(node_limit, deadline)
    nodes = 0
    while fwd.layer and bwd.layer:
        mine, other = (fwd, bwd) if len(fwd.layer) <= len(bwd.layer) else (bwd, fwd)
        fresh, nodes, hit = _expand(mine, key, nodes, poll)
        if hit is not None:
            return PathCount(False, nodes=nodes, limit_hit=hit)
        meet = [k for k in fresh if k in other.ways]
        if meet:
            count = sum(fresh[k] * other.ways[k] for k in meet)
            moves, states = trace_both(space, fwd.tree, bwd.tree, meet[0])
            return PathCount(True, moves, states, len(moves), count, nodes)
    return PathCount(False, nodes=nodes, exhausted=True)


def solve_shortest(space: Callable[[], StateSpace], limits: Limits, *, both_ends: bool,
                   unreachable: Callable[[], str | None],
                   solution: Callable[[tuple[Any, ...]], dict[str, Any]],
                   **counters: Any) -> Result:
    """A shortest-plan puzzle's whole `hand` answer: the rules' own test first, then search.

    `unreachable()` is the rules' reason no plan exists (a gcd criterion) or
    None; it is answered at once, as `unsat`, without search. Otherwise
    `shortest_plan` on `space()` (from both ends when `both_ends`), and
    `solution(labels)` turns the plan's move labels into the puzzle's
    solution. Stats: `nodes` = states expanded, then `counters` and
    `direction` (none, forward or bidirectional).
    """
    watch = Stopwatch()
    reason = unreachable()
    watch.built()
    if reason:
        return Result.unsat(limits, stats=watch.stats(nodes=0, **counters, direction="none"),
                            message=f"unreachable: {reason}")
    found = shortest_plan(space(), limits, both_ends)
    stats = watch.stats(nodes=found.nodes, **counters,
                        direction="bidirectional" if both_ends else "forward")
    if found.found:
        # Counted layer by layer (every shortest plan), or one plan by plain BFS.
        return Result.answer(Status.OPTIMAL, solution(found.path), found.cost,
                             tally=shortest_tally(found), asked=limits, stats=stats)
    if found.exhausted:
        return Result.unsat(limits, stats=stats, message="unreachable: search exhausted")
    return Result(Status.TIMEOUT, stats=stats, message=f"stopped by the {found.limit_hit} limit")


def shortest_plan(space: StateSpace, limits: Limits, both_ends: bool) -> SearchResult | PathCount:
    """`shortest` under a run's `Limits`: every shortest plan counted when the run asks
    whether its answer is unique or how many there are, one plan by BFS otherwise."""
    return shortest(space, count=limits.unique or limits.count, both_ends=both_ends,
                    node_limit=limits.node_limit, deadline=limits.deadline())


def shortest_tally(found: SearchResult | PathCount) -> Tally:
    """What a found shortest plan says of how many there are: the exact count after a
    layer count, at least one (count not settled) after a plain BFS."""
    if isinstance(found, PathCount):
        return Tally(found.count, complete=True)
    return Tally(1, complete=False)


def shortest(space: StateSpace, *, count: bool, both_ends: bool, node_limit: int | None = None,
             deadline: Expiring | None = None) -> SearchResult | PathCount:
    """One shortest plan by BFS, or, with `count`, every shortest plan counted layer by
    layer; searched from both ends when `both_ends` (the space has a goal state and
    reversible moves). The puzzles with a shortest-plan question share this one choice."""
    from .bfs import bfs, bidirectional_bfs

    if count:
        counter = bidirectional_count_shortest_paths if both_ends else count_shortest_paths
        return counter(space, node_limit=node_limit, deadline=deadline)
    return (bidirectional_bfs if both_ends else bfs)(space, node_limit=node_limit,
                                                     deadline=deadline)
