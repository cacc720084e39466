"""puzz.link URLs for Cave: `https://puzz.link/p?cave/COLS/ROWS/BODY`.

The URL names the type (`cave`, or its alias `bag`), then the size with
COLUMNS FIRST, then a body read row by row, cell by cell (pzprjs'
"number16" encoding):

- `0`-`9`, `a`-`f`: one hex digit, a clue 0..15;
- `-` and 2 hex digits: a clue 16..255; `+` and 3 hex digits: 256..4095;
- `.`: a `?` clue (inside, no count);
- `g`..`z`: skip 1..20 empty cells.

The encoder writes the shortest form, with a final skip for trailing empty
cells, so a canonical URL round-trips character for character. Like pzprjs,
the decoder treats cells after a short body as empty; a body that runs past
the last cell is an error. Hosts `puzz.link`, `pzv.jp` and `pzprxs.vercel.app`
are read; the encoder writes `puzz.link`. Clue numbers are then checked by the
Cave rules (a clue must be 1..ROWS+COLS-1).
"""

from __future__ import annotations

import re

from ...core.errors import InstanceError, quoted
from . import rules as cave

__all__ = ["decode_url", "encode_url", "is_puzzlink_url", "is_url", "TYPE_NAMES"]

TYPE_NAMES = ("cave", "bag")

_URL = re.compile(r"(?:https?://)?(?:www\.)?(?:puzz\.link|pzv\.jp|pzprxs\.vercel\.app)"
                  r"/p(?:\.html)?\?(?P<query>.*)", re.IGNORECASE | re.DOTALL)
_HEX = "0123456789abcdef"
_SKIP_FIRST = ord("g")  # 'g' skips 1 cell ... 'z' skips 20
_MAX_SKIP = 20
# Escape character -> number of hex digits after it.
_ESCAPES = {"-": 2, "+": 3}


def is_puzzlink_url(text: str) -> bool:
    """True if `text` looks like a puzz.link / pzv.jp URL (of any puzzle type).

    >>> is_puzzlink_url("https://puzz.link/p?cave/6/6/k3h6j2l7g3g2h3n")
    True
    """
    return isinstance(text, str) and _URL.fullmatch(text.strip()) is not None


def is_url(text: str) -> bool:
    """True if `text` is a puzz.link / pzv.jp URL of a Cave (the registry asks each puzzle's
    reader in turn, so a reader claims only its own puzzle types).

    >>> is_url("https://puzz.link/p?cave/6/6/k3h6j2l7g3g2h3n"), is_url("puzz.link/p?slither/1/1/1")
    (True, False)
    """
    if not is_puzzlink_url(text):
        return False
    query = _URL.fullmatch(text.strip()).group("query")
    return query.split("/", 1)[0].lower() in TYPE_NAMES


class _Reader:
    """Turns problems into `InstanceError`s at a 1-based column of the original URL."""

    def __init__(self, source: str | None, line: int | None, offset: int) -> None:
        self.source, self.line, self.offset = source, line, offset

    def error(self, index: int | None, message: str) -> InstanceError:
        column = None if index is None else self.offset + index + 1
        return InstanceError(self.source, self.line, column, message)


def _read_size(reader: _Reader, text: str, index: int, what: str) -> int:
    if not re.fullmatch(r"[0-9]{1,6}", text):
        raise reader.error(index, f"{what} must be a whole number 1..{cave.MAX_SIDE}, "
                           f"got {quoted(text)}")
    value = int(text)
    if not 1 <= value <= cave.MAX_SIDE:
        raise reader.error(index, f"{what} must be a whole number 1..{cave.MAX_SIDE}, got {value}")
    return value


def _split_query(reader: _Reader, query: str) -> tuple[int, int, str, int]:
    """(rows, cols, body, index of the body in the query) from `TYPE/COLS/ROWS/BODY`."""
    parts = query.split("/", 3)
    kind = parts[0]
    if kind.lower() not in TYPE_NAMES:
        raise reader.error(0, f"puzzle type {quoted(kind)} is not Cave (expected one of "
                           f"{', '.join(TYPE_NAMES)})")
    if len(parts) < 3:
        raise reader.error(len(query), "missing size: expected TYPE/COLS/ROWS/BODY")
    cols_at = len(kind) + 1
    rows_at = cols_at + len(parts[1]) + 1
    cols = _read_size(reader, parts[1], cols_at, "COLS")
    rows = _read_size(reader, parts[2], rows_at, "ROWS")
    body = parts[3] if len(parts) > 3 else ""
    return rows, cols, body, rows_at + len(parts[2]) + 1


