"""Strict JSON text to Python values, every problem one `InstanceError` with its place.

`parse_json(text, source)` is `json.loads` with the errors a user can act on:
bad JSON at its line and column, a number of over `MAX_DIGITS` digits (what
Python's `int` refuses) at its line, arrays and objects nested over
`MAX_DEPTH` deep at the bracket that goes too deep. A leading UTF-8
byte-order mark is dropped.

Why a depth of our own: the decoder's limit is Python's recursion limit less
the caller's stack, so the same file would be read at one call depth and
refused at another, and whatever walks the values afterwards (`json.dumps`,
`==`, `copy.deepcopy`) recurses too. Nothing the project reads is more than
a few levels deep (a replay: 7). The depth is measured without a Python loop
per bracket (strings cut out, all but the brackets deleted, their running
sum taken by `itertools.accumulate`); only a refused file is scanned again,
bracket by bracket, for the place.

The instance sources, every puzzle's dataset reader and the stealth game's
replays read JSON through this one function, so a file is refused the same
way whether it is found in a folder, imported or replayed.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate, repeat
from typing import Any

from .errors import InstanceError

__all__ = ["parse_json", "MAX_DIGITS", "MAX_DEPTH"]

# Python's own default limit for int(str) (sys.get_int_max_str_digits), fixed here so the
# same file is read the same way whatever the interpreter is set to.
MAX_DIGITS = 4300
# Arrays and objects inside one another (module docstring): far above any format read here,
# far below Python's recursion limit.
MAX_DEPTH = 100

# A JSON string (escapes included) or one bracket; the strings are only skipped.
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'
_TOKEN = re.compile(rf"{_STRING}|[\[{{\]}}]")
_STRINGS = re.compile(_STRING)
# What decodable JSON holds outside its strings besides brackets, deleted in one pass.
_NOT_BRACKETS = str.maketrans("", "", "0123456789+-.eE,: \t\r\ntruefalsnulNaIiy")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


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


def _depth(text: str) -> int:
    """How deep the arrays and objects of (decodable) JSON `text` nest: 0 for a scalar."""
    brackets = _STRINGS.sub("", text).translate(_NOT_BRACKETS)
    return max(accumulate(map(_STEP.get, brackets, repeat(0))), default=0)


def _too_deep(text: str, source: str | None) -> InstanceError:
    """The error at the first bracket that opens level `MAX_DEPTH + 1`."""
    depth = 0
    for token in _TOKEN.finditer(text):
        step = _STEP.get(token.group(), 0)
        depth += step
        if depth > MAX_DEPTH:
            line, column = _position(text, token.start())
            return InstanceError(source, line, column,
                                 f"arrays and objects nested over {MAX_DEPTH} deep")
    return InstanceError(source, None, None, f"arrays and objects nested over {MAX_DEPTH} deep")


def parse_json(text: str, source: str | None) -> Any:
    """The JSON document in `text`; anything the decoder refuses is an `InstanceError`.

    A leading UTF-8 byte-order mark (editors on Windows write one) is dropped. Nesting over
    `MAX_DEPTH` is refused at the bracket that goes too deep:

    >>> parse_json('{"a": [1, 2]}', "x.json")
    {'a': [1, 2]}
    >>> parse_json("\\n  " + "[" * 101 + "]" * 101, "x.json")
    Traceback (most recent call last):
    ...
    twinsolve.core.errors.InstanceError: x.json:2:103: arrays and objects nested over 100 deep
    """
    text = text.removeprefix("\ufeff")
    try:
        document = json.loads(text, parse_int=_whole_number)
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
        raise _too_deep(text, source) from None
    except ValueError as exc:  # anything else the decoder refuses: still one line
        raise InstanceError(source, None, None, f"not valid JSON: {exc}") from None
    if isinstance(document, list | dict) and _depth(text) > MAX_DEPTH:
        raise _too_deep(text, source)
    return document
