"""The one output helper (twinsolve.files.atomic): what each kind of path becomes when written.

One table of kinds serves the file tests: each makes its path in tmp_path and
says what a write must do: `replace` (the content lands in the plain file at
the end of the link chain, every link staying a link), `through` (a FIFO or
a device is written where it stands and stays what it was) or a refusal (one
line naming the path; nothing in tmp_path changes).
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import device_twin, fifo_reader, snapshot

from twinsolve.core.errors import UsageError
from twinsolve.files import atomic
from twinsolve.files.atomic import (
    check_folder,
    check_output,
    output_folder,
    write_bytes,
    write_text,
    write_with,
)

DATA = b"payload \xe2\x9c\x93\n"


# ------------------------------------------------------------------ the kinds of path

def _new(tmp: Path) -> tuple[Path, Path]:
    return tmp / "new.txt", tmp / "new.txt"


def _plain(tmp: Path) -> tuple[Path, Path]:
    (tmp / "plain.txt").write_bytes(b"old")
    return tmp / "plain.txt", tmp / "plain.txt"


def _new_in_new_folders(tmp: Path) -> tuple[Path, Path]:
    return tmp / "a" / "b" / "new.txt", tmp / "a" / "b" / "new.txt"


def _link_to_file(tmp: Path) -> tuple[Path, Path]:
    (tmp / "real").mkdir()
    (tmp / "real" / "target.txt").write_bytes(b"old")
    (tmp / "link.txt").symlink_to(Path("real") / "target.txt")
    return tmp / "link.txt", tmp / "real" / "target.txt"


def _link_to_link(tmp: Path) -> tuple[Path, Path]:
    (tmp / "target.txt").write_bytes(b"old")
    (tmp / "one.txt").symlink_to("target.txt")
    (tmp / "two.txt").symlink_to(tmp / "one.txt")
    return tmp / "two.txt", tmp / "target.txt"


def _dangling_link(tmp: Path) -> tuple[Path, Path]:
    (tmp / "real").mkdir()
    (tmp / "link.txt").symlink_to(Path("real") / "missing.txt")
    return tmp / "link.txt", tmp / "real" / "missing.txt"


def _fifo(tmp: Path) -> tuple[Path, Path]:
    os.mkfifo(tmp / "pipe")
    return tmp / "pipe", tmp / "pipe"


def _link_to_fifo(tmp: Path) -> tuple[Path, Path]:
    os.mkfifo(tmp / "pipe")
    (tmp / "link").symlink_to("pipe")
    return tmp / "link", tmp / "pipe"


def _dev_null(tmp: Path) -> tuple[Path, Path]:
    null = device_twin(tmp, "null")
    return null, null


def _read_only(tmp: Path) -> tuple[Path, Path]:
    (tmp / "ro.txt").write_bytes(b"keep")
    (tmp / "ro.txt").chmod(0o444)
    return tmp / "ro.txt", tmp / "ro.txt"


def _link_to_read_only(tmp: Path) -> tuple[Path, Path]:
    target = _read_only(tmp)[0]
    (tmp / "link.txt").symlink_to("ro.txt")
    return tmp / "link.txt", target


def _folder(tmp: Path) -> tuple[Path, Path]:
    (tmp / "folder").mkdir()
    return tmp / "folder", tmp / "folder"


def _link_to_folder(tmp: Path) -> tuple[Path, Path]:
    (tmp / "folder").mkdir()
    (tmp / "link").symlink_to("folder")
    return tmp / "link", tmp / "folder"


def _under_a_file(tmp: Path) -> tuple[Path, Path]:
    (tmp / "file").write_bytes(b"keep")
    return tmp / "file" / "x.txt", tmp / "file" / "x.txt"


def _in_read_only_folder(tmp: Path) -> tuple[Path, Path]:
    (tmp / "locked").mkdir()
    (tmp / "locked").chmod(0o555)
    return tmp / "locked" / "x.txt", tmp / "locked" / "x.txt"


def _loop(tmp: Path) -> tuple[Path, Path]:
    (tmp / "a").symlink_to("b")
    (tmp / "b").symlink_to("a")
    return tmp / "a", tmp / "a"


def _socket(tmp: Path) -> tuple[Path, Path]:
    path = tmp / "sock"
    if len(str(path)) > 100:
        pytest.skip("tmp_path too long for a unix socket's name")
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.close()  # the name stays, a socket
    return path, path


# name: (make, what a write does, words of the refusal)
KINDS: dict[str, tuple[Callable[[Path], tuple[Path, Path]], str, str]] = {
    "new file": (_new, "replace", ""),
    "plain file": (_plain, "replace", ""),
    "new file in new folders": (_new_in_new_folders, "replace", ""),
    "symlink to a file": (_link_to_file, "replace", ""),
    "symlink to a symlink": (_link_to_link, "replace", ""),
    "dangling symlink": (_dangling_link, "replace", ""),
    "FIFO": (_fifo, "through", ""),
    "symlink to a FIFO": (_link_to_fifo, "through", ""),
    "/dev/null": (_dev_null, "through", ""),
    "read-only file": (_read_only, "refused", "it is read-only"),
    "symlink to a read-only file": (_link_to_read_only, "refused", "it is read-only"),
    "folder": (_folder, "refused", "it is a folder; name a file"),
    "symlink to a folder": (_link_to_folder, "refused", "it is a folder; name a file"),
    "path under a file": (_under_a_file, "refused", "file is a file, not a folder"),
    "path in a read-only folder": (_in_read_only_folder, "refused", "locked is read-only"),
    "symlink loop": (_loop, "refused", "a symlink loop"),
    "socket": (_socket, "refused", "it is a socket"),
}


def _write(path: Path, how: str) -> None:
    """One write, by each of the three writers in turn (they share every rule)."""
    if how == "text":
        write_text(path, DATA.decode("utf-8"))
    elif how == "bytes":
        write_bytes(path, DATA)
    else:
        write_with(path, lambda temp: temp.write_bytes(DATA))


@pytest.mark.parametrize("writer", ["text", "bytes", "with"])
@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_of_path_is_written_as_its_kind_says(tmp_path, kind, writer):
    make, outcome, words = KINDS[kind]
    path, target = make(tmp_path)
    kind_before = os.lstat(path).st_mode if os.path.lexists(path) else None
    target_before = os.stat(target) if os.path.exists(target) else None
    if outcome == "refused":
        before = snapshot(tmp_path)
        with pytest.raises(UsageError) as refused:
            check_output(path)  # the check says so before any work...
        with pytest.raises(UsageError) as caught:
            _write(path, writer)  # ...and the write refuses alike
        assert str(caught.value) == str(refused.value)
        assert words in str(caught.value) and str(path) in str(caught.value)
        assert "\n" not in str(caught.value)
        assert snapshot(tmp_path) == before  # nothing written, nothing changed
        return
    if outcome == "through":
        assert check_output(path).how == "through"
        with fifo_reader(target) if stat.S_ISFIFO(os.stat(target).st_mode) else \
                contextlib.nullcontext({"data": DATA}) as got:
            _write(path, writer)
        assert got["data"] == DATA
    else:
        assert check_output(path).how == "replace"
        _write(path, writer)
        assert target.read_bytes() == DATA
    if kind_before is not None:  # it is what it was: a link a link, a FIFO a FIFO
        assert stat.S_IFMT(os.lstat(path).st_mode) == stat.S_IFMT(kind_before)
    if target_before is not None and outcome == "through":
        assert os.stat(target).st_rdev == target_before.st_rdev
    leftovers = [p.name for p in tmp_path.rglob(".*")]
    assert leftovers == []  # no temporary file left behind


def test_a_replaced_file_keeps_its_permission_bits_and_a_new_one_gets_0644_minus_umask(tmp_path):
    kept = tmp_path / "private.txt"
    kept.write_text("old")
    kept.chmod(0o640)
    write_text(kept, "new")
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "new"
    umask = os.umask(0o027)
    try:
        write_text(tmp_path / "fresh.txt", "x")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "fresh.txt").stat().st_mode) == 0o640  # 0644 & ~027


def test_a_replaced_file_is_a_new_inode_so_a_reader_never_sees_half(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")
    with open(path, "rb") as reader:  # a reader holding the old file
        inode = os.fstat(reader.fileno()).st_ino
        write_text(path, "new")
        assert reader.read() == b"old"
    assert path.stat().st_ino != inode and path.read_text() == "new"


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "out.txt"
    path.write_text("old")

    def broken(temp: Path) -> None:
        temp.write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(UsageError, match="cannot write .*out.txt: No space left on device"):
        write_with(path, broken)
    assert path.read_text() == "old" and sorted(tmp_path.iterdir()) == [path]


def test_a_full_device_is_one_line_naming_it(tmp_path):
    full = device_twin(tmp_path, "full")
    with pytest.raises(UsageError) as caught:
        write_text(full, "x" * 100_000)
    assert str(caught.value) == f"cannot write {full}: No space left on device"
    assert stat.S_ISCHR(os.stat(full).st_mode)


def test_a_fifo_nobody_reads_is_refused_after_the_wait(tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "FIFO_WAIT_S", 0.2)
    os.mkfifo(tmp_path / "pipe")
    with pytest.raises(UsageError, match=r"pipe: no reader on the FIFO \(waited 0.2 s\)"):
        write_text(tmp_path / "pipe", "x")
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe").st_mode)


def test_a_fifo_reader_that_comes_late_gets_everything(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    got: dict[str, bytes] = {}

    def late_reader() -> None:
        threading.Event().wait(0.3)
        with open(tmp_path / "pipe", "rb") as handle:
            got["data"] = handle.read()

    thread = threading.Thread(target=late_reader)
    thread.start()
    big = DATA * 50_000  # far over a pipe's buffer: the writer blocks, it does not fail
    write_bytes(tmp_path / "pipe", big)
    thread.join(timeout=10)
    assert got["data"] == big


@pytest.mark.parametrize("writer", ["text", "bytes", "with"])
def test_dash_is_standard_output_binary_too(tmp_path, capsysbinary, monkeypatch, writer):
    monkeypatch.chdir(tmp_path)  # a writer taking `-` for a file name would write it here
    assert check_output("-").how == "stdout"
    _write(Path("-"), writer)
    assert capsysbinary.readouterr().out == DATA and list(tmp_path.iterdir()) == []


def test_a_file_named_dash_is_dot_slash_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_text("./-", "x")
    assert (tmp_path / "-").read_text() == "x"


def test_dev_stdout_redirected_to_a_file_writes_in_order_and_replaces_nothing(tmp_path):
    """/dev/stdout is a link to /proc/self/fd/1; a link of our own to the same place is
    written alike, and a writer that went wrong would replace it, not /dev/stdout."""
    stdout = tmp_path / "stdout"
    stdout.symlink_to("/proc/self/fd/1")
    script = ("import sys\nfrom twinsolve.files.atomic import write_text\n"
              "print('before', flush=True)\nwrite_text(sys.argv[1], 'payload\\n')\n"
              "print('after')\n")
    out = tmp_path / "out.txt"
    with open(out, "wb") as handle:
        inode = os.fstat(handle.fileno()).st_ino
        done = subprocess.run([sys.executable, "-c", script, str(stdout)], stdout=handle,
                              stderr=subprocess.PIPE, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == "before\npayload\nafter\n" and out.stat().st_ino == inode


# ------------------------------------------------------------------ folders

def _folder_kinds(tmp: Path) -> dict[str, Path]:
    (tmp / "there").mkdir()
    (tmp / "to-there").symlink_to("there")
    (tmp / "dangling").symlink_to("made")
    (tmp / "file").write_text("keep")
    return {"existing": tmp / "there", "symlink": tmp / "to-there", "missing": tmp / "x" / "y",
            "dangling symlink": tmp / "dangling"}


@pytest.mark.parametrize("kind, lands", [("existing", "there"), ("symlink", "there"),
                                          ("missing", "x/y"), ("dangling symlink", "made")])
def test_a_folder_output_is_used_or_created_and_links_stay_links(tmp_path, kind, lands):
    folder = _folder_kinds(tmp_path)[kind]
    before = snapshot(tmp_path)
    assert check_folder(folder) == folder and snapshot(tmp_path) == before  # creates nothing
    assert output_folder(folder) == folder
    write_text(folder / "a.txt", "x")
    assert (tmp_path / lands / "a.txt").read_text() == "x"
    if "symlink" in kind:
        assert folder.is_symlink()


@pytest.mark.parametrize("name, words", [
    ("file", "cannot write into {p}: it is a file, not a folder"),
    ("file/x", "cannot create folder {p}: {t}/file is a file, not a folder"),
    ("locked/x", "cannot create folder {p}: the folder {t}/locked is read-only"),
    ("locked", "cannot write into {p}: the folder is read-only"),
    ("-", "-: a folder of files cannot go to standard output; name a folder"),
])
def test_a_folder_output_that_cannot_be_is_one_line(tmp_path, name, words):
    _folder_kinds(tmp_path)
    (tmp_path / "locked").mkdir(mode=0o555)
    folder = tmp_path / name if name != "-" else "-"
    before = snapshot(tmp_path)
    for check in (check_folder, output_folder):
        with pytest.raises(UsageError) as caught:
            check(folder)
        assert str(caught.value) == words.format(p=folder, t=tmp_path)
    assert snapshot(tmp_path) == before


def test_instance_files_are_all_checked_before_the_first_is_written(tmp_path):
    from twinsolve.core.run import load_file
    from twinsolve.files.writing import write_instances

    board = tmp_path / "board.txt"
    board.write_text("lightsout 2 2\n11\n11\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "b.txt").write_text("keep")
    (out / "b.txt").chmod(0o444)
    before = snapshot(tmp_path)
    instance = load_file(board)
    with pytest.raises(UsageError, match=r"b\.txt: it is read-only"):
        write_instances(out, [("a.txt", instance), ("b.txt", instance)])
    assert snapshot(tmp_path) == before  # a.txt was not written either
    assert write_instances(out, [("a.txt", instance)]) == [out / "a.txt"]
