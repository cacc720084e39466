"""Mirror maze levels: random ones with a reachable target, and hard ones.

`random_level` scatters walls, fixed mirrors and a given number of rotatable
mirrors over the grid, puts the lasers in, then makes the goal reachable by
construction: under a few random orientations of every `?` it traces the
beams, and places each target on an empty cell of a beam's path, the one the
relaxation needs most flips to reach (for goal `all`, one target per beam,
and the orientation is checked to hit them all). That orientation solves the
level, so it is never `unsat`; `min_flips` redraws levels that are too easy.

`hard_level` plants the trap the issue warns about: the relaxed lower bound
(the 0-1 BFS over (cell, direction) where each visit of a `?` chooses its
orientation anew, `twinsolve.puzzles.mirror.hand.relaxed_bound`) is below the
exact optimum, because the relaxation's cheapest route crosses a rotatable
mirror twice with conflicting orientations. Solvers that trust the
relaxation are wrong on such levels, and A* has to work past its first
bound. `RELAXATION_TRAP` (unsat, the relaxation says 1) and `RELAXATION_GAP`
(optimum 2, the relaxation says 1) are the smallest hand-made cases.

Everything is deterministic by seed (one `random.Random` per level), and
nothing is decided from a measured time: `hard_level` bounds `hand` by
search nodes, not seconds, so the same seed gives the same level on any
machine.

`python -m twinsolve.puzzles.mirror.generate --out instances/mirror` writes the
shipped set: every back-end (hand, cpsat, sat) solves each level, at least
two must prove the same answer and none may disagree; that answer becomes
`# expect-objective:` (or `# expect-solutions: 0` when unsat). Hard levels
from 64x64 up are marked `# suite: full` (see `in_full_suite`): a rule on
the plan, so the files are the same bytes however fast the machine is.

Graded levels (`twinsolve generate mirror`, `twinsolve grade`): mazes whose
fewest-flip set is the only one, of an exact level. Options: `flips` (the
optimum wanted; default any, at least 1), `goal` (`any` or `all`), `lasers`
(default 1; goal `all` gets one target per laser) and `mirrors` (the number
of `?` cells; default 30% of the grid and at least `flips`, so most are
decoys the answer keeps).

The levels, Tatham's way: each allows one more technique of the hand solver
(`hand.forced_flips`, `hand.search_within`, `hand.search_optimum`), and a
maze is of level d when the solver restricted to d settles it (finds the
fewest-flip set and proves it the only one) and the solver restricted to
d-1 does not (`solve_at_level`). Let b be the relaxed bound.

- easy: the relaxation alone, no search. A mirror is forced when the
  relaxation that may not flip it is worth more than b (then every set of b
  flips flips it); easy when b mirrors are forced and flipping them meets
  the goal: they are then the one optimal set.
- medium: + the search held to the relaxed bound: the depth-first
  enumeration of `hand` with the bound b (no A* to raise it) finds exactly
  one set of b flips. So b is the optimum, but the relaxation does not pin
  the set down: some of its cheapest routes are no real beam's (they turn
  one `?` both ways, or need orientations two beams disagree on).
- hard: + the search past the bound (A*, then the enumeration at the
  optimum): the relaxed bound is below the optimum, the issue's definition.

Evidence: `relaxed_bound`, `optimum`, `techniques`, `nodes` (search nodes:
0 for easy), `forcing_tests` (mirrors put to the forcing test),
`rotatable` (the `?` cells), `flipped` (= the optimum) and `crossed` (the
`?` cells the solution's beams pass, flipped or kept).

Generation (`attempt`): a layout of 60% walls and mirrors, half of them
`?` (`_scatter`), then target cells graded one by one: for easy, empty cells
the relaxation reaches with `flips` flips (default: the farthest first);
for medium and hard, relaxation traps (`_broad_traps`: cells a cheapest
relaxed route reaches by turning a `?` both ways; random cells almost
never give a medium or hard maze, about 0.1% on 8x8). Goal all adds one
target per further laser on its beam's path under a random orientation.
Each candidate goes to the solver restricted to the level asked for, and
is kept when that solver settles it at that level. `check` refuses what no
grid holds: a one-wide grid (every mirror turns the beam out), more flips
than `?` cells or `?` cells than free cells, a hard maze with 1 flip (a
relaxed bound of 0 is always met), and a hard one-target maze on 8 cells
or fewer (on 2x2, 2x3 and 2x4 grids no such maze has an optimum above its
relaxed bound: checked exhaustively, see `NO_HARD_CELLS`). The searches of
an attempt stop at `ATTEMPT_NODE_LIMIT` nodes, those of a grade at
`GRADE_NODE_LIMIT`: nothing is decided from a measured time.
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ...core import generation
from ...core.errors import UsageError, quoted
from ...core.generation import Generated, Grade, Option, Request, Shipped, spelled
from ...core.limits import Limits
from ...core.result import Status
from ...core.run import run
from ...files.writing import write_instances
from ...search.costs import dijkstra_distances
from . import hand
from .hand import INF, Board, Code, relaxed_bound
from .rules import CellKind, Goal, Instance, format, parse, solution_from_flips, trace_beam

__all__ = ["random_level", "hard_level", "exact_optimum", "shipped_set", "in_full_suite",
           "write_set", "main", "RELAXATION_TRAP", "RELAXATION_GAP", "HAND_NODE_BUDGET",
           "FULL_SUITE_HARD_FROM", "LEVELS", "DEFAULT_SIZE", "OPTIONS", "check", "attempt",
           "grade", "solve_at_level", "Settled", "NO_HARD_CELLS", "GRADE_NODE_LIMIT",
           "ATTEMPT_NODE_LIMIT"]

_LASERS = (CellKind.SOURCE_RIGHT, CellKind.SOURCE_DOWN, CellKind.SOURCE_LEFT,
           CellKind.SOURCE_UP)
_ATTEMPTS = 200
# Search nodes `hand` may spend proving a candidate hard level's optimum. The shipped
# hard levels need at most 26,241 (hard-80x80; under a second), so this only cuts off
# runaways, and a budget of nodes, unlike one of seconds, ends the same way everywhere.
HAND_NODE_BUDGET = 500_000


def _scatter(rng: random.Random, rows: int, cols: int, density: float, rotatable: int,
             lasers: int, wall_share: float) -> list[list[CellKind]]:
    """A grid with `lasers` lasers, `rotatable` `?` cells, and fixed mirrors and walls
    filling about `density` of the cells in all."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(cells)
    grid = [[CellKind.EMPTY] * cols for _ in range(rows)]
    for _ in range(lasers):
        r, c = cells.pop()
        grid[r][c] = rng.choice(_LASERS)
    for _ in range(min(rotatable, len(cells))):
        r, c = cells.pop()
        grid[r][c] = CellKind.ROTATABLE
    obstacles = max(0, round(density * rows * cols) - rotatable)
    for _ in range(min(obstacles, len(cells))):
        r, c = cells.pop()
        if rng.random() < wall_share:
            grid[r][c] = CellKind.WALL
        else:
            grid[r][c] = rng.choice((CellKind.SLASH, CellKind.BACKSLASH))
    return grid


