"""The fewest non-zero digits in an affine space: exhaustive, exact, orbit-reduced.

The problem. Given cell digits p (a vector over GF(K), one digit per cell)
and D kernel vectors k_1..k_D, find the member m = p + sum y_i k_i with the
fewest non-zero digits (over GF(2): the fewest ones), and count how many
members reach it. It is the coset-leader problem of coding theory (NP-hard
in general), here with D small (up to about 40) and many cells: Lights
Out's fewest presses, where the members are every solution of a board.

The input is one row per cell: over GF(2) bit-packed words with bit 0 the
particular digit and bit 1 + i the digit of kernel vector i (the layout
`twinsolve.search.gf2.pack_rows` writes); over GF(p) a digit matrix with
column 0 the particular and column 1 + i kernel i.

GF(2), `fewest_ones`. The weight of every member at once is
(N - W(y)) / 2, W the Walsh-Hadamard transform of g(u) = sum over the cells
whose kernel pattern is u of (-1)^p. The coordinates y are split into a
tail of at most 2^TAIL_BITS members per transform (a chunk) and a head
walked member by member. Three things keep the walk short:

- Symmetry. A group of cell permutations that maps the space onto itself
  (the rotations and reflections of a square all-on Lights Out board) acts
  on the coordinates y affinely, and it preserves every weight. The tail is
  chosen invariant under the group (spanned by whole orbits), so the group
  permutes the chunks, and only one chunk per orbit is transformed: the head
  whose images are all no smaller. Its ties count once per chunk of its
  orbit (|group| / |stabiliser|). On a square board that is up to 8 times
  less work.
- A first bound from the symmetric members. The members fixed by one group
  element form a smaller affine space (on the all-on n x n board, the
  members symmetric under a half turn: half the dimension); searching each
  of those first usually finds the optimum itself, or comes close, before
  the main walk starts.
- A bound per chunk, before its transform: cells the tail cannot change
  count their ones exactly, and cells the tail changes together (the same
  tail pattern) count at least min(ones, zeros). A chunk whose bound
  exceeds the best so far is skipped; one that only equals it is
  transformed, for its ties.

GF(p), `fewest_digits`: the cells are grouped by (particular digit, kernel
digits); a table of all tail digit combinations is added to each head, the
head bounded first by the cells the tail cannot change.

Both stop at the deadline or node limit of their `Effort` (the engine's one
`Poller`, read once per chunk) with the best so far, and report whether
every member was examined or pruned. `Best` carries the fewest digits, the
coordinates of a member reaching it and the ties counted.

References: F. J. MacWilliams and N. J. A. Sloane, The Theory of
Error-Correcting Codes (1977), ch. 1 (coset leaders) and ch. 14 (the
Hadamard transform as a decoder); the orbit trick is Burnside's lemma used
for enumeration: one representative per orbit, weighted by the orbit size.
"""

from __future__ import annotations

import itertools
import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.limits import Deadline, Poller
from .gf2 import LinearSolution, row_parity, solve_gf2, unpack_rows, words_for
from .walsh import row_dtype, transform_rows

__all__ = ["Effort", "Best", "fewest_ones", "fewest_digits", "TAIL_BITS", "TAIL_TABLE",
           "PRESEARCH_BITS", "HEAD_BLOCK", "BATCH"]

TAIL_BITS = 18          # GF(2): members per Walsh-Hadamard chunk = 2^TAIL_BITS (in cache)
BATCH = 16              # chunks bounded together, in one numpy pass
BATCH_CELLS = 1 << 20   # ... and at most this many cells' digits for the batch
TAIL_TABLE = 1 << 22    # GF(p): entries of the (tail combinations x cell groups) table
PRESEARCH_BITS = 40     # symmetric sub-spaces up to 2^40 members are searched first
HEAD_BLOCK = 1 << 12    # heads tested for being orbit representatives at once (and dealt out)


