"""Solitaire Chess boards: solvable by construction, and graded unique puzzles.

The idea: play the game backwards. Start from one piece on a random square
and "uncapture" again and again: pick a piece X on square b and an empty
square a from which X would capture b (on the board as it is, so a slider's
path is clear), move X back to a and put a new captured piece on b. Played
forwards, these captures win, so every board made this way is solvable.
Captured pieces are never kings (a king cannot be captured), so a king can
only be the last piece; the `knights` variant uses knights only.

Plain random backward play makes dense boards on big boards (billions of
winning lines); `fewest_of=k` makes puzzle-like ones instead: each backward
step draws k candidate uncaptures and keeps the one that leaves the fewest
legal captures on the board.

`python -m twinsolve.puzzles.chess.generate --out instances/chess` writes the
shipped set. Every `# expect-solutions:` it writes is the `hand` count,
confirmed by `plain_count`, an independent memoised count over the plain
rules, and also by `brute` (up to 7 pieces) or `cpsat` enumeration (up to
100 sequences); the `# counted-by:` line says which. The same seed always
writes the same files, byte for byte.

Graded puzzles (`twinsolve generate chess`: `LEVELS`, `check`, `attempt`,
`grade`). A unique board is solved by `hand.prove_unique`, the solver a
person would be: it plays the winning line forwards and at every position
tries each capture; a capture after which no win is left is a dead end, to
be seen through and rejected. Two budgets restrict the solver of a level:
the most pieces it takes on (ThinkFun's levels grow with the piece count)
and the most dead ends it rejects. The levels (`LEVEL_BUDGETS`):

    level          pieces at most   dead ends at most   preset pieces
    beginner             5                  5                 4
    intermediate         5                 11                 5
    advanced             7                 20                 6
    expert             any                any                 8

A board is of level d when d's solver proves it unique and d-1's does not:
its pieces or its dead ends exceed d-1's budget (`level_of`). A board with
two or more winning lines, or none, has no level. The bounds are the
ThinkFun challenges': on the 11 corpus challenges with one winning line
(`../shared/corpus/chess`), beginner 1-13 have 3-5 pieces and 1-5 dead
ends, intermediate 19-28 five pieces and 6-11, advanced 31-43 six pieces
and 13-20, expert 58 eight pieces and 30 (expert 46, six pieces and 10
dead ends, grades advanced). The same bounds apply on every board size;
`--pieces N` sets the piece count (the preset is ThinkFun's typical count),
and `check` refuses counts outside the level's band (`piece_band`).

`attempt` walks backwards through unique boards only (`_Walk`): a board's
line passes through the board one capture on, so every board on it is
unique too, and each uncapture adds exactly its other captures as dead
ends. The finished board is proved again from scratch by `grade`.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ...core.errors import UsageError, quoted
from ...core.generation import (
    ATTEMPTS as DRIVER_ATTEMPTS,
)
from ...core.generation import (
    Generated,
    Grade,
    Option,
    Request,
    Shipped,
)
from ...core.limits import LimitReached, Limits
from ...core.result import Status
from ...core.run import run
from ...files.writing import write_instances
from .board import Position
from .hand import Proof, Searcher, prove_unique
from .rules import (
    BRUTE_MAX_PIECES,
    MAX_SIDE,
    PIECES,
    Cell,
    Instance,
    between,
    format,
    legal_moves,
    reaches,
)

__all__ = ["random_solvable", "unique_puzzle", "plain_count", "confirmed_count", "shipped_set",
           "write_set", "main", "LEVELS", "DEFAULT_SIZE", "OPTIONS", "VARIANTS", "Level",
           "LEVEL_BUDGETS", "DEAD_END_MAXIMA_4X4", "level_of", "prove_at", "grade",
           "most_dead_ends", "piece_band", "dead_end_maxima", "check", "attempt"]

# Relative frequency of each captured piece on mixed boards.
MIXED_WEIGHTS = {Cell.QUEEN: 1, Cell.ROOK: 2, Cell.BISHOP: 2, Cell.KNIGHT: 2, Cell.PAWN: 3}

Square = tuple[int, int]

def _uncaptures(board: list[list[Cell]]) -> list[tuple[Square, Square]]:
    """Every (a, b): the piece on b could have come from the empty square a by a capture."""
    rows, cols = len(board), len(board[0])
    empty = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] is Cell.EMPTY]
    options = []
    for r in range(rows):
        for c in range(cols):
            kind = board[r][c]
            if kind is Cell.EMPTY:
                continue
            for a in empty:
                if reaches(kind, a, (r, c)) and all(board[sr][sc] is Cell.EMPTY
                                                    for sr, sc in between(a, (r, c))):
                    options.append((a, (r, c)))
    return options


def _draw_kind(rng: random.Random, weights: dict[Cell, int]) -> Cell:
    kinds = list(weights)
    return rng.choices(kinds, weights=[weights[k] for k in kinds])[0]


def _attempt(rows: int, cols: int, pieces: int, rng: random.Random,
             weights: dict[Cell, int], last: dict[Cell, int],
             fewest_of: int) -> list[list[Cell]] | None:
    board = [[Cell.EMPTY] * cols for _ in range(rows)]
    board[rng.randrange(rows)][rng.randrange(cols)] = _draw_kind(rng, last)
    for _ in range(pieces - 1):
        options = _uncaptures(board)
        if not options:
            return None
        candidates = []
        for (ar, ac), (br, bc) in rng.sample(options, min(fewest_of, len(options))):
            after = [list(row) for row in board]
            after[ar][ac] = after[br][bc]
            after[br][bc] = _draw_kind(rng, weights)
            candidates.append(after)
        # Why the fewest captures: a board where each position offers few
        # captures reads like a published puzzle (few winning lines, small search).
        board = min(candidates, key=lambda b: len(legal_moves(b))) if fewest_of > 1 \
            else candidates[0]
    return board


def random_solvable(rows: int, cols: int, pieces: int, seed: int, knights: bool = False,
                    weights: dict[Cell, int] | None = None, attempts: int = 1000,
                    fewest_of: int = 1) -> Instance:
    """A rows x cols board with `pieces` pieces and at least one win.

    With `fewest_of` k > 1 each backward step draws k random uncaptures and
    keeps the one leaving the fewest legal captures on the board: puzzle-like
    boards with few winning lines. With k = 1 every step is plain random,
    which on big boards gives dense positions with billions of winning lines.
    Raises `RuntimeError` when `attempts` backward games all got stuck (a
    board too small or too crowded for that many pieces).

    >>> board = random_solvable(4, 4, 5, seed=1)
    >>> board.pieces
    5
    """
    if not 1 <= pieces <= rows * cols:
        raise ValueError(f"{pieces} pieces do not fit on a {rows}x{cols} board")
    rng = random.Random(seed)
    weights = {Cell.KNIGHT: 1} if knights else (weights or MIXED_WEIGHTS)
    last = weights if knights else {**weights, Cell.KING: 1}
    for _ in range(attempts):
        board = _attempt(rows, cols, pieces, rng, weights, last, fewest_of)
        if board is not None:
            return Instance(rows, cols, tuple(map(tuple, board)), knights)
    raise RuntimeError(f"no {rows}x{cols} board with {pieces} pieces after {attempts} attempts")


def unique_puzzle(rows: int, cols: int, pieces: int, seed: int, knights: bool = False,
                  fewest_of: int = 30, tries: int = 500) -> Instance:
    """A puzzle-like board with exactly one winning sequence (sampling and filtering).

    Tries the boards `random_solvable(..., seed * tries + i, fewest_of=...)`
    for i = 0, 1, ... and keeps the first that `hand` proves unique.

    >>> unique_puzzle(4, 4, 5, seed=0).pieces
    5
    """
    for attempt in range(tries):
        board = random_solvable(rows, cols, pieces, seed * tries + attempt, knights,
                                fewest_of=fewest_of)
        result = run(board, "hand", Limits(unique=True, timeout=60))
        if result.unique:
            return board
    raise RuntimeError(f"no unique {rows}x{cols} puzzle with {pieces} pieces in {tries} tries")


def plain_count(instance: Instance) -> int:
    """Winning sequences by a memoised count over the plain rules (`legal_moves`).

    Independent of the `hand` bitboards and of its pruning and symmetry: the
    check behind `# expect-solutions:` when a board has too many pieces for
    `brute` and too many sequences for `cpsat` to enumerate.
    """
    memo: dict[tuple[tuple[Cell, ...], ...], int] = {}

    def count(board: list[list[Cell]], left: int) -> int:
        if left == 1:
            return 1
        key = tuple(map(tuple, board))
        if key not in memo:
            total = 0
            for (ar, ac), (br, bc) in legal_moves(board):
                captured = board[br][bc]
                board[br][bc], board[ar][ac] = board[ar][ac], Cell.EMPTY
                total += count(board, left - 1)
                board[ar][ac], board[br][bc] = board[br][bc], captured
            memo[key] = total
        return memo[key]

    return count([list(row) for row in instance.board], instance.pieces)


def confirmed_count(board: Instance, timeout: float = 600) -> tuple[int, str]:
    """The `hand` count of winning sequences, and which independent counts agreed."""
    limits = Limits(timeout=timeout, count=True)
    hand = run(board, "hand", limits)
    if hand.status is not Status.SOLVED or hand.count is None:
        raise RuntimeError(f"hand did not count:\n{format(board)}\n{hand}")
    checks: dict[str, int | str | None] = {"plain memoised count": plain_count(board)}
    if board.pieces <= BRUTE_MAX_PIECES or hand.count <= 100:
        name = "brute" if board.pieces <= BRUTE_MAX_PIECES else "cpsat"
        other = run(board, name, limits)
        checks[name] = other.count if other.count is not None else \
            f"{other.status}: {other.message}"
    wrong = {name: count for name, count in checks.items() if count != hand.count}
    if wrong:
        raise RuntimeError(f"hand counts {hand.count}, but {wrong}:\n{format(board)}")
    return hand.count, "hand, confirmed by " + " and ".join(checks)


@dataclass(frozen=True)
class _Spec:
    rows: int
    cols: int
    pieces: int
    knights: bool = False
    fewest_of: int = 1    # 1: dense (plain random backward play); more: puzzle-like
    unique: bool = False  # keep sampling until the board has exactly one winning line
    slow: bool = False    # `# suite: full`

    def make(self, seed: int) -> Instance:
        if self.unique:
            return unique_puzzle(self.rows, self.cols, self.pieces, seed, self.knights,
                                 self.fewest_of)
        return random_solvable(self.rows, self.cols, self.pieces, seed, self.knights,
                               fewest_of=self.fewest_of)

    def note(self, seed: int) -> str:
        style = "dense" if self.fewest_of == 1 else f"puzzle-like, fewest_of={self.fewest_of}"
        return (f"twinsolve.puzzles.chess.generate, seed {seed}, played backwards ({style}"
                f"{', sampled until unique' if self.unique else ''})")


_SHIPPED = {
    "knights-5x5-08.txt": _Spec(5, 5, 8, knights=True),
    "knights-5x5-12.txt": _Spec(5, 5, 12, knights=True),
    "knights-5x5-14.txt": _Spec(5, 5, 14, knights=True),
    "knights-8x8-16.txt": _Spec(8, 8, 16, knights=True),
    "mixed-4x4-07.txt": _Spec(4, 4, 7),
    "mixed-6x6-07.txt": _Spec(6, 6, 7, fewest_of=8),
    "mixed-6x6-10.txt": _Spec(6, 6, 10, fewest_of=8),
    "mixed-6x6-12-dense.txt": _Spec(6, 6, 12, slow=True),
    "mixed-8x8-10.txt": _Spec(8, 8, 10, fewest_of=30),
    "mixed-8x8-16a.txt": _Spec(8, 8, 16, fewest_of=30),
    "mixed-8x8-16b.txt": _Spec(8, 8, 16, fewest_of=30),
    "mixed-8x8-16c.txt": _Spec(8, 8, 16, fewest_of=30),
    "mixed-8x8-20.txt": _Spec(8, 8, 20, fewest_of=100, slow=True),
    "unique-6x6-09.txt": _Spec(6, 6, 9, fewest_of=30, unique=True),
    "unique-8x8-12.txt": _Spec(8, 8, 12, fewest_of=30, unique=True),
}


def shipped_set(seed: int = 2026) -> dict[str, tuple[Instance, _Spec, int]]:
    """File name -> (board, how it was made, its seed) for `instances/chess/`."""
    out = {}
    for offset, (name, spec) in enumerate(_SHIPPED.items(), start=1):
        board_seed = seed * 100 + offset
        out[name] = (spec.make(board_seed), spec, board_seed)
    return out


def write_set(out: Path, seed: int = 2026) -> list[Path]:
    """Write the shipped set with `source`, `counted-by`, `expect-*` and `suite: full`."""
    return write_instances(out, _with_metadata(seed))


def _with_metadata(seed: int) -> Iterator[tuple[str, Instance]]:
    for name, (board, spec, board_seed) in sorted(shipped_set(seed).items()):
        count, how = confirmed_count(board)
        meta = [("source", spec.note(board_seed)), ("counted-by", how),
                ("expect-solutions", str(count)), ("expect-unique", str(count == 1).lower())]
        if spec.slow:
            meta.append(("suite", "full"))
        yield name, replace(board, meta=tuple(meta))


# ---------------------------------------------------------------- graded puzzles

Board = list[list[Cell]]
Frozen = tuple[tuple[Cell, ...], ...]
Capture = tuple[Square, Square]  # (origin, target)


@dataclass(frozen=True)
class Level:
    """A difficulty level: the budgets of its solver (`hand.prove_unique`), and the
    piece count `attempt` uses when the request names none."""

    name: str
    max_pieces: int | None      # the most pieces its solver takes on (None: any)
    max_dead_ends: int | None   # the most dead-end captures its solver rejects (None: any)
    preset: int                 # pieces by default (ThinkFun's counts on 4x4)


LEVEL_BUDGETS = (
    Level("beginner", 5, 5, 4),
    Level("intermediate", 5, 11, 5),
    Level("advanced", 7, 20, 6),
    Level("expert", None, None, 8),
)
LEVELS = tuple(level.name for level in LEVEL_BUDGETS)
DEFAULT_SIZE = (4, 4)
OPTIONS = (Option("pieces", "pieces on the board"),
           Option("variant", "mixed pieces, or knights only", kind="word",
                  choices=("mixed", "knights"), metavar="NAME"))
ATTEMPTS = DRIVER_ATTEMPTS
# The graded sets in instances/chess/graded/ (`python -m twinsolve.generation.shipped`).
SHIPPED = (Shipped("beginner", (4, 4), 2), Shipped("intermediate", (4, 4), 2),
           Shipped("advanced", (4, 4), 2), Shipped("expert", (4, 4), 2),
           Shipped("expert", (4, 4), 1, options=(("pieces", 10),)),
           Shipped("expert", (6, 6), 1))
VARIANTS = ("mixed", "knights")
# The proof `grade` runs stops after this many memo expansions (a count, never a time);
# a board it cannot settle by then is not graded.
GRADE_NODES = 1_000_000
# One try of `attempt`: at most CHECKS uniqueness checks and WALK_NODES memo expansions,
# CHECK_NODES for one check (a board that needs more is passed over), and WIDTH unique
# boards tried per position before the walk backs up.
CHECKS = 2000
WALK_NODES = 100_000
CHECK_NODES = 20_000
WIDTH = 2


def level_of(pieces: int, dead_ends: int) -> str:
    """The first level whose solver's budgets cover a unique board (module docstring).

    >>> level_of(4, 2), level_of(5, 9), level_of(6, 3), level_of(5, 21), level_of(10, 0)
    ('beginner', 'intermediate', 'advanced', 'expert', 'expert')
    """
    for level in LEVEL_BUDGETS:
        if _within(level.max_pieces, pieces) and _within(level.max_dead_ends, dead_ends):
            return level.name
    raise AssertionError("the last level takes every board")


def _within(budget: int | None, amount: int) -> bool:
    return budget is None or amount <= budget


def prove_at(instance: Instance, level: str) -> Proof:
    """The proof of the solver restricted to `level`'s budgets (`hand.prove_unique`)."""
    chosen = LEVEL_BUDGETS[LEVELS.index(level)]
    return prove_unique(instance, chosen.max_pieces, chosen.max_dead_ends, GRADE_NODES)


