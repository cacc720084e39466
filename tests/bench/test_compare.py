"""`twinsolve report A B`: two databases side by side, over the tasks both hold, with ratios.

The comparison logic runs on records made by hand (known times, so known
ratios); the command runs on two databases the real harness wrote.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import in_process
from rich.console import Console

from twinsolve.bench.columns import format_value
from twinsolve.bench.comparison import compare
from twinsolve.bench.exports import comparison_latex_text, comparison_markdown_text
from twinsolve.bench.records import RunRecord
from twinsolve.bench.results import ReportData
from twinsolve.bench.scores import VIRTUAL_BEST, totals
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.bench.terminal import print_comparison
from twinsolve.core.result import Status


def run(path, backend, status, wall_s, puzzle="lightsout"):
    return RunRecord(path, puzzle, backend, status, wall_s=wall_s, stats={"nodes": 1},
                     instance_hash=f"h-{path}", timeout_s=5.0)


def data_of(runs, db) -> ReportData:
    return ReportData(db=Path(db), selection="the plan of session 1", columns=("status",),
                      rows=tuple({"status": r.status.value} for r in runs),
                      records=tuple(runs), sessions=(), totals=tuple(totals(runs)))


OPT, OUT = Status.OPTIMAL, Status.TIMEOUT
BEFORE = [run("a.txt", "hand", OPT, 1.0), run("a.txt", "sat:glucose4", OPT, 2.0),
          run("b.txt", "hand", OUT, 5.0), run("b.txt", "sat:glucose4", OPT, 4.0),
          run("c.txt", "hand", OPT, 0.5), run("c.txt", "sat:glucose4", OPT, 0.5)]
AFTER = [run("a.txt", "hand", OPT, 0.5), run("a.txt", "sat:glucose4", OPT, 2.0),
         run("b.txt", "hand", OPT, 1.5), run("b.txt", "sat:glucose4", OPT, 6.0),
         run("d.txt", "hand", OPT, 0.1), run("d.txt", "sat:glucose4", OPT, 0.1),
         run("a.txt", "hand:engine=memo", OPT, 0.25)]


def rows_by_backend(comparison):
    return {row["backend"]: row for row in comparison.rows}


def test_ratios_over_the_tasks_both_hold():
    comparison = compare(data_of(BEFORE, "a.sqlite"), data_of(AFTER, "b.sqlite"))
    rows = rows_by_backend(comparison)
    # over a and b only: c is only in A, d only in B
    assert rows["hand"]["par2_a"] == (1.0 + 10.0) / 2 and rows["hand"]["par2_b"] == 1.0
    assert rows["hand"]["par2_ratio"] == pytest.approx(1.0 / 5.5)
    assert (rows["hand"]["solved_a"], rows["hand"]["solved_b"]) == (1, 2)
    assert rows["hand"]["median_ratio"] == 1.0  # 1.0 s (a) against median(0.5, 1.5)
    assert rows["sat:glucose4"]["par2_ratio"] == pytest.approx(4.0 / 3.0)
    # the virtual best of B has hand:engine=memo's 0.25 s on a, hand's 1.5 s on b
    assert rows[VIRTUAL_BEST]["par2_a"] == 2.5 and rows[VIRTUAL_BEST]["par2_b"] == 0.875
    # a back-end only B ran: its A side is empty and it has no ratio
    memo = rows["hand:engine=memo"]
    assert memo["par2_a"] is None and memo["par2_b"] == 0.25 and memo["par2_ratio"] is None
    assert comparison.notes == {"lightsout": "2 tasks compared; only in A: 1, only in B: 1"}


def test_a_task_unsupported_on_either_side_is_left_out_of_both():
    after = [r if (r.path, r.backend) != ("b.txt", "sat:glucose4")
             else run("b.txt", "sat:glucose4", Status.UNSUPPORTED, 0.0) for r in AFTER]
    comparison = compare(data_of(BEFORE, "a.sqlite"), data_of(after, "b.sqlite"))
    rows = rows_by_backend(comparison)
    assert rows["hand"]["par2_a"] == 1.0 and rows["hand"]["par2_b"] == 0.5  # task a only
    assert comparison.notes["lightsout"].startswith(
        "1 task compared; 1 in both left out (unsupported by some back-end)")


def test_tasks_are_found_by_content_though_the_suite_root_differs():
    # B ran `bench instances/lightsout`, A `bench instances` (or is an upgraded old database)
    moved = [replace(r, path=f"lightsout/{r.path}", task_path=f"lightsout/{r.path}")
             for r in AFTER]
    comparison = compare(data_of(BEFORE, "a.sqlite"), data_of(moved, "b.sqlite"))
    assert comparison.notes == {"lightsout": "2 tasks compared; only in A: 1, only in B: 1"}
    assert {r.path for r in comparison.after_records} == {"a.txt", "b.txt"}  # named as in A


def test_one_content_in_two_files_is_matched_by_path():
    twin = [*BEFORE, replace(run("a2.txt", "hand", OPT, 9.0), instance_hash="h-a.txt")]
    after = [*AFTER, replace(run("a2.txt", "hand", OPT, 9.0), instance_hash="h-a.txt")]
    rows = rows_by_backend(compare(data_of(twin, "a.sqlite"), data_of(after, "b.sqlite")))
    assert rows["hand"]["solved_a"] == 2 and rows["hand"]["solved_b"] == 3  # a, a2 (b timed out)


def test_terminal_comparison_fits_80_columns_uncut():
    comparison = compare(data_of(BEFORE, "before.sqlite"), data_of(AFTER, "after.sqlite"))
    console = Console(width=80, file=io.StringIO(), record=True, color_system=None)
    print_comparison(console, comparison)
    text = console.export_text()
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= 80
    assert "A = before.sqlite" in text and "B = after.sqlite" in text
    for row in comparison.rows:
        line = next(line for line in text.splitlines() if line.startswith(f"{row['backend']} "))
        assert format_value("par2", row["par2_b"]) in line
        if row["par2_ratio"] is not None:
            assert f"{row['par2_ratio']:.2f}x" in line


def test_a_long_instance_path_breaks_over_lines_and_is_never_cut():
    long = "graded/lightsout-hard-10x10-varianttorus-s1-01-with-a-very-long-name.txt"
    before = [*BEFORE, run(long, "hand", OPT, 0.2)]
    after = [*AFTER, run(long, "hand", OUT, 5.0)]
    console = Console(width=80, file=io.StringIO(), record=True, color_system=None)
    print_comparison(console, compare(data_of(before, "a.sqlite"), data_of(after, "b.sqlite")))
    text = console.export_text()
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= 80
    changed = next(line for line in text.splitlines() if line.startswith("no longer solved"))
    assert "hand" in changed and "optimal" in changed and "timeout" in changed
    # the path's pieces, one under the other in its column, make the whole path
    lines = text[text.index("changed in kind"):text.index("time:")].splitlines()
    header = next(line for line in lines if line.startswith("change "))
    start, end = header.index("instance"), header.index("back-end")
    assert long in "".join(line[start:end].strip() for line in lines[lines.index(header) + 2:])


def test_markdown_and_latex_of_a_comparison():
    comparison = compare(data_of(BEFORE, "a.sqlite"), data_of(AFTER, "b.sqlite"))
    md = comparison_markdown_text(comparison)
    assert "| puzzle | back-end | solved A | solved B |" in md
    assert "| lightsout | hand | 1 | 2 | 0 | 0 | 5.50 s | 1.00 s | 0.18x |" in md
    tex = comparison_latex_text(comparison)
    assert "lightsout & hand & 1 & 2 & 0 & 0 & 5.50 s & 1.00 s & 0.18x" in tex
    assert "% A = a.sqlite · " in tex and "% B = b.sqlite · " in tex


# ------------------------------------------------------------------ the command

INSTANCES = {"ones.txt": "lightsout 3 3\n111\n111\n111\n",
             "plus.txt": "lightsout 3 3\n010\n111\n010\n"}


@pytest.fixture(scope="module")
def two_dbs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("instances")
    for name, text in INSTANCES.items():
        (folder / name).write_text(text)
    out = tmp_path_factory.mktemp("dbs")
    a, b = out / "a.sqlite", out / "b.sqlite"
    run_suite(SuiteConfig(paths=[folder], backends=["brute"], db=a), executor=in_process)
    (folder / "corners.txt").write_text("lightsout 3 3\n101\n000\n101\n")  # only B has it
    run_suite(SuiteConfig(paths=[folder], backends=["brute"], db=b), executor=in_process)
    return a, b


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_cli_compares_two_databases(two_dbs, tmp_path, cli):
    a, b = two_dbs
    done = cli("report", str(a), str(b), "--html", str(tmp_path / "c.html"), "--markdown",
                   str(tmp_path / "c.md"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"A = {a}" in done.stdout and f"B = {b}" in done.stdout
    assert "2 tasks compared; only in A: 0, only in B: 1" in done.stdout
    assert "B/A" in done.stdout and "brute" in done.stdout
    assert done.stdout.splitlines()[-2:] == [f"wrote {tmp_path / 'c.md'}",
                                             f"wrote {tmp_path / 'c.html'}"]
    page = (tmp_path / "c.html").read_text()
    assert 'id="compare-table-lightsout"' in page and page.count("<svg") == 1
    assert "ones.txt" in page and "corners.txt" not in page  # only the common tasks are drawn
    assert "| lightsout | brute | 2 | 2 |" in (tmp_path / "c.md").read_text()


@pytest.mark.parametrize("extra", [["--csv", "x.csv"], ["--plots", "p"], ["--json", "x.json"]])
def test_single_database_outputs_are_refused_for_two(two_dbs, tmp_path, extra, cli):
    a, b = two_dbs
    done = cli("report", str(a), str(b), *extra, cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == (f"twinsolve: report: {extra[0]} reads one database; to "
                                   "compare two, use --html, --markdown or --latex")
    assert list(tmp_path.iterdir()) == []


def test_three_databases_or_the_same_one_twice_are_usage_errors(two_dbs, tmp_path, cli):
    a, b = two_dbs
    three = cli("report", str(a), str(b), str(a), cwd=tmp_path)
    assert three.returncode == 2
    assert three.stderr.strip() == "twinsolve: report: compares at most two databases (A B), not 3"
    same = cli("report", str(a), str(a), cwd=tmp_path)
    assert same.returncode == 2 and len(same.stderr.strip().splitlines()) == 1
    assert "the same database twice" in same.stderr
