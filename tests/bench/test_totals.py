"""The totals rows and the terminal's totals table: fits 80 and 120 columns, PAR-2's tasks, wins.

The realistic record set has 6 puzzles and 4 back-ends with long specs
(`sat:glucose4`, `hand:engine=memo`) and every status the totals count, so
every count column is nonzero somewhere: the worst case for the width.
"""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from twinsolve.bench.columns import TOTALS_COLUMNS, format_value
from twinsolve.bench.records import RunRecord
from twinsolve.bench.scores import VIRTUAL_BEST, totals
from twinsolve.bench.terminal import print_problems, print_totals, problem_lines
from twinsolve.core.result import Status

PUZZLES = ("chess", "cave", "clock", "jugs", "lightsout", "mirror")
BACKENDS = ("cpsat", "hand", "hand:engine=memo", "sat:glucose4")
# A cycle of outcomes so every back-end of every puzzle has several kinds of run.
OUTCOMES = (Status.OPTIMAL, Status.SOLVED, Status.TIMEOUT, Status.UNSAT, Status.FEASIBLE,
            Status.MEMOUT, Status.OPTIMAL, Status.CRASH, Status.WRONG, Status.UNSUPPORTED,
            Status.ERROR, Status.SOLVED)


def run(path, backend, status, wall_s, puzzle="lightsout", timeout_s=10.0, seed=0,
        nodes=7, message=None):
    return RunRecord(path, puzzle, backend, status, wall_s=wall_s, stats={"nodes": nodes},
                     instance_hash=f"h-{path}", timeout_s=timeout_s, seed=seed, message=message)


def realistic() -> list[RunRecord]:
    records = []
    for p, puzzle in enumerate(PUZZLES):
        for task in range(9):
            for b, backend in enumerate(BACKENDS):
                status = OUTCOMES[(task + b + p) % len(OUTCOMES)]
                wall = 10.0 if status is Status.TIMEOUT else 0.0004 * (3 ** ((task + b) % 9))
                records.append(run(f"instances/{puzzle}/task-{task:02d}.txt", backend, status,
                                   wall, puzzle, nodes=(task + 1) * 1000 * (b + 1)))
    return records


def render(rows, width: int, wide: bool = False) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    print_totals(console, rows, "twinsolve bench", wide=wide)
    return console.export_text()


@functools.cache
def realistic_text(width: int, wide: bool = False) -> str:
    """The realistic totals as the terminal shows them at `width`: drawn once per width and
    kind, as several tests read the same table."""
    return render(totals(realistic()), width, wide)


