"""Cave model back-ends (`sat`, `cpsat`) against the peer solver puzzlekit, on janko.at.

    python -m twinsolve.bench.cave_models_perf [--backends sat,cpsat,puzzlekit]
        [--connectivity] [--timeout S] [--dataset FILE] [--first N] [--per-instance]

Every back-end runs on every puzzle of a puzzlekit-dataset JSON file
(default: `cave/janko-dev.json` of the shared corpus) - twinsolve's own with
`Limits(unique=True)`, puzzlekit with plain solving (it cannot prove
uniqueness), so the comparison is conservative for twinsolve. A run counts
as solved when it returns `solved`, passes `cave.verify`, equals the
published solution and, for twinsolve's back-ends, proves it unique.

Printed per back-end: solved, median and maximum wall time (one warm-up run
per back-end first, untimed, so imports are not counted), median nodes
(CP-SAT branches or SAT decisions); then the ratio of the median times of
`sat` and of `cpsat` against puzzlekit over the puzzles both solved.
`--connectivity` runs every connectivity encoding instead
(`cpsat:connectivity=height|flow|layers|lazy`, `sat:connectivity=lazy|layers`),
the measurement quoted in `twinsolve.models.graph_constraints`.

Measured on the 140 puzzles (a shared 2-core machine, CPython 3.11, OR-Tools
9.15, PySAT 1.9 with CaDiCaL 1.9.5, puzzlekit 0.3.4, one CP-SAT worker
everywhere, timeout 30 s):

    backend     solved   median s   max s   median nodes
    sat         140      0.0094     0.078      22
    cpsat       140      0.080      1.61      848
    puzzlekit   139      0.079      0.21        0   (79_13x13: timeout)
    sat / puzzlekit: median time ratio 0.118, sat 8.4x faster (with uniqueness)

`puzzlekit:workers=N` gives the peer more CP-SAT workers.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import InstanceError, UsageError
from ..core.limits import Limits
from ..core.registry import parse_backend_spec
from ..core.result import Result, Status
from ..core.run import check, run
from ..puzzles import cave
from ..puzzles.puzzlekit_json import read_dataset
from .cave_perf import default_dataset
from .peers import solve_puzzlekit

__all__ = ["main", "Runs", "benchmark", "report", "CONNECTIVITY_SPECS"]

Solver = Callable[[cave.Instance, Limits], Result]
DEFAULT_SPECS = ("sat", "cpsat", "puzzlekit")
CONNECTIVITY_SPECS = ("sat:connectivity=lazy", "sat:connectivity=layers",
                      "cpsat:connectivity=height", "cpsat:connectivity=flow",
                      "cpsat:connectivity=distance",
                      "cpsat:connectivity=layers", "cpsat:connectivity=lazy")
PEER = "puzzlekit"


def _solver(spec: str) -> tuple[Solver, bool]:
    """A verified runner for `spec`, and whether it is asked to prove uniqueness.

    `puzzlekit` takes `key=value` options too (`puzzlekit:workers=2`).
    """
    name, options = parse_backend_spec(spec)
    if name != PEER:
        return (lambda instance, limits: run(instance, spec, limits)), True

    def peer(instance: cave.Instance, limits: Limits) -> Result:
        asked = Limits(**{**limits.__dict__, "options": {**limits.options, **options}})
        return check(instance, solve_puzzlekit(instance, asked))
    return peer, False


@dataclass
class Runs:
    """One back-end over the dataset: per solved key, (seconds, nodes)."""

    spec: str
    solved: dict[str, tuple[float, int]] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)  # key -> what went wrong

    def median_time(self, keys: Sequence[str] | None = None) -> float | None:
        times = [self.solved[k][0] for k in (self.solved if keys is None else keys)]
        return statistics.median(times) if times else None


def _judge(runs: Runs, key: str, instance: cave.Instance, result: Result, seconds: float,
           unique: bool) -> None:
    expected = dict(instance.meta).get("expect-solution")
    if result.status is not Status.SOLVED:
        runs.failed[key] = f"{result.status}" + (f": {result.message}" if result.message else "")
    elif expected is not None and result.solution != json.loads(expected):
        runs.failed[key] = "wrong: differs from the published solution"
    elif unique and result.unique is not True:
        runs.failed[key] = f"unique={result.unique}"
    else:
        runs.solved[key] = (seconds, int(result.stats.nodes))


def benchmark(pairs: Sequence[tuple[str, cave.Instance]], specs: Sequence[str],
              timeout: float | None, per_instance: bool = False) -> list[Runs]:
    """Run every back-end on every instance (after one untimed warm-up run each)."""
    table = []
    for spec in specs:
        solve, unique = _solver(spec)
        limits = Limits(timeout=timeout, unique=unique)
        runs = Runs(spec)
        if pairs:
            warm = solve(pairs[0][1], limits)
            if warm.status is Status.UNSUPPORTED:
                runs.failed = {key: f"unsupported: {warm.message}" for key, _ in pairs}
                table.append(runs)
                continue
        for key, instance in pairs:
            started = time.perf_counter()
            result = solve(instance, limits)
            seconds = time.perf_counter() - started
            _judge(runs, key, instance, result, seconds, unique)
            if per_instance:
                print(f"{key:>14} {spec:>26} {result.status!s:>8} {seconds:8.4f}s "
                      f"{result.stats.nodes:>8} nodes", flush=True)
        table.append(runs)
    return table


def _fmt(value: float | None, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def report(table: Sequence[Runs], total: int) -> str:
    lines = [f"{'backend':>26} {'solved':>9} {'med s':>8} {'max s':>8} {'med nodes':>10}"]
    for runs in table:
        times = [t for t, _ in runs.solved.values()]
        nodes = [n for _, n in runs.solved.values()]
        lines.append(f"{runs.spec:>26} {len(runs.solved):>4}/{total:<4} "
                     f"{_fmt(runs.median_time()):>8} {_fmt(max(times, default=None)):>8} "
                     f"{_fmt(statistics.median(nodes) if nodes else None, 1):>10}")
    peer = next((r for r in table if r.spec.split(":", 1)[0] == PEER), None)
    if peer is not None and peer.solved:
        lines.append("")
        for runs in table:
            if runs is peer:
                continue
            common = [k for k in runs.solved if k in peer.solved]
            ours, theirs = runs.median_time(common), peer.median_time(common)
            if ours and theirs:
                lines.append(f"{runs.spec} / {peer.spec}: median time ratio {ours / theirs:.3f} "
                             f"({theirs / ours:.1f}x faster) over {len(common)} puzzles")
    for runs in table:
        for key, why in runs.failed.items():
            lines.append(f"unsolved {runs.spec} {key}: {why}")
    return "\n".join(lines)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m twinsolve.bench.cave_models_perf",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default=",".join(DEFAULT_SPECS),
                        help="comma-separated back-end specs (default: %(default)s)")
    parser.add_argument("--connectivity", action="store_true",
                        help="compare the connectivity encodings of sat and cpsat instead")
    parser.add_argument("--dataset", type=Path, default=None,
                        help="puzzlekit-dataset JSON (default: the corpus's janko-dev.json)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per run")
    parser.add_argument("--first", type=int, default=None, help="only the first N puzzles")
    parser.add_argument("--per-instance", action="store_true", help="one line per run")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = _arguments(argv)
    dataset = args.dataset or default_dataset()
    specs = (list(CONNECTIVITY_SPECS) if args.connectivity
             else [s.strip() for s in args.backends.split(",") if s.strip()])
    try:
        pairs = read_dataset(dataset)[:args.first]
        table = benchmark(pairs, specs, args.timeout, args.per_instance)
    except (InstanceError, UsageError) as exc:
        print(f"cave_models_perf: {exc}", file=sys.stderr)
        return 2
    print(f"{dataset}: {len(pairs)} puzzles, timeout {args.timeout:g} s; twinsolve back-ends "
          "prove uniqueness, puzzlekit solves once")
    print(report(table, len(pairs)))
    return 0 if all(len(runs.solved) == len(pairs) for runs in table) else 1


if __name__ == "__main__":
    raise SystemExit(main())
