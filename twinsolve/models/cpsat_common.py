"""What every CP-SAT model in twinsolve shares: solving under `Limits`, and counting.

Solving. `solve_model(model, decisions, limits, deadline)` runs one
`cp_model.CpSolver` on a model the caller built, with

- `max_time_in_seconds` = what is left of the deadline (none without a timeout),
- `num_workers` = `limits.options["workers"]`, default 1: one worker is
  deterministic, so node counts repeat from run to run,
- `random_seed` = `limits.options["seed"]`, else `limits.seed`,
- any other option key set verbatim when it is a `SatParameters` field
  (`cpsat:linearization_level=2`); unknown keys are a `UsageError`.

`check_options(limits)` refuses, before any model is built, what the solver
would refuse: unknown keys, values of the wrong type, and values CP-SAT's own
parameter check rejects (`workers=-1`, which CP-SAT would otherwise answer
with MODEL_INVALID): it solves an empty model, with no time to spend, under
the options given. The puzzlekit peer shares it for its CP-SAT options.

It returns a `CpOutcome` of plain values: the twinsolve `Status` (OPTIMAL ->
optimal for a model with an objective and solved without one, FEASIBLE ->
feasible, INFEASIBLE -> unsat, UNKNOWN -> timeout, MODEL_INVALID -> error),
the decision variables' values, the objective, and the search effort
(`nodes` = `num_branches`, docs/architecture.md; conflicts beside it).

Counting ("forbid and re-solve", as in cspuz). `count_solutions` clones the
model, fixes its objective at the optimum (then drops it), forbids the
assignment already found, and re-solves: each solution found is forbidden in
turn (a clause "some decision variable differs"), until INFEASIBLE (the exact
count), `stop_at` solutions (2 settles uniqueness) or the deadline (count
unknown). The caller's model is never changed. `solve_and_count` is the
usual sequence: one solve, then counting only when `limits` asks for
uniqueness or a count.

Enumeration (`enumerate_solutions`): one CP-SAT run with
`enumerate_all_solutions`, collecting the distinct assignments of the
decision variables; right when every auxiliary variable is fixed by them
(else CP-SAT reports one assignment many times, harmless, but its run is
longer), and far cheaper than a fresh solve per solution when there are many.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model
from pysat.card import CardEnc, EncType

from ..core.errors import UsageError
from ..core.limits import Deadline, Limits
from ..core.result import Status, Tally, solutions_wanted, stopped_short
from ..system.interrupts import on_interrupt

__all__ = ["optimum_and_tally", "CpEffort", "CpOutcome", "SolutionCount", "check_options",
           "configure",
           "solve_model", "count_solutions", "solve_and_count", "enumerate_solutions",
           "enumerate_with_fallback", "within_budget", "add_count_clauses"]

# Option keys with a twinsolve name; every other key must be a SatParameters field.
_ALIASES = {"workers": "num_workers", "seed": "random_seed"}


@dataclass
class CpEffort:
    """Search effort summed over every CP-SAT call of a run; `nodes` = branches."""

    nodes: int = 0
    conflicts: int = 0
    calls: int = 0

    def absorb(self, solver: cp_model.CpSolver) -> None:
        self.nodes += int(solver.num_branches)
        self.conflicts += int(solver.num_conflicts)
        self.calls += 1

    def merge(self, other: CpEffort) -> None:
        self.nodes += other.nodes
        self.conflicts += other.conflicts
        self.calls += other.calls

    def counters(self) -> dict[str, Any]:
        return {"conflicts": self.conflicts, "solver_calls": self.calls}


@dataclass(frozen=True)
class CpOutcome:
    """One CP-SAT call, as plain values.

    `values` holds the decision variables' values in the order given (None
    without a solution); `objective` the solution's objective (None for a
    feasibility model); `bound` the proven bound on it.
    """

    status: Status
    values: tuple[int, ...] | None = None
    objective: int | None = None
    bound: float | None = None
    effort: CpEffort = field(default_factory=CpEffort)
    message: str | None = None


@dataclass(frozen=True)
class SolutionCount(Tally):
    """A `Tally` with the search effort it took and, when the search reports it, the
    first solution's decision values (`first`)."""

    effort: CpEffort = field(default_factory=CpEffort)
    first: tuple[int, ...] | None = None


