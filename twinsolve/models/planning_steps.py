"""Planning encodings, the parts every puzzle shares: moves per step, horizons, counting.

A planning encoding (clock, jugs, Solitaire Chess) has the state at each time
step 0..T and one move per step: a Boolean `do[t,m]` for step t and move m,
exactly one true per step (`cpsat_choices`, `sat_choices`). The puzzle
writes `build(T)`: a model whose solutions are exactly the plans of T moves,
the start fixed at step 0 and the goal demanded at step T. The rest is here,
the same for CP-SAT and SAT:

- `solve_plan_cpsat(build, lower, upper, limits, timer)` / `solve_plan_sat`:
  the horizon grows with `planning.grow_horizon`, from a lower bound to an
  upper bound on the length of any shortest plan. The first horizon with a
  plan is optimal, since every shorter one was proved to have none; none up
  to `upper` proves there is no plan at all.
- `unique` / `count`: forbid and re-solve at the optimal horizon, over the
  `do` variables alone (`cpsat_common.count_solutions`,
  `sat_common.count_solutions`). Why those alone suffice: a move is a
  function of the state, so the moves fix every state and distinct `do`
  assignments are distinct move sequences; and at the optimal horizon every
  plan is a shortest one.
- `PlanTimer`: a model is built per horizon, so building time is summed
  across horizons into `build_s` and the rest is `solve_s`.
- Stopping: a `build(T)` that polls the deadline (`Deadline.check`) and
  raises `LimitReached` makes horizon T unknown, so the run is a timeout;
  `upper` may be a function, a bound the builder tightens as it learns
  (`planning.grow_horizon`).
- `closure_unreachable_cpsat` / `closure_unreachable_sat`: a declarative
  proof that no goal is reachable, for state spaces small enough to list: a
  Boolean `inside[s]` per state, `inside[start]`, `inside[s] -> inside[s']`
  for every move s -> s', and `not inside[g]` for every goal g. A solution is
  a set of states closed under the moves that holds the start and no goal,
  so it proves the goal unreachable; infeasibility proves it reachable (the
  least such set is the reachable set), which bounds the horizon search.

`nodes` = branches (CP-SAT) or decisions (SAT), summed over every call;
counters `horizons` (how many were tried), `conflicts`, `solver_calls`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model
from pysat.card import CardEnc, EncType

from ..core.limits import Deadline, LimitReached, Limits
from ..core.result import NO_SOLUTION, Stats, Status, Tally, solutions_wanted
from . import cpsat_common, sat_common
from .planning import Answer, HorizonAnswer, grow_horizon

__all__ = ["CpPlan", "SatPlan", "PlanOutcome", "PlanTimer", "cpsat_choices", "sat_choices",
           "add_exactly_one", "solve_plan_cpsat", "solve_plan_sat", "proved_unsat",
           "closure_unreachable_cpsat", "closure_unreachable_sat", "Closure"]

_PAIRWISE_AT_MOST = 6  # up to this many literals, pairwise at-most-one beats a ladder


@dataclass(frozen=True)
class CpPlan:
    """A CP-SAT model of the plans of one horizon, with `choices[t][m]` = do[t,m]."""

    model: cp_model.CpModel
    choices: list[list[cp_model.IntVar]]


@dataclass(frozen=True)
class SatPlan:
    """A CNF of the plans of one horizon, with `choices[t][m]` the literal of do[t,m]."""

    encoding: sat_common.Encoding
    choices: list[list[int]]


@dataclass(frozen=True)
class PlanOutcome:
    """`status` OPTIMAL (with `moves`: the move index taken at each step), UNSAT or TIMEOUT."""

    status: Status
    moves: tuple[int, ...] | None
    unique: bool | None
    count: int | None
    stats: Stats
    message: str | None = None


class PlanTimer:
    """Wall time split into model building (summed over horizons) and the rest."""

    def __init__(self) -> None:
        self._start = time.perf_counter()
        self.build_s = 0.0

    @contextmanager
    def building(self):
        began = time.perf_counter()
        try:
            yield
        finally:
            self.build_s += time.perf_counter() - began

    def stats(self, nodes: int, **counters: Any) -> Stats:
        total = time.perf_counter() - self._start
        return Stats(nodes=nodes, build_s=self.build_s, solve_s=max(0.0, total - self.build_s),
                     counters=counters)


# ---------------------------------------------------------------- one move per step

def cpsat_choices(model: cp_model.CpModel, horizon: int,
                  moves: int) -> list[list[cp_model.IntVar]]:
    """`do[t,m]` for t < horizon, m < moves, with exactly one move per step."""
    choices = [[model.new_bool_var(f"do[{t},{m}]") for m in range(moves)]
               for t in range(horizon)]
    for row in choices:
        model.add_exactly_one(row)
    return choices


def add_exactly_one(enc: sat_common.Encoding, lits: Sequence[int]) -> None:
    """Exactly one of `lits`: pairwise when few, else a ladder (linear size)."""
    if len(lits) <= _PAIRWISE_AT_MOST:
        enc.add(lits)
        enc.clauses += [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]]
        return
    enc.clauses += CardEnc.equals(list(lits), 1, vpool=enc.pool, encoding=EncType.ladder).clauses


def sat_choices(enc: sat_common.Encoding, horizon: int, moves: int) -> list[list[int]]:
    """Literals `("do", t, m)` for t < horizon, m < moves, exactly one per step."""
    choices = [[enc.var("do", t, m) for m in range(moves)] for t in range(horizon)]
    for row in choices:
        add_exactly_one(enc, row)
    return choices


# ---------------------------------------------------------------- growing the horizon

def proved_unsat(limits: Limits, stats: Stats, message: str | None = None) -> PlanOutcome:
    """The outcome for a proof that no plan exists (unique False, count 0 when asked)."""
    return PlanOutcome(Status.UNSAT, None, *NO_SOLUTION.reported(limits), stats, message)


def ruled_out(reason: Callable[[], str | None], limits: Limits,
              timer: PlanTimer) -> PlanOutcome | None:
    """The unsat outcome when the rules' own test `reason()` (timed as building) rules every
    plan out, e.g. a gcd criterion; None when it does not."""
    with timer.building():
        why = reason()
    if not why:
        return None
    return proved_unsat(limits, timer.stats(0, horizons=0), f"unreachable: {why}")


def _outcome(found: Any, moves: tuple[int, ...] | None, tally: Tally | None, limits: Limits,
             stats: Stats) -> PlanOutcome:
    if moves is not None:
        if tally is None:  # not counted: one plan found, the rest not looked for
            tally = Tally(1, complete=False)
        return PlanOutcome(Status.OPTIMAL, moves, *tally.reported(limits), stats)
    if found.exhausted:
        return proved_unsat(limits, stats, "no plan up to the longest a shortest plan can be")
    return PlanOutcome(Status.TIMEOUT, None, None, None, stats)


def _chosen(rows: Iterable[Sequence[Any]]) -> tuple[int, ...]:
    """The index of the true entry of each step's row of move values."""
    return tuple(next(m for m, value in enumerate(row) if value) for row in rows)


