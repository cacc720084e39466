"""The state-space interface shared by every search in `twinsolve.search`.

A state space is an initial state, a successor function, and a goal: either
a predicate `is_goal` or a single `goal_state` (which bidirectional search
needs, together with `predecessors`). States must be hashable. An optional
`key` maps a state to a canonical key so that symmetric states are searched
once; it must be a true symmetry (states with equal keys have successors with
equal keys), otherwise shortest paths are not guaranteed.

One successor convention. Unit-cost moves are `(move_label, next_state)`
pairs; weighted moves (`weighted=True`) are `(cost, move_label, next_state)`
triples with integer costs >= 0. Every search asks the space the same way,
`space.moves(costs=...)`: the breadth-first searches and the layer count ask
for moves without costs (a weighted space is refused, since they would ignore
its costs), Dijkstra, A*, 0-1 BFS and the bounded enumeration ask for moves
with costs (a unit space's moves then cost 1 each).

One stop rule. A search stops on a node limit (`nodes` states expanded) or a
deadline (anything with `expired()`, polled every 256 nodes); `Poller` is the
one place that says when they are checked, so every search in the engine
stops at the same node counts for the same limits.

Searches return a `SearchResult`: immutable, with the move labels and the
states from the initial state to the goal, the number of nodes expanded, and
whether the search space was exhausted or a limit stopped it.

Example: walk on the integers from 0 to 5 with steps +2 and -1.

>>> space = StateSpace(0, lambda x: (("+2", x + 2), ("-1", x - 1)), goal_state=5)
>>> space.goal_test()(5), space.goal_test()(4)
(True, False)
>>> [list(space.moves(costs=True)(0)), list(space.moves()(0))]
[[(1, '+2', 2), (1, '-1', -1)], [('+2', 2), ('-1', -1)]]
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from ..core.limits import Expiring, LimitHit, Poller

__all__ = ["StateSpace", "SearchResult", "LimitHit", "Expiring", "Successors",
           "CostSuccessors", "Poller", "identity", "ROOT", "trace", "trace_both"]

# A successor (or predecessor) function: state -> iterable of (move_label, state).
Successors = Callable[[Any], Iterable[tuple[Any, Any]]]
# A weighted successor function: state -> iterable of (cost, move_label, next_state).
CostSuccessors = Callable[[Any], Iterable[tuple[int, Any, Any]]]





def identity(state: Any) -> Any:
    """The default canonical key: the state itself."""
    return state


@dataclass(frozen=True)
class StateSpace:
    """A search problem given by functions; see the module docstring.

    `successors` yields `(move_label, next_state)`, or `(cost, move_label,
    next_state)` when `weighted`. `predecessors(state)` yields
    `(move_label, prev)` with `state` among the successors of `prev`; when
    omitted the moves are taken to be reversible and `successors` is used.
    Only the states matter: bidirectional search re-derives every move label
    from `successors`.
    """

    initial: Hashable
    successors: Successors | CostSuccessors
    is_goal: Callable[[Any], bool] | None = None
    key: Callable[[Any], Hashable] | None = None
    goal_state: Hashable | None = None
    predecessors: Successors | None = None
    weighted: bool = False

    def __post_init__(self) -> None:
        if self.is_goal is None and self.goal_state is None:
            raise ValueError("a StateSpace needs is_goal or goal_state")

    def key_fn(self) -> Callable[[Any], Hashable]:
        return identity if self.key is None else self.key

    def goal_test(self) -> Callable[[Any], bool]:
        """`is_goal`, or else equality of canonical keys with `goal_state`."""
        if self.is_goal is not None:
            return self.is_goal
        key = self.key_fn()
        goal_key = key(self.goal_state)
        return lambda state: key(state) == goal_key

    def moves(self, *, costs: bool = False) -> Successors | CostSuccessors:
        """The successor function in the form a search reads: `(cost, move, next)`
        triples with `costs`, else `(move, next)` pairs (refused for a weighted
        space: a search that ignores costs would answer the wrong question)."""
        if costs:
            if self.weighted:
                return self.successors
            unit = self.successors
            return lambda state: ((1, move, nxt) for move, nxt in unit(state))
        if self.weighted:
            raise ValueError("this search counts moves, not costs: the space is weighted")
        return self.successors

    def backward(self) -> Successors:
        """The predecessor function (unit moves), as `moves()` for the backward tree."""
        if self.weighted:
            raise ValueError("this search counts moves, not costs: the space is weighted")
        return self.successors if self.predecessors is None else self.predecessors


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search.

    `path` holds the move labels and `states` the states from the initial
    state to the goal (`len(states) == len(path) + 1`); both are empty when
    nothing was found. `cost` is the path cost (its length for unit moves) or
    None. `nodes` counts states expanded (popped from the frontier).
    `exhausted` means every reachable state was explored, so `found=False`
    is a proof that no goal is reachable; `limit_hit` names the limit that
    stopped the search early, or is None.
    """

    found: bool
    path: tuple[Any, ...] = ()
    states: tuple[Any, ...] = ()
    cost: int | None = None
    nodes: int = 0
    exhausted: bool = False
    limit_hit: LimitHit | None = None


# The parents-dict convention shared by the searches: canonical key -> (parent key, move label,
# state), with ROOT as the parent of the start (a sentinel, because a key may be None).
ROOT: Any = object()


def trace(parents: dict[Hashable, tuple[Any, Any, Any]], k: Hashable) -> tuple[tuple, tuple]:
    """(moves, states) from the root of a parents dict to key `k`."""
    moves: list[Any] = []
    states: list[Any] = []
    while True:
        parent, move, state = parents[k]
        states.append(state)
        if parent is ROOT:
            break
        moves.append(move)
        k = parent
    moves.reverse()
    states.reverse()
    return tuple(moves), tuple(states)


def trace_both(space: StateSpace, fwd: dict[Hashable, tuple[Any, Any, Any]],
               bwd: dict[Hashable, tuple[Any, Any, Any]], meet: Hashable) -> tuple[tuple, tuple]:
    """(moves, states) of a bidirectional search: the forward trace to `meet`, then
    forward moves along the backward tree's chain from `meet` to the goal.

    The backward tree only tells which keys lead to the goal. Walking it with
    the forward moves from the forward tree's actual meeting state gives true
    move labels (predecessor labels may be the reverse moves) and true states
    (with symmetry keys the two trees may hold different states of one class).
    """
    key, successors = space.key_fn(), space.moves()
    moves, states = (list(part) for part in trace(fwd, meet))
    state, k = states[-1], bwd[meet][0]
    while k is not ROOT:
        step = next(((m, s) for m, s in successors(state) if key(s) == k), None)
        if step is None:
            raise ValueError(f"predecessors are inconsistent with successors: no move from "
                             f"{state!r} reaches key {k!r}")
        moves.append(step[0])
        states.append(step[1])
        state, k = step[1], bwd[k][0]
    return tuple(moves), tuple(states)
