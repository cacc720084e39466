"""Every place an instance can come from, behind one function.

A source a user names on the command line (or passes to `twinsolve.load`) is:
- a puzz.link URL (`https://puzz.link/p?cave/6/6/...`): one instance;
- a puzzlekit dataset (`*.json`, the schema of the Cave corpus): one
  instance per entry, labelled `FILE#KEY`, its known solution kept as
  metadata;
- an instance file (`*.txt`, or any other file named directly);
- a folder: every `*.txt` and `*.json` beneath it, recursively, in sorted order.

`instances(sources)` returns `(label, instance)` pairs in a stable order, so
every run of a suite plans the same runs. Importers are imported lazily.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .errors import UsageError
from .run import load_file

__all__ = ["instances", "is_url", "load_source"]


def is_url(text: str) -> bool:
    from ..puzzles.puzzlink import is_puzzlink_url

    return is_puzzlink_url(text)


def _from_file(path: Path) -> list[tuple[str, Any]]:
    if path.suffix.lower() == ".json":
        from ..puzzles.puzzlekit_json import read_dataset

        return [(f"{path}#{key}", instance) for key, instance in read_dataset(path, str(path))]
    return [(str(path), load_file(path))]


def _files_under(folder: Path) -> list[Path]:
    found = []
    for candidate in sorted(folder.rglob("*")):
        hidden = any(part.startswith(".") for part in candidate.relative_to(folder).parts)
        if candidate.suffix.lower() in (".txt", ".json") and candidate.is_file() and not hidden:
            found.append(candidate)
    return found


def load_source(source: str | Path) -> list[tuple[str, Any]]:
    """The instances one source names (see the module docstring)."""
    text = str(source)
    if isinstance(source, str) and is_url(text):
        from ..puzzles.puzzlink import decode_url

        return [(text, decode_url(text, source="puzz.link URL"))]
    path = Path(source)
    if path.is_file():
        return _from_file(path)
    if path.is_dir():
        return [pair for file in _files_under(path) for pair in _from_file(file)]
    raise UsageError(f"{path}: no such file or folder")


def instances(sources: Iterable[str | Path]) -> list[tuple[str, Any]]:
    """Every (label, instance) the sources name, each label once, in order."""
    seen: dict[str, Any] = {}
    for source in sources:
        for label, instance in load_source(source):
            seen.setdefault(label, instance)
    return list(seen.items())
