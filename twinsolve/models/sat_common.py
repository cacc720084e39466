"""What every PySAT encoding in twinsolve shares: variables, XOR, solving, counting.

Variables. An `Encoding` holds hard clauses over plain integer literals from an
`IDPool` keyed by readable tuples, `enc.var("press", r, c)`; auxiliaries are
keyed `("aux", kind, n)` so a model dump stays readable.

Parity. `add_xor(lits, parity)` states "an odd number of `lits` are true" (or
even). A direct CNF of an m-literal XOR needs 2^(m-1) clauses, so longer XORs
are cut into chunks chained by Tseitin auxiliaries: t1 = l1^l2^l3,
t2 = t1^l4^l5, ..., and the last chunk carries the parity.

Solvers. `solver_name(limits)` reads `limits.options["solver"]` (default
`cadical195`, any PySAT name or alias) and refuses unknown names with a
`UsageError`. A `SatSession` owns one PySAT solver (always freed, a context
manager) and runs every call under a `Deadline`. PySAT solvers differ in what
they allow, declared as data in `TRAITS`: glucose / minisat / maple style
solvers are stopped by a `threading.Timer` calling `interrupt()`; CaDiCaL has
no `interrupt()` in PySAT, so it runs in conflict-budget slices of a fixed,
doubling schedule (learnt clauses are kept between slices; the same schedule
with or without a deadline, so what it finds never depends on the machine's
speed), and a slice that may be long runs in a forked child killed at the
deadline. Nothing in this process stops Kissat or Lingeling (neither
interrupt nor budgets) or Glucose 4.1 (its interrupt is heard only at
restarts, seconds apart) on time, so under a deadline each of their calls
runs in a forked child killed at the deadline (`models.sat_forked`). Kissat is also
non-incremental: the session rebuilds it from all clauses before every call
after the first.

Optimisation ("fewest true literals"). `minimise` offers two methods:
`linear` (default) is SAT-UNSAT linear search: solve, then add "cost <= last
cost - 1" (a modulo totalizer, `CardEnc` kmtotalizer) and solve again, on the
same incremental solver, until UNSAT. It is anytime (a timeout still returns
the best model, `feasible`) and works with every solver. `rc2` runs PySAT's
core-guided RC2 over unit soft clauses [-lit]; it needs a solver with
assumptions and cores (not Kissat) and yields nothing until it proves the
optimum.

Counting ("forbid and re-solve", as in cspuz). `count_solutions` adds
"cost <= bound" to a copy of the clauses, forbids the known model, and
repeats: solve, block the assignment of the decision literals, until UNSAT
(exact count), `stop_at` models (e.g. 2 for uniqueness), or the deadline
(count unknown).

Statistics. `nodes` is the number of decisions (docs/architecture.md); conflicts,
propagations, restarts and the number of SAT calls sit beside it, summed over
every solver a run used. Kissat exposes no statistics in PySAT: its nodes
stay 0, its counters are left out and `stats_available` is False.
"""

from __future__ import annotations

import functools
import itertools
import threading
import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from pysat.card import CardEnc, EncType
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF, IDPool
from pysat.solvers import NoSuchSolverError, Solver, SolverNames

from ..core.errors import UsageError
from ..core.limits import Deadline, Limits
from ..core.result import Status, Tally, solutions_wanted
from ..system import forked
from ..system.interrupts import interrupt_deferred, on_interrupt
from .sat_forked import ForkingSolver, pysat_leaves_sigint

__all__ = [
    "minimum_and_tally", "DEFAULT_SOLVER", "TRAITS", "SolverTraits", "Encoding", "xor_clauses",
    "solver_name",
    "check_options", "maxsat_method", "holds", "SatStats", "limited_solve", "SatSession",
    "Minimum", "minimise",
    "minimise_linear", "minimise_rc2", "SolutionCount", "count_solutions",
]

