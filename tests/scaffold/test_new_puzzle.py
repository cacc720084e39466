"""`twinsolve new puzzle NAME --out DIR` (twinsolve.scaffold): the plugin template works.

Like Tatham's `nullgame.c`, the template is built on every test run so it
cannot go stale: it is written into tmp_path and installed the way pip
leaves a package (its folder on sys.path, a hand-made `.dist-info` naming its
entry point, as `tests/core/test_plugins.py` does), then the contract kit and
the commands run on it in this process. `test_new_puzzle_venv.py` (slow) does
the real thing: a fresh virtual environment and `pip install -e`.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import dist_info

from twinsolve import scaffold
from twinsolve.core import registry
from twinsolve.core.errors import UsageError
from twinsolve.testing import CHECKS

NAME = "stars"


def _entry_points(plugin: Path) -> dict[str, dict[str, str]]:
    """The entry points the plugin's pyproject.toml declares, as pip would install them."""
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11")
    project = tomllib.loads((plugin / "pyproject.toml").read_text())["project"]
    return project["entry-points"]


@pytest.fixture
def plugin(tmp_path, cli, plugins) -> Path:
    """The template written as the puzzle `stars` into tmp_path/plugin and installed."""
    folder = tmp_path / "plugin"
    done = cli("new", "puzzle", NAME, "--out", folder, cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "pip install -e" in done.stdout and "docs/writing-a-puzzle.md" in done.stdout
    points = _entry_points(folder)
    assert points == {"twinsolve.puzzles": {NAME: "twinsolve_stars:ENTRY"}}
    dist_info(tmp_path / "site", "twinsolve-stars", points, version="0.1.0")
    plugins(folder)
    plugins(tmp_path / "site")
    return folder


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_template_passes_the_contract_kit(plugin):
    entry = registry.puzzle(NAME)
    assert entry.origin == "twinsolve-stars 0.1.0" and registry.problems() == ()
    assert entry.rules_module == "twinsolve_stars.rules" and not entry.optimisation
    for check in CHECKS:
        check(NAME)


def test_the_examples_in_its_docstrings_hold(plugin):
    tried = 0
    for name in ("rules", "hand", "models", "generate", "picture", "strategies"):
        result = doctest.testmod(importlib.import_module(f"twinsolve_stars.{name}"))
        assert result.failed == 0, name
        tried += result.attempted
    assert tried >= 5


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_commands_work_on_the_new_puzzle(plugin, tmp_path, cli):
    listed = cli("list")
    assert listed.returncode == 0
    assert re.search(r"stars \(Star Battle\) +│ twinsolve-stars 0\.1\.0 +│ easy, medium, hard",
                     listed.stdout), listed.stdout
    instances = plugin / "instances"
    solved = cli("solve", instances, "--all", "--unique", "--json")
    assert solved.returncode == 0, solved.stderr
    answers = [json.loads(line) for line in solved.stdout.splitlines()]
    assert len(answers) == 9 and {a["backend"] for a in answers} == {"hand", "cpsat", "sat"}
    assert all(a["status"] == "solved" and a["unique"] and a["verified"] for a in answers)
    benched = cli("bench", instances, "--db", tmp_path / "b.sqlite", "--jobs", "1", "--quiet")
    assert benched.returncode == 0, benched.stderr
    assert re.search(r"^sat +3 +3 ", benched.stdout, re.M), benched.stdout
    easy = instances / "easy-05x05.txt"
    assert cli("render", instances, "--out", tmp_path / "pics", "--solution").returncode == 0
    assert sorted(p.name for p in (tmp_path / "pics").iterdir()) == [
        "easy-05x05-solution.svg", "hard-08x08-solution.svg", "medium-06x06-solution.svg"]
    exported = cli("export", easy, "--cnf", tmp_path / "e.cnf", "--cpsat", tmp_path / "e.pbtxt")
    assert exported.returncode == 0, exported.stderr
    assert "p cnf 25 " in (tmp_path / "e.cnf").read_text()
    graded = cli("grade", instances)
    assert graded.returncode == 0 and "easy 1, medium 1, hard 1" in graded.stdout


def test_the_shipped_puzzles_are_what_their_source_line_says(plugin, tmp_path, cli):
    """Each file of instances/ says which `generate` made it: that command still does."""
    for path in sorted((plugin / "instances").glob("*.txt")):
        made = path.read_text().splitlines()[0].removeprefix("# source: twinsolve ").split()
        out = tmp_path / path.stem
        assert cli(*made, "--out", out, "--quiet").returncode == 0
        (again,) = out.iterdir()
        grid = [line for line in path.read_text().splitlines() if not line.startswith("#")]
        assert [line for line in again.read_text().splitlines()
                if not line.startswith("#")] == grid, path.name


def test_every_placeholder_is_filled_and_names_follow_the_puzzle():
    files = scaffold.rendered("my_stars2")
    assert "twinsolve_my_stars2/__init__.py" in files and "pyproject.toml" in files
    assert not [name for name, text in files.items() if "{{" in text or "}}" in text]
    assert 'my_stars2 = "twinsolve_my_stars2:ENTRY"' in files["pyproject.toml"]
    assert 'name = "twinsolve-my_stars2"' in files["pyproject.toml"]
    assert files["instances/easy-05x05.txt"].splitlines()[4] == "my_stars2 5 5"


# ruff of this environment (the test extra's), as `python -m ruff`: found whether or not
# its scripts folder is on PATH
@pytest.mark.skipif(importlib.util.find_spec("ruff") is None, reason="ruff is not installed")
def test_the_written_code_is_ruff_clean(tmp_path):
    scaffold.new_puzzle(NAME, tmp_path / "plugin")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--select",
                           "E,F,W,I,B,UP", "--line-length", "100", "."],
                          cwd=tmp_path / "plugin", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("name, words", [
    ("Stars", "'Stars' is not a puzzle name: one lowercase word"),
    ("9lives", "is not a puzzle name"),
    ("my-puzzle", "is not a puzzle name"),
    ("x" * 41, "is not a puzzle name"),
    ("cave", "the name 'cave' is taken by the puzzle Cave (Corral) (built in)"),
    ("robots", "the name 'robots' is taken: it is the header of"),
])
def test_a_bad_or_taken_name_is_refused_in_one_line(tmp_path, cli, name, words):
    done = cli("new", "puzzle", name, "--out", tmp_path / "p", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr
    assert not (tmp_path / "p").exists()


def test_a_folder_that_is_not_empty_or_a_file_is_refused_and_left_as_it_was(tmp_path, cli):
    full = tmp_path / "full"
    full.mkdir()
    (full / "notes.txt").write_text("mine")
    file = tmp_path / "file"
    file.write_text("mine")
    for out, words in ((full, "is not empty; name a new or empty folder"),
                       (file, "it is a file, not a folder")):
        done = cli("new", "puzzle", NAME, "--out", out, cwd=tmp_path)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr
    assert [p.name for p in full.iterdir()] == ["notes.txt"] and file.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "full"]
    done = cli("new", "thing", NAME, "--out", tmp_path / "p")
    assert done.returncode == 2 and "invalid choice: 'thing'" in done.stderr


