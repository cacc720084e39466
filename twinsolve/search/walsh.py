"""The unnormalised Walsh-Hadamard transform of integer rows, exactly.

For a row f of length 2^s the transform is W(z) = sum_u f(u) (-1)^|u & z|
for every z (|.| the number of one bits): s butterfly steps, each turning a
pair (a, b) into (a + b, a - b). The coset search (`coset_min`) spends
nearly all its time here, so two implementations give the same integers:

- `fht_cpu` (a SIMD C++ kernel, PyPI `fht-cpu`), about twelve times faster
  than numpy on 2^18 values, on float32 rows: exact while every partial sum
  stays below 2^24 in size, which `row_dtype` guarantees from a bound on
  the sum of |f| (float64 beyond it, exact below 2^53). It is used when it
  imports and transforms a test row exactly; it does not exist for every
  platform (Linux wheels only), hence:
- numpy butterflies on int16 / int32 rows, the high index bits first, then
  a transpose so the low bits are stepped on long contiguous pieces too.

`FAST` says which one runs.
"""

from __future__ import annotations

import numpy as np

__all__ = ["walsh_hadamard", "transform_rows", "row_dtype", "FAST"]

_FLOAT32_EXACT = 1 << 24
_INT16_LIMIT = 32767


def _butterflies(values: np.ndarray, low_bit: int, high_bit: int) -> None:
    """In place: the Walsh-Hadamard steps for index bits low_bit..high_bit-1."""
    for bit in range(low_bit, high_bit):
        pairs = values.reshape(-1, 2, 1 << bit)
        low, high = pairs[:, 0, :], pairs[:, 1, :]
        low += high       # a + b
        high *= -2
        high += low       # (a + b) - 2b = a - b


def walsh_hadamard(values: np.ndarray) -> np.ndarray:
    """The transform of one integer row of length 2^s, by numpy butterflies.

    Steps on low index bits touch tiny strided pieces and are slow in numpy,
    so the high bits go first, the array is transposed (low bits become
    high), the rest follow, and it is transposed back.

    >>> walsh_hadamard(np.array([0, 1, 0, 0])).tolist()
    [1, -1, 1, -1]
    """
    bits = values.size.bit_length() - 1
    split = bits // 2
    _butterflies(values, split, bits)
    turned = np.ascontiguousarray(values.reshape(1 << (bits - split), 1 << split).T).reshape(-1)
    _butterflies(turned, bits - split, bits)
    return np.ascontiguousarray(turned.reshape(1 << split, 1 << (bits - split)).T).reshape(-1)


def _load_fast():
    """fht_cpu's transform, if it imports and is exact on a test row; else None."""
    try:
        from fht_cpu import fht
    except ImportError:
        return None
    rng = np.random.default_rng(0)
    row = rng.integers(-3, 4, 1 << 12)
    expected = walsh_hadamard(row.astype(np.int64))
    try:
        got = fht(row.astype(np.float32)[None, :].copy(), axis=-1, num_threads=1)[0]
    except (TypeError, ValueError, RuntimeError):
        return None
    return fht if np.array_equal(got.astype(np.int64), expected) else None


_fht = _load_fast()
FAST = _fht is not None


def row_dtype(total: int) -> np.dtype:
    """The row type that holds every partial sum exactly when sum |f| <= `total`."""
    if FAST:
        return np.dtype(np.float32 if total < _FLOAT32_EXACT else np.float64)
    return np.dtype(np.int16 if total <= _INT16_LIMIT else np.int32)


def transform_rows(rows: np.ndarray) -> np.ndarray:
    """The transform of each row of a (rows, 2^s) array of `row_dtype` (in place or new)."""
    if _fht is not None and rows.dtype.kind == "f":
        return _fht(np.ascontiguousarray(rows), axis=-1, num_threads=1)
    for i in range(rows.shape[0]):
        rows[i] = walsh_hadamard(rows[i])
    return rows
