"""Cave back-ends over the janko.at corpus, with uniqueness: time, search effort, ratios.

    python -m benchmarks.cave_perf [--backends hand,sat,puzzlekit,...]
        [--connectivity] [--timeout S] [--dataset FILE] [--first N] [--per-instance]

Every chosen back-end (a spec such as `hand`, `hand:probe=false`,
`sat:glucose4` or the peer `puzzlekit:workers=2`; default: every default
back-end of `cave`) runs on every puzzle of a puzzlekit-dataset JSON file
(default: `cave/janko-dev.json` of the shared corpus, found like the tests
find it) through `twinsolve.core.run.run`, so every answer is verified.
twinsolve's back-ends are asked to prove uniqueness; the peer puzzlekit
cannot, so it only solves, which makes the comparison conservative for
twinsolve. A run counts as solved when it returns `solved`, passes
`verify`, equals the published solution and (for twinsolve's back-ends)
proves it unique. Each back-end gets one untimed warm-up run first, so
imports are not counted, and each run starts after a garbage collection
outside its clock, so it pays for no earlier run's garbage
(`twinsolve.system.memory.collect_leftovers`).

Printed per back-end: solved / wrong / other, median and maximum wall time
and nodes over its solved runs (CP-SAT branches, SAT decisions, hand search
nodes); then, for each pair of back-ends, the ratios of their medians over
the puzzles both solved. `--connectivity` runs every connectivity encoding
instead (`cpsat:connectivity=height|flow|distance|layers|lazy`,
`sat:connectivity=lazy|layers`), the measurement quoted in
`twinsolve.models.graph_constraints`. `python -m benchmarks.cave_models_perf`
is this script with `--backends sat,cpsat,puzzlekit`.

Measured on the 140 puzzles (a shared 2-core machine, CPython 3.11, OR-Tools
9.15, PySAT 1.9 with CaDiCaL 1.9.5, puzzlekit 0.3.4, one CP-SAT worker
everywhere, timeout 30 s):

    backend     solved   median s   max s   median nodes
    sat         140      0.0094     0.078      22
    cpsat       140      0.080      1.61      848
    puzzlekit   139      0.079      0.21        0   (79_13x13: timeout)
    sat / puzzlekit: median time ratio 0.118, sat 8.4x faster (with uniqueness)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.clue_grid_perf import corpus_dataset, problem_lines
from twinsolve.core.errors import InstanceError, UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.registry import parse_backend_spec, puzzle
from twinsolve.core.result import Result, Status
from twinsolve.core.run import run
from twinsolve.puzzles.cave import rules as cave
from twinsolve.puzzles.cave.puzzlekit import read_dataset
from twinsolve.system.memory import collect_leftovers, keep_imports

__all__ = ["main", "BackendRuns", "benchmark", "report", "default_dataset",
           "CONNECTIVITY_SPECS", "PEERS"]

CONNECTIVITY_SPECS = ("sat:connectivity=lazy", "sat:connectivity=layers",
                      "cpsat:connectivity=height", "cpsat:connectivity=flow",
                      "cpsat:connectivity=distance",
                      "cpsat:connectivity=layers", "cpsat:connectivity=lazy")
PEERS = ("puzzlekit",)  # back-ends that solve but cannot prove uniqueness


def default_dataset() -> Path:
    """The corpus's janko set: $TWINSOLVE_CORPUS or `shared/corpus` beside the project."""
    return corpus_dataset("cave")


def _is_peer(spec: str) -> bool:
    return spec.split(":", 1)[0] in PEERS


def _check_spec(spec: str) -> None:
    """Fail now, not on every puzzle: an unknown back-end, a bad option, a missing module."""
    backend = puzzle("cave").backend(spec.split(":", 1)[0])
    parse_backend_spec(spec, backend)
    backend.solve  # noqa: B018 - imports the target


@dataclass
class BackendRuns:
    """One back-end over the dataset: per solved key, (seconds, nodes)."""

    spec: str
    solved: dict[str, tuple[float, int]] = field(default_factory=dict)
    wrong: dict[str, str] = field(default_factory=dict)   # key -> why
    other: dict[str, str] = field(default_factory=dict)   # key -> status (timeout, ...)

    def times(self, keys: Sequence[str] | None = None) -> list[float]:
        return [self.solved[k][0] for k in (self.solved if keys is None else keys)]

    def nodes(self, keys: Sequence[str] | None = None) -> list[int]:
        return [self.solved[k][1] for k in (self.solved if keys is None else keys)]


