"""The contract test kit: what every registered puzzle must hold, for its own tests.

A puzzle's tests (twinsolve's own, or a plugin's) run every check on it:

    import pytest
    from twinsolve import testing

    @pytest.mark.parametrize("check", testing.CHECKS, ids=testing.check_name)
    def test_contract(check):
        check("mypuzzle")

Each check takes the puzzle's registered name, draws small instances from
the puzzle's declared strategy (`Puzzle.strategy`: a function giving a
hypothesis strategy) and raises `AssertionError` with what broke. A puzzle
without a strategy fails every check that needs one, naming the puzzle. The
checks, one function each:

- `declaration`: the rules module imports with every name the contract
  needs, its `Instance.PUZZLE` is the puzzle's name, every module and target
  the declaration names imports;
- `round_trip`: `parse(format(i)) == i`, and `render` prints within its width;
- `parse_fuzz`: `parse` of damaged texts (lines cut, dropped, doubled,
  characters changed) either parses into an instance that round-trips or
  raises `InstanceError`, never anything else;
- `verify_rejects_corruption`: every single-step corruption of a valid
  solution (a character of a string changed, a number moved by one, an item
  of a list dropped, doubled or swapped with its neighbour) is rejected by
  `verify`, unless the oracle allows it: for an optimisation puzzle a
  solution no better than the optimum, and a second optimal (or, for a
  feasibility puzzle, a second) solution only where `brute` counts one;
- `backends_agree`: every default back-end agrees with `brute` on status,
  objective, uniqueness and count, answers `unsupported` only where it says
  it does, answers at least one instance, and refuses an option it does not
  read;
- `generator`: when declared: the easiest level at the default size gives a
  puzzle, the same seed gives the same text, and `hand` finds it unique and
  of the stated objective;
- `picture`: when declared: the SVG of an instance, alone and with a
  solution, is an SVG, the same bytes every time;
- `exports`: when declared: the CNF's models decode into verified solutions
  (solved here with PySAT) and the CP-SAT model validates.

Every solution any check meets passes through `verify` (via `core.run`).
Hypothesis is a test dependency: it is imported when a check runs.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from .core import registry
from .core.declaration import CAPABILITIES, REQUIRED, Absent, present
from .core.errors import InstanceError, UsageError
from .core.limits import Limits
from .core.result import Status
from .core.run import run

__all__ = ["CHECKS", "check_name", "declaration", "round_trip", "parse_fuzz",
           "verify_rejects_corruption", "backends_agree", "generator", "picture", "exports",
           "corruptions", "examples"]

EXAMPLES = 40            # instances drawn per check
ASKED = Limits(timeout=60, unique=True, count=True)
_CORRUPTIONS = 300       # corruptions tried per solution, at most


def _fail(puzzle: str, what: str) -> None:
    raise AssertionError(f"{puzzle}: {what}")


def _entry(puzzle: str) -> registry.Puzzle:
    try:
        return registry.puzzle(puzzle)
    except UsageError as exc:
        raise AssertionError(f"{puzzle}: {exc}") from None


def examples(puzzle: str, count: int = EXAMPLES) -> list[Any]:
    """`count` small instances from the puzzle's declared strategy, the same every run."""
    from hypothesis import HealthCheck, Phase, given, settings

    entry = _entry(puzzle)
    if not present(entry.strategy):
        _fail(puzzle, "declares no small-instance strategy (Puzzle.strategy): the contract "
                      "kit has nothing to check it on")
    strategy = registry.capability(entry, "strategy")()
    drawn: list[Any] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(instance: Any) -> None:
        drawn.append(instance)

    collect()
    return drawn


# ---------------------------------------------------------------- the checks

def declaration(puzzle: str) -> None:
    """The declaration's modules import and define what the contract needs."""
    entry = _entry(puzzle)
    rules = entry.rules
    missing = [name for name in REQUIRED["rules"] if not hasattr(rules, name)]
    if missing:
        _fail(puzzle, f"{entry.rules_module} has no {', '.join(missing)}")
    if getattr(rules.Instance, "PUZZLE", None) != puzzle:
        _fail(puzzle, f"{entry.rules_module}.Instance.PUZZLE is not {puzzle!r}")
    for backend in entry.backends:
        backend.solve  # noqa: B018 - imports it, or raises naming it
    for name in CAPABILITIES:
        value = entry.capability(name)
        if isinstance(value, Absent):
            continue
        loaded = registry.capability(entry, name)
        for attribute in REQUIRED.get(name, ()):
            if not hasattr(loaded, attribute):
                _fail(puzzle, f"its {CAPABILITIES[name]} {value} has no {attribute}")
    if not any(b.name == "brute" for b in entry.backends):
        _fail(puzzle, "has no 'brute' back-end: the kit's oracle")


def round_trip(puzzle: str) -> None:
    """`parse(format(i)) == i` on every example; `render` gives text."""
    rules = _entry(puzzle).rules
    for instance in examples(puzzle):
        text = rules.format(instance)
        again = rules.parse(text, "round trip")
        if again != instance:
            _fail(puzzle, f"parse(format(i)) != i for\n{text}")
        _shown(puzzle, rules.render(instance, None, width=80))


