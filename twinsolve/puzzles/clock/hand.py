"""Clock stepping, the `hand` back-end: a gcd test, then BFS from both ends.

Rules (see `twinsolve.puzzles.clock.rules`): an M-hour dial shows S; a move adds
one of the normalised steps mod M; reach T in the fewest moves.

The idea. The moves generate g*Z_M with g = gcd(M, steps), so T is
reachable iff g divides T - S (`unreachable_reason`): an unreachable target
is answered at once, without search. Otherwise the dial positions are the
states of the shared engine (`twinsolve.search`). Moving back subtracts a
step, so predecessors are as cheap as successors and, with two or more
moves, bidirectional BFS pays: it grows the smaller frontier, and each side
needs only about half the depth. With one move the graph is a cycle and a
forward BFS does the same work.

`unique` / `count` run the layer-counting BFS (`twinsolve.search.layers`):
the number of shortest sequences reaching a position is the sum over its
predecessors in the previous layer, so ties are counted, never enumerated.

Stats: `nodes` = positions expanded; counters `gcd` and `direction`.
"""

from __future__ import annotations

from ...core.limits import Limits
from ...core.result import Result
from ...search.layers import solve_shortest
from ...search.statespace import StateSpace
from .rules import Instance, dial_gcd, solution_from_steps, unreachable_reason

__all__ = ["solve", "space", "both_ends"]


def space(instance: Instance) -> StateSpace:
    """Dial positions as states, the step taken as the move label."""
    hours, moves = instance.hours, instance.moves

    def forward(position: int) -> list[tuple[int, int]]:
        return [(step, (position + step) % hours) for step in moves]

    def backward(position: int) -> list[tuple[int, int]]:
        return [(step, (position - step) % hours) for step in moves]

    return StateSpace(instance.start, forward, goal_state=instance.target,
                      predecessors=backward)


def both_ends(instance: Instance) -> bool:
    """Whether the search runs from both ends: with two or more moves (one is a cycle)."""
    return len(instance.moves) >= 2


def solve(instance: Instance, limits: Limits) -> Result:
    """Fewest moves from start to target (see the module docstring).

    >>> from twinsolve.puzzles.clock.rules import parse
    >>> result = solve(parse("clock 12\\nstart 3\\ntarget 2\\nsteps 4 -5\\n"), Limits(count=True))
    >>> result.status.value, result.objective, result.count   # 3 +4 +7 and 3 +7 +4
    ('optimal', 2, 2)
    """
    return solve_shortest(lambda: space(instance), limits, both_ends=both_ends(instance),
                          unreachable=lambda: unreachable_reason(instance),
                          solution=lambda steps: solution_from_steps(instance, steps),
                          gcd=dial_gcd(instance))
