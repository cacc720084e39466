"""Cave (Corral) as a CP-SAT model and as a SAT encoding with lazy connectivity cuts.

Rules (see `twinsolve.puzzles.cave.rules`). Shade some cells as the cave (inside).
The inside cells form one orthogonally connected region; every outside cell
reaches the edge of the grid through outside cells (no holes); every clue
cell is inside, and a clue number counts the inside cells it sees along its
row and column, itself included, each ray stopping at the first outside cell
or the edge. `?` is an inside cell with no count. A feasibility puzzle: the
answer is `solved` with no objective.

Modelling idea. One Boolean `inside[r,c]` per cell.

- Clues: a clue cell is inside.
- Visibility: along each of the four arms of a numbered clue, `see[r,c,d,k]`
  is true iff the k nearest cells in direction d are all inside:
  see_1 = inside(first cell), see_k <-> see_{k-1} and inside(k-th cell). The
  arm's see literals are then the arm's length in unary, and the four arms
  add up to clue - 1. An arm never needs more than `clue` literals: seeing
  `clue` cells in one direction already breaks the sum.
- Connectivity: the inside cells are connected (rooted at the first clue
  cell, when there is one), and the outside cells together with a virtual
  BORDER vertex, adjacent to every edge cell, are connected: that is "no
  holes". Both are `graph_constraints` constraints on the grid graph.
- Implied clauses, for propagation only: no 2x2 checkerboard (two diagonal
  inside cells with both other cells outside would enclose one of them); an
  inside cell other than the root has an inside neighbour, and an outside
  cell an outside neighbour or the edge (`graph_constraints.implied_clauses`).

Back-ends.
- `cpsat`: the declarative model; connectivity by `graph_constraints.connected`
  with option `connectivity` = flow (the default), height, distance or layers,
  or `lazy`: the cut loop below with a fresh CP-SAT run per round (CP-SAT is
  not incremental). Defaults `linearization_level=2`, `cp_model_presolve=false`
  unless the caller sets them (measured: `_CPSAT_PARAMETERS`).
- `sat`: CNF through PySAT; visibility by a unary adder (totalizer merges of
  the four already-sorted arms, equal to clue - 1); connectivity by lazy cuts
  in one incremental solver (`models.lazy_cuts`): solve; if the cave falls apart
  or outside cells are enclosed, add `graph_constraints.separator_cuts` of both
  graphs (`lazy_cuts.region_cuts`) and solve again, until a connected model
  or UNSAT. The cuts are sound (proof in
  `graph_constraints`), so UNSAT is a proof. `connectivity=layers` uses the
  complete BFS-layer CNF instead (slower: see `graph_constraints`).

`--unique`: forbid the solution found (a clause on the inside literals) and
search again, cuts included, so a second model counts only once it is
connected: `unique` is True only when that search ends UNSAT. `--count`: the
same loop to the end on `sat`; `cpsat` counts with one CP-SAT enumeration on
the `distance` encoding, whose auxiliaries the shading fixes, so each
solution is met once (forbid-and-re-solve would pay a CP-SAT run per solution).
Statistics: `nodes` = CP-SAT branches or SAT decisions; `cuts` and `rounds`
(solver calls of the cut loop) beside them.

Generating: `ClueOracle` answers "is the cave the only solution of these
clues?" for one cave, question after question, in one incremental solver
(clues behind selector literals, questions as assumptions); the generator
(`generate.py`) asks it while it lifts clues.

Exports: `sat_export` is the COMPLETE CNF (BFS layers for both connectivity
constraints, no lazy cuts), so any model of the file decodes to a solution
that passes `verify`; `cpsat_export` is the `cpsat` model.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ortools.sat.python import cp_model

from ...core.geometry import DELTAS
from ...core.limits import Deadline, Limits
from ...core.result import Result, Stopwatch
from ...models import cpsat_common, graph_constraints, lazy_cuts, sat_common
from ...models.export import CnfExport
from .rules import EMPTY, Instance, clue_cells, count_visible, solution_from_inside

__all__ = ["solve_cpsat", "solve_sat", "check_cpsat_options", "check_sat_options",
           "sat_export", "cpsat_export", "build_cpsat", "build_sat", "Layout", "layout",
           "CPSAT_METHODS", "SAT_METHODS", "ClueOracle"]

CPSAT_METHODS = (*graph_constraints.METHODS, "lazy")
SAT_METHODS = ("lazy", "layers")
_CPSAT_DEFAULT = "flow"
# CP-SAT parameters for this model unless the caller sets them. Measured on the 140
# janko puzzles with uniqueness (one worker): the flow constraints lean on the LP,
# which level 2 strengthens with cuts, and presolve costs more than it saves on
# models this small: total 24 s -> 18 s, median 0.11 s -> 0.07 s.
_CPSAT_PARAMETERS = {"linearization_level": 2, "cp_model_presolve": False}


# ---------------------------------------------------------------- the grid as graphs

@dataclass(frozen=True)
class Layout:
    """Cells as vertices 0..n-1 (r * cols + c); `outer` adds the BORDER vertex n.

    `root` is the first clue cell, None without clues; `required` every clue cell
    (all inside).
    """

    rows: int
    cols: int
    inner: tuple[tuple[int, ...], ...]
    outer: tuple[tuple[int, ...], ...]
    root: int | None
    required: frozenset[int]

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def border(self) -> int:
        return self.cells


def layout(instance: Instance) -> Layout:
    rows, cols = instance.rows, instance.cols
    inner, outer = lazy_cuts.region_graphs(rows, cols)
    clues = clue_cells(instance)
    root = clues[0].row * cols + clues[0].col if clues else None
    required = frozenset(clue.row * cols + clue.col for clue in clues)
    return Layout(rows, cols, inner, outer, root, required)


def _arms(instance: Instance, row: int, col: int, number: int) -> list[list[int]]:
    """Per direction, the cells outward from a clue, at most `number` of them."""
    arms = []
    for dr, dc in DELTAS:
        arm, r, c = [], row + dr, col + dc
        while 0 <= r < instance.rows and 0 <= c < instance.cols and len(arm) < number:
            arm.append(r * instance.cols + c)
            r, c = r + dr, c + dc
        arms.append(arm)
    return arms


def _implied_grid_clauses(lay: Layout, inside: Sequence[Any], neg: Any) -> list[list[Any]]:
    """No 2x2 checkerboard: two diagonal inside cells with the other two outside.

    Why it holds: a path of inside cells joining the two diagonal ones closes a loop
    through their shared corner that encloses one of the two outside cells, a hole.
    (The "has a neighbour of its kind" clauses come with the graph constraints.)
    """
    clauses = []
    cols = lay.cols
    for r in range(lay.rows - 1):
        for c in range(cols - 1):
            a, b = inside[r * cols + c], inside[r * cols + c + 1]
            d, e = inside[(r + 1) * cols + c], inside[(r + 1) * cols + c + 1]
            clauses.append([neg(a), neg(e), b, d])
            clauses.append([neg(b), neg(d), a, e])
    return clauses


def _grid(lay: Layout, values: Sequence[int | bool]) -> dict[str, list[str]]:
    cols = lay.cols
    return solution_from_inside([values[r * cols:(r + 1) * cols] for r in range(lay.rows)])


def _cuts(lay: Layout) -> lazy_cuts.Violated:
    """The lazy cuts a shading violates: the cave connected (rooted at the first clue,
    every clue in it) and the outside reaching the edge (`lazy_cuts.region_cuts`)."""
    return lambda values: lazy_cuts.region_cuts(values, lay.inner, lay.outer, lay.root,
                                                lay.required)


# ---------------------------------------------------------------- CP-SAT

def build_cpsat(instance: Instance, method: str = _CPSAT_DEFAULT
                ) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The CP-SAT model and its `inside` variables in row-major order.

    `method` is a `graph_constraints` method, or "lazy" for no connectivity
    constraint at all (the caller adds cuts).
    """
    lay = layout(instance)
    model = cp_model.CpModel()
    # Variables: one Boolean per cell.
    inside = [model.new_bool_var(f"inside[{v // lay.cols},{v % lay.cols}]")
              for v in range(lay.cells)]
    # Clues are inside; numbered clues see clue - 1 other cells.
    for r, c, number in clue_cells(instance):
        model.add(inside[r * lay.cols + c] == 1)
        if number is not None:
            _add_visibility(model, inside, _arms(instance, r, c, number), number, (r, c))
    if not clue_cells(instance):
        model.add_bool_or(inside)  # the cave has at least one cell
    for clause in _implied_grid_clauses(lay, inside, lambda lit: lit.negated()):
        model.add_bool_or(clause)
    # Connectivity: the cave, and the outside plus the border vertex (no holes).
    border = model.new_bool_var("border")
    outside = [lit.negated() for lit in inside] + [border]
    for active, graph, root, name in ((inside, lay.inner, lay.root, "cave"),
                                      (outside, lay.outer, lay.border, "out")):
        if method == "lazy":  # only what connectivity implies; the caller adds cuts
            for clause in graph_constraints.implied_clauses(active, graph, root,
                                                            lambda lit: lit.negated()):
                model.add_bool_or(clause)
        else:
            graph_constraints.connected(model, active, graph, root, method, name)
    return model, inside