def _read_body(reader: _Reader, body: str, rows: int, cols: int) -> list[cave.Cell]:
    """The cells in row-major order; clue numbers are checked against the rules here so
    that an impossible clue is reported at its column in the URL."""
    total = rows * cols
    cells: list[cave.Cell] = []
    index = 0
    while index < len(body):
        char = body[index]
        if len(cells) >= total:
            raise reader.error(index, f"too many cells: the body continues after all "
                               f"{total} cells ({body[index:index + 10]!r}...)")
        if "g" <= char <= "z":
            skip = ord(char) - _SKIP_FIRST + 1
            if len(cells) + skip > total:
                raise reader.error(index, f"too many cells: skip {char!r} runs past the last "
                                   f"of {total} cells")
            cells.extend([cave.EMPTY] * skip)
            index += 1
            continue
        if char == ".":
            cells.append(cave.UNKNOWN)
            index += 1
            continue
        number, width = _read_number(reader, body, index)
        problem = cave.clue_problem(number, rows, cols)
        if problem:
            raise reader.error(index, problem)
        cells.append(cave.Cell.clue(number))
        index += width
    return cells + [cave.EMPTY] * (total - len(cells))


def _read_number(reader: _Reader, body: str, index: int) -> tuple[int, int]:
    """(clue number, characters used) for the hex digit or escape at `index`."""
    char = body[index]
    if char in _HEX:
        return int(char, 16), 1
    if char in _ESCAPES:
        digits = _ESCAPES[char]
        text = body[index + 1:index + 1 + digits]
        if len(text) != digits or any(ch not in _HEX for ch in text):
            raise reader.error(index, f"escape {char!r} needs {digits} hex digits (0-9a-f), "
                               f"got {text!r}")
        return int(text, 16), 1 + digits
    raise reader.error(index, f"unexpected character {char!r} in the body "
                       "(expected 0-9, a-f, '-', '+', '.' or g-z)")


def decode_url(url: str, source: str | None = None, line: int | None = 1) -> cave.Instance:
    """A Cave instance from a puzz.link URL; any problem is an `InstanceError` at `line`
    and, where it points at a character, the 1-based column in `url`.

    The instance keeps the URL as `# source:` metadata.

    >>> decode_url("https://puzz.link/p?cave/3/2/h3i").clues[0][2].number
    3
    """
    if not isinstance(url, str):
        raise InstanceError(source, line, None, "a puzz.link URL must be text")
    stripped = url.strip()
    match = _URL.fullmatch(stripped)
    if match is None:
        raise InstanceError(source, line, 1 if stripped else None,
                            "not a puzz.link URL (expected https://puzz.link/p?cave/COLS/ROWS/...)")
    leading = len(url) - len(url.lstrip())
    reader = _Reader(source, line, leading + match.start("query"))
    query = match.group("query")
    rows, cols, body, body_at = _split_query(reader, query)
    body_reader = _Reader(source, line, reader.offset + body_at)
    cells = _read_body(body_reader, body, rows, cols)
    grid = [cells[r * cols:(r + 1) * cols] for r in range(rows)]
    return cave.build_instance(rows, cols, grid, (("source", stripped),), source, line)


def _encode_cell(cell: cave.Cell) -> str:
    if cell.kind is cave.CellKind.UNKNOWN:
        return "."
    number = cell.number
    if number is None:
        return ""
    if 0 <= number < 16:
        return _HEX[number]
    if number < 256:
        return f"-{number:02x}"
    if number < 4096:
        return f"+{number:03x}"
    raise ValueError(f"clue {number} is too large for a puzz.link URL (at most 4095)")


def encode_url(instance: cave.Instance) -> str:
    """The canonical puzz.link URL of `instance` (runs of empty cells as g..z).

    >>> encode_url(decode_url("https://puzz.link/p?cave/3/2/h3i"))
    'https://puzz.link/p?cave/3/2/h3i'
    """
    out: list[str] = []
    empty_run = 0
    for row in instance.clues:
        for cell in row:
            token = _encode_cell(cell)
            if not token:
                empty_run += 1
                if empty_run == _MAX_SKIP:  # a skip letter holds at most 20 cells
                    out.append(chr(_SKIP_FIRST + empty_run - 1))
                    empty_run = 0
                continue
            if empty_run:
                out.append(chr(_SKIP_FIRST + empty_run - 1))
                empty_run = 0
            out.append(token)
    if empty_run:
        out.append(chr(_SKIP_FIRST + empty_run - 1))
    return f"https://puzz.link/p?cave/{instance.cols}/{instance.rows}/{''.join(out)}"
