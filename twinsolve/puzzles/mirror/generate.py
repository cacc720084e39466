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
"""

from __future__ import annotations

import argparse
import heapq
import random
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from ...core.limits import Limits
from ...core.result import Status
from ...core.run import run
from ...core.writing import write_instances
from ...search.costs import dijkstra_distances
from .hand import Board, Code, relaxed_bound
from .rules import CellKind, Goal, Instance, format, parse, trace_beam

__all__ = ["random_level", "hard_level", "exact_optimum", "shipped_set", "in_full_suite",
           "write_set", "main", "RELAXATION_TRAP", "RELAXATION_GAP", "HAND_NODE_BUDGET",
           "FULL_SUITE_HARD_FROM"]

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
        path = trace_beam(shape, source, flipped).path
        empty = [(r, c) for r, c, _ in path if shape.grid[r][c] is CellKind.EMPTY
                 and (r, c) not in placed and (r, c) in cost]
        if not empty:
            return None
        most = max(cost[cell] for cell in empty)
        placed.append(rng.choice([cell for cell in empty if cost[cell] == most]))
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
