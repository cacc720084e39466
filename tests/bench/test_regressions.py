"""Comparing two runs of a suite (issue 25): what changed in kind, what changed beyond noise.

A newcomer ran the same suite twice with the same code, once on a loaded
machine, and `report a b` said `hand PAR-2 0.49x` with no hint of noise. The
rule of twinsolve.bench.noise is tested on its own, then on two real
databases written by the harness, whose times are planted (the executor
runs each task for real and reports the time it is given): a 3x slowdown on
two tasks, a few percent of noise everywhere, one task that became a
timeout. The report names exactly those two tasks as slower, lists the
status change first, and `--fail-on-regression` exits 1 on it; the same code
twice, or twice as slow in wall time only (the host, not the code), is no
change beyond noise.
"""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path

import pytest

from twinsolve.bench.execute import record_of
from twinsolve.bench.noise import apart_p, busy_sessions, decide
from twinsolve.bench.plan import Budget
from twinsolve.bench.repeats import Spread
from twinsolve.bench.suite import SuiteConfig, run_suite
from twinsolve.core.limits import Limits
from twinsolve.core.result import Result, Status
from twinsolve.core.run import run


def spread(*values: float) -> Spread:
    found = Spread.of(values)
    assert found is not None
    return found


# ------------------------------------------------------------------ the rule

def test_three_times_slower_with_ranges_apart_is_slower_with_its_p():
    a, b = spread(0.10, 0.11, 0.09, 0.10, 0.105), spread(0.30, 0.31, 0.29, 0.33, 0.30)
    change = decide(a, b, a, b)
    assert (change.verdict, change.tested) == ("slower", True)
    assert change.ratio == pytest.approx(3.0) and change.p == apart_p(5, 5) < 0.01
    assert decide(b, a, b, a).verdict == "faster"


def test_overlapping_ranges_are_the_same_within_noise():
    a, b = spread(0.10, 0.11, 0.35), spread(0.30, 0.31, 0.12)
    change = decide(a, b, a, b)
    assert (change.verdict, change.why) == ("same", "ranges overlap")


def test_a_wall_time_that_grew_while_the_cpu_time_did_not_is_the_host():
    wall_a, wall_b = spread(0.10, 0.10, 0.11), spread(0.21, 0.20, 0.22)
    cpu = spread(0.09, 0.09, 0.10)
    change = decide(wall_a, wall_b, cpu, cpu)
    assert change.verdict == "same" and change.why.startswith("wall time only")


def test_without_repeats_a_change_is_untested_and_a_tiny_one_is_noise():
    change = decide(spread(0.1), spread(0.3), None, None)
    assert (change.verdict, change.tested, change.label) == ("slower", False, "slower (untested)")
    assert decide(spread(0.001), spread(0.004), None, None).verdict == "same"  # 3 ms apart
    assert decide(spread(0.1), spread(0.11), None, None).verdict == "same"    # within 1.25x


def test_a_session_on_a_busy_host_is_named():
    sessions = [{"id": 1, "cores": 2, "jobs": 2, "load_start": 0.5, "load_end": 0.8},
                {"id": 2, "cores": 2, "jobs": 2, "load_start": 1.0, "load_end": 4.2},
                {"id": 3, "cores": 2, "jobs": 4, "load_start": 0.1, "load_end": 0.1}]
    runs = [{"session_id": s, "load": 0.5} for s in (1, 2, 3)]
    lines = busy_sessions(sessions, runs)
    assert [line.split(":")[0] for line in lines] == ["session 2 ran on a busy host",
                                                      "session 3 ran on a busy host"]
    assert "load average reached 4.2 on 2 cores" in lines[0]
    assert "it ran 4 jobs on 2 cores" in lines[1]
    # runs without a load of their own (an older database): judged by the session's loads
    late = [{"id": 4, "cores": 2, "jobs": 1, "load_start": 3.5, "load_end": 0.5}]
    assert busy_sessions(late, [{"session_id": 4, "load": None}])[0].startswith(
        "session 4 ran on a busy host: the host's load average reached 3.5 on 2 cores")
    assert busy_sessions(late, [{"session_id": 1, "load": 9.0}]) == []  # it ran none of them


