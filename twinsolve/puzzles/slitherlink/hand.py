"""Slitherlink, the `hand` back-end: propagation to a fixpoint plus depth-first branching.

Rules (see `twinsolve.puzzles.slitherlink.rules`): one loop along the grid's
lines, two or no loop sides at every point, each clue the number of its
cell's sides on the loop.

The idea. The loop is the boundary between the inside and the outside cells
(past the grid's edge: outside), so there are three kinds of Boolean
variables on the engine's `Store`, each with rules on its `Propagator`:

- a side per cell side (`TRUE`: on the loop), in `SideLayout`'s numbering;
- a cell per cell (`TRUE`: inside the loop), the store's first variables,
  as the engine's region rules (`search.regions`) want them;
- two diagonals per grid point: the four cells around a point pair up
  across it (NW with SE, NE with SW), and a diagonal is TRUE when its two
  cells differ. A cell's corner at a point (its two sides there) has odd
  parity, one side on the loop, exactly when the diagonal it is not on is
  TRUE: the corner parity of a cell and of the cell facing it across the
  point is one variable, which is how a corner deduction travels diagonally.

The rule families, each a technique (`TECHNIQUES`), cheapest first:

- counts: a clue's four sides hold exactly its number (a 0 clears them, a
  full count clears the rest, a short count fills them); two or no loop
  sides meet at every point.
- loop: the single-loop closure rule. The sides on the loop so far form
  paths; a side that would join a path's two ends closes a loop, so it is
  off unless that loop would be the whole answer (no other side on, every
  clue met). A closed loop with other sides on is a contradiction, and a
  closed loop that is the answer turns every other side off. One run reads
  every side and walks each path once (`_AllPaths`), after the local rules.
- patterns: what a clue layout settles before anything else, as players
  learn it: two adjacent 3s (their shared side, their far sides on, the
  shared side's line off beyond it; unless the loop round just the two is
  the answer, the one exception), two diagonal 3s, alone or with 2s between
  them (their outer corners on), and clues in a corner of the grid (a 1 has
  both corner sides off, a 3 both on, a 2 the grid-edge sides of its two
  neighbours on).
- corners: each point's rule and each clue's rule read the diagonals too:
  every combination of a point's sides (none, or two) fixes its two
  diagonals, and every combination of a clue's sides fixes its four corner
  parities, so each rule keeps exactly the values some allowed combination
  has (a table constraint, its answers cached per domain state). This is
  the general form of the corner rules: a 3 whose corner is even has both
  sides there on, a 1 both off; a 1 or 3 with one odd corner has the
  opposite corner even, a 2 the opposite corner of the same parity; a
  line entering a clue's corner decides the corner's parity.
- colours: the inside / outside colouring. A side is on exactly when its
  two cells differ and a diagonal is TRUE when its two cells do (XOR rules);
  cells joined by decided sides and diagonals form classes of known colour
  difference (`_ColourClasses`, a union-find with parity rebuilt per run), so
  a side or diagonal between two cells of one class is decided, and a clash
  is a contradiction; and the inside is one region without holes: the
  engine's region rules, `RegionConnected` (inside cells connected, cells
  that reach none are outside, articulation points between inside cells
  are inside) and `ReachesBorder` (outside cells reach the edge, and the cut
  vertices between an outside cell and the edge are outside). Two or no
  sides at a point already forbid a checkerboard 2x2, so `NoCheckerboard`
  is left out.
- probing: failed-literal probing (`_Probe`, a rule run after every other at
  their fixpoint): each undecided side, those at the ends of the paths
  first, is tried on and off with the cheap rules only (tables, XORs, and
  the loop rule on the paths the trial touched), on a second `Propagator`
  over the same store; a value whose trial fails is removed. The other
  global rules stay out of the trials: each costs a pass over the grid per
  trial, for few deductions the cheap rules miss (measured on every 10th
  janko.at puzzle: with the region rules in the trials 2 more of 59 settle
  without branching, at two to three times the time; with the colour
  classes none more).

Branching (`choose`): an undecided side at the end of a path (the loop must
go on there one way or another), on first; else the first undecided side.
`nodes` counts values tried at branching points; with `limits.unique` the
search goes on to a second solution, with `limits.count` to the end. Every
sound rule keeps the solution count exact.

Why it is complete. With every side decided, the colouring follows from
the sides (XOR from the border inwards), two or none meet at each point,
the inside is connected and the outside reaches the border, so the sides
are the boundary of one region without holes or pinch points: one loop.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ...core.limits import Limits
from ...core.result import Result, Stopwatch
from ...search.branching import check_probe_option, solve_by_search
from ...search.grid import Grid
from ...search.propagate import (
    FALSE,
    IS_FALSE,
    IS_TRUE,
    TRUE,
    UNDECIDED,
    Contradiction,
    Propagator,
    Rule,
    Store,
)
from ...search.regions import GLOBAL_PRIORITY, ReachesBorder, RegionConnected
from .rules import Instance, clue_cells, solution_from_inside, verify

__all__ = ["solve", "check_options", "build", "SlitherModel", "SideLayout", "TECHNIQUES",
           "Deduced", "on_first",
           "ON", "OFF", "UNDECIDED"]

# A side's domain mask in the puzzle's words (the engine's Boolean masks): on the loop
# or not; a cell's IS_TRUE is inside.
ON, OFF = IS_TRUE, IS_FALSE

TECHNIQUES = ("counts", "loop", "patterns", "corners", "colours", "probing")
_LOOP_PRIORITY = GLOBAL_PRIORITY
_CLASS_PRIORITY = GLOBAL_PRIORITY + 1
_REGION_PRIORITY = GLOBAL_PRIORITY + 2  # the dearest rules last
_PROBE_PRIORITY = GLOBAL_PRIORITY + 3


# ---------------------------------------------------------------- numbering

@dataclass(frozen=True)
class SideLayout:
    """The variables of a ROWS x COLS puzzle, numbered cells first.

    Cell (r, c) is `r * cols + c`; the side on top of cell (r, c) (0 <= r <=
    rows) is `across(r, c)`, the side left of it (0 <= c <= cols) `down(r, c)`;
    point (r, c) (the top-left corner of cell (r, c)) has the diagonals
    `main(r, c)` (its NW and SE cells differ) and `anti(r, c)` (NE and SW).
    """

    rows: int
    cols: int

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def first_side(self) -> int:
        return self.cells

    @property
    def sides(self) -> int:
        return (self.rows + 1) * self.cols + self.rows * (self.cols + 1)

    @property
    def first_diagonal(self) -> int:
        return self.cells + self.sides

    @property
    def size(self) -> int:
        return self.first_diagonal + 2 * (self.rows + 1) * (self.cols + 1)

    def cell(self, r: int, c: int) -> int | None:
        """The cell variable, None past the grid's edge (outside)."""
        return r * self.cols + c if 0 <= r < self.rows and 0 <= c < self.cols else None

    def across(self, r: int, c: int) -> int | None:
        if 0 <= r <= self.rows and 0 <= c < self.cols:
            return self.cells + r * self.cols + c
        return None

    def down(self, r: int, c: int) -> int | None:
        if 0 <= r < self.rows and 0 <= c <= self.cols:
            return self.cells + (self.rows + 1) * self.cols + r * (self.cols + 1) + c
        return None

    def main(self, r: int, c: int) -> int:
        return self.first_diagonal + 2 * (r * (self.cols + 1) + c)

    def anti(self, r: int, c: int) -> int:
        return self.main(r, c) + 1

    def point_sides(self, r: int, c: int) -> tuple[int | None, int | None, int | None,
                                                   int | None]:
        """The sides at point (r, c): up, right, down, left (None past the edge)."""
        return (self.down(r - 1, c), self.across(r, c), self.down(r, c), self.across(r, c - 1))

    def cell_sides(self, r: int, c: int) -> tuple[int, int, int, int]:
        """Cell (r, c)'s sides: top, right, bottom, left."""
        top, right = self.across(r, c), self.down(r, c + 1)
        bottom, left = self.across(r + 1, c), self.down(r, c)
        assert top is not None and right is not None and bottom is not None \
            and left is not None
        return top, right, bottom, left

    def cell_corners(self, r: int, c: int) -> tuple[int, int, int, int]:
        """The diagonals holding cell (r, c)'s corner parities: top-left, top-right,
        bottom-right, bottom-left (each point's diagonal the cell is not on)."""
        return (self.anti(r, c), self.main(r, c + 1), self.anti(r + 1, c + 1),
                self.main(r + 1, c))

    def side_ends(self, side: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two points a side joins."""
        index = side - self.cells
        if index < (self.rows + 1) * self.cols:
            r, c = divmod(index, self.cols)
            return (r, c), (r, c + 1)
        r, c = divmod(index - (self.rows + 1) * self.cols, self.cols + 1)
        return (r, c), (r + 1, c)

    def side_cells(self, side: int) -> tuple[int | None, int | None]:
        """The two cells a side separates (None past the edge)."""
        (r1, c1), (r2, c2) = self.side_ends(side)
        if r1 == r2:  # across: above and below
            return self.cell(r1 - 1, c1), self.cell(r1, c1)
        return self.cell(r1, c1 - 1), self.cell(r1, c1)

    def side_between(self, p: tuple[int, int], q: tuple[int, int]) -> int | None:
        """The side joining two adjacent points, or None."""
        (r1, c1), (r2, c2) = sorted((p, q))
        if r1 == r2 and c2 == c1 + 1:
            return self.across(r1, c1)
        if c1 == c2 and r2 == r1 + 1:
            return self.down(r1, c1)
        return None


# ---------------------------------------------------------------- local rules

class _Xor:
    """The XOR of some Boolean variables is `parity` (cells past the edge left out)."""

    __slots__ = ("variables", "parity")

    def __init__(self, variables: Sequence[int], parity: int = 0) -> None:
        self.variables = tuple(variables)
        self.parity = parity

    def __call__(self, store: Store) -> None:
        dom = store.dom
        parity, open_var = self.parity, -1
        for v in self.variables:
            mask = dom[v]
            if mask == UNDECIDED:
                if open_var >= 0:
                    return
                open_var = v
            elif mask == IS_TRUE:
                parity ^= 1
        if open_var >= 0:
            store.restrict(open_var, IS_TRUE if parity else IS_FALSE)
        elif parity:
            raise Contradiction


class _Table:
    """The allowed value combinations of some Boolean variables; keeps, for each
    variable, exactly the values some combination compatible with the domains has.

    Answers are cached per domain state in `cache`, shared by every rule of the
    same combinations (a grid has few kinds of points and clues).
    """

    __slots__ = ("variables", "combos", "cache")

    def __init__(self, variables: Sequence[int], combos: tuple[tuple[int, ...], ...],
                 cache: dict[int, tuple[int, ...] | None]) -> None:
        self.variables = tuple(variables)
        self.combos = combos  # each a tuple of masks, one per variable
        self.cache = cache

    def _answer(self, doms: Sequence[int]) -> tuple[int, ...] | None:
        kept = [0] * len(doms)
        found = False
        for combo in self.combos:
            if all(d & m for d, m in zip(doms, combo, strict=True)):
                found = True
                kept = [k | m for k, m in zip(kept, combo, strict=True)]
        return tuple(kept) if found else None

    def __call__(self, store: Store) -> None:
        dom = store.dom
        doms = [dom[v] for v in self.variables]
        key = 0
        for d in doms:
            key = key << 2 | d
        cache = self.cache
        if key in cache:
            kept = cache[key]
        else:
            kept = cache[key] = self._answer(doms)
        if kept is None:
            raise Contradiction
        for v, d, k in zip(self.variables, doms, kept, strict=True):
            if d != k:
                store.restrict(v, k)


class _ClueTable(_Table):
    """A clue's table, switched off while `active[index]` is 0 (the generator lifts
    clues without building the model again)."""

    __slots__ = ("active", "index")

    def __init__(self, variables: Sequence[int], combos: tuple[tuple[int, ...], ...],
                 cache: dict[int, tuple[int, ...] | None], active: bytearray,
                 index: int) -> None:
        super().__init__(variables, combos, cache)
        self.active, self.index = active, index

    def __call__(self, store: Store) -> None:
        if self.active[self.index]:
            _Table.__call__(self, store)


def _masks(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(IS_TRUE if value else IS_FALSE for value in values)


@functools.cache
def _point_combos(present: tuple[bool, ...], diagonals: bool) -> tuple[tuple[int, ...], ...]:
    """A point's allowed (up, right, down, left[, main, anti]) over its present sides:
    two or none on; main = up ^ right, anti = up ^ left."""
    combos = []
    for bits in range(16):
        values = [bits >> k & 1 for k in range(4)]
        if sum(values) not in (0, 2) or any(v and not p for v, p in zip(values, present,
                                                                         strict=True)):
            continue
        up, right, _, left = values
        kept = [v for v, p in zip(values, present, strict=True) if p]
        if diagonals:
            kept += [up ^ right, up ^ left]
        combos.append(_masks(kept))
    return tuple(combos)


@functools.cache
def _clue_combos(clue: int, corners: bool) -> tuple[tuple[int, ...], ...]:
    """A clue's allowed (top, right, bottom, left[, corner parities TL, TR, BR, BL])."""
    combos = []
    for bits in range(16):
        top, right, bottom, left = (bits >> k & 1 for k in range(4))
        if top + right + bottom + left != clue:
            continue
        values = [top, right, bottom, left]
        if corners:
            values += [top ^ left, top ^ right, bottom ^ right, bottom ^ left]
        combos.append(_masks(values))
    return tuple(combos)


