"""`twinsolve grade`: the difficulty level of existing puzzles, and the evidence.

Each instance is graded by its puzzle's generator (`grade`, see
`core.generation`): the level whose techniques solve it without guessing,
or none when it has no unique solution. Grading is deterministic (node
limits, not seconds); `timeout` only bounds how long one file may take, and
a file that takes longer is reported as not graded, never as a level.

A file without a level says why in words a user reads first: "no solution",
"no unique solution", or that the grader could not settle a puzzle which has
one. The grader's evidence speaks each puzzle's own terms, so the words come
from one verified `hand` run (`core.run`, uniqueness asked) in the time the
grading left; a run that cannot tell says "no level".

The hardest step. A graded puzzle whose puzzle declares an explanation
(`twinsolve.explain`) also names its hardest step: the first step that
needs the top technique its steps use. Each puzzle's explanation runs the
generator's own technique code (the same rules, levels and budgets), so
that step's technique is the level's (the tests check it on the corpus).
It is looked for in the time the grading left; a puzzle explained too
slowly, or without an explanation, simply has none.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from .. import explain as explaining
from ..core import registry
from ..core.errors import UsageError
from ..core.generation import Grade
from ..core.limits import Limits
from ..core.result import Status
from ..core.run import run
from ..core.time_limit import TimeLimit, TimeLimitReached
from ..explain.steps import Step

__all__ = ["Graded", "grade_instance", "why_no_level", "distribution", "hardest_step"]


@dataclass(frozen=True)
class Graded:
    """One instance's grade; `level` None with `why` when it has no level."""

    label: str
    puzzle: str
    grade: Grade | None
    why: str | None = None
    hardest: tuple[int, Step] | None = None  # (its 1-based number, the step)

    @property
    def level(self) -> str | None:
        return None if self.grade is None else self.grade.level


def grade_instance(label: str, instance: Any, timeout: float | None = None) -> Graded:
    """The grade of one instance (`UsageError` when its puzzle has no generator)."""
    entry = registry.puzzle_of(instance)
    module = registry.generator(entry)
    started = time.monotonic()
    try:
        with TimeLimit(timeout, grace=0.0, phase="grading"):
            grade = module.grade(instance)
    except TimeLimitReached:
        return Graded(label, entry.name, None, f"not graded within {timeout:g} s")
    left = None if timeout is None else max(timeout - (time.monotonic() - started), 0.0)
    if grade.level is None:
        return Graded(label, entry.name, grade, why_no_level(instance, left))
    return Graded(label, entry.name, grade, hardest=hardest_step(instance, left))


def hardest_step(instance: Any, timeout: float | None = None) -> tuple[int, Step] | None:
    """The hardest step of `instance`'s explanation (module docstring), or None: no
    explanation declared, none in `timeout` seconds, or no steps."""
    if not registry.has(registry.puzzle_of(instance), "explanation") or timeout == 0:
        return None
    try:
        with TimeLimit(timeout, grace=0.0, phase="explaining"):
            found = explaining.explain(instance)
    except (TimeLimitReached, UsageError):
        return None
    index = found.hardest()
    return None if index is None else (index + 1, found.steps[index])


def why_no_level(instance: Any, timeout: float | None = None) -> str:
    """Why an instance the grader gave no level has none, from a verified `hand` run
    asked for uniqueness within `timeout` seconds (module docstring)."""
    result = run(instance, "hand", Limits(timeout=timeout, unique=True))
    if result.status is Status.UNSAT:
        return "no solution"
    if result.verified and result.unique is False:
        return "no unique solution"
    if result.verified and result.unique:
        return "not graded: one solution, which the grading solver could not settle"
    return "no level: neither graded nor solved in the time left"


def distribution(graded: list[Graded]) -> dict[str, Counter]:
    """Per puzzle: how many instances of each level, in the generator's level order,
    then those without one ("none")."""
    by_puzzle: dict[str, Counter] = {}
    for item in graded:
        by_puzzle.setdefault(item.puzzle, Counter())[item.level or "none"] += 1
    ordered = {}
    for puzzle, counts in by_puzzle.items():
        levels = registry.generator(registry.puzzle(puzzle)).LEVELS
        keys = [level for level in levels if level in counts] + \
            (["none"] if "none" in counts else [])
        ordered[puzzle] = Counter({key: counts[key] for key in keys})
    return ordered
