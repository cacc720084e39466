"""The one registry of puzzles and back-ends, found through entry points.

Discovery. Puzzles come from the entry-point group `twinsolve.puzzles` (each
entry point names a `core.declaration.Puzzle`), back-ends for existing
puzzles from `twinsolve.backends` (a `BackendFor`, or a tuple of them), and
other file kinds a folder walk passes by quietly from `twinsolve.formats`
(an `OtherFormat`: the stealth game's levels). twinsolve's own puzzles and
back-ends are registered the same way, in its `pyproject.toml`; they come
first, by name, then the plugins by package and name. Run
from a source tree that is not installed, the built-ins are read from that
`pyproject.toml` itself (Python 3.11+), so nothing lists them twice.

Checking. A declaration is checked when it is loaded: every module and target
it names (its rules module included) must exist and define what its
capability needs (`declaration.REQUIRED`), read from the module's source
without importing it
(importing every puzzle's modules on every start would cost a second; the
contract test kit, `twinsolve.testing`, imports and checks them all). A plugin that fails
to load or to pass is left out with one warning line naming it and its
package (`problems()`, shown by `twinsolve list`); the rest keeps working.
A plugin never replaces a name that is taken: the first holder keeps it
(twinsolve's own before any plugin), the other is left out with a warning.

Asking. The CLI, the harness, the pictures and the tests ask the registry
for a capability (`capability`, `generator`, `picture`, ...); an absent one
is a `UsageError` naming the puzzle (`NAME has no summary mode`). Targets are
imported on first use; one that cannot be imported is a one-line
`UsageError` naming it.

Back-end specs may carry options after colons: `sat:glucose4` (a bare word
sets the back-end's `bare_option`), `cpsat:workers=8:seed=3`. `check_spec`
runs the back-end's option checker on a spec, so a plan refuses a mistyped
spec before its first run, and `core.run.run` runs it before every solve.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import importlib.util
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from .declaration import (
    CAPABILITIES,
    REQUIRED,
    Absent,
    Backend,
    BackendFor,
    OtherFormat,
    Puzzle,
    present,
    resolve,
)
from .errors import UsageError
from .limits import Limits

__all__ = ["Backend", "Puzzle", "BackendFor", "puzzle", "puzzles", "puzzle_of",
           "parse_backend_spec", "resolve_spec", "check_spec", "url_reader", "url_puzzles",
           "dataset_reader", "dataset_readers", "generator", "picture", "too_large",
           "summary_module",
           "capability", "has", "resolve", "problems", "other_formats", "GROUPS", "extra_backends",
           "backend_origin"]

GROUPS = ("twinsolve.puzzles", "twinsolve.backends", "twinsolve.formats")
OWN = "twinsolve"  # the distribution whose entry points are "built in"


# ---------------------------------------------------------------- discovery

@dataclass(frozen=True)
class _Table:
    puzzles: dict[str, Puzzle]
    extras: tuple[tuple[BackendFor, str], ...]  # (declaration, origin)
    formats: dict[str, OtherFormat]
    problems: tuple[str, ...]


def _origin(point: importlib.metadata.EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    if dist is None or dist.metadata["Name"] == OWN:
        return "built in"
    return f"{dist.metadata['Name']} {dist.version}"


def _own_points(group: str) -> list[importlib.metadata.EntryPoint]:
    """twinsolve's own entry points of `group`: from its installed metadata, or, run from
    a source tree that is not installed, from the tree's pyproject.toml (module docstring)."""
    try:
        dist = importlib.metadata.distribution(OWN)
    except importlib.metadata.PackageNotFoundError:
        return _source_tree_points(group)
    return [point for point in dist.entry_points if point.group == group]


def _source_tree_points(group: str) -> list[importlib.metadata.EntryPoint]:
    project = Path(__file__).resolve().parents[2] / "pyproject.toml"
    if sys.version_info < (3, 11) or not project.is_file():
        return []
    import tomllib

    declared = tomllib.loads(project.read_text(encoding="utf-8"))
    table = declared.get("project", {}).get("entry-points", {}).get(group, {})
    return [importlib.metadata.EntryPoint(name, value, group) for name, value in table.items()]


