"""Connectivity of the active vertices of a graph, for CP-SAT models and SAT encodings.

The constraint. A graph on vertices 0..n-1 is given by its neighbour lists
(`neighbours[v]`, symmetric); each vertex has a Boolean `active`. The active
vertices must induce ONE connected subgraph (no active vertex, or one, counts
as connected). With a `root` (a vertex known to be active, or a virtual vertex
such as "the border of the grid") the root is made active and every active
vertex must be reachable from it through active vertices.

Encodings (CP-SAT, `connected(model, active, neighbours, root, method)`):

- `flow` (default): single-commodity flow. The root sends one unit to every
  other active vertex along arcs whose two ends are active (capacity n-1);
  each active non-root vertex keeps one. CP-SAT's LP relaxation sees the
  flow balance, which prunes far better than integer bounds alone.
- `height`: an integer height per vertex, 0 at the root, and for every
  active non-root vertex a chosen arc from an active neighbour of strictly
  smaller height. Following chosen arcs strictly decreases the height, so
  it ends at the root; a connected set has such heights (BFS distances).
- `distance`: dist[v] = 1 + min(dist of the neighbours) for an active
  non-root vertex, n for an inactive one. These Bellman equations have no
  solution on a component without the root and exactly one (the BFS
  distances) on a connected set, so every auxiliary is FIXED by `active`:
  one model solution per active set, which is what CP-SAT's own solution
  enumeration needs to count (`twinsolve.puzzles.cave.models` counts with it).
- `layers`: purely Boolean BFS layers: `reach[k, v]` = v is reached within k
  steps; it needs `reach[k-1, .]` on v or a neighbour, and every active
  vertex is reached by the last layer. O(n^2) literals; this is also the
  complete CNF, `connected_clauses`.
- lazy cuts (no constraint up front): solve without connectivity, find the
  components of the model, add `separator_cuts`, solve again. Back-ends run
  that loop themselves (`twinsolve.puzzles.cave.models`, SAT and `cpsat:connectivity=lazy`).

Without a root, a vertex is the root exactly when it is the first active
vertex in index order (a chain of "no active vertex before" literals), so
each active set has one root and no symmetric copies.

Every encoding also adds the implied clause "an active non-root vertex has an
active neighbour" (with a root there are two active vertices, so none is
isolated): cheap, and it lets unit propagation do the local work.

Which is fastest. Measured on the 140 janko.at Cave puzzles (10x10 to 15x15,
one 10x18): the cave connected, the outside connected to a virtual border
vertex, uniqueness proven (a second search); CP-SAT 9.15 with one worker and
the cave model's parameters, CaDiCaL 1.9.5 through PySAT; a shared 2-core
machine; `python -m benchmarks.cave_models_perf --connectivity`:

    back-end  encoding  solved  timeouts  median s  max s   median nodes
    cpsat     flow        140       0      0.063     1.09        848
    cpsat     height      139       1      0.105    17.4        4256
    cpsat     distance    140       0      0.048     4.97        422
    cpsat     layers      134       6      1.74     24.6       92720
    cpsat     lazy        140       0      0.055    27.8        1093
    sat       lazy        140       0      0.009     0.073        22
    sat       layers      140       0      0.23      9.7        8944

(timeouts at 30 s; max over the puzzles solved). `flow` is the CP-SAT
default: the only encoding without a heavy tail. `height` and `distance`
have medians as low but stall on single puzzles, `layers` is large, and lazy
cuts pay a whole CP-SAT run per round (76_11x11 needs dozens of rounds). For
SAT, lazy cuts in one incremental solver win by an order of magnitude: the
cuts are short clauses, CaDiCaL keeps what it learnt between rounds, and few
rounds are needed (median 4 solver calls, uniqueness included; at most 135).

Lazy cuts (`separator_cuts`). Take a component C of the active vertices in a
model that is not the root's component R (without a root: not the largest,
whose first vertex v then joins every clause). Let X be C or R and Y the
other, and B the vertices adjacent to X, not in X, from which Y can be
reached without entering X; all of B is inactive in the model. For u in C:

    (not active[u]) [or (not active[v])] or OR_{b in B} active[b].

Soundness: in any connected solution with u (and v) active, some path of
active vertices joins X and Y (u is in C, the root or v in R). Walk it from
X to Y and stop at its last vertex in X: the next vertex b is adjacent to X,
not in X, and the rest of the path reaches Y without entering X, so b is in
B, and b is active. (All of C lies in one component of the graph without R,
so reaching C's first vertex is reaching u.) Hence every connected solution
satisfies every cut. B is taken on the side, X = C or X = R, where it is
smaller: a shorter clause prunes more. If C holds a vertex known to be active
(`required`, e.g. a clue cell), its clause (u = that vertex, so it reduces to
"some b in B is active") implies the others, and only it is added. The loop
"solve, add the cuts of the model, solve again" never loses a connected
solution, and it ends: a disconnected model violates its own cuts (u, v
active, all of B inactive), so no model comes back.

Size and time. Every encoding but `layers` is linear in the graph (without a
root, the count of active vertices is one variable, not a sum in each
vertex's constraint), and the builders check the run's time limit once per
vertex or arc (`core.time_limit.checkpoint`), so a model too large to build
in time ends as a `timeout` at the limit.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Collection, Hashable, Sequence
from typing import Any, NamedTuple

from ortools.sat.python import cp_model

from ..core.time_limit import checkpoint
from ..search import graph
from ..search.graph import Neighbours
from ..search.grid import Grid

__all__ = ["METHODS", "DEFAULT_METHOD", "Neighbours", "Cut", "connected", "connected_clauses",
           "implied_clauses", "components", "is_connected", "separator_cuts",
           "grid_neighbours"]

METHODS = ("height", "flow", "distance", "layers")
DEFAULT_METHOD = "flow"
_SIDES = ("small", "component", "root", "both")


# ---------------------------------------------------------------- plain graph helpers
# The searches themselves are the engine's (`search.graph`, `search.grid`): one BFS.

def grid_neighbours(rows: int, cols: int) -> list[list[int]]:
    """Neighbour lists of the ROWS x COLS grid graph, cell (r, c) = r * cols + c, in the
    grid engine's order (right, down, left, up).

    >>> grid_neighbours(2, 2)
    [[1, 2], [3, 0], [3, 0], [2, 1]]
    """
    return [list(cell) for cell in Grid(rows, cols).neighbours]


def components(values: Sequence[bool], neighbours: Neighbours) -> list[list[int]]:
    """The connected components of the active vertices, each a sorted list, in order of
    their smallest vertex.

    >>> components([1, 1, 0, 1], [[1], [0, 2], [1, 3], [2]])
    [[0, 1], [3]]
    """
    return graph.components(neighbours, allowed=values)


def is_connected(values: Sequence[bool], neighbours: Neighbours, root: int | None = None) -> bool:
    """True when the active vertices form one component (and it holds `root`, if given)."""
    parts = components(values, neighbours)
    if root is not None:
        return bool(values[root]) and len(parts) == 1
    return len(parts) <= 1


# ---------------------------------------------------------------- lazy cuts

class Cut(NamedTuple):
    """The clause "some vertex of `off` is inactive, or some vertex of `on` is active"."""

    off: tuple[int, ...]
    on: tuple[int, ...]


def _separator(part: set[int], target: int, neighbours: Neighbours) -> tuple[int, ...]:
    """Vertices next to `part`, outside it, from which `target` is reachable avoiding `part`."""
    outside = bytearray(b"\x01") * len(neighbours)
    for v in part:
        outside[v] = 0  # never entered
    reach = graph.distances(neighbours, (target,), allowed=outside)
    border = {u for v in part for u in neighbours[v] if u not in part and reach[u] >= 0}
    return tuple(sorted(border))


def separator_cuts(values: Sequence[bool], neighbours: Neighbours, root: int | None = None,
                   required: Collection[int] = (), side: str = "small") -> list[Cut]:
    """Cuts that the model `values` violates when its active vertices are not connected.

    [] when they are connected (and hold `root`). With a root, every component
    C without it gets one cut per vertex u: (not u) or some separator vertex
    on; one cut in all when C holds a `required` vertex (one known active).
    Without a root, the largest component plays the root's part and its first
    vertex v joins each clause: (not u) or (not v) or some separator vertex on.
    The separator is the inactive boundary of C, or of the root's component,
    whichever is smaller (`side` = "small"; "component" / "root" / "both").
    See the module docstring for the proof that every cut is sound.
    """
    if side not in _SIDES:
        raise ValueError(f"unknown separator side {side!r} (choose one of {', '.join(_SIDES)})")
    parts = components(values, neighbours)
    if root is not None and not values[root]:
        raise ValueError("the root must be active in the model")
    if root is None:
        if len(parts) <= 1:
            return []
        main = max(parts, key=len)
        anchor, extra = main[0], (main[0],)
    else:
        main = next(p for p in parts if root in p)
        anchor, extra = root, ()
    main_set = set(main)
    cuts = []
    for part in parts:
        if part is main:
            continue
        members = set(part)
        seps = []
        if side in ("component", "both", "small"):
            seps.append(_separator(members, anchor, neighbours))
        if side in ("root", "both", "small"):
            seps.append(_separator(main_set, part[0], neighbours))
        if side == "small":
            seps = [min(seps, key=len)]
        forced = [u for u in part if u in required]
        starts = forced[:1] if forced else part
        for separator in seps:
            cuts.extend(Cut(extra if forced else (u,) + extra, separator) for u in starts)
    return cuts


# ---------------------------------------------------------------- clause sinks

class _CpSink:
    """Clauses into a CP-SAT model (literals are BoolVars / negated BoolVars)."""

    def __init__(self, model: cp_model.CpModel, name: str) -> None:
        self.model, self.name = model, name

    def new_var(self, *key: Hashable) -> Any:
        return self.model.new_bool_var(f"{self.name}{list(key)}")

    def neg(self, lit: Any) -> Any:
        return lit.negated()

    def clause(self, lits: Sequence[Any]) -> None:
        self.model.add_bool_or(list(lits))

    def true(self) -> Any:
        return self.model.new_constant(1)


class _CnfSink:
    """Clauses over integer literals; `new_var(key)` names each auxiliary."""

    def __init__(self, new_var: Callable[[Hashable], int]) -> None:
        self._new_var = new_var
        self.clauses: list[list[int]] = []
        self._true: int | None = None

    def new_var(self, *key: Hashable) -> int:
        return self._new_var(key)

    def neg(self, lit: int) -> int:
        return -lit

    def clause(self, lits: Sequence[int]) -> None:
        self.clauses.append(list(lits))

    def true(self) -> int:
        if self._true is None:
            self._true = self._new_var(("true",))
            self.clauses.append([self._true])
        return self._true


def _roots(sink: Any, active: Sequence[Any], root: int | None) -> list[Any]:
    """One literal per vertex: "this vertex is the root".

    Without a given root, vertex v is the root iff it is active and no earlier
    vertex is (`none[v]`: no vertex before v is active) - exactly one root
    for every non-empty active set, so no symmetric copies of a solution.
    """
    n = len(active)
    if root is not None:
        sink.clause([active[root]])
        return [sink.true() if v == root else None for v in range(n)]
    roots, none_before = [], None
    for v in range(n):
        checkpoint()
        is_root = sink.new_var("root", v)
        if none_before is None:   # the first vertex: root iff active
            sink.clause([sink.neg(is_root), active[v]])
            sink.clause([is_root, sink.neg(active[v])])
        else:
            # is_root <-> active[v] and none_before
            sink.clause([sink.neg(is_root), active[v]])
            sink.clause([sink.neg(is_root), none_before])
            sink.clause([is_root, sink.neg(active[v]), sink.neg(none_before)])
        roots.append(is_root)
        if v < n - 1:
            nxt = sink.new_var("none", v + 1)
            # nxt <-> none_before and not active[v]  (none_before is true for v = 0)
            sink.clause([sink.neg(nxt), sink.neg(active[v])])
            sink.clause([nxt, active[v]] + ([sink.neg(none_before)] if none_before is not None
                                            else []))
            if none_before is not None:
                sink.clause([sink.neg(nxt), none_before])
            none_before = nxt
    return roots


def _neighbour_clauses(sink: Any, active: Sequence[Any], neighbours: Neighbours,
                       root: int | None) -> None:
    """Implied: with a root, an active non-root vertex has an active neighbour.

    Why only with a root: without one, a lone active vertex is connected.
    """
    for clause in implied_clauses(active, neighbours, root, sink.neg):
        sink.clause(clause)


def _layers(sink: Any, active: Sequence[Any], neighbours: Neighbours, root: int | None) -> None:
    """BFS layers: reach[k][v] means "v is reached from the root within k steps".

    Clauses: reach[k][v] -> active[v]; reach[k][v] -> reach[k-1][v] or some
    reach[k-1][u], u a neighbour; active[v] -> reach[last][v]; reach[0] is the
    root. A model gives every active v a path of active vertices from the root
    (induction on k), and a connected set is a model with reach[k][v] = "v is
    active at distance <= k". Layers below v's distance from a given root are
    false and left out.
    """
    n = len(active)
    roots = _roots(sink, active, root)
    lower = graph.distances(neighbours, (root,)) if root is not None else [0] * n
    last = n - 1
    previous: list[Any] = [roots[v] if v == root or root is None else None for v in range(n)]
    for k in range(1, last + 1):
        checkpoint()  # n layers of n vertices: the one quadratic encoding
        layer: list[Any] = []
        for v in range(n):
            if v == root or lower[v] < 0 or lower[v] > k:
                layer.append(previous[v])
                continue
            reach = sink.new_var("reach", k, v)
            sink.clause([sink.neg(reach), active[v]])
            support = [lit for lit in [previous[v]] + [previous[u] for u in neighbours[v]]
                       if lit is not None]
            sink.clause([sink.neg(reach)] + support)
            layer.append(reach)
        previous = layer
    for v in range(n):
        if v == root:
            continue
        sink.clause([sink.neg(active[v])] + ([previous[v]] if previous[v] is not None else []))


def implied_clauses(active: Sequence[Any], neighbours: Neighbours, root: int | None = None,
                    neg: Callable[[Any], Any] = operator.neg) -> list[list[Any]]:
    """What a lazy-cut loop states up front: the root is active, and (with a root) an
    active non-root vertex has an active neighbour. Implied by connectivity.

    Literals are anything `neg` negates: integers (the default) or CP-SAT
    literals with `neg=lambda lit: lit.negated()`.
    """
    clauses: list[list[Any]] = [] if root is None else [[active[root]]]
    if root is not None:
        for v in range(len(active)):
            if v != root:
                clauses.append([neg(active[v])] + [active[u] for u in neighbours[v]])
    return clauses


def connected_clauses(active: Sequence[int], neighbours: Neighbours,
                      new_var: Callable[[Hashable], int], root: int | None = None
                      ) -> list[list[int]]:
    """A complete CNF of "the active vertices are connected" (BFS layers, see `_layers`).

    `active` are integer literals; `new_var(key)` returns a fresh variable for
    a readable key such as ("reach", k, v). Returns the clauses.

    >>> from pysat.formula import IDPool; pool = IDPool(start_from=3)
    >>> cnf = connected_clauses([1, 2], [[1], [0]], lambda key: pool.id(key), root=0)
    >>> [1] in cnf and [-2, 1] in cnf
    True
    """
    sink = _CnfSink(new_var)
    _neighbour_clauses(sink, active, neighbours, root)
    _layers(sink, active, neighbours, root)
    return sink.clauses


# ---------------------------------------------------------------- CP-SAT

def connected(model: cp_model.CpModel, active: Sequence[Any], neighbours: Neighbours,
              root: int | None = None, method: str = DEFAULT_METHOD,
              name: str = "conn") -> None:
    """Add "the active vertices are connected (and hold `root`)" to `model`.

    `active[v]` is a BoolVar or a negated BoolVar; `method` is one of `METHODS`
    (see the module docstring). Auxiliary variables are named `name[...]`.
    """
    if method not in METHODS:
        raise ValueError(f"unknown connectivity method {method!r} (choose one of "
                         f"{', '.join(METHODS)})")
    if len(active) != len(neighbours):
        raise ValueError("active and neighbours must have one entry per vertex")
    if not active:
        return
    sink = _CpSink(model, name)
    _neighbour_clauses(sink, active, neighbours, root)
    if method == "layers":
        _layers(sink, active, neighbours, root)
        return
    roots = _roots(sink, active, root)
    if method == "height":
        _height(model, active, neighbours, root, roots, name)
    elif method == "distance":
        _distance(model, active, neighbours, root, roots, name)
    else:
        _flow(model, active, neighbours, root, roots, name)


def _arcs(neighbours: Neighbours) -> list[tuple[int, int]]:
    return [(u, v) for v in range(len(neighbours)) for u in neighbours[v]]


def _distance(model: cp_model.CpModel, active: Sequence[Any], neighbours: Neighbours,
              root: int | None, roots: Sequence[Any], name: str) -> None:
    """dist[v] is the BFS distance from the root through active vertices; n when inactive.

    For an active non-root v, dist[v] = 1 + min(dist of its neighbours). In a
    component without the root, its vertex of least distance would need a
    neighbour of even smaller distance, so such a component has no solution;
    in a connected set these Bellman equations have exactly one solution, the
    BFS distances. So every auxiliary is fixed by `active`: one model
    solution per active set, which lets CP-SAT enumerate solutions directly.
    """
    n = len(active)
    lower = graph.distances(neighbours, (root,)) if root is not None else [0] * n
    dist = [model.new_int_var(0, n, f"{name}.dist[{v}]") for v in range(n)]
    for v in range(n):
        checkpoint()
        if v == root:
            model.add(dist[v] == 0)
            continue
        if root is not None and lower[v] < 0:
            model.add_bool_or([active[v].negated()])
            model.add(dist[v] == n)
            continue
        model.add(dist[v] == n).only_enforce_if(active[v].negated())
        if not neighbours[v]:  # isolated: active only as the root
            model.add_bool_or([active[v].negated()] + ([roots[v]] if root is None else []))
            model.add(dist[v] == 0).only_enforce_if(active[v])
            continue
        nearest = model.new_int_var(0, n, f"{name}.nearest[{v}]")
        model.add_min_equality(nearest, [dist[u] for u in neighbours[v]])
        if root is None:
            model.add(dist[v] == 0).only_enforce_if(roots[v])
            model.add(dist[v] == nearest + 1).only_enforce_if([active[v], roots[v].negated()])
        else:
            model.add(dist[v] == nearest + 1).only_enforce_if(active[v])
        # Why bounds for active vertices: they tell presolve what the equations imply.
        if root is not None:
            model.add(dist[v] >= max(lower[v], 1)).only_enforce_if(active[v])
        model.add(dist[v] <= n - 1).only_enforce_if(active[v])


def _height(model: cp_model.CpModel, active: Sequence[Any], neighbours: Neighbours,
            root: int | None, roots: Sequence[Any], name: str) -> None:
    """Every active non-root vertex has an arc from an active, strictly lower neighbour.

    Why the bounds: heights along arcs only grow, so a vertex's height is at
    least its distance from a given root; that lets presolve fix far arcs.
    """
    n = len(active)
    lower = graph.distances(neighbours, (root,)) if root is not None else [0] * n
    height = [model.new_int_var(max(lower[v], 0), n - 1, f"{name}.height[{v}]")
              for v in range(n)]
    if root is not None:
        model.add(height[root] == 0)
    incoming: list[list[Any]] = [[] for _ in range(n)]
    for u, v in _arcs(neighbours):
        checkpoint()
        if v == root or (root is not None and (lower[u] < 0 or lower[v] < 0)):
            continue
        arc = model.new_bool_var(f"{name}.arc[{u},{v}]")
        model.add_implication(arc, active[u])
        model.add(height[u] < height[v]).only_enforce_if(arc)
        incoming[v].append(arc)
    for v in range(n):
        if v == root:
            continue
        if root is None:  # the root needs no arc
            model.add_bool_or([active[v].negated(), roots[v]] + incoming[v])
            model.add(height[v] == 0).only_enforce_if(roots[v])
        else:
            model.add_bool_or([active[v].negated()] + incoming[v])


def _flow(model: cp_model.CpModel, active: Sequence[Any], neighbours: Neighbours,
          root: int | None, roots: Sequence[Any], name: str) -> None:
    """The root sends one unit of flow to every other active vertex.

    Flow runs only on arcs between active vertices (capacity n-1); each
    active non-root vertex keeps one unit. Without a given root, the chosen
    root's supply is the number of active vertices minus one.
    """
    n = len(active)
    cap = n - 1
    flow = {}
    for u, v in _arcs(neighbours):
        checkpoint()
        f = model.new_int_var(0, cap, f"{name}.flow[{u},{v}]")
        model.add(f <= cap * active[u])
        model.add(f <= cap * active[v])
        flow[u, v] = f
    count = sum(active)
    if root is None:
        # Why a variable: every vertex's supply refers to the count, and the sum itself
        # there makes the model quadratic (n terms per vertex: 1.6e9 at 200x200).
        total = model.new_int_var(0, n, f"{name}.count")
        model.add(total == count)
        count = total
    for v in range(n):
        checkpoint()
        net_in = (sum(flow[u, v] for u in neighbours[v])
                  - sum(flow[v, u] for u in neighbours[v]))
        if v == root:
            model.add(net_in == -(count - 1))
        elif root is not None:
            model.add(net_in == active[v])
        else:
            supply = model.new_int_var(0, cap, f"{name}.supply[{v}]")
            model.add(supply == 0).only_enforce_if(roots[v].negated())
            model.add(supply == count - 1).only_enforce_if(roots[v])
            model.add(net_in == active[v] - supply - roots[v])
