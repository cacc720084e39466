"""The one registry of puzzles and back-ends.

Adding a puzzle or a back-end means adding one entry to `_TABLE` below and
nothing else: the CLI, the API, the harness and the tests all read it. Targets
are "module:function" strings imported lazily, so `twinsolve list` never pays
for importing OR-Tools and a missing optional solver only fails the back-end
that needs it.

A puzzle's rules module (`twinsolve.puzzles.<name>`) provides `Instance`,
`parse`, `format`, `verify`, `objective` and `render`. A back-end target is
`solve(instance, limits) -> Result`; its optional `supports` target answers
`None` or the reason the back-end does not handle an instance's variant.

Back-end specs on the command line may carry options after colons:
`sat:glucose4` (a bare word sets the back-end's `bare_option`, here the PySAT
solver name), `cpsat:workers=8:seed=3`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from .errors import UsageError

__all__ = ["Backend", "Puzzle", "puzzle", "puzzles", "puzzle_of", "parse_backend_spec"]


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

    @property
    def solve(self) -> Callable[..., Any]:
        return _resolve(self.target)

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


# Misbehaving back-ends every puzzle has, for testing the harness (twinsolve.bench.faults).
_FAULTS = tuple(
    Backend(f"fault-{kind}", f"twinsolve.bench.faults:{kind}", f"test only: {what}",
            test_only=True)
    for kind, what in (("crash", "dies of SIGSEGV"), ("abort", "dies of SIGABRT"),
                       ("hang", "ignores its time limit"), ("memory", "allocates without bound"),
                       ("wrong", "answers what verify rejects"))
)


# Any DIMACS solver binary on the `sat` encoding: `cmd:kissat` (twinsolve.bench.external).
_EXTERNAL = Backend("cmd", "twinsolve.bench.external:solve",
                    "a DIMACS SAT solver program on the sat encoding: cmd:PROGRAM",
                    supports_target="twinsolve.bench.external:supports", bare_option="program",
                    by_default=False)


def _standard(name: str, title: str, sat_unsupported: bool = False,
              optimisation: bool = True) -> Puzzle:
    """The usual trio plus `brute`, following the naming convention of DESIGN.md."""
    models = f"twinsolve.models.{name}"
    return Puzzle(name, title, f"twinsolve.puzzles.{name}", (
        Backend("hand", f"twinsolve.search.{name}:solve",
                "hand-written propagation / search in plain Python"),
        Backend("cpsat", f"{models}:solve_cpsat", "OR-Tools CP-SAT model",
                bare_option="workers"),
        Backend("sat", f"{models}:solve_sat", "PySAT CNF / MaxSAT encoding",
                supports_target=f"{models}:supports_sat" if sat_unsupported else None,
                bare_option="solver"),
        Backend("brute", f"twinsolve.puzzles.{name}:brute",
                "exhaustive enumeration, tiny instances only (tests)", test_only=True),
        _EXTERNAL,
        *_FAULTS,
    ), optimisation)


def _with_peer(puzzle: Puzzle, peer: Backend) -> Puzzle:
    return Puzzle(puzzle.name, puzzle.title, puzzle.rules_module, (*puzzle.backends, peer),
                  puzzle.optimisation)


# A peer solver for side-by-side benchmarks (`pip install -e '.[peers]'`); never planned
# by default: name it with --backends.
_PUZZLEKIT = Backend("puzzlekit", "twinsolve.bench.peers:solve_puzzlekit",
                     "the puzzlekit package's OR-Tools solver (peer, benchmarks only)",
                     supports_target="twinsolve.bench.peers:puzzlekit_supports",
                     bare_option="workers", by_default=False)

_TABLE: dict[str, Puzzle] = {
    p.name: p for p in (
        _standard("lightsout", "Lights Out", sat_unsupported=True),
        _with_peer(_standard("cave", "Cave (Corral)", optimisation=False), _PUZZLEKIT),
        _standard("mirror", "Mirror maze"),
        _standard("jugs", "Water jugs"),
        _standard("clock", "Clock stepping"),
        _standard("chess", "Solitaire Chess", optimisation=False),
    )
}


def puzzles() -> list[Puzzle]:
    return list(_TABLE.values())


def puzzle(name: str) -> Puzzle:
    try:
        return _TABLE[name]
    except KeyError:
        known = ", ".join(_TABLE)
        raise UsageError(f"unknown puzzle {name!r} (known: {known})") from None


def puzzle_of(instance: Any) -> Puzzle:
    """The registry entry for an instance object (its class carries `PUZZLE`)."""
    name = getattr(type(instance), "PUZZLE", None)
    if name is None:
        raise UsageError(f"{type(instance).__name__} is not a twinsolve instance")
    return puzzle(name)


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
