"""puzz.link URLs of clue-grid puzzles: `https://puzz.link/p?TYPE/COLS/ROWS/BODY`.

Rules. The URL names the puzzle type, then the size with COLUMNS FIRST,
then a body read row by row, cell by cell. Hosts `puzz.link`, `pzv.jp` and
`pzprxs.vercel.app` are read (with or without `https://`, `www.`,
`p.html`); the encoder writes `puzz.link`. Like pzprjs, a decoder treats
cells after a short body as empty; a body that runs past the last cell is an
error. Every problem is an `InstanceError` at the URL's line and, where it
points at a character, its 1-based column in the URL.

Bodies share the skip letters: `g`..`z` skip 1..20 empty cells. pzprjs'
"number16" body, for example, is read and written here (`read_number16`,
`number16_token`): `0`-`9`, `a`-`f` one hex digit, a clue 0..15; `-` and 2
hex digits a clue 0..255; `+` and 3 hex digits 0..4095; `=` and `%` and 3
hex digits 4096..8191 and 8192..12287, for the types whose decoder reads
them; `.` a clue cell without a number.

The idea: a puzzle's URL module says what is its own (its type names, its
title, its body's reading) in one `UrlFormat`, and uses this module's
plumbing and codecs; the encoder always writes the shortest form (a final
skip for trailing empty cells), so a canonical URL round-trips character
for character.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.clue_grid import EMPTY, UNKNOWN, Cell, CellKind
from ..core.errors import InstanceError, quoted

__all__ = ["UrlReader", "UrlFormat", "is_puzzlink_url", "encode_body", "read_number16",
           "number16_token", "SKIP_FIRST", "NUMBER16", "NUMBER16_WIDE"]

_URL = re.compile(r"(?:https?://)?(?:www\.)?(?:puzz\.link|pzv\.jp|pzprxs\.vercel\.app)"
                  r"/p(?:\.html)?\?(?P<query>.*)", re.IGNORECASE | re.DOTALL)
_HEX = "0123456789abcdef"
SKIP_FIRST = ord("g")  # 'g' skips 1 cell ... 'z' skips 20
_MAX_SKIP = 20
# number16's escapes: escape character -> (hex digits after it, number added).
NUMBER16 = {"-": (2, 0), "+": (3, 0)}
NUMBER16_WIDE = {**NUMBER16, "=": (3, 4096), "%": (3, 8192)}


def is_puzzlink_url(text: str) -> bool:
    """True if `text` looks like a puzz.link / pzv.jp URL (of any puzzle type).

    >>> is_puzzlink_url("https://puzz.link/p?cave/6/6/k3h6j2l7g3g2h3n")
    True
    """
    return isinstance(text, str) and _URL.fullmatch(text.strip()) is not None


class UrlReader:
    """Turns problems into `InstanceError`s at a 1-based column of the original URL."""

    def __init__(self, source: str | None, line: int | None, offset: int) -> None:
        self.source, self.line, self.offset = source, line, offset

    def error(self, index: int | None, message: str) -> InstanceError:
        column = None if index is None else self.offset + index + 1
        return InstanceError(self.source, self.line, column, message)


# A body reader: (reader at the body, body, rows, cols) -> the cells in row-major order.
BodyReader = Callable[[UrlReader, str, int, int], list[Any]]


@dataclass(frozen=True)
class UrlFormat:
    """One puzzle's URLs: its type names (the first is the one written), its title in
    messages, and its largest side."""

    types: tuple[str, ...]
    title: str
    max_side: int

    def is_url(self, text: str) -> bool:
        """True if `text` is a puzz.link / pzv.jp URL of this puzzle (the registry asks each
        puzzle's reader in turn, so a reader claims only its own puzzle types)."""
        if not is_puzzlink_url(text):
            return False
        query = _URL.fullmatch(text.strip()).group("query")
        return query.split("/", 1)[0].lower() in self.types

    def decode(self, url: str, source: str | None, line: int | None,
               read_body: BodyReader) -> tuple[int, int, list[list[Any]], str]:
        """(rows, cols, the grid of cells `read_body` read, the URL stripped) of `url`."""
        if not isinstance(url, str):
            raise InstanceError(source, line, None, "a puzz.link URL must be text")
        stripped = url.strip()
        match = _URL.fullmatch(stripped)
        if match is None:
            raise InstanceError(source, line, 1 if stripped else None, "not a puzz.link URL "
                                f"(expected https://puzz.link/p?{self.types[0]}/COLS/ROWS/...)")
        leading = len(url) - len(url.lstrip())
        reader = UrlReader(source, line, leading + match.start("query"))
        rows, cols, body, body_at = self._split_query(reader, match.group("query"))
        cells = read_body(UrlReader(source, line, reader.offset + body_at), body, rows, cols)
        return rows, cols, [cells[r * cols:(r + 1) * cols] for r in range(rows)], stripped

    def url(self, rows: int, cols: int, body: str) -> str:
        return f"https://puzz.link/p?{self.types[0]}/{cols}/{rows}/{body}"

    def decode_cells(self, url: str, source: str | None, line: int | None,
                     clue_problem: Callable[[int, int, int], str | None],
                     build: Callable[..., Any],
                     escapes: dict[str, tuple[int, int]] = NUMBER16) -> Any:
        """The instance `build(rows, cols, grid, meta, source, line)` makes of a number16
        URL, its clues checked by `clue_problem(number, rows, cols)` at their column and
        the URL kept as `# source:` metadata."""
        def read_body(reader: UrlReader, body: str, rows: int, cols: int) -> list[Cell]:
            return read_number16(reader, body, rows, cols,
                                 lambda number: clue_problem(number, rows, cols), escapes)

        rows, cols, grid, stripped = self.decode(url, source, line, read_body)
        return build(rows, cols, grid, (("source", stripped),), source, line)

    def encode_cells(self, instance: Any, escapes: dict[str, tuple[int, int]] = NUMBER16
                     ) -> str:
        """The canonical URL of a grid of `Cell`s in number16 (runs of empty cells as
        g..z)."""
        cells = [cell for row in instance.clues for cell in row]
        body = encode_body(cells, lambda cells, index: (number16_token(cells[index], escapes),
                                                        1))
        return self.url(instance.rows, instance.cols, body)

    def _read_size(self, reader: UrlReader, text: str, index: int, what: str) -> int:
        value = int(text) if re.fullmatch(r"[0-9]{1,6}", text) else None
        if value is None or not 1 <= value <= self.max_side:
            raise reader.error(index, f"{what} must be a whole number 1..{self.max_side}, "
                               f"got {quoted(text)}")
        return value

    def _split_query(self, reader: UrlReader, query: str) -> tuple[int, int, str, int]:
        """(rows, cols, body, index of the body in the query) from `TYPE/COLS/ROWS/BODY`."""
        parts = query.split("/", 3)
        kind = parts[0]
        if kind.lower() not in self.types:
            one_of = "one of " if len(self.types) > 1 else ""
            raise reader.error(0, f"puzzle type {quoted(kind)} is not {self.title} (expected "
                               f"{one_of}{', '.join(self.types)})")
        if len(parts) < 3:
            raise reader.error(len(query), "missing size: expected TYPE/COLS/ROWS/BODY")
        cols_at = len(kind) + 1
        rows_at = cols_at + len(parts[1]) + 1
        cols = self._read_size(reader, parts[1], cols_at, "COLS")
        rows = self._read_size(reader, parts[2], rows_at, "ROWS")
        body = parts[3] if len(parts) > 3 else ""
        return rows, cols, body, rows_at + len(parts[2]) + 1


# ---------------------------------------------------------------- bodies

def encode_body(cells: Sequence[Any], token: Callable[[Sequence[Any], int], tuple[str, int]]
                ) -> str:
    """A body from the cells in row-major order: `token(cells, index)` is ("", 1) for an
    empty cell, else (the characters, the cells they stand for); runs of empty cells
    become skip letters."""
    out: list[str] = []
    empty_run, index = 0, 0
    while index < len(cells):
        text, used = token(cells, index)
        index += used
        if not text:
            empty_run += 1
            if empty_run == _MAX_SKIP:  # a skip letter holds at most 20 cells
                out.append(chr(SKIP_FIRST + empty_run - 1))
                empty_run = 0
            continue
        if empty_run:
            out.append(chr(SKIP_FIRST + empty_run - 1))
            empty_run = 0
        out.append(text)
    if empty_run:
        out.append(chr(SKIP_FIRST + empty_run - 1))
    return "".join(out)


def read_number16(reader: UrlReader, body: str, rows: int, cols: int,
                  clue_problem: Callable[[int], str | None],
                  escapes: dict[str, tuple[int, int]] = NUMBER16) -> list[Cell]:
    """The `Cell`s of a number16 body in row-major order; clue numbers are checked by
    `clue_problem` here so that an impossible clue is reported at its column in the URL."""
    total = rows * cols
    cells: list[Cell] = []
    index = 0
    while index < len(body):
        char = body[index]
        if len(cells) >= total:
            raise reader.error(index, f"too many cells: the body continues after all "
                               f"{total} cells ({body[index:index + 10]!r}...)")
        if "g" <= char <= "z":
            skip = ord(char) - SKIP_FIRST + 1
            if len(cells) + skip > total:
                raise reader.error(index, f"too many cells: skip {char!r} runs past the last "
                                   f"of {total} cells")
            cells.extend([EMPTY] * skip)
            index += 1
            continue
        if char == ".":
            cells.append(UNKNOWN)
            index += 1
            continue
        number, width = _read_number(reader, body, index, escapes)
        problem = clue_problem(number)
        if problem:
            raise reader.error(index, problem)
        cells.append(Cell.clue(number))
        index += width
    return cells + [EMPTY] * (total - len(cells))


def _read_number(reader: UrlReader, body: str, index: int,
                 escapes: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """(clue number, characters used) for the hex digit or escape at `index`."""
    char = body[index]
    if char in _HEX:
        return int(char, 16), 1
    if char in escapes:
        digits, base = escapes[char]
        text = body[index + 1:index + 1 + digits]
        if len(text) != digits or any(ch not in _HEX for ch in text):
            raise reader.error(index, f"escape {char!r} needs {digits} hex digits (0-9a-f), "
                               f"got {text!r}")
        return base + int(text, 16), 1 + digits
    expected = ", ".join(repr(escape) for escape in escapes)
    raise reader.error(index, f"unexpected character {char!r} in the body "
                       f"(expected 0-9, a-f, {expected}, '.' or g-z)")


def number16_token(cell: Cell, escapes: dict[str, tuple[int, int]] = NUMBER16) -> str:
    """A `Cell` in a number16 body: "" for an empty cell; ValueError for a clue past the
    escapes' largest number."""
    if cell.kind is CellKind.UNKNOWN:
        return "."
    number = cell.number
    if number is None:
        return ""
    if 0 <= number < 16:
        return _HEX[number]
    for escape, (digits, base) in escapes.items():
        if base <= number < base + 16 ** digits:
            return f"{escape}{number - base:0{digits}x}"
    digits, base = list(escapes.values())[-1]
    raise ValueError(f"clue {number} is too large for a puzz.link URL (at most "
                     f"{base + 16 ** digits - 1})")