def test_an_empty_folder_or_a_link_to_one_is_filled_and_stays_the_same_folder(tmp_path, cli):
    empty = tmp_path / "empty"
    empty.mkdir()
    link = tmp_path / "link"
    (tmp_path / "target").mkdir()
    link.symlink_to(tmp_path / "target")
    here = tmp_path / "here"
    here.mkdir()
    folders = {out: out.stat().st_ino for out in (empty, link, here)}
    for out in (empty, link):
        written = scaffold.new_puzzle(NAME, out)
        assert (out / "twinsolve_stars" / "rules.py") in written
    assert cli("new", "puzzle", NAME, "--out", ".", cwd=here).returncode == 0
    for out, inode in folders.items():
        assert out.stat().st_ino == inode  # filled, not replaced
        assert sorted(p.name for p in out.iterdir()) == [
            "README.md", "instances", "pyproject.toml", "tests", "twinsolve_stars"]
    assert sorted(os.listdir(".")) == sorted(p.name for p in here.iterdir())  # still here
    assert link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "here", "link", "target"]


def test_a_failure_while_filling_a_folder_leaves_it_empty(tmp_path, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    real, calls = os.replace, []

    def failing(source, target):  # the third move into the folder fails
        if Path(target).parent == empty:
            calls.append(target)
            if len(calls) == 3:
                raise OSError(28, "No space left on device")
        return real(source, target)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(UsageError, match="cannot write .*empty: No space left on device"):
        scaffold.new_puzzle(NAME, empty)
    assert len(calls) == 3 and list(empty.iterdir()) == []


def test_a_write_that_fails_part_way_leaves_nothing(tmp_path, monkeypatch):
    real = scaffold.new.write_text
    calls = []

    def failing(path, text):
        calls.append(path)
        if len(calls) == 3:
            raise UsageError(f"cannot write {path}: No space left on device")
        return real(path, text)

    monkeypatch.setattr(scaffold.new, "write_text", failing)
    with pytest.raises(UsageError, match="No space left on device"):
        scaffold.new_puzzle(NAME, tmp_path / "plugin")
    assert len(calls) == 3 and list(tmp_path.iterdir()) == []

