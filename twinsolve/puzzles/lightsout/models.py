"""Lights Out as a CP-SAT model and as a SAT / MaxSAT encoding.

Rules (see `twinsolve.puzzles.lightsout.rules`). A press adds 1 (mod K) to its cell
and its orthogonal neighbours (`sigma`: the neighbours only; `torus`: the
board wraps, and a neighbour reached twice counts twice). Goal: every light at
0 with the fewest presses, counted with multiplicity.

Modelling idea. Presses commute and K presses of one cell do nothing, so a
solution is one press count per cell in 0..K-1, and light (r, c) ends at 0 iff
initial + sum(multiplicity * presses reaching it) = 0 (mod K). `_reach` turns
`press_effect` into that list per light, with multiplicities reduced mod K (on
a 1- or 2-wide torus a neighbour hit twice cancels out mod 2). Two encodings
of those equations, chosen by the option `encoding=chase|plain`:

- `chase` (the default where it applies): light chasing. The first row's
  presses are the only free variables (the first two rows on a torus); light
  (r, c) can then only still be fixed by the press below it, so press
  (r + 1, c) = -(light + the other presses reaching (r, c)) mod K, and by
  substitution (`models.affine.Substitution`) every press is an affine form
  over the free presses. Each defined press is a variable tied to its form
  by one constraint, the last row's lights (on a torus the last and the
  first rows, which wrap) are the only light constraints, and the objective
  counts every press, free or defined. The board is turned so the chase runs
  along its longer side (fewer free presses). Where the chase gains nothing
  (a 1 x 1 board, a torus less than 3 long both ways) or its forms would
  hold more than `CHASE_MAX_ENTRIES` coefficients, the plain encoding runs.
- `plain`: one press variable per cell and one constraint per light.

Why the chase is the default (medians, one worker; `python -m
benchmarks.lightsout_models_perf`): the solvers see the free presses as the
whole search space and every constraint over them directly, and CP-SAT's
presolve settles a board of nullity 0 without branching. All-on 15 x 15:
0.02 s against 8 to 16 s (CP-SAT), 0.1 s against 5 to 11 s (SAT); all-on
20 x 20 and 25 x 25 and random 22 x 22: 0.06 to 3 s where the plain encoding
times out at 60 s; random torus and mod 3 boards 3 to 44 times faster. Not
everywhere: on a random sigma 14 x 14 board the two are within a factor of 2
either way, and the all-on 30 x 30 (nullity 20) proves its optimum within a
minute under neither (the `hand` coset search does it in well under a second).

The constraints, in each back-end:

- CP-SAT, mod 2: Boolean presses; `add_bool_xor` per constraint
  (`models.affine.add_parity`); minimise the number of presses.
- CP-SAT, mod K > 2: presses in 0..K-1 and linear equations with an integer
  slack, sum(coef * press) + constant == K * slack; minimise the sum.
- SAT, mod 2 only: the same XORs in CNF (chained Tseitin, `sat_common`) and
  fewest presses by SAT-UNSAT linear search (`maxsat=rc2` for core-guided RC2).

`unique` / `count` (when asked) come from forbid-and-re-solve among the
minimum-press grids (`cpsat_common.count_solutions`, `sat_common.count_solutions`).
Stats counters `encoding` (the one that ran) and `free` (its free presses). A
model build polls the deadline every 256 cells and stops as a `timeout`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from ortools.sat.python import cp_model

from ...core.limits import Deadline, LimitReached, Limits
from ...core.result import NO_SOLUTION, UNSETTLED, Result, Stats, Status, Stopwatch, Tally
from ...models import cpsat_common, sat_common
from ...models.affine import Substitution, add_affine_cpsat, add_affine_sat, add_modular, add_parity
from ...models.export import CnfExport
from .rules import Instance, press_effect, solution_from_grid

__all__ = ["solve_cpsat", "solve_sat", "check_cpsat_options", "check_sat_options",
           "supports_sat", "build_cpsat", "build_sat", "sat_export", "cpsat_export", "Chase",
           "chase_plan", "encoding_used", "ENCODINGS", "CHASE_MAX_ENTRIES"]

Cell = tuple[int, int]
T = TypeVar("T")

ENCODINGS = ("chase", "plain")
# Coefficients the chase's forms may hold (cells x free presses, 8 bytes each: 128 MB);
# a board that needs more (about 250 x 250 and up) is far beyond what either solver
# finishes, and the plain encoding builds in a fraction of the memory.
CHASE_MAX_ENTRIES = 1 << 24

# Why linear search is the SAT default (measured on all-on boards, cadical195, plain
# encoding): 10x10 0.05 s vs RC2 0.6 s, 12x12 0.4 s vs 4.9 s, 15x15 7 s vs 57 s. A board
# has at most 2^nullity solutions, so the first model is already near the optimum and one
# or two bound tightenings finish, while RC2 must find and relax one core per unit of
# cost (117 cores for 15x15). Linear search is also anytime: on a timeout it still
# reports its best grid as `feasible`.
_DEFAULT_MAXSAT = "linear"
# Why no symmetry search under the chase: CP-SAT's symmetry detection spends 2 s on the
# XORs of a 10 x 10 board whose presolve then fixes every press (0 branches; 0.01 s
# without it), and no board measured got faster with it (`cpsat:symmetry_level=2`
# turns it back on).
_CHASE_PARAMETERS = {"symmetry_level": 0}
_POLL_EVERY = 256  # cells or chase steps between two reads of the deadline while building


def supports_sat(instance: Instance) -> str | None:
    """None if the SAT back-end handles `instance`, else the reason it does not."""
    if instance.modulus != 2:
        return "sat handles mod 2 only; use hand or cpsat"
    return None


def _cells(instance: Instance, deadline: Deadline | None = None) -> Iterator[Cell]:
    """The cells in row-major order, the deadline read every `_POLL_EVERY` of them."""
    cells = ((r, c) for r in range(instance.rows) for c in range(instance.cols))
    return cells if deadline is None else _polled(cells, deadline)


def _reach(instance: Instance, deadline: Deadline) -> dict[Cell, dict[Cell, int]]:
    """For each light, the presses that change it and how often, reduced mod K."""
    reach: dict[Cell, Counter[Cell]] = {cell: Counter() for cell in _cells(instance, deadline)}
    for press in _cells(instance, deadline):
        for light in press_effect(instance, *press):
            reach[light][press] += 1
    k = instance.modulus
    return {light: {press: times % k for press, times in hits.items() if times % k}
            for light, hits in reach.items()}


def _initial(instance: Instance, light: Cell) -> int:
    return instance.lights[light[0]][light[1]]


# ---------------------------------------------------------------- the chase

@dataclass(frozen=True)
class Chase:
    """Light chasing as data: the free presses, then (light, press it defines) in
    chase order, then the lights left over as constraints on the free presses."""

    free: tuple[Cell, ...]
    steps: tuple[tuple[Cell, Cell], ...]
    checks: tuple[Cell, ...]


def _chase_shape(instance: Instance) -> tuple[bool, int, int, int]:
    """Along rows?, the chase's length and width, and how many lines are free."""
    along_rows = instance.rows >= instance.cols
    length, width = ((instance.rows, instance.cols) if along_rows
                     else (instance.cols, instance.rows))
    return along_rows, length, width, 2 if instance.torus else 1


