"""Water jugs as planning encodings for CP-SAT and SAT.

Rules (see `twinsolve.puzzles.jugs.rules`): fill, empty and pour (until the source
is empty or the target full) as allowed; reach `holds C`, `total C` or
`exact a b ...` in the fewest moves.

Modelling idea: a plan of H moves is the level of every jug at each step
0..H and one move per step (`planning_steps`: `do[t,m]` over
`moves_of(instance)`, exactly one per step), the start fixed at step 0 and
the goal demanded at step H. The horizon grows from a lower bound to
`plan_length_bound` (distinct lattice states on the boundary); the first H
with a plan is the optimum.

- CP-SAT: `level[t,i]` ranges over the multiples of h = gcd(capacities,
  start) up to the capacity (fact 2 of the rules, an implied domain). A pour
  is `poured[t,i,j] = min(level[t,i], cap_j - level[t,j])`, then both levels
  move by it; fill and empty set one level; a jug no chosen move touches
  keeps its level (frame constraints, enforced by the negated `do`s).
- SAT: each level one-hot over its lattice values (`level(t, i, v)`,
  exactly one per jug and step). Fill and empty are one clause per move; a
  pour is two clauses per pair of levels before: do & level(t,i,a) &
  level(t,j,b) -> level(t+1,i,a') and -> level(t+1,j,b'). A `total` goal
  adds one-hot running sums over the jugs.

Implied constraints in both: a move that changes nothing is forbidden
(fill a full jug, empty an empty one, pour from an empty or into a full one).
Why this keeps optimality: a plan of H moves with a no-op would give a plan
of H - 1 moves, and every shorter horizon has been proved empty (or is
below the lower bound); at the optimal horizon no plan has a no-op, so the
counts are unchanged.

No plan at all: the rules' facts refute many goals with no solver call
(`unreachable_reason`). For the rest, when the lattice and boundary states
are few enough to list (`CLOSURE_MAX_EDGES`), a closure certificate
(`planning_steps.closure_unreachable_*`) proves the goal unreachable or
reachable before the horizon grows; above that size an unreachable goal runs
up to the time limit.

`unique` / `count` come from forbid-and-re-solve over the `do` variables at
the optimal horizon.

CP-SAT has a second encoding, the default: `cpsat:encoding=automaton` (the
one above is `cpsat:encoding=steps`). The states within reach of the start
are listed by the engine's BFS over the rules' own `apply_move`, moves that
change nothing left out as above (`models.automaton.WalkBuilder`: as deep as
the horizon needs, exploring again, deeper, as it grows), and each horizon
is one automaton constraint over that transition table
(`models.automaton.build_walk_cpsat`). CP-SAT then refutes a horizon without
a plan in presolve instead of by search, which the step encoding cannot do
on plans of 14 moves and more (30 s time-outs against a fraction of a
second; `python -m benchmarks.jugs_models_perf`). Once every reachable state
is listed, their number less one bounds the horizon. A horizon whose table
would hold more than `AUTOMATON_MAX_TRANSITIONS` moves, and every later one,
is built by the step encoding. Stats counters `encoding` (`automaton`,
`steps` or `automaton+steps`: what built the horizons) and, for the
automaton, the last table's `states` and `transitions`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import replace

from ortools.sat.python import cp_model

from ...core.limits import Deadline, Limits
from ...core.result import Result, Status
from ...models import cpsat_common, sat_common
from ...models.automaton import WalkBuilder, solve_walk_cpsat
from ...models.planning_steps import (
    Closure,
    CpPlan,
    PlanOutcome,
    PlanTimer,
    SatPlan,
    add_exactly_one,
    closure_unreachable_cpsat,
    closure_unreachable_sat,
    cpsat_choices,
    proved_unsat,
    ruled_out,
    sat_choices,
    solve_plan_cpsat,
    solve_plan_sat,
)
from .rules import (
    GoalKind,
    Instance,
    Move,
    MoveKind,
    apply_move,
    level_gcd,
    moves_of,
    plan_length_bound,
    solution_from_moves,
    unreachable_reason,
)

__all__ = ["solve_cpsat", "solve_sat", "build_cpsat", "build_sat", "listed_states",
           "check_cpsat_options", "walk_builder", "ENCODINGS", "CLOSURE_MAX_EDGES",
           "SAT_MAX_POUR_CLAUSES", "AUTOMATON_MAX_TRANSITIONS"]

CLOSURE_MAX_EDGES = 100_000      # states x moves the closure certificate may list
SAT_MAX_POUR_CLAUSES = 200_000   # pour clauses per step the one-hot SAT encoding may write
AUTOMATON_MAX_TRANSITIONS = 1_000_000  # moves the automaton may list (800,000: 0.4 GB peak)
ENCODINGS = ("automaton", "steps")  # cpsat's encodings, the default first

Levels = tuple[int, ...]


# ---------------------------------------------------------------- shared by both

def _lattice(instance: Instance) -> list[list[int]]:
    """The levels each jug can show: multiples of h up to its capacity (fact 2)."""
    h = level_gcd(instance)
    return [list(range(0, cap + 1, h)) for cap in instance.capacities]


def _lower(instance: Instance) -> int:
    """No moves if the start meets the goal; else one move changes at most two jugs."""
    goal = instance.goal
    if goal.reached(instance.start):
        return 0
    if goal.kind is GoalKind.EXACT:
        differ = sum(a != b for a, b in zip(instance.start, goal.amounts, strict=True))
        return max(1, math.ceil(differ / 2))
    return 1


def listed_states(instance: Instance) -> list[Levels] | None:
    """Every state a plan can visit (facts 2-4), or None when more than the closure takes.

    The start, and the lattice states with some jug empty or full and a
    total the move kinds allow; closed under the moves.
    """
    count = plan_length_bound(instance) + 1
    if count * max(1, len(moves_of(instance))) > CLOSURE_MAX_EDGES:
        return None
    caps, start, total = instance.capacities, instance.start, sum(instance.start)
    least = total if MoveKind.EMPTY not in instance.kinds else 0
    most = total if MoveKind.FILL not in instance.kinds else sum(caps)
    states = [start]
    for levels in itertools.product(*_lattice(instance)):
        if levels != start and least <= sum(levels) <= most \
                and any(v in (0, c) for v, c in zip(levels, caps, strict=True)):
            states.append(levels)
    return states


def _closure(instance: Instance, limits: Limits, prover: Callable[..., Closure]) -> Closure | None:
    states = listed_states(instance)
    if states is None:
        return None
    moves = moves_of(instance)
    caps = instance.capacities

    def successors(levels: Levels) -> list[Levels]:
        return [apply_move(caps, levels, move) for move in moves]

    return prover(instance.start, states, successors, instance.goal.reached, limits,
                  limits.deadline())


def _result(instance: Instance, outcome: PlanOutcome) -> Result:
    solution = objective = None
    if outcome.moves is not None:
        moves = moves_of(instance)
        chosen = [moves[m] for m in outcome.moves]
        solution, objective = solution_from_moves(instance, chosen), len(chosen)
    return Result(outcome.status, solution, objective, outcome.unique, outcome.stats,
                  outcome.count, message=outcome.message)


def _solve(instance: Instance, limits: Limits, planner: Callable[..., PlanOutcome],
           build: Callable[[Instance, int], CpPlan | SatPlan],
           prover: Callable[..., Closure]) -> Result:
    """Facts of the rules, then the closure certificate, then the growing horizon."""
    timer = PlanTimer()
    early = ruled_out(lambda: unreachable_reason(instance), limits, timer)
    if early is not None:
        return _result(instance, early)
    closure = _closure(instance, limits, prover) if _lower(instance) else None
    if closure is not None and closure.unreachable:
        stats = timer.stats(closure.nodes, horizons=0, closure="unreachable", **closure.counters)
        return _result(instance, proved_unsat(limits, stats, "unreachable: a set of states "
                                              "closed under the moves holds no goal"))
    outcome = planner(lambda horizon: build(instance, horizon), _lower(instance),
                      plan_length_bound(instance), limits, timer)
    if closure is not None:  # the certificate's effort and verdict go into the stats
        verdict = "unknown" if closure.unreachable is None else "reachable"
        stats = replace(outcome.stats, nodes=outcome.stats.nodes + closure.nodes,
                        counters={**outcome.stats.counters, "closure": verdict})
        outcome = replace(outcome, stats=stats)
    return _result(instance, outcome)


def _touching(moves: tuple[Move, ...], jug: int) -> list[int]:
    """Indices of the moves that change `jug`."""
    return [m for m, move in enumerate(moves) if jug in (move.jug, move.into)]


# ---------------------------------------------------------------- CP-SAT

def build_cpsat(instance: Instance, horizon: int) -> CpPlan:
    """The plans of exactly `horizon` moves as a CP-SAT model."""
    model = cp_model.CpModel()
    caps, moves = instance.capacities, moves_of(instance)
    lattice = [cp_model.Domain.from_values(values) for values in _lattice(instance)]
    # Variables: every level at every step (on the lattice), one move per step.
    level = [[model.new_int_var_from_domain(lattice[i], f"level[{t},{i}]")
              for i in range(instance.jugs)] for t in range(horizon + 1)]
    choices = cpsat_choices(model, horizon, len(moves))
    # Constraints: the start, each step's move, and the goal at the end.
    for i, amount in enumerate(instance.start):
        model.add(level[0][i] == amount)
    for t in range(horizon):
        for m, move in enumerate(moves):
            _cpsat_move(model, level[t], level[t + 1], move, caps, choices[t][m], t)
        for jug in range(instance.jugs):
            idle = [choices[t][m].negated() for m in _touching(moves, jug)]
            model.add(level[t + 1][jug] == level[t][jug]).only_enforce_if(idle)
    _cpsat_goal(model, instance, level[horizon])
    return CpPlan(model, choices)


def _cpsat_move(model: cp_model.CpModel, now: list, after: list, move: Move,
                caps: tuple[int, ...], do: cp_model.IntVar, t: int) -> None:
    """What `move` does when chosen; it must change something (the no-op rule)."""
    jug = move.jug
    if move.kind is MoveKind.FILL:
        model.add(now[jug] < caps[jug]).only_enforce_if(do)
        model.add(after[jug] == caps[jug]).only_enforce_if(do)
    elif move.kind is MoveKind.EMPTY:
        model.add(now[jug] > 0).only_enforce_if(do)
        model.add(after[jug] == 0).only_enforce_if(do)
    else:
        into = move.into
        poured = model.new_int_var(0, min(caps[jug], caps[into]), f"poured[{t},{jug},{into}]")
        # Why min: a pour stops when the source is empty or the target is full.
        model.add_min_equality(poured, [now[jug], caps[into] - now[into]])
        model.add(poured > 0).only_enforce_if(do)
        model.add(after[jug] == now[jug] - poured).only_enforce_if(do)
        model.add(after[into] == now[into] + poured).only_enforce_if(do)


def _cpsat_goal(model: cp_model.CpModel, instance: Instance, final: list) -> None:
    goal = instance.goal
    if goal.kind is GoalKind.EXACT:
        for var, amount in zip(final, goal.amounts, strict=True):
            model.add(var == amount)
    elif goal.kind is GoalKind.TOTAL:
        model.add(sum(final) == goal.amounts[0])
    else:
        amount, holds = goal.amounts[0], []
        for i, var in enumerate(final):
            if amount <= instance.capacities[i]:
                holds.append(model.new_bool_var(f"holds[{i}]"))
                model.add(var == amount).only_enforce_if(holds[-1])
        model.add_bool_or(holds)  # no jug large enough: the empty clause, infeasible


def walk_builder(instance: Instance, deadline: Deadline) -> WalkBuilder:
    """`build(horizon)` on the automaton of the reachable states (the rules' own
    `apply_move`), the step encoding past `AUTOMATON_MAX_TRANSITIONS` moves."""
    caps, moves = instance.capacities, moves_of(instance)

    def successors(levels: Levels) -> list[tuple[int, Levels]]:
        return [(m, apply_move(caps, levels, move)) for m, move in enumerate(moves)]

    return WalkBuilder(instance.start, successors, instance.goal.reached, len(moves), deadline,
                       AUTOMATON_MAX_TRANSITIONS, lambda horizon: build_cpsat(instance, horizon),
                       "steps")


def _automaton_planner(instance: Instance) -> Callable[..., PlanOutcome]:
    """The planner of `_solve` for `encoding=automaton`; the walk builder replaces its
    `build` (the step encoding, which the walk builder falls back to by itself)."""

    def plan(_build: Callable[[int], CpPlan], lower: int, upper: int, limits: Limits,
             timer: PlanTimer) -> PlanOutcome:
        return solve_walk_cpsat(walk_builder(instance, limits.deadline()), lower, upper, limits,
                                timer)

    return plan


def _steps_planner(build: Callable[[int], CpPlan], lower: int, upper: int, limits: Limits,
                   timer: PlanTimer) -> PlanOutcome:
    outcome = solve_plan_cpsat(build, lower, upper, limits, timer)
    stats = replace(outcome.stats, counters={**outcome.stats.counters, "encoding": "steps"})
    return replace(outcome, stats=stats)


def _encoding(limits: Limits) -> tuple[str, Limits]:
    """The `encoding` option (checked) and the limits without it, for CP-SAT."""
    return limits.split_choice("encoding", ENCODINGS[0], ENCODINGS)


def check_cpsat_options(limits: Limits) -> None:
    """cpsat's options: `encoding=automaton|steps` and CP-SAT's own (the registry's checker)."""
    cpsat_common.check_options(_encoding(limits)[1])


def solve_cpsat(instance: Instance, limits: Limits) -> Result:
    """Fewest moves by CP-SAT over growing horizons; `unique` / `count` by forbidding plans."""
    encoding, limits = _encoding(limits)
    planner = _automaton_planner(instance) if encoding == "automaton" else _steps_planner
    return _solve(instance, limits, planner, build_cpsat, closure_unreachable_cpsat)


# ---------------------------------------------------------------- SAT

def _pour_clauses(instance: Instance) -> int:
    lattice = _lattice(instance)
    if MoveKind.POUR not in instance.kinds:
        return 0
    return sum(2 * len(a) * len(b) for i, a in enumerate(lattice)
               for j, b in enumerate(lattice) if i != j)


def build_sat(instance: Instance, horizon: int) -> SatPlan:
    """The plans of exactly `horizon` moves as CNF, levels one-hot on the lattice."""
    enc = sat_common.Encoding()
    caps, moves, lattice = instance.capacities, moves_of(instance), _lattice(instance)
    choices = sat_choices(enc, horizon, len(moves))
    # Variables: level(t, i, v), jug i holds v at step t; exactly one v per jug and step.
    level = [[{v: enc.var("level", t, i, v) for v in lattice[i]} for i in range(instance.jugs)]
             for t in range(horizon + 1)]
    for row in level:
        for values in row:
            add_exactly_one(enc, list(values.values()))
    # Constraints: the start, each step's move, and the goal at the end.
    for i, amount in enumerate(instance.start):
        enc.add([level[0][i][amount]])
    for t in range(horizon):
        for m, move in enumerate(moves):
            _sat_move(enc, level[t], level[t + 1], move, caps, choices[t][m])
        for jug in range(instance.jugs):
            touching = [choices[t][m] for m in _touching(moves, jug)]
            enc.clauses += [touching + [-lit, level[t + 1][jug][v]]
                            for v, lit in level[t][jug].items()]
    _sat_goal(enc, instance, level[horizon])
    return SatPlan(enc, choices)


def _sat_move(enc: sat_common.Encoding, now: list[dict[int, int]], after: list[dict[int, int]],
              move: Move, caps: tuple[int, ...], do: int) -> None:
    """What `move` does when chosen; it must change something (the no-op rule)."""
    jug = move.jug
    if move.kind is MoveKind.FILL:
        enc.add([-do, -now[jug][caps[jug]]])
        enc.add([-do, after[jug][caps[jug]]])
        return
    if move.kind is MoveKind.EMPTY:
        enc.add([-do, -now[jug][0]])
        enc.add([-do, after[jug][0]])
        return
    into = move.into
    enc.add([-do, -now[jug][0]])
    enc.add([-do, -now[into][caps[into]]])
    for a, source in now[jug].items():
        for b, target in now[into].items():
            if a == 0 or b == caps[into]:
                continue
            poured = min(a, caps[into] - b)
            enc.add([-do, -source, -target, after[jug][a - poured]])
            enc.add([-do, -source, -target, after[into][b + poured]])


def _sat_goal(enc: sat_common.Encoding, instance: Instance, final: list[dict[int, int]]) -> None:
    goal = instance.goal
    if goal.kind is GoalKind.EXACT:
        for values, amount in zip(final, goal.amounts, strict=True):
            enc.add([values[amount]] if amount in values else [])
    elif goal.kind is GoalKind.HOLDS:
        enc.add([values[goal.amounts[0]] for values in final if goal.amounts[0] in values])
    else:
        sums = _running_sums(enc, final)
        enc.add([sums[goal.amounts[0]]] if goal.amounts[0] in sums else [])


def _running_sums(enc: sat_common.Encoding, final: list[dict[int, int]]) -> dict[int, int]:
    """One-hot partial sums of the final levels; returns total -> literal.

    Why exactly one per prefix: the forward rules force the true partial sum
    on, and exactly-one forces every other one off.
    """
    sums = {0: enc.var("sum", 0, 0)}
    enc.add([sums[0]])
    for k, values in enumerate(final, start=1):
        following: dict[int, int] = {}
        for s, lit in sums.items():
            for v, held in values.items():
                if s + v not in following:
                    following[s + v] = enc.var("sum", k, s + v)
                enc.add([-lit, -held, following[s + v]])
        add_exactly_one(enc, list(following.values()))
        sums = following
    return sums


def solve_sat(instance: Instance, limits: Limits) -> Result:
    """Fewest moves by SAT over growing horizons; `unique` / `count` by blocking plans."""
    if _pour_clauses(instance) > SAT_MAX_POUR_CLAUSES:
        return Result(Status.UNSUPPORTED, message=f"sat writes one-hot pour clauses per pair "
                      f"of levels: at most {SAT_MAX_POUR_CLAUSES} per step, these jugs need "
                      f"{_pour_clauses(instance)}")
    return _solve(instance, limits, solve_plan_sat, build_sat, closure_unreachable_sat)
