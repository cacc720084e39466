"""Mirror maze as a CP-SAT model and as a SAT / MaxSAT encoding.

Rules (see `twinsolve.puzzles.mirror.rules`): lasers emit beams that fixed mirrors
and rotatable `?` mirrors turn; walls and the grid's edge stop a beam (fail),
a target stops it (hit), a beam back in a state it was in loops (fail). A
`?` stands as '/' or, flipped, as '\\' for the whole run. Goal `any`: some
beam hits a target; goal `all`: every target is hit. Fewest flips.

Modelling idea. A beam state is `(r, c, d)`: a beam is in cell (r, c),
moving in direction d after any turn there. `reach(r, c, d)` is true exactly
when some beam is in that state, and `flip(r, c)` when a `?` is flipped.

- A laser's start state is reached.
- Any other state in an empty, laser or fixed-mirror cell has one possible
  previous state whatever the orientations (the cell behind the beam, the
  direction reflected back), so it is reached iff that one is: the model
  does not need a variable for it. `beam_network` walks such chains back to
  their first rotatable mirror, laser start, or dead end (edge, wall,
  target), which turns the grid into a small network.
- A state leaving a `?` cell comes from one state if the mirror is kept and
  from another if it is flipped: reach(s) == reach(keep_pred) when not
  flipped, reach(s) == reach(flip_pred) when flipped. This equivalence
  holds both ways: forward (a reached predecessor passes the beam on) and
  backward (a reached state is justified by its predecessor).
- A target is hit iff a state whose next cell is the target is reached.
  Goal any: some target is hit; goal all: each is.
- Minimise the flips. Only mirrors in the network get a variable: any other
  mirror influences no hit, and flipping it only costs.

Why cycles cannot fake a hit (the self-support question). Given the
orientations, each state has exactly one possible predecessor, since both
reflection tables are involutions: the beam step is injective. Take a model
and a reached state s that no beam really visits. Its equivalence makes its
predecessor (under the model's orientations) reached, and so on backwards;
the chain cannot stop (a state with no possible predecessor is never
reached) and never meets a laser start (else that laser's beam would visit
s), so in a finite grid it closes into a cycle of states, and s, being the
image of a cycle state, lies on that cycle. A cycle has no end; but a state whose
next cell is a target has no successor state at all, so it is on no cycle.
Hence every target hit in a model is a real hit; and the real beams' states,
with everything else false, satisfy every equivalence (the real step from a
reached state leads to a reached state, the first repeat of a beam is its
own start state, which is reached). So the models' solutions are exactly the
real flip sets, and the same argument covers several lasers at once (reach
is the union of all beams: a beam through another laser's cell simply joins
that laser's path). Cycles that justify themselves may make a few `reach`
variables true for nothing; they are auxiliaries, never decisions, so
counting (on `flip` only) is unaffected.

- CP-SAT: `reach[r,c,d]`, `flip[r,c]` Booleans, the equivalence as two
  `only_enforce_if` equalities per state, `add_bool_or` per goal. Two
  helpers from the same network, both sound: a redundant bound "flips >=
  the relaxed optimum" (each visit of a `?` choosing anew, Dijkstra over
  the network, `network_lower_bound`; why it is a lower bound although it
  counts turns rather than mirrors: `twinsolve.puzzles.mirror.hand`), and a hint, the relaxation's
  cheapest route (`relaxed_orientation`). Why: with one worker CP-SAT is
  slow to find any orientation that reaches a target (a 50x50 level with
  250 `?` took 0.6 s to over 20 s without them), and the route is usually
  optimal, so the bound closes the search at once.
- SAT: the same, as four clauses per state; fewest flips by RC2 MaxSAT
  (`maxsat=linear` for SAT-UNSAT linear search, much slower here: RC2
  starts from "no flips" and relaxes cores, linear search must first find
  any reaching orientation and then tighten), both from `sat_common`.

`unique` / `count` (when asked): forbid-and-re-solve on the flip variables
among the minimum-flip solutions (`cpsat_common` / `sat_common.count_solutions`).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from ...core.limits import Limits
from ...core.result import NO_SOLUTION, UNSETTLED, Result, Stats, Status, Stopwatch, Tally
from ...models import cpsat_common, sat_common
from ...models.export import CnfExport
from ...search.grid import DELTAS
from .rules import CellKind, Direction, Goal, Instance, reflect, solution_from_flips

__all__ = ["solve_cpsat", "solve_sat", "check_sat_options", "sat_export", "cpsat_export",
           "beam_network", "BeamNetwork", "network_lower_bound",
           "relaxed_orientation", "lit_states", "build_cpsat", "build_sat"]

BeamState = tuple[int, int, int]    # (row, col, direction leaving the cell)
# What a state's reach is: a constant (True / False) or the variable of a state at a `?` cell.
Reach = bool | BeamState

_DEFAULT_MAXSAT = "rc2"


@dataclass(frozen=True)
class BeamNetwork:
    """The model's content, solver-free.

    `states` maps each state leaving a `?` cell that matters to the reach of
    its two possible predecessors: (if kept, if flipped). `goals` lists, per
    goal clause, the reach of the states entering a target (goal any: one
    clause over every target; goal all: one per target). `mirrors` are the
    `?` cells that occur in `states`, in row-major order.
    """

    states: dict[BeamState, tuple[Reach, Reach]]
    goals: list[list[Reach]]
    mirrors: list[tuple[int, int]]


class _Walker:
    """Resolves any beam state to its `Reach`, walking back along fixed cells."""

    def __init__(self, instance: Instance) -> None:
        self.instance = instance
        self.starts = {(r, c, int(d)) for r, c, d in instance.sources()}

    def previous(self, r: int, c: int, incoming: int) -> BeamState | None:
        """The state a beam arriving at (r, c) moving `incoming` came from, if one can exist."""
        dr, dc = DELTAS[incoming]
        pr, pc = r - dr, c - dc
        if not (0 <= pr < self.instance.rows and 0 <= pc < self.instance.cols):
            return None
        if self.instance.grid[pr][pc] in (CellKind.WALL, CellKind.TARGET):
            return None   # no beam leaves a wall or a target
        return (pr, pc, int(incoming))

    def reach(self, state: BeamState | None) -> Reach:
        seen = set()
        while state is not None:
            if state in self.starts:
                return True
            r, c, direction = state
            kind = self.instance.grid[r][c]
            if kind is CellKind.ROTATABLE:
                return state
            if state in seen:   # a cycle of fixed cells with no laser on it: never lit
                return False
            seen.add(state)
            if kind is CellKind.SLASH:
                direction = reflect(direction, "/")
            elif kind is CellKind.BACKSLASH:
                direction = reflect(direction, "\\")
            state = self.previous(r, c, direction)
        return False

    def mirror_inputs(self, state: BeamState) -> tuple[Reach, Reach]:
        """(reach if kept as '/', reach if flipped to '\\') of a state leaving a `?` cell."""
        r, c, direction = state
        return tuple(self.reach(self.previous(r, c, reflect(direction, mirror)))
                     for mirror in ("/", "\\"))

    def target_entries(self, r: int, c: int) -> list[Reach]:
        return [self.reach(self.previous(r, c, d)) for d in Direction]


def beam_network(instance: Instance) -> BeamNetwork:
    """The states at `?` cells that can influence a hit, found backwards from the targets."""
    walker = _Walker(instance)
    entries = [walker.target_entries(r, c) for r, c in instance.targets()]
    goals = [[lit for lits in entries for lit in lits]] if instance.goal is Goal.ANY else entries
    states: dict[BeamState, tuple[Reach, Reach]] = {}
    todo = [lit for lits in goals for lit in lits if isinstance(lit, tuple)]
    while todo:
        state = todo.pop()
        if state in states:
            continue
        states[state] = inputs = walker.mirror_inputs(state)
        todo.extend(lit for lit in inputs if isinstance(lit, tuple) and lit not in states)
    mirrors = sorted({(r, c) for r, c, _ in states})
    return BeamNetwork(states, goals, mirrors)


def _relaxed_costs(net: BeamNetwork) -> dict[BeamState, tuple[int, BeamState | None, int]]:
    """Dijkstra over the network, each visit of a `?` choosing its orientation anew.

    Per reachable state: (flips, the input it came from (None: a laser), 0 kept / 1 flipped).
    """
    users: dict[Reach, list[tuple[BeamState, int]]] = {}
    for state, inputs in net.states.items():
        for flipped, lit in enumerate(inputs):
            users.setdefault(lit, []).append((state, flipped))
    best: dict[BeamState, tuple[int, BeamState | None, int]] = {}
    # Heap entries (flips, order, state, came_from, flipped): the insertion order breaks
    # ties, so states (and None) are never compared.
    heap = [(flipped, order, state, None, flipped)
            for order, (state, flipped) in enumerate(users.get(True, []))]
    heapq.heapify(heap)
    order = len(heap)
    while heap:
        cost, _order, state, came_from, flipped = heapq.heappop(heap)
        if state in best:
            continue
        best[state] = (cost, came_from, flipped)
        for user, step in users.get(state, []):
            if user not in best:
                heapq.heappush(heap, (cost + step, order, user, state, step))
                order += 1
    return best


def _cheapest_entry(entries: list[Reach], costs: dict) -> tuple[float, Reach]:
    def cost(lit: Reach) -> float:
        if lit is True:
            return 0
        return costs[lit][0] if lit is not False and lit in costs else math.inf
    return min(((cost(lit), lit) for lit in entries), default=(math.inf, False),
               key=lambda pair: pair[0])


def network_lower_bound(net: BeamNetwork) -> int | None:
    """The fewest flips if each visit of a `?` could choose its orientation anew.

    Goal any: the cheapest target entry; goal all: the dearest target's
    cheapest entry. None when even this relaxation cannot reach the goal.
    """
    costs = _relaxed_costs(net)
    bound = max((_cheapest_entry(entries, costs)[0] for entries in net.goals), default=0)
    return None if bound == math.inf else int(bound)


def relaxed_orientation(net: BeamNetwork) -> dict[tuple[int, int], int]:
    """A guess at the flips: the relaxation's cheapest routes, first choice per mirror wins.

    When no mirror on those routes needs both orientations (the usual case)
    this is an optimal solution; otherwise it is a good place to start from.
    """
    costs = _relaxed_costs(net)
    chosen: dict[tuple[int, int], int] = {}
    for entries in net.goals:
        _cost, lit = _cheapest_entry(entries, costs)
        while isinstance(lit, tuple) and lit in costs:   # not in costs: unreachable
            _flips, came_from, flipped = costs[lit]
            chosen.setdefault(lit[:2], flipped)
            lit = came_from
    return {cell: chosen.get(cell, 0) for cell in net.mirrors}


def lit_states(net: BeamNetwork, flips: dict[tuple[int, int], int]) -> set[BeamState]:
    """The network states the beams really reach under `flips` (the least fixpoint)."""
    users: dict[Reach, list[BeamState]] = {}
    for state, inputs in net.states.items():
        users.setdefault(inputs[flips[state[:2]]], []).append(state)
    lit: set[BeamState] = set()
    todo = list(users.get(True, []))
    while todo:
        state = todo.pop()
        if state not in lit:
            lit.add(state)
            todo.extend(users.get(state, []))
    return lit


def _answer(status: Status, flips: Sequence[tuple[int, int]] | None,
            tally: Tally | None,
            limits: Limits, stats: Stats, message: str | None = None) -> Result:
    """The Result of both back-ends; `tally` counts the optimal flip sets (None: not counted)."""
    if status is Status.UNSAT:
        tally = NO_SOLUTION
    solution = None if flips is None else solution_from_flips(flips)
    objective = None if flips is None else len(flips)
    return Result.answer(status, solution, objective, tally=tally or UNSETTLED, asked=limits,
                         stats=stats, message=message)


# ---------------------------------------------------------------- CP-SAT

def build_cpsat(instance: Instance) -> tuple[cp_model.CpModel, list[cp_model.IntVar],
                                             list[tuple[int, int]]]:
    """The CP-SAT model, its flip variables and their cells (same order)."""
    net = beam_network(instance)
    model = cp_model.CpModel()
    # Variables: one flip per `?` that matters, one reach per state leaving such a cell.
    flip = {(r, c): model.new_bool_var(f"flip[{r},{c}]") for r, c in net.mirrors}
    reach = {s: model.new_bool_var(f"reach[{s[0]},{s[1]},{Direction(s[2]).name}]")
             for s in net.states}

    def value(lit: Reach) -> cp_model.IntVar | int:
        return int(lit) if isinstance(lit, bool) else reach[lit]

    # Reach: the state is lit exactly when its predecessor for the mirror's orientation is.
    for state, (if_kept, if_flipped) in net.states.items():
        flipped = flip[state[:2]]
        model.add(reach[state] == value(if_kept)).only_enforce_if(~flipped)
        model.add(reach[state] == value(if_flipped)).only_enforce_if(flipped)
    # Goal: some entry of a target lit (goal any), or of every target (goal all).
    for entries in net.goals:
        if not any(lit is True for lit in entries):
            model.add_bool_or([reach[lit] for lit in entries if lit is not False])
    # Objective: fewest flips, with the relaxed optimum as a redundant lower bound: when
    # the hint below reaches it, the search is over as soon as it has checked the hint.
    bound = network_lower_bound(net)
    if bound:
        model.add(sum(flip.values()) >= bound)
    model.minimize(sum(flip.values()))
    # Hint: the relaxation's cheapest route. Why: finding any orientation that reaches a
    # target is what CP-SAT's single worker is slow at, and this one is usually optimal.
    guess = relaxed_orientation(net)
    lit = lit_states(net, guess)
    for cell, flipped_in_guess in guess.items():
        model.add_hint(flip[cell], flipped_in_guess)
    for state, var in reach.items():
        model.add_hint(var, state in lit)
    return model, list(flip.values()), list(flip)


def solve_cpsat(instance: Instance, limits: Limits) -> Result:
    """Fewest flips by CP-SAT; `unique` / `count` by forbid-and-re-solve."""
    watch, deadline = Stopwatch(), limits.deadline()
    model, flip, cells = build_cpsat(instance)
    watch.built()
    outcome, tally, effort = cpsat_common.optimum_and_tally(model, flip, limits, deadline)
    flips = None
    if outcome.values is not None:
        flips = [cell for cell, on in zip(cells, outcome.values, strict=True) if on]
    stats = watch.stats(nodes=effort.nodes, **effort.counters())
    return _answer(outcome.status, flips, tally, limits, stats, outcome.message)


# ---------------------------------------------------------------- SAT

def build_sat(instance: Instance) -> tuple[sat_common.Encoding, list[int],
                                           list[tuple[int, int]]]:
    """The CNF, its flip literals and their cells (same order)."""
    net = beam_network(instance)
    enc = sat_common.Encoding()
    flip = {(r, c): enc.var("flip", r, c) for r, c in net.mirrors}
    reach = {s: enc.var("reach", *s) for s in net.states}
    for state, (if_kept, if_flipped) in net.states.items():
        lit, flipped = reach[state], flip[state[:2]]
        # reach == if_kept unless flipped, reach == if_flipped if flipped.
        _add_equal_unless(enc, lit, if_kept, reach, [flipped])
        _add_equal_unless(enc, lit, if_flipped, reach, [-flipped])
    for entries in net.goals:
        if not any(lit is True for lit in entries):
            enc.add([reach[lit] for lit in entries if lit is not False])
    return enc, list(flip.values()), list(flip)


def _add_equal_unless(enc: sat_common.Encoding, lit: int, other: Reach,
                      reach: dict[BeamState, int], unless: list[int]) -> None:
    """Clauses for `lit == other` whenever every literal of `unless` is false."""
    if other is True:
        enc.add([lit, *unless])
    elif other is False:
        enc.add([-lit, *unless])
    else:
        enc.add([-lit, reach[other], *unless])   # backward: lit is justified by other
        enc.add([lit, -reach[other], *unless])   # forward: other passes the beam to lit


def sat_export(instance: Instance) -> CnfExport:
    """The `sat` encoding for other solvers: each flip costs 1 (WCNF soft clauses)."""
    enc, flips, cells = build_sat(instance)

    def decode(true: set[int]) -> dict[str, Any]:
        return solution_from_flips([cell for lit, cell in zip(flips, cells, strict=True)
                                    if lit in true])

    return CnfExport(enc.clauses, enc.top, flips, decode,
                     (f"twinsolve mirror {instance.rows}x{instance.cols}; the flip variables "
                      "are the soft literals",))


def cpsat_export(instance: Instance) -> cp_model.CpModel:
    return build_cpsat(instance)[0]


def check_sat_options(limits: Limits) -> None:
    """The sat back-end's options, `solver=NAME` and `maxsat=linear|rc2` (registry checker)."""
    sat_common.check_options(limits, ("solver", "maxsat"))


def solve_sat(instance: Instance, limits: Limits) -> Result:
    """Fewest flips by RC2 MaxSAT (or linear search); `unique` / `count` by blocking clauses."""
    name = sat_common.solver_name(limits)
    method = sat_common.maxsat_method(limits, _DEFAULT_MAXSAT)
    watch, deadline = Stopwatch(), limits.deadline()
    enc, flip, cells = build_sat(instance)
    watch.built()
    best, tally, effort = sat_common.minimum_and_tally(enc, flip, name, deadline, method,
                                                       limits)
    flips = None
    if best.model is not None:
        flips = [cell for cell, lit in zip(cells, flip, strict=True) if lit in best.model]
    stats = watch.stats(nodes=effort.nodes, **effort.counters())
    return _answer(best.status, flips, tally, limits, stats)