def _place_targets(rng: random.Random, grid: list[list[CellKind]], goal: Goal,
                   targets: int, orientations: int, min_flips: int) -> bool:
    """Put targets on the beams' paths under a random orientation; False if impossible.

    Of `orientations` random orientations, the one whose chosen target cells
    cost the relaxation the most flips wins (a far target makes a hard level).
    """
    shape = Instance(len(grid), len(grid[0]), tuple(map(tuple, grid)), goal)
    sources = shape.sources()
    rng.shuffle(sources)
    sources = sources[:targets]
    costs = [_relaxed_cost_to_cells(shape, source) for source in sources]
    best: tuple[int, list[tuple[int, int]], set] | None = None
    for _ in range(orientations):
        flipped = {cell for cell in shape.rotatable() if rng.random() < 0.5}
        placed = _targets_on_paths(rng, shape, sources, costs, flipped)
        if placed is not None:
            score = min(cost[cell] for cost, cell in zip(costs, placed, strict=True))
            if best is None or score > best[0]:
                best = (score, placed, flipped)
    if best is None or best[0] < min_flips:
        return False
    _score, placed, flipped = best
    for r, c in placed:
        grid[r][c] = CellKind.TARGET
    level = Instance(len(grid), len(grid[0]), tuple(map(tuple, grid)), goal)
    hit = {trace_beam(level, s, flipped).hit for s in level.sources()}
    return all(t in hit for t in placed)   # a later target may block an earlier beam


def _targets_on_paths(rng: random.Random, shape: Instance, sources: list, costs: list[dict],
                      flipped: set) -> list[tuple[int, int]] | None:
    """One target cell per laser: an empty cell on its beam's path, the costliest to reach."""
    placed: list[tuple[int, int]] = []
    for source, cost in zip(sources, costs, strict=True):
        cell = _on_path(rng, shape, source, flipped, cost, placed)
        if cell is None:
            return None
        placed.append(cell)
    return placed


def _relaxed_cost_to_cells(shape: Instance, source: tuple[int, int, object]) -> dict:
    """Per cell, the fewest flips for the laser's beam to be in it, orientations free."""
    board = Board(shape)
    r, c, direction = source
    start = (r * shape.cols + c) * 4 + int(direction)
    cost: dict[tuple[int, int], int] = {}
    for state, flips in dijkstra_distances([start], board.successors).items():
        cell = divmod(state >> 2, shape.cols)
        cost[cell] = min(flips, cost.get(cell, flips))
    return cost


