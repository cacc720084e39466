"""Cave back-ends over the janko.at corpus, with uniqueness: time and search effort.

    python -m twinsolve.bench.cave_perf [--backends hand,cpsat,...] [--timeout S]
                                        [--dataset FILE] [--first N] [--per-instance]

Every chosen back-end (a back-end spec such as `hand` or `hand:probe=false`;
default: every back-end of `cave` that imports) runs on every puzzle of a
puzzlekit-dataset JSON file (default: `cave/janko-dev.json` of the shared
corpus, found like the tests find it) with `Limits(unique=True)`. A run
counts as solved when it returns `solved`, passes `cave.verify`, equals the
dataset's published solution and proves it unique. Printed per back-end:
solved / wrong / other, the median and maximum wall time and nodes over its
solved runs; then, for each pair of back-ends, the ratios of their medians
over the puzzles both solved.

Runs go through `twinsolve.core.run.run` once `cave` is in the registry;
until then the usual targets (`hand` = `twinsolve.search.cave:solve`,
`cpsat` / `sat` = `twinsolve.models.cave:solve_cpsat` / `solve_sat`) are
called directly and checked with `cave.verify` here.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import InstanceError, UsageError
from ..core.limits import Limits
from ..core.registry import parse_backend_spec, puzzle
from ..core.result import Result, Status
from ..core.run import run
from ..puzzles import cave
from ..puzzles.puzzlekit_json import read_dataset

__all__ = ["main", "BackendRuns", "benchmark", "default_dataset", "solver_for"]

Solver = Callable[[cave.Instance, Limits], Result]

# Where each back-end lives before `cave` is registered (the registry's naming convention).
_UNREGISTERED_TARGETS = {
    "hand": "twinsolve.search.cave:solve",
    "cpsat": "twinsolve.models.cave:solve_cpsat",
    "sat": "twinsolve.models.cave:solve_sat",
}


def default_dataset() -> Path:
    """The corpus's janko set: $TWINSOLVE_CORPUS or `shared/corpus` beside the project."""
    root = Path(__file__).resolve().parents[2]
    corpus = Path(os.environ.get("TWINSOLVE_CORPUS", root.parent / "shared" / "corpus"))
    return corpus / "cave" / "janko-dev.json"


def _registered() -> bool:
    try:
        puzzle("cave")
    except UsageError:
        return False
    return True


def _import(target: str) -> Solver:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def solver_for(spec: str) -> Solver:
    """A callable running back-end `spec` on an instance; UsageError if it is unknown.

    ImportError / AttributeError propagate when the back-end's module is missing.
    """
    if _registered():
        entry = puzzle("cave")
        backend = entry.backend(spec.split(":", 1)[0])
        parse_backend_spec(spec, backend)  # bad options fail now, not on every puzzle
        backend.solve  # noqa: B018 - imports the target, so a missing module fails here
        return lambda instance, limits: run(instance, spec, limits)
    name, options = parse_backend_spec(spec)
    if name not in _UNREGISTERED_TARGETS:
        raise UsageError(f"back-end {name!r} is unknown: 'cave' is not registered yet "
                         f"(known here: {', '.join(_UNREGISTERED_TARGETS)})")
    solve = _import(_UNREGISTERED_TARGETS[name])

    def checked(instance: cave.Instance, limits: Limits) -> Result:
        result = solve(instance, Limits(**{**limits.__dict__,
                                           "options": {**limits.options, **options}}))
        if result.solution is not None:
            problems = cave.verify(instance, result.solution)
            if problems:
                return result.with_(status=Status.WRONG, verified=False, message=problems[0])
        return result
    return checked


def _default_specs() -> list[str]:
    if _registered():
        names = [b.name for b in puzzle("cave").default_backends()]
    else:
        names = list(_UNREGISTERED_TARGETS)
    usable = []
    for name in names:
        try:
            solver_for(name)
        except (ImportError, AttributeError):
            continue
        usable.append(name)
    return usable


@dataclass
class BackendRuns:
    """The outcome of one back-end over the dataset: per solved key, (seconds, nodes)."""

    spec: str
    solved: dict[str, tuple[float, int]] = field(default_factory=dict)
    wrong: list[str] = field(default_factory=list)
    other: dict[str, str] = field(default_factory=dict)  # key -> status (timeout, error, ...)

    def times(self, keys: Sequence[str] | None = None) -> list[float]:
        return [self.solved[k][0] for k in (self.solved if keys is None else keys)]

    def nodes(self, keys: Sequence[str] | None = None) -> list[int]:
        return [self.solved[k][1] for k in (self.solved if keys is None else keys)]


