"""A propagation driver: finite domains on a trail, rules to a fixpoint, depth-first search.

The idea. A `Store` holds variables 0..n-1 whose domains are small sets of
non-negative integers kept as bitmasks (value x is bit `1 << x`, `mask_of`;
`value_of` reads a one-value mask back). Every narrowing goes through the
store, which records the old mask on a trail: `mark()` then `undo(mark)`
restores every domain exactly. An empty domain raises `Contradiction`.

Boolean variables (`Store.booleans`: a cell shaded or not, say, unknown at first)
are named here once, so no caller spells a mask as a number: their values
`FALSE` (0) and `TRUE` (1), which `assign`, value orders and solutions speak,
and the three masks their domain takes, which fast rules compare
`store.dom[v]` with and pass to `restrict`: `IS_FALSE`, `IS_TRUE` and
`UNDECIDED` (both). A decided mask `^ UNDECIDED` is the other decided mask.

A `Propagator` owns the rules: plain callables `rule(store)` that narrow
domains and raise `Contradiction` on a dead end. Each rule watches some
variables (or all); a change to a watched variable queues the rule once, and
`propagate()` runs queued rules, lowest `priority` first (cheap local rules
before expensive global ones), until nothing changes. Rules must be
idempotent and keep no state of their own: after `undo` they recompute
from the domains (what a rule keeps is a cache of them; `Since` tells it
which changes came since its last run in the current line of the search,
so it can skip a run that none of them concerns).

Probing (`enable_probing`, off by default): at a fixpoint, each candidate
variable's values are tried in turn, each propagated on the trail and
undone (without the rules added with `trials=False`: dear ones that seldom
find anything, run at the fixpoints the trials start from); a value whose
propagation fails is removed and its consequences
propagated at once (failed-literal detection; when the passes go on to a
fixpoint, without the `trials=False` rules too, which run once the pass that
removed has ended, instead of after each removal: on the janko.at Nurikabe
corpus, `python -m benchmarks.nurikabe_perf --backends hand`, the island
cross-cut rule ran 106 times in 124 after a removal on 688_20x20, and
1046_23x33 went from 1.35 s to 1.07 s, 680_31x45 from 1.32 to 1.09 s, the
corpus from 49.9 s to 47.0 s, with the same search nodes everywhere; a search's
nodes, which probe one pass, keep running them after each removal: 669_14x24
took 202 nodes instead of 130 without). They run before the pass over every
candidate that closes the probing (`candidates_near`, below), not after it:
what they narrow would make its trials stale (688_20x20's root took 682 trials
instead of 861). Passes repeat until none
fails, so `propagate()` leaves a fixpoint of the rules and the probing;
`probe_passes` may bound them instead (a search's nodes: the pass that would
confirm the fixpoint mostly finds nothing, and the children's first passes
find what it would), and the candidates may be only those near what changed
(`origin`: where on the trail the changes a `propagate()` starts from begin,
a search node's decision first). With `candidates_near` (`enable_probing`), the passes
after one that removed a value try only the candidates near what that pass
changed, and a near pass that removes nothing is followed by a pass over every
candidate, so the end is still a fixpoint of the probing: a removal's
consequences are mostly near it, and a whole pass to find each next one costs a
trial per candidate. Probing is sound, however many passes: counts of
solutions stay exact. A pass takes the outcomes of the trials made since the
last change (in the very store it starts from: a rule's deductions depend on
the store alone, what it keeps being a cache of it, so a trial there would
find the same) instead of making them again. Trials made are counted in
`probes`, not as search nodes. The last pass's trials, with how far each
reached (`impact`), give a search its branching variable (`most_impact`).

Forcing (`enable_probing(forcing=True)`): when every value of a variable was
tried and held, what all the trials agree on holds too: each other
variable keeps only the values some trial left it (the union of its domains
at the trials' fixpoints), as every solution takes one of the values tried.
It costs no trial of its own, only keeping what the first trials narrowed:
the look-ahead SAT solvers' necessary assignments, a Sudoku solver's cell
forcing chain. A narrowing counts as a removal: the pass goes on from its
fixpoint and another pass follows. `force` compares the trials' outcomes
(`Store.narrowed_since`); `search.lookahead` calls it too, one level deeper.

Limits. A propagator may carry a `deadline`; a `core.limits.Poller` reads
it every 16 rule runs (`search`'s poller, `Propagator.poller(node_limit)`,
every 16 nodes too), since on a large problem one node's propagation alone
can take long. A limit raises `LimitReached`, which is no contradiction:
`search` reports a stopped search, never an unsat or unique one. The same
poll calls `core.time_limit.checkpoint(grace=True)`, the run's cooperative
hard stop.

`search` is the depth-first driver: propagate, pick an unfixed variable with
the caller's heuristic (default `most_constrained`: smallest domain, lowest
index), try each value in turn (one node per value tried), undo to the trail
mark between tries. Its nodes are generators driven from one loop, so deep
searches hit no recursion limit, and it stops after `max_solutions` solutions
(1 to solve, 2 to decide uniqueness, None to count all), at `node_limit` nodes
or at a deadline. Given `parts`, a caller's proof that some groups of unfixed
variables are independent, it searches them apart and multiplies their counts
(an AND/OR search).

Example: x0, x1, x2 in {1, 2, 3}, all different, x0 < x1.

>>> store = Store.uniform(3, range(1, 4))
>>> prop = Propagator(store)
>>> def all_different(s):
...     for v in range(3):
...         x = s.value(v)
...         if x is not None:
...             for w in range(3):
...                 if w != v:
...                     s.remove(w, x)
>>> def less(s):  # bounds: x0 < max(x1) and x1 > min(x0)
...     s.restrict(0, (1 << s.max_value(1)) - 1)
...     s.restrict(1, ~((2 << s.min_value(0)) - 1))
>>> prop.add_rule(all_different, watches=range(3))
>>> prop.add_rule(less, watches=(0, 1))
>>> result = search(prop, max_solutions=None)
>>> result.count, result.solutions, result.exhausted
(3, ((1, 2, 3), (1, 3, 2), (2, 3, 1)), True)
>>> search(prop, max_solutions=2).unique
False
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.limits import Expiring, LimitHit, LimitReached, Poller
from ..core.result import Result, Stats, Status, Tally
from ..core.time_limit import checkpoint

if TYPE_CHECKING:
    from ..core.limits import Limits

__all__ = ["Contradiction", "LimitReached", "Store", "Since", "Propagator", "Rule", "SolveResult",
           "search", "Parts", "most_constrained", "force", "mask_of", "values_of", "flags_of",
           "value_of", "span_of", "FALSE", "TRUE", "IS_FALSE", "IS_TRUE", "UNDECIDED"]

# Boolean variables (module docstring): their values, and the masks of their domain.
FALSE, TRUE = 0, 1
IS_FALSE = 1 << FALSE  # decided: {0}
IS_TRUE = 1 << TRUE    # decided: {1}
UNDECIDED = IS_FALSE | IS_TRUE  # {0, 1}


class Contradiction(Exception):
    """Raised by the store or a rule when the current domains admit no solution."""


# ---------------------------------------------------------------- limits

_EVERY = 16  # the clock is read every 16 rule runs and every 16 search nodes


class _RunClock:
    """The driver's deadline (None: none), and the run's own hard stop.

    `expired()` is what a `Poller` asks: True past the deadline; before that
    it calls `core.time_limit.checkpoint(grace=True)`, the run's own time
    limit past its grace, for the threads that its alarm cannot reach.
    """

    __slots__ = ("deadline",)

    def __init__(self, deadline: Expiring | None) -> None:
        self.deadline = deadline

    def expired(self) -> bool:
        if self.deadline is not None and self.deadline.expired():
            return True
        checkpoint(grace=True)
        return False


class Store:
    """Bitmask domains of variables 0..n-1 with a trail; see the module docstring.

    `dom[v]` may be read directly (fast, in rules); change it only through
    `assign`, `remove` and `restrict`, which trail the old mask and note `v`
    in `changed` for the propagator.
    """

    __slots__ = ("dom", "trail", "changed")

    def __init__(self, domains: Iterable[Iterable[int]]) -> None:
        self.dom: list[int] = [mask_of(values) for values in domains]
        self.trail: list[tuple[int, int]] = []
        self.changed: list[int] = []

    @classmethod
    def uniform(cls, n: int, values: Iterable[int]) -> Store:
        """n variables with the same domain."""
        store = cls(())
        store.dom = [mask_of(values)] * n
        return store

    @classmethod
    def booleans(cls, n: int) -> Store:
        """n Boolean variables, {FALSE, TRUE}: each mask `UNDECIDED`, `IS_FALSE` or `IS_TRUE`."""
        return cls.uniform(n, (FALSE, TRUE))

    def __len__(self) -> int:
        return len(self.dom)

    # -- reading -------------------------------------------------------------------------

    def size(self, v: int) -> int:
        return self.dom[v].bit_count()

    def is_fixed(self, v: int) -> bool:
        m = self.dom[v]
        return not m & (m - 1)

    def value(self, v: int) -> int | None:
        """The value of `v` if its domain is a single value, else None."""
        m = self.dom[v]
        return m.bit_length() - 1 if not m & (m - 1) else None

    def contains(self, v: int, x: int) -> bool:
        return bool(self.dom[v] >> x & 1)

    def values(self, v: int) -> list[int]:
        """The domain of `v`, ascending."""
        return values_of(self.dom[v])

    def min_value(self, v: int) -> int:
        m = self.dom[v]
        return (m & -m).bit_length() - 1

    def max_value(self, v: int) -> int:
        return self.dom[v].bit_length() - 1

    def assignment(self) -> tuple[int | None, ...]:
        """The value of every variable, None where not fixed."""
        return tuple(m.bit_length() - 1 if not m & (m - 1) else None for m in self.dom)

    def solution(self) -> tuple[int, ...]:
        """The value of every variable; ValueError unless all are fixed."""
        values = self.assignment()
        if None in values:
            raise ValueError("not every variable is fixed")
        return values  # type: ignore[return-value]

    # -- narrowing -----------------------------------------------------------------------

    def restrict(self, v: int, mask: int) -> bool:
        """Keep only the values of `v` in `mask`; True if the domain shrank."""
        old = self.dom[v]
        new = old & mask
        if new == old:
            return False
        if not new:
            raise Contradiction
        self.trail.append((v, old))
        self.dom[v] = new
        self.changed.append(v)
        return True

    def assign(self, v: int, x: int) -> bool:
        """Fix `v` to `x` (Contradiction if `x` is not in its domain); True if it changed."""
        return self.restrict(v, 1 << x)

    def remove(self, v: int, x: int) -> bool:
        """Take `x` out of the domain of `v`; True if it was there."""
        return self.restrict(v, ~(1 << x))

    # -- trail ---------------------------------------------------------------------------

    def mark(self) -> int:
        return len(self.trail)

    def narrowed_since(self, mark: int) -> dict[int, int]:
        """Each variable narrowed since `mark`, with its domain now (a trial's outcome,
        what forcing compares)."""
        dom = self.dom
        return {v: dom[v] for v, _ in self.trail[mark:]}

    def undo(self, mark: int) -> None:
        """Restore every domain as it was at `mark` and forget pending changes."""
        trail, dom = self.trail, self.dom
        while len(trail) > mark:
            v, old = trail.pop()
            dom[v] = old
        self.changed.clear()


class Since:
    """Where on a store's trail a rule's last run began, in the current line of the
    search: so the rule can read what changed since (`changes`) and skip a run that
    none of it concerns.

    Why it is exact: the trail grows and shrinks at its end only (`Store.undo`), and
    each entry is a tuple made when its change was, so a position p recorded with the
    trail's entry p - 1 still stands exactly when that entry is the very tuple
    recorded (identity: an equal change made after an undo is another tuple, and the
    one recorded is kept alive here, so no other object takes its place). A search
    runs the rule again deeper down, so positions are kept as a stack, ascending; the
    ones an undo left behind are dropped as they are met. The marks are on one store's
    trail: asked of another store, it forgets them. A mark may keep a `note`: what the
    rule read there, which the next `changes` gives back (a rule updates it by the
    changes instead of reading the store afresh).

    >>> store = Store.booleans(3)
    >>> since = Since()
    >>> since.changes(store) is None  # never ran: everything may be news
    True
    >>> since.mark(store); mark = store.mark(); store.assign(1, TRUE)
    True
    >>> since.changes(store)
    [(1, 3)]
    >>> store.undo(mark); store.assign(2, TRUE)
    True
    >>> since.changes(store)  # the line went back to the mark: only the new change
    [(2, 3)]
    """

    __slots__ = ("marks", "note", "trail")

    def __init__(self) -> None:
        # (trail position, the trail's entry before it, the note kept with it)
        self.marks: list[tuple[int, tuple[int, int] | None, Any]] = []
        self.note: Any = None  # the note of the mark `changes` last found
        self.trail: list[tuple[int, int]] | None = None  # the trail the marks are on

    def changes(self, store: Store) -> list[tuple[int, int]] | None:
        """The trail entries (variable, mask before) since the last `mark` that still
        stands, oldest first, its note in `note`; None when none stands (or the store is
        another than the marks were made on: they are forgotten)."""
        at = self._standing(store)
        return None if at is None else store.trail[at:]

    def stands(self, store: Store) -> bool:
        """Whether a mark still stands, its note in `note` (`changes` without them)."""
        return self._standing(store) is not None

    def mark(self, store: Store, note: Any = None) -> None:
        """Record the trail's end as the start of a run, with a `note` of what it read
        there (the next `changes` gives it back); call `changes` or `stands` first (it
        drops the marks an undo left behind, so the stack stays ascending)."""
        trail, marks = self._on(store), self.marks
        at = len(trail)
        if marks and marks[-1][0] == at:
            marks[-1] = (at, marks[-1][1], note)
        else:
            marks.append((at, trail[at - 1] if at else None, note))

    def _standing(self, store: Store) -> int | None:
        """The position of the last mark that still stands, its note in `note`; the
        marks above it dropped."""
        trail, marks = self._on(store), self.marks
        size = len(trail)
        while marks:
            at, entry, note = marks[-1]
            if at <= size and (at == 0 or trail[at - 1] is entry):
                self.note = note
                return at
            marks.pop()
        self.note = None
        return None

    def _on(self, store: Store) -> list[tuple[int, int]]:
        """The store's trail, the marks forgotten when they were made on another's."""
        trail = store.trail
        if trail is not self.trail:
            self.marks.clear()
            self.trail = trail
        return trail


def mask_of(values: Iterable[int]) -> int:
    """The domain mask holding exactly `values` (each >= 0).

    >>> mask_of((TRUE,)) == IS_TRUE, mask_of((FALSE, TRUE)) == UNDECIDED, mask_of((0, 3))
    (True, True, 9)
    """
    mask = 0
    for x in values:
        if x < 0:
            raise ValueError(f"domain values must be >= 0, got {x}")
        mask |= 1 << x
    return mask


def values_of(mask: int) -> list[int]:
    """The values a mask holds, ascending: a domain's, or the cells of a set of cells
    kept as one integer (`search.islands`).

    >>> values_of(mask_of((0, 3, 5))), values_of(0)
    ([0, 3, 5], [])
    """
    values = []
    while mask:
        low = mask & -mask
        values.append(low.bit_length() - 1)
        mask ^= low
    return values


# The digits of a number written in base 2 as the flags 0 and 1 (`flags_of`).
_DIGIT_FLAGS = bytes.maketrans(b"01", b"\x00\x01")


def flags_of(mask: int, size: int) -> bytearray:
    """One flag per place 0..size-1: 1 where `mask` has the bit, else 0 (a set of cells
    as one integer, read as a sequence for code that indexes it, and may write to it;
    `mask` < 2 ** size). Why through the mask written in base 2: every step is one call
    in C, so 1395 places cost about 6 us, where a byte table cost 60 and a step per
    member more as the set grows.

    >>> list(flags_of(0b1011, 6))
    [1, 1, 0, 1, 0, 0]
    """
    digits = format(mask, "b").zfill(size)[::-1][:size]  # "0" for 0: sliced to size
    return bytearray(digits.encode().translate(_DIGIT_FLAGS))


def span_of(mask: int) -> int:
    """How many places lie from the lowest set bit of `mask` to its highest, both
    included (0 for an empty mask): the columns or rows a set of lines spans.

    >>> span_of(0b10100), span_of(0)
    (3, 0)
    """
    return mask.bit_length() - (mask & -mask).bit_length() + 1 if mask else 0


def value_of(mask: int) -> int | None:
    """The value a domain mask fixes, or None when it holds several (or none).

    >>> value_of(IS_TRUE) == TRUE, value_of(IS_FALSE) == FALSE, value_of(UNDECIDED)
    (True, True, None)
    """
    return mask.bit_length() - 1 if mask and not mask & (mask - 1) else None


Rule = Callable[[Store], None]


class Propagator:
    """Rules over a `Store`, run to a fixpoint by `propagate()`; see the module docstring.

    `runs` counts rule executions (a "propagations" statistic), `probes` the
    values tried by probing. `deadline` (None: none) is polled while rules run.
    `probe_passes` bounds the probing passes of one `propagate()` (None: until a
    pass removes nothing). `origin` is the trail position where the changes the last
    `propagate()` started from begin (`store.trail[origin:]`: they and all that
    followed; what a probing `candidates` may keep near).
    """

    def __init__(self, store: Store, *, deadline: Expiring | None = None) -> None:
        self.store = store
        self.runs = 0
        self.deadline = deadline
        self.probes = 0
        self.probe_passes: int | None = None
        self.origin = 0
        # (variable, value) -> how many narrowings its trial made, in the last probing
        # pass (`most_impact`)
        self.impact: dict[tuple[int, int], int] = {}
        self._probing: tuple[Callable[[Store], Iterable[int]],
                             Callable[[Store, int], Iterable[int]] | None] | None = None
        self._forcing = False
        self._candidates_near: Callable[[Store, int], Iterable[int]] | None = None
        self._rules: list[Rule] = []
        self._priority: list[int] = []
        self._watchers: list[list[int]] = [[] for _ in range(len(store))]
        self._global: list[int] = []  # rules that watch every variable
        self._queues: list[deque[int]] = []
        self._queued = bytearray()
        # Per rule, 1 when it sits out probing's trials (`add_rule(trials=False)`), and
        # whether a trial runs now.
        self._untried = bytearray()
        self._trial = False
        # Whether probing's removals propagate now (the rules that sit out trials wait
        # for the pass's end: `_probe`), and whether one of them waits.
        self._removing = False
        self._waiting = False

    @property
    def deadline(self) -> Expiring | None:
        return self._clock.deadline

    @deadline.setter
    def deadline(self, deadline: Expiring | None) -> None:
        self._clock = _RunClock(deadline)
        self._poller = self.poller()

    @property
    def trial(self) -> bool:
        """Whether one of probing's trials runs now: a rule may do less there (an
        island's shapes, `search.islands.Islands`' `trial_room`)."""
        return self._trial

    def poller(self, node_limit: int | None = None) -> Poller:
        """A fresh `Poller` of `node_limit` and this propagator's clock (its deadline and
        the run's own hard stop), read every 16 counts: what a search driving this
        propagator polls (`search` counts nodes with one)."""
        return Poller(node_limit, self._clock, every=_EVERY)

    def add_rule(
        self, rule: Rule, watches: Iterable[int] | None = None, *, priority: int = 0,
        trials: bool = True,
    ) -> None:
        """Register `rule`, run when a variable in `watches` changes (None: any variable).

        A new rule is queued, so the next `propagate()` runs it at least once.
        `trials=False`: it sits out probing's trials (a dear rule that seldom finds
        anything: it runs at every fixpoint probing starts from, but a trial's fixpoint
        does without it, and so does a removal's while the passes go on to a fixpoint:
        it runs once the pass ends, and the passes go on from what it narrows).
        """
        r = len(self._rules)
        self._rules.append(rule)
        self._priority.append(priority)
        if watches is None:
            self._global.append(r)
        else:
            for v in set(watches):
                self._watchers[v].append(r)
        while len(self._queues) <= priority:
            self._queues.append(deque())
        self._queued.append(1)
        self._untried.append(0 if trials else 1)
        self._queues[priority].append(r)

    def schedule_all(self) -> None:
        """Queue every rule (search does this first, so the root is a true fixpoint)."""
        self._schedule(range(len(self._rules)))

    def _schedule(self, rules: Iterable[int]) -> None:
        """Queue the rules `rules` (their numbers) that are not queued yet."""
        queued, priority, queues = self._queued, self._priority, self._queues
        for r in rules:
            if not queued[r]:
                queued[r] = 1
                queues[priority[r]].append(r)

    def enable_probing(
        self,
        candidates: Callable[[Store], Iterable[int]] | None = None,
        order: Callable[[Store, int], Iterable[int]] | None = None,
        forcing: bool = False,
        candidates_near: Callable[[Store, int], Iterable[int]] | None = None,
    ) -> None:
        """Probe at every fixpoint that follows a change (failed-literal detection).

        `candidates(store)` gives the variables to probe, read again at each
        pass (default: every variable; fixed ones are skipped); `order(store,
        var)` the values to try, in turn (default: the domain, ascending);
        `forcing`: keep what every value of a variable implies (module docstring);
        `candidates_near(store, origin)`: the candidates near what changed since trail
        position `origin`, which the passes after a removal probe, a pass of them that
        removes nothing being followed by one of every candidate (module docstring).
        """
        self._probing = (candidates or (lambda store: range(len(store))), order)
        self._forcing = forcing
        self._candidates_near = candidates_near

    def propagate(self) -> bool:
        """Run queued rules to a fixpoint, then probe if enabled and anything changed.

        Returns False on a contradiction; raises `LimitReached` when the
        deadline passes. Either way the queues are left empty, and no
        fixpoint: to go on after a stop, `schedule_all()` first.
        """
        store = self.store
        # Each pending change trailed one entry (`undo` forgets them), so they are the
        # trail's last ones.
        self.origin = len(store.trail) - len(store.changed)
        # Anything to do means the domains may differ from the last probed fixpoint.
        probe = self._probing is not None and (bool(store.changed) or any(self._queues))
        try:
            self._fixpoint()
            if probe:
                self._probe()
            return True
        except Contradiction:
            self._reset()
            return False
        except LimitReached:
            self._reset()
            raise

    def _fixpoint(self) -> None:
        """Run queued rules until nothing changes; Contradiction / LimitReached pass through."""
        store = self.store
        changed = store.changed
        rules, priority, queued = self._rules, self._priority, self._queued
        watchers, global_rules, queues = self._watchers, self._global, self._queues
        poller = self._poller
        runs = self.runs
        untried = self._untried if self._trial or self._removing else None
        removing = self._removing and not self._trial
        try:
            while True:
                if changed:
                    for v in changed:
                        for r in watchers[v]:
                            if not queued[r]:
                                queued[r] = 1
                                queues[priority[r]].append(r)
                    for r in global_rules:
                        if not queued[r]:
                            queued[r] = 1
                            queues[priority[r]].append(r)
                    changed.clear()
                for queue in queues:
                    if queue:
                        break
                else:
                    return
                r = queue.popleft()
                queued[r] = 0
                if untried is not None and untried[r]:
                    # It ran at the fixpoint the trial started from; or it waits for the
                    # end of the probing pass whose removal propagates.
                    if removing:
                        self._waiting = True
                    continue
                if runs >= poller.at:
                    poller.stop(runs)
                runs += 1
                rules[r](store)
        finally:
            self.runs = runs  # a local counter in the loop, stored however it ends

    def _reset(self) -> None:
        """Forget queued rules and pending changes (after a contradiction or a stop)."""
        for queue in self._queues:
            queue.clear()
        self._queued[:] = bytes(len(self._queued))
        self.store.changed.clear()

    def _probe(self) -> None:
        """Probing passes from a fixpoint until none removes a value, or `probe_passes`
        of them; see `enable_probing`. While they go on to a fixpoint, the rules that
        sit out trials wait for a pass's end (`_passes`)."""
        assert self._probing is not None
        left = self.probe_passes
        self._removing, self._waiting = left is None, False
        try:
            self._passes(left)
        finally:
            self._removing = False

    def _passes(self, left: int | None) -> None:
        """`_probe`'s passes, at most `left` of them (None: to a fixpoint)."""
        assert self._probing is not None
        store = self.store
        candidates, order = self._probing
        # The trials made since the last change, each with what it narrowed and how far
        # it reached. Why: the trials after a pass's last removal were made in the very
        # store the next pass starts from, so that pass takes their outcomes instead of
        # making them again, and finds what it would have found. On the janko.at
        # Nurikabe corpus, the same deductions and searches with fewer trials: 967_10x10
        # 2404 to 2194, 688_20x20 3808 to 3310.
        held: dict[tuple[int, int], tuple[dict[int, int], int]] = {}
        # A pass tries the candidates near the changes from `since` on (None: all of them).
        near, since = self._candidates_near, None
        failed = True
        while failed and left != 0:
            if left is not None:
                left -= 1
            failed = False
            self.impact = impact = {}
            # Literals that a trial since the last change fixed without a contradiction
            # hold too: their own trial would reach less (the rules are monotone), so it
            # is skipped. A removal makes the store stronger and clears the set.
            consistent: set[tuple[int, int]] = set()
            start = len(store.trail)
            for var in candidates(store) if since is None else near(store, since):
                # What each value's trial narrowed, while every value tried held (forcing).
                outcomes: list[dict[int, int]] | None = [] if self._forcing else None
                for x in store.values(var) if order is None else order(store, var):
                    if store.is_fixed(var):
                        break
                    if not store.contains(var, x):
                        continue
                    if (var, x) in consistent:
                        outcomes = None  # a value left untried: nothing is forced
                        continue
                    outcome = held.get((var, x))
                    if outcome is None:
                        narrowed = self._holds(var, x, impact)
                        if narrowed is not None:
                            held[var, x] = (narrowed, impact[var, x])
                    else:
                        narrowed, impact[var, x] = outcome
                    if narrowed is None:
                        failed = True
                        outcomes = None
                        consistent.clear()
                        held.clear()
                        store.remove(var, x)
                        self._fixpoint()  # its consequences now, so later probes see them
                        continue
                    for v, m in narrowed.items():
                        if not m & (m - 1):
                            consistent.add((v, m.bit_length() - 1))
                    if outcomes is not None:
                        outcomes.append(narrowed)
                if force(store, outcomes):
                    failed = True
                    consistent.clear()
                    held.clear()
                    self._fixpoint()
            if not failed and self._waiting:
                # The pass found nothing more: the rules that sit out trials, which waited
                # while its removals propagated, run now; what they narrow, the passes
                # go on from. Before a closing pass over every candidate, not after it:
                # what they narrow would make that pass's trials stale (688_20x20 of the
                # janko.at Nurikabe corpus: two passes of about 150 trials each that
                # found nothing, at the root alone).
                mark = self._run_waiting()
                if mark is not None:
                    held.clear()  # made in a weaker store
                    failed, since = True, mark if near is not None else None
                    continue
            if near is not None:
                # After a removal, what it changed is where the next ones mostly are;
                # a near pass that finds nothing is closed by a pass over every
                # candidate (which takes the near pass's trials, made in its store).
                if failed:
                    since = start
                elif since is not None:
                    since, failed = None, True

    def _run_waiting(self) -> int | None:
        """Run the rules that sit out trials and waited for a pass's end; the trail
        position their narrowings start from, None when they narrowed nothing."""
        store = self.store
        self._waiting = False
        mark = len(store.trail)
        self._schedule(r for r, untried in enumerate(self._untried) if untried)
        self._removing = False
        try:
            self._fixpoint()
        finally:
            self._removing = True
        return mark if len(store.trail) > mark else None

    def most_impact(self, among: Callable[[int], bool] | None = None) -> int | None:
        """The unfixed variable whose trials in the last probing pass narrowed the most
        variables: the product over its values tried of one plus how many (what
        look-ahead SAT solvers branch on: both branches then reach far, so a search tree
        that must be exhausted, as for uniqueness, stays small). Only variables `among`
        accepts, when given. None when that pass tried no such unfixed variable; ties
        to the first tried."""
        dom = self.store.dom
        scores = {var: score for var, score in self.reach().items()
                  if dom[var] & (dom[var] - 1) and (among is None or among(var))}
        return max(scores, key=scores.__getitem__, default=None)

    def reach(self) -> dict[int, int]:
        """How far each variable's trials of the last probing pass reached: the product
        over its values tried of one plus the narrowings (`impact`), in the order
        tried."""
        scores: dict[int, int] = {}
        for (var, _), count in self.impact.items():
            scores[var] = scores.get(var, 1) * (count + 1)
        return scores

    def _holds(self, var: int, x: int, impact: dict[tuple[int, int], int]
               ) -> dict[int, int] | None:
        """What `var = x` narrows when it propagates without contradiction (each narrowed
        variable's domain at the fixpoint; how many narrowings into `impact`), None when
        it fails; the store is left as it was."""
        self.probes += 1
        store = self.store
        mark = store.mark()
        self._trial = True
        try:
            store.assign(var, x)
            self._fixpoint()
            impact[var, x] = len(store.trail) - mark
            return store.narrowed_since(mark)
        except Contradiction:
            self._reset()
            return None
        finally:
            self._trial = False
            store.undo(mark)


