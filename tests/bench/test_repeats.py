"""Repeats (issue 25): interleaved, one task whatever N, the median with its spread, flapping.

`--repeat 2` over one file used to report "2 tasks" and totals each
repeat as a task of its own. Now the plan runs every task once before any
runs again; a task's repeats are reduced to their median, their range and
their count (twinsolve.bench.repeats), in every table; and a status that
differs between repeats is shown and counted (`flapping`), never hidden.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest
from conftest import in_process

from twinsolve.bench.execute import record_of
from twinsolve.bench.noise import warnings
from twinsolve.bench.plan import Budget, plan_suite
from twinsolve.bench.records import RunRecord
from twinsolve.bench.repeats import Spread, task_runs
from twinsolve.bench.scores import VIRTUAL_BEST, totals
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.core.limits import Limits
from twinsolve.core.result import Result, Status
from twinsolve.core.run import run

WALLS = (0.10, 0.30, 0.20, 0.90, 0.25)   # one task's five repeats, seconds


def repeat(seed: int, wall: float, status: Status = Status.OPTIMAL, backend: str = "hand",
           path: str = "a.txt", cpu: float | None = None) -> RunRecord:
    return RunRecord(path, "lightsout", backend, status, wall_s=wall, cpu_s=cpu,
                     stats={"nodes": 10 + seed}, instance_hash=f"h-{path}", timeout_s=5.0,
                     seed=seed, mem_mb=2.0 + seed)


def test_repeats_are_one_task_with_the_median_and_its_range():
    runs = [repeat(seed, wall) for seed, wall in enumerate(WALLS)]
    (entry,) = task_runs(runs)
    assert len(entry.runs) == 5 and entry.solved and not entry.flapping
    assert entry.wall == Spread(statistics.median(WALLS), 0.10, 0.90, 5) == Spread(
        0.25, 0.10, 0.90, 5)
    assert entry.wall.text(lambda s: f"{s:.2f} s") == "0.25 s (0.10–0.90 s, n=5)"
    assert entry.nodes.median == 12 and entry.mem.median == 4.0
    (row, *_) = totals(runs)
    assert (row["runs"], row["tasks"], row["repeats"], row["solved"]) == (5, 1, 5, 1)
    assert row["median_s"] == 0.25 and row["par2"] == 0.25
    # PAR-2 of each repeat alone: its best and its worst
    assert row["par2_range"] == [0.10, 0.90]


def test_a_flapping_status_is_shown_and_counted_never_hidden():
    statuses = (Status.OPTIMAL, Status.TIMEOUT, Status.OPTIMAL)
    runs = [repeat(seed, 5.0 if status is Status.TIMEOUT else 0.2, status)
            for seed, status in enumerate(statuses)]
    runs += [repeat(seed, 0.4, backend="sat") for seed in range(3)]
    (hand, sat) = task_runs(runs)
    assert hand.flapping and hand.status is None and not hand.solved
    assert hand.statuses() == "optimal 2 · timeout 1"
    assert hand.par2 == 0.2  # the median of 0.2, 10 (twice the limit), 0.2
    rows = {r["backend"]: r for r in totals(runs)}
    assert (rows["hand"]["flapping"], rows["hand"]["solved"], rows["hand"]["timeout"]) == (1, 0, 0)
    assert rows["sat"]["wins"] == 1 and rows[VIRTUAL_BEST]["solved"] == 1
    said = warnings([], [], task_runs(runs))[-1]   # after the spread's: 0.2 s to 5 s
    assert said == ("1 task flapped (their repeats' statuses differ): hand on a.txt: "
                    "optimal 2 · timeout 1")


def test_a_wrong_answer_is_never_outvoted():
    runs = [repeat(0, 0.1), repeat(1, 0.1, Status.WRONG), repeat(2, 0.1)]
    (entry,) = task_runs(runs)
    assert entry.status is Status.WRONG and entry.flapping
    (row, *_) = totals(runs)
    assert (row["wrong"], row["flapping"], row["solved"]) == (1, 0, 0)


def test_repeats_are_interleaved_not_back_to_back(tmp_path: Path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.txt").write_text("lightsout 2 2\n11\n11\n")
    tasks = plan_suite([tmp_path], ["brute", "hand"], repeat=3).tasks
    assert [(t.task_path, t.backend, t.seed) for t in tasks] == [
        (f"{name}.txt", backend, seed) for seed in range(3) for name in "ab"
        for backend in ("brute", "hand")]


def _flapping_executor(tasks, budget):
    """Runs as the pool would, but repeat 1 of every task is a timeout."""
    for task in tasks:
        result = run(task.instance, task.backend, Limits(timeout=budget.timeout, seed=task.seed))
        if task.seed == 1:
            result = Result(Status.TIMEOUT, message="planted")
        yield task, record_of(task, result, 0.01 * (task.seed + 1), 0.01, budget.timeout)


def test_repeat_3_over_one_file_is_one_task_in_the_report(tmp_path: Path, cli):
    (tmp_path / "one.txt").write_text("lightsout 2 2\n11\n11\n")
    db = tmp_path / "r.sqlite"
    outcome = run_suite(SuiteConfig([tmp_path / "one.txt"], ["brute"], Budget(timeout=5),
                                    repeat=3, db=db), executor=_flapping_executor)
    assert len(outcome.records) == 3
    assert any("flapped" in line for line in outcome.warnings)
    done = cli("report", db, "--wide", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "lightsout: 1 task x 3 repeats" in done.stdout
    row = next(line for line in done.stdout.splitlines() if "│ brute" in line)
    cells = [cell.strip() for cell in row.split("│")[1:-1]]
    header = next(line for line in done.stdout.splitlines() if "back-end" in line)
    names = [cell.strip() for cell in header.split("┃")[1:-1]]
    shown = dict(zip(names, cells, strict=True))
    assert (shown["runs"], shown["solved"], shown["flapping"]) == ("3", "0", "1")
    # the warning wraps at the terminal's width wherever the temporary path makes it long
    assert ("warning: 1 task flapped (their repeats' statuses differ): brute on "
            f"{tmp_path / 'one.txt'}: optimal 2 · timeout 1") in " ".join(done.stdout.split())


@pytest.mark.parametrize("repeats", [1, 2])
def test_a_database_made_in_process_resumes_its_repeats(tmp_path: Path, repeats: int):
    (tmp_path / "one.txt").write_text("lightsout 2 2\n11\n11\n")
    config = SuiteConfig([tmp_path / "one.txt"], ["brute"], repeat=repeats,
                         db=tmp_path / "r.sqlite")
    run_suite(config, executor=in_process)
    again = run_suite(config, executor=in_process)
    assert (again.planned, again.resumed) == (repeats, repeats)
