"""Fewest presses of the all-on n x n board: the published terms, and what symmetry saves.

OEIS A075464 lists a(n) for n <= 54 in its data line (the corpus file holds
n <= 30); every one is checked here, through `run` so each answer is
verified (n = 39, nullity 32, is the slowest: about a second, five without
fht-cpu); n > 30 under `slow`. The sizes up to 78 belong to
`python -m benchmarks.lightsout_perf --only fewest`.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import corpus_path, sampled

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.lightsout import hand
from twinsolve.puzzles.lightsout.published import FEWEST_ALL_ON
from twinsolve.puzzles.lightsout.rules import Instance
from twinsolve.search import coset_min


@pytest.mark.parametrize("n", sampled(range(1, 55), keep=30))
def test_fewest_presses_equal_the_published_term(n):
    """Every term of the data line (the corpus's n <= 30 check the table itself, below)."""
    result = run(Instance.all_on(n), "hand", Limits(count=True))
    assert result.status is Status.OPTIMAL and result.verified
    assert result.objective == FEWEST_ALL_ON[n]
    assert result.count >= 1


def test_the_symmetry_walks_a_fraction_of_the_members_for_the_same_answer(monkeypatch):
    """The all-on 19 x 19 board (nullity 16) in chunks of 2^8: eight chunks per orbit."""
    monkeypatch.setattr(coset_min, "TAIL_BITS", 8)
    board = Instance.all_on(19)
    grouped = run(board, "hand", Limits(count=True))
    monkeypatch.setattr(hand, "symmetries", lambda instance: [])
    plain = run(board, "hand", Limits(count=True))
    assert grouped.verified and plain.verified
    assert (grouped.objective, grouped.count) == (plain.objective, plain.count) == (141, 28)
    assert grouped.stats.counters["candidates"] * 4 < plain.stats.counters["candidates"]


@pytest.mark.parametrize("board", [
    Instance(5, 5, ((1, 0, 0, 0, 1), (0, 0, 0, 0, 0), (0, 0, 1, 0, 0), (0, 0, 0, 0, 0),
                    (1, 0, 0, 0, 1))),  # the eight symmetries of a square
    Instance(4, 4, ((1, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 1, 1))),  # a half turn
])
def test_symmetries_keep_the_lights_and_nothing_else(board):
    lights = np.array(board.lights).reshape(-1)
    found = hand.symmetries(board)
    assert found and all(np.array_equal(lights[perm], lights) for perm in found)
    assert len(found) == (7 if board.rows == 5 else 1)


def test_the_published_table_agrees_with_the_corpus_copy():
    """A second source for n <= 30 (the corpus file), against a typo in the table."""
    path = corpus_path("lightsout", "oeis-n1-30.txt")
    rows = [line.split() for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    assert len(rows) == 30
    assert {int(n): int(presses) for n, _, _, presses in rows} == \
        {n: FEWEST_ALL_ON[n] for n in range(1, 31)}
    assert sorted(FEWEST_ALL_ON) == list(range(1, 55))


def test_two_jobs_give_the_answer_count_and_grid_of_one(monkeypatch):
    """The all-on 47 x 47 board (nullity 30), its head blocks dealt out to two processes."""
    monkeypatch.setattr(coset_min, "HEAD_BLOCK", 256)
    board = Instance.all_on(47)
    one = run(board, "hand", Limits(count=True))
    two = run(board, "hand", Limits(count=True, options={"jobs": 2}))
    assert one.verified and two.verified
    assert (two.objective, two.count, two.solution) == (one.objective, one.count, one.solution)
    assert two.objective == FEWEST_ALL_ON[47]


@pytest.mark.parametrize("value", [0, -1, "two", True])
def test_a_bad_number_of_jobs_is_a_usage_error(value):
    with pytest.raises(UsageError, match="option jobs="):
        run(Instance.all_on(5), "hand", Limits(options={"jobs": value}))
