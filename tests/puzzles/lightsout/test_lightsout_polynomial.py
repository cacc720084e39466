"""The polynomial method of Lights Out (`hand`): against elimination, OEIS A159257, and the
streamed row-by-row check of the rules."""

from __future__ import annotations

import random

import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.lightsout import hand, rules
from twinsolve.puzzles.lightsout.rules import Instance, verify, verify_rows

ANY = Limits(options={"minimise": False})

# OEIS A159257 (the nullity of the n x n Lights Out board), n = 1..130: the data line
# (%S %T %U) of oeis/oeisdata seq/A159/A159257.seq, as published.
A159257 = (
    0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0, 0, 0, 14, 4, 0, 0, 0, 0, 10, 20,
    0, 20, 16, 4, 6, 0, 0, 0, 32, 0, 2, 0, 0, 4, 0, 0, 30, 0, 8, 8, 0, 0, 2, 4, 0, 0, 0, 0, 22,
    0, 40, 24, 0, 28, 42, 0, 32, 0, 8, 0, 14, 0, 0, 4, 0, 0, 2, 0, 64, 0, 0, 0, 6, 12, 0, 0, 0,
    0, 10, 0, 0, 20, 0, 4, 62, 0, 0, 20, 16, 0, 18, 0, 0, 4, 0, 0, 6, 0, 8, 0, 0, 0, 2, 4, 0, 0,
    0, 8, 46, 0, 0, 0, 80, 4, 50, 56, 0, 56, 56, 0,
)


def _random_board(rng: random.Random, rows: int, cols: int, sigma: bool = False) -> Instance:
    lights = tuple(tuple(rng.randint(0, 1) for _ in range(cols)) for _ in range(rows))
    return Instance(rows, cols, lights, sigma=sigma)


def _int_rows(instance: Instance) -> list[int]:
    """The light rows as ints, read cell by cell (not by `rules.light_rows`)."""
    return [sum(bit << c for c, bit in enumerate(row)) for row in instance.lights]


def _agree_with_elimination(instance: Instance) -> None:
    """Same nullity and solvability as elimination; a verified solution, the same one when
    it is the only one."""
    elimination = hand.coset(instance)
    mine = run(instance, "hand", ANY)
    assert mine.stats.counters["method"] == "polynomial", instance
    assert mine.stats.counters["nullity"] == elimination.nullity, instance
    if elimination.particular is None:
        assert mine.status is Status.UNSAT, instance
        return
    assert mine.status.has_solution and mine.verified, instance
    if elimination.nullity == 0:
        expected = rules.solution_from_grid(elimination.particular)
        assert mine.status is Status.OPTIMAL and mine.solution == expected, instance


# ---------------------------------------------------------------- published figures

def test_nullity_matches_every_published_a159257_term():
    assert len(A159257) == 130
    for n, expected in enumerate(A159257, start=1):
        assert hand.kernel_dimension(n, n) == expected, n
        assert hand.first_row(n, [(1 << n) - 1] * n).nullity == expected, n


# ---------------------------------------------------------------- against elimination

@pytest.mark.parametrize("sides", sampled([range(1, 101), range(101, 301)]),
                         ids=["1-100", "101-300"])
def test_every_square_all_on_board_up_to_300_agrees_with_elimination(sides):
    for n in sides:
        _agree_with_elimination(Instance.all_on(n))


def test_rectangular_boards_agree_with_elimination():
    rng = random.Random(16)
    sizes = [(1, 1), (1, 9), (9, 1), (2, 3), (3, 2), (4, 5), (5, 4), (16, 5), (5, 16),
             (17, 29), (29, 17), (3, 80), (80, 3)]
    sizes += [(rng.randint(1, 60), rng.randint(1, 60)) for _ in range(25)]
    for rows, cols in sizes:
        _agree_with_elimination(Instance.all_on(rows, cols))
        assert hand.kernel_dimension(rows, cols) == \
            hand.kernel_dimension(rows, cols, method="elimination"), (rows, cols)


def test_random_lights_and_sigma_boards_agree_with_elimination():
    rng = random.Random(1989)
    unsolvable = 0
    for _ in range(120):
        rows, cols = rng.randint(1, 40), rng.randint(1, 40)
        board = _random_board(rng, rows, cols, sigma=rng.random() < 0.4)
        _agree_with_elimination(board)
        unsolvable += hand.coset(board).particular is None
    assert unsolvable >= 10  # the unsat branch is exercised, not only the solvable one


