"""Every output file and folder, written one way: an output path never becomes another kind.

Every command that writes goes through this module, which looks at what the
path names (symlinks followed to their final target) and writes it so:

- a new path or a plain file: the content goes to a temporary file in the
  same folder (so the rename stays on one file system) and is moved into
  place with `os.replace`, which is atomic: a reader sees the old file or
  the new one, never half, and a failed write leaves the old file as it
  was. A replaced file keeps its permission bits; a new one gets 0644 minus
  the umask. Missing parent folders are created.
- a symlink (to a file, or dangling): its final target is written that way,
  atomically in the target's folder; the link stays a link.
- a FIFO, a character device (/dev/null, /dev/full, a terminal) or a link
  naming an open descriptor (/dev/stdout, /dev/fd/N, anything in /proc):
  written through, opened for writing where it stands (appending, no
  temporary file, no rename). A FIFO that nobody reads is waited on for
  `FIFO_WAIT_S` seconds (time for `twinsolve ... --cnf pipe & reader pipe`
  to start its reader), then refused: "no reader on the FIFO".
- `-`: standard output (its byte stream, binary formats too). A file named
  `-` is `./-`. Whether `-` makes sense is the caller's to decide (the CLI
  takes it where nothing else is printed there); a folder is never `-`.
- refused with one line (`UsageError`), nothing written and nothing changed:
  a read-only file (one we may not write, or one with no write bit at all:
  root, whom permissions do not stop, still respects a file marked
  read-only), a folder, a block device, a socket, a symlink loop, a path
  under a file or in a read-only folder.

Any error while writing (ENOSPC from /dev/full, a FIFO whose reader left)
is a `UsageError` of one line naming the path.

Folders (`output_folder`): an existing folder or a symlink to one is used as
it is; a missing one is created with its parents (a dangling symlink's
target is created); a file, a device or a read-only folder is refused in one
line. The files written into a folder follow the rules above, one by one.

`check_output` and `check_folder` answer "can this be written?" without
writing or creating anything, with the same rules the writers then apply,
so a command checks its outputs before its long work and never ends a long
solve with "cannot write".
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import UsageError

__all__ = ["STDOUT", "FIFO_WAIT_S", "Output", "check_output", "check_folder", "write_bytes",
           "write_text", "write_with", "output_folder"]

STDOUT = "-"  # the output path that means standard output
FIFO_WAIT_S = 5.0  # how long a FIFO's reader may take to appear
_LINK_HOPS = 40  # the kernel's own limit on a chain of symlinks


@dataclass(frozen=True)
class Output:
    """How a file output is written: `replace` (atomically, at `target`), `through` (opened
    where it stands: a FIFO or a device; or, for /dev/stdout and /dev/fd/N, our own
    `descriptor`) or `stdout`. `target` is the symlink chain's end."""

    path: Path
    target: Path
    how: str
    descriptor: int | None = None  # this process's own descriptor the path names


