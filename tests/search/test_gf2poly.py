"""GF(2) polynomials as ints: checked against a naive list-of-coefficients implementation."""

from __future__ import annotations

import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search.gf2poly import (
    chebyshev,
    chebyshev_combination,
    degree,
    divide,
    evaluate,
    extended_gcd,
    gcd,
    multiply,
    remainder,
)

polys = st.integers(0, (1 << 160) - 1)
nonzero = st.integers(1, (1 << 120) - 1)


# ---------------------------------------------------------------- the naive oracle

def _coefficients(a: int) -> list[int]:
    return [(a >> i) & 1 for i in range(a.bit_length())]


def _value(coefficients: list[int]) -> int:
    return sum(bit << i for i, bit in enumerate(coefficients))


def _naive_multiply(a: int, b: int) -> int:
    x, y = _coefficients(a), _coefficients(b)
    product = [0] * max(0, len(x) + len(y) - 1)
    for i, p in enumerate(x):
        for j, q in enumerate(y):
            product[i + j] = (product[i + j] + p * q) % 2
    return _value(product)


def _naive_divide(a: int, b: int) -> tuple[int, int]:
    rest, divisor = _coefficients(a), _coefficients(b)
    quotient = [0] * max(1, len(rest) - len(divisor) + 1)
    for top in range(len(rest) - 1, len(divisor) - 2, -1):
        if rest[top]:
            shift = top - (len(divisor) - 1)
            quotient[shift] = 1
            for i, bit in enumerate(divisor):
                rest[i + shift] = (rest[i + shift] + bit) % 2
    return _value(quotient), _value(rest)


def _naive_gcd(a: int, b: int) -> int:
    while b:
        a, b = b, _naive_divide(a, b)[1]
    return a


def _naive_chebyshev(n: int) -> list[int]:
    """f_n as coefficients, from the recurrence f_{k+1} = t f_k + f_{k-1} on lists."""
    previous, current = [0], [1]
    for _ in range(n):
        shifted = [0] + current
        padded = previous + [0] * (len(shifted) - len(previous))
        previous, current = current, [(x + y) % 2 for x, y in zip(shifted, padded, strict=True)]
    return current


def _naive_compose_plus_one(coefficients: list[int]) -> int:
    """p(t + 1) by expanding each (t + 1)^k with the naive product."""
    total, power = 0, 1
    for bit in coefficients:
        if bit:
            total ^= power
        power = _naive_multiply(power, 0b11)
    return total


# ---------------------------------------------------------------- unit tests

def test_small_products_and_quotients():
    assert multiply(0b11, 0b11) == 0b101          # (t + 1)^2 = t^2 + 1
    assert multiply(0b111, 0b111) == 0b10101      # (t^2 + t + 1)^2 = t^4 + t^2 + 1
    assert multiply(0, 0b1011) == 0 and multiply(1, 0b1011) == 0b1011
    assert divide(0b10101, 0b111) == (0b111, 0)
    assert divide(0b1000, 0b11) == (0b111, 1)     # t^3 = (t^2 + t + 1)(t + 1) + 1
    assert divide(0b11, 0b1000) == (0, 0b11)
    assert remainder(0b1011, 0b1011) == 0
    assert [degree(a) for a in (0, 1, 2, 0b1011)] == [-1, 0, 1, 3]


def test_division_by_zero_is_refused():
    with pytest.raises(ZeroDivisionError):
        divide(0b101, 0)


def test_gcd_edge_cases():
    assert gcd(0, 0) == 0
    assert gcd(0b1011, 0) == 0b1011 and gcd(0, 0b1011) == 0b1011
    assert gcd(0b101, 0b11) == 0b11               # t^2 + 1 = (t + 1)^2
    assert extended_gcd(0, 0b110) == (0b110, 0, 1)
    assert extended_gcd(0b110, 0) == (0b110, 1, 0)


