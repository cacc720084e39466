"""The horizon search shared by the planning encodings (clock, jugs, chess).

A planning encoding describes the state at each time step 0..T and one move
per step; `solve_at(T)` builds and solves the encoding for a horizon T and
answers a `HorizonAnswer`: a plan (`found`), a proof that no plan of exactly
/ at most T steps exists (`none`), or `unknown` (out of time). The fewest
moves are found by growing T from a lower bound until a plan appears:
the first horizon with a plan is optimal, because every shorter one was
proven to have none. When the caller knows an upper bound on the length of
any shortest plan (the number of distinct states, say), exhausting it proves
that no plan exists at all.

Encodings whose horizon is fixed in advance (Solitaire Chess: every move
captures, so a win takes exactly pieces - 1 moves) call it with
`lower == upper`. An encoding that learns a tighter bound while it goes (the
automaton of `models.automaton`, once it has listed every reachable state)
passes `upper` as a function, read again before each horizon.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from ..core.limits import Deadline

__all__ = ["Answer", "HorizonAnswer", "HorizonResult", "grow_horizon"]

Plan = TypeVar("Plan")


class Answer(enum.Enum):
    FOUND = "found"
    NONE = "none"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class HorizonAnswer(Generic[Plan]):
    answer: Answer
    plan: Plan | None = None
    nodes: int = 0


@dataclass(frozen=True)
class HorizonResult(Generic[Plan]):
    """`plan` at `horizon` when found; `exhausted` when no plan up to `upper` exists."""

    plan: Plan | None
    horizon: int | None
    exhausted: bool
    nodes: int
    tried: tuple[int, ...] = field(default=())

    @property
    def timed_out(self) -> bool:
        return self.plan is None and not self.exhausted


def grow_horizon(solve_at: Callable[[int], HorizonAnswer[Plan]], lower: int,
                 upper: int | Callable[[], int], deadline: Deadline) -> HorizonResult[Plan]:
    """Try horizons lower, lower+1, ..., upper; stop at the first plan.

    `solve_at(T)` must answer NONE only when it proved that no plan of T
    steps exists (and, for optimality, none shorter was missed: callers
    either encode "at most T real moves" or rely on having tried every
    smaller T, which this loop does). `upper` may be a function returning
    the bound known so far; it must stay an upper bound on the length of
    any shortest plan.
    """
    bound = upper if callable(upper) else (lambda: upper)
    nodes, tried = 0, []
    horizon = max(0, lower)
    while horizon <= bound():
        if deadline.expired():
            return HorizonResult(None, None, False, nodes, tuple(tried))
        outcome = solve_at(horizon)
        nodes += outcome.nodes
        tried.append(horizon)
        if outcome.answer is Answer.FOUND:
            return HorizonResult(outcome.plan, horizon, False, nodes, tuple(tried))
        if outcome.answer is Answer.UNKNOWN:
            return HorizonResult(None, None, False, nodes, tuple(tried))
        horizon += 1
    return HorizonResult(None, None, True, nodes, tuple(tried))