def test_sigma_nullity_agrees_with_elimination():
    for rows, cols in [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 11), (11, 5), (24, 24),
                       (30, 31), (47, 20)]:
        assert hand.kernel_dimension(rows, cols, sigma=True) == \
            hand.kernel_dimension(rows, cols, sigma=True, method="elimination"), (rows, cols)


# ---------------------------------------------------------------- which method answers

def test_the_elimination_route_keeps_torus_mod_k_and_the_fewest_presses():
    for board in (Instance.all_on(6, torus=True), Instance.all_on(4, modulus=3),
                  Instance.all_on(5, 7, torus=True, sigma=True)):
        assert run(board, "hand", ANY).stats.counters["method"] == "elimination"
    fewest = run(Instance.all_on(5), "hand", Limits(count=True))  # nullity 2: the coset search
    assert fewest.stats.counters["method"] == "elimination"
    assert (fewest.status, fewest.objective, fewest.count) == (Status.OPTIMAL, 15, 4)
    alone = run(Instance.all_on(6), "hand", Limits(count=True))  # nullity 0: nothing to search
    assert alone.stats.counters["method"] == "polynomial"
    assert (alone.status, alone.objective, alone.count) == (Status.OPTIMAL, 28, 1)


def test_method_option_chooses_elimination_and_refuses_other_values():
    board = Instance.all_on(8)
    old = run(board, "hand", Limits(options={"method": "elimination"}))
    new = run(board, "hand", Limits())
    assert old.stats.counters["method"] == "elimination" and new.stats.counters["method"] \
        == "polynomial"
    assert old.solution == new.solution and old.status is new.status is Status.OPTIMAL
    with pytest.raises(UsageError, match="method"):
        run(board, "hand", Limits(options={"method": "magic"}))
    with pytest.raises(ValueError, match="method"):
        hand.kernel_dimension(4, 4, method="magic")


def test_unsolvable_board_is_unsat_with_its_nullity():
    board = Instance(4, 4, ((1, 0, 0, 0),) + ((0,) * 4,) * 3)  # outside the 4x4 image
    result = run(board, "hand", Limits(unique=True, count=True))
    assert result.status is Status.UNSAT and result.stats.counters["method"] == "polynomial"
    assert (result.unique, result.count, result.stats.counters["nullity"]) == (False, 0, 4)


# ---------------------------------------------------------------- the streamed check

def test_light_rows_put_column_c_in_bit_c():
    rng = random.Random(7)
    board = _random_board(rng, 9, 70)
    assert list(rules.light_rows(board)) == _int_rows(board)
    shared = (1, 0, 1)
    assert list(rules.light_rows(Instance(3, 3, (shared,) * 3))) == [0b101] * 3


