"""Island rules on a grid: numbered islands of land in one connected sea.

Some grid puzzles divide the cells into land and sea and give the islands
(maximal orthogonally connected groups of land cells) their sizes by clues:
Nurikabe is the best known. Each clue cell is land, every island holds
exactly one clue, a clue's number (None: any size) is its island's size, the
sea is connected and no 2x2 block is all sea. `Islands` says so on the
engine's `Propagator`, for any puzzle.

The store. Variables 0..n-1 are the cells (Booleans; `land` is the domain
mask of a land cell, `IS_TRUE` or `IS_FALSE`, the other value is sea), then
variables n..2n-1 their *labels*: the islands that may still own each cell,
as a domain over 0 (no island: sea) and k+1 (the island of clue k). A cell
is sea exactly when its label is 0. In a solution the shading fixes every
label (a land cell's island holds one clue), so solutions of the store and
shadings correspond one to one: counts stay exact. A label starts with the
islands whose clue is near enough (`?` clues: all), a clue cell's with its
own island only. Branch on the cells only; propagation fixes the labels.

The rules, by technique (the first two are always on):

- link (per cell): sea iff label 0; and two land neighbours share their
  island, so a land cell's neighbours may only be sea or its own islands
  (islands that cannot meet: a cell between two islands is sea).
- island bounds (per clue): the land part holding the clue is the island's
  own (label fixed); more cells than its number is a contradiction; a
  complete island owns no other cell (its neighbours are then sea), an
  incomplete one walled in by sea is a contradiction; a neighbour whose land
  would merge in more cells than the number allows (with the land beside it)
  is not the island's.
- `reach` (per clue): the island grows through cells that may be its own,
  one cell each, and through land cells without a clue (an *orphan* part,
  whole, its size paid on entering); a cell it cannot reach within the
  cells it still needs is no longer its own. A cell no island may own is
  sea; a land cell none may own is a contradiction. And a thin sea's reach
  (every clue numbered, the sea a third of the grid at most, `_SeaReach`):
  the known sea parts the other cells into regions, each holding its cells
  less its clues' numbers of sea cells still to place (fewer is a
  contradiction); a new sea cell joins the known ones through new sea cells
  of its region, so a cell farther (through cells that are not land) from
  the known sea than its region's budget is land; and each group of known
  sea cells reaches another within the sea cells left plus one step.
- `cuts` (per clue): the cells it can reach must hold it: an undecided cell
  whose loss leaves fewer than its number on the clue's side, or cuts off a
  land cell only it may own, is its own (an articulation point, one
  `grid.LowLink` run on the region); and the sea's articulation points
  (`regions.RegionConnected`). And an island may not cut the sea
  (`search.crosscut.CrossCut`, after the others settle, and not in probing's
  trials): a cell on the outer boundary of an undecided region is not the
  island's when its land, joining it to the island's known land across the
  region, would leave known sea on both sides.
- `shapes` (per clue, after the others settle): every completion of the
  island, while it needs at most `SHAPE_ROOM` more cells and they are few
  (at most `SHAPE_NODES` enumeration steps and `SHAPE_LEAVES` sets):
  connected sets of its number of cells that hold its part and the land
  only it may own, lie in its reach, touch no other land, take a cell of
  each 2x2 block only it can keep from being all sea, leave no pool, and
  wall off no small pocket of sea (Redelmeier's enumeration, each set met
  once). A cell in every completion is its own, a cell beside every one is
  sea, a cell in none is not its own; no completion is a contradiction.
  With `trial_room` (`Islands`; None: `SHAPE_ROOM`), the shapes of an island
  needing more cells sit out probing's trials (`Propagator.trial`), run at the
  fixpoints the trials start from: an island's few ways to add its last cells
  are what fails trials most, its many ways to add more a trial's dearest work.
  And the sea's edge budget (every clue numbered, the islands few and compact:
  `_EdgeBudget`): an island of n cells holds at most 2n - (c + r) pairs of
  side-by-side cells when it spans c columns and r rows (`most_edges`), so
  the sea's sides on the grid's edge plus its loops are at most a slack the
  numbers give; an undecided cell that would spend more than is left is land,
  and a cell that would widen an island's known span past what is left is not
  its own.
  And where two islands touch at a corner and the sea is small
  (`search.enclosure.Enclosure`, every clue numbered, registered only where some
  island is too large for any loop of the sea): a loop of sea goes round one of
  the two, so neither fitting in a loop of the sea's size is a contradiction,
  and one alone keeps to the boxes such a loop goes round.
  And where the sea is smaller than a corner's box of the whole grid
  (`search.seaspan.SeaSpan`, every clue numbered): the sea reaches one line past
  each side of an island's box off the grid's edge, and a connected sea spanning
  w columns and h rows has w + h - 1 cells at least, so each island keeps to the
  boxes so small a sea can span.

Always: no 2x2 block all sea (`regions.NoUniformBlock`), the sea
connected (`regions.RegionConnected`, its articulation forcing with `cuts`)
and, when every clue has a number, the sea's size (the cells no island takes:
with that many sea cells the rest is land, with that many sea and undecided
cells they are all sea).
The per-clue rules watch only the cells their island may reach (its shapes also
the cells beside those and the 2x2 blocks around, which their checks read:
`Islands._shapes_watch`), so a change wakes the islands near it; and an
island's bounds skip a run when nothing since their last run in the current
line of the search touched a label that held the island (`_Island._news`,
`propagate.Since`): a large island's area holds most of the grid, and most
changes there are other islands' (on 1108_20x15 of the janko.at corpus seven
runs in ten were skipped, and `hand` took 4.2 s instead of 5.2 s; 688_20x20
1.5 s instead of 1.7 s). Its shapes skip a run when no cell near what their
last run read changed (`_Shapes._news`). Every rule is woken by what it reads,
so where `propagate()` stops, rules made afresh find nothing either; and a
completion the shapes refuse in a state stays refused in every stronger one
(`_Shapes._pocket`), so that fixpoint does not hang on the order the rules run in
(on the janko.at corpus: the same root with the rules as registered, at one
priority, and with their priorities reversed). Results of the reach, cut and shape
analyses are kept per island and state of what each reads, so backtracking and probing
meet them again for free (`_Survey`: four reaches in five on 688_20x20 of the
janko.at corpus). An island's candidate completions, in a state whose land part
only grew and reach only shrank since the last enumeration that finished (a
trial's, or a search child's), are that enumeration's, filtered
(`_Shapes._candidates`). The reach and the completions' checks work on sets of
cells as integers (`core.clue_grid.Bitboard`): a step from a whole frontier, or a check of
a completion's ring for land, pools and pockets, is a few shifts. The state itself is
kept as such sets for every island's rules (`_Cells`: the land, the sea, each
island's label, the cells one island or more and two or more may own), updated from
the trail since the last state met in the line of the search, so what a survey or the
shapes read of the cells near an island is an operation on integers, not a pass over
the cells (on the janko.at corpus, `hand` took 3.5 s on 756_15x15 where it took 4.2,
2.0 s on 967_10x10 where it took 2.4, 48 s on all 567 where it took 54, with the same
trials and nodes).

>>> from twinsolve.search.grid import Grid
>>> from twinsolve.search.propagate import Propagator
>>> islands = Islands(Grid(1, 4), [(0, 1), (3, 2)])   # a 1 at cell 0, a 2 at cell 3
>>> store = islands.store()
>>> prop = Propagator(store)
>>> islands.install(prop)
>>> prop.propagate(), islands.shading(store)       # cells 2 and 3 are the 2
(True, [False, True, False, False])
"""

from __future__ import annotations

import functools
import operator
from collections import deque
from collections.abc import Callable, Iterable, Sequence

from ..core.clue_grid import Bitboard
from .crosscut import CrossCut
from .enclosure import Enclosure
from .grid import Grid, LowLink
from .propagate import (
    IS_FALSE,
    IS_TRUE,
    UNDECIDED,
    Contradiction,
    Propagator,
    Rule,
    Since,
    Store,
    flags_of,
    span_of,
    values_of,
)
from .regions import NoUniformBlock, RegionConnected, blocks, changed_cells
from .seaspan import SeaSpan

