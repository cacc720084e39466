"""Strict JSON text to Python values, every problem one `InstanceError` with its place.

`parse_json(text, source)` is `json.loads` with the errors a user can act on:
bad JSON at its line and column, a number of over `MAX_DIGITS` digits (what
Python's `int` refuses) at its line, nesting too deep. A leading UTF-8
byte-order mark is dropped. The instance sources and every puzzle's dataset
reader read JSON through this one function, so a file is refused the same way
whether it is found in a folder or imported.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import InstanceError

__all__ = ["parse_json", "MAX_DIGITS"]

# Python's own default limit for int(str) (sys.get_int_max_str_digits), fixed here so the
# same file is read the same way whatever the interpreter is set to.
MAX_DIGITS = 4300


class _NumberTooLong(Exception):
    def __init__(self, digits: str) -> None:
        super().__init__(digits)
        self.digits = digits


def _whole_number(digits: str) -> int:
    """`parse_int` for `json.loads`: refuse what `int` would refuse without saying where."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _NumberTooLong(digits)
    return int(digits)


def _position(text: str, offset: int) -> tuple[int | None, int | None]:
    """1-based (line, column) of `offset` in `text`; (None, None) for a negative offset."""
    if offset < 0:
        return None, None
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def parse_json(text: str, source: str | None) -> Any:
    """The JSON document in `text`; anything the decoder refuses is an `InstanceError`.

    A leading UTF-8 byte-order mark (editors on Windows write one) is dropped.
    """
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text, parse_int=_whole_number)
    except json.JSONDecodeError as exc:
        raise InstanceError(source, exc.lineno, exc.colno, f"not valid JSON: {exc.msg}") from None
    except _NumberTooLong as exc:
        # The decoder does not say where: the first place those digits occur is the number
        # (the same 4301+ digits inside an earlier string is not worth a real scanner).
        line, column = _position(text, text.find(exc.digits))
        digits = len(exc.digits.lstrip("-"))
        raise InstanceError(source, line, column,
                            f"number with {digits} digits (at most {MAX_DIGITS})") from None
    except RecursionError:
        raise InstanceError(source, None, None, "JSON nested too deeply") from None
    except ValueError as exc:  # anything else the decoder refuses: still one line
        raise InstanceError(source, None, None, f"not valid JSON: {exc}") from None