def _built(build: Callable[[int], Any], horizon: int, timer: PlanTimer) -> Any:
    """`build(horizon)` timed as building; None when the deadline stopped it."""
    with timer.building():
        try:
            return build(horizon)
        except LimitReached:
            return None


def solve_plan_cpsat(build: Callable[[int], CpPlan], lower: int, upper: int | Callable[[], int],
                     limits: Limits, timer: PlanTimer) -> PlanOutcome:
    """Fewest moves by CP-SAT over growing horizons; see the module docstring."""
    deadline = limits.deadline()
    effort = cpsat_common.CpEffort()
    last: dict[str, Any] = {}

    def solve_at(horizon: int) -> HorizonAnswer:
        plan = _built(build, horizon, timer)
        if plan is None:
            return HorizonAnswer(Answer.UNKNOWN)
        decisions = [var for row in plan.choices for var in row]
        outcome = cpsat_common.solve_model(plan.model, decisions, limits, deadline)
        effort.merge(outcome.effort)
        if outcome.status is Status.ERROR:
            raise RuntimeError(outcome.message or "invalid CP-SAT model")
        if outcome.values is not None:
            last.update(plan=plan, decisions=decisions, values=outcome.values)
            return HorizonAnswer(Answer.FOUND, outcome.values, outcome.effort.nodes)
        answer = Answer.NONE if outcome.status is Status.UNSAT else Answer.UNKNOWN
        return HorizonAnswer(answer, None, outcome.effort.nodes)

    found = grow_horizon(solve_at, lower, upper, deadline)
    moves = tally = None
    if found.plan is not None:
        plan, values = last["plan"], iter(last["values"])
        moves = _chosen([[next(values) for _ in row] for row in plan.choices])
        if limits.unique or limits.count:
            tally = cpsat_common.count_solutions(plan.model, last["decisions"], limits,
                                                 deadline, known=last["values"],
                                                 stop_at=solutions_wanted(limits))
            effort.merge(tally.effort)
    stats = timer.stats(effort.nodes, horizons=len(found.tried), **effort.counters())
    return _outcome(found, moves, tally, limits, stats)