def _graded(instance: Instance) -> tuple[Proof, Grade]:
    """The unrestricted proof and the grade it gives.

    One proof serves every level: the walk meets the same captures in the same
    order whatever its budgets, so the solver of level d proves the board
    exactly when its pieces and dead ends are within d's budgets.
    """
    proof = prove_unique(instance, node_limit=GRADE_NODES)
    evidence: dict[str, Any] = {"pieces": instance.pieces, "nodes": proof.nodes}
    if proof.stopped is not None:
        evidence["undecided"] = f"not settled in {GRADE_NODES} memo expansions"
        return proof, Grade(None, evidence)
    evidence["winning_lines"] = "2+" if proof.winning_lines > 1 else proof.winning_lines
    if not proof.proved:
        return proof, Grade(None, evidence)
    evidence["dead_ends"] = proof.dead_ends
    return proof, Grade(level_of(instance.pieces, proof.dead_ends), evidence)


def grade(instance: Instance) -> Grade:
    """The level of any board, with its pieces, dead ends, nodes and winning lines;
    level None with two or more winning lines, none, or a board too big to settle."""
    return _graded(instance)[1]


# The most dead ends a unique board of 3, 4 and 5 pieces has on a board within 4x4,
# by enumerating every unique board (`dead_end_maxima(4, 4, 5)`, about 8 minutes). A
# board within 4x4 is a part of the 4x4 board with the same captures (a rectangle holds
# every path between its squares), so the maxima hold there too.
DEAD_END_MAXIMA_4X4 = {2: 0, 3: 2, 4: 7, 5: 15}