def test_chebyshev_first_terms_and_the_shift():
    # f_0 .. f_5 over GF(2): 1, t, t^2 + 1, t^3, t^4 + t^2 + 1, t^5 + t
    assert [chebyshev(k) for k in range(6)] == [1, 0b10, 0b101, 0b1000, 0b10101, 0b100010]
    assert chebyshev(2, shift=1) == 0b100                # (t + 1)^2 + 1 = t^2
    # The OEIS A159257 example: f_5(t) = t (t + 1)^4, f_5(t + 1) = t^4 (t + 1), gcd t (t + 1).
    assert chebyshev(5) == multiply(0b10, 0b10001)
    assert chebyshev(5, shift=1) == multiply(0b10000, 0b11)
    assert gcd(chebyshev(5), chebyshev(5, shift=1)) == 0b110
    with pytest.raises(ValueError):
        chebyshev(3, shift=2)


def test_evaluate_applies_a_polynomial_of_a_map():
    def cycle(v: int) -> int:  # M: rotate a 3-bit register; M^3 = 1
        return ((v << 1) | (v >> 2)) & 0b111
    assert evaluate(0b1000, cycle, 0b001) == 0b001   # M^3 e_0 = e_0
    assert evaluate(0b110, cycle, 0b001) == 0b110    # (M^2 + M) e_0 = e_2 + e_1
    assert evaluate(0, cycle, 0b101) == 0


# ---------------------------------------------------------------- against the oracle

@given(polys, polys)
def test_multiply_matches_naive(a, b):
    assert multiply(a, b) == _naive_multiply(a, b) == multiply(b, a)


@given(polys, nonzero)
def test_divide_matches_naive_and_reconstructs(a, b):
    quotient, rest = divide(a, b)
    assert (quotient, rest) == _naive_divide(a, b)
    assert multiply(quotient, b) ^ rest == a and degree(rest) < degree(b)


@given(polys, polys)
def test_gcd_matches_naive(a, b):
    assert gcd(a, b) == _naive_gcd(a, b)


@given(polys, polys, st.integers(1, (1 << 40) - 1))
def test_extended_gcd_identity(a, b, common):
    # A shared factor makes the gcd non-trivial more often than random pairs would.
    a, b = multiply(a, common), multiply(b, common)
    g, s, x = extended_gcd(a, b)
    assert g == _naive_gcd(a, b)
    assert multiply(s, a) ^ multiply(x, b) == g
    if g:
        assert remainder(a, g) == 0 and remainder(b, g) == 0


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the second under `slow`
def test_chebyshev_matches_the_recurrence_and_reduces(examples):
    @settings(max_examples=examples)
    @given(st.integers(0, 120), st.integers(1, (1 << 60) - 1))
    def check(n, modulus):
        plain = chebyshev(n)
        assert plain == _value(_naive_chebyshev(n))
        shifted = chebyshev(n, shift=1)
        assert shifted == _naive_compose_plus_one(_naive_chebyshev(n))
        assert chebyshev(n, modulus=modulus) == remainder(plain, modulus)
        assert chebyshev(n, shift=1, modulus=modulus) == remainder(shifted, modulus)
    check()


@given(st.integers(0, (1 << 90) - 1), st.sampled_from((0, 1)))
def test_chebyshev_combination_is_the_sum_of_the_family(coefficients, shift):
    expected = 0
    for k in range(coefficients.bit_length()):
        if coefficients >> k & 1:
            expected ^= chebyshev(k, shift=shift)
    assert chebyshev_combination(coefficients, shift) == expected


@given(st.lists(st.integers(0, 255), min_size=8, max_size=8), st.integers(0, (1 << 40) - 1),
       st.integers(0, 255))
def test_evaluate_matches_summed_matrix_powers(columns, polynomial, vector):
    """M given by its 8 columns (bytes); p(M) v = sum of p_k M^k v, powers applied one by one."""
    def apply(v: int) -> int:
        out = 0
        for j, column in enumerate(columns):
            if v >> j & 1:
                out ^= column
        return out

    expected = 0
    for k in range(polynomial.bit_length()):
        if polynomial >> k & 1:
            power = vector
            for _ in range(k):
                power = apply(power)
            expected ^= power
    assert evaluate(polynomial, apply, vector) == expected