# ---------------------------------------------------------------- the loop

class _Paths:
    """The grid's points and sides as the loop rules read them, and the clues."""

    __slots__ = ("incident", "ends", "first", "count", "clues", "active")

    def __init__(self, layout: SideLayout, clues: Sequence[tuple[int, tuple[int, ...]]],
                 active: bytearray) -> None:
        width = layout.cols + 1
        self.first, self.count = layout.first_side, layout.sides
        self.ends = [tuple(r * width + c for r, c in layout.side_ends(s))
                     for s in range(self.first, self.first + self.count)]
        incident: list[list[tuple[int, int]]] = [[] for _ in range((layout.rows + 1) * width)]
        for s, (p, q) in enumerate(self.ends, start=self.first):
            incident[p].append((s, q))
            incident[q].append((s, p))
        self.incident = [tuple(pairs) for pairs in incident]  # (side, the other point)
        self.clues = clues  # (clue, its four sides), switched by `active`
        self.active = active

    def on(self, dom: list[int]) -> int:
        """How many sides are on."""
        return dom[self.first:self.first + self.count].count(IS_TRUE)

    def closes(self, dom: list[int], length: int, side: int) -> bool:
        """Whether `side` may close a path of `length` sides: only into the answer (no
        other side on, every clue met)."""
        if self.on(dom) != length:
            return False
        return all(sum(dom[s] == IS_TRUE or s == side for s in sides) == clue
                   for (clue, sides), on in zip(self.clues, self.active, strict=True) if on)

    def close_off(self, store: Store, end: int, other_end: int, length: int) -> None:
        """A path of `length` sides from `end` to `other_end`: the side joining its two
        ends, if any and undecided, is off unless it closes the answer."""
        dom = store.dom
        for closing, other in self.incident[end]:
            if other == other_end and dom[closing] == UNDECIDED:
                if not self.closes(dom, length, closing):
                    store.restrict(closing, OFF)

    def closed(self, store: Store, length: int) -> None:
        """A closed loop of `length` sides: the answer, or a contradiction when other
        sides are on."""
        if self.on(store.dom) != length:
            raise Contradiction
        dom = store.dom
        for s in range(self.first, self.first + self.count):
            if dom[s] == UNDECIDED:
                store.restrict(s, OFF)


