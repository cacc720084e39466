"""The sea spans every island's box, one line further on each side off the grid's edge;
a connected sea spanning w columns and h rows has w + h - 1 cells at least.

The rule, for numbered islands in one connected sea (`search.islands`: cells, then
their labels, island k's label value `2 << k`). Let island Z of n cells span columns
c1..c2 (u of them) and rows r1..r2 (v), on a grid of COLS columns and ROWS rows.

Where the sea must have cells. The cell left of a cell of Z in column c1 is not Z's,
and not another island's (it would touch Z), so it is sea: when c1 > 0 the sea has a
cell in column c1 - 1. When c1 = 0 and v < ROWS, column 0 holds a cell that is not
Z's; walking the column from a cell of Z to it, the first cell not Z's is beside one
of Z's, so sea: the sea has a cell in column 0. The same on the other three sides
(with u < COLS for the top and bottom rows).

How many. Grow a connected set one cell at a time, each beside one already in: each
step widens its span by one column or by one row, not both, so a connected set
spanning w columns and h rows has w + h - 1 cells at least. The sea is connected, so
the columns and rows it must reach (above, with the known sea's) cost it that many.
Against the grid's corner that is u + v + 1: so where the sea has fewer than
ROWS + COLS - 1 cells (`SeaSpan.fires`), only boxes near the grid's edge are left to a
large island.

What follows, every clue numbered (the sea's size S known): the boxes island Z may
span (u v >= n >= u + v - 1, Z being connected too; its known land inside; room for
n cells besides those known not to be its own; a cost of S at most: `span_boxes`)
hold all of it, so its label leaves every cell outside them; no box at all is a
contradiction. (Past `BOXES` boxes to weigh, nothing is said of that island.)

Where it helps. 1030_32x32 of the janko.at corpus: a 994 and a 20 on 32x32, so 10
sea cells. u + v + 1 <= 10 with u v >= 20 leaves 4 by 5 and 5 by 4 boxes in a corner,
and the 20's clue in column 4 of the bottom row but one leaves the 5 columns by 4 rows
in the bottom left corner: the island is that box, and propagation settles the rest.

>>> from twinsolve.core.clue_grid import Bitboard
>>> board = Bitboard(6, 6)
>>> [bin(box) for box in span_boxes(board, 6, 4, 1 << 0, 0, 0, 5)]  # 2x2 in the corner
['0b11000011']
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.clue_grid import Bitboard
from .enclosure import BOXES, confine, island_sets
from .grid import Grid
from .propagate import Contradiction, Store, span_of, values_of

__all__ = ["SeaSpan", "span_boxes", "spanned_cells", "span_cost"]


def _lines(low: int, high: int, lines: int, edges: bool) -> int:
    """The lines (columns, or rows) of `lines` of them where the sea must have a cell
    around an island spanning lines `low` to `high`, as bits: the line beyond each end,
    or the end itself where it is the grid's edge and `edges` (the island does not span
    the other way's every line)."""
    found = 0
    if low > 0:
        found |= 1 << low - 1
    elif edges:
        found |= 1
    if high < lines - 1:
        found |= 1 << high + 1
    elif edges:
        found |= 1 << lines - 1
    return found


def span_cost(top: int, left: int, height: int, width: int, rows: int, cols: int,
              sea_rows: int, sea_cols: int) -> int:
    """The fewest cells a connected sea may have around an island whose box is `height`
    rows from `top` by `width` columns from `left`, on a grid of `rows` by `cols`, with
    known sea in the rows and columns set in `sea_rows` and `sea_cols` (bit i: row or
    column i). The module docstring gives the bound.

    >>> span_cost(2, 0, 2, 3, 4, 6, 0, 0)  # bottom left: row 1 and column 3 are sea
    6
    >>> span_cost(1, 1, 2, 2, 4, 4, 0, 0)  # in the middle: rows 0 to 3, columns 0 to 3
    7
    """
    columns = sea_cols | _lines(left, left + width - 1, cols, height < rows)
    lines = sea_rows | _lines(top, top + height - 1, rows, width < cols)
    if not columns and not lines:
        return 0
    # A cell in some column is in some row too: a span is one line at least.
    return max(1, span_of(columns)) + max(1, span_of(lines)) - 1


