"""The one registry of puzzles and back-ends.

Each puzzle is a folder `twinsolve/puzzles/<name>/` whose `__init__.py`
declares its entry (`ENTRY = standard(__name__, "Title", ...)`); the registry
lists the folders (`PUZZLE_FOLDERS`) and nothing else about them, so adding a
puzzle is adding a folder and its name here. Back-ends that are no puzzle's own
(`cmd:PROGRAM`, the faults, the puzzlekit peer) are declared below. The CLI,
the API, the harness and the tests all read this one table. Targets are
"module:function" strings imported lazily, so `twinsolve list` never pays for
importing OR-Tools and a missing optional solver only fails the back-end that
needs it.

A puzzle may also read its puzzles from elsewhere: its entry names a URL
reader module (`is_url(text)`, `decode_url(url, source)`) and a dataset
reader module (`is_dataset(document)` on decoded JSON, `read_dataset(text,
source)` giving `(key, instance)` pairs, `write_instances(pairs, folder)`).
`core.sources`, `core.imports` and `core.run.load` reach them only through
`url_reader` / `dataset_reader` here, so the core knows no puzzle's formats.

Boards too large to hold. A puzzle's optional `too_large` target,
`too_large(instance) -> str | None`, says why the full solve cannot hold an
instance's solution (Lights Out: a `lights all` board over 5000 a side), and
a back-end's optional `summary_module` names a module with
`supports(instance, limits) -> str | None` and `summary(instance, limits) ->
Result`: a solve that checks its answer itself and returns no solution,
holding only what it needs at a time (Lights Out's `hand`: `summary.py`).
`core.run.run` takes the summary for an instance that is `too_large` (or when
asked, `solve --summary`) and refuses such an instance to every back-end
without one.

A puzzle's rules module (`twinsolve.puzzles.<name>.rules`) provides `Instance`,
`parse`, `format`, `verify`, `objective` and `render`. A back-end target is
`solve(instance, limits) -> Result`; its optional `supports` target answers
`None` or the reason the back-end does not handle an instance's variant.

Back-end specs on the command line may carry options after colons:
`sat:glucose4` (a bare word sets the back-end's `bare_option`, here the PySAT
solver name), `cpsat:workers=8:seed=3`. A back-end's optional `options_target`
is `check_options(limits) -> None`: it raises `UsageError` for an option name
or value the back-end would refuse, without solving anything; a back-end with
none takes no options. `check_spec` runs it on a spec, so a plan refuses a
mistyped spec before its first run, and `core.run.run` runs it before every
solve, so the API and `solve` refuse exactly the same things.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .errors import UsageError
from .limits import Limits

__all__ = ["Backend", "Puzzle", "puzzle", "puzzles", "puzzle_of", "parse_backend_spec",
           "standard", "PUZZLEKIT", "PUZZLE_FOLDERS",
           "resolve_spec", "check_spec", "url_reader", "dataset_reader", "dataset_readers",
           "generator", "picture", "too_large", "summary_module"]


def _resolve(target: str) -> Callable[..., Any]:
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


@dataclass(frozen=True)
class Backend:
    name: str
    target: str
    summary: str
    supports_target: str | None = None
    bare_option: str | None = None
    test_only: bool = False
    by_default: bool = True
    options_target: str | None = None
    # The module of this back-end's summary (`supports`, `summary`; module docstring).
    summary_module: str | None = None

    @property
    def solve(self) -> Callable[..., Any]:
        return _resolve(self.target)

    def check_options(self, limits: Limits) -> None:
        """Refuse, as a `UsageError`, any option in `limits` this back-end would refuse."""
        if self.options_target is None:
            limits.check_options(self.name, ())
        else:
            _resolve(self.options_target)(limits)

    def unsupported_reason(self, instance: Any) -> str | None:
        if self.supports_target is None:
            return None
        return _resolve(self.supports_target)(instance)


@dataclass(frozen=True)
class Puzzle:
    name: str
    title: str
    rules_module: str
    backends: tuple[Backend, ...]
    optimisation: bool = True  # False: a feasibility puzzle (no objective)
    # Formats from elsewhere, as module names (see the module docstring): a URL reader
    # (`is_url`, `decode_url`) and a dataset reader (`is_dataset`, `read_dataset`,
    # `write_instances`).
    url_reader: str | None = None
    dataset_reader: str | None = None
    # The generator module (`core.generation`'s contract), None: the puzzle has none.
    generator: str | None = None
    # The picture module: `draw(instance, solution=None) -> core.canvas.Drawing`.
    picture: str | None = None
    # `too_large(instance) -> str | None` (module docstring), None: every instance fits.
    too_large: str | None = None

    @property
    def rules(self) -> ModuleType:
        return importlib.import_module(self.rules_module)

    def backend(self, name: str) -> Backend:
        for backend in self.backends:
            if backend.name == name:
                return backend
        known = ", ".join(b.name for b in self.backends if not b.test_only)
        raise UsageError(f"puzzle {self.name!r} has no back-end {name!r} (known: {known})")

    def default_backends(self) -> list[Backend]:
        """The back-ends a suite runs when none are named."""
        return [b for b in self.backends if not b.test_only and b.by_default]


# Misbehaving back-ends every puzzle has, for testing the harness (twinsolve.backends.faults).
_FAULTS = tuple(
    Backend(f"fault-{kind}", f"twinsolve.backends.faults:{kind}", f"test only: {what}",
            test_only=True)
    for kind, what in (("crash", "dies of SIGSEGV"), ("abort", "dies of SIGABRT"),
                       ("hang", "ignores its time limit"), ("memory", "allocates without bound"),
                       ("burst", "needs 48 MB for a moment, then answers as hand"),
                       ("wrong", "answers what verify rejects"))
)


# Any DIMACS solver binary on the `sat` encoding: `cmd:kissat` (twinsolve.backends.cmd).
_EXTERNAL = Backend("cmd", "twinsolve.backends.cmd:solve",
                    "a DIMACS SAT solver program on the sat encoding: cmd:PROGRAM",
                    supports_target="twinsolve.backends.cmd:supports", bare_option="program",
                    by_default=False, options_target="twinsolve.backends.cmd:check_options")

# The option checkers back-ends share: cpsat takes workers, seed and SatParameters fields,
# sat takes solver (a hand back-end without a checker of its own takes no options).
_CPSAT_OPTIONS = "twinsolve.models.cpsat_common:check_options"
_SAT_OPTIONS = "twinsolve.models.sat_common:check_options"


def standard(package: str, title: str, sat_unsupported: bool = False,
             optimisation: bool = True, own_options: tuple[str, ...] = (),
             extra: tuple[Backend, ...] = (), url_reader: str | None = None,
             dataset_reader: str | None = None, summary: str | None = None,
             too_large: str | None = None) -> Puzzle:
    """A puzzle folder's entry: the usual trio plus `brute`, by the folder's layout.

    `package` is the folder (`twinsolve.puzzles.cave`): `rules` holds the rules
    and `brute`, `hand` the hand-written solver, `models` the CP-SAT and SAT
    encodings. A back-end named in `own_options` checks its options with its
    module's own function (`check_options` in `hand`, `check_cpsat_options` /
    `check_sat_options` in `models`); the others use the shared checkers above.
    `extra` adds back-ends that are not the puzzle's own (a peer solver);
    `url_reader` / `dataset_reader` name modules of the folder that read its
    puzzles from elsewhere (cave: `"puzzlink"`, `"puzzlekit"`). `summary` names the
    folder's module of `hand`'s summary and `too_large` a `module:function` of the
    folder (lightsout: `"summary"`, `"rules:too_large"`; module docstring).
    """
    name = package.rpartition(".")[2]
    models, hand = f"{package}.models", f"{package}.hand"

    def options(backend: str, own: str, shared: str | None) -> str | None:
        return own if backend in own_options else shared

    return Puzzle(name, title, f"{package}.rules", (
        Backend("hand", f"{hand}:solve",
                "hand-written propagation / search in plain Python",
                options_target=options("hand", f"{hand}:check_options", None),
                summary_module=summary and f"{package}.{summary}"),
        Backend("cpsat", f"{models}:solve_cpsat", "OR-Tools CP-SAT model",
                bare_option="workers",
                options_target=options("cpsat", f"{models}:check_cpsat_options", _CPSAT_OPTIONS)),
        Backend("sat", f"{models}:solve_sat", "PySAT CNF / MaxSAT encoding",
                supports_target=f"{models}:supports_sat" if sat_unsupported else None,
                bare_option="solver",
                options_target=options("sat", f"{models}:check_sat_options", _SAT_OPTIONS)),
        Backend("brute", f"{package}.rules:brute",
                "exhaustive enumeration, tiny instances only (tests)", test_only=True),
        _EXTERNAL,
        *_FAULTS,
        *extra,
    ), optimisation,
        url_reader=url_reader and f"{package}.{url_reader}",
        dataset_reader=dataset_reader and f"{package}.{dataset_reader}",
        generator=f"{package}.generate", picture=f"{package}.picture",
        too_large=too_large and f"{package}.{too_large}")


# A peer solver for side-by-side benchmarks (`pip install -e '.[peers]'`); never planned
# by default: name it with --backends.
PUZZLEKIT = Backend("puzzlekit", "twinsolve.backends.puzzlekit:solve_puzzlekit",
                    "the puzzlekit package's OR-Tools solver (peer, benchmarks only)",
                    supports_target="twinsolve.backends.puzzlekit:puzzlekit_supports",
                    bare_option="workers", by_default=False,
                    options_target="twinsolve.backends.puzzlekit:check_puzzlekit_options")

# The puzzle folders under twinsolve/puzzles/, in the order `twinsolve list` shows them;
# each declares its own entry as `ENTRY` in its `__init__.py`.
PUZZLE_FOLDERS = ("lightsout", "cave", "mirror", "jugs", "clock", "chess")


@functools.cache
def _table() -> dict[str, Puzzle]:
    entries = (importlib.import_module(f"twinsolve.puzzles.{folder}").ENTRY
               for folder in PUZZLE_FOLDERS)
    return {entry.name: entry for entry in entries}


def puzzles() -> list[Puzzle]:
    return list(_table().values())


def puzzle(name: str) -> Puzzle:
    try:
        return _table()[name]
    except KeyError:
        known = ", ".join(_table())
        raise UsageError(f"unknown puzzle {name!r} (known: {known})") from None


def puzzle_of(instance: Any) -> Puzzle:
    """The registry entry for an instance object (its class carries `PUZZLE`)."""
    name = getattr(type(instance), "PUZZLE", None)
    if name is None:
        raise UsageError(f"{type(instance).__name__} is not a twinsolve instance")
    return puzzle(name)


def url_reader(text: str) -> ModuleType | None:
    """The URL reader module of the puzzle whose URLs `text` is, or None.

    >>> url_reader("https://puzz.link/p?cave/6/6/k3h6j2l7g3g2h3n").__name__
    'twinsolve.puzzles.cave.puzzlink'
    >>> url_reader("instances/cave") is None
    True
    """
    return next((reader for reader in _named_modules("url_reader") if reader.is_url(text)),
                None)


def dataset_reader(document: Any) -> ModuleType | None:
    """The dataset reader module that claims a decoded JSON `document`, or None."""
    return next((reader for reader in _named_modules("dataset_reader")
                 if reader.is_dataset(document)), None)


def dataset_readers() -> list[ModuleType]:
    """Every puzzle's dataset reader module, in `PUZZLE_FOLDERS` order."""
    return list(_named_modules("dataset_reader"))


