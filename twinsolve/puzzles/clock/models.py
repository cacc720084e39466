"""Clock stepping as planning encodings for CP-SAT and SAT.

Rules (see `twinsolve.puzzles.clock.rules`): an M-hour dial shows S; a move adds
one of the normalised steps s_k mod M; reach T in the fewest moves.

Modelling idea: a plan of H moves is the dial position at each step 0..H
and one move per step (`planning_steps`: `do[t,k]`, exactly one per step),
with the position at step 0 fixed to S and at step H to T. The horizon H
grows (`planning_steps.solve_plan_*`) from 0 (or 1 when S != T) to the
longest a shortest plan can be, M/g - 1 with g = gcd(M, steps): the first H
with a plan is the optimum. An unreachable target (g does not divide T - S,
`puzzles.clock.unreachable_reason`, the rules' own exact criterion) needs no
solver call.

- CP-SAT: `pos[t]` in 0..M-1 and a Boolean `wrap[t]`:
  pos[t+1] = pos[t] + sum_k s_k do[t,k] - M wrap[t]. Every step is below M,
  so one wrap is all a move can make.
- SAT: the position one-hot over the M/g positions S + g*Z_M the dial can
  show (`at(t, x)`, exactly one per step), and per move and position the
  clause do[t,k] & at(t, x) -> at(t+1, x + s_k). Its size grows with M/g, so
  dials with more than `SAT_MAX_POSITIONS` reachable positions are
  `unsupported`.

Moves commute (they add up), so sorting a plan's moves gives a plan of the
same length: unless `unique` or `count` is asked, both encodings demand the
moves in non-decreasing order (`ordered`), which leaves one plan per multiset
of moves and makes "no plan of H moves" far quicker to prove. `unique` /
`count` need every order, and come from forbid-and-re-solve over the `do`
variables at the optimal horizon.
"""

from __future__ import annotations

from collections.abc import Callable

from ortools.sat.python import cp_model

from ...core.limits import Limits
from ...core.result import Result, Status
from ...models import sat_common
from ...models.planning_steps import (
    CpPlan,
    PlanOutcome,
    PlanTimer,
    SatPlan,
    add_exactly_one,
    cpsat_choices,
    ruled_out,
    sat_choices,
    solve_plan_cpsat,
    solve_plan_sat,
)
from .rules import Instance, dial_gcd, plan_length_bound, solution_from_steps, unreachable_reason

__all__ = ["solve_cpsat", "solve_sat", "build_cpsat", "build_sat", "sat_positions",
           "SAT_MAX_POSITIONS"]

SAT_MAX_POSITIONS = 20_000


def _lower(instance: Instance) -> int:
    return 0 if instance.start == instance.target else 1


def _result(instance: Instance, outcome: PlanOutcome) -> Result:
    solution = objective = None
    if outcome.moves is not None:
        steps = [instance.moves[k] for k in outcome.moves]
        solution, objective = solution_from_steps(instance, steps), len(steps)
    return Result(outcome.status, solution, objective, outcome.unique, outcome.stats,
                  outcome.count, message=outcome.message)


def _solve(instance: Instance, limits: Limits, planner: Callable[..., PlanOutcome],
           build: Callable[[Instance, int, bool], CpPlan | SatPlan]) -> Result:
    """The rules' gcd criterion, then the growing horizon."""
    timer = PlanTimer()
    early = ruled_out(lambda: unreachable_reason(instance), limits, timer)
    if early is not None:
        return _result(instance, early)
    ordered = not (limits.unique or limits.count)
    outcome = planner(lambda horizon: build(instance, horizon, ordered), _lower(instance),
                      plan_length_bound(instance), limits, timer)
    return _result(instance, outcome)


# ---------------------------------------------------------------- CP-SAT

def build_cpsat(instance: Instance, horizon: int, ordered: bool = False) -> CpPlan:
    """The plans of exactly `horizon` moves (`ordered`: moves sorted) as a CP-SAT model."""
    model = cp_model.CpModel()
    hours, moves = instance.hours, instance.moves
    # Variables: the dial at each step, one move per step, and whether it wrapped past 0.
    pos = [model.new_int_var(0, hours - 1, f"pos[{t}]") for t in range(horizon + 1)]
    choices = cpsat_choices(model, horizon, len(moves))
    # Constraints: start and target, then each step adds the chosen move, mod M.
    model.add(pos[0] == instance.start)
    model.add(pos[horizon] == instance.target)
    for t in range(horizon):
        wrap = model.new_bool_var(f"wrap[{t}]")
        turn = cp_model.LinearExpr.weighted_sum(choices[t], list(moves))
        model.add(pos[t + 1] == pos[t] + turn - hours * wrap)
    if ordered:  # symmetry: one order per multiset of moves
        index = [cp_model.LinearExpr.weighted_sum(row, list(range(len(moves))))
                 for row in choices]
        for t in range(horizon - 1):
            model.add(index[t] <= index[t + 1])
    return CpPlan(model, choices)


def solve_cpsat(instance: Instance, limits: Limits) -> Result:
    """Fewest moves by CP-SAT over growing horizons; `unique` / `count` by forbidding plans."""
    return _solve(instance, limits, solve_plan_cpsat, build_cpsat)


# ---------------------------------------------------------------- SAT

def sat_positions(instance: Instance) -> list[int]:
    """The positions the dial can show: S + g*Z_M, in increasing order."""
    g = dial_gcd(instance)
    return sorted((instance.start + g * k) % instance.hours for k in range(instance.hours // g))


def build_sat(instance: Instance, horizon: int, ordered: bool = False) -> SatPlan:
    """The plans of exactly `horizon` moves (`ordered`: moves sorted) as CNF, one-hot."""
    enc = sat_common.Encoding()
    hours, moves = instance.hours, instance.moves
    positions = sat_positions(instance)
    slot = {x: i for i, x in enumerate(positions)}
    turned = [[slot[(x + step) % hours] for x in positions] for step in moves]
    choices = sat_choices(enc, horizon, len(moves))
    # Variables: at(t, x), the dial shows x at step t; exactly one x per step.
    at = [[enc.var("at", t, x) for x in positions] for t in range(horizon + 1)]
    for row in at:
        add_exactly_one(enc, row)
    # Constraints: start and target, then each move turns the dial by its step.
    enc.add([at[0][slot[instance.start]]])
    enc.add([at[horizon][slot[instance.target]]])
    for t in range(horizon):
        here, there = at[t], at[t + 1]
        for k, targets in enumerate(turned):
            move = -choices[t][k]
            enc.clauses += [[move, -here[i], there[j]] for i, j in enumerate(targets)]
    if ordered:  # symmetry: after move k, no move with a smaller index
        for t in range(horizon - 1):
            enc.clauses += [[-choices[t][k], -choices[t + 1][j]]
                            for k in range(len(moves)) for j in range(k)]
    return SatPlan(enc, choices)


def solve_sat(instance: Instance, limits: Limits) -> Result:
    """Fewest moves by SAT over growing horizons; `unique` / `count` by blocking plans."""
    reachable = instance.hours // dial_gcd(instance)
    if reachable > SAT_MAX_POSITIONS and unreachable_reason(instance) is None:
        return Result(Status.UNSUPPORTED, message=f"sat encodes the dial one-hot: at most "
                      f"{SAT_MAX_POSITIONS} reachable positions, this one has {reachable}")
    return _solve(instance, limits, solve_plan_sat, build_sat)
