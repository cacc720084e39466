"""Lazy cuts: solve, add the cuts the model violates, solve again; forbid and re-solve.

The idea. Some rules are too costly to state up front: the connectivity of a
region (shaded cells, a loop's inside), an island that must reach its
clue. The encoding leaves them out (keeping only what they imply cheaply);
after each solve, the puzzle looks at the model's decision values (one
Boolean per cell, say) and returns the cuts that model violates, each a
clause "one of these decisions is true or one of those is false"
(`Cut` = (must be true, must be false), as indices into the decisions). No
cut: the model is valid, a solution. Rules:

- The cuts hold in EVERY solution (the puzzle's proof; for connectivity see
  `graph_constraints.separator_cuts`), so UNSAT after cuts is a proof, and
  the cuts stay: for the next solution, and for later questions asked of the
  same session under other assumptions (a generator's oracle).
- SAT: one incremental session (`sat_common.SatSession`) takes every round
  (`valid_model`), so what the solver learnt carries over.
- CP-SAT is not incremental: each round is a fresh run on the grown model
  (`cpsat_loop`). Formulations may take turns (`cpsat_stages`): each but the
  last bounded in CP-SAT's deterministic time per call, a measure of work
  that is the same on every machine (one worker), or in rounds; the next
  starts afresh when a bound stops one, with the cuts found so far (they hold
  in every solution); so which one answers never depends on how fast the
  machine is.
- `unique` / `count`: forbid-and-re-solve. A valid model found is counted and
  forbidden (`forbid`: "some decision differs"), and the search goes on, cuts
  included, until the solutions wanted (`core.result.solutions_wanted`) or
  UNSAT, which makes the count complete.

Around them: a whole `sat` back-end (`solve_sat`: a puzzle gives its
`SatProblem`, the encoding and its cuts), the `connectivity=METHOD` option
that picks cuts or a complete encoding (`connectivity`), the complete
encoding's DIMACS export (`complete_export`), whose every model is a
solution, and the cuts of a region of cells connected without holes
(`region_graphs`, `region_cuts`).

`CutTally` keeps the bookkeeping (first solution, found, complete, the status
of a search that stopped, `cuts` added and `rounds` = solver calls, the two
statistics a back-end reports beside `nodes`) and makes the `Result`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from ..core.limits import Deadline, Limits
from ..core.result import Result, Stats, Status, Stopwatch, Tally, solutions_wanted, stopped_short
from . import cpsat_common, graph_constraints, sat_common
from .export import CnfExport

__all__ = ["Cut", "Violated", "CutModel", "CutTally", "forbid", "cut_clause", "valid_model",
           "sat_loop", "SatProblem", "solve_sat", "cpsat_loop", "Stage", "cpsat_stages",
           "region_graphs", "region_cuts", "connectivity", "complete_export"]

Cut = tuple[Sequence[int], Sequence[int]]  # (decisions one of which is true, ... false)
Violated = Callable[[Sequence[bool]], list[Cut]]  # a model's decision values -> its cuts


@dataclass
class CutTally:
    """Forbid-and-re-solve bookkeeping of a cut loop (`found` and `complete` make the
    `core.result.Tally` of the answer)."""

    first: list[bool] | None = None
    found: int = 0
    complete: bool = False
    status: Status = Status.TIMEOUT
    cuts: int = 0
    rounds: int = 0

    def counters(self) -> dict[str, int]:
        """The loop's statistics: cuts added and solver calls."""
        return {"cuts": self.cuts, "rounds": self.rounds}

    def result(self, limits: Limits, stats: Stats,
               solution: Callable[[Sequence[bool]], dict[str, Any]]) -> Result:
        """The answer: `solved` with `solution(first)`, else unsat when the search was
        complete, else the status it stopped with."""
        tally = Tally(self.found, self.complete)
        if self.first is None:
            status = Status.UNSAT if self.complete else self.status
            return Result.answer(status, tally=tally, asked=limits, stats=stats)
        return Result.answer(Status.SOLVED, solution(self.first), tally=tally, asked=limits,
                             stats=stats)


def forbid(decisions: Sequence[Any], values: Sequence[bool],
           neg: Callable[[Any], Any] = operator.neg) -> list[Any]:
    """The clause "some decision differs from `values`" (`neg`: a literal's negation,
    `-lit` in SAT, `lit.negated()` in CP-SAT)."""
    return [neg(lit) if on else lit for lit, on in zip(decisions, values, strict=True)]


def cut_clause(decisions: Sequence[Any], cut: Cut,
               neg: Callable[[Any], Any] = operator.neg) -> list[Any]:
    """A cut as a clause over the decisions' literals."""
    must_true, must_false = cut
    return [decisions[v] for v in must_true] + [neg(decisions[v]) for v in must_false]


