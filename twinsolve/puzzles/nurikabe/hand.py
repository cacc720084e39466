"""Nurikabe, the `hand` back-end: propagation to a fixpoint plus depth-first branching.

Rules (see `twinsolve.puzzles.nurikabe.rules`): shade cells so that the
shaded cells (the sea) are connected with no 2x2 block shaded, and every
island of unshaded cells holds exactly one clue, whose number is its size.

The idea. The engine's numbered islands (`search.islands.Islands`): one
Boolean per cell on the shared engine's `Store` (`TRUE` = shaded: its domain
mask `SHADED`, `UNSHADED` or `UNDECIDED`), clue cells fixed unshaded, and
after the cells one label per cell (the islands that may still own it, which
propagation narrows and, once every cell is decided, fixes). The rules on
its `Propagator`, cheapest first:

- pools (`regions.NoUniformBlock`, one rule per 2x2 block): three shaded
  cells of a block make the fourth unshaded; and the link of each cell to
  its label (unshaded neighbours share their island);
- the island bounds (always): a part of an island with two clues or more
  cells than its number is a contradiction, a complete island is walled in
  by sea, a cell that would join two islands or overfill one is shaded;
  the sea connected (a shaded cell walled off from the others is a
  contradiction, an undecided cell that reaches no shaded cell unshaded);
  the sea's size, when every clue has a number (with that many shaded cells
  the rest is unshaded, with that many shaded and undecided all are shaded);
- `reach`: cells no island can reach within the cells it still needs are
  shaded (land no island reaches is a contradiction); in a thin sea (a third
  of the grid at most), cells too far from a shaded cell for a sea of its
  size are unshaded;
- `cuts`: articulation forcing, for the sea (an undecided cell whose loss
  would split the shaded cells is shaded)
  and for each island (an undecided cell without which it cannot reach its
  size, or its land, is unshaded); and an island may not cut the sea
  (`search.crosscut`: a cell of an open region's outer boundary, the region's
  cells undecided or land not yet joined to a clue, whose joining to the
  island's land across the region would leave known sea on both sides is not
  the island's; it settles 683_14x24 of the janko.at corpus at the root in
  0.04 s, where a search of 323,650 nodes took 1580 s, and, since the region
  holds that land too, 1108_20x15 in about 1.1 s, where a search of 388 nodes
  took 4.7 s);
- `shapes`: every way to complete each island, when there are few: cells in
  all of them are unshaded, cells beside all of them shaded; with the sea's
  edge budget and, where two islands touch at a corner and the sea is small,
  the enclosure bound (`search.enclosure`: a loop of sea goes round one of
  them, and a loop round many cells is long; it settles 29_10x10 of the janko.at
  corpus at the root, where a search of 269,183 nodes found no solution in
  1500 s, and cuts 1030_32x32's search from 302 nodes to 52); and, where the
  sea is smaller than the grid's rows and columns less one, its span
  (`search.seaspan`: the sea reaches past every side of an island's box off
  the grid's edge, and a connected sea spanning w columns and h rows has
  w + h - 1 cells at least; it settles 1030_32x32, a 994 and a 20 with 10 sea
  cells, at the root in 0.02 s, where probing, the lookahead and a search of
  44 nodes took 5.7 s);
- `probing` (option `probe`, on by default): the engine's failed-literal
  probing on the undecided cells beside a decided one, shaded first: a
  value whose propagation fails is removed. Trials are counted apart, as
  `probes`, not as search nodes; at every node of the search too. After a
  pass that removed something, the next tries only the cells within `NEAR`
  steps of what it changed (`FOCUS` in a search), and a whole pass closes
  (`candidates_near`, `_frontier_near`): on the janko.at corpus (`python -m
  benchmarks.nurikabe_perf --backends hand`) 688_20x20's root probing went
  from 925 trials to 776 and the puzzle from 2.9 s to 2.4 s, the corpus from
  54.2 s to 52.3 s in all, with the same answers and search nodes everywhere
  (`FOCUS` steps then). `NEAR` 2 rather than 3 before the search (the
  root's passes and the lookahead's removals, which then propagate with
  probing near what they changed): the corpus 46.0 s to 44.2 s, 940_15x15
  1.03 to 0.84 s, 1108_20x15 1.10 to 0.72 s, 688_20x20 2.02 to 1.82 s, but
  1063_10x10 1.50 to 1.64 s; 2 at the search's nodes too grew its trees
  (975_10x10 33 nodes to 179, 669_14x24 130 to 368).
- trials without the larger islands' shapes (`TRIAL_ROOM`, `hand` only: the
  generator's levels, and so the explainer's steps, keep them): in probing's
  trials an island's shapes run only while it needs one cell at most
  (`Islands`' `trial_room`). The ways to add one cell are few and what fails
  trials most; the ways to add more were a trial's dearest work and seldom
  decided one. On the janko.at corpus (`python -m benchmarks.nurikabe_perf
  --backends hand`, before and after side by side): 756_15x15 2.89 s to 1.96 s,
  1046_23x33 0.98 to 0.69 s, 940_15x15 0.87 to 0.64 s, 976_10x10 1.18 to 0.88 s
  (16 nodes to 41), 975_10x10 1.79 to 1.59 s (38 nodes to 93), the corpus 43.4
  to 39.9 s; 960_15x15 0.36 to 0.59 s and 480_12x12 0.22 to 0.39 s the most
  slowed. Two cells: the corpus in 40.8 s, three 41.7 s; none (no shapes in the
  trials) took 756_15x15 past 30 s.
- `forcing` (with probing): when both of a cell's trials hold, what they
  agree on holds (a cell both leave unshaded is unshaded, a label both
  narrow keeps the islands either left it: `Propagator.enable_probing`'s
  forcing), and the same in the lookahead below, where each trial has
  probed (`Lookahead`'s forcing). It costs no trial. On the janko.at corpus
  (`python -m benchmarks.nurikabe_perf --backends hand,hand:forcing=false`)
  probing's forcing settles 687_17x17 at the root in 0.3 s, where the
  lookahead settled nothing and a search of 46 nodes took 7 s, and the 90th
  percentile went from 0.18 to 0.16 s; the lookahead's then settles
  967_10x10, 973_10x10 and 499_8x12 at the root too (557 of 567 without
  branching, from 554), cuts 1063_10x10's search from 60 nodes to 20, and
  proves 756_15x15 unique in 8 s with 182 nodes, which took more than 150 s
  before. A lookahead that does not settle its root finds more with it, so
  runs longer to its budget. Only `hand` uses it: the generator's levels,
  and so the explainer's steps, stop at probing and the lookahead.
- `lookahead` (with probing): once the root is stuck, the same trials one
  level deeper (`search.lookahead`): each propagates with probing, so a
  value falls when every way probing continues from it fails; at most
  `LOOKAHEAD_TRIALS` trials, and `LOOKAHEAD_PATIENCE` in a row that remove
  nothing (numbers, so every machine gives the same answer). A removal
  propagates probing only near what it changed (`nearby`), and a probing
  pass over the whole frontier closes the lookahead (`Lookahead`'s `near`).
- `learning` (with the lookahead): what each of its trials that holds
  implied ("this cell shaded, probing makes those cells land") is kept as a
  rule (`search.implication`, learned at the root, so true of every
  solution): backwards, a cell whose shading would need a cell that has
  become sea is unshaded by propagation alone, in the lookahead's later
  trials and in the search, whose nodes run no lookahead. On the janko.at
  corpus (`python -m benchmarks.nurikabe_perf --backends
  hand,hand:learning=false`) it settles 753_10x10 at the root in 0.2 s after
  21 trials (60 trials, then 280 nodes in 3.8 s without it), 967_10x10 in 25
  trials instead of 63 (0.9 s from 1.4 s), and cuts 1108_20x15's search from
  1924 nodes to 970 and 756_15x15's from 182 to 134. Only `hand` uses it,
  like forcing (`HAND_ONLY`).

At the search's nodes probing makes one pass (`NODE_PROBE_PASSES`), the root
and the lookahead's trials to a fixpoint: the pass that would confirm a
node's fixpoint mostly finds nothing, and both children's first passes find
what it would have. On the janko.at puzzles that branch, 1063_10x10 went from
2.5 s to 1.5 s and 975_10x10 from 3.5 s to 2.6 s; no puzzle got slower by more
than the noise.
And a node's pass tries only the cells within `FOCUS` steps of one its decision
narrowed, itself or its label (`enter_search`, `Propagator.origin`): a value far from
the decision held at the parent's pass, and mostly holds again. Against the
whole frontier, on the janko.at puzzles that branch (`python -m
benchmarks.nurikabe_perf --backends hand`, before and after at load 1):
1108_20x15 9.7 s to 4.5 s (968 nodes against 970), 975_10x10 2.45 to 1.8 s (476
against 442), 756_15x15 2.7 to 2.2 s (10 nodes against 134: the choice of
branching keeps near the last decision too).

The root is settled first (`NurikabeModel.settle`: propagation, then the
lookahead); when it decides every cell the solution is the only one and no
search runs. Branching, shaded first: the cell whose two probing trials at
the node narrowed the most (`Propagator.most_impact`, the look-ahead SAT
solvers' choice: both branches reach far, so a tree searched to the end for
uniqueness stays small; on the janko.at corpus it cut 1063_10x10 from 468
nodes to 92); in a thin sea (a third of the grid at most, the giant-island
puzzles) the same among the cells beside a shaded one first, so the search grows
the sea from its edge (1030_32x32: 5964 nodes to 3092); without probing,
`choose_cell`. A cell that two islands or more may still own is branched on as its
label (`_owner`): sea first, then each island's in the order of their clues, so each
branch tells the island rules whose land the cell is (1108_20x15: 518 nodes to 388).
But first the cell whose value failed last, while it is
undecided (`propagate.search`'s `last_conflict`): a search that backs out of a
failure tries its culprit again at once, instead of meeting the failure again
below unrelated decisions. On the janko.at corpus it cut 975_10x10 from 476
nodes to 116 (2.0 s to 1.2 s) and 1108_20x15 from 950 to 788 (3.4 s to 2.9 s).
And regions that no constraint joins are completed apart (`parts`, option
`hand:parts=false` to mix them): at a node whose open cells fall into groups
eight apart, no island able to grow into two of them and the groups and the pools
of known sea making a tree (`search.islandparts`), each group is searched on its
own, branching only on its cells, and the counts multiply (`propagate.search`'s
AND/OR search). Why: a search that mixes two regions refutes a failing one again
below every way it completed the other. On 1108_20x15 of the janko.at corpus (a
region at the top left and another at the bottom) it cut the search from 788
nodes to 518 (2.8 s to 2.3 s, `python -m benchmarks.nurikabe_perf --backends
hand,hand:parts=false`); no other puzzle of the corpus splits.
`nodes` counts values tried at branching points
(docs/architecture.md: hand = search nodes expanded); `propagations` counts
rule runs. With `limits.unique` the search goes on to a second solution,
with `limits.count` it enumerates them all; the deadline and
`limits.node_limit` stop it with `timeout` (or `solved` with `unique` /
`count` unknown when a solution was already found).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from ...core.limits import Limits
from ...core.result import Result, Stopwatch
from ...search.branching import check_probe_option, solve_by_search
from ...search.grid import Grid
from ...search.islandparts import IslandParts
from ...search.islands import SEA_LABEL, Islands
from ...search.islands import TECHNIQUES as ISLAND_TECHNIQUES
from ...search.lookahead import Lookahead
from ...search.propagate import (
    FALSE,
    IS_FALSE,
    IS_TRUE,
    TRUE,
    UNDECIDED,
    Propagator,
    Rule,
    Store,
)
from .rules import Instance, clue_cells, solution_from_shaded

__all__ = ["solve", "check_options", "build", "NurikabeModel", "SHADED", "UNSHADED",
           "TECHNIQUES", "HAND_ONLY", "GRADED", "shaded_first", "choose_cell"]

# A cell's domain mask in the puzzle's words (the engine's Boolean masks); TRUE = shaded.
SHADED, UNSHADED = IS_TRUE, IS_FALSE

# The deduction techniques beyond the island bounds and pools (always on), cheapest
# first; a model may be restricted to some of them (the generator's levels).
TECHNIQUES = ("reach", "cuts", "shapes", "probing", "forcing", "lookahead", "learning")
# The techniques only `hand` uses, each an on-off option (`hand:forcing=false`): no
# generator level holds them, so neither does the explainer.
HAND_ONLY = ("forcing", "learning")
# All of them but `HAND_ONLY`: the generator's hard level.
GRADED = tuple(name for name in TECHNIQUES if name not in HAND_ONLY)
LOOKAHEAD_TRIALS = 100  # trials of the lookahead at the root, at most
# ... and in a row that remove nothing. When it was chosen, a root the lookahead settled
# went 43 such trials (688_20x20 of the janko.at corpus), and roots it left undecided
# spent a second each on the rest of the 100. With the rules and forcing since, no
# root of the corpus it settles goes past 18 (967_10x10), and the three it leaves
# undecided end at the budget (975_10x10, 976_10x10) or after a whole pass (669_14x24);
# 20 would cut those three by a few hundred probes each, none to under a second; kept
# at 50 as the generator's hard level runs this lookahead too, and a bound near the
# corpus's longest run would decide which puzzles it calls hard.
LOOKAHEAD_PATIENCE = 50
FOCUS = 3  # a lookahead trial probes the cells within this many steps of its cell
# ... and a search's node those within so many of what its decision changed; before the
# search (the root's probing and the lookahead's removals), what a removal changed is
# probed around within this many (the module docstring).
NEAR = 2
NODE_PROBE_PASSES = 1  # probing passes at a search node (the root: to a fixpoint)
# `hand` only: the shapes of an island needing more than this many cells sit out
# probing's trials (the module docstring).
TRIAL_ROOM = 1


class NurikabeModel:
    """The store (cells, then the islands' labels), the rules and the branching
    heuristic of one instance.

    `techniques` (default: all of `TECHNIQUES`) restricts the rules, for
    grading; `probe` False leaves probing out whatever `techniques` says;
    `labels` False branches on cells only (`_owner`).
    """

    def __init__(self, instance: Instance, probe: bool = True,
                 techniques: Sequence[str] = TECHNIQUES,
                 wrap: Callable[[Rule], Rule] | None = None, labels: bool = True,
                 trial_room: int | None = None) -> None:
        unknown = set(techniques) - set(TECHNIQUES)
        if unknown:
            raise ValueError(f"unknown techniques {sorted(unknown)} (known: {TECHNIQUES})")
        self.techniques = frozenset(techniques)
        self.labels = labels
        self.instance = instance
        self.grid = Grid(instance.rows, instance.cols)
        clues = [(self.grid.index(r, c), number) for r, c, number in clue_cells(instance)]
        engine = [name for name in ISLAND_TECHNIQUES if name in self.techniques]
        self.islands = Islands(self.grid, clues, UNSHADED, engine, trial_room)
        self.thin = self.islands.thin  # the search grows the sea from its edge (`choose`)
        self.store = self.islands.store()
        self.prop = Propagator(self.store)
        self.islands.install(self.prop, wrap)
        # The search's independent parts (`search.islandparts`): regions searched apart.
        self.parts = IslandParts(self.islands)
        self.probe = probe and "probing" in self.techniques
        if self.probe:
            self.prop.enable_probing(self._frontier, shaded_first,
                                     forcing="forcing" in self.techniques,
                                     candidates_near=self._frontier_near)
        self.lookahead = None
        self.near: list[int] | None = None
        # Probing keeps near what the propagation under way changed (`_changed`): at a
        # search's nodes (`enter_search`), and while a lookahead's removal propagates.
        self.nearby = False
        self._around: dict[tuple[int, int], list[int]] = {}
        self.searching = False  # `enter_search` was called
        if self.probe and "lookahead" in self.techniques:
            self.lookahead = Lookahead(self.prop, self._frontier, shaded_first,
                                       LOOKAHEAD_TRIALS, self._focus, LOOKAHEAD_PATIENCE,
                                       forcing="forcing" in self.techniques,
                                       learn="learning" in self.techniques,
                                       near=self._nearby)

    def _frontier(self, store: Store) -> list[int]:
        """The cells to probe: undecided cells beside a decided one, ascending; during a
        lookahead trial only those near its cell (`_focus`), at a search's node and while
        a lookahead's removal propagates only those near what changed (`_changed`)."""
        cells = self.near
        if cells is None:
            cells = self._changed(store, self.prop.origin) if self.nearby else range(self.grid.size)
        return self._open(store, cells)

    def _frontier_near(self, store: Store, origin: int) -> list[int]:
        """`_frontier`'s cells near what changed since trail position `origin`
        (`_changed`): a probing pass after one that removed a value."""
        changed = self._changed(store, origin)
        if self.near is not None:
            focus = set(self.near)
            changed = [i for i in changed if i in focus]
        return self._open(store, changed)

    def _open(self, store: Store, cells: Iterable[int]) -> list[int]:
        """The undecided cells of `cells` beside a decided one, in their order."""
        dom, nbrs = store.dom, self.grid.neighbours
        return [i for i in cells
                if dom[i] == UNDECIDED and any(dom[w] != UNDECIDED for w in nbrs[i])]

    def _changed(self, store: Store, origin: int) -> list[int]:
        """The cells within `FOCUS` steps (in a search; before it, `NEAR`) of a cell
        narrowed since trail position `origin` (itself or its label), ascending."""
        size, near = self.grid.size, set()
        steps = FOCUS if self.searching else NEAR
        for cell in {var % size for var, _ in store.trail[origin:]}:
            near.update(self._around_cell(cell, steps))
        return sorted(near)

    def enter_search(self) -> None:
        """From now on the propagations are a search's nodes: one probing pass
        (`NODE_PROBE_PASSES`), near what the node's decision changed."""
        self.prop.probe_passes = NODE_PROBE_PASSES
        self.nearby = self.searching = True

    def _nearby(self, on: bool) -> None:
        """The lookahead's `near`: its removals propagate probing near what they changed
        (the root is settled before a search, so off again is off)."""
        self.nearby = on

    def _around_cell(self, cell: int, steps: int = FOCUS) -> list[int]:
        """The cells within `steps` steps of `cell` (kept: a lookahead meets them again)."""
        near = self._around.get((cell, steps))
        if near is None:
            dist = self.grid.distances([cell], max_dist=steps)
            near = self._around[cell, steps] = [i for i, d in enumerate(dist) if d >= 0]
        return near

    def _focus(self, cell: int | None) -> None:
        """A lookahead trial on `cell` probes within `FOCUS` steps of it (None: all)."""
        self.near = None if cell is None else self._around_cell(cell)

    def settle(self) -> bool:
        """Propagation at the root, then, when it is stuck, the lookahead (at most
        `LOOKAHEAD_TRIALS` trials). False on a contradiction (no solution);
        `LimitReached` at the deadline."""
        if not self.prop.propagate():
            return False
        if self.lookahead is None or self.decided():
            return True
        return self.lookahead.run() is not False

    def choose(self, store: Store) -> int | None:
        """The variable to branch on, None when all are decided: the cell probing found
        reaching furthest (`Propagator.most_impact`), in a thin sea among the cells
        beside it first (`_beside_sea`), else `choose_cell`'s; its label instead where
        two islands or more may own it (`_owner`)."""
        return self.choose_in(store, None)

    def choose_in(self, store: Store, among: set[int] | None) -> int | None:
        """`choose` among the variables `among` only (None: any), for a search that
        completes one independent part at a time (`parts`)."""
        best = None
        if self.probe:
            if self.thin:
                best = self.prop.most_impact(
                    among=self._beside_sea if among is None
                    else lambda var: var in among and self._beside_sea(var))
            if best is None:
                best = self.prop.most_impact(among=None if among is None else among.__contains__)
        if best is None:
            best = choose_cell(store, self.grid.neighbours, among)
        return self._owner(store, best, among)

    def _owner(self, store: Store, var: int | None, among: set[int] | None) -> int | None:
        """`var`, or its label when `var` is a cell that two islands or more may still
        own: the search then tries the cell as sea, then as each island's (`order`).

        Why: "land" alone tells the island rules little while they cannot say whose
        land it is, so a search of a region that two large islands share meets the same
        dead ends below both of its land's owners. On 1108_20x15 of the janko.at corpus
        (a 20 and a 15 sharing 49 cells with 20 of sea) the search went from 518 nodes
        to 388; no other puzzle of the corpus that branches changed."""
        n = self.grid.size
        if var is None or var >= n or not self.labels:
            return var
        label = n + var
        if (among is None or label in among) and (store.dom[label] & ~SEA_LABEL).bit_count() > 1:
            return label
        return var

    def order(self, store: Store, var: int) -> Sequence[int]:
        """The value order of branching: a cell shaded first (`shaded_first`), a label
        sea first (0), then its islands in the order of their clues."""
        return shaded_first(store, var) if var < self.grid.size else store.values(var)

    def _beside_sea(self, var: int) -> bool:
        """Whether `var` is a cell beside a shaded one: a thin sea grows from its edge.

        Why: a thin sea (the giant-island puzzles) is a small connected set, so a search
        that settles its edge cell by cell enumerates it, and each shaded cell's reach
        (`search.islands`) cuts the grid down at once. On 1030_32x32 (10 sea cells in
        1024) `hand --unique` took 3092 nodes, 242 s, against 5964 nodes, 546 s,
        branching anywhere (before the sea's reach counted from every known sea cell,
        which took it to 442 nodes, about 22 s); a usual sea gains nothing from it
        (975_10x10 448 to 178 nodes, but 756_15x15 182 to 232 and 976_10x10 14 to 24)."""
        dom = self.store.dom
        return (var < self.grid.size
                and any(dom[w] == SHADED for w in self.grid.neighbours[var]))

    def decided(self) -> bool:
        """Whether every cell is shaded or not."""
        return UNDECIDED not in self.store.dom[:self.grid.size]

    def solution(self, values: Sequence[int]) -> dict[str, list[str]]:
        """The `{"shaded": [...]}` answer of one value per cell (`TRUE`: shaded); values
        past the cells (the islands' labels) are left out."""
        cols = self.grid.cols
        return solution_from_shaded(values[r * cols:(r + 1) * cols]
                                    for r in range(self.grid.rows))


def build(instance: Instance, probe: bool = True, techniques: Sequence[str] = TECHNIQUES,
          wrap: Callable[[Rule], Rule] | None = None, labels: bool = True,
          trial_room: int | None = None) -> NurikabeModel:
    """The propagation model of `instance`, ready for `search`; `wrap` (the explainer's)
    wraps each rule before it is registered; `labels` False branches on cells only;
    `trial_room` (None: no bound): the shapes of an island needing more cells sit out
    probing's trials (`TRIAL_ROOM`)."""
    return NurikabeModel(instance, probe, techniques, wrap, labels, trial_room)


def choose_cell(store: Store, nbrs: Sequence[Sequence[int]],
                among: set[int] | None = None) -> int | None:
    """The cell to branch on, or None when every variable is decided: the undecided cell
    with the most decided neighbours (where deductions start), an unshaded one counting
    double, ties to the lowest index. Once every cell is decided propagation has fixed
    the islands' labels too; were one left, it is branched on, so the search stays
    complete. `among`: only those variables (None: any)."""
    dom = store.dom
    best, best_score = None, -1
    for i in range(len(nbrs)) if among is None else sorted(v for v in among if v < len(nbrs)):
        if dom[i] == UNDECIDED:
            score = 0
            for w in nbrs[i]:
                mw = dom[w]
                if mw != UNDECIDED:
                    score += 2 if mw == UNSHADED else 1
            if score > best_score:
                best, best_score = i, score
    if best is None:
        labels = range(len(nbrs), len(dom)) if among is None else sorted(among)
        best = next((v for v in labels if v >= len(nbrs) and not store.is_fixed(v)), None)
    return best


def shaded_first(store: Store, var: int) -> tuple[int, ...]:
    """The value order of branching and probing: shaded (`TRUE`) first."""
    return (TRUE, FALSE)


# ---------------------------------------------------------------- solve

def check_options(limits: Limits) -> None:
    """hand's options, `probe=true|false`, `forcing=true|false`, `learning=true|false`,
    `parts=true|false` and `labels=true|false` (the registry's checker)."""
    check_probe_option(limits, switches=(*HAND_ONLY, "parts", "labels"))


def solve(instance: Instance, limits: Limits) -> Result:
    """Propagate and branch; SOLVED with `{"shaded": [...]}`, UNSAT, or TIMEOUT.

    The root is settled first (`NurikabeModel.settle`): when that decides every
    cell, the answer is the only one and no search runs. Option
    `limits.options["probe"]` (default True; `hand:probe=false` on the command
    line) turns failed-literal probing off, `forcing` (`hand:forcing=false`)
    forcing alone, `learning` (`hand:learning=false`) the lookahead's learning,
    `parts` (`hand:parts=false`) the search's independent parts, `labels`
    (`hand:labels=false`) branching on a cell's label (`NurikabeModel._owner`).
    """
    watch = Stopwatch()
    deadline = limits.deadline()
    techniques = [name for name in TECHNIQUES
                  if name not in HAND_ONLY or limits.flag(name, True)]
    model = build(instance, limits.flag("probe", True), techniques,
                  labels=limits.flag("labels", True), trial_room=TRIAL_ROOM)
    apart = limits.flag("parts", True)
    watch.built()

    def settle() -> bool:
        settled = model.settle()
        model.enter_search()
        return settled

    return solve_by_search(model, limits, deadline, watch, order=model.order,
                           probes=(lambda: model.prop.probes) if model.probe else None,
                           settle=settle, decided=model.decided, last_conflict=True,
                           parts=model.parts if apart else None,
                           choose_in=model.choose_in if apart else None)
