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
from ...core.result import Result, Status, Stopwatch
from ...search.layers import shortest_plan, shortest_tally
from ...search.statespace import StateSpace
from .rules import Instance, dial_gcd, solution_from_steps, unreachable_reason

__all__ = ["solve", "space"]


def space(instance: Instance) -> StateSpace:
    """Dial positions as states, the step taken as the move label."""
    hours, moves = instance.hours, instance.moves

    def forward(position: int) -> list[tuple[int, int]]:
        return [(step, (position + step) % hours) for step in moves]

    def backward(position: int) -> list[tuple[int, int]]:
        return [(step, (position - step) % hours) for step in moves]

    return StateSpace(instance.start, forward, goal_state=instance.target,
                      predecessors=backward)


def solve(instance: Instance, limits: Limits) -> Result:
    """Fewest moves from start to target (see the module docstring).

    >>> from twinsolve.puzzles.clock.rules import parse
    >>> result = solve(parse("clock 12\\nstart 3\\ntarget 2\\nsteps 4 -5\\n"), Limits(count=True))
    >>> result.status.value, result.objective, result.count   # 3 +4 +7 and 3 +7 +4
    ('optimal', 2, 2)
    """
    watch = Stopwatch()
    gcd = dial_gcd(instance)
    reason = unreachable_reason(instance)
    watch.built()
    if reason:
        return Result.unsat(limits, stats=watch.stats(nodes=0, gcd=gcd, direction="none"),
                            message=f"unreachable: {reason}")
    both_ends = len(instance.moves) >= 2
    found = shortest_plan(space(instance), limits, both_ends)
    stats = watch.stats(nodes=found.nodes, gcd=gcd,
                        direction="bidirectional" if both_ends else "forward")
    if found.found:
        # Counted layer by layer (every shortest plan), or one plan by plain BFS.
        tally = shortest_tally(found)
        return Result.answer(Status.OPTIMAL, solution_from_steps(instance, found.path),
                             found.cost, tally=tally, asked=limits, stats=stats)
    if found.exhausted:  # cannot happen after the gcd test; kept as a proof, not an assumption
        return Result.unsat(limits, stats=stats)
    return Result(Status.TIMEOUT, stats=stats, message=f"stopped by the {found.limit_hit} limit")