def _add_visibility(model: cp_model.CpModel, inside: Sequence[cp_model.IntVar],
                    arms: list[list[int]], number: int, at: tuple[int, int]) -> None:
    """see[k] <-> see[k-1] and inside[k-th cell]; the see literals sum to number - 1."""
    seen = []
    for d, arm in enumerate(arms):
        previous = None
        for k, cell in enumerate(arm, start=1):
            if previous is None:
                see = inside[cell]  # the nearest cell is seen iff it is inside
            else:
                see = model.new_bool_var(f"see[{at[0]},{at[1]},{d},{k}]")
                model.add_implication(see, previous)
                model.add_implication(see, inside[cell])
                model.add_bool_or([see, previous.negated(), inside[cell].negated()])
            seen.append(see)
            previous = see
    model.add(sum(seen) == number - 1)


def cpsat_export(instance: Instance) -> cp_model.CpModel:
    """The `cpsat` back-end's model (default connectivity encoding)."""
    return build_cpsat(instance)[0]


def check_cpsat_options(limits: Limits) -> None:
    """cpsat's options, `connectivity=METHOD` and CP-SAT's own (the registry's checker)."""
    cpsat_common.check_options(lazy_cuts.connectivity(limits, CPSAT_METHODS, _CPSAT_DEFAULT)[1])


