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

import re

from ...core.errors import InstanceError, quoted
from . import rules

__all__ = ["decode_url", "encode_url", "is_url", "TYPE_NAMES"]

TYPE_NAMES = ("slither", "slitherlink")

_URL = re.compile(r"(?:https?://)?(?:www\.)?(?:puzz\.link|pzv\.jp|pzprxs\.vercel\.app)"
                  r"/p(?:\.html)?\?(?P<query>.*)", re.IGNORECASE | re.DOTALL)
_SKIP_FIRST = ord("g")  # 'g' skips 1 cell ... 'z' skips 20
_MAX_SKIP = 20
_FOLLOWED = ("01234", "56789", "abcde")  # a clue, and 0, 1 or 2 empty cells after it


def is_url(text: str) -> bool:
    """True if `text` is a puzz.link / pzv.jp URL of a Slitherlink.

    >>> is_url("https://puzz.link/p?slither/3/2/h3i"), is_url("https://puzz.link/p?cave/3/2/h3i")
    (True, False)
    """
    if not isinstance(text, str):
        return False
    match = _URL.fullmatch(text.strip())
    return match is not None and match.group("query").split("/", 1)[0].lower() in TYPE_NAMES


class _Reader:
    """Turns problems into `InstanceError`s at a 1-based column of the original URL."""

    def __init__(self, source: str | None, line: int | None, offset: int) -> None:
        self.source, self.line, self.offset = source, line, offset

    def error(self, index: int | None, message: str) -> InstanceError:
        column = None if index is None else self.offset + index + 1
        return InstanceError(self.source, self.line, column, message)


def _read_size(reader: _Reader, text: str, index: int, what: str) -> int:
    value = int(text) if re.fullmatch(r"[0-9]{1,6}", text) else None
    if value is None or not 1 <= value <= rules.MAX_SIDE:
        raise reader.error(index, f"{what} must be a whole number 1..{rules.MAX_SIDE}, "
                           f"got {quoted(text)}")
    return value


def _split_query(reader: _Reader, query: str) -> tuple[int, int, str, int]:
    """(rows, cols, body, index of the body in the query) from `TYPE/COLS/ROWS/BODY`."""
    parts = query.split("/", 3)
    kind = parts[0]
    if kind.lower() not in TYPE_NAMES:
        raise reader.error(0, f"puzzle type {quoted(kind)} is not Slitherlink (expected one "
                           f"of {', '.join(TYPE_NAMES)})")
    if len(parts) < 3:
        raise reader.error(len(query), "missing size: expected TYPE/COLS/ROWS/BODY")
    cols_at = len(kind) + 1
    rows_at = cols_at + len(parts[1]) + 1
    cols = _read_size(reader, parts[1], cols_at, "COLS")
    rows = _read_size(reader, parts[2], rows_at, "ROWS")
    body = parts[3] if len(parts) > 3 else ""
    return rows, cols, body, rows_at + len(parts[2]) + 1


def _read_body(reader: _Reader, body: str, total: int) -> list[int | None]:
    """The clues in row-major order (None: no clue)."""
    cells: list[int | None] = []
    for index, char in enumerate(body):
        if len(cells) >= total:
            raise reader.error(index, f"too many cells: the body continues after all "
                               f"{total} cells ({body[index:index + 10]!r}...)")
        if "g" <= char <= "z":
            run = [None] * (ord(char) - _SKIP_FIRST + 1)
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
    if not isinstance(url, str):
        raise InstanceError(source, line, None, "a puzz.link URL must be text")
    stripped = url.strip()
    match = _URL.fullmatch(stripped)
    if match is None:
        raise InstanceError(source, line, 1 if stripped else None, "not a puzz.link URL "
                            "(expected https://puzz.link/p?slither/COLS/ROWS/...)")
    leading = len(url) - len(url.lstrip())
    reader = _Reader(source, line, leading + match.start("query"))
    rows, cols, body, body_at = _split_query(reader, match.group("query"))
    cells = _read_body(_Reader(source, line, reader.offset + body_at), body, rows * cols)
    grid = [cells[r * cols:(r + 1) * cols] for r in range(rows)]
    return rules.build_instance(rows, cols, grid, (("source", stripped),), source, line)


def encode_url(instance: rules.Instance) -> str:
    """The canonical puzz.link URL of `instance`.

    >>> encode_url(decode_url("https://puzz.link/p?slither/3/2/h3i"))  # the 3 takes two
    'https://puzz.link/p?slither/3/2/hdg'
    >>> encode_url(rules.parse("slitherlink 1 5\\n3 - - 0 -\\n"))
    'https://puzz.link/p?slither/5/1/d5'
    """
    cells = [clue for row in instance.clues for clue in row]
    out: list[str] = []
    empty_run, index = 0, 0
    while index < len(cells):
        clue = cells[index]
        if clue is None:
            empty_run += 1
            if empty_run == _MAX_SKIP:
                out.append(chr(_SKIP_FIRST + empty_run - 1))
                empty_run = 0
            index += 1
            continue
        if empty_run:
            out.append(chr(_SKIP_FIRST + empty_run - 1))
            empty_run = 0
        empties = 0  # the empty cells the clue's character takes with it, at most 2
        while empties < 2 and index + 1 + empties < len(cells) \
                and cells[index + 1 + empties] is None:
            empties += 1
        out.append(_FOLLOWED[empties][clue])
        index += 1 + empties
    if empty_run:
        out.append(chr(_SKIP_FIRST + empty_run - 1))
    return f"https://puzz.link/p?slither/{instance.cols}/{instance.rows}/{''.join(out)}"
