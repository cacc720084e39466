"""Lights Out, the `hand` back-end: light chasing, then polynomials or elimination, then the coset.

Rules (see `twinsolve.puzzles.lightsout.rules`): a press adds 1 mod K to its cell
(unless `sigma`) and its orthogonal neighbours (wrapping on a `torus`, where
a neighbour reached twice counts twice); make every light 0 with the fewest
presses, a cell pressed 0..K-1 times.

The idea. Presses commute, so a solution is a vector x over GF(K) with
A x = -b, and the solutions form a coset: one particular solution plus the
span of the kernel of A.

The polynomial method: GF(2) boards without `torus` (plain or `sigma`).
Write a press row as a vector of COLS bits, let P be the adjacency matrix
of the path on COLS cells (a press reaches its row neighbours) and T = I + P
(T = P with `sigma`): what a row's presses do to their own row. Light
chasing (step 1 below) from a first row x gives press row r as
f_r(T) x + c_r, with f_0 = 1, f_1 = t, f_{r+1} = t f_r + f_{r-1} (the
Chebyshev polynomials U_r(t/2) over GF(2)) and c_r the chase of the lights
from x = 0; the board is solved exactly when the row a chase would press
below the board, f_ROWS(T) x + c_ROWS, is 0. Everything about that system is
polynomial arithmetic, because P is cyclic: column j's unit vector is
e_j = f_j(P) e_0, so v = a(P) e_0 identifies vectors with GF(2)[y] / (mu),
mu = f_COLS(y) being P's characteristic (and minimal) polynomial. With
g(y) = f_ROWS(y + 1) (f_ROWS(y) with `sigma`) mod mu, the matrix f_ROWS(T)
is g(P), so:
- the nullity is deg d for d = gcd(g, mu) (the kernel of g(P) is that of
  d(P): the a(P) e_0 with mu / d dividing a), whatever the lights;
- the board is solvable iff d divides a_c = sum_j c_j f_j(y), the
  polynomial of c = c_ROWS (Clenshaw's recurrence);
- with s g = d mod mu (extended Euclid), x = s(P) (a_c / d)(P) e_0 solves it:
  g(P) x = (s g (a_c / d))(P) e_0 = a_c(P) e_0 = c.
The press rows then follow by chasing bit rows (Python ints, bit c = column
c): x_{r+1} = b_r ^ T x_r ^ x_{r-1}, with T x = x ^ (x << 1) ^ (x >> 1) cut to
COLS bits. No matrix is built: Euclid, Clenshaw, Horner and the chases are
O(ROWS + COLS) shift-and-XORs of COLS-bit integers
(`twinsolve.search.gf2poly`), and the all-on 10,000 x 10,000 board is
solved and checked in under a second. The method answers every board it
applies to when the nullity is 0 or `minimise` is off (any solution); with
a kernel and `minimise` the coset search needs every kernel grid, and the
board takes the elimination route. `solve_summary` runs the method on a
board too large to print, checking each row as it is chased and keeping
none.

Elimination, for every other board (torus, mod K) and the fewest presses
of a board with a kernel, in three steps:

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
3. The fewest presses in the coset (`twinsolve.search.coset_min`, the
   engine's exact coset search). Over GF(2) the weight of every member
   p + sum(y_i k_i) at once is (N - W(y)) / 2, W the Walsh-Hadamard
   transform of the cells' signs by kernel pattern: exhaustive, exact, and
   it counts the ties, 2^18 members per transform. The board's turns and
   mirrors that keep its lights (`symmetries`: all eight on a square
   all-on board) map solutions to solutions of the same weight, so one
   chunk per orbit is transformed, and the members each symmetry fixes
   (on the all-on n x n board, those symmetric under the half turn: half
   the nullity) are searched first for a bound; a chunk whose bound (the
   presses its tail cannot change) exceeds the best so far is skipped.
   Mod K the cells are grouped by (particular digit, kernel digits) and a
   table of tail digit combinations is added to each head, pruned the
   same way. The search stops with `feasible` (the best so far) at the
   deadline or node limit.

`walk_coset` is a second, human-scale coset search that `solve` does not
use: a depth-first branch and bound over the kernel coefficients that
counts the members it examines. The graded generator (`generate.py`) takes
it as the technique between chasing alone and the exhaustive search.

Stats: `nodes` = elimination pivot operations (one per forced cell of the
chase plus one per row reduced in `gf2`; the polynomial method: one per
forced cell) + coset members examined; counters `nullity` (kernel
dimension), `solutions` (K**nullity when solvable, else 0), `pivots` and
`candidates` (the two parts of `nodes`), `method` (`polynomial` or
`elimination`). Options: `minimise` (default true); false returns the
particular solution as `feasible` (or `optimal` when it is the only
solution). So does a board whose kernel grids would take more than
`MAX_PATTERN_BYTES` (with a `message` saying so). `method=elimination`
takes the elimination route on every board (the polynomial method's
check and yardstick); the default, `auto`, the polynomial method where it
applies. `jobs=N` (default 1) walks the coset in N forked processes: the
same answer, count and grid, on N cores (a nullity-42 board in about half
the time on two).

The deadline and node limit bound the coset search, which then returns the
best so far as `feasible`. Elimination yields the first solution, so the
deadline alone does not stop it; a board that cannot be eliminated within
the limit and its grace (thousands of rows) is stopped there by the run's
time limit (`core.time_limit`, checkpoints in the chase and in `gf2`) and
the run is a `timeout`.

References: K. Sutner, "Linear cellular automata and the Garden-of-Eden",
Math. Intelligencer 11 (1989) 49-53 (sigma-automata, their Chebyshev
polynomials); A. E. Brouwer, "Lights Out and Button Madness Games"
(win.tue.nl/~aeb/ca/madness/madrect.html: the nullity of the m x n board as
the degree of a gcd of Chebyshev polynomials over GF(2), the formula of OEIS
A159257); the light-chasing method is folklore of the puzzle (J.
Scherphuis, jaapsch.net/puzzles/lights.htm).
"""

