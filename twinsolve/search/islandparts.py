"""Independent parts of a numbered-islands store, for `propagate.search`'s AND/OR search.

The store is `search.islands.Islands`': cells 0..n-1 (land or sea), then each
cell's label (the islands that may still own it). A cell is *open* while its
shading or its label is undecided. The open cells fall into *regions*: the
groups of open cells joined through their eight neighbours. Known sea cells
fall into *pools*: the groups of sea cells joined side by side. Let H be the
graph whose vertices are the regions and the pools, a region joined to each
pool beside one of its cells.

The rule: when no island's label is open in two regions, and H is a tree,
the solutions that extend the store are exactly every combination of one
completion of each region, where a completion of region R decides R alone
and is valid on its own: R's land makes its islands whole, R holds no 2x2
block of sea, and R's sea joins every pool beside R to each other through R.
So a search may complete the regions apart and multiply their counts.

Why. Regions are eight-apart, so no 2x2 block and no two side-by-side cells
lie in two of them: pools of sea and touching islands are each a matter of
one region and the cells decided around it. An island grows only where its
label is open, so in one region: its size is that region's business (and so
the sea's size, every land cell being an island's). The sea: a path of sea
leaves a region only into a pool beside it, so a path between two pools
beside R that avoids R would be a walk in H between them avoiding R, which
with the steps pool-R-pool closes a cycle; H being a tree, the pools beside
R are joined through R or not at all, and a sea cell of R reaches a pool
through R. Conversely when each region joins its pools, the tree H being
connected, every pool and every sea cell is one sea. Where H is not a tree
(a cycle: two regions could each join the same two pools; or not connected)
nothing is split: a region's completion would then depend on another's.

The search's rules stay the store's own: they are sound, so they never
refuse a valid completion of a region while the others are undecided, and
a completed region whose sea fails to join its pools leaves two pools that
no undecided cell joins (the tree again), which the sea's connectivity rule
refuses.

>>> from twinsolve.search.grid import Grid
>>> from twinsolve.search.islands import Islands
>>> islands = Islands(Grid(1, 7), [(0, 2), (6, 2)])   # a 2 at each end of a row of seven
>>> store = islands.store()
>>> for cell in (2, 3, 4):                             # the middle decided sea
...     store.dom[cell], store.dom[7 + cell] = islands.sea, SEA_LABEL
>>> IslandParts(islands)(store, None)                  # cells 1 and 5, with their labels
[[1, 8], [5, 12]]
"""

from __future__ import annotations

from .graph import components
from .islands import SEA_LABEL, Islands
from .propagate import UNDECIDED, Store, values_of

__all__ = ["IslandParts"]


class IslandParts:
    """`propagate.search`'s `parts` for an `Islands` store (the module docstring)."""

    __slots__ = ("n", "board", "sea")

    def __init__(self, islands: Islands) -> None:
        self.n = islands.grid.size
        self.board = islands.board
        self.sea = islands.sea

    def __call__(self, store: Store, scope: list[int] | None) -> list[list[int]] | None:
        """The regions of the scope's open cells, each as its unfixed variables (cells
        and labels), when there are two or more and the rule holds for the whole store;
        else None."""
        dom, n, board = store.dom, self.n, self.board
        cells = range(n) if scope is None else sorted({v % n for v in scope})
        mine, seas = self._cells(dom, cells)
        groups = board.groups(mine, corners=True)
        if len(groups) < 2:
            return None
        if scope is None:
            regions = groups
        else:
            everywhere, seas = self._cells(dom, range(n))
            regions = board.groups(everywhere, corners=True)
        if not (_labels_apart(dom, n, regions) and self._tree(regions, seas)):
            return None
        split = []
        for group in groups:
            unfixed = []
            for cell in values_of(group):
                if dom[cell] == UNDECIDED:
                    unfixed.append(cell)
                label = dom[n + cell]
                if label & (label - 1):
                    unfixed.append(n + cell)
            split.append(unfixed)
        return split

    def _cells(self, dom: list[int], cells: range | list[int]) -> tuple[int, int]:
        """The cells of `cells` whose shading or label is undecided, and those that are
        sea, as `Bitboard` sets (one pass)."""
        n, sea = self.n, self.sea
        found = seas = 0
        for cell in cells:
            shading, label = dom[cell], dom[n + cell]
            if shading == UNDECIDED or label & (label - 1):
                found |= 1 << cell
            if shading == sea:
                seas |= 1 << cell
        return found, seas

    def _tree(self, regions: list[int], seas: int) -> bool:
        """Whether the regions and the pools of the known sea `seas`, a region joined to
        each pool beside it, make a tree: connected, with one edge less than vertices."""
        board = self.board
        pools = board.groups(seas)
        joined: list[list[int]] = [[] for _ in range(len(regions) + len(pools))]
        edges = 0
        for r, region in enumerate(regions):
            beside = board.around(region)
            for p, pool in enumerate(pools, len(regions)):
                if beside & pool:
                    joined[r].append(p)
                    joined[p].append(r)
                    edges += 1
        return edges == len(joined) - 1 and len(components(joined)) == 1


def _labels_apart(dom: list[int], n: int, regions: list[int]) -> bool:
    """Whether no island's label is open in two regions (a cell's label may hold the sea's
    in any number of them)."""
    seen = 0
    for region in regions:
        labels = 0
        for cell in values_of(region):
            labels |= dom[n + cell]
        labels &= ~SEA_LABEL
        if labels & seen:
            return False
        seen |= labels
    return True
