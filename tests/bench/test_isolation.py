"""The benchmark worker's isolation and memory limit, through real processes.

An external `cmd:` program dies with whoever runs it, descendants and all,
even when the harness is killed by `kill -9`, and leaves nothing in the
temporary folder; `--memory` limits what a run adds to its warm worker, not
the worker's own imports, and catches a run that finishes between two polls.
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

import twinsolve
from twinsolve.bench.isolation import WorkerProcess
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.system import tether

CAVE = "cave 3 3\n- - -\n- 3 -\n- - -\n"
FAKE_SOLVER = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'dimacs_solver.py'}"
# /proc, and a resident peak that can be reset (elsewhere the limits are looser by design)
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")


def _task(backend: str, text: str = "lightsout 3 3\n111\n010\n101\n") -> dict:
    return {"id": 0, "text": text, "source": "t.txt", "backend": backend,
            "limits": {"timeout": 30, "seed": 0, "unique": False, "count": False,
                       "options": {}}}


def _alive(pid: int) -> bool:
    """The process exists and is not a zombie (a dead child its parent has not reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _wait_until(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


def _sleeper_script(folder: Path) -> tuple[Path, Path]:
    """A solver script that sleeps 300 s in a child, writing its own and the child's pid."""
    pids = folder / "pids"
    script = folder / "slow-solver.sh"
    script.write_text(f"#!/bin/sh\nsleep 300 &\necho $$ $! > '{pids}'\nwait\n")
    script.chmod(0o755)
    return script, pids


def _program_and_sleep(pids: Path) -> list[int]:
    """The script's pid and its `sleep` child's, once both are running ([] until then)."""
    try:
        return [int(pid) for pid in pids.read_text().split()]
    except (OSError, ValueError):
        return []


def _kill_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@linux_only
@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_kill_9_of_the_harness_takes_the_cmd_program_and_leaves_no_temp_files(tmp_path):
    pytest.importorskip("twinsolve.puzzles.cave.models")
    script, pids = _sleeper_script(tmp_path)
    (tmp_path / "c.txt").write_text(CAVE)
    temp = tmp_path / "tmp"
    temp.mkdir()
    harness = subprocess.Popen(
        [sys.executable, "-m", "twinsolve", "bench", "c.txt", "--backends", f"cmd:{script}",
         "--timeout", "120", "--db", str(tmp_path / "x.sqlite"), "--quiet"],
        cwd=tmp_path, env=dict(os.environ, TMPDIR=str(temp)),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    running: list[int] = []
    try:
        assert _wait_until(lambda: len(_program_and_sleep(pids)) == 2, 90), \
            "the cmd program never started"
        running = _program_and_sleep(pids)
        harness.send_signal(signal.SIGKILL)
        harness.wait()
        assert _wait_until(lambda: not any(map(_alive, running)), 5), \
            f"still running after the harness died: {[p for p in running if _alive(p)]}"
        assert list(temp.iterdir()) == []
    finally:
        harness.kill()
        harness.wait()
        _kill_all(running)


@linux_only
@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_a_cmd_program_past_its_time_limit_dies_with_its_children(tmp_path):
    pytest.importorskip("twinsolve.puzzles.cave.models")
    script, pids = _sleeper_script(tmp_path)
    start = time.monotonic()
    result = run(twinsolve.load(CAVE), f"cmd:{script}", Limits(timeout=1.0))
    running = _program_and_sleep(pids)
    try:
        assert len(running) == 2, "the script never started"
        assert result.status is Status.TIMEOUT and time.monotonic() - start < 10
        assert _wait_until(lambda: not any(map(_alive, running)), 2)
    finally:
        _kill_all(running)


def test_the_cmd_input_is_a_file_in_memory_or_one_removed_afterwards(tmp_path, monkeypatch):
    pytest.importorskip("twinsolve.puzzles.cave.models")
    seen = tmp_path / "seen"
    script = tmp_path / "spy.sh"
    script.write_text(f"#!/bin/sh\necho \"$1\" > '{seen}'\nexec {FAKE_SOLVER} \"$1\"\n")
    script.chmod(0o755)
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(temp))
    for in_memory in (True, False) if tether.FILES_IN_MEMORY else (False,):
        monkeypatch.setattr(tether, "FILES_IN_MEMORY", in_memory)
        result = run(twinsolve.load(CAVE), f"cmd:{script}", Limits(timeout=60))
        assert result.status is Status.SOLVED and result.verified is True
        path = seen.read_text().strip()
        assert path.startswith("/dev/fd/") if in_memory else path.startswith(str(temp))
        assert list(temp.iterdir()) == []


@linux_only
@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_without_memfd_the_workers_temp_folder_goes_with_the_worker(tmp_path, monkeypatch):
    monkeypatch.setattr("twinsolve.bench.isolation.FILES_IN_MEMORY", False)
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    worker = WorkerProcess()
    try:
        assert worker.execute(_task("hand"), 30, None).result["status"] == "optimal"
        scratch = Path(worker.scratch)
        environ = Path(f"/proc/{worker.pid}/environ").read_bytes().split(b"\0")
        assert scratch.parent == tmp_path and f"TMPDIR={scratch}".encode() in environ
        (scratch / "left-by-a-killed-run").write_text("x")
    finally:
        worker.close()
    assert list(tmp_path.iterdir()) == []


def _worker_replies(tasks: list[dict]) -> list[dict]:
    """The replies of a bare worker process (no harness polling it) to `tasks`, in order."""
    worker = subprocess.Popen([sys.executable, "-m", "twinsolve.bench.worker"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        assert json.loads(worker.stdout.readline())["ready"]
        replies = []
        for task in tasks:
            worker.stdin.write(json.dumps(task) + "\n")
            worker.stdin.flush()
            replies.append(json.loads(worker.stdout.readline()))
        return replies
    finally:
        worker.kill()
        worker.wait()


@linux_only
@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_worker_itself_sees_a_run_over_the_budget_however_short():
    # the test-only back-end needs 48 MB for a moment, then answers as `hand`: the
    # harness's 20 ms polls can miss it, the worker's own peak reading cannot
    over = {**_task("fault-burst"), "memory_mb": 1}
    within = {**_task("fault-burst"), "memory_mb": 100}
    replies = _worker_replies([over, over, within, over])
    assert [r["result"]["status"] for r in replies] == ["memout", "memout", "optimal", "memout"]
    assert "limit 1 MB" in replies[0]["result"]["message"]
    assert replies[0]["result"]["solution"] is None


@pytest.mark.slow  # why: the burst's memout is the worker's own reading (the test above), and
# the harness's memout of a run over its budget is test_bench_harness.py's fault-memory
def test_a_run_over_the_budget_is_memout_in_the_harness_too():
    worker = WorkerProcess()
    try:
        outcome = worker.execute(_task("fault-burst"), 30, 1)
        assert outcome.result["status"] == "memout"
    finally:
        worker.close()


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_memory_budget_does_not_count_the_workers_own_imports(tmp_path, cli):
    folder = tmp_path / "tiny"
    folder.mkdir()
    # brute takes a few hundred ms on the 4x4 board: long enough to be polled
    for name, board in (("a", "111\n010\n101\n"), ("b", "1001\n0110\n0110\n1001\n")):
        size = len(board.split()[0])
        (folder / f"{name}.txt").write_text(f"lightsout {size} {size}\n{board}")
    db = tmp_path / "x.sqlite"
    proc = cli("bench", "tiny", "--backends", "cpsat,brute,sat", "--memory", "100", "--jobs",
               "1", "--db", db, "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    with sqlite3.connect(db) as connection:
        statuses = [s for (s,) in connection.execute("SELECT status FROM runs")]
    assert len(statuses) == 6 and set(statuses) == {"optimal"}


def test_bench_help_says_what_memory_measures(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    proc = cli("bench", "--help")
    assert "may add to its worker's resident memory at its peak" in proc.stdout


@linux_only
@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_a_forked_solver_call_counts_its_own_pages_not_the_workers_it_shares():
    # Glucose 4.1 solves under a limit in a child forked from the worker (models.sat_forked);
    # the harness's polls summed that child's resident size, the worker's pages all over
    # again (~100 MB), and killed a run well within an 80 MB budget as `memout` (it adds
    # about 40 MB in a fresh worker, half of it the pages the child copies as it writes)
    text = (Path(__file__).resolve().parents[2] / "instances" / "chess" /
            "mixed-8x8-20.txt").read_text()
    worker = WorkerProcess()
    try:
        outcome = worker.execute(_task("sat:glucose4", text), 30, 80)
    finally:
        worker.close()
    assert outcome.result["status"] == "solved", outcome.result.get("message")
    assert outcome.mem_mb < 80