def solve_cpsat(instance: Instance, limits: Limits) -> Result:
    """CP-SAT; `unique` by forbid-and-re-solve, `count` by enumeration (module docstring)."""
    method, limits = lazy_cuts.connectivity(limits, CPSAT_METHODS, _CPSAT_DEFAULT)
    limits = limits.with_(options={**_CPSAT_PARAMETERS, **limits.options})
    watch, deadline = Stopwatch(), limits.deadline()
    lay = layout(instance)
    # Why counting switches to `distance`: its auxiliaries are fixed by the shading, so
    # CP-SAT's own enumeration meets each solution once; re-solving per solution
    # costs a whole CP-SAT run each (minutes for a thousand solutions).
    enumerate_all = limits.count and method != "lazy"
    model, inside = build_cpsat(instance, "distance" if enumerate_all else method)
    watch.built()
    if method == "lazy":
        tally, effort = lazy_cuts.cpsat_loop(model, inside, _cuts(lay), limits, deadline)
    else:
        count = (cpsat_common.enumerate_solutions(model, inside, limits, deadline)
                 if enumerate_all else
                 cpsat_common.solve_and_count(model, inside, limits, deadline))
        tally, effort = _cpsat_tally(count), count.effort
    counters = effort.counters()
    if method == "lazy":
        counters.update(tally.counters())
    return tally.result(limits, watch.stats(nodes=effort.nodes, **counters), partial(_grid, lay))