DEFAULT_SOLVER = "cadical195"
MAXSAT_METHODS = ("linear", "rc2")
_XOR_CHUNK = 4          # literals per direct XOR chunk: 2^(4-1) = 8 clauses each
_FIRST_SLICE = 100      # conflicts in the first budgeted slice of a non-interruptible solver
_SLICE_SECONDS = 0.5    # a slice predicted longer runs in a forked child (_solve_in_slices)


# ---------------------------------------------------------------- solver traits

@dataclass(frozen=True)
class SolverTraits:
    """What a PySAT solver supports beyond plain `solve()`."""

    interrupt: bool = True    # interrupt() stops solve_limited(expect_interrupt=True)
    budget: bool = True       # conf_budget() + solve_limited() run in resumable slices
    prompt: bool = True       # it heeds the interrupt or budget within a fraction of a second
    incremental: bool = True  # clauses may be added after a solve; assumptions and cores
    stats: bool = True        # accum_stats() gives decisions, conflicts, propagations

    @property
    def forked(self) -> bool:
        """Nothing in this process stops it on time: under a deadline each call runs in
        a forked child killed at the deadline (models.sat_forked)."""
        return not self.prompt or not (self.interrupt or self.budget)

    @property
    def sliced(self) -> bool:
        """No interrupt, but budgets: it runs in slices, a long one in a child (CaDiCaL)."""
        return self.budget and self.prompt and not self.interrupt


_NO_INTERRUPT = SolverTraits(interrupt=False)
# Solvers not listed here support everything (glucose, minisat, maple, gluecard, ...).
# Glucose 4.1 (glucose4, gluecard4) checks its interrupt and budgets only between
# restarts, which can be seconds apart: not prompt, so its calls under a deadline are
# forked like those of Kissat and Lingeling, which have neither (models.sat_forked).
_LATE = SolverTraits(prompt=False)
TRAITS: dict[str, SolverTraits] = {
    "cadical103": _NO_INTERRUPT,
    "cadical153": _NO_INTERRUPT,
    "cadical195": _NO_INTERRUPT,
    "cadical300": _NO_INTERRUPT,
    "kissat404": SolverTraits(interrupt=False, budget=False, incremental=False, stats=False),
    "lingeling": SolverTraits(interrupt=False, budget=False),
    "glucose4": _LATE,
    "gluecard4": _LATE,
}


def _known_solvers() -> dict[str, str]:
    """Every PySAT solver name and alias, mapped to its canonical name."""
    known: dict[str, str] = {}
    for canonical, aliases in vars(SolverNames).items():
        if canonical.startswith("_") or not isinstance(aliases, tuple):
            continue
        known[canonical] = canonical
        for alias in aliases:
            known[alias] = canonical
    return known


def solver_name(limits: Limits) -> str:
    """The canonical PySAT solver name chosen by `limits.options["solver"]`.

    >>> solver_name(Limits(options={"solver": "g4"}))
    'glucose4'
    """
    asked = str(limits.options.get("solver", DEFAULT_SOLVER))
    canonical = _known_solvers().get(asked.lower())
    if canonical is None:
        choices = ", ".join(sorted(n for n in set(_known_solvers().values()) if _available(n)))
        raise UsageError(f"unknown SAT solver {asked!r} (choose one of: {choices})")
    if not _available(canonical):
        raise UsageError(f"SAT solver {asked!r} is not available in this PySAT build")
    return canonical


def _available(name: str) -> bool:
    """Listed by PySAT and compiled into this build (cryptosat, for one, may not be)."""
    try:
        Solver(name=name).delete()
    except NoSuchSolverError:
        return False
    return True


def check_options(limits: Limits, allowed: Iterable[str] = ("solver",)) -> None:
    """Refuse what a SAT back-end reading the `allowed` keys would refuse, before any work.

    An unknown key (a typo would be silently ignored), an unknown or unavailable
    solver, a `maxsat` method other than linear or rc2. The registry's checker for
    the sat back-ends that take only `solver`.
    """
    limits.check_options("sat", allowed)
    solver_name(limits)
    if "maxsat" in limits.options:
        maxsat_method(limits, MAXSAT_METHODS[0])


