"""Nurikabe, the `hand` back-end: propagation to a fixpoint plus depth-first branching.

Rules (see `twinsolve.puzzles.nurikabe.rules`): shade cells so that the
shaded cells (the sea) are connected with no 2x2 block shaded, and every
island of unshaded cells holds exactly one clue, whose number is its size.

The idea. One Boolean variable per cell on the shared engine's `Store`
(`TRUE` = shaded: its domain mask `SHADED`, `UNSHADED` or `UNDECIDED`), clue
cells fixed unshaded, and the engine's island and region rules on its
`Propagator` (`search.islands.islands_in_sea`), cheapest first:

- pools (`regions.NoUniformBlock`, one rule per 2x2 block): three shaded
  cells of a block make the fourth unshaded;
- the island bounds (always): a part of an island with two clues or more
  cells than its number is a contradiction, a complete island is walled in
  by sea, a cell that would join two islands or overfill one is shaded;
- `reach`: cells no island can reach within the cells it still needs are
  shaded (an orphan part no island reaches is a contradiction), and the sea
  connected: a shaded cell walled off from the others is a contradiction, an
  undecided cell that reaches no shaded cell is unshaded;
- `cuts`: articulation forcing, for the sea (an undecided cell whose loss
  would split the shaded cells is shaded) and for each island (an undecided
  cell without which it cannot reach its size is unshaded);
- `shapes`: every way to complete each island, when there are few: cells in
  all of them are unshaded, cells beside all of them shaded;
- `probing` (option `probe`, on by default): the engine's failed-literal
  probing on the undecided cells beside an incomplete island, shaded first:
  a value whose propagation fails is removed. Trials are counted apart, as
  `probes`, not as search nodes.

Branching (`choose_cell`): the undecided cell beside the incomplete island
that needs the fewest cells, else the one with the most decided neighbours;
shaded first. `nodes` counts values tried at branching points
(docs/architecture.md: hand = search nodes expanded); `propagations` counts
rule runs. With `limits.unique` the search goes on to a second solution,
with `limits.count` it enumerates them all; the deadline and
`limits.node_limit` stop it with `timeout` (or `solved` with `unique` /
`count` unknown when a solution was already found).
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.limits import Limits
from ...core.result import Result, Stats, Status, Stopwatch, Tally, solutions_wanted
from ...search.grid import Grid
from ...search.islands import Islands
from ...search.propagate import (
    FALSE,
    IS_FALSE,
    IS_TRUE,
    TRUE,
    UNDECIDED,
    Contradiction,
    LimitReached,
    Propagator,
    SolveResult,
    Store,
    search,
)
from .rules import Instance, clue_cells, solution_from_shaded

__all__ = ["solve", "check_options", "build", "NurikabeModel", "SHADED", "UNSHADED",
           "TECHNIQUES", "shaded_first", "choose_cell"]

# A cell's domain mask in the puzzle's words (the engine's Boolean masks); TRUE = shaded.
SHADED, UNSHADED = IS_TRUE, IS_FALSE

# The deduction techniques beyond the island bounds and pools (always on), cheapest
# first; a model may be restricted to some of them (the generator's levels).
TECHNIQUES = ("reach", "cuts", "shapes", "probing")


class NurikabeModel:
    """The store (cells, then the islands' labels), the rules and the branching
    heuristic of one instance.

    `techniques` (default: all of `TECHNIQUES`) restricts the rules, for
    grading; `probe` False leaves probing out whatever `techniques` says.
    """

    def __init__(self, instance: Instance, probe: bool = True,
                 techniques: Sequence[str] = TECHNIQUES) -> None:
        unknown = set(techniques) - set(TECHNIQUES)
        if unknown:
            raise ValueError(f"unknown techniques {sorted(unknown)} (known: {TECHNIQUES})")
        self.techniques = frozenset(techniques)
        self.instance = instance
        self.grid = Grid(instance.rows, instance.cols)
        clues = [(self.grid.index(r, c), number) for r, c, number in clue_cells(instance)]
        engine = [name for name in TECHNIQUES if name in self.techniques and name != "probing"]
        self.islands = Islands(self.grid, clues, UNSHADED, engine)
        self.store = self.islands.store()
        self.prop = Propagator(self.store)
        for rule, watches, priority in self.islands.rules():
            self.prop.add_rule(rule, watches, priority=priority)
        self.probe = probe and "probing" in self.techniques
        if self.probe:
            self.prop.enable_probing(self._liberties, shaded_first)

    def _liberties(self, store: Store) -> list[int]:
        """The cells to probe: undecided cells beside an unshaded cell, ascending."""
        dom, nbrs = store.dom, self.grid.neighbours
        import os
        if os.environ.get("NK_ALL"):
            return [i for i in range(self.grid.size) if dom[i] == UNDECIDED]
        if os.environ.get("NK_FRONT"):
            return [i for i in range(self.grid.size)
                    if dom[i] == UNDECIDED and any(dom[w] != UNDECIDED for w in nbrs[i])]
        return [i for i in range(self.grid.size)
                if dom[i] == UNDECIDED and any(dom[w] == UNSHADED for w in nbrs[i])]

    def settle(self) -> bool:
        """Propagation at the root, and whenever it is stuck the islands' shapes listed
        with the larger limits (`Islands.deep_shapes`), until neither decides more.
        False on a contradiction (no solution); `LimitReached` at the deadline."""
        if not self.prop.propagate():
            return False
        try:
            while not self.decided() and self.islands.deep_shapes(self.store):
                if not self.prop.propagate():
                    return False
        except Contradiction:
            return False
        return True

    def choose(self, store: Store) -> int | None:
        """The variable to branch on (`choose_cell`), None when all are decided."""
        return choose_cell(store, self.grid.neighbours)

    def decided(self) -> bool:
        """Whether every cell is shaded or not."""
        return UNDECIDED not in self.store.dom[:self.grid.size]

    def solution(self, values: Sequence[int]) -> dict[str, list[str]]:
        """The `{"shaded": [...]}` answer of one value per cell (`TRUE`: shaded); values
        past the cells (the islands' labels) are left out."""
        cols = self.grid.cols
        return solution_from_shaded(values[r * cols:(r + 1) * cols]
                                    for r in range(self.grid.rows))


def build(instance: Instance, probe: bool = True,
          techniques: Sequence[str] = TECHNIQUES) -> NurikabeModel:
    """The propagation model of `instance`, ready for `search`."""
    return NurikabeModel(instance, probe, techniques)


def choose_cell(store: Store, nbrs: Sequence[Sequence[int]]) -> int | None:
    """The cell to branch on, or None when every variable is decided: the undecided cell
    with the most decided neighbours (where deductions start), an unshaded one counting
    double, ties to the lowest index. Once every cell is decided propagation has fixed
    the islands' labels too; were one left, it is branched on, so the search stays
    complete."""
    dom = store.dom
    best, best_score = None, -1
    for i in range(len(nbrs)):
        if dom[i] == UNDECIDED:
            score = 0
            for w in nbrs[i]:
                mw = dom[w]
                if mw != UNDECIDED:
                    score += 2 if mw == UNSHADED else 1
            if score > best_score:
                best, best_score = i, score
    if best is None:
        best = next((v for v in range(len(nbrs), len(dom)) if not store.is_fixed(v)), None)
    return best


def shaded_first(store: Store, var: int) -> tuple[int, ...]:
    """The value order of branching and probing: shaded (`TRUE`) first."""
    return (TRUE, FALSE)


# ---------------------------------------------------------------- solve

def check_options(limits: Limits) -> None:
    """hand's one option, `probe=true|false` (the registry's checker)."""
    limits.check_options("hand", ("probe",))
    limits.flag("probe", True)


def solve(instance: Instance, limits: Limits) -> Result:
    """Propagate and branch; SOLVED with `{"shaded": [...]}`, UNSAT, or TIMEOUT.

    The root is settled first (`NurikabeModel.settle`): when that decides every
    cell, the answer is the only one and no search runs. Option
    `limits.options["probe"]` (default True; `hand:probe=false` on the command
    line) turns failed-literal probing off.
    """
    watch = Stopwatch()
    deadline = limits.deadline()
    model = build(instance, limits.flag("probe", True))
    watch.built()
    model.prop.deadline = deadline
    try:
        settled = model.settle()
    except LimitReached:
        return Result(Status.TIMEOUT, stats=_stats(model, watch, 0),
                      message="hand stopped: time limit")
    if not settled:
        return Result.unsat(limits, stats=_stats(model, watch, 0))
    if model.decided():
        return Result.answer(Status.SOLVED, model.solution(model.store.solution()),
                             tally=Tally(1, complete=True), asked=limits,
                             stats=_stats(model, watch, 0))
    found = search(model.prop, choose=model.choose, order=shaded_first,
                   max_solutions=solutions_wanted(limits), keep=1,
                   node_limit=limits.node_limit, deadline=deadline)
    return _result(model, limits, found, _stats(model, watch, found.nodes))


def _stats(model: NurikabeModel, watch: Stopwatch, nodes: int) -> Stats:
    counters = {"propagations": model.prop.runs}
    if model.probe:
        counters["probes"] = model.prop.probes
    return watch.stats(nodes=nodes, **counters)


def _result(model: NurikabeModel, limits: Limits, found: SolveResult, stats: Stats) -> Result:
    stopped = found.limit_hit
    message = f"hand stopped: {stopped} limit" if stopped else None
    if not found.solutions:
        if stopped:
            return Result(Status.TIMEOUT, stats=stats, message=message)
        return Result.unsat(limits, stats=stats)
    return Result.answer(Status.SOLVED, model.solution(found.solutions[0]),
                         tally=found.tally, asked=limits, stats=stats, message=message)
