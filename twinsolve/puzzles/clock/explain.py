"""Clock stepping, explained: how many of each step, and why no plan is shorter.

Rules: see `rules.py`. The number theory first: the moves generate the
multiples of g = gcd(M, steps), so the target is reachable exactly when g
divides T - S (`rules.unreachable_reason`; an unreachable target has no
explanation but that, `NoSolution`). Moves commute (each adds its step mod
M), so a plan is how many times each step is taken: one explanation step
per step value, deciding the moves of the plan that take it (items `move
k`, the step), however long the plan. The technique of every step is the
level whose search finds the plan (`generate.grade`, the grader's code).
The proof that the plan is shortest is the breadth-first layers from the
start (`explain.plans`), or, on a dial too large to count them here, the
search's own size.

`hint(instance, {"steps": [...]})` takes the steps made so far.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...explain.plans import moves_of_state, plan_hint, plan_level, proof_lines, too_hard
from ...explain.steps import Explanation, Mistake, NoSolution, Step, solved
from . import hand
from .generate import BANDS, LEVELS, grade, problem
from .rules import Instance, dial_gcd, unreachable_reason

__all__ = ["LEVELS", "explain", "hint"]


def _moves_text(numbers: list[int]) -> str:
    """`moves 1-3, 5 and 9` (runs joined with a dash)."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs]
    joined = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return ("move " if len(numbers) == 1 else "moves ") + joined


def explain(instance: Instance, level: str | None = None) -> Explanation:
    """The plan's step counts and the proof that it is shortest (module docstring)."""
    unreachable = unreachable_reason(instance)
    if unreachable:
        raise NoSolution(f"no plan: {unreachable}")
    result = solved(instance, count=True)
    taken = list(result.solution["steps"])
    hours, distance = instance.hours, (instance.target - instance.start) % instance.hours
    technique = plan_level(problem(instance), BANDS, grade(instance))
    counts = Counter(taken)
    equation = " + ".join(f"{n} x {step}" for step, n in counts.items()) or "0"
    summary = (f"The moves generate the multiples of gcd({hours}, steps) = "
               f"{dial_gcd(instance)}, which {distance} = {instance.target} - {instance.start} "
               f"(mod {hours}) is one of; moves commute, so a plan is a count of each step: "
               f"{equation} = {distance} (mod {hours}).",
               *proof_lines(hand.space(instance), len(taken), result.count, result.stats.nodes,
                            hand.both_ends(instance)))
    if too_hard(level, technique, LEVELS):
        note = f"A {level} solver's search does not find this plan: it is {technique}."
        return Explanation("clock", (), result.solution, not taken, level, LEVELS,
                           (note, *summary))
    steps = []
    for step, n in counts.items():
        numbers = [k for k, value in enumerate(taken, 1) if value == step]
        said = (f"{_moves_text(numbers)} {'takes' if n == 1 else 'take'} the step {step:+d}, "
                f"{n} of the plan's {len(taken)} moves: {equation} = {distance} (mod {hours}), "
                f"the distance from {instance.start} to {instance.target}")
        steps.append(Step(technique, tuple((f"move {k}", step) for k in numbers), said))
    return Explanation("clock", tuple(steps), result.solution, True, level, LEVELS, summary)


def hint(instance: Instance, state: dict[str, Any]) -> Step | Mistake | None:
    """The first step of the position that leaves the shortest plans, else the next step
    of a shortest plan, else None at the target."""
    made = moves_of_state(state, "steps")
    explanation = explain(instance)
    technique = explanation.steps[0].technique if explanation.steps else LEVELS[0]
    return plan_hint(hand.space(instance), made, len(explanation.solution["steps"]),
                     word=lambda label: label, show=str, technique=technique, key="steps")