class Effort:
    """A search's effort under the engine's one `Poller`.

    `nodes` includes what the caller spent before (`spent`), `candidates`
    counts the members examined. Each batch of chunks is one block of the
    poller: the clock is read once per batch, pruned or not, and a batch
    that would pass the node limit is not started.
    """

    def __init__(self, deadline: Deadline, node_limit: int | None, spent: int) -> None:
        self.poller = Poller(node_limit, deadline)
        self.deadline, self.node_limit = deadline, node_limit
        self.nodes = spent
        self.candidates = 0

    def take(self, amount: int) -> bool:
        """Spend `amount` members (0: a pruned chunk) unless a limit stops the search."""
        if self.poller.spend(self.nodes, amount) is not None:
            return False
        self.nodes += amount
        self.candidates += amount
        return True


@dataclass
class Best:
    """The fewest digits seen, one member reaching it and how many members do.

    `choice` holds the member's coordinates y (None: the particular, y = 0);
    `ties == 0` means no member has been counted yet: `weight` is then only
    an upper bound (the particular's, or a symmetric member's).
    """

    weight: int
    choice: tuple[int, ...] | None
    ties: int = 0

    def record(self, weight: int, ties: int, choice: Callable[[], tuple[int, ...]]) -> None:
        """Keep `weight` (<= self.weight) reached by `ties` members, one given by `choice()`."""
        if self.ties == 0 or weight < self.weight:
            self.weight, self.choice, self.ties = weight, choice(), ties
        else:
            self.ties += ties


# ---------------------------------------------------------------- GF(2) maps on ints

def _bits(value: int, count: int) -> tuple[int, ...]:
    return tuple((value >> i) & 1 for i in range(count))


def _pack(bits: Iterable[int]) -> int:
    """The bit vector whose bit i is bits[i]: the inverse of `_bits`."""
    return sum(int(bit) << i for i, bit in enumerate(bits))


def _apply(columns: Sequence[int], vector: int) -> int:
    """The linear map whose column i is columns[i], applied to the bit vector `vector`."""
    image, i = 0, 0
    while vector:
        if vector & 1:
            image ^= columns[i]
        vector >>= 1
        i += 1
    return image


def _inverse(columns: Sequence[int]) -> list[int]:
    """The inverse of an invertible square map given by its columns (Gauss-Jordan)."""
    size = len(columns)
    rows = [sum(((columns[c] >> r) & 1) << c for c in range(size)) for r in range(size)]
    inverse = [1 << r for r in range(size)]
    for col in range(size):
        pivot = next(r for r in range(col, size) if (rows[r] >> col) & 1)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        inverse[col], inverse[pivot] = inverse[pivot], inverse[col]
        for r in range(size):
            if r != col and (rows[r] >> col) & 1:
                rows[r] ^= rows[col]
                inverse[r] ^= inverse[col]
    # inverse holds rows of the inverse matrix; return its columns
    return [sum(((inverse[r] >> c) & 1) << r for r in range(size)) for c in range(size)]


class _Span:
    """A subspace of bit vectors, kept as an XOR basis keyed by leading bit."""

    def __init__(self) -> None:
        self.basis: dict[int, int] = {}

    def reduce(self, vector: int) -> int:
        while vector:
            top = vector.bit_length() - 1
            if top not in self.basis:
                return vector
            vector ^= self.basis[top]
        return 0

    def add(self, vector: int) -> bool:
        vector = self.reduce(vector)
        if vector:
            self.basis[vector.bit_length() - 1] = vector
        return bool(vector)

    def __len__(self) -> int:
        return len(self.basis)

    def canonical(self) -> frozenset[int]:
        """The reduced echelon basis: the same set for every basis of the same subspace."""
        basis = dict(self.basis)
        for top in sorted(basis):
            for other in basis:
                if other != top and (basis[other] >> top) & 1:
                    basis[other] ^= basis[top]
        self.basis = basis
        return frozenset(basis.values())

    def representative(self, vector: int) -> int:
        """`vector` with every pivot bit cleared: the same for the whole coset (after
        `canonical`)."""
        for top, row in self.basis.items():
            if (vector >> top) & 1:
                vector ^= row
        return vector


