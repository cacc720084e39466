"""An island may not cut the sea: land that would join a clue to a cell across an
open region, with known sea on both sides of it, is not that island's.

The rule, for islands in one connected sea (`search.islands`: cells, then their
labels, island k's label value `2 << k`). Call a cell open when it is undecided, or
land that no clue's land part holds (an orphan: land not yet joined to its clue).
Take a region U of open cells (a connected group, orthogonally), the island X of a
clue, its known land part K (the land joined to the clue) beside U, and a cell c of
U on U's outer boundary. Suppose c is X's. Then X's land joins K to c, through
cells that are undecided now or land X may own, all of them open but K's. After its
last cell of K that join stays in D, U with its holes filled: it could step out of D
only onto a cell beside U's outer boundary, which is in U when open, and otherwise
sea, K, or another clue's land; so it enters U at once from K, and never leaves D.

Why orphan land belongs to U. Were U the undecided cells only, land X may own
beside it would be a way out of D, and the rule would say nothing of X: it would
find a cut in a state and lose it in a stronger one, once a cell of U became such
land (on 1108_20x15 of the janko.at corpus the rules' fixpoint then depended on the
order they ran in: 137 cells left undecided or 113). As part of U, an orphan is
counted as a cell the sea might cross, which it never does: the most the parts of U
allow only grows, so every cut found still holds.

Why the join cuts D. U's outer boundary (`_outer`) is a closed curve made of the
sides between U and what is not U, walked with U on the left; where U meets itself
at a corner only, the walk keeps to one cell, so the curve passes that corner twice
without crossing itself. D is what it encloses. The join's path through the
cells' centres, with a step from its first cell through a side k into K and a step
from c through one of c's outer sides g out of D, is a cross-cut of D: a curve
through D from one point of its boundary to another. It parts D in two, the two
arcs of the boundary between k and g each bounding one part. Its cells are land,
so a sea path inside D (and so inside U) stays in one part.

What that costs the sea. The known sea and the undecided cells outside U fall into
pieces: the groups that join without passing through U (a piece beside U holds
known sea, since an undecided cell beside U is in U). The sea is connected, so the
pieces must join, and only through U: a piece outside D that touches both arcs
joins them, the others keep to their arc's part, and a piece in a hole of U keeps
to one part and joins nothing across. So the sea is cut when, with the most the
parts allow (each part of U joining all that touches its arc), the pieces on the
outer boundary do not make one group: one touches no arc (only sides of the join's
first cell or of c, which are land), or none touches both and each arc has its
own. Sides between two of c's sides go to both arcs (c may lie on the boundary
twice). When that holds for every side k through which the join can enter U, for
one of c's sides g, c is not X's.

Where it helps. 683_14x24 of the janko.at corpus: the 51's land runs from its clue
to the corner of an empty 4x12 stretch of the top right, whose only other ways out
are known sea, to the left (a sea walled in by the 51 and small islands) and below.
A cell of the top row or the right column taken by the 51 would wall that sea in,
so none is; the 51 then needs the 3x11 below them, and propagation settles the
puzzle at the root, where a search of 323,650 nodes took 1580 s.

>>> from twinsolve.search.grid import Grid
>>> from twinsolve.search.propagate import IS_FALSE, IS_TRUE, UNDECIDED, Store
>>> # 3x3: the 5 at the centre's left, sea in the top and bottom right corners.
>>> store = Store(())
>>> cells = [UNDECIDED] * 9
>>> cells[3], cells[2], cells[8] = IS_FALSE, IS_TRUE, IS_TRUE
>>> store.dom = cells + [1 | 2] * 9
>>> store.dom[9 + 3], store.dom[9 + 2], store.dom[9 + 8] = 2, 1, 1
>>> CrossCut(Grid(3, 3), IS_FALSE, [3])(store)
>>> [i for i in range(9) if store.dom[9 + i] == 1]   # its land at 5 would cut the sea
[2, 5, 8]
"""

from __future__ import annotations

from collections.abc import Sequence

from .grid import Grid
from .propagate import UNDECIDED, Store

# `_kinds`: what a cell is to the rule. An open cell is undecided, or land no clue's
# part holds (the module docstring); land of a clue's part and sea keep their masks.
_OPEN = 0

