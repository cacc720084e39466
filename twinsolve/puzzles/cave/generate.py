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
`SHARE` of the grid from a random start, its holes filled: 60% or a little
more of the grid; with `symmetric` a cave that is its own 180-degree image,
its clues placed and lifted in pairs), clue every inside cell, then take
clues away in a seeded order while the level's techniques still settle the
puzzle. The result is minimal for its level: lifting any remaining clue
leaves a puzzle the level's solver cannot finish. It is kept when it grades
exactly to the level.

Uniqueness questions go to a `ClueOracle` (`models.py`): one incremental SAT
solver per cave, each clue behind a selector literal, so a question costs a
millisecond or so on 10x10 where the hand solver's search with probing took
a quarter of a second, and its answer is a proof either way. For hard, it is
asked before probing (a lifted clue that leaves a second solution is the
usual reason a clue must stay); easy and medium never need it (settling
proves uniqueness).

Extreme: clues are lifted while the puzzle stays unique, largest clues first
up to 300 cells (`_lift_order`: minimal puzzles of small clues defeat
probing four times as often; beyond, they make the oracle slow), on a cave
grown to `EXTREME_SHARE` (45%) only, which makes such puzzles commoner
still. A clue-minimal puzzle the hard solver finishes is moved to a
neighbouring minimal one (`_swap`: one clue lifted, the shortest seeded run
of other clues placed that makes it unique, then all lifted again where they
can be) at most `EXTREME_STEPS` times before a new cave is grown. The puzzle
kept is unique (the oracle's proof and the grading search's), clue-minimal
for uniqueness, and the hard solver cannot finish it. Nothing depends on a
measured time or on which second solution a solver found: only yes/no
answers and node counts decide, so a seed gives the same puzzle everywhere.

