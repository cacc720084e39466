"""puzzlekit-dataset JSON of clue-grid puzzles, read into instances and written out as files.

Schema: `{"name": GENRE, "data": {KEY: {"problem": P, "solution": S, "source": URL,
"info": ...}}}`. `P` is a "ROWS COLS" line, then ROWS lines of space-separated
tokens: the body of the puzzle's own file (`core.clue_grid`), so `NAME P` is
its file. `S` has the same header, then rows of `x` (the cell is in: inside,
shaded, ...) and `-` (it is not).

Every instance keeps what the dataset knows as metadata, which the harness
checks answers against: `source` and `info` (one line each), `expect-unique:
true` (the dataset's puzzles have one solution each) and, when the entry has
a solution, `expect-solution` (the solution key, e.g. `{"inside": [...]}`, as
compact one-line JSON). A known solution that fails the puzzle's `verify` is
reported as bad input, since it would make the harness call correct
back-ends wrong.

Any problem is an `InstanceError` naming the file: bad JSON at its line and
column (`core.json_text`: a number of over 4300 digits too), a key or entry of
the wrong kind, and a lone surrogate (`"\\ud800"` in the JSON) in an entry's
key, `source` or `info`, which is not text and could be neither printed, nor
stored, nor written to a file; the message shows it escaped.

The idea: one `GridDataset` per puzzle says what is its own (its header word,
the dataset names it claims, its solution key, its `parse` and `verify`); the
puzzle's dataset reader module exposes the bound methods as its contract's
functions (`core.declaration`: `is_dataset`, `read_dataset`, `write_instances`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.clue_grid import AnswerKey
from ..core.errors import InstanceError, quoted
from ..core.instance_file import decode
from ..core.json_text import parse_json
from . import writing

__all__ = ["GridDataset", "file_name"]

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


def _text_field(value: str, what: str, key: str, source: str | None) -> str:
    """A text field as one metadata line; a lone surrogate is refused, before it reaches a
    terminal or a file (the message shows it with `repr`, which writes it as `\\ud800`)."""
    found = _SURROGATE.search(value)
    if found:
        raise InstanceError(source, None, None, f"entry {quoted(key)}: {what} has a lone "
                            f"surrogate {found.group()!r} (not valid Unicode text)")
    return _UNSAFE_VALUE.sub(" ", value).strip()


@dataclass(frozen=True)
class GridDataset:
    """One puzzle's reading of puzzlekit datasets (module docstring)."""

    name: str                     # the header word of the puzzle's files
    names: tuple[str, ...]        # what a dataset's "name" may say, in any case
    key: AnswerKey                # the solution key: {"inside": [...]}
    parse: Callable[..., Any]     # the puzzle's parse(text, source)
    verify: Callable[[Any, Any], list[str]]
    unnamed: bool = False         # a dataset without a "name" is this puzzle's too

    def is_dataset(self, document: Any) -> bool:
        """Whether decoded JSON is this puzzle's dataset: an object with a `"data"` object,
        and a `"name"` that is one of `names` (or none, when `unnamed`): a dataset named for
        another puzzle is that puzzle's to read."""
        if not isinstance(document, dict) or not isinstance(document.get("data"), dict):
            return False
        name = document.get("name")
        if not isinstance(name, str):
            return self.unnamed
        return name.strip().lower() in self.names

    def read_dataset(self, path_or_text: str | os.PathLike[str],
                     source: str | None = None) -> list[tuple[str, Any]]:
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
        return [(key, self._read_entry(key, entry, source)) for key, entry in data.items()]

    def write_instances(self, pairs: Iterable[tuple[str, Any]],
                        out_dir: str | os.PathLike[str]) -> list[Path]:
        """Write each instance to `<out_dir>/<key>.txt` (see `file_name`); the paths written.

        Keys that would collide after making them safe get `-2`, `-3`, ... suffixes, in
        order, so the same input always gives the same files.
        """
        return writing.write_instances(out_dir, _distinct_names(pairs))

    def _read_entry(self, key: str, entry: Any, source: str | None) -> Any:
        _text_field(key, "the key", key, source)
        if not isinstance(entry, dict):
            raise InstanceError(source, None, None, f"entry {quoted(key)} must be an object")
        instance = self._read_problem(entry, key, source)
        meta: list[tuple[str, str]] = []
        for name in ("source", "info"):
            value = entry.get(name)
            if isinstance(value, str) and (text := _text_field(value, repr(name), key, source)):
                meta.append((name, text))
        meta.append(("expect-unique", "true"))
        if entry.get("solution") not in (None, ""):
            known = self._read_solution(entry["solution"], instance, key, source)
            meta.append(("expect-solution", json.dumps(known, separators=(",", ":"))))
        return dataclasses.replace(instance, meta=tuple(meta))

    def _read_problem(self, entry: dict[str, Any], key: str, source: str | None) -> Any:
        problem = entry.get("problem")
        if not isinstance(problem, str):
            raise InstanceError(source, None, None,
                                f"entry {quoted(key)}: 'problem' must be a string")
        try:  # NAME + " " + problem is a file whose lines match the problem's lines
            return self.parse(f"{self.name} " + problem, source)
        except InstanceError as exc:
            where = f"problem line {exc.line}" if exc.line is not None else "problem"
            raise InstanceError(source, None, None,
                                f"entry {quoted(key)}, {where}: {exc.message}") from None

    def _read_solution(self, solution: Any, instance: Any, key: str,
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
        rows = []
        for number, line in enumerate(lines[1:], start=2):
            tokens = line.split()
            if len(tokens) != instance.cols or any(t not in _SOLUTION_TOKENS for t in tokens):
                raise bad(f"line {number} must be {instance.cols} tokens 'x' ({self.key.name}) "
                          "or '-'")
            rows.append("".join(_SOLUTION_TOKENS[t] for t in tokens))
        known = {self.key.name: rows}
        problems = self.verify(instance, known)
        if problems:
            raise bad(f"breaks the rules: {problems[0]}")
        return known


def file_name(key: str) -> str:
    """A safe file name for an entry key: no folders, no hidden files.

    >>> file_name("01_10x10"), file_name("../x y")
    ('01_10x10.txt', 'x_y.txt')
    """
    stem = _UNSAFE_NAME.sub("_", key).lstrip("._") or "puzzle"
    return stem + ".txt"


def _distinct_names(pairs: Iterable[tuple[str, Any]]) -> Iterator[tuple[str, Any]]:
    used: set[str] = set()
    for key, instance in pairs:
        name = file_name(key)
        stem, suffix = name[:-4], 2
        while name.lower() in used:  # lower(): case-insensitive file systems
            name, suffix = f"{stem}-{suffix}.txt", suffix + 1
        used.add(name.lower())
        yield name, instance
