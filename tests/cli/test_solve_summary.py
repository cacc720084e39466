"""`twinsolve solve --summary`: an answer's status, presses, stats and check, no solution.

Lights Out's `hand` gives its summary without holding the press grid (the registry's
`summary_module`, `puzzles/lightsout/summary.py`); a board too large for the full solve
(`lights all` over 5000 a side) gets only that, and is refused up front, one line and
exit 2, wherever it cannot. The commands run in the test's process (`conftest.cli`); a
refusal from a real process is tests/cli/test_cli.py's.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
from conftest import ROOT

from twinsolve.cli import main
from twinsolve.core.limits import Limits
from twinsolve.core.registry import puzzle, summary_module
from twinsolve.core.result import Status
from twinsolve.core.run import run, size_refusal
from twinsolve.puzzles.lightsout import hand
from twinsolve.puzzles.lightsout.rules import Instance

TALL = "lightsout 6000 2 lights all\n"  # over MAX_SIDE a side, yet only 12,000 cells


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def json_lines(proc) -> list[dict]:
    assert "Traceback" not in proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def one_error_line(proc) -> str:
    """The single stderr line of a refused command: exit 2, nothing on stdout."""
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


# ---------------------------------------------------------------- the answer, without the grid

def test_the_summary_of_a_compact_board_has_the_presses_of_the_full_solve(tmp_path, cli):
    write(tmp_path, "grid.txt", "lightsout 2000 2000\n" + ("1" * 2000 + "\n") * 2000)
    write(tmp_path, "compact.txt", "lightsout 2000 2000 lights all\n")
    [full] = json_lines(cli("solve", "grid.txt", "--json", cwd=tmp_path))
    proc = cli("solve", "compact.txt", "--summary", "--json", cwd=tmp_path)
    assert proc.returncode == 0
    [summary] = json_lines(proc)
    assert full["status"] == summary["status"] == "optimal"
    assert summary["objective"] == full["objective"] == sum(
        row.count("1") for row in full["solution"]["presses"])
    assert summary["verified"] is True and summary["summary"] is True
    assert summary["solution"] is None
    assert summary["stats"]["nullity"] == 0 and summary["stats"]["method"] == "polynomial"


def test_a_3000_square_compact_board_summarises_to_the_optimum(tmp_path, cli):
    write(tmp_path, "b.txt", "lightsout 3000 3000 lights all\n")
    [line] = json_lines(cli("solve", "b.txt", "--summary", "--json", cwd=tmp_path))
    best = run(Instance.all_on(3000), "hand")  # the full solve, its grid verified
    assert best.status is Status.OPTIMAL and best.verified
    assert (line["status"], line["objective"], line["verified"]) == ("optimal",
                                                                     best.objective, True)


# The board (`generate lightsout --size 5x5 --difficulty hard`, seed 0): nullity 2,
# the particular solution 12 presses, the fewest 10.
HARD = ("# expect-unique: true\n# expect-objective: 10\nlightsout 5 5\n"
        "00111\n10010\n01000\n00101\n11010\n")


def test_a_board_that_fits_summarises_to_the_full_solves_answer(tmp_path, capsys):
    write(tmp_path, "hard.txt", HARD)
    assert main(["solve", str(tmp_path / "hard.txt"), "--json"]) == 0
    [full] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["solve", str(tmp_path / "hard.txt"), "--json", "--summary"]) == 0
    [summary] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (full["status"], full["objective"]) == ("optimal", 10)
    for key in ("status", "objective", "verified", "unique"):
        assert summary[key] == full[key]
    assert summary["solution"] is None and summary["summary"] is True
    assert main(["solve", str(tmp_path / "hard.txt"), "--summary"]) == 0
    assert "hand: optimal, objective 10, verified" in capsys.readouterr().out


def test_a_board_too_large_with_a_kernel_says_why_its_presses_are_not_the_fewest(tmp_path,
                                                                                  capsys):
    assert hand.kernel_dimension(5004, 4) == 4
    path = str(write(tmp_path, "k.txt", "lightsout 5004 4 lights all\n"))
    assert main(["solve", path, "--summary", "--json"]) == 0
    [line] = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert (line["status"], line["verified"], line["solution"]) == ("feasible", True, None)
    assert line["stats"]["nullity"] == 4
    assert line["message"] == ("fewest presses not proven: the board has a kernel of "
                               "nullity 4 and the summary does not search it")
    assert main(["solve", path, "--summary"]) == 0
    text = capsys.readouterr().out
    assert "hand: feasible" in text and "fewest presses not proven" in text


def test_a_feasible_answer_worse_than_the_file_says_the_optimum_is_not_proven(tmp_path,
                                                                              capsys):
    write(tmp_path, "hard.txt", HARD)
    path = str(tmp_path / "hard.txt")
    assert main(["solve", path, "--backend", "hand:minimise=false", "--json"]) == 0
    [line] = [json.loads(text) for text in capsys.readouterr().out.splitlines()]
    assert (line["status"], line["objective"], line["verified"]) == ("feasible", 12, True)
    assert line["message"].startswith("optimum not proven: objective 12, the file expects 10")
    assert main(["solve", path, "--backend", "hand:minimise=false", "--summary"]) == 0
    assert "optimum not proven: objective 12, the file expects 10" in capsys.readouterr().out


def test_the_text_summary_is_the_answer_line_without_the_board(tmp_path, cli):
    write(tmp_path, "tall.txt", TALL)
    proc = cli("solve", "tall.txt", "--summary", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    expected = run(Instance.all_on(6000, 2), "hand", summary=True)
    assert f"hand: optimal, objective {expected.objective}, verified" in proc.stdout
    assert "nullity 0" in proc.stdout and "●" not in proc.stdout and "presses" not in proc.stdout


def test_every_backend_beside_the_summary_says_why_it_cannot(tmp_path, cli):
    write(tmp_path, "tall.txt", TALL)
    proc = cli("solve", "tall.txt", "--summary", "--all", "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = {line["backend"]: line for line in json_lines(proc)}
    assert lines["hand"]["status"] == "optimal" and lines["hand"]["verified"] is True
    for name in ("cpsat", "sat"):
        assert lines[name]["status"] == "unsupported"
        assert f"too large for back-end {name}, which gives no summary" in \
            lines[name]["message"]


def test_a_puzzle_without_a_summary_runs_the_full_path_and_leaves_the_solution_out(tmp_path, cli):
    jugs = sorted((ROOT / "instances" / "jugs").glob("*.txt"))[0]
    [full] = json_lines(cli("solve", str(jugs), "--json", cwd=tmp_path))
    [summary] = json_lines(cli("solve", str(jugs), "--json", "--summary", cwd=tmp_path))
    assert full["solution"] is not None and summary["solution"] is None
    for key in ("status", "objective", "verified"):
        assert summary[key] == full[key]
    assert summary["verified"] is True


def test_the_time_limit_bounds_the_summary(tmp_path, cli):
    # A million rows: the summary chases them for ~2 s; the limit stops it at ~0.5 s.
    write(tmp_path, "long.txt", "lightsout 1000000 64 lights all\n")
    start = time.perf_counter()
    proc = cli("solve", "long.txt", "--summary", "--json", "--timeout", "0.2",
                     cwd=tmp_path)
    elapsed = time.perf_counter() - start
    [line] = json_lines(proc)
    assert proc.returncode == 1 and line["status"] == "timeout"
    assert "time limit of 0.2 s reached" in line["message"]
    assert elapsed < 10


# ---------------------------------------------------------------- refused up front

BIG_REFUSALS = {
    "no-summary": (TALL, ["solve", "big.txt"],
                   "the 6000x2 board is too large for a full solve, which holds the press grid "
                   "(sides up to 5000); 'twinsolve solve big.txt --summary' solves and checks "
                   "it without writing the grid"),
    "all-no-summary": (TALL, ["solve", "big.txt", "--all"],
                       "the 6000x2 board is too large for a full solve, which holds the press "
                       "grid (sides up to 5000); 'twinsolve solve big.txt --summary' solves and "
                       "checks it without writing the grid"),
    "cpsat": (TALL, ["solve", "big.txt", "--backend", "cpsat"],
              "the 6000x2 board is too large for a full solve, which holds the press grid "
              "(sides up to 5000): too large for back-end cpsat, which gives no summary "
              "(back-ends with one: hand)"),
    "cpsat-summary": (TALL, ["solve", "big.txt", "--backend", "cpsat:workers=1", "--summary"],
                      "the 6000x2 board is too large for a full solve, which holds the press "
                      "grid (sides up to 5000): too large for back-end cpsat, which gives no "
                      "summary (back-ends with one: hand)"),
    "torus": ("lightsout 6000 2 torus lights all\n", ["solve", "big.txt", "--summary"],
              "the 6000x2 board is too large for a full solve, which holds the press grid "
              "(sides up to 5000), and hand's summary handles GF(2) boards without torus "
              "(this one is torus)"),
    "mod-3": ("lightsout 6000 2 mod 3 lights all\n", ["solve", "big.txt", "--summary"],
              "the 6000x2 board is too large for a full solve, which holds the press grid "
              "(sides up to 5000), and hand's summary handles GF(2) boards without torus "
              "(this one is mod 3)"),
    "elimination": (TALL, ["solve", "big.txt", "--summary", "--backend",
                           "hand:method=elimination"],
                    "the 6000x2 board is too large for a full solve, which holds the press "
                    "grid (sides up to 5000), and hand's summary uses the polynomial method, "
                    "not method=elimination"),
    "picture": (TALL, ["solve", "big.txt", "--svg", "out.svg"],
                "the 6000x2 board is too large for a full solve, which holds the press grid "
                "(sides up to 5000); 'twinsolve solve big.txt --summary' solves and checks it "
                "without writing the grid"),
    "grade": (TALL, ["grade", "big.txt"],
              "the 6000x2 board is too large for a full solve, which holds the press grid "
              "(sides up to 5000); grading needs the full solve"),
    "export": (TALL, ["export", "big.txt", "--cnf", "out.cnf"],
               "the 6000x2 board is too large for a full solve, which holds the press grid "
               "(sides up to 5000); its encodings would be as large"),
    "bad-header": ("lightsout 6000 2 lights\n", ["solve", "big.txt", "--summary"],
                   "1:18: option 'lights' takes 'all' (every light on, no grid), got nothing"),
    "body": ("lightsout 6000 2 lights all\n11\n", ["solve", "big.txt", "--summary"],
             "2:1: no rows of lights may follow 'lights all' (header column 18): every light "
             "is on"),
}


@pytest.mark.parametrize("name", sorted(BIG_REFUSALS))
def test_a_board_too_large_for_the_run_asked_is_one_line_and_exit_2(tmp_path, name, cli):
    text, args, message = BIG_REFUSALS[name]
    write(tmp_path, "big.txt", text)
    line = one_error_line(cli(*args, cwd=tmp_path))
    separator = ":" if message[0].isdigit() else ": "
    assert line == f"twinsolve: big.txt{separator}{message}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.txt"]  # nothing written


def test_one_big_board_among_several_is_refused_before_any_is_solved(tmp_path, cli):
    write(tmp_path, "a.txt", "lightsout 3 3 lights all\n")
    write(tmp_path, "z.txt", TALL)
    line = one_error_line(cli("solve", "a.txt", "z.txt", cwd=tmp_path))
    assert line.startswith("twinsolve: z.txt: the 6000x2 board is too large")


# ---------------------------------------------------------------- pictures and bench

def test_a_board_too_large_to_draw_is_rendered_as_one_line(tmp_path, cli):
    write(tmp_path, "big.txt", "lightsout 100000 100000 lights all\n")
    start = time.perf_counter()
    proc = cli("render", "big.txt", "--out", "pics", "--solution", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert time.perf_counter() - start < 20  # no summary run for a picture it cannot show
    assert "big.txt: the 100000x100000 board is too large for a full solve" in proc.stdout
    svg = (tmp_path / "pics" / "big-solution.svg").read_text()
    assert "100000x100000 grid, too large to draw (over 100x100): 10,000,000,000 lights on" \
        in svg
    assert svg.count("<rect") == 1  # the paper only


def test_bench_runs_hands_summary_and_records_the_others_as_unsupported(tmp_path, cli,
                                                                        pool_in_process):
    # what bench runs and stores is the point, not the pool: its runs are made in process
    suite = tmp_path / "suite"
    suite.mkdir()
    write(suite, "tall.txt", TALL)
    write(suite, "torus.txt", "lightsout 6000 2 torus lights all\n")
    write(suite, "small.txt", "lightsout 3 3 lights all\n")
    db = tmp_path / "b.sqlite"
    proc = cli("bench", str(suite), "--backends", "hand,cpsat", "--db", str(db),
                     "--jobs", "1", "--quiet", "--timeout", "30", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT task_path, backend, status, verified, objective, "
                                  "message, solution FROM runs").fetchall()
    runs = {(path, backend): tuple(rest) for path, backend, *rest in rows}
    expected = run(Instance.all_on(6000, 2), "hand").objective
    assert runs[("tall.txt", "hand")][:3] == ("optimal", 1, expected)
    assert runs[("tall.txt", "hand")][4] is None  # a summary stores no solution
    assert runs[("tall.txt", "cpsat")][0] == "unsupported"
    assert "too large for back-end cpsat" in runs[("tall.txt", "cpsat")][3]
    assert runs[("torus.txt", "hand")][0] == "unsupported"
    assert "hand's summary handles GF(2) boards without torus" in runs[("torus.txt", "hand")][3]
    assert runs[("small.txt", "hand")][:3] == ("optimal", 1, 5)
    assert runs[("small.txt", "cpsat")][:3] == ("optimal", 1, 5)


# ---------------------------------------------------------------- the API beneath

@pytest.mark.parametrize(("rows", "cols", "sigma"), [(1, 1, False), (3, 3, False),
                                                     (4, 4, False), (7, 9, True),
                                                     (300, 200, False), (6, 6, True)])
def test_the_summary_agrees_with_the_full_solve(rows, cols, sigma):
    board = Instance.all_on(rows, cols, sigma=sigma)
    full = run(board, "hand")
    summary = run(board, "hand", summary=True)
    assert summary.solution is None and summary.verified
    assert (summary.status, summary.objective) == (full.status, full.objective)
    # The streamed summary itself, which only boards too large for the full solve take:
    # the fewest presses where the board has no kernel, a solution no better otherwise.
    streamed = summary_module(puzzle("lightsout").backend("hand")).summary(board, Limits())
    assert streamed.solution is None and streamed.verified
    if full.stats.counters["nullity"] == 0:
        assert (streamed.status, streamed.objective) == (Status.OPTIMAL, full.objective)
    else:
        assert streamed.status is Status.FEASIBLE and streamed.objective >= full.objective
        assert streamed.message.startswith("fewest presses not proven: the board has a kernel")


def test_run_takes_the_summary_for_a_board_too_large_and_only_then():
    tall = Instance.all_on(6000, 2)
    result = run(tall, "hand", Limits(timeout=30))
    assert result.status is Status.OPTIMAL and result.verified and result.solution is None
    assert result.objective == hand.solve_summary(6000, 2).objective
    refused = run(tall, "hand", summary=False)
    assert refused.status is Status.UNSUPPORTED and "only a summary fits" in refused.message
    assert run(Instance.all_on(3), "hand").solution is not None  # small: the full solve
    assert size_refusal(tall, "hand") is None
    assert summary_module(puzzle("lightsout").backend("hand")) is not None
    assert summary_module(puzzle("lightsout").backend("cpsat")) is None