def random_level(rows: int, cols: int, seed: int, *, density: float = 0.25,
                 rotatable: int | None = None, lasers: int = 1, targets: int = 1,
                 goal: Goal | str = Goal.ANY, wall_share: float = 0.1,
                 orientations: int = 8, min_flips: int = 1) -> Instance:
    """A random level whose goal is reachable (see the module docstring).

    `density` is the share of cells holding a mirror or a wall; `rotatable`
    the number of `?` cells (default: a quarter of the mirrors and walls).
    `wall_share` of those are walls, the rest fixed mirrors. The targets go
    where the best of `orientations` random orientations leads (see
    `_place_targets`); a layout where even the relaxation reaches the targets
    with fewer than `min_flips` flips is drawn again, so the optimum is at
    least `min_flips`. Goal `all` needs `targets <= lasers`.
    """
    goal = Goal(goal)
    if goal is Goal.ALL and targets > lasers:
        raise ValueError("goal all needs at least as many lasers as targets")
    if rotatable is None:
        rotatable = round(density * rows * cols / 4)
    rng = random.Random(seed)
    for _ in range(_ATTEMPTS):
        grid = _scatter(rng, rows, cols, density, rotatable, lasers, wall_share)
        if _place_targets(rng, grid, goal, targets, orientations, min_flips):
            meta = (("source", f"twinsolve.puzzles.mirror.generate.random_level({rows}, {cols}, "
                     f"seed={seed}, density={density}, rotatable={rotatable}, "
                     f"lasers={lasers}, targets={targets}, goal={goal.value}, "
                     f"min_flips={min_flips})"),)
            return Instance(rows, cols, tuple(map(tuple, grid)), goal, meta)
    raise RuntimeError(f"no level with a reachable target in {_ATTEMPTS} attempts "
                       f"({rows}x{cols}, density {density}); lower the density")


def exact_optimum(level: Instance, node_limit: int = HAND_NODE_BUDGET) -> int | None:
    """The fewest flips by `hand`, or None if it is unsat or needs over `node_limit` nodes."""
    result = run(level, "hand", Limits(node_limit=node_limit))
    return result.objective if result.status is Status.OPTIMAL else None


def _relaxed_routes(shape: Instance, source: tuple) -> dict[int, tuple[int, int | None]]:
    """Dijkstra from the laser over outgoing states, each `?` visit choosing anew:
    state -> (flips, previous state). Ties keep the first route found."""
    board = Board(shape)
    r, c, direction = source
    start = (r * shape.cols + c) * 4 + int(direction)
    best: dict[int, tuple[int, int | None]] = {}
    heap = [(0, 0, start, None)]
    order = 1
    while heap:
        cost, _order, state, came_from = heapq.heappop(heap)
        if state in best:
            continue
        best[state] = (cost, came_from)
        for step, _move, nxt in board.successors(state):
            if nxt not in best:
                heapq.heappush(heap, (cost + step, order, nxt, state))
                order += 1
    return best


def _double_crossed(board: Board, routes: dict, state: int) -> bool:
    """Does the relaxed route to `state` turn some `?` one way and later the other?"""
    turned: dict[int, int] = {}
    while True:
        came_from = routes[state][1]
        if came_from is None:
            return False
        cell = state >> 2
        if board.code[cell] == Code.ROTATABLE:
            flipped = routes[state][0] - routes[came_from][0]   # the step cost 1: flipped
            if turned.setdefault(cell, flipped) != flipped:
                return True
        state = came_from


def _trap_cells(shape: Instance, min_flips: int) -> list[tuple[int, int]]:
    """Empty cells whose cheapest relaxed route crosses a `?` twice with conflicting needs."""
    routes = _relaxed_routes(shape, shape.sources()[0])
    board = Board(shape)
    cheapest: dict[int, int] = {}
    for state, (cost, _prev) in routes.items():
        cell = state >> 2
        if cell not in cheapest or cost < routes[cheapest[cell]][0]:
            cheapest[cell] = state
    found = []
    for cell, state in sorted(cheapest.items()):
        r, c = divmod(cell, shape.cols)
        if shape.grid[r][c] is CellKind.EMPTY and routes[state][0] >= min_flips \
                and _double_crossed(board, routes, state):
            found.append((r, c))
    return found


