"""The Lights Out `hand` back-end: published figures, the brute-force oracle, honest limits."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import corpus_path, sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.lightsout import hand
from twinsolve.puzzles.lightsout.rules import Instance, brute, press_effect, verify
from twinsolve.search import coset_min
from twinsolve.search.gf2 import rank_gf2, rank_gfp

BOTH = Limits(unique=True, count=True)
# brute tries K^cells grids in pure Python; 2^12 keeps each call well under a second.
BRUTE_CELLS = {2: 12, 3: 7, 5: 5, 7: 4}


def _published():
    path = corpus_path("lightsout", "oeis-n1-30.txt")
    table = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            n, null, torus, presses = line.split()
            table[int(n)] = (int(null), None if torus == "-" else int(torus),
                             None if presses == "-" else int(presses))
    return table


def _agree_with_brute(instance: Instance, limits: Limits = BOTH) -> None:
    mine, oracle = run(instance, "hand", limits), brute(instance, limits)
    assert mine.status is oracle.status, instance
    assert (mine.objective, mine.unique, mine.count) == \
        (oracle.objective, oracle.unique, oracle.count), instance
    if mine.status.has_solution:
        assert mine.verified and verify(instance, mine.solution) == []
    assert mine.stats.counters["solutions"] == oracle.stats.counters["solutions"]


# ---------------------------------------------------------------- published figures

def test_nullity_matches_oeis_a159257():
    table = _published()
    assert len(table) == 30
    for n, (expected, _, _) in table.items():
        assert hand.nullity(Instance.all_on(n)) == expected, n


def test_torus_nullity_matches_oeis_a165738():
    for n, (_, expected, _) in _published().items():
        if expected is not None:
            assert hand.kernel_dimension(n, n, torus=True) == expected, n


def test_fewest_presses_of_all_on_board_match_oeis_a075464():
    # Every n <= 30 runs: the largest nullity there is 20 (n = 30), 2^20 coset members.
    for n, (null, _, expected) in _published().items():
        if expected is None:
            continue
        result = run(Instance.all_on(n), "hand", Limits(count=True))
        assert result.status is Status.OPTIMAL and result.verified, n
        assert result.objective == expected, n
        assert result.stats.counters["nullity"] == null
        assert result.stats.counters["solutions"] == 2 ** null
        assert result.count >= 1


# ---------------------------------------------------------------- the brute-force oracle

@st.composite
def boards(draw):
    """Any variant, with few enough cells for `brute` to try every press grid quickly."""
    modulus = draw(st.sampled_from((2, 3, 5, 7)))
    rows = draw(st.integers(1, min(5, BRUTE_CELLS[modulus])))
    cols = draw(st.integers(1, min(5, BRUTE_CELLS[modulus] // rows)))
    lights = draw(st.lists(st.lists(st.integers(0, modulus - 1), min_size=cols, max_size=cols),
                           min_size=rows, max_size=rows))
    return Instance(rows, cols, tuple(map(tuple, lights)), torus=draw(st.booleans()),
                    sigma=draw(st.booleans()), modulus=modulus)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@settings(max_examples=300)
@given(boards())
def test_agrees_with_brute_on_small_boards(instance):
    _agree_with_brute(instance)


@pytest.mark.parametrize("rows, cols", [(1, c) for c in range(1, 7)] + [(2, c) for c in range(1, 7)]
                         + [(c, 1) for c in range(3, 7)] + [(c, 2) for c in range(3, 7)])
@pytest.mark.parametrize("sigma", [False, True])
def test_narrow_torus_counts_twice_reached_neighbours(rows, cols, sigma):
    for modulus in (2, 3):
        if modulus ** (rows * cols) > 1 << 12:
            continue
        for seed in range(3):
            rng = np.random.default_rng([rows, cols, modulus, seed])
            lights = tuple(map(tuple, rng.integers(0, modulus, (rows, cols)).tolist()))
            _agree_with_brute(Instance(rows, cols, lights, torus=True, sigma=sigma,
                                       modulus=modulus))


# The plain board in the default run; torus and sigma meet brute there in
# test_narrow_torus_counts_twice_reached_neighbours.
@pytest.mark.parametrize("variant", sampled([{}, {"torus": True}, {"sigma": True},
                                             {"torus": True, "sigma": True}]))
def test_all_on_4x4_against_brute(variant):
    # 2^16 grids for brute: the largest boards checked this way (nullity 4 when plain).
    _agree_with_brute(Instance.all_on(4, **variant))


def _press_matrix(instance: Instance) -> np.ndarray:
    """Column (r, c) = one press at (r, c), straight from the rules' `press_effect`."""
    matrix = np.zeros((instance.cells, instance.cells), dtype=np.int64)
    for r, c in itertools.product(range(instance.rows), range(instance.cols)):
        for hr, hc in press_effect(instance, r, c):
            matrix[hr * instance.cols + hc, r * instance.cols + c] += 1
    return matrix % instance.modulus


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the long run under `slow`
def test_chased_nullity_equals_rank_of_full_press_matrix(examples):
    @settings(max_examples=examples)
    @given(st.integers(1, 9), st.integers(1, 9), st.booleans(), st.booleans(),
           st.sampled_from((2, 3, 5, 7)))
    def equals(rows, cols, torus, sigma, modulus):
        board = Instance.all_on(rows, cols, torus=torus, sigma=sigma, modulus=modulus)
        matrix = _press_matrix(board)
        rank = rank_gf2(matrix) if modulus == 2 else rank_gfp(matrix, modulus)
        assert hand.nullity(board) == board.cells - rank

    equals()