def force(store: Store, outcomes: Sequence[dict[int, int]] | None) -> bool:
    """Narrow each variable that every trial narrowed to the union of its domains at
    their fixpoints (forcing, the module docstring): `outcomes` are the trials of every
    value of one variable, each what `Store.narrowed_since` said at its fixpoint; None,
    or fewer than two, compare nothing. Whether anything narrowed. Probing's forcing and
    the lookahead's (`search.lookahead`) both call it."""
    if outcomes is None or len(outcomes) < 2:
        return False
    first, others = outcomes[0], outcomes[1:]
    narrowed = False
    for v, union in first.items():
        for outcome in others:
            mask = outcome.get(v)
            if mask is None:
                break  # a trial left v as it was: its union is the whole domain
            union |= mask
        else:
            narrowed = store.restrict(v, union) or narrowed
    return narrowed


def most_constrained(store: Store) -> int | None:
    """The unfixed variable with the smallest domain (lowest index on ties), or None."""
    best, best_size = None, 1 << 62
    for v, m in enumerate(store.dom):
        if m & (m - 1):
            size = m.bit_count()
            if size < best_size:
                best, best_size = v, size
                if size == 2:
                    break  # nothing smaller is unfixed
    return best


@dataclass(frozen=True)
class SolveResult:
    """What `search` found: `solutions` (the first `keep`), their `count`, and the effort.

    `nodes` counts values tried at branching points; `depth` is the most
    branching decisions open at once (0: propagation alone decided it).
    `exhausted` means the whole tree was searched, so `count` is exact;
    `limit_hit` names the limit that stopped the search, or is None.
    """

    solutions: tuple[tuple[int, ...], ...]
    count: int
    nodes: int
    exhausted: bool
    limit_hit: LimitHit | None = None
    depth: int = 0

    @property
    def tally(self) -> Tally:
        """The solutions counted, complete when the tree was exhausted (core's one rule)."""
        return Tally(self.count, complete=self.exhausted)

    @property
    def unique(self) -> bool | None:
        """True: exactly one solution; False: two or more, or proven none; None: not known."""
        return self.tally.unique

    def answer(self, asked: Limits, stats: Stats,
               solution: Callable[[tuple[int, ...]], dict[str, Any]]) -> Result:
        """The back-end's `Result` of this search of a feasibility puzzle: SOLVED with the
        first solution as `solution(values)` reads it, else TIMEOUT when a limit stopped
        the search (naming it), else UNSAT, a proof. `asked` says what to report."""
        stopped = self.limit_hit
        message = f"hand stopped: {stopped} limit" if stopped else None
        if not self.solutions:
            if stopped:
                return Result(Status.TIMEOUT, stats=stats, message=message)
            return Result.unsat(asked, stats=stats)
        return Result.answer(Status.SOLVED, solution(self.solutions[0]), tally=self.tally,
                             asked=asked, stats=stats, message=message)