class _AllPaths:
    """The single-loop closure rule (module docstring) over every path at once: the
    sides on the loop are read, each path walked once from an end, each closed loop
    once. Run after the local rules reach their fixpoint (two sides at most meet at a
    point then)."""

    __slots__ = ("paths",)

    def __init__(self, paths: _Paths) -> None:
        self.paths = paths

    def __call__(self, store: Store) -> None:
        paths = self.paths
        first, ends = paths.first, paths.ends
        links: dict[int, list[int]] = {}
        on = 0
        for index, mask in enumerate(store.dom[first:first + paths.count]):
            if mask == IS_TRUE:
                on += 1
                p, q = ends[index]
                links.setdefault(p, []).append(q)
                links.setdefault(q, []).append(p)
        seen: set[int] = set()
        for point, near in links.items():
            if len(near) == 1 and point not in seen:
                end, length = _follow(links, seen, point)
                paths.close_off(store, point, end, length)
        for point in links:
            if point not in seen:
                paths.closed(store, _follow(links, seen, point)[1])
                return


def _follow(links: dict[int, list[int]], seen: set[int], start: int) -> tuple[int, int]:
    """(where the path from `start` ends, its sides), marking its points; round a closed
    loop it ends at `start` with every side counted."""
    seen.add(start)
    previous, point, length = -1, start, 0
    while True:
        near = links[point]
        nxt = near[0] if near[0] != previous else (near[1] if len(near) > 1 else -1)
        if nxt < 0:
            return point, length
        previous, point = point, nxt
        length += 1
        if point in seen:
            return point, length
        seen.add(point)


