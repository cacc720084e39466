"""What a stored run is: keyed by file, back-end, options, seed and limits; sessions and plans.

Each test here was a fault a user hit: a rerun with another time limit reused
the old runs; four files with one board collapsed into one stored run (and a
`wrong` answer vanished from the report); a mistyped back-end was refused only
after a session was stored; `--backends hand,hand` counted twice; old,
damaged and read-only databases gave tracebacks. Databases are made with the
in-process executor (`conftest.in_process`) where the pool is not the point, also
by the commands, which run in-process (`conftest.cli`); the one whose stored argv
matters runs in a real process, with its pool.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
from pathlib import Path

import pytest
from conftest import in_process, twinsolve
from schema_1 import schema_1_database

from twinsolve.bench.database import ResultsDatabase
from twinsolve.bench.plan import Budget
from twinsolve.bench.results import load
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.core.errors import UsageError
from twinsolve.core.result import Status

ALL_ON = "lightsout 3 3\n111\n111\n111\n"


def runs_in(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute("SELECT task_path, backend, limits, session_id, reused_from "
                                  "FROM runs ORDER BY id").fetchall()


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "a.txt").write_text(ALL_ON)
    (folder / "b.txt").write_text("lightsout 3 3\n101\n010\n101\n")
    return folder


def test_another_time_limit_runs_anew_and_the_report_shows_the_latest(suite, tmp_path):
    db = tmp_path / "r.sqlite"
    first = run_suite(SuiteConfig([suite], ["brute"], Budget(timeout=1), db=db),
                      executor=in_process)
    second = run_suite(SuiteConfig([suite], ["brute"], Budget(timeout=30), db=db),
                       executor=in_process)
    assert (first.resumed, second.resumed) == (0, 0)
    assert {r.timeout_s for r in second.records} == {30}
    assert len(runs_in(db)) == 4
    shown = load(db)
    assert {r.timeout_s for r in shown.records} == {30} and len(shown.records) == 2
    assert "session 2" in shown.selection
    assert {r.timeout_s for r in load(db, session=first.session).records} == {1}
    assert {r.timeout_s for r in load(db, timeout=1).records} == {1}
    mixed = load(db, all_sessions=True)
    assert sorted({r.backend for r in mixed.records}) == ["brute [1s]", "brute [30s]"]
    again = run_suite(SuiteConfig([suite], ["brute"], Budget(timeout=30), db=db),
                      executor=in_process)
    assert again.resumed == 2 and len(runs_in(db)) == 4


def test_identical_boards_are_separate_tasks_judged_by_their_own_metadata(tmp_path):
    folder = tmp_path / "four"
    folder.mkdir()
    for name in ("a", "b", "c"):
        (folder / f"{name}.txt").write_text(ALL_ON)
    (folder / "d.txt").write_text("# expect-objective: 2\n" + ALL_ON)
    db = tmp_path / "d.sqlite"
    outcome = run_suite(SuiteConfig([folder], ["hand"], db=db), executor=in_process)
    assert len(outcome.records) == 4
    wrong = [r for r in outcome.records if r.status is Status.WRONG]
    assert [Path(r.path).name for r in wrong] == ["d.txt"]
    assert "optimal objective 5, expected 2" in wrong[0].message
    # all four hold one board: one run, three copies that say whose answer they share
    stored = runs_in(db)
    assert len(stored) == 4 and [r[4] for r in stored] == [None, 1, 1, 1]
    report = load(db)
    assert len(report.records) == 4
    assert sum(r.status is Status.WRONG for r in report.records) == 1
    hand = next(row for row in report.totals if row["backend"] == "hand")
    assert (hand["runs"], hand["wrong"]) == (4, 1)


def test_resume_says_what_it_does_and_fresh_runs_again(suite, tmp_path, cli,
                                                        pool_in_process):
    # what is stored and said is the point, not the pool: its runs are made in process
    db = tmp_path / "f.sqlite"
    args = ("bench", str(suite), "--backends", "brute", "--db", str(db), "--quiet", "--jobs", "1")
    assert cli(*args, cwd=tmp_path).returncode == 0
    again = cli(*args)
    assert again.returncode == 0
    assert "resuming: 2 of 2 runs already stored" in again.stderr
    fresh = cli(*args, "--fresh")
    assert fresh.returncode == 0 and "resuming" not in fresh.stderr
    stored = runs_in(db)
    assert len(stored) == 4 and {r[3] for r in stored} == {1, 3}


def test_a_mistyped_backend_stores_nothing(suite, tmp_path, cli):
    db = tmp_path / "typo.sqlite"
    proc = cli("bench", str(suite), "--backends", "hand,brute,sat:nosuch", "--db", str(db),
               cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "nosuch" in proc.stderr and "Traceback" not in proc.stderr
    assert not db.exists()


def test_a_backend_named_twice_runs_and_counts_once(suite, tmp_path):
    outcome = run_suite(SuiteConfig([suite], ["brute", "brute"], db=tmp_path / "t.sqlite"),
                        executor=in_process)
    assert len(outcome.records) == 2
    assert len(runs_in(tmp_path / "t.sqlite")) == 2


def test_the_suite_root_not_the_spelling_of_the_path_names_a_task(suite, tmp_path):
    db = tmp_path / "p.sqlite"
    run_suite(SuiteConfig([suite], ["brute"], db=db), executor=in_process)
    assert {r[0] for r in runs_in(db)} == {"a.txt", "b.txt"}
    relative = os.path.relpath(suite, Path.cwd())
    again = run_suite(SuiteConfig([relative + "/"], ["brute"], db=db), executor=in_process)
    assert again.resumed == 2


# A run of schema 1 (`schema_1`): its objective 5 against the file's expected 4.
_RUN_1 = """
INSERT INTO sessions (id, started, argv) VALUES (1, '2026-11-01', 'twinsolve bench x');
INSERT INTO runs (session_id, instance_hash, backend, options, seed, instance_path, puzzle,
    backend_spec, status, objective, wall_s, nodes, stats, metadata, timeout_s)
    VALUES (1, 'abc', 'hand', '{}', 0, 'x/a.txt', 'lightsout', 'hand', 'optimal', 5, 0.01, 3,
    '{"nodes": 3}', '{"expect-objective": "4"}', 10);
