"""A newcomer's path, for real: twinsolve and a plugin from `twinsolve new puzzle`, each
installed by pip into a fresh virtual environment, then the commands and the plugin's own
tests run there (issue 24's "done when"). Slow: about half a minute.

How the environment is built, and why. A fresh `python -m venv` has nothing
installed, and installing twinsolve's dependencies (OR-Tools, PySAT, numpy,
matplotlib, ...) would need the network and minutes. So the new environment
gets one `.pth` file that adds the running interpreter's site folders
(`site.addsitedir`, so their own `.pth` files, an editable install's among
them, work too): the dependencies are visible, already installed. Then, in
that environment:
- `pip install --no-index --no-build-isolation` of a copy of this project
  (a copy: pip builds in the source folder, and a test writes only under its
  tmp_path). The environment's own site folder comes first on `sys.path`, so
  its twinsolve, with its console script and the template as package data,
  is the one that runs, not the one the `.pth` makes visible;
- `twinsolve new puzzle stars --out plugin`, then `pip install -e 'plugin[test]'`
  the same way: `--no-index` (pip may not reach the network: it checks that
  `twinsolve`, pytest and hypothesis are there) and no build isolation
  (setuptools, and `wheel` for setuptools before 70.1, must be importable
  here: the test extra of twinsolve names them).
Every command runs with the environment's `bin/` first on PATH, as after
`source bin/activate`, in tmp_path.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow


def _builds_without_network() -> str | None:
    """Why pip could not build a package here without the network, or None."""
    if importlib.util.find_spec("setuptools") is None:
        return "setuptools is not installed"
    import setuptools

    major_minor = tuple(int(part) for part in setuptools.__version__.split(".")[:2])
    if major_minor < (70, 1) and importlib.util.find_spec("wheel") is None:
        return f"setuptools {setuptools.__version__} builds wheels only with 'wheel' installed"
    return None


def _site_folders() -> list[str]:
    folders = [*site.getsitepackages(), site.getusersitepackages()]
    return [folder for folder in dict.fromkeys(folders) if os.path.isdir(folder)]


def _environment(folder: Path) -> Path:
    """A fresh virtual environment at `folder` that sees this interpreter's packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True,
                   capture_output=True, timeout=120)
    python = folder / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"], check=True,
                             capture_output=True, text=True, timeout=60).stdout.strip()
    lines = "".join(f"import site; site.addsitedir({folder!r})\n" for folder in _site_folders())
    (Path(purelib) / "_outer_site.pth").write_text(lines)
    return python


def _copy_of_the_project(target: Path) -> Path:
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
    shutil.copytree(ROOT / "twinsolve", target / "twinsolve", ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, target / name)
    return target


def test_a_new_plugin_installs_and_works_in_a_fresh_environment(tmp_path):
    why = _builds_without_network()
    if why:
        pytest.skip(f"pip cannot build without the network here: {why}")
    python = _environment(tmp_path / "venv")
    env = {**{k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")},
           "PATH": f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "VIRTUAL_ENV": str(tmp_path / "venv"), "COLUMNS": "200",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_CACHE_DIR": "1"}

    def run(*args: str | Path, cwd: Path = tmp_path, code: int = 0) -> str:
        done = subprocess.run([str(arg) for arg in args], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == code, f"{args}: {done.stdout}\n{done.stderr}"
        assert "Traceback" not in done.stderr, done.stderr
        return done.stdout

    pip = [python, "-m", "pip", "install", "--no-index", "--no-build-isolation"]
    run(*pip, _copy_of_the_project(tmp_path / "twinsolve-clone"))
    twinsolve = tmp_path / "venv" / "bin" / "twinsolve"
    where = run(python, "-c", "import twinsolve; print(twinsolve.__file__)")
    assert where.startswith(str(tmp_path / "venv")), where
    run(twinsolve, "new", "puzzle", "stars", "--out", "plugin")
    run(*pip, "-e", f"{tmp_path / 'plugin'}[test]")

    listed = run(twinsolve, "list")
    assert any("stars (Star Battle)" in line and "twinsolve-stars 0.1.0" in line
               for line in listed.splitlines()), listed
    assert "left out" not in listed
    answers = [json.loads(line) for line in run(twinsolve, "solve", "plugin/instances", "--all",
                                                 "--unique", "--json").splitlines()]
    assert len(answers) == 9
    assert all(a["status"] == "solved" and a["unique"] and a["verified"] for a in answers)
    shown = run(twinsolve, "solve", "plugin/instances/hard-08x08.txt")
    assert "hand: solved, verified" in shown
    benched = run(twinsolve, "bench", "plugin/instances", "--db", "bench.sqlite", "--jobs", "1",
                  "--quiet")
    assert "virtual best" in benched
    assert "wrote 3 pictures" in run(twinsolve, "render", "plugin/instances", "--out", "pics",
                                     "--solution")
    run(twinsolve, "export", "plugin/instances/easy-05x05.txt", "--cnf", "e.cnf", "--cpsat",
        "e.pbtxt")
    assert (tmp_path / "e.cnf").read_text().count("\n") > 100
    run(twinsolve, "generate", "stars", "--difficulty", "hard", "--size", "7x7", "--out", "more",
        "--quiet")
    refused = subprocess.run([twinsolve, "generate", "stars", "--size", "3x3", "--out", "x"],
                             cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "smaller grids have no solution" in refused.stderr
    graded = run(twinsolve, "grade", "more")
    assert graded.startswith("more/stars-hard-7x7-s0-01.txt: hard  (techniques"), graded
    run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=tmp_path / "plugin")