def maxsat_method(limits: Limits, default: str) -> str:
    """The MaxSAT method `limits.options["maxsat"]` chooses (`default` if none)."""
    return _known_method(limits.options.get("maxsat", default))


def _known_method(method: Any) -> str:
    if method not in MAXSAT_METHODS:
        raise UsageError(f"unknown MaxSAT method {method!r} (choose one of: "
                         f"{', '.join(MAXSAT_METHODS)})")
    return str(method)


def _traits(name: str) -> SolverTraits:
    return TRAITS.get(name, SolverTraits())


def _stoppable(solver: Solver, traits: SolverTraits) -> Solver:
    """`solver`, wrapped so that a deadline stops it on time when nothing else can."""
    if (traits.forked or traits.sliced) and forked.AVAILABLE:
        return ForkingSolver(solver, traits.stats)  # type: ignore[return-value]
    return solver


# ---------------------------------------------------------------- encoding

def xor_clauses(lits: Sequence[int], parity: int, fresh: Any,
                chunk: int = _XOR_CHUNK) -> list[list[int]]:
    """CNF for "the number of true `lits` is odd" (parity 1) or even (parity 0).

    `fresh()` returns a new variable for each Tseitin link. A literal and its
    negation, or a repeated literal, cancel out first (x ^ x = 0, x ^ -x = 1),
    so a press that reaches a light twice is simply dropped. An XOR of no
    literals with parity 1 is the empty clause.

    >>> xor_clauses([1, 2], 1, None)
    [[1, 2], [-1, -2]]
    """
    if chunk < 3:
        raise ValueError("XOR chunks need at least 3 literals (2 inputs and a link)")
    odd: dict[int, int] = {}
    for lit in lits:
        parity ^= lit < 0
        odd[abs(lit)] = odd.get(abs(lit), 0) ^ 1
    rest = [var for var, times in odd.items() if times]
    parity &= 1
    clauses: list[list[int]] = []
    # Why the chain: each link t = xor(head) costs 2^(chunk-1) clauses instead
    # of one block exponential in len(lits); unit propagation still runs along
    # the links, if not quite as far as on one flat XOR.
    while len(rest) > chunk:
        link = fresh()
        clauses += _direct_xor(rest[:chunk - 1] + [link], 0)
        rest = [link] + rest[chunk - 1:]
    return clauses + _direct_xor(rest, parity)


def _direct_xor(variables: Sequence[int], parity: int) -> list[list[int]]:
    """One clause per assignment of the wrong parity, forbidding exactly it."""
    clauses = []
    for signs in itertools.product((False, True), repeat=len(variables)):
        if sum(signs) % 2 != parity:
            clauses.append([-v if true else v for v, true in zip(variables, signs, strict=True)])
    return clauses