def _judge(runs: BackendRuns, key: str, instance: cave.Instance, result: Result,
           seconds: float) -> None:
    expected = dict(instance.meta).get("expect-solution")
    if result.status is Status.WRONG or (
            result.solution is not None and expected is not None
            and result.solution != json.loads(expected)):
        runs.wrong.append(key)
    elif result.status is Status.SOLVED and result.unique is True:
        runs.solved[key] = (seconds, int(result.stats.nodes))
    else:
        runs.other[key] = f"{result.status}" + ("" if result.unique else f" unique={result.unique}")


def benchmark(pairs: Sequence[tuple[str, cave.Instance]], specs: Sequence[str],
              limits: Limits, per_instance: bool = False) -> list[BackendRuns]:
    """Run every back-end on every instance; see the module docstring."""
    solvers = {spec: solver_for(spec) for spec in specs}
    table = [BackendRuns(spec) for spec in specs]
    for key, instance in pairs:
        for runs in table:
            start = time.perf_counter()
            result = solvers[runs.spec](instance, limits)
            seconds = time.perf_counter() - start
            _judge(runs, key, instance, result, seconds)
            if per_instance:
                print(f"{key:>14} {runs.spec:>16} {result.status!s:>8} {seconds:8.3f}s "
                      f"{result.stats.nodes:>8} nodes")
    return table


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def _show(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or b is None or b == 0 else f"{a / b:.2f}"


def report(table: Sequence[BackendRuns], total: int) -> str:
    """The summary table and the pairwise ratios of medians, as text."""
    lines = [f"{'backend':>16} {'solved':>9} {'wrong':>5} {'other':>5} {'med s':>8} "
             f"{'max s':>8} {'med nodes':>9} {'max nodes':>9}"]
    for runs in table:
        times, nodes = runs.times(), runs.nodes()
        lines.append(
            f"{runs.spec:>16} {len(runs.solved):>4}/{total:<4} {len(runs.wrong):>5} "
            f"{len(runs.other):>5} {_show(_median(times), 4):>8} "
            f"{_show(max(times, default=None), 4):>8} {_show(_median(nodes), 1):>9} "
            f"{max(nodes, default='-'):>9}")
    pairs = [(a, b) for i, a in enumerate(table) for b in table[i + 1:]]
    if pairs:
        lines.append("")
        lines.append("ratios of medians over the puzzles both solved (first / second):")
    for a, b in pairs:
        common = [k for k in a.solved if k in b.solved]
        time_ratio = _ratio(_median(a.times(common)), _median(b.times(common)))
        node_ratio = _ratio(_median(a.nodes(common)), _median(b.nodes(common)))
        lines.append(f"  {a.spec} / {b.spec}: time {time_ratio}, nodes {node_ratio}"
                     f"  ({len(common)} puzzles)")
    for runs in table:
        for key in runs.wrong:
            lines.append(f"WRONG {runs.spec} {key}")
        for key, status in runs.other.items():
            lines.append(f"unsolved {runs.spec} {key}: {status}")
    return "\n".join(lines)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m twinsolve.bench.cave_perf",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", help="comma-separated back-end specs "
                        "(default: every cave back-end that imports)")
    parser.add_argument("--dataset", type=Path, default=None,
                        help="puzzlekit-dataset JSON (default: the corpus's janko-dev.json)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per run")
    parser.add_argument("--first", type=int, default=None, help="only the first N puzzles")
    parser.add_argument("--per-instance", action="store_true", help="one line per run")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    dataset = args.dataset or default_dataset()
    try:
        pairs = read_dataset(dataset)[:args.first]
        specs = ([s.strip() for s in args.backends.split(",") if s.strip()]
                 if args.backends else _default_specs())
        if not specs:
            raise UsageError("no cave back-end could be imported")
        table = benchmark(pairs, specs, Limits(unique=True, timeout=args.timeout),
                          args.per_instance)
    except (InstanceError, UsageError, ImportError) as exc:
        print(f"cave_perf: {exc}", file=sys.stderr)
        return 2
    print(f"{dataset}: {len(pairs)} puzzles, unique=True, timeout {args.timeout:g} s")
    print(report(table, len(pairs)))
    return 0 if all(len(runs.solved) == len(pairs) for runs in table) else 1


if __name__ == "__main__":
    raise SystemExit(main())