def _shown(puzzle: str, rendered: Any) -> None:
    """`render`'s answer prints (a `str` or a rich renderable) within its width."""
    import io

    from rich.console import Console

    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(rendered, soft_wrap=True)
    wide = [line for line in out.getvalue().splitlines() if len(line) > 80]
    if wide:
        _fail(puzzle, f"render(width=80) printed a line of {len(wide[0])} characters")


def _damaged(text: str, rng: random.Random) -> Iterator[str]:
    lines = text.splitlines(keepends=True)
    for index in range(len(lines)):
        yield "".join(lines[:index] + lines[index + 1:])          # a line dropped
        yield "".join(lines[:index + 1] + lines[index:])          # a line doubled
        line = lines[index]
        if len(line) > 1:
            cut = rng.randrange(1, len(line))
            yield "".join(lines[:index] + [line[:cut] + "\n"] + lines[index + 1:])
    alphabet = sorted(set(text) | set("0123456789 -#x?\t\ufeff\u00e9"))
    for _ in range(2 * len(lines) + 4):
        chars = list(text)
        if chars:
            chars[rng.randrange(len(chars))] = rng.choice(alphabet)
        yield "".join(chars)
    yield ""
    yield text.upper()


def parse_fuzz(puzzle: str) -> None:
    """Damaged texts parse into round-tripping instances or raise `InstanceError` only."""
    rules = _entry(puzzle).rules
    rng = random.Random(f"twinsolve.testing {puzzle}")
    for instance in examples(puzzle, 15):
        for text in _damaged(rules.format(instance), rng):
            try:
                parsed = rules.parse(text, "fuzz.txt")
            except InstanceError:
                continue
            except Exception as exc:  # noqa: BLE001 - what the check is about
                _fail(puzzle, f"parse raised {type(exc).__name__}: {exc}, not InstanceError, "
                              f"on\n{text!r}")
            if rules.parse(rules.format(parsed)) != parsed:
                _fail(puzzle, f"a damaged text parsed but does not round-trip:\n{text!r}")


def corruptions(solution: Any) -> Iterator[Any]:
    """Every single-step corruption of a JSON-ready solution (module docstring).

    >>> sorted(map(json.dumps, corruptions({"a": [1]})))
    ['{"a": [0]}', '{"a": [1, 1]}', '{"a": [2]}', '{"a": []}']
    """
    if isinstance(solution, bool):
        yield not solution
    elif isinstance(solution, int):
        yield solution + 1
        yield solution - 1
    elif isinstance(solution, str):
        alphabet = sorted(set(solution)) or ["0"]
        others = alphabet if len(alphabet) > 1 else alphabet + ["1" if alphabet[0] != "1" else "0"]
        for index, char in enumerate(solution):
            for other in others:
                if other != char:
                    yield solution[:index] + other + solution[index + 1:]
    elif isinstance(solution, list):
        for index, item in enumerate(solution):
            yield solution[:index] + solution[index + 1:]
            yield solution[:index + 1] + solution[index:]
            if index + 1 < len(solution) and solution[index + 1] != item:
                yield (solution[:index] + [solution[index + 1], item]
                       + solution[index + 2:])
            for changed in corruptions(item):
                yield solution[:index] + [changed] + solution[index + 1:]
    elif isinstance(solution, dict):
        for key, value in solution.items():
            for changed in corruptions(value):
                yield {**solution, key: changed}


def verify_rejects_corruption(puzzle: str) -> None:
    """`verify` rejects every single-step corruption the oracle does not allow."""
    entry = _entry(puzzle)
    rules = entry.rules
    for instance in examples(puzzle, 20):
        oracle = run(instance, "brute", ASKED, catch=False)
        if oracle.solution is None:
            continue
        if rules.verify(instance, oracle.solution):
            _fail(puzzle, f"verify rejects brute's solution {oracle.solution}")
        original = json.dumps(oracle.solution, sort_keys=True)
        for tried, changed in enumerate(corruptions(oracle.solution)):
            if tried >= _CORRUPTIONS:
                break
            if json.dumps(changed, sort_keys=True) == original:
                continue
            try:
                problems = rules.verify(instance, changed)
            except Exception as exc:  # noqa: BLE001 - verify must answer, not raise
                _fail(puzzle, f"verify raised {type(exc).__name__}: {exc} on {changed}")
            if problems:
                continue
            _allowed(puzzle, entry, rules, instance, oracle, changed)


def _allowed(puzzle: str, entry: registry.Puzzle, rules: Any, instance: Any, oracle: Any,
             changed: Any) -> None:
    """A corruption verify accepted: only as good as another solution the oracle knows."""
    if entry.optimisation:
        value = rules.objective(instance, changed)
        if value < oracle.objective:
            _fail(puzzle, f"verify accepts {changed}, better than the optimum "
                          f"{oracle.objective}")
        if value > oracle.objective or (oracle.count or 0) >= 2:
            return
    elif (oracle.count or 0) >= 2:
        return
    _fail(puzzle, f"verify accepts the corruption {changed} of the only solution "
                  f"{oracle.solution}")


