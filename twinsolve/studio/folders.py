"""The folders the studio may read, and the only places it writes.

The rules: the studio reads files under the folders it was started with and
nowhere else, and writes only where a person saves, inside one of those
folders. A path always comes as a folder's number and a path relative to it;
it is refused in one line when it is empty, absolute, holds `..`, a NUL or a
backslash, is hidden (a part starting with a dot), or leads, through any
symlink on the way, out of the folder (its real path is checked, not its
spelling). A saved file is written whole or not at all (`files.atomic`), only
as `.txt`, only in a folder that already exists, and never over an existing
file unless asked to replace it.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as root:
...     folders = Folders([root])
...     try:
...         folders.path(0, "../etc/passwd")
...     except UsageError as exc:
...         print(exc)
'../etc/passwd': a path may not hold '..'
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..core.errors import UsageError, quoted
from ..files.atomic import write_text

__all__ = ["Folders", "SHIPPED"]

# The shipped instances, the folder the studio shows when given none.
SHIPPED = Path(__file__).resolve().parents[2] / "instances"


@dataclass(frozen=True)
class Folders:
    """The folders given, each by its real path, in the order given."""

    roots: tuple[Path, ...]

    def __init__(self, given: list[str] | tuple[str, ...]) -> None:
        roots = []
        for name in given:
            if not os.path.isdir(name):
                what = "no such folder" if not os.path.exists(name) else "not a folder"
                raise UsageError(f"{name}: {what} (the studio shows folders of instances)")
            roots.append(Path(os.path.realpath(name)))
        if not roots:
            raise UsageError("the studio needs at least one folder")
        object.__setattr__(self, "roots", tuple(roots))

    def root(self, index: object) -> Path:
        if type(index) is not int or not 0 <= index < len(self.roots):
            raise UsageError(f"no folder {quoted(index)}: the folders are 0..{len(self.roots) - 1}")
        return self.roots[index]

    def path(self, index: object, relative: object) -> Path:
        """The real path of `relative` inside folder `index`, checked (module docstring);
        it need not exist."""
        root = self.root(index)
        if not isinstance(relative, str) or not relative.strip():
            raise UsageError(f"{quoted(relative)}: not a path inside the folder")
        for bad, why in (("\0", "a NUL"), ("\\", "a backslash")):
            if bad in relative:
                raise UsageError(f"{quoted(relative)}: a path may not hold {why}")
        pure = PurePosixPath(relative)
        if pure.is_absolute():
            raise UsageError(f"{quoted(relative)}: a path is relative to its folder, not absolute")
        if ".." in pure.parts:
            raise UsageError(f"{quoted(relative)}: a path may not hold '..'")
        if any(part.startswith(".") for part in pure.parts):
            raise UsageError(f"{quoted(relative)}: hidden files and folders are left alone")
        real = Path(os.path.realpath(root / pure))
        if real != root and root not in real.parents:
            raise UsageError(f"{quoted(relative)}: leads out of the folder (a symlink)")
        return real

    def readable(self, index: object, relative: object) -> Path:
        """An existing regular file inside folder `index` (`path`'s rules)."""
        path = self.path(index, relative)
        if not path.is_file():
            raise UsageError(f"{quoted(relative)}: no such file in {self.root(index)}")
        return path

    def save(self, index: object, relative: object, text: str, replace: bool = False) -> Path:
        """Write `text` as the `.txt` file `relative` inside folder `index`; the path
        written."""
        path = self.path(index, relative)
        if path.suffix != ".txt":
            raise UsageError(f"{quoted(relative)}: an instance file ends in .txt")
        if not path.parent.is_dir():
            raise UsageError(f"{quoted(relative)}: its folder does not exist")
        if path.exists() and not replace:
            raise UsageError(f"{quoted(relative)}: a file of that name exists (replace it?)")
        if path.exists() and not path.is_file():
            raise UsageError(f"{quoted(relative)}: not a regular file")
        return write_text(path, text)

    def relative(self, path: Path) -> tuple[int, str] | None:
        """(folder number, relative path) of a real path inside a folder, else None."""
        real = Path(os.path.realpath(path))
        for index, root in enumerate(self.roots):
            if real == root or root in real.parents:
                return index, real.relative_to(root).as_posix()
        return None
