"""Hypothesis strategies for small instances of each puzzle, keyed by puzzle name.

One test matrix (tests/test_backends_agree.py) runs every registered back-end
on these and checks them against `brute`; a new puzzle adds its strategy here.
"""

from __future__ import annotations

from hypothesis import strategies as st

from twinsolve.puzzles import lightsout


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


SMALL_INSTANCES = {
    "lightsout": lightsout_boards(),
}