def most_dead_ends(pieces: int, rows: int, cols: int) -> int:
    """An upper bound on the dead ends of a unique board of `pieces` pieces.

    Within 4x4, the enumerated maxima (`DEAD_END_MAXIMA_4X4`) up to 5 pieces.
    Elsewhere the general bound: at most k(k-1) captures from a k-piece
    position (each piece onto each other), all but one of them dead ends, and
    with two pieces left exactly one capture (a second would also win).

    >>> [most_dead_ends(p, 8, 8) for p in (2, 3, 4, 5)], most_dead_ends(5, 4, 4)
    ([0, 5, 16, 35], 15)
    """
    if rows <= 4 and cols <= 4 and pieces in DEAD_END_MAXIMA_4X4:
        return DEAD_END_MAXIMA_4X4[pieces]
    return sum(k * (k - 1) - 1 for k in range(3, pieces + 1))


def piece_band(level: str, rows: int, cols: int) -> tuple[int, int | None]:
    """The piece counts a board of exactly `level` can have (None: no upper bound).

    The top is the level's own piece budget; the bottom the fewest pieces
    whose board is beyond the level below, by its pieces or by its dead ends
    (`most_dead_ends`).

    >>> [piece_band(level, 4, 4) for level in LEVELS]
    [(2, 5), (4, 5), (5, 7), (6, None)]
    >>> [piece_band(level, 8, 8) for level in LEVELS]
    [(2, 5), (4, 5), (4, 7), (5, None)]
    """
    index = LEVELS.index(level)
    top = LEVEL_BUDGETS[index].max_pieces
    if index == 0:
        return 2, top
    below = LEVEL_BUDGETS[index - 1]
    pieces = 2
    while _within(below.max_pieces, pieces) and \
            _within(below.max_dead_ends, most_dead_ends(pieces, rows, cols)):
        pieces += 1
    return pieces, top


