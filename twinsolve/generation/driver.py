"""`twinsolve generate`: N unique-solution puzzles of one level, the same bytes every time.

The rules. A request (puzzle, size, level, symmetric, the puzzle's own
options) is checked by the puzzle's generator (`core.generation`) before
anything runs. Puzzle i of a run (0-based) is searched for by trying
`attempt` with the random generators seeded `"twinsolve generate PUZZLE
SEED i t"` for t = 0, 1, ... up to `attempts` tries; the first try that
yields a puzzle wins. A puzzle depends on nothing but (puzzle, seed, i, t)
and the request, never on a measured time or on which process ran it, so
the same arguments give the same files with any `--jobs`. When no try
yields a puzzle the request is impossible (as asked, within the budget):
one line naming the level, the size and the budget, and nothing written.
`timeout` bounds each puzzle's whole search (all its tries); a puzzle that
needs longer ends the run the same way. Files are written only once every
puzzle is found, each atomically.

A puzzle's `expect-solution` passes the puzzle's `verify` before it is kept (a
failure is a bug in its generator, raised as such). Each file carries, before the
puzzle's own answer lines (`expect-unique`,
`expect-solution` / `expect-objective`), who made it and how:
`generator` (twinsolve's version and the module), `parameters`, `seed`
(with the puzzle's index and the winning try), `difficulty` and `grade`
(the grading solver's evidence, one line of JSON).

Parallelism: puzzles are independent, so `jobs` processes take them in
order (`ProcessPoolExecutor.map`), and results come back in order.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .. import __version__
from ..core import registry
from ..core.errors import UsageError, quoted
from ..core.generation import ATTEMPTS, Generated, Request, evidence_text, spelled
from ..core.time_limit import TimeLimit, TimeLimitReached
from ..files.writing import write_instances

__all__ = ["Plan", "make_plan", "generate", "write", "ATTEMPTS"]

_SAFE = re.compile(r"[^A-Za-z0-9]")  # option values in file names: letters and digits only


@dataclass(frozen=True)
class Plan:
    """A checked request and how many puzzles to make of it."""

    request: Request
    count: int
    seed: int
    attempts: int = ATTEMPTS
    timeout: float | None = None

    def size_text(self) -> str:
        request = self.request
        return "" if request.rows is None else f"{request.rows}x{request.cols}"

    def describe(self) -> str:
        """`hard 10x10 NAME puzzle`, `hard 5x5 NAME puzzle (variant=torus)`."""
        size = self.size_text()
        options = ", ".join(f"{key}={value}" for key, value in sorted(self.request.options.items()))
        return (f"{self.request.level} {size + ' ' if size else ''}{self.request.puzzle} puzzle"
                + (f" ({options})" if options else ""))


def make_plan(puzzle: str, *, level: str | None = None, size: tuple[int, int] | None = None,
              count: int = 1, seed: int = 0, symmetric: bool = False,
              options: dict[str, Any] | None = None, attempts: int | None = None,
              timeout: float | None = None) -> Plan:
    """The request, checked by the puzzle's generator; `UsageError` for anything it refuses.

    `level` defaults to the generator's easiest that it accepts for the request,
    `size` to its `DEFAULT_SIZE`,
    `attempts` to the generator's `ATTEMPTS`.
    """
    entry = registry.puzzle(puzzle)
    module = registry.generator(entry)
    levels = tuple(module.LEVELS)
    if level is not None and level not in levels:
        raise UsageError(f"{puzzle} has no difficulty {quoted(level)} "
                         f"(levels: {', '.join(levels)})")
    options = {key: value for key, value in (options or {}).items()
               if value is not None and value is not False}
    declared = {option.name: option for option in module.OPTIONS}
    unknown = sorted(set(options) - set(declared))
    if unknown:
        takes = ", ".join(spelled(name) for name in declared) or "no options of its own"
        raise UsageError(f"{puzzle}'s generator has no option {spelled(unknown[0])} "
                         f"(it takes {takes}; see 'twinsolve generate {puzzle} --help')")
    symmetric = bool(options.pop("symmetric", symmetric))  # a field of the request
    if size is None:
        size = module.DEFAULT_SIZE
    elif module.DEFAULT_SIZE is None:
        raise UsageError(f"{puzzle} puzzles have no grid size: leave out --size")
    if count < 1:
        raise UsageError(f"--count must be at least 1, got {count}")
    rows, cols = size if size is not None else (None, None)
    # No level asked: the easiest the generator accepts for this request (a 5x5 Lights
    # Out board has a kernel, so it has no easy level).
    candidates = levels if level is None else (level,)
    refusals = []
    for candidate in candidates:
        request = Request(entry.name, candidate, rows, cols, symmetric, options)
        try:
            module.check(request)
            break
        except UsageError as refused:
            refusals.append(refused)
    else:
        raise refusals[0]
    if attempts is None:
        attempts = module.ATTEMPTS
    return Plan(request, count, seed, attempts, timeout)


def _rng(plan: Plan, index: int, attempt: int) -> random.Random:
    # A string seed is hashed (SHA-512) by `random`: the same on every machine and run.
    return random.Random(f"twinsolve generate {plan.request.puzzle} {plan.seed} {index} "
                         f"{attempt}")


def _parameters(plan: Plan) -> str:
    request = plan.request
    words = [request.puzzle, *([plan.size_text()] if request.rows is not None else []),
             f"difficulty={request.level}"]
    if request.symmetric:
        words.append("symmetric")
    words += [f"{key}={value}" for key, value in sorted(request.options.items())]
    return " ".join(words)


def _stamped(plan: Plan, index: int, attempt: int, found: Generated, module: str) -> Any:
    """The instance with the driver's metadata lines before the generator's own."""
    stamp = (("generator", f"twinsolve {__version__} {module}"),
             ("parameters", _parameters(plan)),
             ("seed", f"{plan.seed} (puzzle {index + 1} of {plan.count}, try {attempt + 1})"),
             ("difficulty", str(found.grade.level)),
             ("grade", evidence_text(found.grade.evidence)))
    instance = found.instance
    return replace(instance, meta=stamp + tuple(instance.meta))


def _check_answer(entry: registry.Puzzle, found: Generated, module: str) -> None:
    """The answer a generator writes passes the puzzle's own `verify`, as every back-end's
    does: the harness judges back-ends against it. A failure is a generator's bug."""
    known = dict(found.instance.meta).get("expect-solution")
    if known is None:
        return
    problems = entry.rules.verify(found.instance, json.loads(known))
    if problems:
        raise RuntimeError(f"{module} wrote an expect-solution that verify rejects: "
                           f"{problems[0]}")


