"""Nurikabe as a CP-SAT model and as a SAT encoding, with lazy connectivity cuts.

Rules (see `twinsolve.puzzles.nurikabe.rules`). Shade cells so that the
shaded cells (the sea) are connected with no 2x2 block shaded, and every
island of unshaded cells holds exactly one clue, whose number is its size
(`?`: any size). A feasibility puzzle: the answer is `solved`, no objective.

Modelling idea. One Boolean `shaded[r,c]` per cell, and an island label
`own[r,c,k]` ("the cell is in the island of clue k") for the cells clue k
can reach at all (`Layout.areas`: within its number - 1 steps of it, never on
or beside another clue cell, whose island it would join).

- Each cell is shaded or in exactly one island; a clue cell is in its own.
- Adjacent unshaded cells share their island: own[a,k] and not shaded[b]
  imply own[b,k] (and own[a,k] implies shaded[b] where b is out of k's reach).
- A numbered island has exactly its number of cells.
- No 2x2 block is all shaded.
- The sea is connected (`graph_constraints`; rooted at a cell no clue can
  reach, which is shaded in every solution, when there is one).
- Each island is connected to its clue: every cell of it lies within its
  number - 1 steps of the clue through its own cells (`island_layers`, BFS
  layers on its area). A `?` clue's island has no bound, so it is left to
  cuts: a component C of unshaded cells holding no clue, in a model, gives
  for each cell u of it "u shaded, or some cell beside C is unshaded" (in a
  solution C's island holds a clue outside C, so it leaves C through a
  neighbour). Sound, so UNSAT stays a proof.
- Implied, for propagation: the sea's root is shaded and a shaded cell other
  than it has a shaded neighbour (`graph_constraints.implied_clauses`); in
  CP-SAT the sea's size (the cells no number takes); and where two clue cells
  touch at a corner with the sea small, the engine's enclosure bound
  (`search.enclosure`: a loop of sea goes round one of the two islands, and no
  loop of the sea's size goes round one too large): neither fits, no solution;
  one only, its island keeps to the interiors of the loops that fit, and when
  none spares a sea cell the sea keeps to their outer boxes (`_enclosure_implied`).
  On 29_10x10 of the janko.at corpus (a 37 and a 36, 27 sea cells) that fixes
  the 36 to a 6x6 box, which neither `sat` nor `cpsat` proved unique in 300 s
  without it. And where the sea is smaller than the grid's rows and columns
  less one, each clue's area keeps to the boxes so small a sea can span
  (`search.seaspan`, in `layout`): 1030_32x32's 20 to its 5x4 corner.

Back-ends.
- `cpsat`: the model above, `linearization_level=0` unless set (`_CPSAT_PARAMETERS`);
  each size (an island's, the sea's) a linear constraint, a thin sea's with a
  cardinality encoding's clauses beside it (option `sizes`: `SIZES`; CP-SAT then
  learns about the encoding's partial counts, not only about the cells);
  the sea connected by `graph_constraints.connected` (option `connectivity` =
  height, flow or distance; layers, which with every clue numbered are
  `sea_layers`, as deep as the sea is large; or `lazy`: its separator cuts instead);
  cuts, where needed, each take a fresh CP-SAT run on the grown model
  (`rounds`, `cuts` in the stats). Without the option, three stages
  (`lazy_cuts.cpsat_stages`), each from scratch when the one before is
  stopped by its bound: height, each call bounded by `HEIGHT_BUDGET` of
  CP-SAT's deterministic time (the same on every machine); lazy cuts, at most
  `LAZY_ROUNDS` rounds; height again, with the cuts the lazy rounds found.
  Each proves large puzzles the others cannot. A thin sea
  (`Layout.sea_layered`, the giant-island puzzles) by layers instead.
- `sat`: CNF through PySAT; exactly-one and the island sizes by cardinality
  encodings (and the sea's size too when it is at most a third of the grid);
  the sea's connectivity by lazy cuts in one incremental solver
  (`models.lazy_cuts`, which runs every loop here): solve, add
  the cuts the model violates (`graph_constraints.separator_cuts` and the
  islands' above), solve again, until a model needs none or UNSAT.

`--unique`: forbid the shading found and search again, cuts included;
`--count`: the same to the end. The labels are fixed by the shading in a
solution, so the shadings counted are the solutions. Statistics: `nodes` =
CP-SAT branches or SAT decisions; `cuts` and `rounds` beside them.

The generator asks `another_solution` (the SAT encoding with the intended
shading forbidden) where two solutions differ.

Exports: `sat_export` is a COMPLETE CNF (the sea's connectivity by BFS layers
too, and a `?` island's on its area), so any model of the file decodes to a
solution that passes `verify`; `cpsat_export` is the `cpsat` model with a `?`
island's connectivity stated too, so it is complete as well.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ortools.sat.python import cp_model

from ...core.clue_grid import Bitboard
from ...core.limits import Deadline, Limits
from ...core.result import Result, Stopwatch
from ...core.time_limit import checkpoint
from ...models import cpsat_common, graph_constraints, lazy_cuts, sat_common
from ...models.export import CnfExport
from ...search.enclosure import Enclosure, confinement, loop_boxes
from ...search.graph import components
from ...search.grid import Grid
from ...search.islands import sea_size, thin_sea
from ...search.seaspan import SeaSpan, spanned_cells
from .rules import Instance, clue_cells, solution_from_shaded

__all__ = ["solve_cpsat", "solve_sat", "check_cpsat_options", "check_sat_options",
           "sat_export", "cpsat_export", "build_cpsat", "build_sat", "Layout", "layout",
           "CPSAT_METHODS", "SIZES", "LAYER_BUDGET", "island_cuts", "layers", "island_layers",
           "sea_layers", "another_solution"]

CPSAT_METHODS = (*graph_constraints.METHODS, "lazy")
# Literals of BFS layers a connectivity constraint may take (an island: (number - 1)
# times its area; a small sea in SAT: its size times the cells); beyond, cuts.
LAYER_BUDGET = 40_000
# The sea's connectivity in CP-SAT: flow timed out at 60 s on 1045_21x22, 1076_18x18 and
# 158_14x24, which height proves in under a second.
_CPSAT_DEFAULT = "height"
# CP-SAT parameters for this model unless the caller sets them: no LP relaxation
# (linearization level 0). `python -m benchmarks.nurikabe_perf --backends
# cpsat:linearization_level=2,cpsat --timeout 30` (the janko.at corpus, 567 puzzles, one
# worker, uniqueness, the two taking turns): level 0 proves 560, median 0.045 s, p90
# 0.19 s, slowest 8.2 s; level 2 proves 558, 0.046 s, 0.25 s, 29 s, and not 669_14x24 or
# 839_14x19 (which level 0 proves in 3 and 7 s).
_CPSAT_PARAMETERS = {"linearization_level": 0}
# How `cpsat` states the islands' and the sea's sizes (option `sizes`): "linear", one
# linear constraint each; "both", each with a cardinality encoding's clauses beside it
# (`cpsat_common.add_count_clauses`); "auto", those clauses for a thin sea's size only,
# as the SAT encoding states a thin sea's size by a cardinality encoding. Why: on
# 753_10x10 (four large islands, 19 sea cells) CP-SAT found no solution in 900 s with the
# sums alone, and proves it unique in about 25 s with the sea's clauses (every size's:
# about 30 s); but on the whole janko.at corpus every size's clauses took the median
# from 0.045 to 0.15 s, and 1046_23x33 and 667_14x24 past 30 s.
SIZES = ("auto", "linear", "both")
_SIZES_DEFAULT = "auto"
# The default's stages (`lazy_cuts.cpsat_stages`). CP-SAT's deterministic time per call of
# the height model before the lazy cuts take over: the height model proves the slowest
# puzzles it can (1077_15x15, 839_14x19, 680_31x45) within 10; lazy cuts prove
# 1046_23x33, 570_31x45 and 667_14x24, which height does not in 60 s, in 10-14 s and
# 22-25 rounds (find and prove), within `LAZY_ROUNDS`. Then height again, with the lazy
# rounds' cuts: 683_14x24 (a 51 among small islands), whose lazy rounds go on past 160
# (60 s), and which height alone proves in about 80 s (155 units), is proven in about
# 22 s after 40 rounds' 5486 cuts.
HEIGHT_BUDGET = 10.0
LAZY_ROUNDS = 40


# ---------------------------------------------------------------- the grid

@dataclass(frozen=True)
class Layout:
    """Cells as vertices 0..n-1 (r * cols + c), the clues (cell, number or None) and
    each clue's area: the cells its island may hold, the clue first."""

    rows: int
    cols: int
    nbrs: tuple[tuple[int, ...], ...]
    clues: tuple[tuple[int, int | None], ...]
    areas: tuple[tuple[int, ...], ...]
    clue_at: dict[int, int] = field(compare=False)  # clue cell -> clue index

    @property
    def sea_root(self) -> int | None:
        """A cell in no clue's area, so shaded in every solution (the sea's root), or None."""
        covered = {v for area in self.areas for v in area}
        return next((v for v in range(self.cells) if v not in covered), None)

    def layered(self, k: int) -> bool:
        """Whether clue k's island is connected by BFS layers (numbered, and its layers
        at most `LAYER_BUDGET` literals), else by cuts."""
        number = self.clues[k][1]
        return number is not None and (number - 1) * len(self.areas[k]) <= LAYER_BUDGET

    @property
    def sea_layered(self) -> bool:
        """Whether the sea is small enough for BFS layers (`sea_layers`): thin
        (`search.islands.thin_sea`, the giant-island puzzles, whose sea lazy cuts would
        take hundreds of rounds; a usual sea is half the grid, and its cuts are few)."""
        size = self.sea_size
        return (size is not None and 1 <= size and thin_sea(size, self.cells)
                and size * self.cells <= LAYER_BUDGET)

    @property
    def sea_size(self) -> int | None:
        """The number of shaded cells of every solution, None with a `?` clue."""
        return sea_size(self.cells, self.clues)

    @property
    def cells(self) -> int:
        return self.rows * self.cols