def _solve_affine(columns: Sequence[int], target: int, size: int) -> tuple[int, list[int]] | None:
    """The solutions y of M y = target (M square, by columns): (one, kernel basis) or None."""
    matrix = np.array([_bits(c, size) for c in columns], dtype=np.uint8).T  # row r: bit r
    system: LinearSolution = solve_gf2(matrix, np.array(_bits(target, size), dtype=np.uint8))
    if system.particular is None:
        return None
    return _pack(system.particular), [_pack(row) for row in system.kernel]


# ---------------------------------------------------------------- the space and its group

class _Space:
    """Members p + sum y_i k_i over GF(2): per cell the digit p_c and the pattern k_c."""

    def __init__(self, particular: np.ndarray, patterns: np.ndarray, dimension: int) -> None:
        self.particular = particular          # (N,) uint8
        self.patterns = patterns              # (N, words) uint64: bit i = kernel i's digit
        self.dimension = dimension

    @classmethod
    def of_cells(cls, cells: np.ndarray, dimension: int) -> _Space:
        """From rows of words: bit 0 the particular, bit 1 + i kernel vector i."""
        cells = np.asarray(cells, dtype=np.uint64)
        particular = (cells[:, 0] & np.uint64(1)).astype(np.uint8)
        shifted = cells >> np.uint64(1)
        if cells.shape[1] > 1:  # the bit shifted out of each next word comes in at the top
            shifted[:, :-1] |= cells[:, 1:] << np.uint64(63)
        return cls(particular, shifted[:, :words_for(dimension)], dimension)

    @property
    def cells(self) -> int:
        return self.particular.size

    def words(self, vector: int) -> np.ndarray:
        count = self.patterns.shape[1]
        return np.array([(vector >> (64 * w)) & (2 ** 64 - 1) for w in range(count)],
                        dtype=np.uint64)

    def parities(self, vector: int) -> np.ndarray:
        """<k_c, vector> for every cell, as uint8."""
        return row_parity(self.patterns & self.words(vector))

    def values(self, vector: int) -> np.ndarray:
        """The member with coordinates `vector`, one digit per cell."""
        return self.particular ^ self.parities(vector)

    def coordinates(self, vectors: Sequence[int]) -> np.ndarray:
        """(N, len(vectors)) bits: cell c's digit in the direction of each vector."""
        out = np.zeros((self.cells, len(vectors)), dtype=np.uint8)
        for j, vector in enumerate(vectors):
            out[:, j] = self.parities(vector)
        return out

    def information_set(self) -> np.ndarray:
        """`dimension` cells whose patterns are independent (they fix a member)."""
        limit = 4096
        while True:  # the first few thousand cells nearly always hold one
            bits = unpack_rows(self.patterns[:limit], self.dimension)  # (cells, d)
            chosen = solve_gf2(bits.T).pivot_columns
            if len(chosen) == self.dimension or limit >= self.cells:
                return np.array(chosen, dtype=np.intp)
            limit *= 16

    def restricted(self, start: int, directions: Sequence[int]) -> _Space:
        """The sub-space start + span(directions), in the coordinates of `directions`."""
        bits = self.coordinates(directions)
        packed = np.packbits(np.pad(bits, ((0, 0), (0, 64 * words_for(len(directions))
                                                    - len(directions)))),
                             axis=1, bitorder="little").view("<u8").astype(np.uint64)
        return _Space(self.values(start), packed, len(directions))


@dataclass(frozen=True)
class _Affine:
    """y -> M y + shift, M by its columns."""

    columns: tuple[int, ...]
    shift: int

    def __call__(self, vector: int) -> int:
        return _apply(self.columns, vector) ^ self.shift

    def then(self, other: _Affine) -> _Affine:
        """other after self."""
        return _Affine(tuple(_apply(other.columns, c) for c in self.columns), other(self.shift))


def _pattern_columns(space: _Space, cells: np.ndarray) -> list[int]:
    """The matrix L with row j the pattern of cell cells[j] (L y = those cells' digits
    without p), by its columns."""
    bits = unpack_rows(space.patterns[cells], space.dimension)
    return [_pack(bits[:, i]) for i in range(space.dimension)]