__all__ = ["Islands", "TECHNIQUES", "SHAPE_NODES", "SHAPE_LEAVES", "SHAPE_ROOM", "SEA_LABEL",
           "EDGE_SLACK", "thin_sea", "sea_size", "most_edges"]

# The deduction techniques, beyond the link and island bounds (always on).
TECHNIQUES = ("reach", "cuts", "shapes")
SEA_LABEL = 1  # a label's domain mask holding only 0: no island, sea
# An island's shapes are listed while it needs at most SHAPE_ROOM more cells, within
# SHAPE_NODES enumeration steps and SHAPE_LEAVES sets of its size (else left out of that
# run: the common case of few shapes is cheap, and many shapes tell little).
SHAPE_NODES, SHAPE_LEAVES, SHAPE_ROOM = 300, 150, 5
_POCKET = 6  # cells a completion's check floods, at most, to find sea walled off
_CACHE = 20000  # results an island's rule keeps before starting afresh
# Enumerations an island's shapes keep to filter from (`_Shapes._candidates`): probing's
# trials at the root, a lookahead trial's own and a search's nodes each have theirs.
_BASES = 4
# Reaches an island keeps before starting afresh: fewer than the rules' results, as a
# reach is dear to keep (a few grid-sized integers) and met again soon or seldom. With
# 20000, hand's memory on 1030_32x32 after 60 s grew from 54 to 247 MB; with 2000, 91 MB,
# and the lookahead-heavy roots (688_20x20, 940_15x15) take as long as with 20000.
_SURVEYS = 2000
# A land part of this many cells or more is kept between runs (`_Part`); below, a
# fresh search costs less than the check that it is still the same.
_KEPT_PART = 64
# The sea's edge budget (`_EdgeBudget`) runs when its slack is at most this: the
# puzzles whose islands are few and compact (45 of the janko.at corpus's 565 fully
# numbered ones). With 40, 352 more run it: 12% more time in all, for 46 fewer nodes.
EDGE_SLACK = 16
_GLOBAL, _SHAPES = 1, 2  # priorities: after the local rules (0), the shapes last

# (rule, watched variables or None for all, priority, whether it runs in probing's
# trials)
Rules = list[tuple[Rule, list[int] | None, int, bool]]
# Per island: the columns and rows of the cells it may take, then of its known land, as
# bit sets (`_EdgeBudget._masks`).
_Masks = list[tuple[int, int, int, int]]


def _remember(cache: dict, key: object, value: object, limit: int) -> None:
    """Keep `value` under `key`; a cache holding `limit` entries starts afresh first (the
    rules' caches: a state met again in probing or search is mostly met soon)."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value


class Islands:
    """Numbered islands in a connected sea on `grid`: the store's layout and the rules.

    `clues` are (cell, number or None); `techniques` a subset of `TECHNIQUES`;
    `trial_room` (None: no bound) the most cells an island may need for its shapes
    to run in probing's trials (the module docstring).
    """

    def __init__(self, grid: Grid, clues: Sequence[tuple[int, int | None]],
                 land: int = IS_FALSE, techniques: Sequence[str] = TECHNIQUES,
                 trial_room: int | None = None) -> None:
        if land not in (IS_TRUE, IS_FALSE):
            raise ValueError(f"land is IS_TRUE or IS_FALSE, got {land}")
        unknown = set(techniques) - set(TECHNIQUES)
        if unknown:
            raise ValueError(f"unknown techniques {sorted(unknown)} (known: {TECHNIQUES})")
        if trial_room is not None and trial_room < 0:
            raise ValueError(f"trial_room is a number of cells, 0 or more, got {trial_room}")
        self.grid = grid
        self.trial_room = SHAPE_ROOM if trial_room is None else trial_room
        self.board = Bitboard(grid.rows, grid.cols)  # the rules' sets of cells as integers
        # Each cell's neighbours as such a set (the island shapes' enumeration)
        self.neighbour_bits = [self.board.around(1 << i) for i in range(grid.size)]
        # One Tarjan search's scratch lists for every island's cut cells (`needed_cells`):
        # rules run one at a time.
        self.lowlink = LowLink(grid.neighbours)
        self.clues = [(cell, number) for cell, number in clues]
        self.land, self.sea = land, land ^ UNDECIDED
        self.techniques = frozenset(techniques)
        self.areas = [self._area(cell, number) for cell, number in self.clues]

    def _area(self, cell: int, number: int | None) -> list[int]:
        """The cells clue `cell` may reach at all: within number - 1 steps, avoiding
        other clue cells (every cell for a clue of any size)."""
        others = bytearray(b"\x01") * self.grid.size
        for other, _ in self.clues:
            others[other] = other == cell
        far = None if number is None else number - 1
        dist = self.grid.distances([cell], within=others, max_dist=far)
        return [i for i, d in enumerate(dist) if d >= 0]

    def store(self) -> Store:
        """The store: every cell undecided but the clue cells (land), every label the
        islands near enough, a clue cell's its own."""
        n = self.grid.size
        labels = [SEA_LABEL] * n
        for k, area in enumerate(self.areas):
            bit = 2 << k
            for i in area:
                labels[i] |= bit
        cells = [UNDECIDED] * n
        for k, (cell, _) in enumerate(self.clues):
            cells[cell], labels[cell] = self.land, 2 << k
        store = Store(())
        store.dom = cells + labels
        return store

    def shading(self, store: Store) -> list[bool | None]:
        """Per cell: True when sea, False when land, None while undecided."""
        sea, land = self.sea, self.land
        return [True if m == sea else False if m == land else None
                for m in store.dom[:self.grid.size]]

    def install(self, prop: Propagator, wrap: Callable[[Rule], Rule] | None = None) -> None:
        """Register every rule (`rules`) on `prop`, each wrapped by `wrap` if given (the
        explainer's)."""
        for rule, watches, priority, trials in self.rules(lambda: prop.trial):
            prop.add_rule(rule if wrap is None else wrap(rule), watches, priority=priority,
                          trials=trials)

    def rules(self, trial: Callable[[], bool] = lambda: False) -> Rules:
        """(rule, watched variables or None for all, priority, whether it runs in
        probing's trials) of every rule, as `Propagator.add_rule` takes them: local ones
        first, then the islands and the sea, the island shapes last. `trial()`: whether
        one of probing's trials runs now (`Propagator.trial`: the shapes of an island
        needing more than `trial_room` cells sit it out)."""
        grid, n, techniques = self.grid, self.grid.size, self.techniques
        rules: Rules = [(NoUniformBlock(*block, self.sea), list(block), 0, True)
                        for block in blocks(grid)]
        for i in range(n):
            rules.append((_Link(i, n, grid.neighbours[i], self.land), [i, n + i], 0, True))
        cells = _Cells(self)  # the state's sets of cells, for every island's rules
        for k, (cell, number) in enumerate(self.clues):
            watches = self.areas[k] + [n + i for i in self.areas[k]]
            survey = _Survey(self, k, cells)  # one per island, for both its rules
            parts = _Part(self, cell)  # the same
            rules.append((_Island(self, k, cell, number, survey, parts), watches, _GLOBAL,
                          True))
            if "shapes" in techniques and number is not None:
                rules.append((_Shapes(self, k, cell, number, survey, parts, cells, trial),
                              self._shapes_watch(k), _SHAPES, True))
        sea_rule = RegionConnected(grid, self.sea, cuts="cuts" in techniques, nonempty=False)
        rules.append((sea_rule, list(range(n)), _GLOBAL, True))
        if "cuts" in techniques:
            rules.append((CrossCut(grid, self.land, [cell for cell, _ in self.clues]), None,
                          _SHAPES, False))
        size = self.sea_size
        if size is not None:
            rules.append((_SeaSize(n, size, self.sea), list(range(n)), _GLOBAL, True))
            if "reach" in techniques and self.thin:
                rules.append((_SeaReach(n, size, self.sea, self.board, self.clues),
                              list(range(n)), _GLOBAL, True))
            if "shapes" in techniques:
                budget = _EdgeBudget(grid, self.sea, self.clues, size)
                slack = budget.slack()
                if slack is not None and slack <= EDGE_SLACK:
                    # Last, with the shapes: it reads the whole grid, so it waits for
                    # the cheaper rules' fixpoint instead of running after each step.
                    rules.append((budget, None, _SHAPES, True))
                numbers = [number or 0 for _, number in self.clues]
                if Enclosure.fires(grid, numbers, size):  # some island too large to enclose
                    rules.append((Enclosure(grid, self.land, numbers, size), None, _SHAPES,
                                  True))
                if SeaSpan.fires(grid, size):  # a sea too small to span the whole grid
                    rules.append((SeaSpan(grid, self.land, numbers, size), None, _SHAPES,
                                  True))
        return rules

    def _shapes_watch(self, k: int) -> list[int]:
        """What island k's shapes read (`_Shapes._completions`' cells near its reach):
        the cells of its area, those beside them and the 2x2 blocks holding any of
        these, and their labels.

        Why more than the area: a completion's checks read the ring around it and the
        blocks it may close, which lie past the area; a change there that woke no run
        left the rules' fixpoint hanging on the order they ran in (on 948_10x10 of the
        janko.at corpus 57 cells stayed undecided where a second pass settled all)."""
        n = self.grid.size
        cells = values_of(_near(self.board, sum(1 << i for i in self.areas[k])))
        return cells + [n + i for i in cells]

    @property
    def sea_size(self) -> int | None:
        """How many cells the sea has (`sea_size`), or None."""
        return sea_size(self.grid.size, self.clues)

    @property
    def thin(self) -> bool:
        """Whether the sea is known to be thin (`thin_sea`) and not empty."""
        size = self.sea_size
        return size is not None and 1 <= size and thin_sea(size, self.grid.size)