def _check_path(paths: _Paths, store: Store, side: int, walked: set[int]) -> None:
    """The single-loop closure rule for the path through one side on the loop (the
    probes' form: a trial changes a few sides, and walking the paths through them
    costs less than reading every side, as `_AllPaths` does). The sides walked are
    added to `walked`."""
    dom, incident = store.dom, paths.incident
    tail, head = paths.ends[side - paths.first]
    walked.add(side)
    ends, length = [], 1
    for start in (head, tail):
        point, came = start, side
        while True:
            for nxt, other in incident[point]:
                if nxt != came and dom[nxt] == IS_TRUE:
                    came, point = nxt, other
                    walked.add(nxt)
                    length += 1
                    break
            else:
                break
            if point == head:  # round a closed loop, back where it started
                paths.closed(store, length - 1)
                return
        ends.append(point)
    paths.close_off(store, ends[0], ends[1], length)


# ---------------------------------------------------------------- colour classes

class _ColourClasses:
    """Cells known to be of the same or the other colour, as classes (union-find with
    parity, from scratch each run), the outside past the edge one of them.

    Every decided side or diagonal joins its two cells (same colour: off / FALSE,
    different: on / TRUE), every decided cell joins the outside. A relation that
    contradicts the classes is a contradiction; an undecided side or diagonal
    whose two cells fall in one class takes the value their parities give, and
    an undecided cell in the outside's class its colour.
    """

    __slots__ = ("links", "cells")

    def __init__(self, links: Sequence[tuple[int, int, int]], cells: int) -> None:
        self.links = links  # (side or diagonal, cell, cell); `cells` is the outside
        self.cells = cells

    def __call__(self, store: Store) -> None:
        dom, n = store.dom, self.cells
        parent = list(range(n + 1))
        parity = [0] * (n + 1)  # the colour difference from the parent

        def find(v: int) -> tuple[int, int]:
            colour, root = 0, v
            while parent[root] != root:
                colour ^= parity[root]
                root = parent[root]
            total = colour
            while parent[v] != root:  # path compression, parities kept
                nxt, here = parent[v], parity[v]
                parent[v], parity[v] = root, total
                total ^= here
                v = nxt
            return root, colour

        def join(a: int, b: int, differ: int) -> None:
            ra, pa = find(a)
            rb, pb = find(b)
            if ra == rb:
                if pa ^ pb != differ:
                    raise Contradiction
                return
            parent[ra], parity[ra] = rb, pa ^ pb ^ differ

        undecided = []
        for link in self.links:
            mask = dom[link[0]]
            if mask == UNDECIDED:
                undecided.append(link)
            else:
                join(link[1], link[2], mask == IS_TRUE)
        for cell in range(n):
            mask = dom[cell]
            if mask != UNDECIDED:
                join(cell, n, mask == IS_TRUE)
        for var, a, b in undecided:
            ra, pa = find(a)
            rb, pb = find(b)
            if ra == rb:
                store.restrict(var, IS_TRUE if pa ^ pb else IS_FALSE)
        outside = find(n)[0]
        for cell in range(n):
            if dom[cell] == UNDECIDED:
                root, colour = find(cell)
                if root == outside:
                    store.restrict(cell, IS_TRUE if colour ^ find(n)[1] else IS_FALSE)


