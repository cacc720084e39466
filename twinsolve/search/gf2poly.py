"""Polynomials over GF(2) as Python integers: products, division, Euclid, Chebyshev.

A polynomial a(t) = sum a_i t^i with coefficients in GF(2) is the Python int
whose bit i is a_i: t^3 + t + 1 is 0b1011, the zero polynomial is 0 (degree
-1). Adding is XOR and multiplying by t^k is a left shift, and CPython's big
integers do both a machine word at a time, so a polynomial of degree 10^5 is
a 12.5 kB integer and one shift-and-XOR step on it costs microseconds.

- `multiply`: the carry-less product, one shifted copy per set bit of the
  shorter factor.
- `divide` / `remainder`: long division, one shift-and-XOR per quotient bit.
- `gcd` / `extended_gcd`: Euclid's algorithm. The extended form reduces step
  by step (each step XORs a shifted divisor into the dividend and the same
  shifted cofactors into its cofactors), so the whole run costs at most
  deg a + deg b shift-and-XORs of each of the three, O(n^2 / 64) word
  operations for degree n.
- `chebyshev`: the family f_0 = 1, f_1 = t + c, f_{k+1} = (t + c) f_k + f_{k-1}
  (c = 0 or 1), i.e. U_k((t + c) / 2) for the Chebyshev polynomials U of the
  second kind, reduced over GF(2); optionally reduced modulo a polynomial as
  it goes, so f_n mod g costs n steps on integers no longer than g.
- `chebyshev_combination`: sum_k b_k f_k for the bits b_k of an integer, by
  Clenshaw's recurrence (from the top: s_k = b_k + t s_{k+1} + s_{k+2}).
- `evaluate`: p(M) v for a linear map M on bit vectors (ints), given as a
  function v -> M v, by Horner's rule: deg p applications of M.

>>> multiply(0b11, 0b11)  # (t + 1)^2 = t^2 + 1
5
>>> divide(0b10101, 0b111)  # t^4 + t^2 + 1 = (t^2 + t + 1)^2
(7, 0)
>>> gcd(chebyshev(5), chebyshev(5, shift=1))  # t (t + 1): A159257(5) = 2
6

References: D. E. Knuth, TAOCP vol. 2, section 4.6 (polynomial arithmetic
and Euclid's algorithm over a field); for Clenshaw's recurrence, any
numerical analysis text.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["degree", "multiply", "divide", "remainder", "gcd", "extended_gcd", "chebyshev",
           "chebyshev_combination", "evaluate"]


def degree(a: int) -> int:
    """The degree of `a`; -1 for the zero polynomial.

    >>> degree(0b1011), degree(1), degree(0)
    (3, 0, -1)
    """
    return a.bit_length() - 1


def multiply(a: int, b: int) -> int:
    """The product a(t) b(t) over GF(2) (carry-less multiplication)."""
    if a.bit_count() < b.bit_count():
        a, b = b, a
    product = 0
    for position, bit in enumerate(reversed(bin(b)[2:])):
        if bit == "1":
            product ^= a << position
    return product


def divide(a: int, b: int) -> tuple[int, int]:
    """(quotient, remainder) of a(t) by b(t) != 0: a = quotient * b + remainder, deg r < deg b."""
    if b == 0:
        raise ZeroDivisionError("polynomial division by zero")
    width = b.bit_length()
    quotient = 0
    while (shift := a.bit_length() - width) >= 0:
        quotient |= 1 << shift
        a ^= b << shift
    return quotient, a


def remainder(a: int, b: int) -> int:
    """a(t) mod b(t), for b != 0."""
    return divide(a, b)[1]


def gcd(a: int, b: int) -> int:
    """The greatest common divisor of a(t) and b(t) (monic, as every non-zero one is over
    GF(2)); gcd(0, 0) = 0."""
    while b:
        a, b = b, remainder(a, b)
    return a


def extended_gcd(a: int, b: int) -> tuple[int, int, int]:
    """(g, s, x) with s a + x b = g = gcd(a, b), from Euclid's algorithm step by step.

    Two rows (r, s, x) with r = s a + x b start as (a, 1, 0) and (b, 0, 1);
    adding a shifted copy of one row to the other keeps the identity, and
    each such step lowers the degree of r, as Euclid's division does.

    >>> extended_gcd(0b110, 0b11)  # t^2 + t = t (t + 1): gcd t + 1 = 0 * a + 1 * b
    (3, 0, 1)
    """
    # The rows (r0, s0, x0) and (r1, s1, x1): a = 1 a + 0 b and b = 0 a + 1 b.
    r0, s0, x0, r1, s1, x1 = a, 1, 0, b, 0, 1
    while r1:
        width = r1.bit_length()
        while (shift := r0.bit_length() - width) >= 0:
            r0 ^= r1 << shift
            s0 ^= s1 << shift
            x0 ^= x1 << shift
        r0, s0, x0, r1, s1, x1 = r1, s1, x1, r0, s0, x0
    return r0, s0, x0


def chebyshev(n: int, shift: int = 0, modulus: int = 0) -> int:
    """f_n of the family f_0 = 1, f_1 = t + shift, f_{k+1} = (t + shift) f_k + f_{k-1}.

    `shift` is 0 or 1. With a non-zero `modulus` the result is f_n mod modulus,
    every step reduced (a step raises the degree by at most one, so one XOR
    of the modulus reduces it).

    >>> [bin(chebyshev(k)) for k in range(5)]  # 1, t, t^2 + 1, t^3, t^4 + t^2 + 1
    ['0b1', '0b10', '0b101', '0b1000', '0b10101']
    >>> chebyshev(2, shift=1)  # (t + 1)^2 + 1 = t^2
    4
    """
    if shift not in (0, 1):
        raise ValueError(f"shift must be 0 or 1, got {shift}")
    previous, current = 0, remainder(1, modulus) if modulus else 1
    width = modulus.bit_length()
    for _ in range(n):
        following = (current << 1) ^ (current if shift else 0) ^ previous
        if modulus and following.bit_length() == width:
            following ^= modulus
        previous, current = current, following
    return current


def chebyshev_combination(coefficients: int, shift: int = 0) -> int:
    """sum_k b_k f_k(t) for the bits b_k of `coefficients` (f as in `chebyshev`).

    Clenshaw's recurrence from the top coefficient down: s_k = b_k + (t +
    shift) s_{k+1} + s_{k+2}; the sum is s_0 (because f_1 = (t + shift) f_0).

    >>> chebyshev_combination(0b1010) == chebyshev(3) ^ chebyshev(1)
    True
    """
    if shift not in (0, 1):
        raise ValueError(f"shift must be 0 or 1, got {shift}")
    upper, above = 0, 0  # s_{k+1}, s_{k+2}
    for bit in bin(coefficients)[2:]:  # the top coefficient first
        upper, above = (upper << 1) ^ (upper if shift else 0) ^ above ^ (bit == "1"), upper
    return upper


def evaluate(polynomial: int, apply: Callable[[int], int], vector: int) -> int:
    """p(M) v over GF(2), where `apply(v)` is M v on bit vectors: Horner's rule.

    >>> shift_up = lambda v: (v << 1) & 0b1111  # M: the shift down a 4-bit register
    >>> evaluate(0b101, shift_up, 0b0001)  # (M^2 + 1) e_0 = e_2 + e_0
    5
    """
    result = 0
    for bit in bin(polynomial)[2:]:  # the top coefficient first
        result = apply(result)
        if bit == "1":
            result ^= vector
    return result
