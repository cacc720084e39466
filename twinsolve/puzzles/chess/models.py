"""Solitaire Chess as a planning problem, for CP-SAT and for a SAT solver.

Rules (see `twinsolve.puzzles.chess.rules`). Every move captures: a piece moves as
in chess onto an occupied square and removes that piece (sliders need the
squares in between empty, pawns capture diagonally toward the top row, the
king cannot be captured). Goal: one piece left.

Modelling idea. Every move removes one piece, so a win is exactly
T = pieces - 1 legal captures in a row; the horizon is fixed and
`planning.grow_horizon` is called with lower == upper == T. A capture moves
a piece onto an occupied square, so only the start squares ("slots") ever
hold a piece; the encoding has, for each step t = 0..T,

- `has[t,s,k]`: slot s holds a piece of type k (types on the board only),
  with `occ[t,s]` = "slot s is occupied" (at most one type per slot);
- `move[t,a,b]` for t < T: the step-t capture goes from slot a to slot b,
  for every pair some type on the board could join on an empty board.

Constraints, per step: exactly one move; a move needs a mover on a whose
type moves that way (the other types are excluded on a), a piece on b that
is not a king, and the slots strictly between a and b empty (squares outside
the slots are always empty); its effect is has[t+1,b,k] = has[t,a,k] and
slot a empty; every slot no move of step t touches keeps its piece (frame
axioms, one per slot and type, enforced when all the moves touching the slot
are false). Since exactly T pieces are captured, the goal "one piece left"
holds by itself. Redundant constraints help propagation: an empty slot stays
empty, a slot empties only as the origin of the step's move, a move's
origin empties and its target stays occupied (SAT), the number of pieces at
step t is pieces - t (CP-SAT). The SAT encoding states "exactly one move"
as one clause plus pairwise at-most-one (a cardinality network beyond 64
moves per step).

`count` / `unique` enumerate by forbid-and-re-solve over the `move`
variables: the move sequence fixes every state, so distinct assignments are
exactly the distinct winning move sequences (`cpsat_common.count_solutions`,
`sat_common.count_solutions`). That is one solver call per sequence: fine
for puzzles, hopeless for boards with millions of winning lines, which only
`hand` (counting through its memo) can count.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from ...core.errors import UsageError
from ...core.limits import Deadline, LimitReached, Limits
from ...core.result import Result, Stats, Status, Stopwatch, Tally, solutions_wanted
from ...models import cpsat_common, sat_common
from ...models.export import CnfExport
from ...models.planning import Answer, HorizonAnswer, grow_horizon
from .rules import PIECES, Cell, Instance, answer, between, notation, reaches

__all__ = ["solve_cpsat", "solve_sat", "build_cpsat", "build_sat", "sat_export", "cpsat_export",
           "Plan", "Layout", "layout"]

Square = tuple[int, int]
Pair = tuple[int, int]  # (origin slot, target slot)


@dataclass(frozen=True)
class Layout:
    """What both encodings read off the instance.

    `slots`: the start squares, row-major; `kinds`: the piece types on the
    board; `pairs[(a, b)]`: the types that capture from slot a onto slot b on
    an empty board; `inside[(a, b)]`: the slots strictly between them.
    """

    slots: tuple[Square, ...]
    kinds: tuple[Cell, ...]
    pairs: dict[Pair, tuple[Cell, ...]]
    inside: dict[Pair, tuple[int, ...]]

    @property
    def horizon(self) -> int:
        return len(self.slots) - 1

    def start(self, instance: Instance, slot: int) -> Cell:
        r, c = self.slots[slot]
        return instance.board[r][c]


def layout(instance: Instance) -> Layout:
    slots = tuple(sq for sq in instance.squares() if instance.board[sq[0]][sq[1]] is not Cell.EMPTY)
    kinds = tuple(k for k in PIECES if any(instance.board[r][c] is k for r, c in slots))
    index = {square: slot for slot, square in enumerate(slots)}
    pairs: dict[Pair, tuple[Cell, ...]] = {}
    inside: dict[Pair, tuple[int, ...]] = {}
    for a, origin in enumerate(slots):
        for b, target in enumerate(slots):
            movers = tuple(k for k in kinds if reaches(k, origin, target))
            if movers:
                pairs[a, b] = movers
                inside[a, b] = tuple(index[sq] for sq in between(origin, target) if sq in index)
    return Layout(slots, kinds, pairs, inside)


@dataclass
class Plan:
    """A winning sequence found at the horizon, with what counting needs to go on."""

    path: list[tuple[Square, Square]]
    known: Any                       # the decision values / model that gave `path`
    model: Any                       # the CP-SAT model or the SAT encoding
    decisions: list[Any]


def _path(plan_layout: Layout, chosen: list[Pair]) -> list[tuple[Square, Square]]:
    return [(plan_layout.slots[a], plan_layout.slots[b]) for a, b in chosen]


def _steps(lay: Layout) -> range:
    return range(lay.horizon)


def _touching(lay: Layout, slot: int) -> list[Pair]:
    return [pair for pair in lay.pairs if slot in pair]


# ---------------------------------------------------------------- CP-SAT

def build_cpsat(instance: Instance, lay: Layout | None = None, deadline: Deadline | None = None
                ) -> tuple[cp_model.CpModel, dict[tuple[int, int, int], cp_model.IntVar]]:
    """The CP-SAT model at horizon pieces - 1, and its move variables keyed (t, a, b).

    Raises `LimitReached` when `deadline` passes while building (big boards).
    """
    lay, deadline = lay or layout(instance), deadline or Deadline(None)
    model = cp_model.CpModel()
    horizon, slots = lay.horizon, range(len(lay.slots))
    # Variables: piece types per slot and step, occupancy, the move of each step.
    has = {(t, s, k): model.new_bool_var(f"has[{t},{s},{k.value}]")
           for t in range(horizon + 1) for s in slots for k in lay.kinds}
    occ = {(t, s): model.new_bool_var(f"occ[{t},{s}]") for t in range(horizon + 1) for s in slots}
    move = {(t, a, b): model.new_bool_var(f"move[{t},{a},{b}]")
            for t in _steps(lay) for a, b in lay.pairs}
    # The start position.
    for s in slots:
        for k in lay.kinds:
            model.add(has[0, s, k] == int(lay.start(instance, s) is k))
    for t in range(horizon + 1):
        # Why: occupancy is the sum of at most one type per slot; T - t captures are left.
        for s in slots:
            model.add(occ[t, s] == sum(has[t, s, k] for k in lay.kinds))
        model.add(sum(occ[t, s] for s in slots) == len(lay.slots) - t)
    for t in _steps(lay):
        deadline.check()
        model.add_exactly_one(move[t, a, b] for a, b in lay.pairs)
        for (a, b), movers in lay.pairs.items():
            _cpsat_move(model, lay, has, occ, move[t, a, b], t, a, b, movers)
        for s in slots:
            _cpsat_frame(model, lay, has, [move[t, a, b] for a, b in _touching(lay, s)], t, s)
            # Redundant: an empty slot stays empty; a slot empties only as a move's origin.
            model.add_implication(occ[t + 1, s], occ[t, s])
            origins = [move[t, a, b] for a, b in lay.pairs if a == s]
            model.add_bool_or([occ[t, s].negated(), occ[t + 1, s], *origins])
    return model, move


def _cpsat_move(model: cp_model.CpModel, lay: Layout, has: dict, occ: dict, chosen: Any,
                t: int, a: int, b: int, movers: tuple[Cell, ...]) -> None:
    """A move needs a mover of the right type, prey that is not a king, a clear path."""
    model.add_bool_or([has[t, a, k] for k in movers]).only_enforce_if(chosen)
    model.add_implication(chosen, occ[t, b])
    if Cell.KING in lay.kinds:
        model.add_implication(chosen, has[t, b, Cell.KING].negated())
    for k in lay.kinds:
        if k not in movers:
            model.add_implication(chosen, has[t, a, k].negated())
    for s in lay.inside[a, b]:
        model.add_implication(chosen, occ[t, s].negated())
    # Its effect: the mover's type lands on b, a is left empty.
    for k in lay.kinds:
        model.add(has[t + 1, b, k] == has[t, a, k]).only_enforce_if(chosen)
        model.add_implication(chosen, has[t + 1, a, k].negated())


def _cpsat_frame(model: cp_model.CpModel, lay: Layout, has: dict, touching: list[Any],
                 t: int, s: int) -> None:
    """A slot no move of step t touches keeps its piece."""
    untouched = [m.negated() for m in touching]
    for k in lay.kinds:
        model.add(has[t + 1, s, k] == has[t, s, k]).only_enforce_if(untouched)


def _chosen_pairs(keys: list[tuple[int, int, int]], values: tuple[int, ...]) -> list[Pair]:
    chosen = sorted((t, a, b) for (t, a, b), v in zip(keys, values, strict=True) if v)
    return [(a, b) for _, a, b in chosen]


def solve_cpsat(instance: Instance, limits: Limits) -> Result:
    """A winning sequence by CP-SAT at horizon pieces - 1; `count` by forbid-and-re-solve."""
    watch, deadline = Stopwatch(), limits.deadline()
    if instance.pieces == 1:
        return _single_piece(watch, limits)
    lay = layout(instance)
    effort = cpsat_common.CpEffort()

    def solve_at(horizon: int) -> HorizonAnswer[Plan]:
        # Called for horizon == lay.horizon only: a shorter plan cannot win.
        try:
            model, move = build_cpsat(instance, lay, deadline)
        except LimitReached:
            return HorizonAnswer(Answer.UNKNOWN)
        watch.built()
        keys, variables = list(move), list(move.values())
        outcome = cpsat_common.solve_model(model, variables, limits, deadline)
        effort.merge(outcome.effort)
        nodes = outcome.effort.nodes
        if outcome.status is Status.UNSAT:
            return HorizonAnswer(Answer.NONE, None, nodes)
        if outcome.values is None:
            return HorizonAnswer(Answer.UNKNOWN, None, nodes)
        path = _path(lay, _chosen_pairs(keys, outcome.values))
        return HorizonAnswer(Answer.FOUND, Plan(path, outcome.values, model, variables), nodes)

    found = grow_horizon(solve_at, lay.horizon, lay.horizon, deadline)
    return _finish(instance, found.plan, found.exhausted, limits, watch, deadline, effort,
                   _count_cpsat)


def _count_cpsat(plan: Plan, limits: Limits, deadline: Deadline,
                 effort: cpsat_common.CpEffort) -> Tally:
    tally = cpsat_common.count_solutions(plan.model, plan.decisions, limits, deadline,
                                         known=plan.known, stop_at=solutions_wanted(limits))
    effort.merge(tally.effort)
    return tally


# ---------------------------------------------------------------- SAT

def build_sat(instance: Instance, lay: Layout | None = None, deadline: Deadline | None = None
              ) -> tuple[sat_common.Encoding, dict[tuple[int, int, int], int]]:
    """The CNF at horizon pieces - 1, and its move literals keyed (t, a, b).

    Raises `LimitReached` when `deadline` passes while building (big boards).
    """
    lay, deadline = lay or layout(instance), deadline or Deadline(None)
    enc = sat_common.Encoding()
    horizon, slots = lay.horizon, range(len(lay.slots))
    has = {(t, s, k): enc.var("has", t, s, k.value)
           for t in range(horizon + 1) for s in slots for k in lay.kinds}
    occ = {(t, s): enc.var("occ", t, s) for t in range(horizon + 1) for s in slots}
    move = {(t, a, b): enc.var("move", t, a, b) for t in _steps(lay) for a, b in lay.pairs}
    for s in slots:
        for k in lay.kinds:
            enc.add([has[0, s, k] if lay.start(instance, s) is k else -has[0, s, k]])
    for t in range(horizon + 1):
        for s in slots:
            _sat_occupancy(enc, occ[t, s], [has[t, s, k] for k in lay.kinds])
    for t in _steps(lay):
        deadline.check()
        step = [move[t, a, b] for a, b in lay.pairs]
        enc.add(step)
        _sat_at_most_one(enc, step)
        for (a, b), movers in lay.pairs.items():
            _sat_move(enc, lay, has, occ, move[t, a, b], t, a, b, movers)
        for s in slots:
            _sat_frame(enc, lay, has, [move[t, a, b] for a, b in _touching(lay, s)], t, s)
            _sat_emptying(enc, occ, [move[t, a, b] for a, b in lay.pairs if a == s], t, s)
    return enc, move


def _sat_at_most_one(enc: sat_common.Encoding, lits: list[int]) -> None:
    """Pairwise up to 64 literals (the strongest propagation), a cardinality network beyond."""
    if len(lits) > 64:
        enc.add_at_most(lits, 1)
        return
    for i, first in enumerate(lits):
        for second in lits[i + 1:]:
            enc.add([-first, -second])


def _sat_emptying(enc: sat_common.Encoding, occ: dict, origins: list[int], t: int,
                  s: int) -> None:
    """Redundant: an empty slot stays empty, and a slot empties only as a move's origin."""
    enc.add([-occ[t + 1, s], occ[t, s]])
    enc.add([-occ[t, s], occ[t + 1, s], *origins])