def layout(instance: Instance) -> Layout:
    grid = Grid(instance.rows, instance.cols)
    clues = tuple((grid.index(r, c), number) for r, c, number in clue_cells(instance))
    clue_at = {cell: k for k, (cell, _) in enumerate(clues)}
    areas = []
    size = sea_size(grid.size, clues)
    spans = size is not None and SeaSpan.fires(grid, size)
    board = Bitboard(grid.rows, grid.cols)
    for k, (cell, number) in enumerate(clues):
        # Not on another clue, nor beside one (land there joins that clue's island).
        allowed = bytearray(b"\x01") * grid.size
        for other, j in clue_at.items():
            if j != k:
                allowed[other] = 0
                for w in grid.neighbours[other]:
                    allowed[w] = 0
        allowed[cell] = 1
        if spans and number is not None:
            # Within the boxes so small a sea can span (`search.seaspan`); none: no
            # solution, and an island of its clue alone cannot reach its number.
            others = sum(1 << i for i in range(grid.size) if not allowed[i])
            inside = spanned_cells(board, grid.rows, number, 1 << cell, others, 0, size)
            if inside is not None:
                inside |= 1 << cell
                for i in range(grid.size):
                    if not inside >> i & 1:
                        allowed[i] = 0
        far = None if number is None else number - 1
        dist = grid.distances([cell], within=allowed, max_dist=far)
        areas.append(tuple(sorted((i for i, d in enumerate(dist) if d >= 0),
                                  key=lambda i: (dist[i], i))))
    return Layout(instance.rows, instance.cols, grid.neighbours, clues, tuple(areas), clue_at)


