"""GF(2) / GF(p) elimination: checked by substitution and by brute force on tiny systems."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search.gf2 import (
    pack_rows,
    rank_gf2,
    rank_gfp,
    row_parity,
    solve_gf2,
    solve_gf2_augmented,
    solve_gfp,
    unpack_rows,
)


@st.composite
def systems(draw, primes=(2, 3, 5, 7), max_rows=8, max_cols=8):
    """A random (A, b, p): entries 0..p-1, with some rows repeated to force dependence."""
    p = draw(st.sampled_from(primes))
    rows = draw(st.integers(1, max_rows))
    cols = draw(st.integers(1, max_cols))
    digits = st.integers(0, p - 1)
    matrix = draw(st.lists(st.lists(digits, min_size=cols, max_size=cols),
                           min_size=rows, max_size=rows))
    if rows > 1 and draw(st.booleans()):  # a dependent row: a multiple of another plus one more
        k = draw(st.integers(1, p - 1))
        first, other = matrix[0], matrix[1 % (rows - 1)]
        matrix[-1] = [(k * a + b) % p for a, b in zip(first, other, strict=True)]
    rhs = draw(st.lists(digits, min_size=rows, max_size=rows))
    return np.array(matrix, dtype=np.int64), np.array(rhs, dtype=np.int64), p


def _solve(matrix, rhs, p):
    return solve_gf2(matrix, rhs) if p == 2 else solve_gfp(matrix, rhs, p)


def _check_solution_set(matrix, rhs, p, result):
    rows, cols = matrix.shape
    assert result.rank + result.nullity == cols
    assert result.kernel.shape == (result.nullity, cols)
    for vector in result.kernel:
        assert not ((matrix @ vector.astype(np.int64)) % p).any()
    if result.nullity:  # the kernel basis is independent
        assert rank_gfp(result.kernel, p) == result.nullity
    if result.particular is not None:
        assert ((matrix @ result.particular.astype(np.int64) - rhs) % p == 0).all()
    assert result.rank == rank_gfp(matrix, p) <= min(rows, cols)


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the second under `slow`
def test_solution_and_kernel_satisfy_the_system(examples):
    @settings(max_examples=examples)
    @given(systems())
    def check(system):
        matrix, rhs, p = system
        _check_solution_set(matrix, rhs, p, _solve(matrix, rhs, p))
    check()


@given(systems(max_rows=5, max_cols=5))
def test_agrees_with_brute_force(system):
    matrix, rhs, p = system
    cols = matrix.shape[1]
    result = _solve(matrix, rhs, p)
    # Every x at once, one per row (up to 7^5 of them: one product each took seconds).
    every = np.array(list(itertools.product(range(p), repeat=cols)), dtype=np.int64)
    images = every @ matrix.T
    solutions = {tuple(x) for x in every[((images - rhs) % p == 0).all(axis=1)].tolist()}
    kernel = every[(images % p == 0).all(axis=1)]
    assert len(kernel) == p ** result.nullity
    assert (result.particular is None) == (not solutions)
    if solutions:
        assert len(solutions) == p ** result.nullity
        assert tuple(result.particular.tolist()) in solutions


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the second under `slow`
def test_gf2_and_generic_gfp_agree_at_p_2(examples):
    @settings(max_examples=examples)
    @given(systems(primes=(2,)))
    def check(system):
        matrix, rhs, _ = system
        packed, generic = solve_gf2(matrix, rhs), solve_gfp(matrix, rhs, 2)
        assert packed.rank == generic.rank
        if packed.particular is None:
            assert generic.particular is None
        else:
            assert np.array_equal(packed.particular, generic.particular)
        assert np.array_equal(packed.kernel, generic.kernel)  # both: one vector per free column
    check()


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the second under `slow`
def test_wide_packed_systems(examples):
    """Rows spanning several 64-bit words, built to be consistent or not on purpose."""
    @settings(max_examples=examples)
    @given(st.integers(0, 2**32 - 1), st.integers(1, 60), st.integers(60, 200), st.booleans())
    def check(seed, rows, cols, consistent):
        rng = np.random.default_rng(seed)
        matrix = (rng.random((rows, cols)) < 0.3).astype(np.uint8)
        matrix[-1] = 0  # a zero row: b there decides consistency
        hidden = rng.integers(0, 2, cols)
        rhs = (matrix.astype(np.int64) @ hidden) % 2
        rhs[-1] = 0 if consistent else 1
        result = solve_gf2(matrix, rhs)
        assert (result.particular is not None) == consistent
        _check_solution_set(matrix.astype(np.int64), rhs, 2, result)
    check()


def test_inconsistent_systems_return_none():
    assert solve_gf2([[1, 1], [1, 1]], [0, 1]).particular is None
    assert solve_gfp([[1, 2], [2, 4]], [1, 1], 3).particular is None
    assert solve_gfp([[1, 2], [2, 4]], [1, 2], 3).particular is not None
    assert solve_gfp([[3, 1]], [2], 5).nullity == 1


def test_counts_pivot_operations():
    # Column 0 has a 1 in all three rows: two rows are reduced by the first pivot.
    result = solve_gf2([[1, 0, 0], [1, 1, 0], [1, 0, 1]], [0, 0, 0])
    assert result.rank == 3 and result.pivots == 2
    assert solve_gf2([[1, 0], [0, 1]]).pivots == 0


def test_augmented_input_is_not_modified():
    packed = pack_rows([[1, 1, 1], [1, 0, 1]], 3)
    before = packed.copy()
    result = solve_gf2_augmented(packed, 2)
    assert np.array_equal(packed, before)
    assert result.particular.tolist() == [1, 0]


def _bits(row: bytes, width: int) -> list[int]:
    """The first `width` bits of `row`, lowest bit of each byte first: a row drawn as
    bytes, which hypothesis draws in one step (one step per bit took it seconds)."""
    return np.unpackbits(np.frombuffer(row, dtype=np.uint8), bitorder="little")[:width].tolist()


@given(st.lists(st.binary(min_size=17, max_size=17), min_size=1, max_size=4))
def test_pack_round_trip(rows):
    matrix = np.array([_bits(row, 130) for row in rows], dtype=np.uint8)
    assert np.array_equal(unpack_rows(pack_rows(matrix), 130), matrix)


@given(st.lists(st.tuples(st.integers(1, 200), st.binary(min_size=25, max_size=25)),
                min_size=1, max_size=6))
def test_row_parity(rows):
    bits = [_bits(row, length) for length, row in rows]
    width = max(map(len, bits))
    matrix = np.array([row + [0] * (width - len(row)) for row in bits], dtype=np.uint8)
    assert row_parity(pack_rows(matrix)).tolist() == (matrix.sum(axis=1) % 2).tolist()


def test_rank_and_bad_input():
    assert rank_gf2([[1, 1], [1, 1]]) == 1
    assert rank_gfp([[1, 1], [1, 2]], 3) == 2
    with pytest.raises(ValueError):
        solve_gfp([[1]], [1], 4)
    with pytest.raises(ValueError):
        solve_gf2([1, 0, 1], [1])