# ---------------------------------------------------------------- solving

def check_options(limits: Limits, backend: str = "cpsat") -> None:
    """Refuse bad options before any work, even when no solver call will be needed.

    `backend` names the back-end in messages (the puzzlekit peer passes CP-SAT options too).
    """
    solver = cp_model.CpSolver()
    configure(solver, limits, Deadline(None), backend)
    if not limits.options:
        return  # the defaults are always valid
    if "max_time_in_seconds" not in {_ALIASES.get(key, key) for key in limits.options}:
        solver.parameters.max_time_in_seconds = 0.0  # check, do not search
    # Why an empty model: CP-SAT checks its parameters' ranges only when asked to solve.
    if solver.solve(cp_model.CpModel()) == cp_model.MODEL_INVALID:
        raise UsageError(f"{backend} options refused by CP-SAT: {solver.solution_info()}")


def configure(solver: cp_model.CpSolver, limits: Limits, deadline: Deadline,
              backend: str = "cpsat") -> None:
    """Set time, workers, seed and pass-through options on `solver.parameters`."""
    params = solver.parameters
    params.num_workers = 1
    # Why: CP-SAT's own Ctrl-C handler ends the search as if out of time (a false
    # `timeout`) and leaves SIGINT at its default, so the next Ctrl-C kills Python
    # silently. Python keeps the signal; solve_model stops the search (on_interrupt).
    params.catch_sigint_signal = False
    _set_parameter(params, "random_seed", int(limits.seed), "seed", backend)
    for key, value in limits.options.items():
        _set_parameter(params, _ALIASES.get(key, key), value, key, backend)
    # The run's time limit bounds the call too: the hard stop cannot cut it short.
    remaining = deadline.within_run().remaining()
    if remaining is not None:
        params.max_time_in_seconds = max(remaining, 0.0)


def _set_parameter(params: Any, name: str, value: Any, given: str, backend: str) -> None:
    if not isinstance(getattr(type(params), name, None), property):
        raise UsageError(f"{backend} has no option {given!r} (use workers=N, seed=N or a "
                         "CP-SAT SatParameters field such as linearization_level=2)")
    current = getattr(params, name)
    members = getattr(type(current), "__members__", None)
    if members is not None and isinstance(value, str):  # enum fields by name
        if value not in members:
            raise UsageError(f"{backend} option {given}={value!r}: choose one of "
                             f"{', '.join(members)}")
        value = members[value]
    try:
        if isinstance(value, bool) and not isinstance(current, bool):
            raise TypeError  # True would pass for 1: a typo, not a number
        setattr(params, name, value)
    except (TypeError, ValueError):
        raise _refused(backend, given, value, current) from None


def _refused(backend: str, given: str, value: Any, current: Any) -> UsageError:
    problem = f"expected a value of type {type(current).__name__}"
    if type(value) is int and type(current) is int:  # the right type, too big for the field
        problem = "out of range"
    return UsageError(f"{backend} option {given}={value!r}: {problem}")


def _status(code: Any, has_objective: bool) -> Status:
    if code == cp_model.OPTIMAL:
        return Status.OPTIMAL if has_objective else Status.SOLVED
    if code == cp_model.FEASIBLE:
        return Status.FEASIBLE if has_objective else Status.SOLVED
    if code == cp_model.INFEASIBLE:
        return Status.UNSAT
    if code == cp_model.UNKNOWN:
        return Status.TIMEOUT
    return Status.ERROR