def backends_agree(puzzle: str, count: int = EXAMPLES) -> None:
    """Every default back-end agrees with `brute` (module docstring) on `count` examples."""
    entry = _entry(puzzle)
    cases = examples(puzzle, count)
    for backend in entry.default_backends():
        answered = 0
        for instance in cases:
            oracle = run(instance, "brute", ASKED, catch=False)
            result = run(instance, backend.name, ASKED, catch=False)
            reason = backend.unsupported_reason(instance)
            if result.status is Status.UNSUPPORTED:
                if reason is None or result.message != reason:
                    _fail(puzzle, f"{backend.name} declined a case it supports: "
                                  f"{result.message}")
                continue
            if reason is not None:
                _fail(puzzle, f"{backend.name} answered {result.status} where it says "
                              f"{reason!r}")
            answered += 1
            seen = (result.status, result.objective, result.unique, result.count)
            wanted = (oracle.status, oracle.objective, oracle.unique, oracle.count)
            if seen != wanted:
                _fail(puzzle, f"{backend.name} answered {seen}, brute {wanted} on\n"
                              f"{entry.rules.format(instance)}")
            if result.solution is not None and result.verified is not True:
                _fail(puzzle, f"{backend.name}'s solution was not verified")
        if not answered:
            _fail(puzzle, f"{backend.name} answered none of the {len(cases)} examples")
        try:
            run(cases[0], f"{backend.name}:colour=blue", ASKED, catch=False)
        except UsageError as exc:
            if "colour" not in str(exc):
                _fail(puzzle, f"{backend.name} refused colour=blue without naming it: {exc}")
        else:
            _fail(puzzle, f"{backend.name} took an option it does not read (colour=blue)")


def generator(puzzle: str) -> None:
    """The generator, where declared, makes a unique puzzle of its stated answer, the same
    text for the same seed."""
    from .generation.driver import generate, make_plan

    entry = _entry(puzzle)
    if not registry.has(entry, "generator"):
        return
    plan = make_plan(puzzle, count=1, seed=3, timeout=60)
    first, again = generate(plan)[0], generate(plan)[0]
    rules = entry.rules
    if rules.format(first) != rules.format(again):
        _fail(puzzle, "the same seed gave two different puzzles")
    meta = dict(first.meta)
    result = run(first, "hand", Limits(timeout=60, unique=True), catch=False)
    if result.unique is not True:
        _fail(puzzle, f"a generated puzzle is not unique by hand: {result.status}")
    if "expect-objective" in meta and str(result.objective) != meta["expect-objective"]:
        _fail(puzzle, f"hand found objective {result.objective}, the file says "
                      f"{meta['expect-objective']}")


def picture(puzzle: str) -> None:
    """The picture, where declared, draws an instance alone and solved, as the same SVG
    bytes every time."""
    from .graphics.canvas import encode

    entry = _entry(puzzle)
    if not registry.has(entry, "picture"):
        return
    draw = registry.picture(entry).draw
    for instance in examples(puzzle, 5):
        solved = run(instance, "brute", ASKED, catch=False).solution
        for solution in (None, solved):
            first = encode(draw(instance, solution), "svg")
            if b"<svg" not in first[:200]:
                _fail(puzzle, "its picture is not an SVG")
            if encode(draw(instance, solution), "svg") != first:
                _fail(puzzle, "its picture is not the same SVG every time")


def exports(puzzle: str) -> None:
    """The exports, where declared: CNF models decode into verified solutions, and the
    CP-SAT model validates."""
    from pysat.solvers import Solver

    from .models.export import cpsat_export, export_reason, sat_export

    entry = _entry(puzzle)
    for instance in examples(puzzle, 10):
        if registry.has(entry, "sat_export") and export_reason(instance) is None:
            try:
                cnf = sat_export(instance)
            except UsageError:  # nothing to encode (a board already won): refused in one line
                continue
            with Solver(name="minisat22", bootstrap_with=[list(c) for c in cnf.clauses]) as sat:
                if sat.solve():
                    solution = cnf.decode({lit for lit in sat.get_model() if lit > 0})
                    problems = entry.rules.verify(instance, solution)
                    if problems:
                        _fail(puzzle, f"a model of its CNF decodes into {solution}, which "
                                      f"verify rejects: {problems[0]}")
        if registry.has(entry, "cpsat_export"):
            try:
                model = cpsat_export(instance)
            except UsageError:
                continue
            if model.validate():
                _fail(puzzle, f"its CP-SAT model does not validate: {model.validate()}")


CHECKS: tuple[Callable[[str], None], ...] = (declaration, round_trip, parse_fuzz,
                                               verify_rejects_corruption, backends_agree,
                                               generator, picture, exports)


def check_name(check: Callable[[str], None]) -> str:
    """The id of a check in a parametrised test."""
    return check.__name__