from __future__ import annotations

import collections
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from ...core.limits import Limits
from ...core.result import UNSETTLED, Result, Stats, Status, Stopwatch, Tally
from ...core.time_limit import checkpoint
from ...search.coset_min import Best, Effort, fewest_digits, fewest_ones
from ...search.gf2 import (
    LinearSolution,
    pack_rows,
    row_parity,
    solve_gf2_augmented,
    solve_gfp,
    unpack_rows,
    words_for,
)
from ...search.gf2poly import (
    chebyshev,
    chebyshev_combination,
    degree,
    divide,
    evaluate,
    extended_gcd,
    gcd,
)
from .rules import Instance, light_rows, solution_from_grid, verify_rows

__all__ = ["solve", "check_options", "nullity", "kernel_dimension", "coset", "Coset",
           "walk_coset", "Walk", "METHODS", "symmetries", "polynomial_applies", "FirstRow",
           "first_row",
           "solve_summary"]

MAX_PATTERN_BYTES = 1 << 30  # memory for every kernel grid; beyond it, no minimising
METHODS = ("auto", "elimination")  # the `method` option: see the module docstring
CHECK_ROWS = 256        # the polynomial chase asks the time limit once per this many rows


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


# ---------------------------------------------------------------- the polynomial method

def polynomial_applies(instance: Instance) -> bool:
    """Whether the polynomial method handles `instance`: GF(2) without torus (sigma or not)."""
    return instance.modulus == 2 and not instance.torus


class _BitRows:
    """Press rows of a COLS-wide GF(2) board as ints, bit c = column c, and the maps on them."""

    def __init__(self, cols: int, sigma: bool) -> None:
        self.mask = (1 << cols) - 1
        self.sigma = sigma

    def neighbours(self, row: int) -> int:
        """P x: what row x's presses do to their row neighbours."""
        return ((row << 1) & self.mask) ^ (row >> 1)

    def own_row(self, row: int) -> int:
        """T x: what row x's presses do to their own row (P x, plus x itself unless sigma)."""
        spread = self.neighbours(row)
        return spread if self.sigma else spread ^ row


def _bit_chase(bits: _BitRows, first: int, lights: Sequence[int]) -> Iterator[int]:
    """Press rows x_0 = first, x_{r+1} = b_r + T x_r + x_{r-1}: yields x_0 .. x_ROWS.

    Press (r + 1, c) is the last press that reaches light (r, c), so it is
    forced to cancel it; x_ROWS, what a row below the board would have to
    press, is 0 exactly when the presses solve the board.
    """
    above, current = 0, first
    yield current
    for r, light in enumerate(lights):
        if r % CHECK_ROWS == 0:
            checkpoint(grace=True)  # the limit counts here, as in the elimination's chase
        above, current = current, light ^ bits.own_row(current) ^ above
        yield current


def _last_row_map(rows: int, cols: int, sigma: bool) -> tuple[int, int]:
    """(g, mu): the last row's map f_ROWS(T) as g(P), g reduced mod mu = f_COLS, P's
    characteristic polynomial (see the module docstring)."""
    minimal = chebyshev(cols)
    return chebyshev(rows, shift=0 if sigma else 1, modulus=minimal), minimal


@dataclass(frozen=True)
class FirstRow:
    """What the polynomial method settles before the rows are chased.

    `nullity` is the kernel dimension; `presses` the first press row of one
    solution (bit c = column c), or None when the board has none.
    """

    nullity: int
    presses: int | None


