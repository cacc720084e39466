"""Shared test fixtures: where the reference corpus lives, and how to skip without it.

The corpus (`../shared/corpus` from the project root, or $TWINSOLVE_CORPUS)
holds real puzzles and published figures. It is read in place, never copied.
In a user's own clone it may be absent: tests that need it skip and say why.

Hygiene: a test writes only under its tmp_path. `working_folders_unchanged`
(session-wide, automatic) compares the project root, the working folder and
instances/ before and after; any file added, removed or modified there fails
the run. Caches are not a test's doing and are left out: __pycache__,
.pytest_cache, .ruff_cache and .hypothesis (hypothesis keeps its caches in
the working folder; its example database is off, as `derandomize` implies).

Speed: the README's test command (the install, then the default run) stays under
3 minutes on 2 cores (.ci/run warns past that). A command runs in the test's
process (`cli`) unless the real process is the point (`twinsolve`: exit codes of
signals, no traceback on stderr, a pool, a terminal); a bench database whose
pool is not the point is made by `in_process`; an exhaustive family keeps a
representative in the default run and the rest under `slow` (`sampled`); and a
test taking more than about a second on the slow 2-core machine (end to end in
real processes or a browser, or against brute force on many random cases) runs
under `slow` (`@pytest.mark.slow  # long: ...`), cheaper tests of the same code
staying in the default run. `pytest --durations=50` names the candidates.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("TWINSOLVE_CORPUS", ROOT.parent / "shared" / "corpus"))

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def corpus_path(*parts: str) -> Path:
    """A path inside the corpus; skips the calling test when it is not there."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"reference corpus not found at {path} (set TWINSOLVE_CORPUS or place "
                    "the shared/ folder beside the project)")
    return path


def assert_bad_file(folder: Path, name: str, data: bytes, line: int | None,
                    column: int | None, words: str) -> None:
    """Loading `data` from a file fails with an InstanceError naming the file, the line,
    the column and the problem (`words`): the bad-input contract every puzzle shares."""
    from twinsolve.core.errors import InstanceError
    from twinsolve.core.run import load_file

    path = folder / f"{name}.txt"
    path.write_bytes(data)
    with pytest.raises(InstanceError) as caught:
        load_file(path)
    error = caught.value
    assert (error.source, error.line, error.column) == (str(path), line, column)
    assert words in error.message


def assert_cli_refuses_file(run: Callable[..., subprocess.CompletedProcess[str]], folder: Path,
                            name: str, data: bytes, line: int) -> None:
    """`twinsolve solve` on a bad file, run by `run` (the `cli` fixture, or `twinsolve` for
    a real process): exit 2, one line on stderr naming the file and the line, no traceback,
    nothing on stdout, and the file left as it was."""
    path = folder / f"{name}.txt"
    path.write_bytes(data)
    proc = run("solve", str(path))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert f"{path}:{line}" in lines[0]
    assert proc.stdout == "" and path.read_bytes() == data


def assert_parses_or_refuses(rules: Any, texts: Iterable[str]) -> int:
    """Each text either parses into an instance that `format` writes back to the same
    instance, or is refused with an InstanceError (never another exception): the
    parser contract, for fuzzing. Returns how many texts parsed."""
    from twinsolve.core.errors import InstanceError

    parsed = 0
    for text in texts:
        try:
            instance = rules.parse(text, "fuzz.txt")
        except InstanceError:
            continue
        assert rules.parse(rules.format(instance)) == instance
        parsed += 1
    return parsed


def assert_shipped_instances_hold(puzzle: str, at_least: int) -> None:
    """Every file in instances/<puzzle>/ names its source, and `hand` meets its
    `expect-objective` (or proves it unsolvable when none is given) and its
    `expect-solutions`, with a verified answer."""
    from twinsolve.core.limits import Limits
    from twinsolve.core.result import Status
    from twinsolve.core.run import load_file, run

    files = sorted((ROOT / "instances" / puzzle).glob("*.txt"))
    assert len(files) >= at_least
    for path in files:
        instance = load_file(path)
        meta = dict(instance.meta)
        assert "source" in meta, path
        result = run(instance, "hand", Limits(timeout=30, count=True))
        if "expect-objective" in meta:
            assert result.status is Status.OPTIMAL and result.verified, path
            assert result.objective == int(meta["expect-objective"]), path
        else:
            assert result.status is Status.UNSAT, path
        if "expect-solutions" in meta:
            assert result.count == int(meta["expect-solutions"]), path


@pytest.fixture
def corpus():
    return corpus_path


