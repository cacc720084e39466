"""Nurikabe, explained: the hand solver's deductions as steps, cell by cell.

Rules: see `rules.py`. The items of a step are cells (`r3c7`: 1 shaded, 0
unshaded), as the solution keys hold them. The techniques are the grader's
(`generate.LEVELS`, `LEVEL_TECHNIQUES`) run by the same code, easiest first:
`bounds` (the island bounds, the pools, the sea connected: always on), then
`reach`, `cuts`, `shapes` (a `hand` model per technique set, its rules the
engine's `search.islands` and `search.regions`), then `probing` and
`lookahead` (one and two levels of trial), then `branching`.

The first step leaves every clue cell unshaded. Then the explainer seeds a
model with the cells earlier steps decided,
propagates with the easiest technique set first and stops at the first rule
that decides a cell; that cell (and any other the same propagation decided)
is the step, of the hardest technique of the set that found it, and its
sentence names the last rules of that propagation that narrowed the cells
it decides or their labels (an island's reach, its completions, the sea, a
pool: the islands named are those that gave the cell up or took it), and
a rule of its technique first when none of those is one
(`cellwise.named`). When no rule decides another cell, a
probing step is a cell whose one value leads these rules to a contradiction;
a lookahead step one whose value does so once probing runs too. Because the
rules are the grader's, the hardest technique the steps need is the puzzle's
level, and `--level` stops the steps where that level's solver stops. When
nothing decides another cell, a "bifurcation" step takes the first undecided
cell in reading order: the other value has no solution (a search of that
branch finds none), or, in a puzzle with several answers, this one is chosen.

`hint(instance, {"shaded": [...]})` takes a position with `?` for undecided
cells: the first decided cell (reading order) after which the decided cells
have no answer in common is a `Mistake`, else the next step, else None.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...explain import cellwise
from ...explain.state import grid_state, known_cells
from ...explain.steps import (
    BIFURCATION,
    DEDUCTION,
    Explanation,
    Mistake,
    NoSolution,
    Step,
    cell_key,
    solved,
)
from ...search.propagate import IS_FALSE, IS_TRUE, UNDECIDED, Contradiction, Store, search
from .generate import LEVEL_TECHNIQUES, LEVELS
from .hand import LOOKAHEAD_TRIALS, NurikabeModel, build
from .rules import KEY, NAME, Instance, clue_cells, verify

__all__ = ["LEVELS", "ORDER", "explain", "hint", "techniques_of"]

# Every technique, easiest first; `bounds` is always on (the grader's levels name the rest).
ORDER = ("bounds", "reach", "cuts", "shapes", "probing", "lookahead", "branching")
_RULES = ("reach", "cuts", "shapes")  # the techniques that are rules (a model each)
_SEARCH_NODES = 200_000  # a refuted branch searched deeper than this is not told as refuted
_NAMED = 3  # the rules a step's sentence names: the last that narrowed its cells or labels
_SHADED, _UNSHADED = IS_TRUE, IS_FALSE
# The rules of a technique that no easier one has (by class), one of which a step of that
# technique names (`cellwise.named`); the islands' own rules serve every level.
_CAUSES = {"reach": frozenset({"_SeaReach"}), "cuts": frozenset({"CrossCut"}),
           "shapes": frozenset({"_Shapes", "_EdgeBudget", "Enclosure", "SeaSpan"})}


def techniques_of(level: str | None) -> tuple[str, ...]:
    """The techniques of `level` (None or the last level: all, branching included)."""
    return cellwise.techniques_of(level, LEVELS, ORDER, LEVEL_TECHNIQUES, always=("bounds",))


@dataclass(frozen=True)
class _Move:
    cells: tuple[int, ...]  # the cells decided, in reading order
    values: tuple[int, ...]  # 1 shaded, 0 unshaded
    technique: str
    reason: str
    premises: tuple[str, ...]
    kind: str = DEDUCTION


def _key(v: int, cols: int) -> str:
    return cell_key(*divmod(v, cols))


def _word(value: int) -> str:
    return "shaded" if value else "unshaded"


class _Walker:
    """The explanation's state: the cells known, and a model per technique set whose rules
    are watched (module docstring)."""

    def __init__(self, instance: Instance, techniques: Sequence[str]) -> None:
        self.instance = instance
        self.techniques = techniques
        self.cells = instance.rows * instance.cols
        self.known: dict[int, int] = {}  # cell -> its decided mask
        self.fired: list[tuple[Any, set[int]]] = []  # (rule, what it narrowed) per run
        self.silent = False
        self._models: dict[tuple[str, ...], NurikabeModel] = {}

    def model(self, rules: tuple[str, ...], probing: bool = False) -> NurikabeModel:
        key = (*rules, "probing") if probing else rules
        if key not in self._models:
            self._models[key] = build(self.instance, probe=probing, techniques=key,
                                      wrap=lambda rule: cellwise.Watched(rule, self))
        return self._models[key]

    def undecided(self) -> list[int]:
        return [v for v in range(self.cells) if v not in self.known]

    def _seeded(self, model: NurikabeModel) -> int:
        """Restrict `model`'s store to the known cells; the mark to undo to."""
        store = model.store
        mark = store.mark()
        for var, mask in self.known.items():
            store.restrict(var, mask)
        model.prop.schedule_all()
        return mark

    def next_move(self) -> _Move | None:
        """The next step of the techniques allowed, easiest first; None when none decides
        another cell. `NoSolution` when the known cells contradict the rules."""
        cols = self.instance.cols
        clues = [r * cols + c for r, c, _ in clue_cells(self.instance)
                 if r * cols + c not in self.known]
        if clues:
            return _Move(tuple(clues), (0,) * len(clues), "bounds",
                         f"{_cells(clues, (0,) * len(clues), cols)}: a number stands in its "
                         "island, so its cell is never shaded.",
                         tuple(_key(v, cols) for v in clues))
        levels = [()] + [tuple(_RULES[:k + 1]) for k in range(len(_RULES))
                         if _RULES[k] in self.techniques]
        for rules in levels:
            model = self.model(rules)
            store = model.store
            self.fired, self.silent = [], False
            mark = self._seeded(model)
            try:
                if not model.prop.propagate():
                    raise NoSolution("no solution: the clues contradict each other")
            except cellwise.CellFollows:
                return self._move(store, mark, rules[-1] if rules else "bounds")
            finally:
                store.undo(mark)
        for technique in ("probing", "lookahead"):
            if technique in self.techniques:
                move = self._trial(levels[-1], technique)
                if move is not None:
                    return move
        return None

    def _move(self, store: Store, mark: int, technique: str) -> _Move:
        dom, cols = store.dom, self.instance.cols
        cells = sorted({v for v, _ in store.trail[mark:] if v < self.cells
                        and v not in self.known and dom[v] != UNDECIDED})
        values = tuple(1 if dom[v] == _SHADED else 0 for v in cells)
        # A cell's label is variable cells + cell (`search.islands`).
        recent = cellwise.named(self.fired, {*cells, *(self.cells + v for v in cells)},
                                lambda rule: _said(rule, self.instance), _NAMED,
                                _CAUSES.get(technique, frozenset()))
        says = ", and ".join(words for words, _ in recent) or "the clues"
        premises = tuple(clue for _, clue in recent if clue)
        earlier = tuple(_key(v, cols) for v in sorted(self.known) if _next_to(v, cells, cols))
        reason = f"{_cells(cells, values, cols)}: {says}."
        return _Move(tuple(cells), values, technique, reason, premises + earlier)

    def _trial(self, rules: tuple[str, ...], technique: str) -> _Move | None:
        """The first frontier cell whose one value fails (`probing`: the rules; `lookahead`:
        the rules and probing), as a step deciding the other value."""
        model = self.model(rules, probing=technique == "lookahead")
        store, cols = model.store, self.instance.cols
        self.silent = True
        trials = 0
        try:
            mark = self._seeded(model)
            if not model.prop.propagate():
                raise NoSolution("no solution: the clues contradict each other")
            for v in _frontier(store, model):
                for value in (1, 0):
                    trials += 1
                    if technique == "lookahead" and trials > LOOKAHEAD_TRIALS:
                        return None
                    inner = store.mark()
                    store.assign(v, 1 if value else 0)
                    holds = model.prop.propagate()
                    store.undo(inner)
                    if not holds:
                        how = ("leads the rules to a contradiction" if technique == "probing"
                               else "leads the rules, with one level of trial, to a "
                                    "contradiction")
                        reason = (f"{_key(v, cols)} is {_word(1 - value)}: were it "
                                  f"{_word(value)}, that {how}.")
                        near = tuple(_key(w, cols) for w in sorted(self.known)
                                     if _next_to(w, (v,), cols))
                        return _Move((v,), (1 - value,), technique, reason, near)
            return None
        finally:
            store.undo(mark)
            self.silent = False

    def decide(self, move: _Move) -> None:
        for cell, value in zip(move.cells, move.values, strict=True):
            self.known[cell] = _SHADED if value else _UNSHADED

    def branch(self, truth: Sequence[int]) -> _Move:
        """The first undecided cell, its value from `truth`, the other refuted by search
        (or chosen, when the other value also has answers)."""
        cell = self.undecided()[0]
        value = truth[cell]
        refuted = _completion(self.instance, self.known,
                              (cell, _UNSHADED if value else _SHADED)) is None
        key = _key(cell, self.instance.cols)
        if refuted:
            reason = (f"{key} is {_word(value)}: were it {_word(1 - value)}, no shading "
                      "would fit the clues (a search of that branch finds none).")
        else:
            reason = (f"{key} is {_word(value)}: the puzzle has answers with it "
                      f"{_word(1 - value)} too; this one is chosen.")
        return _Move((cell,), (value,), "branching", reason, (), BIFURCATION)


