"""`twinsolve generate` and `twinsolve grade` as people run them, files compared byte for
byte: in the test's process (`conftest.cli`, in tmp_path), and in a real one where the
process matters (`--jobs 2`'s worker pool, a pseudo-terminal for the progress bar). A
refusal's exit code and one line from a real process are tests/cli/test_cli.py's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import twinsolve

from twinsolve.cli import main

GENERATE = ("generate", "cave", "--size", "6x6", "--count", "3", "--seed", "4",
            "--difficulty", "medium")


def _files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("*.txt"))}


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_generate_writes_graded_files_and_the_same_bytes_with_any_jobs(tmp_path, cli):
    one = cli(*GENERATE, "--out", "one", cwd=tmp_path)
    assert one.returncode == 0, one.stderr
    files = _files(tmp_path / "one")
    assert list(files) == [f"cave-medium-6x6-s4-0{i}.txt" for i in (1, 2, 3)]
    assert one.stdout.splitlines() == [f"wrote one/{name}" for name in files]
    text = files["cave-medium-6x6-s4-01.txt"].decode()
    lines = text.splitlines()
    assert lines[0].startswith("# generator: twinsolve ")
    assert lines[1:4] == ["# parameters: cave 6x6 difficulty=medium",
                          lines[2], "# difficulty: medium"]
    assert lines[2].startswith("# seed: 4 (puzzle 1 of 3, try ")
    assert lines[4].startswith('# grade: {"clues":')
    assert lines[5] == "# expect-unique: true" and lines[6].startswith("# expect-solution: ")
    two = twinsolve(*GENERATE, "--jobs", "2", "--out", "two", cwd=tmp_path)
    assert two.returncode == 0, two.stderr
    assert _files(tmp_path / "two") == files
    other = cli(*GENERATE[:7], "5", *GENERATE[8:], "--out", "other")
    assert other.returncode == 0, other.stderr
    assert len(_files(tmp_path / "other")) == 3
    assert not set(_files(tmp_path / "other").values()) & set(files.values())
    # the harness accepts every answer against the files' own metadata (exit 1 if wrong)
    bench = cli("bench", "one", "--backends", "hand,sat", "--quiet", "--db", "b.sqlite",
                "--unique")
    assert bench.returncode == 0, bench.stdout + bench.stderr


def test_grade_prints_each_level_and_the_distribution(tmp_path, cli):
    assert cli(*GENERATE, "--out", "made", cwd=tmp_path).returncode == 0
    graded = cli("grade", "made")
    assert graded.returncode == 0, graded.stderr
    lines = graded.stdout.splitlines()
    assert all(": medium  (clues " in line for line in lines[0:6:2])
    assert all(line.startswith("  hardest step ") for line in lines[1:6:2])  # issue 28
    assert lines[6] == "cave: 3 graded: medium 3"
    as_json = cli("grade", "made", "--json")
    assert as_json.stdout.count('"level": "medium"') == 3


def test_grade_says_when_a_puzzle_has_no_unique_solution(tmp_path, cli):
    (tmp_path / "open.txt").write_text("cave 3 3\n- - -\n- 3 -\n- - -\n")
    graded = cli("grade", "open.txt", cwd=tmp_path)
    assert graded.returncode == 1
    assert graded.stdout.startswith("open.txt: no unique solution")


@pytest.mark.parametrize("args, message", [
    (("generate", "cave", "--size", "0x5", "--out", "x"), "a generated Cave has 1..40 rows, got 0"),
    (("generate", "cave", "--difficulty", "fiendish", "--out", "x"),
     "cave has no difficulty 'fiendish' (levels: easy, medium, hard, extreme)"),
    (("generate", "cave", "--presses", "3", "--out", "x"),
     "the generator of 'cave' has no option '--presses' ('twinsolve generate PUZZLE --help' "
     "lists its options)"),
    (("generate", "mirror", "--option", "colour=red", "--out", "x"),
     "mirror's generator has no option --colour (it takes --flips, --goal, --lasers, "
     "--mirrors; see 'twinsolve generate mirror --help')"),
    (("generate", "mirror", "--option", "goal", "--out", "x"),
     "generate: argument --option: use NAME=VALUE, e.g. goal=all: 'goal'"),
    (("generate", "cave", "--size", "1x1", "--difficulty", "hard", "--out", "x"),
     "a 1x1 grid has no hard Cave puzzle (it needs at least 16 cells)"),
    (("generate", "cave", "--size", "2x5", "--difficulty", "medium", "--out", "x"),
     "no medium 2x5 cave puzzle found in 60 tries (seed 0, puzzle 1 of 1); "
     "try another size or level"),
    (("generate", "nosuch", "--out", "x"), "unknown puzzle 'nosuch'"),
    (("generate", "cave", "--seed", "-1", "--out", "x"),
     "generate: argument --seed: must be a whole number 0..2**63-1: '-1'"),
    (("generate", "cave", "--size", "6x6", "--out", "taken.txt"),
     "cannot write into taken.txt: it is a file, not a folder"),
    (("grade", "missing.txt"), "missing.txt"),
])
def test_bad_requests_are_one_line_exit_2_and_write_nothing(tmp_path, args, message, cli):
    (tmp_path / "taken.txt").write_text("a file")
    done = cli(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "x").exists()


def test_puzzle_options_reach_the_generator(tmp_path, cli):
    done = cli("generate", "mirror", "--size", "8x8", "--option", "goal=all",
                     "--option", "lasers=2", "--flips", "3", "--out", "m", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (made,) = (tmp_path / "m").glob("*.txt")
    text = made.read_text()
    assert "# parameters: mirror 8x8 difficulty=easy flips=3 goal=all lasers=2" in text
    assert "# expect-objective: 3" in text and " goal all" in text


def test_a_puzzle_that_outlasts_its_timeout_ends_the_run(tmp_path, cli):
    # 20x20 extreme takes half a minute (benchmarks.generate_perf): far beyond 0.5 s.
    done = cli("generate", "cave", "--size", "20x20", "--difficulty", "extreme",
                     "--timeout", "0.5", "--out", "x", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == ("twinsolve: puzzle 1 of 1: no extreme 20x20 cave puzzle "
                                   "found within --timeout 0.5 s (seed 0)")
    assert not (tmp_path / "x").exists()


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_progress_bar_shows_in_a_terminal_only(tmp_path, cli):
    leader, follower = os.openpty()
    process = subprocess.Popen([sys.executable, "-m", "twinsolve", *GENERATE, "--out", "tty"],
                               cwd=tmp_path, stdin=follower, stdout=subprocess.PIPE,
                               stderr=follower, env={**os.environ, "COLUMNS": "100"})
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the program is done
            break
        if not chunk:
            break
        seen += chunk
    process.wait(timeout=300)
    os.close(leader)
    assert process.returncode == 0
    assert b"generate medium 6x6 cave puzzles" in seen and b"/3" in seen
    piped = cli(*GENERATE, "--out", "piped", cwd=tmp_path)
    assert piped.stderr == ""


def test_an_option_error_names_the_option_as_the_user_gives_it(tmp_path, cli):
    done = cli("generate", "jugs", "--option", "jugs=9", "--out", "j", cwd=tmp_path)
    assert done.returncode == 2  # its exit code, one line, no traceback
    assert done.stderr.strip() == "twinsolve: --jugs must be a whole number 2..4, got 9"
    done = cli("generate", "jugs", "--length", "0", "--out", "j", cwd=tmp_path)
    assert done.returncode == 2 and "--length must be a whole number" in done.stderr
    assert not (tmp_path / "j").exists()


# ---------------------------------------------------------------- messages (issue 23)

@pytest.mark.parametrize(("args", "message"), [
    # the type read ">= 0" for every number, and refused what the generator would explain
    (("--modulus", "18446744073709551616"),
     "--modulus must be one of 2, 3, 5, 7, got 18446744073709551616"),
    (("--presses", "-1"), "--presses must be 1..14, got -1: at least 1 (a lit board), and a "
                          "unique fewest-press solution on a 5x5 plain board has at most 14 "
                          "presses"),
    (("--presses", "0"), "--presses must be 1..14, got 0: at least 1"),
    (("--presses", "15"), "--presses must be 1..14, got 15: at least 1"),
    (("--size", "0x5"), "a generated Lights Out board has 1..64 rows, got 0"),
    (("--size", "5x99999999999"), "a generated Lights Out board has 1..64 columns, "
                                  "got 99999999999"),
    (("--presses", "x"), "generate: argument --presses: must be a whole number (at most 30 "
                         "digits): 'x'"),
])
def test_a_generate_range_error_states_the_real_range(tmp_path, capsys, args, message):
    out = tmp_path / "out"
    assert main(["generate", "lightsout", "--difficulty", "medium", *args,
                 "--out", str(out)]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith(f"twinsolve: {message}") and not out.exists()


@pytest.mark.parametrize(("puzzle", "args", "message"), [
    ("chess", ("--pieces", "-1"),
     "a beginner Solitaire Chess puzzle has 2 to 5 pieces on a 4x4 board, not -1"),
    ("chess", ("--size", "0"), "a Solitaire Chess board has 1..8 rows, got 0"),
    ("jugs", ("--length", "-1"), "--length must be a whole number 1..40, got -1"),
    ("jugs", ("--option", "goal=" + "x" * 5000),
     "--goal must be holds, total or exact, got '" + "x" * 60 + "...'"),
])
def test_every_generator_states_the_range_and_quotes_short(tmp_path, capsys, puzzle, args,
                                                           message):
    assert main(["generate", puzzle, *args, "--out", str(tmp_path / "out")]) == 2
    assert capsys.readouterr().err == f"twinsolve: {message}\n"


def test_grade_says_no_solution_for_a_puzzle_without_one(tmp_path, capsys):
    """It said "no unique solution" of every puzzle without a level."""
    files = {"a-jugs": "jugs\ncapacities 2 4\nmoves fill empty pour\ngoal holds 3\n",
             "b-cave": "cave 2 2\n1 1\n- -\n", "c-chess": "chess 2 3\nN.N\n...\n",
             "d-lights": "lightsout 1 2 mod 3\n10\n", "e-mirror": "mirror 2 2\n>#\n#T\n",
             "f-open": "cave 3 3\n- - -\n- 3 -\n- - -\n"}  # several solutions
    for name, text in files.items():
        (tmp_path / f"{name}.txt").write_text(text)
    assert main(["grade", str(tmp_path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    said = [line.split(": ", 1)[1].split("  ")[0] for line in lines[:len(files)]]
    assert said == ["no solution"] * 5 + ["no unique solution"]