def in_process(tasks: Iterable[Any], budget: Any) -> Iterator[tuple[Any, Any]]:
    """A bench executor (`run_suite(..., executor=in_process)`) that runs each task in this
    process and records it as the worker pool would: for tests of the database and of
    what is judged, where a worker process would only add its second of start-up. The
    pool itself is tested in tests/bench/test_bench_harness.py and test_isolation.py."""
    from twinsolve.bench.execute import record_of, skipped_record
    from twinsolve.core.limits import Limits
    from twinsolve.core.run import run

    for task in tasks:
        if task.skip_reason:
            yield task, skipped_record(task, budget)
            continue
        limits = Limits(timeout=budget.timeout, unique=budget.unique, count=budget.count,
                        seed=task.seed)
        result = run(task.instance, task.backend, limits)
        yield task, record_of(task, result, 0.01, 0.01, budget.timeout, budget.memory_mb)


@pytest.fixture
def pool_in_process(monkeypatch) -> None:
    """The `bench` command's worker pool replaced by `in_process`: for a test of what bench
    prints, stores or draws through the command, where the pool is not the point."""
    monkeypatch.setattr("twinsolve.bench.suite.LocalPool", lambda jobs: in_process)


def sampled(values: Iterable[Any], keep: int | Callable[[Any], bool] = 1) -> list[Any]:
    """`values` for `parametrize` with those `keep` picks in the default run (the first
    `keep`, or those it returns True for) and the rest marked `slow` (`pytest -m slow`,
    which .ci/run runs too): an exhaustive family (every shipped file, every corpus
    puzzle) keeps a representative in every run. A tuple holds the values of several
    argnames; a `pytest.param` keeps its id and marks."""
    params = []
    for index, value in enumerate(values):
        if isinstance(value, type(pytest.param())):
            param = value
        else:
            param = pytest.param(*value) if isinstance(value, tuple) else pytest.param(value)
        if not (keep(value) if callable(keep) else index < keep):
            param = pytest.param(*param.values, id=param.id,
                                 marks=[*param.marks, pytest.mark.slow])
        params.append(param)
    return params


# ---------------------------------------------------------------- hygiene

_CACHES = frozenset({"__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis"})


def _entries(folder: Path, recursive: bool) -> Iterator[Path]:
    if recursive:
        yield from folder.rglob("*")
    elif folder.is_dir():
        yield from folder.iterdir()


def _snapshot() -> dict[str, int | None]:
    """Path -> mtime in ns (None for a folder: its mtime moves when a cache appears in
    it) of everything directly in the project root and in the working folder, and of
    every shipped instance file."""
    watched: dict[str, int | None] = {}
    for folder, recursive in ((ROOT, False), (Path.cwd(), False), (ROOT / "instances", True)):
        for path in _entries(folder, recursive):
            if _CACHES.intersection(path.relative_to(folder).parts):
                continue
            with contextlib.suppress(FileNotFoundError):  # gone since it was listed
                info = path.lstat()
                watched[str(path)] = None if stat.S_ISDIR(info.st_mode) else info.st_mtime_ns
    return watched


def _changes(before: dict[str, int | None], after: dict[str, int | None]) -> list[str]:
    return ([f"added {p}" for p in sorted(after.keys() - before.keys())]
            + [f"removed {p}" for p in sorted(before.keys() - after.keys())]
            + [f"modified {p}" for p in sorted(before.keys() & after.keys())
               if before[p] != after[p]])


@pytest.fixture(scope="session", autouse=True)
def working_folders_unchanged() -> Iterator[None]:
    """Fail the run when a test wrote outside its tmp_path (see the module docstring).

    The failure is an error at the teardown of the session's last test. Under
    pytest-xdist every worker runs this from its first test to its last, so the
    worker that ran the offending test always reports it.
    """
    before = _snapshot()
    yield
    changes = _changes(before, _snapshot())
    if changes:
        pytest.fail("a test wrote outside its tmp_path (give bench --db, run subprocesses "
                    "with cwd=tmp_path): " + "; ".join(changes[:10]), pytrace=False)


def first_generated(module: Any, request: Any, seed: str, tries: int = 60) -> Any:
    """The first puzzle a generator's `attempt` gives over the rngs SEED-0, SEED-1, ...,
    as the driver retries; fails the test when none of `tries` gives one."""
    import random

    module.check(request)
    for n in range(tries):
        found = module.attempt(request, random.Random(f"{seed}-{n}"))
        if found is not None:
            return found
    pytest.fail(f"no {request.level} puzzle in {tries} attempts for {request}")