def hard_level(rows: int, cols: int, seed: int, *, density: float = 0.3,
               rotatable: int | None = None, wall_share: float = 0.1, min_flips: int = 1,
               attempts: int = 200, tries: int = 6,
               node_limit: int = HAND_NODE_BUDGET) -> Instance:
    """A one-laser level whose relaxed lower bound is below its exact optimum.

    Why planted rather than filtered: random targets rarely make the relaxation
    lie (under 1% of 12x12 levels). So for each random layout this looks for
    cells the relaxation reaches cheapest by crossing a `?` twice with
    conflicting orientations, puts the target on up to `tries` of them, and
    keeps the first where the exact optimum (by `hand`, within `node_limit`
    search nodes) exists and is larger than the bound. RuntimeError after
    `attempts` layouts.
    """
    if rotatable is None:
        rotatable = round(density * rows * cols / 4)
    rng = random.Random(seed)
    for _ in range(attempts):
        grid = _scatter(rng, rows, cols, density, rotatable, 1, wall_share)
        shape = Instance(rows, cols, tuple(map(tuple, grid)))
        cells = _trap_cells(shape, min_flips)
        rng.shuffle(cells)
        for r, c in cells[:tries]:
            level = replace(shape, grid=tuple(
                tuple(CellKind.TARGET if (i, j) == (r, c) else kind
                      for j, kind in enumerate(row)) for i, row in enumerate(shape.grid)))
            bound, exact = relaxed_bound(level), exact_optimum(level, node_limit)
            if bound is not None and exact is not None and exact > bound:
                note = ("twinsolve.puzzles.mirror.generate.hard_level"
                        f"({rows}, {cols}, seed={seed}, "
                        f"density={density}, rotatable={rotatable}, wall_share={wall_share}, "
                        f"min_flips={min_flips}); relaxed bound {bound} < optimum {exact}")
                return replace(level, meta=(("source", note),))
    raise RuntimeError(f"no hard {rows}x{cols} level in {attempts} layouts (seed {seed})")


# ---------------------------------------------------------------- graded levels

LEVELS = ("easy", "medium", "hard")
DEFAULT_SIZE = (8, 8)
OPTIONS = (Option("flips", "fewest flips of the answer"),
           Option("goal", "any: one target lit is enough; all: every target", kind="word",
                  choices=("any", "all"), metavar="any|all"),
           Option("lasers", "lasers on the grid (default 1)"),
           Option("mirrors", "rotatable mirrors (default: 30% of the grid)"))
ATTEMPTS = generation.ATTEMPTS
# The graded sets in instances/mirror/graded/ (`python -m twinsolve.generation.shipped`).
SHIPPED = (Shipped("easy", (8, 8), 2), Shipped("medium", (8, 8), 2),
           Shipped("hard", (8, 8), 2), Shipped("hard", (16, 16), 1))
MAX_GENERATED_SIDE = 100
TECHNIQUES = {"easy": ["relaxation", "forcing"],
              "medium": ["relaxation", "forcing", "search within the bound"],
              "hard": ["relaxation", "forcing", "search within the bound", "search past the bound"]}
# Search nodes a grade may spend (A* and the enumeration together): the hardest shipped
# level (hard-80x80) needs 57,477; a budget of nodes ends the same way on every machine.
GRADE_NODE_LIMIT = HAND_NODE_BUDGET
# What one attempt may spend: the layouts it draws, the targets tried on each, the nodes of
# each grade. Why 5,000 nodes: a trap cell no beam can really reach costs the search its
# whole budget, while the hard mazes kept need a median of 59 nodes on 8x8 and 810 on 16x16.
ATTEMPT_NODE_LIMIT = 5_000
TARGET_TRIES = 8
LAYOUTS = {"easy": 8, "medium": 16, "hard": 16}
# No one-target maze on at most this many cells has an optimum above its relaxed bound:
# checked exhaustively on 2x2, 2x3 and 2x4 (and so their transposes) with one laser, cells
# from . / \ ? # and at least 2 `?` (an optimum of 2 or more needs them), by the tests'
# `gapped_levels` (136 s on 2x4). More lasers change nothing (for goal any the best laser
# alone decides both values; the others pass beams like empty cells).
NO_HARD_CELLS = 8
_DENSITY = 0.6          # cells holding a mirror (fixed or rotatable) or a wall
_ROTATABLE_SHARE = 0.5  # of those, the `?` cells (the `mirrors` option overrides)
_WALL_SHARE = 0.05      # of the rest, walls; the others are fixed mirrors

Cell = tuple[int, int]


@dataclass(frozen=True)
class _Spec:
    """A checked request."""

    level: str
    rows: int
    cols: int
    flips: int | None
    goal: Goal
    lasers: int
    mirrors: int

    @property
    def targets(self) -> int:
        return self.lasers if self.goal is Goal.ALL else 1


def _whole(request: Request, name: str, default: int | None, least: int) -> int | None:
    value = request.option(name, default)
    if isinstance(value, str) and value.strip().lstrip("+-").isdecimal():
        value = int(value)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"{spelled(name)} must be a whole number, got {quoted(value)}")
    if value < least:
        raise UsageError(f"{spelled(name)} must be at least {least}, got {quoted(value)}")
    return value


