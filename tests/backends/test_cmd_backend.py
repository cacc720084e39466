"""`cmd:PROGRAM` in both conventions SAT solvers follow, and `--unique` / `--count` through it.

The stand-in solver (`tests/dimacs_solver.py`) answers like a competition solver when given
one file (`s` / `v` lines on stdout), like MiniSat when given a result file as well, and
like MiniSat run without one (no model anywhere) with `--minisat`. Each run of it is a real
process (about 0.3 s), so the puzzles here are small.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

import twinsolve
from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run

FAKE = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'dimacs_solver.py'}"
CAVE = "cave 3 3\n- - -\n- 3 -\n- - -\n"
ONE = "cave 2 2\n1 -\n- -\n"   # exactly one solution
TWO = "cave 2 2\n3 -\n- -\n"   # exactly two
CHESS_TWO = "chess 3 3\nN..\n.B.\n..R\n"  # two winning sequences


def fake_named(folder: Path, name: str) -> str:
    """The stand-in solver behind a program called `name` that behaves as MiniSat does."""
    script = folder / name
    script.write_text(f'#!/bin/sh\nexec {FAKE} --minisat "$@"\n')
    script.chmod(0o755)
    return str(script)


def solved(text: str, spec: str, **asked) -> twinsolve.Result:
    return run(twinsolve.load(text), spec, Limits(timeout=60, **asked))


def test_a_program_named_minisat_is_read_from_its_result_file(tmp_path):
    minisat = fake_named(tmp_path, "minisat")
    result = solved(CAVE, f"cmd:{minisat}")
    assert result.status is Status.SOLVED and result.verified is True, result.message
    assert result.stats.counters["runs"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["minisat"]  # no result file left


@pytest.mark.parametrize("spec", [f"cmd:{FAKE}", f"cmd:{FAKE}:result=stdout",
                                  f"cmd:{FAKE}:result=file"])
def test_either_convention_chosen_by_option_gives_the_verified_answer(spec):
    # One file: `s`/`v` on stdout; with the result file (result=file), MiniSat's output:
    # no model on stdout, so the answer can only come from the file.
    result = solved(CAVE, spec)
    assert result.status is Status.SOLVED and result.verified is True, result.message
    assert solved("cave 3 3\n4 - -\n- - -\n- - 1\n", spec).status is Status.UNSAT


def test_a_model_on_neither_convention_says_what_was_read_and_what_to_try():
    result = solved(CAVE, f"cmd:{FAKE} --minisat")
    assert result.status is Status.ERROR
    assert result.message == (
        f"cmd: {sys.executable} answered satisfiable but showed no model (stdout: exit code "
        "10, 0 'v' lines; last output line: 'SATISFIABLE'); a solver that writes its model "
        f"to a result file runs as cmd:{FAKE} --minisat:result=file")


def test_an_unknown_convention_is_a_usage_error():
    with pytest.raises(UsageError, match="option result='proof': choose one of stdout, file"):
        solved(CAVE, f"cmd:{FAKE}:result=proof")


@pytest.mark.parametrize(("text", "unique", "count", "convention"), [
    (ONE, True, 1, "stdout"), (TWO, False, 2, "file"), (CHESS_TWO, False, 2, "stdout"),
    (CHESS_TWO, False, 2, "file")])
def test_unique_and_count_block_each_solution_and_run_again(text, unique, count, convention):
    oracle = solved(text, "brute", unique=True, count=True)
    assert (oracle.unique, oracle.count) == (unique, count)
    result = solved(text, f"cmd:{FAKE}:result={convention}", unique=True, count=True)
    assert result.status is Status.SOLVED and result.verified is True, result.message
    assert (result.unique, result.count) == (unique, count)
    assert result.stats.counters["runs"] == count + 1  # the last one proves there is no more
    assert result.message is None


def test_unique_alone_stops_at_the_second_solution():
    result = solved(CAVE, f"cmd:{FAKE}", unique=True)
    assert (result.unique, result.count, result.stats.counters["runs"]) == (False, None, 2)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_time_limit_bounds_every_run_and_says_what_is_not_settled():
    start = time.perf_counter()
    result = run(twinsolve.load(CAVE), f"cmd:{FAKE}", Limits(timeout=1.5, count=True))
    elapsed = time.perf_counter() - start
    assert result.status is Status.SOLVED and result.verified is True  # the first answer
    assert result.count is None  # 64 solutions: not counted within 1.5 s
    assert result.message.startswith("not settled: the time limit stopped run ")
    assert elapsed < 4
