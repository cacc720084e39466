"""The results database a user hands over, and what bench says while it writes one (issue 23).

Each test was a fault a user hit: a database written before runs were keyed
by file was upgraded and then every run was done again (old rows held
absolute paths, new keys relative ones), so `report --all-sessions` counted
every task twice; a database with a flipped bit got a new session and runs
before `bench` refused it; an empty file, a foreign or a newer database were
written to or refused late; Ctrl-C said only `interrupted`; the legend ran
past an 80-column terminal. Every refusal is one line naming the file, exit
2, and the file left byte for byte as it was. In-process through
`twinsolve.cli.main`; the Ctrl-C test needs a real process.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import device_twin, in_process, snapshot
from schema_1 import SCHEMA_1

from twinsolve.bench.database import SCHEMA_VERSION
from twinsolve.bench.plan import Budget, content_hash
from twinsolve.bench.results import load
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.cli import main
from twinsolve.core.limits import Limits
from twinsolve.core.run import load_file, run

BOARDS = {"lights/a.txt": "lightsout 3 3\n111\n111\n111\n",
          "lights/b.txt": "# expect-objective: 1\nlightsout 3 3\n010\n111\n010\n",
          "lights/deep/c.txt": "lightsout 2 3\n110\n011\n"}


def _write_suite(root: Path) -> Path:
    for name, text in BOARDS.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    return _write_suite(tmp_path / "suite")


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A good database of `brute` on every file of a suite beside it, made once: copy it."""
    folder = tmp_path_factory.mktemp("made")
    db = folder / "good.sqlite"
    run_suite(SuiteConfig([_write_suite(folder / "suite")], ["brute"], Budget(timeout=10),
                          db=db), executor=in_process)
    return db


def _copy(good: Path, db: Path) -> Path:
    db.write_bytes(good.read_bytes())
    return db


def _bench(suite: Path, db: Path | str, *more: str) -> list[str]:
    return ["bench", str(suite), "--backends", "brute", "--db", str(db), "--quiet", *more]


