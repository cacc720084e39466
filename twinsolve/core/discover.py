"""Finding instance files under the paths a user names.

A PATH is a file or a folder searched recursively for `*.txt`. Files come back
in a stable, sorted order so every run of a suite plans the same runs. Hidden
folders and files (starting with '.') are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .errors import UsageError

__all__ = ["instance_files"]


def instance_files(paths: Iterable[str | Path]) -> list[Path]:
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_file():
            found.append(path)
        elif path.is_dir():
            for candidate in sorted(path.rglob("*.txt")):
                hidden = any(part.startswith(".") for part in candidate.relative_to(path).parts)
                if candidate.is_file() and not hidden:
                    found.append(candidate)
        else:
            raise UsageError(f"{path}: no such file or folder")
    unique: dict[Path, None] = dict.fromkeys(found)
    return list(unique)
