"""Cave puzzles with exactly one solution: graded by difficulty, and the shipped set.

Levels (`grade`), defined as in Simon Tatham's collection by what the hand
solver (`hand.py`) may use, each level adding to the one before:

- easy: the clue bounds (each clue's visibility rule) and simple
  reachability (a cell that can reach no inside cell is outside);
- medium: + articulation forcing (an undecided cell whose loss would split
  the inside is inside) and no holes (outside cells reach the border, its
  cut vertices, and no 2x2 checkerboard);
- hard: + one level of trial (failed-literal probing on the clue ends);
- extreme: only branching settles it (depth-first search, at most
  `EXTREME_NODES` nodes to prove uniqueness).

A puzzle is of level d when propagation with d's techniques alone decides
every cell (which proves the solution unique: every deduction is sound) and
propagation with d-1's does not. `grade` reports the evidence: clue count,
techniques, propagations and probes (and search nodes and branching depth
for extreme).

Generating (`attempt`): grow a random cave (a connected region of about
`SHARE` of the grid from a random start, its holes filled: 60% or a little more of the
grid; with `symmetric` a cave that is its own 180-degree image, its clues
placed and lifted in pairs), clue every inside cell, then take clues away in a seeded
order while the level's techniques still settle the puzzle. The result is
minimal for its level: lifting any remaining clue leaves a puzzle the
level's solver cannot finish. It is kept when it grades exactly to the
level. Extreme puzzles start from a hard-minimal one; lifting one of its
clues and adding another that rules out the second solution
(`_harden`) gives a unique puzzle the hard solver cannot finish, whose
clues are then lifted while it stays unique; its cave is grown to
`EXTREME_SHARE` (45%) only, which makes such puzzles far less rare. Nothing depends on a measured
time: budgets are node counts, so a seed gives the same puzzle everywhere.

The shipped set (`instances/cave/unique-*.txt`) predates the levels: each is
`unique_puzzle` (minimal for uniqueness, proven by `hand`, `sat` when `hand`
runs out of time). `python -m twinsolve.puzzles.cave.generate --out
instances/cave` writes it again, byte for byte.
"""

from __future__ import annotations

import argparse
import enum
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...core.errors import UsageError
from ...core.generation import Generated, Grade, Request
from ...core.geometry import DELTAS
from ...core.limits import Limits
from ...core.result import Status
from ...core.run import run
from ...core.writing import write_instances
from ...search.propagate import SolveResult, search
from .hand import TECHNIQUES, build, inside_first
from .rules import EMPTY, Cell, Instance, clue_cells, count_visible, solution_from_inside, verify

__all__ = ["random_cave", "unique_puzzle", "SHIPPED", "main", "LEVELS", "LEVEL_TECHNIQUES",
           "DEFAULT_SIZE", "OPTIONS", "ATTEMPTS", "check", "attempt", "grade"]

# (rows, cols, seed) of the shipped puzzles.
SHIPPED = ((6, 6, 1), (8, 8, 2), (8, 8, 3), (10, 10, 4), (10, 10, 5), (12, 12, 6), (15, 15, 7))


def _neighbours(rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr, dc in DELTAS
            if 0 <= r + dr < rows and 0 <= c + dc < cols]


def _fill_holes(inside: list[list[bool]]) -> None:
    """Outside cells that cannot reach the border join the cave (no holes)."""
    rows, cols = len(inside), len(inside[0])
    seen = {(r, c) for r in range(rows) for c in range(cols)
            if (r in (0, rows - 1) or c in (0, cols - 1)) and not inside[r][c]}
    stack = list(seen)
    while stack:
        r, c = stack.pop()
        for cell in _neighbours(rows, cols, r, c):
            if cell not in seen and not inside[cell[0]][cell[1]]:
                seen.add(cell)
                stack.append(cell)
    for r in range(rows):
        for c in range(cols):
            if not inside[r][c] and (r, c) not in seen:
                inside[r][c] = True