def _runs(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT id, task_path, reused_from FROM runs ORDER BY id")
        return rows.fetchall()


# ---------------------------------------------------------------- an old database

def _old_database(db: Path, files: list[Path]) -> Path:
    """A schema-1 database holding a 10 s `brute` run of each file, under its absolute
    path, as `twinsolve bench /abs/suite --backends brute` wrote it then."""
    with sqlite3.connect(db) as connection:
        connection.executescript(SCHEMA_1)
        connection.execute("INSERT INTO sessions (id, started, argv, timeout_s) VALUES "
                           "(1, '2026-11-30T05:00:00+00:00', 'twinsolve bench suite', 10.0)")
        for path in files:
            instance = load_file(path)
            result = run(instance, "brute", Limits(timeout=10))
            connection.execute(
                "INSERT INTO runs (session_id, instance_hash, backend, options, seed, "
                "instance_path, puzzle, backend_spec, status, objective, verified, wall_s, "
                "nodes, stats, solution, metadata, timeout_s) VALUES (1, ?, 'brute', '{}', 0, "
                "?, 'lightsout', 'brute', ?, ?, 1, 0.01, ?, ?, ?, ?, 10.0)",
                (content_hash(instance), str(path.resolve()), result.status.value,
                 result.objective, result.stats.nodes, json.dumps(result.stats.to_dict()),
                 json.dumps(result.solution), json.dumps(dict(instance.meta))))
    connection.close()
    return db


def test_an_old_database_resumes_every_run_and_counts_each_task_once(suite, tmp_path, capsys):
    files = sorted(suite.rglob("*.txt"))
    db = _old_database(tmp_path / "old.sqlite", files)
    assert main(_bench(suite, db)) == 0
    said = capsys.readouterr().err.splitlines()
    assert said == [f"twinsolve: upgraded {db} to the current results format (3 runs kept)",
                    "twinsolve: resuming: 3 of 3 runs already stored"]
    # nothing run again: the three old rows, now under the suite's own paths
    assert _runs(db) == [(1, "lights/a.txt", None), (2, "lights/b.txt", None),
                         (3, "lights/deep/c.txt", None)]
    assert main(_bench(suite, db)) == 0
    assert "resuming: 3 of 3 runs already stored" in capsys.readouterr().err
    assert len(_runs(db)) == 3
    every = load(db, all_sessions=True)
    (row,) = every.totals
    assert (row["tasks"], row["runs"], row["solved"]) == (3, 3, 3)


def test_an_old_run_goes_to_the_file_it_came_from(suite, tmp_path):
    """Two files with one board: the old run is the one whose path it holds; the other
    file shares its answer."""
    (suite / "copy.txt").write_text(BOARDS["lights/a.txt"])
    db = _old_database(tmp_path / "old.sqlite", [suite / "lights" / "a.txt"])
    outcome = run_suite(SuiteConfig([suite], ["brute"], db=db), executor=in_process)
    assert (outcome.resumed, outcome.reused) == (1, 1)
    assert [(path, reused) for _, path, reused in _runs(db)][:2] == [
        ("lights/a.txt", None), ("copy.txt", 1)]


def test_one_time_limit_is_one_key_from_the_api_and_the_cli(good, tmp_path, capsys):
    """`Budget(timeout=10)` keyed its runs `10`, `--timeout 10` keyed them `10.0`."""
    db = _copy(good, tmp_path / "r.sqlite")  # made through the API: Budget(timeout=10)
    assert main(_bench(good.parent / "suite", db, "--timeout", "10")) == 0
    assert "resuming: 3 of 3 runs already stored" in capsys.readouterr().err


def test_an_old_database_is_reported_unchanged_with_each_task_once(suite, tmp_path):
    db = _old_database(tmp_path / "old.sqlite", sorted(suite.rglob("*.txt")))
    before = snapshot(tmp_path)
    shown = load(db, all_sessions=True)
    assert snapshot(tmp_path) == before
    assert [(r.path, r.task_path) for r in shown.records][0] == (
        str((suite / "lights" / "a.txt").resolve()), "")
    assert shown.totals[0]["tasks"] == 3


# ---------------------------------------------------------------- what is no database of ours

def _damaged(tmp_path: Path, good: Path) -> Path:
    """A good database with one flipped bit in the runs table's page: the pointer to its
    first row (the table's first leaf page, well past the file header)."""
    db = _copy(good, tmp_path / "damaged.sqlite")
    with sqlite3.connect(db) as connection:
        (root,), = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'runs'")
        (size,), = connection.execute("PRAGMA page_size")
    connection.close()
    data = bytearray(db.read_bytes())
    data[(root - 1) * size + 8] ^= 0x10  # the high byte of the first cell's offset
    db.write_bytes(bytes(data))
    return db


def _truncated(tmp_path: Path, good: Path) -> Path:
    data = good.read_bytes()
    (tmp_path / "cut.sqlite").write_bytes(data[:len(data) // 2])
    return tmp_path / "cut.sqlite"


def _foreign(tmp_path: Path, good: Path) -> Path:
    db = tmp_path / "notes.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
        connection.execute("INSERT INTO notes (text) VALUES ('buy milk')")
    connection.close()
    return db


NEWER = SCHEMA_VERSION + 1


def _newer(tmp_path: Path, good: Path) -> Path:
    db = _copy(good, tmp_path / "newer.sqlite")
    with sqlite3.connect(db) as connection:
        connection.execute(f"PRAGMA user_version = {NEWER}")
        connection.execute("ALTER TABLE runs RENAME COLUMN instance_path TO source")
    connection.close()
    return db


def _empty(tmp_path: Path, good: Path) -> Path:
    (tmp_path / "empty.sqlite").touch()
    return tmp_path / "empty.sqlite"


def _fifo(tmp_path: Path, good: Path) -> Path:
    os.mkfifo(tmp_path / "pipe.sqlite")
    return tmp_path / "pipe.sqlite"


def _folder(tmp_path: Path, good: Path) -> Path:
    (tmp_path / "results").mkdir()
    return tmp_path / "results"


def _device(tmp_path: Path, good: Path) -> Path:
    return device_twin(tmp_path, "null")


def _read_only(tmp_path: Path, good: Path) -> Path:
    db = _copy(good, tmp_path / "locked.sqlite")
    db.chmod(0o444)
    return db


# kind: (make it, what the refusal says, report refuses it too)
KINDS = {
    "damaged": (_damaged, "damaged results database", True),
    "truncated": (_truncated, "truncated results database", True),
    "foreign": (_foreign, "not a twinsolve results database (no 'runs' table)", True),
    "newer": (_newer, f"schema {NEWER}, made by a newer twinsolve", True),
    "empty": (_empty, "an empty file, not a results database", True),
    "fifo": (_fifo, "not a regular file (a named pipe)", True),
    "folder": (_folder, "not a regular file (a folder)", True),
    "device": (_device, "not a regular file (a device)", True),
    "read-only": (_read_only, "results database is read-only", False),
}


def _refused(capsys, args: list[str], db: Path, words: str) -> None:
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert err.splitlines() == [err.strip()] and out == ""
    assert err.startswith(f"twinsolve: {db}: ") and words in err, err


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_database_that_is_not_ours_is_refused_and_left_as_it_was(kind, good, tmp_path,
                                                                   capsys):
    make, words, report_refuses = KINDS[kind]
    db = make(tmp_path, good)
    before = snapshot(tmp_path)
    _refused(capsys, _bench(good.parent / "suite", db), db, words)
    assert snapshot(tmp_path) == before  # no session, no runs, no -wal, no temporary file
    if report_refuses:
        _refused(capsys, ["report", str(db)], db, words)
        _refused(capsys, ["report", str(good), str(db)], db, words)
    else:  # a report only reads
        assert main(["report", str(db)]) == 0
        capsys.readouterr()
    assert snapshot(tmp_path) == before


def test_a_damaged_database_as_the_issue_met_it(good, tmp_path):
    """The real process: one line, no traceback, exit 2, the file unchanged."""
    db = _damaged(tmp_path, good)
    before = db.read_bytes()
    proc = subprocess.run([sys.executable, "-m", "twinsolve", *_bench(good.parent / "suite", db)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith(f"twinsolve: {db}: damaged results database (")
    assert len(proc.stderr.splitlines()) == 1
    assert db.read_bytes() == before


def test_a_row_that_no_longer_decodes_is_refused_before_bench_writes(good, tmp_path, capsys):
    """A flipped bit inside a stored text (here: its bytes made so with SQL): no page
    check sees it, but bench reads every run it resumes before it writes anything."""
    db = tmp_path / "r.sqlite"
    db.write_bytes(good.read_bytes())
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE runs SET metadata = CAST(X'7B2265787065637400FF7D' AS TEXT) "
                           "WHERE id = 2")
    connection.close()
    before = snapshot(tmp_path)
    _refused(capsys, _bench(good.parent / "suite", db), db,
             "damaged results database (Could not decode to UTF-8 column 'metadata')")
    assert snapshot(tmp_path) == before
    _refused(capsys, ["report", str(db)], db, "damaged results database")


def _killed(good: Path, folder: Path, statement: str) -> Path:
    """A copy of `good` as a process killed with -9 leaves it: its last write (`statement`)
    still in the -wal file beside it, not yet copied into the database."""
    live = _copy(good, folder / "live.sqlite")
    writer = sqlite3.connect(live)
    try:
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute(statement)
        writer.commit()
        (folder / "killed").mkdir()
        for suffix in ("", "-wal"):
            (folder / "killed" / f"k.sqlite{suffix}").write_bytes(
                Path(f"{live}{suffix}").read_bytes())
    finally:
        writer.close()
    return folder / "killed" / "k.sqlite"


def _files(db: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in (db, Path(f"{db}-wal"))}


_ONE_MORE_RUN = ("INSERT INTO runs SELECT NULL, session_id, task_hash, 'again.txt', backend, "
                 "options, seed, limits, instance_hash, instance_path, puzzle, backend_spec, "
                 "status, objective, is_unique, count, verified, wall_s, cpu_s, build_s, "
                 "solve_s, nodes, stats, message, solution, metadata, timeout_s, memory_mb, "
                 "reused_from, finished, mem_mb, load FROM runs WHERE id = 1")


def test_a_report_leaves_a_killed_benchs_wal_file_alone(good, tmp_path, capsys):
    """A bench killed with -9 leaves its last runs in the -wal file: a report reads them,
    and neither copies them into the database (a write) nor deletes the -wal file."""
    db = _killed(good, tmp_path, _ONE_MORE_RUN)
    before = _files(db)
    assert len(load(db, all_sessions=True).records) == 4
    assert main(["report", str(db)]) == 0
    capsys.readouterr()
    assert _files(db) == before


def test_a_refused_database_keeps_its_wal_file(good, tmp_path, capsys):
    """A newer twinsolve killed while writing: bench refuses the database, and its close
    does not copy the -wal file into it either."""
    db = _killed(good, tmp_path, f"PRAGMA user_version = {NEWER}")
    before = _files(db)
    _refused(capsys, _bench(good.parent / "suite", db), db, "made by a newer twinsolve")
    assert _files(db) == before


def test_a_symlink_db_works_on_its_target(suite, tmp_path, capsys):
    target = tmp_path / "data" / "results.sqlite"
    target.parent.mkdir()
    link = tmp_path / "link.sqlite"
    link.symlink_to(target)
    run_suite(SuiteConfig([suite], ["brute"], db=link), executor=in_process)
    assert link.is_symlink() and len(_runs(target)) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "link.sqlite", "suite"]
    assert main(_bench(suite, link)) == 0
    assert "resuming: 3 of 3 runs already stored" in capsys.readouterr().err
    assert main(["report", str(link)]) == 0
    assert link.is_symlink() and len(_runs(target)) == 3


def test_a_new_database_is_whole_or_absent(suite, tmp_path, capsys):
    """Made beside its place and linked in: a bench stopped early leaves no empty file
    that the next one would refuse."""
    assert main(_bench(suite, tmp_path / "no-such-folder" / "r.sqlite")) == 2
    assert "no folder" in capsys.readouterr().err
    db = tmp_path / "r.sqlite"
    with pytest.raises(KeyboardInterrupt):
        run_suite(SuiteConfig([suite], ["brute"], db=db),
                  executor=lambda tasks, budget: (_ for _ in ()).throw(KeyboardInterrupt))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.sqlite", "suite"]
    assert run_suite(SuiteConfig([suite], ["brute"], db=db), executor=in_process).planned == 3


# ---------------------------------------------------------------- what bench says

@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_ctrl_c_says_what_is_stored_and_the_same_command_resumes(tmp_path, capsys):
    folder = tmp_path / "slow"
    folder.mkdir()
    for index in range(3):
        (folder / f"b{index}.txt").write_text(f"lightsout 1 {index + 2}\n{'1' * (index + 2)}\n")
    db = tmp_path / "c.sqlite"
    args = ["bench", str(folder), "--backends", "brute,fault-hang", "--timeout", "0.3",
            "--jobs", "1", "--db", str(db), "--quiet"]
    harness = subprocess.Popen([sys.executable, "-m", "twinsolve", *args], cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        stored = 0
        deadline = time.monotonic() + 120
        while stored < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            try:  # read-only: a connection that made the file would make it empty
                with sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True) as connection:
                    (stored,), = connection.execute("SELECT COUNT(*) FROM runs")
                connection.close()
            except sqlite3.Error:  # not made yet
                stored = 0
        harness.send_signal(signal.SIGINT)
        out, err = harness.communicate(timeout=60)
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()
    stored = len(_runs(db))
    assert 2 <= stored < 6, "the harness should have been stopped mid-way"
    assert harness.returncode == 130 and out == ""
    assert err == (f"twinsolve: interrupted: {stored} of 6 runs are stored in {db}; the same "
                   f"command resumes with the other {6 - stored}\n")
    assert main(args) == 0
    assert f"resuming: {stored} of 6 runs already stored" in capsys.readouterr().err
    assert len(_runs(db)) == 6


def test_the_totals_and_their_legend_fit_80_columns(suite, tmp_path, capsys, monkeypatch):
    db = tmp_path / "w.sqlite"
    backends = ["brute", "hand", "cpsat"]
    run_suite(SuiteConfig([suite], backends, db=db), executor=in_process)
    monkeypatch.setenv("COLUMNS", "80")
    for args in (["bench", str(suite), "--backends", ",".join(backends), "--db", str(db)],
                 ["report", str(db)]):
        assert main(args) == 0
        out = capsys.readouterr().out
        assert "PAR-2: mean wall time per task" in out
        assert max(len(line) for line in out.splitlines()) <= 80, out