def _sat_occupancy(enc: sat_common.Encoding, occupied: int, types: list[int]) -> None:
    """occupied <-> some type; at most one type per slot (pairwise: at most 6 types)."""
    enc.add([-occupied, *types])
    for i, first in enumerate(types):
        enc.add([occupied, -first])
        for second in types[i + 1:]:
            enc.add([-first, -second])


def _sat_move(enc: sat_common.Encoding, lay: Layout, has: dict, occ: dict, chosen: int,
              t: int, a: int, b: int, movers: tuple[Cell, ...]) -> None:
    """As `_cpsat_move`, plus the redundant "a empties, b stays occupied"."""
    enc.add([-chosen, *(has[t, a, k] for k in movers)])
    enc.add([-chosen, occ[t, b]])
    enc.add([-chosen, -occ[t + 1, a]])
    enc.add([-chosen, occ[t + 1, b]])
    if Cell.KING in lay.kinds:
        enc.add([-chosen, -has[t, b, Cell.KING]])
    for k in lay.kinds:
        if k not in movers:
            enc.add([-chosen, -has[t, a, k]])
    for s in lay.inside[a, b]:
        enc.add([-chosen, -occ[t, s]])
    for k in lay.kinds:
        enc.add([-chosen, -has[t, a, k], has[t + 1, b, k]])
        enc.add([-chosen, has[t, a, k], -has[t + 1, b, k]])
        enc.add([-chosen, -has[t + 1, a, k]])


