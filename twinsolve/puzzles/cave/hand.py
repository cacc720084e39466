"""Cave, the `hand` back-end: propagation to a fixpoint plus depth-first branching.

Rules (see `twinsolve.puzzles.cave.rules`): shade some cells as the cave (inside).
The inside cells form one orthogonally connected region; every outside cell
reaches the edge of the grid through outside cells (no holes); every clue
cell is inside, and a clue number counts the inside cells visible from it
along its row and column, itself included, each ray stopping at the first
outside cell or the edge. `?` is an inside cell with no count.

The idea. One Boolean variable per cell on the shared engine's `Store`
(`TRUE` = inside, `FALSE` = outside: its domain mask is `INSIDE`, `OUTSIDE`
or `UNDECIDED`, the engine's `IS_TRUE`, `IS_FALSE`, `UNDECIDED`), and four
rule families on its `Propagator`, cheapest first:

- Visibility (one rule per numbered clue). In each direction the arm length
  `a` (inside cells seen that way) lies between the run of known-inside
  cells and the run of not-outside cells, and `a = k` is possible only if
  the cell just past it may be outside. The four sets of possible lengths
  are bitmasks; adding them (shift-or convolutions) keeps in each set only
  the lengths some choice of the other three completes to `number - 1`.
  Then the cells up to the smallest kept length are inside, and when one
  length is left the cell past it is outside. This subsumes the textbook
  lower / upper bound rules and their per-direction variants.
- No checkerboard (one rule per 2x2 block). Two diagonal inside cells and
  two diagonal outside cells cannot coexist: the inside path joining the
  first pair closes a loop, with their corner contact, around one of the
  other pair, which then has no outside path to the edge.
- Inside connectivity (one global rule). In the graph of not-outside cells,
  an inside cell that cannot reach another is a contradiction, an
  undecided cell that reaches no inside cell is outside, and an undecided
  articulation point with inside cells on both sides is inside.
- No holes, the mirror image. In the graph of not-inside cells plus a
  virtual border node joined to every edge cell: an outside cell cut off
  from the border is a contradiction, an undecided cell cut off from it is
  inside, and an undecided articulation point separating an outside cell
  from the border is outside.

The last three are the engine's generic region rules (`search.regions`:
`NoCheckerboard`, `RegionConnected` for the inside, `ReachesBorder` for the
outside), each connectivity rule one run of the engine's `LowLink` (an
iterative Tarjan search), rooted at an inside cell (resp. the border node),
marking the inside (outside) cells: a cut vertex separates inside cells
exactly when it cuts a marked cell off from the root, because the root is
on the other side.

Probing (on by default; option `probe`): the engine's failed-literal
probing (`Propagator.enable_probing`) on the open ends of the clue arms, the
undecided cells just past the run of inside cells a clue sees, inside
first. Only open ends: on designed puzzles they carry the deductions, and
probing every cell costs far more on loosely clued grids. On the janko.at
corpus this leaves no branching at all. Trials are propagation, not search
nodes: they are counted apart, as `probes`.

Branching (`choose_cell`): the first open end of the clue closest to its
number, else the undecided cell with the most decided neighbours; inside
first, then outside. `nodes` counts values tried at branching points
(docs/architecture.md: hand = search nodes expanded); `propagations` counts rule runs.

With `limits.unique` the search goes on to a second solution, with
`limits.count` it enumerates them all; the deadline and `limits.node_limit`
stop it with `timeout` (or `solved` with `unique` / `count` unknown when a
solution was already found). The engine polls the deadline during
propagation too, since one node can take long on a large grid.

Known weakness: chronological backtracking without learning. Designed
puzzles are solved by propagation, but large, loosely clued grids with many
solutions (random clues on 20x20 and up) can time out before the first
solution; the SAT back-ends are the tool there.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.limits import Limits
from ...core.result import Result, Stopwatch
from ...search.branching import check_probe_option, solve_by_search
from ...search.grid import Grid
from ...search.propagate import (
    FALSE,
    IS_FALSE,
    IS_TRUE,
    TRUE,
    UNDECIDED,
    Contradiction,
    Propagator,
    Rule,
    Store,
)
from ...search.regions import (
    GLOBAL_PRIORITY,
    NoCheckerboard,
    ReachesBorder,
    RegionConnected,
    blocks,
)
from .rules import Instance, clue_cells, solution_from_inside

__all__ = ["solve", "check_options", "build", "open_ends", "CaveModel", "INSIDE", "OUTSIDE",
           "UNDECIDED", "TECHNIQUES", "inside_first"]

# A cell's domain mask, in the puzzle's words for the engine's Boolean masks (the rules
# compare `store.dom[cell]` with them and `restrict` to them); values are TRUE / FALSE.
INSIDE, OUTSIDE = IS_TRUE, IS_FALSE


# ---------------------------------------------------------------- visibility

def _add(lengths: int, sums: int) -> int:
    """The sums of one value of `lengths` and one of `sums` (both bitmasks of integers)."""
    out = 0
    while lengths:
        low = lengths & -lengths
        out |= sums << (low.bit_length() - 1)
        lengths ^= low
    return out


def _arm_lengths(dom: list[int], arm: Sequence[int], cap: int) -> tuple[int, int]:
    """(known-inside run, bitmask of possible arm lengths <= cap) for one direction.

    Length k needs arm[0..k-1] not outside and arm[k] not inside (or the edge).
    """
    size = len(arm)
    k = 0
    while k < size and dom[arm[k]] == INSIDE:
        k += 1
    run = k
    mask = 1 << k
    while k < size and k < cap and dom[arm[k]] != OUTSIDE:
        k += 1
        if k == size or dom[arm[k]] != INSIDE:
            mask |= 1 << k
    return run, mask


class _ClueRule:
    """Visibility of one numbered clue; see the module docstring."""

    __slots__ = ("arms", "need")

    def __init__(self, number: int, arms: tuple[tuple[int, ...], ...]) -> None:
        self.arms = arms
        self.need = number - 1  # inside cells to see besides the clue's own

    def __call__(self, store: Store) -> None:
        dom, need, arms = store.dom, self.need, self.arms
        runs, masks = [], []
        for arm in arms:
            run, mask = _arm_lengths(dom, arm, need)
            runs.append(run)
            masks.append(mask)
        # prefix[d]: sums over directions < d; suffix[d]: over directions > d.
        prefix = [1, masks[0], 0, 0]
        prefix[2] = _add(masks[1], prefix[1])
        prefix[3] = _add(masks[2], prefix[2])
        # This also catches a known run longer than `need` (its mask holds only that
        # length), so below every kept length k has need - k >= 0.
        if not _add(masks[3], prefix[3]) >> need & 1:
            raise Contradiction
        suffix = [0, 0, masks[3], 1]
        suffix[1] = _add(masks[2], suffix[2])
        suffix[0] = _add(masks[1], suffix[1])
        for d, arm in enumerate(arms):
            others = _add(prefix[d], suffix[d])
            kept, mask = 0, masks[d]
            while mask:
                low = mask & -mask
                if others >> (need - low.bit_length() + 1) & 1:
                    kept |= low
                mask ^= low
            shortest = (kept & -kept).bit_length() - 1
            for j in range(runs[d], shortest):
                store.restrict(arm[j], INSIDE)
            if not kept & (kept - 1) and shortest < len(arm):
                store.restrict(arm[shortest], OUTSIDE)


# ---------------------------------------------------------------- clue arms

def open_ends(dom: Sequence[int], arms: Sequence[Sequence[int]]) -> tuple[int, list[int]]:
    """(inside cells a clue sees for sure, the undecided cells that would extend its runs).

    Per arm, the run of inside cells from the clue is counted and the cell
    just past it is an open end when undecided: deciding it changes, or
    closes, what the clue sees.
    """
    seen, ends = 0, []
    for arm in arms:
        k, size = 0, len(arm)
        while k < size and dom[arm[k]] == INSIDE:
            k += 1
        seen += k
        if k < size and dom[arm[k]] == UNDECIDED:
            ends.append(arm[k])
    return seen, ends


# ---------------------------------------------------------------- model

# The deduction techniques, cheapest first; a model may be restricted to some of them
# (the generator's difficulty levels, `twinsolve.puzzles.cave.generate`):
# bounds = the visibility rule of each clue; reach = inside cells connected, cells
# that reach no inside cell are outside; articulation = an undecided cut vertex between
# inside cells is inside; holes = the no-holes rule (reaching the border, its cut
# vertices) and the 2x2 blocks; probing = failed-literal probing on the clue ends.
TECHNIQUES = ("bounds", "reach", "articulation", "holes", "probing")


class CaveModel:
    """The store, the rules and the branching heuristic of one instance.

    `prop` runs the visibility, block and connectivity rules, and probes
    the open ends of the clue arms when `probe` is true; `choose` is the
    branching heuristic. `techniques` (default: all of `TECHNIQUES`)
    restricts the rules, for grading; the clue bounds are always on.
    """

    def __init__(self, instance: Instance, probe: bool = True,
                 techniques: Sequence[str] = TECHNIQUES) -> None:
        unknown = set(techniques) - set(TECHNIQUES)
        if unknown:
            raise ValueError(f"unknown techniques {sorted(unknown)} (known: {TECHNIQUES})")
        self.techniques = frozenset(techniques) | {"bounds"}
        self.instance = instance
        self.grid = Grid(instance.rows, instance.cols)
        self.store = Store.booleans(self.grid.size)
        self.prop = Propagator(self.store)
        self.clue_rules: list[_ClueRule] = []
        self.rules = self._rules()
        for rule, watches, priority in self.rules:
            self.prop.add_rule(rule, watches, priority=priority)
        self.probe = probe and "probing" in self.techniques
        if self.probe:
            self.prop.enable_probing(self._clue_ends, inside_first)
        self.choose = _Chooser(self.grid, self.clue_rules)

    def _rules(self) -> list[tuple[Rule, list[int] | None, int]]:
        """(rule, watched cells or None for all, priority); clue cells are fixed here."""
        grid, store = self.grid, self.store
        rules: list[tuple[Rule, list[int] | None, int]] = []
        for r, c, number in clue_cells(self.instance):
            cell = grid.index(r, c)
            store.restrict(cell, INSIDE)  # a fresh store: this cannot contradict
            if number is None:
                continue
            arms = tuple(tuple(grid.line_of_sight(cell, d)) for d in range(4))
            self.clue_rules.append(_ClueRule(number, arms))
            rules.append((self.clue_rules[-1], [i for arm in arms for i in arm], 0))
        holes = "holes" in self.techniques
        if holes:
            rules.extend((NoCheckerboard(*block), list(block), 0) for block in blocks(grid))
        # Global rules cost O(cells) a run: after the local rules reach their fixpoint.
        if "reach" in self.techniques or "articulation" in self.techniques:
            inside = RegionConnected(grid, INSIDE, cuts="articulation" in self.techniques)
            rules.append((inside, None, GLOBAL_PRIORITY))
        if holes:
            rules.append((ReachesBorder(grid, OUTSIDE), None, GLOBAL_PRIORITY))
        return rules

    def _clue_ends(self, store: Store) -> list[int]:
        """The cells to probe: every clue's open ends (`open_ends`), ascending."""
        dom = store.dom
        return sorted({cell for clue in self.clue_rules for cell in open_ends(dom, clue.arms)[1]})

    def solution(self, values: Sequence[int]) -> dict[str, list[str]]:
        """The `{"inside": [...]}` answer of one value per cell (`TRUE`: inside)."""
        cols = self.grid.cols
        return solution_from_inside(values[r * cols:(r + 1) * cols]
                                    for r in range(self.grid.rows))


