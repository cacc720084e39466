"""What a puzzle or a back-end declares about itself: the one contract of a plugin.

A puzzle is one `Puzzle` declaration, found through the entry-point group
`twinsolve.puzzles` (the built-in puzzles are registered there like any
plugin, in twinsolve's own `pyproject.toml`). It names its rules, its
back-ends and each optional capability, as dotted module names
(`"mypkg.rules"`) or `"module:attribute"` targets, imported only when the
capability is used, so listing the puzzles never pays for importing a
solver. A capability the puzzle does not have is `Absent(reason)`: asking
for it is refused in one line that names the puzzle and says why
(`NAME has no summary mode`), never probed with `hasattr`.

What each named module or target must provide (the registry checks that
the names exist when it loads a declaration, `core.registry`):

- `rules` (module): `Instance` (a frozen dataclass whose class carries
  `PUZZLE = "<name>"` and whose `meta` holds the file's metadata), `parse(text,
  source=None)` raising only `InstanceError`, `format(instance)` with
  `parse(format(i)) == i`, `verify(instance, solution) -> list[str]` (`[]`:
  valid), `objective(instance, solution)`, `render(instance, solution=None,
  width=None)` (text that fits `width` columns).
- `backends`: `Backend`s; `solve(instance, limits) -> Result` each.
- `generator` (module, `core.generation`'s contract): `LEVELS`,
  `DEFAULT_SIZE`, `OPTIONS` (typed `Option`s), `ATTEMPTS`, `SHIPPED` (the
  graded sets shipped in `instances/<name>/graded/`), `check`, `attempt`,
  `grade`.
- `picture` (module): `draw(instance, solution=None) -> graphics.canvas.Drawing`.
- `sat_export` / `cpsat_export` (targets): `instance -> CnfExport` (the
  `sat` back-end's clauses, cost literals and decoder; `models.export`) /
  `instance -> CpModel`.
- `url_reader` (module): `is_url(text)`, `decode_url(url, source=None)`,
  `encode_url(instance)`.
- `dataset_reader` (module): `is_dataset(document)`, `read_dataset(text,
  source)`, `write_instances(pairs, folder)`.
- `too_large` (target): `instance -> str | None`, why the full solve cannot
  hold an instance (boards too large to print; a back-end's
  `summary_module` then solves it without holding it).
- `strategy` (target): `() -> hypothesis strategy` of small instances, for
  the contract test kit (`twinsolve.testing`); a registered puzzle without
  one fails the kit by name.
- `explanation` (module, usually `explain.py`, apart from the fast `hand`): the
  hand solver's reasoning step by step (`twinsolve.explain`): `LEVELS` (the
  level names `--level` takes, easiest first), `explain(instance, level=None)
  -> explain.steps.Explanation` (numbered `Step`s: technique, the items
  decided and their values, one sentence a person can check, the premises it
  used, kind "deduction" or "bifurcation"; replaying them gives the verified
  solution) and `hint(instance, state) -> Step | Mistake | None` (for a
  position in the solution-keys JSON with unknowns: its first mistake, else
  the next step, else None when it is complete and right).
- `play` (module, usually `play.py`): how a person plays it by hand (the
  studio's play mode, `twinsolve.studio`; its vocabulary is `core.play`). A
  position is the solution keys' JSON with unknowns (the state `hint` takes,
  e.g. `{"inside": ["1?0", ...]}`), made only by `start` and `apply`; a move
  is a string. `PLAN` (True: a position is a plan of moves from the start;
  False: marks set in any order, whose moves are `"ITEM VALUE"`, e.g.
  `"r3c7 1"`),
  `start(instance)`, `apply(instance, position, move)` (`UsageError` for a
  move that is not legal there), `board(instance, position) -> core.play.Board`
  (the `drawing`, a `graphics.canvas.Drawing`; `targets` to click, boxes in
  mm, named as the explanation names items, `r3c7`; `complete`: nothing left
  undecided, or the plan's goal reached; one line of `status`),
  `moves(instance, position)` (the `core.play.Move`s a person can make
  there: the targets clicked or dragged in order, a right click, or a
  button), `items(instance, position)` (the decided items and their
  values), `moves_to(instance, solution)` (the moves from the start to a
  solution), `remaining(instance, position)` (the instance left to solve from
  the position: the start moved on for a plan, else the instance),
  `EDIT_TOKENS` (what an author may put in a cell, e.g. `("-", "?")`; empty:
  the instance is authored as text), `blank(rows, cols)` and `edit(instance,
  item, token)` (`UsageError` for a token the cell cannot hold; the board has
  a target for every item `edit` takes).

A back-end for puzzles it does not belong to (someone's own Cave encoding,
a peer solver, `cmd:PROGRAM`) is a `BackendFor` declaration, found through
the entry-point group `twinsolve.backends`: the back-end and the names of
the puzzles it serves (none named: every puzzle). Its answers pass through
the puzzle's own `verify` like every other back-end's.

>>> Absent("its encodings grow their horizon while solving").reason
'its encodings grow their horizon while solving'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from types import ModuleType
from typing import Any

from .errors import UsageError

__all__ = ["Absent", "Backend", "Puzzle", "BackendFor", "OtherFormat", "standard",
           "CAPABILITIES", "REQUIRED", "present", "resolve"]


def resolve(target: str, owner: str) -> Any:
    """The attribute a `"module:attribute"` target names (or the module a plain module name
    names), imported; a one-line `UsageError` naming `owner` when it cannot be had."""
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UsageError(f"{owner}: cannot import {module_name}: {exc}") from None
    if not attribute:
        return module
    try:
        return getattr(module, attribute)
    except AttributeError:
        raise UsageError(f"{owner}: {module_name} has no {attribute}") from None


@dataclass(frozen=True)
class Absent:
    """A capability a puzzle does not provide, and why (said when it is asked for)."""

    reason: str = ""


def present(value: str | Absent | None) -> bool:
    """Whether a declared capability is there (a module name or target, not `Absent`)."""
    return isinstance(value, str)


@dataclass(frozen=True)
class Backend:
    """One back-end: what it is called and where its code is.

    - `name`: the word of a back-end spec (`sat` in `sat:glucose4`);
    - `target`: `"module:function"`, `solve(instance, limits) -> Result`;
    - `description`: one line for `twinsolve list`;
    - `supports_target`: `instance -> str | None`, the reason it does not
      handle an instance's variant (None: every instance);
    - `bare_option`: the option a bare word after the name sets (`solver`);
    - `test_only`: never planned or listed for users (`brute`, the faults);
    - `by_default`: planned when a suite names no back-ends;
    - `options_target`: `check_options(limits)`, raising `UsageError` for an
      option it would refuse (None: it takes no options);
    - `summary_module`: a module with `supports(instance, limits)` and
      `summary(instance, limits) -> Result` for boards too large to hold.
    """

    name: str
    target: str
    description: str
    supports_target: str | None = None
    bare_option: str | None = None
    test_only: bool = False
    by_default: bool = True
    options_target: str | None = None
    summary_module: str | None = None

    @property
    def solve(self) -> Callable[..., Any]:
        """`solve(instance, limits) -> Result`, imported."""
        return resolve(self.target, f"back-end {self.name!r}")

    def check_options(self, limits: Any) -> None:
        """Refuse, as a `UsageError`, any option in `limits` this back-end would refuse."""
        if self.options_target is None:
            limits.check_options(self.name, ())
        else:
            resolve(self.options_target, f"back-end {self.name!r}")(limits)

    def unsupported_reason(self, instance: Any) -> str | None:
        """Why this back-end does not handle `instance`'s variant, or None."""
        if self.supports_target is None:
            return None
        return resolve(self.supports_target, f"back-end {self.name!r}")(instance)