def _spec(request: Request) -> _Spec:
    """The request with its options read and checked (UsageError: one line)."""
    if request.symmetric:
        raise UsageError("a mirror maze has no clues to place symmetrically (--symmetric)")
    if request.level not in LEVELS:
        raise UsageError(f"unknown mirror maze level {quoted(request.level)} "
                         f"(levels: {', '.join(LEVELS)})")
    rows = DEFAULT_SIZE[0] if request.rows is None else request.rows
    cols = DEFAULT_SIZE[1] if request.cols is None else request.cols
    if not (1 <= rows <= MAX_GENERATED_SIDE and 1 <= cols <= MAX_GENERATED_SIDE):
        raise UsageError(f"a mirror maze is generated with sides of 1 to "
                         f"{MAX_GENERATED_SIDE} cells, not {rows}x{cols}")
    goal = request.option("goal", "any")
    if goal not in ("any", "all"):
        raise UsageError(f"{spelled('goal')} must be 'any' or 'all', got {quoted(goal)}")
    lasers = _whole(request, "lasers", 1, 1)
    flips = _whole(request, "flips", None, 1)
    spec = _Spec(request.level, rows, cols, flips, Goal(goal), lasers, 0)
    room = _room(spec)
    # By default 30% of the cells are `?`, and at least as many as the flips asked for.
    default = min(room, max(round(rows * cols * _DENSITY * _ROTATABLE_SHARE), flips or 0))
    spec = replace(spec, mirrors=_whole(request, "mirrors", default, 1))
    _check_mirrors(spec, room)
    return spec


def _room(spec: _Spec) -> int:
    """The cells left for `?` once lasers and targets are in; UsageError for a request no
    grid of this size meets (see the module docstring)."""
    size = f"a {spec.rows}x{spec.cols} grid"
    if min(spec.rows, spec.cols) == 1:
        raise UsageError(f"{size} has no mirror maze with a flip: every mirror turns "
                         "the beam out of the grid")
    room = spec.rows * spec.cols - spec.lasers - spec.targets
    if room < 1:
        raise UsageError(f"{size} has no room for {spec.lasers} laser(s), {spec.targets} "
                         "target(s) and a rotatable mirror")
    if spec.flips is not None and spec.flips > room:
        raise UsageError(f"{size} with {spec.lasers} laser(s) and {spec.targets} target(s) "
                         f"holds at most {room} rotatable mirrors: too few for "
                         f"{spec.flips} flips")
    if spec.level == "hard" and spec.flips == 1:
        raise UsageError("a hard mirror maze needs at least 2 flips: a relaxed bound of 0 "
                         "is always met, so the bound is below the optimum only from 2 on")
    if spec.level == "hard" and spec.targets == 1 and spec.rows * spec.cols <= NO_HARD_CELLS:
        raise UsageError(f"{size} has no hard mirror maze with one target: on grids of up to "
                         f"{NO_HARD_CELLS} cells none has an optimum above its relaxed bound")
    return room


def _check_mirrors(spec: _Spec, room: int) -> None:
    if spec.mirrors > room:
        raise UsageError(f"a {spec.rows}x{spec.cols} grid with {spec.lasers} laser(s) and "
                         f"{spec.targets} target(s) holds at most {room} rotatable mirrors, "
                         f"not {spec.mirrors}")
    if spec.flips is not None and spec.flips > spec.mirrors:
        raise UsageError(f"{spec.flips} flips need at least {spec.flips} rotatable mirrors, "
                         f"not {spec.mirrors}")
    if spec.level == "hard" and spec.mirrors < 2:
        raise UsageError("a hard mirror maze needs at least 2 rotatable mirrors")


def check(request: Request) -> None:
    """Refuse, as a one-line UsageError, a request no attempt can meet (bad options, and
    the sizes the module docstring names)."""
    _spec(request)


# -- the level-restricted solver

@dataclass(frozen=True)
class Settled:
    """What the solver restricted to a level found: the grade (level None: not settled,
    `evidence["unsettled"]` says why) and, when settled, the one fewest-flip set."""

    grade: Grade
    solution: dict[str, list[list[int]]] | None = None


def solve_at_level(instance: Instance, level: str = "hard", *,
                   node_limit: int = GRADE_NODE_LIMIT) -> Settled:
    """The hand solver restricted to `level`'s techniques (the module docstring's levels).

    The techniques run in level order, and the first that settles the maze
    (finds its fewest-flip set and proves it the only one) answers with its
    level; so the maze is of level d exactly when `solve_at_level(maze, d)`
    settles it and `solve_at_level(maze, d - 1)` does not. Deterministic: the
    searches stop after `node_limit` nodes, never on a clock.
    """
    allowed = LEVELS[:LEVELS.index(level) + 1]
    forcing = hand.forced_flips(instance)
    facts: dict[str, Any] = {"relaxed_bound": forcing.bound,
                             "rotatable": len(instance.rotatable()),
                             "forcing_tests": forcing.tested}
    if forcing.bound is None:
        return _unsettled(facts, "no solution: not even the relaxation meets the goal")
    if forcing.proves:
        return _settled(instance, "easy", sum(1 << m for m in forcing.forced), 0, facts)
    if "medium" not in allowed:
        return _unsettled(facts, "the relaxation forces no solution")
    within = hand.search_within(instance, forcing.bound, node_limit=node_limit)
    if within.sets or within.limit_hit or "hard" not in allowed:
        return _ended(instance, "medium", within, facts)
    beyond = hand.search_optimum(instance, node_limit=max(node_limit - within.nodes, 0))
    return _ended(instance, "hard", replace(beyond, nodes=beyond.nodes + within.nodes), facts)