def _action(space: _Space, chosen: np.ndarray, to_coordinates: list[int],
            perm: np.ndarray) -> _Affine:
    """How the cell permutation `perm` (member m -> m[perm]) moves the coordinates.

    On the information set `chosen` the member m[perm] reads p[perm] + <k[perm], y>;
    solving for its coordinates y' (`to_coordinates`: L^-1 of the information set)
    gives an affine map. Raises ValueError when `perm` does not map the space onto
    itself.
    """
    images = perm[chosen]
    target = space.particular[images] ^ space.particular[chosen]
    # y' = L^-1 (target + L_g y), L_g the patterns of the image cells
    shift = _apply(to_coordinates, _pack(target))
    action = _Affine(tuple(_apply(to_coordinates, c) for c in _pattern_columns(space, images)),
                     shift)
    # Check every cell: m[perm] must be the member with coordinates action(y), for every y.
    if not np.array_equal(space.values(shift), space.particular[perm]):
        raise ValueError("a symmetry does not map the space onto itself")
    for i in range(space.dimension):
        moved = space.parities(1 << i)[perm]
        if not np.array_equal(space.parities(action.columns[i]), moved):
            raise ValueError("a symmetry does not map the space onto itself")
    return action


def _group(space: _Space, symmetries: Sequence[np.ndarray],
           misfits: bool = False) -> list[_Affine]:
    """The distinct coordinate actions of the group the permutations generate (identity first).

    A permutation that does not map the space onto itself raises ValueError,
    or with `misfits` is left out (a fixed sub-space keeps only some).
    """
    size = space.dimension
    identity = _Affine(tuple(1 << i for i in range(size)), 0)
    if not symmetries or size == 0:
        return [identity]
    chosen = space.information_set()
    to_coordinates = _inverse(_pattern_columns(space, chosen))
    generators = []
    for perm in symmetries:
        try:
            generators.append(_action(space, chosen, to_coordinates,
                                      np.asarray(perm, dtype=np.intp)))
        except ValueError:
            if not misfits:
                raise
    group, frontier = [identity], [identity]
    seen = {identity}
    while frontier:  # closure: the group is small (8 for a square)
        fresh = []
        for element in frontier:
            for generator in generators:
                product = element.then(generator)
                if product not in seen:
                    seen.add(product)
                    fresh.append(product)
        group.extend(fresh)
        frontier = fresh
    return group


def _invariant_tail(group: list[_Affine], size: int, target: int) -> list[int]:
    """A basis of a subspace of dimension <= target spanned by whole orbits of the group."""
    if target >= size:
        return [1 << i for i in range(size)]
    span = _Span()
    candidates = itertools.chain((1 << i for i in range(size)),
                                 ((1 << i) | (1 << j) for i in range(size)
                                  for j in range(i + 1, size)))
    for vector in candidates:
        if len(span) >= target:
            break
        trial = _Span()
        trial.basis = dict(span.basis)
        for element in group:
            trial.add(_apply(element.columns, vector))
        if len(trial) <= target:
            span = trial
    return list(span.basis.values())


# ---------------------------------------------------------------- GF(2): the walk

