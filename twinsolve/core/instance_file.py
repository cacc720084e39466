"""The shared layout of instance files (README, "Instance files").

UTF-8 text, one instance per file. Lines starting with `#` before the header
are comments; `# key: value` comments are metadata (`expect-objective`,
`source`, ...). The first other non-blank line is the header: the puzzle's
name and its parameters. Everything after the header is the body, read
literally (a body line starting with `#` is a grid row). Trailing blank lines
are dropped; blank lines inside the body are kept for the puzzle to judge.

`read_layout` splits a text into those parts and checks what every puzzle
needs checked (decoding, control characters, a leading UTF-8 byte-order mark
dropped); the puzzle then reads its own header parameters and body, raising
`InstanceError` with line and column.

Metadata the harness acts on is checked here, on every parse, so a typo is an
error at its line instead of a check silently not made: `expect-objective`
(a whole number), `expect-solutions` (a whole number, up to 4000 digits),
`expect-unique` (true or false), `expect-solution` (a JSON object) and `suite`
(full or quick). Any other `expect-*` key is an error, and so is a checked key
given twice. Other keys (`source`, `counted-by`, `note`, ...) are free text.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from .errors import InstanceError, quoted

__all__ = ["Layout", "BodyLine", "read_layout", "decode", "format_metadata", "Metadata",
           "ascii_int", "header_words", "CHECKED_METADATA"]

Metadata = tuple[tuple[str, str], ...]

_META = re.compile(r"#\s*([A-Za-z][\w-]*)\s*:\s*(.*?)\s*$")
_ASCII_INT = re.compile(r"-?[0-9]+")
_BAD_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class BodyLine:
    number: int  # 1-based line number in the file
    text: str


@dataclass(frozen=True)
class Layout:
    source: str | None
    metadata: Metadata
    header: tuple[str, ...]
    header_line: int
    body: tuple[BodyLine, ...]
    header_columns: tuple[int, ...] = ()  # 1-based column of each header word

    def error(self, line: int | None, column: int | None, message: str) -> InstanceError:
        return InstanceError(self.source, line, column, message)

    def header_error(self, message: str) -> InstanceError:
        return InstanceError(self.source, self.header_line, 1, message)

    def word_error(self, index: int, message: str) -> InstanceError:
        """An error at header word `index` (0 = the puzzle's name); past the end: column 1."""
        columns = self.header_columns
        return self.error(self.header_line, columns[index] if index < len(columns) else 1,
                          message)

    def grid_header(self, puzzle: str, usage: str, max_side: int) -> tuple[int, int, list[str]]:
        """Read `PUZZLE ROWS COLS ...`: the two sizes (1..max_side) and the words after them.

        `usage` is the header's full form for messages, e.g. "toy ROWS COLS [goal any|all]".
        """
        words = list(self.header)
        if words[0] != puzzle:
            raise self.header_error(f"expected header '{usage}', got {quoted(words[0])}")
        if len(words) < 3:
            raise self.header_error(f"header needs ROWS and COLS: '{usage}'")
        sizes = []
        for index, (word, what) in enumerate(((words[1], "ROWS"), (words[2], "COLS")), 1):
            size = ascii_int(word)
            if size is None or not 1 <= size <= max_side:
                raise self.word_error(index, f"{what} must be a whole number 1..{max_side}, "
                                        f"got {quoted(word)}")
            sizes.append(size)
        return sizes[0], sizes[1], words[3:]

    def keyword_lines(self, keys: Sequence[str], required: dict[str, str]) -> dict[str, Entry]:
        """A body of `KEYWORD VALUE...` lines: keyword -> (line number, value tokens).

        Each keyword of `keys` at most once; blank lines are skipped; every key of
        `required` must be there (its value is an example line for the message).
        """
        expected = f"{', '.join(keys[:-1])} or {keys[-1]}" if len(keys) > 1 else keys[0]
        found: dict[str, Entry] = {}
        for line in self.body:
            words = tokens(line.text)
            if not words:
                continue
            column, word = words[0]
            if word not in keys:
                raise self.error(line.number, column,
                                 f"unknown line {quoted(word)} (expected {expected})")
            if word in found:
                raise self.error(line.number, column,
                                 f"second {word!r} line (first on line {found[word][0]})")
            found[word] = (line.number, words[1:])
        last = self.body[-1].number if self.body else self.header_line
        for word, example in required.items():
            if word not in found:
                raise self.error(last, None, f"missing {word!r} line (e.g. '{example}')")
        return found


Entry = tuple[int, list[tuple[int, str]]]  # (line number, value tokens as (column, token))
_TOKEN = re.compile(r"\S+")


def tokens(text: str) -> list[tuple[int, str]]:
    """(1-based column, token) for each whitespace-separated token of a line."""
    return [(m.start() + 1, m.group()) for m in _TOKEN.finditer(text)]


def ascii_int(token: str | None, max_digits: int = 9) -> int | None:
    """The integer an ASCII decimal token spells (at most `max_digits` digits), else None.

    `str.isdigit` accepts '²' and '２', which `int` then rejects or reads; this
    accepts exactly what a file format means by a number. The digit cap keeps
    sizes sane; counts of solutions may ask for more.
    """
    if token is None or not _ASCII_INT.fullmatch(token) or len(token.lstrip("-")) > max_digits:
        return None
    return int(token)


def decode(data: bytes, source: str | None) -> str:
    """UTF-8 bytes to text; a bad byte is an `InstanceError` at its line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InstanceError(source, line, column, "not UTF-8 text (binary file?)") from None


def read_text(path: str | os.PathLike[str], source: str | None = None) -> str:
    """The UTF-8 text of the file at `path`; `InstanceError` naming `source` (default: the
    path) when it cannot be read or is not UTF-8."""
    source = str(path) if source is None else source
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InstanceError(source, None, None, f"cannot read file: {exc.strerror}") from None
    return decode(data, source)


def _word_columns(line: str, words: tuple[str, ...]) -> tuple[int, ...]:
    """The 1-based column where each of `words` (`line.split()`, in order) starts."""
    columns, end = [], 0
    for word in words:
        start = line.index(word, end)
        columns.append(start + 1)
        end = start + len(word)
    return tuple(columns)


def _whole(value: str, max_digits: int) -> str | None:
    if ascii_int(value, max_digits) is not None and not value.startswith("-"):
        return None
    if value.isascii() and value.isdigit():
        return f"{quoted(value)} has more than {max_digits} digits"
    return f"{quoted(value)} is not a whole number"


def _one_of(value: str, choices: tuple[str, ...]) -> str | None:
    if value.lower() in choices:
        return None
    return f"{quoted(value)} is not {' or '.join(choices)}"


def _json_object(value: str) -> str | None:
    try:
        parsed = json.loads(value)
    except (ValueError, RecursionError):  # ValueError: bad JSON, or a number too long
        parsed = None
    return None if isinstance(parsed, dict) else f"{quoted(value)} is not a JSON object"


# The metadata keys the harness acts on, each with its value check (a problem or None).
CHECKED_METADATA: dict[str, Callable[[str], str | None]] = {
    "expect-objective": partial(_whole, max_digits=9),
    "expect-solution": _json_object,
    "expect-solutions": partial(_whole, max_digits=4000),
    "expect-unique": partial(_one_of, choices=("true", "false")),
    "suite": partial(_one_of, choices=("full", "quick")),
}
_EXPECT = tuple(key for key in CHECKED_METADATA if key.startswith("expect-"))


def _metadata_problem(key: str, value: str) -> str | None:
    """What is wrong with one `# key: value` line, or None."""
    check = CHECKED_METADATA.get(key)
    if check is not None:
        problem = check(value)
        return None if problem is None else f"metadata {key}: {problem}"
    if key.startswith(("expect-", "expect_")):
        close = difflib.get_close_matches(key, _EXPECT, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return f"unknown metadata key {quoted(key)} ({hint}known: {', '.join(_EXPECT)})"
    return None


def _comment_problem(comment: str) -> str | None:
    """A comment that looks like checked metadata but is not `# key: value`."""
    word = comment.lstrip("#").split(maxsplit=1)
    if word and word[0].lower().startswith(("expect-", "expect_")):
        return f"metadata line needs the form '# {word[0].rstrip(':')}: VALUE'"
    return None


def _read_metadata(lines: list[str], header_index: int, source: str | None) -> Metadata:
    """The `# key: value` lines before the header, each checked (module docstring)."""
    metadata: list[tuple[str, str]] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(lines[:header_index], start=1):
        stripped = line.strip()
        if not stripped:
            continue
        match = _META.fullmatch(stripped)
        if match is None:
            problem = _comment_problem(stripped)
        else:
            key, value = match.group(1).lower(), match.group(2)
            problem = _metadata_problem(key, value)
            if problem is None and key in CHECKED_METADATA and key in first_line:
                problem = f"metadata {key} given twice (first at line {first_line[key]})"
            first_line.setdefault(key, number)
            metadata.append((key, value))
        if problem:
            raise InstanceError(source, number, line.index("#") + 1, problem)
    return tuple(metadata)


def _split(text: str) -> list[str]:
    """The lines of `text`, any newline convention, a leading byte-order mark dropped.

    Why drop the mark: editors on Windows write it, and it would glue itself to the
    first word; it is not a character of line 1, so columns stay as without it.
    """
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _header_index(lines: list[str]) -> int | None:
    """The 0-based index of the header: the first line neither blank nor a comment."""
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return index
    return None


def header_words(text: str) -> tuple[str, ...]:
    """The header line's words (the puzzle's name first, in an instance file); () if none.

    Nothing is checked: this tells an instance from a README before parsing it.

    >>> header_words("# a comment\\n\\ntoy 2 2\\n11\\n11\\n"), header_words("# only\\n")
    (('toy', '2', '2'), ())
    """
    lines = _split(text)
    index = _header_index(lines)
    return () if index is None else tuple(lines[index].split())


def read_layout(text: str, source: str | None = None) -> Layout:
    """Split `text` into metadata, header tokens and body lines."""
    if not isinstance(text, str):
        raise InstanceError(source, None, None, "instance text must be a string")
    lines = _split(text)
    for number, line in enumerate(lines, start=1):
        bad = _BAD_CHARS.search(line)
        if bad:
            raise InstanceError(source, number, bad.start() + 1,
                                f"control character {bad.group()!r} (binary file?)")
    index = _header_index(lines)
    metadata = _read_metadata(lines, len(lines) if index is None else index, source)
    if index is None:
        last = max((n for n, line in enumerate(lines, start=1) if line.strip()), default=1)
        raise InstanceError(source, last, None,
                            "empty instance: no header line (the first line names the "
                            "puzzle, e.g. 'NAME 5 5')")
    body = [BodyLine(n, t) for n, t in enumerate(lines[index + 1:], start=index + 2)]
    while body and not body[-1].text.strip():
        body.pop()
    words = tuple(lines[index].split())
    return Layout(source, metadata, words, index + 1, tuple(body),
                  _word_columns(lines[index], words))


def format_metadata(metadata: Iterable[tuple[str, str]]) -> str:
    """The metadata comment lines that `read_layout` reads back."""
    return "".join(f"# {key}: {value}\n" for key, value in metadata)