# ---------------------------------------------------------------- probing

class _Probe:
    """Failed-literal probing on the cheap rules (module docstring: probing).

    At a fixpoint of every rule, each candidate side is tried on, then off: the
    trial runs a second `Propagator` over the same store, holding the local
    rules (tables, XORs), and the loop rule on the paths the trial changed
    (`_check_path`). A value whose trial fails is removed and its consequences
    propagated the same way; at the end of the pass every variable it decided is
    handed to the outer propagator, whose rules then run before the next pass.
    `first_only` ends the pass at the first failed trial (an explanation tells
    them one by one); `failed` is the last one, (side, the value that failed).
    """

    __slots__ = ("inner", "candidates", "outer", "paths", "probes", "first_only", "failed")

    def __init__(self, store: Store, rules: Iterable[tuple[Rule, list[int] | None, int]],
                 candidates: Callable[[Store], list[int]], outer: Propagator,
                 paths: _Paths | None) -> None:
        self.inner = Propagator(store)
        for rule, watches, priority in rules:
            self.inner.add_rule(rule, watches, priority=priority)
        self.candidates = candidates
        self.outer = outer
        self.paths = paths
        self.probes = 0
        self.first_only = False
        self.failed: tuple[int, int] | None = None

    def __call__(self, store: Store) -> None:
        self.inner.deadline = self.outer.deadline
        dom = store.dom
        start = store.mark()
        # Literals a trial fixed without failing hold their own trials too (the rules
        # are monotone): skipped until a removal makes the store stronger.
        consistent: set[tuple[int, int]] = set()
        for var in self.candidates(store):
            for value in (TRUE, FALSE):
                if dom[var] != UNDECIDED:
                    break
                if (var, value) in consistent:
                    continue
                self.probes += 1
                mark = store.mark()
                store.assign(var, value)
                holds = self._propagate(store, mark)
                if holds:
                    for v, _ in store.trail[mark:]:
                        consistent.add((v, dom[v] >> 1))  # decided: IS_FALSE 1, IS_TRUE 2
                store.undo(mark)
                if not holds:
                    consistent.clear()
                    self.failed = (var, value)
                    mark = store.mark()
                    store.remove(var, value)
                    if not self._propagate(store, mark):
                        raise Contradiction
            if self.first_only and len(store.trail) > start:
                break
        # What this pass decided, for the outer propagator's rules to see.
        store.changed.extend(v for v, _ in store.trail[start:])

    def _propagate(self, store: Store, mark: int) -> bool:
        """The cheap rules to a fixpoint after `mark`; False on a contradiction."""
        inner, paths = self.inner, self.paths
        checked = mark
        while inner.propagate():
            if paths is None or len(store.trail) == checked:
                return True
            walked: set[int] = set()
            first, last = paths.first, paths.first + paths.count
            dom, upto = store.dom, len(store.trail)
            try:
                for v, _ in store.trail[checked:upto]:
                    if first <= v < last and dom[v] == IS_TRUE and v not in walked:
                        _check_path(paths, store, v, walked)
            except Contradiction:
                return False
            checked = upto
            if len(store.trail) == upto:
                return True
        return False


