"""Writing instance files: each instance in its own puzzle's format, atomically, into a folder.

Importers and generators both end here. Every path is checked first
(files.atomic: a read-only file or a folder in the way writes nothing); then
the files are written in the order given, each one atomically (a reader
never sees half a file, an error never leaves one behind), so the same
instances always give the same bytes.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core.registry import puzzle_of
from .atomic import check_folder, check_output, output_folder, write_text

__all__ = ["write_instance", "write_instances"]


def write_instance(path: str | os.PathLike[str], instance: Any) -> Path:
    """Write one instance (with its metadata) in its puzzle's file format; return the path."""
    return write_text(path, puzzle_of(instance).rules.format(instance))


def write_instances(folder: str | os.PathLike[str],
                    named: Iterable[tuple[str, Any]]) -> list[Path]:
    """Write each (file name, instance) into `folder` (created if missing); the paths written.
    Every path is checked before the first file is written: a refusal writes nothing."""
    named = list(named)
    base = check_folder(folder)
    for name, _ in named:
        check_output(base / name)
    out = output_folder(folder)
    return [write_instance(out / name, instance) for name, instance in named]
