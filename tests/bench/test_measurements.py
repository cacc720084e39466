"""Each run's measurements through the real worker pool (issue 25): CPU time, memory, load.

The test-only back-ends of twinsolve.backends.faults have a known cost and
then answer as `hand`: `fault-spin` burns 0.5 s of CPU, `fault-sleep` sleeps
0.5 s, `fault-hold` holds 200 MB for 0.3 s. One pool of one worker runs the
three (their memory must not overlap), and the database must hold what each
cost: CPU time that is the run's own (the sleep costs none, so the worker's
waiting is not counted either), the peak memory the run added, and the
host's load when it started. `fault-litter` leaves garbage whose freeing
burns 0.5 s of CPU and starts with a full collection: two of its runs in a
row on one worker each cost little only if the worker frees the garbage
between runs, off their clocks.
"""

from __future__ import annotations

import gc
import sqlite3
import time
from pathlib import Path

import pytest

from twinsolve.backends.faults import COST_S, HOLD_MB, litter
from twinsolve.bench.plan import Budget
from twinsolve.bench.results import load
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.core.limits import Limits
from twinsolve.puzzles.lightsout.rules import parse


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("suite")
    (folder / "a.txt").write_text("lightsout 3 3\n111\n111\n111\n")
    db = tmp_path_factory.mktemp("db") / "m.sqlite"
    outcome = run_suite(SuiteConfig([folder], ["fault-spin", "fault-sleep", "fault-hold"],
                                    Budget(timeout=30), db=db, jobs=1))
    return db, {r.backend: r for r in outcome.records}


def test_cpu_time_is_the_runs_own(measured):
    _, runs = measured
    spin, sleep = runs["fault-spin"], runs["fault-sleep"]
    assert spin.status.value == sleep.status.value == "optimal"  # answered as hand does
    # 0.5 s of CPU burnt, and a little for reading the board and solving it
    assert COST_S <= spin.cpu_s < COST_S + 0.5 and spin.wall_s >= COST_S
    # 0.5 s asleep: wall time, but next to no CPU, and none of the worker's own waiting
    assert COST_S <= sleep.wall_s < COST_S + 2 and sleep.cpu_s < 0.1


def test_memory_is_the_peak_the_run_added(measured):
    _, runs = measured
    assert HOLD_MB * 0.9 <= runs["fault-hold"].mem_mb <= HOLD_MB * 1.25
    assert runs["fault-spin"].mem_mb < 20 and runs["fault-sleep"].mem_mb < 20


def test_measurements_are_stored_and_read_back(measured):
    db, runs = measured
    with sqlite3.connect(db) as connection:
        stored = {backend: (cpu, mem, load_) for backend, cpu, mem, load_ in connection.execute(
            "SELECT backend, cpu_s, mem_mb, load FROM runs")}
    connection.close()
    for backend, record in runs.items():
        assert stored[backend] == (record.cpu_s, record.mem_mb, record.load)
        assert record.load is not None and record.load >= 0
    data = load(db)
    session = data.sessions[0]
    assert session["cores"] >= 1 and session["load_start"] is not None \
        and session["load_end"] is not None and session["ram_mb"] > 0
    row = next(r for r in data.totals if r["backend"] == "fault-hold")
    assert row["median_mem_mb"] == runs["fault-hold"].mem_mb


def test_the_litter_left_costs_its_finalizer_when_collected():
    litter(parse("lightsout 2 2\n11\n11\n"), Limits(timeout=30))
    started = time.process_time()
    gc.collect()
    assert time.process_time() - started >= COST_S * 0.9


def test_a_run_pays_for_no_earlier_runs_garbage(tmp_path):
    folder = tmp_path / "suite"
    folder.mkdir()
    for name, board in (("a", "111\n111\n111"), ("b", "010\n111\n010"), ("c", "100\n000\n001")):
        (folder / f"{name}.txt").write_text(f"lightsout 3 3\n{board}\n")
    outcome = run_suite(SuiteConfig([folder], ["fault-litter"], Budget(timeout=30),
                                    db=tmp_path / "m.sqlite", jobs=1))
    runs = outcome.records
    assert len(runs) == 3 and {r.status.value for r in runs} == {"optimal"}
    # Each but the first would free the litter of the run before at its start, on its
    # own clock, were it not freed between the runs.
    assert all(r.cpu_s < COST_S / 2 for r in runs), [r.cpu_s for r in runs]