def dead_end_maxima(rows: int, cols: int, pieces: int) -> dict[int, int]:
    """The most dead ends of a unique rows x cols board, for 2 to `pieces` pieces, by
    enumerating every unique board: each one uncaptures from one of a piece fewer
    (`_Walk`), so the unique boards of k + 1 pieces are the unique uncaptures of
    those of k. Exponential: 3x3 with 4 pieces takes seconds, 4x4 with 5 about
    8 minutes and 1.5 GB.

    >>> dead_end_maxima(2, 3, 3)
    {2: 0, 3: 2}
    """
    searcher = Searcher.over_board(rows, cols, cap=2)
    layer = {}
    for r in range(rows):
        for c in range(cols):
            for kind in PIECES:
                board = [[Cell.EMPTY] * cols for _ in range(rows)]
                board[r][c] = kind
                layer[_frozen(board)] = 0
    maxima = {}
    for count in range(2, pieces + 1):
        grown: dict[Frozen, int] = {}
        for frozen, dead in layer.items():
            for after, _ in _uncaptured(frozen, MIXED_WEIGHTS):
                key = _frozen(after)
                position = _slots(after)
                if key not in grown and searcher.settle(position) == 1:
                    grown[key] = dead + _captures(searcher, position) - 1
        layer = grown
        maxima[count] = max(layer.values(), default=0)
    return maxima


