"""Running an outside program on an input file, tied to this process's life.

The rules: the program and everything it starts die with this process, even
when this process is killed by `kill -9` (which runs no clean-up code); its
input leaves nothing on disk; at the time limit the whole program is killed,
descendants included.

The idea:
- The program runs under a small `sh` guardian that leads a process group of
  its own (`start_new_session`), so one `killpg` takes the guardian, the
  program and whatever the program started (a solver script's `sleep`, say)
  without touching this process.
- Who kills that group when this process dies? Not PR_SET_PDEATHSIG on the
  program alone: the kernel clears it at fork, so the program's own children
  would survive (a `sh` script's `sleep 300` did). Instead the guardian's
  stdin is the read end of a pipe whose only write end this process holds; a
  watcher in the guardian blocks reading it, and when this process dies for
  any reason the kernel closes the write end, the read sees end-of-file and
  the watcher kills the whole group. No signal handler, no `preexec_fn` (not
  safe in a threaded process), and it works wherever `sh` does.
- The input is an anonymous in-memory file (`os.memfd_create`) handed down as
  an open descriptor and named `/dev/fd/N`, so nothing is ever written to the
  temporary folder. Where memfd is missing the input goes to a temporary
  folder removed afterwards (`FILES_IN_MEMORY` tells callers which).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Finished", "run_on_file", "FILES_IN_MEMORY"]

FILES_IN_MEMORY = hasattr(os, "memfd_create")

# The guardian, run as `sh -c GUARDIAN twinsolve-cmd PROGRAM ARGS...` with the
# tether pipe as stdin. The program gets /dev/null as stdin; the watcher gets
# the pipe (moved to descriptor {fd}: one of 3..9, the only ones `sh` can
# name, not taken by an input descriptor) and kills the group (`kill 0`) at
# end-of-file. When the program ends, the guardian (ignoring it itself) sends
# TERM to the group: the watcher stops, and so does anything the program left
# running; then it passes on the program's exit status.
_GUARDIAN = """\
exec {fd}<&0 0</dev/null
"$@" {fd}<&- &
program=$!
{{ read -r _ <&{fd}; kill -KILL 0; }} >/dev/null 2>&1 &
watcher=$!
exec {fd}<&-
wait "$program"
status=$?
trap '' TERM
kill -TERM 0
{{ wait "$watcher"; }} 2>/dev/null
exit "$status"
"""

_REAP_S = 1.0  # after a kill, how long to wait for the output pipes to close


@dataclass(frozen=True)
class Finished:
    """How the program ended: its exit code (None: stopped at the time limit) and output."""

    exit_code: int | None
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.exit_code is None


@contextlib.contextmanager
def _memory_file(descriptor: int, data: bytes) -> Iterator[tuple[str, tuple[int, ...]]]:
    try:
        with os.fdopen(os.dup(descriptor), "wb") as handle:
            handle.write(data)
        os.lseek(descriptor, 0, os.SEEK_SET)  # for systems where /dev/fd/N is a dup
        # On Linux opening /dev/fd/N reopens the memfd from its start, so the
        # program reads it as a plain file (and may seek or map it).
        yield f"/dev/fd/{descriptor}", (descriptor,)
    finally:
        os.close(descriptor)


@contextlib.contextmanager
def _temporary_file(data: bytes, name: str) -> Iterator[tuple[str, tuple[int, ...]]]:
    with tempfile.TemporaryDirectory(prefix="twinsolve-cmd-") as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        yield str(path), ()


def _input_file(data: bytes,
                name: str) -> contextlib.AbstractContextManager[tuple[str, tuple[int, ...]]]:
    """A path the program can open for `data`, and the descriptors it must inherit."""
    if FILES_IN_MEMORY:
        try:
            return _memory_file(os.memfd_create(name), data)
        except OSError:  # a kernel or sandbox without memfd: a file, then
            pass
    return _temporary_file(data, name)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.communicate(timeout=_REAP_S)
    except subprocess.TimeoutExpired:  # a descendant that left the group keeps a pipe open
        proc.wait()


def _text(data: bytes | None) -> str:
    return (data or b"").decode("utf-8", errors="replace")


def _guardian(pass_fds: tuple[int, ...]) -> str:
    return _GUARDIAN.format(fd=min(set(range(3, 10)) - set(pass_fds)))


def _wait(proc: subprocess.Popen[bytes], timeout: float | None) -> Finished:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        return Finished(None, "", "")
    except BaseException:  # Ctrl-C or any error here: the program must not outlive us
        _kill_group(proc)
        raise
    return Finished(proc.returncode, _text(out), _text(err))


def _run_tethered(command: Sequence[str], pass_fds: tuple[int, ...],
                  timeout: float | None) -> Finished:
    tether_read, tether_write = os.pipe()  # both ends close-on-exec: no other child gets one
    try:
        try:
            proc = subprocess.Popen(
                ["/bin/sh", "-c", _guardian(pass_fds), "twinsolve-cmd", *command],
                stdin=tether_read, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=pass_fds, start_new_session=True)
        finally:
            os.close(tether_read)  # the guardian holds the only read end
        return _wait(proc, timeout)
    finally:
        os.close(tether_write)  # the guardian is gone by now: nothing left to kill


def run_on_file(command: Sequence[str], data: bytes, timeout: float | None,
                name: str = "input") -> Finished:
    """Run `command + [PATH]`, PATH a file holding `data`, for at most `timeout` seconds.

    Raises FileNotFoundError when `command[0]` is not an executable program.
    """
    if not command or shutil.which(command[0]) is None:
        raise FileNotFoundError(command[0] if command else "")
    with _input_file(data, name) as (path, pass_fds):
        return _run_tethered([*command, path], pass_fds, timeout)