def _solved(rows: int, cols: int, seed: int, sigma: bool) -> tuple[Instance, list[str]]:
    """A solvable board and its press rows (the lights are a random press pattern's effect)."""
    rng = random.Random(seed)
    presses = _random_board(rng, rows, cols)
    lights = [[0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if presses.lights[r][c]:
                for rr, cc in rules.press_effect(Instance(rows, cols, (), sigma=sigma), r, c):
                    lights[rr][cc] ^= 1
    board = Instance(rows, cols, tuple(map(tuple, lights)), sigma=sigma)
    return board, ["".join(map(str, row)) for row in presses.lights]


def _flipped(presses: list[str], r: int, c: int) -> list[str]:
    row = presses[r]
    return presses[:r] + [row[:c] + "10"[int(row[c])] + row[c + 1:]] + presses[r + 1:]


def _streamed(board: Instance, presses: list[str]) -> list[str]:
    rows = [int(row[::-1], 2) for row in presses]
    return verify_rows(board.rows, board.cols, _int_rows(board), rows, board.sigma)


@pytest.mark.parametrize("examples", sampled([20, 60]))  # the long run under `slow`
def test_streamed_check_rejects_one_flipped_press_anywhere(examples):
    @settings(max_examples=examples, deadline=None)
    @given(st.sampled_from([(48, 48, False), (37, 61, False), (61, 37, True), (2, 90, True)]),
           st.integers(0, 10 ** 6), st.data())
    def rejects(shape, seed, data):
        rows, cols, sigma = shape
        board, presses = _solved(rows, cols, seed, sigma)
        assert _streamed(board, presses) == [] == verify(board, {"presses": presses})
        r = data.draw(st.integers(0, rows - 1), label="row")
        c = data.draw(st.integers(0, cols - 1), label="column")
        wrong = _flipped(presses, r, c)
        problems = _streamed(board, wrong)
        assert problems and problems == verify(board, {"presses": wrong})

    rejects()


def test_streamed_check_rejects_flips_in_the_first_and_last_rows_and_corners():
    for sigma in (False, True):
        board, presses = _solved(23, 31, 5, sigma)
        assert _streamed(board, presses) == []
        for r, c in [(0, 0), (0, 30), (22, 0), (22, 30), (0, 15), (22, 15), (11, 0), (11, 30)]:
            problems = _streamed(board, _flipped(presses, r, c))
            assert problems and problems == verify(board, {"presses": _flipped(presses, r, c)})


def test_streamed_check_refuses_rows_it_cannot_read():
    assert verify_rows(2, 3, [7, 7], [2]) == ["expected 2 press rows, found 1"]
    assert verify_rows(2, 3, [7], [2, 0]) == ["expected 2 light rows, found 1"]
    assert verify_rows(1, 3, [7], [2, 0]) == ["more than 1 press rows"]
    assert verify_rows(1, 3, [7], [0b1010]) == ["press row 0 has presses outside columns 0..2"]
    assert verify_rows(1, 3, [7], [-1]) == ["press row 0 has presses outside columns 0..2"]


def test_verify_checks_big_boards_a_row_at_a_time(monkeypatch):
    """Above STREAM_CELLS `verify` streams: same verdicts and messages as the grid check."""
    board, presses = _solved(40, 50, 3, False)
    flipped = _flipped(presses, 17, 0)
    malformed = [{"presses": presses[:-1]}, {"presses": "no"}, {},
                 {"presses": presses[:5] + ["0" * 49 + "2"] + presses[6:]},
                 {"presses": presses[:5] + ["0" * 49 + " "] + presses[6:]},
                 {"presses": presses[:5] + ["0" * 49 + "_"] + presses[6:]},
                 {"presses": presses[:5] + ["0" * 49 + "é"] + presses[6:]},
                 {"presses": presses[:5] + [3] + presses[6:]}]
    solutions = [{"presses": presses}, {"presses": flipped}, *malformed]
    whole = [verify(board, solution) for solution in solutions]
    assert whole[0] == [] and all(whole[1:])
    monkeypatch.setattr(rules, "STREAM_CELLS", 100)
    assert rules.streams(board)
    assert [verify(board, solution) for solution in solutions] == whole
    assert rules.objective(board, {"presses": presses}) == "".join(presses).count("1")
    with pytest.raises(ValueError, match="digit outside"):
        rules.objective(board, malformed[3])


# ---------------------------------------------------------------- the summary

def test_summary_agrees_with_solve_and_counts_the_presses():
    rng = random.Random(100)
    all_on = [Instance.all_on(37), Instance.all_on(120, 77), Instance.all_on(33, sigma=True)]
    lit = [_random_board(rng, 50, 61), _random_board(rng, 61, 50, sigma=True),
           _random_board(rng, 16, 16)]
    cases = [(board, None) for board in all_on] + [(board, _int_rows(board)) for board in lit]
    statuses = set()
    for board, lights in cases:
        whole = run(board, "hand", ANY)
        summary = hand.solve_summary(board.rows, board.cols, lights, board.sigma)
        statuses.add(summary.status)
        assert summary.status is whole.status and summary.solution is None, board
        assert summary.objective == whole.objective, board
        assert summary.stats.counters["nullity"] == whole.stats.counters["nullity"], board
        assert summary.verified is (True if whole.status.has_solution else None), board
    assert Status.OPTIMAL in statuses and Status.FEASIBLE in statuses


def test_summary_reports_a_wrong_answer(monkeypatch):
    real = hand.first_row

    def off_by_one(cols, lights, sigma=False):
        found = real(cols, lights, sigma)
        return hand.FirstRow(found.nullity, found.presses ^ 1)

    monkeypatch.setattr(hand, "first_row", off_by_one)
    summary = hand.solve_summary(30, 30)
    assert summary.status is Status.WRONG and summary.verified is False
    assert "light(s) still on" in summary.message


def test_summary_of_an_unsolvable_board():
    board = Instance(4, 4, ((1, 0, 0, 0),) + ((0,) * 4,) * 3)
    summary = hand.solve_summary(4, 4, _int_rows(board))
    assert summary.status is Status.UNSAT and summary.stats.counters["nullity"] == 4
    assert summary.objective is None and summary.verified is None
