"""`twinsolve solve` and the entry point refuse bad input cleanly and check answers.

Every case checks the exit code, the one stderr line and that no traceback is
shown: the entry point, names that are not UTF-8 and Ctrl-C in a real process
(`python -m twinsolve` in tmp_path), the others in the test's own (`cli`, which
fails on any exception).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import twinsolve
from twinsolve.cli import SOLVE_TIMEOUT, build_parser, main
from twinsolve.core.registry import puzzle_of

ROOT = Path(__file__).resolve().parents[2]
JUGS = ROOT / "instances" / "jugs"


def twinsolve_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "twinsolve", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd, stdin=subprocess.DEVNULL)


def one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    """The single stderr line of a refused command (exit 2, nothing else said)."""
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("twinsolve: ") and "twinsolve: twinsolve" not in lines[0]
    return lines[0]


@pytest.fixture
def all_on(tmp_path):
    def write(meta: str = "") -> Path:
        path = tmp_path / "all-on.txt"
        path.write_text(f"{meta}lightsout 3 3\n111\n111\n111\n")
        return path
    return write


# ---------------------------------------------------------------- the entry point

def test_version_comes_from_the_package(tmp_path):
    proc = twinsolve_cli("--version", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == f"twinsolve {twinsolve.__version__}\n"
    assert twinsolve.__version__ == "0.1.0"


def test_no_arguments_prints_the_help(tmp_path, cli):
    proc = cli(cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout.startswith("usage: twinsolve") and "solve" in proc.stdout
    assert "twinsolve: twinsolve" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("args, words", [
    (["bogus"], "twinsolve: argument command: invalid choice: 'bogus'"),
    (["solve"], "twinsolve: solve: the following arguments are required: PATH"),
    (["solve", "x.txt", "--bogus"], "twinsolve: unrecognized arguments: --bogus"),
    (["bench", "x", "--jobs", "0"], "twinsolve: bench: argument --jobs: must be a whole"),
])
def test_parser_errors_are_one_line_with_one_prefix(tmp_path, args, words, cli):
    assert one_error_line(cli(*args, cwd=tmp_path)).startswith(words)


def test_every_line_of_a_long_message_is_prefixed(tmp_path, cli):
    (tmp_path / "a.txt").write_text("lightsout 2 2\n1x\n11\n")
    (tmp_path / "b.txt").write_text("lightsout 2 2\n11\n1\n")
    proc = cli("solve", "a.txt", "b.txt", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 2 and [line.split(":")[:2] for line in lines] == [
        ["twinsolve", " a.txt"], ["twinsolve", " b.txt"]]


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_output_survives_names_that_are_not_utf8(tmp_path):
    # After main() has run, stdout escapes a lone surrogate instead of raising
    # UnicodeEncodeError, and so does rich's Console, which writes through it.
    code = ("import sys\nfrom rich.console import Console\nfrom twinsolve.cli import main\n"
            "code = main(['list'])\nprint('caf\\udce9.txt')\nConsole().print('x\\ud800')\n"
            "sys.exit(code)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tmp_path,
                          timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr
    assert b"caf\\udce9.txt" in proc.stdout and b"x\\ud800" in proc.stdout


# ---------------------------------------------------------------- numbers

@pytest.mark.parametrize("command, value", [
    *(("solve", value) for value in ("nan", "inf", "-inf", "1e400", "-0", "0", "-1")),
    ("bench", "nan"), ("report", "inf"),  # the same argument reader
])
def test_non_finite_or_non_positive_timeouts_are_refused(tmp_path, command, value, cli):
    line = one_error_line(cli(command, "x.txt", f"--timeout={value}", cwd=tmp_path))
    assert f"argument --timeout: must be a finite number of seconds > 0: {value!r}" in line
    assert list(tmp_path.iterdir()) == []  # refused before anything was opened or written


def test_solve_has_a_default_time_limit_shown_in_help(tmp_path, cli):
    assert build_parser().parse_args(["solve", "x.txt"]).timeout == SOLVE_TIMEOUT == 60
    proc = cli("solve", "--help", cwd=tmp_path)
    assert proc.returncode == 0 and "(default 60)" in " ".join(proc.stdout.split())


# ---------------------------------------------------------------- answers against metadata

def test_solve_says_why_an_answer_contradicts_expect_objective(all_on, tmp_path, cli):
    path = all_on("# expect-objective: 2\n")
    proc = cli("solve", path.name, cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "wrong: optimal objective 5, expected 2" in proc.stdout
    line = json.loads(cli("solve", path.name, "--json").stdout)
    assert line["status"] == "wrong" and line["message"] == "optimal objective 5, expected 2"
    assert line["objective"] == 5 and line["verified"] is True


def test_solve_checks_expect_unique_when_asked(all_on, tmp_path, cli):
    path = all_on("# expect-unique: false\n")
    assert cli("solve", path.name, cwd=tmp_path).returncode == 0  # not asked
    proc = cli("solve", path.name, "--unique", "--json")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["message"] == "unique=True, expected false"


def test_an_unsat_answer_to_unique_says_unsat_not_also_not_unique(tmp_path, cli):
    # Three 1s side by side are one island of three clues: no solution.
    path = tmp_path / "none.txt"
    path.write_text("nurikabe 1 3\n1 1 1\n")
    proc = cli("solve", path, "--backend", "sat", "--unique", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    line = next(line for line in proc.stdout.splitlines() if line.startswith("sat:"))
    assert line.startswith("sat: unsat  (") and "unique" not in line


def test_an_answer_that_meets_the_metadata_passes(all_on, tmp_path, cli):
    path = all_on("# expect-objective: 5\n# expect-solutions: 1\n")
    proc = cli("solve", path.name, "--count", "--json", cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["status"] == "optimal"


# ---------------------------------------------------------------- back-ends

def test_a_cmd_program_that_is_not_installed_is_a_usage_error(all_on, tmp_path, cli):
    line = one_error_line(cli("solve", all_on().name, "--backend",
                              "cmd:nosuchprogram-twinsolve", cwd=tmp_path))
    assert "nosuchprogram-twinsolve" in line


# The first instance is quick: once its JSON line is out, the imports are done and the
# second, long run is under way (each runs well past 20 s when left alone).
LONG_RUNS = {  # the step encoding: the automaton solves the long decanting in 0.3 s
    "cpsat:encoding=steps": (JUGS / "die-hard-holds-4.txt", JUGS / "gen-decant-50-37-29-13.txt"),
    "sat": (JUGS / "die-hard-holds-4.txt", ROOT / "instances" / "chess" / "mixed-8x8-20.txt"),
    "sat:glucose4": (JUGS / "die-hard-holds-4.txt", JUGS / "gen-decant-50-37-29-13.txt"),
}


# one back-end in the default run, every one in the slow run (each waits for its solver)
@pytest.mark.parametrize("backend", [name if name == "sat" else
                                     pytest.param(name, marks=pytest.mark.slow)
                                     for name in sorted(LONG_RUNS)])
def test_ctrl_c_says_interrupted_never_timeout(tmp_path, backend):
    """CP-SAT's own Ctrl-C handler made the run a `timeout` (and left SIGINT at its default,
    so the next Ctrl-C killed the process silently); PySAT's made it an `error`, and
    CaDiCaL then aborted the process. The interrupt must win, promptly."""
    quick, long = LONG_RUNS[backend]
    proc = subprocess.Popen([sys.executable, "-m", "twinsolve", "solve", str(quick), str(long),
                             "--backend", backend, "--timeout", "40", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path)
    try:
        first = json.loads(proc.stdout.readline())
        assert first["instance"] == str(quick)
        time.sleep(0.5)  # inside the solver's C code by now
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert time.monotonic() - sent < 10
    assert proc.returncode == 130, (out, err)
    assert err == "twinsolve: interrupted\n" and out == ""


# ---------------------------------------------------------------- the board (issue 23)

def test_solve_all_prints_the_board_first_then_one_line_per_backend(tmp_path, capsys):
    """No back-end solves it: the board used to come out between the second and third
    back-ends' lines."""
    path = tmp_path / "odd.txt"
    path.write_text("jugs\ncapacities 2 4\nmoves fill empty pour\ngoal holds 3\n")
    assert main(["solve", str(path), "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    starts = [i for i, line in enumerate(lines) if line.split(":")[0] in ("hand", "cpsat", "sat")]
    assert [lines[i].split(":")[0] for i in starts] == ["hand", "cpsat", "sat"]
    assert lines[1] == "Water jugs 2 4: goal holds 3" and lines[2] == "moves: fill empty pour"
    assert starts[0] < 5 and not any("Water jugs" in line for line in lines[starts[0]:])


def _solved_boards(monkeypatch, capsys, columns: str, *paths: Path) -> list[str]:
    monkeypatch.setenv("COLUMNS", columns)
    assert main(["solve", *map(str, paths), "--timeout", "30"]) == 0
    return capsys.readouterr().out.splitlines()


@pytest.mark.slow  # solves every shipped file; the widest two are in the default run (below)
def test_no_solve_line_is_wider_than_80_columns_for_any_shipped_instance(monkeypatch, capsys):
    """An 80x80 mirror maze printed 160-character lines, a 25x25 Lights Out 103: both now
    fit, drawn compact (boards are printed unwrapped, so a line too wide would show)."""
    lines = _solved_boards(monkeypatch, capsys, "80", ROOT / "instances")
    assert max(len(line) for line in lines) <= 80
    assert sum(line.startswith("Mirror maze 80x80") for line in lines) == 2
    assert sum(len(line) == 80 and set(line) <= set("./\\?#TS><^v·") for line in lines) >= 160
    compact_lights = "●" * 25 + "   "  # all-on 25x25: every light on, presses beside
    assert sum(line.startswith(compact_lights) for line in lines) == 25


def test_a_board_too_wide_even_compact_is_one_summary_line(monkeypatch, capsys):
    # the easy 80x80 maze: as wide as the hard one, solved in a tenth of its time
    lines = _solved_boards(monkeypatch, capsys, "60", ROOT / "instances/mirror/easy-80x80.txt",
                           ROOT / "instances/lightsout/all-on-25x25.txt")
    assert max(len(line) for line in lines) <= 60
    text = " ".join(lines)
    assert "80x80 grid, too wide to draw in 60 columns" in text
    assert "draw it with --svg OUT.svg or --png OUT.png" in text
    assert "●" * 25 + "   " in text  # 53 columns: the Lights Out board still fits, compact


SHIPPED = sorted(path for path in (ROOT / "instances").rglob("*.txt")
                 if "robots" not in path.parts)


@pytest.mark.parametrize("width", [None, 50, 20])
def test_render_keeps_every_line_within_its_width(width):
    """The rules contract: `render(instance, solution, width)` draws no line wider than
    `width` (None: no limit, the spaced drawing of old)."""
    for path in SHIPPED:
        instance = twinsolve.load(str(path))
        drawn = puzzle_of(instance).rules.render(instance, None, width=width).plain
        if width is not None:
            assert max(map(len, drawn.splitlines())) <= width, (path, drawn)
        else:
            assert drawn == puzzle_of(instance).rules.render(instance).plain
