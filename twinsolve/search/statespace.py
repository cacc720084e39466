"""The state-space interface shared by every search in `twinsolve.search`.

A state space is an initial state, a successor function yielding
`(move_label, next_state)` pairs, and a goal: either a predicate `is_goal` or
a single `goal_state` (which bidirectional search needs, together with
`predecessors`). States must be hashable. An optional `key` maps a state to
a canonical key so that symmetric states are searched once; it must be a true
symmetry (states with equal keys have successors with equal keys), otherwise
shortest paths are not guaranteed.

Searches return a `SearchResult`: immutable, with the move labels and the
states from the initial state to the goal, the number of nodes expanded, and
whether the search space was exhausted or a limit stopped it.

Example: walk on the integers from 0 to 5 with steps +2 and -1.

>>> space = StateSpace(0, lambda x: (("+2", x + 2), ("-1", x - 1)), goal_state=5)
>>> space.goal_test()(5), space.goal_test()(4)
(True, False)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["StateSpace", "SearchResult", "LimitHit", "Expiring", "Successors", "identity",
           "ROOT", "trace"]

# A successor (or predecessor) function: state -> iterable of (move_label, state).
Successors = Callable[[Any], Iterable[tuple[Any, Any]]]


class Expiring(Protocol):
    """Anything with `expired()`, e.g. `twinsolve.core.limits.Deadline`."""

    def expired(self) -> bool: ...


class LimitHit(str, enum.Enum):
    """Which limit stopped a search (a `str`, so it compares equal to its value)."""

    NODES = "nodes"
    DEADLINE = "deadline"

    def __str__(self) -> str:
        return self.value


def identity(state: Any) -> Any:
    """The default canonical key: the state itself."""
    return state


@dataclass(frozen=True)
class StateSpace:
    """A search problem given by functions; see the module docstring.

    `predecessors(state)` yields `(move_label, prev)` with `state` among the
    successors of `prev`; when omitted the moves are taken to be reversible
    and `successors` is used. Only the states matter: bidirectional search
    re-derives every move label from `successors`.
    """

    initial: Hashable
    successors: Successors
    is_goal: Callable[[Any], bool] | None = None
    key: Callable[[Any], Hashable] | None = None
    goal_state: Hashable | None = None
    predecessors: Successors | None = None

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

    def backward(self) -> Successors:
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
