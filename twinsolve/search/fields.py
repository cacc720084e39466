"""Weighted fields and paths on a `Grid`: cost fields, A* paths, depth-first order, and a
cache that lets several callers share them.

The rules. Moving is between side-adjacent open cells (and cells inside
`within`, when given: a set of cell indices or a bytes mask, as in `grid`).
Entering cell v costs `cost[v]`: a sequence with one integer >= 0 per cell
(only the costs of usable cells are read, so walls may hold anything), for
example floor 10, cover 17, alarm 30 in tenths of a move. Leaving a cell
is free, so a path's cost is the sum of the costs of its cells after the
first. Fields hold -1 (`UNREACHABLE`) where nothing reaches.

- `cost_field`: multi-source Dijkstra; every cell's cost from the cheapest
  source. `sources` is an iterable of cells (each starts at cost 0) or a
  mapping cell -> start cost (a head start or a handicap per source).
  `cost_field_search` also says how many cells it settled (search nodes).
- `downhill`: the first neighbour one step nearer a source of a cost field;
  following it walks a cheapest path to a source.
- `astar_path`: a cheapest path between two cells, as a `GridPath` (cells,
  cost, the cells expanded in order).
- `dfs_order`: the depth-first preorder of the cells reachable from a cell.
- `FieldCache`: fields computed once per origin for one open mask, shared.

The idea, and why results are reproducible. Every search here visits
neighbours in the grid's fixed order right, down, left, up, updates a cell
only on a strictly lower cost, and keeps a binary heap of
`(priority, counter, ...)` entries whose counter is the insertion order, so
equal priorities pop first-in first-out, as in `search.costs`. Cells live in
flat lists indexed by cell, never in the heap's comparisons. Stale entries
(a cheaper one was pushed since) are skipped on pop; the first pop of a cell
in Dijkstra settles it. A* guides the same search with the Manhattan
distance to the goal times the cheapest step (the smallest cost among usable
cells, or a caller's `min_step`): each move changes the Manhattan distance
by one and costs at least the cheapest step, so the heuristic is admissible
and consistent, a cell is expanded at most once, and the goal test on pop
makes the cost optimal. A cost field is unique whatever the tie order; an
A* path is not, and the insertion-order ties pick the same one on every run.
The depth-first order keeps a stack of neighbour iterators instead of
recursing, so a 64x64 serpentine is no recursion problem.

References: Dijkstra (1959); Hart, Nilsson and Raphael (1968) for A*.

>>> g = Grid.from_strings(["...", ".#.", "..."])
>>> cost = [10, 10, 10, 70, 0, 10, 10, 10, 10]   # cell 3 is dear; cell 4 is a wall
>>> cost_field(g, [0], cost)                       # going round to 6 beats crossing 3
[0, 10, 20, 70, -1, 30, 60, 50, 40]
>>> cost_field(g, {0: 0, 8: 5}, cost)              # cell 8 starts 5 behind
[0, 10, 20, 70, -1, 15, 25, 15, 5]
>>> found = astar_path(g, 0, 6, cost)
>>> found.cells, found.cost, found.nodes
((0, 1, 2, 5, 8, 7, 6), 60, 6)
>>> dfs_order(g, 0)
[0, 1, 2, 5, 8, 7, 6, 3]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from heapq import heappop, heappush
from itertools import compress
from sys import maxsize

from .grid import UNREACHABLE, Grid, Mask

__all__ = ["cost_field", "cost_field_search", "FieldSearch", "downhill", "astar_path",
           "GridPath", "dfs_order", "FieldCache", "UNREACHABLE"]

Within = Iterable[int] | Mask | None
Sources = Iterable[int] | Mapping[int, int]


def _usable(grid: Grid, cost: Sequence[int], within: Within) -> Mask:
    """The mask of cells a search may use, after checking `cost` against it."""
    if len(cost) != grid.size:
        raise ValueError(f"cost has {len(cost)} entries, grid has {grid.size} cells")
    # The grid's own `allowed`: the one reading of `within` (a set or a mask).
    allowed = grid.allowed(within)
    if min(compress(cost, allowed), default=0) < 0:
        raise ValueError("cell costs must be >= 0")
    return allowed


# -- cost fields ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldSearch:
    """What `cost_field_search` found: `costs` (the field; -1 where unreached) and
    `nodes`, the cells it settled (each popped once, at its final cost)."""

    costs: list[int]
    nodes: int


def cost_field_search(
    grid: Grid,
    sources: Sources,
    cost: Sequence[int],
    *,
    within: Within = None,
    max_cost: int | None = None,
) -> FieldSearch:
    """`cost_field`, with the number of cells settled; see there.

    >>> g = Grid(1, 4)
    >>> cost_field_search(g, [0], [1, 1, 1, 1], max_cost=2)
    FieldSearch(costs=[0, 1, 2, -1], nodes=3)
    """
    allowed = _usable(grid, cost, within)
    starts = sources.items() if isinstance(sources, Mapping) else ((s, 0) for s in sources)
    limit = maxsize if max_cost is None else max_cost
    best = [maxsize] * grid.size  # cheapest cost pushed so far
    heap: list[tuple[int, int, int]] = []
    for cell, start in starts:
        if start < 0:
            raise ValueError(f"start cost {start} of source {cell} is negative")
        if allowed[cell] and start < best[cell] and start <= limit:
            best[cell] = start
            heap.append((start, len(heap), cell))
    heap.sort()  # a heap, in insertion order among equal start costs
    counter = len(heap)
    field = [UNREACHABLE] * grid.size  # set when a cell is settled: its first pop
    nbrs = grid.neighbours
    nodes = 0
    while heap:
        g, _order, v = heappop(heap)
        if field[v] >= 0:
            continue  # stale: v was settled by a cheaper entry
        field[v] = g
        nodes += 1
        for w in nbrs[v]:
            if allowed[w]:
                ng = g + cost[w]
                if ng < best[w] and ng <= limit:
                    best[w] = ng
                    heappush(heap, (ng, counter, w))
                    counter += 1
    return FieldSearch(field, nodes)


def cost_field(
    grid: Grid,
    sources: Sources,
    cost: Sequence[int],
    *,
    within: Within = None,
    max_cost: int | None = None,
) -> list[int]:
    """The cost from the cheapest source to every cell; -1 (`UNREACHABLE`) where none reaches.

    `sources` is an iterable of cells, each starting at cost 0, or a mapping
    cell -> start cost (>= 0). Sources that are closed or outside `within` are
    ignored. With `max_cost`, cells dearer than that stay -1. Entering cell v
    costs `cost[v]`; see the module docstring.
    """
    return cost_field_search(grid, sources, cost, within=within, max_cost=max_cost).costs


def downhill(grid: Grid, field: Sequence[int], cost: Sequence[int], cell: int) -> int | None:
    """The first neighbour (right, down, left, up) one step nearer a source of `field`.

    `field` is a `cost_field` for the same `cost`: the neighbour w with
    `field[w] + cost[cell] == field[cell]`. None at a cost-0 source and where
    the field is -1; following `downhill` from a reached cell walks a cheapest
    path to a source (with positive costs; the `Grid.downhill` of cost fields).
    """
    here = field[cell]
    if here < 0:
        return None
    before = here - cost[cell]
    if before < 0:
        return None
    for w in grid.neighbours[cell]:
        if field[w] == before:
            return w
    return None  # a source with a start cost: nothing leads here more cheaply


# -- A* ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridPath:
    """A cheapest path found by `astar_path`.

    `cells` runs from the start to the goal inclusive; `cost` is the sum of
    `cost[v]` over the cells after the start; `expanded` lists the cells the
    search expanded, in order (the goal is popped, not expanded), and `nodes`
    is their number. Each cell appears once, except after a caller's
    `min_step` larger than some step's cost: then a cell may be reopened.
    """

    cells: tuple[int, ...]
    cost: int
    expanded: tuple[int, ...]

    @property
    def nodes(self) -> int:
        return len(self.expanded)


def astar_path(
    grid: Grid,
    start: int,
    goal: int,
    cost: Sequence[int],
    *,
    within: Within = None,
    min_step: int | None = None,
) -> GridPath | None:
    """A cheapest path from `start` to `goal`, or None when the goal cannot be reached.

    Entering cell v costs `cost[v]`. The heuristic is the Manhattan distance
    to the goal times `min_step`, by default the smallest cost among the usable
    cells; a caller's `min_step` must not exceed the cost of any step the path
    may take, or the path may not be cheapest. Equal priorities pop in
    insertion order, so equal inputs give the same path; see the module
    docstring.

    >>> g = Grid(2, 2)
    >>> astar_path(g, 0, 3, [1, 1, 1, 1]).cells   # right then down: right comes first
    (0, 1, 3)
    """
    allowed = _usable(grid, cost, within)
    if not (allowed[start] and allowed[goal]):
        return None
    step = min(compress(cost, allowed)) if min_step is None else min_step
    heuristic = _manhattan(grid, goal, step)
    best = [maxsize] * grid.size
    parent = [-1] * grid.size
    best[start] = 0
    heap = [(heuristic[start], 0, 0, start)]
    counter = 1
    expanded: list[int] = []
    nbrs = grid.neighbours
    while heap:
        _f, _order, g, v = heappop(heap)
        if g > best[v]:
            continue  # stale: a cheaper path to v was pushed after this entry
        if v == goal:
            return GridPath(_trace(parent, start, goal), g, tuple(expanded))
        expanded.append(v)
        for w in nbrs[v]:
            if allowed[w]:
                ng = g + cost[w]
                if ng < best[w]:
                    best[w] = ng
                    parent[w] = v
                    heappush(heap, (ng + heuristic[w], counter, ng, w))
                    counter += 1
    return None


def _manhattan(grid: Grid, goal: int, step: int) -> list[int]:
    """`step` times the Manhattan distance from every cell to `goal`.

    Why a whole table: one list read per push is cheaper than the arithmetic,
    and a row and a column sum build it in a few hundred microseconds on 64x64.
    """
    goal_row, goal_col = divmod(goal, grid.cols)
    by_row = [abs(r - goal_row) * step for r in range(grid.rows)]
    by_col = [abs(c - goal_col) * step for c in range(grid.cols)]
    return [down + across for down in by_row for across in by_col]


def _trace(parent: list[int], start: int, goal: int) -> tuple[int, ...]:
    """The cells from `start` to `goal` along `parent` links."""
    cells = [goal]
    v = goal
    while v != start:
        v = parent[v]
        cells.append(v)
    cells.reverse()
    return tuple(cells)


# -- depth-first order ---------------------------------------------------------------------


def dfs_order(grid: Grid, start: int, *, within: Within = None) -> list[int]:
    """The usable cells reachable from `start` in depth-first preorder ([] if start is not
    usable), each cell's neighbours tried in the order right, down, left, up.

    The order is that of the recursive DFS, kept on a stack of neighbour
    iterators: a cell's iterator resumes where it stopped when the DFS
    returns to it.

    >>> dfs_order(Grid(2, 2), 0)
    [0, 1, 3, 2]
    """
    free = bytearray(grid.allowed(within))  # usable and not yet visited
    if not free[start]:
        return []
    nbrs = grid.neighbours
    free[start] = 0
    order = [start]
    stack = [iter(nbrs[start])]
    while stack:
        for w in stack[-1]:
            if free[w]:
                free[w] = 0
                order.append(w)
                stack.append(iter(nbrs[w]))
                break
        else:
            stack.pop()
    return order


# -- sharing ----------------------------------------------------------------------------------


class FieldCache:
    """Fields on one grid and one cost table, each computed once and shared.

    `field(origin)` is `cost_field(grid, [origin], cost)`, `bfs(origin)` is
    `grid.distances([origin])`, `articulation_points()` is
    `grid.articulation_points()`, all restricted to `within` if given. Results
    are tuples, shared by every caller, so no caller can spoil another's.

    What keeps it true: `cost` and `within` are copied at creation; the grid's
    open mask is compared with the one the cached results were computed on
    at every call (one bytes comparison), and when it changed everything
    cached is dropped (`drops` counts it), so a cache never answers for a
    mask it did not see. `clear()` drops by hand. `hits` and `misses` count
    lookups; `nodes` sums the search nodes the misses cost (cells settled by
    a cost field, reached by a BFS, traversed by the articulation search), so
    a caller can report the work a cached answer saved.

    >>> cache = FieldCache(Grid(1, 3), [1, 2, 3])
    >>> cache.field(0), cache.field(0), (cache.hits, cache.misses, cache.nodes)
    ((0, 2, 5), (0, 2, 5), (1, 1, 3))
    """

    __slots__ = ("grid", "cost", "within", "hits", "misses", "nodes", "drops",
                 "_open", "_fields", "_distances", "_cuts")

    def __init__(self, grid: Grid, cost: Sequence[int], *, within: Within = None) -> None:
        if len(cost) != grid.size:
            raise ValueError(f"cost has {len(cost)} entries, grid has {grid.size} cells")
        self.grid = grid
        self.cost = tuple(cost)
        self.within: bytes | None = None
        if within is not None:
            if isinstance(within, (bytes, bytearray)):
                self.within = bytes(within)
            else:
                mask = bytearray(grid.size)
                for i in within:
                    mask[i] = 1
                self.within = bytes(mask)
        self.hits = self.misses = self.nodes = self.drops = 0
        self._open = bytes(grid.open)
        self._fields: dict[int, tuple[int, ...]] = {}
        self._distances: dict[int, tuple[int, ...]] = {}
        self._cuts: tuple[int, ...] | None = None

    def clear(self) -> None:
        """Drop every cached result (the counts stay)."""
        self._fields.clear()
        self._distances.clear()
        self._cuts = None

    def _current(self) -> None:
        """Drop what was computed on another open mask than the grid's present one."""
        if self.grid.open != self._open:
            self._open = bytes(self.grid.open)
            self.clear()
            self.drops += 1

    def field(self, origin: int) -> tuple[int, ...]:
        """The cost field from `origin` (see `cost_field`), computed once."""
        return self._cached(self._fields, origin, self._cost_field)

    def bfs(self, origin: int) -> tuple[int, ...]:
        """Moves from `origin` to every cell (see `Grid.distances`), computed once."""
        return self._cached(self._distances, origin, self._distances_from)

    def _cached(self, table: dict[int, tuple[int, ...]], origin: int,
                compute: Callable[[int], tuple[list[int], int]]) -> tuple[int, ...]:
        """`table[origin]`, computed by `compute(origin) -> (values, nodes)` on a miss."""
        self._current()
        found = table.get(origin)
        if found is not None:
            self.hits += 1
            return found
        self.misses += 1
        values, nodes = compute(origin)
        self.nodes += nodes
        found = table[origin] = tuple(values)
        return found

    def _cost_field(self, origin: int) -> tuple[list[int], int]:
        search = cost_field_search(self.grid, [origin], self.cost, within=self.within)
        return search.costs, search.nodes

    def _distances_from(self, origin: int) -> tuple[list[int], int]:
        dist = self.grid.distances([origin], within=self.within)
        return dist, len(dist) - dist.count(UNREACHABLE)

    def articulation_points(self) -> tuple[int, ...]:
        """The cut cells of the usable cells (see `Grid.articulation_points`), computed once."""
        self._current()
        if self._cuts is not None:
            self.hits += 1
            return self._cuts
        self.misses += 1
        self.nodes += self.grid.allowed(self.within).count(1)
        self._cuts = tuple(self.grid.articulation_points(self.within))
        return self._cuts
