"""Every command that writes, against every kind of output path (issue 23).

"An output path is never replaced by something of another kind." One table
names each file output of each command (`FILES`: how to run it, what its
bytes start with) and one each folder output (`FOLDERS`); one test body per
kind of path serves every row: a symlink stays a symlink and its target is
written, a FIFO stays a FIFO (read from a thread), /dev/null stays a
character device, a read-only file and a folder are refused in one line
before any work (exit 2, nothing changed), and `-` is standard output where
the command takes it. A folder output not made yet and named like a file
(`render --out board.png`) is refused too. In-process through `twinsolve.cli.main`; two
subprocesses check the real process: the issue's `--html /dev/full`, and a
replay page piped out of `play --replay F --html -`.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import device_twin, fifo_reader, snapshot, twinsolve

from twinsolve.bench.execute import record_of
from twinsolve.bench.plan import Budget
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.cli import main
from twinsolve.core.limits import Limits
from twinsolve.core.run import run

ROOT = Path(__file__).resolve().parents[2]
LIGHTS = str(ROOT / "instances" / "lightsout" / "all-on-03x03.txt")
URL = "https://puzz.link/p?cave/6/6/k3h6j2l7g3g2h3n"


def _in_process(tasks, budget):
    """The harness's executor without worker processes (the database is all we need)."""
    for task in tasks:
        result = run(task.instance, task.backend, Limits(timeout=budget.timeout))
        yield task, record_of(task, result, 0.01, 0.01, budget.timeout)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A replay of a game, and a results database of one small run."""
    folder = tmp_path_factory.mktemp("inputs")
    replay = folder / "game.json"
    assert main(["play", "1", "--player", "greedy", "--record", str(replay)]) == 0
    (folder / "boards").mkdir()
    (folder / "boards" / "ones.txt").write_text("lightsout 3 3\n111\n111\n111\n")
    db = folder / "r.sqlite"
    run_suite(SuiteConfig([folder / "boards"], ["brute"], budget=Budget(timeout=5), db=db),
              executor=_in_process)
    return {"replay": str(replay), "db": str(db)}


def _cpsat_model(data: bytes) -> bool:
    from ortools.sat import cp_model_pb2

    model = cp_model_pb2.CpModelProto()
    model.ParseFromString(data)
    return len(model.variables) == 9


Args = Callable[[dict[str, str], str, Path], list[str]]

# command and option: (suffix of the name, the arguments, the first bytes / a check)
FILES: dict[str, tuple[str, Args, bytes | Callable[[bytes], bool]]] = {
    "export --cnf": (".cnf", lambda i, out, tmp: ["export", LIGHTS, "--cnf", out], b"c twin"),
    "export --wcnf": (".wcnf", lambda i, out, tmp: ["export", LIGHTS, "--wcnf", out], b"c twin"),
    "export --cpsat": (".pb", lambda i, out, tmp: ["export", LIGHTS, "--cpsat", out],
                       _cpsat_model),
    "play --record": (".json", lambda i, out, tmp: ["play", "1", "--player", "greedy",
                                                    "--record", out],
                      b'{"format":"twinsolve-robots-replay"'),
    "play --replay --html": (".html", lambda i, out, tmp: ["play", "--replay", i["replay"],
                                                           "--html", out], b"<!DOCTYPE html>"),
    "sheet --out": (".pdf", lambda i, out, tmp: ["sheet", LIGHTS, "--out", out], b"%PDF-"),
    "solve --svg": (".svg", lambda i, out, tmp: ["solve", LIGHTS, "--svg", out], b"<?xml"),
    "solve --png": (".png", lambda i, out, tmp: ["solve", LIGHTS, "--png", out], b"\x89PNG"),
    "solve --pdf": (".pdf", lambda i, out, tmp: ["solve", LIGHTS, "--pdf", out], b"%PDF-"),
    "generate --sheet": (".pdf", lambda i, out, tmp: ["generate", "lightsout", "--size", "3x3",
                                                      "--quiet", "--out", str(tmp / "made"),
                                                      "--sheet", out], b"%PDF-"),
    "report --html": (".html", lambda i, out, tmp: ["report", i["db"], "--html", out],
                      b"<!DOCTYPE html>"),
    "report --csv": (".csv", lambda i, out, tmp: ["report", i["db"], "--csv", out], b"id,"),
    "report --json": (".json", lambda i, out, tmp: ["report", i["db"], "--json", out],
                      b'{\n "database"'),
    "report --markdown": (".md", lambda i, out, tmp: ["report", i["db"], "--markdown", out],
                          b"| puzzle |"),
    "report --latex": (".tex", lambda i, out, tmp: ["report", i["db"], "--latex", out],
                       b"% twinsolve report"),
}
# the file outputs `-` cannot be: standard output carries something else there
NOT_STDOUT = {"solve --svg", "solve --png", "solve --pdf", "play --record"}


def _looks_right(command: str, data: bytes) -> bool:
    expected = FILES[command][2]
    return expected(data) if callable(expected) else data.startswith(expected)


def _run(command: str, inputs: dict[str, str], out: Path | str, tmp: Path) -> int:
    return main(FILES[command][1](inputs, str(out), tmp))


def _one_line_refusal(capsys: pytest.CaptureFixture[str], *words: str) -> None:
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("twinsolve: "), captured.err
    assert all(word in lines[0] for word in words), lines[0]


@pytest.mark.parametrize("command", list(FILES))
def test_a_symlink_stays_a_symlink_and_its_target_is_written(tmp_path, inputs, command):
    suffix = FILES[command][0]
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / f"target{suffix}"
    target.write_bytes(b"old")
    link = tmp_path / f"out{suffix}"
    link.symlink_to(Path("real") / target.name)
    assert _run(command, inputs, link, tmp_path) == 0
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / target.name)
    assert _looks_right(command, target.read_bytes())
    assert not [p for p in tmp_path.rglob(".*")]  # no temporary file left behind


@pytest.mark.parametrize("command", list(FILES))
def test_a_fifo_stays_a_fifo_and_its_reader_gets_the_output(tmp_path, inputs, command):
    pipe = tmp_path / f"pipe{FILES[command][0]}"
    os.mkfifo(pipe)
    with fifo_reader(pipe) as got:
        assert _run(command, inputs, pipe, tmp_path) == 0
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    assert _looks_right(command, got["data"])


@pytest.mark.parametrize("command", list(FILES))
def test_dev_null_stays_a_character_device(tmp_path, inputs, command):
    null = device_twin(tmp_path, "null")  # /dev/null itself where we could not harm it
    before = os.stat(null)
    assert _run(command, inputs, null, tmp_path) == 0
    after = os.stat(null)
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_mode, after.st_rdev, after.st_ino) == (before.st_mode, before.st_rdev,
                                                            before.st_ino)


@pytest.mark.parametrize("command", list(FILES))
def test_a_read_only_file_is_refused_in_one_line_and_left_as_it_was(tmp_path, inputs, capsys,
                                                                    command):
    locked = tmp_path / f"locked{FILES[command][0]}"
    locked.write_bytes(b"keep")
    locked.chmod(0o444)
    capsys.readouterr()
    before = snapshot(tmp_path)
    assert _run(command, inputs, locked, tmp_path) == 2
    _one_line_refusal(capsys, str(locked), "it is read-only")
    assert snapshot(tmp_path) == before  # refused before any work: nothing else written


@pytest.mark.parametrize("command", list(FILES))
def test_a_folder_is_refused_in_one_line(tmp_path, inputs, capsys, command):
    folder = tmp_path / f"folder{FILES[command][0]}"
    folder.mkdir()
    capsys.readouterr()
    before = snapshot(tmp_path)
    assert _run(command, inputs, folder, tmp_path) == 2
    _one_line_refusal(capsys, str(folder), "it is a folder; name a file")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("command", list(FILES))
def test_dash_is_standard_output_where_the_command_takes_it(tmp_path, inputs, capsysbinary,
                                                            monkeypatch, command):
    monkeypatch.chdir(tmp_path)  # a writer taking `-` for a file name would write it here
    capsysbinary.readouterr()
    code = _run(command, inputs, "-", tmp_path)
    out, err = capsysbinary.readouterr()
    if command in NOT_STDOUT:
        assert code == 2 and out == b""
        assert err.decode().count("\n") == 1 and "standard output carries" in err.decode()
        return
    assert code == 0, err
    assert _looks_right(command, out)  # the output alone: the command's lines went to stderr
    assert b"wrote -" in err and not (tmp_path / "-").exists()


def test_two_outputs_on_standard_output_are_refused(inputs, capsys):
    assert main(["report", inputs["db"], "--csv", "-", "--json", "-"]) == 2
    _one_line_refusal(capsys, "--csv and --json both name standard output")


# ------------------------------------------------------------------ folder outputs

Folder = Callable[[dict[str, str], str], list[str]]

# command and option: (the arguments, a file the folder gets)
FOLDERS: dict[str, tuple[Folder, str]] = {
    "render --out": (lambda i, out: ["render", LIGHTS, "--out", out], "all-on-03x03.svg"),
    "report --plots": (lambda i, out: ["report", i["db"], "--plots", out],
                       "cactus-lightsout.svg"),
    "generate --out": (lambda i, out: ["generate", "lightsout", "--size", "3x3", "--quiet",
                                       "--out", out], "lightsout-easy-3x3-s0-01.txt"),
    "import --out": (lambda i, out: ["import", URL, "--out", out], "cave-6x6-"),
}


@pytest.mark.parametrize("command", list(FOLDERS))
def test_a_symlink_to_a_folder_is_used_and_stays_a_link(tmp_path, inputs, command):
    (tmp_path / "real").mkdir()
    link = tmp_path / "out"
    link.symlink_to("real")
    args, written = FOLDERS[command]
    assert main(args(inputs, str(link))) == 0
    assert link.is_symlink() and os.readlink(link) == "real"
    assert any(p.name.startswith(written) for p in (tmp_path / "real").iterdir())


def _blocked(tmp: Path) -> dict[str, tuple[str, str]]:
    """Folder outputs that cannot be: (the path, words of the refusal)."""
    (tmp / "file").write_text("keep")
    (tmp / "locked").mkdir(mode=0o555)
    return {"a file": (str(tmp / "file"), "it is a file, not a folder"),
            "under a file": (str(tmp / "file" / "x"), "file is a file, not a folder"),
            "in a read-only folder": (str(tmp / "locked" / "x"), "locked is read-only"),
            "-": ("-", "a folder of files cannot go to standard output"),
            "named like a file": (str(tmp / "board.png"), "named like a .png file")}


@pytest.mark.parametrize("kind", ["a file", "under a file", "in a read-only folder", "-",
                                  "named like a file"])
@pytest.mark.parametrize("command", list(FOLDERS))
def test_a_folder_output_that_cannot_be_is_refused_in_one_line(tmp_path, inputs, capsys,
                                                                command, kind):
    path, words = _blocked(tmp_path)[kind]
    capsys.readouterr()
    before = snapshot(tmp_path)
    assert main(FOLDERS[command][0](inputs, path)) == 2
    _one_line_refusal(capsys, path, words)
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(("source", "words"), [
    ("https://puzz.link/p?nurikabe/5/5/zzzzzzzzz", "too many cells"),
    ("https://puzz.link/p?slither/0/3/", "COLS must be a whole number"),
    ("dataset.json", 'expected a JSON object with "data"'),
])
def test_an_import_that_fails_to_read_makes_no_folder(tmp_path, capsys, source, words):
    """The source is read before the folder is made: a bad one leaves nothing behind."""
    (tmp_path / "dataset.json").write_text('{"x": 1}')
    out = tmp_path / "imported"
    capsys.readouterr()
    before = snapshot(tmp_path)
    assert main(["import", source.replace("dataset.json", str(tmp_path / "dataset.json")),
                 "--out", str(out)]) == 2
    _one_line_refusal(capsys, words)
    assert not out.exists() and snapshot(tmp_path) == before


def test_a_folder_made_beforehand_is_used_whatever_its_name(tmp_path, inputs):
    """Only a folder not made yet is refused for a file's name: one the user made is theirs."""
    folder = tmp_path / "board.png"
    folder.mkdir()
    args, written = FOLDERS["render --out"]
    assert main(args(inputs, str(folder))) == 0
    assert any(p.name.startswith(written) for p in folder.iterdir())


