"""Plugins: puzzles and back-ends declared by other packages, found through entry points
(`twinsolve.core.registry`, `twinsolve.core.declaration`).

Each test lays out an installed package in its own folder (the code, and a
`.dist-info` with the entry points, which is all `importlib.metadata` reads),
puts the folder on `sys.path` and reads the registry afresh. The puzzle, "parity",
is tiny but real: a row of bits; flip the fewest so that an even number are on.
"""

from __future__ import annotations

import importlib
import os
import sys
import textwrap
from pathlib import Path

import pytest

from twinsolve.cli import main
from twinsolve.core import registry
from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import load, run

RULES = '''
"""Parity: a row of bits; flip the fewest so that an even number of them are on."""
from dataclasses import dataclass
from twinsolve.core.errors import InstanceError
from twinsolve.core.result import Result, Stats, Status


@dataclass(frozen=True)
class Instance:
    PUZZLE = "parity"
    bits: str
    meta: tuple = ()


def parse(text, source=None):
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    if len(lines) != 2 or lines[0] != "parity" or set(lines[1]) - {"0", "1"}:
        raise InstanceError(source, 1, None, "expected 'parity' and a line of bits")
    return Instance(lines[1])


def format(instance):
    return f"parity\\n{instance.bits}\\n"


def verify(instance, solution):
    flips = solution.get("flips") if isinstance(solution, dict) else None
    if not isinstance(flips, list) or any(not isinstance(i, int) for i in flips):
        return ["flips must be a list of cell numbers"]
    if any(not 0 <= i < len(instance.bits) for i in flips) or len(set(flips)) != len(flips):
        return ["a flip is off the row or repeated"]
    return [] if (instance.bits.count("1") + len(flips)) % 2 == 0 else ["odd"]


def objective(instance, solution):
    return len(solution["flips"])


def render(instance, solution=None, width=None):
    return instance.bits


def brute(instance, limits):
    flips = [] if instance.bits.count("1") % 2 == 0 else [0]
    return Result(Status.OPTIMAL, {"flips": flips}, len(flips), None, Stats())
'''

HAND = '''
from twinsolve.core.result import Result, Stats, Status


def solve(instance, limits):
    flips = [] if instance.bits.count("1") % 2 == 0 else [0]
    return Result(Status.OPTIMAL, {"flips": flips}, len(flips), None, Stats(nodes=1))
'''

INIT = '''
from twinsolve.core.declaration import Absent, Backend, Puzzle

ENTRY = Puzzle("parity", "Parity", "parity_plugin.rules",
               (Backend("hand", "parity_plugin.hand:solve", "by counting"),
                Backend("brute", "parity_plugin.rules:brute", "tests", test_only=True)),
               sat_export=Absent("a row of bits needs no SAT solver"))
'''

CAVE_BACKENDS = '''
from twinsolve.core.declaration import Backend, BackendFor
from twinsolve.core.result import Result, Stats, Status

MINE = BackendFor(Backend("mine", "cave_extra:solve_by_hand", "someone's own Cave back-end"),
                  puzzles=("cave",))
WRONG = BackendFor(Backend("liar", "cave_extra:solve_wrong", "answers nonsense"),
                   puzzles=("cave",))


def solve_by_hand(instance, limits):
    from twinsolve.core.run import run
    return run(instance, "hand", limits).with_(stats=Stats(nodes=7))


def solve_wrong(instance, limits):
    rows = ["1" * instance.cols for _ in range(instance.rows)]
    return Result(Status.SOLVED, {"inside": rows}, None, None, Stats())
'''