def _sat_frame(enc: sat_common.Encoding, lay: Layout, has: dict, touching: list[int],
               t: int, s: int) -> None:
    for k in lay.kinds:
        enc.add([*touching, -has[t, s, k], has[t + 1, s, k]])
        enc.add([*touching, has[t, s, k], -has[t + 1, s, k]])


def solve_sat(instance: Instance, limits: Limits) -> Result:
    """A winning sequence by SAT at horizon pieces - 1; `count` by blocking clauses."""
    name = sat_common.solver_name(limits)
    watch, deadline = Stopwatch(), limits.deadline()
    if instance.pieces == 1:
        return _single_piece(watch, limits)
    lay = layout(instance)
    effort = sat_common.SatStats()

    def solve_at(horizon: int) -> HorizonAnswer[Plan]:
        # Called for horizon == lay.horizon only: a shorter plan cannot win.
        try:
            enc, move = build_sat(instance, lay, deadline)
        except LimitReached:
            return HorizonAnswer(Answer.UNKNOWN)
        watch.built()
        keys, literals = list(move), list(move.values())
        with sat_common.SatSession(name, enc.clauses, deadline) as session:
            outcome = session.solve()
            model = session.model() if outcome else None
        effort.merge(session.stats)
        if outcome is False:
            return HorizonAnswer(Answer.NONE, None, session.stats.nodes)
        if outcome is None:
            return HorizonAnswer(Answer.UNKNOWN, None, session.stats.nodes)
        values = tuple(int(lit in model) for lit in literals)
        path = _path(lay, _chosen_pairs(keys, values))
        return HorizonAnswer(Answer.FOUND, Plan(path, model, enc, literals), session.stats.nodes)

    found = grow_horizon(solve_at, lay.horizon, lay.horizon, deadline)

    def count(plan: Plan, limits: Limits, deadline: Deadline,
              effort: sat_common.SatStats) -> Tally:
        tally = sat_common.count_solutions(plan.model, plan.decisions, name, deadline,
                                           known=plan.known, stop_at=solutions_wanted(limits))
        effort.merge(tally.stats)
        return tally

    return _finish(instance, found.plan, found.exhausted, limits, watch, deadline, effort, count)


