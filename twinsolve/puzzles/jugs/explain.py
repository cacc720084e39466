"""Water jugs, explained: the plan move by move, and why no plan is shorter.

Rules: see `rules.py`. The number theory first: every level stays a multiple
of h = gcd(capacities, start levels), and the rules' other facts
(`rules.unreachable_reason`) prove a goal out of reach without search; an
instance they rule out has no explanation but that (`NoSolution`). Then the
plan, one step per move (item `move k`, the move in the solution's words),
each saying what the move does to the levels; its technique is the level
whose search finds the plan (`generate.grade`, the grader's own code:
plan length and share of the states expanded). The proof that it is
shortest is the breadth-first layers from the start (`explain.plans`): the
first layer holding a goal state is the fewest moves.

`hint(instance, {"moves": [...]})` takes the moves made so far.
"""

from __future__ import annotations

from typing import Any

from ...explain.plans import moves_of_state, plan_hint, plan_level, proof_lines, too_hard
from ...explain.steps import Explanation, Mistake, NoSolution, Step, solved
from . import hand
from .generate import BANDS, LEVELS, grade, problem
from .rules import Instance, level_gcd, moves_of, unreachable_reason

__all__ = ["LEVELS", "explain", "hint"]


def _show(levels: Any) -> str:
    return "(" + ", ".join(map(str, levels)) + ")"


def _facts(instance: Instance) -> str:
    h = level_gcd(instance)
    return (f"Every level stays a multiple of gcd(capacities, start levels) = {h}, and the "
            f"goal, {instance.goal}, is not ruled out by that or by the moves allowed.")


def explain(instance: Instance, level: str | None = None) -> Explanation:
    """The plan's moves and the proof that it is shortest (module docstring)."""
    unreachable = unreachable_reason(instance)
    if unreachable:
        raise NoSolution(f"no plan: {unreachable}")
    result = solved(instance, count=True)
    moves, states = result.solution["moves"], result.solution["states"]
    technique = plan_level(problem(instance), BANDS, grade(instance))
    summary = (_facts(instance), *proof_lines(hand.space(instance), len(moves), result.count,
                                              result.stats.nodes, hand.both_ends(instance)))
    if too_hard(level, technique, LEVELS):
        note = f"A {level} solver's search does not find this plan: it is {technique}."
        return Explanation("jugs", (), result.solution, not moves, level, LEVELS,
                           (note, *summary))
    steps = []
    for k, move in enumerate(moves, 1):
        said = f"move {k}, {move}, takes {_show(states[k - 1])} to {_show(states[k])}"
        if k == len(moves):
            said += f", which meets the goal ({instance.goal})"
        premises = (f"move {k - 1}",) if k > 1 else ()
        steps.append(Step(technique, ((f"move {k}", move),), said, premises))
    return Explanation("jugs", tuple(steps), result.solution, True, level, LEVELS, summary)


def hint(instance: Instance, state: dict[str, Any]) -> Step | Mistake | None:
    """The first move of the position that leaves the shortest plans (or breaks the rules),
    else the next move of a shortest plan, else None at the goal."""
    made = moves_of_state(state, "moves")
    explanation = explain(instance)
    names = moves_of(instance)
    technique = explanation.steps[0].technique if explanation.steps else LEVELS[0]
    return plan_hint(hand.space(instance), made, len(explanation.solution["moves"]),
                     word=lambda label: str(names[label]), show=_show, technique=technique)
