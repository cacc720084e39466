"""puzz.link URLs for Slitherlink: `https://puzz.link/p?slither/COLS/ROWS/BODY`.

The URL names the type (`slither`, or `slitherlink`), then the size with
COLUMNS FIRST, then a body read row by row, cell by cell (pzprjs'
"4Cell" encoding):

- `0`-`4`: a clue; `5`-`9`: a clue 0..4 followed by one empty cell;
  `a`-`e`: a clue 0..4 followed by two empty cells;
- `g`..`z`: skip 1..20 empty cells;
- `.`: a clue whose number is not given, which constrains nothing: read as
  an empty cell.

The encoder writes the shortest form (a clue takes the empty cells after it
when it can, a final skip covers trailing empty cells), so a canonical URL
round-trips character for character. Like pzprjs, the decoder treats cells
after a short body as empty; a body that runs past the last cell is an
error. Hosts `puzz.link`, `pzv.jp` and `pzprxs.vercel.app` are read; the
encoder writes `puzz.link`. `is_url` claims only Slitherlink URLs, so other
puzzles' readers get theirs.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...files.puzzlink import SKIP_FIRST, UrlFormat, UrlReader, encode_body
from . import rules

__all__ = ["decode_url", "encode_url", "is_url", "TYPE_NAMES"]

TYPE_NAMES = ("slither", "slitherlink")

_FORMAT = UrlFormat(TYPE_NAMES, "Slitherlink", rules.MAX_SIDE)
_FOLLOWED = ("01234", "56789", "abcde")  # a clue, and 0, 1 or 2 empty cells after it


def is_url(text: str) -> bool:
    """True if `text` is a puzz.link / pzv.jp URL of a Slitherlink.

    >>> is_url("https://puzz.link/p?slither/3/2/h3i"), is_url("https://puzz.link/p?cave/3/2/h3i")
    (True, False)
    """
    return _FORMAT.is_url(text)


def _read_body(reader: UrlReader, body: str, rows: int, cols: int) -> list[int | None]:
    """The clues in row-major order (None: no clue)."""
    total = rows * cols
    cells: list[int | None] = []
    for index, char in enumerate(body):
        if len(cells) >= total:
            raise reader.error(index, f"too many cells: the body continues after all "
                               f"{total} cells ({body[index:index + 10]!r}...)")
        if "g" <= char <= "z":
            run = [None] * (ord(char) - SKIP_FIRST + 1)
        elif char == ".":
            run = [None]
        else:
            empties = next((k for k, chars in enumerate(_FOLLOWED) if char in chars), None)
            if empties is None:
                raise reader.error(index, f"unexpected character {char!r} in the body "
                                   "(expected 0-9, a-e, '.' or g-z)")
            run = [_FOLLOWED[empties].index(char)] + [None] * empties
        if len(cells) + len(run) > total:
            raise reader.error(index, f"too many cells: {char!r} runs past the last of "
                               f"{total} cells")
        cells.extend(run)
    return cells + [None] * (total - len(cells))


def decode_url(url: str, source: str | None = None, line: int | None = 1) -> rules.Instance:
    """A Slitherlink instance from a puzz.link URL; any problem is an `InstanceError` at
    `line` and, where it points at a character, the 1-based column in `url`.

    The instance keeps the URL as `# source:` metadata.

    >>> decode_url("https://puzz.link/p?slither/3/2/h3i").clues
    ((None, None, 3), (None, None, None))
    """
    rows, cols, grid, stripped = _FORMAT.decode(url, source, line, _read_body)
    return rules.build_instance(rows, cols, grid, (("source", stripped),), source, line)


def _token(cells: Sequence[int | None], index: int) -> tuple[str, int]:
    """A clue and the empty cells its character takes with it (at most 2)."""
    clue = cells[index]
    if clue is None:
        return "", 1
    empties = 0
    while empties < 2 and index + 1 + empties < len(cells) \
            and cells[index + 1 + empties] is None:
        empties += 1
    return _FOLLOWED[empties][clue], 1 + empties


def encode_url(instance: rules.Instance) -> str:
    """The canonical puzz.link URL of `instance`.

    >>> encode_url(decode_url("https://puzz.link/p?slither/3/2/h3i"))  # the 3 takes two
    'https://puzz.link/p?slither/3/2/hdg'
    >>> encode_url(rules.parse("slitherlink 1 5\\n3 - - 0 -\\n"))
    'https://puzz.link/p?slither/5/1/d5'
    """
    cells = [clue for row in instance.clues for clue in row]
    return _FORMAT.url(instance.rows, instance.cols, encode_body(cells, _token))
