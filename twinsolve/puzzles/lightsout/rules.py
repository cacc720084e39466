"""Lights Out: the rules, the file format, and the independent checker.

Rules. A ROWS x COLS board of lights, each in a state 0..K-1 (K = 2 unless
`mod K`, K a prime up to 7). Pressing a cell adds 1 (mod K) to that cell and
its orthogonal neighbours; with `sigma` to the neighbours only; with `torus`
the board wraps around, and on a 1- or 2-wide torus a neighbour reached
twice counts twice. Goal: every light at 0 with the fewest presses; a cell may
be pressed up to K-1 times and presses count with multiplicity.

File: `lightsout ROWS COLS [torus] [sigma] [mod K]` (each option at most
once, in any order), then ROWS lines of COLS digits, no blank line between
them. Solution: `{"presses": ["0110", ...]}`, one digit per cell.

The compact form, for boards too large to print: `lights all` among the
options and no body at all means every light on (state 1). Its sides may
reach `COMPACT_MAX_SIDE` instead of `MAX_SIDE`: the board is held as one row
tuple shared by every row (`Instance.all_on`: 1.6 MB at 10^5 a side, 16 MB
at the cap), and only `hand`'s summary (`summary.py`) solves a board above
`MAX_SIDE` (`too_large`). Why 1,000,000 a side: the summary's polynomial
step grows as the square of the side, and there it already takes about 6
minutes (343 s measured for the first press row of the 10^6 x 10^6 board,
in 40 MB; the whole summary of the 10^5 x 10^5 board takes 8 s), so ten
times more would be ten hours: past the cap a header is more likely a typo
than a board anyone will solve. `format` writes this form for an all-on
board of more than `COMPACT_CELLS` cells (and must, above `MAX_SIDE`), the
grid form for every other board, so the boards shipped in `instances/`
keep their grids, while a large all-on board stays a one-line file (bench
sends each task's text to its workers and hashes it). The instance does not
remember which form it was read from: both forms of a board are one
instance.

Checking. `verify` applies the presses to the whole grid at once (numpy);
a GF(2) board without torus of more than `STREAM_CELLS` cells is checked a
row at a time instead (`verify_rows`, rows as Python ints, bit c = column
c), which holds three press rows, never the grid, so a board too large to
print can also be checked straight from a stream of rows.

The idea every back-end shares: presses commute and pressing K times is a
no-op, so a solution is a vector x over GF(K) with A x = -b, where column
(r, c) of A is the effect of one press at (r, c).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from rich.text import Text

from ...core import drawing
from ...core.errors import quoted
from ...core.geometry import DELTAS, Sized
from ...core.instance_file import (
    BodyLine,
    Layout,
    Metadata,
    ascii_int,
    format_metadata,
    read_layout,
)
from ...core.limits import Limits
from ...core.result import Result, Status, Stopwatch, Tally

__all__ = ["Instance", "parse", "format", "verify", "objective", "render", "brute",
           "press_effect", "PRIMES", "MAX_SIDE", "COMPACT_MAX_SIDE", "COMPACT_CELLS",
           "STREAM_CELLS", "streams", "light_rows", "verify_rows", "every_light_on",
           "lights_on", "too_large"]

PRIMES = (2, 3, 5, 7)
MAX_SIDE = 5000              # a side of a board written as a grid (and of the full solve)
COMPACT_MAX_SIDE = 1_000_000  # a side of a `lights all` board (module docstring: why)
COMPACT_CELLS = 1 << 16      # `format` writes an all-on board above this as `lights all`
STREAM_CELLS = 1 << 16  # GF(2) boards without torus above this are checked a row at a time
BRUTE_MAX_CANDIDATES = 1 << 20

# Offsets of a press: the cell itself (unless sigma), then right, down, left, up.


@dataclass(frozen=True)
class Instance(Sized):
    PUZZLE: ClassVar[str] = "lightsout"

    rows: int
    cols: int
    lights: tuple[tuple[int, ...], ...]
    torus: bool = False
    sigma: bool = False
    modulus: int = 2
    meta: Metadata = ()

    @property
    def variant(self) -> str:
        words = [w for w, on in (("torus", self.torus), ("sigma", self.sigma)) if on]
        if self.modulus != 2:
            words.append(f"mod {self.modulus}")
        return " ".join(words) or "plain"

    @classmethod
    def all_on(cls, rows: int, cols: int | None = None, **variant: Any) -> Instance:
        """The classic board: every light on (state 1)."""
        cols = rows if cols is None else cols
        # One row shared by every row, and by every all-on board this wide: 10^10 cells
        # cheaply, and two such boards compare equal row by row by identity alone.
        return cls(rows, cols, (_lit_row(cols),) * rows, **variant)


@functools.lru_cache(maxsize=2)
def _lit_row(cols: int) -> tuple[int, ...]:
    """The row of `cols` lights at state 1 (cached: every all-on board shares it)."""
    return (1,) * cols


def press_effect(instance: Instance, row: int, col: int) -> list[tuple[int, int]]:
    """The cells one press at (row, col) adds 1 to, with multiplicity."""
    hit = [] if instance.sigma else [(row, col)]
    for dr, dc in DELTAS:
        r, c = row + dr, col + dc
        if instance.torus:
            hit.append((r % instance.rows, c % instance.cols))
        elif 0 <= r < instance.rows and 0 <= c < instance.cols:
            hit.append((r, c))
    return hit


# ---------------------------------------------------------------- parsing

_OPTIONS = ("torus", "sigma", "mod", "lights")
_USAGE = "lightsout ROWS COLS [torus] [sigma] [mod K] [lights all]"


@dataclass(frozen=True)
class _Header:
    rows: int
    cols: int
    torus: bool
    sigma: bool
    modulus: int
    compact: int | None  # the header column of `lights` when the board is `lights all`


def _read_header(layout: Layout) -> _Header:
    """The sizes and options; each option at most once, anything else an error at its word."""
    compact = "lights" in layout.header[3:]
    if not compact and layout.header[0] == "lightsout":
        _refuse_large_grid(layout)
    rows, cols, _options = layout.grid_header(
        "lightsout", _USAGE, COMPACT_MAX_SIDE if compact else MAX_SIDE)
    words = layout.header
    seen: dict[str, int] = {}  # option -> index of its word in the header
    modulus = 2
    index = 3
    while index < len(words):
        word = words[index]
        if word not in _OPTIONS:
            raise layout.word_error(
                index, f"unexpected {quoted(word)} in header (options: torus, sigma, mod K, "
                       f"lights all)")
        if word in seen:
            raise layout.word_error(index, f"option {word!r} given twice (first at column "
                                           f"{layout.header_columns[seen[word]]})")
        seen[word] = index
        if word == "mod":
            index += 1
            modulus = _read_modulus(layout, index)
        elif word == "lights":
            index += 1
            _read_all(layout, index)
        index += 1
    column = layout.header_columns[seen["lights"]] if "lights" in seen else None
    return _Header(rows, cols, "torus" in seen, "sigma" in seen, modulus, column)


def _refuse_large_grid(layout: Layout) -> None:
    """A grid side over MAX_SIDE that `lights all` would allow: say so at the header."""
    for index, (word, what) in enumerate(zip(layout.header[1:3], ("ROWS", "COLS"),
                                             strict=False), 1):
        size = ascii_int(word)
        if size is not None and MAX_SIDE < size <= COMPACT_MAX_SIDE:
            raise layout.word_error(index,
                f"{what} must be a whole number 1..{MAX_SIDE}, got {quoted(word)} (a board with "
                f"every light on may be up to {COMPACT_MAX_SIDE} a side: 'lights all' in "
                f"the header, no grid)")


def _read_all(layout: Layout, index: int) -> None:
    """The `all` of `lights all` at header word `index` (the only value `lights` takes)."""
    value = layout.header[index] if index < len(layout.header) else None
    if value != "all":
        where = index if value is not None else index - 1  # no value: point at `lights`
        raise layout.word_error(
            where, f"option 'lights' takes 'all' (every light on, no grid), got "
                   f"{'nothing' if value is None else quoted(value)}")


def _read_modulus(layout: Layout, index: int) -> int:
    """The K of `mod K` at header word `index`: a prime in PRIMES."""
    value = layout.header[index] if index < len(layout.header) else None
    prime = ascii_int(value)
    if prime not in PRIMES:
        where = index if value is not None else index - 1  # no K: point at `mod`
        raise layout.word_error(
            where, f"mod K needs a prime K in {', '.join(map(str, PRIMES))}, "
                   f"got {'nothing' if value is None else quoted(value)}")
    return prime


_DIGITS = "0123456789"
_DIGIT_VALUES = bytes.maketrans(_DIGITS.encode("ascii"), bytes(range(10)))


def _read_row(layout: Layout, line: BodyLine, number: int, rows: int, cols: int,
              modulus: int) -> tuple[int, ...]:
    """Row `number` (1-based) of the lights, from one body line."""
    row_text = line.text.rstrip()
    if not row_text:
        # Why here and not by counting rows first: the blank line is the mistake, so it
        # is named at its own line rather than as "too many rows" further down.
        raise layout.error(line.number, None,
                           f"blank line inside the grid (expected row {number} of {rows})")
    if len(row_text) != cols:
        raise layout.error(line.number, None, f"row has {len(row_text)} cells, expected {cols}")
    if row_text.strip(_DIGITS[:modulus]):  # some character is no light: find the first
        for column, char in enumerate(row_text, start=1):
            if char not in _DIGITS[:modulus]:
                raise layout.error(line.number, column,
                                   f"light {char!r} is not a digit 0..{modulus - 1}")
    # Why bytes: one C-level translate per row instead of an int() per cell (a 5000x5000
    # grid reads in well under a second instead of ~15 s).
    return tuple(row_text.encode("ascii").translate(_DIGIT_VALUES))


def parse(text: str, source: str | None = None) -> Instance:
    """Read a Lights Out instance; any problem is an `InstanceError`."""
    layout = read_layout(text, source)
    header = _read_header(layout)
    rows, cols, modulus = header.rows, header.cols, header.modulus
    body = layout.body
    if header.compact is not None:
        # Trailing blank lines are already dropped: a body line left is a grid row.
        extra = next((line for line in body if line.text.strip()), None)
        if extra is not None:
            raise layout.error(extra.number, 1, f"no rows of lights may follow 'lights all' "
                                                f"(header column {header.compact}): every "
                                                f"light is on")
        return Instance.all_on(rows, cols, torus=header.torus, sigma=header.sigma,
                               modulus=modulus, meta=layout.metadata)
    lights = [_read_row(layout, line, number, rows, cols, modulus)
              for number, line in enumerate(body[:rows], start=1)]
    if len(lights) < rows:
        last = body[-1].number if body else layout.header_line
        raise layout.error(last, None, f"expected {rows} rows of lights, found {len(lights)}")
    # Trailing blank lines are already dropped, so anything left has a non-blank line.
    extra = next((line for line in body[rows:] if line.text.strip()), None)
    if extra is not None:
        raise layout.error(extra.number, 1, f"more than {rows} rows of lights")
    return Instance(rows, cols, tuple(lights), header.torus, header.sigma, modulus,
                    layout.metadata)


def format(instance: Instance) -> str:  # noqa: A001 - the contract's name
    """The file text of `instance`: `lights all` for a large all-on board (module docstring),
    else the grid. Raises ValueError for a board over MAX_SIDE a side that is not all on:
    no file describes it."""
    header = f"lightsout {instance.rows} {instance.cols}"
    if instance.torus:
        header += " torus"
    if instance.sigma:
        header += " sigma"
    if instance.modulus != 2:
        header += f" mod {instance.modulus}"
    oversized = max(instance.rows, instance.cols) > MAX_SIDE
    if (oversized or instance.cells > COMPACT_CELLS) and every_light_on(instance):
        return format_metadata(instance.meta) + header + " lights all\n"
    if oversized:
        raise ValueError(f"a {instance.rows}x{instance.cols} board has a file form only with "
                         f"every light on (a grid has at most {MAX_SIDE} a side)")
    rows = "".join("".join(map(str, row)) + "\n" for row in instance.lights)
    return format_metadata(instance.meta) + header + "\n" + rows


def every_light_on(instance: Instance) -> bool:
    """Whether every light is at state 1 (what `lights all` means); one comparison per
    distinct row object, so the shared row of an all-on board is read once.

    >>> every_light_on(Instance.all_on(2, 3)), every_light_on(Instance(1, 2, ((1, 0),)))
    (True, False)
    """
    lit = _lit_row(instance.cols)
    previous: tuple[int, ...] | None = None
    for row in instance.lights:
        if row is not previous and row is not lit and row != lit:
            return False
        previous = row
    return True


def lights_on(instance: Instance) -> int:
    """How many lights are not at 0; a row object shared by several rows is counted once.

    >>> lights_on(Instance.all_on(100_000)), lights_on(Instance(1, 3, ((0, 2, 1),)))
    (10000000000, 2)
    """
    counted: dict[int, int] = {}  # id of a row -> its lights on
    total = 0
    for row in instance.lights:
        on = counted.get(id(row))
        if on is None:
            on = counted[id(row)] = len(row) - row.count(0)  # count() runs in C
        total += on
    return total


def too_large(instance: Instance) -> str | None:
    """Why the full solve cannot hold this board's press grid (a side over MAX_SIDE: a
    `lights all` board), or None when it can. The registry's `too_large` target:
    such a board gets only a summary (`summary.py`).

    >>> too_large(Instance.all_on(3)) is None
    True
    >>> print(too_large(Instance.all_on(6000, 2)))
    the 6000x2 board is too large for a full solve, which holds the press grid (sides up to 5000)
    """
    if max(instance.rows, instance.cols) <= MAX_SIDE:
        return None
    return (f"the {instance.rows}x{instance.cols} board is too large for a full solve, "
            f"which holds the press grid (sides up to {MAX_SIDE})")


# ---------------------------------------------------------------- checking

def _press_grid(instance: Instance, solution: Any) -> tuple[np.ndarray | None, list[str]]:
    """The presses as a rows x cols int array, or None and what is wrong with them."""
    if not isinstance(solution, dict) or "presses" not in solution:
        return None, ['solution must be {"presses": [row strings]}']
    presses = solution["presses"]
    if not isinstance(presses, list) or len(presses) != instance.rows:
        return None, [f"presses must be a list of {instance.rows} row strings"]
    for r, row in enumerate(presses):
        if not isinstance(row, str) or len(row) != instance.cols or not row.isascii():
            return None, [f"press row {r} must be a string of {instance.cols} digits"]
    # One byte per digit; anything but '0'..'K-1' lands outside 0..K-1 (bytes below
    # '0' wrap around to large values).
    grid = np.frombuffer("".join(presses).encode("ascii"), dtype=np.uint8) \
        .reshape(instance.rows, instance.cols) - np.uint8(ord("0"))
    bad = np.flatnonzero((grid >= instance.modulus).any(axis=1))
    if bad.size:
        return None, [f"press row {bad[0]} has a digit outside 0..{instance.modulus - 1}"]
    return grid.astype(np.int64), []


def verify(instance: Instance, solution: Any) -> list[str]:
    """Apply the presses to the board, a whole grid at a time; [] if all lights end at 0.

    Each press adds 1 (mod K) to its own light (not in `sigma`) and to its four
    neighbours, which wrap around on the torus: the board plus the presses
    and the four shifted copies of the presses must be 0 everywhere. Boards
    that `streams` are checked a row at a time by `verify_rows`.
    """
    if streams(instance):
        return _verify_streamed(instance, solution)
    presses, problems = _press_grid(instance, solution)
    if presses is None:
        return problems
    effect = np.zeros_like(presses) if instance.sigma else presses.copy()
    if instance.torus:
        for axis in (0, 1):
            effect += np.roll(presses, 1, axis) + np.roll(presses, -1, axis)
    else:
        effect[:, :-1] += presses[:, 1:]
        effect[:, 1:] += presses[:, :-1]
        effect[:-1, :] += presses[1:, :]
        effect[1:, :] += presses[:-1, :]
    lit = np.argwhere((np.array(instance.lights, dtype=np.int64) + effect) % instance.modulus)
    if len(lit):
        return [f"{len(lit)} light(s) still on after the presses, first at row {lit[0][0]}, "
                f"column {lit[0][1]}"]
    return []


def objective(instance: Instance, solution: Any) -> int:
    """Presses, counted with multiplicity."""
    if streams(instance):  # the presses counted row by row: no grid of 10^8 cells
        return sum(int(np.count_nonzero(row)) for row in _press_digits(instance, solution))
    presses, problems = _press_grid(instance, solution)
    if presses is None:
        raise ValueError(problems[0])
    return int(presses.sum())


# ---------------------------------------------------------------- checking a row at a time

def streams(instance: Instance) -> bool:
    """Whether `verify` checks `instance` a row at a time: GF(2), no torus, > STREAM_CELLS."""
    return instance.modulus == 2 and not instance.torus and instance.cells > STREAM_CELLS


_BIT_TEXT = bytes.maketrans(b"\x00\x01", b"01")


def light_rows(instance: Instance) -> Iterator[int]:
    """Each light row of a GF(2) board as an int, bit c = the light in column c.

    A row equal to the one before it (the same tuple, as on an all-on board
    built from one row) is read once.

    >>> list(light_rows(Instance(2, 3, ((1, 1, 0), (0, 0, 1)))))
    [3, 4]
    """
    previous: tuple[int, ...] | None = None
    value = 0
    for row in instance.lights:
        if row is not previous and row != previous:
            previous, value = row, int(bytes(row).translate(_BIT_TEXT)[::-1], 2)
        yield value


class _Malformed(ValueError):
    """A press row `verify` cannot read (the message is the problem)."""


_ZERO = np.uint8(ord("0"))


def _press_digits(instance: Instance, solution: Any) -> Iterator[np.ndarray]:
    """Each GF(2) press row as a uint8 array of 0s and 1s, checked as it is read:
    `_Malformed` at the first row that is not a string of COLS digits 0 and 1."""
    if not isinstance(solution, dict) or "presses" not in solution:
        raise _Malformed('solution must be {"presses": [row strings]}')
    presses = solution["presses"]
    if not isinstance(presses, list) or len(presses) != instance.rows:
        raise _Malformed(f"presses must be a list of {instance.rows} row strings")
    for r, row in enumerate(presses):
        if not isinstance(row, str) or len(row) != instance.cols or not row.isascii():
            raise _Malformed(f"press row {r} must be a string of {instance.cols} digits")
        # As in `_press_grid`: bytes below '0' wrap around to large values.
        digits = np.frombuffer(row.encode("ascii"), dtype=np.uint8) - _ZERO
        if digits.max() > 1:
            raise _Malformed(f"press row {r} has a digit outside 0..1")
        yield digits


def _verify_streamed(instance: Instance, solution: Any) -> list[str]:
    """`verify` for a board that `streams`: each press row string read as an int."""
    presses = (int.from_bytes(np.packbits(digits, bitorder="little").tobytes(), "little")
               for digits in _press_digits(instance, solution))
    try:
        return verify_rows(instance.rows, instance.cols, light_rows(instance), presses,
                           instance.sigma)
    except _Malformed as problem:
        return [str(problem)]


def verify_rows(rows: int, cols: int, lights: Iterable[int], presses: Iterable[int],
                sigma: bool = False) -> list[str]:
    """Check a GF(2) board without torus a row at a time; [] if every light ends at 0.

    `lights` and `presses` give the board's rows as ints, bit c = column c,
    `rows` of each. Light row r ends at its lights plus the presses of row r
    (unless `sigma`), the same presses shifted one column each way, and the
    press rows r - 1 and r + 1, all mod 2 (XOR); every row must end at 0.
    Three press rows are held at a time, so both may be generators.

    >>> verify_rows(1, 3, [0b111], [0b010]), verify_rows(1, 3, [0b111], [0b001])
    ([], ['1 light(s) still on after the presses, first at row 0, column 2'])
    """
    mask = (1 << cols) - 1
    light_iter, press_iter = iter(lights), iter(presses)
    lit, first = 0, (0, 0)
    above, here = 0, next(press_iter, None)
    for r in range(rows):
        light = next(light_iter, None)
        below = next(press_iter, None) if r + 1 < rows else 0
        problem = _row_problem(r, rows, cols, light, here)
        if problem:
            return [problem]
        state = light ^ ((here << 1) & mask) ^ (here >> 1) ^ above ^ (below or 0)
        if not sigma:
            state ^= here
        if state:
            if not lit:
                first = (r, (state & -state).bit_length() - 1)  # the lowest column lit
            lit += state.bit_count()
        above, here = here, below
    if next(press_iter, None) is not None:
        return [f"more than {rows} press rows"]
    if lit:
        return [f"{lit} light(s) still on after the presses, first at row {first[0]}, "
                f"column {first[1]}"]
    return []


def _row_problem(r: int, rows: int, cols: int, light: int | None, presses: int | None) -> str:
    """What is wrong with row r's lights and presses as `verify_rows` reads them ('' if fine)."""
    if light is None:
        return f"expected {rows} light rows, found {r}"
    if presses is None:
        return f"expected {rows} press rows, found {r}"
    if presses < 0 or presses >> cols:
        return f"press row {r} has presses outside columns 0..{cols - 1}"
    return ""