"""


def test_a_schema_1_database_is_reported_unchanged_and_upgraded_by_bench(suite, tmp_path):
    db = schema_1_database(tmp_path / "old.sqlite", _RUN_1)
    before = db.read_bytes()
    shown = load(db)
    assert db.read_bytes() == before
    assert [r.status for r in shown.records] == [Status.WRONG]  # expected 4, stored 5
    outcome = run_suite(SuiteConfig([suite], ["brute"], db=db), executor=in_process)
    assert outcome.resumed == 0 and len(outcome.records) == 2
    with ResultsDatabase(db) as database:
        assert database.upgraded_runs is None
        assert [r.path for r in database.records()][0] == "x/a.txt"


def test_a_damaged_and_a_foreign_database_are_one_line_errors(suite, tmp_path, cli):
    good = tmp_path / "good.sqlite"
    run_suite(SuiteConfig([suite], ["brute"], db=good), executor=in_process)
    damaged = tmp_path / "damaged.sqlite"
    data = bytearray(good.read_bytes())
    data[200:4000] = random.Random(0).randbytes(3800)
    damaged.write_bytes(bytes(data))
    foreign = tmp_path / "notes.sqlite"
    foreign.write_text("these are my notes\n")
    for db in (damaged, foreign):
        proc = cli("bench", str(suite), "--backends", "brute", "--db", str(db), cwd=tmp_path)
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 2 and len(lines) == 1, (db, proc.stderr)
        assert lines[0].startswith(f"twinsolve: {db}") and "Traceback" not in proc.stderr


def test_no_damage_to_a_database_gives_anything_but_a_usage_error(suite, tmp_path):
    good = tmp_path / "good.sqlite"
    run_suite(SuiteConfig([suite], ["brute"], db=good), executor=in_process)
    original = good.read_bytes()
    outcomes = set()
    for seed in range(40):
        rng = random.Random(seed)
        data = bytearray(original)
        start = rng.randrange(16, len(data) - 64)
        data[start:start + rng.randrange(1, 4096)] = rng.randbytes(4096)[:len(data) - start]
        db = tmp_path / f"d{seed}.sqlite"
        db.write_bytes(bytes(data[:len(original)]))
        for read in (load, lambda path: ResultsDatabase(path).close()):
            try:
                read(db)
                outcomes.add("read")
            except UsageError as exc:
                assert "\n" not in str(exc) and str(db) in str(exc)
                outcomes.add("refused")
    assert outcomes == {"read", "refused"}


def test_a_read_only_database_is_refused_before_anything_runs(suite, tmp_path, monkeypatch):
    db = tmp_path / "ro.sqlite"
    run_suite(SuiteConfig([suite], ["brute"], db=db), executor=in_process)
    before = db.read_bytes()
    real = sqlite3.connect

    # What a user without write permission gets (root, running the tests, may write anyway;
    # the checks before it already read the file through a URI of their own).
    def read_only(database, *args, **kwargs):
        if kwargs.get("uri"):
            return real(database, *args, **kwargs)
        return real(f"{Path(database).resolve().as_uri()}?mode=ro", *args, uri=True)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(UsageError, match="read-only"):
        run_suite(SuiteConfig([suite], ["brute"], Budget(timeout=3), db=db), executor=in_process)
    assert db.read_bytes() == before


def test_report_falls_back_to_immutable_where_sqlite_may_not_write(suite, tmp_path,
                                                                     monkeypatch):
    db = tmp_path / "r.sqlite"
    run_suite(SuiteConfig([suite], ["brute"], db=db), executor=in_process)
    real = sqlite3.connect

    def refuse_rw(database, *args, **kwargs):  # what SQLite says where it cannot make -shm
        if str(database).endswith("?mode=rw"):
            raise sqlite3.OperationalError("attempt to write a readonly database")
        return real(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", refuse_rw)
    assert len(load(db).records) == 2
    assert not (tmp_path / "r.sqlite-shm").exists()


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_undecodable_names_are_stored_not_a_traceback(tmp_path):
    folder = tmp_path / "odd"
    folder.mkdir()
    name = os.fsdecode(b"board-\xff.txt")
    (folder / name).write_text(ALL_ON)
    db = tmp_path / "n.sqlite"
    # a real process: the session stores its argv
    proc = twinsolve("bench", os.fsdecode(os.fsencode(folder / name)), "--backends", "brute",
                     "--db", str(db), "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    with sqlite3.connect(db) as connection:
        (argv,), = connection.execute("SELECT argv FROM sessions").fetchall()
        (path,), = connection.execute("SELECT instance_path FROM runs").fetchall()
    assert "board-\\xff.txt" in argv and path.endswith("board-\\xff.txt")


def test_skip_invalid_runs_the_valid_files_and_records_the_others(suite, tmp_path, cli):
    (suite / "broken.txt").write_text("lightsout 3 3\n111\n")
    with pytest.raises(UsageError) as refused:
        run_suite(SuiteConfig([suite], ["brute"], db=tmp_path / "x.sqlite"), executor=in_process)
    assert "broken.txt" in str(refused.value) and not (tmp_path / "x.sqlite").exists()
    db = tmp_path / "s.sqlite"
    said: list[str] = []
    outcome = run_suite(SuiteConfig([suite], ["brute"], db=db, skip_invalid=True),
                        say=said.append, executor=in_process)
    assert len(outcome.records) == 2 and len(outcome.invalid) == 1
    assert said == ["skipping 1 invalid instance file (--skip-invalid; listed with the "
                    "results)"]
    assert any("broken.txt" in line for line in load(db).invalid)
    with sqlite3.connect(db) as connection:
        (message,), = connection.execute("SELECT message FROM invalid").fetchall()
    assert "broken.txt" in message and json.dumps(message)
    shown = cli("bench", str(suite), "--backends", "brute", "--db", str(db), "--skip-invalid",
                "--quiet", cwd=tmp_path)
    listed = shown.stdout.split("invalid files skipped (1):")[1]
    assert shown.returncode == 0 and "broken.txt:" in listed.splitlines()[1]


def test_specs_a_puzzle_does_not_run_are_two_unsupported_runs_not_one(tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "l.txt").write_text(ALL_ON)
    (folder / "c.txt").write_text("cave 2 2\n2 -\n- -\n")
    outcome = run_suite(SuiteConfig([folder], ["hand", "hand:probe=false", "puzzlekit",
                                               "puzzlekit:workers=2"], Budget(timeout=5),
                                    db=tmp_path / "m.sqlite"), executor=in_process)
    lights = sorted((r.backend, r.status.value) for r in outcome.records if r.puzzle ==
                    "lightsout")
    assert lights == [("hand", "optimal"), ("hand:probe=false", "unsupported"),
                      ("puzzlekit", "unsupported"), ("puzzlekit:workers=2", "unsupported")]