class Encoding:
    """Hard clauses over readable variables.

    >>> enc = Encoding(); a = enc.var("press", 0, 0); b = enc.var("press", 0, 1)
    >>> enc.add_xor([a, b], 1); enc.clauses
    [[1, 2], [-1, -2]]
    """

    def __init__(self) -> None:
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self._top = 0

    @property
    def top(self) -> int:
        """The largest variable in use (including ranges reserved by PySAT encoders)."""
        return max(self._top, self.pool.top)

    def var(self, *key: Hashable) -> int:
        """The variable for a readable key such as ("press", r, c); created on first use."""
        return self.pool.id(key)

    def fresh(self, kind: str = "aux") -> int:
        return self.pool.id(("aux", kind, self.top + 1))

    def add(self, clause: Iterable[int]) -> None:
        self.clauses.append(list(clause))

    def add_xor(self, lits: Sequence[int], parity: int, chunk: int = _XOR_CHUNK) -> None:
        self.clauses += xor_clauses(lits, parity, lambda: self.fresh("xor"), chunk)

    def add_at_most(self, lits: Sequence[int], bound: int) -> None:
        """"At most `bound` of `lits` are true".

        Why the modulo totalizer (kmtotalizer): a fixed bound needs no
        incremental outputs, and it is the smallest of PySAT's encodings here
        (32k clauses for 900 literals at bound 450, against 312k for a totalizer).
        """
        if bound < 0:
            self.add([])
        elif bound < len(lits):
            cnf = CardEnc.atmost(list(lits), bound, top_id=self.top,
                                 encoding=EncType.kmtotalizer)
            self.clauses += [list(c) for c in cnf.clauses]
            self._reserve(cnf.nv)

    def _reserve(self, top_id: int) -> None:
        """Mark ids up to `top_id` (made by a PySAT encoder) as used; fresh() skips them."""
        if top_id > self.top:
            self.pool.occupy(self.top + 1, top_id)
            self._top = top_id

    def copy(self) -> Encoding:
        twin = Encoding()
        twin.pool = IDPool(start_from=self.top + 1)
        twin.pool.obj2id.update(self.pool.obj2id)
        twin.pool.id2obj.update(self.pool.id2obj)
        twin.clauses = [list(c) for c in self.clauses]
        twin._top = self.top
        return twin


# ---------------------------------------------------------------- solving

@dataclass
class SatStats:
    """Counters summed over every SAT call of a run; `nodes` = decisions."""

    decisions: int = 0
    conflicts: int = 0
    propagations: int = 0
    restarts: int = 0
    calls: int = 0
    stats_available: bool = True

    @property
    def nodes(self) -> int:
        return self.decisions

    def absorb(self, solver_stats: dict[str, int] | None) -> None:
        if solver_stats is None:
            self.stats_available = False
            return
        self.decisions += int(solver_stats.get("decisions", 0))
        self.conflicts += int(solver_stats.get("conflicts", 0))
        self.propagations += int(solver_stats.get("propagations", 0))
        self.restarts += int(solver_stats.get("restarts", 0))

    def merge(self, other: SatStats) -> None:
        self.decisions += other.decisions
        self.conflicts += other.conflicts
        self.propagations += other.propagations
        self.restarts += other.restarts
        self.calls += other.calls
        self.stats_available &= other.stats_available

    def counters(self) -> dict[str, Any]:
        if not self.stats_available:  # Kissat: no counts at all rather than false zeros
            return {"solver_calls": self.calls, "stats_available": False}
        return {"conflicts": self.conflicts, "propagations": self.propagations,
                "restarts": self.restarts, "solver_calls": self.calls}


def _interrupt_wins(call: Callable[..., bool | None]) -> Callable[..., bool | None]:
    """Ctrl-C during a PySAT call made without `expect_interrupt` (CaDiCaL, Kissat, no
    deadline) is caught by PySAT's own handler and comes back as an error saying
    "Caught keyboard interrupt": raise it as the KeyboardInterrupt it is, so the run
    is `interrupted`, never `error`. The solver is left unusable (SatSession.close)."""
    @functools.wraps(call)
    def guarded(*args: Any, **kwargs: Any) -> bool | None:
        try:
            return call(*args, **kwargs)
        except Exception as exc:
            if "keyboard interrupt" in str(exc).lower():
                raise KeyboardInterrupt from None
            raise
    return guarded


@_interrupt_wins
def limited_solve(solver: Solver, traits: SolverTraits, deadline: Deadline,
                  assumptions: Sequence[int] = ()) -> bool | None:
    """One SAT call that respects `deadline`: True, False, or None when out of time.

    The call is also bounded by the run's time limit (`Deadline.within_run`): when
    that is what ran out, its stop is raised once the solver has returned (never
    "out of time" for a deadline that has not passed, which a caller could take
    for an answer).
    """
    bound = deadline.within_run()
    outcome = _bounded_solve(solver, traits, bound, assumptions)
    if outcome is None:
        deadline.out_of_time()
    return outcome


