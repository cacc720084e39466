"""Cave puzzles from puzzlekit-dataset JSON, written out as instance files.

Schema: `{"data": {KEY: {"problem": P, "solution": S, "source": URL, "info": ...}}}`.
`P` is a "ROWS COLS" line, then ROWS lines of space-separated tokens (`-`
empty, `?` a clue without number, a number a clue): the body of a Cave file.
`S` has the same header, then rows of `x` (inside) and `-` (outside).

Every instance keeps what the dataset knows as metadata, which the harness
checks answers against: `source` (the entry's URL), `expect-unique: true`
(the dataset's puzzles have one solution each) and, when the entry has a
solution, `expect-solution` (`{"inside": [...]}` as compact one-line JSON).
A known solution that fails `cave.verify` is reported as bad input, since it
would make the harness call correct back-ends wrong.

Any problem is an `InstanceError` naming the file: bad JSON at its line and
column, a number of over 4300 digits (what Python's `int` refuses) at its
line, and a lone surrogate (`"\\ud800"` in the JSON) in an entry's key,
`source` or `info`, which is not text and could be neither printed, nor
stored, nor written to a file; the message shows it escaped.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ...core.errors import InstanceError, quoted
from ...core.instance_file import decode
from ...core.json_text import parse_json
from ...files import writing
from . import rules as cave

__all__ = ["read_dataset", "is_dataset", "write_instances", "file_name"]

_SOLUTION_TOKENS = {"x": "1", "-": "0"}
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]")
# Metadata is one line per key: whitespace runs and control characters would break it.
_UNSAFE_VALUE = re.compile(r"[\s\x00-\x1f\x7f]+")
# JSON decodes a paired "\ud83d\ude00" to one character, so any surrogate left is lone.
_SURROGATE = re.compile(r"[\ud800-\udfff]")
def _names_a_file(text: str) -> bool:
    if "\n" in text or text.lstrip().startswith("{"):
        return False
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # a name too long, or with a NUL byte: not a file
        return False


def _load_json(path_or_text: str | os.PathLike[str],
               source: str | None) -> tuple[Any, str | None]:
    """The decoded JSON and the source name used in errors."""
    if isinstance(path_or_text, os.PathLike) or (
            isinstance(path_or_text, str) and _names_a_file(path_or_text)):
        path = Path(path_or_text)
        source = source or str(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise InstanceError(source, None, None, f"cannot read file: {exc.strerror}") from None
        text = decode(data, source)
    elif isinstance(path_or_text, str):
        text = path_or_text
    else:
        raise InstanceError(source, None, None, "read_dataset() takes a path or JSON text")
    return parse_json(text, source), source


def _clean(value: str) -> str:
    return _UNSAFE_VALUE.sub(" ", value).strip()


def _refuse_surrogates(text: str, what: str, key: str, source: str | None) -> None:
    """A lone surrogate is no text: refuse it here, before it reaches a terminal or a file.

    The message shows the key with `repr`, which writes a surrogate as `\\ud800`.
    """
    found = _SURROGATE.search(text)
    if found:
        raise InstanceError(source, None, None, f"entry {quoted(key)}: {what} has a lone surrogate "
                            f"{found.group()!r} (not valid Unicode text)")


def _read_problem(entry: dict[str, Any], key: str, source: str | None) -> cave.Instance:
    problem = entry.get("problem")
    if not isinstance(problem, str):
        raise InstanceError(source, None, None, f"entry {quoted(key)}: 'problem' must be a string")
    try:
        # "cave " + problem is a Cave file whose lines match the problem's lines.
        return cave.parse("cave " + problem, source)
    except InstanceError as exc:
        where = f"problem line {exc.line}" if exc.line is not None else "problem"
        raise InstanceError(source, None, None,
                            f"entry {quoted(key)}, {where}: {exc.message}") from None


def _read_solution(solution: Any, instance: cave.Instance, key: str,
                   source: str | None) -> dict[str, list[str]]:
    def bad(message: str) -> InstanceError:
        return InstanceError(source, None, None, f"entry {quoted(key)}, solution: {message}")

    if not isinstance(solution, str):
        raise bad("must be a string")
    lines = [line for line in solution.replace("\r\n", "\n").split("\n") if line.strip()]
    if not lines or lines[0].split() != [str(instance.rows), str(instance.cols)]:
        raise bad(f"must start with the line '{instance.rows} {instance.cols}'")
    if len(lines) - 1 != instance.rows:
        raise bad(f"has {len(lines) - 1} rows, expected {instance.rows}")
    inside = []
    for number, line in enumerate(lines[1:], start=2):
        tokens = line.split()
        if len(tokens) != instance.cols or any(t not in _SOLUTION_TOKENS for t in tokens):
            raise bad(f"line {number} must be {instance.cols} tokens 'x' (inside) or '-'")
        inside.append("".join(_SOLUTION_TOKENS[t] for t in tokens))
    known = {"inside": inside}
    problems = cave.verify(instance, known)
    if problems:
        raise bad(f"breaks the rules: {problems[0]}")
    return known


def _read_entry(key: str, entry: Any, source: str | None) -> cave.Instance:
    _refuse_surrogates(key, "the key", key, source)
    if not isinstance(entry, dict):
        raise InstanceError(source, None, None, f"entry {quoted(key)} must be an object")
    instance = _read_problem(entry, key, source)
    meta: list[tuple[str, str]] = []
    for name in ("source", "info"):
        if isinstance(entry.get(name), str) and _clean(entry[name]):
            _refuse_surrogates(entry[name], repr(name), key, source)
            meta.append((name, _clean(entry[name])))
    meta.append(("expect-unique", "true"))
    if entry.get("solution") not in (None, ""):
        known = _read_solution(entry["solution"], instance, key, source)
        meta.append(("expect-solution", json.dumps(known, separators=(",", ":"))))
    return cave.Instance(instance.rows, instance.cols, instance.clues, tuple(meta))


NAMES = ("cave", "corral", "bag")  # what a dataset's "name" may say, in any case


def is_dataset(document: Any) -> bool:
    """Whether decoded JSON is a Cave dataset: an object with a `"data"` object, and a `"name"`
    that is Cave's or none (a dataset named for another puzzle is that puzzle's to read).

    >>> is_dataset({"name": "Cave", "data": {}}), is_dataset({"name": "Nurikabe", "data": {}})
    (True, False)
    """
    if not isinstance(document, dict) or not isinstance(document.get("data"), dict):
        return False
    name = document.get("name")
    return not isinstance(name, str) or name.strip().lower() in NAMES


def read_dataset(path_or_text: str | os.PathLike[str],
                 source: str | None = None) -> list[tuple[str, cave.Instance]]:
    """`(key, instance)` pairs in the file's order, from a path or from JSON text.

    Any problem is an `InstanceError` naming the file and the entry's key.
    """
    document, source = _load_json(path_or_text, source)
    data = document.get("data") if isinstance(document, dict) else None
    if not isinstance(data, dict):
        raise InstanceError(source, None, None,
                            'expected a JSON object with "data": {KEY: {"problem": ...}}')
    if not data:
        raise InstanceError(source, None, None, 'the dataset has no entries under "data"')
    return [(key, _read_entry(key, entry, source)) for key, entry in data.items()]


def file_name(key: str) -> str:
    """A safe file name for an entry key: no folders, no hidden files.

    >>> file_name("01_10x10"), file_name("../x y")
    ('01_10x10.txt', 'x_y.txt')
    """
    stem = _UNSAFE_NAME.sub("_", key).lstrip("._") or "puzzle"
    return stem + ".txt"


def write_instances(pairs: Iterable[tuple[str, cave.Instance]], out_dir: str | os.PathLike[str]
                    ) -> list[Path]:
    """Write each instance to `<out_dir>/<key>.txt` (see `file_name`); the paths written.

    Keys that would collide after making them safe get `-2`, `-3`, ... suffixes, in
    order, so the same input always gives the same files.
    """
    return writing.write_instances(out_dir, _distinct_names(pairs))


def _distinct_names(pairs: Iterable[tuple[str, cave.Instance]]
                    ) -> Iterator[tuple[str, cave.Instance]]:
    used: set[str] = set()
    for key, instance in pairs:
        name = file_name(key)
        stem, suffix = name[:-4], 2
        while name.lower() in used:  # lower(): case-insensitive file systems
            name, suffix = f"{stem}-{suffix}.txt", suffix + 1
        used.add(name.lower())
        yield name, instance
