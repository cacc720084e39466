"""`twinsolve report`: exports, plots and the HTML page from a database the harness wrote.

The database comes from `run_suite` on small Lights Out instances with the
test back-end `brute` and two fault back-ends (one returns an answer `verify`
rejects, one dies with SIGSEGV), plus an instance whose metadata expects an
optimum `brute` cannot match, so one stored `optimal` run is judged `wrong`.
The pool is not the point here (tests/bench/test_bench_harness.py runs the
faults in real workers): the runs are made in process (`conftest.in_process`),
and each `fault-crash` run, which would take the test's process with it, is
recorded as the pool records a worker killed by SIGSEGV.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import sqlite3
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import in_process

from twinsolve.bench.execute import record_of
from twinsolve.bench.exports import CELL_LIMIT
from twinsolve.bench.plan import Budget
from twinsolve.bench.report import report
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.core.errors import UsageError
from twinsolve.core.result import Result, Status

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ["brute", "fault-wrong", "fault-crash"]
INSTANCES = {
    "ones.txt": "lightsout 3 3\n111\n111\n111\n",
    "corners.txt": "lightsout 3 3\n101\n000\n101\n",
    "plus.txt": "lightsout 3 3\n010\n111\n010\n",
    # No 3x3 grid needs 99 presses: brute's proven optimum contradicts this metadata.
    "bad-expectation.txt": "# expect-objective: 99\nlightsout 3 3\n110\n101\n011\n",
}


def _crashes_as_the_pool_records_them(tasks, budget):
    """`in_process`, but a `fault-crash` run is not made (it would kill this process): it is
    recorded as the pool's worker records one whose process SIGSEGV killed."""
    for task in tasks:
        if task.backend == "fault-crash":
            result = Result(Status.CRASH, message="worker killed by SIGSEGV")
            yield task, record_of(task, result, 0.01, None, budget.timeout, budget.memory_mb)
        else:
            yield from in_process([task], budget)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("instances")
    for name, text in INSTANCES.items():
        (folder / name).write_text(text)
    path = tmp_path_factory.mktemp("db") / "r.sqlite"
    run_suite(SuiteConfig(paths=[folder], backends=BACKENDS, budget=Budget(timeout=5), db=path),
              executor=_crashes_as_the_pool_records_them)
    return path


@pytest.fixture(scope="module")
def full(db: Path, tmp_path_factory: pytest.TempPathFactory):
    out = tmp_path_factory.mktemp("report")
    before = db.read_bytes()
    result = report(db, html=out / "page.html", csv=out / "runs.csv",
                    json_path=out / "report.json", plots=out / "plots")
    assert db.read_bytes() == before, "a report must never change the database"
    return out, result