# The optional capabilities of a puzzle, each a `Puzzle` field: present (a module name
# or a target) or `Absent`. The words of a refusal: "NAME has no <word>".
CAPABILITIES = {
    "generator": "generator",
    "picture": "pictures",
    "sat_export": "CNF export",
    "cpsat_export": "CP-SAT export",
    "url_reader": "URL reader",
    "dataset_reader": "dataset reader",
    "too_large": "summary mode",
    "strategy": "small-instance strategy",
    "explanation": "explanation of its solving steps",
    "play": "play mode",
}

# What each module or target must define: module fields name their attributes; a
# target ("module:attribute") names its own.
REQUIRED: dict[str, tuple[str, ...]] = {
    "rules": ("Instance", "parse", "format", "verify", "objective", "render"),
    "generator": ("LEVELS", "DEFAULT_SIZE", "OPTIONS", "ATTEMPTS", "SHIPPED", "check",
                  "attempt", "grade"),
    "picture": ("draw",),
    "url_reader": ("is_url", "decode_url", "encode_url"),
    "dataset_reader": ("is_dataset", "read_dataset", "write_instances"),
    "explanation": ("LEVELS", "explain", "hint"),
    "play": ("PLAN", "start", "apply", "board", "moves", "items", "moves_to", "remaining",
             "EDIT_TOKENS", "blank", "edit"),
    "summary_module": ("supports", "summary"),
}


