"""Explanations whose items are the cells of a grid answer key (`core.clue_grid.AnswerKey`).

Rules. A step decides cells (`r3c7`: 1 in, 0 out); the explanation runs
until no technique of the level decides another cell; branching, where the
level has it, takes the first undecided cell the verified answer (`truth`)
decides; the cells decided at the end are the answer, checked by the
puzzle's `verify` (every deduction is sound, so a failure is the
explainer's fault, said as such). A hint's mistake is the first decided
cell in reading order after which the decided cells have no answer in
common: a binary search over reading-order prefixes.

A step's sentence names the rules that narrowed the variables of its own
cells (`named`), not every rule that narrowed something in the propagation
that found it: that propagation starts afresh from the known cells, so most
of what it does is elsewhere on the grid.

The idea: what the puzzles' explainers share, the frame around their own
reasoning, is here once; each puzzle's `explain.py` keeps its techniques
and its sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from typing import Any, Protocol, TypeVar

from ..core.clue_grid import AnswerKey, ClueGrid
from ..search.propagate import Store
from .steps import Step, solved

__all__ = ["techniques_of", "truth", "walk", "stopped_summary", "decided_solution",
           "first_mistake", "named", "Watched", "CellFollows"]

T = TypeVar("T")


def techniques_of(level: str | None, levels: Sequence[str], order: tuple[str, ...],
                  level_techniques: Mapping[str, Sequence[str]],
                  always: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The techniques of `level` (None or the last level: all of `order`, branching
    included), easiest first; `always` are on at every level."""
    if level is None or level == levels[-1]:
        return order
    return tuple(t for t in order if t in always or t in level_techniques[level])


def truth(instance: ClueGrid, key: AnswerKey) -> list[int]:
    """Every cell's value in the verified `hand` solution (`NoSolution` when none)."""
    return [int(cell) for row in key.grid(solved(instance).solution) for cell in row]


class Walker(Protocol):
    instance: Any

    def undecided(self) -> list[int]: ...
    def next_move(self) -> Any: ...
    def branch(self, truth: Sequence[int]) -> Any: ...
    def decide(self, move: Any) -> None: ...


def walk(walker: Walker, truth: Sequence[int] | None, branching: bool,
         step: Callable[[Any, Any], Step]) -> list[Step]:
    """Every step from the walker's position: its next move while it has one, then (with
    `branching` and a `truth`) a branch on the answer, until no cell is undecided."""
    steps: list[Step] = []
    while walker.undecided():
        move = walker.next_move()
        if move is None:
            if not branching or truth is None:
                break
            move = walker.branch(truth)
        steps.append(step(move, walker.instance))
        walker.decide(move)
    return steps


def stopped_summary(level: str | None, techniques: Sequence[str], left: int) -> tuple[str, ...]:
    """What an explanation that stops before the answer says."""
    return (f"With the {level} techniques ({', '.join(techniques)}) deduction stops here: "
            f"{left} cells are still undecided.",)


def decided_solution(instance: ClueGrid, key: AnswerKey, values: Sequence[int],
                     verify: Callable[[Any, Any], list[str]]) -> dict[str, list[str]]:
    """The cells the steps decided (1 in, 0 out, row-major) as a solution that passes
    `verify` (they are sound, so it does; a failure is the explainer's fault)."""
    cols = instance.cols
    solution = key.solution(values[r * cols:(r + 1) * cols] for r in range(instance.rows))
    problems = verify(instance, solution)
    if problems:
        raise AssertionError(f"{instance.PUZZLE} explanation decided a wrong grid: "
                             f"{problems[0]}")
    return solution


def first_mistake(order: Sequence[T], has_answer: Callable[[Sequence[T]], bool]) -> T:
    """The first item of `order` after which its prefix has no answer, when the whole of it
    has none (a binary search over the prefixes: the empty one has an answer)."""
    low, high = 0, len(order)  # prefix `low` has an answer, prefix `high` none
    while high - low > 1:
        middle = (low + high) // 2
        if has_answer(order[:middle]):
            low = middle
        else:
            high = middle
    return order[high - 1]


def named(fired: Sequence[tuple[Any, Set[int]]], variables: Set[int],
          say: Callable[[Any], T], limit: int, causes: Set[str] = frozenset()) -> list[T]:
    """What a step's sentence names (module docstring), each said once by `say`: the last
    `limit` of the rules of `fired` (each with the variables it narrowed, in the order
    they ran) that narrowed one of `variables` (the step's cells and what decides them).
    And when none of them is of a class in `causes` (the rules of the step's technique),
    the last rule of those that ran comes first: the propagation one technique easier
    settled no cell, so the step needs what one of them found, even where that was not
    the cells' own variables."""
    bearing = [rule for rule, narrowed in fired if not variables.isdisjoint(narrowed)]
    said = list(dict.fromkeys(say(rule) for rule in bearing))[-limit:]
    if causes and not any(type(rule).__name__ in causes for rule in bearing):
        cause = next((rule for rule, _ in reversed(fired) if type(rule).__name__ in causes),
                     None)
        if cause is not None:
            first = say(cause)
            others = [words for words in said if words != first]
            said = [first, *others[max(len(others) - limit + 1, 0):]]
    return said


class CellFollows(Exception):
    """A watched rule's run decided a cell that was not known (`Watched`): the step."""

    def __init__(self, rule: Any) -> None:
        super().__init__()
        self.rule = rule


class Watching(Protocol):
    cells: int  # the variables below this are the cells
    fired: list[tuple[Any, set[int]]]  # each noted run: (rule, what it narrowed)
    silent: bool  # trying a value: nothing noted, nothing raised


class Watched:
    """A rule a walker watches: a run that narrowed anything is noted in its `fired` with
    the variables it narrowed (unless `noted` is False: bookkeeping no sentence names), and
    a run that decided a cell raises `CellFollows`; neither while the walker is `silent`."""

    __slots__ = ("rule", "walker", "noted")

    def __init__(self, rule: Any, walker: Watching, noted: bool = True) -> None:
        self.rule, self.walker, self.noted = rule, walker, noted

    def __call__(self, store: Store) -> None:
        before = len(store.trail)
        self.rule(store)
        walker = self.walker
        if len(store.trail) == before or walker.silent:
            return
        narrowed = {v for v, _ in store.trail[before:]}
        if self.noted:
            walker.fired.append((self.rule, narrowed))
        cells = walker.cells
        if any(v < cells for v in narrowed):
            raise CellFollows(self.rule)