def _install(site: Path, package: str, files: dict[str, str], points: dict[str, dict[str, str]],
             version: str = "0.1") -> None:
    """A package as pip leaves it: its code, and a dist-info naming its entry points."""
    for name, text in files.items():
        path = site / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    info = site / f"{package.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in named.items()) + "\n"
        for group, named in points.items()))


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A folder of installed plugins on sys.path; the registry read afresh, and again after."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    # The bench's worker processes see what is installed, as this process does.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [
        str(folder), os.environ.get("PYTHONPATH", "")])))

    def fresh() -> None:
        importlib.invalidate_caches()
        registry._table.cache_clear()
        registry._source_names.cache_clear()

    fresh()
    yield folder
    for name in [m for m in sys.modules if m.split(".")[0] in {"parity_plugin", "cave_extra",
                                                               "broken_plugin"}]:
        del sys.modules[name]
    monkeypatch.undo()
    fresh()


def _parity(site: Path, init: str = INIT, package: str = "parity-plugin") -> None:
    _install(site, package, {"parity_plugin/__init__.py": init, "parity_plugin/rules.py": RULES,
                             "parity_plugin/hand.py": HAND},
             {"twinsolve.puzzles": {"parity": "parity_plugin:ENTRY"}})


def test_a_plugin_puzzle_is_listed_with_its_origin_and_solved_and_verified(site, capsys):
    _parity(site)
    entry = registry.puzzle("parity")
    assert entry.origin == "parity-plugin 0.1" and registry.problems() == ()
    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    assert "parity (Parity)" in listed and "parity-plugin 0.1" in listed
    assert "none (no generator)" in listed
    result = run(load("parity\n101\n"), "hand", Limits(unique=False))
    assert result.status is Status.OPTIMAL and result.verified and result.objective == 0
    result = run(load("parity\n1101\n"), "hand")
    assert result.objective == 1 and result.verified
    assert [b.name for b in entry.backends][:2] == ["hand", "brute"]
    assert "cmd" in [b.name for b in entry.backends]  # back-ends for every puzzle come too


def test_a_capability_the_plugin_lacks_is_refused_in_one_line_naming_it(site, tmp_path,
                                                                        capsys):
    _parity(site)
    board = tmp_path / "b.txt"
    board.write_text("parity\n1101\n")
    cases = [(["render", str(board), "--out", str(tmp_path / "pics")], "parity has no pictures"),
             (["solve", str(board), "--svg", str(tmp_path / "b.svg")], "parity has no pictures"),
             (["export", str(board), "--cnf", str(tmp_path / "b.cnf")],
              "parity has no CNF export: a row of bits needs no SAT solver"),
             (["export", str(board), "--cpsat", str(tmp_path / "b.txt2")],
              "parity has no CP-SAT export"),
             (["generate", "parity", "--out", str(tmp_path / "gen")], "parity has no generator"),
             (["grade", str(board)], "parity has no generator")]
    for args, words in cases:
        assert main(args) == 2, args
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], (args, err)
    assert not (tmp_path / "pics").exists() and not (tmp_path / "b.cnf").exists()
    with pytest.raises(UsageError, match="parity has no summary mode"):
        registry.capability(registry.puzzle("parity"), "too_large")


