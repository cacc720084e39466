"""Hypothesis strategies for small instances of each puzzle, keyed by puzzle name.

One test matrix (tests/test_backends_agree.py) runs every registered back-end
on these and checks them against `brute`; a new puzzle adds its strategy here.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import assume
from hypothesis import strategies as st
from strategies_mirror import mirror_levels  # noqa: E402,F401 - one file per puzzle's strategy

from twinsolve.core.geometry import DELTAS
from twinsolve.puzzles.cave import rules as cave
from twinsolve.puzzles.chess import generate as chess_generate
from twinsolve.puzzles.chess import rules as chess
from twinsolve.puzzles.clock import rules as clock
from twinsolve.puzzles.jugs import rules as jugs
from twinsolve.puzzles.lightsout import rules as lightsout


def word_lines(words: list[str], max_words: int) -> st.SearchStrategy[str]:
    """Text of up to 6 lines of up to `max_words` words each, drawn from `words` (for fuzzing)."""
    return st.lists(st.lists(st.sampled_from(words), max_size=max_words), max_size=6).map(
        lambda lines: "\n".join(" ".join(line) for line in lines))


@st.composite
def lightsout_boards(draw, max_cells: int = 16):
    modulus = draw(st.sampled_from((2, 2, 2, 3, 5)))
    cap = {2: max_cells, 3: 9, 5: 6}[modulus]  # brute enumerates K^cells grids
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(1, max(1, min(5, cap // rows))))
    torus, sigma = draw(st.booleans()), draw(st.booleans())
    lights = tuple(
        tuple(draw(st.lists(st.integers(0, modulus - 1), min_size=cols, max_size=cols)))
        for _ in range(rows)
    )
    return lightsout.Instance(rows, cols, lights, torus, sigma, modulus)


# Largest board brute force enumerates quickly, per modulus (K^cells grids).
BRUTE_CELLS = {2: 16, 3: 6, 5: 4, 7: 3}


@st.composite
def lightsout_boards_mod(draw, moduli: tuple[int, ...], max_rows: int = 5):
    """Lights Out boards over one of `moduli`, torus and sigma either way, small enough for
    brute force (`BRUTE_CELLS`): the back-ends' agreement tests."""
    modulus = draw(st.sampled_from(moduli))
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max(1, min(5, BRUTE_CELLS[modulus] // rows))))
    lights = tuple(tuple(draw(st.integers(0, modulus - 1)) for _ in range(cols))
                   for _ in range(rows))
    return lightsout.Instance(rows, cols, lights, torus=draw(st.booleans()),
                              sigma=draw(st.booleans()), modulus=modulus)


@st.composite
def chess_boards(draw, min_side: int = 1, max_side: int = 4, max_pieces: int = 6,
                 max_sequences: int | None = 50):
    """Small Solitaire Chess boards: random placements, or solvable ones played backwards.

    Boards with more than `max_sequences` winning sequences are rejected (by the
    plain-rules count; None: no limit): cpsat and sat count by forbid-and-re-solve,
    one solver call per sequence.
    """
    rows, cols = draw(st.integers(min_side, max_side)), draw(st.integers(min_side, max_side))
    knights = draw(st.integers(0, 4)) == 0
    pieces = draw(st.integers(1, min(max_pieces, rows * cols)))
    instance = None
    if 2 * pieces <= rows * cols and draw(st.booleans()):
        try:
            instance = chess_generate.random_solvable(
                rows, cols, pieces, draw(st.integers(0, 9999)), knights, attempts=20)
        except RuntimeError:
            pass  # no backward game on this board: place the pieces at random instead
    if instance is None:
        kinds = (chess.Cell.KNIGHT,) if knights else chess.PIECES
        squares = draw(st.lists(st.integers(0, rows * cols - 1), min_size=pieces,
                                max_size=pieces, unique=True))
        cells = [chess.Cell.EMPTY] * (rows * cols)
        for square in squares:
            cells[square] = draw(st.sampled_from(kinds))
        board = tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows))
        instance = chess.Instance(rows, cols, board, knights)
    if max_sequences is not None:
        assume(chess_generate.plain_count(instance) <= max_sequences)
    return instance


def _random_cave(rng: random.Random, rows: int, cols: int) -> list[list[bool]]:
    """A random valid cave: one component of random cells, its holes filled."""
    bits = [[rng.random() < 0.6 for _ in range(cols)] for _ in range(rows)]
    start = (rng.randrange(rows), rng.randrange(cols))
    bits[start[0]][start[1]] = True
    region, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in DELTAS:
            cell = (r + dr, c + dc)
            if 0 <= cell[0] < rows and 0 <= cell[1] < cols and bits[cell[0]][cell[1]] \
                    and cell not in region:
                region.add(cell)
                todo.append(cell)
    outside = {(r, c) for r in range(rows) for c in range(cols)} - region
    reach = {(r, c) for r, c in outside if r in (0, rows - 1) or c in (0, cols - 1)}
    todo = list(reach)
    while todo:
        r, c = todo.pop()
        for dr, dc in DELTAS:
            cell = (r + dr, c + dc)
            if cell in outside and cell not in reach:
                reach.add(cell)
                todo.append(cell)
    return [[(r, c) not in reach for c in range(cols)] for r in range(rows)]