def solve_plan_sat(build: Callable[[int], SatPlan], lower: int, upper: int | Callable[[], int],
                   limits: Limits, timer: PlanTimer) -> PlanOutcome:
    """Fewest moves by SAT over growing horizons; see the module docstring."""
    deadline = limits.deadline()
    name = sat_common.solver_name(limits)
    effort = sat_common.SatStats()
    last: dict[str, Any] = {}

    def solve_at(horizon: int) -> HorizonAnswer:
        plan = _built(build, horizon, timer)
        if plan is None:
            return HorizonAnswer(Answer.UNKNOWN)
        with sat_common.SatSession(name, plan.encoding.clauses, deadline) as session:
            outcome = session.solve()
            model = session.model() if outcome else None
        effort.merge(session.stats)
        if model is not None:
            last.update(plan=plan, model=model)
            return HorizonAnswer(Answer.FOUND, model, session.stats.nodes)
        answer = Answer.NONE if outcome is False else Answer.UNKNOWN
        return HorizonAnswer(answer, None, session.stats.nodes)

    found = grow_horizon(solve_at, lower, upper, deadline)
    moves = tally = None
    if found.plan is not None:
        plan, model = last["plan"], last["model"]
        moves = _chosen([[lit in model for lit in row] for row in plan.choices])
        if limits.unique or limits.count:
            decisions = [lit for row in plan.choices for lit in row]
            tally = sat_common.count_solutions(plan.encoding, decisions, name, deadline,
                                               known=model, stop_at=solutions_wanted(limits))
            effort.merge(tally.stats)
    stats = timer.stats(effort.nodes, horizons=len(found.tried), **effort.counters())
    return _outcome(found, moves, tally, limits, stats)


# ---------------------------------------------------------------- closure certificates

@dataclass(frozen=True)
class Closure:
    """`unreachable`: True (a closed set without goals exists), False (a goal is
    reachable) or None (out of time); `nodes` and `counters` as in `Stats`."""

    unreachable: bool | None
    nodes: int
    counters: dict[str, Any]


def _edges(initial: Hashable, states: Iterable[Hashable],
           successors: Callable[[Any], Iterable[Hashable]]
           ) -> tuple[dict[Hashable, int], list[tuple[int, int]]]:
    """Index every listed state; each move as a pair of indices (self-loops dropped)."""
    index = {state: i for i, state in enumerate(states)}
    if initial not in index:
        raise ValueError("the listed states must include the initial state")
    edges = set()
    for state, i in index.items():
        for nxt in successors(state):
            j = index.get(nxt)
            if j is None:
                raise ValueError(f"the listed states are not closed under the moves: {state!r} "
                                 f"leads to {nxt!r}")
            if i != j:
                edges.add((i, j))
    return index, sorted(edges)


def closure_unreachable_cpsat(initial: Hashable, states: Iterable[Hashable],
                              successors: Callable[[Any], Iterable[Hashable]],
                              is_goal: Callable[[Any], bool], limits: Limits,
                              deadline: Deadline) -> Closure:
    """CP-SAT looks for a move-closed set of `states` holding `initial` and no goal.

    `states` must hold every state reachable from `initial` (and be closed
    under `successors`, which yields next states without labels).
    """
    index, edges = _edges(initial, states, successors)
    model = cp_model.CpModel()
    inside = [model.new_bool_var(f"inside[{i}]") for i in range(len(index))]
    model.add(inside[index[initial]] == 1)
    for i, j in edges:
        model.add_implication(inside[i], inside[j])
    for state, i in index.items():
        if is_goal(state):
            model.add(inside[i] == 0)
    outcome = cpsat_common.solve_model(model, [], limits, deadline)
    answer = {Status.SOLVED: True, Status.UNSAT: False}.get(outcome.status)
    return Closure(answer, outcome.effort.nodes, outcome.effort.counters())


def closure_unreachable_sat(initial: Hashable, states: Iterable[Hashable],
                            successors: Callable[[Any], Iterable[Hashable]],
                            is_goal: Callable[[Any], bool], limits: Limits,
                            deadline: Deadline) -> Closure:
    """The same certificate as Horn clauses: unit propagation alone decides it."""
    index, edges = _edges(initial, states, successors)
    enc = sat_common.Encoding()
    inside = [enc.var("inside", i) for i in range(len(index))]
    enc.add([inside[index[initial]]])
    for i, j in edges:
        enc.add([-inside[i], inside[j]])
    for state, i in index.items():
        if is_goal(state):
            enc.add([-inside[i]])
    with sat_common.SatSession(sat_common.solver_name(limits), enc.clauses, deadline) as session:
        outcome = session.solve()
    return Closure(outcome, session.stats.nodes, session.stats.counters())
