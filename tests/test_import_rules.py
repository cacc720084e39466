"""The layers of docs/architecture.md hold: what may import what, read from the source.

Every `import` and `from ... import` of every module under twinsolve/ (lazy
ones inside functions and those under `TYPE_CHECKING` included, relative ones
resolved) is read with `ast` and checked against the page itself:
- the "knows" column of its layers table is an allow-list per layer: a module
  imports only its own layer (a puzzle: its own folder) and what its layer's
  row names in backticks (a folder: everything in it, `core`; a module:
  `robots.picture`; `__init__.py`: the package's own module, the API). A row
  that knows `anything` is the top (the CLI). So the engine and the library
  know no puzzle, no puzzle knows another, the harness, generation and
  pictures reach puzzles only through the registry, and nothing below the
  game imports it;
- a puzzle's `rules.py` imports only `core/` (and its own folder);
- nothing that does not know the game names it: the word `robots` (its header
  word, its folder) appears as a string only where the game is known;
- no import cycle: the graph of every module's imports has no strongly
  connected component of more than one module;
- `bench/` is in tiers (the bench row): data below the runners below the
  renderers below the commands, each importing only from its own tier and
  the tiers below.
A failure names the file, the line and the import (or, for a cycle, each
import that closes it). A known exception is listed below with why it is
there and what removes it; one that no longer occurs fails too, so the list
stays true.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import networkx as nx
import pytest
from conftest import ROOT

PACKAGE = ROOT / "twinsolve"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
TOP = "twinsolve"
GAME = "robots"  # the stealth game's folder and the header word of its level files

# (file, what) -> why it is allowed for now. Each is a fault to fix, not a rule.
KNOWN: dict[tuple[str, str], str] = {
}

# Frozen sets of modules whose cycle is known, each with why. None today.
KNOWN_CYCLES: dict[frozenset[str], str] = {}

# The bench row of docs/architecture.md: each tier imports only from itself and those before.
BENCH_TIERS = (
    ("data", {"records", "verdict", "database", "plan", "provenance", "repeats", "columns",
              "scores", "noise", "results", "comparison"}),
    ("runners", {"isolation", "worker", "execute", "dask_executor"}),
    ("renderers", {"tables", "terminal", "exports", "benchexec", "plots", "gallery",
                   "html_parts", "task_table", "html"}),
    ("commands", {"suite", "report", "compare"}),
)


# ------------------------------------------------------------------ reading the source

def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules(package: Path, root: Path = ROOT) -> dict[str, Path]:
    return {_module_name(path, root): path for path in sorted(package.rglob("*.py"))}


MODULES = _modules(PACKAGE)


@dataclass(frozen=True)
class Import:
    line: int
    name: str    # as imported, absolute: twinsolve.core.run.run
    module: str  # the module that is: twinsolve.core.run


def _resolved(name: str, modules: dict[str, Path]) -> str:
    """The longest prefix of `name` that is a module (`core.run.run` is a function of one)."""
    parts = name.split(".")
    while len(parts) > 1 and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts)


@cache
def _tree(path: Path) -> ast.Module:
    """The file's syntax tree (read once per run)."""
    return ast.parse(path.read_text(), str(path))


