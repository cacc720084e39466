"""A PySAT solver whose calls under a deadline run in a forked child killed on time.

The rule. Some solvers cannot be stopped on time in this process: PySAT's
Kissat and Lingeling have neither an interrupt nor conflict budgets, and
Glucose 4.1 (glucose4, gluecard4) checks its interrupt only between restarts,
which on a hard formula can be seconds apart (measured: 1.5 s late on a 0.4 s
limit). `ForkingSolver` wraps such a solver. Its calls under a deadline
(`solve_within`) go to a forked copy of this process (`system.forked`), made
at the first such call and killed at a deadline; the child answers with the
outcome, the model, the core and its counts, and the wrapper gives
`get_model`, `get_core`, `get_status` and `accum_stats` from them, so
`SatSession` and RC2 use it as they would the solver.

The idea. The child keeps its solver between calls, so an incremental solver
keeps what it learnt, as in process; a call costs a round trip through a pipe,
not a fork. What changes the formula (`add_clause`, `add_atmost`, ...) is done
at once on the solver in this process and kept in a journal that goes to the
child with its next call, so after a kill (the child's learnt clauses die
with it) the next call forks a new child from a solver that has every clause.
A child killed at the deadline takes its counts with it: `accum_stats` is
then None ("not available", never a false count). Everything else (a call
without a deadline, `delete`) goes to the solver in this process.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pysat.solvers import Solver

from ..system.forked import ForkedServer

__all__ = ["ForkingSolver", "pysat_leaves_sigint"]


class _NotMainThread:
    @staticmethod
    def check() -> bool:
        return False


@contextmanager
def pysat_leaves_sigint() -> Iterator[None]:
    """A PySAT call during which Ctrl-C stays with Python's own handler.

    Why: for a call without `expect_interrupt` (CaDiCaL, Kissat, Lingeling),
    PySAT installs a SIGINT handler that longjmps out of the solver, at times
    out of the middle of malloc: the process then hangs or aborts
    ("free(): invalid pointer"), and CaDiCaL is always left in an invalid
    state. PySAT installs it only on the main thread, which it asks
    `pysat.solvers.MainThread`; answering no leaves the signal to Python.
    """
    import pysat.solvers

    real = pysat.solvers.MainThread
    pysat.solvers.MainThread = _NotMainThread
    try:
        yield
    finally:
        pysat.solvers.MainThread = real


# The Solver methods that change the formula: done here at once, and journalled for the child.
_CHANGES = frozenset({"add_clause", "append_formula", "add_atmost", "add_xor_clause",
                      "set_phases", "activate_atmost"})


@dataclass(frozen=True)
class _Answer:
    """What the last forked call gave (all None when it was killed at the deadline)."""

    outcome: bool | None
    model: list[int] | None
    core: list[int] | None


def _serve(solver: Solver, stats: bool, request: tuple[list, list[int], int | None]) -> tuple:
    """In the child: catch up with the journal, then solve under the assumptions: in one
    call, or in conflict-budget slices doubling from `budget` (what this process would
    have run, so the search is the same wherever it runs: `sat_common._solve_in_slices`)."""
    journal, assumptions, budget = request
    for name, args, kwargs in journal:
        getattr(solver, name)(*args, **kwargs)
    with pysat_leaves_sigint():
        if budget is None:
            outcome = solver.solve(assumptions=assumptions)
        else:
            outcome = None
            while outcome is None:
                solver.conf_budget(budget)
                outcome = solver.solve_limited(assumptions=assumptions)
                budget *= 2
    return (outcome, solver.get_model() if outcome else None,
            solver.get_core() if outcome is False and assumptions else None,
            solver.accum_stats() if stats else None)


class ForkingSolver:
    """A PySAT `Solver` whose calls under a deadline run in a killable child (module doc)."""

    def __init__(self, solver: Solver, stats: bool) -> None:
        self._solver = solver
        self._stats = stats           # does accum_stats() work for it (not Kissat)
        self._server: ForkedServer | None = None
        self._journal: list[tuple[str, tuple, dict]] = []  # changes the child has not seen
        self._answer: _Answer | None = None  # the last call's, when it was forked
        self._at_fork: dict[str, int] = {}   # this process's counts when the child was made
        self._child_counts: Counter[str] = Counter()  # the live child's own counts
        self._counted: Counter[str] = Counter()       # those of children closed since
        self._killed = False  # a child killed at its deadline took its counts with it

    def __getattr__(self, name: str) -> Any:
        return getattr(self._solver, name)

    def _change(self, name: str, args: tuple, kwargs: dict[str, Any]) -> Any:
        """A change of the formula: made here at once, journalled while a child lives."""
        # an iterator would be spent here: the child gets the values
        args = tuple(list(a) if isinstance(a, Iterator) else a for a in args)
        if self._server is not None:
            self._journal.append((name, args, kwargs))
        return getattr(self._solver, name)(*args, **kwargs)

    @property
    def native(self) -> Solver:
        """The solver in this process."""
        return self._solver

    @property
    def forked(self) -> bool:
        """A child serves this solver now: every call goes to it."""
        return self._server is not None

    def solve_within(self, seconds: float | None, assumptions: Sequence[int],
                     budget: int | None = None) -> bool | None:
        """True, False, or None when `seconds` ran out (the child was killed); `seconds`
        None: no deadline. With `budget`, the child runs the call in conflict-budget
        slices doubling from it (`_serve`)."""
        if self._server is None:  # the fork copies the solver as it is now
            self._at_fork = self._solver.accum_stats() if self._stats else {}
            self._server = ForkedServer(functools.partial(_serve, self._solver, self._stats))
            self._journal = []
        request, self._journal = (self._journal, list(assumptions), budget), []
        returned = self._server.ask(request, seconds)
        if returned is None:
            self._end_child(killed=True)
            self._answer = _Answer(None, None, None)
            return None
        outcome, model, core, counts = returned.value
        if counts is not None:
            self._child_counts = Counter({key: value - self._at_fork.get(key, 0)
                                          for key, value in counts.items()})
        self._answer = _Answer(outcome, model, core)
        return outcome

    def _end_child(self, killed: bool) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        self._killed |= killed
        self._counted.update(self._child_counts)
        self._child_counts = Counter()

    def solve(self, *args: Any, **kwargs: Any) -> bool | None:
        self._answer = None
        return self._solver.solve(*args, **kwargs)

    def solve_limited(self, *args: Any, **kwargs: Any) -> bool | None:
        self._answer = None
        return self._solver.solve_limited(*args, **kwargs)

    def get_model(self) -> list[int] | None:
        return self._solver.get_model() if self._answer is None else self._answer.model

    def get_core(self) -> list[int] | None:
        return self._solver.get_core() if self._answer is None else self._answer.core

    def get_status(self) -> bool | None:
        return self._solver.get_status() if self._answer is None else self._answer.outcome

    def accum_stats(self) -> dict[str, int] | None:
        """The counts of every call, or None once a killed call's counts are lost."""
        if self._killed:
            return None
        counted = Counter(self._solver.accum_stats())
        counted.update(self._counted)
        counted.update(self._child_counts)
        return dict(counted)

    def delete(self) -> None:
        self._end_child(killed=False)
        self._solver.delete()


def _changing(name: str) -> Callable[..., Any]:
    def change(self: ForkingSolver, *args: Any, **kwargs: Any) -> Any:
        return self._change(name, args, kwargs)
    change.__name__ = name
    return change


# Why methods rather than __getattr__: `add_clause` is the hot path of cut loops (654k
# cuts on 683_14x24); a method is found at once, a closure made per call is not.
for _name in _CHANGES:
    setattr(ForkingSolver, _name, _changing(_name))
