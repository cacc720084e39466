"""Slitherlink puzzles with exactly one solution, graded by difficulty.

Levels (`grade`), defined as in Simon Tatham's collection by what the hand
solver (`hand.py`, its `TECHNIQUES`) may use, each level adding to the one
before:

- easy: the clue counts (a 0, a full or a short count) and two or no loop
  sides at every point; the single-loop closure rule; the patterns players
  learn first (two adjacent 3s, two diagonal 3s with 2s between them or
  none, 1s, 2s and 3s in a corner of the grid);
- medium: + corners: each point's and each clue's combinations read with
  the corner parities (a line entering a clue's corner, a 3 or a 1 whose
  corner is even, a 2 passing a parity on to its opposite corner);
- hard: + colours: inside and outside, the loop as the boundary of one
  region (sides and corner parities as colour differences, cells known to
  be of one colour as classes, the inside connected with its articulation
  points, the outside reaching the edge);
- extreme: + failed-literal probing (a side whose trial on the cheap rules
  fails takes the other value). A puzzle of the corpus that needs branching
  besides (11 of the 583 janko.at puzzles) is graded extreme too, with its
  search nodes in the evidence, when the search proves it unique within
  `EXTREME_NODES` nodes; generated extreme puzzles need no branching.

A puzzle is of level d when propagation with d's techniques alone decides
every side (which proves the solution unique: every deduction is sound) and
propagation with d-1's does not. `grade` reports the evidence: clues,
techniques, rule runs, probes (and nodes and depth when it branched).

Generating (`attempt`): grow a random loop (`random_loop`: a region of
about `SHARE` of the grid grown from a random cell without ever pinching
itself at a corner, its holes filled, so its boundary is one loop), give
every cell its clue, then lift clues in a seeded order (with `symmetric`,
in 180-degree pairs) while the level's techniques still settle the puzzle.
The result is minimal for its level: lifting any clue left leaves a puzzle
the level's solver cannot finish. It is kept when it grades exactly to the
level (not easier). One model per level serves every question of a try:
its clue rules are switched on and off (`SlitherModel.deduce`), never built
again. For extreme, a quick SAT question comes first (`models.LoopOracle`:
is the loop still the only solution?): a lifted clue that leaves a second
solution is the usual reason a clue must stay, and the oracle says so far
faster than probing. Nothing depends on a measured time or on which second
solution a solver found: a seed gives the same puzzle everywhere.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence

from ...core.clue_grid import branching_grade, check_grid_request, fill_holes, level_evidence
from ...core.generation import Generated, Grade, Option, Request, Shipped
from ...core.geometry import DELTAS
from ...search.propagate import search
from .hand import TECHNIQUES, Deduced, SlitherModel, build, on_first
from .models import LoopOracle
from .rules import Instance, clue_cells, loop_sides, side_count, solution_from_inside

__all__ = ["random_loop", "LEVELS", "LEVEL_TECHNIQUES", "DEFAULT_SIZE", "OPTIONS", "ATTEMPTS",
           "SHIPPED", "check", "attempt", "grade", "EXTREME_NODES", "clues_of"]

LEVELS = ("easy", "medium", "hard", "extreme")
LEVEL_TECHNIQUES = {
    "easy": ("counts", "loop", "patterns"),
    "medium": ("counts", "loop", "patterns", "corners"),
    "hard": ("counts", "loop", "patterns", "corners", "colours"),
    "extreme": TECHNIQUES,
}
DEFAULT_SIZE = (10, 10)
OPTIONS = (Option("symmetric", "clues in 180-degree-symmetric pairs", kind="flag"),)
MAX_GENERATED_SIDE = 30
SHARE = 0.5  # of the grid grown as the loop's inside
# The search that grades a puzzle needing branching stops here (nodes, not seconds, so
# the grade is the same on every machine); a puzzle it cannot settle is not graded.
EXTREME_NODES = 5_000
# The smallest grids (cells) where a level has been seen; smaller requests are refused.
MIN_CELLS = {"easy": 4, "medium": 9, "hard": 16, "extreme": 25}
ATTEMPTS = 40
# The graded sets in instances/slitherlink/graded/ (`python -m twinsolve.generation.shipped`).
SHIPPED = (Shipped("easy", (10, 10), 2), Shipped("medium", (10, 10), 2),
           Shipped("hard", (10, 10), 2), Shipped("extreme", (10, 10), 2))
# What `_acceptable` asks, cheapest first: a puzzle an easier level settles is settled.
_ASKED = {"easy": ("easy",), "medium": ("easy", "medium"),
          "hard": ("medium", "hard"), "extreme": ("hard", "extreme")}


# ---------------------------------------------------------------- loops

def _pinches(inside: list[list[bool]], r: int, c: int) -> bool:
    """Whether making (r, c) inside makes a 2x2 checkerboard (the loop touching itself)."""
    rows, cols = len(inside), len(inside[0])
    for dr in (-1, 1):
        for dc in (-1, 1):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and inside[rr][cc] \
                    and not inside[rr][c] and not inside[r][cc]:
                return True
    return False


def random_loop(rows: int, cols: int, rng: random.Random, share: float = SHARE
                ) -> list[list[bool]]:
    """The inside of a random loop: a connected region of about `share` of the cells,
    grown from a random cell, a cell joining only when it pinches nothing, its holes
    filled. Its boundary is one loop (`rules.loop_problems` finds nothing)."""
    inside = [[False] * cols for _ in range(rows)]
    r, c = rng.randrange(rows), rng.randrange(cols)
    inside[r][c] = True
    frontier = [(r + dr, c + dc) for dr, dc in DELTAS]
    grown = 1
    while grown < max(1, int(share * rows * cols)) and frontier:
        r, c = frontier.pop(rng.randrange(len(frontier)))
        if not (0 <= r < rows and 0 <= c < cols) or inside[r][c] or _pinches(inside, r, c):
            continue
        inside[r][c] = True
        grown += 1
        frontier.extend((r + dr, c + dc) for dr, dc in DELTAS)
    fill_holes(inside)
    return inside


def clues_of(inside: Sequence[Sequence[bool]]) -> list[list[int]]:
    """Every cell's clue for the loop around `inside`."""
    sides = loop_sides(inside)
    return [[side_count(sides, r, c) for c in range(len(inside[0]))]
            for r in range(len(inside))]


