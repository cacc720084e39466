"""Water jugs, the `hand` back-end: proofs of unreachability, then BFS with parents.

Rules (see `twinsolve.puzzles.jugs.rules`): fill, empty and pour (until the source
is empty or the target full) as allowed; reach `holds C`, `total C` or
`exact a b ...` in the fewest moves.

The idea, in three steps.

1. Shortcuts that prove "no plan" without search (`unreachable_reason`, from
   the facts in the rules module, each sound for any move subset and any
   start): a goal above the capacities; a goal off the lattice of multiples
   of h = gcd(capacities, start levels); a total the move kinds cannot rise
   or fall to (no fill: the water never increases; no empty: it never
   decreases; pour alone: it is fixed); an exact goal with no jug empty or
   full, which no move can produce.
2. Otherwise the level tuples are the states of the shared engine. Moves that
   change nothing (fill a full jug, pour from an empty one, ...) are never
   generated: they are never on a shortest plan.
3. An `exact` goal is a single state, so the search runs from both ends
   (`bidirectional_bfs`). Predecessors are many-valued (a full jug may have
   been filled from any level) but they are pruned by the same facts: a
   predecessor is on the lattice, is the start or has a jug empty or full,
   and has a total the move kinds allow. `holds` and `total` goals are sets
   of states and run forward (`bfs`); they are usually shallow.

`unique` / `count` run the layer-counting BFS (`twinsolve.search.layers`),
bidirectional for `exact` goals: the number of shortest sequences reaching a
state is the sum over the moves into it from the previous layer.

Stats: `nodes` = states expanded; counters `gcd` (h) and `direction`.
"""

from __future__ import annotations

from collections.abc import Callable

from ...core.limits import Limits
from ...core.result import Result
from ...search.layers import solve_shortest
from ...search.statespace import StateSpace
from .rules import (
    GoalKind,
    Instance,
    MoveKind,
    level_gcd,
    moves_of,
    solution_from_moves,
    unreachable_reason,
)

__all__ = ["solve", "space", "both_ends"]

Levels = tuple[int, ...]
Step = list[tuple[int, Levels]]  # (index into moves_of(instance), levels after)


def _successors(instance: Instance) -> Callable[[Levels], Step]:
    """Every move that changes the levels; labels index `moves_of(instance)`."""
    caps = instance.capacities
    fills, empties, pours = [], [], []
    for index, move in enumerate(moves_of(instance)):
        if move.kind is MoveKind.FILL:
            fills.append((index, move.jug, caps[move.jug]))
        elif move.kind is MoveKind.EMPTY:
            empties.append((index, move.jug))
        else:
            pours.append((index, move.jug, move.into, caps[move.into]))

    def successors(levels: Levels) -> Step:
        out = []
        for index, jug, cap in fills:
            if levels[jug] < cap:
                out.append((index, levels[:jug] + (cap,) + levels[jug + 1:]))
        for index, jug in empties:
            if levels[jug]:
                out.append((index, levels[:jug] + (0,) + levels[jug + 1:]))
        for index, source, target, cap in pours:
            have, room = levels[source], cap - levels[target]
            if have and room:
                amount = have if have < room else room
                after = list(levels)
                after[source] -= amount
                after[target] += amount
                out.append((index, tuple(after)))
        return out

    return successors


