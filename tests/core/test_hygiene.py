"""The suite's own hygiene check (conftest.working_folders_unchanged) really fails a run.

Each case runs pytest on a throwaway project in tmp_path: a copy of this
conftest.py and one test file, with the throwaway project as the working
folder, so what the throwaway test writes stays inside tmp_path. (A clean
run passing is shown by every run of the real suite.)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CONFTEST = Path(__file__).resolve().parents[1] / "conftest.py"

WRITES_THE_DEFAULT_DB = '''
from pathlib import Path

def test_forgets_bench_db():
    Path("twinsolve-bench.sqlite").write_bytes(b"runs")  # what `bench` without --db does
'''


def run_pytest(project: Path, test_text: str, *options: str) -> subprocess.CompletedProcess:
    (project / "tests").mkdir(parents=True)
    (project / "tests" / "conftest.py").write_text(CONFTEST.read_text())
    (project / "tests" / "test_throwaway.py").write_text(test_text)
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *options, "tests/test_throwaway.py"], cwd=project,
                          capture_output=True, text=True, timeout=120)


# 1: the check runs in an xdist worker (a pytest with xdist starting: long, so in the slow run)
@pytest.mark.parametrize("workers", ["0", pytest.param("1", marks=pytest.mark.slow)])
def test_a_test_writing_the_default_database_fails_the_run(tmp_path, workers):
    project = tmp_path / "project"
    proc = run_pytest(project, WRITES_THE_DEFAULT_DB, "-n", workers)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "1 passed, 1 error" in proc.stdout
    assert "a test wrote outside its tmp_path" in proc.stdout
    assert f"added {project / 'twinsolve-bench.sqlite'}" in proc.stdout

