"""Region rules on a grid of Boolean cells: connected, reaching the border, 2x2 blocks.

Many grid puzzles shade cells (a Boolean per cell on `propagate.Store`) and
ask that the shaded cells, or the others, form a region of a given shape:
Cave's cave is one connected region with no holes, a Slitherlink loop is the
boundary of such a region, Nurikabe's sea is connected with no 2x2 pool.
These rules say so on the engine's `Propagator`, for any puzzle. Cell `i`
of the `Grid` is variable `i` of the store; a store may hold more variables
after the cells (a puzzle's own), which the rules never read.

The rules. `member` is the value the region is made of (`IS_TRUE` or
`IS_FALSE`, a domain mask), the other value blocks it.

- `RegionConnected(grid, member)`: the member cells are connected through
  cells that are not blocked. In the graph of unblocked cells, a member cell
  that cannot reach another is a contradiction, an undecided cell that
  reaches no member cell is blocked (it could only be an island), and
  (`cuts`) an undecided articulation point with member cells on both sides
  is a member: removing it would split the region. `nonempty`: the region
  has at least one cell, so a grid with every cell blocked is a
  contradiction.
- `ReachesBorder(grid, member)`: every member cell reaches the edge of the
  grid through unblocked cells (for the outside of a region: no holes). The
  same graph plus a virtual border node joined to every edge cell: a member
  cell cut off from the border is a contradiction, an undecided one is
  blocked, and (`cuts`) an undecided articulation point that separates a
  member cell from the border is a member.
- `NoCheckerboard(a, b, c, d)` (one 2x2 block, `a b / c d`): two diagonal
  cells of one value and two diagonal cells of the other cannot coexist.
  For a connected region without holes this is a theorem: the region's path
  between its diagonal pair closes, with their corner contact, a loop
  around one of the other pair, cut off from the border. It is the no
  self-touching rule of a loop around the region.
- `NoUniformBlock(a, b, c, d, value)`: the block's four cells are not all
  `value` (Nurikabe's no 2x2 pool): three of them decided so forces the
  fourth to the other value.

The idea of the connectivity rules. Each is one run of the engine's
`grid.LowLink` (an iterative Tarjan search), rooted at a member cell (resp.
the border node) over the unblocked cells, counting member cells per DFS
subtree: a cut vertex separates member cells exactly when it cuts a member
cell off from the root, because the root is on the other side. Both cost
O(cells) a run, so a puzzle registers them after its local rules (a higher
`priority`, `region_rules` does), watching every cell. `RegionConnected`
keeps the cells its last run in the current line of the search left
(`propagate.Since`) and skips a run whose only news is members beside members
of then, and blocked cells that a path may walk round through the eight cells
round each (`RegionConnected._same`): a probe that shades a cell beside the
sea, the commonest event, or blocks one in the open costs it no search,
whatever the probes before it did.

`hole_free_region(grid)` gives all of them for one region and its
complement: the region connected, its complement reaching the border, no
checkerboard block. Those are exactly the regions whose boundary is one
simple loop (Cave's cave, Slitherlink's inside).

>>> from twinsolve.search.grid import Grid
>>> from twinsolve.search.propagate import Propagator, Store
>>> grid = Grid(1, 5)
>>> store = Store.booleans(5)
>>> prop = Propagator(store)
>>> for rule, watches, priority in hole_free_region(grid):
...     prop.add_rule(rule, watches, priority=priority)
>>> store.restrict(0, IS_TRUE) and store.restrict(3, IS_TRUE)  # 0 and 3 inside
True
>>> prop.propagate(), store.dom[:4] == [IS_TRUE] * 4  # the path between them is inside
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .grid import Grid, LowLink
from .propagate import IS_FALSE, IS_TRUE, UNDECIDED, Contradiction, Rule, Since, Store

__all__ = ["RegionConnected", "ReachesBorder", "NoCheckerboard", "NoUniformBlock", "blocks",
           "hole_free_region", "changed_cells", "GLOBAL_PRIORITY"]

# The priority `hole_free_region` gives the connectivity rules: after local rules (0).
GLOBAL_PRIORITY = 1


def changed_cells(before: int, after: int) -> Iterator[int]:
    """The cells that differ between two states of a grid's cells, ascending, each state
    packed as one integer (`int.from_bytes(bytes(cells), "little")`: a cell's domain
    mask is one byte). They are the non-zero bytes of one XOR, so a rule that asks what
    changed since its last run pays a few operations per changed cell, not a pass over
    the grid."""
    changed = before ^ after
    while changed:
        i = ((changed & -changed).bit_length() - 1) >> 3
        changed &= ~(0xFF << (i << 3))
        yield i


def _other(member: int) -> int:
    """The blocking mask of a region made of `member` (`IS_TRUE` or `IS_FALSE`)."""
    if member not in (IS_TRUE, IS_FALSE):
        raise ValueError(f"a region's member mask is IS_TRUE or IS_FALSE, got {member}")
    return member ^ UNDECIDED


class RegionConnected:
    """The cells of `member` connected through unblocked cells; see the module docstring.

    `cuts=False` leaves out articulation forcing (reachability only, for a
    puzzle's easier levels); `nonempty=False` allows a region of no cells.
    """

    __slots__ = ("lowlink", "size", "member", "blocked", "cuts", "nonempty", "since",
                 "rings")

    def __init__(self, grid: Grid, member: int = IS_TRUE, *, cuts: bool = True,
                 nonempty: bool = True) -> None:
        self.lowlink = LowLink(grid.neighbours)
        self.size = grid.size
        self.member, self.blocked = member, _other(member)
        self.cuts = cuts
        self.nonempty = nonempty
        self.rings = _rings(grid)  # the eight cells round each (`_detour`)
        # Its last run in the current line of the search, noted with the cells it left
        # (`_same`)
        self.since = Since()

    def __call__(self, store: Store) -> None:
        dom = store.dom
        size, member, blocked = self.size, self.member, self.blocked
        cells = bytes(dom[:size])
        since = self.since
        if since.stands(store) and self._same(cells, since.note):
            # A fixpoint of the rule: compare from here, the last run's tree still true.
            since.mark(store, (*_packed(cells), since.note[2]))
            return
        try:
            root = dom.index(member, 0, size)
        except ValueError:  # no member yet: only a region that must exist and cannot fails
            if self.nonempty and UNDECIDED not in dom[:size]:
                raise Contradiction from None
            since.mark(store, (*_packed(cells), None))
            return
        lowlink = self.lowlink
        cuts = lowlink.run(dom, root, blocked, member)
        _block_unreached(store, lowlink, size, blocked)  # walled off from the root
        if self.cuts:
            for i in cuts:  # each cuts a member cell off from the member root
                if dom[i] == UNDECIDED:
                    store.restrict(i, member)
        # What the run left, its own narrowings included (the mark found above still
        # stands: the trail only grew since), and its search tree (`_safe`).
        tree = (root, lowlink.parent[:], lowlink.low[:], lowlink.disc[:])
        since.mark(store, (*_packed(bytes(dom[:size])), tree))

    def _same(self, cells: bytes, seen: tuple[bytes, int, _Tree | None]) -> bool:
        """Whether a run would find nothing: the cells are those its last run in this
        line of the search left (`seen`, a fixpoint of this rule, with the tree of the
        last search) but for new members each joined to a member of then, or to one
        that no undecided cell cuts off (`_safe`), through new members, and new blocked
        cells each walked round (`_detour`).

        Why that suffices. A cell whose loss cut a new member x off from the root
        would cut off the old member x is joined to too (through members, which no
        loss cuts), so the last run forced it already; a new member no undecided cell
        cut off from the root then is cut off by none now. A blocked cell walked round: a
        path through it, between two of its open sides, goes round it instead, along
        the open cells of the eight round it, so what is connected stays connected
        (nothing to block, no member cut off); and a cell whose loss now separates
        two members, where it did not before, lies on such a detour between two open
        sides, so those undecided are walked round too. Two blocked cells within each
        other's eight are not: each detour may need the other's cell (a corridor of
        two cells blocked at once, each with one open side left). The changed cells
        come from `changed_cells`, the cells themselves compared (not the trail: a
        caller may set a store's cells to a position it takes as a fixpoint). Why the
        last run in this line: a probing trial's runs are undone with it, and the next
        trial's changes are counted from the fixpoint both started from."""
        before, packed, tree = seen
        member = self.member
        nbrs = self.lowlink.neighbours
        blocked, members = [], []
        for i in changed_cells(packed, int.from_bytes(cells, "little")):
            if before[i] != UNDECIDED:
                return False
            (members if cells[i] == member else blocked).append(i)
        if members:
            # No tree: no search since the region had no member, so nothing says the
            # new members reach each other.
            loose = _loose(members, before, member, nbrs)
            if loose and (tree is None or self.cuts and not _safe(loose, cells, tree)):
                return False
        if blocked and member not in before:
            return False  # no region yet: a run costs little (and may find it cannot be)
        rings = self.rings
        news = set(blocked)
        for i in blocked:
            if not news.isdisjoint(rings[i]):
                return False
            detour = self._detour(i, cells)
            if detour is None:
                return False
            for w in detour:
                if cells[w] == UNDECIDED and self._detour(w, cells) is None:
                    return False
        return True

    def _detour(self, i: int, cells: bytes) -> list[int] | None:
        """The cells a path through cell `i` may go round it by, along the eight round
        it (those between its open sides, none when it has fewer than two or all eight
        are open: a path may go either way); None when its open sides are not joined
        so (`i` may be a cut vertex)."""
        blocked, ring = self.blocked, self.rings[i]
        pattern = 0
        for k, w in enumerate(ring):
            if w >= 0 and cells[w] != blocked:
                pattern |= 1 << k
        between = _DETOURS[pattern]
        return None if between is None else [ring[k] for k in between]


def _rings(grid: Grid) -> list[tuple[int, ...]]:
    """The eight cells round each cell of `grid`, each beside the next and the last
    beside the first: above, above right, right, below right, below, below left, left,
    above left (the sides at even positions); -1 past the edge."""
    rows, cols = grid.rows, grid.cols
    steps = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))
    return [tuple((r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols
                  else -1 for dr, dc in steps)
            for r in range(rows) for c in range(cols)]


def _between_sides(pattern: int) -> tuple[int, ...] | None:
    """The ring positions between the open sides of a ring (`pattern`: bit k set when
    the ring's cell k is open, the sides at even k), along the run of open ring cells
    that holds them all, the sides at its ends left out; () when fewer than two sides
    are open, or all eight cells (a detour may go either way); None when the open sides
    are not in one run, cyclically."""
    sides = [k for k in (0, 2, 4, 6) if pattern >> k & 1]
    if len(sides) < 2 or pattern == 0xFF:
        return ()
    # Walked round from a closed cell, the open cells come in runs; the open sides must
    # all be in one, and the detour is that run's stretch from its first side to its
    # last.
    start = next(k for k in range(8) if not pattern >> k & 1)
    walk = [(start + step) % 8 for step in range(1, 9)]
    run, runs = 0, {}
    for k in walk:
        if pattern >> k & 1:
            runs[k] = run
        else:
            run += 1
    if len({runs[k] for k in sides}) > 1:
        return None
    places = [walk.index(k) for k in sides]
    return tuple(walk[place] for place in range(min(places) + 1, max(places)))


_DETOURS = tuple(_between_sides(pattern) for pattern in range(256))


# A `RegionConnected` search's tree, as its last run left it: (the root, each vertex's
# parent, its low-link, its discovery time), lists indexed by cell.
_Tree = tuple[int, list[int], list[int], list[int]]


def _loose(members: list[int], before: bytes, member: int,
           nbrs: Sequence[Sequence[int]]) -> list[int]:
    """The new `members` not joined to a member of `before` through new members."""
    news = set(members)
    reached = [i for i in members if any(before[w] == member for w in nbrs[i])]
    seen = set(reached)
    for i in reached:
        for w in nbrs[i]:
            if w in news and w not in seen:
                seen.add(w)
                reached.append(w)
    return [i for i in members if i not in seen]


def _safe(loose: list[int], cells: bytes, tree: _Tree) -> bool:
    """Whether no undecided cell (in `cells`) cuts any of `loose` off from the root of
    the search `tree`: on the way up the tree from each, no parent u with a child v
    whose subtree climbs no higher than u (low[v] >= disc[u]) is undecided.

    Why the last search's tree answers for a later state: that state took the cells
    the search left and added members, which cut nothing, and blocked cells walked
    round (`RegionConnected._same`), after which a cell cuts another off from the root
    only if it did before. Each vertex climbed is climbed once (`cleared`)."""
    root, parent, low, disc = tree
    cleared: set[int] = set()
    for v in loose:
        climbed = []
        while v != root and v not in cleared:
            u = parent[v]
            if u != root and low[v] >= disc[u] and cells[u] == UNDECIDED:
                return False
            climbed.append(v)
            v = u
        cleared.update(climbed)
    return True


def _packed(cells: bytes) -> tuple[bytes, int]:
    """A grid's cells as bytes and as one integer (`changed_cells` compares those)."""
    return cells, int.from_bytes(cells, "little")


class ReachesBorder:
    """The cells of `member` reach the grid's edge through unblocked cells (no holes).

    `cuts=False` leaves out articulation forcing.
    """

    __slots__ = ("lowlink", "size", "member", "blocked", "cuts")

    def __init__(self, grid: Grid, member: int = IS_FALSE, *, cuts: bool = True) -> None:
        n = grid.size
        edge = [i for i in range(n) if len(grid.neighbours[i]) < 4]
        on_edge = set(edge)
        nbrs = [nb + (n,) if i in on_edge else nb for i, nb in enumerate(grid.neighbours)]
        nbrs.append(tuple(edge))
        self.lowlink = LowLink(nbrs)
        self.size = n  # also the virtual border node: a member, joined to every edge cell
        self.member, self.blocked = member, _other(member)
        self.cuts = cuts

    def __call__(self, store: Store) -> None:
        dom = store.dom
        size, member, blocked = self.size, self.member, self.blocked
        lowlink = self.lowlink
        cuts = lowlink.run(dom[:size] + [member], size, blocked, member)
        _block_unreached(store, lowlink, size, blocked, virtual=1)  # holes
        if not self.cuts:
            return
        for i in cuts:  # each cuts a member cell off from the border
            if dom[i] == UNDECIDED:
                store.restrict(i, member)


def _block_unreached(store: Store, lowlink: LowLink, size: int, blocked: int,
                     virtual: int = 0) -> None:
    """Block each of the `size` cells that is not blocked and the last `lowlink` run did
    not reach (Contradiction for a member); `virtual`: vertices past the cells the run
    reached too (a border node).

    Why the count first: most runs reach every open cell, and counting them in C
    spares a pass over the grid in Python."""
    dom = store.dom
    if lowlink.reached_count() - virtual < size - dom[:size].count(blocked):
        disc, start = lowlink.disc, lowlink.start
        for i in range(size):
            if dom[i] != blocked and disc[i] < start:
                store.restrict(i, blocked)


class NoCheckerboard:
    """No 2x2 block `a b / c d` holds one value on a diagonal and the other on the other."""

    __slots__ = ("a", "b", "c", "d")

    def __init__(self, a: int, b: int, c: int, d: int) -> None:
        self.a, self.b, self.c, self.d = a, b, c, d  # diagonals (a, d) and (b, c)

    def __call__(self, store: Store) -> None:
        dom = store.dom
        a, b, c, d = self.a, self.b, self.c, self.d
        _diagonal(store, dom[a], dom[d], b, c)
        _diagonal(store, dom[b], dom[c], a, d)


def _diagonal(store: Store, first: int, second: int, p: int, q: int) -> None:
    """One diagonal equal and decided: the other may not be its opposite on both cells."""
    if first != second or first == UNDECIDED:
        return
    opposite = first ^ UNDECIDED
    if store.dom[p] == opposite:
        store.restrict(q, first)
    elif store.dom[q] == opposite:
        store.restrict(p, first)


class NoUniformBlock:
    """The four cells of a 2x2 block are not all `value` (a domain mask)."""

    __slots__ = ("cells", "value", "other")

    def __init__(self, a: int, b: int, c: int, d: int, value: int) -> None:
        self.cells = (a, b, c, d)
        self.value, self.other = value, _other(value)

    def __call__(self, store: Store) -> None:
        dom, value = store.dom, self.value
        open_cells = [i for i in self.cells if dom[i] != value]
        if not open_cells:
            raise Contradiction
        if len(open_cells) == 1:
            store.restrict(open_cells[0], self.other)


def blocks(grid: Grid) -> list[tuple[int, int, int, int]]:
    """Every 2x2 block `(a, b, c, d)` = top left, top right, bottom left, bottom right,
    row by row."""
    cols = grid.cols
    return [(r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
            for r in range(grid.rows - 1) for c in range(cols - 1)]


def hole_free_region(grid: Grid, member: int = IS_TRUE, *,
                     cuts: bool = True) -> list[tuple[Rule, list[int] | None, int]]:
    """(rule, watched cells or None for all, priority) of one connected region of
    `member` without holes: `NoCheckerboard` per block, `RegionConnected`, and the
    complement `ReachesBorder`; ready for `Propagator.add_rule`."""
    rules: list[tuple[Rule, list[int] | None, int]] = [
        (NoCheckerboard(*block), list(block), 0) for block in blocks(grid)]
    rules.append((RegionConnected(grid, member, cuts=cuts), None, GLOBAL_PRIORITY))
    rules.append((ReachesBorder(grid, _other(member), cuts=cuts), None, GLOBAL_PRIORITY))
    return rules