def _block_lines(text: str, puzzle: str) -> list[str]:
    """The table lines of one puzzle's block: its header line up to the next blank line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{puzzle}  "))
    start = next(i for i in range(start, len(lines)) if lines[i].startswith("back-end "))
    block = []
    for line in lines[start:]:
        if not line.strip():
            break
        block.append(line)
    return block


@pytest.mark.parametrize("width", [80, 120])
def test_totals_fit_the_terminal_without_cutting_a_cell(width):
    rows = totals(realistic())
    text = realistic_text(width)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width
    for puzzle in PUZZLES:
        lines = _block_lines(text, puzzle)
        for backend in (*BACKENDS, VIRTUAL_BEST):
            row = next(r for r in rows if r["puzzle"] == puzzle and r["backend"] == backend)
            line = next(line for line in lines if line.startswith(f"{backend} "))
            # the row's PAR-2, solved and wrong values appear in full on its own line
            for key in ("par2", "solved", "wrong", "crash", "timeout"):
                assert re.search(rf"(^|\s){re.escape(format_value(key, row[key]))}(\s|$)",
                                 line), (width, puzzle, backend, key, line)


def test_every_failure_count_stays_at_80_columns():
    text = realistic_text(80)
    header = _block_lines(text, "cave")[0].split()
    assert {"solved", "wins", "only", "feas", "wrong", "t/o", "m/o", "crash", "other",
            "PAR-2"} <= set(header)
    words = " ".join(text.split())  # the notes wrap at 80 columns
    assert "t/o = timeout" in words and "m/o = memout" in words  # the legend of abbreviations
    assert "--wide shows every one" in words                      # something was left out


def test_120_columns_show_more_than_80():
    narrow = _block_lines(realistic_text(80), "cave")[0].split()
    wider = _block_lines(realistic_text(120), "cave")[0].split()
    assert set(narrow) < set(wider) and "median" in wider


def test_wide_shows_every_column_uncut_even_at_80():
    text = realistic_text(80, wide=True)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) > 80
    for column in TOTALS_COLUMNS:
        assert column.header in text, column.header


def test_all_zero_count_columns_are_left_out():
    rows = totals([run("a.txt", "hand", Status.OPTIMAL, 0.01),
                      run("a.txt", "cpsat", Status.OPTIMAL, 0.02)])
    header = _block_lines(render(rows, 80), "lightsout")[0].split()
    assert "wrong" not in header and "crash" not in header and "PAR-2" in header


def _measured(backend: str, wall: float, cpu: float, mem: float) -> list[RunRecord]:
    return [RunRecord(f"{name}.txt", "lightsout", backend, Status.OPTIMAL, wall_s=wall,
                      cpu_s=cpu, mem_mb=mem, stats={"nodes": 5}, instance_hash=name,
                      timeout_s=10.0) for name in "ab"]


def test_cpu_and_memory_show_where_they_say_more_than_the_wall_time():
    # CPU time within 25 % of the wall time on every row: the cpu column would repeat it
    alike = totals([*_measured("hand", 0.10, 0.11, 0.0), *_measured("sat", 0.40, 0.38, 0.0)])
    text = render(alike, 120)
    header = _block_lines(text, "lightsout")[0].split()
    assert "cpu" not in header and "mem" not in header and "median" in header
    assert "cpu is left out where it is within 25% of the wall time" in text
    # four threads busy for the wall time (4x), 200 MB added at the peak: both shown
    threads = totals([*_measured("hand", 0.1, 0.11, 0.0), *_measured("cpsat", 0.1, 0.4, 200)])
    lines = _block_lines(render(threads, 120), "lightsout")
    header = lines[0].split()
    assert {"median", "cpu", "mem"} <= set(header)
    cpsat = next(line for line in lines if line.startswith("cpsat "))
    assert re.search(r"100\.0 ms +400\.0 ms +200 MB", cpsat), cpsat  # median, cpu, mem


def test_the_virtual_best_counts_nodes_only_when_every_backend_counts_one_unit():
    def best(backends):
        runs = [run("a.txt", b, Status.OPTIMAL, 0.1 * (i + 1), nodes=10 * (i + 1))
                for i, b in enumerate(backends)]
        return next(r for r in totals(runs) if r["backend"] == VIRTUAL_BEST)

    # hand's search nodes and cpsat's branches are no one quantity: no median for both
    assert best(["hand", "cpsat"])["median_nodes"] is None
    assert best(["hand", "hand:engine=memo"])["median_nodes"] == 10


# ------------------------------------------------------------------ PAR-2 and wins

def test_unsupported_task_is_left_out_of_par2_for_every_backend():
    records = [run("easy.txt", "hand", Status.OPTIMAL, 1.0),
               run("easy.txt", "sat", Status.OPTIMAL, 3.0),
               run("mod3.txt", "hand", Status.TIMEOUT, 10.0),
               run("mod3.txt", "sat", Status.UNSUPPORTED, 0.0)]
    rows = {r["backend"]: r for r in totals(records)}
    # Before: hand's PAR-2 took in the time-out on mod3 (10.5) while sat's did not (3.0).
    assert rows["hand"]["par2"] == 1.0 and rows["sat"]["par2"] == 3.0
    assert rows[VIRTUAL_BEST]["par2"] == 1.0
    assert all(r["par2_tasks"] == 1 and r["tasks"] == 2 and r["excluded"] == 1
               for r in rows.values())
    assert rows["sat"]["unsupported"] == 1 and rows["sat"]["other"] == 1
    assert rows["hand"]["timeout"] == 1 and rows["hand"]["runs"] == 2  # still counted


def test_a_backend_that_handles_no_task_of_a_puzzle_leaves_nothing_out():
    # `hand:minimise=false` is Lights Out's: on jugs it is unsupported everywhere.
    records = [run(f"j{i}.txt", backend, status, 1.0, puzzle="jugs")
               for i in range(3) for backend, status in
               (("hand", Status.OPTIMAL), ("hand:minimise=false", Status.UNSUPPORTED))]
    rows = {r["backend"]: r for r in totals(records)}
    assert rows["hand"]["par2"] == 1.0 and rows["hand"]["excluded"] == 0
    assert "PAR-2 over" not in render(totals(records), 80)


def test_an_error_counts_as_not_solved_in_par2():
    rows = {r["backend"]: r for r in totals([run("a.txt", "hand", Status.ERROR, 0.1),
                                                run("a.txt", "sat", Status.OPTIMAL, 2.0)])}
    assert rows["hand"]["par2"] == 20.0 and rows["hand"]["error"] == 1


def test_wins_and_only_solver():
    records = [run("a.txt", "hand", Status.OPTIMAL, 0.5), run("a.txt", "sat", Status.OPTIMAL, 0.5),
               run("b.txt", "hand", Status.OPTIMAL, 0.1), run("b.txt", "sat", Status.OPTIMAL, 0.9),
               run("c.txt", "hand", Status.TIMEOUT, 10.0), run("c.txt", "sat", Status.UNSAT, 4.0),
               run("d.txt", "hand", Status.WRONG, 0.01), run("d.txt", "sat", Status.TIMEOUT, 10)]
    rows = {r["backend"]: r for r in totals(records)}
    assert (rows["hand"]["wins"], rows["sat"]["wins"]) == (2, 2)  # a tie counts for both
    assert (rows["hand"]["only"], rows["sat"]["only"]) == (0, 1)  # a wrong answer never counts
    assert rows[VIRTUAL_BEST]["wins"] is None and rows[VIRTUAL_BEST]["solved"] == 3


def test_two_files_with_the_same_board_are_two_tasks():
    same = dict(instance_hash="board")
    records = [RunRecord("a.txt", "lightsout", "hand", Status.OPTIMAL, wall_s=0.1, **same),
               RunRecord("b.txt", "lightsout", "hand", Status.WRONG, wall_s=0.1, **same),
               RunRecord("a.txt", "lightsout", "sat", Status.OPTIMAL, wall_s=0.2, **same),
               RunRecord("b.txt", "lightsout", "sat", Status.WRONG, wall_s=0.2, **same)]
    vbs = next(r for r in totals(records) if r["backend"] == VIRTUAL_BEST)
    assert vbs["runs"] == 2 and vbs["tasks"] == 2 and vbs["solved"] == 1


# ------------------------------------------------------------------ problems

def test_problem_lines_name_instance_backend_and_reason():
    records = [run("ok.txt", "hand", Status.OPTIMAL, 0.1),
               run("t.txt", "hand", Status.TIMEOUT, 10.0),
               run("m.txt", "hand", Status.MEMOUT, 1.0),
               run("w.txt", "hand", Status.WRONG, 0.1, message="optimal objective 5, expected 2"),
               run("long/name.txt", "sat:glucose4", Status.CRASH, 0.1,
                   message="worker killed by SIGSEGV"),
               run("e.txt", "cpsat", Status.ERROR, 0.1, message="ValueError: x\n  at line 3")]
    lines = problem_lines(records)
    assert lines == [
        "wrong  w.txt          hand          optimal objective 5, expected 2",
        "crash  long/name.txt  sat:glucose4  worker killed by SIGSEGV",
        "error  e.txt          cpsat         ValueError: x (+1 more lines)",
    ]
    console = Console(width=40, file=io.StringIO(), record=True, color_system=None)
    print_problems(console, records)
    text = console.export_text()
    assert text.splitlines()[0] == "problems (3: wrong 1, error 1, crash 1):"
    assert "  wrong  w.txt          hand          optimal objective 5, expected 2" in text


def test_no_problems_prints_nothing():
    console = Console(file=io.StringIO(), record=True)
    print_problems(console, [run("ok.txt", "hand", Status.OPTIMAL, 0.1)])
    assert console.export_text() == ""


def test_bench_lists_the_problem_runs_before_the_table(tmp_path: Path, cli,
                                                        pool_in_process):
    # what bench prints is the point, not the pool: its runs are made in process
    (tmp_path / "one.txt").write_text("lightsout 2 2\n11\n11\n")
    (tmp_path / "two.txt").write_text("# expect-objective: 3\nlightsout 2 2\n10\n01\n")
    done = cli("bench", tmp_path, "--backends", "brute,fault-wrong", "--db", tmp_path / "r.sqlite",
               "--jobs", "1", "--quiet", "--timeout", "20", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    first = lines.index(next(line for line in lines if line.startswith("problems (")))
    table = lines.index("twinsolve bench")
    assert first < table
    problem = lines[first + 1:table]
    assert any("two.txt" in line and "brute" in line and "expected 3" in line for line in problem)
    assert sum("fault-wrong" in line for line in problem) == 2
