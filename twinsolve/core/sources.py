"""Every place an instance can come from, behind one function.

A source a user names on the command line (or passes to `twinsolve.load`) is:
- a puzz.link URL (`https://puzz.link/p?TYPE/6/6/...`): one instance;
- a puzzlekit dataset (`*.json`, the schema of the Cave corpus): one
  instance per entry, labelled `FILE#KEY`, its known solution kept as
  metadata;
- an instance file (`*.txt`, or any other file named directly);
- a folder: every `*.txt` and `*.json` beneath it, recursively, in sorted
  order, hidden files and folders left out.

`collect(sources)` reads them all and never stops at a bad one: each bad
source or file becomes one line of `invalid` (`FILE:LINE:COL: problem`), so a
user fixes every file in one go. Files reached through a folder that are not
instances at all are skipped with a line in `notes`: a `.txt` whose header
word names no puzzle (a README, a table of figures) and a `.json` that is
not a puzzlekit dataset (no `"data"` object); the stealth game's levels
(`registry.other_formats`) are passed by without a note. A `.txt` whose header does name
a puzzle is an instance, however broken, and so is a JSON file that cannot be
read as JSON. Named directly, a file is always meant as an instance: any
problem is invalid.

Each instance found carries a `label` (how the user names it: the path as
reached, `FILE#KEY`, or the URL) and a `task_path`, its identity in a
benchmark: the path relative to the folder argument it was found under
(posix form: `NAME/a.txt` for `bench instances`), the
normalised path of a file named directly, plus `#KEY` for a dataset entry, or
the URL itself. Only regular files are ever opened (a named pipe would block
the read forever). Labels and messages are made printable: the undecodable
bytes of a file name become `\\xNN` escapes instead of lone surrogates.

`checked(sources, skip_invalid)` is what `bench`, `solve` and `grade` read:
any invalid file is one `UsageError` listing every invalid line and how to run
the others (`--skip-invalid`); with `skip_invalid` the collection, its
invalid lines kept for the command to list. `instances(sources)` is the strict
form for `export` and the API: the `(label, instance)` pairs, or one
`UsageError` listing every invalid line.
URLs and datasets are read by the puzzle whose reader claims them, found
through the registry (`registry.url_reader`, `registry.dataset_reader`), so
this module knows no puzzle's formats; the readers are imported lazily.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import registry
from .errors import InstanceError, UsageError, quoted
from .instance_file import header_words, read_text
from .json_text import parse_json
from .run import file_problem, parse_text

__all__ = ["Found", "Collection", "collect", "checked", "instances", "is_url", "load_source",
           "printable"]


@dataclass(frozen=True)
class Found:
    label: str       # the path as reached, FILE#KEY for a dataset entry, or the URL
    instance: Any
    task_path: str   # the instance's identity path (module docstring)


@dataclass(frozen=True)
class Collection:
    found: list[Found]
    invalid: list[str]   # one "FILE:LINE:COL: problem" line per bad source or file
    notes: list[str]     # one line per file skipped as not an instance


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class _Skip(Exception):
    """A file reached through a folder that is not an instance: a note, not an error."""


def is_url(text: str) -> bool:
    """Whether `text` is a URL some puzzle's URL reader reads (a puzz.link URL)."""
    return registry.url_reader(text) is not None


def printable(text: str) -> str:
    """`text` safe to print and store, on one line.

    Undecodable file-name bytes (surrogate escapes) and control characters (a
    newline in a file name) become `\\xNN` escapes.

    >>> printable("caf\\udce9.txt"), printable("two\\nlines.txt"), printable("plain.txt")
    ('caf\\\\xe9.txt', 'two\\\\x0alines.txt', 'plain.txt')
    """
    try:
        text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that is no escaped byte (from JSON, say)
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)


@dataclass
class _Gather:
    """What `collect` has found so far; each label, invalid line and note once."""

    found: dict[str, Found] = field(default_factory=dict)
    invalid: dict[str, None] = field(default_factory=dict)
    notes: dict[str, None] = field(default_factory=dict)

    def add(self, label: str, instance: Any, task_path: str) -> None:
        label = printable(label)
        if label not in self.found:
            self.found[label] = Found(label, instance, printable(task_path))

    def bad(self, problem: str | Exception) -> None:
        self.invalid.setdefault(printable(str(problem)), None)

    def note(self, line: str) -> None:
        self.notes.setdefault(printable(line), None)

    def collection(self) -> Collection:
        return Collection(list(self.found.values()), list(self.invalid), list(self.notes))


# ---------------------------------------------------------------- what a path is

def _kind(path: Path) -> str:
    """"file" or "folder", decided from `stat` alone; else a `UsageError` saying what it is.

    `core.run.file_problem` judges files (a named pipe, a device, a broken link, a
    name too long); only a folder and the wording of "missing" differ here.
    """
    if os.path.isdir(path):  # False, never an error, for a name too long or with a NUL
        return "folder"
    problem = file_problem(path)
    if problem is None:
        return "file"
    if problem == "no such file":
        problem = "no such file or folder"
    raise UsageError(f"{path}: {problem}")


# ---------------------------------------------------------------- one file

def _puzzle_names() -> set[str]:
    return {entry.name for entry in registry.puzzles()}