def find_one(plan: Plan, index: int) -> Any:
    """Puzzle `index` of the plan (module docstring); `UsageError` when none is found."""
    entry = registry.puzzle(plan.request.puzzle)
    module = registry.generator(entry)
    try:
        with TimeLimit(plan.timeout, grace=0.0, phase="generating"):
            for attempt in range(plan.attempts):
                found = module.attempt(plan.request, _rng(plan, index, attempt))
                if found is not None:
                    _check_answer(entry, found, module.__name__)
                    return _stamped(plan, index, attempt, found, module.__name__)
    except TimeLimitReached:
        raise UsageError(f"puzzle {index + 1} of {plan.count}: no {plan.describe()} found "
                         f"within --timeout {plan.timeout:g} s (seed {plan.seed})") from None
    raise UsageError(f"no {plan.describe()} found in {plan.attempts} tries (seed {plan.seed}, "
                     f"puzzle {index + 1} of {plan.count}); try another size or level")


def _find(job: tuple[Plan, int]) -> Any:
    return find_one(*job)


def generate(plan: Plan, jobs: int = 1,
             progress: Callable[[int], None] | None = None) -> list[Any]:
    """Every puzzle of the plan, in order; `progress(i)` after each one found."""
    work = [(plan, index) for index in range(plan.count)]
    found: list[Any] = []
    results: Iterator[Any]
    if jobs <= 1 or plan.count == 1:
        results = map(_find, work)
        for instance in results:
            found.append(instance)
            if progress:
                progress(len(found))
        return found
    with ProcessPoolExecutor(max_workers=min(jobs, plan.count)) as pool:
        try:
            for instance in pool.map(_find, work):
                found.append(instance)
                if progress:
                    progress(len(found))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return found


def file_names(plan: Plan) -> list[str]:
    """`cave-hard-10x10-s7-01.txt`, `chess-expert-4x4-pieces10-s1-01.txt`: puzzle, level,
    size, the puzzle's options, seed and number (so two plans never share a name)."""
    request = plan.request
    size = f"-{plan.size_text()}" if request.rows is not None else ""
    options = "".join(f"-{key}{_SAFE.sub('', str(value))}"
                      for key, value in sorted(request.options.items()))
    symmetric = "-symmetric" if request.symmetric else ""
    width = max(2, len(str(plan.count)))
    return [f"{request.puzzle}-{request.level}{size}{options}{symmetric}-s{plan.seed}-"
            f"{i + 1:0{width}d}.txt" for i in range(plan.count)]


def write(plan: Plan, instances: list[Any], out: str | Path) -> list[Path]:
    """The files of a finished plan, written atomically into `out`."""
    return write_instances(out, zip(file_names(plan), instances, strict=True))
