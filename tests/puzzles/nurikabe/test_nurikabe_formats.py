"""Nurikabe's puzz.link URLs and pictures.

URLs: decoded clue for clue (hex digits, escapes, `.` for `?`, g..z skips),
written back to the same canonical text, refused in one line naming the
column; the CLI solves and imports them. Pictures: the sea filled, islands
dotted, every clue written, the same bytes every time.
"""

from __future__ import annotations

import pytest

from twinsolve.core.errors import InstanceError
from twinsolve.graphics import canvas
from twinsolve.puzzles.nurikabe import picture, puzzlink
from twinsolve.puzzles.nurikabe import rules as nurikabe

URL = "https://puzz.link/p?nurikabe/5/5/g3k2i1m4k"


def test_a_url_decodes_clue_for_clue_and_encodes_back():
    instance = puzzlink.decode_url(URL)
    tokens = [[cell.token for cell in row] for row in instance.clues]
    assert tokens == [["-", "3", "-", "-", "-"], ["-", "-", "2", "-", "-"],
                      ["-", "1", "-", "-", "-"], ["-", "-", "-", "-", "4"],
                      ["-", "-", "-", "-", "-"]]
    assert dict(instance.meta)["source"] == URL
    assert puzzlink.encode_url(instance) == URL
    short = puzzlink.decode_url(URL[:-1] + "h")  # cells after a short body are empty
    assert short.clues == instance.clues


@pytest.mark.parametrize("number", [1, 15, 16, 255, 256, 4095, 4096, 8191, 8192])
def test_every_escape_round_trips(number):
    rows = 100 if number > 255 else 16
    grid = [[nurikabe.EMPTY] * 100 for _ in range(rows)]
    grid[0][0] = nurikabe.Cell.clue(number)
    grid[1][1] = nurikabe.UNKNOWN
    instance = nurikabe.Instance(rows, 100, tuple(map(tuple, grid)))
    again = puzzlink.decode_url(puzzlink.encode_url(instance))
    assert again.clues == instance.clues


@pytest.mark.parametrize("url, column, words", [
    ("https://puzz.link/p?cave/2/2/g", 21, "is not Nurikabe"),
    ("https://puzz.link/p?nurikabe/2/x/g", 32, "ROWS must be a whole number"),
    ("https://puzz.link/p?nurikabe/2/2/5", 34, "clue 5 is impossible"),
    ("https://puzz.link/p?nurikabe/2/2/jj", 35, "too many cells"),
    ("https://puzz.link/p?nurikabe/2/2/-1", 34, "escape '-' needs 2 hex digits"),
    ("https://puzz.link/p?nurikabe/2/2/#", 34, "unexpected character '#'"),
    ("https://puzz.link/p?nurikabe/2", 31, "missing size"),
])
def test_bad_urls_name_the_column(url, column, words):
    with pytest.raises(InstanceError) as caught:
        puzzlink.decode_url(url)
    assert caught.value.column == column and words in caught.value.message


def test_only_puzz_link_hosts_are_urls():
    assert puzzlink.is_url(URL) and puzzlink.is_url("pzv.jp/p.html?nurikabe/1/1/1")
    assert not puzzlink.is_url("https://example.com/p?nurikabe/1/1/1")


def test_a_clue_too_large_for_a_url_is_refused():
    instance = nurikabe.Instance(150, 100, tuple(
        tuple(nurikabe.Cell.clue(12288) if (r, c) == (0, 0) else nurikabe.EMPTY
              for c in range(100)) for r in range(150)))
    with pytest.raises(ValueError, match="at most 12287"):
        puzzlink.encode_url(instance)


def test_the_picture_fills_the_sea_and_writes_every_clue():
    instance = nurikabe.parse("nurikabe 3 3\n3 - -\n- - -\n- - 1\n")
    plain = picture.draw(instance)
    solved = picture.draw(instance, {"shaded": ["001", "011", "110"]})
    svg = canvas.svg(solved)
    assert plain.count("text") == solved.count("text") == 2
    assert solved.count("circle") == 2  # the island cells without a clue
    assert svg.count(f'fill="{picture.SEA}"') == 5
    assert svg == canvas.svg(picture.draw(instance, {"shaded": ["001", "011", "110"]}))
    with pytest.raises(ValueError, match="3 rows of 3 cells"):
        picture.draw(instance, {"shaded": ["00", "00"]})


def test_a_huge_grid_draws_as_one_line():
    instance = nurikabe.Instance(150, 2, tuple((nurikabe.EMPTY, nurikabe.EMPTY)
                                               for _ in range(150)))
    assert picture.draw(instance).count("text") == 1