def _query(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute(sql).fetchall()


def test_csv_has_every_run_with_raw_status_and_verdict(db, full):
    out, _ = full
    with open(out / "runs.csv", newline="") as handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames
        rows = list(reader)
    (count,), = _query(db, "SELECT COUNT(*) FROM runs")
    assert len(rows) == count == len(INSTANCES) * len(BACKENDS)
    stored = [c for (_, c, *_rest) in _query(db, "PRAGMA table_info(runs)")]
    at = stored.index("solution")  # the solution as its hash and size, never whole
    assert [c for c in header if c not in ("verdict", "verdict_message")] == [
        *stored[:at], "solution_sha256", "solution_size", *stored[at + 1:]]
    assert header[header.index("status") + 1] == "verdict"
    by_backend: dict[str, set[tuple[str, str]]] = {}
    for row in rows:
        by_backend.setdefault(row["backend"], set()).add((row["status"], row["verdict"]))
    assert by_backend["fault-wrong"] == {("wrong", "wrong")}
    assert by_backend["fault-crash"] == {("crash", "crash")}
    # stored as optimal everywhere; judged wrong on the instance with the false expectation
    assert by_backend["brute"] == {("optimal", "optimal"), ("optimal", "wrong")}
    judged = [r for r in rows if r["instance_path"].endswith("bad-expectation.txt")
              and r["backend"] == "brute"]
    assert judged[0]["verdict"] == "wrong" and "expected 99" in judged[0]["verdict_message"]


def test_json_has_totals_sessions_and_runs(db, full):
    out, result = full
    document = json.loads((out / "report.json").read_text())
    (runs,), = _query(db, "SELECT COUNT(*) FROM runs")
    (sessions,), = _query(db, "SELECT COUNT(*) FROM sessions")
    assert len(document["runs"]) == runs and len(document["sessions"]) == sessions == 1
    assert document["sessions"][0]["python"] and document["sessions"][0]["timeout_s"] == 5
    assert all(r["verdict"] and isinstance(r["stats"], dict) for r in document["runs"])
    rows = {row["backend"]: row for row in document["totals"]}
    assert set(rows) == set(BACKENDS) | {"virtual best"}
    assert rows["brute"]["solved"] == 3 and rows["brute"]["wrong"] == 1
    assert rows["fault-crash"]["crash"] == 4 and rows["fault-wrong"]["wrong"] == 4
    assert rows["virtual best"]["solved"] == 3
    assert document["totals"] == json.loads(json.dumps(result.totals))
    # one entry per task and back-end, its measures as median, range and count
    assert len(document["tasks"]) == len(INSTANCES) * len(BACKENDS)
    crash = next(t for t in document["tasks"] if t["backend"] == "fault-crash")
    assert (crash["status"], crash["solved"], crash["runs"], crash["wall_s"]["n"]) == (
        "crash", False, 1, 1)
    assert crash["wall_s"]["low"] == crash["wall_s"]["median"] == crash["wall_s"]["high"] > 0


def test_plots_for_every_puzzle_in_both_formats(db, full):
    out, result = full
    plots = out / "plots"
    puzzles = [p for (p,) in _query(db, "SELECT DISTINCT puzzle FROM runs")]
    assert puzzles == ["lightsout"]
    pairs = ["brute-vs-fault-crash", "brute-vs-fault-wrong", "fault-crash-vs-fault-wrong"]
    for puzzle in puzzles:
        stems = [f"cactus-{puzzle}", f"nodes-time-{puzzle}"]
        # no node scatters: no two of these back-ends count nodes alike
        stems += [f"scatter-time-{puzzle}-{pair}" for pair in pairs]
        assert not list(plots.glob("scatter-nodes-*"))
        for stem in stems:
            png, svg = plots / f"{stem}.png", plots / f"{stem}.svg"
            assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n"), stem
            assert ET.parse(svg).getroot().tag.endswith("svg"), stem
    written = {p for p in result.written if p.parent == plots}
    assert written == set(plots.iterdir())  # no stray temporary files
    assert not list(out.glob(".*.tmp")) and not list(plots.glob(".*.tmp"))


def test_html_is_one_self_contained_page(full):
    out, result = full
    page = (out / "page.html").read_text()
    plots = len([p for p in result.written if p.suffix == ".svg"])
    pictures = page.count('<figure class="picture"><svg')  # the gallery (test_report_pictures)
    details = page.count('<template id="detail-picture')   # each solved task's, for its detail
    assert plots == 5 and pictures >= 1 and details == 3   # brute solved three tasks
    assert page.count("<svg") == plots + pictures + details
    assert "<table" in page and "virtual best" in page and "fault-crash" in page
    assert "worker killed by SIGSEGV" in page  # the problems table
    assert "expected 99" in page               # a verdict's reason
    assert page.count("<script>") == 1  # the inline sort script, nothing loaded
    for external in ("<link", "<script src", "<img", "<iframe", "src=", "@import", "url(http"):
        assert external not in page, external
    assert all(target.startswith("#") for target in re.findall(r'href="([^"]*)"', page))


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_same_database_gives_identical_svgs_and_page(db, full, tmp_path):
    out, _ = full
    report(db, html=tmp_path / "page.html", plots=tmp_path / "plots")
    first = sorted((out / "plots").glob("*.svg"))
    assert first and [p.name for p in first] == sorted(
        p.name for p in (tmp_path / "plots").glob("*.svg"))
    for path in first:
        assert path.read_bytes() == (tmp_path / "plots" / path.name).read_bytes(), path.name
    assert (out / "page.html").read_bytes() == (tmp_path / "page.html").read_bytes()


def test_cli_prints_the_table_and_each_file_written(db, tmp_path, cli):
    done = cli("report", str(db), "--csv", str(tmp_path / "runs.csv"))
    assert done.returncode == 0, done.stderr
    assert "virtual best" in done.stdout and "PAR-2" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1] == f"wrote {tmp_path / 'runs.csv'}"


def _huge_answers(tasks, budget):
    """Runs as recorded in process, each answer padded past a spreadsheet cell's limit."""
    for task, record in in_process(tasks, budget):
        yield task, replace(record, solution={"presses": ["0" * 1000] * 40},
                            message="m" * (CELL_LIMIT + 1))


def test_csv_keeps_answers_out_of_its_cells_and_solutions_has_them_whole(tmp_path, cli):
    (tmp_path / "a.txt").write_text(INSTANCES["ones.txt"])
    db = tmp_path / "r.sqlite"
    run_suite(SuiteConfig(paths=[tmp_path / "a.txt"], backends=["brute"], repeat=2, db=db),
              executor=_huge_answers)
    done = cli("report", db, "--csv", tmp_path / "r.csv", "--solutions", tmp_path / "s.jsonl",
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    (stored,) = {text for (text,) in _query(db, "SELECT solution FROM runs")}
    digest = hashlib.sha256(stored.encode()).hexdigest()
    with open(tmp_path / "r.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 2 and "solution" not in rows[0]
    assert {(r["solution_sha256"], r["solution_size"]) for r in rows} == {
        (digest, str(len(stored)))}
    assert max(len(cell) for row in rows for cell in row.values()) <= CELL_LIMIT
    assert rows[0]["message"].startswith(f"({CELL_LIMIT + 1} bytes, too long for a spreadsheet")
    lines = [json.loads(line) for line in (tmp_path / "s.jsonl").read_text().splitlines()]
    assert [(line["seed"], line["sha256"]) for line in lines] == [(0, digest), (1, digest)]
    assert lines[0]["solution"] == json.loads(stored)


@pytest.mark.parametrize("content", [None, b"just some text\n", b""])
def test_missing_or_foreign_database_is_a_usage_error(tmp_path, content, cli):
    path = tmp_path / "results.sqlite"
    if content is not None:
        path.write_bytes(content)
    done = cli("report", str(path), "--csv", str(tmp_path / "x.csv"), cwd=tmp_path)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert str(path) in done.stderr
    assert not (tmp_path / "x.csv").exists()
    if content is not None:
        assert path.read_bytes() == content  # left exactly as it was
    with pytest.raises(UsageError):
        report(path)


def test_unwritable_output_is_a_usage_error(db, tmp_path):
    (tmp_path / "taken").write_text("a file, not a folder")
    with pytest.raises(UsageError, match="not a folder"):
        report(db, plots=tmp_path / "taken")