def solution_from_grid(grid: Any) -> dict[str, list[str]]:
    """`{"presses": [...]}` from any rows-of-ints grid (lists, tuples, numpy).

    >>> solution_from_grid([[0, 1], [2, 0]])
    {'presses': ['01', '20']}
    """
    try:
        digits = np.asarray(grid)
    except ValueError:  # ragged rows: not a matrix
        digits = np.zeros(0)
    if (digits.ndim != 2 or digits.dtype.kind not in "biu" or digits.size == 0
            or digits.min() < 0 or digits.max() > 9):
        return {"presses": ["".join(str(int(v)) for v in row) for row in grid]}
    # Why bytes: one str() per cell takes a minute on a 5000x5000 board, this a second.
    cols = digits.shape[1]
    text = (digits.astype(np.uint8) + np.uint8(ord("0"))).tobytes().decode("ascii")
    return {"presses": [text[start:start + cols] for start in range(0, len(text), cols)]}


# ---------------------------------------------------------------- drawing

def render(instance: Instance, solution: dict[str, Any] | None = None,
           width: int | None = None) -> Text:
    """The board (lights on = ●) and, beside it, the presses (digits, highlighted);
    no line wider than `width` (`core.drawing`: compact cells, or a summary).

    A board over `core.drawing.GRID_LIMIT` a side is summarised: lights on, cells pressed.
    """
    presses = solution["presses"] if solution else None
    text = Text()
    title = f"Lights Out {instance.rows}x{instance.cols} ({instance.variant})"
    text.append(title + "\n", style="bold")
    panels = 2 if presses else 1
    gap = drawing.cell_gap(width, lambda g: panels * (1 + g) * instance.cols + 3 * (panels - 1))
    if drawing.too_big(instance.rows, instance.cols) or gap is None:
        counts = [(lights_on(instance), "lights on")]
        if presses:
            counts.append((sum(len(row) - row.count("0") for row in presses), "cells pressed"))
        text.append(drawing.grid_summary(instance.rows, instance.cols, counts, width) + "\n")
        return drawing.wrapped(text, width)
    blank = " " * gap
    board = (1 + gap) * instance.cols
    text.append("board".ljust(board + 3) + "presses\n" if presses else "board\n", style="dim")
    for r, row in enumerate(instance.lights):
        for value in row:
            if instance.modulus == 2:
                text.append(("●" if value else "·") + blank, style="yellow" if value else "dim")
            else:
                text.append(f"{value}{blank}", style="yellow" if value else "dim")
        if presses:
            text.append("   ")
            for ch in presses[r]:
                text.append(("x" if instance.modulus == 2 else ch) + blank if ch != "0"
                            else "." + blank, style="bold magenta" if ch != "0" else "dim")
        text.append("\n")
    return drawing.wrapped(text, width)