def _frontier(store: Store, model: NurikabeModel) -> list[int]:
    dom, nbrs = store.dom, model.grid.neighbours
    return [v for v in range(model.grid.size)
            if dom[v] == UNDECIDED and any(dom[w] != UNDECIDED for w in nbrs[v])]


def _cells(cells: Sequence[int], values: Sequence[int], cols: int) -> str:
    parts = []
    for value in (1, 0):
        named = [_key(v, cols) for v, x in zip(cells, values, strict=True) if x == value]
        if named:
            parts.append(f"{', '.join(named)} {'is' if len(named) == 1 else 'are'} "
                         f"{_word(value)}")
    return " and ".join(parts)


def _next_to(v: int, cells: Sequence[int], cols: int) -> bool:
    r, c = divmod(v, cols)
    return any(abs(r - rr) + abs(c - cc) == 1 for rr, cc in (divmod(w, cols) for w in cells))


def _said(rule: Any, instance: Instance) -> tuple[str, str]:
    """What a rule says, and the clue it reads (a premise, or "")."""
    name = type(rule).__name__
    if name in ("_Island", "_Shapes"):
        r, c = divmod(rule.cell, instance.cols)
        clue = cell_key(r, c)
        number = "?" if rule.number is None else rule.number
        if name == "_Shapes":
            return f"every way to complete the island of the {number} at {clue}", clue
        return (f"the island of the {number} at {clue} (what it still needs, can reach and "
                "cannot do without)"), clue
    return {
        "NoUniformBlock": ("no 2x2 block is all shaded", ""),
        "RegionConnected": ("the shaded cells form one connected region", ""),
        "_SeaSize": ("the islands take as many cells as their numbers say, the rest "
                     "is shaded", ""),
        "_SeaReach": ("the few shaded cells the numbers leave are connected, so a cell "
                      "too far from the shaded ones for the shaded cells still to place "
                      "in its part of the grid is unshaded", ""),
        "_EdgeBudget": ("islands this large are compact, so the shaded cells touch the "
                        "grid's edge and close loops only so often, and each island "
                        "stays within a box its number nearly fills", ""),
        "Enclosure": ("where two islands touch at a corner, a loop of shaded cells "
                      "goes round one of them, and the shaded cells are too few for a "
                      "loop round many cells: it goes round only so large a box, which "
                      "holds the island inside", ""),
        "SeaSpan": ("the shaded cells must reach one line past each side of an "
                    "island's box that is not the grid's edge, and shaded cells "
                    "spanning w columns and h rows are w + h - 1 at least: so few "
                    "keep the island to a box near a corner", ""),
        "CrossCut": ("an island may not cut the shaded cells apart: its land reaching "
                     "that cell across the undecided ones would leave shaded cells on "
                     "both sides with no way round", ""),
        "_Link": ("unshaded neighbours share their island, and a cell no island can "
                  "take is shaded", ""),
    }.get(name, ("the clues and the cells decided so far leave one way", ""))


