"""Mirror maze, the `hand` back-end: A* over partial mirror orientations along the beams.

Rules (see `twinsolve.puzzles.mirror.rules`): lasers emit beams that mirrors turn,
walls and the grid's edge stop (fail), targets stop (hit); a beam back in a
state it was in loops (fail). Each rotatable `?` stands as '/' or, flipped, as
'\\' for the whole run. Goal `any`: some beam hits a target; goal `all`: every
target is hit by some beam. Fewest flips.

States. A beam is traced in "outgoing states" `s = cell * 4 + direction`:
the beam is in `cell`, moving in `direction` (after any turn there). The
search follows the beams in source order, deterministically, until one
is about to enter a rotatable mirror whose orientation is not decided yet:
that is a search state `(beam, p, decided, flipped, hits, passes)`, with `p`
the outgoing state just before the mirror, the decided and flipped mirrors
as bitmasks, (goal `all`) the targets hit so far, and the turns the current
beam flipped mirrors with (for the heuristic). Its two successors keep
the mirror (cost 0) or flip it (cost 1) and trace on to the next undecided
mirror. A decided mirror met again, by the same beam or another, turns the
beam its decided way: that is what makes the search exact, where the usual
0-1 BFS over (cell, direction) lets one mirror take both orientations.

Why looping needs no visited set. Given the orientations, the step from one
state to the next is injective: the previous state is the cell behind the
beam with the direction reflected back, since both reflection tables are
involutions. So the first state a beam repeats is its start state, and the
trace only has to notice the beam coming back to its own laser in the
laser's direction. The jump table stops at every laser start state for that.

Speed. `jump[s]` (computed on demand, then cached) is where the beam from
`s` next stops: before a rotatable mirror, at a target, at a fail, or at a
laser's start state; fixed mirrors and empty cells are skipped in one step.

Heuristic. `relaxed_distances`: the 0-1 BFS over outgoing states, computed
backwards from the cells next to the targets, where every visit of a `?`
may choose its orientation anew (keep 0, flip 1). It counts '\\' turns, not
flipped mirrors, so two facts make it a lower bound:

- A real beam path turns '\\' at most twice at one mirror (the reverse of
  a pass never occurs in it), and when it does, a cheaper real path exists:
  with the mirror as '/' the beam either skips the part between the two
  passes, or runs it backwards (reversing a pass keeps its mirror's
  orientation), and ends in the same state. Repeating this, the optimal
  solution's route from any state can be replaced by one that turns '\\'
  at most once per mirror, at mirrors the solution flips.
- The relaxation charges a flip for a turn at a mirror this search state
  already flipped, which costs nothing more (the beam may come back to it).
  A route cheaper than the relaxed distance makes such a free turn, and
  after the last one pays at least the relaxed distance from that mirror.
  At a mirror the current beam flipped itself, the free turn can be neither
  the turn that flipped it nor that turn's reverse, which leaves two of the
  four ways out (`passes` in the state records the turn).

So h = min(relaxed distance, least relaxed distance leaving a flipped
mirror by a free turn) is admissible, and A* with it exact (a property
test checks h against the exact cost to go in every state of small trees).
Without the correction the bound overestimates (the hypothesis tests found
a generated 6x6 level where `count` came out 0); with the plain four-way
correction the hardest shipped level (hard-80x80) took 87,000 nodes, with
the turn-aware one 26,000. An infinite relaxed distance is exact: the state
is dropped, and a beam that can hit no (unhit) target is abandoned without
deciding its mirrors. Goal `any`: the least bound of the current beam and
the untraced ones. Goal `all`: per unhit target the least bound over the
beams still to come, h = the largest of those (flips may serve several
beams, so they do not add).

Counting. Every full orientation follows exactly one branch of this tree,
and a minimum-flip set flips only mirrors its traced beams decided; so the
minimum-flip sets are exactly the goal leaves of cost = the optimum. After
A* (the engine's `costs.astar`) has found the optimum, `unique` / `count` come
from the engine's enumeration of every goal within a bound
(`costs.goals_within`: depth-first, pruned at g + h > optimum).

Restricted solvers (the generator's levels, `twinsolve.puzzles.mirror.generate`):
`forced_flips` settles a maze from the relaxation alone (the mirrors no
relaxed route within the bound can do without), `search_within` runs the
enumeration held to the relaxed bound, `search_optimum` is `solve` with
`unique` under one node limit. They share the code above and change
nothing in `solve` (answers and node counts are those it always gave).

Dedup: states are keyed by their full tuple; the tree cannot reach a key
twice (a key fixes the decisions, the decisions fix the path), so the
engine's `best` table is bookkeeping rather than pruning here.
`nodes` counts states popped (A*) plus states expanded by the enumeration.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass

from ...core.limits import Limits
from ...core.result import Result, Status, Stopwatch, Tally, solutions_wanted
from ...search.costs import astar, dijkstra_distances, goals_within
from ...search.grid import Grid
from ...search.statespace import StateSpace
from .rules import CellKind, Goal, Instance, reflect, solution_from_flips

__all__ = ["solve", "relaxed_distances", "relaxed_bound", "Board", "Code", "Stop",
           "MirrorSearch", "INF", "Forcing", "forced_flips", "Within", "search_within",
           "search_optimum"]

INF = 1 << 30

_SLASH = tuple(int(reflect(d, "/")) for d in range(4))
_BACKSLASH = tuple(int(reflect(d, "\\")) for d in range(4))
_OPPOSITE = (2, 3, 0, 1)


class Code(enum.IntEnum):
    """Cell kinds as the solver needs them (lasers and empty cells both let beams pass)."""

    PASS = 0
    SLASH = 1
    BACKSLASH = 2
    ROTATABLE = 3
    WALL = 4
    TARGET = 5


_CODE = {CellKind.SLASH: Code.SLASH, CellKind.BACKSLASH: Code.BACKSLASH,
         CellKind.ROTATABLE: Code.ROTATABLE, CellKind.WALL: Code.WALL,
         CellKind.TARGET: Code.TARGET}


class Stop(enum.IntEnum):
    """Why `Board.jump` stopped."""

    BRANCH = 0   # value: the outgoing state just before a rotatable mirror
    HIT = 1      # value: the target's index
    FAIL = 2     # edge or wall
    START = 3    # value: the laser whose start state was reached


class Board:
    """The grid as flat tables: cell codes, neighbour steps, mirror bits, lasers, targets."""

    def __init__(self, instance: Instance) -> None:
        self.cols = instance.cols
        self.size = instance.cells
        self.code = [_CODE.get(kind, Code.PASS) for row in instance.grid for kind in row]
        self.steps = Grid(instance.rows, instance.cols).steps
        self.mirrors = [r * self.cols + c for r, c in instance.rotatable()]
        self.mirror_bit = {cell: 1 << i for i, cell in enumerate(self.mirrors)}
        self.targets = [r * self.cols + c for r, c in instance.targets()]
        self.target_index = {cell: i for i, cell in enumerate(self.targets)}
        self.starts = [(r * self.cols + c) * 4 + int(d) for r, c, d in instance.sources()]
        self.start_index = {s: i for i, s in enumerate(self.starts)}
        self._jump: dict[int, tuple[Stop, int]] = {}

    def next_cell(self, state: int) -> int:
        return self.steps[state & 3][state >> 2]

    def jump(self, state: int) -> tuple[Stop, int]:
        """Follow the beam from outgoing `state` to its next stop (cached)."""
        known = self._jump.get(state)
        if known is None:
            known = self._jump[state] = self._walk(state)
        return known

    def _walk(self, state: int) -> tuple[Stop, int]:
        code, steps, start_index = self.code, self.steps, self.start_index
        for _ in range(4 * self.size + 1):
            cell, direction = state >> 2, state & 3
            nxt = steps[direction][cell]
            if nxt < 0 or code[nxt] == Code.WALL:
                return Stop.FAIL, 0
            kind = code[nxt]
            if kind == Code.TARGET:
                return Stop.HIT, self.target_index[nxt]
            if kind == Code.ROTATABLE:
                return Stop.BRANCH, state
            if kind == Code.SLASH:
                direction = _SLASH[direction]
            elif kind == Code.BACKSLASH:
                direction = _BACKSLASH[direction]
            state = nxt * 4 + direction
            if state in start_index:
                return Stop.START, start_index[state]
        # Only a cycle of fixed cells without a laser gets here, and no beam can enter one.
        return Stop.FAIL, 0

    def predecessors(self, state: int) -> Iterator[tuple[int, None, int]]:
        """(flips, None, previous outgoing state) for every way into `state`, orientation free.

        The engine's weighted-successor form, for a search run backwards.
        """
        cell, direction = state >> 2, state & 3
        kind = self.code[cell]
        if kind == Code.PASS:
            ways = ((0, direction),)
        elif kind == Code.SLASH:
            ways = ((0, _SLASH[direction]),)
        elif kind == Code.BACKSLASH:
            ways = ((0, _BACKSLASH[direction]),)
        elif kind == Code.ROTATABLE:
            ways = ((0, _SLASH[direction]), (1, _BACKSLASH[direction]))
        else:
            return
        for cost, incoming in ways:
            prev = self.steps[_OPPOSITE[incoming]][cell]
            if prev >= 0 and self.code[prev] < Code.WALL:
                yield cost, None, prev * 4 + incoming

    def successors(self, state: int) -> Iterator[tuple[int, None, int]]:
        """(flips, None, next outgoing state) for every way on from `state`, orientation free."""
        cell = self.steps[state & 3][state >> 2]
        if cell < 0:
            return
        kind, direction = self.code[cell], state & 3
        if kind == Code.PASS:
            yield 0, None, cell * 4 + direction
        elif kind == Code.SLASH:
            yield 0, None, cell * 4 + _SLASH[direction]
        elif kind == Code.BACKSLASH:
            yield 0, None, cell * 4 + _BACKSLASH[direction]
        elif kind == Code.ROTATABLE:
            yield 0, None, cell * 4 + _SLASH[direction]
            yield 1, None, cell * 4 + _BACKSLASH[direction]

    def entries(self, target: int) -> list[int]:
        """The outgoing states whose next cell is `target`."""
        found = []
        for direction in range(4):
            prev = self.steps[_OPPOSITE[direction]][target]
            if prev >= 0 and self.code[prev] < Code.WALL:
                found.append(prev * 4 + direction)
        return found


def relaxed_distances(board: Board, targets: list[int] | None = None) -> list[int]:
    """Per outgoing state, the fewest flips to reach one of `targets` (default: all)
    when every visit of a `?` may choose its orientation anew; INF if none is reachable.

    A lower bound on the exact cost (the exact problem fixes one orientation
    per mirror), computed by the engine's Dijkstra run backwards from the
    states that enter a target.
    """
    seeds = [s for t in (board.targets if targets is None else targets) for s in board.entries(t)]
    found = dijkstra_distances(seeds, board.predecessors)
    dist = [INF] * (4 * board.size)
    for state, cost in found.items():
        dist[state] = cost
    return dist


def relaxed_bound(instance: Instance) -> int | None:
    """The relaxation's value for the whole instance (None: not even it reaches the goal).

    A lower bound on the fewest flips (see the module docstring for why).
    Goal `any`: the least relaxed cost over the lasers. Goal `all`: the largest,
    over targets, of the least relaxed cost of a laser to that target.
    """
    board = Board(instance)
    best = _bound(board, [relaxed_distances(board, group) for group in _groups(instance, board)])
    return None if best >= INF else best


def _groups(instance: Instance, board: Board) -> list[list[int] | None]:
    """The target groups of the relaxation: goal `any`, all targets together (None);
    goal `all`, each target alone."""
    return [None] if instance.goal is Goal.ANY else [[t] for t in board.targets]


def _bound(board: Board, fields: list[list[int]]) -> int:
    """The relaxed value from one field per target group: the largest over the groups of
    the least over the lasers (INF: some group is out of reach)."""
    return max(min(field[s] for s in board.starts) for field in fields)


# ---------------------------------------------------------------- the search

# (beam, p, decided, flipped, hits, passes); p = -1 at a goal. `passes` holds, in 3 bits per
# mirror, 1 + the direction the current beam entered it in when it flipped it (0: not flipped
# by this beam), which `bound` uses: a beam cannot repeat that turn or its reverse.
State = tuple[int, int, int, int, int, int]


@dataclass
class _Tables:
    """Relaxed distances per target group, and their minima over the beams still to come."""

    fields: list[list[int]]          # one field (goal any: for all targets together)
    later: list[list[int]]           # later[f][b] = min over beams >= b of fields[f][start]
    exits: list[list[int]]           # exits[f][m] = min over states leaving mirror m
    # again[f][m * 4 + d]: the same over the two '\\' turns left to a beam that already
    # turned '\\' there coming in direction d (not that turn, nor its reverse)
    again: list[list[int]]


class MirrorSearch:
    """The successor function, heuristic and goal test of the search (see module docstring)."""

    def __init__(self, instance: Instance) -> None:
        self.board = board = Board(instance)
        self.any = instance.goal is Goal.ANY
        self.beams = len(board.starts)
        self.all_hit = (1 << len(board.targets)) - 1
        groups = _groups(instance, board)
        fields = [relaxed_distances(board, group) for group in groups]
        later = []
        for field in fields:
            suffix = [INF] * (self.beams + 1)
            for b in range(self.beams - 1, -1, -1):
                suffix[b] = min(field[board.starts[b]], suffix[b + 1])
            later.append(suffix)
        exits = [[min(field[cell * 4 + d] for d in range(4)) for cell in board.mirrors]
                 for field in fields]
        again = [[min(field[cell * 4 + out] for out in range(4)
                      if out not in (_BACKSLASH[d], _OPPOSITE[d]))
                  for cell in board.mirrors for d in range(4)] for field in fields]
        self.tables = _Tables(fields, later, exits, again)

    # -- bounds ----------------------------------------------------------------------------

    def bound(self, beam: int, p: int, hits: int, flipped: int, passes: int) -> int:
        """Admissible flips still needed from beam `beam` at outgoing state `p`; INF: lost.

        Per unhit target group: the current beam pays at least min(relaxed distance,
        `_reuse` for it), a later beam min(its relaxed distance, `_reuse` for any beam)
        (the module docstring says why); the bound is the largest over the groups.
        """
        tables = self.tables
        worst = 0
        for f, field in enumerate(tables.fields):
            if hits >> f & 1:
                continue
            here, later = field[p], tables.later[f][beam + 1]
            if here >= INF and later >= INF:
                return INF
            this_beam, any_beam = self._reuse(f, flipped, passes)
            need = min(here, this_beam) if here < INF else INF
            if later < INF:
                need = min(need, later, any_beam)
            worst = max(worst, need)
        return worst

    def _reuse(self, f: int, flipped: int, passes: int) -> tuple[int, int]:
        """The least relaxed distance (field `f`) leaving a flipped mirror by a turn that
        is free: (for the current beam, for a later beam)."""
        exits, again = self.tables.exits[f], self.tables.again[f]
        this_beam = any_beam = INF
        while flipped:
            low = flipped & -flipped
            m = low.bit_length() - 1
            flipped ^= low
            any_beam = min(any_beam, exits[m])
            entered = passes >> 3 * m & 7
            this_beam = min(this_beam, again[4 * m + entered - 1] if entered else exits[m])
        return this_beam, any_beam

    def _useful(self, p: int, hits: int) -> bool:
        """Can the beam at `p` still hit a target that counts?"""
        if self.any:
            return self.tables.fields[0][p] < INF
        return any(not hits >> t & 1 and field[p] < INF
                   for t, field in enumerate(self.tables.fields))

    def heuristic(self, state: State) -> int:
        beam, p, _decided, flipped, hits, passes = state
        return 0 if p < 0 else self.bound(beam, p, hits, flipped, passes)

    @staticmethod
    def is_goal(state: State) -> bool:
        return state[1] < 0

    def solves(self, flipped: int) -> bool:
        """Does the full orientation `flipped` (a bitmask of mirror ids) meet the goal?"""
        every = (1 << len(self.board.mirrors)) - 1
        return self._trace(-1, -1, every, flipped, 0, 0) is not None

    # -- tracing ---------------------------------------------------------------------------

    def start(self) -> State | None:
        """The first state: beam 0 traced up to its first undecided mirror."""
        return self._trace(-1, -1, 0, 0, 0, 0)

    def successors(self, state: State) -> Iterator[tuple[int, int, State]]:
        """Keep (cost 0) or flip (cost 1) the mirror ahead, then trace to the next state."""
        beam, p, decided, flipped, hits, passes = state
        if p < 0:
            return   # a goal leaf
        cell = self.board.next_cell(p)
        bit = self.board.mirror_bit[cell]
        incoming = p & 3
        child = self._trace(beam, cell * 4 + _SLASH[incoming], decided | bit, flipped, hits,
                            passes)
        if child is not None:
            yield 0, 0, child
        turn = (incoming + 1) << 3 * (bit.bit_length() - 1)
        child = self._trace(beam, cell * 4 + _BACKSLASH[incoming], decided | bit,
                            flipped | bit, hits, passes | turn)
        if child is not None:
            yield 1, 1, child

    def _trace(self, beam: int, state: int, decided: int, flipped: int, hits: int,
               passes: int) -> State | None:
        """Follow beam `beam` from outgoing `state` (beam -1: before the first beam) to the
        next undecided mirror, on to later beams as beams end; None when the goal is lost."""
        board = self.board
        while True:
            if beam >= 0:
                stop, value = board.jump(state)
                if stop == Stop.BRANCH:
                    cell = board.next_cell(value)
                    bit = board.mirror_bit[cell]
                    if decided & bit:   # met before: it turns the beam its decided way
                        table = _BACKSLASH if flipped & bit else _SLASH
                        state = cell * 4 + table[value & 3]
                        continue
                    if self._useful(value, hits):
                        return self._branch(beam, value, decided, flipped, hits, passes)
                elif stop == Stop.HIT:
                    if self.any:
                        return (self.beams, -1, decided, flipped, 0, 0)
                    hits |= 1 << value
                elif stop == Stop.START and value != beam:
                    state = board.starts[value]   # another laser's cell: pass through
                    continue
            # This beam is over (hit, fail, loop back to its laser, or useless): next one.
            beam, state = self._next_beam(beam, hits)
            passes = 0   # a new beam: its own turns start afresh
            if state < 0:
                return (self.beams, -1, decided, flipped, hits, 0) if state == -1 else None

    def _next_beam(self, beam: int, hits: int) -> tuple[int, int]:
        """The next beam worth tracing and its start state; state -1: goal met, -2: lost."""
        if not self.any and hits == self.all_hit:
            return self.beams, -1
        for nxt in range(beam + 1, self.beams):
            start = self.board.starts[nxt]
            if self._useful(start, hits):
                return nxt, start
        return self.beams, -2

    def _branch(self, beam: int, p: int, decided: int, flipped: int, hits: int,
                passes: int) -> State | None:
        if not self.any:
            unhit = (self.all_hit & ~hits).bit_count()
            if self.beams - beam < unhit or self.bound(beam, p, hits, flipped, passes) >= INF:
                return None
        return (beam, p, decided, flipped, hits, passes)


def _flips(instance: Instance, flipped: int) -> dict[str, list[list[int]]]:
    mirrors = instance.rotatable()
    return solution_from_flips(cell for i, cell in enumerate(mirrors) if flipped >> i & 1)


# ---------------------------------------------------------------- solve

def solve(instance: Instance, limits: Limits) -> Result:
    """Fewest flips by A* over partial orientations; `unique` / `count` by enumeration."""
    watch, deadline = Stopwatch(), limits.deadline()
    search = MirrorSearch(instance)
    start = search.start()
    watch.built()
    if start is None:
        return Result.unsat(limits, stats=watch.stats(nodes=0))
    space = StateSpace(start, search.successors, search.is_goal, weighted=True)
    found = astar(space, heuristic=search.heuristic, node_limit=limits.node_limit,
                  deadline=deadline)
    nodes = found.nodes
    if not found.found:
        stats = watch.stats(nodes=nodes)
        if found.exhausted:
            return Result.unsat(limits, stats=stats)
        return Result(Status.TIMEOUT, stats=stats, message=f"stopped: {found.limit_hit}")
    optimum = found.cost
    tally = Tally(1, complete=False)  # not counted: this flip set, the rest not looked for
    if limits.unique or limits.count:
        # The node limit bounds the A* alone, as it always has; the deadline bounds both.
        leaves = goals_within(space, optimum, search.heuristic,
                              stop_at=solutions_wanted(limits), deadline=deadline)
        nodes += leaves.nodes
        tally = Tally(leaves.count, complete=leaves.complete)
    solution = _flips(instance, found.states[-1][3])
    return Result.answer(Status.OPTIMAL, solution, optimum, tally=tally, asked=limits,
                         stats=watch.stats(nodes=nodes))


# ---------------------------------------------------------------- restricted solvers
#
# The techniques the generator's levels are made of (`twinsolve.puzzles.mirror.generate`):
# the relaxation alone (`forced_flips`), the search within the relaxed bound
# (`search_within`), and the search past it (`search_optimum`). None of them changes `solve`.

@dataclass(frozen=True)
class Forcing:
    """What the relaxation alone proves (see `forced_flips`)."""

    bound: int | None          # the relaxed bound; None: not even the relaxation meets the goal
    forced: tuple[int, ...]    # mirror ids every set of `bound` flips must flip (see `proves`)
    solves: bool               # flipping exactly the forced mirrors meets the goal
    tested: int                # mirrors put to the forcing test

    @property
    def proves(self) -> bool:
        """Are the forced mirrors the one optimal flip set, proven without search?"""
        return self.solves and self.bound is not None and len(self.forced) == self.bound


def forced_flips(instance: Instance) -> Forcing:
    """The mirrors the relaxation cannot do without, and whether they solve the level.

    Forcing. A flip set F of b flips (b the relaxed bound) gives, per target
    group, a relaxed route of cost <= b that turns '\\' only at mirrors of F
    (the replacement argument of the module docstring). So when the
    relaxation with mirror m kept ('/' only) is worth more than b, every flip
    set of b flips contains m. When b mirrors are forced this way and flipping
    them meets the goal, they are the one optimal flip set: proven without any
    search. Only mirrors with a flip turn on some relaxed route of cost <= b
    (forward distance from the lasers to the state before it, plus 1, plus the
    distance on from the state after it) can be forced; only those are tested,
    in mirror order, and the tests stop once exactly b forced mirrors are out of
    reach (then `forced` holds those found so far and `proves` is False).
    """
    board = Board(instance)
    groups = _groups(instance, board)
    fields = [relaxed_distances(board, group) for group in groups]
    bound = _bound(board, fields)
    if bound >= INF:
        return Forcing(None, (), False, 0)
    reach = dijkstra_distances(board.starts, board.successors)
    candidates = [m for m, cell in enumerate(board.mirrors)
                  if any(_flip_turn_within(board, reach, field, cell, bound) for field in fields)]
    forced: list[int] = []
    tested = 0
    for m in candidates:
        if len(forced) > bound or len(forced) + len(candidates) - tested < bound:
            break
        tested += 1
        if not _within(board, groups, fields, reach, board.mirrors[m], bound):
            forced.append(m)
    mask = sum(1 << m for m in forced)
    solves = len(forced) == bound and MirrorSearch(instance).solves(mask)
    return Forcing(bound, tuple(forced), solves, tested)


def _within(board: Board, groups: list[list[int] | None], fields: list[list[int]],
            reach: dict[int, int], cell: int, bound: int) -> bool:
    """Is the relaxation with the `?` in `cell` unflipped still worth at most `bound`?

    Each group's field is grown again without that flip, but only through the
    states some relaxed route of cost <= `bound` passes (forward distance from
    the lasers plus the distance on at most `bound`): a route of the restricted
    relaxation within the bound is one of the full relaxation too.
    """
    for group, field in zip(groups, fields, strict=True):
        def predecessors(state: int, field: list[int] = field) -> Iterator[tuple[int, None, int]]:
            flip_here = state >> 2 == cell   # a cost-1 way into `state` flips its `?`
            for way in board.predecessors(state):
                prev = way[2]
                if not (way[0] and flip_here) and reach.get(prev, INF) + field[prev] <= bound:
                    yield way
        seeds = [s for t in (board.targets if group is None else group)
                 for s in board.entries(t) if reach.get(s, INF) <= bound]
        found = dijkstra_distances(seeds, predecessors, max_cost=bound)
        if not any(s in found for s in board.starts):
            return False
    return True


def _flip_turn_within(board: Board, reach: dict, field: list[int], cell: int,
                      bound: int) -> bool:
    """Does a relaxed route of cost <= `bound` turn '\\' at the `?` in `cell`?"""
    for direction in range(4):
        prev = board.steps[_OPPOSITE[direction]][cell]
        before = reach.get(prev * 4 + direction) if prev >= 0 else None
        if before is not None and before + 1 + field[cell * 4 + _BACKSLASH[direction]] <= bound:
            return True
    return False


@dataclass(frozen=True)
class Within:
    """What a search for the fewest-flip sets found."""

    cost: int | None          # the flips of the sets found (None: none found)
    sets: tuple[int, ...]     # the flip sets found (bitmasks of mirror ids), at most 2
    nodes: int                # states popped by A* plus states expanded by the enumeration
    limit_hit: bool           # the node limit stopped it: `sets` may be short

    @property
    def unique(self) -> bool:
        """Exactly one set, and nothing left unsearched."""
        return len(self.sets) == 1 and not self.limit_hit


def search_within(instance: Instance, bound: int, *, node_limit: int) -> Within:
    """The flip sets of at most `bound` flips, by the depth-first enumeration alone (the
    search held to the relaxation's bound: no A* to raise it); stops at the second."""
    search = MirrorSearch(instance)
    start = search.start()
    if start is None:
        return Within(None, (), 0, False)
    space = StateSpace(start, search.successors, search.is_goal, weighted=True)
    return _enumerate(space, search, bound, node_limit, 0)


def search_optimum(instance: Instance, *, node_limit: int) -> Within:
    """A* to the fewest flips, then the enumeration at that optimum: `solve` with
    `unique`, the node limit shared by both parts."""
    search = MirrorSearch(instance)
    start = search.start()
    if start is None:
        return Within(None, (), 0, False)
    space = StateSpace(start, search.successors, search.is_goal, weighted=True)
    found = astar(space, heuristic=search.heuristic, node_limit=node_limit)
    if not found.found:
        return Within(None, (), found.nodes, not found.exhausted)
    return _enumerate(space, search, found.cost, node_limit - found.nodes, found.nodes)


def _enumerate(space: StateSpace, search: MirrorSearch, bound: int, node_limit: int,
               nodes: int) -> Within:
    leaves = goals_within(space, bound, search.heuristic, stop_at=2, keep_paths=True,
                          node_limit=max(node_limit, 0))
    sets = tuple(states[-1][3] for _moves, states in leaves.paths)
    cost = min((mask.bit_count() for mask in sets), default=None)
    return Within(cost, sets, nodes + leaves.nodes, leaves.limit_hit is not None)