# ---------------------------------------------------------------- brute force

def brute(instance: Instance, limits: Limits) -> Result:
    """Every press grid in turn: the test oracle, for boards of at most 2^20 candidates."""
    watch = Stopwatch()
    k, n = instance.modulus, instance.cells
    if k ** n > BRUTE_MAX_CANDIDATES:
        return Result(Status.UNSUPPORTED, message=f"brute handles at most {BRUTE_MAX_CANDIDATES} "
                      f"press grids; this board has {k}^{n}")
    cells = [(r, c) for r in range(instance.rows) for c in range(instance.cols)]
    effects = [press_effect(instance, r, c) for r, c in cells]
    watch.built()
    best: tuple[int, ...] | None = None
    best_cost, optimal_count, solutions, nodes = None, 0, 0, 0
    for presses in itertools.product(range(k), repeat=n):
        nodes += 1
        board = [list(row) for row in instance.lights]
        for times, effect in zip(presses, effects, strict=True):
            for r, c in effect:
                board[r][c] += times
        if any(v % k for row in board for v in row):
            continue
        solutions += 1
        cost = sum(presses)
        if best_cost is None or cost < best_cost:
            best, best_cost, optimal_count = presses, cost, 1
        elif cost == best_cost:
            optimal_count += 1
    stats = watch.stats(nodes=nodes, solutions=solutions)
    if best is None:
        return Result.unsat(limits, stats=stats)
    grid = [best[r * instance.cols:(r + 1) * instance.cols] for r in range(instance.rows)]
    return Result.answer(Status.OPTIMAL, solution_from_grid(grid), best_cost,
                         tally=Tally(optimal_count, complete=True), asked=limits, stats=stats)
