"""Solitaire Chess boards, solvable by construction, for `instances/chess/` and tests.

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
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from ...core.limits import Limits
from ...core.result import Status
from ...core.run import run
from ...core.writing import write_instances
from .rules import BRUTE_MAX_PIECES, Cell, Instance, between, format, legal_moves, reaches

__all__ = ["random_solvable", "unique_puzzle", "plain_count", "confirmed_count", "shipped_set",
           "write_set", "main"]

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