class _SeaSize:
    """The sea's size, known when every clue has a number (the cells the islands do not
    take): more sea cells is a contradiction; with all of them, the undecided cells are
    land; with only as many undecided and sea cells as it needs, they are all sea."""

    __slots__ = ("n", "size", "sea")

    def __init__(self, n: int, size: int, sea: int) -> None:
        self.n, self.size, self.sea = n, size, sea

    def __call__(self, store: Store) -> None:
        cells = store.dom[:self.n]
        seas, open_ = cells.count(self.sea), cells.count(UNDECIDED)
        if seas > self.size or seas + open_ < self.size:
            raise Contradiction
        if open_ and (seas == self.size or seas + open_ == self.size):
            value = self.sea ^ UNDECIDED if seas == self.size else self.sea
            for i, m in enumerate(cells):
                if m == UNDECIDED:
                    store.restrict(i, value)


def sea_size(cells: int, clues: Iterable[tuple[int, int | None]]) -> int | None:
    """How many of a grid's `cells` are sea in every solution: those the islands of the
    `clues` ((cell, number or None) pairs) do not take; None when a clue has no number."""
    numbers = [number for _, number in clues]
    if None in numbers:
        return None
    return cells - sum(numbers)


def thin_sea(size: int, cells: int) -> bool:
    """Whether a sea of `size` cells in a grid of `cells` is thin: a third of the grid at
    most (the giant-island puzzles; a usual sea is about half the grid). Where the
    sea's reach applies here, and where the encodings state the sea's size and connect
    it by layers."""
    return 3 * size <= cells


class _SeaReach:
    """A thin sea's reach: its `size` cells are connected, and every clue has a number.

    - The regions: the sea known so far parts the other cells (land and undecided)
      into connected regions, and each region's cells end as its islands' land or as
      sea, so a region holds exactly its cells less its clues' numbers of sea cells
      still to place: fewer cells than its numbers is a contradiction.
    - The reach: a sea cell not yet known joins the known ones through new sea cells
      of its own region (none of them land), itself included, so an undecided cell
      farther from every known sea cell than its region has sea cells to place is land.
    - The groups: each group of known sea cells joins another through cells not yet
      known, so it reaches one within the sea cells left plus one step, or the state
      is a contradiction.

    Why by regions and what is left, not from one sea cell by the whole size: the
    search grows a thin sea from its edge, and as it grows, and parts the grid, the
    budgets shrink, so the bounds tighten at every node. On 1030_32x32 of the
    janko.at corpus (a 32x32 grid, 10 sea cells) `hand --unique` went from 3092
    nodes in about 200 s to 442 nodes in about 22 s (304 nodes in 19 s with the reach
    from every known cell but without the regions: the search's shape follows what
    probing finds, so a stronger rule need not make a smaller tree).
    Why only a thin sea (a third of the grid at most, the giant-island puzzles): there
    the bounds are short and cut the grid down at once; a usual sea, half the grid,
    reaches everywhere, and the run would cost passes over the grid for nothing."""

    __slots__ = ("n", "size", "sea", "land", "board", "clues")

    def __init__(self, n: int, size: int, sea: int, board: Bitboard,
                 clues: Sequence[tuple[int, int | None]]) -> None:
        self.n, self.size, self.sea, self.land = n, size, sea, sea ^ UNDECIDED
        self.board = board
        # (the clue's cell as a set of cells, its number): every number is known here.
        self.clues = [(1 << cell, number or 0) for cell, number in clues]

    def __call__(self, store: Store) -> None:
        cells = store.dom[:self.n]
        sea, land = self.sea, self.land
        known = open_ = 0
        for i, m in enumerate(cells):
            if m != land:
                open_ |= 1 << i
                if m == sea:
                    known |= 1 << i
        if not known:
            return  # no sea cell yet
        left = self.size - known.bit_count()
        if left < 0:
            raise Contradiction
        board = self.board
        reach = 0
        for region in board.groups(board.full & ~known):  # parted by the known sea
            budget = region.bit_count() - sum(number for bit, number in self.clues
                                              if bit & region)
            if budget < 0:
                raise Contradiction  # its islands do not fit in it
            reach |= board.flood(known, region | known, budget)
        for i in values_of(open_ & ~reach):
            store.restrict(i, land)
        rest = known
        while rest:
            group = board.flood(rest & -rest, known)
            if group == known:
                break  # one group: nothing to join
            if not board.flood(group, open_, left + 1) & (known & ~group):
                raise Contradiction  # it cannot join the others with the cells left
            rest &= ~group