def _named_modules(field_name: str) -> Iterator[ModuleType]:
    """The modules the puzzles' entries name in `field_name`, imported, in order."""
    for entry in puzzles():
        name = getattr(entry, field_name)
        if name is not None:
            yield importlib.import_module(name)


def generator(entry: Puzzle) -> ModuleType:
    """The generator module of a puzzle (`core.generation`); `UsageError` when it has none."""
    module = _generator_module(entry)
    if module is None:
        have = ", ".join(e.name for e in puzzles() if _generator_module(e) is not None)
        raise UsageError(f"puzzle {entry.name!r} has no generator (generators: {have})")
    return module


def picture(entry: Puzzle) -> ModuleType:
    """The picture module of a puzzle (`draw(instance, solution=None)`, a `core.canvas`
    drawing); `UsageError` when it has none."""
    if entry.picture is None:
        raise UsageError(f"puzzle {entry.name!r} has no pictures")
    return importlib.import_module(entry.picture)


def too_large(instance: Any) -> str | None:
    """Why the full solve cannot hold `instance`'s solution (its puzzle's `too_large`),
    or None: it can, or the puzzle declares no such limit."""
    entry = puzzle_of(instance)
    return None if entry.too_large is None else _resolve(entry.too_large)(instance)


def summary_module(backend: Backend) -> ModuleType | None:
    """The module of `backend`'s summary (`supports`, `summary`), or None when it has none."""
    return None if backend.summary_module is None else \
        importlib.import_module(backend.summary_module)