def assert_plan_puzzle_graded(module: Any, rules: Any, found: Any, level: str,
                              length_asked: bool = False) -> None:
    """A generated shortest-plan puzzle (jugs, clock) carries exactly its answer lines, has
    one optimal plan, grades to its level (its plan length in the level's band unless the
    length was asked for), also after a round trip through its text, and the level is
    exact: the level's solver (`module.solves_at`) solves it, the one below does not."""
    instance, evidence = found.instance, found.grade.evidence
    assert instance.meta == (("expect-unique", "true"),
                             ("expect-objective", str(evidence["length"])))
    assert found.grade.level == level and evidence["plans"] == 1
    d = module.LEVELS.index(level)
    assert length_asked or evidence["length"] in module.BANDS[d].drawn
    assert module.grade(rules.parse(rules.format(instance))) == found.grade
    assert module.solves_at(instance, level)
    if d > 0:
        assert not module.solves_at(instance, module.LEVELS[d - 1])


# Random Nurikabe-like grids (the islands' rules and the puzzle's back-ends are tested
# on them): a connected sea, and a clue read off each island it leaves.


def flood(grid: Any, start: int, allowed: set[int]) -> set[int]:
    """The cells of `allowed` joined to `start` through `allowed` on `grid`."""
    seen, todo = {start}, [start]
    while todo:
        v = todo.pop()
        for w in grid.neighbours[v]:
            if w in allowed and w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def grown_sea(rng: Any, grid: Any, least: int, most: int, start: int | None = None
              ) -> set[int]:
    """A random connected set of `least` to `most` cells, grown cell by cell from `start`
    (None: a random one)."""
    sea = {rng.randrange(grid.size) if start is None else start}
    size = rng.randint(least, most)
    while len(sea) < size:
        sea.add(rng.choice([w for v in sorted(sea) for w in grid.neighbours[v]
                            if w not in sea]))
    return sea


def clues_off(rng: Any, grid: Any, sea: set[int]) -> list[tuple[int, int]]:
    """A clue in each island the sea (cells) leaves: its size, one in eight off by one."""
    clues, land = [], set(range(grid.size)) - sea
    while land:
        island = flood(grid, min(land), land)
        land -= island
        number = len(island) + (rng.choice((-1, 1)) if rng.random() < 0.125 else 0)
        clues.append((rng.choice(sorted(island)), max(1, number)))
    return sorted(clues)


def serpentine_lines(side: int) -> list[str]:
    """A side x side map whose open cells form one snake: full rows joined by one open
    cell at alternating ends (a DFS as deep as the grid is big; tests of recursion)."""
    lines = []
    for r in range(side):
        if r % 2 == 0:
            lines.append("." * side)
        elif r % 4 == 1:
            lines.append("#" * (side - 1) + ".")
        else:
            lines.append("." + "#" * (side - 1))
    return lines


# A shell starts a background job (`pytest &`) with SIGINT ignored, and Python then
# keeps it ignored: Ctrl-C would never reach the tests of it, nor the processes they
# start (an ignored signal is inherited). Tests run with Python's own handler.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def sigint_handler_unchanged() -> Iterator[None]:
    """Fail a test that leaves another SIGINT handler than it found (and put it back).

    Why: the Ctrl-C tests need Python's own handler in their pytest worker, and the
    processes they start inherit an ignored SIGINT; a library that installs its own
    handler (an event loop's, a solver's) and does not restore it broke them only when
    pytest-xdist happened to schedule it earlier on the same worker.
    """
    before = signal.getsignal(signal.SIGINT)
    yield
    after = signal.getsignal(signal.SIGINT)
    if after is not before:
        signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)
        pytest.fail(f"the test left SIGINT handled by {after!r} (it found {before!r})")


@pytest.fixture(autouse=True)
def no_terminal_size_in_the_environment(monkeypatch) -> None:
    """Every test starts without COLUMNS and LINES: the curses tests' ncurses writes them
    into the process's environment, and a later in-process command on the same worker
    would then lay its output out for that terminal. A test that wants a width sets it."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


def twinsolve(*args: str, cwd: Path | str | None = None) -> subprocess.CompletedProcess[str]:
    """The `twinsolve` command as a user runs it: a fresh interpreter, text output, no
    terminal on stdin (so the terminal game refuses, as it must without one). For what
    only a real process shows (its exit code, signals, no traceback on stderr); `cli`
    runs the same command in the test's process, a second faster."""
    return subprocess.run([sys.executable, "-m", "twinsolve", *args], capture_output=True,
                          text=True, timeout=300, cwd=cwd, stdin=subprocess.DEVNULL)