def build(instance: Instance, probe: bool = True,
          techniques: Sequence[str] = TECHNIQUES) -> CaveModel:
    """The propagation model of `instance`, ready for `search`."""
    return CaveModel(instance, probe, techniques)


# ---------------------------------------------------------------- branching

class _Chooser:
    """Branching heuristic bound to one model; see `choose_cell`."""

    __slots__ = ("nbrs", "clues")

    def __init__(self, grid: Grid, clues: Sequence[_ClueRule]) -> None:
        self.nbrs = grid.neighbours
        self.clues = clues

    def __call__(self, store: Store) -> int | None:
        return choose_cell(store, self.nbrs, self.clues)


def choose_cell(store: Store, nbrs: Sequence[Sequence[int]],
                clues: Sequence[_ClueRule]) -> int | None:
    """The undecided cell to branch on, or None when every cell is decided.

    The first open end (`open_ends`) of the clue closest to its number:
    either value moves that clue to a bound, where the visibility rule
    decides its other arms. With no open end left, the undecided cell with
    the most decided neighbours, where connectivity deductions start. Ties
    go to the first clue, the lowest cell index.
    """
    dom = store.dom
    best, best_deficit = None, 1 << 30
    for clue in clues:
        seen, ends = open_ends(dom, clue.arms)
        if ends and clue.need - seen < best_deficit:
            best, best_deficit = ends[0], clue.need - seen
    if best is not None:
        return best
    best_score = -1
    for i, m in enumerate(dom):
        if m == UNDECIDED:
            score = sum(dom[w] != UNDECIDED for w in nbrs[i])
            if score > best_score:
                best, best_score = i, score
    return best


def inside_first(store: Store, var: int) -> tuple[int, ...]:
    """The value order of branching and probing: inside (`TRUE`) first."""
    return (TRUE, FALSE)


# ---------------------------------------------------------------- solve

def check_options(limits: Limits) -> None:
    """hand's one option, `probe=true|false` (the registry's checker)."""
    check_probe_option(limits)


def solve(instance: Instance, limits: Limits) -> Result:
    """Propagate and branch; SOLVED with `{"inside": [...]}`, UNSAT, or TIMEOUT.

    Option `limits.options["probe"]` (default True; `hand:probe=false` on the
    command line) turns failed-literal probing off, leaving the plain rules.
    """
    watch = Stopwatch()
    deadline = limits.deadline()
    model = build(instance, limits.flag("probe", True))
    watch.built()
    return solve_by_search(model, limits, deadline, watch, order=inside_first,
                           probes=(lambda: model.prop.probes) if model.probe else None)
