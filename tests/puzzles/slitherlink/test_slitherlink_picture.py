"""Slitherlink pictures: dots and clues, the loop as lines along the answer, the same bytes
every time, and a clear refusal of an answer that does not fit."""

from __future__ import annotations

import pytest

from twinsolve.graphics import canvas
from twinsolve.puzzles.slitherlink import picture, rules

PUZZLE = rules.parse("slitherlink 2 3\n3 - -\n- 2 1\n")
ANSWER = {"inside": ["110", "100"]}


def test_the_puzzle_is_dots_and_clues():
    page = picture.draw(PUZZLE)
    assert page.count("circle") == 3 * 4 and page.count("text") == 3
    assert page.count("line") == 0


def test_the_answer_draws_the_loop_in_straight_runs():
    page = picture.draw(PUZZLE, ANSWER)
    runs = picture.loop_runs(rules.inside_grid(ANSWER))
    assert page.count("line") == len(runs) == 6  # the L-shaped loop has six straight runs
    assert sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in runs) == 8
    assert canvas.svg(page) == canvas.svg(picture.draw(PUZZLE, ANSWER))


def test_an_answer_of_the_wrong_shape_is_refused():
    with pytest.raises(ValueError, match="2 rows of 3 cells"):
        picture.draw(PUZZLE, {"inside": ["11", "10"]})


def test_a_grid_too_large_to_draw_is_one_line():
    big = rules.Instance(120, 120, tuple((None,) * 120 for _ in range(120)))
    assert picture.draw(big).count("circle") == 0
