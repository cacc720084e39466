"""Lights Out as a CP-SAT model and as a SAT / MaxSAT encoding.

Rules (see `twinsolve.puzzles.lightsout.rules`). A press adds 1 (mod K) to its cell
and its orthogonal neighbours (`sigma`: the neighbours only; `torus`: the
board wraps, and a neighbour reached twice counts twice). Goal: every light at
0 with the fewest presses, counted with multiplicity.

Modelling idea. Presses commute and K presses of one cell do nothing, so a
solution is one press count per cell in 0..K-1, and light (r, c) ends at 0 iff
initial + sum(multiplicity * presses reaching it) = 0 (mod K). `_reach` turns
`press_effect` into that list per light, with multiplicities reduced mod K (on
a 1- or 2-wide torus a neighbour hit twice cancels out mod 2).

- CP-SAT, mod 2: one Boolean `press[r,c]` per cell and one `add_bool_xor` per
  light; minimise the number of presses.
- CP-SAT, mod K > 2: `press[r,c]` in 0..K-1 and a linear equation with an
  integer slack, sum(mult * press) + initial == K * slack; minimise the sum.
- SAT, mod 2 only: the same XORs in CNF (chained Tseitin, `sat_common`) and
  fewest presses by SAT-UNSAT linear search (`maxsat=rc2` for core-guided RC2).

`unique` / `count` (when asked) come from forbid-and-re-solve among the
minimum-press grids (`cpsat_common.count_solutions`, `sat_common.count_solutions`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ortools.sat.python import cp_model

from ...core.limits import Limits
from ...core.result import NO_SOLUTION, UNSETTLED, Result, Stats, Status, Stopwatch, Tally
from ...models import cpsat_common, sat_common
from ...models.export import CnfExport
from .rules import Instance, press_effect, solution_from_grid

__all__ = ["solve_cpsat", "solve_sat", "check_sat_options", "supports_sat", "build_cpsat",
           "build_sat", "sat_export", "cpsat_export"]

Cell = tuple[int, int]

# Why linear search is the SAT default (measured on all-on boards, cadical195):
# 10x10 0.05 s vs RC2 0.6 s, 12x12 0.4 s vs 4.9 s, 15x15 7 s vs 57 s. A board
# has at most 2^nullity solutions, so the first model is already near the
# optimum and one or two bound tightenings finish, while RC2 must find and
# relax one core per unit of cost (117 cores for 15x15). Linear search is also
# anytime: on a timeout it still reports its best grid as `feasible`.
_DEFAULT_MAXSAT = "linear"


def supports_sat(instance: Instance) -> str | None:
    """None if the SAT back-end handles `instance`, else the reason it does not."""
    if instance.modulus != 2:
        return "sat handles mod 2 only; use hand or cpsat"
    return None


def _cells(instance: Instance) -> list[Cell]:
    return [(r, c) for r in range(instance.rows) for c in range(instance.cols)]


def _reach(instance: Instance) -> dict[Cell, dict[Cell, int]]:
    """For each light, the presses that change it and how often, reduced mod K."""
    reach: dict[Cell, Counter[Cell]] = {cell: Counter() for cell in _cells(instance)}
    for press in _cells(instance):
        for light in press_effect(instance, *press):
            reach[light][press] += 1
    k = instance.modulus
    return {light: {press: times % k for press, times in hits.items() if times % k}
            for light, hits in reach.items()}


def _grid(instance: Instance, values: Sequence[int]) -> list[list[int]]:
    cols = instance.cols
    return [list(values[r * cols:(r + 1) * cols]) for r in range(instance.rows)]


def _answer(instance: Instance, status: Status, values: Sequence[int] | None,
            tally: Tally | None,
            limits: Limits, stats: Stats, message: str | None = None) -> Result:
    """The Result shared by both back-ends: grid, objective, unique and count.

    `tally` counts the optimal press grids (None when not counted)."""
    if status is Status.UNSAT:
        tally = NO_SOLUTION
    solution = objective = None
    if values is not None:
        solution = solution_from_grid(_grid(instance, values))
        objective = sum(values)
    return Result.answer(status, solution, objective, tally=tally or UNSETTLED, asked=limits,
                         stats=stats, message=message)


# ---------------------------------------------------------------- CP-SAT

def build_cpsat(instance: Instance) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The CP-SAT model and its press variables in row-major cell order."""
    model = cp_model.CpModel()
    k = instance.modulus
    # Variables: how often each cell is pressed (a Boolean when K = 2).
    press = {
        (r, c): (model.new_bool_var(f"press[{r},{c}]") if k == 2
                 else model.new_int_var(0, k - 1, f"press[{r},{c}]"))
        for r, c in _cells(instance)
    }
    # Constraints: every light ends at 0.
    for light, hits in _reach(instance).items():
        initial = instance.lights[light[0]][light[1]]
        if k == 2:
            _add_parity_light(model, [press[p] for p in hits], initial)
        else:
            _add_modular_light(model, light, {press[p]: m for p, m in hits.items()},
                               initial, k)
    # Objective: fewest presses, counted with multiplicity.
    model.minimize(sum(press.values()))
    return model, list(press.values())


