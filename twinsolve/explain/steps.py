"""The vocabulary of an explanation: `Step`, `Explanation`, `Mistake`.

An explanation is the hand solver's reasoning written as steps a person can
check on paper. Each `Step` names its technique (one of the puzzle's
difficulty levels' technique names, so `--level` can limit what a player of
that level sees), the items it decides and their values, one sentence saying
why, and its premises: the clue cells and earlier decided items the sentence
uses, and nothing else. A step is of `kind` "deduction" (the premises and the
named rule force the conclusion) or "bifurcation" (deduction has stopped:
the step shows a guess and the contradiction that refutes the other branch,
so it is still forced, only by a longer argument).

Items are named by keys a person reads on a grid: `"r3c7"` (row 3, column 7,
counting from 0 at the top left, as the solution keys do), or a puzzle's own
words for what is not a cell (`"move 4"`, `"kernel"`). Values are the
solution's own (Cave: 1 inside / 0 outside; Lights Out: the presses of the
cell; a plan: the move).

Rules every explanation keeps (the tests in `tests/explain/` prove them):

- replaying the steps from the empty position decides exactly the solution
  (`decided_items`), and no step decides what the solution does not have;
- a step decides only items no earlier step decided;
- the same instance gives the same steps, byte for byte (`to_json`);
- `complete` is True when the steps decide the whole solution (False when a
  `level` stopped them, or a step limit).

>>> step = Step("bounds", (("r0c1", 0),), "r0c1 is outside: the 1 at r0c0 sees only itself.",
...             ("r0c0",))
>>> step.to_json()["decided"]
{'r0c1': 0}
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..core.errors import UsageError
from ..core.limits import Limits
from ..core.result import Result, Status
from ..core.run import run

__all__ = ["Step", "Explanation", "Mistake", "NoSolution", "KINDS", "DEDUCTION", "BIFURCATION",
           "cell_key", "decided_items", "hardest_step", "solved", "ordinal"]

DEDUCTION, BIFURCATION = "deduction", "bifurcation"
KINDS = (DEDUCTION, BIFURCATION)


def cell_key(row: int, col: int) -> str:
    """The item key of a grid cell.

    >>> cell_key(3, 7)
    'r3c7'
    """
    return f"r{row}c{col}"


@dataclass(frozen=True)
class Step:
    """One step of the reasoning (module docstring).

    - `technique`: the technique's name, as the puzzle's levels name them;
    - `decided`: `((item, value), ...)`, in the order the sentence names them;
    - `reason`: one sentence a person can check on paper;
    - `premises`: the clue cells and decided items the sentence uses;
    - `kind`: "deduction" or "bifurcation".
    """

    technique: str
    decided: tuple[tuple[str, Any], ...]
    reason: str
    premises: tuple[str, ...] = ()
    kind: str = DEDUCTION

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a step's kind is one of {', '.join(KINDS)}, not {self.kind!r}")

    def to_json(self) -> dict[str, Any]:
        """The step as JSON-ready data (items in their order, values as they are)."""
        return {"technique": self.technique, "kind": self.kind,
                "decided": dict(self.decided), "reason": self.reason,
                "premises": list(self.premises)}


@dataclass(frozen=True)
class Explanation:
    """The steps of one instance's solution.

    - `puzzle`: the puzzle's name;
    - `steps`: the steps in order;
    - `solution`: the solution in the puzzle's solution-keys JSON form (verified);
    - `complete`: whether the steps decide the whole solution;
    - `level`: the level the techniques were limited to (None: all);
    - `techniques`: the puzzle's technique names, easiest first (for `hardest`);
    - `summary`: closing sentences (the optimum's proof, say), possibly empty.
    """

    puzzle: str
    steps: tuple[Step, ...]
    solution: dict[str, Any]
    complete: bool
    level: str | None = None
    techniques: tuple[str, ...] = ()
    summary: tuple[str, ...] = field(default=())

    def hardest(self) -> int | None:
        """The index of the hardest step (`hardest_step`), or None without steps."""
        return hardest_step(self.steps, self.techniques)

    def first(self, count: int) -> Explanation:
        """The first `count` steps alone (complete only when nothing was left out)."""
        if count >= len(self.steps):
            return self
        return replace(self, steps=self.steps[:count], complete=False)

    def to_json(self) -> dict[str, Any]:
        """The explanation as JSON-ready data: the same text for the same instance."""
        hardest = self.hardest()
        return {"puzzle": self.puzzle, "level": self.level, "complete": self.complete,
                "hardest": None if hardest is None else hardest + 1,
                "steps": [dict(step.to_json(), number=number)
                          for number, step in enumerate(self.steps, 1)],
                "summary": list(self.summary), "solution": self.solution}


@dataclass(frozen=True)
class Mistake:
    """The first decided item of a position that contradicts the rules (with the solution,
    the clues or the position's own other items), and why, in one sentence."""

    item: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"mistake": self.item, "reason": self.reason}


def decided_items(steps: tuple[Step, ...] | list[Step]) -> dict[str, Any]:
    """Every item the steps decide, with its value; `ValueError` when a step decides an
    item an earlier step decided (a replay that is not a replay).

    >>> decided_items([Step("t", (("a", 1),), "."), Step("t", (("b", 0),), ".")])
    {'a': 1, 'b': 0}
    """
    found: dict[str, Any] = {}
    for number, step in enumerate(steps, 1):
        for item, value in step.decided:
            if item in found:
                raise ValueError(f"step {number} decides {item} again")
            found[item] = value
    return found


def hardest_step(steps: tuple[Step, ...] | list[Step], techniques: tuple[str, ...]
                 ) -> int | None:
    """The index of the first step of the hardest technique the steps use (techniques
    ranked by their order in `techniques`, easiest first; a bifurcation above all, an
    unknown technique below all); None when there are no steps.

    >>> hardest_step([Step("a", (), "."), Step("b", (), "."), Step("b", (), ".")], ("a", "b"))
    1
    """
    def rank(step: Step) -> int:
        if step.kind == BIFURCATION:
            return len(techniques) + 1
        return techniques.index(step.technique) + 1 if step.technique in techniques else 0

    best: int | None = None
    for index, step in enumerate(steps):
        if best is None or rank(step) > rank(steps[best]):
            best = index
    return best


class NoSolution(UsageError):
    """The instance has no solution, so there is nothing to explain (the CLI: exit 1)."""


def solved(instance: Any, unique: bool = True, count: bool = False) -> Result:
    """The verified `hand` answer an explanation starts from (`core.run`: every solution
    passes the puzzle's `verify`), uniqueness (or the count) asked when `unique` (`count`);
    `NoSolution` when there is none, `UsageError` when `hand` gives no verified answer."""
    result = run(instance, "hand", Limits(unique=unique, count=count))
    if result.status is Status.UNSAT:
        raise NoSolution("no solution: hand proves there is none, so there are no steps to show")
    if not result.verified or result.solution is None:
        why = result.message or result.status.value
        raise UsageError(f"hand gives no verified solution to explain ({why})")
    return result


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth", "eleventh", "twelfth")


def ordinal(number: int) -> str:
    """`number` as an ordinal word (up to twelfth), else `13th` and so on.

    >>> ordinal(5), ordinal(22)
    ('fifth', '22nd')
    """
    if 1 <= number <= len(_ORDINALS):
        return _ORDINALS[number - 1]
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10,
                                                                                 "th")
    return f"{number}{suffix}"
