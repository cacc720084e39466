"""Two islands that touch at a corner: a loop of sea goes round one of them, and a loop
round many cells is long.

The rule, for numbered islands in one connected sea (`search.islands`: cells, then
their labels, island k's label value `2 << k`). Let land cells a and b of two
different islands touch at a corner, a = (r, c) and b = (r + 1, c ± 1). The two
other cells of their 2x2 block, p and q, are sea: either would join the islands.
The sea is connected, so a shortest path of sea cells joins p to q. Through the
cells' centres, that path and the step back from q to p across the block's middle
make a simple closed curve (the diagonal step meets no step between two cells'
centres, and the path is simple). a and b lie on its two sides, next to that step;
an island's steps from cell to cell cross the curve only through a cell of it,
which is sea, so one of the two islands lies wholly inside. Call it Z.

How long the loop is. Its L cells' centres span w columns and h rows: the curve
goes across and back, and its L - 1 unit steps and one diagonal step move at least
2w across and 2h up and down, so L >= 2(w + h) - 1. The cells strictly inside lie
strictly inside that box: at most (w - 1)(h - 1) of them, in at most w - 1 columns
and h - 1 rows. With u = w - 1 and v = h - 1: Z spans at most u columns and v rows,
u v >= |Z|, u <= COLS - 2, v <= ROWS - 2, and the loop's 2(u + v) + 3 cells or more
are sea, so at most the sea's size S. `fits` says whether such a box exists for an
island's number and the spans of its known land.

Where the loop may lie. Name its box by the cells strictly inside (u columns by v
rows, the interior), the loop's cells lying in the box one cell wider all round (the
outer box). The interior holds all of Z: its known land, and at most u v cells less
the cells known not to be Z's (sea, or another island's). Known sea outside
the outer box is off the loop, so the sea holds the loop's cells and those: the box
leaves S - (2(u + v) + 3) - (known sea outside) sea cells spare, which is not
negative. `loop_boxes` lists every such box of an island.

What follows, every clue numbered (S known):
- neither island of a corner contact has a box: a contradiction;
- one of them only: it is the one inside, so its label leaves every cell outside all
  its boxes' interiors; and when no box leaves a sea cell spare, every sea cell is on
  the loop, so an undecided cell outside all the outer boxes is land. (Past `BOXES`
  boxes to weigh, nothing is said of that island.)

Where it helps. 29_10x10 of the janko.at corpus: a 37 and a 36 touch at a corner
in a 10x10 with 27 sea cells. No loop of 27 goes round 37 cells (that takes 29), so
the 36 is inside a loop of all 27, round a 6x6 box: the one that keeps out the two
sea cells beside both clues. With it `hand` settles 29 at the root, where a
search of 269,183 nodes had found no solution in 1500 s. On 1030_32x32 (a 994
and a 20, 10 sea cells) neither fits, so the two may never touch at a corner. Around an island of n
cells a loop takes about 4 sqrt(n) + 3 cells, so the rule is registered only where
some island cannot be enclosed by the whole sea (`Enclosure.fires`); elsewhere it
could never deduce anything.

>>> fits(36, 1, 1, 10, 10, 27), fits(37, 1, 1, 10, 10, 27), fits(36, 7, 1, 10, 10, 27)
(True, False, False)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from ..core.clue_grid import Bitboard
from .grid import Grid
from .propagate import UNDECIDED, Contradiction, Store, span_of, values_of

__all__ = ["Enclosure", "fits", "loop_boxes", "confinement", "Box", "BOXES"]


@functools.lru_cache(maxsize=4096)
def fits(number: int, cols: int, rows: int, width: int, height: int, size: int) -> bool:
    """Whether an island of `number` cells whose known land spans `cols` columns and
    `rows` rows fits inside a loop of at most `size` sea cells on a grid of `width`
    columns and `height` rows: some u >= cols, v >= rows, u <= width - 2, v <= height - 2,
    u v >= number and 2(u + v) + 3 <= size (the module docstring)."""
    most = (size - 3) // 2  # u + v at most
    for u in range(max(1, cols), min(width - 2, most - max(1, rows)) + 1):
        v = max(rows, 1, -(-number // u))
        if v <= height - 2 and u + v <= most:
            return True
    return False


# A loop's box: its interior, its outer box (`Bitboard` sets) and the sea cells it spares.
Box = tuple[int, int, int]
# Placements `loop_boxes` weighs, at most; past them it lists none and says so (None), and
# the rule deduces nothing of that island. On the janko.at corpus the most is a few dozen.
BOXES = 20_000


def loop_boxes(board: Bitboard, rows: int, number: int, known: int, other: int, sea: int,
               size: int) -> list[Box] | None:
    """Every box a loop of at most `size` sea cells round an island of `number` cells may
    have (module docstring) on `board`'s grid of `rows` rows: the island's `known`
    land inside, `other` (cells known not to be the island's) and `sea` (known sea
    cells) as `Bitboard` sets. None when there are more than `BOXES` to weigh."""
    cols = board.cols
    columns = row_set = 0
    for i in values_of(known):
        columns |= 1 << i % cols
        row_set |= 1 << i // cols
    if not fits(number, span_of(columns), span_of(row_set), cols, rows, size):
        return []
    left, right = (columns & -columns).bit_length() - 1, columns.bit_length() - 1
    top, bottom = (row_set & -row_set).bit_length() - 1, row_set.bit_length() - 1
    found: list[Box] = []
    weighed = 0
    for u in range(right - left + 1, cols - 1):
        for v in range(bottom - top + 1, rows - 1):
            loop = 2 * (u + v) + 3
            if loop > size:
                break  # taller costs more still
            if u * v < number:
                continue
            tops = range(max(1, bottom - v + 1), min(top, rows - 1 - v) + 1)
            lefts = range(max(1, right - u + 1), min(left, cols - 1 - u) + 1)
            weighed += len(tops) * len(lefts)
            if weighed > BOXES:
                return None
            for r in tops:
                for c in lefts:
                    interior = board.box(r, r + v - 1, c, c + u - 1)
                    if u * v - (interior & other).bit_count() < number:
                        continue  # too little room left inside
                    outer = board.box(r - 1, r + v, c - 1, c + u)
                    spare = size - loop - (sea & ~outer).bit_count()
                    if spare >= 0:
                        found.append((interior, outer, spare))
    return found


def confinement(boxes: list[Box]) -> tuple[int, int | None]:
    """What an island known to be inside one of `boxes` is held to: the cells of their
    interiors, and, when no box spares a sea cell (every sea cell is then on the loop),
    the cells of their outer boxes, which hold every sea cell (else None)."""
    interiors = outers = 0
    for interior, outer, _ in boxes:
        interiors |= interior
        outers |= outer
    return interiors, outers if all(spare == 0 for _, _, spare in boxes) else None


class Enclosure:
    """The rule of the module docstring on the store of `search.islands.Islands`:
    `land` is a land cell's domain mask, `numbers` each clue's number (all known),
    `size` the sea's cells."""

    __slots__ = ("n", "cols", "rows", "land", "sea", "numbers", "size", "corners", "board")

    def __init__(self, grid: Grid, land: int, numbers: Sequence[int], size: int) -> None:
        self.n, self.cols, self.rows = grid.size, grid.cols, grid.rows
        self.land, self.sea = land, land ^ UNDECIDED
        self.numbers = list(numbers)
        self.size = size
        self.board = Bitboard(grid.rows, grid.cols)
        # Per cell, the pairs of its neighbours that touch at a corner (one beside it, one
        # above or below): the contacts in the 2x2 blocks it is in.
        steps = grid.steps  # right, down, left, up
        self.corners = [tuple((h, v) for h in (steps[0][i], steps[2][i])
                              for v in (steps[1][i], steps[3][i]) if h >= 0 and v >= 0)
                        for i in range(grid.size)]

    @staticmethod
    def fires(grid: Grid, numbers: Sequence[int], size: int) -> bool:
        """Whether the rule can ever deduce anything: some island fits in no loop of the
        whole sea (module docstring)."""
        return any(not fits(number, 1, 1, grid.cols, grid.rows, size) for number in numbers)

    def __call__(self, store: Store) -> None:
        dom, n, land = store.dom, self.n, self.land
        cells = bytes(dom[:n])
        contacts = set()
        # A contact's block has its two other cells not land (either would join the two
        # islands, which the links forbid), so the contacts are found from the cells that
        # are not land: on a giant island's grid (1030_32x32) a tenth of the cells. Why
        # `find` on the cells as bytes: it skips the others in C.
        for mask in (self.sea, UNDECIDED):
            i = -1
            while (i := cells.find(mask, i + 1)) >= 0:
                for h, v in self.corners[i]:
                    if cells[h] == land and cells[v] == land:
                        one, other = dom[n + h], dom[n + v]
                        if one != other and not one & (one - 1) and not other & (other - 1):
                            contacts.add((min(one, other), max(one, other)))
        if not contacts:
            return
        boxes: dict[int, list[Box] | None] = {}
        for pair in sorted(contacts):
            for label in pair:
                if label not in boxes:
                    boxes[label] = self._boxes(dom, label)
            inside = [label for label in pair if boxes[label] != []]
            if not inside:
                raise Contradiction  # no loop the sea can make goes round either
            found = boxes[inside[0]]
            if len(inside) == 1 and found is not None:
                self._confine(store, inside[0], found)

    def _boxes(self, dom: Sequence[int], label: int) -> list[Box] | None:
        """`loop_boxes` of island `label` in the state `dom`."""
        known, other, sea = island_sets(dom, self.n, self.land, label)
        return loop_boxes(self.board, self.rows, self.numbers[label.bit_length() - 2], known,
                          other, sea, self.size)

    def _confine(self, store: Store, label: int, boxes: list[Box]) -> None:
        """Island `label` is the one inside, in one of `boxes`: its label leaves the cells
        outside every interior; with no sea cell spare in any box, the undecided cells
        outside every outer box are land."""
        interiors, outers = confinement(boxes)
        confine(store, self.n, self.land, label, interiors, outers)


def island_sets(dom: Sequence[int], n: int, land: int, label: int) -> tuple[int, int, int]:
    """Island `label`'s known land, the cells known not to be its own (sea, or another
    island's) and the known sea, as `Bitboard` sets, in the state `dom` of n cells and
    their labels (`land` a land cell's domain mask)."""
    sea_mask = land ^ UNDECIDED
    known = other = sea = 0
    for i in range(n):
        cell, owners = dom[i], dom[n + i]
        if cell == sea_mask:
            sea |= 1 << i
            other |= 1 << i
        elif not owners & label:
            other |= 1 << i  # another island's
        elif owners == label and cell == land:
            known |= 1 << i
    return known, other, sea


def confine(store: Store, n: int, land: int, label: int, inside: int,
            sea_within: int | None = None) -> None:
    """Island `label` keeps to the cells `inside`: its label leaves every other cell; and
    when `sea_within` is given every sea cell is in it, so the undecided cells outside it
    are land."""
    dom = store.dom
    for i in range(n):
        if dom[n + i] & label and not inside >> i & 1:
            store.restrict(n + i, ~label)
    if sea_within is not None:
        for i in range(n):
            if dom[i] == UNDECIDED and not sea_within >> i & 1:
                store.restrict(i, land)