__all__ = ["CrossCut"]

# A cell's four sides, walked with the cell on the left (counterclockwise on the
# screen, rows growing downwards): (row step to the side's first corner, column step,
# its direction as (row, column) steps, the neighbour across as (row, column) steps).
_SIDES = (
    (0, 1, (0, -1), (-1, 0)),   # top, leftwards
    (0, 0, (1, 0), (0, -1)),    # left, downwards
    (1, 0, (0, 1), (1, 0)),     # bottom, rightwards
    (1, 1, (-1, 0), (0, 1)),    # right, upwards
)


class CrossCut:
    """The rule of the module docstring, over the clue cells `clues` (island k's clue at
    `clues[k]`); `land` is a land cell's domain mask."""

    __slots__ = ("rows", "cols", "n", "nbrs", "land", "sea", "clues")

    def __init__(self, grid: Grid, land: int, clues: Sequence[int]) -> None:
        self.rows, self.cols, self.n = grid.rows, grid.cols, grid.size
        self.nbrs = grid.neighbours
        self.land, self.sea = land, land ^ UNDECIDED
        self.clues = list(clues)

    def __call__(self, store: Store) -> None:
        dom = store.dom
        kinds = self._kinds(dom)
        part = _parts(kinds, self.n, self.nbrs)
        groups = self._groups(kinds, part)
        if groups is None:
            return
        for region, pieces in groups:
            self._region(store, part, region, pieces)

    def _kinds(self, dom: Sequence[int]) -> list[int]:
        """Each cell's kind: `_OPEN`, or its mask (sea, or land of a clue's part)."""
        n, nbrs, land = self.n, self.nbrs, self.land
        kinds = [_OPEN if m == UNDECIDED or m == land else m for m in dom[:n]]
        for clue in self.clues:  # the clues' land parts, breadth first
            if kinds[clue] != _OPEN or dom[clue] != land:
                continue  # a part met from an earlier clue (two clues: no solution)
            kinds[clue] = land
            queue = [clue]
            for v in queue:
                for w in nbrs[v]:
                    if kinds[w] == _OPEN and dom[w] == land:
                        kinds[w] = land
                        queue.append(w)
        return kinds

    def _groups(self, kinds: Sequence[int], part: list[int]
                ) -> list[tuple[int, dict[int, int]]] | None:
        """Per open region beside two pieces or more: (its part number, each sea part
        beside it -> its piece). None when no region is."""
        n, nbrs, sea = self.n, self.nbrs, self.sea
        beside: dict[int, set[int]] = {}  # open region -> the sea parts beside it
        for i in range(n):
            if kinds[i] == _OPEN:
                for w in nbrs[i]:
                    if kinds[w] == sea:
                        beside.setdefault(part[i], set()).add(part[w])
        found = []
        for region, seas in beside.items():
            if len(seas) < 2:
                continue
            # The pieces without this region: sea parts joined through the others.
            parent: dict[int, int] = {}
            for other, around in beside.items():
                if other != region:
                    first = _find(parent, next(iter(around)))
                    for s in around:
                        root = _find(parent, s)
                        if root != first:
                            parent[root] = first
            pieces = {s: _find(parent, s) for s in seas}
            if len(set(pieces.values())) >= 2:
                found.append((region, pieces))
        return found or None

    def _region(self, store: Store, part: list[int], region: int,
                pieces: dict[int, int]) -> None:
        """The rule on one open region, whose sea parts beside it are `pieces`' keys,
        each with its piece."""
        dom, n, sea = store.dom, self.n, self.sea
        outer = self._outer(part, region)
        m = len(outer)
        # Each outer side's piece (a sea side) or -1; the sides of each cell of U, and
        # of each land part across (a clue's: an orphan would be in U).
        across: list[int] = []
        sides_of: dict[int, list[int]] = {}
        land_sides: dict[int, list[int]] = {}
        for at, (cell, out) in enumerate(outer):
            sides_of.setdefault(cell, []).append(at)
            if out >= 0 and dom[out] == sea:
                across.append(pieces[part[out]])
                continue
            across.append(-1)
            if out >= 0:
                land_sides.setdefault(part[out], []).append(at)
        if len({p for p in across if p >= 0}) < 2:
            return
        home_of = {part[clue]: 2 << k for k, clue in enumerate(self.clues)}
        for home, starts in land_sides.items():
            bit = home_of.get(home, 0)
            if not bit:
                continue
            cut = [cell for cell in sides_of if dom[n + cell] & bit]
            for at in starts:
                if not cut:
                    break
                cut = _cut_off(across, sides_of, at, outer[at][0], cut, m)
            for c in cut:
                store.restrict(n + c, ~bit)

    def _outer(self, part: list[int], region: int) -> list[tuple[int, int]]:
        """The sides of `region`'s outer boundary in the order walked (U on the left),
        each as (its cell, the cell across or -1 past the grid's edge)."""
        rows, cols = self.rows, self.cols
        width = cols + 1
        starts: dict[int, list[tuple[int, int, int, int]]] = {}  # corner -> sides from it
        first = None
        for i, p in enumerate(part):
            if p != region:
                continue
            r, c = divmod(i, cols)
            for dr0, dc0, (dr, dc), (nr, nc) in _SIDES:
                rr, cc = r + nr, c + nc
                inside = 0 <= rr < rows and 0 <= cc < cols
                out = rr * cols + cc if inside else -1
                if out >= 0 and part[out] == region:
                    continue
                corner = (r + dr0) * width + c + dc0
                side = (corner, dr * width + dc, i, out)
                starts.setdefault(corner, []).append(side)
                if first is None:
                    first = side  # the first cell's top side: on the outer boundary
        assert first is not None
        # Each step's left turn (on the screen): right to up, up to left, and so on.
        left = {1: -width, -width: -1, -1: width, width: 1}
        walked = []
        side = first
        while True:
            corner, step, cell, out = side
            walked.append((cell, out))
            following = starts[corner + step]
            # One side goes on from a corner, but where the region meets itself there:
            # two, and the left turn keeps to the same cell.
            side = (following[0] if len(following) == 1
                    else next(s for s in following if s[1] == left[step]))
            if side == first:
                return walked