def random_cave(rows: int, cols: int, rng: random.Random, share: float = 0.55,
                symmetric: bool = False) -> list[list[bool]]:
    """A connected region of about `share` of the cells, grown from a random cell.

    With `symmetric` the region is its own 180-degree image: it grows from the
    centre, each cell together with its image (the image of a cell next to a
    symmetric region is next to it too, so the region stays connected).
    """
    inside = [[False] * cols for _ in range(rows)]

    def image(cell: tuple[int, int]) -> tuple[int, int]:
        return (rows - 1 - cell[0], cols - 1 - cell[1])

    if symmetric:  # the centre cell, or the 2x2 / 1x2 block around the centre
        start = [(r, c) for r in {(rows - 1) // 2, rows // 2} for c in {(cols - 1) // 2, cols // 2}]
    else:
        start = [(rng.randrange(rows), rng.randrange(cols))]
    frontier = []
    for r, c in start:
        inside[r][c] = True
        frontier.extend(_neighbours(rows, cols, r, c))
    grown = len(start)
    while grown < max(1, int(share * rows * cols)):
        frontier = [cell for cell in frontier if not inside[cell[0]][cell[1]]]
        if not frontier:
            break
        cell = frontier.pop(rng.randrange(len(frontier)))
        for r, c in {cell, image(cell)} if symmetric else (cell,):
            inside[r][c] = True
            frontier.extend(_neighbours(rows, cols, r, c))
            grown += 1
    _fill_holes(inside)
    return inside


# Who settles each uniqueness question, in order: `hand` first (14x faster than
# `sat` on 20x20: 4.0 s against 56 s for the whole puzzle), `sat` when `hand` runs
# out of time. Both prove what they answer, so the puzzle does not depend on which did.
_ORACLES = (("hand", 20.0), ("sat", 60.0))


def _is_unique(instance: Instance) -> bool:
    """True when the clues have exactly one solution; False when another one exists.

    Unsettled by every oracle in time (never seen on the shipped sizes) counts
    as not unique: the clue stays, so the puzzle is still unique, just less
    minimal.
    """
    for backend, seconds in _ORACLES:
        result = run(instance, backend, Limits(timeout=seconds, unique=True))
        if result.status is Status.SOLVED and result.unique is not None:
            return result.unique
    return False


def unique_puzzle(rows: int, cols: int, seed: int) -> Instance:
    """A minimal-clue puzzle whose only solution is a random cave (see the docstring)."""
    rng = random.Random(seed)
    inside = random_cave(rows, cols, rng)
    clues = [[Cell.clue(count_visible(inside, r, c)) if inside[r][c] else EMPTY
              for c in range(cols)] for r in range(rows)]
    order = [(r, c) for r in range(rows) for c in range(cols) if inside[r][c]]
    rng.shuffle(order)
    for r, c in order:
        kept = clues[r][c]
        clues[r][c] = EMPTY
        if not _is_unique(Instance(rows, cols, tuple(map(tuple, clues)))):
            clues[r][c] = kept
    meta = (("source", "twinsolve.puzzles.cave.generate.unique_puzzle"
                       f"({rows}, {cols}, seed={seed})"),
            ("expect-unique", "true"),
            ("expect-solution", json.dumps(solution_from_inside(inside), separators=(",", ":"))))
    return Instance(rows, cols, tuple(map(tuple, clues)), meta)


# ---------------------------------------------------------------- graded puzzles

LEVELS = ("easy", "medium", "hard", "extreme")
# What the hand solver may use at each level (`hand.TECHNIQUES`); extreme adds branching.
LEVEL_TECHNIQUES = {
    "easy": ("bounds", "reach"),
    "medium": ("bounds", "reach", "articulation", "holes"),
    "hard": TECHNIQUES,
}
DEFAULT_SIZE = (10, 10)
OPTIONS: tuple[str, ...] = ()
MAX_GENERATED_SIDE = 40
SHARE = 0.6  # of the grid grown as the cave (published caves cover about 60%)
# Extreme puzzles are grown smaller: a thinner cave leaves more unique clue sets the
# hard solver cannot finish (10x10, 3 seeds: median 12 s a puzzle at 0.45, ~100 s at 0.6).
EXTREME_SHARE = 0.45
# The full search that proves an extreme puzzle unique stops here (nodes, not seconds,
# so the answer is the same on every machine); a puzzle it cannot settle is not graded.
EXTREME_NODES = 20_000
# The smallest grids (cells) where a level has been seen; smaller requests are refused.
MIN_CELLS = {"easy": 1, "medium": 9, "hard": 16, "extreme": 64}
ATTEMPTS = 60  # tries per puzzle (the driver's budget): extreme needs dozens on 10x10


class _Deduced(enum.Enum):
    SOLVED = "solved"      # every cell decided, and the shading is a cave
    STUCK = "stuck"        # undecided cells left: the techniques do not suffice
    NONE = "none"          # a contradiction: no shading satisfies the clues


def _deduce(instance: Instance, techniques: Sequence[str]) -> tuple[_Deduced, dict[str, int]]:
    """Propagation alone, restricted to `techniques`, from the clues: what it settles.

    Every deduction is sound, so a grid it decides completely is the only
    candidate: a solution (then the only one) when `verify` accepts it, none otherwise.
    """
    model = build(instance, techniques=techniques)
    model.prop.schedule_all()
    effort = {"propagations": 0, "probes": 0}
    if not model.prop.propagate():
        return _Deduced.NONE, effort
    effort = {"propagations": model.prop.runs, "probes": model.prop.probes}
    store = model.store
    if any(not store.is_fixed(v) for v in range(len(store))):
        return _Deduced.STUCK, effort
    if verify(instance, model.solution(store.solution())):
        return _Deduced.NONE, effort
    return _Deduced.SOLVED, effort


def _two_solutions(instance: Instance) -> SolveResult:
    """The hand search for up to two solutions (both kept), at most `EXTREME_NODES` nodes."""
    model = build(instance)
    return search(model.prop, choose=model.choose, order=inside_first, max_solutions=2,
                  keep=2, node_limit=EXTREME_NODES)


def _unique_by_search(instance: Instance) -> tuple[bool | None, SolveResult]:
    """True / False: one solution / none or several; None: not settled in EXTREME_NODES."""
    found = _two_solutions(instance)
    return found.unique, found


def _evidence(instance: Instance, techniques: Sequence[str], effort: dict[str, int],
              nodes: int = 0, depth: int = 0) -> dict[str, Any]:
    return {"clues": len(clue_cells(instance)), "techniques": list(techniques),
            **effort, "nodes": nodes, "depth": depth}


def grade(instance: Instance) -> Grade:
    """The level of `instance`: the first level whose techniques decide every cell
    without guessing; extreme when only branching does (see the module docstring)."""
    for level in LEVELS[:-1]:
        deduced, effort = _deduce(instance, LEVEL_TECHNIQUES[level])
        if deduced is _Deduced.NONE:
            return Grade(None, {"solutions": 0, "clues": len(clue_cells(instance))})
        if deduced is _Deduced.SOLVED:
            return Grade(level, _evidence(instance, LEVEL_TECHNIQUES[level], effort))
    unique, found = _unique_by_search(instance)
    techniques = [*TECHNIQUES, "branching"]
    if unique:
        return Grade("extreme", _evidence(instance, techniques, {}, found.nodes, found.depth))
    if unique is None:
        return Grade(None, {"undecided": f"not settled in {EXTREME_NODES} search nodes",
                            "clues": len(clue_cells(instance))})
    return Grade(None, {"solutions": "2+" if found.count >= 2 else 0,
                        "clues": len(clue_cells(instance))})


def check(request: Request) -> None:
    """Refuse sizes out of range and grids too small for the level (`MIN_CELLS`)."""
    rows, cols = request.rows, request.cols
    for size, what in ((rows, "rows"), (cols, "columns")):
        if size is None or not 1 <= size <= MAX_GENERATED_SIDE:
            raise UsageError(f"a generated Cave has 1..{MAX_GENERATED_SIDE} {what}, got {size}")
    if rows * cols < MIN_CELLS[request.level]:
        raise UsageError(f"a {rows}x{cols} grid has no {request.level} Cave puzzle "
                         f"(it needs at least {MIN_CELLS[request.level]} cells)")


def _clue_groups(inside: list[list[bool]], symmetric: bool) -> list[tuple[tuple[int, int], ...]]:
    """The clue positions, alone or in 180-degree pairs: removed (and kept) together.

    With `symmetric`, a cell whose mirror image is outside carries no clue, since
    its partner could not (clues are inside cells); `attempt` grows a symmetric
    cave then, so every inside cell has its partner.
    """
    rows, cols = len(inside), len(inside[0])
    groups = []
    for r in range(rows):
        for c in range(cols):
            if not inside[r][c]:
                continue
            if not symmetric:
                groups.append(((r, c),))
                continue
            mirror = (rows - 1 - r, cols - 1 - c)
            if inside[mirror[0]][mirror[1]] and (r, c) <= mirror:
                groups.append(((r, c),) if mirror == (r, c) else ((r, c), mirror))
    return groups


def _acceptable(instance: Instance, level: str) -> bool:
    """Whether the clues settle the cave with the level's techniques at most.

    The levels are nested, so the cheaper ones are asked first: most puzzles met
    while clues are removed are settled without probing or search.
    """
    for easier in LEVELS[:LEVELS.index(level) + 1]:
        if easier == "extreme":
            return _unique_by_search(instance)[0] is True
        if easier in ("medium", level) and \
                _deduce(instance, LEVEL_TECHNIQUES[easier])[0] is _Deduced.SOLVED:
            return True
    return False


class _Clues:
    """The clue grid of one try: every group of `_clue_groups` placed or not."""

    def __init__(self, inside: list[list[bool]]) -> None:
        self.inside = inside
        self.rows, self.cols = len(inside), len(inside[0])
        self.grid = [[EMPTY] * self.cols for _ in range(self.rows)]

    def place(self, group: tuple[tuple[int, int], ...]) -> None:
        for r, c in group:
            self.grid[r][c] = Cell.clue(count_visible(self.inside, r, c))

    def lift(self, group: tuple[tuple[int, int], ...]) -> None:
        for r, c in group:
            self.grid[r][c] = EMPTY

    def puzzle(self, meta: tuple = ()) -> Instance:
        return Instance(self.rows, self.cols, tuple(map(tuple, self.grid)), meta)


def _reduce(clues: _Clues, groups: list, level: str) -> list:
    """Lift each group in turn while the puzzle stays acceptable at `level`; the kept ones."""
    kept = []
    for group in groups:
        clues.lift(group)
        if not _acceptable(clues.puzzle(), level):
            clues.place(group)
            kept.append(group)
    return kept


def _alternative(instance: Instance) -> list[list[bool]] | None:
    """A second shading of `instance` besides the first one found, or None."""
    found = _two_solutions(instance)
    if len(found.solutions) < 2:
        return None
    cols = instance.cols
    values = found.solutions[1]
    return [[bool(values[r * cols + c]) for c in range(cols)] for r in range(instance.rows)]


def _tells_apart(clues: _Clues, group: tuple, other: list[list[bool]]) -> bool:
    """Whether clueing `group` rules the shading `other` out."""
    return any(not other[r][c] or count_visible(other, r, c) != count_visible(clues.inside, r, c)
               for r, c in group)


def _harden(clues: _Clues, kept: list, spare: list, rng: random.Random) -> list | None:
    """From a hard-minimal puzzle to one that needs branching: the clues left, or None.

    Lifting a kept group leaves a puzzle the hard solver cannot finish (it is
    hard-minimal), usually with a second solution; a spare group that tells that
    solution apart may make it unique again while the hard solver still cannot
    finish it (`_SWAPS` of them are tried per lifted group). Then clues are lifted
    while the puzzle stays unique.
    """
    for lifted in rng.sample(kept, min(len(kept), _LIFTS)):
        clues.lift(lifted)
        rest = [group for group in kept if group != lifted]
        other = _alternative(clues.puzzle())
        if other is None and _acceptable(clues.puzzle(), "extreme"):
            return _reduce(clues, rest, "extreme")
        candidates = [group for group in spare if other is not None
                      and _tells_apart(clues, group, other)]
        for added in rng.sample(candidates, min(len(candidates), _SWAPS)):
            clues.place(added)
            if _deduce(clues.puzzle(), TECHNIQUES)[0] is not _Deduced.SOLVED and \
                    _unique_by_search(clues.puzzle())[0] is True:
                return _reduce(clues, rest, "extreme") + [added]
            clues.lift(added)
        clues.place(lifted)
    return None


_LIFTS = 8   # kept groups lifted per try when hardening to extreme
_SWAPS = 3   # spare groups tried per lifted group


def attempt(request: Request, rng: random.Random) -> Generated | None:
    """One try: a random cave, every clue, then clues removed in a seeded order.

    For easy, medium and hard, clues are taken away while the level's
    techniques still settle the puzzle: the result is minimal for that level,
    and kept when it grades exactly so (not easier). For extreme the puzzle is
    first made hard-minimal, then hardened by one swap of clues (`_harden`).
    `grade` confirms the level before the puzzle is kept.
    """
    rows, cols, level = request.rows, request.cols, request.level
    share = EXTREME_SHARE if level == "extreme" else SHARE
    clues = _Clues(random_cave(rows, cols, rng, share, request.symmetric))
    groups = _clue_groups(clues.inside, request.symmetric)
    for group in groups:
        clues.place(group)
    stage = "hard" if level == "extreme" else level
    if not _acceptable(clues.puzzle(), stage):
        return None
    rng.shuffle(groups)
    kept = _reduce(clues, groups, stage)
    if level == "extreme":
        spare = [group for group in groups if group not in kept]
        if _harden(clues, kept, spare, rng) is None:
            return None
    graded = grade(clues.puzzle())
    if graded.level != level:
        return None
    meta = (("expect-unique", "true"),
            ("expect-solution", json.dumps(solution_from_inside(clues.inside),
                                           separators=(",", ":"))))
    return Generated(clues.puzzle(meta), graded)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="write the shipped Cave puzzles")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    named = ((f"unique-{rows:02d}x{cols:02d}-seed{seed}.txt", unique_puzzle(rows, cols, seed))
             for rows, cols, seed in SHIPPED)
    for path in write_instances(args.out, named):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