def search(
    prop: Propagator,
    *,
    choose: Callable[[Store], int | None] | None = None,
    order: Callable[[Store, int], Iterable[int]] | None = None,
    max_solutions: int | None = 1,
    keep: int | None = None,
    node_limit: int | None = None,
    deadline: Expiring | None = None,
    last_conflict: bool = False,
    parts: Parts | None = None,
    choose_in: Callable[[Store, set[int]], int | None] | None = None,
) -> SolveResult:
    """Depth-first search for solutions of `prop`'s rules; the store is left as it was.

    `choose(store)` returns the variable to branch on, or None when every
    variable is fixed (a solution); `order(store, var)` the values to try
    (default: the domain, ascending). Stops after `max_solutions` solutions
    (None: all); keeps the first `keep` of them (None: all found). A
    `deadline` becomes `prop`'s for the call, so propagation polls it too.

    With `last_conflict`, the variable whose value failed last is branched on
    first wherever it is still unfixed, before `choose` is asked (Lecoutre,
    Sais, Tabary and Vidal's last-conflict reasoning). Why: when both values of
    a variable fail, the search backs up to a decision that may have nothing to
    do with the failure; trying the culprit again at once finds the failure
    under the next value too, where `choose` would wander off and meet it again
    deep below unrelated decisions (thrashing). Every value of every chosen
    variable is still tried, so the search stays complete.

    With `parts` (and `choose_in`), independent parts are searched apart (an
    AND/OR search, as model counters do): at each node `parts(store, scope)`
    may split the unfixed variables of the node's scope (None at the root: all
    of them) into groups that no constraint joins, so that the solutions below
    the node are exactly every combination of one completion of each group.
    Each group is then searched on its own, branching only on its variables
    (`choose_in(store, unfixed variables of the group)`); the node's count is
    the product of the groups' counts (a group with none ends the node at
    once), and its solutions their combinations. Why: a search that mixes two
    independent regions refutes a failing one again below every way the other
    is completed; apart, it pays for each region once. Saying which groups are
    independent is the caller's proof (`search.islandparts` for islands).
    """
    if max_solutions is not None and max_solutions < 1:
        raise ValueError(f"max_solutions must be None or at least 1, got {max_solutions}")
    if (parts is None) != (choose_in is None):
        raise ValueError("parts and choose_in go together")
    store = prop.store
    base = store.mark()
    own_deadline = prop.deadline
    if deadline is not None:
        prop.deadline = deadline
    # After the deadline is set: the poller reads the propagator's clock.
    walk = _Walk(prop, most_constrained if choose is None else choose, order, last_conflict,
                 parts, choose_in, prop.poller(node_limit))
    found = _Found(keep)
    try:
        prop.schedule_all()
        if prop.propagate():
            walk.run(found, max_solutions)
        exhausted = max_solutions is None or found.count < max_solutions
        return SolveResult(tuple(found.solutions), found.count, walk.nodes, exhausted,
                           depth=walk.deepest)
    except LimitReached as stop:
        return SolveResult(tuple(found.solutions), found.count, walk.nodes, False, stop.hit,
                           walk.deepest)
    finally:
        prop.deadline = own_deadline
        store.undo(base)


