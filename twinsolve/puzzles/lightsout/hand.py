"""Lights Out, the `hand` back-end: light chasing, elimination, then the coset.

Rules (see `twinsolve.puzzles.lightsout.rules`): a press adds 1 mod K to its cell
(unless `sigma`) and its orthogonal neighbours (wrapping on a `torus`, where
a neighbour reached twice counts twice); make every light 0 with the fewest
presses, a cell pressed 0..K-1 times.

The idea. Presses commute, so a solution is a vector x over GF(K) with
A x = -b, and the solutions form a coset: one particular solution plus the
span of the kernel of A. Three steps:

1. Light chasing (a structured Gaussian elimination). Make the presses of
   the first row unknowns; then light (r, c) can only still be fixed by the
   press just below it, so row r + 1's presses are forced: minus the state
   of row r. Every press becomes an affine form in the unknowns, and the
   last row's lights give COLS equations in COLS unknowns instead of
   ROWS*COLS in ROWS*COLS. On a torus the first two rows are unknown and the
   two rows that wrap around give the equations (a torus less than 3 high
   keeps every press unknown). The board is turned so the chase runs along
   its longer side. Over GF(2) an affine form is a bit-packed row of words,
   so a chase step is a few XORs of a (COLS x words) array.
2. `twinsolve.search.gf2` solves the small system: rank, a particular
   solution, a kernel basis. Chasing each of them again with numbers gives
   full press grids; the nullity is the kernel's dimension.
3. The fewest presses in the coset. Over GF(2) the weight of every member
   p + sum(y_i k_i) at once is (N - W(y)) / 2, where W is the Walsh-Hadamard
   transform of g(y) = sum over cells with kernel pattern y of (-1)^p:
   exhaustive, exact, and it counts the ties. The kernel coordinates are
   split into a tail of at most 2^20 members per transform and a head walked
   in Gray-code order (one kernel vector toggled per step). Mod K the cells
   are grouped by (particular digit, kernel digits) and a table of all tail
   digit combinations is added to each head. Before each head's chunk a
   bound (the presses on cells the tail cannot change) prunes it when it
   cannot reach the best so far, ties included: an exact branch-and-bound
   over the head that stops with `feasible` (the best so far) at the
   deadline or node limit.

`walk_coset` is a second, human-scale coset search that `solve` does not
use: a depth-first branch and bound over the kernel coefficients that
counts the members it examines. The graded generator (`generate.py`) takes
it as the technique between chasing alone and the exhaustive search.

Stats: `nodes` = elimination pivot operations (one per forced cell of the
chase plus one per row reduced in `gf2`) + coset members examined; counters
`nullity` (kernel dimension), `solutions` (K**nullity when solvable, else 0),
`pivots` and `candidates` (the two parts of `nodes`). Options:
`limits.options["minimise"]` (default True); False returns the particular
solution as `feasible` (or `optimal` when it is the only solution). So does
a board whose kernel grids would take more than `MAX_PATTERN_BYTES` (with
a `message` saying so).

The deadline and node limit bound the coset search, which then returns the
best so far as `feasible`. Elimination yields the first solution, so the
deadline alone does not stop it; a board that cannot be eliminated within
the limit and its grace (thousands of rows) is stopped there by the run's
time limit (`core.time_limit`, checkpoints in the chase and in `gf2`) and
the run is a `timeout`.

References: K. Sutner, "Linear cellular automata and the Garden-of-Eden"
(1989); the light-chasing method is folklore of the puzzle (J. Scherphuis,
jaapsch.net/puzzles/lights.htm).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...core.limits import Deadline, Limits, Poller
from ...core.result import UNSETTLED, Result, Status, Stopwatch, Tally
from ...core.time_limit import checkpoint
from ...search.gf2 import (
    LinearSolution,
    pack_rows,
    row_parity,
    solve_gf2_augmented,
    solve_gfp,
    unpack_rows,
    words_for,
)
from .rules import Instance, solution_from_grid

__all__ = ["solve", "check_options", "nullity", "kernel_dimension", "coset", "Coset",
           "walk_coset", "Walk"]

TAIL_BITS = 20          # GF(2): coset members per Walsh-Hadamard chunk = 2^TAIL_BITS
TAIL_TABLE = 1 << 22    # mod K: entries of the (tail combinations x cell groups) table
MAX_PATTERN_BYTES = 1 << 30  # memory for every kernel grid; beyond it, no minimising


# ---------------------------------------------------------------- fields

class _Field:
    """Affine forms or batches over GF(K): a (cells, width) array per board row.

    GF(2) forms are bit-packed words (add = XOR); GF(p) forms are digit
    columns (add = +, reduced mod p once per light row).
    """

    def __init__(self, modulus: int, width: int) -> None:
        self.modulus = modulus
        self.width = width
        self.packed = modulus == 2
        self.columns = words_for(width) if self.packed else width
        self.dtype = np.uint64 if self.packed else np.int16
        self._units: dict[int, np.ndarray] = {}

    def zeros(self, cells: int) -> np.ndarray:
        return np.zeros((cells, self.columns), dtype=self.dtype)

    def units(self, first: int, cells: int) -> np.ndarray:
        """Cell c holds the unit form of coordinate first + c."""
        forms = self.zeros(cells)
        index = first + np.arange(cells)
        if self.packed:
            forms[np.arange(cells), index // 64] = np.uint64(1) << (index % 64).astype(np.uint64)
        else:
            forms[np.arange(cells), index] = 1
        return forms

    def from_columns(self, values: np.ndarray) -> np.ndarray:
        """A (cells, width) 0..K-1 matrix as forms."""
        if not self.packed:
            return values.astype(self.dtype)
        return pack_rows(values, self.width)

    def constant(self, lights: np.ndarray, position: int) -> np.ndarray:
        """Each cell's light times the unit form of coordinate `position`."""
        if position not in self._units:
            self._units[position] = self.units(position, 1)[0]
        unit = self._units[position]
        if self.packed:
            return np.where((lights % 2 == 1)[:, None], unit[None, :], np.uint64(0))
        return lights.astype(self.dtype)[:, None] * unit[None, :]

    def add(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return a ^ b if self.packed else a + b

    def reduce(self, a: np.ndarray) -> np.ndarray:
        return a if self.packed else a % self.modulus

    def negate(self, a: np.ndarray) -> np.ndarray:
        return a if self.packed else (-a) % self.modulus

    def to_columns(self, forms: np.ndarray) -> np.ndarray:
        """Forms back to a (cells, width) 0..K-1 uint8 matrix."""
        if self.packed:
            return unpack_rows(forms, self.width)
        return forms.astype(np.uint8)


# ---------------------------------------------------------------- light chasing

@dataclass(frozen=True)
class _Board:
    """The board as chased: turned (transposed) so the chase runs down the longer side."""

    rows: int
    cols: int
    lights: np.ndarray
    torus: bool
    sigma: bool
    modulus: int
    transposed: bool

    @property
    def unknown_rows(self) -> int:
        return min(self.rows, 2) if self.torus else 1

    @property
    def unknowns(self) -> int:
        return self.unknown_rows * self.cols

    def vertical(self, r: int) -> list[int]:
        """The rows whose presses reach light row r from above and below, with multiplicity."""
        if self.torus:
            return [(r - 1) % self.rows, (r + 1) % self.rows]
        return [n for n in (r - 1, r + 1) if 0 <= n < self.rows]


def _orient(rows: int, cols: int, lights: np.ndarray, torus: bool, sigma: bool,
            modulus: int) -> _Board:
    def unknowns(height: int, width: int) -> int:
        return (min(height, 2) if torus else 1) * width
    turn = unknowns(cols, rows) < unknowns(rows, cols)
    if turn:
        rows, cols, lights = cols, rows, lights.T
    return _Board(rows, cols, np.ascontiguousarray(lights), torus, sigma, modulus, turn)


def _light_row(board: _Board, field: _Field, r: int, press: dict[int, np.ndarray],
               constant: int, skip: int | None = None) -> np.ndarray:
    """State of light row r: its lights plus every press reaching it (except row `skip`)."""
    own = press[r]
    if board.torus:  # roll: on a 1- or 2-wide torus a neighbour reached twice counts twice
        right, left = np.roll(own, -1, axis=0), np.roll(own, 1, axis=0)
    else:
        right, left = np.zeros_like(own), np.zeros_like(own)
        right[:-1], left[1:] = own[1:], own[:-1]
    total = field.add(field.constant(board.lights[r], constant), field.add(right, left))
    if not board.sigma:
        total = field.add(total, own)
    for other in board.vertical(r):
        if other != skip:
            total = field.add(total, press[other])
    return field.reduce(total)


def _chase(board: _Board, field: _Field, first: list[np.ndarray], constant: int,
           keep: bool) -> tuple[list[np.ndarray], dict[int, np.ndarray]]:
    """Force each press row from the light row above; the rows left over are the equations.

    Returns the equation forms (one array per leftover light row) and the
    press rows (all of them with `keep`, else only those the equations need).
    """
    unknown_rows = len(first)
    press = dict(enumerate(first))
    for r in range(unknown_rows - 1, board.rows - 1):
        checkpoint(grace=True)  # a 5000-row board chases for seconds: the limit counts here
        # Light (r, c) is last touched by press (r + 1, c): that press must cancel it.
        press[r + 1] = field.negate(_light_row(board, field, r, press, constant, skip=r + 1))
        if not keep and r - 1 >= 2:
            del press[r - 1]
    leftover = [r for r in range(board.rows) if not unknown_rows - 1 <= r <= board.rows - 2]
    return [_light_row(board, field, r, press, constant) for r in leftover], press


def _equations(board: _Board) -> tuple[LinearSolution, int]:
    """Chase symbolically and solve the leftover equations; returns (solution, forced cells)."""
    unknowns = board.unknowns
    field = _Field(board.modulus, unknowns + 1)  # coordinate `unknowns` is the constant
    first = [field.units(i * board.cols, board.cols) for i in range(board.unknown_rows)]
    equations, _ = _chase(board, field, first, unknowns, keep=False)
    forced = (board.rows - board.unknown_rows) * board.cols
    stacked = np.concatenate(equations)
    if field.packed:  # coef . x + constant = 0, i.e. coef . x = constant
        return solve_gf2_augmented(stacked, unknowns), forced
    system = stacked.astype(np.int64)
    return solve_gfp(system[:, :unknowns], -system[:, unknowns], board.modulus), forced


def _press_patterns(board: _Board, system: LinearSolution, kernel_rows: int) -> np.ndarray:
    """Chase numbers: cell patterns (rows, cols, columns) of the particular and kernel grids.

    Item 0 is the particular solution (the lights count), items 1.. the first
    `kernel_rows` kernel vectors (the lights do not count: A v = 0).
    """
    items = np.vstack([system.particular[None, :], system.kernel[:kernel_rows]])
    field = _Field(board.modulus, items.shape[0])
    start = field.from_columns(items.T)
    first = [start[i * board.cols:(i + 1) * board.cols] for i in range(board.unknown_rows)]
    _, press = _chase(board, field, first, 0, keep=True)
    patterns = np.stack([press[r] for r in range(board.rows)])
    return patterns.transpose(1, 0, 2) if board.transposed else patterns


# ---------------------------------------------------------------- public analysis

@dataclass(frozen=True)
class Coset:
    """All press grids solving a board: `particular` + any combination of `kernel`.

    `particular` is a (rows, cols) uint8 grid or None (no solution); `kernel`
    is (nullity, rows, cols); `pivots` counts elimination pivot operations.
    """

    particular: np.ndarray | None
    kernel: np.ndarray
    nullity: int
    pivots: int


def _board_of(instance: Instance) -> _Board:
    lights = np.array(instance.lights, dtype=np.int64).reshape(instance.rows, instance.cols)
    return _orient(instance.rows, instance.cols, lights, instance.torus, instance.sigma,
                   instance.modulus)


def kernel_dimension(rows: int, cols: int, torus: bool = False, sigma: bool = False,
                     modulus: int = 2) -> int:
    """The nullity of the press matrix: log_K of the number of solutions of a solvable board.

    >>> kernel_dimension(5, 5), kernel_dimension(4, 4), kernel_dimension(3, 3, torus=True)
    (2, 4, 4)
    """
    lights = np.zeros((rows, cols), dtype=np.int64)
    system, _ = _equations(_orient(rows, cols, lights, torus, sigma, modulus))
    return system.nullity


def nullity(instance: Instance) -> int:
    """The kernel dimension of `instance`'s press matrix (its lights do not matter)."""
    return kernel_dimension(instance.rows, instance.cols, instance.torus, instance.sigma,
                            instance.modulus)


def coset(instance: Instance) -> Coset:
    """Every solution of `instance`, as a particular grid plus a kernel basis of grids."""
    board = _board_of(instance)
    system, forced = _equations(board)
    pivots = forced + system.pivots
    shape = (instance.rows, instance.cols)
    if not system.consistent:
        return Coset(None, np.zeros((0, *shape), np.uint8), system.nullity, pivots)
    patterns = _press_patterns(board, system, system.nullity)
    field = _Field(board.modulus, system.nullity + 1)
    cells = field.to_columns(patterns.reshape(-1, patterns.shape[-1]))
    grids = cells.T.reshape(-1, *shape)
    return Coset(grids[0], grids[1:], system.nullity, pivots)


# ---------------------------------------------------------------- coset search

class _Effort:
    """The coset search's effort under the engine's one `Poller`.

    `nodes` includes elimination (the pivots), `candidates` counts the coset
    members examined. Each chunk of the walk is one block of the poller: the
    clock is read once per chunk, pruned or not, and a chunk that would pass
    the node limit is not started.
    """

    def __init__(self, deadline: Deadline, node_limit: int | None, spent: int) -> None:
        self.poller = Poller(node_limit, deadline)
        self.nodes = spent
        self.candidates = 0

    def take(self, amount: int) -> bool:
        """Spend `amount` coset members (0: a pruned chunk) unless a limit stops the walk."""
        if self.poller.spend(self.nodes, amount) is not None:
            return False
        self.nodes += amount
        self.candidates += amount
        return True


@dataclass
class _Best:
    weight: int
    choice: tuple[int, ...] | None  # kernel coefficients; None = the particular solution
    ties: int = 0


def _butterflies(values: np.ndarray, low_bit: int, high_bit: int) -> None:
    """In place: the Walsh-Hadamard steps for index bits low_bit..high_bit-1."""
    for bit in range(low_bit, high_bit):
        pairs = values.reshape(-1, 2, 1 << bit)
        low, high = pairs[:, 0, :], pairs[:, 1, :]
        low += high       # a + b
        high *= -2
        high += low       # (a + b) - 2b = a - b


def _walsh_hadamard(values: np.ndarray) -> np.ndarray:
    """Unnormalised Walsh-Hadamard transform of a length-2^s array (int32 is exact here).

    Steps on low index bits touch tiny strided pieces and are slow in numpy,
    so the high bits go first, the array is transposed (low bits become
    high), the rest follow, and it is transposed back.
    """
    bits = values.size.bit_length() - 1
    split = bits // 2
    _butterflies(values, split, bits)
    turned = np.ascontiguousarray(values.reshape(1 << (bits - split), 1 << split).T).reshape(-1)
    _butterflies(turned, bits - split, bits)
    return np.ascontiguousarray(turned.reshape(1 << split, 1 << (bits - split)).T).reshape(-1)


def _record(best: _Best, weight: int, ties: int, choice: Callable[[], tuple[int, ...]]) -> None:
    """Keep the fewest presses seen (`weight` <= best.weight) and how many members reach it.

    `ties == 0` means no member examined yet (best is the particular solution).
    """
    if best.ties == 0 or weight < best.weight:
        best.weight, best.choice, best.ties = weight, choice(), ties
    else:
        best.ties += ties


def _gray_flips(count: int):
    """For steps 1..count-1 of a Gray-code walk, the index of the bit that flips."""
    for step in range(1, count):
        yield (step & -step).bit_length() - 1


def _search_gf2(cells: np.ndarray, nullity_: int, budget: _Effort, best: _Best) -> bool:
    """Fewest-ones member of a GF(2) coset; `cells` (N, words): bit 0 particular, bit 1+i kernel i.

    Returns True when every member was examined or pruned.
    """
    tail = min(nullity_, TAIL_BITS)
    size = 1 << tail
    word0 = cells[:, 0]
    tail_key = ((word0 >> np.uint64(1)) & np.uint64(size - 1)).astype(np.intp)
    fixed = tail_key == 0  # cells the tail cannot change: their presses bound the chunk
    value = (word0 & np.uint64(1)).astype(np.int64)
    head = [0] * (nullity_ - tail)
    flips = itertools.chain([None], _gray_flips(1 << (nullity_ - tail)))
    for flip in flips:
        if flip is not None:
            head[flip] ^= 1
            position = 1 + tail + flip
            word, bit = divmod(position, 64)
            value ^= ((cells[:, word] >> np.uint64(bit)) & np.uint64(1)).astype(np.int64)
        pruned = int(value[fixed].sum()) > best.weight  # the bound: presses the tail cannot undo
        if not budget.take(0 if pruned else size):
            return False
        if pruned:
            continue
        signs = np.bincount(tail_key, weights=1 - 2 * value, minlength=size)
        # |spectrum| <= cells <= 5000^2 < 2^31: int32 is exact and twice as fast as int64
        spectrum = _walsh_hadamard(np.rint(signs).astype(np.int32))
        top = int(spectrum.max())
        weight = (cells.shape[0] - top) // 2
        if weight <= best.weight:
            where = int(np.argmax(spectrum))
            ties = int(np.count_nonzero(spectrum == top))
            _record(best, weight, ties,
                    lambda w=where, h=tuple(head): tuple((w >> i) & 1 for i in range(tail)) + h)
    return True


def _search_gfp(cells: np.ndarray, nullity_: int, modulus: int, budget: _Effort,
                best: _Best) -> bool:
    """Fewest-presses member of a GF(p) coset; `cells` (N, 1 + nullity) digits."""
    groups, counts = np.unique(cells, axis=0, return_counts=True)
    counts = counts.astype(np.int64)
    base, kernel = groups[:, 0].astype(np.int64), groups[:, 1:].astype(np.int64)
    tail = 0
    while tail < nullity_ and modulus ** (tail + 1) * len(groups) <= TAIL_TABLE:
        tail += 1
    combos = np.array(list(itertools.product(range(modulus), repeat=tail)), dtype=np.int64)
    table = (combos @ kernel[:, :tail].T) % modulus
    fixed = ~kernel[:, :tail].any(axis=1)
    for head in itertools.product(range(modulus), repeat=nullity_ - tail):
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
            _record(best, low, ties, lambda w=where, h=head: tuple(combos[w].tolist()) + h)
    return True


def _apply(cells: np.ndarray, field: _Field, choice: tuple[int, ...] | None) -> np.ndarray:
    """The press digits (N,) of particular + sum(choice_i * kernel_i)."""
    if field.packed:
        digits = (cells[:, 0] & np.uint64(1)).astype(np.uint8)
        if choice is not None and any(choice):
            mask = field.from_columns(np.array([(0, *choice)], dtype=np.uint8))[0]
            digits ^= row_parity(cells & mask)
        return digits.astype(np.int64)
    digits = cells[:, 0].astype(np.int64)
    for index, times in enumerate(choice or ()):
        if times:
            digits += times * cells[:, 1 + index].astype(np.int64)
    return digits % field.modulus


# ---------------------------------------------------------------- the back-end

def _pattern_bytes(cells: int, dimension: int, modulus: int) -> int:
    """Memory of the particular and kernel grids as `_press_patterns` stores them."""
    per_cell = 8 * words_for(dimension + 1) if modulus == 2 else 2 * (dimension + 1)
    return cells * per_cell


def _unsat(watch: Stopwatch, limits: Limits, nodes: int, nullity_: int) -> Result:
    stats = watch.stats(nodes=nodes, nullity=nullity_, solutions=0, pivots=nodes, candidates=0)
    return Result.unsat(limits, stats=stats)


def check_options(limits: Limits) -> None:
    """hand's one option, `minimise=true|false` (the registry's checker)."""
    limits.check_options("hand", ("minimise",))
    limits.flag("minimise", True)


def solve(instance: Instance, limits: Limits) -> Result:
    """Fewest presses turning every light off (see the module docstring).

    >>> board = Instance.all_on(5)
    >>> result = solve(board, Limits(unique=True, count=True))
    >>> result.status.value, result.objective, result.unique, result.count
    ('optimal', 15, False, 4)
    """
    watch = Stopwatch()
    deadline = limits.deadline()
    board = _board_of(instance)
    system, forced = _equations(board)
    pivots = forced + system.pivots
    dimension, modulus = system.nullity, instance.modulus
    if not system.consistent:
        watch.built()
        return _unsat(watch, limits, pivots, dimension)
    minimise = limits.flag("minimise", True) and dimension > 0
    too_big = minimise and _pattern_bytes(instance.cells, dimension, modulus) > MAX_PATTERN_BYTES
    minimise = minimise and not too_big
    patterns = _press_patterns(board, system, dimension if minimise else 0)
    cells = patterns.reshape(-1, patterns.shape[-1])
    field = _Field(modulus, (dimension if minimise else 0) + 1)
    watch.built()

    budget = _Effort(deadline, limits.node_limit, pivots)
    best = _Best(int(_apply(cells, field, None).sum()), None)
    if dimension == 0:  # the only solution: nothing to search
        budget.nodes += 1
        budget.candidates += 1
        best.ties, complete = 1, True
    elif not minimise:
        complete = False
    elif modulus == 2:
        complete = _search_gf2(cells, dimension, budget, best)
    else:
        complete = _search_gfp(cells, dimension, modulus, budget, best)

    digits = _apply(cells, field, best.choice).reshape(instance.rows, instance.cols)
    stats = watch.stats(nodes=budget.nodes, nullity=dimension, solutions=modulus ** dimension,
                        pivots=pivots, candidates=budget.candidates)
    status = Status.OPTIMAL if complete else Status.FEASIBLE
    # Ties of the best so far count the optimal grids only once the search is complete.
    tally = Tally(best.ties, complete=True) if complete else UNSETTLED
    message = ("the coset's press grids would not fit in memory: any solution, not the fewest"
               if too_big else None)
    return Result.answer(status, solution_from_grid(digits), int(digits.sum()), tally=tally,
                         asked=limits, stats=stats, message=message)


# ---------------------------------------------------------------- the bounded walk

@dataclass(frozen=True)
class Walk:
    """What `walk_coset` found: the fewest presses among the members it examined.

    `presses` and `grid` (rows of digits) are the best member examined,
    `ties` how many examined members reach `presses`; `examined` counts the
    members whose presses were counted, `nodes` the branches expanded plus
    the members examined; `complete` is False when `member_limit` stopped the
    walk (then the best is only the best so far).
    """

    presses: int
    grid: tuple[tuple[int, ...], ...]
    ties: int
    examined: int
    nodes: int
    complete: bool

    @property
    def unique(self) -> bool:
        """The walk proved exactly one fewest-press grid."""
        return self.complete and self.ties == 1


class _BitMembers:
    """GF(2) members as Python ints, bit c = the presses of cell c: a child is one XOR, a
    bound one AND and a popcount (about 20 times faster than numpy on boards this small)."""

    def __init__(self, kernel: np.ndarray) -> None:
        self.kernel = [self.pack(row) for row in kernel]

    @staticmethod
    def pack(digits: np.ndarray) -> int:
        return int.from_bytes(np.packbits(digits.astype(np.uint8), bitorder="little").tobytes(),
                              "little")

    def mask(self, cells: np.ndarray) -> int:
        return self.pack(cells)

    def children(self, value: int, depth: int) -> list[int]:
        return [value, value ^ self.kernel[depth]]

    @staticmethod
    def presses(value: int, mask: int) -> int:
        return (value & mask).bit_count()

    @staticmethod
    def digits(value: int, cells: int) -> np.ndarray:
        raw = np.frombuffer(value.to_bytes(-(-cells // 8) or 1, "little"), dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[:cells]


class _DigitMembers:
    """GF(p) members as digit arrays; a mask is a boolean array over the cells."""

    def __init__(self, kernel: np.ndarray, modulus: int) -> None:
        self.kernel = kernel.astype(np.int64)
        self.modulus = modulus
        self.times = np.arange(modulus, dtype=np.int64)[:, None]

    @staticmethod
    def pack(digits: np.ndarray) -> np.ndarray:
        return digits.astype(np.int64)

    @staticmethod
    def mask(cells: np.ndarray) -> np.ndarray:
        return cells

    def children(self, value: np.ndarray, depth: int) -> np.ndarray:
        return (value[None, :] + self.times * self.kernel[depth][None, :]) % self.modulus

    @staticmethod
    def presses(value: np.ndarray, mask: np.ndarray) -> int:
        return int(value[mask].sum())

    @staticmethod
    def digits(value: np.ndarray, cells: int) -> np.ndarray:
        return value.astype(np.uint8)


class _Walker:
    """One depth-first walk: the members, the settled cells per depth, the best so far."""

    def __init__(self, found: Coset, modulus: int, member_limit: int | None) -> None:
        kernel = found.kernel.reshape(found.nullity, found.particular.size)
        self.members = _BitMembers(kernel) if modulus == 2 else _DigitMembers(kernel, modulus)
        self.depths = found.nullity
        self.limit = member_limit
        moving = kernel != 0
        # settled[t]: the cells no coefficient from t on can change; their presses are known
        self.settled = [self.members.mask(~moving[t:].any(axis=0))
                        for t in range(found.nullity + 1)]
        self.best: tuple[int, object] | None = None
        self.ties = self.examined = self.nodes = 0

    def examine(self, batch: list) -> bool:
        """Count the presses of a batch of members; False: the member limit stops the walk."""
        if self.limit is not None and self.examined + len(batch) > self.limit:
            return False
        self.examined += len(batch)
        self.nodes += len(batch)
        everything = self.settled[self.depths]
        for member in batch:
            weight = self.members.presses(member, everything)
            if self.best is None or weight < self.best[0]:
                self.best, self.ties = (weight, member), 1
            elif weight == self.best[0]:
                self.ties += 1
        return True

    def walk(self, value: object, depth: int) -> bool:
        """Every member below this branch (coefficients 0..depth-1 fixed), or pruned."""
        children = self.members.children(value, depth)
        if depth + 1 == self.depths:  # the last coefficient: its K members at once
            return self.examine(list(children))
        self.nodes += 1
        settled = self.settled[depth + 1]
        bounds = [self.members.presses(child, settled) for child in children]
        for digit in sorted(range(len(bounds)), key=bounds.__getitem__):  # best bound first
            # Strictly above: a branch that may tie the best must be walked, for the ties.
            if self.best is not None and bounds[digit] > self.best[0]:
                break  # sorted: every later branch is pruned too
            if not self.walk(children[digit], depth + 1):
                return False
        return True


def walk_coset(found: Coset, modulus: int, member_limit: int | None = None) -> Walk:
    """The fewest-press members of a solvable board's coset by an exact branch and bound.

    A human's coset walk, and the graded generator's technique between light
    chasing alone and the exhaustive search of `solve`: fix the kernel
    coefficients y_0, y_1, ... in turn (depth first, each branch's digits in
    order of their bound, then by digit). After y_0..y_t are fixed, the cells
    no later kernel grid touches are settled, and their presses bound every
    member below: a branch whose bound exceeds the best member so far is
    pruned (one that only equals it is walked, for its ties). The members of
    the last coefficient are examined K at a time; `member_limit` stops the
    walk before a batch that would pass it, so a walk with a limit examines
    exactly the members the unlimited walk examines first.

    >>> board = Instance.all_on(5)
    >>> walked = walk_coset(coset(board), 2)
    >>> walked.presses, walked.ties, walked.examined, walked.complete
    (15, 4, 4, True)
    """
    if found.particular is None:
        raise ValueError("walk_coset needs a solvable board")
    walker = _Walker(found, modulus, member_limit)
    start = walker.members.pack(found.particular.reshape(-1))
    complete = walker.examine([start]) if found.nullity == 0 else walker.walk(start, 0)
    if walker.best is None:  # stopped before the first batch: the particular solution
        presses, digits = int(found.particular.sum()), found.particular
    else:
        presses, best = walker.best
        digits = walker.members.digits(best, found.particular.size)
    grid = tuple(map(tuple, digits.reshape(found.particular.shape).tolist()))
    return Walk(presses, grid, walker.ties, walker.examined, walker.nodes, complete)
