"""Writing output files atomically: a reader sees the old file or the new one, never half.

Each output is written to a temporary file in the same folder (so the final
rename stays on one file system) and moved into place with `os.replace`, which
is atomic on POSIX and Windows. If writing fails, the temporary file is
removed and the old output, if any, is left as it was. Failures to write
(a missing permission, a folder where a file should be) become a one-line
`UsageError`, like every other mistake a user can make on the command line.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from .errors import UsageError

__all__ = ["write_bytes", "write_text", "write_with", "output_folder"]


def write_with(path: str | Path, fill: Callable[[Path], None]) -> Path:
    """Let `fill(temp_path)` write the content, then move it onto `path` atomically.

    For writers that insist on a file name of their own (a solver library's
    export function, say). The temporary file keeps the target's suffix.
    """
    target = Path(path)
    folder = output_folder(target.parent)
    try:
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix or ".tmp",
                                        dir=folder)
        os.close(handle)
    except OSError as exc:
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    try:
        fill(Path(temp))
        os.chmod(temp, 0o644)  # mkstemp makes 0600; an output is an ordinary file
        os.replace(temp, target)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise UsageError(f"cannot write {target}: {exc.strerror or exc}") from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target


def write_bytes(path: str | Path, data: bytes) -> Path:
    """Write `data` to `path` atomically; return the path.

    >>> import tempfile; folder = Path(tempfile.mkdtemp())
    >>> write_bytes(folder / "a.txt", b"hi").read_bytes()
    b'hi'
    """
    return write_with(path, lambda temp: temp.write_bytes(data))


def write_text(path: str | Path, text: str) -> Path:
    """Write `text` as UTF-8 to `path` atomically; return the path."""
    return write_bytes(path, text.encode("utf-8"))


def output_folder(folder: str | Path) -> Path:
    """The folder, created with its parents if missing; a one-line error if it cannot be."""
    path = Path(folder)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise UsageError(f"cannot write into {path}: it is a file, not a folder") from None
    except OSError as exc:
        raise UsageError(f"cannot create folder {path}: {exc.strerror or exc}") from None
    return path
