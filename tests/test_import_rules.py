"""The layers of docs/architecture.md hold: what may import what, read from the source.

Every `import` and `from ... import` of every module under twinsolve/ (lazy ones
inside functions included) is resolved to a twinsolve module and checked:
- `search/` and `models/`, the engine and the encoding library, import nothing
  from `puzzles/`, `bench/` or `backends/`: they know no puzzle;
- a puzzle's folder never imports another puzzle's folder;
- a puzzle's `rules.py` imports only `core/` (and its own folder's formats);
- `bench/`, the harness, `generation/`, the generate / grade driver, and
  `pictures/`, the render / sheet layer, reach puzzles only through the
  registry: they import nothing from `puzzles/`;
- `core/`, the contracts, imports nothing above it: no puzzle, engine, library,
  harness or back-end (the registry names the puzzle folders as strings and
  imports them with `importlib`, which is no import statement);
- `robots/`, the stealth game, imports only `core/` and `search/` (the robots
  plan with the engine), and nothing below it imports the game.
A failure names the file, the line and the import.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "twinsolve"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, imported twinsolve module) for every import in the file."""
    package = _module_name(path) if path.name == "__init__.py" else \
        _module_name(path).rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from ..models import cave` imports a module too: keep the longer name
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return [(line, name) for line, name in found if name.startswith("twinsolve")]


def _layer(module: str) -> tuple[str, ...]:
    parts = module.split(".")
    return tuple(parts[1:3]) if len(parts) > 2 and parts[1] == "puzzles" else tuple(parts[1:2])


def _broken_rules(path: Path) -> list[str]:
    me = _module_name(path)
    mine = _layer(me)
    problems = []
    for line, name in _imports(path):
        theirs = _layer(name)
        where = f"{path.relative_to(ROOT)}:{line}: imports {name}"
        if mine[:1] in (("search",), ("models",)) and theirs[:1] in (
                ("puzzles",), ("bench",), ("backends",)):
            problems.append(f"{where} (the engine and the library know no puzzle or harness)")
        elif mine[:1] == ("puzzles",) and len(mine) == 2 and theirs[:1] == ("puzzles",) \
                and len(theirs) == 2 and theirs != mine:
            problems.append(f"{where} (a puzzle never imports another puzzle)")
        elif mine[:1] in (("bench",), ("generation",), ("pictures",)) \
                and theirs[:1] == ("puzzles",):
            problems.append(f"{where} (the harness sees puzzles only through the registry)")
        elif mine[:1] == ("core",) and theirs[:1] in (
                ("puzzles",), ("search",), ("models",), ("bench",), ("backends",)):
            problems.append(f"{where} (core imports nothing above it)")
        elif mine[:1] == ("robots",) and theirs[:1] not in (("core",), ("search",), ("robots",)):
            problems.append(f"{where} (the robots use the engine and core only)")
        elif mine[:1] in (("search",), ("models",), ("core",)) and theirs[:1] == ("robots",):
            problems.append(f"{where} (the engine and the library know no game)")
        if me.endswith(".rules") and mine[:1] == ("puzzles",) and theirs[:1] != ("core",) \
                and theirs != mine:
            problems.append(f"{where} (a puzzle's rules import only core)")
    return problems


FILES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_follow_the_layers(path):
    problems = _broken_rules(path)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("layer, source, problem", [
    ("search", "from ..puzzles.cave import rules\n",
     "twinsolve/search/leaky.py:1: imports twinsolve.puzzles.cave.rules "
     "(the engine and the library know no puzzle or harness)"),
    ("core", "def f():\n    from ..puzzles.cave import puzzlink\n",
     "twinsolve/core/leaky.py:2: imports twinsolve.puzzles.cave.puzzlink "
     "(core imports nothing above it)"),
    ("robots", "from ..search import fields\nfrom ..models import planning\n",
     "twinsolve/robots/leaky.py:2: imports twinsolve.models.planning "
     "(the robots use the engine and core only)"),
], ids=["engine-knows-no-puzzle", "core-below-everything", "robots-on-the-engine"])
def test_the_checker_names_an_offending_import(tmp_path, monkeypatch, layer, source, problem):
    fake = tmp_path / "twinsolve" / layer
    fake.mkdir(parents=True)
    (fake / "leaky.py").write_text(source)
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert _broken_rules(fake / "leaky.py") == [problem]