def _cpsat_tally(count: cpsat_common.SolutionCount) -> lazy_cuts.CutTally:
    """A CP-SAT enumeration's or count's answer in the cut loop's terms."""
    first = None if count.first is None else [bool(v) for v in count.first]
    return lazy_cuts.CutTally(first=first, found=count.found, complete=count.complete)


# ---------------------------------------------------------------- SAT

def build_sat(instance: Instance, complete: bool = False
              ) -> tuple[sat_common.Encoding, list[int]]:
    """The CNF and the `inside` literals in row-major order.

    Without `complete`, connectivity is left to lazy cuts (only its implied
    clauses are here); with it, the BFS-layer encoding makes the CNF exact.
    """
    lay = layout(instance)
    enc = sat_common.Encoding()
    # Variables: one per cell, created first so that inside(r, c) is variable r*cols+c+1.
    inside = [enc.var("inside", v // lay.cols, v % lay.cols) for v in range(lay.cells)]
    # Clues are inside; numbered clues see clue - 1 other cells.
    for r, c, number in clue_cells(instance):
        enc.add([inside[r * lay.cols + c]])
        if number is not None:
            _sat_visibility(enc, inside, _arms(instance, r, c, number), number, (r, c))
    if not clue_cells(instance):
        enc.add(inside)
    for clause in _implied_grid_clauses(lay, inside, lambda lit: -lit):
        enc.add(clause)
    outside = [-lit for lit in inside] + [enc.var("border")]
    if complete:
        for name, active, graph, root in (("cave", inside, lay.inner, lay.root),
                                          ("out", outside, lay.outer, lay.border)):
            enc.clauses += graph_constraints.connected_clauses(
                active, graph, lambda key, name=name: enc.var(name, *key), root)
    else:
        enc.clauses += graph_constraints.implied_clauses(inside, lay.inner, lay.root)
        enc.clauses += graph_constraints.implied_clauses(outside, lay.outer, lay.border)
    return enc, inside


def _sat_visibility(enc: sat_common.Encoding, inside: Sequence[int], arms: list[list[int]],
                    number: int, at: tuple[int, int], guard: int | None = None) -> None:
    """Each arm's see literals (its length in unary), summed by a unary adder == number-1.

    With a `guard` literal, "== number-1" is required only when the guard is false
    (the see literals and the adder are definitions: they hold either way)."""
    unless = [] if guard is None else [guard]
    lengths = []
    for d, arm in enumerate(arms):
        seen: list[int] = []
        for k, cell in enumerate(arm, start=1):
            if not seen:
                seen.append(inside[cell])
                continue
            see = enc.var("see", at[0], at[1], d, k)
            # see <-> previous and inside(cell)
            enc.add([-see, seen[-1]])
            enc.add([-see, inside[cell]])
            enc.add([see, -seen[-1], -inside[cell]])
            seen.append(see)
        lengths.append(seen)
    cap = number  # "at least number" is the largest count worth telling apart
    total = _unary_add(enc, _unary_add(enc, lengths[0], lengths[1], cap, at + ("h",)),
                       _unary_add(enc, lengths[2], lengths[3], cap, at + ("v",)), cap,
                       at + ("all",))
    want = number - 1
    if want >= 1:
        enc.add(([total[want - 1]] if len(total) >= want else []) + unless)
    if len(total) > want:
        enc.add([-total[want]] + unless)


def _unary_add(enc: sat_common.Encoding, left: Sequence[int], right: Sequence[int], cap: int,
               key: tuple) -> list[int]:
    """Unary sum of two unary numbers (`x[i]` = "at least i+1"), capped at `cap`.

    The totalizer merge on inputs that are already sorted: out[i+j] <- left[i] and
    right[j] (counting up), and not out[i+j+1] <- not left[i+1] and not right[j+1]
    (counting down). The last output means "at least cap".
    """
    if not left or not right:
        return list(left or right)[:cap]  # a unary number cut short still reads right
    size = min(len(left) + len(right), cap)
    out = [enc.var("sum", *key, i) for i in range(1, size + 1)]
    clauses = enc.clauses
    # Why i + j <= size only: a larger sum implies out[size - 1] through smaller
    # i, j already (the inputs are sorted), so those clauses would be redundant.
    for i in range(len(left) + 1):
        for j in range(len(right) + 1):
            if 1 <= i + j <= size:
                up = [-left[i - 1]] if i else []
                if j:
                    up.append(-right[j - 1])
                up.append(out[i + j - 1])
                clauses.append(up)
            if i + j < size:
                down = [left[i]] if i < len(left) else []
                if j < len(right):
                    down.append(right[j])
                down.append(-out[i + j])
                clauses.append(down)
    return out


def sat_export(instance: Instance) -> CnfExport:
    """The complete CNF (connectivity by BFS layers): every model decodes to a solution."""
    return lazy_cuts.complete_export(
        _sat_problem(instance, "layers"), "cave", instance.rows, instance.cols,
        "inside(r, c)",
        "connectivity of the cave and of the outside (with a border vertex) by BFS layers")


def check_sat_options(limits: Limits) -> None:
    """sat's options, `connectivity=METHOD` and `solver=NAME` (the registry's checker)."""
    sat_common.check_options(lazy_cuts.connectivity(limits, SAT_METHODS, SAT_METHODS[0])[1])


def solve_sat(instance: Instance, limits: Limits) -> Result:
    """SAT with lazy connectivity cuts; `unique` / `count` by blocking clauses."""
    return lazy_cuts.solve_sat(limits, partial(_sat_problem, instance), SAT_METHODS)


def _sat_problem(instance: Instance, method: str) -> lazy_cuts.SatProblem:
    lay = layout(instance)
    enc, inside = build_sat(instance, complete=method == "layers")
    return lazy_cuts.SatProblem(enc.clauses, enc.top, inside, _cuts(lay), partial(_grid, lay))


# ---------------------------------------------------------------- clue choice (generating)

_WITNESSES = 64  # second solutions an oracle keeps to answer later questions with


class ClueOracle:
    """Which clue sets of one cave leave it the only solution: one incremental solver.

    The generator asks it dozens to hundreds of times per cave while it lifts
    clues, so one CNF serves every question. Each inside cell of `cave` may
    carry its clue (the count it sees in `cave`), switched on by a selector
    literal that guards the clue's clauses ("inside" and "the arms add up to
    clue - 1"; the arms' and the adder's definitions hold unguarded); a clue's
    clauses are added the first time a question places it. The cave itself is
    forbidden by one clause. Connectivity is left to lazy cuts without a root
    (no cell is inside in every question's solutions), which hold in every
    solution and so accumulate across questions; "an inside cell has an inside
    neighbour" holds once a clue above 1 is chosen (`several`).

    `other(cells)` solves with those cells' selectors assumed on and the rest
    off: another solution, or None when the cave is the only one (UNSAT is a
    proof). The last `_WITNESSES` other solutions are kept: one that satisfies
    a later question's clues answers it at once. The yes/no never depends on
    the solver or the cache; which other solution comes back may, so the
    generator decides on the yes/no only.
    """

    def __init__(self, cave: Sequence[Sequence[bool]], solver: str = sat_common.DEFAULT_SOLVER
                 ) -> None:
        rows, cols = len(cave), len(cave[0])
        self._shading = [[bool(cave[r][c]) for c in range(cols)] for r in range(rows)]
        self._blank = Instance(rows, cols, tuple(tuple(EMPTY for _ in range(cols))
                                                 for _ in range(rows)))
        self._lay = layout(self._blank)  # no clue: no root, nothing required
        self._cuts = _cuts(self._lay)
        self._enc = enc = sat_common.Encoding()
        self._inside = inside = [enc.var("inside", v // cols, v % cols)
                                 for v in range(rows * cols)]
        enc.add(inside)  # some cell is inside (no clue may be chosen)
        for clause in _implied_grid_clauses(self._lay, inside, lambda lit: -lit):
            enc.add(clause)
        outside = [-lit for lit in inside] + [enc.var("border")]
        enc.clauses += graph_constraints.implied_clauses(outside, self._lay.outer,
                                                         self._lay.border)
        self._several = enc.var("several")  # two cells or more are inside
        for v, near in enumerate(self._lay.inner):
            enc.add([-self._several, -inside[v]] + [inside[u] for u in near])
        enc.add(lazy_cuts.forbid(inside, [cell for line in self._shading for cell in line]))
        self._session = sat_common.SatSession(solver, enc.clauses, Deadline(None))
        self._selector: dict[tuple[int, int], int] = {}
        self._numbers = {cell: count_visible(self._shading, *cell) for cell in self.cells}
        self._witnesses: list[list[list[bool]]] = []  # second solutions found, newest first
        self.questions = 0

    @property
    def cells(self) -> list[tuple[int, int]]:
        """The cells that may carry a clue (the inside ones), in row-major order."""
        return [(r, c) for r, line in enumerate(self._shading) for c, on in enumerate(line) if on]

    def _selector_of(self, cell: tuple[int, int]) -> int:
        """The clue's selector, its clauses added at the first question that places it
        (a 20x20 cave has 240 clues of up to 30 cells per arm; most are never asked)."""
        chosen = self._selector.get(cell)
        if chosen is not None:
            return chosen
        if cell not in self._numbers:
            raise ValueError(f"no clue of the cave at {cell}")
        r, c = cell
        enc, before = self._enc, len(self._enc.clauses)
        number = self._numbers[cell]
        chosen = self._selector[cell] = enc.var("clue", r, c)
        enc.add([-chosen, self._inside[r * self._lay.cols + c]])
        if number > 1:
            enc.add([-chosen, self._several])
        _sat_visibility(enc, self._inside, _arms(self._blank, r, c, number), number, cell,
                        guard=-chosen)
        for clause in enc.clauses[before:]:
            self._session.add(clause)
        return chosen

    def other(self, cells: Iterable[tuple[int, int]]) -> list[list[bool]] | None:
        """A solution other than the cave when exactly `cells` carry their clues, or None.

        A second solution found for an earlier question answers a later one whose
        clues it satisfies too, without the solver: while clues are lifted one at a
        time, most questions are "does this clue still matter?", and the last
        witness usually says yes.
        """
        cells = set(cells)
        chosen = {self._selector_of(cell) for cell in cells}
        self.questions += 1
        for shading in self._witnesses:
            if all(shading[r][c] and count_visible(shading, r, c) == self._numbers[(r, c)]
                   for r, c in cells):
                return shading
        assumptions = [lit if lit in chosen else -lit for lit in self._selector.values()]
        found = lazy_cuts.valid_model(self._session, self._inside, self._cuts,
                                      lazy_cuts.CutTally(), assumptions)
        if not isinstance(found, list):
            return None
        cols = self._lay.cols
        shading = [found[r * cols:(r + 1) * cols] for r in range(self._lay.rows)]
        self._witnesses.insert(0, shading)
        del self._witnesses[_WITNESSES:]
        return shading

    def close(self) -> None:
        self._session.close(stats=False)

    def __enter__(self) -> ClueOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