def first_row(cols: int, lights: Sequence[int], sigma: bool = False) -> FirstRow:
    """The nullity and a solution's first press row of a GF(2) board without torus.

    `lights` holds the ROWS light rows as ints, bit c = column c.

    >>> found = first_row(3, [0b111] * 3)  # the all-on 3 x 3 board: press the corners
    >>> found.nullity, bin(found.presses)
    (0, '0b101')
    """
    bits = _BitRows(cols, sigma)
    last, minimal = _last_row_map(len(lights), cols, sigma)
    common, inverse, _ = extended_gcd(last, minimal)  # inverse * last = common (mod minimal)
    target = collections.deque(_bit_chase(bits, 0, lights), maxlen=1)[0]  # c_ROWS
    quotient, rest = divide(chebyshev_combination(target), common)
    if rest:
        return FirstRow(degree(common), None)
    quotient_row = evaluate(quotient, bits.neighbours, 1)  # (a_c / d)(P) e_0
    return FirstRow(degree(common), evaluate(inverse, bits.neighbours, quotient_row))


def _polynomial_nullity(rows: int, cols: int, sigma: bool) -> int:
    return degree(gcd(*_last_row_map(rows, cols, sigma)))


def _polynomial_stats(watch: Stopwatch, rows: int, cols: int, found: FirstRow,
                      solved: bool) -> Stats:
    """`solve`'s stats for the polynomial method: one node per cell the chase forces."""
    forced = (rows - 1) * cols
    candidates = 1 if solved and found.nullity == 0 else 0
    return watch.stats(nodes=forced + candidates, nullity=found.nullity,
                       solutions=2 ** found.nullity if solved else 0, pivots=forced,
                       candidates=candidates, method="polynomial")


def _solved_status(found: FirstRow) -> tuple[Status, Tally]:
    """A solution of a nullity-0 board is the only one; otherwise any, not the fewest."""
    return (Status.OPTIMAL, Tally(1, complete=True)) if found.nullity == 0 \
        else (Status.FEASIBLE, UNSETTLED)


_DIGIT_ZERO = np.uint8(ord("0"))