def _statements(node: ast.AST) -> Iterator[ast.stmt]:
    """Every statement in the tree, nested ones (in functions, classes, `if`, `try`, ...)
    included. An import is a statement, never part of an expression, so the expressions,
    most of a tree's nodes, need no visit."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case):
            if isinstance(child, ast.stmt):
                yield child
            yield from _statements(child)


def _imports(path: Path, root: Path = ROOT, modules: dict[str, Path] = MODULES) -> list[Import]:
    """Every import of a twinsolve module in the file, lazy ones included."""
    me = _module_name(path, root)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    names: list[tuple[int, str]] = []
    for node in _statements(_tree(path)):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from ..models import cave` imports a module too: keep the longer name
            names += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return [Import(line, name, _resolved(name, modules)) for line, name in sorted(names)
            if name == TOP or name.startswith(TOP + ".")]


# ------------------------------------------------------------------ the page's layers

@dataclass(frozen=True)
class Layer:
    key: str                 # as the table writes it: `core/`, `puzzles/<name>/`, `cli.py`
    prefix: str              # twinsolve.core, twinsolve.puzzles.<name>, twinsolve.cli
    knows: tuple[str, ...]   # what it may import besides itself, as module names
    anything: bool = False


def _dotted(token: str) -> str:
    """A path or dotted name of the table as a module name: `core/` -> twinsolve.core,
    `robots.picture` -> twinsolve.robots.picture, `__init__.py` -> twinsolve."""
    parts = token.strip().removesuffix("/").removesuffix(".py").replace("/", ".").split(".")
    parts = [part for part in parts if part and part != "__init__"]
    if parts[:1] == [TOP]:
        parts = parts[1:]
    return ".".join([TOP, *parts])


def _layers(text: str, modules: dict[str, Path] = MODULES) -> list[Layer]:
    """The rows of the `## Layers` table: each layer and the allow-list of its knows column
    (its backticked names that are twinsolve folders or modules; other words explain)."""
    section = text.split("\n## Layers\n", 1)[1].split("\n## ", 1)[0]
    layers = []
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        assert len(cells) == 3, f"docs/architecture.md: a layers row is not 3 cells: {line[:60]}"
        key = re.findall(r"`([^`]+)`", cells[0])[0]
        knows = tuple(_dotted(token) for token in re.findall(r"`([^`]+)`", cells[2])
                      if _dotted(token) in modules)
        layers.append(Layer(key, _dotted(key), knows, cells[2].startswith("anything")))
    return layers


LAYERS = _layers(ARCHITECTURE.read_text())


def _matches(prefix: str, module: str) -> str | None:
    """What of the package is `module`'s own, when it is in the layer of `prefix`: a folder
    (`<name>` filled with its puzzle folder), or a one-file layer's module; the package of
    the puzzle folders is in their layer, owning them."""
    want, have = prefix.split("."), module.split(".")
    if "<name>" in want and have == want[: want.index("<name>")]:
        return module
    if len(have) < len(want) or (want == [TOP] and have != want):
        return None
    filled = [h if w == "<name>" else w for w, h in zip(want, have, strict=False)]
    return ".".join(filled) if filled == have[: len(want)] else None


def _layer_of(module: str, layers: list[Layer] = LAYERS) -> tuple[Layer, str]:
    """The layer holding `module` (the most specific row) and its own part of the package."""
    found = [(layer, own) for layer in layers if (own := _matches(layer.prefix, module))]
    assert found, f"{module}: no row of docs/architecture.md's layers table holds it"
    return max(found, key=lambda pair: len(pair[0].prefix))


def _within(module: str, allowed: str) -> bool:
    """Whether `allowed` (a folder: all of it; a module, or the package's own `__init__`:
    itself) covers `module`."""
    return module == allowed or (allowed != TOP and module.startswith(allowed + "."))


# ------------------------------------------------------------------ the checks

@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    what: str
    why: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.what} ({self.why})"


def _knows_game(layer: Layer) -> bool:
    return layer.anything or _within(layer.prefix, f"{TOP}.{GAME}") or \
        any(_within(known, f"{TOP}.{GAME}") for known in layer.knows)


def _game_names(path: Path) -> list[int]:
    """The lines where the game's word stands as a string of its own."""
    if GAME not in path.read_text():  # most files: no need to visit every node
        return []
    return sorted(node.lineno for node in ast.walk(_tree(path))
                  if isinstance(node, ast.Constant) and node.value == GAME)


def _broken_rules(path: Path, root: Path = ROOT, layers: list[Layer] = LAYERS) -> list[Problem]:
    me = _module_name(path, root)
    layer, own = _layer_of(me, layers)
    file = str(path.relative_to(root))
    problems = []
    for found in _imports(path, root):
        what = f"imports {found.name}"
        allowed = layer.anything or _within(found.module, own) or \
            any(_within(found.module, known) for known in layer.knows)
        if not allowed:
            knows = ", ".join(k.removeprefix(TOP + ".") for k in layer.knows) or "nothing"
            problems.append(Problem(file, found.line, what,
                                    f"{layer.key} knows {knows} besides itself"))
        if me.endswith(".rules") and layer.key.startswith("puzzles/") and \
                not _within(found.module, f"{TOP}.core") and not _within(found.module, own):
            problems.append(Problem(file, found.line, what, "a puzzle's rules import only core"))
    if not _knows_game(layer):
        problems += [Problem(file, line, f"names {GAME!r}",
                             f"{layer.key} does not know the game: let it register its word")
                     for line in _game_names(path)]
    return problems