@st.composite
def cave_grids(draw, max_rows: int = 4, max_cols: int = 5):
    """Small Cave grids: mostly clues read off a random cave (solvable, sometimes with one
    number nudged), else random clues (often unsat). Brute enumerates 2^cells shadings."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rows, cols = rng.randint(1, max_rows), rng.randint(1, max_cols)
    most = rows + cols - 1
    grid = [[cave.EMPTY] * cols for _ in range(rows)]
    if rng.random() < 0.7:
        inside = _random_cave(rng, rows, cols)
        cells = [(r, c) for r in range(rows) for c in range(cols) if inside[r][c]]
        for r, c in rng.sample(cells, max(1, round(len(cells) * rng.uniform(0.4, 0.8)))):
            seen = cave.count_visible(inside, r, c)
            if rng.random() < 0.15:
                seen = min(most, max(1, seen + rng.choice((-1, 1))))
            grid[r][c] = cave.UNKNOWN if rng.random() < 0.15 else cave.Cell.clue(seen)
    else:
        for r in range(rows):
            for c in range(cols):
                if rng.random() < 0.5:
                    grid[r][c] = (cave.UNKNOWN if rng.random() < 0.2
                                  else cave.Cell.clue(rng.randint(1, most)))
    return cave.Instance(rows, cols, tuple(tuple(row) for row in grid))


@st.composite
def clock_dials(draw, max_hours: int = 10):
    """Dials of up to `max_hours` positions, 1-3 raw steps (negative, large, 0, repeats).

    Drawn from a seeded generator (hypothesis alone mostly draws trivial
    dials); the target is mostly the end of a random walk of steps.
    """
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    hours = rng.randint(1, max_hours)
    steps = [rng.randint(-2 * max_hours, 2 * max_hours) for _ in range(rng.randint(1, 3))]
    start = rng.randrange(hours)
    if rng.random() < 0.25:
        target = rng.randrange(hours)
    else:
        target = (start + sum(rng.choices(steps, k=rng.randint(1, 8)))) % hours
    return clock.Instance(hours, start, target, tuple(steps))


def _farthest(capacities, start, moves) -> list[tuple[int, ...]]:
    """The states farthest from the start (the last layer of a plain BFS)."""
    seen, layer = {start}, [start]
    while True:
        following = []
        for levels in layer:
            for move in moves:
                after = jugs.apply_move(capacities, levels, move)
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        if not following:
            return layer
        layer = following


_MOVE_KINDS = [kinds for size in (3, 3, 3, 1, 2) for kinds in
               itertools.combinations(tuple(jugs.MoveKind), size)]


@st.composite
def jug_puzzles(draw, max_capacity: int = 9, max_jugs: int = 3):
    """2..max_jugs jugs, any start and move subset; goals mostly reachable.

    Drawn from a seeded generator (hypothesis alone mostly draws trivial
    puzzles). A goal is read off a farthest state or the end of a random walk
    of moves, so it is reachable; one in four is drawn at random instead
    (often unreachable, now and then above a capacity).
    """
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    capacities = tuple(rng.randint(1, max_capacity) for _ in range(rng.randint(2, max_jugs)))
    kinds, kind = rng.choice(_MOVE_KINDS), rng.choice(list(jugs.GoalKind))
    start = (0,) * len(capacities)
    if rng.random() < 0.3 or jugs.MoveKind.FILL not in kinds:  # without fill: some water
        start = tuple(rng.randint(0, cap) for cap in capacities)
    if rng.random() < 0.25:
        if kind is jugs.GoalKind.EXACT:
            amounts = tuple(rng.randint(0, cap + 1) for cap in capacities)
        else:
            most = max(capacities) if kind is jugs.GoalKind.HOLDS else sum(capacities)
            amounts = (rng.randint(0, most + 1),)
        return jugs.Instance(capacities, start, kinds, jugs.Goal(kind, amounts))
    moves = jugs.moves_of(jugs.Instance(capacities, start, kinds, jugs.Goal(kind, (0,))))
    if rng.random() < 0.5:
        levels = rng.choice(_farthest(capacities, start, moves))
    else:
        levels = start
        for move in rng.choices(moves, k=rng.randint(2, 16)):
            levels = jugs.apply_move(capacities, levels, move)
    if kind is jugs.GoalKind.EXACT:
        amounts = levels
    elif kind is jugs.GoalKind.HOLDS:  # preferably a level the start does not show
        amounts = (rng.choice([v for v in levels if v not in start] or levels),)
    else:
        amounts = (sum(levels),)
    return jugs.Instance(capacities, start, kinds, jugs.Goal(kind, amounts))


SMALL_INSTANCES = {
    "cave": cave_grids(),
    "lightsout": lightsout_boards(),
    "chess": chess_boards(),
    "clock": clock_dials(),
    "jugs": jug_puzzles(max_capacity=5),  # cpsat / sat grow horizons: keep plans short
    "mirror": mirror_levels(),
}
