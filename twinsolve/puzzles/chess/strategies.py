"""Small Solitaire Chess instances for tests: the contract kit's hypothesis strategy.

Random placements, or solvable boards played backwards, with few enough winning sequences
for the back-ends that count them one solver call at a time.
Hypothesis is a test dependency: only the test kit and the tests import this module.
"""

from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from . import generate as chess_generate
from . import rules as chess

__all__ = ["small_instances", "boards"]


@st.composite
def boards(draw, min_side: int = 1, max_side: int = 4, max_pieces: int = 6,
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


def small_instances() -> st.SearchStrategy[chess.Instance]:
    return boards()