# `search`'s `parts`: (store, the unfixed variables of a node's scope or None for all) ->
# groups covering those variables, two or more, that no constraint joins; or None.
Parts = Callable[[Store, list[int] | None], list[list[int]] | None]


class _Found:
    """The solutions below a search node: how many, and the first `keep` (None: all)."""

    __slots__ = ("keep", "count", "solutions")

    def __init__(self, keep: int | None) -> None:
        self.keep = keep
        self.count = 0
        self.solutions: list[tuple[int | None, ...]] = []

    def room(self) -> int | None:
        """How many more solutions it keeps (None: any number)."""
        return None if self.keep is None else max(self.keep - len(self.solutions), 0)


class _Walk:
    """`search`'s depth-first walk: one generator per node, driven from one loop.

    Why generators: a node asks for its children's searches (yielding a child's
    scope, where the child puts what it finds, and when to stop) and goes on
    when they are done, like a recursive search, while the stack of suspended
    nodes is a list in `run`, so a deep search hits no recursion limit.
    A node stops once `found.count` reaches its `stop` (None: never).
    """

    __slots__ = ("prop", "store", "choose", "order", "last_conflict", "parts", "choose_in",
                 "poller", "nodes", "open", "deepest", "conflict")

    def __init__(self, prop: Propagator, choose: Callable[[Store], int | None],
                 order: Callable[[Store, int], Iterable[int]] | None, last_conflict: bool,
                 parts: Parts | None, choose_in: Callable[[Store, set[int]], int | None] | None,
                 poller: Poller) -> None:
        self.prop, self.store, self.choose, self.order = prop, prop.store, choose, order
        self.last_conflict, self.parts, self.choose_in = last_conflict, parts, choose_in
        self.poller = poller
        self.nodes = 0  # values tried at branching points
        self.open = 0  # branching decisions open on the current path
        self.deepest = 0  # the most of them at once
        self.conflict = -1  # the variable whose value failed last (`last_conflict`)

    def run(self, found: _Found, stop: int | None) -> None:
        """Search from the root, a fixpoint, into `found`."""
        stack = [self._node(None, found, stop)]
        while stack:
            try:
                child = next(stack[-1])
            except StopIteration:
                stack.pop()
                continue
            stack.append(self._node(*child))

    def _node(self, scope: list[int] | None, found: _Found, stop: int | None
              ) -> Iterator[tuple[list[int] | None, _Found, int | None]]:
        """The search below a propagated node, of the variables of `scope` (None: all)."""
        store = self.store
        if scope is not None:
            scope = [v for v in scope if not store.is_fixed(v)]
        groups = None if self.parts is None else self.parts(store, scope)
        if groups is not None:
            yield from self._split(scope, groups, found, stop)
            return
        var = self._choice(scope)
        if var is None:
            if found.room() != 0:
                found.solutions.append(store.solution() if scope is None
                                       else store.assignment())
            found.count += 1
            return
        values = store.values(var) if self.order is None else list(self.order(store, var))
        self.open += 1
        if self.open > self.deepest:
            self.deepest = self.open
        poller, prop = self.poller, self.prop
        for x in values:
            if self.nodes >= poller.at:
                poller.stop(self.nodes)
            self.nodes += 1
            mark = store.mark()
            try:
                store.assign(var, x)
                held = prop.propagate()
            except Contradiction:
                held = False
            if held:
                yield scope, found, stop
            elif self.last_conflict:
                self.conflict = var
            store.undo(mark)
            if stop is not None and found.count >= stop:
                break
        self.open -= 1

    def _choice(self, scope: list[int] | None) -> int | None:
        """The variable to branch on, None when the scope is all fixed: the last conflict
        while it is unfixed and in scope, else the caller's choice."""
        store, conflict = self.store, self.conflict
        if scope is None:
            if conflict >= 0 and not store.is_fixed(conflict):
                var = conflict
            else:
                var = self.choose(store)
        elif not scope:
            return None
        else:
            unfixed = set(scope)
            if conflict in unfixed:
                return conflict
            assert self.choose_in is not None
            var = self.choose_in(store, unfixed)
            if var not in unfixed:
                raise ValueError(f"choose_in returned {var}, not an unfixed variable of "
                                 f"the part")
        if var is not None and store.is_fixed(var):
            raise ValueError(f"choose returned fixed variable {var}")
        return var

    def _split(self, scope: list[int] | None, groups: list[list[int]], found: _Found,
               stop: int | None) -> Iterator[tuple[list[int] | None, _Found, int | None]]:
        """Search each group apart (the `search` docstring); into `found`, the product of
        their counts and their combinations."""
        store = self.store
        unfixed = (scope if scope is not None
                   else [v for v in range(len(store)) if not store.is_fixed(v)])
        if (len(groups) < 2 or sorted(v for group in groups for v in group) != sorted(unfixed)):
            raise ValueError("parts must split the unfixed variables of the scope into two "
                             "or more groups")
        need = None if stop is None else stop - found.count
        done: list[_Found] = []
        for group in groups:
            part = _Found(found.room())
            yield group, part, need
            if not part.count:
                return  # no completion of this group: none of the node
            done.append(part)
        count = math.prod(part.count for part in done)
        room = found.room()
        if room != 0:
            base = store.assignment()
            for combination in itertools.islice(
                    itertools.product(*(part.solutions for part in done)), room):
                values = list(base)
                for group, solution in zip(groups, combination, strict=True):
                    for v in group:
                        values[v] = solution[v]
                found.solutions.append(tuple(values))
        found.count += count if need is None else min(count, need)