def add_count_clauses(model: cp_model.CpModel, lits: Sequence[cp_model.IntVar],
                      count: int) -> None:
    """Clauses saying that exactly `count` of the Booleans `lits` are true: PySAT's
    modulo totalizer of "at most `count` of them" and of "at most len - `count` of
    their negations" (as `sat_common.Encoding.add_at_most` writes them), each
    variable of the encoding a fresh Boolean of `model`.

    Why, beside the linear constraint a model states anyway: CP-SAT explains a sum's
    propagation by the literals that fixed it, so what it learns speaks of the
    summed variables only; the totalizer's counters (how many of a part of them
    are true) are variables it learns about too. Nurikabe's thin sea on 753_10x10
    (four large islands, 19 sea cells; `python -m benchmarks.nurikabe_perf`): with
    its size's clauses beside the sum, found in about 11 s and proven unique in
    about 25 s; with the sum alone, not found in 900 s.
    """
    size = len(lits)
    if count < 0 or count > size:
        model.add_bool_or([])  # no way
        return
    fresh: dict[int, cp_model.IntVar] = {}

    def literal(x: int) -> Any:
        var = lits[abs(x) - 1] if abs(x) <= size else fresh.get(abs(x))
        if var is None:
            var = fresh[abs(x)] = model.new_bool_var(f"count{len(fresh)}")
        return var if x > 0 else var.negated()

    ids = list(range(1, size + 1))
    top = size
    for bound, members in ((count, ids), (size - count, [-i for i in ids])):
        if bound < size:
            cnf = CardEnc.atmost(members, bound, top_id=top, encoding=EncType.kmtotalizer)
            for clause in cnf.clauses:
                model.add_bool_or([literal(x) for x in clause])
            top = max(top, cnf.nv)


def solve_model(model: cp_model.CpModel, decisions: Sequence[cp_model.IntVar],
                limits: Limits, deadline: Deadline | None = None) -> CpOutcome:
    """Solve `model` under `limits`; values of `decisions` come back as plain ints."""
    deadline = deadline or limits.deadline()
    if deadline.expired():  # no time left: CP-SAT would still load the whole model first
        return CpOutcome(Status.TIMEOUT)
    solver = cp_model.CpSolver()
    configure(solver, limits, deadline)
    with on_interrupt(solver.stop_search):
        code = solver.solve(model)
    if code == cp_model.UNKNOWN:
        deadline.out_of_time()  # the run's time limit, not this deadline: its stop
    effort = CpEffort()
    effort.absorb(solver)
    has_objective = model.has_objective()
    status = _status(code, has_objective)
    if status is Status.ERROR:
        return CpOutcome(status, effort=effort,
                         message=f"invalid CP-SAT model: {model.validate() or code}")
    if not status.has_solution:
        return CpOutcome(status, effort=effort)
    values = tuple(int(solver.value(var)) for var in decisions)
    objective = int(round(solver.objective_value)) if has_objective else None
    bound = float(solver.best_objective_bound) if has_objective else None
    return CpOutcome(status, values, objective, bound, effort)


# ---------------------------------------------------------------- counting

def count_solutions(model: cp_model.CpModel, decisions: Sequence[cp_model.IntVar],
                    limits: Limits, deadline: Deadline | None = None,
                    optimum: int | None = None, known: Sequence[int] | None = None,
                    stop_at: int | None = None) -> SolutionCount:
    """Count distinct assignments of `decisions` among solutions of `model`.

    A model with an objective needs its `optimum`: only solutions at the
    optimum count. `known` is a solution's decision values already found (it
    is counted and forbidden first, saving a call); `stop_at` ends the search
    once that many are found. `model` itself is not changed.
    """
    deadline = deadline or limits.deadline()
    work = model.clone()
    if work.has_objective():
        if optimum is None:
            raise ValueError("count_solutions on a model with an objective needs its optimum")
        _fix_objective(work, optimum)
    elif optimum is not None:
        raise ValueError("an optimum was given but the model has no objective")
    twins = [_twin(work, var) for var in decisions]
    found, complete, effort = 0, False, CpEffort()
    if known is not None:
        found = 1
        _forbid(work, twins, known)
    while stop_at is None or found < stop_at:
        outcome = solve_model(work, twins, limits, deadline)
        effort.merge(outcome.effort)
        if outcome.values is None:
            complete = outcome.status is Status.UNSAT
            break
        found += 1
        _forbid(work, twins, outcome.values)
    return SolutionCount(found, complete, effort)


