"""Nurikabe puzzles with exactly one solution, graded by difficulty.

Levels (`grade`), defined as in Simon Tatham's collection by what the hand
solver (`hand.py`) may use, each level adding to the one before:

- easy: the island bounds (complete islands walled in, cells between two
  islands or overfilling one shaded, pools, the sea connected and its size:
  the cells the numbers leave), `reach`
  (cells no island can reach are shaded; in a thin sea, cells too far from
  the sea are unshaded) and `cuts` (articulation forcing:
  a cell an island cannot grow to its size without is unshaded, one the sea
  cannot stay connected without is shaded; and an island's land may not cut
  the sea: a cell it could reach only by cutting an undecided region across,
  with shaded cells on both sides, is not its own);
- medium: + `shapes` (every way to complete an island, when there are few:
  cells in all of them unshaded, cells beside all of them shaded; and, where
  the islands are few and compact, the sea's edge budget: such islands leave
  the sea few sides on the grid's edge and few loops);
- hard: + `probing` and `lookahead` (trial and error: a cell whose
  shading, or whose unshading, leads the rules to a contradiction takes the
  other value; once that is stuck, the same one level deeper, each trial
  probing in turn, at most `hand.LOOKAHEAD_TRIALS` trials). hand's
  `forcing` (what both values of a cell imply) and `learning` (what the
  lookahead's trials implied, kept as rules) are in no level
  (`hand.HAND_ONLY`), so the explainer's steps, which are the levels'
  techniques, tell every deduction a level makes.

A puzzle is of level d when propagation with d's techniques alone decides
every cell (which proves the solution unique: every deduction is sound) and
propagation with d-1's does not. `grade` reports the evidence: clue count,
techniques, propagations and probes. A puzzle that only branching settles
has no level (`grade` says whether it is unique).

Generating (`attempt`): a random sea (`random_sea`: cells taken out of an
all-shaded grid, one in each 2x2 pool left, while the sea stays connected
and the islands stay within `MAX_ISLAND`; then a few more for islands of
varied sizes) and one clue per island at a random cell of it. Then repairs
(`_repaired`), at most `REPAIRS`: where the level's solver is stuck, a clue
moves within its island onto a cell left undecided, or a shaded one with
only shaded neighbours becomes an island of one; for hard, while the puzzle
has another solution (a SAT question), the place is one where the two
differ. The try is given up once the level below settles the puzzle. Then
clues are lifted in a seeded order while the level's solver still settles
the puzzle (a lifted clue's island becomes sea, or the puzzle finds another
answer, and the solver's answer is the new one): the result is clue-minimal
for its level, as lifting any remaining clue leaves a puzzle the level's
solver cannot finish. It is kept when it grades exactly to the level. With
`symmetric` the sea is its own 180-degree image (cells taken out in pairs;
an island is never its own image, so every clue has a partner) and clues
move, appear and are lifted in pairs.

Nothing depends on a measured time, so a seed gives the same puzzle on every
machine with the same SAT solver: unlike Cave's generator, a hard try reads
which other solution the solver found (the places to tell apart), so another
solver, or another version of it, may give other (equally valid) puzzles.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from ...core.clue_grid import check_grid_request
from ...core.generation import Generated, Grade, Option, Request, Shipped
from ...core.limits import Limits
from ...search.grid import Grid
from .hand import GRADED, build, solve
from .models import another_solution
from .rules import EMPTY, Cell, Instance, clue_cells, islands, solution_from_shaded

__all__ = ["LEVELS", "LEVEL_TECHNIQUES", "DEFAULT_SIZE", "OPTIONS", "ATTEMPTS", "SHIPPED",
           "MAX_ISLAND", "check", "attempt", "grade", "random_sea", "settle"]

LEVELS = ("easy", "medium", "hard")
LEVEL_TECHNIQUES = {
    "easy": ("reach", "cuts"),
    "medium": ("reach", "cuts", "shapes"),
    "hard": GRADED,  # hand's probing and lookahead, without its forcing and learning
}
DEFAULT_SIZE = (10, 10)
OPTIONS = (Option("symmetric", "clues in 180-degree-symmetric pairs", kind="flag"),)
MAX_GENERATED_SIDE = 30
MAX_ISLAND = 7  # cells of an island while the sea is carved (published 10x10s: 1 to 9)
EXTRA_SHARE = 0.08  # of the cells taken out of the sea after the pools are gone
REPAIRS = 12  # islands of one added, at most, before a try gives up
ATTEMPTS = 200
# The smallest grids (cells) where a level has been seen; smaller requests are refused.
MIN_CELLS = {"easy": 1, "medium": 16, "hard": 25}
# The graded sets in instances/nurikabe/graded/ (`python -m twinsolve.generation.shipped`).
SHIPPED = (Shipped("easy", (10, 10), 2), Shipped("medium", (10, 10), 2),
           Shipped("hard", (10, 10), 2))


# ---------------------------------------------------------------- the sea

class _Sea:
    """A shading being carved: sea cells taken out while it stays connected."""

    def __init__(self, rows: int, cols: int) -> None:
        self.grid = Grid(rows, cols)
        self.shaded = bytearray(b"\x01") * self.grid.size

    def island_of(self, cell: int) -> set[int]:
        """The unshaded cells joined to unshaded `cell`."""
        seen = {cell}
        queue = [cell]
        for v in queue:
            for w in self.grid.neighbours[v]:
                if w not in seen and not self.shaded[w]:
                    seen.add(w)
                    queue.append(w)
        return seen

    def can_take(self, cells: Sequence[int], image: Any) -> bool:
        """Whether unshading `cells` keeps the sea connected and the islands small (and,
        with `image`, no island its own image: the centre of an odd grid stays sea)."""
        for v in cells:
            self.shaded[v] = 0
        try:
            for v in cells:
                island = self.island_of(v)
                if len(island) > MAX_ISLAND or (image is not None and image(v) in island):
                    return False
            return len(self.grid.components(self.shaded)) <= 1
        finally:
            for v in cells:
                self.shaded[v] = 1

    def take(self, cells: Sequence[int]) -> None:
        for v in cells:
            self.shaded[v] = 0

    def pools(self) -> list[tuple[int, ...]]:
        cols, shaded = self.grid.cols, self.shaded
        found = []
        for r in range(self.grid.rows - 1):
            for c in range(cols - 1):
                block = (r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
                if all(shaded[v] for v in block):
                    found.append(block)
        return found


def random_sea(rows: int, cols: int, rng: random.Random, symmetric: bool = False
               ) -> list[list[bool]] | None:
    """A random valid sea (connected, no pool) with islands of at most `MAX_ISLAND` cells,
    or None when the carving gets stuck (a pool no cell of which can go).

    With `symmetric` it is its own 180-degree image and no island is its own image.
    """
    sea = _Sea(rows, cols)
    n = rows * cols
    image = (lambda v: n - 1 - v) if symmetric else None

    def group(v: int) -> list[int]:
        return sorted({v, image(v)}) if image is not None else [v]

    while True:
        pools = sea.pools()
        if not pools:
            break
        block = rng.choice(pools)
        for v in rng.sample(block, 4):
            if sea.can_take(group(v), image):
                sea.take(group(v))
                break
        else:
            return None
    for _ in range(int(EXTRA_SHARE * n)):
        v = rng.randrange(n)
        if sea.shaded[v] and sea.can_take(group(v), image):
            sea.take(group(v))
    return [[bool(sea.shaded[r * cols + c]) for c in range(cols)] for r in range(rows)]


# ---------------------------------------------------------------- solving by level

def settle(instance: Instance, techniques: Sequence[str]
           ) -> tuple[dict[str, list[str]] | None, dict[str, int]]:
    """Propagation alone, restricted to `techniques`: the solution when it decides every
    cell (then the only one: every deduction is sound), else None; and the effort."""
    model = build(instance, techniques=techniques)
    settled = model.settle() and model.decided()
    effort = {"propagations": model.prop.runs, "probes": model.prop.probes}
    return (model.solution(model.store.solution()) if settled else None), effort


def grade(instance: Instance) -> Grade:
    """The level of `instance`: the first level whose techniques decide every cell
    without guessing (see the module docstring), or None with why."""
    for level in LEVELS:
        solution, effort = settle(instance, LEVEL_TECHNIQUES[level])
        if solution is not None:
            return Grade(level, {"clues": len(clue_cells(instance)),
                                 "techniques": list(LEVEL_TECHNIQUES[level]), **effort})
    found = solve(instance, Limits(timeout=60, unique=True))
    verdict = ("no solution" if found.unique is False and found.solution is None
               else "several solutions" if found.unique is False
               else "unique, needs branching" if found.unique else "not settled")
    return Grade(None, {"clues": len(clue_cells(instance)), "verdict": verdict})


# ---------------------------------------------------------------- generating

def check(request: Request) -> None:
    """Refuse sizes out of range and grids too small for the level (`MIN_CELLS`)."""
    check_grid_request(request, "Nurikabe", range(2, MAX_GENERATED_SIDE + 1), MIN_CELLS)


def _clues(shaded: list[list[bool]], rng: random.Random, symmetric: bool
           ) -> list[tuple[tuple[int, int, int], ...]]:
    """One clue per island, (row, col, size), at a random cell of it; with `symmetric`
    the clues of an island and of its image in one group (placed and lifted together)."""
    rows, cols = len(shaded), len(shaded[0])
    groups = []
    done: set[tuple[int, int]] = set()
    for island in islands(shaded):
        if min(island) in done:
            continue
        r, c = rng.choice(sorted(island))
        clue = (r, c, len(island))
        if not symmetric:
            groups.append((clue,))
            continue
        image = {(rows - 1 - i, cols - 1 - j) for i, j in island}
        done.add(min(image))
        groups.append((clue, (rows - 1 - r, cols - 1 - c, len(island))))
    return groups


def _puzzle(rows: int, cols: int, groups: Sequence[tuple[tuple[int, int, int], ...]],
            meta: tuple = ()) -> Instance:
    grid = [[EMPTY] * cols for _ in range(rows)]
    for group in groups:
        for r, c, size in group:
            grid[r][c] = Cell.clue(size)
    return Instance(rows, cols, tuple(map(tuple, grid)), meta)


def _minimal(rows: int, cols: int, groups: list, solution: dict[str, list[str]],
             level: str, rng: random.Random) -> tuple[list, dict[str, list[str]]]:
    """The clue groups lifted, in a seeded order, while the level's solver still settles
    the puzzle (its answer becomes the puzzle's); the groups kept and the answer.

    Most lifts leave a puzzle without a solution; propagation without probing
    finds that first, cheaply (the level's solver, a superset of its rules, would
    reach the same contradiction).
    """
    order = list(groups)
    rng.shuffle(order)
    kept = list(groups)
    cheap = [name for name in LEVEL_TECHNIQUES[level] if name != "probing"]
    for group in order:
        rest = [g for g in kept if g is not group]
        puzzle = _puzzle(rows, cols, rest)
        if not build(puzzle, probe=False, techniques=cheap).prop.propagate():
            continue
        answer, _ = settle(puzzle, LEVEL_TECHNIQUES[level])
        if answer is not None:
            kept, solution = rest, answer
    return kept, solution


def _repaired(shaded: list[list[bool]], groups: list, level: str, rng: random.Random,
              symmetric: bool) -> tuple[list, dict[str, list[str]]] | None:
    """The clue groups, changed until the puzzle is unique and the level's solver
    settles it: (groups, solution), or None after `REPAIRS` rounds, when nothing can
    change, or once the level below settles it (more information would not make it
    harder again).

    Where the level's solver is stuck, a clue moves within its island onto a cell
    it left undecided (the intended answer keeps every island and its size), or a
    shaded one becomes an island of one. For a level with probing, while another
    solution exists (a SAT question, `models.another_solution`, cheaper than probing
    a puzzle that cannot settle), the place is one where the two solutions differ,
    which the change then tells apart. With `symmetric`, both images change.
    """
    rows, cols = len(shaded), len(shaded[0])
    below = LEVELS.index(level) - 1
    # Probing a puzzle that is not unique is dear; without it, the level's solver is
    # cheaper than the SAT question and says where it is stuck just as well.
    ask_sat = "probing" in LEVEL_TECHNIQUES[level]
    for _ in range(REPAIRS):
        instance = _puzzle(rows, cols, groups)
        intended = solution_from_shaded(shaded)
        other = another_solution(instance, intended) if ask_sat else None
        if other is not None:
            places = [(r, c) for r in range(rows) for c in range(cols)
                      if shaded[r][c] != other[r][c]]
        else:
            if below >= 0 and settle(instance, LEVEL_TECHNIQUES[LEVELS[below]])[0]:
                return None
            model = build(instance, techniques=LEVEL_TECHNIQUES[level])
            if not model.settle():
                return None
            if model.decided():
                return groups, intended
            places = [divmod(v, cols) for v in range(rows * cols)
                      if not model.store.is_fixed(v)]
        groups = _told_apart(shaded, groups, places, rng, symmetric)
        if groups is None:
            return None
    return None


def _told_apart(shaded: list[list[bool]], groups: list, places: list[tuple[int, int]],
                rng: random.Random, symmetric: bool) -> list | None:
    """The groups changed at a random place of `places` (its image too with
    `symmetric`): an unshaded cell gets its island's clue, a shaded one that can be
    an island of one becomes one (`shaded` updated); None when no place can."""
    rows, cols = len(shaded), len(shaded[0])
    clue_at = {(r, c): index for index, group in enumerate(groups) for r, c, _ in group}
    places = sorted(places)
    rng.shuffle(places)
    for r, c in places:
        cells = {(r, c), (rows - 1 - r, cols - 1 - c)} if symmetric else {(r, c)}
        if any(cell in clue_at for cell in cells):
            continue
        if not shaded[r][c]:
            return _moved(shaded, groups, clue_at, cells)
        if _can_drop(shaded, cells):
            for i, j in cells:
                shaded[i][j] = False
            return [*groups, tuple((i, j, 1) for i, j in sorted(cells))]
    return None


def _moved(shaded: list[list[bool]], groups: list, clue_at: dict, cells: set) -> list:
    """The groups with the clue of each cell's island moved onto the cell."""
    groups = [list(group) for group in groups]
    for island in islands(shaded):
        for r, c in cells & island:
            (old,) = [cell for cell in island if cell in clue_at]
            index = clue_at[old]
            slot = next(k for k, (i, j, _) in enumerate(groups[index]) if (i, j) == old)
            groups[index][slot] = (r, c, len(island))
    return [tuple(group) for group in groups]


def _can_drop(shaded: list[list[bool]], cells: set[tuple[int, int]]) -> bool:
    """Whether these shaded cells can each become an island of one cell: shaded, apart
    (no two adjacent), every neighbour shaded, and the sea connected without them."""
    rows, cols = len(shaded), len(shaded[0])
    for r, c in cells:
        if not shaded[r][c]:
            return False
        for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            i, j = r + dr, c + dc
            if 0 <= i < rows and 0 <= j < cols and (not shaded[i][j] or (i, j) in cells):
                return False
    rest = bytearray(shaded[i][j] and (i, j) not in cells
                     for i in range(rows) for j in range(cols))
    return len(Grid(rows, cols).components(rest)) <= 1


def attempt(request: Request, rng: random.Random) -> Generated | None:
    """One try: a random sea, a clue per island, islands of one added where the level's
    solver is stuck, clues lifted while the level still settles it; kept when it grades
    exactly to the level (module docstring)."""
    rows, cols, level = request.rows, request.cols, request.level
    shaded = random_sea(rows, cols, rng, request.symmetric)
    if shaded is None:
        return None
    repaired = _repaired(shaded, _clues(shaded, rng, request.symmetric), level, rng,
                         request.symmetric)
    if repaired is None:
        return None
    groups, solution = repaired
    groups, solution = _minimal(rows, cols, groups, solution, level, rng)
    graded = grade(_puzzle(rows, cols, groups))
    if graded.level != level:
        return None
    meta = (("expect-unique", "true"),
            ("expect-solution", json.dumps(solution, separators=(",", ":"))))
    return Generated(_puzzle(rows, cols, groups, meta), graded)