def _cut_off(across: list[int], sides_of: dict[int, list[int]], start: int, first: int,
             cells: list[int], m: int) -> list[int]:
    """The cells of `cells` a cut from side `start` (into K, through its cell `first`)
    to the cell parts the outer boundary's pieces for (the module docstring)."""
    # Each piece's sides, as places counted from `start`, but the first cell's.
    skip = set(sides_of[first])
    places: dict[int, list[int]] = {}
    for at, piece in enumerate(across):
        if piece >= 0:
            places.setdefault(piece, [])
            if at not in skip:
                places[piece].append((at - start) % m)
    spans = [(min(p), max(p), p) if p else None for p in places.values()]
    found = []
    for c in cells:
        own = sorted((at - start) % m for at in sides_of[c])
        low, high = own[0], own[-1]
        gaps = high - low + 1 > len(own)  # c meets the boundary twice: sides between
        arcs = []
        for span in spans:
            arc = 0
            if span is not None:
                least, most, every = span
                arc = (1 if least < low else 0) | (2 if most > high else 0)
                if gaps and arc != 3 and any(low < p < high and p not in own
                                             for p in every):
                    arc = 3
            arcs.append(arc)
        if 0 in arcs or (3 not in arcs and 1 in arcs and 2 in arcs):
            found.append(c)  # a piece walled in by the cut, or each arc with its own
    return found


def _find(parent: dict[int, int], x: int) -> int:
    """The root of `x` in a union-find forest kept as child -> parent."""
    while parent.get(x, x) != x:
        x = parent[x]
    return x


def _parts(kinds: Sequence[int], n: int, nbrs: Sequence[Sequence[int]]) -> list[int]:
    """Each cell's part: the cells of its kind (`CrossCut._kinds`) joined to it
    orthogonally, numbered by their first cell."""
    part = [-1] * n
    for i in range(n):
        if part[i] < 0:
            m = kinds[i]
            part[i] = i
            queue = [i]
            for v in queue:
                for w in nbrs[v]:
                    if part[w] < 0 and kinds[w] == m:
                        part[w] = i
                        queue.append(w)
    return part