def _unsettled(facts: dict[str, Any], why: str) -> Settled:
    return Settled(Grade(None, {**facts, "unsettled": why}))


def _ended(instance: Instance, level: str, found: hand.Within, facts: dict) -> Settled:
    """A search's verdict: settled at `level` when it found exactly one set, else why not."""
    if found.unique:
        return _settled(instance, level, found.sets[0], found.nodes, facts)
    facts = {**facts, "nodes": found.nodes}
    if found.limit_hit:
        return _unsettled(facts, f"{level} search stopped at the node limit")
    if found.sets:
        return _unsettled({**facts, "optimum": found.cost}, "two or more fewest-flip sets")
    if level == "medium":
        return _unsettled(facts, "no flip set within the relaxed bound")
    return _unsettled(facts, "no solution")


def _settled(instance: Instance, level: str, flipped: int, nodes: int,
             facts: dict[str, Any]) -> Settled:
    """The grade of a settled maze: the facts, the techniques, the search nodes, the
    optimum (= the flipped mirrors) and the `?` cells its beams cross."""
    flips = [cell for i, cell in enumerate(instance.rotatable()) if flipped >> i & 1]
    crossed = {(r, c) for source in instance.sources()
               for r, c, _ in trace_beam(instance, source, flips).path[1:]
               if instance.grid[r][c] is CellKind.ROTATABLE}
    evidence = {**facts, "techniques": TECHNIQUES[level], "nodes": nodes,
                "optimum": len(flips), "flipped": len(flips), "crossed": len(crossed)}
    return Settled(Grade(level, evidence), solution_from_flips(flips))


def grade(instance: Instance) -> Grade:
    """The level of any mirror maze; None when it has no unique fewest-flip set (or the
    search could not settle it within `GRADE_NODE_LIMIT` nodes)."""
    return solve_at_level(instance).grade


# -- generating

def attempt(request: Request, rng: random.Random) -> Generated | None:
    """One bounded try: up to `LAYOUTS[level]` random layouts, on each up to
    `TARGET_TRIES` target placements, each put to the solver restricted to the level
    (within `ATTEMPT_NODE_LIMIT` nodes); the first it settles at that level (with the
    flips asked for), or None."""
    spec = _spec(request)
    for _ in range(LAYOUTS[spec.level]):
        grid = _scatter(rng, spec.rows, spec.cols, _DENSITY, spec.mirrors, spec.lasers,
                        _WALL_SHARE)
        shape = Instance(spec.rows, spec.cols, tuple(map(tuple, grid)), spec.goal)
        for targets in _placements(rng, shape, spec):
            level = _with_targets(shape, targets)
            # The solver restricted to the level asked for: a maze it settles at that level
            # is of that level, and what it cannot settle is not (no need to know more).
            settled = solve_at_level(level, spec.level, node_limit=ATTEMPT_NODE_LIMIT)
            found = settled.grade
            if found.level == spec.level and _flips_fit(spec, found.evidence["optimum"]):
                meta = (("expect-unique", "true"),
                        ("expect-objective", str(found.evidence["optimum"])),
                        ("expect-solution", json.dumps(settled.solution, separators=(",", ":"))))
                return Generated(replace(level, meta=meta), found)
    return None


def _flips_fit(spec: _Spec, optimum: int) -> bool:
    return optimum == spec.flips if spec.flips is not None else optimum >= 1


def _with_targets(shape: Instance, targets: list[Cell]) -> Instance:
    grid = [list(row) for row in shape.grid]
    for r, c in targets:
        grid[r][c] = CellKind.TARGET
    return replace(shape, grid=tuple(map(tuple, grid)))


