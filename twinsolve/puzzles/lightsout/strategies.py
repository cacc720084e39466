"""Small Lights Out instances for tests: the contract kit's hypothesis strategy.

Boards brute force enumerates quickly: up to 16 cells mod 2, fewer for a larger modulus,
torus and sigma either way.
Hypothesis is a test dependency: only the test kit and the tests import this module.
"""

from __future__ import annotations

from hypothesis import strategies as st

from . import rules as lightsout

__all__ = ["small_instances", "boards"]


@st.composite
def boards(draw, max_cells: int = 16):
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


def small_instances() -> st.SearchStrategy[lightsout.Instance]:
    return boards()
