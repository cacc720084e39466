"""Cave, explained: the hand solver's deductions as steps a person can check on paper.

Rules: see `rules.py`. The techniques are the grader's (`generate.LEVELS`,
`generate.LEVEL_TECHNIQUES`), run by the same code: every clue's visibility
rule is `hand`'s own (`hand.build(...).clue_rules`), and the region rules are
the engine's (`search.regions`) that `hand` registers. The explainer runs
them one at a time, easiest technique first (each deduction of a harder
technique only when none of the easier ones has anything left), applies what
one rule decided as a step, and asks why: this module for the clues
(`_bounds`), `explain.regions` for the cave's shape. Because the rules and
their fixpoints are the grader's, the hardest technique the steps need is
the puzzle's level, and `--level` stops the steps exactly where the grader's
solver of that level stops.

The steps, in the techniques' order:
- bounds: every clue cell is inside (the first step); then a clue's
  visibility: it already sees its number (the next cell of each arm is
  outside), it can see no more than its number (every cell it may see is
  inside), the other arms cannot see enough (this arm sees at least k),
  one more inside cell would carry it past its number (that cell is
  outside), and otherwise the cell whose other value leaves no lengths of
  the four arms adding up to the number;
- reach: cells walled off from the cave are outside;
- articulation: the only way between two inside cells is inside;
- holes: cells enclosed by the cave are inside, the only way from an
  outside cell to the edge is outside, and no 2x2 block is a checkerboard;
- probing: an open end of a clue's arm (the cell just past what it surely
  sees) whose one value leads, by the techniques above, to a contradiction
  takes the other; the sentence gives the chain;
- branching (extreme): deduction stops; a "bifurcation" step names the
  cell, the value the refuted branch gave it and how it fails (a chain as
  for probing, or a search of the branch that finds no cave).

`hint(instance, {"inside": [...]})` takes a position with `?` for undecided
cells: the first decided cell (reading order) that no solution shares is a
`Mistake`, else the next step from there, else None.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...explain import cellwise
from ...explain.regions import (
    Found,
    Words,
    cells_text,
    checkerboard,
    checkered,
    enclosed,
    only_way,
    only_way_out,
    split,
    trapped,
    walled_off,
)
from ...explain.state import grid_state, known_cells
from ...explain.steps import (
    BIFURCATION,
    DEDUCTION,
    Explanation,
    Mistake,
    NoSolution,
    Step,
    cell_key,
    ordinal,
    solved,
)
from ...search.propagate import TRUE, UNDECIDED, Contradiction, Propagator, Store, search
from ...search.regions import NoCheckerboard, ReachesBorder, RegionConnected, blocks
from .generate import LEVEL_TECHNIQUES, LEVELS
from .hand import INSIDE, OUTSIDE, TECHNIQUES, build, choose_cell, inside_first, open_ends
from .rules import KEY, NAME, Instance, clue_cells, verify

__all__ = ["LEVELS", "ORDER", "explain", "hint", "techniques_of"]

ORDER = (*TECHNIQUES, "branching")  # every technique, easiest first
_DIRECTIONS = ("right", "down", "left", "up")  # the order of the engine's grid
_SEARCH_NODES = 200_000  # a refuted branch searched deeper than this is told as searched


def techniques_of(level: str | None) -> tuple[str, ...]:
    """The techniques of `level` (None: all, branching included), easiest first."""
    return cellwise.techniques_of(level, LEVELS, ORDER, LEVEL_TECHNIQUES)


class _Contradicted(Exception):
    """A hypothetical value failed: `found` says how (a `Found` without cells)."""

    def __init__(self, found: Found) -> None:
        super().__init__(found.reason)
        self.found = found


@dataclass(frozen=True)
class _Clue:
    cell: int
    number: int
    rule: Any  # hand's visibility rule of this clue: `arms`, `need`

    @property
    def arms(self) -> tuple[tuple[int, ...], ...]:
        return self.rule.arms


@dataclass(frozen=True)
class _Move:
    """A step before it is written: what it decides, why, and of which technique."""

    found: Found
    technique: str
    kind: str = DEDUCTION


# ---------------------------------------------------------------- words

def _is(cells: Sequence[int]) -> str:
    return "is" if len(cells) == 1 else "are"


def _a(word: str) -> str:
    """`word` with its article: `a fifth`, `an eighth`, `an 11th`."""
    return f"an {word}" if word[0] in "aeiou8" or word.startswith(("11", "18")) else f"a {word}"


def _word(mask: int) -> str:
    return "inside" if mask == INSIDE else "outside"


def _line(key: Any, cells: Sequence[int]) -> str:
    """A straight run of cells, first-last."""
    return key(cells[0]) if len(cells) == 1 else f"{key(cells[0])}-{key(cells[-1])}"


# ---------------------------------------------------------------- the clues' visibility

class _Arms:
    """One clue's arms read from the domains: `lo[d]` cells surely seen in direction d,
    `hi[d]` cells it may see there at most (up to an outside cell or the edge)."""

    def __init__(self, clue: _Clue, dom: Sequence[int]) -> None:
        self.clue, self.dom = clue, dom
        self.lo, self.hi = [], []
        for arm in clue.arms:
            k = 0
            while k < len(arm) and dom[arm[k]] == INSIDE:
                k += 1
            self.lo.append(k)
            while k < len(arm) and dom[arm[k]] != OUTSIDE:
                k += 1
            self.hi.append(k)

    def stoppers(self, skip: int | None = None) -> list[int]:
        """The outside cells that end the arms (all but arm `skip`)."""
        arms = self.clue.arms
        return [arms[d][self.hi[d]] for d in range(4)
                if d != skip and self.hi[d] < len(arms[d])]

    def seen(self, lengths: Sequence[int]) -> list[int]:
        """The cells of each arm up to `lengths[d]`."""
        return [v for d, arm in enumerate(self.clue.arms) for v in arm[:lengths[d]]]

    def span(self, key: Any, lengths: Sequence[int], skip: int | None = None) -> str:
        """The cells seen with arm lengths `lengths`, as straight runs: the row through the
        clue, then the column's parts above and below it; with `skip`, that arm and the
        clue left out and each arm named by its direction."""
        arms = self.clue.arms
        if skip is not None:
            parts = [f"{_line(key, arms[d][:lengths[d]])} {_DIRECTIONS[d]}" for d in range(4)
                     if d != skip and lengths[d]]
            return ", ".join(parts) or "nothing"
        row = [*reversed(arms[2][:lengths[2]]), self.clue.cell, *arms[0][:lengths[0]]]
        pieces = [row, list(reversed(arms[3][:lengths[3]])), list(arms[1][:lengths[1]])]
        return _names([_line(key, piece) for piece in pieces if piece])


def _names(names: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _stopped(key: Any, stoppers: Sequence[int]) -> str:
    if not stoppers:
        return "every arm runs to the edge"
    return f"{_names([key(v) for v in stoppers])} {_is(stoppers)} outside"


def _named(clue: _Clue, key: Any) -> str:
    return f"the {clue.number} at {key(clue.cell)}"


def _lengths_text(arms: _Arms) -> str:
    """The lengths each arm may have, in words: `right 0-2, down 1, left 0 or 2, up 0`."""
    parts = []
    for d, arm in enumerate(arms.clue.arms):
        cap = min(arms.hi[d], arms.clue.rule.need)
        options = [k for k in range(arms.lo[d], cap + 1)
                   if k == len(arm) or arms.dom[arm[k]] != INSIDE]
        if options and options == list(range(options[0], options[-1] + 1)) and len(options) > 2:
            text = f"{options[0]}-{options[-1]}"
        else:
            text = " or ".join(map(str, options)) or "none"
        parts.append(f"{_DIRECTIONS[d]} {text}")
    return ", ".join(parts)


def _bounds(clue: _Clue, dom: Sequence[int], changes: dict[int, int], key: Any
            ) -> Found | None:
    """Why `clue`'s visibility rule decided (some of) `changes`: the first argument, of
    the simple ones, that proves some of them; else the cell-by-cell argument."""
    arms = _Arms(clue, dom)
    for argument in (_full, _at_most, _other_arms, _overflow):
        found = argument(clue, arms, changes, key)
        if found is not None:
            return found
    return _no_lengths(clue, dom, changes, key)


def _full(clue: _Clue, arms: _Arms, changes: dict[int, int], key: Any) -> Found | None:
    """It already sees its number: the open end of each arm is outside."""
    need = clue.rule.need
    if sum(arms.lo) != need:
        return None
    cells = [arm[arms.lo[d]] for d, arm in enumerate(clue.arms)
             if arms.lo[d] < len(arm) and changes.get(arm[arms.lo[d]]) == OUTSIDE]
    if not cells:
        return None
    if clue.number == 1:
        reason = f"{_named(clue, key)} sees only itself"
    else:
        reason = (f"{_named(clue, key)} already sees {arms.span(key, arms.lo)}, and "
                  f"{_a(ordinal(clue.number + 1))} cell would exceed it")
    return Found(tuple(cells), OUTSIDE, reason, (clue.cell, *arms.seen(arms.lo)),
                 _named(clue, key))


def _at_most(clue: _Clue, arms: _Arms, changes: dict[int, int], key: Any) -> Found | None:
    """It can see no more than its number: it sees every cell it can."""
    if sum(arms.hi) != clue.rule.need:
        return None
    cells = [v for v in arms.seen(arms.hi) if changes.get(v) == INSIDE]
    if not cells:
        return None
    stoppers = arms.stoppers()
    reason = (f"{_named(clue, key)} can see no further than {arms.span(key, arms.hi)} "
              f"({_stopped(key, stoppers)}), which is {clue.number} cells, so it sees them all")
    return Found(tuple(cells), INSIDE, reason, (clue.cell, *stoppers), _named(clue, key))


def _other_arms(clue: _Clue, arms: _Arms, changes: dict[int, int], key: Any) -> Found | None:
    """The other three arms see too little: this one sees at least k cells."""
    need, total = clue.rule.need, sum(arms.hi)
    for d, arm in enumerate(clue.arms):
        others = total - arms.hi[d]
        at_least = need - others
        cells = [v for v in arm[arms.lo[d]:max(at_least, 0)] if changes.get(v) == INSIDE]
        if not cells:
            continue
        stoppers = arms.stoppers(skip=d)
        lengths = [0 if e == d else arms.hi[e] for e in range(4)]
        seen_others = arms.span(key, lengths, skip=d)
        reason = (f"{_named(clue, key)} can see at most {others} other cells "
                  f"{_except(d)} ({seen_others}; {_stopped(key, stoppers)}), so it sees at "
                  f"least {at_least} {_DIRECTIONS[d]}")
        return Found(tuple(cells), INSIDE, reason, (clue.cell, *stoppers), _named(clue, key))
    return None


def _except(d: int) -> str:
    names = [name for e, name in enumerate(_DIRECTIONS) if e != d]
    return f"{names[0]}, {names[1]} and {names[2]}"


def _overflow(clue: _Clue, arms: _Arms, changes: dict[int, int], key: Any) -> Found | None:
    """One more inside cell on an arm (with the inside cells behind it) is too many."""
    need, dom = clue.rule.need, arms.dom
    for d, arm in enumerate(clue.arms):
        j = arms.lo[d]
        if j >= len(arm) or changes.get(arm[j]) != OUTSIDE:
            continue
        end = j + 1
        while end < len(arm) and dom[arm[end]] == INSIDE:
            end += 1
        lengths = [end if e == d else arms.lo[e] for e in range(4)]
        if sum(lengths) <= need:
            continue
        reason = (f"were it inside, {_named(clue, key)} would see at least "
                  f"{sum(lengths) + 1} cells ({arms.span(key, lengths)}), more than "
                  f"{clue.number}")
        premises = (clue.cell, *arms.seen(arms.lo), *arm[j + 1:end])
        return Found((arm[j],), OUTSIDE, reason, premises, _named(clue, key))
    return None


def _read_cells(clue: _Clue, dom: Sequence[int]) -> list[int]:
    """The decided cells the visibility rule reads: each arm up to `need` + 1 cells."""
    need = clue.rule.need
    return [v for arm in clue.arms for v in arm[:need + 1] if dom[v] != UNDECIDED]


def _no_lengths(clue: _Clue, dom: Sequence[int], changes: dict[int, int], key: Any) -> Found:
    """The cell-by-cell argument: with the cell's other value the arms' lengths cannot add
    up to the number (or the cell's other value pushes a sum past it)."""
    cell = min(changes)
    mask = changes[cell]
    trial = list(dom)
    trial[cell] = mask ^ UNDECIDED
    arms = _Arms(clue, trial)
    if sum(arms.lo) > clue.rule.need:
        outcome = f"would see at least {sum(arms.lo) + 1} cells ({arms.span(key, arms.lo)})"
    elif sum(arms.hi) < clue.rule.need:
        outcome = f"could see at most {sum(arms.hi) + 1} cells ({arms.span(key, arms.hi)})"
    else:
        outcome = (f"could see {_lengths_text(arms)} cells, and no choice of these adds up "
                   f"to {clue.rule.need} besides itself")
    reason = f"were it {_word(mask ^ UNDECIDED)}, {_named(clue, key)} {outcome}"
    return Found((cell,), mask, reason, (clue.cell, *_read_cells(clue, dom)), _named(clue, key))


def _clue_fails(clue: _Clue, dom: Sequence[int], key: Any) -> Found:
    """Why `clue`'s visibility rule failed at `dom` (a contradiction)."""
    arms = _Arms(clue, dom)
    need = clue.rule.need
    if sum(arms.lo) > need:
        reason = (f"{_named(clue, key)} would see at least {sum(arms.lo) + 1} cells "
                  f"({arms.span(key, arms.lo)})")
        premises = (clue.cell, *arms.seen(arms.lo))
    elif sum(arms.hi) < need:
        stoppers = arms.stoppers()
        reason = (f"{_named(clue, key)} could see at most {sum(arms.hi) + 1} cells "
                  f"({arms.span(key, arms.hi)}; {_stopped(key, stoppers)})")
        premises = (clue.cell, *stoppers)
    else:
        reason = (f"{_named(clue, key)} could see {_lengths_text(arms)} cells, and no choice "
                  f"adds up to {need} besides itself")
        premises = (clue.cell, *_read_cells(clue, dom))
    return Found((), INSIDE, reason, premises, reason)


# ---------------------------------------------------------------- the reasoner

class _Reasoner:
    """The store of one position and the rules, run one at a time (module docstring)."""

    def __init__(self, instance: Instance,
                 truth: Callable[[], Sequence[int] | None] = lambda: None) -> None:
        model = build(instance, probe=False)
        self.instance = instance
        self.grid = grid = model.grid
        self.key = lambda v: cell_key(*grid.coords(v))
        self.words = Words(self.key)
        numbered = [(r, c, n) for r, c, n in clue_cells(instance) if n is not None]
        self.clues = [_Clue(grid.index(r, c), n, rule)
                      for (r, c, n), rule in zip(numbered, model.clue_rules, strict=True)]
        self.clue_cells = [grid.index(r, c) for r, c, _ in clue_cells(instance)]
        self.watchers: list[list[int]] = [[] for _ in range(grid.size)]
        for index, clue in enumerate(self.clues):
            for arm in clue.arms:
                for v in arm[:clue.rule.need + 1]:
                    self.watchers[v].append(index)
        self.dirty = bytearray(b"\x01" * len(self.clues))
        self.store = Store.booleans(grid.size)
        self._truth_source = truth
        self._truth: Sequence[int] | None = None
        self.reach = RegionConnected(grid, INSIDE, cuts=False)
        self.cuts = RegionConnected(grid, INSIDE, cuts=True)
        self.border = ReachesBorder(grid, OUTSIDE)
        self.blocks = [(block, NoCheckerboard(*block)) for block in blocks(grid)]
        # hand's rules by technique set, brought to the position on demand (`_mirror`)
        self._mirrors: dict[tuple[str, ...], _Mirror] = {}
        self._clue_index: dict[int, int] = {}
        self._probed = 0  # the cell of the last probe that failed
        # What each global rule decided in its last run and no step has decided yet: sound
        # then, so sound now (`_pending`); kept apart for a chain's hypothetical position.
        self._open: dict[Any, tuple[int, dict[int, int]]] = {}
        self._version = 0  # counts the positions `decide` made

    @property
    def truth(self) -> Sequence[int] | None:
        """The solution's value of every cell (asked of `hand` only when a step needs it:
        a branch to refute), or None when there is none to ask."""
        if self._truth is None:
            self._truth = self._truth_source()
        return self._truth

    @truth.setter
    def truth(self, value: Sequence[int] | None) -> None:
        """A solution known already (a hint completes the player's position first)."""
        self._truth = value

    # -- the position ----------------------------------------------------------------

    def decide(self, cells: Sequence[int], mask: int) -> None:
        self._version += 1
        for v in cells:
            self.store.restrict(v, mask)
            for index in self.watchers[v]:
                self.dirty[index] = 1

    def undecided(self) -> list[int]:
        return [v for v, m in enumerate(self.store.dom) if m == UNDECIDED]

    def _try(self, rule: Any) -> dict[int, int]:
        """What `rule` would decide now (cell -> mask), the store left as it was;
        `Contradiction` passes through."""
        store = self.store
        mark = store.mark()
        try:
            rule(store)
            return {v: store.dom[v] for v, _ in store.trail[mark:]}
        finally:
            store.undo(mark)

    # -- one step --------------------------------------------------------------------

    def clue_step(self) -> _Move | None:
        """The first step: the clue cells not yet decided are inside."""
        dom = self.store.dom
        cells = [v for v in self.clue_cells if dom[v] == UNDECIDED]
        if not cells:
            return None
        reason = ("a clue stands in it, and every clue cell is inside the cave" if len(cells) == 1
                  else "a clue stands in each, and every clue cell is inside the cave")
        return _Move(Found(tuple(cells), INSIDE, reason, tuple(cells), "a clue"), "bounds")

    def next_move(self, techniques: Sequence[str]) -> _Move | None:
        """The easiest deduction of `techniques` from the position, or None;
        `_Contradicted` when the position contradicts a rule."""
        for technique in techniques:
            finder = getattr(self, f"_{technique}")
            found = finder(techniques)
            if found is not None:
                return found if isinstance(found, _Move) else _Move(found, technique)
        return None

    def _bounds(self, techniques: Sequence[str]) -> Found | None:
        dom, dirty = self.store.dom, self.dirty
        for index, clue in enumerate(self.clues):
            if not dirty[index]:
                continue
            try:
                changes = self._try(clue.rule)
            except Contradiction:
                raise _Contradicted(_clue_fails(clue, dom, self.key)) from None
            if changes:
                return _bounds(clue, dom, changes, self.key)
            dirty[index] = 0
        return None

    def _region(self, rule: Any) -> dict[int, int]:
        try:
            return self._try(rule)
        except Contradiction:
            dom, grid = self.store.dom, self.grid
            found = (split(grid, dom, INSIDE, self.words) if isinstance(rule, RegionConnected)
                     else trapped(grid, dom, INSIDE, self.words))
            raise _Contradicted(found or self._everything("the cave's shape fails")) from None

    def _connected(self, techniques: Sequence[str]) -> dict[int, int]:
        """What the cave's connectivity decides now: with articulation allowed, one run of
        the rule with cuts (its outside cells are reach's, its inside cells the cuts')."""
        return self._pending(self.cuts if "articulation" in techniques else self.reach)

    def _pending(self, rule: Any) -> dict[int, int]:
        """What a global `rule` decides: what its last run decided that is still open
        (each run costs a pass over the grid, and its deductions stay sound as the
        position grows), else what a new run decides."""
        dom = self.store.dom
        version, changes = self._open.get(rule, (-1, {}))
        open_changes = {v: m for v, m in changes.items() if dom[v] == UNDECIDED}
        if not open_changes and version != self._version:
            open_changes = self._region(rule)
        self._open[rule] = (self._version, open_changes)
        return open_changes

    def _reach(self, techniques: Sequence[str]) -> Found | None:
        changes = {v: m for v, m in self._connected(techniques).items() if m == OUTSIDE}
        if not changes:
            return None
        found = walled_off(self.grid, self.store.dom, changes, INSIDE, self.words)
        return self._kept(found, changes)

    def _articulation(self, techniques: Sequence[str]) -> Found | None:
        changes = self._connected(techniques)  # no outside cells: reach had none
        for cell in sorted(changes):
            if changes[cell] == INSIDE:
                found = only_way(self.grid, self.store.dom, cell, INSIDE, self.words)
                return self._kept(found, {cell: INSIDE})
        return None

    def _holes(self, techniques: Sequence[str]) -> Found | None:
        dom = self.store.dom
        for block, rule in self.blocks:
            a, b, c, d = block
            if (dom[a] == UNDECIDED) + (dom[b] == UNDECIDED) + (dom[c] == UNDECIDED) + \
                    (dom[d] == UNDECIDED) != 1:
                continue  # the rule decides only a block's last cell (a position the walk
                # reaches is consistent, so a decided block is never a checkerboard)
            try:
                changes = self._try(rule)
            except Contradiction:
                found = checkered(block, dom, INSIDE, self.words)
                raise _Contradicted(found or self._everything("a block fails")) from None
            if changes:
                cell = min(changes)
                return checkerboard(block, dom, cell, changes[cell], INSIDE, self.words)
        changes = self._pending(self.border)
        for cell in sorted(changes):
            if changes[cell] == INSIDE:
                found = enclosed(self.grid, dom, [cell], INSIDE, self.words)
            else:
                found = only_way_out(self.grid, dom, cell, INSIDE, self.words)
            return self._kept(found, changes)
        return None

    def _kept(self, found: Found | None, changes: dict[int, int]) -> Found:
        """`found` cut to what the rule decided (the engine is the arbiter), or, should no
        argument fit, the rule's first cell argued from every decided cell."""
        if found is not None:
            cells = tuple(v for v in found.cells if changes.get(v) == found.mask)
            if cells:
                return Found(cells, found.mask, found.reason, found.premises, found.brief)
        cell = min(changes)
        return Found((cell,), changes[cell], "the cells decided so far force it",
                     tuple(self._decided()), "the cells decided so far")

    def _decided(self) -> list[int]:
        return [v for v, m in enumerate(self.store.dom) if m != UNDECIDED]

    def _everything(self, reason: str) -> Found:
        return Found((), INSIDE, reason, tuple(self._decided()), reason)

    # -- probing and branching ---------------------------------------------------------

    def _mirror(self, techniques: Sequence[str]) -> _Mirror:
        """`hand`'s rules of `techniques` (no probing) on a propagator of their own,
        brought to the position: a fast test of which hypothetical values fail."""
        rules = tuple(t for t in techniques if t in TECHNIQUES and t != "probing")
        mirror = self._mirrors.get(rules)
        if mirror is None:
            mirror = self._mirrors[rules] = _Mirror(self.instance, rules)
            for index, rule in enumerate(mirror.model.clue_rules):
                self._clue_index[id(rule)] = index
        mirror.sync(self.store.dom)
        return mirror

    def _probing(self, techniques: Sequence[str]) -> _Move | None:
        """The first open end, from where the last probe left off (round the clue ends in
        reading order, so each is tried again only after all the others), one of whose
        values fails."""
        dom = self.store.dom
        ends = sorted({v for clue in self.clues for v in open_ends(dom, clue.arms)[1]})
        if not ends:
            return None
        start = next((i for i, v in enumerate(ends) if v >= self._probed), 0)
        mirror = self._mirror(techniques)
        for cell in ends[start:] + ends[:start]:
            for value in inside_first(self.store, cell):
                trace = mirror.fails(cell, value)
                if trace is not None:
                    self._probed = cell
                    return self._refuted(cell, value, trace, "probing", DEDUCTION)
        return None

    def _branching(self, techniques: Sequence[str]) -> _Move | None:
        cells = self.undecided()
        if not cells or self.truth is None:
            return None
        first = choose_cell(self.store, self.grid.neighbours, [c.rule for c in self.clues])
        order = [first, *(v for v in cells if v != first)]
        mirror = self._mirror(techniques)
        for cell in order[:16]:  # a branch refuted by propagation alone, if one is near
            wrong = 1 - self.truth[cell]
            trace = mirror.fails(cell, wrong)
            if trace is not None:
                return self._refuted(cell, wrong, trace, "branching", BIFURCATION)
        return self._searched(first, 1 - self.truth[first])

    def _refuted(self, cell: int, value: int, trace: list[tuple[Any, Any]], technique: str,
                 kind: str) -> _Move:
        """`cell` takes the other value than `value`: the rules' runs from `value` to a
        contradiction (`trace`, recorded by the mirror), each explained, cut to those the
        contradiction needs."""
        mask = 1 << value
        links, failed = self._links(cell, mask, trace)
        needed = set(failed.premises)
        kept: list[Found] = []
        for link in reversed(links):
            if needed.intersection(link.cells):
                kept.append(link)
                needed.update(link.premises)
        kept.reverse()
        made = {cell} | {v for link in links for v in link.cells}
        premises = tuple(sorted(needed - made))
        said = ", ".join(f"{cells_text(link.cells, self.words, self.grid.cols)} would be "
                         f"{_word(link.mask)} ({link.brief})" for link in kept)
        said = f"{said}, and then {failed.reason}" if said else failed.reason
        reason = f"were it {_word(mask)}, {said}"
        if kind == BIFURCATION:
            reason = f"deduction stops here, so suppose it {_word(mask)}: {said}"
        return _Move(Found((cell,), mask ^ UNDECIDED, reason, premises,
                           f"were it {_word(mask)}, a contradiction"), technique, kind)

    def _links(self, cell: int, mask: int, trace: list[tuple[Any, Any]]
               ) -> tuple[list[Found], Found]:
        """Each run of `trace` explained in turn from the position with `cell` = `mask`
        (the position left as it was), and how the last run failed."""
        store = self.store
        mark = store.mark()
        links: list[Found] = []
        try:
            store.restrict(cell, mask)
            for rule, changes in trace:
                if changes is None:
                    return links, self._failure(rule)
                dom = store.dom
                open_changes = {v: m for v, m in changes if dom[v] == UNDECIDED}
                while open_changes:
                    link = self._link(rule, open_changes)
                    links.append(link)
                    for v in link.cells:
                        open_changes.pop(v, None)
                for v, m in changes:
                    store.restrict(v, m)
            return links, self._everything("the rules fail")  # not reached: it failed
        finally:
            store.undo(mark)

    def _link(self, rule: Any, changes: dict[int, int]) -> Found:
        """Why one run of a rule of `hand`'s (a mirror's) decided (some of) `changes`."""
        dom, grid, words = self.store.dom, self.grid, self.words
        kind, what = self._kind(rule)
        cell = min(changes)
        if kind == "clue":
            return self._kept(_bounds(self.clues[what], dom, changes, self.key), changes)
        if kind == "block":
            return checkerboard(what, dom, cell, changes[cell], INSIDE, words)
        if kind == "connected":
            found = (walled_off(grid, dom, [cell], INSIDE, words) if changes[cell] == OUTSIDE
                     else only_way(grid, dom, cell, INSIDE, words))
        else:
            found = (enclosed(grid, dom, [cell], INSIDE, words) if changes[cell] == INSIDE
                     else only_way_out(grid, dom, cell, INSIDE, words))
        return self._kept(found, changes)

    def _failure(self, rule: Any) -> Found:
        """How a rule of `hand`'s failed at the position."""
        dom, grid, words = self.store.dom, self.grid, self.words
        kind, what = self._kind(rule)
        if kind == "clue":
            return _clue_fails(self.clues[what], dom, self.key)
        found = {"block": lambda: checkered(what, dom, INSIDE, words),
                 "connected": lambda: split(grid, dom, INSIDE, words),
                 "border": lambda: trapped(grid, dom, INSIDE, words)}[kind]()
        return found or self._everything("the cave's rules fail")

    def _kind(self, rule: Any) -> tuple[str, Any]:
        """What a rule of `hand`'s is: a clue's (its index), a block's (its cells), or
        the cave's connectivity or the outside's way to the edge."""
        if isinstance(rule, NoCheckerboard):
            return "block", (rule.a, rule.b, rule.c, rule.d)
        if isinstance(rule, RegionConnected):
            return "connected", None
        if isinstance(rule, ReachesBorder):
            return "border", None
        return "clue", self._clue_index[id(rule)]

    def _searched(self, cell: int, value: int) -> _Move:
        """A branch that deduction alone does not refute: searched to its end by `hand`
        (every technique, and branching)."""
        model = build(self.instance)
        store = model.store
        for v, mask in enumerate(self.store.dom):
            store.restrict(v, mask)
        store.assign(cell, value)
        found = search(model.prop, choose=model.choose, order=inside_first, max_solutions=1,
                       node_limit=_SEARCH_NODES)
        mask = 1 << value
        if found.solutions:
            reason = (f"the puzzle has more than one solution, and this one takes it "
                      f"{_word(mask ^ UNDECIDED)} (the other value leads to a solution too)")
        elif found.nodes == 0:
            reason = (f"deduction stops here; supposing it {_word(mask)}, the techniques "
                      f"above, probing included, run from that guess to a contradiction")
        else:
            reason = (f"deduction stops here; supposing it {_word(mask)}, a search of "
                      f"{found.nodes} further guesses finds no cave in any case")
        premises = (*self.clue_cells, *self._decided())
        return _Move(Found((cell,), mask ^ UNDECIDED, reason, premises,
                           f"were it {_word(mask)}, no cave"), "branching", BIFURCATION)


class _Mirror:
    """`hand`'s rules of some techniques on a propagator of their own, every run of a
    rule that changed something (or failed) recorded, for `_Reasoner._refuted`."""

    def __init__(self, instance: Instance, techniques: tuple[str, ...]) -> None:
        self.model = build(instance, probe=False, techniques=techniques)
        self.store = self.model.store
        self.prop = Propagator(self.store)
        self.trace: list[tuple[Any, Any]] = []
        self.fresh = True  # its rules have not run yet
        for rule, watches, priority in self.model.rules:
            self.prop.add_rule(self._recorded(rule), watches, priority=priority)

    def _recorded(self, rule: Any) -> Any:
        trace = self.trace

        def run(store: Store) -> None:
            mark = len(store.trail)
            try:
                rule(store)
            except Contradiction:
                trace.append((rule, None))
                raise
            if len(store.trail) > mark:
                trace.append((rule, [(v, store.dom[v]) for v, _ in store.trail[mark:]]))
        return run

    def sync(self, dom: Sequence[int]) -> None:
        """The position `dom`, a fixpoint of these rules (the reasoner asks only when its
        own runs of them decide nothing more), so it is taken as it is: nothing to run
        but, the first time, every rule once."""
        self.store.dom[:] = dom
        if self.fresh:
            self.fresh = False
            self.prop.propagate()

    def fails(self, cell: int, value: int) -> list[tuple[Any, Any]] | None:
        """The recorded runs from `cell` = `value` to a contradiction, or None when the
        rules reach a fixpoint instead; the store left as it was."""
        store = self.store
        mark = store.mark()
        self.trace.clear()
        try:
            store.assign(cell, value)
            return None if self.prop.propagate() else list(self.trace)
        finally:
            store.undo(mark)


# ---------------------------------------------------------------- steps

def _step(move: _Move, reasoner: _Reasoner) -> Step:
    found, key = move.found, reasoner.key
    value = 1 if found.mask == INSIDE else 0
    cells = sorted(found.cells)
    said = f"{cells_text(cells, reasoner.words, reasoner.grid.cols)} {_is(cells)} " \
           f"{_word(found.mask)}: {found.reason}"
    premises = tuple(key(v) for v in sorted(set(found.premises)))
    return Step(move.technique, tuple((key(v), value) for v in cells), said, premises,
                move.kind)


def _walk(reasoner: _Reasoner, techniques: Sequence[str]) -> list[Step]:
    """Every step from the reasoner's position, easiest technique first."""
    steps: list[Step] = []
    move = reasoner.clue_step()
    while move is not None:
        steps.append(_step(move, reasoner))
        reasoner.decide(move.found.cells, move.found.mask)
        move = reasoner.next_move(techniques)
    return steps


def explain(instance: Instance, level: str | None = None) -> Explanation:
    """The steps from the empty grid to the solution (module docstring); `NoSolution`
    when the clues contradict each other."""
    techniques = techniques_of(level)
    reasoner = _Reasoner(instance, lambda: cellwise.truth(instance, KEY))
    try:
        steps = _walk(reasoner, techniques)
    except _Contradicted as failed:
        raise NoSolution(f"no solution: {failed.found.reason}") from None
    left = reasoner.undecided()
    summary: tuple[str, ...] = ()
    if left:
        solution = solved(instance).solution
        summary = cellwise.stopped_summary(level, techniques, len(left))
    else:
        values = [1 if m == INSIDE else 0 for m in reasoner.store.dom]
        solution = cellwise.decided_solution(instance, KEY, values, verify)
        if any(step.kind == BIFURCATION for step in steps) and not solved(instance).unique:
            summary = ("The puzzle has more than one solution; the bifurcation steps chose "
                       "this one.",)
    return Explanation(NAME, tuple(steps), solution, not left, level, ORDER, summary)


# ---------------------------------------------------------------- hints

def hint(instance: Instance, state: dict[str, Any]) -> Step | Mistake | None:
    """The first mistake of the position, else its next step, else None (module
    docstring)."""
    grid = grid_state(state, "inside", instance.rows, instance.cols, "01")
    known = known_cells(grid)
    reasoner = _Reasoner(instance)
    mistake = _mistake(instance, reasoner, known)
    if mistake is not None:
        return mistake
    truth = _completion(instance, reasoner, known)
    reasoner.truth = truth
    for (r, c), value in known.items():
        reasoner.decide([reasoner.grid.index(r, c)], 1 << value)
    move = reasoner.clue_step() or reasoner.next_move(ORDER)
    return None if move is None else _step(move, reasoner)


def _completion(instance: Instance, reasoner: _Reasoner, known: dict[tuple[int, int], int]
                ) -> list[int] | None:
    """A solution that keeps the decided cells of a position, or None when there is
    none: `hand`'s search from them."""
    model = build(instance)
    store = model.store
    try:
        for (r, c), value in known.items():
            store.assign(reasoner.grid.index(r, c), value)
    except Contradiction:
        return None
    found = search(model.prop, choose=model.choose, order=inside_first, max_solutions=1,
                   node_limit=_SEARCH_NODES)
    return list(found.solutions[0]) if found.solutions else None


def _mistake(instance: Instance, reasoner: _Reasoner, known: dict[tuple[int, int], int]
             ) -> Mistake | None:
    """The first decided cell, in reading order, after which the decided cells so far
    have no solution in common (a binary search over reading-order prefixes)."""
    order = sorted(known)
    clue_at = {(r, c) for r, c, _ in clue_cells(instance)}
    for r, c in order:
        if (r, c) in clue_at and known[(r, c)] != TRUE:
            return Mistake(cell_key(r, c), f"{cell_key(r, c)} holds a clue, so it is inside")
    if _completion(instance, reasoner, known) is not None:
        return None
    r, c = cellwise.first_mistake(order, lambda prefix: _completion(
        instance, reasoner, {cell: known[cell] for cell in prefix}) is not None)
    value = known[(r, c)]
    word = "inside" if value else "outside"
    other = "outside" if value else "inside"
    if (r, c) == order[0]:
        reason = f"{cell_key(r, c)} cannot be {word}: the clues force it {other}"
    else:
        reason = (f"{cell_key(r, c)} cannot be {word}: the clues and the cells decided "
                  f"before it in reading order force it {other}")
    return Mistake(cell_key(r, c), reason)
