"""`twinsolve explain` / `hint`: the hand solver's reasoning, step by step, for any puzzle.

A puzzle offers its reasoning through the `explanation` capability of its
declaration (`core.declaration`): a module, usually `puzzles/<name>/explain.py`,
kept apart from the fast `hand` back-end, that provides

- `LEVELS`: the level names `--level` accepts, easiest first (the generator's
  levels; each step's technique is one of the names these levels allow);
- `explain(instance, level=None) -> Explanation`: the solution as numbered
  `Step`s (`explain.steps`); with a `level`, only the techniques a player of
  that level uses, so the steps may stop early (`complete` False); an
  unknown level is a `UsageError`;
- `hint(instance, state: dict) -> Step | Mistake | None`: for a partial
  position in the puzzle's solution-keys JSON with unknowns (Cave:
  `{"inside": ["01?0", ...]}`, `?` undecided), the first decided item that
  contradicts the rules or the clues (`Mistake`), else the next step a person
  could make from there, else None (the position is complete and right); a
  state that is not such a position is an `InstanceError` naming the key.

This package's `explain` and `hint` ask the registry for that capability
(an absent one is a one-line `UsageError` naming the puzzle) and call it; the
CLI, the studio's hint button and `grade` (the hardest step) use them.
`explain.steps` holds the data (and `solved`, the verified `hand` answer an
explanation starts from), `explain.state` reads grid positions with
unknowns, `explain.regions` explains the engine's region rules (a cave, a
sea, a loop's inside: connected, no holes, no checkerboard), `explain.plans`
the layers that prove a plan shortest and the hints on a plan made so far,
`explain.pictures` draws a worked solution. A board too large to hold
(`registry.too_large`) is refused, as `solve` refuses to print it.

>>> from twinsolve.core.errors import UsageError
>>> try:
...     explain(object())
... except UsageError as exc:
...     print(exc)
object is not a twinsolve instance
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from ..core import registry
from ..core.errors import UsageError
from .steps import BIFURCATION, DEDUCTION, Explanation, Mistake, Step

__all__ = ["explain", "hint", "explainer", "Step", "Explanation", "Mistake", "DEDUCTION",
           "BIFURCATION"]


def explainer(instance: Any) -> ModuleType:
    """The explanation module of `instance`'s puzzle; `UsageError` naming the puzzle when
    it declares none."""
    return registry.capability(registry.puzzle_of(instance), "explanation")


def explain(instance: Any, level: str | None = None) -> Explanation:
    """The steps of `instance`'s solution, limited to `level`'s techniques when given
    (module docstring)."""
    module = explainer(instance)
    _fits(instance)
    if level is not None and level not in module.LEVELS:
        name = registry.puzzle_of(instance).name
        raise UsageError(f"{name} has no level {level!r} (levels: {', '.join(module.LEVELS)})")
    return module.explain(instance, level)


def hint(instance: Any, state: Any) -> Step | Mistake | None:
    """The first mistake of the position `state`, else its next step, else None (module
    docstring); `UsageError` when `state` is not a JSON object."""
    module = explainer(instance)
    _fits(instance)
    if not isinstance(state, dict):
        raise UsageError("a position is a JSON object of the puzzle's solution keys, "
                         f"not {type(state).__name__}")
    return module.hint(instance, state)


def _fits(instance: Any) -> None:
    """Refuse a board too large to hold (`registry.too_large`): its steps would be too."""
    reason = registry.too_large(instance)
    if reason:
        raise UsageError(f"cannot explain it: {reason}")
