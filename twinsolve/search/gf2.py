"""Linear algebra over GF(2) and GF(p): rank, one solution, and the kernel.

Solve A x = b over the field of p elements (p prime, in practice 2, 3, 5 or
7) by Gauss-Jordan elimination to reduced row echelon form. What comes back
(`LinearSolution`) is everything a caller needs about the whole solution set
{x : A x = b}: the `rank` of A, one `particular` solution (the free
variables set to 0) or None when the system is inconsistent, and a `kernel`
basis, one vector per free column (that free variable 1, the others 0), so
every solution is particular + a combination of kernel rows, and
rank + nullity = number of columns.

GF(2) rows are bit-packed: column j is bit j % 64 of 64-bit word j // 64, and
the right-hand side rides along as bit `ncols` of the same row (an augmented
row). One pivot step is then a handful of numpy operations on whole words:
find the rows holding a 1 in the pivot column and XOR the pivot row into all
of them at once. GF(p) rows are small integer arrays and a pivot step
subtracts a multiple of the (normalised) pivot row from every row that has a
non-zero entry in the pivot column.

`pivots` counts elimination pivot operations: one per row reduced by a pivot
row (swaps are free). Callers report it as search effort.

>>> result = solve_gf2([[1, 1, 0], [0, 1, 1]], [1, 0])
>>> result.rank, result.nullity, result.particular.tolist(), result.kernel.tolist()
(2, 1, [1, 0, 0], [[1, 1, 1]])
>>> solve_gfp([[1, 2], [2, 4]], [1, 1], 3).particular is None
True

Reference: any linear algebra text; the packed-row trick is the one used by
M4RI-style GF(2) libraries, without their "four Russians" tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.time_limit import checkpoint

__all__ = [
    "LinearSolution", "solve_gf2", "solve_gf2_augmented", "solve_gfp", "rank_gf2",
    "rank_gfp", "pack_rows", "unpack_rows", "words_for", "WORD_BITS",
    "row_parity",
]

WORD_BITS = 64
_WORD = np.dtype("<u8")  # little-endian, so a row's bytes unpack in column order


@dataclass(frozen=True)
class LinearSolution:
    """The solution set of A x = b over GF(`modulus`).

    `particular` is one solution (a vector of length `ncols`, dtype uint8) or
    None when there is none; `kernel` has shape (nullity, ncols), its rows a
    basis of {v : A v = 0}; `pivots` counts elimination pivot operations.
    """

    modulus: int
    ncols: int
    rank: int
    particular: np.ndarray | None
    kernel: np.ndarray
    pivots: int
    pivot_columns: tuple[int, ...]

    @property
    def nullity(self) -> int:
        return self.ncols - self.rank

    @property
    def consistent(self) -> bool:
        return self.particular is not None


# ---------------------------------------------------------------- packing

def words_for(bits: int) -> int:
    """How many 64-bit words hold `bits` bits."""
    return max(1, -(-bits // WORD_BITS))


def pack_rows(matrix: np.ndarray | Sequence[Sequence[int]], width: int | None = None) -> np.ndarray:
    """A 0/1 matrix (m, n) as packed words (m, words_for(width or n))."""
    bits = np.asarray(matrix, dtype=np.uint8) & 1
    if bits.ndim == 1:
        bits = bits[None, :]
    width = bits.shape[1] if width is None else width
    words = words_for(width)
    padded = np.zeros((bits.shape[0], words * WORD_BITS), dtype=np.uint8)
    padded[:, :bits.shape[1]] = bits
    return np.packbits(padded, axis=1, bitorder="little").view(_WORD).astype(np.uint64)


def unpack_rows(packed: np.ndarray, width: int) -> np.ndarray:
    """Packed words (m, w) back to a 0/1 uint8 matrix (m, width)."""
    packed = np.ascontiguousarray(packed, dtype=_WORD)
    if packed.ndim == 1:
        packed = packed[None, :]
    bits = np.unpackbits(packed.view(np.uint8), axis=1, bitorder="little")
    return bits[:, :width]


def row_parity(packed: np.ndarray) -> np.ndarray:
    """The XOR of all bits of each row of packed words, as uint8 (m,)."""
    folded = np.bitwise_xor.reduce(np.asarray(packed, dtype=np.uint64), axis=-1)
    for shift in (32, 16, 8, 4, 2, 1):
        folded ^= folded >> np.uint64(shift)
    return (folded & np.uint64(1)).astype(np.uint8)


def _column_bits(packed: np.ndarray, column: int) -> np.ndarray:
    word, bit = divmod(column, WORD_BITS)
    return (packed[:, word] >> np.uint64(bit)) & np.uint64(1)


def _as_matrix(matrix: np.ndarray | Sequence[Sequence[int]], dtype: type) -> np.ndarray:
    values = np.asarray(matrix, dtype=dtype)
    if values.ndim != 2:
        raise ValueError(f"expected a 2-D matrix, got shape {values.shape}")
    return values


# ---------------------------------------------------------------- GF(2)

def _eliminate_gf2(aug: np.ndarray, ncols: int) -> tuple[int, list[int], int]:
    """Reduce packed augmented rows in place to RREF; returns (rank, pivot columns, pivots)."""
    rows = aug.shape[0]
    rank, pivots = 0, 0
    pivot_columns: list[int] = []
    for column in range(ncols):
        # A first answer depends on it (Lights Out): it may use the limit's grace.
        checkpoint(grace=True)  # one numpy pass over the matrix per column: free
        if rank == rows:
            break
        word = column // WORD_BITS
        below = np.flatnonzero(_column_bits(aug[rank:], column))
        if below.size == 0:
            continue
        chosen = rank + int(below[0])
        if chosen != rank:
            aug[[rank, chosen]] = aug[[chosen, rank]]
        # Why only words >= word: the pivot row is 0 left of its pivot column.
        hits = np.flatnonzero(_column_bits(aug, column))
        hits = hits[hits != rank]
        if hits.size:
            aug[hits, word:] ^= aug[rank, word:]
            pivots += int(hits.size)
        pivot_columns.append(column)
        rank += 1
    return rank, pivot_columns, pivots


def _read_gf2(aug: np.ndarray, ncols: int, rank: int, pivot_columns: list[int],
              pivots: int) -> LinearSolution:
    """Particular solution and kernel basis from a reduced augmented matrix."""
    inconsistent = bool(_column_bits(aug[rank:], ncols).any())
    reduced = unpack_rows(aug[:rank], ncols + 1) if rank else np.zeros((0, ncols + 1), np.uint8)
    particular = None
    if not inconsistent:
        particular = np.zeros(ncols, dtype=np.uint8)
        particular[pivot_columns] = reduced[:, ncols]
    free = np.setdiff1d(np.arange(ncols), pivot_columns)
    kernel = np.zeros((free.size, ncols), dtype=np.uint8)
    kernel[np.arange(free.size), free] = 1
    if rank:
        # Free variable f = 1 forces pivot variable i to the entry of row i in column f.
        kernel[:, pivot_columns] = reduced[:, free].T
    return LinearSolution(2, ncols, rank, particular, kernel, pivots, tuple(pivot_columns))


def solve_gf2_augmented(packed: np.ndarray, ncols: int) -> LinearSolution:
    """Solve bit-packed augmented rows: bits 0..ncols-1 are A, bit `ncols` is b.

    The input is not modified.
    """
    aug = np.array(packed, dtype=np.uint64, copy=True, ndmin=2)
    if aug.shape[1] < words_for(ncols + 1):
        raise ValueError(f"{aug.shape[1]} words cannot hold {ncols} columns plus b")
    rank, pivot_columns, pivots = _eliminate_gf2(aug, ncols)
    return _read_gf2(aug, ncols, rank, pivot_columns, pivots)


def solve_gf2(matrix: np.ndarray | Sequence[Sequence[int]],
              rhs: np.ndarray | Sequence[int] | None = None) -> LinearSolution:
    """Solve A x = b over GF(2) for a 0/1 matrix A (m, n); b defaults to 0."""
    bits = _as_matrix(matrix, np.uint8) & 1
    rows, ncols = bits.shape
    right = np.zeros(rows, np.uint8) if rhs is None else np.asarray(rhs, np.uint8) & 1
    return solve_gf2_augmented(pack_rows(np.column_stack([bits, right]), ncols + 1), ncols)


def rank_gf2(matrix: np.ndarray | Sequence[Sequence[int]]) -> int:
    """The rank over GF(2) of a 0/1 matrix."""
    return solve_gf2(matrix).rank


# ---------------------------------------------------------------- GF(p)

def _eliminate_gfp(aug: np.ndarray, ncols: int, modulus: int) -> tuple[int, list[int], int]:
    rows = aug.shape[0]
    rank, pivots = 0, 0
    pivot_columns: list[int] = []
    for column in range(ncols):
        checkpoint(grace=True)
        if rank == rows:
            break
        below = np.flatnonzero(aug[rank:, column])
        if below.size == 0:
            continue
        chosen = rank + int(below[0])
        if chosen != rank:
            aug[[rank, chosen]] = aug[[chosen, rank]]
        inverse = pow(int(aug[rank, column]), -1, modulus)
        aug[rank] = (aug[rank] * inverse) % modulus
        hits = np.flatnonzero(aug[:, column])
        hits = hits[hits != rank]
        if hits.size:
            factors = aug[hits, column][:, None]
            aug[hits, column:] = (aug[hits, column:] - factors * aug[rank, column:]) % modulus
            pivots += int(hits.size)
        pivot_columns.append(column)
        rank += 1
    return rank, pivot_columns, pivots


def solve_gfp(matrix: np.ndarray | Sequence[Sequence[int]],
              rhs: np.ndarray | Sequence[int] | None, modulus: int) -> LinearSolution:
    """Solve A x = b over GF(p), p = `modulus` prime; b = None means 0.

    Entries may be any integers; they are reduced mod p first.
    """
    if modulus < 2 or any(modulus % d == 0 for d in range(2, int(modulus ** 0.5) + 1)):
        raise ValueError(f"modulus {modulus} is not a prime")
    values = _as_matrix(matrix, np.int64)
    rows, ncols = values.shape
    right = np.zeros(rows, np.int64) if rhs is None else np.asarray(rhs, np.int64)
    aug = np.column_stack([values, right]) % modulus
    rank, pivot_columns, pivots = _eliminate_gfp(aug, ncols, modulus)
    inconsistent = bool(aug[rank:, ncols].any())
    particular = None
    if not inconsistent:
        particular = np.zeros(ncols, dtype=np.uint8)
        particular[pivot_columns] = aug[:rank, ncols]
    free = np.setdiff1d(np.arange(ncols), pivot_columns)
    kernel = np.zeros((free.size, ncols), dtype=np.uint8)
    kernel[np.arange(free.size), free] = 1
    if rank:
        kernel[:, pivot_columns] = ((-aug[:rank][:, free]) % modulus).T
    return LinearSolution(modulus, ncols, rank, particular, kernel, pivots, tuple(pivot_columns))


def rank_gfp(matrix: np.ndarray | Sequence[Sequence[int]], modulus: int) -> int:
    """The rank over GF(p) of an integer matrix."""
    return solve_gfp(matrix, None, modulus).rank