def _step(move: _Move, instance: Instance) -> Step:
    cols = instance.cols
    decided = tuple((_key(v, cols), value)
                    for v, value in zip(move.cells, move.values, strict=True))
    return Step(move.technique, decided, move.reason, tuple(dict.fromkeys(move.premises)),
                move.kind)


def explain(instance: Instance, level: str | None = None) -> Explanation:
    """The steps from the empty grid to the solution (module docstring); `NoSolution`
    when the clues have none."""
    techniques = techniques_of(level)
    walker = _Walker(instance, techniques)
    steps = cellwise.walk(walker, cellwise.truth(instance, KEY), "branching" in techniques, _step)
    left = walker.undecided()
    summary: tuple[str, ...] = ()
    if left:
        solution = solved(instance).solution
        summary = cellwise.stopped_summary(level, techniques, len(left))
    else:
        values = [1 if walker.known[v] == _SHADED else 0 for v in range(walker.cells)]
        solution = cellwise.decided_solution(instance, KEY, values, verify)
    return Explanation(NAME, tuple(steps), solution, not left, level, ORDER, summary)


# ---------------------------------------------------------------- hints

def hint(instance: Instance, state: dict[str, Any]) -> Step | Mistake | None:
    """The first mistake of the position, else its next step, else None (module
    docstring)."""
    grid = grid_state(state, "shaded", instance.rows, instance.cols, "01")
    known = {r * instance.cols + c: _SHADED if value else _UNSHADED
             for (r, c), value in known_cells(grid).items()}
    mistake = _mistake(instance, known)
    if mistake is not None:
        return mistake
    walker = _Walker(instance, ORDER)
    walker.known.update(known)
    if not walker.undecided():
        return None
    move = walker.next_move()
    if move is None:
        completion = _completion(instance, known)
        truth = completion if completion is not None else cellwise.truth(instance, KEY)
        move = walker.branch(truth)
    return _step(move, instance)


