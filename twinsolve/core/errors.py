"""Errors a user can cause, reported as one readable line.

`InstanceError` is the only exception a puzzle's `parse` may raise: it names
the source (a file name, or None for text), the 1-based line and column, and
what is wrong. `UsageError` covers bad command-line arguments. The CLI turns
both into one line on stderr and exit code 2; nothing else is ever shown to a
user as a traceback.

`quoted(value)` is how every such message shows what the user wrote: quoted,
and cut to about 60 characters with `...`, so that one long line of a file
(or a long argument) makes a message of one short line, never of megabytes.
"""

from __future__ import annotations

from typing import Any

__all__ = ["InstanceError", "UsageError", "quoted", "QUOTE_LIMIT"]

QUOTE_LIMIT = 60  # characters of user input an error message quotes


def quoted(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """`value` as a message quotes it: `repr` of a string, cut to `limit` characters + `...`.

    A value that is not a string (a number from JSON, say) is shown by its `repr`, cut
    the same way.

    >>> quoted("pour 0 1"), quoted("x" * 100, limit=8), quoted(12), quoted([1] * 40, limit=6)
    ("'pour 0 1'", "'xxxxxxxx...'", '12', '[1, 1,...')
    """
    if isinstance(value, str):
        return repr(value if len(value) <= limit else value[:limit] + "...")
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


class InstanceError(ValueError):
    """A puzzle instance that cannot be read.

    >>> str(InstanceError("x.txt", 3, 5, "digit 7 is not below mod 2"))
    'x.txt:3:5: digit 7 is not below mod 2'
    """

    def __init__(
        self, source: str | None, line: int | None, column: int | None, message: str
    ) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.message = message
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = self.source or "<text>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"

    def __reduce__(self):  # picklable, so errors cross process boundaries intact
        return (type(self), (self.source, self.line, self.column, self.message))


class UsageError(ValueError):
    """A bad argument: unknown puzzle or back-end, bad option value, missing path."""