def span_boxes(board: Bitboard, rows: int, number: int, known: int, other: int, sea: int,
               size: int) -> list[int] | None:
    """Every box (its cells, a `Bitboard` set) an island of `number` cells may span when
    the sea has `size` cells, on `board`'s grid of `rows` rows: the island's `known`
    land inside, `other` (cells known not to be the island's) and `sea` (known sea
    cells) as `Bitboard` sets (module docstring). None when there are more than `BOXES`
    to weigh."""
    cols = board.cols
    columns = lines = sea_cols = sea_rows = 0
    for i in values_of(known):
        columns |= 1 << i % cols
        lines |= 1 << i // cols
    for i in values_of(sea):
        sea_cols |= 1 << i % cols
        sea_rows |= 1 << i // cols
    left, right = (columns & -columns).bit_length() - 1, columns.bit_length() - 1
    top, bottom = (lines & -lines).bit_length() - 1, lines.bit_length() - 1
    found: list[int] = []
    weighed = 0
    for width in range(right - left + 1, cols + 1):
        for height in range(bottom - top + 1, rows + 1):
            if width * height < number or width + height - 1 > number:
                continue  # too small for it, or too wide for a connected island
            # The cheapest place, against a corner, unless the box spans a whole line
            # (the whole grid costs nothing).
            least = (min(width + 1, cols) if height < rows else 1) \
                + (min(height + 1, rows) if width < cols else 1) - 1
            if least > size and (width, height) != (cols, rows):
                continue
            tops = range(max(0, bottom - height + 1), min(top, rows - height) + 1)
            lefts = range(max(0, right - width + 1), min(left, cols - width) + 1)
            weighed += len(tops) * len(lefts)
            if weighed > BOXES:
                return None
            for r in tops:
                for c in lefts:
                    if span_cost(r, c, height, width, rows, cols, sea_rows, sea_cols) > size:
                        continue
                    box = board.box(r, r + height - 1, c, c + width - 1)
                    if width * height - (box & other).bit_count() >= number:
                        found.append(box)
    return found


def spanned_cells(board: Bitboard, rows: int, number: int, known: int, other: int,
                  sea: int, size: int) -> int | None:
    """The cells of every box `span_boxes` gives (the same arguments), as one `Bitboard`
    set: where the island may lie; 0 when no box holds it (no solution), None when
    there were too many boxes to weigh."""
    boxes = span_boxes(board, rows, number, known, other, sea, size)
    if boxes is None:
        return None
    cells = 0
    for box in boxes:
        cells |= box
    return cells


class SeaSpan:
    """The rule of the module docstring on the store of `search.islands.Islands`: `land`
    is a land cell's domain mask, `numbers` each clue's number (all known), `size` the
    sea's cells."""

    __slots__ = ("n", "rows", "land", "numbers", "size", "board")

    def __init__(self, grid: Grid, land: int, numbers: Sequence[int], size: int) -> None:
        self.n, self.rows = grid.size, grid.rows
        self.land = land
        self.numbers = list(numbers)
        self.size = size
        self.board = Bitboard(grid.rows, grid.cols)

    @staticmethod
    def fires(grid: Grid, size: int) -> bool:
        """Whether the rule can ever deduce anything: a sea of fewer cells than a corner's
        box of the whole grid costs (module docstring)."""
        return size < grid.rows + grid.cols - 1

    def __call__(self, store: Store) -> None:
        n, land = self.n, self.land
        for k, number in enumerate(self.numbers):
            label = 2 << k
            known, other, sea = island_sets(store.dom, n, land, label)
            inside = spanned_cells(self.board, self.rows, number, known, other, sea,
                                   self.size)
            if inside is None:
                continue
            if not inside:
                raise Contradiction  # no box the sea can span holds the island
            confine(store, n, land, label, inside)