class _Chunks:
    """The space in coordinates (head, tail): tail = an invariant subspace, head = the rest."""

    def __init__(self, space: _Space, group: list[_Affine], tail_bits: int) -> None:
        size = space.dimension
        tail = _invariant_tail(group, size, tail_bits)
        span = _Span()
        for vector in tail:
            span.add(vector)
        head = [1 << i for i in range(size) if span.add(1 << i)]
        self.basis = head + tail  # y = sum z_j basis[j]
        self.head_bits, self.tail_bits = len(head), len(tail)
        self.size = 1 << self.tail_bits
        self.walked_bits = min(self.head_bits, 63)  # heads past 2^63 are never reached
        bits = space.coordinates(self.basis)        # (N, d): cell c's digit along basis j
        weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
        self.head_patterns = (bits[:, :self.walked_bits].astype(np.uint64)
                              * weights[:self.walked_bits]).sum(axis=1, dtype=np.uint64)
        keys = (bits[:, self.head_bits:].astype(np.int64)
                << np.arange(self.tail_bits, dtype=np.int64)).sum(axis=1)
        self.particular = space.particular
        self.cells, self.dimension = space.cells, space.dimension
        self.dtype = row_dtype(space.cells)  # |every partial sum| <= the cells
        # cells sorted by tail key: one reduceat sums each key's signs
        self.order = np.argsort(keys, kind="stable")
        sorted_keys = keys[self.order]
        self.starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
        self.keys = sorted_keys[self.starts]
        self.counts = np.diff(np.r_[self.starts, space.cells]).astype(np.int64)
        self.moving = self.keys != 0  # the key-0 group is fixed: its ones count exactly
        to_basis = _inverse(self.basis)
        # Past 63 head bits only part of the heads is walked, and images may leave that part.
        reduced = group[1:] if self.walked_bits == self.head_bits else []
        self.head_maps = [self._head_map(to_basis, element) for element in reduced]

    def _head_map(self, to_basis: list[int], element: _Affine) -> tuple[np.ndarray, int]:
        """Byte tables and constant of the action on heads (tail invariant: its part drops)."""
        mask = (1 << self.walked_bits) - 1
        columns = [_apply(to_basis, element(self.basis[j]) ^ element.shift) & mask
                   for j in range(self.walked_bits)]
        constant = _apply(to_basis, element.shift) & mask
        tables = np.zeros((-(-self.walked_bits // 8), 256), dtype=np.uint64)
        for byte in range(tables.shape[0]):
            part = columns[8 * byte:8 * byte + 8]  # the last byte may hold fewer head bits
            for value in range(1 << len(part)):
                tables[byte, value] = _apply(part, value)
        return tables, constant

    @property
    def blocks(self) -> int:
        """How many blocks of `HEAD_BLOCK` heads the walk has."""
        return -(-(1 << self.walked_bits) // HEAD_BLOCK)

    def representatives(self, batch: int, blocks: Iterable[int]
                        ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """(heads, orbit sizes), `batch` at a time, of every head of the head blocks
        `blocks` no group image of which is smaller, in increasing order."""
        order = len(self.head_maps) + 1
        total = 1 << self.walked_bits
        for block in blocks:
            start = block * HEAD_BLOCK
            heads = np.arange(start, min(total, start + HEAD_BLOCK), dtype=np.uint64)
            keep = np.ones(heads.size, dtype=bool)
            fixed = np.ones(heads.size, dtype=np.int64)  # the identity fixes every head
            for tables, constant in self.head_maps:
                image = np.full(heads.size, constant, dtype=np.uint64)
                for byte in range(tables.shape[0]):
                    image ^= tables[byte][((heads >> np.uint64(8 * byte)) & np.uint64(255))
                                          .astype(np.intp)]
                keep &= image >= heads
                fixed += image == heads
            kept, orbits = heads[keep], order // fixed[keep]
            for first in range(0, kept.size, batch):
                yield kept[first:first + batch], orbits[first:first + batch]

    def values(self, heads: np.ndarray) -> np.ndarray:
        """(len(heads), N): each head's member digits where its tail is 0."""
        parity = np.bitwise_count(self.head_patterns[None, :] & heads[:, None]) & np.uint8(1)
        return self.particular[None, :] ^ parity

    def member(self, head: int, tail: int) -> int:
        """The coordinates y of the member (head, tail)."""
        return _apply(self.basis, head | (tail << self.head_bits))


def _search_space(space: _Space, group: list[_Affine], budget: Effort, best: Best,
                  tail_bits: int, jobs: int = 1) -> bool:
    """Every chunk of one orbit representative each; True when all were examined or pruned.

    With `jobs` > 1 the head blocks are dealt out to that many forked
    processes (`_walk_in_processes`), where the platform forks and this
    process may have children.
    """
    chunks = _Chunks(space, group, tail_bits)
    forks = "fork" in multiprocessing.get_all_start_methods() \
        and not multiprocessing.current_process().daemon
    if jobs > 1 and chunks.blocks > 1 and forks:
        finished = _walk_in_processes(chunks, budget, best, jobs)
    else:
        finished = _walk(chunks, budget, best, range(chunks.blocks))[0]
    return finished and chunks.head_bits <= chunks.walked_bits


def _walk(chunks: _Chunks, budget: Effort, best: Best,
          blocks: Iterable[int]) -> tuple[bool, int | None]:
    """The chunks of the head blocks `blocks`: (all examined or pruned, the head of the
    member `best` holds, if this walk chose it).

    The chunks' bounds go `BATCH` at a time, in one numpy pass; the
    survivors are transformed one by one in head order. A batch is pruned
    against the best before it and recorded chunk by chunk, so the answer,
    its member and its ties are those of a walk one chunk at a time.
    """
    cells, dimension = chunks.cells, chunks.dimension
    batch = max(1, min(BATCH, BATCH_CELLS // max(1, cells)))
    moving, counts = chunks.moving, chunks.counts
    row = np.zeros((1, chunks.size), dtype=chunks.dtype)
    chosen_head = None
    for heads, orbits in chunks.representatives(batch, blocks):
        values = chunks.values(heads)[:, chunks.order].astype(np.int32)
        signs = np.add.reduceat(1 - 2 * values, chunks.starts, axis=1)
        # ones the tail cannot change, plus min(ones, zeros) of each group it moves together
        bounds = ((counts[moving] - np.abs(signs[:, moving])).sum(axis=1)
                  + (counts[~moving] - signs[:, ~moving]).sum(axis=1)) // 2
        live = np.flatnonzero(bounds <= best.weight)
        if not budget.take(live.size * chunks.size):
            return False, chosen_head
        for index in live.tolist():
            # One reused row: it stays in the cache from the scatter to the maximum.
            row.fill(0)
            row[0, chunks.keys] = signs[index]
            spectrum = transform_rows(row)[0]
            top = int(spectrum.max())
            weight = (cells - top) // 2
            if weight <= best.weight:
                where = int(np.argmax(spectrum))
                ties = int(np.count_nonzero(spectrum == top)) * int(orbits[index])
                head, before = int(heads[index]), best.choice
                best.record(weight, ties, lambda h=head, w=where: _bits(chunks.member(h, w),
                                                                        dimension))
                if best.choice is not before:
                    chosen_head = head
    return True, chosen_head


_SHARED: dict[str, Any] = {}  # what forked walkers inherit (a fork copies it, no pickling)


def _walk_share(share: int) -> tuple[bool, int, int, tuple[int, ...] | None, int | None, int]:
    """Walker `share` of `jobs`: every jobs-th head block from block `share` on."""
    chunks, jobs, weight, remaining, node_limit = _SHARED["walk"]
    budget = Effort(Deadline(remaining), node_limit, 0)
    best = Best(weight, None)
    finished, head = _walk(chunks, budget, best, range(share, chunks.blocks, jobs))
    return finished, best.weight, best.ties, best.choice, head, budget.candidates


def _walk_in_processes(chunks: _Chunks, budget: Effort, best: Best, jobs: int) -> bool:
    """The walk dealt out to `jobs` forked processes, block by block, then merged.

    Each walker has the deadline's remaining time and an equal share of the
    node limit left, and starts from the same best. The merge takes the
    fewest ones, adds the ties of every walker that reached them, and keeps
    the member of the smallest head: the answer of one walk in head order.
    The walkers stop with this process (a time limit's stop or Ctrl-C here
    terminates them).
    """
    left = None if budget.node_limit is None else max(0, budget.node_limit - budget.nodes)
    _SHARED["walk"] = (chunks, jobs, best.weight, budget.deadline.remaining(),
                       None if left is None else left // jobs)
    pool = multiprocessing.get_context("fork").Pool(jobs)
    try:
        results = pool.map(_walk_share, range(jobs))
    finally:
        pool.terminate()
        pool.join()
        _SHARED.pop("walk", None)
    spent = sum(result[5] for result in results)
    budget.nodes += spent
    budget.candidates += spent
    found = [result for result in results if result[2]]
    if found:
        low = min(result[1] for result in found)
        tied = [result for result in found if result[1] == low]
        first = min(tied, key=lambda result: result[4])
        best.weight, best.ties, best.choice = low, sum(result[2] for result in tied), first[3]
    return all(result[0] for result in results)


def _presearch(space: _Space, group: list[_Affine], symmetries: Sequence[np.ndarray],
               budget: Effort, best: Best) -> None:
    """An upper bound from the members fixed by each group element, smallest spaces first.

    Each fixed space is searched exhaustively, itself orbit-reduced by the
    symmetries that keep it (on a square board the half turn's fixed space
    keeps all eight). Its size is at most half the space's, so the bound
    costs little beside the main walk; a deadline inside it ends the search
    with the best so far.
    """
    size = space.dimension
    fixed_spaces = {}
    for element in group[1:]:
        moved = [c ^ (1 << i) for i, c in enumerate(element.columns)]  # M + I
        solved = _solve_affine(moved, element.shift, size)
        if solved is not None and len(solved[1]) <= PRESEARCH_BITS:
            span = _Span()
            for direction in solved[1]:
                span.add(direction)
            # A quarter turn and its inverse fix the same members: search them once.
            key = (span.canonical(), span.representative(solved[0]))
            fixed_spaces.setdefault(key, solved)
    for start, directions in sorted(fixed_spaces.values(), key=lambda solved: len(solved[1])):
        sub = space.restricted(start, directions)
        found = Best(best.weight, None)
        complete = _search_space(sub, _group(sub, symmetries, misfits=True), budget, found,
                                 TAIL_BITS)
        if found.ties and found.weight < best.weight:
            chosen = start ^ _apply(directions, _pack(found.choice))
            best.weight, best.choice, best.ties = found.weight, _bits(chosen, size), 0
        if not complete:
            return


def fewest_ones(cells: np.ndarray, dimension: int, budget: Effort, best: Best,
                symmetries: Sequence[np.ndarray] = (), jobs: int = 1) -> bool:
    """Fewest-ones member of a GF(2) affine space (module docstring); True when exhaustive.

    `cells` (N, words): bit 0 the particular digit, bit 1 + i kernel vector
    i's. `symmetries`: cell permutations mapping the space onto itself
    (member m to m[perm]); ValueError if one does not. `jobs`: processes
    for the main walk (`_walk_in_processes`; the same answer, ties and
    member, possibly more chunks transformed). `best` starts with
    the particular's weight (an upper bound, ties 0) and ends with the
    fewest ones found, a member's coordinates and the ties counted.
    """
    space = _Space.of_cells(cells, dimension)
    if dimension <= TAIL_BITS:  # one chunk: nothing for the symmetry to save
        return _search_space(space, _group(space, ()), budget, best, TAIL_BITS)
    group = _group(space, symmetries)
    if len(group) > 1:
        _presearch(space, group, symmetries, budget, best)
    return _search_space(space, group, budget, best, TAIL_BITS, jobs)


# ---------------------------------------------------------------- GF(p)

def fewest_digits(cells: np.ndarray, dimension: int, modulus: int, budget: Effort,
                  best: Best) -> bool:
    """Fewest-digit-sum member of a GF(p) affine space; `cells` (N, 1 + dimension) digits.

    The sum of the digits 0..p-1 (Lights Out's presses), not the non-zero
    count. True when every member was examined or pruned.
    """
    groups, counts = np.unique(cells, axis=0, return_counts=True)
    counts = counts.astype(np.int64)
    base, kernel = groups[:, 0].astype(np.int64), groups[:, 1:].astype(np.int64)
    tail = 0
    while tail < dimension and modulus ** (tail + 1) * len(groups) <= TAIL_TABLE:
        tail += 1
    combos = np.array(list(itertools.product(range(modulus), repeat=tail)), dtype=np.int64)
    table = (combos @ kernel[:, :tail].T) % modulus
    fixed = ~kernel[:, :tail].any(axis=1)
    for head in itertools.product(range(modulus), repeat=dimension - tail):
        shifted = (base + kernel[:, tail:] @ np.array(head, dtype=np.int64)) % modulus
        pruned = int(counts[fixed] @ shifted[fixed]) > best.weight
        if not budget.take(0 if pruned else len(combos)):
            return False
        if pruned:
            continue
        weights = ((table + shifted) % modulus) @ counts
        low = int(weights.min())
        if low <= best.weight:
            where = int(np.argmin(weights))
            ties = int(np.count_nonzero(weights == low))
            best.record(low, ties, lambda w=where, h=head: tuple(combos[w].tolist()) + h)
    return True
