"""The generator's `ClueOracle` (one incremental SAT solver per cave) against brute force.

For a random small cave and a sequence of clue subsets asked of ONE oracle (so
what it learnt from earlier questions, cuts included, is in play), the oracle
says "no other solution" exactly when brute force counts one solution, and
otherwise hands back a shading that is not the cave and that `verify` accepts
for those clues.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.core.limits import Limits
from twinsolve.puzzles.cave import rules as cave
from twinsolve.puzzles.cave.generate import random_cave
from twinsolve.puzzles.cave.models import ClueOracle


def _puzzle(inside: list[list[bool]], cells: set[tuple[int, int]]) -> cave.Instance:
    rows, cols = len(inside), len(inside[0])
    grid = [[cave.Cell.clue(cave.count_visible(inside, r, c)) if (r, c) in cells else cave.EMPTY
             for c in range(cols)] for r in range(rows)]
    return cave.Instance(rows, cols, tuple(map(tuple, grid)))


@st.composite
def caves_and_questions(draw):
    rows, cols = draw(st.sampled_from([(2, 3), (3, 3), (3, 4), (4, 3), (4, 4)]))
    inside = random_cave(rows, cols, random.Random(draw(st.integers(0, 10_000))),
                         draw(st.sampled_from([0.3, 0.5, 0.7])))
    cells = [(r, c) for r in range(rows) for c in range(cols) if inside[r][c]]
    questions = draw(st.lists(st.sets(st.sampled_from(cells), min_size=1), min_size=1,
                              max_size=4))
    return inside, questions


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@settings(max_examples=60, deadline=None)
@given(caves_and_questions())
def test_the_oracle_agrees_with_brute_force_question_after_question(case):
    inside, questions = case
    with ClueOracle(inside) as oracle:
        for cells in questions:
            puzzle = _puzzle(inside, cells)
            count = cave.brute(puzzle, Limits(count=True)).count
            other = oracle.other(cells)
            if count == 1:
                assert other is None, sorted(cells)
            else:
                assert other is not None and other != inside, sorted(cells)
                assert cave.verify(puzzle, cave.solution_from_inside(other)) == []


def test_the_oracle_knows_the_clues_of_a_bigger_cave_and_refuses_other_cells():
    inside = random_cave(10, 10, random.Random(4), 0.5)
    with ClueOracle(inside) as oracle:
        every = set(oracle.cells)
        assert every == {(r, c) for r in range(10) for c in range(10) if inside[r][c]}
        assert oracle.other(every) is None  # every clue given: only the cave itself
        outside = next((r, c) for r in range(10) for c in range(10) if not inside[r][c])
        with pytest.raises(ValueError, match=r"no clue of the cave at"):
            oracle.other(every | {outside})
