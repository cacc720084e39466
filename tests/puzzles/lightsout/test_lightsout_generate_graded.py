"""Graded Lights Out boards: one fewest-press grid, of exactly their level, reproducible.

Generated through the protocol (`check`, then `attempt` with seeded
generators, as the driver tries them); every board is proven to have a
unique optimum by `hand` and `cpsat` (and `sat` mod 2), matches its own
metadata, and grades again to its level. The walk that defines `medium` is
checked against the exhaustive `hand` search, the press bound of `check`
against every board of a few small sizes.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import defaultdict

import numpy as np
import pytest
from conftest import ROOT, corpus_path

from twinsolve.core.errors import UsageError
from twinsolve.core.generation import Generated, Request
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import load_file, run
from twinsolve.puzzles.lightsout import generate as gen
from twinsolve.puzzles.lightsout import hand
from twinsolve.puzzles.lightsout.rules import Instance, brute, format, press_effect, verify

UNIQUE = Limits(unique=True, count=True, timeout=60)

# (level, rows, cols, options): small boards of every variant the generator offers.
BATCH = [
    ("easy", 4, 5, {}),
    ("easy", 6, 6, {"modulus": 3, "presses": 9}),
    ("medium", 5, 5, {}),
    ("medium", 5, 5, {"presses": 4}),
    ("medium", 3, 3, {"variant": "torus"}),
    ("medium", 5, 5, {"variant": "sigma"}),
    ("hard", 5, 5, {}),
    ("hard", 5, 5, {"presses": 10}),
    ("hard", 4, 4, {"modulus": 3}),
    ("medium", 3, 3, {"variant": "torus-sigma"}),
    ("hard", 4, 4, {"modulus": 5}),
]


def _request(level: str, rows: int, cols: int, **options) -> Request:
    return Request("lightsout", level, rows, cols, options=options)


def _generate(request: Request, seed: int) -> Generated:
    """The first try that yields a board, the way the driver retries."""
    gen.check(request)
    for attempt in range(gen.ATTEMPTS):
        found = gen.attempt(request, random.Random(f"seed-{seed}-{attempt}"))
        if found is not None:
            return found
    raise AssertionError(f"no board for {request}")


def _batch(level: str, rows: int, cols: int, options: dict, count: int = 2) -> list[Generated]:
    return [_generate(_request(level, rows, cols, **options), seed) for seed in range(count)]


def _easier(level: str) -> str | None:
    index = gen.LEVELS.index(level)
    return gen.LEVELS[index - 1] if index else None


# ---------------------------------------------------------------- generated boards

@pytest.mark.parametrize(("level", "rows", "cols", "options"), BATCH)
def test_every_generated_board_has_one_optimum_for_two_backends(level, rows, cols, options):
    for found in _batch(level, rows, cols, options):
        board = found.instance
        expected = int(dict(board.meta)["expect-objective"])
        assert board.meta == (("expect-unique", "true"), ("expect-objective", str(expected)))
        assert any(map(any, board.lights))  # a lit board: there is something to solve
        if "presses" in options:
            assert expected == options["presses"]
        backends = ["hand", "cpsat"] + (["sat"] if board.modulus == 2 else [])
        grids = set()
        for backend in backends:
            result = run(board, backend, UNIQUE)
            assert (result.status, result.unique, result.count, result.verified) == \
                (Status.OPTIMAL, True, 1, True), backend
            assert result.objective == expected, backend
            grids.add(tuple(result.solution["presses"]))
        assert len(grids) == 1  # the one optimal grid, found by every back-end


@pytest.mark.parametrize(("level", "rows", "cols", "options"), BATCH)
def test_every_generated_board_grades_to_exactly_its_level(level, rows, cols, options):
    for found in _batch(level, rows, cols, options):
        board = found.instance
        assert gen.grade(board) == found.grade and found.grade.level == level
        # Exactness: the solver restricted to the level settles it, the level below does not.
        assert gen.settle(board, level).outcome is gen.Outcome.SOLVED
        if _easier(level):
            assert gen.settle(board, _easier(level)).outcome is gen.Outcome.STUCK
        evidence = found.grade.evidence
        assert evidence["techniques"] == gen.TECHNIQUES[level]
        assert evidence["presses"] == int(dict(board.meta)["expect-objective"])
        if level != "easy":
            coset = board.modulus ** evidence["nullity"]
            budget = gen.medium_budget(coset)
            walked = hand.walk_coset(hand.coset(board), board.modulus)
            assert (walked.examined <= budget) == (level == "medium")
            assert walked.unique and walked.presses == evidence["presses"]


def test_levels_follow_the_kernel_of_the_size():
    assert hand.kernel_dimension(4, 5) == 0 and hand.kernel_dimension(5, 5) == 2
    easy = _generate(_request("easy", 4, 5), 0).instance
    assert hand.nullity(easy) == 0
    for level in ("medium", "hard"):
        assert hand.nullity(_generate(_request(level, 5, 5), 0).instance) == 2


def test_the_same_seed_gives_the_same_board_and_other_seeds_others():
    request = _request("medium", 5, 5)
    first = gen.attempt(request, random.Random("seed-1"))
    again = gen.attempt(request, random.Random("seed-1"))
    assert first is not None and again is not None
    assert format(first.instance) == format(again.instance) and first.grade == again.grade
    texts = {format(_generate(request, seed).instance) for seed in range(8)}
    assert len(texts) == 8


# ---------------------------------------------------------------- refused requests

@pytest.mark.parametrize(("level", "rows", "cols", "options", "words"), [
    ("easy", 5, 5, {}, "none is easy"),
    ("medium", 10, 10, {}, "its puzzles are all easy"),
    ("hard", 4, 4, {"variant": "torus"}, "its puzzles are all easy"),
    ("medium", 2, 2, {"modulus": 3}, "no board is medium"),
    ("hard", 20, 20, {"variant": "torus"}, "has 2\\^32 solutions; medium and hard"),
    ("hard", 1, 1, {"variant": "sigma"}, "no 1x1 sigma board"),
    ("easy", 4, 5, {"presses": 21}, "at most 20 presses"),
    ("medium", 5, 5, {"presses": 15}, "at most 14 presses"),
    ("easy", 4, 5, {"presses": 0}, "at least 1"),
    ("easy", 4, 5, {"presses": -1}, "at least 1"),
    ("easy", 4, 5, {"presses": "many"}, "whole number"),
    ("easy", 4, 5, {"variant": "moebius"}, "unknown Lights Out variant"),
    ("easy", 4, 5, {"modulus": 4}, "--modulus must be one of 2, 3, 5, 7"),
    ("easy", 0, 5, {}, "1..64 rows"),
    ("easy", 5, 65, {}, "1..64 columns"),
    ("extreme", 5, 5, {}, "unknown Lights Out level"),
])
def test_impossible_requests_are_refused_in_one_line(level, rows, cols, options, words):
    with pytest.raises(UsageError, match=words) as refused:
        gen.check(_request(level, rows, cols, **options))
    assert "\n" not in str(refused.value)


def test_symmetric_is_refused():
    with pytest.raises(UsageError, match="symmetric"):
        gen.check(Request("lightsout", "medium", 5, 5, symmetric=True))


def test_an_attempt_at_a_level_the_size_lacks_returns_none_quickly():
    began = time.perf_counter()
    for seed in range(5):
        assert gen.attempt(_request("easy", 5, 5), random.Random(seed)) is None
        assert gen.attempt(_request("medium", 6, 6), random.Random(seed)) is None
    assert time.perf_counter() - began < 5


def _optima(shape: Instance) -> dict[bytes, list[int]]:
    """Every solvable board of a small mod-2 shape -> the presses of each grid solving it."""
    cells = [(r, c) for r in range(shape.rows) for c in range(shape.cols)]
    effect = np.zeros((len(cells), len(cells)), dtype=np.int64)
    for column, (r, c) in enumerate(cells):
        for tr, tc in press_effect(shape, r, c):
            effect[tr * shape.cols + tc, column] += 1
    grids = np.array(list(itertools.product((0, 1), repeat=len(cells))), dtype=np.int64)
    boards = (grids @ effect.T) % 2
    weights: dict[bytes, list[int]] = defaultdict(list)
    for board, weight in zip(boards.astype(np.uint8), grids.sum(axis=1), strict=True):
        weights[board.tobytes()].append(int(weight))
    return weights


@pytest.mark.parametrize(("rows", "cols", "variant"), [
    (4, 4, "plain"), (3, 3, "torus"), (4, 4, "sigma"), (2, 5, "sigma")])
def test_the_press_bound_of_check_holds_for_every_board_of_small_sizes(rows, cols, variant):
    torus, sigma = gen.VARIANTS[variant]
    shape = Instance(rows, cols, tuple((0,) * cols for _ in range(rows)), torus, sigma)
    nullity, most = gen.max_unique_presses(shape)
    assert nullity > 0
    unique_optima = [min(w) for w in _optima(shape).values() if w.count(min(w)) == 1]
    assert max(unique_optima) <= most


# ---------------------------------------------------------------- the walk

def _random_board(rng: random.Random, rows: int, cols: int, **variant) -> Instance:
    shape = Instance(rows, cols, tuple((0,) * cols for _ in range(rows)), **variant)
    presses = [[rng.randrange(shape.modulus) for _ in range(cols)] for _ in range(rows)]
    return gen.pressed(shape, presses)


@pytest.mark.parametrize("variant", [
    {}, {"torus": True}, {"sigma": True}, {"modulus": 3}, {"modulus": 5}, {"modulus": 7},
    {"torus": True, "sigma": True}])
def test_the_walk_finds_the_exhaustive_optimum_and_its_ties(variant):
    rng = random.Random(f"walk {sorted(variant.items())}")
    for _ in range(12):
        side = rng.randint(2, 9)
        board = _random_board(rng, side, rng.randint(2, 9), **variant)
        walked = hand.walk_coset(hand.coset(board), board.modulus)
        exhaustive = hand.solve(board, UNIQUE)
        assert walked.complete and exhaustive.status is Status.OPTIMAL
        assert (walked.presses, walked.ties) == (exhaustive.objective, exhaustive.count)
        solution = {"presses": ["".join(map(str, row)) for row in walked.grid]}
        assert verify(board, solution) == [] and sum(map(sum, walked.grid)) == walked.presses
        assert walked.examined <= board.modulus ** hand.nullity(board)


def test_the_walk_agrees_with_brute_force_on_tiny_boards():
    rng = random.Random("tiny")
    for _ in range(40):
        board = _random_board(rng, rng.randint(1, 3), rng.randint(1, 4),
                              torus=rng.random() < 0.5, sigma=rng.random() < 0.5)
        oracle = brute(board, UNIQUE)
        walked = hand.walk_coset(hand.coset(board), 2)
        assert (walked.presses, walked.ties) == (oracle.objective, oracle.count), board


def test_a_member_limit_stops_the_walk_exactly_at_the_members_it_needs():
    board = _random_board(random.Random(3), 9, 9)  # nullity 8: 256 members
    found = hand.coset(board)
    full = hand.walk_coset(found, 2)
    assert full.complete and 2 < full.examined < 256
    assert hand.walk_coset(found, 2, member_limit=full.examined) == full
    short = hand.walk_coset(found, 2, member_limit=full.examined - 1)
    assert not short.complete and not short.unique and short.examined < full.examined


# ---------------------------------------------------------------- grading real boards

def test_shipped_boards_grade_by_their_kernel_and_their_unique_optimum():
    files = sorted((ROOT / "instances" / "lightsout").glob("*.txt"))
    assert len(files) >= 30
    levels = set()
    for path in files:
        board = load_file(path)
        graded = gen.grade(board)
        answer = hand.solve(board, UNIQUE)
        if answer.status is Status.UNSAT:
            assert graded.level is None and graded.evidence["solutions"] == 0, path
            continue
        assert graded.evidence["presses"] == int(dict(board.meta)["expect-objective"]), path
        assert (graded.level is not None) == (answer.count == 1), path
        if graded.level is not None:
            assert (graded.level == "easy") == (hand.nullity(board) == 0), path
        levels.add(graded.level)
    assert {"easy", "medium", "hard", None} <= levels


def test_the_all_on_boards_grade_by_the_published_tables():
    """Nullity (OEIS A159257) decides easy; with a kernel the all-on board is symmetric
    and has several optima; the presses are OEIS A075464."""
    path = corpus_path("lightsout", "oeis-n1-30.txt")
    rows = [line.split() for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]
    assert len(rows) == 30
    for n, nullity, _torus, presses in rows:
        graded = gen.grade(Instance.all_on(int(n)))
        assert graded.evidence["nullity"] == int(nullity), n
        if presses != "-":
            assert graded.evidence["presses"] == int(presses), n
        if int(nullity) == 0:
            assert graded.level == "easy", n
        else:
            assert graded.level is None and graded.evidence["optimal_grids"] >= 2, n


def test_a_board_without_solution_has_no_level():
    graded = gen.grade(Instance.all_on(5, sigma=True))
    assert graded.level is None and graded.evidence["solutions"] == 0