# ------------------------------------------------------------------ two real databases

FILES = {f"t{i}.txt": f"lightsout 2 3\n{i % 2}{(i // 2) % 2}1\n1{i % 3 % 2}0\n" for i in range(6)}
BASE_S = {name: 0.05 * (index + 1) for index, name in enumerate(FILES)}
SLOWER = ("t1.txt", "t4.txt")   # planted 3x slower in B
LOST = "t2.txt"                  # optimal in A, a timeout in B


def planted(slowdown: dict[str, float], timeouts: tuple[str, ...] = (), seed: int = 0,
            cpu_follows: bool = True):
    """An executor that runs each task for real and reports the time planted for it:
    its base time x its slowdown x up to 5 % of noise (and CPU the same, or not)."""
    noise = random.Random(seed)

    def execute(tasks, budget: Budget):
        for task in tasks:
            result = run(task.instance, task.backend, Limits(timeout=budget.timeout,
                                                             seed=task.seed))
            if task.task_path in timeouts:
                result = Result(Status.TIMEOUT, message="planted")
            wall = BASE_S[task.task_path] * slowdown.get(task.task_path, 1.0) \
                * noise.uniform(0.95, 1.05)
            cpu = wall if cpu_follows else BASE_S[task.task_path] * noise.uniform(0.95, 1.05)
            yield task, record_of(task, result, wall, cpu, budget.timeout, mem_mb=1.0, load=0.1)
    return execute


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("suite")
    for name, text in FILES.items():
        (folder / name).write_text(text)
    return folder


def _db(suite: Path, name: str, executor, folder: Path, repeat: int = 5) -> Path:
    db = folder / name
    run_suite(SuiteConfig([suite], ["brute"], Budget(timeout=5), repeat=repeat, db=db),
              executor=executor)
    return db


def _host(db: Path, load: float, cores: int = 2) -> None:
    """Say the database's sessions and runs saw the host's load at `load` on `cores`."""
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE sessions SET load_start = ?, load_end = ?, cores = ?, "
                           "jobs = 1", (load, load, cores))
        connection.execute("UPDATE runs SET load = ?", (load,))
    connection.close()


@pytest.fixture(scope="module")
def dbs(suite: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("dbs")
    return {
        "before": _db(suite, "before.sqlite", planted({}, seed=1), folder),
        "after": _db(suite, "after.sqlite", planted(dict.fromkeys(SLOWER, 3.0), (LOST,),
                                                    seed=2), folder),
        "again": _db(suite, "again.sqlite", planted({}, seed=3), folder),
        "loaded": _db(suite, "loaded.sqlite", planted(dict.fromkeys(FILES, 2.0), seed=4,
                                                      cpu_follows=False), folder),
    }


def _section(text: str, title: str, until: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(title))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(until))
    return lines[start:end]


def test_the_report_names_exactly_the_planted_slowdowns_after_the_status_change(dbs, cli):
    done = cli("report", dbs["before"], dbs["after"], "--fail-on-regression")
    assert done.returncode == 1, done.stderr
    text = done.stdout
    kinds = text.index("changed in kind: 1 (1 for the worse)")
    times = text.index("time: 2 tasks changed beyond noise, 3 the same")
    assert kinds < times < text.index("totals")
    changed = _section(text, "changed in kind", "time:")
    assert any("no longer solved" in line and LOST in line and "optimal" in line
               and "timeout" in line for line in changed)
    rows = [line for line in _section(text, "time:", "slower / faster")
            if line.startswith(("slower", "faster"))]
    assert sorted(line.split()[3] for line in rows) == list(SLOWER)
    # 3x planted, each run within 5 % of its time: the medians' ratio within 3 x 1.05/0.95
    assert all(line.split()[0] == "slower" and 2.7 < float(line.split()[1].rstrip("x")) < 3.4
               for line in rows), rows
    assert text.rstrip().splitlines()[-1] == "3 regressions: exit 1 (--fail-on-regression)"


