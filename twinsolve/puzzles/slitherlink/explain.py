"""Slitherlink, explained: the hand solver's deductions as steps, cell by cell.

Rules: see `rules.py`. The items of a step are cells (`r3c7`: 1 inside the
loop, 0 outside), as the solution keys hold them; the loop's sides are how a
person gets there, so each step's sentence says which rule fixed which
sides, and the cells follow: a cell is on the other side of the loop from
its neighbour exactly where the side between them is on, and the cells past
the grid's edge are outside.

The techniques are the grader's (`generate.LEVELS`, `LEVEL_TECHNIQUES`: counts,
loop, patterns, corners, colours, probing, then branching), run by the same
code: a `hand.SlitherModel` per technique level, its rules the engine's
(tables, the loop rule, `search.regions`, probing). The explainer seeds a
model with what earlier steps found, propagates with the easiest level first,
and stops at the first rule that makes a cell follow; that cell (and any
other the same rule settled) is the step, of the hardest technique of the
level that found it, and its sentence names the last rules of that
propagation that fixed one of its cells' sides or corner parities, and a
rule of its technique first when none of those is one (`cellwise.named`).
Because the rules and their fixpoints are the grader's, the hardest
technique the steps need is the puzzle's level, and `--level` stops the
steps where that level's solver stops. When no level settles another cell,
a "bifurcation" step takes the first undecided cell in reading order: the
other value leaves no loop (a search of that branch finds none), or, in a
puzzle with several answers, this one is chosen.

`hint(instance, {"inside": [...]})` takes a position with `?` for undecided
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
from ...search.propagate import (
    IS_FALSE,
    IS_TRUE,
    UNDECIDED,
    Contradiction,
    Propagator,
    Store,
    search,
)
from .generate import LEVEL_TECHNIQUES, LEVELS
from .hand import TECHNIQUES, SideLayout, SlitherModel, build, on_first
from .rules import KEY, NAME, Instance, clue_cells, verify

__all__ = ["LEVELS", "ORDER", "explain", "hint", "techniques_of"]

ORDER = (*TECHNIQUES, "branching")  # every technique, easiest first
_SEARCH_NODES = 200_000  # a refuted branch searched deeper than this is not told as refuted
_NAMED = 3  # the rules a step's sentence names: the last to fix its cells' sides, corners
# The rules of a technique that no easier one has (by class), one of which a step of that
# technique names (`cellwise.named`); the tables serve counts, patterns and corners alike.
_CAUSES = {"patterns": frozenset({"_Patterns"}), "loop": frozenset({"_AllPaths"}),
           "probing": frozenset({"_Probe"}),
           "colours": frozenset({"_Xor", "_ColourClasses", "RegionConnected",
                                 "ReachesBorder"})}
# What each kind of rule says, by the rule's class (`hand`'s and the engine's names).
_SAYS = {
    "_ClueTable": "the {clue} at {cell} counts its sides on the loop",
    "_Table": "two loop sides or none meet at each point",
    "_Patterns": "a pattern of the clues settles sides at once (two 3s side by side or "
                 "corner to corner, or a clue in a corner of the grid)",
    "_AllPaths": "the loop is one loop: no path of it may close before the answer",
    "_Xor": "a side is on the loop exactly where its two cells differ",
    "_ColourClasses": "cells joined by sides on the loop (other colour) and off it (same "
                      "colour) are classes of known colour difference",
    "RegionConnected": "the inside is one connected region",
    "ReachesBorder": "every outside cell reaches the edge through outside cells",
}


def techniques_of(level: str | None) -> tuple[str, ...]:
    """The techniques of `level` (None: all, branching included), easiest first."""
    return cellwise.techniques_of(level, LEVELS, ORDER, LEVEL_TECHNIQUES)


class _Colour:
    """Bookkeeping, not a technique: a cell is settled from a settled neighbour (or the
    edge) and the side between them. It never settles a side, so an easy level's steps
    use only the easy level's deductions about the loop."""

    __slots__ = ("cell", "links")

    def __init__(self, cell: int, links: Sequence[tuple[int, int | None]]) -> None:
        self.cell, self.links = cell, tuple(links)  # (side, the cell across it or None)

    def __call__(self, store: Store) -> None:
        dom = store.dom
        if dom[self.cell] != UNDECIDED:
            return
        for side, other in self.links:
            across = IS_FALSE if other is None else dom[other]
            if dom[side] != UNDECIDED and across != UNDECIDED:
                store.restrict(self.cell, across if dom[side] == IS_FALSE else across ^ UNDECIDED)
                return


