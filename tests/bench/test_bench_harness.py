"""The benchmark harness under stress: crashes, hangs, memory hogs, kill -9, Dask.

Every test runs real worker processes through the real executors (but the
rerun, which is about the database, and the unsupported runs, which need no
worker: `conftest.in_process`); the misbehaving back-ends are the `fault-*`
ones of twinsolve.backends.faults.
The suites are as small as shows the mechanism (two boards: a fault strikes
a replaced worker again); each worker a fault kills costs a second to
replace, each hang its time limit.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from conftest import in_process

from twinsolve.bench.execute import LocalPool
from twinsolve.bench.plan import Budget, plan_suite
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.core.errors import UsageError
from twinsolve.core.result import Status

BOARDS = ["111\n111\n111\n", "101\n010\n101\n"]


@pytest.fixture
def suite_dir(tmp_path):
    folder = tmp_path / "suite"
    folder.mkdir()
    for index, body in enumerate(BOARDS):
        (folder / f"b{index}.txt").write_text(f"lightsout 3 3\n{body}")
    return folder


def statuses(records, backend):
    return sorted(r.status.value for r in records if r.backend == backend)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_faults_are_recorded_and_the_suite_goes_on(suite_dir, tmp_path):
    backends = ["brute", "fault-crash", "fault-abort", "fault-memory", "fault-wrong"]
    # 3 s: enough for fault-memory to pass 300 MB before its time is up on a loaded
    # machine (at 1 s one run of three was a timeout once). fault-hang, which would wait
    # out those 3 s, has its own test below at a shorter limit.
    config = SuiteConfig([suite_dir], backends, Budget(timeout=3.0, memory_mb=300),
                         db=tmp_path / "f.sqlite", jobs=2)
    records = run_suite(config).records
    assert statuses(records, "brute") == ["optimal"] * len(BOARDS)
    assert statuses(records, "fault-crash") == ["crash"] * len(BOARDS)
    assert all("SIGSEGV" in r.message for r in records if r.backend == "fault-crash")
    assert all("SIGABRT" in r.message for r in records if r.backend == "fault-abort")
    assert statuses(records, "fault-memory") == ["memout"] * len(BOARDS)
    assert statuses(records, "fault-wrong") == ["wrong"] * len(BOARDS)


def test_unsupported_backends_are_recorded_not_run(tmp_path, monkeypatch):
    (tmp_path / "m.txt").write_text("lightsout 2 2 mod 3\n12\n00\n")
    tasks = plan_suite([tmp_path], ["sat", "brute"]).tasks
    assert [t.skip_reason is not None for t in tasks] == [True, False]
    # The pool records the unsupported task without any worker: none may even start.
    with monkeypatch.context() as patch:
        patch.setattr("twinsolve.bench.execute.WorkerProcess",
                      lambda: pytest.fail("a worker started for an unsupported task"))
        [(task, record)] = LocalPool(2)(tasks[:1], Budget())
    assert record.status is Status.UNSUPPORTED and record.message == task.skip_reason
    # The suite stores it beside the supported run (made in process: a worker's brute
    # answers in test_faults_are_recorded_and_the_suite_goes_on).
    records = run_suite(SuiteConfig([tmp_path], ["sat", "brute"], db=tmp_path / "u.sqlite"),
                        executor=in_process).records
    by_backend = {r.backend: r for r in records}
    assert by_backend["sat"].status is Status.UNSUPPORTED and by_backend["sat"].message
    assert by_backend["brute"].status is Status.OPTIMAL


def test_rerun_skips_stored_runs(suite_dir, tmp_path):
    config = SuiteConfig([suite_dir], ["brute"], db=tmp_path / "r.sqlite", repeat=2)
    first = run_suite(config, executor=in_process).records
    assert len(first) == 2 * len(BOARDS) and {r.seed for r in first} == {0, 1}

    def refuse(tasks, budget):
        raise AssertionError(f"nothing should run again, got {len(list(tasks))} tasks")
        yield

    assert len(run_suite(config, executor=lambda tasks, budget: iter(
        [] if not tasks else refuse(tasks, budget))).records) == 2 * len(BOARDS)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_kill_minus_9_then_resume_holds_each_run_once(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for index in range(6):  # 12 runs, half of them hangs of 0.3 s: killed after 4
        (folder / f"b{index:02d}.txt").write_text(f"lightsout 1 {index + 1}\n{'1' * (index + 1)}\n")
    db = tmp_path / "k.sqlite"
    command = [sys.executable, "-m", "twinsolve", "bench", str(folder), "--backends",
               "brute,fault-hang", "--timeout", "0.3", "--jobs", "1", "--db", str(db), "--quiet"]
    harness = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    rows = 0
    while time.time() < deadline and rows < 4:
        time.sleep(0.2)
        if db.exists():
            try:
                rows = sqlite3.connect(db).execute("SELECT COUNT(*) FROM runs").fetchone()[0]
            except sqlite3.OperationalError:
                rows = 0
    harness.send_signal(signal.SIGKILL)
    harness.wait()
    assert 4 <= rows < 12, "the harness should have been killed mid-way"
    finished = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr  # time-outs are measurements, not failures
    db_rows = sqlite3.connect(db).execute(
        "SELECT task_hash, task_path, backend, options, seed, limits FROM runs").fetchall()
    assert len(db_rows) == 12 == len(set(db_rows))


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_dask_local_cluster_gives_the_same_verdicts(suite_dir, tmp_path):
    distributed = pytest.importorskip("distributed")
    from twinsolve.bench.dask_executor import DaskExecutor

    (suite_dir / "b1.txt").unlink()  # one board: each fault once on each executor
    backends = ["brute", "fault-crash", "fault-wrong", "fault-hang"]
    budget = Budget(timeout=1.0)
    local = run_suite(SuiteConfig([suite_dir], backends, budget, db=tmp_path / "l.sqlite",
                                  jobs=2), executor=LocalPool(2)).records
    # One Dask worker process with two threads: each thread keeps its own warm twinsolve
    # worker, as on a node; a second Dask process would only add its start-up.
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = run_suite(SuiteConfig([suite_dir], backends, budget, db=tmp_path / "d.sqlite",
                                       executor_name="dask"),
                           executor=DaskExecutor(client=client)).records

    def verdicts(records):
        return sorted((r.path, r.backend, r.status.value, r.objective) for r in records)

    assert verdicts(local) == verdicts(remote)


def test_a_refused_backend_option_stops_the_suite_as_a_usage_error(suite_dir, tmp_path, cli):
    db = tmp_path / "o.sqlite"
    config = SuiteConfig([suite_dir], ["hand:minimise=perhaps"], Budget(timeout=5),
                         db=db, jobs=2)
    with pytest.raises(UsageError, match="hand:minimise=perhaps.*option minimise='perhaps'"):
        run_suite(config)
    assert not db.exists()  # refused before anything was stored
    time.sleep(0.2)
    assert list(_my_workers()) == []
    # the command refuses it in one line, exit 2 (in a real process: tests/cli/test_cli.py)
    proc = cli("bench", suite_dir, "--backends", "hand:minimise=perhaps", "--db", db, "--quiet",
               cwd=tmp_path)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_a_hang_is_killed_as_a_timeout_and_no_worker_outlives_the_pool(suite_dir, tmp_path):
    records = run_suite(SuiteConfig([suite_dir], ["brute", "fault-hang"], Budget(timeout=0.5),
                                    db=tmp_path / "w.sqlite", jobs=2)).records
    assert statuses(records, "fault-hang") == ["timeout"] * len(BOARDS)
    assert all(r.wall_s < 2.5 for r in records if r.backend == "fault-hang")  # 0.5 s + grace
    assert statuses(records, "brute") == ["optimal"] * len(BOARDS)
    time.sleep(0.2)
    assert list(_my_workers()) == []


def _my_workers():
    """Worker processes whose parent is this test process (tests run in parallel)."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    command = handle.read()
                with open(f"/proc/{entry}/stat") as handle:
                    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if b"twinsolve.bench.worker" in command and parent == os.getpid():
                yield int(entry)