def _size(request: Request) -> tuple[int, int]:
    rows, cols = DEFAULT_SIZE if request.rows is None else (request.rows, request.cols)
    for side, what in ((rows, "rows"), (cols, "columns")):
        if side is None or not 1 <= side <= MAX_SIDE:
            raise UsageError(f"a Solitaire Chess board has 1..{MAX_SIDE} {what}, got {side}")
    return rows, cols


def _variant(request: Request) -> str:
    variant = request.option("variant", "mixed")
    if variant not in VARIANTS:
        raise UsageError(f"unknown Solitaire Chess variant {quoted(variant)} "
                         f"(variants: {', '.join(VARIANTS)})")
    return variant


def _pieces(request: Request) -> int:
    """The requested piece count, or the level's preset."""
    value = request.option("pieces")
    if value is None:
        return LEVEL_BUDGETS[LEVELS.index(request.level)].preset
    if isinstance(value, str) and value.isdecimal():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise UsageError(f"--pieces must be a whole number, got {quoted(value)}")
    return value


def check(request: Request) -> None:
    """Refuse what no board can be: a bad size, variant or piece count, a piece count
    outside the level's band (`piece_band`), the knights variant (never unique)."""
    if request.level not in LEVELS:
        raise UsageError(f"unknown Solitaire Chess level {quoted(request.level)} "
                         f"(levels: {', '.join(LEVELS)})")
    if request.symmetric:
        raise UsageError("Solitaire Chess has no clues to place symmetrically")
    rows, cols = _size(request)
    variant, pieces = _variant(request), _pieces(request)
    low, top = piece_band(request.level, rows, cols)
    high = rows * cols if top is None else min(top, rows * cols)  # a piece per square at most
    article = "an" if request.level[0] in "aeiou" else "a"
    if low > high:
        raise UsageError(f"a {rows}x{cols} board has no {request.level} Solitaire Chess "
                         f"puzzle: it needs at least {low} pieces")
    if not low <= pieces <= high:
        raise UsageError(f"{article} {request.level} Solitaire Chess puzzle has {low} to {high} "
                         f"pieces on a {rows}x{cols} board, not {quoted(pieces)}")
    if variant == "knights":
        # Two knights that attack each other can each take the other: two winning lines.
        raise UsageError("a knights-only board never has exactly one winning line "
                         "(the last two knights can take each other either way)")