def _unexpected(problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if (p.file, p.what) not in KNOWN]


FILES = sorted(MODULES.values())


@cache
def _package_problems() -> tuple[Problem, ...]:
    """Every broken rule of every file of the package, read once per process: one test over
    the whole package, not one per file, because reading the files is the cost and a
    problem names its file and line anyway."""
    return tuple(problem for path in FILES for problem in _broken_rules(path))


def test_imports_follow_the_layers():
    problems = _unexpected(list(_package_problems()))
    assert not problems, "\n".join(map(str, problems))


def test_known_exceptions_still_occur():
    """A known exception that was fixed leaves the list, so the list says what is true."""
    found = {(p.file, p.what) for p in _package_problems()}
    stale = [f"{file}: {what}" for file, what in KNOWN if (file, what) not in found]
    assert not stale, "fixed, so remove from KNOWN: " + "; ".join(stale)


def _graph(modules: dict[str, Path], root: Path = ROOT) -> nx.DiGraph:
    """Module -> imported module, each edge with the file and line of its first import."""
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for module, path in modules.items():
        for found in _imports(path, root, modules):
            if found.module != module and not graph.has_edge(module, found.module):
                graph.add_edge(module, found.module,
                               where=f"{path.relative_to(root)}:{found.line}: imports {found.name}")
    return graph


def _cycles(graph: nx.DiGraph) -> dict[frozenset[str], list[str]]:
    """Each set of modules that import one another, with the imports of one cycle through it."""
    cycles = {}
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1:
            edges = nx.find_cycle(graph.subgraph(component))
            cycles[frozenset(component)] = [graph.edges[a, b]["where"] for a, b in edges]
    return cycles


def test_no_import_cycle():
    cycles = _cycles(_graph(MODULES))
    unexpected = [f"import cycle among {', '.join(sorted(modules))}:\n  " + "\n  ".join(edges)
                  for modules, edges in cycles.items() if modules not in KNOWN_CYCLES]
    assert not unexpected, "\n".join(unexpected)
    stale = [", ".join(sorted(modules)) for modules in KNOWN_CYCLES if modules not in cycles]
    assert not stale, "fixed, so remove from KNOWN_CYCLES: " + "; ".join(stale)


def test_bench_tiers_point_down():
    """Data below the runners below the renderers below the commands, never back up."""
    rank = {f"{TOP}.bench.{name}": index for index, (_, names) in enumerate(BENCH_TIERS)
            for name in names}
    bench = {m: p for m, p in MODULES.items() if m.startswith(f"{TOP}.bench.")}
    assert set(bench) == set(rank), (f"bench modules in no tier: {sorted(set(bench) - set(rank))}"
                                     f"; tiers naming no module: {sorted(set(rank) - set(bench))}")
    problems = [f"{path.relative_to(ROOT)}:{found.line}: imports {found.name} (bench's "
                f"{BENCH_TIERS[rank[module]][0]} import nothing of its "
                f"{BENCH_TIERS[rank[found.module]][0]})"
                for module, path in bench.items() for found in _imports(path)
                if rank.get(found.module, -1) > rank[module]]
    assert not problems, "\n".join(problems)


def test_every_layer_has_a_row():
    """The table covers the package: a new folder needs its row (and its allow-list)."""
    for module in MODULES:
        _layer_of(module)
    assert {"core/", "search/", "models/", "puzzles/<name>/", "bench/", "pictures/",
            "robots/", "cli.py"} <= {layer.key for layer in LAYERS}


# ------------------------------------------------------------------ the checker itself