def _instance_file(path: Path, source: str, through_folder: bool) -> Any:
    """The instance in a `.txt` (or any non-JSON) file; `_Skip` for a README in a folder."""
    text = read_text(path, source)
    if through_folder:
        words = header_words(text)
        if not words:
            raise _Skip(f"{source}: skipped, not an instance (no header line)")
        if words[0] in registry.other_formats():
            raise _Skip("")
        if not _names_a_puzzle(words):
            raise _Skip(f"{source}: skipped, not an instance ({quoted(words[0])} is no "
                        "puzzle's name)")
    return parse_text(text, source)


def _names_a_puzzle(words: tuple[str, ...]) -> bool:
    """A header naming a puzzle, or one with a typo in its case (`Cave 4 4`).

    Why the number: `Cave 4 4` is an instance to report, `Chess puzzles for
    beginners` the first line of a README.
    """
    names = _puzzle_names()
    if words[0] in names:
        return True
    return words[0].lower() in names and (len(words) == 1 or words[1][:1].isdigit())


def _dataset(path: Path, source: str, through_folder: bool) -> list[tuple[str, Any]]:
    """(key, instance) pairs of a dataset (a puzzlekit JSON); `_Skip` for other JSON in
    a folder. The puzzle whose dataset reader claims the document reads it; a JSON
    file named on its own that none claims goes to the first reader, for its error."""
    text = read_text(path, source).removeprefix("\ufeff")
    document = parse_json(text, source)
    reader = registry.dataset_reader(document)
    if reader is None:
        if through_folder:
            raise _Skip(f"{source}: skipped, not a puzzlekit dataset")
        reader = registry.dataset_readers()[0]
    return reader.read_dataset(text, source)


def _collect_file(path: Path, task_path: str, gather: _Gather, through_folder: bool) -> None:
    source = str(path)
    try:
        if path.suffix.lower() == ".json":
            for key, instance in _dataset(path, source, through_folder):
                gather.add(f"{source}#{key}", instance, f"{task_path}#{key}")
        else:
            gather.add(source, _instance_file(path, source, through_folder), task_path)
    except _Skip as skipped:
        if str(skipped):
            gather.note(str(skipped))
    except (InstanceError, UsageError) as exc:
        gather.bad(exc)


# ---------------------------------------------------------------- folders and sources

def _candidates(folder: Path, gather: _Gather) -> list[Path]:
    """Every `*.txt` / `*.json` beneath `folder`, not hidden, in sorted order."""
    found: list[Path] = []

    def unreadable(error: OSError) -> None:
        gather.bad(f"{error.filename}: cannot read folder: {error.strerror}")

    for root, folders, files in os.walk(folder, onerror=unreadable):
        folders[:] = [name for name in folders if not name.startswith(".")]
        found += [Path(root) / name for name in files if not name.startswith(".")
                  and Path(name).suffix.lower() in (".txt", ".json")]
    return sorted(found)


def _collect_folder(folder: Path, gather: _Gather) -> None:
    for path in _candidates(folder, gather):
        try:
            kind = _kind(path)
        except UsageError as exc:  # a broken link or a pipe among the files
            gather.bad(exc)
            continue
        if kind == "file":
            _collect_file(path, path.relative_to(folder).as_posix(), gather, True)


def _collect_source(source: str | Path, gather: _Gather) -> None:
    reader = registry.url_reader(source) if isinstance(source, str) else None
    if reader is not None:
        url = source.strip()
        try:
            gather.add(url, reader.decode_url(url, source="puzz.link URL"), url)
        except InstanceError as exc:
            gather.bad(exc)
        return
    if not isinstance(source, str | os.PathLike) or not str(source):
        gather.bad(f"{quoted(source)}: not a file or folder name")
        return
    if isinstance(source, str) and _URL_SCHEME.match(source.strip()):
        gather.bad(f"{printable(source.strip())}: no puzzle here reads this URL (puzz.link "
                   f"URLs of: {', '.join(registry.url_puzzles())})")
        return
    path = Path(source)
    try:
        kind = _kind(path)
    except UsageError as exc:
        gather.bad(exc)
        return
    if kind == "folder":
        _collect_folder(path, gather)
    else:
        _collect_file(path, os.path.normpath(str(source)), gather, False)


_URL_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*://", re.IGNORECASE)  # a URL, not a file name


def collect(sources: Iterable[str | Path]) -> Collection:
    """Every instance the sources name, and every problem and skipped file (module docstring).

    Never raises for a bad file or source: each is one line of `invalid`.
    """
    gather = _Gather()
    for source in sources:
        _collect_source(source, gather)
    return gather.collection()


def checked(sources: Iterable[str | Path], skip_invalid: bool = False) -> Collection:
    """`collect(sources)`; unless `skip_invalid`, any invalid file is one `UsageError`
    whose lines are every problem found, then, when there are valid ones, how to run
    them (`--skip-invalid`)."""
    found = collect(sources)
    if found.invalid and not skip_invalid:
        count = len(found.invalid)
        files, them = ("files", "them") if count > 1 else ("file", "it")
        hint = [f"{count} invalid instance {files}: fix {them} or run the others with "
                "--skip-invalid"] if found.found else []
        raise UsageError("\n".join([*found.invalid, *hint]))
    return found


def load_source(source: str | Path) -> list[tuple[str, Any]]:
    """The (label, instance) pairs one source names; a `UsageError` listing every problem."""
    return instances([source])


def instances(sources: Iterable[str | Path]) -> list[tuple[str, Any]]:
    """Every (label, instance) the sources name, each label once, in order.

    Any invalid file or source: one `UsageError` whose lines are every problem found.
    """
    found = collect(sources)
    if found.invalid:
        raise UsageError("\n".join(found.invalid))
    return [(item.label, item.instance) for item in found.found]