def valid_model(session: sat_common.SatSession, decisions: Sequence[int], violated: Violated,
                tally: CutTally, assumptions: Sequence[int] = ()) -> list[bool] | bool | None:
    """The next model that violates no cut (its decision values), after as many rounds
    of cuts as it takes; False when there is none, None out of time. The cuts stay in
    the session (they hold in every solution)."""
    while True:
        outcome = session.solve(assumptions)
        tally.rounds += 1
        if not outcome:
            return outcome
        model = session.model()
        values = [lit in model for lit in decisions]
        cuts = violated(values)
        for cut in cuts:
            session.add(cut_clause(decisions, cut))
        tally.cuts += len(cuts)
        if not cuts:
            return values


def sat_loop(session: sat_common.SatSession, decisions: Sequence[int], violated: Violated,
             tally: CutTally, wanted: int | None) -> None:
    """Valid models of the session, each solution forbidden after it is found, until
    `wanted` of them (None: all) or none is left (the count complete)."""
    while wanted is None or tally.found < wanted:
        outcome = valid_model(session, decisions, violated, tally)
        if not isinstance(outcome, list):
            tally.complete = outcome is False
            tally.status = Status.UNSAT if outcome is False else Status.TIMEOUT
            return
        tally.found += 1
        tally.first = tally.first or outcome
        session.add(forbid(decisions, outcome))
    tally.complete = wanted == 1


@dataclass(frozen=True)
class SatProblem:
    """What a puzzle's SAT encoding gives the loop: its clauses and number of variables,
    the decision literals,
    the cuts a model's decision values violate and the answer those values read as."""

    clauses: Sequence[Sequence[int]]
    variables: int
    decisions: Sequence[int]
    violated: Violated
    solution: Callable[[Sequence[bool]], dict[str, Any]]


def solve_sat(limits: Limits, encode: Callable[[str], SatProblem],
              methods: Sequence[str] = ("lazy",)) -> Result:
    """A `sat` back-end: the `connectivity` option among `methods` (the first the
    default), the puzzle's encoding for it (`encode(method)`: the build, timed apart),
    then `sat_loop` in one session of the solver `limits` name; statistics `nodes`
    (decisions) and the solver's counters, `cuts` and `rounds` beside them."""
    method, limits = connectivity(limits, methods, methods[0])
    watch, deadline = Stopwatch(), limits.deadline()
    problem = encode(method)
    watch.built()
    tally = CutTally()
    with sat_common.SatSession(sat_common.solver_name(limits), problem.clauses,
                               deadline) as session:
        sat_loop(session, problem.decisions, problem.violated, tally, solutions_wanted(limits))
    stats = session.stats
    counters = {**stats.counters(), **tally.counters()}
    return tally.result(limits, watch.stats(nodes=stats.nodes, **counters), problem.solution)


def cpsat_loop(model: cp_model.CpModel, decisions: Sequence[cp_model.IntVar],
               violated: Violated, limits: Limits, deadline: Deadline,
               rounds: int | None = None, kept: list[Cut] | None = None
               ) -> tuple[CutTally, cpsat_common.CpEffort]:
    """The same loop with CP-SAT: solve, add the cuts a model violates, solve again (a
    fresh search each round on the grown `model`); solutions forbidden in turn. At most
    `rounds` calls (None: no bound): one more would stop it as a timeout does. The cuts
    added are appended to `kept` too, when given."""
    effort, tally, wanted = cpsat_common.CpEffort(), CutTally(), solutions_wanted(limits)
    negated = operator.methodcaller("negated")
    while wanted is None or tally.found < wanted:
        if rounds is not None and tally.rounds >= rounds:
            tally.status = Status.TIMEOUT
            return tally, effort
        outcome = cpsat_common.solve_model(model, decisions, limits, deadline)
        effort.merge(outcome.effort)
        tally.rounds += 1
        if outcome.status is Status.ERROR:
            raise RuntimeError(outcome.message)
        if outcome.values is None:
            tally.complete, tally.status = outcome.status is Status.UNSAT, outcome.status
            return tally, effort
        values = [bool(v) for v in outcome.values]
        cuts = violated(values)
        for cut in cuts:
            model.add_bool_or(cut_clause(decisions, cut, negated))
        tally.cuts += len(cuts)
        if kept is not None:
            kept.extend(cuts)
        if cuts:
            continue
        tally.found += 1
        tally.first = tally.first or values
        model.add_bool_or(forbid(decisions, values, negated))
    tally.complete = wanted == 1
    return tally, effort


CutModel = tuple[cp_model.CpModel, Sequence[cp_model.IntVar], Violated]