def chase_plan(instance: Instance) -> Chase | None:
    """The chase along the board's longer side, or None where it frees nothing.

    Plain and sigma boards: the first line of presses is free and light (a, b)
    defines press (a + 1, b); the last line's lights are left. On a torus the
    light of line 0 is also reached by the last line, so two lines are free,
    lights of lines 1 .. L-2 define lines 2 .. L-1, and lines L-1 and 0 are left.

    >>> chase = chase_plan(Instance.all_on(2, 3))   # 2 rows x 3 columns: chase along columns
    >>> chase.free, chase.steps[0], chase.checks
    (((0, 0), (1, 0)), ((0, 0), (0, 1)), ((0, 2), (1, 2)))
    """
    along_rows, length, width, seeds = _chase_shape(instance)
    if length <= seeds:
        return None

    def cell(line: int, across: int) -> Cell:
        return (line, across) if along_rows else (across, line)

    left = (length - 1, 0) if instance.torus else (length - 1,)
    return Chase(
        free=tuple(cell(a, b) for a in range(seeds) for b in range(width)),
        steps=tuple((cell(a, b), cell(a + 1, b))
                    for a in range(seeds - 1, length - 1) for b in range(width)),
        checks=tuple(cell(a, b) for a in left for b in range(width)))


def _chase_for(instance: Instance, encoding: str) -> Chase | None:
    """The chase the encoding runs, or None for the plain encoding."""
    if encoding == "plain":
        return None
    # Why the size first: a 5000 x 5000 board's plan alone is 25 million steps, built
    # only to be refused.
    _, _, width, seeds = _chase_shape(instance)
    if instance.cells * (seeds * width + 1) > CHASE_MAX_ENTRIES:
        return None
    return chase_plan(instance)


