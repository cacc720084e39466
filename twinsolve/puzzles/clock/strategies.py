"""Small clock-stepping instances for tests: the contract kit's hypothesis strategy.

Dials of a few positions with one to three raw steps (negative, large, 0, repeated).
Hypothesis is a test dependency: only the test kit and the tests import this module.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from . import rules as clock

__all__ = ["small_instances", "dials"]


@st.composite
def dials(draw, max_hours: int = 10):
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


def small_instances() -> st.SearchStrategy[clock.Instance]:
    return dials()