@dataclass(frozen=True)
class Stage:
    """One formulation's turn in `cpsat_stages`: `build()` makes its model; `budget`
    bounds each CP-SAT call in deterministic time (`cpsat_common.within_budget`) and
    `rounds` the calls (None: no bound). Both are counts of work, not of seconds, so
    which stage answers never depends on the machine's speed."""

    build: Callable[[], CutModel]
    budget: float | None = None
    rounds: int | None = None


def cpsat_stages(stages: Sequence[Stage], limits: Limits, deadline: Deadline
                 ) -> tuple[CutTally, cpsat_common.CpEffort]:
    """`cpsat_loop` on each stage's model in turn, each a fresh search: the next one only
    when a bound of the stage, not the run's deadline, stopped it short (the last
    stage's bounds are ignored). Every stage starts with the cuts of those before it:
    a cut holds in every solution, whatever the formulation. The effort, rounds and
    cuts of every stage are counted."""
    if not stages:
        raise ValueError("cpsat_stages needs at least one stage")
    negated = operator.methodcaller("negated")
    effort, rounds, learnt = cpsat_common.CpEffort(), 0, []
    for at, stage in enumerate(stages):
        last = at == len(stages) - 1
        bounded = (limits if last or stage.budget is None
                   else cpsat_common.within_budget(limits, stage.budget))
        model, decisions, violated = stage.build()
        for cut in learnt:
            model.add_bool_or(cut_clause(decisions, cut, negated))
        tally, more = cpsat_loop(model, decisions, violated, bounded, deadline,
                                 None if last else stage.rounds, learnt)
        effort.merge(more)
        rounds = tally.rounds = rounds + tally.rounds
        tally.cuts = len(learnt)
        stopped = (tally.status is Status.TIMEOUT
                   and stopped_short(tally.found, tally.complete, solutions_wanted(limits)))
        if not stopped or deadline.expired():
            break
    return tally, effort


def region_graphs(rows: int, cols: int
                  ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The two graphs of a region without holes on a ROWS x COLS grid (cell (r, c) =
    r * cols + c): `inner`, the grid graph, and `outer`, the same with a BORDER vertex
    rows * cols, the last, beside every edge cell (the outside reaches the edge)."""
    inner = tuple(tuple(n) for n in graph_constraints.grid_neighbours(rows, cols))
    edge = [r * cols + c for r in range(rows) for c in range(cols)
            if r in (0, rows - 1) or c in (0, cols - 1)]
    on_edge = set(edge)
    border = rows * cols
    outer = tuple(n + ((border,) if v in on_edge else ()) for v, n in enumerate(inner))
    return inner, outer + (tuple(edge),)


def region_cuts(values: Sequence[bool], inner: Sequence[Sequence[int]],
                outer: Sequence[Sequence[int]], root: int | None = None,
                required: Sequence[int] = ()) -> list[Cut]:
    """The cuts of a region of cells (`values`: in it) that is connected and has no
    holes: `separator_cuts` of the region in the cell graph `inner` (rooted at `root`,
    the `required` cells in it), and of the cells outside it in `outer`, the cell graph
    with a BORDER vertex (the last, always outside) beside every edge cell
    (`region_graphs`). Empty when the region is connected with no holes."""
    found: list[Cut] = []
    for cut in graph_constraints.separator_cuts(values, inner, root, required):
        found.append((list(cut.on), list(cut.off)))
    border = len(outer) - 1
    outside = [not v for v in values] + [True]
    for cut in graph_constraints.separator_cuts(outside, outer, border):
        # In the outside graph "active" means outside: the roles swap.
        found.append((list(cut.off), list(cut.on)))
    return found


def connectivity(limits: Limits, allowed: Sequence[str], default: str) -> tuple[str, Limits]:
    """The `connectivity=METHOD` option (checked against `allowed`) and the limits without
    it, whose other options the solver takes."""
    return limits.split_choice("connectivity", default, allowed)


def complete_export(problem: SatProblem, puzzle: str, rows: int, cols: int, cell: str,
                    complete: str) -> CnfExport:
    """A complete encoding (`problem`: no cut left to add, so every model is a solution)
    as a feasibility export of a grid puzzle whose cell (r, c) is variable r*cols+c+1
    (`cell`: what it means); `complete`: what the encoding states in place of cuts. A
    model reads back through the decisions' values."""
    comments = (
        f"twinsolve {puzzle} {rows}x{cols}: variable r*{cols}+c+1 is {cell}",
        f"complete encoding: {complete}, not the lazy cuts of the sat back-end",
        "every model is a solution; feasibility only (no objective)",
    )
    decisions, solution = problem.decisions, problem.solution
    return CnfExport(problem.clauses, problem.variables, (),
                     lambda true: solution([lit in true for lit in decisions]), comments)