def _judge(runs: BackendRuns, key: str, instance: cave.Instance, result: Result,
           seconds: float) -> None:
    expected = dict(instance.meta).get("expect-solution")
    if result.status is Status.WRONG:
        runs.wrong[key] = result.message or "rejected by verify"
    elif result.solution is not None and expected is not None \
            and result.solution != json.loads(expected):
        runs.wrong[key] = "differs from the published solution"
    elif result.status is Status.SOLVED and (result.unique is True or _is_peer(runs.spec)):
        runs.solved[key] = (seconds, int(result.stats.nodes))
    else:
        runs.other[key] = f"{result.status}" + (f": {result.message}" if result.message else "") \
            + ("" if result.status is not Status.SOLVED else f" unique={result.unique}")


def benchmark(pairs: Sequence[tuple[str, cave.Instance]], specs: Sequence[str],
              timeout: float | None, per_instance: bool = False) -> list[BackendRuns]:
    """Run every back-end on every instance, after one untimed warm-up run each."""
    for spec in specs:
        _check_spec(spec)
    limits = Limits(unique=True, timeout=timeout)
    table = []
    for spec in specs:
        runs = BackendRuns(spec)
        table.append(runs)
        if pairs:
            warm = run(pairs[0][1], spec, limits)
            if warm.status is Status.UNSUPPORTED:
                runs.other = {key: f"unsupported: {warm.message}" for key, _ in pairs}
                continue
            keep_imports()
        for key, instance in pairs:
            collect_leftovers()  # the run before's garbage is not this one's (system.memory)
            started = time.perf_counter()
            result = run(instance, spec, limits)
            seconds = time.perf_counter() - started
            _judge(runs, key, instance, result, seconds)
            if per_instance:
                print(f"{key:>14} {spec:>26} {result.status!s:>8} {seconds:8.4f}s "
                      f"{result.stats.nodes:>8} nodes", flush=True)
    return table


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def _show(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or b is None or b == 0 else f"{a / b:.3f}"


def report(table: Sequence[BackendRuns], total: int) -> str:
    """The summary table and the pairwise ratios of medians, as text."""
    lines = [f"{'backend':>26} {'solved':>9} {'wrong':>5} {'other':>5} {'med s':>8} "
             f"{'max s':>8} {'med nodes':>9} {'max nodes':>9}"]
    for runs in table:
        times, nodes = runs.times(), runs.nodes()
        lines.append(
            f"{runs.spec:>26} {len(runs.solved):>4}/{total:<4} {len(runs.wrong):>5} "
            f"{len(runs.other):>5} {_show(_median(times), 4):>8} "
            f"{_show(max(times, default=None), 4):>8} {_show(_median(nodes), 1):>9} "
            f"{max(nodes, default='-'):>9}")
    pairs = [(a, b) for i, a in enumerate(table) for b in table[i + 1:]]
    if pairs:
        lines += ["", "ratios of medians over the puzzles both solved (first / second):"]
    for a, b in pairs:
        common = [k for k in a.solved if k in b.solved]
        time_ratio = _ratio(_median(a.times(common)), _median(b.times(common)))
        node_ratio = _ratio(_median(a.nodes(common)), _median(b.nodes(common)))
        lines.append(f"  {a.spec} / {b.spec}: time {time_ratio}, nodes {node_ratio}"
                     f"  ({len(common)} puzzles)")
    return "\n".join(lines + problem_lines(table))


def _arguments(argv: Sequence[str] | None, prog: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", help="comma-separated back-end specs "
                        "(default: the default cave back-ends)")
    parser.add_argument("--connectivity", action="store_true",
                        help="compare the connectivity encodings of sat and cpsat instead")
    parser.add_argument("--dataset", type=Path, default=None,
                        help="puzzlekit-dataset JSON (default: the corpus's janko-dev.json)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per run")
    parser.add_argument("--first", type=int, default=None, help="only the first N puzzles")
    parser.add_argument("--per-instance", action="store_true", help="one line per run")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None,
         prog: str = "python -m benchmarks.cave_perf") -> int:
    args = _arguments(argv, prog)
    dataset = args.dataset or default_dataset()
    if args.connectivity:
        specs = list(CONNECTIVITY_SPECS)
    elif args.backends:
        specs = [s.strip() for s in args.backends.split(",") if s.strip()]
    else:
        specs = [b.name for b in puzzle("cave").default_backends()]
    try:
        pairs = read_dataset(dataset)[:args.first]
        table = benchmark(pairs, specs, args.timeout, args.per_instance)
    except (InstanceError, UsageError, ImportError) as exc:
        print(f"{prog.split()[-1]}: {exc}", file=sys.stderr)
        return 2
    print(f"{dataset}: {len(pairs)} puzzles, timeout {args.timeout:g} s; twinsolve back-ends "
          f"prove uniqueness{', peers solve once' if any(map(_is_peer, specs)) else ''}")
    print(report(table, len(pairs)))
    return 0 if all(len(runs.solved) == len(pairs) for runs in table) else 1


if __name__ == "__main__":
    raise SystemExit(main())