def encoding_used(instance: Instance, encoding: str = "chase") -> str:
    """Which encoding `encoding` runs on `instance`: "chase" or "plain"."""
    return "plain" if _chase_for(instance, encoding) is None else "chase"


def _polled(items: Iterable[T], deadline: Deadline) -> Iterator[T]:
    """`items`, with the deadline checked every `_POLL_EVERY` of them (a model build's stop)."""
    for index, item in enumerate(items):
        if index % _POLL_EVERY == 0:
            deadline.check()
        yield item


def _substitute(instance: Instance, chase: Chase, reach: dict[Cell, dict[Cell, int]],
                deadline: Deadline) -> Substitution:
    """Every press as an affine form over the free presses, one chase step at a time."""
    sub = Substitution(chase.free, instance.modulus)
    for light, press in _polled(chase.steps, deadline):
        # Why this defines `press`: every other press reaching `light` lies on its line
        # or the line before, all of them known by now (see `chase_plan`).
        sub.define(press, reach[light], _initial(instance, light))
    return sub


# ---------------------------------------------------------------- shared by both

def _encoding(limits: Limits) -> tuple[str, Limits]:
    """The `encoding` option (checked) and the limits without it, for the solver."""
    return limits.split_choice("encoding", "chase", ENCODINGS)


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


def _counters(instance: Instance, encoding: str) -> dict[str, object]:
    chase = _chase_for(instance, encoding)
    return {"encoding": encoding_used(instance, encoding),
            "free": instance.cells if chase is None else len(chase.free)}


def _build_timeout(watch: Stopwatch, instance: Instance, encoding: str) -> Result:
    return Result(Status.TIMEOUT, stats=watch.stats(**_counters(instance, encoding)),
                  message="the time limit passed while building the model")


# ---------------------------------------------------------------- CP-SAT