def _kind(mode: int) -> str:
    """What a file of this mode is, as a message names it."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISLNK, "a symlink")):
        if test(mode):
            return name
    return "a file"


def _writable(path: Path, info: os.stat_result) -> bool:
    """We may write it, and it is not marked read-only: os.access alone says yes to root."""
    access = os.W_OK | (os.X_OK if stat.S_ISDIR(info.st_mode) else 0)
    return bool(info.st_mode & 0o222) and os.access(path, access)


def _in_proc(path: Path) -> Path | None:
    """Where `path`'s chain of symlinks enters /proc, or None: /dev/stdout and /dev/fd/N
    lead to /proc/self/fd/N, an open descriptor (a pipe, a terminal, or the file a shell
    redirected stdout to), which is written where it stands, never replaced."""
    location = path
    for _ in range(_LINK_HOPS):
        if os.path.realpath(location.parent).startswith("/proc/"):
            return location
        try:
            location = location.parent / os.readlink(location)
        except OSError:  # not a link (or gone): the chain ends here
            return None
    return None


def _own_descriptor(location: Path | None) -> int | None:
    """N when `location` is /proc/self/fd/N of this process: writing to descriptor N
    itself shares its offset (a file opened anew would write over what N wrote)."""
    if location is None or not location.name.isdigit():
        return None
    own = os.path.realpath(f"/proc/{os.getpid()}/fd")
    return int(location.name) if os.path.realpath(location.parent) == own else None


def _check_creatable(given: Path, folder: Path, what: str) -> None:
    """`folder` can be created (or exists): its nearest existing ancestor is a writable folder."""
    ancestor = folder
    while not os.path.lexists(ancestor) and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    try:
        info = os.stat(ancestor)
    except OSError as exc:
        raise UsageError(f"{what} {given}: {ancestor}: {exc.strerror or exc}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise UsageError(f"{what} {given}: {ancestor} is {_kind(info.st_mode)}, not a folder")
    if not _writable(ancestor, info):
        raise UsageError(f"{what} {given}: the folder {ancestor} is read-only")


def _final(given: Path, what: str) -> tuple[Path, os.stat_result | None]:
    """The symlink chain's final target and its status (None when it does not exist)."""
    target = Path(os.path.realpath(given))
    try:
        info = os.lstat(target)
    except (FileNotFoundError, NotADirectoryError):  # a new path (perhaps under a file)
        return target, None
    except OSError as exc:
        raise UsageError(f"{what} {given}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(info.st_mode):  # realpath leaves a loop unresolved
        raise UsageError(f"{what} {given}: a symlink loop")
    return target, info


def check_output(path: str | os.PathLike[str]) -> Output:
    """How the file output `path` will be written (module docstring); `UsageError` (one
    line) when it cannot be. Writes and creates nothing.

    >>> import tempfile; folder = Path(tempfile.mkdtemp())
    >>> check_output(folder / "new.txt").how, check_output("-").how
    ('replace', 'stdout')
    >>> check_output(folder)
    Traceback (most recent call last):
    ...
    twinsolve.core.errors.UsageError: cannot write ...: it is a folder; name a file
    """
    if str(path) == STDOUT:
        return Output(Path(STDOUT), Path(STDOUT), "stdout")
    given = Path(path)
    cannot = "cannot write"
    in_proc = _in_proc(given)
    if in_proc is not None:
        target, info = given, _status(given, cannot)
    else:
        target, info = _final(given, cannot)
    if info is None:  # a new file (perhaps a dangling link's target)
        _check_creatable(given, target.parent, cannot)
        return Output(given, target, "replace")
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise UsageError(f"{cannot} {given}: it is a folder; name a file")
    through = stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or \
        (in_proc is not None and stat.S_ISREG(mode))
    if not (through or stat.S_ISREG(mode)):
        raise UsageError(f"{cannot} {given}: it is {_kind(mode)}; twinsolve writes files, "
                         "FIFOs and character devices")
    if not _writable(target, info):
        raise UsageError(f"{cannot} {given}: it is read-only")
    if through:
        return Output(given, target, "through", _own_descriptor(in_proc))
    _check_creatable(given, target.parent, cannot)  # the temporary file goes beside it
    return Output(given, target, "replace")


def _status(path: Path, what: str) -> os.stat_result:
    """`os.stat(path)` (links followed), or a one-line `UsageError`."""
    try:
        return os.stat(path)
    except OSError as exc:
        raise UsageError(f"{what} {path}: {exc.strerror or exc}") from None


def _cannot(path: Path, exc: OSError) -> UsageError:
    return UsageError(f"cannot write {path}: {exc.strerror or exc}")


def _new_mode() -> int:
    """0644 minus the umask, read without changing it where Linux tells it."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return 0o644 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o644 & ~umask


def _replace(output: Output, fill: Callable[[Path], None]) -> None:
    """Let `fill` write a temporary file beside the target, then rename it over the target."""
    target = output.target
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = _new_mode()
    except OSError as exc:
        raise _cannot(output.path, exc) from None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # The suffix of the name given: a writer may choose its format by it (CP-SAT's).
        handle, temp = tempfile.mkstemp(prefix=f".{target.name}.",
                                        suffix=output.path.suffix or ".tmp", dir=target.parent)
        os.close(handle)
    except OSError as exc:
        raise _cannot(output.path, exc) from None
    try:
        fill(Path(temp))
        os.chmod(temp, mode)  # mkstemp makes 0600
        os.replace(temp, target)
    except OSError as exc:
        Path(temp).unlink(missing_ok=True)
        raise _cannot(output.path, exc) from None
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _open_through(output: Output) -> int:
    """A descriptor open for writing on the FIFO or device; a FIFO's reader is waited for
    up to FIFO_WAIT_S (a non-blocking open fails with ENXIO while nobody reads)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_NOCTTY
    is_fifo = stat.S_ISFIFO(_status(output.path, "cannot write").st_mode)
    deadline = time.monotonic() + FIFO_WAIT_S
    while True:
        try:
            descriptor = os.open(output.path, flags | (os.O_NONBLOCK if is_fifo else 0))
            break
        except OSError as exc:
            if not (is_fifo and exc.errno == errno.ENXIO):  # no reader yet
                raise _cannot(output.path, exc) from None
            if time.monotonic() >= deadline:
                raise UsageError(f"cannot write {output.path}: no reader on the FIFO (waited "
                                 f"{FIFO_WAIT_S:g} s)") from None
            time.sleep(0.02)
    if is_fifo:  # writes block again once open: a slow reader is no error
        fcntl.fcntl(descriptor, fcntl.F_SETFL, fcntl.fcntl(descriptor, fcntl.F_GETFL)
                    & ~os.O_NONBLOCK)
    return descriptor


def _stdout_descriptor() -> int | None:
    """Standard output's descriptor, or None for a stream without one (a test's capture)."""
    try:
        return sys.stdout.fileno()
    except (OSError, ValueError):  # io.UnsupportedOperation is both
        return None


def _write_through(output: Output, data: bytes) -> None:
    """Write `data` to standard output, a FIFO or a device, where it stands.

    Standard output and our own descriptors are written through a duplicate, unbuffered
    by Python's streams: a failed write leaves nothing behind to fail again at exit."""
    for stream in (sys.stdout, sys.stderr):  # what the command printed comes first
        stream.flush()
    to_stdout = output.how == "stdout"
    own = _stdout_descriptor() if to_stdout else output.descriptor
    if to_stdout and own is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    descriptor = os.dup(own) if own is not None else _open_through(output)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
    except OSError as exc:
        if to_stdout and isinstance(exc, BrokenPipeError):
            raise  # the reader left (`| head`): the CLI ends quietly
        where = "standard output" if to_stdout else output.path
        raise UsageError(f"cannot write {where}: {exc.strerror or exc}") from None


def write_with(path: str | os.PathLike[str], fill: Callable[[Path], None]) -> Path:
    """Let `fill(temp_path)` write the content, then put it at `path` (module docstring);
    return the path as given.

    For writers that insist on a file name of their own (a solver library's export
    function, say). The temporary file keeps the suffix of `path`; for a FIFO, a device or
    standard output it is made in a private folder and its bytes written through.
    """
    output = check_output(path)
    if output.how == "replace":
        _replace(output, fill)
        return output.path
    with tempfile.TemporaryDirectory(prefix="twinsolve-out-") as folder:
        temp = Path(folder) / f"out{Path(output.path).suffix}"
        try:
            fill(temp)
            data = temp.read_bytes()
        except OSError as exc:
            raise _cannot(output.path, exc) from None
    _write_through(output, data)
    return output.path


def write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write `data` to `path` (module docstring); return the path as given.

    >>> import tempfile; folder = Path(tempfile.mkdtemp())
    >>> write_bytes(folder / "a.txt", b"hi").read_bytes()
    b'hi'
    """
    output = check_output(path)
    if output.how == "replace":
        _replace(output, lambda temp: temp.write_bytes(data))
    else:
        _write_through(output, data)
    return output.path


def write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write `text` as UTF-8 to `path` (module docstring); return the path as given."""
    return write_bytes(path, text.encode("utf-8"))


def check_folder(folder: str | os.PathLike[str]) -> Path:
    """The folder output `folder` as given, checked (module docstring) without creating it;
    `UsageError` (one line) when it cannot be used or created."""
    if str(folder) == STDOUT:
        raise UsageError("-: a folder of files cannot go to standard output; name a folder")
    given = Path(folder)
    target, info = _final(given, "cannot write into")
    if info is None:
        _check_creatable(given, target, "cannot create folder")
    elif not stat.S_ISDIR(info.st_mode):
        raise UsageError(f"cannot write into {given}: it is {_kind(info.st_mode)}, not a folder")
    elif not _writable(target, info):
        raise UsageError(f"cannot write into {given}: the folder is read-only")
    return given


def output_folder(folder: str | os.PathLike[str]) -> Path:
    """The folder output `folder` as given, created with its parents if missing (a dangling
    symlink's target is created); a one-line `UsageError` when it cannot be."""
    given = check_folder(folder)
    try:
        Path(os.path.realpath(given)).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create folder {given}: {exc.strerror or exc}") from None
    return given