def _bounded_solve(solver: Solver, traits: SolverTraits, bound: Deadline,
                   assumptions: Sequence[int]) -> bool | None:
    remaining = bound.remaining()
    if remaining is not None and remaining <= 0:
        return None
    if traits.sliced:  # CaDiCaL: the same slices with or without a deadline
        return _solve_in_slices(solver, bound, assumptions)
    if isinstance(solver, ForkingSolver) and (solver.forked or remaining is not None):
        return solver.solve_within(remaining, assumptions)
    if traits.interrupt:  # even without a deadline: Ctrl-C interrupts it (on_interrupt)
        return _solve_with_timer(solver, remaining, assumptions)
    # Neither interruptible nor sliceable, and no deadline or no fork here: unbounded.
    return solver.solve(assumptions=list(assumptions))


def _solve_with_timer(solver: Solver, seconds: float | None,
                      assumptions: Sequence[int]) -> bool | None:
    # No timer without a deadline; Ctrl-C interrupts the call either way, and then
    # Python raises KeyboardInterrupt as it returns (PySAT itself ignores SIGINT here).
    timer = threading.Timer(seconds, solver.interrupt) if seconds is not None else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        with on_interrupt(solver.interrupt):
            outcome = solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
    finally:
        if timer is not None:
            timer.cancel()
            timer.join()  # an interrupt already under way has landed before we clear it
        solver.clear_interrupt()
    return outcome


def _solve_in_slices(solver: Solver, deadline: Deadline,
                     assumptions: Sequence[int]) -> bool | None:
    """Conflict-budget slices doubling from `_FIRST_SLICE`: one schedule on every machine.

    Why slices: CaDiCaL cannot be interrupted from PySAT, but a budgeted call
    returns None and the next call resumes with the learnt clauses kept. Why a
    fixed schedule: each slice changes the search a little (it starts again from
    the root), so slices sized from the measured conflict rate, as they were,
    made what is found depend on the machine's speed and load (29_10x10: a
    first solution in 130 s in one run, none in 900 s in another). Why a child:
    a slice that may take longer than `_SLICE_SECONDS` at the rate measured so
    far, or outlast the deadline, goes with the rest of the schedule to the
    session's forked child (models.sat_forked), killed at the deadline; where a
    slice runs changes nothing in what it finds. Without fork (not POSIX) the
    slices are capped to fit the deadline instead, and the search depends on time.
    """
    forking = isinstance(solver, ForkingSolver)
    native = solver.native if forking else solver  # its counts, whatever a child did
    budget, rate = _FIRST_SLICE, None
    while True:
        remaining = deadline.remaining()
        if remaining is not None and remaining <= 0:
            return None
        seconds = None if rate is None else budget / rate  # the next slice, predicted
        if forking and (solver.forked or _too_long(seconds, remaining)):
            return solver.solve_within(remaining, assumptions, budget)
        if not forking and remaining is not None and rate is not None:
            budget = int(max(_FIRST_SLICE, min(budget, rate * min(remaining, _SLICE_SECONDS))))
        before = native.accum_stats().get("conflicts", 0)
        started = time.perf_counter()
        solver.conf_budget(budget)
        with pysat_leaves_sigint():
            outcome = solver.solve_limited(assumptions=list(assumptions))
        if outcome is not None:
            return outcome
        spent = max(time.perf_counter() - started, 1e-6)
        rate = max(native.accum_stats().get("conflicts", 0) - before, 1) / spent
        budget *= 2


def _too_long(seconds: float | None, remaining: float | None) -> bool:
    """Whether a slice predicted to take `seconds` should run in a child, killable."""
    if seconds is None:  # the first slice: no rate measured yet
        return False
    return seconds > _SLICE_SECONDS or (remaining is not None and seconds > remaining)


