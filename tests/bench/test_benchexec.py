"""The BenchExec export (`report --benchexec DIR`) read by BenchExec's own `table-generator`.

Issue 25: twinsolve's runs in the files BenchExec users already have tools
for. The database comes from the harness (two boards, one with a solution
and one without, `brute` and the test back-end `fault-wrong`, two repeats);
BenchExec's real table-generator (from PyPI, in the test extra) must read
every file, line the run sets up task by task with the values twinsolve
stored, and count in its statistics rows exactly the correct and the wrong
answers twinsolve judged.
"""

from __future__ import annotations

import csv
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import in_process

from twinsolve.bench.plan import Budget
from twinsolve.bench.report import report
from twinsolve.bench.suite import SuiteConfig, run_suite

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("benchexec") is None,
    reason="BenchExec is not installed (pip install benchexec; the test extra has it)")

BOARDS = {"has-one.txt": "lightsout 2 3\n011\n100\n",   # brute: optimal
          "has-none.txt": "lightsout 2 3\n001\n100\n"}  # brute: unsat
STATISTIC = re.compile(r"\\StoreBenchExecResult\{[^}]*\}\{([^}]*)\}\{Status\}\{(Correct|Wrong)\}"
                       r"\{(True|False|)\}\{Count\}\{(\d+)\}")


def _table_generator(files: list[Path], out: Path) -> subprocess.CompletedProcess[str]:
    command = "import sys; from benchexec.tablegenerator import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", command, "--outputpath", str(out), "--name",
                           "t", "--format", "csv", "--format", "statistics-tex",
                           *map(str, files)], capture_output=True, text=True, timeout=120,
                          cwd=out.parent)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_table_generator_reads_every_backend_and_counts_as_twinsolve(tmp_path: Path):
    suite = tmp_path / "suite"
    suite.mkdir()
    for name, text in BOARDS.items():
        (suite / name).write_text(text)
    db = tmp_path / "r.sqlite"
    run_suite(SuiteConfig([suite], ["brute", "fault-wrong"], Budget(timeout=5), repeat=2, db=db),
              executor=in_process)
    files = list(report(db, benchexec=tmp_path / "xml").written)
    assert sorted(p.name for p in files) == ["r-brute.r1.xml", "r-brute.xml",
                                             "r-fault-wrong.r1.xml", "r-fault-wrong.xml"]

    done = _table_generator(sorted(files), tmp_path / "tables")
    assert done.returncode == 0, done.stderr[-2000:]
    with open(tmp_path / "tables" / "t.table.csv", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t"))
    run_sets, titles, tasks = rows[1], rows[2], rows[3:]
    assert sorted(set(run_sets[1:])) == ["brute", "brute repeat 1", "fault-wrong",
                                         "fault-wrong repeat 1"]
    assert sorted(task[0] for task in tasks) == sorted(BOARDS)
    by_task = {task[0]: {(s, t): v for s, t, v in zip(run_sets, titles, task, strict=True)}
               for task in tasks}
    # in-process runs are recorded at 10 ms of wall and CPU time (conftest.in_process)
    brute = by_task["has-one.txt"]
    assert (brute["brute", "status"], brute["brute", "answer"]) == ("true", "optimal")
    assert brute["brute", "walltime (s)"] == brute["brute", "cputime (s)"] == "0.010000"
    assert by_task["has-none.txt"]["brute", "status"] == "false(unsat)"
    assert by_task["has-none.txt"]["fault-wrong", "answer"] == "wrong"

    counts = {(run_set, kind, side): int(n) for run_set, kind, side, n in
              STATISTIC.findall((tmp_path / "tables" / "t.table.statistics.tex").read_text())}
    for run_set in ("Brute", "BruteRepeatI"):   # BenchExec's names: camel case, roman numerals
        assert counts[run_set, "Correct", "True"] == counts[run_set, "Correct", "False"] == 1
        assert counts[run_set, "Wrong", ""] == 0
    for run_set in ("FaultWrong", "FaultWrongRepeatI"):
        assert counts[run_set, "Correct", ""] == 0 and counts[run_set, "Wrong", "True"] == 2
