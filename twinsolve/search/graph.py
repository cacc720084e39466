"""Breadth-first distances and connected components of a graph given by neighbour lists.

A graph on vertices 0..n-1 is a table `neighbours[v]` of the vertices adjacent
to v (symmetric, for components). `allowed`, when given, is indexed by vertex
(a bytes mask, a list of bools): the algorithms use only the vertices it marks
true, filtering neighbours as they go. These are the grid engine's own
algorithms (`search.grid.Grid` calls them with a grid's neighbour table
and open mask) for graphs that are not a grid: a grid with a virtual border
vertex, the encoding library's connectivity cuts (`models.graph_constraints`).

Why a list as the queue: it grows while it is iterated, a FIFO without deque
overhead, and every vertex enters it once.

>>> path = [[1], [0, 2], [1, 3], [2]]
>>> distances(path, [0]), distances(path, [0], allowed=[1, 1, 0, 1])
([0, 1, 2, 3], [0, 1, -1, -1])
>>> components(path, allowed=[1, 1, 0, 1])
[[0, 1], [3]]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["Neighbours", "UNREACHABLE", "distances", "component_labels", "components"]

Neighbours = Sequence[Sequence[int]]
UNREACHABLE = -1


def _everything(neighbours: Neighbours) -> bytes:
    # Why a mask of ones instead of `allowed is None or ...`: one test per edge in the loop.
    return b"\x01" * len(neighbours)


def distances(neighbours: Neighbours, sources: Iterable[int],
              allowed: Sequence[object] | None = None,
              max_dist: int | None = None) -> list[int]:
    """Edges from the nearest source to every vertex; -1 (`UNREACHABLE`) where none reaches.

    Sources not `allowed` are ignored; with `max_dist`, vertices farther stay -1.
    """
    allowed = _everything(neighbours) if allowed is None else allowed
    dist = [UNREACHABLE] * len(neighbours)
    queue = []
    for s in sources:
        if allowed[s] and dist[s] < 0:
            dist[s] = 0
            queue.append(s)
    stop = -1 if max_dist is None else max_dist
    for v in queue:
        dv = dist[v]
        if dv == stop:
            break  # BFS order: every vertex still queued is at least this far
        dv += 1
        for w in neighbours[v]:
            if dist[w] < 0 and allowed[w]:
                dist[w] = dv
                queue.append(w)
    return dist


def component_labels(neighbours: Neighbours,
                     allowed: Sequence[object] | None = None) -> list[int]:
    """A label 0, 1, ... per allowed vertex (numbered in order of first vertex), -1 elsewhere."""
    allowed = _everything(neighbours) if allowed is None else allowed
    labels = [-1] * len(neighbours)
    count = 0
    for s in range(len(neighbours)):
        if labels[s] >= 0 or not allowed[s]:
            continue
        labels[s] = count
        queue = [s]
        for v in queue:
            for w in neighbours[v]:
                if labels[w] < 0 and allowed[w]:
                    labels[w] = count
                    queue.append(w)
        count += 1
    return labels


def components(neighbours: Neighbours,
               allowed: Sequence[object] | None = None) -> list[list[int]]:
    """The connected components of the allowed vertices, each sorted, ordered by first vertex."""
    groups: list[list[int]] = []
    for vertex, label in enumerate(component_labels(neighbours, allowed)):
        if label >= 0:
            if label == len(groups):
                groups.append([])
            groups[label].append(vertex)
    return groups