class SatSession:
    """One PySAT solver over growing clauses; every `solve()` honours the deadline.

    >>> with SatSession("glucose4", [[1, 2], [-1]], Deadline(None)) as s:
    ...     s.solve(), sorted(s.model())
    (True, [-1, 2])
    """

    def __init__(self, name: str, clauses: Iterable[Sequence[int]], deadline: Deadline) -> None:
        self.name = name
        self.traits = _traits(name)
        self.deadline = deadline
        self.stats = SatStats()
        clauses = [list(c) for c in clauses]
        # Only a non-incremental solver needs the clauses again (it is rebuilt).
        self._clauses = clauses if not self.traits.incremental else []
        self._solver: Solver | None = _stoppable(Solver(name=name, bootstrap_with=clauses),
                                                  self.traits)
        self._used = False   # a non-incremental solver must be rebuilt after one call
        self._model: list[int] | None = None

    def __enter__(self) -> SatSession:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        # After Ctrl-C the solver may be stopped mid-search: asking CaDiCaL for its
        # statistics then aborts the process ("solver in invalid state").
        self.close(stats=kind is None or not issubclass(kind, KeyboardInterrupt))

    def close(self, stats: bool = True) -> None:
        if self._solver is not None:
            if stats:
                self._collect_stats()
            self._free()
            self._solver = None

    def _free(self) -> None:
        with interrupt_deferred():  # PySAT's delete is not atomic (interrupt_deferred)
            self._solver.delete()

    def _collect_stats(self) -> None:
        if self._used:
            self.stats.absorb(self._solver.accum_stats() if self.traits.stats else None)

    def add(self, clause: Sequence[int]) -> None:
        if not self.traits.incremental:
            self._clauses.append(list(clause))
        if self.traits.incremental or not self._used:
            self._solver.add_clause(list(clause))

    def solve(self, assumptions: Sequence[int] = ()) -> bool | None:
        """True (a model is ready), False (unsatisfiable), None (out of time).

        `assumptions` hold for this call only: an incremental solver keeps what it
        learnt for the next call (that is how one solver answers many questions).
        A solver that is not incremental takes none (ValueError).
        """
        if assumptions and not self.traits.incremental:
            raise ValueError(f"SAT solver {self.name} takes no assumptions (not incremental)")
        if not self.traits.incremental and self._used:
            self._collect_stats()
            self._free()
            self._solver = _stoppable(Solver(name=self.name, bootstrap_with=self._clauses),
                                      self.traits)
        self._used = True
        self.stats.calls += 1
        outcome = limited_solve(self._solver, self.traits, self.deadline, assumptions)
        self._model = self._solver.get_model() if outcome else None
        return outcome

    def model(self) -> set[int]:
        """The last model as a set of true literals."""
        if self._model is None:
            raise RuntimeError("no model: the last solve() did not return True")
        return set(self._model)


# ---------------------------------------------------------------- optimisation

@dataclass(frozen=True)
class Minimum:
    """Outcome of minimising the number of true `cost_lits`.

    `status` is OPTIMAL, FEASIBLE (a model, optimality not proven), UNSAT or
    TIMEOUT; `model` the set of true literals; `cost` its cost.
    """

    status: Status
    model: frozenset[int] | None
    cost: int | None
    stats: SatStats = field(default_factory=SatStats)


def holds(model: AbstractSet[int], lit: int) -> bool:
    """Whether `lit` is true in a PySAT model (a set of true literals).

    PySAT models leave out variables that occur in no clause given to the
    solver; such a variable is free, and reads as false here, consistently
    for costs, blocking clauses and decoded solutions.

    >>> holds({1, -2}, -2), holds({1}, -3), holds({1}, 3)
    (True, True, False)
    """
    return lit in model or (lit < 0 and -lit not in model)


def _cost(model: AbstractSet[int], cost_lits: Sequence[int]) -> int:
    return sum(1 for lit in cost_lits if holds(model, lit))