def _points(group: str) -> list[tuple[importlib.metadata.EntryPoint, str]]:
    """(entry point, origin) of `group`: twinsolve's own first, by name, then the plugins
    by package and name."""
    own = [(point, "built in") for point in sorted(_own_points(group), key=lambda p: p.name)]
    others = []
    for point in importlib.metadata.entry_points(group=group):
        origin = _origin(point)
        if origin != "built in":
            others.append((point, origin))
    others.sort(key=lambda pair: (pair[1], pair[0].name))
    return own + others


def _load(point: importlib.metadata.EntryPoint, origin: str, kinds: tuple[type, ...]
          ) -> Any:
    what = f"plugin {point.name!r} ({origin})"
    try:
        loaded = point.load()
    except Exception as exc:  # noqa: BLE001 - whatever a plugin's import raises
        raise _Refused(f"{what}: cannot load {point.value}: {type(exc).__name__}: "
                       f"{exc}") from None
    items = loaded if isinstance(loaded, tuple) else (loaded,)
    if not items or not all(isinstance(item, kinds) for item in items):
        names = " or ".join(kind.__name__ for kind in kinds)
        raise _Refused(f"{what}: {point.value} is not a {names} declaration")
    return items


class _Refused(Exception):
    """A plugin left out: its one warning line."""


@functools.cache
def _table() -> _Table:
    found: dict[str, Puzzle] = {}
    problems: list[str] = []
    for point, origin in _points(GROUPS[0]):
        try:
            (entry,) = _load(point, origin, (Puzzle,))
            _check_puzzle(entry, f"puzzle {entry.name!r} ({origin})")
        except _Refused as refused:
            problems.append(str(refused))
            continue
        except ValueError:
            problems.append(f"plugin {point.name!r} ({origin}): declares more than one puzzle")
            continue
        if entry.name in found:
            problems.append(f"puzzle {entry.name!r} ({origin}) left out: the name is taken by "
                            f"{found[entry.name].origin}")
            continue
        found[entry.name] = replace(entry, origin=origin)
    extras = _extras(found, problems)
    formats = _formats(found, problems)
    table = {name: replace(entry, backends=entry.backends + tuple(
        offer.backend for offer, _ in extras if offer.serves(name)))
        for name, entry in found.items()}
    for line in problems:
        print(f"twinsolve: warning: {line}", file=sys.stderr)
    return _Table(table, extras, formats, tuple(problems))


def _extras(found: dict[str, Puzzle], problems: list[str]) -> tuple[tuple[BackendFor, str], ...]:
    """The back-ends of `twinsolve.backends`, each checked, none taking a taken name."""
    kept: list[tuple[BackendFor, str]] = []
    for point, origin in _points(GROUPS[1]):
        try:
            offers = _load(point, origin, (BackendFor,))
        except _Refused as refused:
            problems.append(str(refused))
            continue
        for offer in offers:
            name, what = offer.backend.name, f"back-end {offer.backend.name!r} ({origin})"
            unknown = [p for p in offer.puzzles if p not in found]
            taken = [p for p, entry in found.items() if offer.serves(p)
                     and (any(b.name == name for b in entry.backends)
                          or any(o.backend.name == name and o.serves(p) for o, _ in kept))]
            try:
                if unknown:
                    raise _Refused(f"{what}: no puzzle {unknown[0]!r} is registered")
                if taken:
                    raise _Refused(f"{what} left out: {taken[0]} already has a back-end "
                                   f"{name!r}")
                _check_backend(offer.backend, what)
            except _Refused as refused:
                problems.append(str(refused))
                continue
            kept.append((offer, origin))
    return tuple(kept)


def _formats(found: dict[str, Puzzle], problems: list[str]) -> dict[str, OtherFormat]:
    formats: dict[str, OtherFormat] = {}
    for point, origin in _points(GROUPS[2]):
        try:
            for declared in _load(point, origin, (OtherFormat,)):
                if declared.header in found or declared.header in formats:
                    raise _Refused(f"format {declared.header!r} ({origin}) left out: the "
                                   f"header names something else already")
                formats[declared.header] = declared
        except _Refused as refused:
            problems.append(str(refused))
    return formats