def _placements(rng: random.Random, shape: Instance, spec: _Spec) -> Iterator[list[Cell]]:
    """Up to `TARGET_TRIES` target sets worth grading on the layout `shape`.

    The first target: easy, an empty cell the relaxation reaches with `flips`
    flips (default: the farthest first); medium and hard, a relaxation trap
    (`_broad_traps`). Goal all: one more per further laser, on the path its
    beam takes under a random orientation.
    """
    sources = shape.sources()
    costs = {source: _relaxed_cost_to_cells(shape, source) for source in sources} \
        if spec.level == "easy" or spec.targets > 1 else {}
    firsts = _cells_at_cost(shape, costs, spec.flips) if spec.level == "easy" else \
        _broad_traps(shape, sources, spec)
    rng.shuffle(firsts)
    if spec.level == "easy" and spec.flips is None:
        nearest = {cell: min(cost.get(cell, INF) for cost in costs.values()) for cell in firsts}
        firsts.sort(key=nearest.__getitem__)   # stable: ties stay shuffled; farthest last
    for _ in range(min(TARGET_TRIES, len(firsts))):
        placed = [firsts.pop()]
        order = list(sources)
        rng.shuffle(order)
        flipped = {cell for cell in shape.rotatable() if rng.random() < 0.5}
        for source in order[:spec.targets - 1]:
            cell = _on_path(rng, shape, source, flipped, costs[source], placed)
            if cell is None:
                break
            placed.append(cell)
        if len(placed) == spec.targets:
            yield placed


def _cells_at_cost(shape: Instance, costs: dict[tuple, dict[Cell, int]],
                   flips: int | None) -> list[Cell]:
    """Empty cells the nearest laser's relaxation reaches with `flips` flips (None: 1 or
    more), in row-major order."""
    found = []
    for r, row in enumerate(shape.grid):
        for c, kind in enumerate(row):
            need = min((cost[(r, c)] for cost in costs.values() if (r, c) in cost),
                       default=None)
            if kind is CellKind.EMPTY and need is not None and need >= 1 \
                    and (flips is None or need == flips):
                found.append((r, c))
    return found


def _on_path(rng: random.Random, shape: Instance, source: tuple, flipped: set,
             cost: dict[Cell, int], placed: list[Cell]) -> Cell | None:
    """An empty cell on the beam's path under `flipped`, one the relaxation needs the most
    flips for, or None."""
    path = trace_beam(shape, source, flipped).path
    empty = [(r, c) for r, c, _ in path if shape.grid[r][c] is CellKind.EMPTY
             and (r, c) not in placed and (r, c) in cost]
    if not empty:
        return None
    most = max(cost[cell] for cell in empty)
    return rng.choice([cell for cell in empty if cost[cell] == most])


def _broad_traps(shape: Instance, sources: list, spec: _Spec) -> list[Cell]:
    """Empty cells a laser's relaxation reaches cheapest (within `flips`: at most flips
    for medium, below for hard) by a route that turns some `?` both ways.

    Broader than `_trap_cells`: every outgoing state at the cell's least cost counts,
    not the first one found, and every laser's relaxation is looked at.
    """
    board = Board(shape)
    found: set[Cell] = set()
    for source in sources:
        routes = _relaxed_routes(shape, source)
        cheapest: dict[int, int] = {}
        for state, (cost, _prev) in routes.items():
            cheapest[state >> 2] = min(cost, cheapest.get(state >> 2, cost))
        for state, (cost, _prev) in routes.items():
            r, c = divmod(state >> 2, shape.cols)
            if shape.grid[r][c] is CellKind.EMPTY and cost == cheapest[state >> 2] \
                    and _cost_fits(spec, cost) and (r, c) not in found \
                    and _double_crossed(board, routes, state):
                found.add((r, c))
    return sorted(found)


def _cost_fits(spec: _Spec, cost: int) -> bool:
    """Can a trap the relaxation reaches with `cost` flips make the level asked for?"""
    if spec.level == "hard":
        return cost >= 1 and (spec.flips is None or cost < spec.flips)
    return cost >= 1 and (spec.flips is None or cost == spec.flips)


# ---------------------------------------------------------------- the shipped set

# The beam must use the `?` at row 1, column 3 twice: once flipped (down into the loop of
# fixed mirrors) and once kept (back left, through the laser, into the target). The
# relaxation pays 1 flip for that; with one orientation for the whole run the loop just
# sends the beam out of the grid, whichever way the mirror stands: unsat.
RELAXATION_TRAP = ("mirror 3 5\n"
                   ".../\\\n"
                   "TS.?.\n"
                   "...\\/\n")
# The same trap with a way out: flip both `?` (2 flips), while the relaxation still says 1.
RELAXATION_GAP = ("mirror 4 5\n"
                  ".../\\\n"
                  "TS.?.\n"
                  "...\\?\n"
                  "....T\n")