# ---------------------------------------------------------------- patterns

def _whole_answer(instance: Instance, *cells: tuple[int, int]) -> bool:
    """Whether the loop around just `cells` is an answer: the one exception to the
    adjacent 3s (a loop around both, when every other clue is a 0 it leaves alone)."""
    if sum(clue != 0 for _, _, clue in clue_cells(instance)) > 8:
        return False  # at most the two 3s and their six neighbours touch the loop
    inside = [[(r, c) in cells for c in range(instance.cols)] for r in range(instance.rows)]
    return not verify(instance, solution_from_inside(inside))


def _pattern_facts(instance: Instance, layout: SideLayout) -> list[tuple[int, int]]:
    """(side, mask) pairs the clue layout settles at once (module docstring: patterns)."""
    facts: list[tuple[int, int]] = []
    clue = {(r, c): k for r, c, k in clue_cells(instance)}
    rows, cols = instance.rows, instance.cols
    for (r, c), k in clue.items():
        if k != 3:
            continue
        if clue.get((r, c + 1)) == 3 and not _whole_answer(instance, (r, c), (r, c + 1)):
            # side by side: | 3 | 3 |
            facts += [(layout.down(r, c), ON), (layout.down(r, c + 1), ON),
                      (layout.down(r, c + 2), ON)]
            facts += [(s, OFF) for s in (layout.down(r - 1, c + 1), layout.down(r + 1, c + 1))
                      if s is not None]
        if clue.get((r + 1, c)) == 3 and not _whole_answer(instance, (r, c), (r + 1, c)):
            # one above the other
            facts += [(layout.across(r, c), ON), (layout.across(r + 1, c), ON),
                      (layout.across(r + 2, c), ON)]
            facts += [(s, OFF) for s in (layout.across(r + 1, c - 1),
                                         layout.across(r + 1, c + 1)) if s is not None]
        for dc in (1, -1):  # diagonal 3s, 2s between them allowed
            step = 1
            while clue.get((r + step, c + step * dc)) == 2:
                step += 1
            if clue.get((r + step, c + step * dc)) == 3:
                far_r, far_c = r + step, c + step * dc
                top, right, bottom, left = layout.cell_sides(r, c)
                f_top, f_right, f_bottom, f_left = layout.cell_sides(far_r, far_c)
                near = (top, left) if dc == 1 else (top, right)
                far = (f_bottom, f_right) if dc == 1 else (f_bottom, f_left)
                facts += [(s, ON) for s in near + far]
    corners = ((0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1))
    for r, c in set(corners):
        k = clue.get((r, c))
        if k is None:
            continue
        vertical = layout.down(r, 0 if c == 0 else cols)
        horizontal = layout.across(0 if r == 0 else rows, c)
        if k in (1, 3) and rows > 1 and cols > 1:
            facts += [(vertical, ON if k == 3 else OFF), (horizontal, ON if k == 3 else OFF)]
        elif k == 2 and rows > 1 and cols > 1:
            facts.append((layout.across(0 if r == 0 else rows, c + (1 if c == 0 else -1)), ON))
            facts.append((layout.down(r + (1 if r == 0 else -1), 0 if c == 0 else cols), ON))
    return [(side, mask) for side, mask in facts if side is not None]


# ---------------------------------------------------------------- model

class Deduced(enum.Enum):
    """What propagation alone makes of a puzzle (`SlitherModel.deduce`)."""

    SOLVED = "solved"  # every side decided, and they are the answer
    STUCK = "stuck"    # undecided sides left: the techniques do not suffice
    NONE = "none"      # a contradiction: the clues have no answer


