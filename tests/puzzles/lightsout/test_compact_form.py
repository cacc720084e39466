"""The compact Lights Out file, `lightsout ROWS COLS [options] lights all`: every light on.

It reads and writes back the same instance at every size up to the compact cap, the grid
form keeps its own cap, every malformed header is the project's one-line error, and a
100,000 x 100,000 board is held (parsed, formatted, compared, counted, drawn) in a few MB
and milliseconds.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest
from conftest import ROOT, sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.core.errors import InstanceError
from twinsolve.core.run import load_file
from twinsolve.puzzles.lightsout import picture
from twinsolve.puzzles.lightsout import rules as lightsout
from twinsolve.puzzles.lightsout.rules import (
    COMPACT_CELLS,
    COMPACT_MAX_SIDE,
    MAX_SIDE,
    Instance,
)

BIG = "lightsout 100000 100000 lights all\n"

sides = st.one_of(st.integers(1, 300), st.integers(MAX_SIDE - 2, MAX_SIDE + 2),
                  st.integers(1, COMPACT_MAX_SIDE))


def _header(torus: bool, sigma: bool, modulus: int) -> list[str]:
    words = ["torus"] * torus + ["sigma"] * sigma
    return words + ([f"mod {modulus}"] if modulus != 2 else [])


@pytest.mark.parametrize("examples", sampled([20, 60]))  # the long run under `slow`
def test_compact_boards_read_and_write_back_the_same_instance(examples):
    @settings(max_examples=examples)
    @given(sides, sides, st.booleans(), st.booleans(), st.sampled_from(lightsout.PRIMES),
           st.randoms(use_true_random=False))
    def round_trips(rows, cols, torus, sigma, modulus, rng):
        if rows * cols <= COMPACT_CELLS:  # the grid form is written: keep its text small
            rows = min(rows, 256)
            cols = min(cols, COMPACT_CELLS // rows)
        options = _header(torus, sigma, modulus) + ["lights all"]
        rng.shuffle(options)  # options in any order, `lights all` among them
        text = f"# source: test\nlightsout {rows} {cols} {' '.join(options)}\n"
        board = lightsout.parse(text)
        assert board == Instance.all_on(rows, cols, torus=torus, sigma=sigma, modulus=modulus,
                                        meta=(("source", "test"),))
        written = lightsout.format(board)
        compact = max(rows, cols) > MAX_SIDE or rows * cols > COMPACT_CELLS
        assert written.endswith(" lights all\n") == compact
        if compact:
            assert written.count("\n") == 2  # the metadata line and the header: no grid
        assert lightsout.parse(written) == board

    round_trips()


def test_the_grid_and_the_compact_form_of_a_board_are_one_instance():
    grid = lightsout.parse("lightsout 2 3 sigma\n111\n111\n")
    assert lightsout.parse("lightsout 2 3 lights all sigma\n") == grid
    assert lightsout.format(grid) == "lightsout 2 3 sigma\n111\n111\n"  # small: the grid
    grid_text = "lightsout 300 300\n" + ("1" * 300 + "\n") * 300  # 90,000 > COMPACT_CELLS
    wide = lightsout.parse(grid_text)
    assert wide == Instance.all_on(300)
    assert lightsout.format(wide) == "lightsout 300 300 lights all\n"
    almost = Instance(300, 300, ((1,) * 300,) * 299 + ((0,) + (1,) * 299,))
    assert lightsout.format(almost).count("\n") == 301  # one light off: the grid


def test_the_shipped_boards_are_written_as_they_are_stored():
    files = sorted((ROOT / "instances" / "lightsout").rglob("*.txt"))
    assert len(files) >= 40
    for path in files:
        text = path.read_text()
        assert lightsout.format(lightsout.parse(text)) == text, path


def test_a_board_too_large_for_a_grid_has_no_file_unless_every_light_is_on():
    row = (1,) * (MAX_SIDE + 1)
    dark = Instance(2, MAX_SIDE + 1, (row, (0,) + row[1:]))
    with pytest.raises(ValueError, match="a file form only with every light on"):
        lightsout.format(dark)


# ---------------------------------------------------------------- malformed headers

BAD = {
    "lights-alone": ("lightsout 3 3 lights\n", 1, 15,
                     "option 'lights' takes 'all' (every light on, no grid), got nothing"),
    "lights-some": ("lightsout 3 3 lights some\n", 1, 22,
                    "option 'lights' takes 'all' (every light on, no grid), got 'some'"),
    "lights-mod": ("lightsout 3 3 lights mod 3\n", 1, 22,
                   "option 'lights' takes 'all' (every light on, no grid), got 'mod'"),
    "lights-twice": ("lightsout 3 3 lights all torus lights all\n", 1, 32,
                     "option 'lights' given twice (first at column 15)"),
    "all-alone": ("lightsout 3 3 all\n", 1, 15,
                  "unexpected 'all' in header (options: torus, sigma, mod K, lights all)"),
    "body-after": ("lightsout 2 2 lights all\n11\n11\n", 2, 1,
                   "no rows of lights may follow 'lights all' (header column 15): every "
                   "light is on"),
    "body-after-blank": ("# expect-objective: 4\nlightsout 2 2 lights all\n\n\n#1\n", 5, 1,
                         "no rows of lights may follow 'lights all' (header column 15): "
                         "every light is on"),
    "compact-too-large": ("lightsout 1000001 3 lights all\n", 1, 11,
                          "ROWS must be a whole number 1..1000000, got '1000001'"),
    "compact-far-too-large": ("lightsout 3 99999999999 lights all\n", 1, 13,
                              "COLS must be a whole number 1..1000000, got '99999999999'"),
    "compact-zero": ("lightsout 0 3 lights all\n", 1, 11,
                     "ROWS must be a whole number 1..1000000, got '0'"),
    "grid-too-large": ("lightsout 3 5001\n", 1, 13,
                       "COLS must be a whole number 1..5000, got '5001' (a board with every "
                       "light on may be up to 1000000 a side: 'lights all' in the header, "
                       "no grid)"),
    "grid-far-too-large": ("lightsout 3 1000001\n000\n", 1, 13,
                           "COLS must be a whole number 1..5000, got '1000001'"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_malformed_compact_header_is_one_line_naming_file_line_and_column(tmp_path, name):
    text, line, column, message = BAD[name]
    path = tmp_path / f"{name}.txt"
    path.write_text(text)
    with pytest.raises(InstanceError) as caught:
        load_file(path)
    assert str(caught.value) == f"{path}:{line}:{column}: {message}"
    assert "\n" not in str(caught.value)


# ---------------------------------------------------------------- a 10^10-cell board, cheaply

def test_a_100000_square_board_is_held_in_a_few_mb():
    tracemalloc.start()
    try:
        board = lightsout.parse(BIG, "big.txt")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (board.rows, board.cols, board.cells) == (100_000, 100_000, 10 ** 10)
    assert peak < 4 << 20  # one shared row and the tuple of rows: ~1.6 MB


def test_a_100000_square_board_is_written_compared_counted_and_drawn_at_once():
    start = time.perf_counter()
    board = lightsout.parse(BIG)
    assert lightsout.format(board) == BIG
    assert lightsout.parse(lightsout.format(board)) == board
    assert lightsout.every_light_on(board)
    assert lightsout.lights_on(board) == 10 ** 10
    assert "10,000,000,000 lights on" in lightsout.render(board).plain
    page = picture.draw(board)
    assert page.count("rect") <= 1  # the one line of the summary, no cells
    assert lightsout.too_large(board) == ("the 100000x100000 board is too large for a full "
                                          "solve, which holds the press grid (sides up to "
                                          "5000)")
    assert time.perf_counter() - start < 2.0


def test_a_board_within_the_grid_cap_fits_the_full_solve():
    assert lightsout.too_large(Instance.all_on(MAX_SIDE, 1)) is None
    assert lightsout.too_large(Instance.all_on(1, MAX_SIDE + 1)) is not None


def test_counting_lights_reads_each_distinct_row():
    row = (0, 2, 1)
    board = Instance(3, 3, (row, (1, 1, 1), row), modulus=3)
    assert lightsout.lights_on(board) == 7
    assert not lightsout.every_light_on(board)


def test_a_compact_file_loads_as_its_puzzle_with_its_metadata(tmp_path):
    path = Path(tmp_path / "big.txt")
    path.write_text("# source: the all-on board\n" + BIG)
    board = load_file(path)
    assert board.meta == (("source", "the all-on board"),)
    assert lightsout.format(board) == path.read_text()