def minimise(encoding: Encoding, cost_lits: Sequence[int], name: str, deadline: Deadline,
             method: str = "linear") -> Minimum:
    """Fewest true `cost_lits` subject to `encoding`, by `method` "linear" or "rc2"."""
    if _known_method(method) == "linear":
        return minimise_linear(encoding, cost_lits, name, deadline)
    return minimise_rc2(encoding, cost_lits, name, deadline)


def minimise_linear(encoding: Encoding, cost_lits: Sequence[int], name: str,
                    deadline: Deadline) -> Minimum:
    """SAT-UNSAT linear search: each model's cost, minus one, becomes the new bound.

    The caller's `encoding` is not changed (the bounds go into a copy).
    """
    work = encoding.copy()
    with SatSession(name, work.clauses, deadline) as session:
        outcome = session.solve()
        if outcome:
            status, best, cost = _tighten(session, work, cost_lits)
    if not outcome:
        return Minimum(Status.UNSAT if outcome is False else Status.TIMEOUT, None, None,
                       session.stats)
    return Minimum(status, best, cost, session.stats)


def _tighten(session: SatSession, work: Encoding,
             cost_lits: Sequence[int]) -> tuple[Status, frozenset[int], int]:
    """From a first model, demand ever cheaper ones until UNSAT (optimal) or time is up.

    Why a fresh "at most cost - 1" per step rather than one incremental
    totalizer: the first cost on a large board is in the hundreds, and a
    totalizer that wide is ~300k clauses (seconds in Python), while a modulo
    totalizer per step is ~30k; boards have few solutions, so there are few steps.
    """
    best = frozenset(session.model())
    cost = _cost(best, cost_lits)
    while cost > 0:
        known = len(work.clauses)
        work.add_at_most(cost_lits, cost - 1)
        for clause in work.clauses[known:]:
            session.add(clause)
        outcome = session.solve()
        if outcome is None:
            return Status.FEASIBLE, best, cost
        if outcome is False:
            break
        best = frozenset(session.model())
        cost = _cost(best, cost_lits)
    return Status.OPTIMAL, best, cost


class _DeadlineRC2(RC2):
    """RC2 whose every oracle call goes through `limited_solve`.

    Why a subclass: RC2's own timeout calls the oracle's `interrupt()`, which
    CaDiCaL lacks in PySAT. RC2 funnels its core-guided SAT calls through the
    `_call_oracle` hook (PySAT >= 1.8); overriding it gives RC2 the same deadline
    handling as every other call here (timer, slices). When a call runs out of
    time, `interrupted` is set and RC2 stops with no model.
    """

    def __init__(self, formula: WCNF, solver: str, deadline: Deadline) -> None:
        self._deadline = deadline
        self._solver_traits = _traits(solver)
        self.oracle_calls = 0
        super().__init__(formula, solver=solver)

    def init(self, formula: WCNF, incr: bool = False) -> None:
        super().init(formula, incr=incr)
        self.oracle = _stoppable(self.oracle, self._solver_traits)

    def _call_oracle(self, assumptions=(), expect_interrupt=False):
        self.oracle_calls += 1
        outcome = limited_solve(self.oracle, self._solver_traits, self._deadline, assumptions)
        if outcome is None:
            self.interrupted = True
        return outcome

    def clear_interrupt(self) -> None:  # limited_solve already cleaned up after itself
        pass

    def delete(self) -> None:
        with interrupt_deferred():  # PySAT's delete is not atomic (interrupt_deferred)
            super().delete()

    def get_core(self) -> None:
        # Why: after a call cut short by the deadline the oracle may still hold
        # the status of an earlier UNSAT call; asking CaDiCaL for that stale core
        # aborts the process. No core makes RC2 stop, and `interrupted` says why.
        if self.interrupted:
            self.core = None
            return
        super().get_core()