def attempt(request: Request, rng: random.Random) -> Generated | None:
    """One backward walk (`_Walk`) to a unique board of exactly `request.level`, or None.

    The walk keeps every board it builds unique and counts the dead ends it
    adds; `grade` (a fresh proof on the finished board) confirms the level.
    """
    check(request)
    rows, cols = _size(request)
    level = LEVEL_BUDGETS[LEVELS.index(request.level)]
    board = _Walk(rows, cols, _pieces(request), level, rng).run()
    if board is None:
        return None
    instance = Instance(rows, cols, _frozen(board))
    proof, graded = _graded(instance)
    if graded.level != level.name:
        return None
    solution = json.dumps({"moves": list(proof.moves)}, separators=(",", ":"))
    meta = (("expect-unique", "true"), ("expect-solution", solution))
    return Generated(replace(instance, meta=meta), graded)


class _Spent(Exception):
    """A walk used up its CHECKS or WALK_NODES."""


class _Walk:
    """A depth-first backward walk that keeps every board unique.

    The idea. A board's winning line passes through the board one capture
    later, so a board is unique only if every board on its line is: the walk
    never needs to leave the unique boards. From a unique board P it tries
    uncaptures to P' (X moves back from b to an empty square a, a new piece Y
    appears on b) and keeps those where X takes Y and every other capture of
    P' is a dead end; then P' has one winning line, and exactly its other
    captures more dead ends than P. One memo (`Searcher.over_board`, every
    square a slot) settles the boards of the whole try, so each check mostly
    searches only what is new.

    Which uncaptures. P's first capture Z: fa -> fb must not commute with X
    taking Y (else both orders win): it moves or takes X (b is fa or fb) or
    passes through a. Any other uncapture is dropped unsearched. The rest go
    in order of how close the dead ends they add come to the pace (the
    dead ends still wanted per piece still to place, toward an aim drawn in
    the level's own dead-end band), ties by a weighted random order of the
    new piece (`MIXED_WEIGHTS`). The first WIDTH unique ones are walked
    into; a board of the right piece count is kept when `level_of` its
    pieces and dead ends is the level asked for.
    """

    def __init__(self, rows: int, cols: int, pieces: int, level: Level,
                 rng: random.Random) -> None:
        self.rows, self.cols, self.pieces, self.level, self.rng = rows, cols, pieces, level, rng
        self.searcher = Searcher.over_board(rows, cols, cap=2)
        self.checks = 0
        index = LEVELS.index(level.name)
        floor = LEVEL_BUDGETS[index - 1].max_dead_ends + 1 if index else 1
        ceiling = level.max_dead_ends if level.max_dead_ends is not None else 4 * (pieces - 1)
        self.aim = rng.randint(floor, max(floor, ceiling))

    def run(self) -> Board | None:
        board = [[Cell.EMPTY] * self.cols for _ in range(self.rows)]
        board[self.rng.randrange(self.rows)][self.rng.randrange(self.cols)] = \
            _draw_kind(self.rng, {**MIXED_WEIGHTS, Cell.KING: 1})
        try:
            return self._grow(board, 1, None, 0)
        except _Spent:
            return None

    def _grow(self, board: Board, placed: int, first: Capture | None,
              dead: int) -> Board | None:
        """A unique board grown from `board` (unique, `dead` dead ends, first capture
        `first`) to the requested piece count and level, or None."""
        if placed == self.pieces:
            return board if level_of(placed, dead) == self.level.name else None
        want = (self.aim - dead) / (self.pieces - placed)
        tried = 0
        for _, _, added, after, capture in self._candidates(board, first, dead, want):
            if not self._unique(after):
                continue
            grown = self._grow(after, placed + 1, capture, dead + added)
            if grown is not None:
                return grown
            tried += 1
            if tried == WIDTH:
                break
        return None

    def _unique(self, board: Board) -> bool:
        """Whether `board` has exactly one winning line; False also when settling it
        takes more than CHECK_NODES expansions."""
        self.checks += 1
        searcher = self.searcher
        if self.checks > CHECKS or searcher.nodes >= WALK_NODES:
            raise _Spent
        searcher.node_limit = min(searcher.nodes + CHECK_NODES, WALK_NODES)
        try:
            return searcher.settle(_slots(board)) == 1
        except LimitReached:
            return False  # the memo keeps only finished counts: still sound

    def _candidates(self, board: Board, first: Capture | None,
                    dead: int, want: float) -> list[tuple[Any, ...]]:
        """(distance from the pace, random rank, dead ends added, board, its capture) of
        every uncapture that may keep `board` unique, best first."""
        scored = []
        for after, capture in _uncaptured(board, MIXED_WEIGHTS, first):
            added = _captures(self.searcher, _slots(after)) - 1
            if not _within(self.level.max_dead_ends, dead + added):
                continue
            a, b = capture
            rank = -self.rng.random() ** (1 / MIXED_WEIGHTS[after[b[0]][b[1]]])
            scored.append((abs(added - want), rank, added, after, capture))
        scored.sort(key=lambda entry: entry[:2])
        return scored