def _grid(lay: Layout, values: Sequence[int | bool]) -> dict[str, list[str]]:
    cols = lay.cols
    return solution_from_shaded([values[r * cols:(r + 1) * cols] for r in range(lay.rows)])


def _blocks(lay: Layout) -> list[tuple[int, int, int, int]]:
    cols = lay.cols
    return [(r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
            for r in range(lay.rows - 1) for c in range(cols - 1)]


def layers(active: dict[int, Any], seeds: dict[int, Any], nbrs: Sequence[Sequence[int]],
           depth: int, new_var: Callable[[int, int], Any], neg: Callable[[Any], Any]
           ) -> list[list[Any]]:
    """Clauses: every active vertex (`active[v]`) lies within `depth` steps of an active
    seed (`seeds[v]`: "v is a seed") through active vertices.

    reach[t][v] ("v is active, at most t steps from a seed") implies active[v] and
    reach[t-1] on v or a neighbour; reach[0] is the seeds; active[v] implies
    reach[depth][v]. A connected set of N vertices with one seed has every vertex
    within N - 1 steps of it, so with depth N - 1 (and one seed) this is its
    connectivity: a piece cut off from the seed has no model. A vertex d steps from
    every seed needs layers d..depth only. The keys of `active` are its vertices.
    """
    dist = dict.fromkeys(seeds, 0)
    queue = list(seeds)
    for v in queue:  # breadth first from the seeds, within the active vertices
        for w in nbrs[v]:
            if w in active and w not in dist:
                dist[w] = dist[v] + 1
                queue.append(w)
    clauses: list[list[Any]] = []
    previous: dict[int, Any] = dict(seeds)
    for t in range(1, depth + 1):
        checkpoint()
        layer: dict[int, Any] = {}
        for v in active:
            if v not in dist or dist[v] > t:
                continue
            support = [previous[u] for u in (v, *nbrs[v]) if u in previous]
            reach = new_var(t, v)
            clauses.append([neg(reach), active[v]])
            clauses.append([neg(reach), *support])
            layer[v] = reach
        previous = layer
    for v, lit in active.items():
        clauses.append([neg(lit)] + ([previous[v]] if v in previous else []))
    return clauses


def island_layers(own: dict[int, Any], area: Sequence[int], nbrs: Sequence[Sequence[int]],
                  depth: int, new_var: Callable[[int, int], Any], neg: Callable[[Any], Any]
                  ) -> list[list[Any]]:
    """An island (`own[v]`, v in `area`, the clue first, which is in it) connected to its
    clue: every cell within `depth` (its number - 1) steps of it (`layers`)."""
    return layers(own, {area[0]: own[area[0]]}, nbrs, depth, new_var, neg)


def sea_layers(shaded: Sequence[Any], nbrs: Sequence[Sequence[int]], depth: int,
               new_var: Callable[..., Any], neg: Callable[[Any], Any]) -> list[list[Any]]:
    """The shaded cells connected, complete, for a sea of at most `depth` + 1 cells: its
    root is its first cell in reading order (a chain of "no shaded cell before"
    literals makes it one), every shaded cell within `depth` steps of it (`layers`)."""
    clauses: list[list[Any]] = []
    roots: dict[int, Any] = {}
    none_before = None  # "no cell before v is shaded"; None for v = 0 (true)
    for v, lit in enumerate(shaded):
        root = new_var("root", v)
        roots[v] = root
        # root <-> shaded[v] and none_before
        clauses.append([neg(root), lit])
        clauses.append([root, neg(lit)] + ([neg(none_before)] if none_before is not None
                                           else []))
        if none_before is not None:
            clauses.append([neg(root), none_before])
        after = new_var("none", v + 1)
        # after <-> none_before and not shaded[v]
        clauses.append([neg(after), neg(lit)])
        clauses.append([after, lit] + ([neg(none_before)] if none_before is not None else []))
        if none_before is not None:
            clauses.append([neg(after), none_before])
        none_before = after
    active = dict(enumerate(shaded))
    return clauses + layers(active, roots, nbrs, depth, lambda t, v: new_var("reach", t, v),
                            neg)


def island_cuts(lay: Layout, shaded: Sequence[bool]) -> list[tuple[list[int], list[int]]]:
    """Cuts a shading violates when a component of unshaded cells holds no clue, as
    (cells that must be shaded, cells that must be unshaded) alternatives: "u is shaded,
    or some cell beside the component is unshaded", one per cell u of it."""
    land = [not value for value in shaded]
    found = []
    for part in components(lay.nbrs, land):
        if any(v in lay.clue_at for v in part):
            continue
        inside = set(part)
        border = sorted({w for v in part for w in lay.nbrs[v] if w not in inside})
        found += [([u], border) for u in part]
    return found


def _sea_cuts(lay: Layout, shaded: Sequence[bool]) -> list[tuple[list[int], list[int]]]:
    """The sea's separator cuts, as (shaded alternatives, unshaded alternatives)."""
    return [(list(cut.on), list(cut.off))
            for cut in graph_constraints.separator_cuts(shaded, lay.nbrs, lay.sea_root)]


def _sea_implied(lay: Layout, shaded: Sequence[Any], neg: Callable[[Any], Any]
                 ) -> list[list[Any]]:
    """What the sea's connectivity implies, for propagation: its root (a cell in no
    area) is shaded, and with two shaded cells or more each has a shaded neighbour."""
    root = lay.sea_root
    clauses = graph_constraints.implied_clauses(shaded, lay.nbrs, root, neg)
    if root is None and lay.sea_size is not None and lay.sea_size >= 2:
        clauses += [[neg(shaded[v]), *(shaded[w] for w in lay.nbrs[v])]
                    for v in range(lay.cells)]
    return clauses


def _enclosure_implied(lay: Layout, shaded: Sequence[Any], own: Sequence[dict[int, Any]],
                       neg: Callable[[Any], Any]) -> list[list[Any]]:
    """What the enclosure bound (`search.enclosure`) says where two clue cells touch at a
    corner: the module docstring. Only where it can say anything (`Enclosure.fires`)."""
    size, cols = lay.sea_size, lay.cols
    numbers = [number or 0 for _, number in lay.clues]
    if size is None or not Enclosure.fires(Grid(lay.rows, cols), numbers, size):
        return []
    board = Bitboard(lay.rows, cols)
    clue_bits = sum(1 << cell for cell, _ in lay.clues)
    clauses: list[list[Any]] = []
    for k, (cell, _) in enumerate(lay.clues):
        r, c = divmod(cell, cols)
        for dc in (-1, 1):
            corner = cell + cols + dc
            if r + 1 >= lay.rows or not 0 <= c + dc < cols or corner not in lay.clue_at:
                continue
            # The block's two other cells are sea: either would join the two islands.
            sea = 1 << cell + dc | 1 << cell + cols
            pair = (k, lay.clue_at[corner])
            boxes = [loop_boxes(board, lay.rows, numbers[j], 1 << lay.clues[j][0],
                                sea | clue_bits & ~(1 << lay.clues[j][0]), sea, size)
                     for j in pair]
            if boxes == [[], []]:
                first = shaded[cell + dc]
                return [[first], [neg(first)]]  # no loop goes round either: no solution
            if [] not in boxes or None in boxes:
                continue  # either may be inside, or too many boxes to list
            inside, found = next((j, b) for j, b in zip(pair, boxes, strict=True) if b)
            interiors, outers = confinement(found)
            clauses += [[neg(lit)] for v, lit in own[inside].items() if not interiors >> v & 1]
            if outers is not None:  # every sea cell is on the loop
                clauses += [[neg(shaded[v])] for v in range(lay.cells) if not outers >> v & 1]
    return clauses


def _cuts(lay: Layout, sea: bool = True) -> lazy_cuts.Violated:
    """The cuts a shading violates: an island without a clue (`island_cuts`), and with
    `sea` the sea's separator cuts."""
    if not sea:
        return partial(island_cuts, lay)
    return lambda values: island_cuts(lay, values) + _sea_cuts(lay, values)


# ---------------------------------------------------------------- CP-SAT

def build_cpsat(instance: Instance, method: str = _CPSAT_DEFAULT, islands: bool = False,
                lay: Layout | None = None, sizes: str = _SIZES_DEFAULT
                ) -> tuple[cp_model.CpModel, list[cp_model.IntVar], Layout]:
    """The CP-SAT model, its `shaded` variables in row-major order and the layout.

    `method` connects the sea (a `graph_constraints` method, or "lazy": no
    constraint, the caller adds cuts); `islands` states a `?` island's
    connectivity too (BFS layers over its area) instead of leaving it to cuts;
    `lay` is the instance's layout when the caller has it already; `sizes`
    (`SIZES`) how the islands' and the sea's sizes are stated.
    """
    lay = layout(instance) if lay is None else lay
    model = cp_model.CpModel()
    # Variables: shaded per cell, own per cell of each clue's area.
    shaded = [model.new_bool_var(f"shaded[{v // lay.cols},{v % lay.cols}]")
              for v in range(lay.cells)]
    owners: list[list[Any]] = [[] for _ in range(lay.cells)]
    own: list[dict[int, Any]] = []
    for k, area in enumerate(lay.areas):
        checkpoint()
        mine = {v: model.new_bool_var(f"own[{v // lay.cols},{v % lay.cols},{k}]") for v in area}
        own.append(mine)
        for v, lit in mine.items():
            owners[v].append(lit)
    # Each cell is shaded or in one island; clue cells in their own.
    for v in range(lay.cells):
        model.add_exactly_one([shaded[v], *owners[v]])
    for k, (cell, number) in enumerate(lay.clues):
        model.add(own[k][cell] == 1)
        # Unshaded neighbours share the island; an island has its size.
        for v, lit in own[k].items():
            for w in lay.nbrs[v]:
                if w in own[k]:
                    model.add_bool_or([lit.negated(), shaded[w], own[k][w]])
                else:
                    model.add_implication(lit, shaded[w])
        if number is not None:
            _size(model, list(own[k].values()), number, sizes == "both")
        if lay.layered(k) or islands:  # connected to its clue (else: cuts)
            area = lay.areas[k]
            depth = len(area) - 1 if number is None else number - 1
            for clause in island_layers(own[k], area, lay.nbrs, depth,
                                        lambda t, v, k=k: model.new_bool_var(
                                            f"reach[{k},{t},{v}]"),
                                        lambda lit: lit.negated()):
                model.add_bool_or(clause)
    for block in _blocks(lay):
        model.add_bool_or([shaded[v].negated() for v in block])
    for clause in _sea_implied(lay, shaded, lambda lit: lit.negated()):
        model.add_bool_or(clause)
    for clause in _enclosure_implied(lay, shaded, own, lambda lit: lit.negated()):
        model.add_bool_or(clause)
    if lay.sea_size is not None:  # implied by the islands' sizes, through every label
        thin = thin_sea(lay.sea_size, lay.cells)
        _size(model, shaded, lay.sea_size, sizes == "both" or (sizes == "auto" and thin))
    if method == "layers" and lay.sea_size is not None:
        # The sea has exactly `sea_size` cells: layers that deep suffice, not the grid's.
        for clause in sea_layers(shaded, lay.nbrs, max(lay.sea_size - 1, 0),
                                 lambda *key: model.new_bool_var(f"sea{key}"),
                                 lambda lit: lit.negated()):
            model.add_bool_or(clause)
    elif method != "lazy":  # lazy: the caller adds cuts
        graph_constraints.connected(model, shaded, lay.nbrs, lay.sea_root, method, "sea")
    return model, shaded, lay


def _size(model: cp_model.CpModel, lits: list[cp_model.IntVar], number: int,
          clauses: bool) -> None:
    """Exactly `number` of `lits` are true: a linear constraint, and with `clauses` a
    cardinality encoding's clauses beside it (`cpsat_common.add_count_clauses`)."""
    model.add(sum(lits) == number)
    if clauses:
        cpsat_common.add_count_clauses(model, lits, number)


def cpsat_export(instance: Instance) -> cp_model.CpModel:
    """The `cpsat` back-end's model with the islands' connectivity stated: complete."""
    return build_cpsat(instance, islands=True)[0]


def check_cpsat_options(limits: Limits) -> None:
    """cpsat's options, `connectivity=METHOD`, `sizes=HOW` and CP-SAT's own (the
    registry's checker)."""
    cpsat_common.check_options(_cpsat_options(limits)[2])


def _cpsat_options(limits: Limits) -> tuple[str, str, Limits]:
    """The `connectivity` and `sizes` options, and the limits without them (whose other
    options are CP-SAT's)."""
    method, limits = lazy_cuts.connectivity(limits, CPSAT_METHODS, _CPSAT_DEFAULT)
    sizes, limits = limits.split_choice("sizes", _SIZES_DEFAULT, SIZES)
    return method, sizes, limits


def solve_cpsat(instance: Instance, limits: Limits) -> Result:
    """CP-SAT with lazy island cuts; `unique` / `count` by forbid-and-re-solve. Without
    a `connectivity` option (nor a `max_deterministic_time` of its own), a thin sea by
    BFS layers, any other in stages: height constraints, each call within
    `HEIGHT_BUDGET`; then lazy cuts, within `LAZY_ROUNDS`; then height again with the
    cuts found."""
    chosen = "connectivity" in limits.options or "max_deterministic_time" in limits.options
    method, sizes, limits = _cpsat_options(limits)
    limits = limits.with_(options={**_CPSAT_PARAMETERS, **limits.options})
    watch, deadline = Stopwatch(), limits.deadline()
    lay = layout(instance)

    def built(how: str) -> lazy_cuts.CutModel:
        model, shaded, _ = build_cpsat(instance, how, lay=lay, sizes=sizes)
        return model, shaded, _cuts(lay, how == "lazy")

    if chosen or lay.sea_layered:
        # A thin sea (`Layout.sea_layered`): BFS layers as deep as the sea is large
        # (1030_32x32, a 994 and a 20 with 10 sea cells: unique in about 25 s, which
        # height and lazy cuts do not prove in 120 s).
        model, shaded, violated = built(method if chosen else "layers")
        watch.built()
        tally, effort = lazy_cuts.cpsat_loop(model, shaded, violated, limits, deadline)
    else:
        watch.built()
        height, lazy = partial(built, method), partial(built, "lazy")
        stages = [lazy_cuts.Stage(height, budget=HEIGHT_BUDGET),
                  lazy_cuts.Stage(lazy, rounds=LAZY_ROUNDS), lazy_cuts.Stage(height)]
        tally, effort = lazy_cuts.cpsat_stages(stages, limits, deadline)
    counters = {**effort.counters(), **tally.counters()}
    return tally.result(limits, watch.stats(nodes=effort.nodes, **counters), partial(_grid, lay))


# ---------------------------------------------------------------- SAT

def build_sat(instance: Instance, complete: bool = False
              ) -> tuple[sat_common.Encoding, list[int], Layout]:
    """The CNF, the `shaded` literals in row-major order and the layout.

    Without `complete`, connectivity is left to lazy cuts (only its implied
    clauses are here); with it, BFS layers make the CNF exact.
    """
    lay = layout(instance)
    enc = sat_common.Encoding()
    # Variables: shaded first, so that shaded(r, c) is variable r*cols+c+1.
    shaded = [enc.var("shaded", v // lay.cols, v % lay.cols) for v in range(lay.cells)]
    owners: list[list[int]] = [[] for _ in range(lay.cells)]
    own = []
    for k, area in enumerate(lay.areas):
        mine = {v: enc.var("own", v // lay.cols, v % lay.cols, k) for v in area}
        own.append(mine)
        for v, lit in mine.items():
            owners[v].append(lit)
    # Each cell is shaded or in exactly one island; clue cells in their own.
    for v in range(lay.cells):
        checkpoint()
        enc.add([shaded[v], *owners[v]])
        enc.add_at_most([shaded[v], *owners[v]], 1)
    for k, (cell, number) in enumerate(lay.clues):
        checkpoint()
        enc.add([own[k][cell]])
        for v, lit in own[k].items():
            for w in lay.nbrs[v]:
                enc.add([-lit, shaded[w], own[k][w]] if w in own[k] else [-lit, shaded[w]])
        area = lay.areas[k]
        if number is not None:
            lits = list(own[k].values())
            enc.add_at_most(lits, number)
            enc.add_at_most([-lit for lit in lits], len(lits) - number)  # at least number
        if lay.layered(k) or complete:  # connected to its clue (else: cuts)
            depth = len(area) - 1 if number is None else number - 1
            enc.clauses += island_layers(own[k], area, lay.nbrs, depth,
                                         lambda t, v, k=k: enc.var("reach", k, t, v),
                                         lambda lit: -lit)
    for block in _blocks(lay):
        enc.add([-shaded[v] for v in block])
    enc.clauses += _sea_implied(lay, shaded, lambda lit: -lit)
    enc.clauses += _enclosure_implied(lay, shaded, own, lambda lit: -lit)
    if lay.sea_size is not None and thin_sea(lay.sea_size, lay.cells):
        # A giant-island puzzle (a thin sea): its size as a cardinality, which the
        # islands' sizes imply only through every cell's label (1030_32x32: unique in
        # 4 s with it, not in 120 s without).
        enc.add_at_most(shaded, lay.sea_size)
        enc.add_at_most([-lit for lit in shaded], lay.cells - lay.sea_size)
    if lay.sea_layered or (complete and lay.sea_size is not None):
        enc.clauses += sea_layers(shaded, lay.nbrs, max(lay.sea_size - 1, 0),
                                  lambda *key: enc.var("sea", *key), lambda lit: -lit)
    elif complete:
        enc.clauses += graph_constraints.connected_clauses(
            shaded, lay.nbrs, lambda key: enc.var("sea", *key), lay.sea_root)
    return enc, shaded, lay


def sat_export(instance: Instance) -> CnfExport:
    """The complete CNF (connectivity by BFS layers): every model decodes to a solution."""
    return lazy_cuts.complete_export(
        _sat_problem(instance, complete=True), "nurikabe", instance.rows, instance.cols,
        "shaded(r, c)",
        "the sea's and each island's connectivity by BFS layers")


def check_sat_options(limits: Limits) -> None:
    """sat's one option, `solver=NAME` (the registry's checker)."""
    sat_common.check_options(limits)


def solve_sat(instance: Instance, limits: Limits) -> Result:
    """SAT with lazy connectivity cuts; `unique` / `count` by blocking clauses."""
    return lazy_cuts.solve_sat(limits, lambda _: _sat_problem(instance))


def _sat_problem(instance: Instance, complete: bool = False) -> lazy_cuts.SatProblem:
    enc, shaded, lay = build_sat(instance, complete)
    return lazy_cuts.SatProblem(enc.clauses, enc.top, shaded, _cuts(lay), partial(_grid, lay))


def another_solution(instance: Instance, solution: dict[str, list[str]],
                     deadline: Deadline | None = None) -> list[list[bool]] | None:
    """A solution of `instance` other than `solution` (its shading, row by row), or None
    when `solution` is the only one (UNSAT: a proof); the generator's question."""
    name = sat_common.DEFAULT_SOLVER
    enc, shaded, lay = build_sat(instance)
    values = [ch == "1" for row in solution["shaded"] for ch in row]
    enc.add(lazy_cuts.forbid(shaded, values))
    with sat_common.SatSession(name, enc.clauses, deadline or Deadline(None)) as session:
        found = lazy_cuts.valid_model(session, shaded, _cuts(lay), lazy_cuts.CutTally())
    if not isinstance(found, list):
        return None
    return [found[r * lay.cols:(r + 1) * lay.cols] for r in range(lay.rows)]