def _completion(instance: Instance, known: dict[int, int],
                trial: tuple[int, int] | None = None) -> list[int] | None:
    """An answer (1 shaded, 0 not, per cell) that keeps the decided cells, and `trial` (a
    cell and its mask) when given, or None.

    As `hand` solves: the root settled (the known cells are its assumptions, so what its
    lookahead learns holds in every answer that keeps them), then a search whose nodes
    probe once, near their decision. The trial comes after the root. Why: some of
    hand's rules are not monotone (the cross-cut rule reads the undecided regions as it
    finds them, the lookahead stops at its budget), so the known cells can settle a cell
    that the same rules do not refute when its other value is there from the start: on
    683_14x24 of the janko.at corpus each such refutation searched 700 to 41,000 nodes,
    and the explanation took more than 5 minutes."""
    model = build(instance)
    store = model.store
    try:
        for var, mask in known.items():
            store.restrict(var, mask)
        if not model.settle():
            return None
        if trial is not None:
            store.restrict(*trial)
    except Contradiction:
        return None
    model.enter_search()
    found = search(model.prop, choose=model.choose, order=model.order, max_solutions=1,
                   node_limit=_SEARCH_NODES)
    if not found.solutions:
        return None
    return list(found.solutions[0][:instance.rows * instance.cols])


def _mistake(instance: Instance, known: dict[int, int]) -> Mistake | None:
    """The first decided cell, in reading order, after which the decided cells so far
    have no answer in common (a binary search over reading-order prefixes)."""
    if _completion(instance, known) is not None:
        return None
    order = sorted(known)
    v = cellwise.first_mistake(order, lambda prefix: _completion(
        instance, {w: known[w] for w in prefix}) is not None)
    key = _key(v, instance.cols)
    word = "shaded" if known[v] == _SHADED else "unshaded"
    return Mistake(key, f"{key} is not {word} in any answer that keeps the cells decided "
                        "before it.")