def solve_and_count(model: cp_model.CpModel, decisions: Sequence[cp_model.IntVar],
                    limits: Limits, deadline: Deadline) -> SolutionCount:
    """Solve a feasibility model, then, when `limits` asks for uniqueness or a count,
    forbid-and-re-solve up to `solutions_wanted` (`optimum_and_tally`, as one
    `SolutionCount`); `first` is the first solution's values. An invalid model is a
    `RuntimeError` (a bug of the caller's, not of the input)."""
    outcome, tally, effort = optimum_and_tally(model, decisions, limits, deadline)
    if outcome.status is Status.ERROR:
        raise RuntimeError(outcome.message)
    if outcome.values is None:
        return SolutionCount(0, outcome.status is Status.UNSAT, effort)
    if tally is None:  # stopped at the one wanted: not a complete search
        return SolutionCount(1, False, effort, outcome.values)
    return SolutionCount(tally.found, tally.complete, effort, outcome.values)


class _Distinct(cp_model.CpSolverSolutionCallback):
    """The distinct assignments of `decisions` met during an enumeration, in the order
    found, stopping the search at `stop_at` (None: never)."""

    def __init__(self, decisions: Sequence[cp_model.IntVar], stop_at: int | None) -> None:
        super().__init__()
        self.decisions, self.stop_at = decisions, stop_at
        self.found: dict[tuple[int, ...], None] = {}

    def on_solution_callback(self) -> None:
        self.found.setdefault(tuple(int(self.value(var)) for var in self.decisions))
        if self.stop_at is not None and len(self.found) >= self.stop_at:
            self.stop_search()


def enumerate_solutions(model: cp_model.CpModel, decisions: Sequence[cp_model.IntVar],
                        limits: Limits, deadline: Deadline, stop_at: int | None = None
                        ) -> SolutionCount:
    """The distinct assignments of `decisions` over the solutions of a feasibility
    model, in one CP-SAT run (one worker: CP-SAT enumerates on one), up to `stop_at`
    (None: all); complete when the run ended before that."""
    if deadline.expired():  # no time left: CP-SAT would still load the whole model first
        return SolutionCount(0, False)
    solver = cp_model.CpSolver()
    configure(solver, limits, deadline)
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    collector = _Distinct(decisions, stop_at)
    with on_interrupt(solver.stop_search):
        code = solver.solve(model, collector)
    if code == cp_model.UNKNOWN:
        deadline.out_of_time()  # the run's time limit, not this deadline: its stop
    if code == cp_model.MODEL_INVALID:
        raise RuntimeError(f"invalid CP-SAT model: {model.validate()}")
    effort = CpEffort()
    effort.absorb(solver)
    found = list(collector.found)
    # OPTIMAL: the enumeration finished (or stopped at `stop_at`); INFEASIBLE: nothing.
    stopped = stop_at is not None and len(found) >= stop_at
    complete = code in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not stopped
    return SolutionCount(len(found), complete, effort, found[0] if found else None)


def within_budget(limits: Limits, budget: float) -> Limits:
    """`limits` with each CP-SAT call bounded by `budget` units of deterministic time (the
    same on every machine, so what the bound stops never depends on the machine's
    speed)."""
    return limits.with_(options={**limits.options, "max_deterministic_time": budget})