# ---------------------------------------------------------------- checking a declaration

_NAMES = re.compile(r"^(?:async\s+def|def|class)\s+(\w+)|^([A-Za-z_]\w*)\s*(?::[^=\n]*)?=(?!=)"
                    r"|^(?:from\s+\S+\s+)?import\s+\(?([\w\s,.]+)", re.M)


@functools.cache
def _source_names(module: str) -> frozenset[str] | None:
    """The top-level names a module's source defines (an over-estimate, from its text),
    or None when it has no readable source; `_Refused` when the module is not there."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError) as exc:
        raise _Refused(f"module {module} cannot be found: {exc}") from None
    if spec is None:
        raise _Refused(f"module {module} is not installed")
    origin = spec.origin
    if not origin or not origin.endswith(".py"):
        return None
    try:
        text = Path(origin).read_text(encoding="utf-8")
    except OSError:
        return None
    names: set[str] = set()
    for match in _NAMES.finditer(text):
        for group in match.groups():
            if group:
                names.update(re.findall(r"\w+", group))
    return frozenset(names)


def _defines(module: str, names: tuple[str, ...], owner: str) -> None:
    """`_Refused` unless `module` exists and defines each of `names`. Read from the source
    first; only a name the source does not show imports the module to be sure."""
    try:
        shown = _source_names(module)
    except _Refused as refused:
        raise _Refused(f"{owner}: {refused}") from None
    missing = [name for name in names if shown is None or name not in shown]
    if not missing:
        return
    try:
        loaded = importlib.import_module(module)
    except Exception as exc:  # noqa: BLE001 - whatever a plugin's import raises
        raise _Refused(f"{owner}: cannot import {module}: {type(exc).__name__}: {exc}") \
            from None
    missing = [name for name in missing if not hasattr(loaded, name)]
    if missing:
        raise _Refused(f"{owner}: {module} has no {', '.join(missing)}")


def _target(target: str, owner: str) -> None:
    module, colon, attribute = target.partition(":")
    if not colon or not attribute:
        raise _Refused(f"{owner}: {target!r} is not a 'module:function' target")
    _defines(module, (attribute,), owner)


def _check_backend(backend: Backend, owner: str) -> None:
    if not isinstance(backend, Backend) or not backend.name or ":" in backend.name:
        raise _Refused(f"{owner}: a back-end needs a name without ':'")
    _target(backend.target, owner)
    for target in (backend.supports_target, backend.options_target):
        if target is not None:
            _target(target, owner)
    if backend.summary_module is not None:
        _defines(backend.summary_module, REQUIRED["summary_module"], owner)


def _check_puzzle(entry: Puzzle, owner: str) -> None:
    """`_Refused` with the first problem of a declaration (module docstring)."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", entry.name or ""):
        raise _Refused(f"{owner}: a puzzle's name is one lowercase word (letters, digits, _)")
    _defines(entry.rules_module, REQUIRED["rules"], owner)
    names = [backend.name for backend in entry.backends]
    if len(set(names)) != len(names):
        raise _Refused(f"{owner}: two back-ends share a name")
    for backend in entry.backends:
        _check_backend(backend, owner)
    for name in CAPABILITIES:
        value = entry.capability(name)
        if isinstance(value, Absent):
            continue
        if not present(value):
            raise _Refused(f"{owner}: {name} must be a module name, a target or Absent(...)")
        if name in REQUIRED:
            _defines(value, REQUIRED[name], owner)
        else:
            _target(value, owner)


# ---------------------------------------------------------------- asking

def puzzles() -> list[Puzzle]:
    """Every registered puzzle, twinsolve's own first."""
    return list(_table().puzzles.values())


def puzzle(name: str) -> Puzzle:
    try:
        return _table().puzzles[name]
    except (KeyError, TypeError):
        known = ", ".join(_table().puzzles)
        raise UsageError(f"unknown puzzle {name!r} (known: {known})") from None


