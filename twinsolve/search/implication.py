"""Learned implications: what a trial at the root proved, kept as a rule for the search.

A trial (`search.lookahead`, failed-literal probing) assigns `var = x` and
propagates; when that holds, it reaches a fixpoint where some variables are
narrowed: each `w` to a domain `m`. The rules derived it, so in the store
where the trial ran, `var = x` implies `w in m` for each such `w`. When that
store is the root (every solution of the puzzle lies in it), the implication
is true of every solution, and may join the rules for good:

- forwards: once `var = x`, each `w` keeps only the values of its `m` (what
  the trial found, now without running the rules that found it, which a
  search node may not run to the same depth: the trial probed);
- backwards (the contrapositive): once some `w` has no value left in its
  `m`, `var` is not `x`. This is the part a propagation cannot find alone:
  a trial one level deeper at every node would.

`Implication` is that rule for one trial, watching `var` and every `w`. It
is sound like the rules that ran the trial, and a count of solutions stays
exact: it removes no value any solution takes. It is only sound where the
trial's store holds every solution: learn at the root, never at a search's
node, whose trials assume its branching decisions.

Why it pays: the root's lookahead trials each cost a probing fixpoint, and
a search meets the same question at many nodes, where it probes one pass
only. Kept, the answer costs a few comparisons per change of a watched
variable.

>>> from twinsolve.search.propagate import IS_FALSE, IS_TRUE, Store
>>> store = Store.booleans(3)
>>> rule = Implication(0, 1, {1: IS_TRUE, 2: IS_FALSE})  # x0 = 1 implies x1 = 1, x2 = 0
>>> store.restrict(2, IS_TRUE)  # x2 = 1, so x0 is not 1
True
>>> rule(store), store.dom[0] == IS_FALSE
(None, True)
"""

from __future__ import annotations

from collections.abc import Mapping

from .propagate import Store

__all__ = ["Implication"]


class Implication:
    """The rule "`var = value` implies each `w` in `narrowed` within its mask"; see the
    module docstring. `narrowed` is a trial's outcome (`Store.narrowed_since`: a
    variable and its domain at the trial's fixpoint); `var` itself is left out.
    `watches` are the variables it reads."""

    __slots__ = ("var", "value", "bit", "narrowed", "watches")

    def __init__(self, var: int, value: int, narrowed: Mapping[int, int]) -> None:
        self.var, self.value, self.bit = var, value, 1 << value
        self.narrowed = tuple((w, m) for w, m in narrowed.items() if w != var)
        self.watches = (var, *(w for w, _ in self.narrowed))

    def __call__(self, store: Store) -> None:
        dom, bit = store.dom, self.bit
        held = dom[self.var]
        if not held & bit:
            return  # var is not value: the implication says nothing
        if held == bit:
            for w, m in self.narrowed:
                if dom[w] & ~m:
                    store.restrict(w, m)  # Contradiction when nothing of m is left
            return
        for w, m in self.narrowed:
            if not dom[w] & m:
                store.remove(self.var, self.value)
                return
