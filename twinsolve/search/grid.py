"""A rectangular grid graph on flat cell indices, with the usual grid algorithms.

Cell (r, c) of a ROWS x COLS grid is index `r * cols + c`. Two cells are
adjacent when they share a side; every cell's in-bounds neighbours are
precomputed once per grid size as a tuple in the fixed order right, down,
left, up (`Direction`), so every algorithm here visits cells in the same
order on every run. `steps[d][i]` is the neighbour of `i` in direction `d`,
or -1 past the border.

Cells are open or closed (walls). The `open` mask is a bytearray (1 = open):
`open_cell` / `close_cell` are O(1) and the algorithms filter neighbours by
the mask as they go. Every algorithm also takes an optional `within`: a set
of cell indices (or a bytes mask of length `size`) that further restricts
the graph to the open cells inside it.

- `distances`: multi-source BFS field, unit costs; -1 (`UNREACHABLE`) where
  no source reaches.
- `shortest_path`, `path_to_nearest`: cell lists, first neighbour order wins.
- `component_labels` / `components`: connected components of open cells.
- `articulation_points`: cut vertices, by `LowLink` (an iterative Tarjan DFS that
  also counts, per subtree, the vertices a caller marks; no recursion limit).
- `line_of_sight` / `sight_lines`: cells seen along a row or column.

>>> g = Grid.from_strings(["...", ".#.", "..."])
>>> g.distances([0])
[0, 1, 2, 1, -1, 3, 2, 3, 4]
>>> g.articulation_points()
[]
>>> g.close_cell(1); g.articulation_points()
[3, 5, 6, 7, 8]
>>> g.line_of_sight(3, Direction.RIGHT)
[]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache

from ..core.geometry import DELTAS, Direction
from . import graph
from .graph import UNREACHABLE

__all__ = ["Grid", "LowLink", "Direction", "DELTAS", "UNREACHABLE"]




Mask = bytes | bytearray
_TRUTH = bytes([0] + [1] * 255)  # bytes.translate table: any non-zero byte becomes 1


@lru_cache(maxsize=32)
def _tables(rows: int, cols: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """(neighbours, steps) for a grid size; cached because grids of one size share them."""
    steps = []
    for dr, dc in DELTAS:
        step = []
        for r in range(rows):
            for c in range(cols):
                rr, cc = r + dr, c + dc
                step.append(rr * cols + cc if 0 <= rr < rows and 0 <= cc < cols else -1)
        steps.append(tuple(step))
    neighbours = tuple(
        tuple(step[i] for step in steps if step[i] >= 0) for i in range(rows * cols))
    return neighbours, tuple(steps)


class LowLink:
    """Tarjan's low-link depth-first search over a neighbour table, reusable between runs.

    The idea. A DFS from `root` numbers vertices in discovery order (`disc`);
    `low[v]` is the smallest number reachable from v's subtree by tree edges
    and then one back edge. Removing a vertex u cuts the subtree of its child
    v off the root exactly when nothing in it climbs above u: low[v] >=
    disc[u]. The same traversal sums, per subtree, the vertices whose state is
    `marked` (`sub`), so it also says how many marked vertices each cut
    vertex separates from the root (`cut_off`). The plain articulation points
    are the case where every vertex is marked, plus the root when it has two
    or more DFS children (`Grid.articulation_points`); a constraint rule asks
    which cells separate something it cares about (Cave's connectivity).

    The table is any `neighbours[v]` sequence, so a caller may add virtual
    vertices (a border node joined to every edge cell). The DFS is iterative
    (the parent links are its stack, and a vertex left for a child keeps its
    iterator over its neighbours), so a 100x100 serpentine is no recursion
    problem. Scratch lists are kept between runs:
    a vertex counts as reached in a run when its discovery time is at least
    the run's `start`, so nothing is cleared per run (a propagation rule runs
    this at every search node).

    >>> g = Grid.from_strings(["...", "#.#", "..."])
    >>> lowlink = LowLink(g.neighbours)
    >>> lowlink.run(g.open, 0, blocked=0, marked=1)  # cells cutting others off from cell 0
    [1, 7, 4]
    >>> [lowlink.cut_off(v) for v in (1, 4, 7)], lowlink.reached(3)
    ([5, 3, 2], False)
    """

    __slots__ = ("neighbours", "disc", "low", "parent", "sub", "cut", "cut_run", "rests",
                 "stamp", "start")

    def __init__(self, neighbours: Sequence[Sequence[int]]) -> None:
        n = len(neighbours)
        self.neighbours = neighbours
        self.disc = [-1] * n  # discovery time; below `start`: not reached in the last run
        self.low = [0] * n
        self.parent = [-1] * n
        self.sub = [0] * n  # marked vertices in the DFS subtree
        self.cut = [0] * n  # marked vertices cut off from the root, valid where cut_run says
        self.cut_run = [-1] * n  # the `start` of the last run that found the vertex a cut
        self.rests: list[Iterator[int] | None] = [None] * n  # a parked vertex's neighbours
        self.stamp = 0  # the next discovery time
        self.start = 0  # the first discovery time of the last run

    def run(self, state: Sequence[int], root: int, blocked: int, marked: int) -> list[int]:
        """DFS from `root` over the vertices whose `state` is not `blocked`.

        Returns the vertices other than the root that cut at least one vertex
        whose state is `marked` off from the root, in the order found. After the
        run, for a vertex v with `reached(v)`: `sub[v]` counts the marked
        vertices of its DFS subtree, and `cut_off(v)` those that lose every
        path to the root when v is removed.
        """
        nbrs, disc, low, parent, sub, cut, cut_run, rests = (
            self.neighbours, self.disc, self.low, self.parent, self.sub, self.cut,
            self.cut_run, self.rests)
        self.start = start = timer = self.stamp
        disc[root] = low[root] = timer
        timer += 1
        parent[root] = -1
        sub[root] = state[root] == marked
        cuts = []
        # The vertex on top of the search, its lowest number so far and the iterator over
        # its neighbours, kept in locals; a vertex left for a child parks its iterator in
        # `rests` (one list for every run: no frame built per vertex), and resumes it
        # where it stopped when the search comes back.
        v, lowest, rest = root, timer - 1, iter(nbrs[root])
        while True:
            for w in rest:
                if state[w] == blocked:
                    continue
                dw = disc[w]
                if dw < start:  # tree edge: descend, come back to v's next neighbour later
                    low[v] = lowest
                    rests[v] = rest
                    parent[w] = v
                    disc[w] = lowest = timer
                    timer += 1
                    sub[w] = state[w] == marked
                    v, rest = w, iter(nbrs[w])
                    break
                # A back edge. The tree edge to v's parent passes this test too, harmlessly:
                # low[v] <= disc[parent] still leaves low[v] >= disc[parent] decided right
                # (it would matter for bridges, not for cut vertices).
                if dw < lowest:
                    lowest = dw
            else:
                low[v] = lowest
                u = parent[v]
                if u < 0:
                    break  # back at the root: done
                below = sub[v]
                sub[u] += below
                if below and lowest >= disc[u] and u != root:
                    # v's subtree, holding marked vertices, hangs on u. Why `cut_run`:
                    # resetting `cut` at each discovery would cost every vertex a write.
                    if cut_run[u] == start:
                        cut[u] += below
                    else:
                        cut_run[u] = start
                        cut[u] = below
                        cuts.append(u)
                child_low = lowest
                v, rest = u, rests[u]
                lowest = low[u]
                if child_low < lowest:
                    lowest = child_low
        self.stamp = timer
        return cuts

    def reached(self, v: int) -> bool:
        """Whether the last run reached `v`."""
        return self.disc[v] >= self.start

    def reached_count(self) -> int:
        """How many vertices the last run reached (its discovery times run from `start`)."""
        return self.stamp - self.start

    def cut_off(self, v: int) -> int:
        """How many marked vertices lose every path to the last run's root without `v`.

        0 for the root itself and for vertices the run did not reach.
        """
        return self.cut[v] if self.cut_run[v] == self.start else 0

    def root_children(self, root: int) -> int:
        """How many DFS children the root of the last run has (two or more: it is a cut)."""
        disc, parent, start = self.disc, self.parent, self.start
        return sum(1 for w in self.neighbours[root] if disc[w] >= start and parent[w] == root)


class Grid:
    """A ROWS x COLS grid graph; see the module docstring."""

    __slots__ = ("rows", "cols", "size", "neighbours", "steps", "open")

    def __init__(self, rows: int, cols: int, closed: Iterable[int] = ()) -> None:
        if rows < 1 or cols < 1:
            raise ValueError(f"grid must be at least 1x1, got {rows}x{cols}")
        self.rows = rows
        self.cols = cols
        self.size = rows * cols
        self.neighbours, self.steps = _tables(rows, cols)
        self.open = bytearray(b"\x01" * self.size)
        for i in closed:
            self.open[i] = 0

    @classmethod
    def from_strings(cls, lines: Sequence[str], closed: str = "#") -> Grid:
        """A grid from equal-length text rows; characters in `closed` are closed cells."""
        if not lines or any(len(line) != len(lines[0]) for line in lines):
            raise ValueError("rows must be non-empty and of equal length")
        cols = len(lines[0])
        return cls(len(lines), cols, [
            r * cols + c for r, line in enumerate(lines) for c, ch in enumerate(line)
            if ch in closed])

    def to_strings(self, open_char: str = ".", closed_char: str = "#") -> list[str]:
        chars = (closed_char, open_char)
        return ["".join(chars[self.open[r * self.cols + c]] for c in range(self.cols))
                for r in range(self.rows)]

    def copy(self) -> Grid:
        """A grid sharing the neighbour tables, with its own copy of the open mask."""
        other = Grid.__new__(Grid)
        other.rows, other.cols, other.size = self.rows, self.cols, self.size
        other.neighbours, other.steps = self.neighbours, self.steps
        other.open = bytearray(self.open)
        return other

    # -- cells -----------------------------------------------------------------------------

    def index(self, r: int, c: int) -> int:
        return r * self.cols + c

    def coords(self, i: int) -> tuple[int, int]:
        return divmod(i, self.cols)

    def is_open(self, i: int) -> bool:
        return bool(self.open[i])

    def open_cell(self, i: int) -> None:
        self.open[i] = 1

    def close_cell(self, i: int) -> None:
        self.open[i] = 0

    def open_cells(self) -> list[int]:
        return [i for i, flag in enumerate(self.open) if flag]

    def open_neighbours(self, i: int) -> list[int]:
        """Open neighbours of `i`, in the order right, down, left, up."""
        is_open = self.open
        return [w for w in self.neighbours[i] if is_open[w]]

    def allowed(self, within: Iterable[int] | Mask | None) -> Mask:
        """The mask of cells the graph algorithms may use: open, and in `within` if given."""
        if within is None:
            return self.open
        if isinstance(within, (bytes, bytearray)):
            if len(within) != self.size:
                raise ValueError(f"mask has length {len(within)}, grid has {self.size} cells")
            both = int.from_bytes(self.open, "little") & int.from_bytes(
                within.translate(_TRUTH), "little")
            return both.to_bytes(self.size, "little")
        allowed = bytearray(self.size)
        is_open = self.open
        for i in within:
            allowed[i] = is_open[i]
        return allowed

    # -- distances and paths ---------------------------------------------------------------

    def distances(
        self,
        sources: Iterable[int],
        *,
        within: Iterable[int] | Mask | None = None,
        max_dist: int | None = None,
    ) -> list[int]:
        """Moves from the nearest source to every cell; -1 (`UNREACHABLE`) if none reaches it.

        Sources that are closed (or outside `within`) are ignored. With `max_dist`,
        cells farther than that stay -1.
        """
        return graph.distances(self.neighbours, sources, self.allowed(within), max_dist)

    def shortest_path(
        self, source: int, target: int, *, within: Iterable[int] | Mask | None = None
    ) -> list[int] | None:
        """Cells from `source` to `target` inclusive along a shortest path, or None."""
        return self.path_to_nearest(source, (target,), within=within)

    def path_to_nearest(
        self, source: int, targets: Iterable[int], *, within: Iterable[int] | Mask | None = None
    ) -> list[int] | None:
        """A shortest path (cell list) from `source` to the nearest open target, or None."""
        allowed = self.allowed(within)
        goal = bytearray(self.size)
        for t in targets:
            goal[t] = allowed[t]
        if not allowed[source]:
            return None
        nbrs = self.neighbours
        prev = [-2] * self.size  # -2 unseen; -1 marks the source
        prev[source] = -1
        queue = [source]
        for v in queue:
            if goal[v]:
                path = [v]
                while prev[v] >= 0:
                    v = prev[v]
                    path.append(v)
                path.reverse()
                return path
            for w in nbrs[v]:
                if prev[w] == -2 and allowed[w]:
                    prev[w] = v
                    queue.append(w)
        return None

    def downhill(self, dist: Sequence[int], cell: int) -> int | None:
        """The first neighbour (right, down, left, up) one step nearer a source of `dist`.

        None at a source or where `dist` is unreachable: following `downhill`
        from any reached cell walks a shortest path to the nearest source.
        """
        d = dist[cell]
        if d <= 0:
            return None
        for w in self.neighbours[cell]:
            if dist[w] == d - 1:
                return w
        return None

    # -- connectivity ----------------------------------------------------------------------

    def component_labels(self, within: Iterable[int] | Mask | None = None) -> list[int]:
        """A label 0, 1, ... per open cell (numbered in order of first cell), -1 elsewhere."""
        return graph.component_labels(self.neighbours, self.allowed(within))

    def components(self, within: Iterable[int] | Mask | None = None) -> list[list[int]]:
        """The connected components of open cells, each sorted, ordered by first cell."""
        groups: list[list[int]] = []
        for cell, label in enumerate(self.component_labels(within)):
            if label >= 0:
                if label == len(groups):
                    groups.append([])
                groups[label].append(cell)
        return groups

    def articulation_points(self, within: Iterable[int] | Mask | None = None) -> list[int]:
        """Open cells whose removal splits their component, sorted ascending.

        One `LowLink` traversal per component, every cell counted: a cell other
        than the root is a cut vertex iff it cuts some cell off from the root,
        the root iff it has two or more DFS children.
        """
        allowed = self.allowed(within)
        lowlink = LowLink(self.neighbours)
        cut = bytearray(self.size)
        for root in range(self.size):
            if not allowed[root] or lowlink.disc[root] >= 0:
                continue  # a fresh LowLink: discovered by the run of an earlier component
            for u in lowlink.run(allowed, root, blocked=0, marked=1):
                cut[u] = 1
            if lowlink.root_children(root) >= 2:
                cut[root] = 1
        return [i for i in range(self.size) if cut[i]]

    def separators(self, source: int, target: int,
                   within: Iterable[int] | Mask | None = None) -> list[int]:
        """The cells other than `source` and `target` whose removal cuts `target` off from
        `source`, sorted ascending ([] when no path joins them, or when nothing cuts it).

        One `LowLink` run from `source` with only `target` marked: a cell separates
        them exactly when it cuts a marked cell off from the root.

        >>> Grid.from_strings(["..#", "...", "#.."]).separators(0, 8)
        [4]
        """
        allowed = self.allowed(within)
        if not (allowed[source] and allowed[target]) or source == target:
            return []
        state = bytearray(allowed)  # 0 blocked, 1 open, 2 the target
        state[target] = 2
        lowlink = LowLink(self.neighbours)
        cuts = lowlink.run(state, source, blocked=0, marked=2)
        return sorted(cell for cell in cuts if cell != target)

    # -- line of sight ---------------------------------------------------------------------

    def line_of_sight(
        self,
        cell: int,
        direction: Direction | int,
        *,
        radius: int | None = None,
        stop: Callable[[int], bool] | None = None,
        include_blocker: bool = False,
    ) -> list[int]:
        """Cells seen from `cell` (excluded) looking in `direction`, nearest first.

        Sight runs over open cells for which `stop(cell)` is false, at most
        `radius` cells far; the first blocking cell (closed, or `stop` true) is
        included only with `include_blocker` (a robot sees the wall it faces).
        """
        step = self.steps[direction]
        is_open = self.open
        seen = []
        i = step[cell]
        while i >= 0 and len(seen) != radius:
            if not is_open[i] or (stop is not None and stop(i)):
                if include_blocker:
                    seen.append(i)
                break
            seen.append(i)
            i = step[i]
        return seen

    def sight_lines(
        self,
        cell: int,
        *,
        radius: int | None = None,
        stop: Callable[[int], bool] | None = None,
        include_blocker: bool = False,
    ) -> tuple[list[int], list[int], list[int], list[int]]:
        """`line_of_sight` in the four directions right, down, left, up."""
        right, down, left, up = (
            self.line_of_sight(cell, d, radius=radius, stop=stop, include_blocker=include_blocker)
            for d in Direction)
        return right, down, left, up