def puzzle_of(instance: Any) -> Puzzle:
    """The registry entry for an instance object (its class carries `PUZZLE`)."""
    name = getattr(type(instance), "PUZZLE", None)
    if name is None:
        raise UsageError(f"{type(instance).__name__} is not a twinsolve instance")
    return puzzle(name)


def problems() -> tuple[str, ...]:
    """The warning lines of plugins left out (module docstring)."""
    return _table().problems


def other_formats() -> dict[str, OtherFormat]:
    """File kinds that are no puzzle's, by header word (the game's levels)."""
    return dict(_table().formats)


def extra_backends() -> tuple[tuple[BackendFor, str], ...]:
    """The back-ends from `twinsolve.backends`, with their origins."""
    return _table().extras


def backend_origin(entry: Puzzle, backend: Backend) -> str:
    """Where a back-end of `entry` comes from: its puzzle's origin, or its plugin's."""
    for offer, origin in _table().extras:
        if offer.backend is backend:
            return origin
    return entry.origin


def capability(entry: Puzzle, name: str) -> Any:
    """The module (or the target's attribute) of capability `name` of `entry`, imported;
    `UsageError` naming the puzzle when it is absent."""
    value = entry.capability(name)
    if isinstance(value, Absent):
        raise UsageError(entry.absent_reason(name))
    return resolve(value, f"{entry.name}'s {CAPABILITIES[name]}")


def has(entry: Puzzle, name: str) -> bool:
    """Whether `entry` declares capability `name` (declared, not probed)."""
    return present(entry.capability(name))


def generator(entry: Puzzle) -> ModuleType:
    """The generator module of a puzzle (`core.generation`); `UsageError` when it has none."""
    return capability(entry, "generator")


def picture(entry: Puzzle) -> ModuleType:
    """The picture module of a puzzle (`draw(instance, solution=None)`)."""
    return capability(entry, "picture")


def too_large(instance: Any) -> str | None:
    """Why the full solve cannot hold `instance`'s solution, or None: it can, or its puzzle
    has no summary mode (every instance fits)."""
    entry = puzzle_of(instance)
    return capability(entry, "too_large")(instance) if has(entry, "too_large") else None


def summary_module(backend: Backend) -> ModuleType | None:
    """The module of `backend`'s summary (`supports`, `summary`), or None when it has none."""
    if backend.summary_module is None:
        return None
    return resolve(backend.summary_module, f"back-end {backend.name!r}'s summary")


def _modules(name: str) -> Iterator[ModuleType]:
    """The modules the puzzles declare for capability `name`, imported, in order."""
    for entry in puzzles():
        if has(entry, name):
            yield capability(entry, name)


def url_puzzles() -> list[str]:
    """The names of the puzzles that declare a URL reader (and writer), in registry order."""
    return [entry.name for entry in puzzles() if has(entry, "url_reader")]


def url_reader(text: str) -> ModuleType | None:
    """The URL reader module of the puzzle whose URLs `text` is, or None."""
    return next((reader for reader in _modules("url_reader") if reader.is_url(text)), None)


def dataset_reader(document: Any) -> ModuleType | None:
    """The dataset reader module that claims a decoded JSON `document`, or None."""
    return next((reader for reader in _modules("dataset_reader")
                 if reader.is_dataset(document)), None)


def dataset_readers() -> list[ModuleType]:
    """Every puzzle's dataset reader module, in registry order."""
    return list(_modules("dataset_reader"))


# ---------------------------------------------------------------- back-ends

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
    """The back-end a spec names for `entry`, and its options, not yet checked."""
    if not isinstance(spec, str):
        raise UsageError(f"a back-end is named by a string such as 'hand' or 'sat:glucose4', "
                         f"not {type(spec).__name__}")
    backend = entry.backend(spec.split(":", 1)[0])
    return backend, parse_backend_spec(spec, backend)[1]


def check_spec(spec: str, entry: Puzzle) -> tuple[str, dict[str, Any]]:
    """`(name, options)` of a back-end spec, every option name and value checked: the
    `UsageError` the back-end would raise at solve time, before any run."""
    backend, options = resolve_spec(spec, entry)
    backend.check_options(Limits(options=options))
    return backend.name, options
