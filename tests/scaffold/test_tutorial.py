"""docs/writing-a-puzzle.md, section 7, holds: its back-end plugin works as printed.

The page's complete example (a Lights Out back-end by light chasing, shipped
from its own package through the entry point `twinsolve.backends`) is read
from the page itself, its files written into tmp_path and installed the way
pip leaves a package (as `tests/core/test_plugins.py` does); then the
commands the page prints after it run, as written, here. So the page cannot
drift from what works. (Sections 1 to 6, the `twinsolve new puzzle` path, are
run for real by `test_new_puzzle_venv.py`.)
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from conftest import ROOT, dist_info

from twinsolve import testing
from twinsolve.core import registry

PAGE = ROOT / "docs" / "writing-a-puzzle.md"
SECTION = PAGE.read_text().split("## 7. ", 1)[1].split("\n## ", 1)[0]


def _files() -> dict[str, str]:
    """The example's files: each fenced block whose first line is a comment naming one."""
    return {path: f"# {path}\n{body}" for path, body in
            re.findall(r"```(?:toml|python)\n# (lightsout-chase/\S+)\n(.*?)```", SECTION, re.S)}


def _commands() -> list[list[str]]:
    """The `twinsolve ...` lines of the section's shell block (comments dropped)."""
    block = re.search(r"```bash\n(.*?)```", SECTION, re.S).group(1)
    return [shlex.split(line, comments=True) for line in block.splitlines()
            if line.startswith("twinsolve ")]


@pytest.fixture
def chase(tmp_path, plugins) -> Path:
    """The page's package, installed."""
    files = _files()
    assert sorted(files) == ["lightsout-chase/lightsout_chase.py",
                             "lightsout-chase/pyproject.toml"]
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11")
    project = tomllib.loads(files["lightsout-chase/pyproject.toml"])["project"]
    dist_info(tmp_path / "site", project["name"], project["entry-points"], project["version"])
    plugins(tmp_path / "lightsout-chase")
    plugins(tmp_path / "site")
    return tmp_path


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_pages_back_end_runs_as_the_page_says(chase, cli):
    assert registry.problems() == ()
    cave = [b.name for b in registry.puzzle("cave").backends]
    assert "chase" in [b.name for b in registry.puzzle("lightsout").backends]
    assert "chase" not in cave
    commands = _commands()
    assert [words[1] for words in commands] == ["list", "generate", "generate", "solve", "bench"]
    listed, *made, solved, benched = (cli(*words[1:], cwd=chase) for words in commands)
    assert listed.returncode == 0
    assert any([cell.strip() for cell in line.split("│")[1:4]]
               == ["chase", "lightsout", "lightsout-chase 0.1.0"]
               for line in listed.stdout.splitlines()), listed.stdout
    assert [done.returncode for done in made] == [0, 0]
    assert solved.returncode == 0
    assert len(re.findall(r"^chase: optimal, objective \d+, \d+ solution\(s\), verified",
                          solved.stdout, re.M)) == 3, solved.stdout
    assert "chase: unsupported" in solved.stdout
    assert "chase plays the plain game only (no torus, sigma or mod K)" in solved.stdout
    assert benched.returncode == 0 and (chase / "chase.sqlite").is_file()
    assert re.search(r"^chase +4 +3 ", benched.stdout, re.M), benched.stdout


@pytest.mark.slow
def test_the_pages_back_end_agrees_with_brute_force(chase):
    """What the page says the kit checks: every default back-end of Lights Out, chase among
    them, against brute force on small boards (about ten seconds)."""
    testing.backends_agree("lightsout")