def enumerate_with_fallback(model: cp_model.CpModel, decisions: Sequence[cp_model.IntVar],
                            limits: Limits, deadline: Deadline, stop_at: int | None,
                            budget: float | None, fallback: dict[str, Any]) -> SolutionCount:
    """`enumerate_solutions` within `budget` units of CP-SAT's deterministic time
    (`within_budget`; None: no bound, one run); when that bound, not the run's deadline,
    stops it short, once more from scratch with the `fallback` parameters over
    `limits`' own. The effort of both is counted.

    Why: a setting that is fastest on nearly every input can have a heavy tail (a
    search that wanders where another setting's presolve sees through at once); the
    budget caps what the tail costs."""
    if budget is None:
        return enumerate_solutions(model, decisions, limits, deadline, stop_at)
    first = enumerate_solutions(model, decisions, within_budget(limits, budget), deadline,
                                stop_at)
    if not stopped_short(first.found, first.complete, stop_at) or deadline.expired():
        return first
    again = limits.with_(options={**limits.options, **fallback})
    then = enumerate_solutions(model, decisions, again, deadline, stop_at)
    effort = CpEffort()
    effort.merge(first.effort)
    effort.merge(then.effort)
    # The deadline may stop the second run before it finds what the first had found.
    best = then if then.complete or then.found >= first.found else first
    return SolutionCount(best.found, best.complete, effort, best.first)


def _twin(work: cp_model.CpModel, var: cp_model.IntVar) -> cp_model.IntVar:
    """The clone's variable with the same index (a clone keeps every index)."""
    if var.index < 0:
        raise ValueError(f"decision {var} is a negated literal; pass the variable itself")
    return work.get_int_var_from_proto_index(var.index)


def _fix_objective(work: cp_model.CpModel, optimum: int) -> None:
    """Replace the objective by the constraint "objective == optimum".

    The proto stores objective = scaling * (sum(coeffs * vars) + offset);
    scaling is 1 for `minimize` and -1 for `maximize`.
    """
    objective = work.proto.objective
    scaling = objective.scaling_factor or 1.0
    if scaling not in (1.0, -1.0) or work.proto.has_floating_point_objective():
        raise ValueError("count_solutions handles integer objectives only")
    target = optimum / scaling - objective.offset
    if target != int(target):
        raise ValueError(f"optimum {optimum} is not reachable by the integer objective")
    terms = [work.get_int_var_from_proto_index(i) for i in objective.vars]
    work.add(cp_model.LinearExpr.weighted_sum(terms, list(objective.coeffs)) == int(target))
    # Why drop the objective: with it fixed, OPTIMAL just means "a solution".
    work.clear_objective()


def _forbid(work: cp_model.CpModel, twins: Sequence[cp_model.IntVar],
            values: Sequence[int]) -> None:
    """Add "at least one decision variable differs from `values`"."""
    differs = []
    for var, value in zip(twins, values, strict=True):
        if var.is_boolean:
            differs.append(var.negated() if value else var)
        else:
            other = work.new_bool_var(f"differs[{var.name}]")
            work.add(var != value).only_enforce_if(other)
            differs.append(other)
    work.add_bool_or(differs)


def optimum_and_tally(model: cp_model.CpModel, decisions: Sequence[cp_model.IntVar],
                      limits: Limits, deadline: Deadline
                      ) -> tuple[CpOutcome, SolutionCount | None, CpEffort]:
    """Solve, then, when `limits` asks for uniqueness or a count, count the optimal
    assignments of `decisions` (every solution's, without an objective) by
    forbid-and-re-solve (to the end for `count`; a second one settles `unique`).
    Returns the outcome, the tally (None when not asked, or when the optimum is not
    proven) and the effort of every call."""
    outcome = solve_model(model, decisions, limits, deadline)
    effort, tally = CpEffort(), None
    effort.merge(outcome.effort)
    wanted = solutions_wanted(limits)
    if outcome.status in (Status.OPTIMAL, Status.SOLVED) and wanted != 1:
        tally = count_solutions(model, decisions, limits, deadline, optimum=outcome.objective,
                                known=outcome.values, stop_at=wanted)
        effort.merge(tally.effort)
    return outcome, tally, effort