def _add_parity_light(model: cp_model.CpModel, presses: list[cp_model.IntVar],
                      initial: int) -> None:
    """xor(presses reaching the light) == initial light.

    Why the negation: `add_bool_xor` demands an odd number of true literals;
    negating one literal flips the parity, which states "even" for a light
    that is already off. No press reaching a lit light: xor of nothing is
    false, so the empty XOR makes the model infeasible, as it should.
    """
    if not presses:
        if initial:
            model.add_bool_xor([])
        return
    literals = list(presses)
    if not initial:
        literals[0] = literals[0].negated()
    model.add_bool_xor(literals)


def _add_modular_light(model: cp_model.CpModel, light: Cell, terms: dict[cp_model.IntVar, int],
                       initial: int, k: int) -> None:
    """sum(mult * press) + initial == K * slack, so the light ends at 0 mod K.

    Why a slack: CP-SAT reasons best over linear equations; the slack counts
    how many times the light wraps round, between 0 and the most it can reach.
    """
    most = initial + (k - 1) * sum(terms.values())
    slack = model.new_int_var(0, most // k, f"wraps[{light[0]},{light[1]}]")
    total = cp_model.LinearExpr.weighted_sum(list(terms), list(terms.values()))
    model.add(total + initial == k * slack)


def solve_cpsat(instance: Instance, limits: Limits) -> Result:
    """Fewest presses by CP-SAT; `unique` / `count` by forbid-and-re-solve."""
    watch, deadline = Stopwatch(), limits.deadline()
    model, press = build_cpsat(instance)
    watch.built()
    outcome, tally, effort = cpsat_common.optimum_and_tally(model, press, limits, deadline)
    stats = watch.stats(nodes=effort.nodes, **effort.counters())
    return _answer(instance, outcome.status, outcome.values, tally, limits, stats,
                   outcome.message)


# ---------------------------------------------------------------- SAT

def build_sat(instance: Instance) -> tuple[sat_common.Encoding, list[int]]:
    """The CNF (mod 2 only) and its press literals in row-major cell order."""
    enc = sat_common.Encoding()
    # Variables: press(r, c) is true when the cell is pressed (once; twice is a no-op).
    press = {(r, c): enc.var("press", r, c) for r, c in _cells(instance)}
    # Constraints: the presses reaching each light have the parity of its state.
    for light, hits in _reach(instance).items():
        enc.add_xor([press[p] for p in hits], instance.lights[light[0]][light[1]])
    return enc, list(press.values())


def sat_export(instance: Instance) -> CnfExport:
    """The `sat` encoding for other solvers: each press costs 1 (WCNF soft clauses)."""
    enc, presses = build_sat(instance)

    def decode(true: set[int]) -> dict[str, list[str]]:
        return solution_from_grid(_grid(instance, [int(p in true) for p in presses]))

    return CnfExport(enc.clauses, enc.top, presses, decode,
                     (f"twinsolve lightsout {instance.rows}x{instance.cols} "
                      f"({instance.variant}); press(r,c) = variable r*{instance.cols}+c+1",))


def cpsat_export(instance: Instance) -> cp_model.CpModel:
    return build_cpsat(instance)[0]


def check_sat_options(limits: Limits) -> None:
    """The sat back-end's options, `solver=NAME` and `maxsat=linear|rc2` (registry checker)."""
    sat_common.check_options(limits, ("solver", "maxsat"))


def solve_sat(instance: Instance, limits: Limits) -> Result:
    """Fewest presses by SAT-UNSAT search (or RC2); `unique` / `count` by blocking clauses."""
    reason = supports_sat(instance)
    if reason:
        return Result(Status.UNSUPPORTED, message=reason)
    name = sat_common.solver_name(limits)
    method = sat_common.maxsat_method(limits, _DEFAULT_MAXSAT)
    watch, deadline = Stopwatch(), limits.deadline()
    enc, press = build_sat(instance)
    watch.built()
    best, tally, effort = sat_common.minimum_and_tally(enc, press, name, deadline, method,
                                                       limits)
    values = None
    if best.model is not None:
        values = [int(sat_common.holds(best.model, lit)) for lit in press]
    stats = watch.stats(nodes=effort.nodes, **effort.counters())
    return _answer(instance, best.status, values, tally, limits, stats)