def _predecessors(instance: Instance) -> Callable[[Levels], Step]:
    """Each (move, earlier levels) whose move leads here and changes something, once each.

    Only predecessors a search from the start could meet are generated (the
    others cannot lie on a shortest path, so every path and count is kept):
    levels on the lattice of multiples of h, a total the move kinds allow
    (fact 3), and the start or some jug empty or full (fact 4). When no jug
    the move leaves alone is empty or full, fact 4 leaves only the amounts
    that make a touched jug empty or full, or give back the start: those few
    are tried instead of the whole range.
    """
    caps, start, h = instance.capacities, instance.start, level_gcd(instance)
    total0 = sum(start)
    least = total0 if MoveKind.EMPTY not in instance.kinds else 0
    most = total0 if MoveKind.FILL not in instance.kinds else sum(caps)
    by_kind: dict[MoveKind, list[tuple[int, int, int | None]]] = {k: [] for k in MoveKind}
    for index, move in enumerate(moves_of(instance)):
        by_kind[move.kind].append((index, move.jug, move.into))

    def predecessors(levels: Levels) -> Step:
        out: Step = []
        total = sum(levels)
        at_edge = [v == 0 or v == c for v, c in zip(levels, caps, strict=True)]
        edges = sum(at_edge)
        off_start = {j for j, (v, s) in enumerate(zip(levels, start, strict=True)) if v != s}

        def amounts(full: range, touched: tuple[int, ...], special: tuple[int, ...]):
            """`full`, or only the `special` amounts in it when fact 4 needs a touched jug."""
            if edges > sum(at_edge[j] for j in touched):
                return full
            return sorted({a for a in special if a in full})

        for index, jug, _ in by_kind[MoveKind.FILL]:
            if levels[jug] == caps[jug]:  # filled from any lower level the total allows
                low = -(-max(0, least - (total - caps[jug])) // h) * h
                back = (start[jug],) if off_start <= {jug} else ()
                for value in amounts(range(low, caps[jug], h), (jug,), (0, *back)):
                    out.append((index, levels[:jug] + (value,) + levels[jug + 1:]))
        for index, jug, _ in by_kind[MoveKind.EMPTY]:
            if levels[jug] == 0:  # emptied from any higher level the total allows
                back = (start[jug],) if off_start <= {jug} else ()
                full = range(h, min(caps[jug], most - total) + 1, h)
                for value in amounts(full, (jug,), (caps[jug], *back)):
                    out.append((index, levels[:jug] + (value,) + levels[jug + 1:]))
        for index, source, target in by_kind[MoveKind.POUR]:
            have, got = levels[source], levels[target]
            if have == 0:  # the source ran dry: it held `amount`, all of it poured
                top = min(got, caps[source])
            elif got == caps[target]:  # the target filled up, the source kept `have`
                top = min(caps[target], caps[source] - have)
            else:
                continue
            back = (start[source] - have,) if off_start <= {source, target} else ()
            special = (caps[source] - have, got, *back)  # source was full, target was empty
            for amount in amounts(range(h, top + 1, h), (source, target), special):
                before = list(levels)
                before[source] = have + amount
                before[target] = got - amount
                out.append((index, tuple(before)))
        return out

    return predecessors


def space(instance: Instance) -> StateSpace:
    """Level tuples as states; move labels index `moves_of(instance)`.

    An `exact` goal is a `goal_state` with `predecessors`; the others an `is_goal`.
    """
    successors = _successors(instance)
    goal = instance.goal
    if goal.kind is GoalKind.EXACT:
        return StateSpace(instance.start, successors, goal_state=goal.amounts,
                          predecessors=_predecessors(instance))
    if goal.kind is GoalKind.HOLDS:
        amount = goal.amounts[0]
        return StateSpace(instance.start, successors, is_goal=lambda levels: amount in levels)
    amount = goal.amounts[0]
    return StateSpace(instance.start, successors, is_goal=lambda levels: sum(levels) == amount)


def both_ends(instance: Instance) -> bool:
    """Whether the search runs from both ends: for an `exact` goal, a single state."""
    return instance.goal.kind is GoalKind.EXACT


def solve(instance: Instance, limits: Limits) -> Result:
    """Fewest moves to the goal (see the module docstring).

    >>> from twinsolve.puzzles.jugs.rules import parse
    >>> die_hard = parse("jugs\\ncapacities 3 5\\nmoves fill empty pour\\ngoal holds 4\\n")
    >>> result = solve(die_hard, Limits(count=True))
    >>> result.objective, result.count, result.solution["moves"][:2]
    (6, 1, ['fill 1', 'pour 1 0'])
    """
    moves = moves_of(instance)
    return solve_shortest(lambda: space(instance), limits,
                          both_ends=both_ends(instance),
                          unreachable=lambda: unreachable_reason(instance),
                          solution=lambda path: solution_from_moves(instance,
                                                                    [moves[i] for i in path]),
                          gcd=level_gcd(instance))
