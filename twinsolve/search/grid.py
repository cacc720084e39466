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
- `articulation_points`: iterative Tarjan (no recursion limit on 100x100).
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

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from ..core.geometry import DELTAS, Direction

__all__ = ["Grid", "Direction", "DELTAS", "UNREACHABLE"]

UNREACHABLE = -1



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

    def _allowed(self, within: Iterable[int] | Mask | None) -> Mask:
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
        allowed = self._allowed(within)
        nbrs = self.neighbours
        dist = [UNREACHABLE] * self.size
        queue = []
        for s in sources:
            if allowed[s] and dist[s] < 0:
                dist[s] = 0
                queue.append(s)
        stop = -1 if max_dist is None else max_dist
        for v in queue:  # the list grows while iterated: a FIFO queue without deque overhead
            dv = dist[v]
            if dv == stop:
                break  # BFS order: every cell still queued is at least this far
            dv += 1
            for w in nbrs[v]:
                if dist[w] < 0 and allowed[w]:
                    dist[w] = dv
                    queue.append(w)
        return dist

    def shortest_path(
        self, source: int, target: int, *, within: Iterable[int] | Mask | None = None
    ) -> list[int] | None:
        """Cells from `source` to `target` inclusive along a shortest path, or None."""
        return self.path_to_nearest(source, (target,), within=within)

    def path_to_nearest(
        self, source: int, targets: Iterable[int], *, within: Iterable[int] | Mask | None = None
    ) -> list[int] | None:
        """A shortest path (cell list) from `source` to the nearest open target, or None."""
        allowed = self._allowed(within)
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
        allowed = self._allowed(within)
        nbrs = self.neighbours
        labels = [-1] * self.size
        count = 0
        for s in range(self.size):
            if not allowed[s] or labels[s] >= 0:
                continue
            labels[s] = count
            queue = [s]
            for v in queue:
                for w in nbrs[v]:
                    if labels[w] < 0 and allowed[w]:
                        labels[w] = count
                        queue.append(w)
            count += 1
        return labels

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

        Tarjan's low-link DFS, made iterative with an explicit stack and a
        per-cell position in its neighbour tuple.
        """
        allowed = self._allowed(within)
        nbrs = self.neighbours
        n = self.size
        disc = [-1] * n  # discovery time
        low = [0] * n  # lowest discovery time reachable by tree edges then one back edge
        parent = [-1] * n
        pos = [0] * n  # next neighbour to look at when the DFS returns to a cell
        cut = bytearray(n)
        timer = 0
        for root in range(n):
            if not allowed[root] or disc[root] >= 0:
                continue
            disc[root] = low[root] = timer
            timer += 1
            root_children = 0
            stack = [root]
            while stack:
                v = stack[-1]
                nv = nbrs[v]
                for p in range(pos[v], len(nv)):
                    w = nv[p]
                    if not allowed[w]:
                        continue
                    dw = disc[w]
                    if dw < 0:  # tree edge: descend, resume v after this neighbour later
                        pos[v] = p + 1
                        parent[w] = v
                        disc[w] = low[w] = timer
                        timer += 1
                        stack.append(w)
                        break
                    # A back edge. The tree edge to v's parent passes this test too, harmlessly:
                    # low[v] <= disc[parent] still leaves low[v] >= disc[parent] decided right
                    # (it would matter for bridges, not for articulation points).
                    if dw < low[v]:
                        low[v] = dw
                else:
                    stack.pop()
                    u = parent[v]
                    if u < 0:
                        continue
                    if low[v] < low[u]:
                        low[u] = low[v]
                    if u == root:
                        root_children += 1
                    elif low[v] >= disc[u]:
                        cut[u] = 1  # v's subtree has no way around u
            if root_children >= 2:
                cut[root] = 1
        return [i for i in range(n) if cut[i]]

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
