"""Slitherlink as a CP-SAT model and as a SAT encoding with lazy connectivity cuts.

Rules (see `twinsolve.puzzles.slitherlink.rules`): one loop along the grid
lines, two or no loop sides at every point, each clue the number of its
cell's sides on the loop. A feasibility puzzle: the answer is `solved`.

Modelling idea: the loop as the boundary of a region. One Boolean
`inside[r,c]` per cell; the loop is the set of sides between an inside and
an outside cell (past the grid's edge: outside). A set of cells is the
inside of one loop exactly when it is non-empty and connected and the
outside cells reach the edge through outside cells (no holes); the loop
then never touches itself, since a 2x2 checkerboard of inside and outside
cells would enclose one of its outside cells.

- Sides: `side[...]` = inside(a) XOR inside(b) for the two cells of an
  inner side; a side on the grid's edge is its cell's `inside` literal.
- Clues: a clue's four side literals add up to it (CP-SAT: a linear
  equality; SAT: the clause forbidding each of the 16 assignments of the
  four sides with another count).
- Connectivity (`graph_constraints`): the inside cells are connected, with
  no root (no cell is known to be inside; the encoding's first-active-vertex
  root), and at least one cell is inside; the outside cells together with a
  virtual BORDER vertex, adjacent to every edge cell, are connected (no holes).
- Implied clauses, for propagation only: no 2x2 checkerboard (two sides at
  most meet at a point), and an outside cell has an outside neighbour or the
  edge (`graph_constraints.implied_clauses`).

Back-ends.
- `cpsat`: by default (`connectivity=circuit`) the loop is CP-SAT's own circuit
  constraint over the grid's points, its arcs running clockwise round the
  inside cells, so each loop is one circuit (`_circuit_model`); CP-SAT's LP,
  presolve and probing are off unless asked for (`_CIRCUIT_PARAMETERS`), for
  `CIRCUIT_BUDGET` units of CP-SAT's deterministic time; a search that runs
  past it (rare: a large empty region) starts again with presolve on.
  With `connectivity` = flow, height, distance or layers, the inside is a
  region as above, connected by the encoding library's constraint of that
  name (`graph_constraints.connected`), the outside rooted at the border.
- `sat`: CNF through PySAT, connectivity by lazy cuts in one incremental
  solver (`models.lazy_cuts`): solve; if the inside falls apart or outside
  cells are enclosed, add `graph_constraints.separator_cuts` of both graphs
  (`lazy_cuts.region_cuts`) and solve again, until a
  connected model or UNSAT (the cuts are sound, so UNSAT is a proof).
  `connectivity=layers`: the complete BFS-layer CNF instead.

Which is fastest, on the janko.at corpus with uniqueness: `sat` (CaDiCaL,
lazy cuts), then `cpsat` with the clockwise circuit; the region encodings
under CP-SAT are five to ten times slower than the circuit (their flows and
the rootless inside need the LP), and a circuit free to run either way takes
2.4 times as long (twice the circuits). `python -m benchmarks.slitherlink_perf`
measures them against the puzzlekit peer.

`--unique` / `--count`: `sat` forbids the solution found (a clause on the
inside literals) and searches again, cuts included, so a second model counts
only once it is connected; `cpsat` enumerates in one run with the circuit
(each answer is one assignment) and forbids and re-solves with the region
encodings (whose auxiliaries an answer does not fix). Statistics: `nodes` =
CP-SAT branches or SAT decisions; `cuts` and `rounds` (solver calls) beside
them for `sat`.

Generating: `LoopOracle` answers "is this loop the only solution of these
clues?" for one loop, question after question, in one incremental solver
(each clue behind a selector literal, questions as assumptions).

Exports: `sat_export` is the COMPLETE CNF (BFS layers for both connectivity
constraints), so any model decodes to a solution that passes `verify`;
`cpsat_export` is the `cpsat` model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from ortools.sat.python import cp_model

from ...core.limits import Deadline, Limits
from ...core.result import Result, Status, Stopwatch, Tally, solutions_wanted
from ...models import cpsat_common, graph_constraints, lazy_cuts, sat_common
from ...models.export import CnfExport
from .rules import Instance, clue_cells, loop_sides, side_count, solution_from_inside

__all__ = ["solve_cpsat", "solve_sat", "check_cpsat_options", "check_sat_options",
           "sat_export", "cpsat_export", "build_cpsat", "build_sat", "Layout", "layout",
           "CpBuild",
           "CPSAT_METHODS", "SAT_METHODS", "LoopOracle"]

CPSAT_METHODS = ("circuit", *graph_constraints.METHODS)
SAT_METHODS = ("lazy", "layers")
_CPSAT_DEFAULT = "circuit"
# CP-SAT parameters for the circuit model unless the caller sets them. Measured on
# janko.at puzzles with uniqueness (one worker, 20 puzzles side by side): the model is
# pure Boolean plus the circuit, whose own propagator does the work, so the LP
# (linearization), presolve, probing, symmetry detection and inprocessing cost more
# than they save: median 0.18 s -> 0.05 s.
_CIRCUIT_PARAMETERS = {"linearization_level": 0, "cp_model_presolve": False,
                       "cp_model_probing_level": 0, "symmetry_level": 0,
                       "use_sat_inprocessing": False}
# CP-SAT's deterministic time for the circuit model with those parameters before it starts
# again with presolve on (`cpsat_common.enumerate_with_fallback`). The janko.at corpus
# needs 0.11 at most (100_30x45; 0.002 at the median); a generated 10x10 with a large
# empty corner (`generate slitherlink --difficulty hard`, seed 0) ran 13.7 units (20 s)
# without an answer, and proves unique in 0.001 with presolve.
CIRCUIT_BUDGET = 0.5


# ---------------------------------------------------------------- the grid as graphs

@dataclass(frozen=True)
class Layout:
    """Cells as vertices 0..n-1 (r * cols + c); `outer` adds the BORDER vertex n.

    `sides[r][c]` of a cell: its (top, right, bottom, left) neighbours, None past
    the edge, in the order its sides are counted.
    """

    rows: int
    cols: int
    inner: tuple[tuple[int, ...], ...]
    outer: tuple[tuple[int, ...], ...]

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def border(self) -> int:
        return self.cells

    def neighbours4(self, v: int) -> tuple[int | None, ...]:
        """Cell v's neighbours across its top, right, bottom and left sides (None: edge)."""
        r, c = divmod(v, self.cols)
        return tuple(rr * self.cols + cc if 0 <= rr < self.rows and 0 <= cc < self.cols
                     else None for rr, cc in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)))

    def inner_sides(self) -> list[tuple[int, int]]:
        """The sides between two cells, as (cell, cell) with the first the smaller."""
        return [(v, w) for v in range(self.cells) for w in self.inner[v] if v < w]

    def blocks(self) -> list[tuple[int, int, int, int]]:
        """Each 2x2 block (a, b, c, d) = top left, top right, bottom left, bottom right."""
        cols = self.cols
        return [(r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
                for r in range(self.rows - 1) for c in range(cols - 1)]


def layout(instance: Instance) -> Layout:
    return Layout(instance.rows, instance.cols,
                  *lazy_cuts.region_graphs(instance.rows, instance.cols))


def _side_literals(lay: Layout, inside: Sequence[Any], between: dict[tuple[int, int], Any],
                   v: int) -> list[Any]:
    """Cell v's four side literals: `between[(a, b)]` inside the grid, the cell's own
    `inside` literal on the grid's edge."""
    return [inside[v] if w is None else between[(min(v, w), max(v, w))]
            for w in lay.neighbours4(v)]


def _checkerboard_clauses(lay: Layout, inside: Sequence[Any], neg: Callable[[Any], Any]
                          ) -> list[list[Any]]:
    """No 2x2 checkerboard (implied by connectivity and no holes: the inside path
    joining the diagonal pair would enclose one of the other two)."""
    clauses = []
    for a, b, c, d in lay.blocks():
        clauses.append([neg(inside[a]), neg(inside[d]), inside[b], inside[c]])
        clauses.append([neg(inside[b]), neg(inside[c]), inside[a], inside[d]])
        clauses.append([inside[a], inside[d], neg(inside[b]), neg(inside[c])])
        clauses.append([inside[b], inside[c], neg(inside[a]), neg(inside[d])])
    return clauses


def _grid(lay: Layout, values: Sequence[int | bool]) -> dict[str, list[str]]:
    cols = lay.cols
    return solution_from_inside([values[r * cols:(r + 1) * cols] for r in range(lay.rows)])


def _cuts(lay: Layout) -> lazy_cuts.Violated:
    """The lazy cuts a colouring violates: the inside connected (no root: no cell is
    known to be inside) and the outside reaching the edge (`lazy_cuts.region_cuts`)."""
    return lambda values: lazy_cuts.region_cuts(values, lay.inner, lay.outer)


# ---------------------------------------------------------------- CP-SAT

@dataclass(frozen=True)
class CpBuild:
    """A CP-SAT model, the variables that tell its answers apart (`decisions`), and how
    their values read as the inside cells (`inside`)."""

    model: cp_model.CpModel
    decisions: list[cp_model.IntVar]
    inside: Callable[[Sequence[int]], list[list[bool]]]


def build_cpsat(instance: Instance, method: str = _CPSAT_DEFAULT) -> CpBuild:
    """The `cpsat` model: the loop as a circuit (`circuit`), or the inside as a region
    (a `graph_constraints` method)."""
    if method == "circuit":
        return _circuit_model(instance)
    return _region_model(instance, method)


def _circuit_model(instance: Instance) -> CpBuild:
    """The loop as CP-SAT's circuit constraint over the grid's points, run clockwise.

    One Boolean `inside[r,c]` per cell. A side is on when its two cells differ,
    and then the loop runs along it clockwise round the inside: to the right
    along the top of an inside cell, down its right side, to the left along
    its bottom, up its left side. So each side gives two arcs between its two
    points, `arc = inside(the cell on its right) and not inside(the other)`,
    a side on the grid's edge one arc (its cell's literal itself), and a point
    off the loop takes its self-loop. The circuit constraint makes the arcs
    one cycle (and some cell is inside, so not none): one loop, which never
    touches itself. Fixing the direction leaves one circuit per loop where a
    free direction gives two, so the search has half the space to explore and
    an enumeration meets each answer once (measured on janko.at puzzles with
    uniqueness: 2864 branches at the median against 327, 2.4 times the time).
    """
    rows, cols = instance.rows, instance.cols
    width = cols + 1
    model = cp_model.CpModel()
    inside = [model.new_bool_var(f"inside[{v // cols},{v % cols}]") for v in range(rows * cols)]

    def cell(r: int, c: int) -> Any:
        return inside[r * cols + c] if 0 <= r < rows and 0 <= c < cols else None

    def arc(into: Any, away: Any, name: str) -> Any:
        """The literal "`into` is inside and `away` is not" (None when `into` is off the
        grid: no arc)."""
        if into is None or away is None:
            return into
        lit = model.new_bool_var(name)
        model.add_bool_and([into, away.negated()]).only_enforce_if(lit)
        model.add_bool_or([lit, into.negated(), away])
        return lit

    arcs = [(p, p, model.new_bool_var(f"off[{p // width},{p % width}]"))
            for p in range((rows + 1) * width)]
    sides: dict[tuple[str, int, int], list[Any]] = {}
    for r in range(rows + 1):  # across: above / below; clockwise runs right over a cell
        for c in range(cols):
            above, below, p = cell(r - 1, c), cell(r, c), r * width + c
            ways = ((p, p + 1, arc(below, above, f"right[{r},{c}]")),
                    (p + 1, p, arc(above, below, f"left[{r},{c}]")))
            sides["across", r, c] = [lit for _, _, lit in ways if lit is not None]
            arcs += [way for way in ways if way[2] is not None]
    for r in range(rows):  # down: left / right; clockwise runs down a cell's right side
        for c in range(cols + 1):
            left, right, p = cell(r, c - 1), cell(r, c), r * width + c
            ways = ((p, p + width, arc(left, right, f"south[{r},{c}]")),
                    (p + width, p, arc(right, left, f"north[{r},{c}]")))
            sides["down", r, c] = [lit for _, _, lit in ways if lit is not None]
            arcs += [way for way in ways if way[2] is not None]
    model.add_circuit(arcs)
    model.add_bool_or(inside)  # the circuit may be empty otherwise
    for r, c, clue in clue_cells(instance):
        model.add(sum(sides["across", r, c] + sides["across", r + 1, c] + sides["down", r, c]
                      + sides["down", r, c + 1]) == clue)

    def rows_of(values: Sequence[int]) -> list[list[bool]]:
        return [[bool(v) for v in values[r * cols:(r + 1) * cols]] for r in range(rows)]

    return CpBuild(model, inside, rows_of)


def _region_model(instance: Instance, method: str) -> CpBuild:
    """The inside as a connected region without holes (module docstring)."""
    lay = layout(instance)
    model = cp_model.CpModel()
    # Variables: one Boolean per cell, one per side between two cells.
    inside = [model.new_bool_var(f"inside[{v // lay.cols},{v % lay.cols}]")
              for v in range(lay.cells)]
    between = {}
    for v, w in lay.inner_sides():
        side = between[(v, w)] = model.new_bool_var(f"side[{v},{w}]")
        model.add_bool_xor([inside[v], inside[w], side.negated()])  # side = v xor w
    # Clues: the sides on the loop.
    for r, c, clue in clue_cells(instance):
        model.add(sum(_side_literals(lay, inside, between, r * lay.cols + c)) == clue)
    # The loop: a non-empty connected inside, the outside joined to the border.
    model.add_bool_or(inside)
    for clause in _checkerboard_clauses(lay, inside, lambda lit: lit.negated()):
        model.add_bool_or(clause)
    border = model.new_bool_var("border")
    outside = [lit.negated() for lit in inside] + [border]
    graph_constraints.connected(model, inside, lay.inner, None, method, "in")
    graph_constraints.connected(model, outside, lay.outer, lay.border, method, "out")
    cols = lay.cols

    def rows_of(values: Sequence[int]) -> list[list[bool]]:
        return [[bool(v) for v in values[r * cols:(r + 1) * cols]] for r in range(lay.rows)]

    return CpBuild(model, inside, rows_of)


def cpsat_export(instance: Instance) -> cp_model.CpModel:
    """The `cpsat` back-end's model (default connectivity: the circuit)."""
    return build_cpsat(instance).model


def check_cpsat_options(limits: Limits) -> None:
    """cpsat's options, `connectivity=METHOD` and CP-SAT's own (the registry's checker)."""
    cpsat_common.check_options(lazy_cuts.connectivity(limits, CPSAT_METHODS, _CPSAT_DEFAULT)[1])


def solve_cpsat(instance: Instance, limits: Limits) -> Result:
    """CP-SAT; `unique` and `count` in the same enumeration (circuit) or by
    forbid-and-re-solve (region encodings)."""
    chosen = {"max_deterministic_time", "cp_model_presolve"} & set(limits.options)
    method, limits = lazy_cuts.connectivity(limits, CPSAT_METHODS, _CPSAT_DEFAULT)
    if method == "circuit":
        limits = limits.with_(options={**_CIRCUIT_PARAMETERS, **limits.options})
    watch, deadline = Stopwatch(), limits.deadline()
    built = build_cpsat(instance, method)
    watch.built()
    # Why two ways: the circuit model's auxiliaries are fixed by the answer, so one
    # enumeration meets each answer once; the region encodings' are not, so they
    # forbid-and-re-solve.
    if method == "circuit":  # presolve on after CIRCUIT_BUDGET, unless the caller chose
        count = cpsat_common.enumerate_with_fallback(
            built.model, built.decisions, limits, deadline, solutions_wanted(limits),
            None if chosen else CIRCUIT_BUDGET, {"cp_model_presolve": True})
    else:
        count = cpsat_common.solve_and_count(built.model, built.decisions, limits, deadline)
    stats = watch.stats(nodes=count.effort.nodes, **count.effort.counters())
    tally = Tally(count.found, count.complete)
    if count.first is None:
        status = Status.UNSAT if tally.complete else Status.TIMEOUT
        return Result.answer(status, tally=tally, asked=limits, stats=stats)
    return Result.answer(Status.SOLVED, solution_from_inside(built.inside(list(count.first))),
                         tally=tally, asked=limits, stats=stats)


# ---------------------------------------------------------------- SAT

def _exactly(sides: Sequence[int], count: int, guard: Sequence[int] = ()) -> list[list[int]]:
    """Clauses: exactly `count` of the four `sides` are true (unless a `guard` literal
    holds): each assignment with another count is forbidden."""
    clauses = []
    for bits in range(1 << len(sides)):
        if bin(bits).count("1") != count:
            clauses.append([-lit if bits >> k & 1 else lit for k, lit in enumerate(sides)]
                           + list(guard))
    return clauses


def _sat_sides(enc: sat_common.Encoding, lay: Layout, inside: Sequence[int]
               ) -> dict[tuple[int, int], int]:
    """A variable per side between two cells, defined as the XOR of its cells."""
    between = {}
    for v, w in lay.inner_sides():
        side = between[(v, w)] = enc.var("side", v, w)
        enc.clauses += [[-side, inside[v], inside[w]], [-side, -inside[v], -inside[w]],
                        [side, -inside[v], inside[w]], [side, inside[v], -inside[w]]]
    return between


def build_sat(instance: Instance, complete: bool = False
              ) -> tuple[sat_common.Encoding, list[int]]:
    """The CNF and the `inside` literals in row-major order.

    Without `complete`, connectivity is left to lazy cuts (only its implied clauses
    are here); with it, the BFS-layer encoding makes the CNF exact.
    """
    lay = layout(instance)
    enc = sat_common.Encoding()
    # Variables: one per cell first, so that inside(r, c) is variable r*cols+c+1.
    inside = [enc.var("inside", v // lay.cols, v % lay.cols) for v in range(lay.cells)]
    between = _sat_sides(enc, lay, inside)
    for r, c, clue in clue_cells(instance):
        enc.clauses += _exactly(_side_literals(lay, inside, between, r * lay.cols + c), clue)
    enc.add(inside)  # the inside is not empty
    enc.clauses += _checkerboard_clauses(lay, inside, lambda lit: -lit)
    outside = [-lit for lit in inside] + [enc.var("border")]
    if complete:
        for name, active, graph, root in (("in", inside, lay.inner, None),
                                          ("out", outside, lay.outer, lay.border)):
            enc.clauses += graph_constraints.connected_clauses(
                active, graph, lambda key, name=name: enc.var(name, *key), root)
    else:
        enc.clauses += graph_constraints.implied_clauses(outside, lay.outer, lay.border)
    return enc, inside


def sat_export(instance: Instance) -> CnfExport:
    """The complete CNF (connectivity by BFS layers): every model decodes to a solution."""
    return lazy_cuts.complete_export(
        _sat_problem(instance, "layers"), "slitherlink", instance.rows, instance.cols,
        "inside(r, c), inside the loop",
        "connectivity of the inside and of the outside (with a border vertex) by BFS layers")


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


class LoopOracle:
    """Which clue sets of one loop leave it the only solution: one incremental solver.

    The generator asks it many times per loop while it lifts clues. Every cell
    may carry its clue (the number of its sides on `loop`'s boundary), switched
    on by a selector literal that guards the clue's clauses (added at the first
    question that places it); the loop itself is forbidden by one clause, and
    connectivity is left to lazy cuts, which hold in every solution and so
    accumulate across questions.

    `other(cells)` solves with those cells' selectors assumed on and the rest
    off: another solution's inside cells, or None when the loop is the only one
    (UNSAT is a proof). The last `_WITNESSES` other solutions are kept: one
    that meets a later question's clues answers it at once. The yes/no never
    depends on the solver or the cache; which other solution comes back may,
    so the generator decides on the yes/no only.
    """

    def __init__(self, inside: Sequence[Sequence[bool]],
                 solver: str = sat_common.DEFAULT_SOLVER) -> None:
        rows, cols = len(inside), len(inside[0])
        self._inside = [[bool(inside[r][c]) for c in range(cols)] for r in range(rows)]
        sides = loop_sides(self._inside)
        self._numbers = {(r, c): side_count(sides, r, c) for r in range(rows)
                         for c in range(cols)}
        self._lay = layout(Instance(rows, cols, tuple((None,) * cols for _ in range(rows))))
        self._enc = enc = sat_common.Encoding()
        self._cells = cells = [enc.var("inside", v // cols, v % cols) for v in range(rows * cols)]
        self._between = _sat_sides(enc, self._lay, cells)
        enc.add(cells)
        enc.clauses += _checkerboard_clauses(self._lay, cells, lambda lit: -lit)
        outside = [-lit for lit in cells] + [enc.var("border")]
        enc.clauses += graph_constraints.implied_clauses(outside, self._lay.outer,
                                                         self._lay.border)
        enc.add(lazy_cuts.forbid(cells, [on for row in self._inside for on in row]))
        self._session = sat_common.SatSession(solver, enc.clauses, Deadline(None))
        self._selector: dict[tuple[int, int], int] = {}
        self._witnesses: list[list[list[bool]]] = []
        self._cuts = _cuts(self._lay)
        self._tally = lazy_cuts.CutTally()  # the loop's counts, unreported
        self.questions = 0

    def number(self, cell: tuple[int, int]) -> int:
        """The clue the loop gives `cell`."""
        return self._numbers[cell]

    def _selector_of(self, cell: tuple[int, int]) -> int:
        chosen = self._selector.get(cell)
        if chosen is not None:
            return chosen
        r, c = cell
        chosen = self._selector[cell] = self._enc.var("clue", r, c)
        lits = _side_literals(self._lay, self._cells, self._between, r * self._lay.cols + c)
        for clause in _exactly(lits, self._numbers[cell], guard=[-chosen]):
            self._session.add(clause)
        return chosen

    def other(self, cells: Iterable[tuple[int, int]]) -> list[list[bool]] | None:
        """A solution other than the loop when exactly `cells` carry their clues, or None."""
        cells = set(cells)
        chosen = {self._selector_of(cell) for cell in cells}
        self.questions += 1
        for shading in self._witnesses:
            sides = loop_sides(shading)
            if all(side_count(sides, r, c) == self._numbers[(r, c)] for r, c in cells):
                return shading
        assumptions = [lit if lit in chosen else -lit for lit in self._selector.values()]
        found = lazy_cuts.valid_model(self._session, self._cells, self._cuts, self._tally,
                                      assumptions)
        if not isinstance(found, list):
            return None
        cols = self._lay.cols
        shading = [found[r * cols:(r + 1) * cols] for r in range(self._lay.rows)]
        self._witnesses.insert(0, shading)
        del self._witnesses[_WITNESSES:]
        return shading

    def close(self) -> None:
        self._session.close(stats=False)

    def __enter__(self) -> LoopOracle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