def test_the_markdown_lists_the_same_and_says_the_rule(dbs, cli, tmp_path):
    done = cli("report", dbs["before"], dbs["after"], "--markdown", tmp_path / "c.md",
               "--latex", tmp_path / "c.tex", "--html", tmp_path / "c.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr  # no --fail-on-regression: reported, not failed
    md = (tmp_path / "c.md").read_text()
    assert md.index("## Changed in kind (1)") < md.index("## Time: 2 changed beyond noise")
    slower = [line for line in md.splitlines() if line.startswith("| slower")]
    assert sorted(line.split("|")[4].strip() for line in slower) == list(SLOWER)
    assert "every repeat of one side beyond every repeat of the other" in md
    tex = (tmp_path / "c.tex").read_text()
    assert tex.count("\\begin{tabular}") == 3 and "no longer solved" in tex
    page = (tmp_path / "c.html").read_text()
    assert page.count('data-changed="1"') == 2 and 'id="changes-table"' in page


@pytest.mark.parametrize("other", ["again", "loaded"])
def test_the_same_code_twice_is_no_change_beyond_noise(dbs, cli, other):
    done = cli("report", dbs["before"], dbs[other], "--fail-on-regression")
    assert done.returncode == 0, done.stdout
    assert "changed in kind: nothing" in done.stdout
    assert "time: no change beyond noise (6 tasks solved on both sides the same" in done.stdout
    if other == "loaded":  # twice the wall time, the same CPU time: said as the host's doing
        assert "the same; 6 of them slower or faster by wall time only: the host, not " \
            "the code)" \
            in " ".join(done.stdout.split())
    assert done.stdout.rstrip().splitlines()[-1] == "0 regressions"


def test_one_run_a_side_is_judged_by_its_ratio_on_a_quiet_host_and_not_on_a_busy_one(
        suite, tmp_path, cli):
    # the same code twice, each task once: B took three times the wall and CPU time of A
    before = _db(suite, "a.sqlite", planted({}, seed=5), tmp_path, repeat=1)
    after = _db(suite, "b.sqlite", planted(dict.fromkeys(FILES, 3.0), seed=6), tmp_path, repeat=1)
    for db in (before, after):
        _host(db, 0.4)
    quiet = cli("report", before, after, "--fail-on-regression")
    assert "time: 6 tasks changed beyond noise, 0 the same\n" in quiet.stdout
    assert quiet.stdout.count("slower (untested)") == 6 and quiet.returncode == 1
    _host(after, 5.0)   # B's host had a load of 5 on its 2 cores
    busy = cli("report", before, after, "--fail-on-regression")
    assert busy.returncode == 0, busy.stdout
    assert "warning: B: session 1 ran on a busy host" in busy.stdout
    assert ("time: no change beyond noise (6 tasks solved on both sides the same; 6 of them "
            "beyond 1.25x in too few runs on a busy host: not judged; run both again with "
            "--repeat 3 or more on a quiet host)") in " ".join(busy.stdout.split())


def test_a_timeout_on_a_busy_host_says_how_much_cpu_it_had(suite, tmp_path, cli):
    before = _db(suite, "a.sqlite", planted({}, seed=7), tmp_path, repeat=1)
    after = _db(suite, "b.sqlite", planted({}, (LOST,), seed=8, cpu_follows=False), tmp_path,
                repeat=1)
    _host(before, 0.4)
    _host(after, 6.0)
    text = " ".join(cli("report", before, after).stdout.split())
    found = re.search(rf"note: {LOST} · brute: timeout on a busy host after ([0-9.]+) ms of "
                      r"CPU in ([0-9.]+) ms", text)
    assert found, text
    # its planted CPU time (within 5 % of the base), in the wall time planted
    assert float(found[1]) == pytest.approx(BASE_S[LOST] * 1000, rel=0.06)


def test_threshold_moves_what_counts_as_slower(dbs, cli):
    done = cli("report", dbs["before"], dbs["after"], "--threshold", "4")
    assert "time: no change beyond noise" in done.stdout
    for bad in ("1", "0.5", "nan", "x"):
        refused = cli("report", dbs["before"], dbs["after"], "--threshold", bad)
        assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    one = cli("report", dbs["before"], "--fail-on-regression")
    assert one.returncode == 2
    assert one.stderr.strip() == ("twinsolve: report: --fail-on-regression compares two "
                                  "databases (A B); give two")