def test_render_into_a_picture_name_says_which_option_picks_the_format(tmp_path, capsys):
    capsys.readouterr()
    assert main(["render", LIGHTS, "--out", str(tmp_path / "board.pdf")]) == 2
    _one_line_refusal(capsys, "--format pdf picks the pictures' format")
    assert list(tmp_path.iterdir()) == []


def test_the_shipped_sets_refuse_a_bad_folder_before_generating(tmp_path, capsys):
    from twinsolve.generation import shipped

    (tmp_path / "file").write_text("keep")
    before = snapshot(tmp_path)
    assert shipped.main(["--out", str(tmp_path / "file")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        f"twinsolve.generation.shipped: cannot write into {tmp_path / 'file'}: it is a file, "
        "not a folder\n")
    assert snapshot(tmp_path) == before


# ------------------------------------------------------------------ the real process

def test_html_to_dev_full_is_one_line_and_dev_full_stays_a_device(tmp_path, inputs):
    full = device_twin(tmp_path, "full")  # /dev/full itself where we could not harm it
    before = os.stat(full)
    done = twinsolve("play", "--replay", inputs["replay"], "--html", str(full), cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr == f"twinsolve: cannot write {full}: No space left on device\n"
    after = os.stat(full)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_html_to_dash_pipes_the_page_alone(tmp_path, inputs):
    done = subprocess.run([sys.executable, "-m", "twinsolve", "play", "--replay",
                           inputs["replay"], "--html", "-"], capture_output=True, timeout=300,
                          cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"<!DOCTYPE html>") and done.stdout.endswith(b"</html>\n")
    assert done.stderr.decode() == "wrote -\n"
    assert list(tmp_path.iterdir()) == []