class _Patterns:
    """What the clues' patterns fix as a level's propagation begins (`SlitherModel.start`,
    not a rule), noted in `_Walker.fired` as a rule's run is, so a step names it too."""


@dataclass(frozen=True)
class _Move:
    cells: tuple[int, ...]  # the cells settled, in reading order
    values: tuple[int, ...]
    technique: str
    reason: str
    premises: tuple[str, ...]
    kind: str = DEDUCTION


class _Walker:
    """The explanation's state: what is known of every variable, and a propagator per
    technique level over a `hand` model of that level (module docstring)."""

    def __init__(self, instance: Instance, techniques: Sequence[str]) -> None:
        self.instance = instance
        self.levels = [t for t in techniques if t != "branching"]
        self.branching = "branching" in techniques
        self.known: dict[int, int] = {}  # variable -> its decided mask
        self.cells = instance.rows * instance.cols
        self.layout = SideLayout(instance.rows, instance.cols)
        # The runs that settled something, this propagation: (rule, what it narrowed)
        self.fired: list[tuple[Any, set[int]]] = []
        self.silent = False  # `cellwise.Watched`: this walker always watches
        self._models: dict[int, tuple[SlitherModel, Propagator]] = {}

    def _model(self, k: int) -> tuple[SlitherModel, Propagator]:
        """The model of the first k+1 techniques, its rules watched, and colour bookkeeping."""
        if k not in self._models:
            model = build(self.instance, ("counts", *self.levels[:k + 1]))
            prop = Propagator(model.store)
            # The model's rules one priority later, its probing last: the colour
            # bookkeeping (priority 0) settles a cell as soon as its side is known, so
            # the rules a step names are those that just fixed that side.
            rules = [(rule, watches, priority + 1) for rule, watches, priority
                     in model.rule_list]
            if model.probe is not None:
                rules.append((model.probe, None, max(p for _, _, p in rules) + 1))
            layout = self.layout
            for r in range(layout.rows):
                for c in range(layout.cols):
                    links = _links(layout, r, c)
                    watched = [v for link in links for v in link if v is not None]
                    rules.append((_Colour(layout.cell(r, c), links), watched, 0))
            for rule, watches, priority in rules:
                prop.add_rule(cellwise.Watched(rule, self, not isinstance(rule, _Colour)),
                              watches, priority=priority)
            if model.probe is not None:
                model.probe.first_only = True  # one failed trial a step
            self._models[k] = model, prop
        return self._models[k]

    def undecided(self) -> list[int]:
        return [v for v in range(self.cells) if v not in self.known]

    def next_move(self) -> _Move | None:
        """The next step: the easiest level that settles a cell, its first cell-settling
        rule; None when no level settles another cell."""
        for k in range(len(self.levels)):
            model, prop = self._model(k)
            store = model.store
            mark = store.mark()
            self.fired = []
            try:
                for var, mask in self.known.items():
                    if var < len(store):
                        store.restrict(var, mask)
                before = store.mark()
                if not model.start():
                    raise Contradiction
                if store.mark() > before:  # what the patterns fixed, told like a rule's
                    self.fired.append((_Patterns(), {v for v, _ in store.trail[before:]}))
                prop.schedule_all()
                if not prop.propagate():
                    raise Contradiction
            except cellwise.CellFollows:
                return self._move(store, mark, self.levels[k])
            except Contradiction:
                raise NoSolution("no solution: the clues contradict each other") from None
            finally:
                self._note(store, mark)
                store.undo(mark)
        return None

    def _note(self, store: Store, mark: int) -> None:
        """Keep the sides and diagonals settled since `mark` (sound: they hold in every
        answer); cells become known only through steps."""
        for var, _ in store.trail[mark:]:
            if var >= self.cells and store.dom[var] != UNDECIDED:
                self.known.setdefault(var, store.dom[var])

    def _move(self, store: Store, mark: int, technique: str) -> _Move:
        dom = store.dom
        cells = sorted(v for v, _ in store.trail[mark:] if v < self.cells
                       and v not in self.known and dom[v] != UNDECIDED)
        values = tuple(1 if dom[v] == IS_TRUE else 0 for v in cells)
        # What bears on a cell: its sides, and its corners' parities (with `corners`).
        layout = self.layout
        bearing = set(cells)
        for v in cells:
            r, c = divmod(v, self.instance.cols)
            bearing.update(layout.cell_sides(r, c), layout.cell_corners(r, c))
        recent = cellwise.named(self.fired, bearing, lambda rule: _said(rule, self.instance),
                                _NAMED, _CAUSES.get(technique, frozenset()))
        if recent:
            says = (", and ".join(words for words, _ in recent)
                    + ", which fixes the loop's sides here")
        else:
            says = self._link(store, cells[0])
        premises = tuple(cell for _, clue in recent for cell in clue)
        cols = self.instance.cols
        parts = []
        for value, word in ((1, "inside"), (0, "outside")):
            named = [cell_key(*divmod(v, cols)) for v, x in zip(cells, values, strict=True)
                     if x == value]
            if named:
                parts.append(f"{', '.join(named)} {'is' if len(named) == 1 else 'are'} {word}")
        reason = (f"{' and '.join(parts)}: {says}; a cell is across the loop from its "
                  "neighbour exactly where the side between them is on.")
        earlier = tuple(cell_key(*divmod(v, cols)) for v in sorted(self.known)
                        if v < self.cells and _next_to(v, cells, cols))
        return _Move(tuple(cells), values, technique, reason, premises + earlier)

    def _link(self, store: Store, cell: int) -> str:
        """Why `cell` follows when no rule of this propagation (nor the patterns) fixed its
        sides: one of them was known before, and so was the cell across it (or the grid's
        edge): the link the colour bookkeeping (`_Colour`) took."""
        dom = store.dom
        for side, other in _links(self.layout, *divmod(cell, self.instance.cols)):
            if dom[side] == UNDECIDED or (other is not None and dom[other] == UNDECIDED):
                continue
            state = "on" if dom[side] == IS_TRUE else "off"
            if other is None:
                return (f"its side on the grid's edge is {state} the loop (found before), and "
                        "past the edge is outside")
            key = cell_key(*divmod(other, self.instance.cols))
            across = "inside" if dom[other] == IS_TRUE else "outside"
            return (f"its side toward {key} is {state} the loop (found before), and {key} "
                    f"is {across}")
        return _SAYS["_Table"]  # not met: a cell follows from a side and the cell across

    def decide(self, move: _Move) -> None:
        for cell, value in zip(move.cells, move.values, strict=True):
            self.known[cell] = IS_TRUE if value else IS_FALSE

    def branch(self, truth: Sequence[int]) -> _Move:
        """The first undecided cell, its value from `truth`, the other refuted by search
        (or chosen, when the other value also has answers)."""
        cell = self.undecided()[0]
        value = truth[cell]
        model = build(self.instance)
        store = model.store
        other = "inside" if not value else "outside"
        key = cell_key(*divmod(cell, self.instance.cols))
        try:
            for var, mask in {**self.known, cell: IS_FALSE if value else IS_TRUE}.items():
                store.restrict(var, mask)
            refuted = not model.start() or not search(
                model.prop, choose=model.choose, order=on_first, max_solutions=1,
                node_limit=_SEARCH_NODES).solutions
        except Contradiction:
            refuted = True
        if refuted:
            reason = (f"{key} is {'inside' if value else 'outside'}: were it {other}, no loop "
                      "would fit the clues (a search of that branch finds none).")
        else:
            reason = (f"{key} is {'inside' if value else 'outside'}: the puzzle has answers "
                      f"with it {other} too; this one is chosen.")
        return _Move((cell,), (value,), "branching", reason, (), BIFURCATION)