def test_a_plugin_that_does_not_load_is_one_warning_and_the_rest_works(site, capsys):
    _install(site, "broken-plugin", {"broken_plugin/__init__.py": "raise RuntimeError('oops')\n"},
             {"twinsolve.puzzles": {"broken": "broken_plugin:ENTRY"}})
    _parity(site, INIT.replace("parity_plugin.hand:solve", "parity_plugin.hand:nowhere"))
    names = [entry.name for entry in registry.puzzles()]
    assert "parity" not in names and "broken" not in names and "cave" in names
    problems = registry.problems()
    assert problems == (
        "plugin 'broken' (broken-plugin 0.1): cannot load broken_plugin:ENTRY: "
        "RuntimeError: oops",
        "puzzle 'parity' (parity-plugin 0.1): parity_plugin.hand has no nowhere")
    assert capsys.readouterr().err.splitlines() == [f"twinsolve: warning: {p}" for p in problems]
    assert main(["list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-2:] == [f"left out: {line}" for line in problems]


@pytest.mark.parametrize("bad, words", [
    ('ENTRY = "parity"\n', "parity_plugin:ENTRY is not a Puzzle declaration"),
    (INIT.replace('"parity_plugin.rules"', '"parity_plugin.nosuch"'),
     "module parity_plugin.nosuch is not installed"),
    (INIT.replace('"parity", "Parity"', '"Parity Two", "Parity"'),
     "a puzzle's name is one lowercase word"),
    (INIT.replace(',\n               sat_export=Absent("a row of bits needs no SAT solver")',
                  ', picture="parity_plugin.missing"'),
     "module parity_plugin.missing is not installed"),
])
def test_a_wrong_declaration_is_left_out_naming_the_problem(site, bad, words):
    _parity(site, "from twinsolve.core.declaration import Absent, Backend, Puzzle\n" + bad)
    assert "parity" not in [entry.name for entry in registry.puzzles()]
    assert len(registry.problems()) == 1 and words in registry.problems()[0]


def test_a_plugin_never_takes_a_built_in_name(site):
    _parity(site, INIT.replace('Puzzle("parity"', 'Puzzle("cave"'), package="impostor")
    assert registry.puzzle("cave").origin == "built in"
    assert registry.puzzle("cave").rules_module == "twinsolve.puzzles.cave.rules"
    assert registry.problems() == ("puzzle 'cave' (impostor 0.1) left out: the name is taken "
                                   "by built in",)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_a_back_end_plugin_runs_next_to_the_puzzles_own_and_is_judged_by_verify(site, tmp_path,
                                                                                capsys):
    _install(site, "cave-extra", {"cave_extra.py": CAVE_BACKENDS},
             {"twinsolve.backends": {"mine": "cave_extra:MINE", "liar": "cave_extra:WRONG"}},
             version="2.5")
    cave = registry.puzzle("cave")
    assert {"mine", "liar"} <= {b.name for b in cave.backends}
    assert registry.backend_origin(cave, cave.backend("mine")) == "cave-extra 2.5"
    assert "mine" not in [b.name for b in registry.puzzle("chess").backends]
    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    assert any([cell.strip() for cell in line.split("│")[1:4]] == ["mine", "cave",
                                                                   "cave-extra 2.5"]
               for line in listed.splitlines())
    board = Path(__file__).resolve().parents[2] / "instances" / "cave" / "unique-06x06-seed1.txt"
    good = run(load(board), "mine")
    assert good.status is Status.SOLVED and good.verified and good.stats.nodes == 7
    bad = run(load(board), "liar")
    assert bad.status is Status.WRONG and bad.verified is False
    db = tmp_path / "b.sqlite"
    assert main(["bench", str(board), "--backends", "hand,mine,liar", "--db", str(db),
                 "--quiet", "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "liar" in out and "wrong" in out


def test_a_back_end_plugin_for_an_unknown_puzzle_or_a_taken_name_is_left_out(site):
    _install(site, "odd", {"odd_backends.py": "from twinsolve.core.declaration import Backend, "
                                              "BackendFor\n"
                                              "A = BackendFor(Backend('x', 'odd_backends:f', 'x'),"
                                              " puzzles=('nosuch',))\n"
                                              "B = BackendFor(Backend('hand', 'odd_backends:f', "
                                              "'x'), puzzles=('cave',))\n"
                                              "def f(instance, limits):\n    pass\n"},
             {"twinsolve.backends": {"a": "odd_backends:A", "b": "odd_backends:B"}})
    assert registry.problems() == (
        "back-end 'x' (odd 0.1): no puzzle 'nosuch' is registered",
        "back-end 'hand' (odd 0.1) left out: cave already has a back-end 'hand'")
    assert registry.puzzle("cave").backend("hand").target == "twinsolve.puzzles.cave.hand:solve"
    sys.modules.pop("odd_backends", None)
