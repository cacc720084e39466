"""The shared layout of instance files (DESIGN.md, "Instance files").

UTF-8 text, one instance per file. Lines starting with `#` before the header
are comments; `# key: value` comments are metadata (`expect-objective`,
`source`, ...). The first other non-blank line is the header: the puzzle's
name and its parameters. Everything after the header is the body, read
literally (a body line starting with `#` is a grid row). Trailing blank lines
are dropped; blank lines inside the body are kept for the puzzle to judge.

`read_layout` splits a text into those parts and checks what every puzzle
needs checked (decoding, control characters); the puzzle then reads its own
header parameters and body, raising `InstanceError` with line and column.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import InstanceError

__all__ = ["Layout", "BodyLine", "read_layout", "decode", "format_metadata", "Metadata",
           "ascii_int"]

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

    def error(self, line: int | None, column: int | None, message: str) -> InstanceError:
        return InstanceError(self.source, line, column, message)

    def header_error(self, message: str) -> InstanceError:
        return InstanceError(self.source, self.header_line, 1, message)

    def grid_header(self, puzzle: str, usage: str, max_side: int) -> tuple[int, int, list[str]]:
        """Read `PUZZLE ROWS COLS ...`: the two sizes (1..max_side) and the words after them.

        `usage` is the header's full form for messages, e.g. "mirror ROWS COLS [goal any|all]".
        """
        words = list(self.header)
        if words[0] != puzzle:
            raise self.header_error(f"expected header '{usage}', got {words[0]!r}")
        if len(words) < 3:
            raise self.header_error(f"header needs ROWS and COLS: '{usage}'")
        sizes = []
        for word, what in ((words[1], "ROWS"), (words[2], "COLS")):
            size = ascii_int(word)
            if size is None or not 1 <= size <= max_side:
                raise self.header_error(f"{what} must be a whole number 1..{max_side}, "
                                        f"got {word!r}")
            sizes.append(size)
        return sizes[0], sizes[1], words[3:]


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


def read_layout(text: str, source: str | None = None) -> Layout:
    """Split `text` into metadata, header tokens and body lines."""
    if not isinstance(text, str):
        raise InstanceError(source, None, None, "instance text must be a string")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, start=1):
        bad = _BAD_CHARS.search(line)
        if bad:
            raise InstanceError(source, number, bad.start() + 1,
                                f"control character {bad.group()!r} (binary file?)")
    metadata: list[tuple[str, str]] = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            match = _META.fullmatch(stripped)
            if match:
                metadata.append((match.group(1).lower(), match.group(2)))
            continue
        body = [BodyLine(n, t) for n, t in enumerate(lines[index + 1:], start=index + 2)]
        while body and not body[-1].text.strip():
            body.pop()
        return Layout(source, tuple(metadata), tuple(stripped.split()), index + 1, tuple(body))
    last = max((n for n, line in enumerate(lines, start=1) if line.strip()), default=1)
    raise InstanceError(source, last, None,
                        "empty instance: no header line (e.g. 'lightsout 5 5')")


def format_metadata(metadata: Iterable[tuple[str, str]]) -> str:
    """The metadata comment lines that `read_layout` reads back."""
    return "".join(f"# {key}: {value}\n" for key, value in metadata)
