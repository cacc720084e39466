"""Exported encodings solve to verified answers in other solvers, and `cmd:` runs one."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from ortools.sat.python import cp_model
from pysat.examples.rc2 import RC2
from pysat.formula import CNF, WCNF
from pysat.solvers import Solver

import twinsolve
from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.models.export import read_dimacs_model, sat_export

ROOT = Path(__file__).resolve().parents[2]
FAKE_SOLVER = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'dimacs_solver.py'}"


def test_lightsout_wcnf_optimum_is_the_published_one(tmp_path, cli):
    board = ROOT / "instances" / "lightsout" / "all-on-05x05.txt"
    proc = cli("export", str(board), "--cnf", str(tmp_path / "b.cnf"),
               "--wcnf", str(tmp_path / "b.wcnf"), "--cpsat", str(tmp_path / "b.pbtxt"))
    assert proc.returncode == 0, proc.stderr
    instance = twinsolve.load(board)
    with RC2(WCNF(from_file=str(tmp_path / "b.wcnf"))) as rc2:
        model = rc2.compute()
        assert rc2.cost == 15  # OEIS A075464, n = 5
    solution = sat_export(instance).decode({lit for lit in model if lit > 0})
    assert twinsolve.verify(instance, solution) == []
    with Solver(bootstrap_with=CNF(from_file=str(tmp_path / "b.cnf")).clauses) as solver:
        assert solver.solve()
        solution = sat_export(instance).decode({v for v in solver.get_model() if v > 0})
    assert twinsolve.verify(instance, solution) == []
    text = (tmp_path / "b.pbtxt").read_text()
    assert "press[2,2]" in text and "objective" in text


def test_exported_cpsat_model_solves_to_the_optimum(tmp_path, cli):
    board = ROOT / "instances" / "lightsout" / "all-on-05x05.txt"
    assert cli("export", str(board), "--cpsat", str(tmp_path / "m.pbtxt")).returncode == 0
    model = cp_model.CpModel()
    model.proto.parse_text_format((tmp_path / "m.pbtxt").read_text())
    assert len(model.proto.variables) == 25
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model) == cp_model.OPTIMAL
    assert solver.objective_value == 15  # OEIS A075464, n = 5


def test_export_refuses_what_it_cannot_write(tmp_path, cli):
    board = tmp_path / "m.txt"
    board.write_text("lightsout 2 2 mod 3\n12\n00\n")
    proc = cli("export", str(board), "--cnf", str(tmp_path / "m.cnf"))
    assert proc.returncode == 2 and "mod 2 only" in proc.stderr
    assert not (tmp_path / "m.cnf").exists()
    assert cli("export", str(board)).returncode == 2


def test_read_dimacs_model():
    verdict, true = read_dimacs_model("c hi\ns SATISFIABLE\nv 1 -2 3\nv -4 5 0\n")
    assert verdict == "sat" and true == {1, 3, 5}
    assert read_dimacs_model("s UNSATISFIABLE\n") == ("unsat", set())
    assert read_dimacs_model("garbage") == ("unknown", set())


def test_cmd_backend_is_unsupported_for_optimisation_puzzles():
    board = twinsolve.load("lightsout 2 2\n11\n00\n")
    result = run(board, f"cmd:{FAKE_SOLVER}", Limits(timeout=30))
    assert result.status is Status.UNSUPPORTED and "--wcnf" in result.message


def test_cmd_backend_missing_program_is_a_usage_error():
    pytest.importorskip("twinsolve.puzzles.cave.models")
    cave = twinsolve.load("cave 2 2\n2 -\n- -\n")
    with pytest.raises(UsageError, match="cmd: program not found: /nonexistent/solver"):
        run(cave, "cmd:/nonexistent/solver", Limits(timeout=30))


def test_cmd_backend_solves_cave_through_an_external_process():
    pytest.importorskip("twinsolve.puzzles.cave.models")
    cave = twinsolve.load("cave 3 3\n- - -\n- 3 -\n- - -\n")
    oracle = run(cave, "brute", Limits(timeout=30))
    result = run(cave, f"cmd:{FAKE_SOLVER}", Limits(timeout=60))
    assert oracle.status is Status.SOLVED
    assert result.status is Status.SOLVED and result.verified is True


def test_cmd_backend_unsat_answers_unique_and_count_like_the_others():
    stuck = twinsolve.load("chess 2 3\nP.P\n...\n")  # pawns on the top row never capture
    asked = Limits(timeout=60, unique=True, count=True)
    oracle = run(stuck, "brute", asked)
    result = run(stuck, f"cmd:{FAKE_SOLVER}", asked)
    assert result.status is oracle.status is Status.UNSAT
    assert (result.unique, result.count) == (oracle.unique, oracle.count) == (False, 0)


@pytest.mark.parametrize("folder", ["cave", "slitherlink", "nurikabe"])
def test_export_url_writes_the_link_that_reads_back_to_the_same_puzzle(tmp_path, cli, folder):
    source = sorted((ROOT / "instances" / folder).glob("*.txt"))[0]
    proc = cli("export", source, "--url", tmp_path / "link.txt")
    assert proc.returncode == 0 and "wrote" in proc.stdout, proc.stderr
    url = (tmp_path / "link.txt").read_text()
    assert url.startswith("https://puzz.link/p?") and url.endswith("\n")
    assert twinsolve.load(url.strip()).clues == twinsolve.load(source).clues
    printed = cli("export", source, "--url", "-")
    assert printed.returncode == 0 and printed.stdout == url


def test_export_url_of_a_puzzle_without_links_is_one_line(tmp_path, cli):
    board = ROOT / "instances" / "lightsout" / "all-on-05x05.txt"
    proc = cli("export", board, "--url", tmp_path / "link.txt")
    assert proc.returncode == 2 and not (tmp_path / "link.txt").exists()
    assert proc.stderr.strip().endswith("(URLs: cave, nurikabe, slitherlink)")
    assert len(proc.stderr.strip().splitlines()) == 1