def _uncaptured(board: Board | Frozen, kinds: dict[Cell, int],
                first: Capture | None = None) -> Iterator[tuple[Board, Capture]]:
    """Every board one uncapture before `board`, with its capture (a, b): the piece on
    b moved back to a, a piece of each of `kinds` put on b.

    With `first`, the first capture of `board`'s winning line, only those that
    do not commute with it: a capture that moves or takes the piece on b or
    passes through a (`_Walk`); any other gives two winning lines.
    """
    for a, b in _uncaptures([list(row) for row in board]):
        if first is not None and b not in first and a not in between(*first):
            continue
        for kind in kinds:
            after = [list(row) for row in board]
            after[a[0]][a[1]], after[b[0]][b[1]] = after[b[0]][b[1]], kind
            yield after, (a, b)


def _frozen(board: Board) -> Frozen:
    return tuple(map(tuple, board))


def _slots(board: Board) -> Position:
    """The board as slot bitboards of `Searcher.over_board` (slot r * cols + c)."""
    cols, boards = len(board[0]), [0] * 6
    for r, row in enumerate(board):
        for c, cell in enumerate(row):
            if cell is not Cell.EMPTY:
                boards[PIECES.index(cell)] |= 1 << (r * cols + c)
    return tuple(boards)  # type: ignore[return-value]


def _captures(searcher: Searcher, position: Position) -> int:
    return sum(1 for _ in searcher.moves(position))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    for path in write_set(args.out, args.seed):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