@pytest.fixture
def cli(capsys, monkeypatch) -> Callable[..., subprocess.CompletedProcess[str]]:
    """`cli(*args, cwd=...)`: the `twinsolve` command run in this process by
    `twinsolve.cli.main`, returned as `twinsolve()` returns a subprocess (exit code,
    stdout, stderr), without the second an interpreter takes to start and import. A
    traceback cannot pass unseen: the exception fails the test. `cwd` becomes the
    working folder for the rest of the test."""
    from twinsolve.cli import main

    def run(*args: str | Path, cwd: Path | str | None = None) -> subprocess.CompletedProcess[str]:
        if cwd is not None:
            monkeypatch.chdir(cwd)
        capsys.readouterr()  # what the test printed before is not the command's
        argv = [str(arg) for arg in args]
        try:
            code = main(argv)
        except SystemExit as exc:  # as `python -m twinsolve` would exit
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["twinsolve", *argv], code, out, err)
    return run


# ---------------------------------------------------------------- output paths

@contextlib.contextmanager
def fifo_reader(path: Path) -> Iterator[dict[str, bytes]]:
    """Read the FIFO at `path` from a thread; `got["data"]` holds what arrived once the
    block ends. A reader still waiting for a writer (nothing was written) is let go."""
    got: dict[str, bytes] = {}

    def read() -> None:
        with open(path, "rb") as handle:
            got["data"] = handle.read()

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    try:
        yield got
    finally:
        if "data" not in got:
            thread.join(timeout=0.2)
        if thread.is_alive():  # still in open(): a writer that opens and closes releases it
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(timeout=10)
        assert not thread.is_alive()


def device_twin(folder: Path, name: str) -> Path:
    """A character device like /dev/NAME (null: discards; full: fails with ENOSPC) for a
    test to write to. As root, a twin made with mknod in `folder`: root could replace the
    real node if a write went wrong, which is the very fault these tests look for (a run
    against the old writer turned /dev/null into a plain file). Otherwise the real one,
    which a user cannot replace."""
    real = Path("/dev") / name
    if not real.exists():
        pytest.skip(f"no {real} here")
    if not os.access("/dev", os.W_OK):
        return real
    twin = folder / f"dev-{name}"
    try:
        os.mknod(twin, stat.S_IFCHR | 0o666, os.stat(real).st_rdev)
        twin.chmod(0o666)
        with open(twin, "wb"):  # a file system mounted nodev refuses to open it
            pass
    except OSError as exc:
        pytest.skip(f"cannot make a twin of {real} ({exc.strerror}); the real one is at risk")
    return twin


def snapshot(folder: Path) -> dict[str, tuple[int, bytes | str | None]]:
    """Every entry under `folder`: its mode and content (a link's target, a file's bytes),
    to show that a refused write changed nothing."""
    seen: dict[str, tuple[int, bytes | str | None]] = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        content: bytes | str | None = None
        if stat.S_ISLNK(info.st_mode):
            content = os.readlink(path)
        elif stat.S_ISREG(info.st_mode):
            content = path.read_bytes()
        seen[str(path.relative_to(folder))] = (info.st_mode, content)
    return seen


# ---------------------------------------------------------------- plugins

def dist_info(site: Path, distribution: str, points: dict[str, dict[str, str]],
              version: str = "0.1") -> Path:
    """What pip leaves of an installed distribution and `importlib.metadata` reads: a
    `.dist-info` folder in `site` with its name, version and entry points
    (`{group: {name: "module:attribute"}}`)."""
    info = site / f"{distribution.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\n"
                                   f"Version: {version}\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in named.items()) + "\n"
        for group, named in points.items()))
    return info


@pytest.fixture
def plugins(monkeypatch) -> Iterator[Callable[[Path], None]]:
    """`plugins(folder)`: what is installed in `folder` (code, and `.dist-info` folders
    from `dist_info`) becomes importable here and in subprocesses (PYTHONPATH: bench's
    workers), and the registry is read afresh; afterwards, the modules imported from
    such folders are forgotten and the registry is read afresh again."""
    from twinsolve.core import registry

    folders: list[Path] = []

    def fresh() -> None:
        importlib.invalidate_caches()
        registry._table.cache_clear()
        registry._source_names.cache_clear()

    def install(folder: Path) -> None:
        folders.append(Path(folder).resolve())
        monkeypatch.syspath_prepend(str(folder))
        monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [
            str(folder), os.environ.get("PYTHONPATH", "")])))
        fresh()

    yield install
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if file and any(Path(file).resolve().is_relative_to(folder) for folder in folders):
            del sys.modules[name]
    monkeypatch.undo()
    fresh()