@functools.lru_cache(maxsize=4096)
def most_edges(cells: int, width: int, height: int, least: tuple[int, int] = (1, 1)
               ) -> int | None:
    """The most pairs of side-by-side cells a connected set of `cells` cells can hold
    when it spans at most `width` columns and `height` rows, and at least `least`
    (columns, rows); None when it cannot fit.

    Why: a set spanning c columns and r rows has at least two boundary sides per row
    and per column, so its perimeter is at least 2(c + r); each pair of side-by-side
    cells hides two of the 4 * cells sides, so it holds at most 2 * cells - (c + r)
    pairs, and c * r >= cells. Unbounded, the least c + r is the ceiling of
    2 sqrt(cells) (Harary and Harborth's most edges of a polyomino).

    >>> most_edges(36, 10, 10), most_edges(8, 10, 10), most_edges(8, 2, 10), most_edges(9, 2, 4)
    (60, 10, 10, None)
    """
    best = None
    low_c, low_r = least
    for c in range(max(1, low_c), width + 1):
        r = max(low_r, -(-cells // c))
        if r <= height and (best is None or c + r < best):
            best = c + r
    return None if best is None else 2 * cells - best


class _EdgeBudget:
    """The sea's edge budget: its islands are compact, so the sea touches the grid's
    edge and closes loops only so often (every clue numbered).

    Count the pairs of side-by-side cells. Each is sea-sea, land-land (one island)
    or sea-land, and each sea cell has 4 sides less those on the grid's edge, so
    land-land pairs = all pairs - 4 S + B + E, with S sea cells, B their sides on the
    edge and E the sea-sea pairs. The sea is connected: E = S - 1 + L, L its
    independent loops. Each island holds at most `most_edges` land-land pairs,
    fewer when the cells it may still take span few rows or columns, or its known
    cells many. So B + L <= the islands' most pairs - all pairs + 3 S + 1 (the
    slack). What the state already spends:

    - L: the known sea's own loops (a loop stays a loop as the sea grows);
    - B, along the edge: walk the ring of edge cells. Between two land cells of
      different islands (each known to be its island's), some cell of the ring is
      sea, or the two would join; so each stretch of the ring between such cells
      spends at least one side, and each stretch at least the sides of its known
      sea cells.

    More than the slack is a contradiction; an undecided cell whose shading would
    spend more than is left (its sides on the edge beyond what its stretch spends
    already, plus its known sea neighbours beyond one per group) is land; and a
    cell that would widen an island's known land to a span whose most pairs fall
    by more than is left is not its own (`_confine`).

    Why: the giant-island puzzles are an isoperimetric argument. On 753_10x10 of the
    janko.at corpus (an 8, a 30, a 28 and a 15 in the corners of a 10x10, 19 sea
    cells) the slack is 4: the sea's cross meets the edge four times, between the
    islands, with no loop, and every island is a rectangle. `hand --unique` proves it
    in about 4 s (280 nodes; 482 without `_confine`); without this rule a search of
    74,196 nodes did not in 1200 s, and without the stretches along the edge it took
    15,780 nodes. A usual sea, half the grid around many small islands, has a slack
    far beyond what it spends, so the rule runs only where the slack is at most
    `EDGE_SLACK`.
    """

    __slots__ = ("n", "sea", "land", "nbrs", "edge", "size", "pairs", "numbers", "rows",
                 "cols", "ring")

    def __init__(self, grid: Grid, sea: int, clues: Sequence[tuple[int, int | None]],
                 size: int) -> None:
        self.n, self.sea, self.land = grid.size, sea, sea ^ UNDECIDED
        self.nbrs = grid.neighbours
        self.edge = [4 - len(w) for w in grid.neighbours]  # a cell's sides on the edge
        self.size = size  # the sea's cells
        rows, cols = self.rows, self.cols = grid.rows, grid.cols
        self.pairs = 2 * rows * cols - rows - cols
        self.numbers = [number or 0 for _, number in clues]  # every number is known here
        # The edge cells in order around the grid, each beside the next (None on a grid
        # one cell thin, whose edge is no ring).
        self.ring = None if rows < 2 or cols < 2 else (
            list(range(cols)) + [r * cols + cols - 1 for r in range(1, rows)]
            + [(rows - 1) * cols + c for c in range(cols - 2, -1, -1)]
            + [r * cols for r in range(rows - 2, 0, -1)])

    def slack(self, dom: Sequence[int] | None = None) -> int | None:
        """B + L's bound for the islands' spans in `dom` (None: the whole grid), or None
        when an island cannot fit in the cells it may take."""
        mosts = self._mosts(None if dom is None else self._masks(dom))
        return None if mosts is None else self._slack(mosts)

    def _slack(self, mosts: Sequence[int]) -> int:
        """B + L's bound when the islands hold at most `mosts` pairs each."""
        return sum(mosts) - self.pairs + 3 * self.size + 1

    def _mosts(self, masks: _Masks | None) -> list[int] | None:
        """Each island's most pairs (`most_edges`) within the spans of `masks` (None: the
        whole grid), or None when one cannot fit."""
        mosts = []
        for k, number in enumerate(self.numbers):
            if masks is None:
                most = most_edges(number, self.cols, self.rows)
            else:
                may_cols, may_rows, known_cols, known_rows = masks[k]
                most = most_edges(number, span_of(may_cols), span_of(may_rows),
                                  (span_of(known_cols) or 1, span_of(known_rows) or 1))
            if most is None:
                return None
            mosts.append(most)
        return mosts

    def _masks(self, dom: Sequence[int]) -> _Masks:
        """Per island, as bit sets of columns and rows: those of the cells it may take,
        then those of its known land (the cells only it may take: land, by the link)."""
        count = len(self.numbers)
        rows, cols = self._labels(dom)
        may_cols, known_cols = _lines(cols, count)
        may_rows, known_rows = _lines(rows, count)
        return list(zip(may_cols, may_rows, known_cols, known_rows, strict=True))

    def _labels(self, dom: Sequence[int]) -> tuple[list[set[int]], list[set[int]]]:
        """The distinct labels of each row and of each column. Why: sets built by C
        code from slices are far cheaper than a pass over the cells in Python, and the
        rule runs at every probe's fixpoint (on 1030_32x32, 11,000 times)."""
        n, rows, cols = self.n, self.rows, self.cols
        return ([set(dom[n + r * cols:n + (r + 1) * cols]) for r in range(rows)],
                [set(dom[n + c:2 * n:cols]) for c in range(cols)])

    def __call__(self, store: Store) -> None:
        dom = store.dom
        masks = self._masks(dom)
        mosts = self._mosts(masks)
        if mosts is None:
            raise Contradiction  # an island does not fit in the cells it may take
        slack = self._slack(mosts)
        n, sea, nbrs, edge = self.n, self.sea, self.nbrs, self.edge
        group: dict[int, int] = {}  # known sea cell -> its group
        loops = 0
        # Why `find` on the cells as bytes: it skips the other cells in C.
        cells = bytes(dom[:n])
        i = -1
        while (i := cells.find(sea, i + 1)) >= 0:
            if i in group:
                continue
            group[i] = i
            queue, pairs = [i], 0
            for v in queue:
                for w in nbrs[v]:
                    if dom[w] == sea:
                        pairs += 1
                        if w not in group:
                            group[w] = i
                            queue.append(w)
            loops += pairs // 2 - len(queue) + 1
        stretch: dict[int, tuple[int, int]] = {}  # edge cell -> (sides needed, known)
        left = slack - loops - self._edge_sides(dom, stretch)
        if left < 0:
            raise Contradiction
        self._confine(store, masks, mosts, left)
        if left >= 3:
            return  # a cell spends at most 3 (two sides on the edge and a loop, 3 loops)
        u = -1
        while (u := cells.find(UNDECIDED, u + 1)) >= 0:
            cost = 0
            if u in stretch:
                need, known = stretch[u]
                cost = max(need, known + edge[u]) - max(need, known)
            if cost <= left:
                met = [group[w] for w in nbrs[u] if w in group]
                cost += len(met) - len(set(met))
            if cost > left:
                store.restrict(u, self.land)

    def _confine(self, store: Store, masks: _Masks, mosts: Sequence[int], left: int) -> None:
        """An island's cell that would widen its known land's span so far that its most
        pairs fall by more than `left` is not its own.

        Why sound: the island's final cells hold its known land and that cell, so they
        span at least the columns and rows of both, and the sea then spends what it
        spends now, more than the slack that span leaves. It holds a compact island to
        the boxes its number fills with room to spare: once nothing is left, to the
        boxes it fills exactly (753_10x10's four rectangles: 482 nodes to 280)."""
        dom, n, cols = store.dom, self.n, self.cols
        for k, (may_cols, may_rows, known_cols, known_rows) in enumerate(masks):
            if not known_cols:
                continue  # no known land: any cell could be its first
            number, width, height = self.numbers[k], span_of(may_cols), span_of(may_rows)
            floor = mosts[k] - left  # the fewest most pairs the island may fall to
            if (most_edges(number, width, height, (width, height)) or 0) >= floor:
                continue  # not even its widest span costs more than is left
            bit = 2 << k  # its label's value
            # A cell widens the columns to its own with the known land's, and the rows
            # likewise; `most_edges` falls as either span grows, so each row span keeps
            # the columns up to a widest span (`_widest`), an interval around the known
            # columns: only the cells beyond it are visited.
            low, high = (known_cols & -known_cols).bit_length() - 1, known_cols.bit_length() - 1
            for r in values_of(may_rows):
                most_cols = _widest(number, width, height, span_of(known_rows | 1 << r), floor)
                kept = 0
                if most_cols > high - low:
                    kept = (1 << low + most_cols) - (1 << max(0, high - most_cols + 1))
                at = n + r * cols
                for c in values_of(may_cols & ~kept):
                    if dom[at + c] & bit:
                        store.restrict(at + c, ~bit)

    def _edge_sides(self, dom: Sequence[int], stretch: dict[int, tuple[int, int]]) -> int:
        """The sides on the edge the sea spends at least (the class docstring); fills
        `stretch` with each undecided edge cell's (sides its stretch needs, sides its
        known sea has). Contradiction when two islands meet along the edge."""
        sea, land, edge, n = self.sea, self.land, self.edge, self.n
        ring = self.ring
        if ring is None:
            return sum(edge[v] for v in range(n) if dom[v] == sea)
        # The edge cells known to be one island's land, as (place on the ring, island).
        marks = []
        for at, v in enumerate(ring):
            label = dom[n + v]
            if dom[v] == land and not label & (label - 1):
                marks.append((at, label))
        # The stretches of the ring between them, each with the sides it needs: one
        # between two islands. Without marks, one stretch all the way round.
        stretches = [(ring, 0)] if not marks else []
        size = len(ring)
        for j, (at, island) in enumerate(marks):
            end, other = marks[(j + 1) % len(marks)]
            if end <= at:
                end += size
            stretches.append(([ring[(at + step) % size] for step in range(1, end - at)],
                              int(island != other)))
        spent = 0
        for cells, need in stretches:
            if need and not cells:
                raise Contradiction  # two islands side by side on the edge
            known = sum(edge[v] for v in cells if dom[v] == sea)
            spent += max(need, known)
            for v in cells:
                if dom[v] == UNDECIDED:
                    stretch[v] = (need, known)
        return spent


@functools.lru_cache(maxsize=4096)
def _widest(number: int, width: int, height: int, rows: int, floor: int) -> int:
    """The most columns an island of `number` cells within `width` x `height` may span
    when it spans `rows` rows at least and holds `floor` pairs or more (`most_edges`);
    0 when no span of columns does."""
    widest = 0
    for span in range(1, width + 1):
        most = most_edges(number, width, height, (span, rows))
        if most is None or most < floor:
            break  # wider holds fewer pairs still
        widest = span
    return widest


def _lines(labels: Sequence[set[int]], count: int) -> tuple[list[int], list[int]]:
    """Per island of `count`: the lines (as bits, line i bit i) holding a label with its
    value, and those holding a label of its value alone; from each line's distinct
    labels (few: a line meets few islands)."""
    may, known = [0] * count, [0] * count
    for at, line in enumerate(labels):
        line_bit = 1 << at
        for k in _islands(functools.reduce(operator.or_, line)):
            may[k] |= line_bit
            if 2 << k in line:  # a cell only island k may take
                known[k] |= line_bit
    return may, known


@functools.lru_cache(maxsize=4096)
def _islands(label: int) -> tuple[int, ...]:
    """The islands a label's value holds (sea left out), as their clue indices."""
    return tuple(v - 1 for v in values_of(label >> 1 << 1))


class _Link:
    """One cell and its label: sea iff label 0; a land cell's neighbours may only be sea
    or of its islands."""

    __slots__ = ("i", "label", "nbrs", "land", "sea")

    def __init__(self, i: int, n: int, nbrs: Sequence[int], land: int) -> None:
        self.i, self.label, self.land, self.sea = i, n + i, land, land ^ UNDECIDED
        self.nbrs = tuple(n + w for w in nbrs)

    def __call__(self, store: Store) -> None:
        dom, i, label = store.dom, self.i, self.label
        m, owners = dom[i], dom[label]
        if m == UNDECIDED:
            if owners == SEA_LABEL:
                store.restrict(i, self.sea)
            elif not owners & SEA_LABEL:
                store.restrict(i, self.land)
            return
        if m == self.sea:
            store.restrict(label, SEA_LABEL)
            return
        if owners & SEA_LABEL:
            store.restrict(label, ~SEA_LABEL)
            owners = dom[label]
        allowed = owners | SEA_LABEL
        for w in self.nbrs:
            if dom[w] & ~allowed:
                store.restrict(w, allowed)


class _Region:
    """What one island's rules read: its land part and its reach, for one state."""

    __slots__ = ("part", "reach", "owned", "labelled", "_cells")

    def __init__(self, part: list[int], reach: int, owned: list[int], labelled: int) -> None:
        self.part = part          # the land cells joined to the clue, the clue first
        self.reach = reach        # the cells it can reach, as a `Bitboard` integer
        self.owned = owned        # land cells outside the part only this island may own
        self.labelled = labelled  # the cells that may still be its own (their label)
        self._cells: list[int] | None = None

    @property
    def cells(self) -> list[int]:
        """The cells it can reach, the part first (the clue first), then ascending; made
        when asked (most runs need only `reach`)."""
        if self._cells is None:
            inside = set(self.part)
            self._cells = self.part + [v for v in values_of(self.reach) if v not in inside]
        return self._cells


class _Island:
    """The bounds, `reach` and `cuts` of the island of clue `k`; module docstring."""

    __slots__ = ("n", "k", "bit", "cell", "number", "area", "nbrs", "land", "sea",
                 "reach", "cuts", "cache", "lowlink", "survey", "parts", "since")

    def __init__(self, islands: Islands, k: int, cell: int, number: int | None,
                 survey: _Survey, parts: _Part) -> None:
        self.survey, self.parts = survey, parts
        self.n = islands.grid.size
        self.k, self.bit, self.cell, self.number = k, 2 << k, cell, number
        self.area = islands.areas[k]
        self.nbrs = islands.grid.neighbours
        self.lowlink = islands.lowlink
        self.land, self.sea = islands.land, islands.sea
        self.reach = "reach" in islands.techniques
        self.cuts = "cuts" in islands.techniques
        self.cache: dict[tuple, list[int]] = {}
        self.since = Since()  # its last run in the current line of the search (`_news`)

    def __call__(self, store: Store) -> None:
        if self.reach and not self._news(store):
            return
        dom, n, bit = store.dom, self.n, self.bit
        part, inside = self.parts(dom)
        for v in part:
            if dom[n + v] != bit:
                store.restrict(n + v, bit)  # Contradiction when it holds another clue
        room = None if self.number is None else self.number - len(part)
        if room is not None and room < 0:
            raise Contradiction  # the island is too large
        if room == 0:  # complete: no other cell is the island's
            for v in self.area:
                if dom[n + v] & bit and v not in inside:
                    store.restrict(n + v, ~bit)
            return
        self._overfill(store, len(part), inside)
        if not self.reach:
            self._closed(store, part)
            return
        region = self.survey(store, part, self.parts.mask(), room)
        if room is not None and (len(part) + len(region.owned) > self.number
                                 or region.reach.bit_count() < self.number):
            raise Contradiction  # too much land it must take in, or too few cells to reach
        for v in values_of(region.labelled & ~region.reach):
            store.restrict(n + v, ~bit)  # out of reach (Contradiction for its own land)
        if self.cuts:
            for v in self._needed(region):
                store.restrict(n + v, bit)

    def _news(self, store: Store) -> bool:
        """Whether anything changed since its last run, in this line of the search, that
        a run reads: a label that held the island (its reach, land and completion), or a
        cell whose label holds it. Marks this run's start when so (its own narrowings
        are news for the next run: a run is not always its own fixpoint).

        Why the rest is no news (with `reach`; without it, `_closed` reads the
        neighbours of any land its label holds, so every run goes on): the cells a run
        reads are those its label may hold and the land beside them, and land beside
        land of its label narrows that label (the link rules, which run first at a lower
        priority). A big island's area watches most of the grid, and most changes there
        are other islands' (1108_20x15 of the janko.at corpus: seven runs in ten)."""
        changes = self.since.changes(store)
        # This run's start; with no news, where the next run counts changes from.
        self.since.mark(store)
        if changes is None:
            return True
        n, bit, dom = self.n, self.bit, store.dom
        for v, before in changes:
            if before & bit if v >= n else dom[n + v] & bit:
                return True
        return False

    def _closed(self, store: Store, part: list[int]) -> None:
        """Without `reach`, what a decided grid needs checked: an incomplete island walled
        in by sea is a contradiction, and land walled in without it is not its own."""
        dom, nbrs, land, n, bit = store.dom, self.nbrs, self.land, self.n, self.bit
        if self.number is not None and not any(dom[w] == UNDECIDED for v in part
                                               for w in nbrs[v]):
            raise Contradiction
        seen = set(part)
        for v in self.area:
            if v in seen or dom[v] != land or not dom[n + v] & bit:
                continue
            other = land_part(dom, nbrs, land, v)[0]
            seen.update(other)
            if not any(dom[w] == UNDECIDED for x in other for w in nbrs[x]):
                for x in other:
                    store.restrict(n + x, ~bit)

    def _overfill(self, store: Store, size: int, inside: set[int]) -> None:
        """A neighbour that would merge too much land into the island (its land part:
        `size` cells, `inside`) is not its own."""
        if self.number is None:
            return
        dom, nbrs, land, n, bit = store.dom, self.nbrs, self.land, self.n, self.bit
        others: dict[int, tuple[int, int]] = {}  # land cell -> (its part's first cell, size)
        for w in self.parts.beside():
            if dom[w] != UNDECIDED or not dom[n + w] & bit:
                continue
            merged, joined = size + 1, set()
            for x in nbrs[w]:
                if x in inside or dom[x] != land:
                    continue
                other = others.get(x)
                if other is None:  # a land part found once per run, however many it touches
                    cells = land_part(dom, nbrs, land, x)[0]
                    other = (x, len(cells))
                    others.update(dict.fromkeys(cells, other))
                if other[0] not in joined:
                    joined.add(other[0])
                    merged += other[1]
            if merged > self.number:
                store.restrict(n + w, ~bit)

    def _needed(self, region: _Region) -> list[int]:
        """The cells it cannot do without (cached per region): all it reaches when they
        are just its number (fewer, the caller found a contradiction), else
        `needed_cells`."""
        key = (region.reach, tuple(region.owned))
        needed = self.cache.get(key)
        if needed is None:
            if self.number == region.reach.bit_count():
                needed = region.cells
            else:
                needed = needed_cells(self.lowlink, region.reach, self.cell, self.number,
                                      region.owned)
            _remember(self.cache, key, needed, _CACHE)
        return needed


class _Part:
    """The land cells joined to one clue, breadth first from it (a list, and a set), and
    on demand its rim (`beside`).

    Kept between runs while no land near it changed: a giant island's part is most
    of the grid (1030_32x32: 994 cells), and its breadth-first search was a fifth
    of a run of its rules; most runs follow a trial that shaded a cell, or changed
    labels only. Why that suffices: the part is what land connects to the clue, so
    it changes only when a cell of it, or of its rim, becomes or stops being land.
    The changed cells come from `regions.changed_cells`, as for
    `regions.RegionConnected`'s check of its own runs. A part
    under `_KEPT_PART` cells is searched again each time: cheaper than the check."""

    __slots__ = ("n", "cell", "nbrs", "land", "seen", "kept", "rim", "bits")

    def __init__(self, islands: Islands, cell: int) -> None:
        self.n, self.cell, self.nbrs, self.land = (islands.grid.size, cell,
                                                   islands.grid.neighbours, islands.land)
        self.seen: tuple[bytes, int] | None = None  # cells whose part `kept` is
        self.kept: tuple[list[int], set[int]] = ([], set())
        self.rim: list[int] | None = None  # `beside` of `kept`, once asked
        self.bits: int | None = None  # `mask` of `kept`, once asked

    def __call__(self, dom: Sequence[int]) -> tuple[list[int], set[int]]:
        if len(self.kept[0]) >= _KEPT_PART and self._same(bytes(dom[:self.n])):
            return self.kept
        part, inside = land_part(dom, self.nbrs, self.land, self.cell)
        self.kept, self.rim, self.bits = (part, inside), None, None
        if len(part) >= _KEPT_PART:
            cells = bytes(dom[:self.n])
            self.seen = (cells, int.from_bytes(cells, "little"))
        return self.kept

    def mask(self) -> int:
        """The part last given as one integer (a `Bitboard` set)."""
        if self.bits is None:
            bits = 0
            for v in self.kept[0]:
                bits |= 1 << v
            self.bits = bits
        return self.bits

    def beside(self) -> list[int]:
        """The cells beside the part last given and not in it, in the order a pass over
        the part (in its order) meets them."""
        if self.rim is None:
            part, inside = self.kept
            met, rim = set(inside), []
            for v in part:
                for w in self.nbrs[v]:
                    if w not in met:
                        met.add(w)
                        rim.append(w)
            self.rim = rim
        return self.rim

    def _same(self, cells: bytes) -> bool:
        """Whether the part kept is the part of `cells` (the class docstring)."""
        if self.seen is None:
            return False
        before, packed = self.seen
        now = int.from_bytes(cells, "little")
        land = self.land
        inside, near = self.kept[1], None
        for i in changed_cells(packed, now):
            if cells[i] == land or before[i] == land:
                if near is None:
                    near = set(self.beside())
                if i in inside or i in near:
                    return False
        self.seen = (cells, now)  # the same part: later checks count changes from here
        return True


def land_part(dom: Sequence[int], nbrs: Sequence[Sequence[int]], land: int,
              start: int) -> tuple[list[int], set[int]]:
    """The land cells connected to land cell `start`, breadth first, and as a set."""
    part = [start]
    seen = {start}
    for v in part:
        for w in nbrs[v]:
            if w not in seen and dom[w] == land:
                seen.add(w)
                part.append(w)
    return part, seen


class _Cells:
    """The state as sets of cells (`Bitboard` integers), shared by every island's rules:
    the land, the sea, per island the cells its label holds (`labels[k]`), the cells any
    island may own, those two or more may, and those whose label holds the sea.

    Why: an island's rules ask these of the cells near it at every run, and read cell
    by cell they cost a pass in Python each time (the shapes' key, the survey's sets);
    kept, each is one operation on integers. Kept up to date from the trail: the sets
    of the last state met in the current line of the search (`propagate.Since`) and the
    cells changed since, each once, as a domain only narrows within a line (land and
    sea only grow, the labels' sets only shrink); a state with no such mark (a new
    line) is read whole.
    """

    __slots__ = ("n", "land", "sea", "count", "since")

    def __init__(self, islands: Islands) -> None:
        self.n, self.land, self.sea = islands.grid.size, islands.land, islands.sea
        self.count = len(islands.clues)
        self.since = Since()  # noted with the sets of the state it marks

    def __call__(self, store: Store) -> tuple[int, int, list[int], int, int, int]:
        """(land, sea, the label sets, any island's, two islands' or more, the sea's
        labels) of the store's state."""
        since = self.since
        changes = since.changes(store)
        if changes is None:
            sets = self._read(store.dom)
        elif changes:
            sets = self._update(store.dom, since.note, changes)
        else:
            return since.note
        since.mark(store, sets)
        return sets

    def _read(self, dom: Sequence[int]) -> tuple[int, int, list[int], int, int, int]:
        """The sets of `dom`, cell by cell."""
        n, land, sea = self.n, self.land, self.sea
        lands = seas = anys = multi = sealed = 0
        labels = [0] * self.count
        for v in range(n):
            one, m, label = 1 << v, dom[v], dom[n + v]
            if m == land:
                lands |= one
            elif m == sea:
                seas |= one
            if label & SEA_LABEL:
                sealed |= one
            owners = label >> 1
            if owners:
                anys |= one
                if owners & (owners - 1):
                    multi |= one
                for k in values_of(owners):
                    labels[k] |= one
        return lands, seas, labels, anys, multi, sealed

    def _update(self, dom: Sequence[int], sets: tuple[int, int, list[int], int, int, int],
                changes: list[tuple[int, int]]) -> tuple[int, int, list[int], int, int, int]:
        """`sets` of the marked state, updated by the trail entries since (each variable's
        first entry holds its domain there)."""
        n, land, sea = self.n, self.land, self.sea
        lands, seas, labels, anys, multi, sealed = sets
        first: dict[int, int] = {}
        for v, before in changes:
            first.setdefault(v, before)
        copied = False
        for v, before in first.items():
            now = dom[v]
            if v < n:
                if now == land:
                    lands |= 1 << v
                elif now == sea:
                    seas |= 1 << v
                continue
            one = 1 << (v - n)
            if not now & SEA_LABEL:
                sealed &= ~one
            owners = now >> 1
            if not owners & (owners - 1):
                multi &= ~one
                if not owners:
                    anys &= ~one
            lost = (before & ~now) >> 1
            if lost:
                if not copied:
                    labels, copied = list(labels), True
                for k in values_of(lost):
                    labels[k] &= ~one
        return lands, seas, labels, anys, multi, sealed


class _Survey:
    """Where the island of label `bit` (its cells may lie in `area`) can reach, for one
    state: `_Region`s kept per state of what the survey reads, shared by the island's
    bounds and its shapes (both ask, often of the same state).

    The reach: through cells labelled with `bit`, an undecided one for one cell, a
    land part without the clue whole for its size (all its cells must be labelled
    `bit`), within `room` cells (None: any). A bucket queue, costs being small
    integers, of `Bitboard` integers: a bucket's cells step to their neighbours at
    once.

    Why kept: probing and the lookahead wake an island at every trial near it, and
    most trials leave what it reads as it was (on 688_20x20, four surveys in five
    met a state already surveyed). What it reads, and so the key: its land part
    and room, the cells labelled `bit` (which of them are land, which only its
    own) and the land beside those land cells (another island's, which an orphan
    part may not touch). A few integers, each an operation on the state's sets of cells
    (`_Cells`); at most `_SURVEYS` regions are kept, then the cache starts afresh.
    """

    __slots__ = ("k", "board", "cache", "cells")

    def __init__(self, islands: Islands, k: int, cells: _Cells) -> None:
        self.k, self.board, self.cells = k, islands.board, cells
        self.cache: dict[tuple[int, ...], _Region] = {}

    def __call__(self, store: Store, part: list[int], start: int, room: int | None
                 ) -> _Region:
        """The region of the island whose land `part` is `start` as a set."""
        land, _, labels, _, multi, sealed = self.cells(store)
        labelled = labels[self.k]
        lands = labelled & land  # its land
        exact = lands & ~multi & ~sealed  # of which only it may own
        rim = self.board.around(lands) & land  # land beside it, not labelled (or beyond)
        key = (start, -1 if room is None else room, labelled, lands, exact, rim)
        region = self.cache.get(key)
        if region is None:
            reach = self._reach(start, len(store.dom) if room is None else room, labelled,
                                lands, rim)
            owned = reach & exact & ~start
            region = _Region(part, reach, values_of(owned) if owned else [], labelled)
            _remember(self.cache, key, region, _SURVEYS)
        return region

    def _reach(self, start: int, budget: int, labelled: int, lands: int, rim: int) -> int:
        """The cells reached from `start` within `budget` cells; the class docstring."""
        board = self.board
        reach = 0
        pending = {0: start}
        while pending:
            d = min(pending)
            cells = pending.pop(d) & ~reach
            if not cells:
                continue
            reach |= cells
            if d == budget:
                continue
            beside = board.around(cells) & labelled & ~reach
            step = beside & ~lands
            if step:
                pending[d + 1] = pending.get(d + 1, 0) | step
            touched = beside & lands
            while touched:
                orphan = board.flood(touched & -touched, lands)
                touched &= ~orphan
                # Entered whole, and only when all its land is labelled `bit`: no land of
                # another label beside the part of it labelled so.
                nd = d + orphan.bit_count()
                if nd <= budget and not board.around(orphan) & rim:
                    pending[nd] = pending.get(nd, 0) | orphan
        return reach


def needed_cells(lowlink: LowLink, region: int, root: int, number: int | None,
                 owned: Sequence[int]) -> list[int]:
    """The cells of a region (`region`, a `Bitboard` integer holding `root`, the clue) an
    island of `number` cells (None: any) in it cannot do without, ascending: those whose
    loss leaves fewer than `number` cells on the clue's side, or cuts an `owned` cell
    off from it. `lowlink` searches the whole grid's graph, the cells outside the region
    blocked (cheaper than a graph of the region's own, built per call)."""
    total = region.bit_count()
    state = flags_of(region, len(lowlink.neighbours))  # 0: outside, 1: the region, 2: owned
    needed = set()
    if number is not None:
        for v in lowlink.run(state, root, blocked=0, marked=1):
            if total - 1 - lowlink.cut_off(v) < number:
                needed.add(v)
    if owned:
        for v in owned:
            state[v] = 2
        needed.update(lowlink.run(state, root, blocked=0, marked=2))
    return sorted(needed)


def _near(board: Bitboard, cells: int, beside: int | None = None) -> int:
    """The cells near `cells`: they, those beside them, and the 2x2 blocks holding any
    of these (what an island's shapes read around its reach, and watch around its
    area). `beside`: `board.around(cells)` when the caller has it already (a candidate
    completion's ring, `_Shapes._pocket`)."""
    around = cells | (board.around(cells) if beside is None else beside)
    return board.block_cells(board.touching(around)) | around


class _TooMany(Exception):
    """An island's completions take more than the enumeration's step limit."""


class _Shapes:
    """Every completion of the island of clue `k`, while there are few; module docstring."""

    __slots__ = ("n", "k", "bit", "cell", "number", "neighbour_bits", "board", "cells",
                 "cache", "limit", "leaves", "maxroom", "trial", "trial_room", "survey",
                 "parts", "bases", "crowded", "least_sea", "since", "pockets")

    def __init__(self, islands: Islands, k: int, cell: int, number: int,
                 survey: _Survey, parts: _Part, cells: _Cells,
                 trial: Callable[[], bool]) -> None:
        self.survey, self.parts, self.cells = survey, parts, cells
        self.trial, self.trial_room = trial, islands.trial_room
        grid = islands.grid
        self.n, self.k, self.bit, self.cell, self.number = grid.size, k, 2 << k, cell, number
        self.neighbour_bits = islands.neighbour_bits  # each cell's neighbours, one integer
        self.board = islands.board
        # The sea's cells in every solution (0 when a clue has no number; `_pocket`)
        self.least_sea = islands.sea_size or 0
        self.cache: dict[tuple, tuple[list[int], list[int], set[int]] | None] = {}
        self.pockets: dict[tuple[int, int, int], bool] = {}  # `_pocket`'s answers
        self.limit, self.leaves, self.maxroom = SHAPE_NODES, SHAPE_LEAVES, SHAPE_ROOM
        # (part, reach, its candidate sets) of the last `_BASES` enumerations that
        # finished, the latest first (`_candidates`)
        self.bases: deque[tuple[int, int, list[tuple[int, int]]]] = deque(maxlen=_BASES)
        # (part, reach) of the last `_BASES` enumerations that ran past the limits
        self.crowded: deque[tuple[int, int]] = deque(maxlen=_BASES)
        # Its last run in the current line of the search, noted with the cells it read
        # (`_news`)
        self.since = Since()

    def __call__(self, store: Store) -> None:
        if not self._news(store):
            return
        dom, n, bit = store.dom, self.n, self.bit
        part = self.parts(dom)[0]
        room = self.number - len(part)
        if room <= 0 or room > self.maxroom:
            return  # complete (or too large): the island's bounds say what follows
        if room > self.trial_room and self.trial():
            return  # it sits probing's trials out (`Islands`' `trial_room`)
        region = self.survey(store, part, self.parts.mask(), room)
        near = _near(self.board, region.reach)
        self.since.mark(store, near)  # what this run reads: before its own narrowings
        found = self._completions(store, region, near)
        if found is None:
            return
        inside, beside, union = found
        for v in inside:
            # Land too, whose label may still hold another island (an orphan part): a
            # cell in every completion is its own, whatever it is now.
            if dom[n + v] != bit:
                store.restrict(n + v, bit)
        for v in beside:
            store.restrict(n + v, SEA_LABEL)
        for v in region.cells:
            if v not in union:
                store.restrict(n + v, ~bit)

    def _news(self, store: Store) -> bool:
        """Whether a run may find anything its last run in this line of the search did
        not: a cell near what that run read (`_near`), or its label, changed since. Marks
        this run's start (its `near` is noted once known).

        Why the rest is no news: a run reads its land part, its reach and the cells near
        the reach, nothing else (`_completions`' key); the part grows only through cells
        beside it, and the reach shrinks only through cells of it or beside it, all of
        them near. A large island's area is most of the grid, and most changes there are
        far from the few cells it still needs."""
        since, n = self.since, self.n
        changes = since.changes(store)
        near = since.note
        since.mark(store)
        if changes is None or near is None:
            return True
        for v, _ in changes:
            if near >> (v - n if v >= n else v) & 1:
                return True
        since.mark(store, near)  # the same cells read: the next run counts from here
        return False

    def _completions(self, store: Store, region: _Region, near: int
                     ) -> tuple[list[int], list[int], set[int]] | None:
        """(cells in every completion, undecided cells beside every one, the cells of
        any one), or None past the step limit; Contradiction when there is none. What
        the key holds decides it, so a result kept is the one a run would find. `near`:
        the cells near its reach (`_near`)."""
        board = self.board
        reach = region.reach
        # What each cell near is and whether the island may take it.
        land, sea, labels, anys, multi, _ = self.cells(store)
        own = labels[self.k]
        lands, seas_, labelled = land & near, sea & near, own & near
        solo = near & (~anys | own & ~multi)  # no other island may take it
        # The 2x2 blocks holding a cell it reaches, with no land and no other island to
        # take a cell of them: it must take one, or the block is all sea.
        musts = board.blocks(solo & ~lands) & board.touching(reach)
        # Why this key: a completion's checks read the region, the cells near it (their
        # state and whether the island may take them), the land only it may own, and
        # the sea's size (`_pocket`, fixed); nothing else, so a state met again (in probing
        # or search) gets the same answer.
        key = (reach, lands, seas_, labelled, tuple(region.owned), musts)
        if key in self.cache:
            found = self.cache[key]
        else:
            try:
                found = self._enumerate(region, musts, near, lands, seas_)
            except _TooMany:
                found = None
            _remember(self.cache, key, found, _CACHE)
        if found is not None and not found[2]:
            raise Contradiction  # no way to complete the island
        return found

    def _enumerate(self, region: _Region, musts: int, near: int, lands: int, seas_: int
                   ) -> tuple[list[int], list[int], set[int]]:
        """The island's valid completions among its candidates (`_candidates`): those
        that hold the land only it may own and a cell of each block in `musts`
        (top-left cells), touch no other land, leave no pool and wall off no small
        pocket of sea, summed up. The checks read the cells `near` only (their `lands`
        and `seas_`) and the sea's size (`_pocket`); each is a few operations on
        `Bitboard` integers, as a completion is met thousands of times a second."""
        board = self.board
        opens = near & ~lands & ~seas_
        owned = sum(1 << v for v in region.owned)
        must_bits = [board.block_cells(1 << v) for v in values_of(musts)]
        # the summary, as cells: in every completion, beside every one, in any
        every = beside = union = 0
        found = False
        for bits, ring in self._candidates(region):
            if bits & owned != owned or any(not bits & block for block in must_bits):
                continue
            if ring & lands:
                continue
            walls = ring & opens
            if found and not (every & ~bits or beside & ~walls or bits & ~union):
                continue  # valid or not, it would change no part of the summary
            if (board.blocks(seas_ | walls) & board.touching(walls)
                    or self._pocket(bits, ring, lands, seas_)):
                continue
            if found:
                every, beside, union = every & bits, beside & walls, union | bits
            else:
                every, beside, union, found = bits, walls, bits, True
        if not found:
            return [], [], set()
        return values_of(every), values_of(beside), set(values_of(union))

    def _candidates(self, region: _Region) -> list[tuple[int, int]]:
        """The connected sets of the island's size that hold its part and lie in its
        reach, as `Bitboard` integers, each with the cells around it (`Bitboard.around`,
        found once per set grown: a set is checked in many states); `_TooMany` past the
        step or set limit.

        Why a base: the sets of a state whose part holds the base's part and whose
        reach lies in the base's reach are among the base's sets (each holds the base's
        part and lies in its reach), and they take no more steps to grow than the
        base's did (each step grows one of them). So when the base's enumeration
        finished, filtering its sets gives exactly what growing them again would, at a
        few operations each. Probing's and the lookahead's trials, and a search's
        children, are such states of the fixpoint they start from; a state that is not
        grows its sets afresh and becomes a base (the last `_BASES` are kept: the
        root's, a lookahead trial's, a node's). The same argument the other way round:
        a state whose part lies in the part, and whose reach holds the reach, of one
        whose enumeration ran past the limits runs past them too, so it is not grown
        again (on 756_15x15 of the janko.at corpus, 717 of the 794 enumerations that
        ran past them)."""
        part, reach = self.parts.mask(), region.reach
        # Of the bases that hold this state's sets, the one with the fewest to filter.
        best = None
        for base_part, base_reach, sets in self.bases:
            if (part & base_part == base_part and not reach & ~base_reach
                    and (best is None or len(sets) < len(best))):
                best = sets
        if best is not None:
            return [pair for pair in best if pair[0] & part == part and not pair[0] & ~reach]
        # A state no stronger than one whose enumeration ran past the limits runs past
        # them too: its sets and steps include that one's (the docstring's argument, the
        # other way round).
        for crowded_part, crowded_reach in self.crowded:
            if part & crowded_part == part and reach & crowded_reach == crowded_reach:
                raise _TooMany
        around = self.board.around
        try:
            sets = [(bits, around(bits)) for bits in self._grow(region, part)]
        except _TooMany:
            self.crowded.appendleft((part, reach))
            raise
        self.bases.appendleft((part, reach, sets))
        return sets

    def _grow(self, region: _Region, part: int) -> list[int]:
        """Redelmeier's enumeration of the connected sets of the island's size grown from
        its `part` within its reach, each met once; `_TooMany` past `limit` steps or
        `leaves` sets."""
        reach, beside, leaves, limit = region.reach, self.neighbour_bits, self.leaves, self.limit
        sets: list[int] = []
        steps = 0

        # Why sets of cells as integers: a step takes a cell out of the untried and adds
        # its new neighbours with a few operations on them, and each call gets its own
        # copies for free, where lists were copied and a set of seen cells put back.
        def grow(untried: int, seen: int, remaining: int, bits: int) -> None:
            nonlocal steps
            if remaining == 0:
                sets.append(bits)
                if len(sets) > leaves:
                    raise _TooMany
                return
            while untried:
                cell = untried & -untried
                untried ^= cell
                steps += 1
                if steps > limit:
                    raise _TooMany
                added = beside[cell.bit_length() - 1] & reach & ~seen
                grow(untried | added, seen | added, remaining - 1, bits | cell)

        first = self.board.around(part) & reach
        grow(first, part | first, self.number - len(region.part), part)
        return sets

    def _pocket(self, bits: int, ring: int, lands: int, seas_: int) -> bool:
        """Whether the island `bits` (with `ring` around it) would wall a small pocket of
        sea off from the rest: a region of at most `_POCKET` cells near the island
        (`_near` of `bits`), closed by the island, land and the edge, with a wall of the
        island in it, while sea lies outside it: a known sea cell near the island
        (`seas_`), another wall, or, the pocket having fewer cells than the sea has in
        every solution, the rest of the sea.

        Why near the island, not near its reach (what the rule reads) nor the grid: the
        answer must depend on the completion and on the state of cells the rule watches
        (`Islands._shapes_watch`), or its fixpoint hangs on the order the rules ran in;
        and it must be monotone: a completion refused in a state is refused in every
        stronger one. Near the reach, which shrinks as the state grows, a pocket closed
        by land or facing sea near the reach counted, and the same pocket, once that
        land or sea lay past a smaller reach's cells, did not: a completion refused in a
        state came back in a stronger one (789_17x17 and 834_15x20 of the janko.at
        corpus: the rules' fixpoint then differed by a label with the rules in another
        order). Near the island, more land only closes pockets and more sea only
        faces them."""
        board = self.board
        near = _near(board, bits, ring)
        lands &= near  # land past `near` must not close a pocket (the docstring)
        seas_ &= near
        # Why kept: the answer depends on these three only (the docstring), and a
        # completion is checked again in state after state that differ elsewhere
        # (probing's trials, the lookahead's).
        key = (bits, lands, seas_)
        walled = self.pockets.get(key)
        if walled is None:
            walled = self._walled(bits, ring, near, lands, seas_)
            _remember(self.pockets, key, walled, _CACHE)
        return walled

    def _walled(self, bits: int, ring: int, near: int, lands: int, seas_: int) -> bool:
        """`_pocket`'s answer, found: `lands` and `seas_` are the land and sea `near`
        the island."""
        board = self.board
        free = ~(bits | lands) & board.full
        # Only from ring cells with two open sides or fewer, where small pockets are: a
        # cheaper check that may miss a pocket, which only prunes less.
        starts = ring & ~board.crowded(free)
        while starts:
            pocket = starts & -starts
            while True:
                grown = (pocket | board.around(pocket)) & free
                # A pocket reaching past `near` counts as open: the answer depends on the
                # completion and the cells near it only (the docstring).
                if grown & ~near or grown.bit_count() > _POCKET:
                    break
                if grown == pocket:
                    if (seas_ & ~pocket or ring & ~pocket
                            or pocket.bit_count() < self.least_sea):
                        return True
                    break
                pocket = grown
            starts &= ~grown
        return False