def sat_export(instance: Instance) -> CnfExport:
    """The `sat` encoding at horizon pieces - 1; a model decodes to a winning sequence."""
    if instance.pieces == 1:
        raise UsageError("a board with one piece is already won: there is nothing to encode")
    lay = layout(instance)
    enc, move = build_sat(instance, lay)
    keys = list(move)

    def decode(true: set[int]) -> dict[str, Any]:
        values = tuple(int(move[key] in true) for key in keys)
        return {"moves": notation(instance, _path(lay, _chosen_pairs(keys, values)))}

    return CnfExport(enc.clauses, enc.top, (), decode,
                     (f"twinsolve chess {instance.rows}x{instance.cols}, "
                      f"{lay.horizon} captures",))


def cpsat_export(instance: Instance) -> cp_model.CpModel:
    if instance.pieces == 1:
        raise UsageError("a board with one piece is already won: there is nothing to encode")
    return build_cpsat(instance)[0]


# ---------------------------------------------------------------- shared

def _single_piece(watch: Stopwatch, limits: Limits) -> Result:
    """One piece: already won, by the empty sequence (no solver needed)."""
    watch.built()
    return answer([], Tally(1, complete=True), limits, watch.stats(nodes=0))


Counter = Callable[[Plan, Limits, Deadline, Any], Tally]


def _finish(instance: Instance, plan: Plan | None, exhausted: bool, limits: Limits,
            watch: Stopwatch, deadline: Deadline, effort: Any, count: Counter) -> Result:
    """UNSAT, TIMEOUT, or SOLVED with the plan, counted further when asked."""
    if plan is None:
        stats = _stats(watch, effort)
        if exhausted:
            return Result.unsat(limits, stats=stats)
        return Result(Status.TIMEOUT, stats=stats, message="no plan within the time limit")
    tally = Tally(1, complete=False)  # not counted: this plan, the rest not looked for
    if limits.count or limits.unique:
        tally = count(plan, limits, deadline, effort)
    return answer(notation(instance, plan.path), tally, limits, _stats(watch, effort))


def _stats(watch: Stopwatch, effort: Any) -> Stats:
    return watch.stats(nodes=effort.nodes, **effort.counters())