class SlitherModel:
    """The store, the rules and the branching heuristic of one instance.

    `techniques` (default: all of `TECHNIQUES`) restricts the rules, for
    grading; `counts` is always on. `rule_list` holds them as (rule, watched
    variables or None, priority), probing apart (`probe`); `prop` runs them;
    `choose` branches; `active` switches clues (`deduce`).
    """

    def __init__(self, instance: Instance, techniques: Sequence[str] = TECHNIQUES) -> None:
        unknown = set(techniques) - set(TECHNIQUES)
        if unknown:
            raise ValueError(f"unknown techniques {sorted(unknown)} (known: {TECHNIQUES})")
        self.techniques = frozenset(techniques) | {"counts"}
        self.instance = instance
        self.layout = layout = SideLayout(instance.rows, instance.cols)
        # Diagonals only with corners: nothing else decides them.
        size = layout.size if "corners" in self.techniques else layout.first_diagonal
        self.store = Store.booleans(size)
        self.prop = Propagator(self.store)
        self.sides = range(layout.first_side, layout.first_side + layout.sides)
        self.clues = clue_cells(instance)
        self.active = bytearray(b"\x01") * len(self.clues)  # which clues count
        self.rule_list = self._rules()
        for rule, watches, priority in self.rule_list:
            self.prop.add_rule(rule, watches, priority=priority)
        self.probe: _Probe | None = None
        if "probing" in self.techniques:
            self.probe = _Probe(self.store, self._probe_rules(), self._probe_candidates,
                                self.prop, self.paths)
            self.prop.add_rule(self.probe, None, priority=_PROBE_PRIORITY)

    def active_instance(self) -> Instance:
        """The instance with only the active clues."""
        grid = [list(row) for row in self.instance.clues]
        for (r, c, _), on in zip(self.clues, self.active, strict=True):
            if not on:
                grid[r][c] = None
        return Instance(self.instance.rows, self.instance.cols, tuple(map(tuple, grid)))

    def start(self) -> bool:
        """Fix what the patterns settle for the active clues (module docstring); False
        when they contradict each other (the puzzle has no answer)."""
        if "patterns" not in self.techniques:
            return True
        try:
            for side, mask in _pattern_facts(self.active_instance(), self.layout):
                self.store.restrict(side, mask)
        except Contradiction:
            return False
        return True

    def deduce(self, cells: Iterable[tuple[int, int]] | None = None
               ) -> tuple[Deduced, dict[str, int]]:
        """Propagation alone from the clues of `cells` (None: every clue): what it
        settles, and the effort (rule runs, probes). The store is left as it was.

        Every deduction is sound, so a grid it decides completely is the only candidate:
        the answer (then the only one) when `verify` accepts it, none otherwise.
        """
        if cells is not None:
            wanted = set(cells)
            self.active[:] = bytes((r, c) in wanted for r, c, _ in self.clues)
        store, runs = self.store, self.prop.runs
        probes = self.probe.probes if self.probe else 0
        mark = store.mark()
        try:
            self.prop.schedule_all()
            if not self.start() or not self.prop.propagate():
                return Deduced.NONE, {}
            effort = {"propagations": self.prop.runs - runs,
                      "probes": (self.probe.probes if self.probe else 0) - probes}
            if not self.decided():
                return Deduced.STUCK, effort
            values = [mask >> 1 for mask in store.dom]  # the sides are decided
            if verify(self.active_instance(), self.solution(values)):
                return Deduced.NONE, effort
            return Deduced.SOLVED, effort
        finally:
            store.undo(mark)
            self.active[:] = b"\x01" * len(self.clues)

    def _rules(self) -> list[tuple[Rule, list[int] | None, int]]:
        layout = self.layout
        corners, colours = "corners" in self.techniques, "colours" in self.techniques
        rules: list[tuple[Rule, list[int] | None, int]] = []
        caches: dict[tuple, dict] = {}
        clue_sides = []
        for index, (r, c, clue) in enumerate(self.clues):
            variables = list(layout.cell_sides(r, c))
            clue_sides.append((clue, tuple(variables)))
            if corners:
                variables += layout.cell_corners(r, c)
            combos = _clue_combos(clue, corners)
            table = _ClueTable(variables, combos, caches.setdefault(combos, {}), self.active,
                               index)
            rules.append((table, variables, 0))
        for r in range(layout.rows + 1):
            for c in range(layout.cols + 1):
                sides = layout.point_sides(r, c)
                present = tuple(s is not None for s in sides)
                variables = [s for s in sides if s is not None]
                if corners:
                    variables += [layout.main(r, c), layout.anti(r, c)]
                combos = _point_combos(present, corners)
                rules.append((_Table(variables, combos, caches.setdefault(combos, {})),
                              variables, 0))
        if colours:
            rules += self._colour_rules()
        self.paths = (_Paths(layout, clue_sides, self.active) if "loop" in self.techniques
                      else None)
        if self.paths is not None:
            rules.append((_AllPaths(self.paths), list(self.sides), _LOOP_PRIORITY))
        return rules

    def _probe_rules(self) -> list[tuple[Rule, list[int] | None, int]]:
        """What a probe runs besides the loop rule: the local rules."""
        return [rule for rule in self.rule_list if rule[2] == 0]

    def _colour_rules(self) -> list[tuple[Rule, list[int] | None, int]]:
        """Sides and diagonals as XORs of cells, and the inside as one region."""
        layout = self.layout
        rules: list[tuple[Rule, list[int] | None, int]] = []
        for side in self.sides:
            variables = [side] + [cell for cell in layout.side_cells(side) if cell is not None]
            rules.append((_Xor(variables), variables, 0))
        n = layout.cells
        if "corners" in self.techniques:
            for diagonal, pair in self._diagonal_cells():
                variables = [diagonal] + [cell for cell in pair if cell is not None]
                rules.append((_Xor(variables), variables, 0))
        links = [(side, *(n if cell is None else cell for cell in layout.side_cells(side)))
                 for side in self.sides]
        if "corners" in self.techniques:
            links += [(diagonal, *(n if cell is None else cell for cell in pair))
                      for diagonal, pair in self._diagonal_cells()]
        rules.append((_ColourClasses(links, n), None, _CLASS_PRIORITY))
        grid = Grid(layout.rows, layout.cols)
        cells = list(range(layout.cells))
        rules.append((RegionConnected(grid, IS_TRUE), cells, _REGION_PRIORITY))
        rules.append((ReachesBorder(grid, IS_FALSE), cells, _REGION_PRIORITY))
        return rules

    def _diagonal_cells(self) -> list[tuple[int, tuple[int | None, int | None]]]:
        """(diagonal, its two cells, None past the edge) of every point."""
        layout, found = self.layout, []
        for r in range(layout.rows + 1):
            for c in range(layout.cols + 1):
                found.append((layout.main(r, c), (layout.cell(r - 1, c - 1), layout.cell(r, c))))
                found.append((layout.anti(r, c), (layout.cell(r - 1, c), layout.cell(r, c - 1))))
        return found

    # -- reading ----------------------------------------------------------------------------

    def decided(self) -> bool:
        """Whether every side is decided."""
        dom = self.store.dom
        return all(dom[s] != UNDECIDED for s in self.sides)

    def inside(self, values: Sequence[int]) -> list[list[bool]]:
        """The inside cells of a full assignment of the sides (crossings from the left)."""
        layout, rows = self.layout, []
        for r in range(layout.rows):
            crossing, row = False, []
            for c in range(layout.cols):
                crossing ^= values[layout.down(r, c)] == TRUE
                row.append(crossing)
            rows.append(row)
        return rows

    def solution(self, values: Sequence[int]) -> dict[str, list[str]]:
        """The `{"inside": [...]}` answer of a full assignment."""
        return solution_from_inside(self.inside(values))

    # -- branching --------------------------------------------------------------------------

    def _path_ends(self, store: Store) -> list[int]:
        """The undecided sides at the points where a path of the loop ends."""
        dom, layout = store.dom, self.layout
        found = []
        for r in range(layout.rows + 1):
            for c in range(layout.cols + 1):
                sides = [s for s in layout.point_sides(r, c) if s is not None]
                if sum(dom[s] == IS_TRUE for s in sides) == 1:
                    found += [s for s in sides if dom[s] == UNDECIDED]
        return found

    def _probe_candidates(self, store: Store) -> list[int]:
        """The sides to probe: those at path ends first, then every undecided side."""
        dom = store.dom
        return self._path_ends(store) + [s for s in self.sides if dom[s] == UNDECIDED]

    def choose(self, store: Store) -> int | None:
        """A side at a path's end, else the first undecided side, else any undecided
        variable (None: all decided)."""
        ends = self._path_ends(store)
        if ends:
            return ends[0]
        dom = store.dom
        for s in self.sides:
            if dom[s] == UNDECIDED:
                return s
        for v, mask in enumerate(dom):
            if mask == UNDECIDED:
                return v
        return None


def on_first(store: Store, var: int) -> tuple[int, ...]:
    """The value order of branching and probing: on the loop (inside) first."""
    return (TRUE, FALSE)


def build(instance: Instance, techniques: Sequence[str] = TECHNIQUES) -> SlitherModel:
    """The propagation model of `instance`, ready for `search`."""
    return SlitherModel(instance, techniques)


# ---------------------------------------------------------------- solve

def check_options(limits: Limits) -> None:
    """hand's one option, `probe=true|false` (the registry's checker)."""
    check_probe_option(limits)


def solve(instance: Instance, limits: Limits) -> Result:
    """Propagate and branch; SOLVED with `{"inside": [...]}`, UNSAT, or TIMEOUT.

    `limits.options["probe"]` (default True; `hand:probe=false`) turns probing off.
    """
    watch = Stopwatch()
    deadline = limits.deadline()
    techniques = TECHNIQUES if limits.flag("probe", True) else TECHNIQUES[:-1]
    model = build(instance, techniques)
    watch.built()
    if not model.start():
        return Result.unsat(limits, stats=watch.stats(nodes=0))
    probe = model.probe
    return solve_by_search(model, limits, deadline, watch, order=on_first,
                           probes=(lambda: probe.probes) if probe else None)