def build_cpsat(instance: Instance, encoding: str = "chase", deadline: Deadline | None = None
                ) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The CP-SAT model and its press variables in row-major cell order.

    Raises `LimitReached` when `deadline` passes while building.
    """
    deadline = deadline or Deadline(None)
    model = cp_model.CpModel()
    k = instance.modulus
    # Variables: how often each cell is pressed (a Boolean when K = 2).
    press = {
        (r, c): (model.new_bool_var(f"press[{r},{c}]") if k == 2
                 else model.new_int_var(0, k - 1, f"press[{r},{c}]"))
        for r, c in _cells(instance, deadline)
    }
    reach = _reach(instance, deadline)
    chase = _chase_for(instance, encoding)
    # Constraints: every light ends at 0, stated per light or through the chase.
    if chase is None:
        for light, hits in _polled(reach.items(), deadline):
            initial = _initial(instance, light)
            if k == 2:
                add_parity(model, [press[p] for p in hits], initial)
            else:
                add_modular(model, {press[p]: m for p, m in hits.items()}, initial, k,
                            f"{light[0]},{light[1]}")
    else:
        sub = _substitute(instance, chase, reach, deadline)
        free = [press[cell] for cell in chase.free]
        # Why one constraint per defined press: the objective counts it, so it needs a
        # variable, tied to its form over the free presses.
        for cell, var in _polled(press.items(), deadline):
            if cell not in chase.free:
                add_affine_cpsat(model, sub.form(cell), free, k, var, f"{cell[0]},{cell[1]}")
        for light in chase.checks:
            add_affine_cpsat(model, sub.combine(reach[light], _initial(instance, light)), free,
                             k, name=f"{light[0]},{light[1]}")
    # Objective: fewest presses, counted with multiplicity.
    model.minimize(sum(press.values()))
    return model, list(press.values())


def check_cpsat_options(limits: Limits) -> None:
    """cpsat's options: `encoding=chase|plain` and CP-SAT's own (the registry's checker)."""
    cpsat_common.check_options(_encoding(limits)[1])


def solve_cpsat(instance: Instance, limits: Limits) -> Result:
    """Fewest presses by CP-SAT; `unique` / `count` by forbid-and-re-solve."""
    encoding, limits = _encoding(limits)
    if encoding_used(instance, encoding) == "chase":
        limits = replace(limits, options={**_CHASE_PARAMETERS, **limits.options})
    watch, deadline = Stopwatch(), limits.deadline()
    try:
        model, press = build_cpsat(instance, encoding, deadline)
    except LimitReached:
        return _build_timeout(watch, instance, encoding)
    watch.built()
    outcome, tally, effort = cpsat_common.optimum_and_tally(model, press, limits, deadline)
    stats = watch.stats(nodes=effort.nodes, **effort.counters(),
                        **_counters(instance, encoding))
    return _answer(instance, outcome.status, outcome.values, tally, limits, stats,
                   outcome.message)


# ---------------------------------------------------------------- SAT

def build_sat(instance: Instance, encoding: str = "chase", deadline: Deadline | None = None
              ) -> tuple[sat_common.Encoding, list[int]]:
    """The CNF (mod 2 only) and its press literals in row-major cell order.

    Raises `LimitReached` when `deadline` passes while building.
    """
    deadline = deadline or Deadline(None)
    enc = sat_common.Encoding()
    # Variables: press(r, c) is true when the cell is pressed (once; twice is a no-op).
    press = {(r, c): enc.var("press", r, c) for r, c in _cells(instance, deadline)}
    reach = _reach(instance, deadline)
    chase = _chase_for(instance, encoding)
    # Constraints: the presses reaching each light have the parity of its state, stated
    # per light or through the chase (a defined press is the XOR of its form).
    if chase is None:
        for light, hits in _polled(reach.items(), deadline):
            enc.add_xor([press[p] for p in hits], _initial(instance, light))
    else:
        sub = _substitute(instance, chase, reach, deadline)
        free = [press[cell] for cell in chase.free]
        for cell, lit in _polled(press.items(), deadline):
            if cell not in chase.free:
                add_affine_sat(enc, sub.form(cell), free, lit)
        for light in chase.checks:
            add_affine_sat(enc, sub.combine(reach[light], _initial(instance, light)), free)
    return enc, list(press.values())


def sat_export(instance: Instance) -> CnfExport:
    """The `sat` encoding (default: chase) for other solvers: each press costs 1 (WCNF)."""
    enc, presses = build_sat(instance)

    def decode(true: set[int]) -> dict[str, list[str]]:
        return solution_from_grid(_grid(instance, [int(p in true) for p in presses]))

    return CnfExport(enc.clauses, enc.top, presses, decode,
                     (f"twinsolve lightsout {instance.rows}x{instance.cols} "
                      f"({instance.variant}, {encoding_used(instance)} encoding); "
                      f"press(r,c) = variable r*{instance.cols}+c+1",))


def cpsat_export(instance: Instance) -> cp_model.CpModel:
    """The `cpsat` back-end's model (default encoding: chase)."""
    return build_cpsat(instance)[0]


def check_sat_options(limits: Limits) -> None:
    """The sat back-end's options, `solver=NAME`, `maxsat=linear|rc2` and
    `encoding=chase|plain` (registry checker)."""
    _encoding(limits)
    sat_common.check_options(limits, ("solver", "maxsat", "encoding"))


def solve_sat(instance: Instance, limits: Limits) -> Result:
    """Fewest presses by SAT-UNSAT search (or RC2); `unique` / `count` by blocking clauses."""
    reason = supports_sat(instance)
    if reason:
        return Result(Status.UNSUPPORTED, message=reason)
    encoding, limits = _encoding(limits)
    name = sat_common.solver_name(limits)
    method = sat_common.maxsat_method(limits, _DEFAULT_MAXSAT)
    watch, deadline = Stopwatch(), limits.deadline()
    try:
        enc, press = build_sat(instance, encoding, deadline)
    except LimitReached:
        return _build_timeout(watch, instance, encoding)
    watch.built()
    best, tally, effort = sat_common.minimum_and_tally(enc, press, name, deadline, method,
                                                       limits)
    values = None
    if best.model is not None:
        values = [int(sat_common.holds(best.model, lit)) for lit in press]
    stats = watch.stats(nodes=effort.nodes, **effort.counters(),
                        **_counters(instance, encoding))
    return _answer(instance, best.status, values, tally, limits, stats)