def _generator_module(entry: Puzzle) -> ModuleType | None:
    """The entry's generator module, or None when it names none or it has no `attempt`."""
    if entry.generator is None:
        return None
    try:
        module = importlib.import_module(entry.generator)
    except ModuleNotFoundError as exc:
        if exc.name != entry.generator:  # the generator is there but needs a missing module
            raise
        return None
    return module if hasattr(module, "attempt") else None


def _option_value(text: str) -> Any:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def parse_backend_spec(spec: str, backend: Backend | None = None) -> tuple[str, dict[str, Any]]:
    """Split `"cpsat:workers=8"` into `("cpsat", {"workers": 8})`.

    A bare word after the name sets the back-end's `bare_option`.
    """
    name, *parts = spec.split(":")
    if not name:
        raise UsageError(f"empty back-end name in {spec!r}")
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if eq:
            if not key:
                raise UsageError(f"bad option {part!r} in back-end {spec!r}")
            options[key] = _option_value(value)
        elif backend is not None and backend.bare_option:
            options[backend.bare_option] = _option_value(part)
        else:
            raise UsageError(f"back-end {name!r} takes no bare option ({part!r} in {spec!r})")
    return name, options


def resolve_spec(spec: str, entry: Puzzle) -> tuple[Backend, dict[str, Any]]:
    """The back-end a spec names for `entry`, and its options, not yet checked.

    >>> backend, options = resolve_spec("sat:glucose4", puzzle("cave"))
    >>> backend.name, options
    ('sat', {'solver': 'glucose4'})
    """
    if not isinstance(spec, str):
        raise UsageError(f"a back-end is named by a string such as 'hand' or 'sat:glucose4', "
                         f"not {type(spec).__name__}")
    backend = entry.backend(spec.split(":", 1)[0])
    return backend, parse_backend_spec(spec, backend)[1]


def check_spec(spec: str, entry: Puzzle) -> tuple[str, dict[str, Any]]:
    """`(name, options)` of a back-end spec, every option name and value checked.

    Raises the `UsageError` the back-end would raise at solve time, before any
    run: an unknown back-end, option or value (`hand:engine=fast` on chess, the
    SAT solver of `sat:nosuch`, `cpsat:workers=-1`, the program of `cmd:PROGRAM`).

    >>> check_spec("cpsat:workers=2", puzzle("lightsout"))
    ('cpsat', {'workers': 2})
    """
    backend, options = resolve_spec(spec, entry)
    backend.check_options(Limits(options=options))
    return backend.name, options
