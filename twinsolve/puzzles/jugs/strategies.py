"""Small water-jug instances for tests: the contract kit's hypothesis strategy.

Two or three jugs of small capacities, any start and move subset, goals mostly reachable
(short plans: the planning encodings grow their horizon one step at a time).
Hypothesis is a test dependency: only the test kit and the tests import this module.
"""

from __future__ import annotations

import itertools
import random

from hypothesis import strategies as st

from . import rules as jugs

__all__ = ["small_instances", "puzzles"]


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
def puzzles(draw, max_capacity: int = 9, max_jugs: int = 3):
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


def small_instances() -> st.SearchStrategy[jugs.Instance]:
    return puzzles(max_capacity=5)