@pytest.mark.parametrize("layer, source, problem", [
    ("search", "from ..puzzles.cave import rules\n",
     "twinsolve/search/leaky.py:1: imports twinsolve.puzzles.cave.rules "
     "(search/ knows core besides itself)"),
    ("core", "def f():\n    from ..puzzles.cave import puzzlink\n",
     "twinsolve/core/leaky.py:2: imports twinsolve.puzzles.cave.puzzlink "
     "(core/ knows nothing besides itself)"),
    ("robots", "from ..search import fields\nfrom ..models import planning\n",
     "twinsolve/robots/leaky.py:2: imports twinsolve.models.planning "
     "(robots/ knows core, search, graphics, files besides itself)"),
    ("puzzles/cave", "from ..mirror.rules import Instance\n",
     "twinsolve/puzzles/cave/leaky.py:1: imports twinsolve.puzzles.mirror.rules.Instance "
     "(puzzles/<name>/ knows core, search, models, graphics, files, system, explain.steps, "
     "explain.state, explain.regions, explain.plans, explain.cellwise besides itself)"),
    ("pictures", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                 "    from ..robots.play import load\n",
     "twinsolve/pictures/leaky.py:3: imports twinsolve.robots.play.load "
     "(pictures/ knows core, graphics, files, robots.level, robots.picture besides itself)"),
    ("core", "HEADERS = ('robots',)\n",
     "twinsolve/core/leaky.py:1: names 'robots' "
     "(core/ does not know the game: let it register its word)"),
], ids=["engine-knows-no-puzzle", "core-below-everything", "robots-on-the-engine",
        "no-other-puzzle", "type-checking-counts", "core-names-no-game"])
def test_the_checker_names_an_offending_import(tmp_path, layer, source, problem):
    fake = tmp_path / "twinsolve" / layer
    fake.mkdir(parents=True)
    (fake / "leaky.py").write_text(source)
    assert [str(p) for p in _broken_rules(fake / "leaky.py", root=tmp_path)] == [problem]


def test_the_checker_allows_what_the_rows_name(tmp_path):
    fake = tmp_path / "twinsolve" / "bench"
    fake.mkdir(parents=True)
    (fake / "fine.py").write_text("from ..core.run import run\nfrom ..pictures.draw import draw\n"
                                  "from .records import RunRecord\n")
    assert _broken_rules(fake / "fine.py", root=tmp_path) == []


def test_the_cycle_check_sees_lazy_and_relative_imports(tmp_path):
    package = tmp_path / "twinsolve"
    (package / "bench").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "bench" / "__init__.py").write_text("")
    (package / "bench" / "a.py").write_text("def f():\n    from .b import g\n")
    (package / "bench" / "b.py").write_text("from . import c\n")
    (package / "bench" / "c.py").write_text("import twinsolve.bench.a\n")
    cycles = _cycles(_graph(_modules(package, tmp_path), tmp_path))
    assert list(cycles) == [frozenset({"twinsolve.bench.a", "twinsolve.bench.b",
                                       "twinsolve.bench.c"})]
    assert sorted(next(iter(cycles.values()))) == [
        "twinsolve/bench/a.py:2: imports twinsolve.bench.b.g",
        "twinsolve/bench/b.py:1: imports twinsolve.bench.c",
        "twinsolve/bench/c.py:1: imports twinsolve.bench.a"]


def test_the_table_is_read_as_allow_lists():
    layers = {layer.key: layer for layer in LAYERS}
    assert layers["search/"].knows == ("twinsolve.core",)
    assert layers["core/"].knows == ()
    assert layers["cli.py"].anything
    assert _layer_of("twinsolve.puzzles.cave.rules")[1] == "twinsolve.puzzles.cave"
    assert _layer_of("twinsolve")[0].key == "__init__.py"


# ------------------------------------------------------------------ no puzzle named

# The layers that reach puzzles only through the registry: none of them names one, so a
# puzzle is added or removed by its declaration alone.
REGISTRY_ONLY = ("cli.py", "bench", "core", "generation", "pictures", "backends")


def test_no_puzzle_is_named_where_puzzles_come_from_the_registry():
    from twinsolve.core.registry import puzzles

    names = "|".join(entry.name for entry in puzzles())
    # A word of its own: "wall-clock" or "clockwise" is no puzzle's name.
    word = re.compile(rf"(?<![\w-])({names})(?![\w-])")
    found = []
    for part in REGISTRY_ONLY:
        root = ROOT / "twinsolve" / part
        for path in sorted([root] if root.is_file() else root.rglob("*.py")):
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                for match in word.finditer(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(1)}")
    assert not found, "\n".join(found)