# ---------------------------------------------------------------- the coset search itself

def _coset_minimum(instance: Instance) -> tuple[int | None, int]:
    """Fewest presses and their number, by listing the whole coset from `coset()`."""
    space = hand.coset(instance)
    if space.particular is None:
        return None, 0
    k = instance.modulus
    weights = [int(((space.particular + np.tensordot(np.array(x, dtype=np.int64), space.kernel,
                                                     1)) % k).sum())
               for x in itertools.product(range(k), repeat=space.nullity)]
    return min(weights), weights.count(min(weights))


@pytest.mark.parametrize("instance", [
    Instance.all_on(9), Instance.all_on(11), Instance.all_on(16), Instance.all_on(5, torus=True),
    Instance.all_on(6, 4, torus=True, sigma=True), Instance.all_on(6, 6, sigma=True),
    Instance.all_on(2, 3, torus=True, sigma=True, modulus=3),
    Instance.all_on(2, 2, sigma=True, modulus=7), Instance.all_on(1, 5, torus=True, modulus=5),
], ids=lambda i: f"{i.rows}x{i.cols}-{i.variant.replace(' ', '-')}")
@pytest.mark.parametrize("chunked", [False, True])
def test_search_finds_coset_minimum_and_ties(instance, chunked, monkeypatch):
    """`chunked` shrinks the chunks so the Gray-code head walk and its bound do the work."""
    if chunked:
        monkeypatch.setattr(coset_min, "TAIL_BITS", 1)
        monkeypatch.setattr(coset_min, "TAIL_TABLE", 1)
    expected, ties = _coset_minimum(instance)
    result = run(instance, "hand", BOTH)
    assert result.status is Status.OPTIMAL and result.verified
    assert (result.objective, result.count, result.unique) == (expected, ties, ties == 1)


def test_chunked_search_agrees_with_brute(monkeypatch):
    monkeypatch.setattr(coset_min, "TAIL_BITS", 1)
    monkeypatch.setattr(coset_min, "TAIL_TABLE", 1)
    for instance in (Instance.all_on(3, torus=True), Instance.all_on(2, 4, torus=True, sigma=True),
                     Instance(2, 3, ((1, 2, 0), (0, 1, 1)), torus=True, sigma=True, modulus=3),
                     Instance(1, 4, ((1, 0, 2, 1),), torus=True, modulus=3)):
        _agree_with_brute(instance)


# ---------------------------------------------------------------- limits and reporting

def test_unsolvable_board():
    board = Instance(4, 4, ((1, 0, 0, 0),) + ((0,) * 4,) * 3)  # outside the 4x4 image
    result = run(board, "hand", BOTH)
    assert result.status is Status.UNSAT
    assert (result.unique, result.count, result.solution) == (False, 0, None)
    assert result.stats.counters["solutions"] == 0
    assert result.stats.counters["nullity"] == 4


def test_node_limit_stops_the_coset_search_honestly():
    board = Instance.all_on(9)  # nullity 8: 256 coset members
    full = run(board, "hand", BOTH)
    pivots = full.stats.counters["pivots"]
    assert full.stats.nodes == pivots + 256
    cut = run(board, "hand", Limits(unique=True, count=True, node_limit=pivots + 10))
    assert cut.status is Status.FEASIBLE and cut.verified
    assert (cut.unique, cut.count) == (None, None)
    assert cut.stats.nodes <= pivots + 10
    assert run(board, "hand", Limits(node_limit=pivots + 256)).status is Status.OPTIMAL


def test_expired_deadline_returns_the_particular_solution_as_feasible():
    result = run(Instance.all_on(4), "hand", Limits(timeout=0, unique=True))
    assert result.status is Status.FEASIBLE and result.verified and result.unique is None


def test_minimise_off_gives_any_solution_and_the_nullity():
    result = run(Instance.all_on(19), "hand", Limits(options={"minimise": False}))
    assert result.status is Status.FEASIBLE and result.verified
    assert result.stats.counters["nullity"] == 16
    assert result.stats.counters["candidates"] == 0
    single = run(Instance.all_on(6), "hand", Limits(options={"minimise": False}, unique=True))
    assert single.status is Status.OPTIMAL and single.unique is True  # nullity 0


def test_rectangular_boards_turned_for_the_chase_keep_their_orientation():
    board = Instance(2, 7, ((1, 0, 1, 1, 0, 0, 1), (0, 1, 1, 0, 1, 0, 0)), torus=True)
    _agree_with_brute(board)
    tall = Instance(7, 2, tuple(zip(*board.lights, strict=True)), torus=True)
    _agree_with_brute(tall)


def test_coset_too_big_for_memory_falls_back_to_one_solution(monkeypatch):
    monkeypatch.setattr(hand, "MAX_PATTERN_BYTES", 10)
    result = run(Instance.all_on(9), "hand", BOTH)
    assert result.status is Status.FEASIBLE and result.verified and result.message
    assert (result.unique, result.count) == (None, None)