def _row_text(row: int, cols: int) -> str:
    """A bit row as the solution's digits, column 0 first (numpy: twice as fast as format)."""
    raw = np.frombuffer(row.to_bytes(-(-cols // 8), "little"), dtype=np.uint8)
    digits = np.unpackbits(raw, count=cols, bitorder="little")
    digits += _DIGIT_ZERO
    return digits.tobytes().decode("ascii")


def _solve_polynomial(instance: Instance, limits: Limits) -> Result | None:
    """`solve` by the polynomial method; None when the coset search needs elimination."""
    watch = Stopwatch()
    lights = list(light_rows(instance))
    watch.built()
    found = first_row(instance.cols, lights, instance.sigma)
    if found.presses is None:
        stats = _polynomial_stats(watch, instance.rows, instance.cols, found, False)
        return Result.unsat(limits, stats=stats)
    if found.nullity and limits.flag("minimise", True):
        return None
    bits = _BitRows(instance.cols, instance.sigma)
    presses = list(itertools.islice(_bit_chase(bits, found.presses, lights), instance.rows))
    text = [_row_text(row, instance.cols) for row in presses]
    status, tally = _solved_status(found)
    stats = _polynomial_stats(watch, instance.rows, instance.cols, found, True)
    return Result.answer(status, {"presses": text}, sum(row.bit_count() for row in presses),
                         tally=tally, asked=limits, stats=stats)


class _Counted:
    """The press rows passing through, their presses counted."""

    def __init__(self, rows: Iterator[int]) -> None:
        self.rows = rows
        self.presses = 0

    def __iter__(self) -> Iterator[int]:
        for row in self.rows:
            self.presses += row.bit_count()
            yield row


def solve_summary(rows: int, cols: int, lights: Sequence[int] | None = None,
                  sigma: bool = False, limits: Limits | None = None) -> Result:
    """Solve and check a GF(2) board without torus, never holding its press grid.

    `lights` holds the ROWS light rows as ints, bit c = column c (None: every
    light on). The polynomial method finds the first press row; the rest are
    chased one at a time straight into the rules' streamed check
    (`rules.verify_rows`), their presses counted on the way, so memory stays
    at a few rows besides `lights` (and the all-on board's `lights` is one
    int repeated).

    Returns a `Result` without a solution, already checked (not one for
    `core.run.check`, which wants the grid): status `optimal` (nullity 0:
    the only solution), `feasible` (nullity > 0: a solution, not the
    fewest) or `unsat`, and `wrong` when the check fails; `objective` is
    the presses, `verified` the check's verdict, `message` its first
    problem, stats as `solve` reports them.

    >>> summary = solve_summary(3, 3)
    >>> summary.status.value, summary.objective, summary.verified
    ('optimal', 5, True)
    """
    if lights is not None and len(lights) != rows:
        raise ValueError(f"expected {rows} light rows, got {len(lights)}")
    limits = limits or Limits()
    watch = Stopwatch()
    lights = [(1 << cols) - 1] * rows if lights is None else lights
    watch.built()
    found = first_row(cols, lights, sigma)
    if found.presses is None:
        return Result.unsat(limits, stats=_polynomial_stats(watch, rows, cols, found, False))
    chased = _Counted(itertools.islice(_bit_chase(_BitRows(cols, sigma), found.presses,
                                                  lights), rows))
    problems = verify_rows(rows, cols, lights, chased, sigma)
    status, tally = _solved_status(found)
    result = Result.answer(status, None, chased.presses, tally=tally, asked=limits,
                           stats=_polynomial_stats(watch, rows, cols, found, True))
    if problems:
        return result.with_(status=Status.WRONG, verified=False, message=problems[0])
    return result.with_(verified=True)


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
                     modulus: int = 2, method: str = "auto") -> int:
    """The nullity of the press matrix: log_K of the number of solutions of a solvable board.

    `method` as `solve`'s option: `auto` (the gcd of the polynomial method
    where it applies) or `elimination`.

    >>> kernel_dimension(5, 5), kernel_dimension(4, 4), kernel_dimension(3, 3, torus=True)
    (2, 4, 4)
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if method == "auto" and modulus == 2 and not torus:
        return _polynomial_nullity(rows, cols, sigma)
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

def symmetries(instance: Instance) -> list[np.ndarray]:
    """The board's turns and mirrors that keep its lights: cell permutations (row-major).

    Each maps a solution m to the solution m[perm] of the same board (the
    press rule is the same seen turned or mirrored, torus and sigma
    included), so the coset search walks one chunk per orbit. A square board
    has the eight of the dihedral group, any other the half turn and the two
    mirrors.

    >>> len(symmetries(Instance.all_on(4))), len(symmetries(Instance.all_on(3, 5)))
    (7, 3)
    """
    shape = (instance.rows, instance.cols)
    index = np.arange(instance.cells).reshape(shape)
    turned = [np.rot90(index, 2), index[::-1], index[:, ::-1]]
    if instance.rows == instance.cols:
        turned += [np.rot90(index, 1), np.rot90(index, 3), index.T, np.rot90(index, 2).T]
    lights = np.array(instance.lights, dtype=np.int64).reshape(-1)
    return [perm.reshape(-1) for perm in turned if np.array_equal(lights[perm.reshape(-1)], lights)]


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
    stats = watch.stats(nodes=nodes, nullity=nullity_, solutions=0, pivots=nodes, candidates=0,
                        method="elimination")
    return Result.unsat(limits, stats=stats)


def check_options(limits: Limits) -> None:
    """hand's options, `minimise=true|false`, `method=auto|elimination` and `jobs=N`
    (the registry's checker)."""
    limits.check_options("hand", ("minimise", "method", "jobs"))
    limits.flag("minimise", True)
    limits.choice("method", "auto", METHODS)
    limits.whole("jobs", 1, minimum=1)


def solve(instance: Instance, limits: Limits) -> Result:
    """Fewest presses turning every light off (see the module docstring).

    >>> board = Instance.all_on(5)
    >>> result = solve(board, Limits(unique=True, count=True))
    >>> result.status.value, result.objective, result.unique, result.count
    ('optimal', 15, False, 4)
    """
    if limits.choice("method", "auto", METHODS) == "auto" and polynomial_applies(instance):
        answer = _solve_polynomial(instance, limits)
        if answer is not None:
            return answer
    return _solve_by_elimination(instance, limits)


def _solve_by_elimination(instance: Instance, limits: Limits) -> Result:
    """`solve` by light chasing, elimination and the coset search (module docstring)."""
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

    budget = Effort(deadline, limits.node_limit, pivots)
    best = Best(int(_apply(cells, field, None).sum()), None)
    if dimension == 0:  # the only solution: nothing to search
        budget.nodes += 1
        budget.candidates += 1
        best.ties, complete = 1, True
    elif not minimise:
        complete = False
    elif modulus == 2:
        complete = fewest_ones(cells, dimension, budget, best, symmetries(instance),
                               jobs=limits.whole("jobs", 1, minimum=1))
    else:
        complete = fewest_digits(cells, dimension, modulus, budget, best)

    digits = _apply(cells, field, best.choice).reshape(instance.rows, instance.cols)
    stats = watch.stats(nodes=budget.nodes, nullity=dimension, solutions=modulus ** dimension,
                        pivots=pivots, candidates=budget.candidates, method="elimination")
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
