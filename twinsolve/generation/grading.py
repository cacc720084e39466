"""`twinsolve grade`: the difficulty level of existing puzzles, and the evidence.

Each instance is graded by its puzzle's generator (`grade`, see
`core.generation`): the level whose techniques solve it without guessing,
or none when it has no unique solution. Grading is deterministic (node
limits, not seconds); `timeout` only bounds how long one file may take, and
a file that takes longer is reported as not graded, never as a level.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..core import registry
from ..core.generation import Grade
from ..core.time_limit import TimeLimit, TimeLimitReached

__all__ = ["Graded", "grade_instance", "distribution"]


@dataclass(frozen=True)
class Graded:
    """One instance's grade; `level` None with `why` when it has no level."""

    label: str
    puzzle: str
    grade: Grade | None
    why: str | None = None

    @property
    def level(self) -> str | None:
        return None if self.grade is None else self.grade.level


def grade_instance(label: str, instance: Any, timeout: float | None = None) -> Graded:
    """The grade of one instance (`UsageError` when its puzzle has no generator)."""
    entry = registry.puzzle_of(instance)
    module = registry.generator(entry)
    try:
        with TimeLimit(timeout, grace=0.0, phase="grading"):
            grade = module.grade(instance)
    except TimeLimitReached:
        return Graded(label, entry.name, None, f"not graded within {timeout:g} s")
    if grade.level is None:
        return Graded(label, entry.name, grade, "no unique solution")
    return Graded(label, entry.name, grade)


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