The shipped set (`instances/cave/unique-*.txt`) predates the levels: each is
`unique_puzzle` (minimal for uniqueness, each question answered by the
`ClueOracle`). `python -m twinsolve.puzzles.cave.generate --out
instances/cave` writes it again, byte for byte.
"""

from __future__ import annotations

import argparse
import enum
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from ...core.clue_grid import branching_grade, check_grid_request, fill_holes, level_evidence
from ...core.generation import Generated, Grade, Option, Request, Shipped
from ...core.geometry import DELTAS
from ...files.writing import write_instances
from ...search.propagate import SolveResult, search
from .hand import TECHNIQUES, build, inside_first
from .models import ClueOracle
from .rules import EMPTY, Cell, Instance, clue_cells, count_visible, solution_from_inside, verify

__all__ = ["random_cave", "unique_puzzle", "SHIPPED", "main", "LEVELS", "LEVEL_TECHNIQUES",
           "DEFAULT_SIZE", "OPTIONS", "ATTEMPTS", "check", "attempt", "grade"]

# (rows, cols, seed) of the shipped puzzles.
SHIPPED = ((6, 6, 1), (8, 8, 2), (8, 8, 3), (10, 10, 4), (10, 10, 5), (12, 12, 6), (15, 15, 7))


def _neighbours(rows: int, cols: int, r: int, c: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr, dc in DELTAS
            if 0 <= r + dr < rows and 0 <= c + dc < cols]


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
    fill_holes(inside)
    return inside


def unique_puzzle(rows: int, cols: int, seed: int) -> Instance:
    """A minimal-clue puzzle whose only solution is a random cave (see the docstring)."""
    rng = random.Random(seed)
    inside = random_cave(rows, cols, rng)
    order = [((r, c),) for r in range(rows) for c in range(cols) if inside[r][c]]
    rng.shuffle(order)
    with _Clues(inside) as clues:
        clues.place(*order)
        _reduce(clues, order, None)
        meta = (("source", "twinsolve.puzzles.cave.generate.unique_puzzle"
                           f"({rows}, {cols}, seed={seed})"),
                ("expect-unique", "true"),
                ("expect-solution", json.dumps(solution_from_inside(inside),
                                               separators=(",", ":"))))
        return clues.puzzle(meta)


# ---------------------------------------------------------------- graded puzzles

LEVELS = ("easy", "medium", "hard", "extreme")
# What the hand solver may use at each level (`hand.TECHNIQUES`); extreme adds branching.
LEVEL_TECHNIQUES = {
    "easy": ("bounds", "reach"),
    "medium": ("bounds", "reach", "articulation", "holes"),
    "hard": TECHNIQUES,
}
DEFAULT_SIZE = (10, 10)
OPTIONS = (Option("symmetric", "clues in 180-degree-symmetric pairs", kind="flag"),)
MAX_GENERATED_SIDE = 40
SHARE = 0.6  # of the grid grown as the cave (published caves cover about 60%)
# Extreme puzzles are grown smaller: a thinner cave leaves more unique clue sets the
# hard solver cannot finish (10x10, 100 caves: 20% of their minimal puzzles at 0.4, 29%
# at 0.5, 13% at 0.6; a puzzle takes the least time at 0.45).
EXTREME_SHARE = 0.45
# The full search that proves an extreme puzzle unique stops here (nodes, not seconds,
# so the answer is the same on every machine); a puzzle it cannot settle is not graded.
EXTREME_NODES = 20_000
# A generated extreme puzzle needs at most this many (a few guesses, as in a puzzle made
# for people: the 10x10 ones need 2 to 12); beyond, the walk goes on. Grading a file
# still allows EXTREME_NODES, so the generated puzzle grades the same (same search).
GENERATED_NODES = 32
# The smallest grids (cells) where a level has been seen; smaller requests are refused.
MIN_CELLS = {"easy": 1, "medium": 9, "hard": 16, "extreme": 64}
ATTEMPTS = 60  # tries per puzzle (the driver's budget): extreme needs dozens on 10x10
# The graded sets in instances/cave/graded/ (`python -m twinsolve.generation.shipped`).
SHIPPED = (Shipped("easy", (10, 10), 2), Shipped("medium", (10, 10), 2),
           Shipped("hard", (10, 10), 2), Shipped("hard", (15, 15), 1),
           Shipped("extreme", (10, 10), 1))


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


def _two_solutions(instance: Instance, node_limit: int) -> SolveResult:
    """The hand search for up to two solutions, every technique on, at most `node_limit`
    nodes (its `unique`: True / False, or None when not settled in time)."""
    model = build(instance)
    return search(model.prop, choose=model.choose, order=inside_first, max_solutions=2,
                  node_limit=node_limit)


def grade(instance: Instance) -> Grade:
    """The level of `instance`: the first level whose techniques decide every cell
    without guessing; extreme when only branching does (see the module docstring)."""
    for level in LEVELS[:-1]:
        deduced, effort = _deduce(instance, LEVEL_TECHNIQUES[level])
        if deduced is _Deduced.NONE:
            return Grade(None, {"solutions": 0, "clues": len(clue_cells(instance))})
        if deduced is _Deduced.SOLVED:
            techniques = LEVEL_TECHNIQUES[level]
            return Grade(level, level_evidence(clue_cells(instance), techniques, effort))
    return _branching_grade(instance)


def check(request: Request) -> None:
    """Refuse sizes out of range and grids too small for the level (`MIN_CELLS`)."""
    check_grid_request(request, "Cave", range(1, MAX_GENERATED_SIDE + 1), MIN_CELLS)


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


# What `_acceptable` asks, cheapest first: most puzzles met while clues are removed are
# settled by medium's propagation, without probing.
_ASKED = {"easy": ("easy",), "medium": ("medium",), "hard": ("medium", "hard")}


def _acceptable(instance: Instance, level: str, unique: Callable[[], bool] | None = None
                ) -> bool:
    """Whether the clues settle the cave with the techniques of `level` (easy to hard)
    at most. Settling proves uniqueness (every deduction is sound); `unique`, when
    given, is asked before probing: a quick no spares the dearest technique.
    """
    for easier in _ASKED[level]:
        if easier == "hard" and unique is not None and not unique():
            return False
        if _deduce(instance, LEVEL_TECHNIQUES[easier])[0] is _Deduced.SOLVED:
            return True
    return False


class _Clues:
    """The clues of one try: a cave and which of its cells carry their clue.

    `unique()` asks the try's `ClueOracle` (one incremental SAT solver for the
    whole try, built at the first question): a proof either way, a millisecond
    or so a question on 10x10, where the hand solver's search took a quarter
    of a second.
    """

    def __init__(self, inside: list[list[bool]]) -> None:
        self.inside = inside
        self.rows, self.cols = len(inside), len(inside[0])
        self.placed: set[tuple[int, int]] = set()
        self._oracle: ClueOracle | None = None

    def place(self, *groups: tuple[tuple[int, int], ...]) -> None:
        for group in groups:
            self.placed.update(group)

    def lift(self, *groups: tuple[tuple[int, int], ...]) -> None:
        for group in groups:
            self.placed.difference_update(group)

    def unique(self) -> bool:
        """Whether the cave is the only solution of the clues placed."""
        if self._oracle is None:
            self._oracle = ClueOracle(self.inside)
        return self._oracle.other(self.placed) is None

    def puzzle(self, meta: tuple = ()) -> Instance:
        grid = [[Cell.clue(count_visible(self.inside, r, c)) if (r, c) in self.placed else EMPTY
                 for c in range(self.cols)] for r in range(self.rows)]
        return Instance(self.rows, self.cols, tuple(map(tuple, grid)), meta)

    def __enter__(self) -> _Clues:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._oracle is not None:
            self._oracle.close()


def _reduce(clues: _Clues, groups: list, level: str | None) -> list:
    """Lift each group in turn while the puzzle stays acceptable at `level` (None:
    while it stays unique); the groups kept.

    For hard, the oracle is asked before probing: far faster, and a lifted clue
    that leaves a second solution is the common reason a clue must stay.
    """
    kept = []
    for group in groups:
        clues.lift(group)
        if level is None:
            settled = clues.unique()
        else:
            settled = _acceptable(clues.puzzle(), level, clues.unique)
        if not settled:
            clues.place(group)
            kept.append(group)
    return kept


def _swap(clues: _Clues, kept: list, groups: list, rng: random.Random) -> list:
    """One step of the walk among clue-minimal unique puzzles of one cave: the groups kept.

    A random kept group is lifted; then the shortest prefix of the other groups, in a
    seeded order (the lifted one last), that makes the puzzle unique again is placed,
    and every group is lifted again in a seeded order while the puzzle stays unique.
    More clues never add a solution, so uniqueness grows along the prefix and the
    prefix is found by bisection. Only yes/no answers decide, never which second
    solution a solver happened to find: the walk is the same with any SAT solver.
    """
    lifted = kept[rng.randrange(len(kept))]
    clues.lift(lifted)
    rest = [group for group in kept if group != lifted]
    spare = [group for group in groups if group not in kept]
    rng.shuffle(spare)
    spare.append(lifted)
    low, high = 0, len(spare)  # spare[:high] makes it unique (every clue is placed)
    while low < high:
        middle = (low + high) // 2
        clues.place(*spare[:middle])
        if clues.unique():
            high = middle
        else:
            low = middle + 1
        clues.lift(*spare[:middle])
    added = spare[:high]
    clues.place(*added)
    return _reduce(clues, _lift_order(clues.inside, rest + added, rng), None)


def _lift_order(inside: list[list[bool]], groups: list, rng: random.Random) -> list:
    """The order clues are lifted in, for extreme: seeded, the largest clues first up to
    `LARGEST_FIRST_CELLS` cells (lifted first, so the small ones stay).

    Why: a clue-minimal puzzle of small clues defeats probing far more often
    (150 caves of 10x10 at EXTREME_SHARE: 27% against 6% in a random order;
    5 seeds of 15x15: median 2.3 s against 3.1 s a puzzle). On bigger grids
    the many small clues left make the oracle's questions slow (20x20: a first
    reduction of 80 s), and a plain seeded order is faster (20x20, 5 seeds:
    median 6.5 s against 15.6 s, one seed over 240 s).
    """
    order = list(groups)
    rng.shuffle(order)
    if len(inside) * len(inside[0]) <= LARGEST_FIRST_CELLS:
        order.sort(key=lambda group: -max(count_visible(inside, r, c) for r, c in group))
    return order


def _branching_grade(instance: Instance, node_limit: int = EXTREME_NODES) -> Grade:
    """The grade of a puzzle the hard techniques cannot finish: extreme when the full
    search (every technique, and branching) proves it unique within `node_limit` nodes."""
    found = _two_solutions(instance, node_limit)
    return branching_grade(clue_cells(instance), TECHNIQUES, found, node_limit)


def _extreme(clues: _Clues, groups: list, rng: random.Random) -> Grade | None:
    """A unique, clue-minimal puzzle the hard solver cannot finish, or None.

    Lifting clues while the puzzle stays unique gives a clue-minimal puzzle; about
    one in fifteen of those on 10x10 defeats probing. When this one does not, the
    walk (`_swap`) moves to a neighbouring minimal puzzle of the same cave, at most
    `EXTREME_STEPS` times: cheaper than a new cave (no new oracle, few questions).
    """
    kept = _reduce(clues, _lift_order(clues.inside, groups, rng), None)
    for _ in range(EXTREME_STEPS):
        puzzle = clues.puzzle()
        if _deduce(puzzle, TECHNIQUES)[0] is _Deduced.STUCK:
            graded = _branching_grade(puzzle, GENERATED_NODES)
            if graded.level == "extreme":
                return graded
        kept = _swap(clues, kept, groups, rng)
    return None


EXTREME_STEPS = 4  # walk steps per cave when looking for an extreme puzzle
LARGEST_FIRST_CELLS = 300  # grids up to this size lift the largest clues first (_lift_order)


def attempt(request: Request, rng: random.Random) -> Generated | None:
    """One try: a random cave, every clue, then clues removed in a seeded order.

    For easy, medium and hard, clues are taken away while the puzzle stays
    unique and the level's techniques still settle it: the result is minimal
    for that level, and kept when it grades exactly so (not easier). For
    extreme, clues are taken away while the puzzle stays unique, then the walk
    of `_extreme` looks for a minimal one the hard solver cannot finish.
    """
    rows, cols, level = request.rows, request.cols, request.level
    share = EXTREME_SHARE if level == "extreme" else SHARE
    inside = random_cave(rows, cols, rng, share, request.symmetric)
    groups = _clue_groups(inside, request.symmetric)
    with _Clues(inside) as clues:
        clues.place(*groups)
        if level == "extreme":
            if not clues.unique():
                return None
            graded = _extreme(clues, groups, rng)
        else:
            if not _acceptable(clues.puzzle(), level):
                return None
            rng.shuffle(groups)
            _reduce(clues, groups, level)
            graded = grade(clues.puzzle())
        if graded is None or graded.level != level:
            return None
        meta = (("expect-unique", "true"),
                ("expect-solution", json.dumps(solution_from_inside(inside),
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