def minimise_rc2(encoding: Encoding, cost_lits: Sequence[int], name: str,
                 deadline: Deadline) -> Minimum:
    """Core-guided MaxSAT (RC2) with one unit soft clause [-lit] per cost literal."""
    if not _traits(name).incremental:
        raise UsageError(f"RC2 needs a SAT solver with assumptions and cores; {name} has "
                         "none in PySAT (use maxsat=linear or another solver)")
    if not hasattr(RC2, "_call_oracle"):
        raise UsageError("this PySAT's RC2 has no _call_oracle hook for timeouts; "
                         "use maxsat=linear")
    formula = WCNF()
    for clause in encoding.clauses:
        formula.append(clause)
    for lit in cost_lits:
        formula.append([-lit], weight=1)
    stats = SatStats()
    with _DeadlineRC2(formula, name, deadline) as rc2:
        model = rc2.compute()
        stats.absorb(rc2.oracle.accum_stats() if _traits(name).stats else None)
        stats.calls = rc2.oracle_calls
        if model is not None:
            found = frozenset(model)
            return Minimum(Status.OPTIMAL, found, _cost(found, cost_lits), stats)
        status = Status.TIMEOUT if rc2.interrupted else Status.UNSAT
        return Minimum(status, None, None, stats)


# ---------------------------------------------------------------- counting

@dataclass(frozen=True)
class SolutionCount(Tally):
    """A `Tally` with the search effort it took."""

    stats: SatStats = field(default_factory=SatStats)


def _block(model: AbstractSet[int], decision_lits: Sequence[int]) -> list[int]:
    """The clause "at least one decision literal differs from `model`"."""
    return [-lit if holds(model, lit) else lit for lit in decision_lits]


def count_solutions(encoding: Encoding, decision_lits: Sequence[int], name: str,
                    deadline: Deadline, cost_lits: Sequence[int] = (),
                    bound: int | None = None, known: Iterable[int] | None = None,
                    stop_at: int | None = None) -> SolutionCount:
    """Count distinct assignments of `decision_lits` with at most `bound` true `cost_lits`.

    With `bound` = the optimum this counts the optimal solutions. `known` is a
    model already found (it is counted and forbidden first, saving a call);
    `stop_at` ends the search once that many are found (2 settles uniqueness).
    The caller's `encoding` is not changed.
    """
    work = encoding.copy()
    if bound is not None:
        # Why a cardinality bound rather than "cost == optimum": nothing is
        # cheaper than the optimum, so "<=" is the same set and encodes smaller.
        work.add_at_most(cost_lits, bound)
    found, complete = 0, False
    with SatSession(name, work.clauses, deadline) as session:
        if known is not None:
            found = 1
            session.add(_block(frozenset(known), decision_lits))
        while stop_at is None or found < stop_at:
            outcome = session.solve()
            if not outcome:
                complete = outcome is False
                break
            found += 1
            session.add(_block(session.model(), decision_lits))
    return SolutionCount(found, complete, session.stats)


def minimum_and_tally(encoding: Encoding, cost_lits: Sequence[int], name: str,
                      deadline: Deadline, method: str, limits: Limits
                      ) -> tuple[Minimum, SolutionCount | None, SatStats]:
    """The fewest true `cost_lits`, then, when `limits` asks for uniqueness or a
    count, the optimal assignments of them counted by forbid-and-re-solve (to the
    end for `count`; a second one settles `unique`). Returns the minimum, the tally
    (None when not asked or not optimal) and the effort of every call."""
    best = minimise(encoding, cost_lits, name, deadline, method)
    effort, tally = SatStats(), None
    effort.merge(best.stats)
    if best.status is Status.OPTIMAL and (limits.unique or limits.count):
        tally = count_solutions(encoding, cost_lits, name, deadline, cost_lits=cost_lits,
                                bound=best.cost, known=best.model,
                                stop_at=solutions_wanted(limits))
        effort.merge(tally.stats)
    return best, tally, effort