_DENSE = {"density": 0.3, "wall_share": 0.05}
# name -> (builder, rows, cols, seed, options)
_PLAN: dict[str, tuple] = {
    **{f"easy-{n:02d}x{n:02d}": (random_level, n, n, 11 + n, {**_DENSE, "rotatable": k,
                                                             "min_flips": f})
       for n, k, f in ((8, 8, 2), (12, 16, 2), (16, 24, 3), (20, 30, 3), (30, 60, 4),
                       (40, 100, 4), (50, 150, 5), (64, 250, 6), (80, 400, 6))},
    **{f"hard-{n:02d}x{n:02d}": (hard_level, n, n, 7 + n, {**_DENSE, "rotatable": k,
                                                          "min_flips": f})
       for n, k, f in ((12, 20, 2), (20, 30, 3), (30, 60, 3), (50, 150, 4), (64, 250, 4),
                       (80, 400, 5))},
    "multi-20x20": (random_level, 20, 20, 5, {**_DENSE, "rotatable": 30, "lasers": 3,
                                              "min_flips": 2}),
    "multi-50x50": (random_level, 50, 50, 6, {**_DENSE, "rotatable": 150, "lasers": 4,
                                              "min_flips": 3}),
    "all-16x16": (random_level, 16, 16, 7, {**_DENSE, "rotatable": 24, "lasers": 2,
                                            "targets": 2, "goal": "all", "min_flips": 2}),
    "all-30x30": (random_level, 30, 30, 8, {**_DENSE, "rotatable": 60, "lasers": 3,
                                            "targets": 3, "goal": "all", "min_flips": 2}),
    "all-50x50": (random_level, 50, 50, 9, {**_DENSE, "rotatable": 150, "lasers": 3,
                                            "targets": 3, "goal": "all", "min_flips": 3}),
}


# Why these are the slow ones: the planted trap sends CP-SAT searching, 257,073 branches
# (4 s) on hard-64x64 and 2.6 million (120 s) on hard-80x80, while every other level,
# easy-80x80 included, takes each back-end well under a second (measured once, with
# one CP-SAT worker: the counts hold on any machine, the seconds do not).
FULL_SUITE_HARD_FROM = 64


def in_full_suite(name: str) -> bool:
    """Is the shipped level `name` (a file stem) `# suite: full`, out of `bench --quick`?

    A hard level (`hard_level`) of at least FULL_SUITE_HARD_FROM rows and columns
    is; nothing else is. Decided from the plan, never from a measured time.

    >>> in_full_suite("hard-64x64"), in_full_suite("easy-80x80")
    (True, False)
    """
    planned = _PLAN.get(name)
    return planned is not None and planned[0] is hard_level \
        and min(planned[1], planned[2]) >= FULL_SUITE_HARD_FROM


def shipped_set() -> dict[str, Instance]:
    """File stem -> level for `instances/mirror/` (deterministic)."""
    levels = {name: builder(rows, cols, seed, **options)
              for name, (builder, rows, cols, seed, options) in _PLAN.items()}
    levels["trap-unsat-03x05"] = parse(RELAXATION_TRAP)
    levels["trap-gap-04x05"] = parse(RELAXATION_GAP)
    return levels


def _checked(level: Instance, timeout: float) -> tuple[Status, int | None, float]:
    """(status, optimum, slowest back-end's seconds); at least two back-ends must prove it
    and none may disagree, else RuntimeError."""
    answers = {}
    for backend in ("hand", "cpsat", "sat"):
        started = time.perf_counter()
        result = run(level, backend, Limits(timeout=timeout))
        answers[backend] = (result.status, result.objective, time.perf_counter() - started)
    proven = {(status, objective) for status, objective, _ in answers.values()
              if status in (Status.OPTIMAL, Status.UNSAT)}
    if len(proven) != 1 or sum(a[0] in (Status.OPTIMAL, Status.UNSAT)
                               for a in answers.values()) < 2:
        raise RuntimeError(f"back-ends disagree or time out: {answers}\n{format(level)}")
    status, objective = proven.pop()
    return status, objective, max(seconds for _, _, seconds in answers.values())


def write_set(out: Path, timeout: float = 300.0) -> list[Path]:
    """Write the shipped set with `expect-*`, `source` and (see `in_full_suite`) `suite: full`.

    `timeout` only guards against a back-end that never ends: one out of time proves
    nothing, and the level is still written when the other two prove the same answer.
    """
    _checked(parse(RELAXATION_GAP), timeout)   # warm-up: imports are not in the printed times
    return write_instances(out, _with_metadata(timeout))


def _with_metadata(timeout: float) -> Iterator[tuple[str, Instance]]:
    for name, level in sorted(shipped_set().items()):
        status, objective, slowest = _checked(level, timeout)
        source = dict(level.meta).get("source", "hand-made relaxation trap "
                                      "(twinsolve.puzzles.mirror.generate)")
        meta = [("source", source)]
        if status is Status.UNSAT:
            meta.append(("expect-solutions", "0"))
        else:
            meta.append(("expect-objective", str(objective)))
        full = in_full_suite(name)
        if full:
            meta.append(("suite", "full"))
        # The time is printed for whoever regenerates the set, never written.
        print(f"{name}.txt: {status} {objective}{', suite full' if full else ''}, "
              f"slowest back-end {slowest:.2f} s", flush=True)
        yield f"{name}.txt", replace(level, meta=tuple(meta))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args(argv)
    write_set(args.out, args.timeout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