@dataclass(frozen=True)
class Puzzle:
    """Everything one puzzle provides (module docstring: what each name must define).

    - `name`: the one word used everywhere: the instance file's header, the
      folder in `instances/`, the CLI argument, the entry point's name;
    - `title`: the name for people (`Cave (Corral)`);
    - `rules_module`: the rules module;
    - `backends`: its own back-ends (`hand`, `cpsat`, `sat`, a test-only `brute`);
    - `optimisation`: True when its answer has an objective to minimise;
    - `rules_text`: its rules for people, in a sentence or two (a printed sheet says
      them on the first page where the puzzle appears; "": none given);
    - the optional capabilities (`CAPABILITIES`), each a name or `Absent`;
    - `origin`: where it comes from, filled in by the registry ("built in", or
      the plugin's package and version).
    """

    name: str
    title: str
    rules_module: str
    backends: tuple[Backend, ...]
    optimisation: bool = True
    rules_text: str = ""
    generator: str | Absent = Absent()
    picture: str | Absent = Absent()
    sat_export: str | Absent = Absent()
    cpsat_export: str | Absent = Absent()
    url_reader: str | Absent = Absent()
    dataset_reader: str | Absent = Absent()
    too_large: str | Absent = Absent()
    strategy: str | Absent = Absent()
    explanation: str | Absent = Absent()
    play: str | Absent = Absent()
    origin: str = field(default="built in", compare=False)

    @property
    def rules(self) -> ModuleType:
        """The rules module, imported on first use."""
        return resolve(self.rules_module, f"puzzle {self.name!r}")

    def backend(self, name: str) -> Backend:
        """The back-end called `name`; `UsageError` listing the known ones."""
        for backend in self.backends:
            if backend.name == name:
                return backend
        known = ", ".join(b.name for b in self.backends if not b.test_only)
        raise UsageError(f"puzzle {self.name!r} has no back-end {name!r} (known: {known})")

    def default_backends(self) -> list[Backend]:
        """The back-ends a suite runs when none are named."""
        return [b for b in self.backends if not b.test_only and b.by_default]

    def capability(self, name: str) -> str | Absent:
        """The declared module or target of capability `name` (`CAPABILITIES`)."""
        if name not in CAPABILITIES:
            raise KeyError(name)
        return getattr(self, name)

    def absent_reason(self, name: str) -> str:
        """`NAME has no summary mode` (and why, when the declaration says)."""
        value = self.capability(name)
        why = value.reason if isinstance(value, Absent) and value.reason else ""
        return f"{self.name} has no {CAPABILITIES[name]}" + (f": {why}" if why else "")


@dataclass(frozen=True)
class BackendFor:
    """A back-end from outside a puzzle's declaration, and the puzzles it serves
    (`puzzles` empty: every puzzle)."""

    backend: Backend
    puzzles: tuple[str, ...] = ()

    def serves(self, puzzle: str) -> bool:
        return not self.puzzles or puzzle in self.puzzles


@dataclass(frozen=True)
class OtherFormat:
    """A kind of file that is no puzzle's instance but lives among them (`instances/`):
    its header word and what it is. A folder walk passes such files by quietly; named as
    an instance, one is refused with `description`."""

    header: str
    description: str


_CPSAT_OPTIONS = "twinsolve.models.cpsat_common:check_options"
_SAT_OPTIONS = "twinsolve.models.sat_common:check_options"


def standard(package: str, title: str, *, optimisation: bool = True,
             sat_unsupported: bool = False, own_options: tuple[str, ...] = (),
             extra: tuple[Backend, ...] = (), rules_text: str = "",
             **capabilities: str | Absent) -> Puzzle:
    """A declaration by the usual folder layout: `rules` (with `brute`), `hand` (the
    hand-written solver), `models` (`solve_cpsat`, `solve_sat`), and the capabilities
    given as names relative to the folder (`generator="generate"`, `too_large=
    "rules:too_large"`, `sat_export="models:sat_export"`) or `Absent(reason)`.

    A back-end named in `own_options` checks its options with its module's own function
    (`check_options` in `hand`, `check_cpsat_options` / `check_sat_options` in `models`),
    the others with the shared checkers (`hand` without one takes no options);
    `sat_unsupported` says `models.supports_sat` refuses some instances; `extra` adds
    back-ends of the folder beyond the usual ones (a peer solver); `rules_text` is the
    rules in a sentence or two, for people (`Puzzle.rules_text`). A keyword
    `summary="summary"` names the module of `hand`'s summary (boards too large to hold).

    >>> entry = standard("mypkg", "My puzzle", picture="picture")
    >>> entry.name, entry.picture, [b.name for b in entry.backends]
    ('mypkg', 'mypkg.picture', ['hand', 'cpsat', 'sat', 'brute'])
    """
    name = package.rpartition(".")[2]
    models, hand = f"{package}.models", f"{package}.hand"
    summary = capabilities.pop("summary", None)
    unknown = sorted(set(capabilities) - set(CAPABILITIES))
    if unknown:
        raise TypeError(f"standard() has no capability {unknown[0]!r} "
                        f"(capabilities: {', '.join(CAPABILITIES)})")

    def options(backend: str, own: str, shared: str | None) -> str | None:
        return own if backend in own_options else shared

    declared = {key: value if isinstance(value, Absent) else f"{package}.{value}"
                for key, value in capabilities.items()}
    backends = (
        Backend("hand", f"{hand}:solve", "hand-written propagation / search in plain Python",
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
        *extra,
    )
    return Puzzle(name, title, f"{package}.rules", backends, optimisation,
                  rules_text=rules_text, **declared)


def capability_fields() -> tuple[str, ...]:
    """The `Puzzle` fields that are optional capabilities, in declaration order."""
    return tuple(f.name for f in fields(Puzzle) if f.name in CAPABILITIES)
