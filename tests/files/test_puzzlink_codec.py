"""puzz.link plumbing and the number16 codec shared by grid puzzles (`files.puzzlink`), on
a toy type: round trips at every escape's bounds, errors at their column of the URL."""

from __future__ import annotations

import pytest

from twinsolve.core.clue_grid import EMPTY, UNKNOWN, Cell
from twinsolve.core.errors import InstanceError
from twinsolve.files.puzzlink import (
    NUMBER16,
    NUMBER16_WIDE,
    UrlFormat,
    encode_body,
    number16_token,
    read_number16,
)

TOY = UrlFormat(("toy",), "Toy", 200)
TOYS = UrlFormat(("toy", "toys"), "Toy", 200)


def _decode(url: str, url_format: UrlFormat = TOY, escapes=NUMBER16_WIDE):
    def read_body(reader, body, rows, cols):
        return read_number16(reader, body, rows, cols, lambda number: None, escapes)

    return url_format.decode(url, "u.txt", 3, read_body)


def _encode(cells, escapes=NUMBER16_WIDE) -> str:
    body = encode_body(cells, lambda cells, index: (number16_token(cells[index], escapes), 1))
    return TOY.url(1, len(cells), body)


@pytest.mark.parametrize("number", [0, 15, 16, 255, 256, 4095, 4096, 8191, 8192, 12287])
def test_every_clue_number_round_trips(number):
    cells = [EMPTY] * 21 + [Cell.clue(number), UNKNOWN, EMPTY]
    url = _encode(cells)
    assert _decode(url)[2] == [cells] and _encode(_decode(url)[2][0]) == url


def test_skips_and_a_short_body():
    assert _encode([EMPTY] * 21) == "https://puzz.link/p?toy/21/1/zg"
    assert _decode("puzz.link/p?toy/3/1/1")[2] == [[Cell.clue(1), EMPTY, EMPTY]]


def test_a_clue_past_the_escapes_is_refused_when_written():
    with pytest.raises(ValueError, match=r"at most 4095\)"):
        number16_token(Cell.clue(4096), NUMBER16)
    with pytest.raises(ValueError, match=r"at most 12287\)"):
        number16_token(Cell.clue(12288), NUMBER16_WIDE)


@pytest.mark.parametrize("url, url_format, escapes, column, message", [
    ("https://puzz.link/p?lits/1/1/", TOY, NUMBER16_WIDE, 21,
     "puzzle type 'lits' is not Toy (expected toy)"),
    ("https://puzz.link/p?lits/1/1/", TOYS, NUMBER16_WIDE, 21,
     "puzzle type 'lits' is not Toy (expected one of toy, toys)"),
    ("https://puzz.link/p?toy/0/1/", TOY, NUMBER16_WIDE, 25, "COLS must be a whole number "
     "1..200, got '0'"),
    ("https://puzz.link/p?toy/x/1/", TOYS, NUMBER16_WIDE, 25, "COLS must be a whole number "
     "1..200, got 'x'"),
    ("https://puzz.link/p?toy/2/1/=0", TOY, NUMBER16, 29, "unexpected character '=' in the "
     "body (expected 0-9, a-f, '-', '+', '.' or g-z)"),
    ("https://puzz.link/p?toy/2/1/%01", TOY, NUMBER16_WIDE, 29,
     "escape '%' needs 3 hex digits (0-9a-f), got '01'"),
    ("https://puzz.link/p?toy/2/1/1h", TOY, NUMBER16_WIDE, 30,
     "too many cells: skip 'h' runs past the last of 2 cells"),
])
def test_a_bad_url_is_one_error_at_its_column(url, url_format, escapes, column, message):
    with pytest.raises(InstanceError) as caught:
        _decode(url, url_format, escapes)
    error = caught.value
    assert (error.source, error.line, error.column, error.message) == ("u.txt", 3, column,
                                                                       message)