def _links(layout: SideLayout, r: int, c: int) -> list[tuple[int, int | None]]:
    """Cell (r, c)'s sides, each with the cell across it (None past the grid's edge)."""
    top, right, bottom, left = layout.cell_sides(r, c)
    return [(top, layout.cell(r - 1, c)), (right, layout.cell(r, c + 1)),
            (bottom, layout.cell(r + 1, c)), (left, layout.cell(r, c - 1))]


def _next_to(v: int, cells: Sequence[int], cols: int) -> bool:
    r, c = divmod(v, cols)
    return any(abs(r - rr) + abs(c - cc) == 1 for rr, cc in (divmod(w, cols) for w in cells))


def _said(rule: Any, instance: Instance) -> tuple[str, tuple[str, ...]]:
    """What a rule says, and the clue it reads (a premise)."""
    name = type(rule).__name__
    if name == "_ClueTable":
        r, c, clue = clue_cells(instance)[rule.index]
        return _SAYS[name].format(clue=clue, cell=cell_key(r, c)), (cell_key(r, c),)
    if name == "_Probe" and rule.failed is not None:
        side, value = rule.failed
        (r1, c1), (r2, c2) = SideLayout(instance.rows, instance.cols).side_ends(side)
        state = ("on", "off") if value else ("off", "on")
        return (f"the side from point ({r1}, {c1}) to ({r2}, {c2}) {state[0]} the loop leads, "
                f"by the rules above, to a contradiction, so it is {state[1]}"), ()
    return _SAYS.get(name, "the clues and the cells decided so far leave one way"), ()


