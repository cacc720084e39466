"""The library: every instance under the studio's folders, to filter, open and see.

What it holds. A walk of each folder (hidden files and folders left out,
symlinks that lead out of the folder passed by unread) reads every `*.txt`
and `*.json` through `core.sources` (instance files and puzzlekit datasets,
every puzzle's through the registry); the game's level files and files that
are no instance at all (a README) are passed by quietly, and a broken
instance is listed with its one-line error, so an author sees what to fix.
Each entry: a number, its folder and path, its puzzle, its size (rows x
cols for a grid, else the puzzle's own words), its difficulty (`#
difficulty:`, as `generate` writes it) and whether it names its solution.

Thumbnails are the puzzles' own pictures (`registry.picture`), drawn on first
sight and kept. Nothing here names a puzzle.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import registry
from ..core.errors import InstanceError, UsageError
from ..core.instance_file import header_words, read_text
from ..core.sources import collect
from ..graphics import canvas
from .folders import Folders

__all__ = ["Entry", "Library", "svg_text"]

MAX_ENTRIES = 5_000  # a folder of more instances shows its first this many


@dataclass(frozen=True)
class Entry:
    number: int
    folder: int
    path: str          # relative to its folder; FILE#KEY for a dataset entry
    puzzle: str
    size: str
    level: str
    instance: Any

    def to_json(self) -> dict[str, Any]:
        return {"id": self.number, "folder": self.folder, "path": self.path,
                "puzzle": self.puzzle, "size": self.size, "level": self.level,
                "solved": "expect-solution" in dict(self.instance.meta)}


def svg_text(drawing: Any, title: str | None = None) -> str:
    """A drawing as SVG to put inside an HTML page: no XML declaration."""
    text = canvas.svg(drawing, title)
    first, _, rest = text.partition("\n")
    return rest if first.startswith("<?xml") else text


def size_of(instance: Any) -> str:
    """`ROWSxCOLS` for a grid, else the first words of its header line."""
    rows, cols = getattr(instance, "rows", None), getattr(instance, "cols", None)
    if isinstance(rows, int) and isinstance(cols, int):
        return f"{rows}x{cols}"
    header = registry.puzzle_of(instance).rules.format(instance).splitlines()
    words = [line for line in header if line and not line.startswith("#")]
    return " ".join(words[0].split()[1:3]) if words else ""


class Library:
    """The instances under `folders`, scanned on `scan()` (module docstring)."""

    def __init__(self, folders: Folders) -> None:
        self.folders = folders
        self.entries: list[Entry] = []
        self.problems: list[str] = []
        self._pictures: dict[int, str] = {}
        self._lock = threading.Lock()

    def scan(self) -> None:
        entries: list[Entry] = []
        problems: list[str] = []
        for index, root in enumerate(self.folders.roots):
            for path in self._files(root):
                if len(entries) >= MAX_ENTRIES:
                    break
                self._read(index, root, path, entries, problems)
        with self._lock:
            self.entries, self.problems, self._pictures = entries, problems, {}

    def _files(self, root: Path) -> list[Path]:
        """Instance-like files under `root` whose real path stays inside it, sorted."""
        found = []
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
            for name in files:
                path = Path(folder) / name
                if name.startswith(".") or path.suffix.lower() not in (".txt", ".json"):
                    continue
                real = Path(os.path.realpath(path))
                if root in real.parents and real.is_file():
                    found.append(path)
        return sorted(found)

    def _read(self, index: int, root: Path, path: Path, entries: list[Entry],
              problems: list[str]) -> None:
        relative = path.relative_to(root).as_posix()
        if path.suffix.lower() == ".txt" and not self._names_a_puzzle(path):
            return
        found = collect([path])
        problems += [line.replace(str(path), relative, 1) for line in found.invalid]
        for item in found.found:
            key = item.label.partition("#")[2]
            entries.append(Entry(len(entries), index, relative + (f"#{key}" if key else ""),
                                 registry.puzzle_of(item.instance).name,
                                 size_of(item.instance),
                                 dict(item.instance.meta).get("difficulty", ""), item.instance))

    @staticmethod
    def _names_a_puzzle(path: Path) -> bool:
        """A `.txt` whose header names a puzzle (a README or a game level is passed by)."""
        try:
            words = header_words(read_text(path, str(path)))
        except (InstanceError, UsageError, OSError):
            return True  # unreadable: `collect` says why
        names = {entry.name for entry in registry.puzzles()}
        return bool(words) and words[0].lower() in names

    def entry(self, number: object) -> Entry:
        with self._lock:
            entries = self.entries
        if type(number) is not int or not 0 <= number < len(entries):
            raise UsageError(f"no library entry {number!r}")
        return entries[number]

    def listing(self) -> dict[str, Any]:
        with self._lock:
            return {"folders": [str(root) for root in self.folders.roots],
                    "entries": [entry.to_json() for entry in self.entries],
                    "problems": list(self.problems)}

    def thumbnail(self, number: object) -> str:
        """The entry's picture as SVG text (drawn once, then kept)."""
        entry = self.entry(number)
        with self._lock:
            known = self._pictures.get(entry.number)
        if known is None:
            picture = registry.picture(registry.puzzle_of(entry.instance))
            known = svg_text(picture.draw(entry.instance), entry.path)
            with self._lock:
                self._pictures[entry.number] = known
        return known
