"""Errors a user can cause, reported as one readable line.

`InstanceError` is the only exception a puzzle's `parse` may raise: it names
the source (a file name, or None for text), the 1-based line and column, and
what is wrong. `UsageError` covers bad command-line arguments. The CLI turns
both into one line on stderr and exit code 2; nothing else is ever shown to a
user as a traceback.
"""

from __future__ import annotations

__all__ = ["InstanceError", "UsageError"]


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
