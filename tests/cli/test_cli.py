"""The command line as scripts use it: JSON lines, exit codes, tables.

The commands run in the test's process (`cli`); one refusal runs in a real one
(`twinsolve`): exit code 2, one line, no traceback.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import twinsolve

from twinsolve.cli import main


@pytest.fixture
def boards(tmp_path):
    folder = tmp_path / "boards"
    (folder / "deep").mkdir(parents=True)
    (folder / "a.txt").write_text("# expect-objective: 5\nlightsout 3 3\n111\n111\n111\n")
    (folder / "deep" / "b.txt").write_text("lightsout 2 2 mod 3\n12\n00\n")
    (folder / "notes.md").write_text("not an instance")
    return folder


def test_list_names_every_puzzle_and_backend(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "lightsout" in out and "hand" in out and "cpsat" in out and "brute" in out
    assert "easy, medium, hard, extreme" in out and "beginner, intermediate" in out


def test_solve_json_lines_over_a_folder(boards, cli):
    proc = cli("solve", str(boards), "--backend", "brute", "--json", "--unique", "--count")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [line["instance"] for line in lines] == [str(boards / "a.txt"),
                                                     str(boards / "deep" / "b.txt")]
    first = lines[0]
    assert set(first) >= {"puzzle", "instance", "backend", "status", "objective", "unique",
                          "verified", "solution", "stats", "count"}
    assert first["puzzle"] == "lightsout" and first["backend"] == "brute"
    assert first["status"] == "optimal" and first["objective"] == 5
    assert first["verified"] is True and first["unique"] is True and first["count"] == 1
    assert first["solution"] == {"presses": ["101", "010", "101"]}
    assert {"nodes", "build_s", "solve_s"} <= set(first["stats"])


def test_solve_draws_board_and_status_without_json(boards, cli):
    proc = cli("solve", str(boards / "a.txt"), "--backend", "brute")
    assert proc.returncode == 0, proc.stderr
    assert "●" in proc.stdout and "optimal" in proc.stdout and "objective 5" in proc.stdout


def test_unknown_backend_is_usage_error(boards):
    proc = twinsolve("solve", str(boards / "a.txt"), "--backend", "magic")
    assert proc.returncode == 2
    assert "no back-end 'magic'" in proc.stderr and "Traceback" not in proc.stderr
    assert "(known: hand, cpsat, sat, cmd)" in proc.stderr  # test-only back-ends not offered


def test_bad_timeout_and_missing_path_are_usage_errors(boards, tmp_path, cli):
    assert cli("solve", str(boards), "--timeout", "-1").returncode == 2
    proc = cli("solve", str(tmp_path / "missing.txt"))
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_bench_prints_the_totals_of_each_backend(boards, tmp_path, cli, pool_in_process):
    # the table is the point, not the pool (tests/bench has that): runs made in process
    # --db and cwd both in tmp_path: bench's default database is ./twinsolve-bench.sqlite.
    proc = cli("bench", str(boards), "--backends", "brute,hand", "--quiet", "--jobs", "1",
                     "--db", str(tmp_path / "bench.sqlite"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert "lightsout  2 tasks" in lines
    # one row per back-end and the virtual best: runs 2, solved 2 (notes.md is no task)
    rows = {found[1]: found[2].split() for line in lines
            if (found := re.match(r"(brute|hand|virtual best) +(\d+ +\d+) ", line))}
    assert rows == {"brute": ["2", "2"], "hand": ["2", "2"], "virtual best": ["2", "2"]}
    # the terminal's short headers are explained under the table
    assert "median = median wall time" in proc.stdout


def test_solve_runs_hand_unless_told_otherwise(boards, cli):
    proc = cli("solve", str(boards / "a.txt"), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["backend"] == "hand"


@pytest.mark.parametrize("spec", ["hand:minimise=perhaps", "hand:colour=blue",
                                  "sat:maxsat=magic", "cpsat:workers=many"])
def test_a_bad_backend_option_is_a_one_line_usage_error(boards, spec, cli):
    proc = cli("solve", str(boards / "a.txt"), "--backend", spec)
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
