"""Failed literals one level deeper: trials that propagate with probing.

The propagation driver's probing (`propagate.Propagator.enable_probing`)
tries each candidate value and runs the rules to a fixpoint: a value whose
rules fail is removed. `Lookahead` goes one level deeper for a propagation
that is stuck: each trial runs the propagator's whole `propagate()`, probing
included, so a value is removed when every way its probing continues fails
(what a person finds by "if this cell were shaded, then that one could be
neither"). A removal is propagated at once and the pass starts again, until
a pass removes nothing. It is sound like the rules it runs: a count of
solutions stays exact.

Forcing (`forcing=True`), the same rule as probing's one level deeper: when
every value of a variable was tried and held, each other variable keeps only
the values some trial's fixpoint left it (`propagate.force`), as every
solution takes one of the values tried. A trial's fixpoint here includes its
probing, so this finds what needs a failed literal under each value: "shaded,
probing proves that cell unshaded; unshaded, the rules make it unshaded:
unshaded either way". It costs no trial of its own; a narrowing counts as a
removal.

Learning (`learn=True`, at the root only): a trial that holds proved what
`var = x` implies there, and the lookahead keeps that as a rule on the
propagator (`search.implication.Implication`): its contrapositive removes
`x` as soon as one of those narrowings becomes impossible, in the trials
that follow and in a search after, where no trial one level deeper runs. It
costs no trial. Only at the root, because a trial's store must hold every
solution for its implications to hold in every one.

Near (`near`): a removal's consequences are mostly near it, and probing the
whole frontier after each removal is most of a lookahead's cost when it
removes much. With `near`, the caller narrows its probing to the cells near
what the removal changed while it propagates; the store is then a fixpoint of
the rules, not yet of the probing, so before the lookahead ends (a pass
without a failed value, or the budget or patience spent) one probing pass
over every candidate runs, and the lookahead goes on when that narrowed
anything. So it still ends at a whole fixpoint. On the janko.at Nurikabe
corpus (`python -m benchmarks.nurikabe_perf --backends hand`): 756_15x15 is
settled at the root in 1.35 s, where the budget ran out after 2.2 s and a
search of 10 nodes followed; 688_20x20 1.5 s to 1.35 s.

It costs a probing fixpoint per trial, so a caller runs it at the root only,
once plain propagation is stuck, and bounds it by `budget` trials, and by
`patience`: so many trials in a row that remove nothing (numbers, not times:
the same store gives the same answer on every machine). Why patience: a
lookahead that finds nothing for long seldom finds anything later, and its
trials are the dearest work of a root.

Order of the trials, within the budget: the variables tried longest ago first
(never tried before all), so a pass that starts again after a removal begins
with those the last pass did not reach; ties go to the variable whose probing
trials at the root reached furthest (`Propagator.reach`, the product over
its values of one plus the narrowings; probing off: the candidates' order).
Why: a trial that reaches far is the likeliest to fail one level deeper. On
the janko.at Nurikabe corpus this cut the trials to a settled root by half
or more (259_10x18: 102 to 1; 476_9x12: 132 to 24; 940_15x15: 77 to 27).
A pass still ends only after every candidate held, so the result is a
fixpoint whatever the order.

>>> from twinsolve.search.propagate import Propagator, Store
>>> store = Store.uniform(2, range(3))
>>> prop = Propagator(store)
>>> def differ(s):  # x0 != x1, and x0 = 2 forbids x1 = 0 and x1 = 1 (so x0 is not 2)
...     for v, w in ((0, 1), (1, 0)):
...         if s.is_fixed(v):
...             s.remove(w, s.value(v))
...     if s.value(0) == 2:
...         s.restrict(1, 1 << 2)
>>> prop.add_rule(differ)
>>> Lookahead(prop, lambda s: [0]).run(), store.values(0)
(True, [0, 1])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .implication import Implication
from .propagate import Propagator, Store, force

__all__ = ["Lookahead"]

_OUT_OF_BUDGET = object()  # `Lookahead._failed`: the trials allowed are spent
_FORCED = object()  # `Lookahead._failed`: forcing narrowed the store


class Lookahead:
    """Failed-literal trials that each propagate with probing; see the module docstring.

    `candidates(store)` gives the variables to try, read again at each pass;
    `order(store, var)` the values (default: the domain, ascending); `budget`
    bounds the trials, `patience` the trials in a row that remove nothing (None:
    no bound); `forcing` keeps what every value of a variable implies (module
    docstring). `focus(var)` is told the variable of each
    trial before it and `focus(None)` after, so the caller may narrow its probing
    to the trial's neighbourhood meanwhile (cheaper trials, found the same way when
    contradictions are local). `learn` keeps what each trial that holds implies as a rule
    (module docstring; the store must be the root's). `near(True)` is called before a
    removal's propagation and `near(False)` after, so the caller may narrow its probing
    meanwhile to the cells near what changed (`Propagator.origin`): the lookahead then
    ends only after a probing pass over every candidate found nothing more (before it
    ends, one such pass runs; if it narrows anything, the lookahead goes on, its
    patience starting again). `trials` counts those made, `learned` the rules added.
    """

    def __init__(self, prop: Propagator,
                 candidates: Callable[[Store], Iterable[int]],
                 order: Callable[[Store, int], Iterable[int]] | None = None,
                 budget: int | None = None,
                 focus: Callable[[int | None], None] | None = None,
                 patience: int | None = None, forcing: bool = False,
                 learn: bool = False, near: Callable[[bool], None] | None = None) -> None:
        self.prop, self.candidates, self.order, self.budget = prop, candidates, order, budget
        self.focus, self.patience, self.forcing, self.learn = focus, patience, forcing, learn
        self.near = near
        self.trials = 0
        self.learned = 0
        self.fruitful = 0  # the trials made up to the last one that removed or forced
        self.last: dict[int, int] = {}  # variable -> the trial that last tried it

    def run(self) -> bool | None:
        """Passes until one removes nothing: True then, False on a contradiction (no
        solution), None when the budget ran out first. The store starts and ends at a
        fixpoint of the propagator (`LimitReached` passes through at a deadline); with
        `near`, a removal's propagation probes near its changes only, and before the
        lookahead ends a probing pass over every candidate makes the fixpoint whole (the
        class docstring)."""
        prop = self.prop
        partial = False  # a removal propagated with `near` since the last whole pass
        while True:
            found = self._failed()
            if found is None or found is _OUT_OF_BUDGET:
                if not partial:
                    return True if found is None else None  # a whole pass held
                partial = False
                mark = prop.store.mark()
                prop.schedule_all()  # queued rules: propagate() probes again
                if not prop.propagate():
                    return False
                if prop.store.mark() == mark:  # a fixpoint of the probing too
                    return True if found is None else None
                self.fruitful = self.trials  # it found more: patience starts again
                continue
            if found is not _FORCED:
                var, x = found
                prop.store.remove(var, x)
            if self.near is None:
                if not prop.propagate():
                    return False
                continue
            partial = True
            self.near(True)
            try:
                held = prop.propagate()
            finally:
                self.near(False)
            if not held:
                return False

    def _failed(self) -> tuple[int, int] | object | None:
        """The first candidate value whose trial fails, `_FORCED` when forcing narrowed
        the store, `_OUT_OF_BUDGET`, or None."""
        store = self.prop.store
        for var in self._ordered(list(self.candidates(store))):
            values = store.values(var) if self.order is None else self.order(store, var)
            # What each value's trial narrowed, while every value tried held (forcing).
            outcomes: list[dict[int, int]] | None = [] if self.forcing else None
            for x in values:
                if store.is_fixed(var):
                    break
                if not store.contains(var, x):
                    continue
                if self.budget is not None and self.trials >= self.budget:
                    return _OUT_OF_BUDGET
                if self.patience is not None and self.trials - self.fruitful >= self.patience:
                    return _OUT_OF_BUDGET
                self.last[var] = self.trials
                self.trials += 1
                narrowed = self._holds(var, x)
                if narrowed is None:
                    self.fruitful = self.trials
                    return var, x
                if self.learn:
                    self._keep(var, x, narrowed)
                if outcomes is not None:
                    outcomes.append(narrowed)
            if force(store, outcomes):
                self.fruitful = self.trials
                return _FORCED
        return None

    def _keep(self, var: int, x: int, narrowed: dict[int, int]) -> None:
        """Add what the held trial `var = x` narrowed as a rule (`Implication`). It finds
        nothing in the store it was learned in (each narrowing still possible there), so
        the store stays a fixpoint."""
        implication = Implication(var, x, narrowed)
        if implication.narrowed:
            self.prop.add_rule(implication, implication.watches)
            self.learned += 1

    def _ordered(self, candidates: list[int]) -> list[int]:
        """The candidates tried longest ago first, ties by the reach of their probing
        trials at the root, largest first (module docstring); a stable sort."""
        reach = self.prop.reach()
        last = self.last
        return sorted(candidates, key=lambda var: (last.get(var, -1), -reach.get(var, 0)))

    def _holds(self, var: int, x: int) -> dict[int, int] | None:
        """What `var = x` narrows when it propagates, probing included, without
        contradiction (`Store.narrowed_since`), None when it fails; the store is left as
        it was, and so is the propagator's `impact` (the root's probes, which a search
        branches on after the lookahead)."""
        prop = self.prop
        store, impact = prop.store, prop.impact
        mark = store.mark()
        if self.focus is not None:
            self.focus(var)
        try:
            store.assign(var, x)
            return store.narrowed_since(mark) if prop.propagate() else None
        finally:
            store.undo(mark)
            prop.impact = impact
            if self.focus is not None:
                self.focus(None)
