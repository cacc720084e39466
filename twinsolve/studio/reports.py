"""Benchmarks: a results database under the studio's folders, shown as its HTML report.

The page is the one `twinsolve report DB --html FILE` writes
(`bench.report.html_page`: the loaded, judged runs, its plots inlined,
its pictures), made in a job (`studio.jobs`) from the database opened read-only
(`bench.results.load`, which refuses anything that is no results database
in one line and never writes to it), and kept while the file is unchanged.
Databases are found by their suffix (`.sqlite`, `.sqlite3`, `.db`) under the
folders, never outside them.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from .folders import Folders
from .jobs import run_job

__all__ = ["databases", "report_page", "SUFFIXES", "REPORT_SECONDS"]

SUFFIXES = (".sqlite", ".sqlite3", ".db")
REPORT_SECONDS = 120.0
_pages: dict[tuple[str, int, int], str] = {}
_lock = threading.Lock()


def databases(folders: Folders) -> list[dict[str, Any]]:
    """Every results-database-looking file under the folders (hidden ones left out)."""
    found = []
    for index, root in enumerate(folders.roots):
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
            for name in sorted(files):
                path = Path(folder) / name
                if name.startswith(".") or path.suffix.lower() not in SUFFIXES:
                    continue
                if folders.relative(path) is not None:  # no symlink out of the folder
                    found.append({"folder": index, "path": path.relative_to(root).as_posix()})
    return found


def _page(db: str) -> str:
    from ..bench.report import html_page
    from ..bench.results import load

    return html_page(load(db))


def report_page(folders: Folders, folder: Any, relative: Any) -> str:
    """The HTML report of the database `relative` in folder `folder` (module docstring)."""
    path = folders.readable(folder, relative)
    info = path.stat()
    key = (str(path), info.st_mtime_ns, info.st_size)
    with _lock:
        known = _pages.get(key)
    if known is None:
        known = run_job(_page, str(path), seconds=REPORT_SECONDS, what=f"reporting {relative}")
        with _lock:
            _pages.clear()  # one page kept: reports can be large
            _pages[key] = known
    return known