# ---------------------------------------------------------------- grading

def grade(instance: Instance) -> Grade:
    """The level of `instance`: the first level whose techniques decide every side
    without guessing; extreme with branching when only the search settles it."""
    for level in LEVELS:
        deduced, effort = build(instance, LEVEL_TECHNIQUES[level]).deduce()
        if deduced is Deduced.NONE:
            return Grade(None, {"solutions": 0, "clues": len(clue_cells(instance))})
        if deduced is Deduced.SOLVED:
            techniques = LEVEL_TECHNIQUES[level]
            return Grade(level, level_evidence(clue_cells(instance), techniques, effort))
    return _branching_grade(instance)


def _branching_grade(instance: Instance) -> Grade:
    model = build(instance)
    if not model.start():
        return Grade(None, {"solutions": 0, "clues": len(clue_cells(instance))})
    found = search(model.prop, choose=model.choose, order=on_first, max_solutions=2,
                   node_limit=EXTREME_NODES)
    return branching_grade(clue_cells(instance), TECHNIQUES, found, EXTREME_NODES)


# ---------------------------------------------------------------- generating

def check(request: Request) -> None:
    """Refuse sizes out of range and grids too small for the level (`MIN_CELLS`)."""
    check_grid_request(request, "Slitherlink", range(1, MAX_GENERATED_SIDE + 1), MIN_CELLS)


def _groups(rows: int, cols: int, symmetric: bool) -> list[tuple[tuple[int, int], ...]]:
    """The clue positions, alone or in 180-degree pairs: lifted (and kept) together."""
    groups = []
    for r in range(rows):
        for c in range(cols):
            mirror = (rows - 1 - r, cols - 1 - c)
            if not symmetric:
                groups.append(((r, c),))
            elif (r, c) <= mirror:
                groups.append(((r, c),) if mirror == (r, c) else ((r, c), mirror))
    return groups


class _Try:
    """One try's loop, its clue grid, a model per level asked, and the oracle."""

    def __init__(self, inside: list[list[bool]], level: str) -> None:
        self.inside = inside
        rows, cols = len(inside), len(inside[0])
        numbers = clues_of(inside)
        self.full = Instance(rows, cols, tuple(tuple(row) for row in numbers))
        self.models = {easier: SlitherModel(self.full, LEVEL_TECHNIQUES[easier])
                       for easier in _ASKED[level]}
        self.level = level
        self._oracle: LoopOracle | None = None

    def unique(self, placed: set[tuple[int, int]]) -> bool:
        if self._oracle is None:
            self._oracle = LoopOracle(self.inside)
        return self._oracle.other(placed) is None

    def acceptable(self, placed: set[tuple[int, int]],
                   unique: Callable[[], bool] | None = None) -> bool:
        """Whether the clues of `placed` settle the loop with the level's techniques."""
        for easier in _ASKED[self.level]:
            if easier == "extreme" and unique is not None and not unique():
                return False
            if self.models[easier].deduce(placed)[0] is Deduced.SOLVED:
                return True
        return False

    def puzzle(self, placed: set[tuple[int, int]], meta: tuple = ()) -> Instance:
        grid = [[clue if (r, c) in placed else None for c, clue in enumerate(row)]
                for r, row in enumerate(self.full.clues)]
        return Instance(self.full.rows, self.full.cols, tuple(map(tuple, grid)), meta)

    def close(self) -> None:
        if self._oracle is not None:
            self._oracle.close()


def attempt(request: Request, rng: random.Random) -> Generated | None:
    """One try: a random loop, every clue, then clues lifted in a seeded order while the
    level's techniques settle the puzzle; kept when it grades exactly to the level."""
    rows, cols, level = request.rows, request.cols, request.level
    inside = random_loop(rows, cols, rng)
    groups = _groups(rows, cols, request.symmetric)
    placed = {cell for group in groups for cell in group}
    trial = _Try(inside, level)
    try:
        if not trial.acceptable(placed):
            return None
        rng.shuffle(groups)
        for group in groups:
            placed.difference_update(group)
            if not trial.acceptable(placed, lambda: trial.unique(placed)):
                placed.update(group)
        graded = grade(trial.puzzle(placed))
        if graded.level != level:
            return None
        meta = (("expect-unique", "true"),
                ("expect-solution", json.dumps(solution_from_inside(inside),
                                               separators=(",", ":"))))
        return Generated(trial.puzzle(placed, meta), graded)
    finally:
        trial.close()