def _step(move: _Move, instance: Instance) -> Step:
    cols = instance.cols
    decided = tuple((cell_key(*divmod(v, cols)), value)
                    for v, value in zip(move.cells, move.values, strict=True))
    return Step(move.technique, decided, move.reason, tuple(dict.fromkeys(move.premises)),
                move.kind)


def explain(instance: Instance, level: str | None = None) -> Explanation:
    """The steps from the empty grid to the solution (module docstring); `NoSolution`
    when the clues have none."""
    techniques = techniques_of(level)
    walker = _Walker(instance, techniques)
    steps = cellwise.walk(walker, cellwise.truth(instance, KEY), walker.branching, _step)
    left = walker.undecided()
    summary: tuple[str, ...] = ()
    if left:
        solution = solved(instance).solution
        summary = cellwise.stopped_summary(level, techniques, len(left))
    else:
        values = [1 if walker.known[v] == IS_TRUE else 0 for v in range(walker.cells)]
        solution = cellwise.decided_solution(instance, KEY, values, verify)
    return Explanation(NAME, tuple(steps), solution, not left, level, ORDER, summary)


# ---------------------------------------------------------------- hints

def hint(instance: Instance, state: dict[str, Any]) -> Step | Mistake | None:
    """The first mistake of the position, else its next step, else None (module
    docstring)."""
    grid = grid_state(state, "inside", instance.rows, instance.cols, "01")
    known = known_cells(grid)
    mistake = _mistake(instance, known)
    if mistake is not None:
        return mistake
    walker = _Walker(instance, ORDER)
    for (r, c), value in known.items():
        walker.known[r * instance.cols + c] = IS_TRUE if value else IS_FALSE
    if not walker.undecided():
        return None
    move = walker.next_move()
    if move is None:
        move = walker.branch(_completion(instance, known) or cellwise.truth(instance, KEY))
    return _step(move, instance)


def _completion(instance: Instance, known: dict[tuple[int, int], int]) -> list[int] | None:
    """An answer that keeps the decided cells of a position (its cells), or None."""
    model = build(instance)
    store = model.store
    try:
        for (r, c), value in known.items():
            store.restrict(r * instance.cols + c, IS_TRUE if value else IS_FALSE)
        if not model.start():
            return None
    except Contradiction:
        return None
    found = search(model.prop, choose=model.choose, order=on_first, max_solutions=1,
                   node_limit=_SEARCH_NODES)
    if not found.solutions:
        return None
    return list(found.solutions[0][:instance.rows * instance.cols])


def _mistake(instance: Instance, known: dict[tuple[int, int], int]) -> Mistake | None:
    """The first decided cell, in reading order, after which the decided cells so far
    have no answer in common (a binary search over reading-order prefixes)."""
    order = sorted(known)
    if _completion(instance, known) is not None:
        return None
    r, c = cellwise.first_mistake(order, lambda prefix: _completion(
        instance, {cell: known[cell] for cell in prefix}) is not None)
    word = "inside" if known[(r, c)] else "outside"
    other = "outside" if known[(r, c)] else "inside"
    before = "" if (r, c) == order[0] else " and the cells decided before it in reading order"
    return Mistake(cell_key(r, c), f"{cell_key(r, c)} cannot be {word}: the clues{before} "
                   f"force it {other}")
