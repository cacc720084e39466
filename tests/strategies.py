"""Hypothesis strategies for tests: each puzzle's small instances (declared by the puzzle,
`Puzzle.strategy`, in its folder's `strategies.py`: the contract kit draws from the same),
under the names the tests use, and a few test-only ones.
"""

from __future__ import annotations

from hypothesis import strategies as st

from twinsolve.puzzles.cave.strategies import grids as cave_grids
from twinsolve.puzzles.chess.strategies import boards as chess_boards
from twinsolve.puzzles.clock.strategies import dials as clock_dials
from twinsolve.puzzles.jugs.strategies import puzzles as jug_puzzles
from twinsolve.puzzles.lightsout import rules as lightsout
from twinsolve.puzzles.lightsout.strategies import boards as lightsout_boards
from twinsolve.puzzles.mirror.strategies import levels as mirror_levels

__all__ = ["word_lines", "lightsout_boards", "lightsout_boards_mod", "BRUTE_CELLS",
           "chess_boards", "cave_grids", "clock_dials", "jug_puzzles", "mirror_levels",
           "SMALL_INSTANCES"]


def word_lines(words: list[str], max_words: int) -> st.SearchStrategy[str]:
    """Text of up to 6 lines of up to `max_words` words each, drawn from `words` (for fuzzing)."""
    return st.lists(st.lists(st.sampled_from(words), max_size=max_words), max_size=6).map(
        lambda lines: "\n".join(" ".join(line) for line in lines))


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


SMALL_INSTANCES = {
    "cave": cave_grids(),
    "lightsout": lightsout_boards(),
    "chess": chess_boards(),
    "clock": clock_dials(),
    "jugs": jug_puzzles(max_capacity=5),  # cpsat / sat grow horizons: keep plans short
    "mirror": mirror_levels(),
}
