"""What the speed scripts of the clue-grid puzzles share: the corpus, the runs, the tables.

The scripts of Slitherlink and Nurikabe (`benchmarks.slitherlink_perf`,
`benchmarks.nurikabe_perf`) are one script over a puzzle's name: `main`
runs every chosen back-end on every puzzle of a puzzlekit-dataset JSON file
through `twinsolve.core.run.run`, the back-ends taking turns puzzle by puzzle
(`solve_all`; each run starts after a garbage collection outside its clock,
so it pays for no earlier run's garbage: `twinsolve.system.memory`'s
`collect_leftovers`), prints the table (`report`), the grades the generator gives
the corpus (`grades`) and the time it takes to generate new puzzles
(`generation`). `benchmarks.cave_perf` reads the same corpus
(`corpus_dataset`) and prints its problem runs the same way
(`problem_lines`). See `benchmarks.slitherlink_perf` for how a run is judged.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.generation.driver import find_one, make_plan
from twinsolve.system.memory import collect_leftovers, keep_imports

__all__ = ["corpus_dataset", "Runs", "solve_all", "report", "problem_lines", "grades",
           "generation", "main", "PEERS"]

PEERS = ("puzzlekit",)  # back-ends that solve but cannot prove uniqueness


def corpus_dataset(puzzle: str) -> Path:
    """The corpus's janko set of `puzzle`: $TWINSOLVE_CORPUS or `shared/corpus` beside the
    project."""
    root = Path(__file__).resolve().parents[1]
    corpus = Path(os.environ.get("TWINSOLVE_CORPUS", root.parent / "shared" / "corpus"))
    return corpus / puzzle / "janko-dev.json"


@dataclass
class Runs:
    """One back-end over the dataset: per solved key, (seconds, nodes)."""

    spec: str
    solved: dict[str, tuple[float, int]] = field(default_factory=dict)
    wrong: dict[str, str] = field(default_factory=dict)
    other: dict[str, str] = field(default_factory=dict)

    @property
    def peer(self) -> bool:
        return self.spec.split(":", 1)[0] in PEERS

    def judge(self, key: str, instance, result, seconds: float) -> None:
        expected = json.loads(dict(instance.meta)["expect-solution"])
        if result.status is Status.WRONG or (result.solution is not None
                                             and result.solution != expected):
            self.wrong[key] = result.message or "differs from the published solution"
        elif result.status is Status.SOLVED and (result.unique is True or self.peer):
            self.solved[key] = (seconds, int(result.stats.nodes))
        else:
            self.other[key] = f"{result.status} unique={result.unique} {result.message or ''}"

    def times(self, keys: Sequence[str] | None = None) -> list[float]:
        return [self.solved[k][0] for k in (self.solved if keys is None else keys)]


def solve_all(pairs, specs: Sequence[str], timeout: float) -> list[Runs]:
    """Every back-end on every puzzle, taking turns puzzle by puzzle (so a noisy machine
    slows them alike), after one untimed warm-up run each."""
    table = [Runs(spec) for spec in specs]
    for runs in table:  # warm-up: imports and first-call costs are not measured
        run(pairs[0][1], runs.spec, Limits(unique=not runs.peer, timeout=timeout))
    keep_imports()
    for key, instance in pairs:
        for runs in table:
            limits = Limits(unique=not runs.peer, timeout=timeout)
            collect_leftovers()  # the run before's garbage is not this one's (system.memory)
            started = time.perf_counter()
            result = run(instance, runs.spec, limits)
            runs.judge(key, instance, result, time.perf_counter() - started)
    return table


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def report(table: Sequence[Runs], total: int) -> str:
    """The table per back-end, `hand`'s puzzles settled without branching, each back-end's
    median against the peers' over the puzzles both solved, and the problem runs."""
    lines = [f"{'backend':>10} {'solved':>9} {'wrong':>5} {'other':>5} {'median s':>9} "
             f"{'p90 s':>8} {'max s':>8} {'med nodes':>9}"]
    for runs in table:
        times = runs.times()
        nodes = [n for _, n in runs.solved.values()]
        if not times:
            lines.append(f"{runs.spec:>10} {0:>4}/{total:<4}")
            continue
        lines.append(f"{runs.spec:>10} {len(times):>4}/{total:<4} {len(runs.wrong):>5} "
                     f"{len(runs.other):>5} {statistics.median(times):>9.4f} "
                     f"{_quantile(times, 0.9):>8.4f} {max(times):>8.4f} "
                     f"{statistics.median(nodes):>9g}")
    for runs in table:
        if runs.spec.split(":", 1)[0] == "hand" and runs.solved:
            settled = sum(1 for _, nodes in runs.solved.values() if nodes == 0)
            slowest = max(runs.solved.items(), key=lambda item: item[1][0])
            over = sum(1 for seconds, _ in runs.solved.values() if seconds > 1.0)
            lines.append(f"{runs.spec}: {settled} of {total} ({100 * settled / total:.1f}%) "
                         f"without branching (target 95%); {over} solved in over 1 s, "
                         f"{len(runs.other)} not solved, slowest {slowest[0]} "
                         f"{slowest[1][0]:.3f} s (target: none over 1 s)")
            slow = sorted(((seconds, key) for key, (seconds, _) in runs.solved.items()
                           if seconds > 1.0), reverse=True)
            if slow:
                lines.append(f"{runs.spec} over 1 s: "
                             + ", ".join(f"{key} {seconds:.2f} s" for seconds, key in slow))
    for peer in (runs for runs in table if runs.peer):
        for runs in (r for r in table if not r.peer):
            common = [k for k in runs.solved if k in peer.solved]
            if common:
                ratio = statistics.median(peer.times(common)) / statistics.median(
                    runs.times(common))
                lines.append(f"{runs.spec} / {peer.spec} over {len(common)} puzzles: "
                             f"{ratio:.1f}x faster at the median (target 5x for sat, cpsat)")
    return "\n".join(lines + problem_lines(table))


def problem_lines(table: Sequence[Any]) -> list[str]:
    """A line per wrong and per unsolved run of each back-end's runs (`spec`, `wrong`,
    `other`)."""
    lines = []
    for runs in table:
        lines += [f"WRONG {runs.spec} {key}: {why}" for key, why in runs.wrong.items()]
        lines += [f"unsolved {runs.spec} {key}: {why}" for key, why in runs.other.items()]
    return lines


def grades(generate: ModuleType, pairs) -> str:
    """How many puzzles of the corpus the generator's `grade` puts at each level."""
    counts = collections.Counter(generate.grade(instance).level for _, instance in pairs)
    return "grades: " + ", ".join(f"{level} {counts[level]}" for level in
                                   (*generate.LEVELS, None) if counts[level])


def generation(puzzle: str, generate: ModuleType, count: int,
               symmetric: bool = False) -> list[str]:
    """Median and worst seconds of `count` generated 10x10 puzzles per level, each through
    the generator's driver (every try and the proof included)."""
    width = max(map(len, generate.LEVELS)) + 1
    lines = []
    for level in generate.LEVELS:
        times = []
        for seed in range(count):
            plan = make_plan(puzzle, seed=seed, level=level, size=(10, 10),
                             symmetric=symmetric)
            collect_leftovers()
            started = time.perf_counter()
            find_one(plan, 0)
            times.append(time.perf_counter() - started)
        lines.append(f"generate 10x10{' symmetric' if symmetric else ''} {level:<{width}} "
                     f"median {statistics.median(times):.3f} s, worst {max(times):.3f} s "
                     f"over {count} puzzles (target median 2 s)")
    return lines


def main(puzzle: str, generate: ModuleType, read_dataset: Callable[[Path], list],
         doc: str, argv: Sequence[str] | None = None, symmetric: bool = False) -> int:
    """The script of `puzzle` (module docstring), described by the first paragraph of
    `doc`; with `symmetric`, a `--symmetric` option for the generated puzzles."""
    parser = argparse.ArgumentParser(prog=f"python -m benchmarks.{puzzle}_perf",
                                     description=doc.split("\n\n")[0])
    parser.add_argument("--backends", default="hand,sat,cpsat,puzzlekit")
    parser.add_argument("--dataset", type=Path, default=None)
    parser.add_argument("--every", type=int, default=1, help="every Nth puzzle")
    parser.add_argument("--only", default=None, metavar="KEYS",
                        help="only these puzzles (their keys, comma-separated)")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--no-solve", action="store_true", help="skip the solving table")
    parser.add_argument("--grades", action="store_true", help="the grade distribution")
    parser.add_argument("--generate", type=int, default=0, metavar="N",
                        help="time N generated 10x10 puzzles per level")
    if symmetric:
        parser.add_argument("--symmetric", action="store_true", help="generate symmetric ones")
    args = parser.parse_args(argv)
    path = args.dataset or corpus_dataset(puzzle)
    pairs = read_dataset(path)[::args.every]
    if args.only is not None:
        wanted = args.only.split(",")
        missing = sorted(set(wanted) - {key for key, _ in pairs})
        if missing:
            parser.error(f"--only: no puzzle {', '.join(missing)} in {path}")
        pairs = [pair for pair in pairs if pair[0] in wanted]
    print(f"{path}: {len(pairs)} puzzles, one worker, load average "
          f"{os.getloadavg()[0]:.2f}", flush=True)
    if not args.no_solve:
        print(report(solve_all(pairs, args.backends.split(","), args.timeout), len(pairs)),
              flush=True)
    if args.grades:
        print(grades(generate, pairs), flush=True)
    if args.generate:
        for line in generation(puzzle, generate, args.generate, symmetric and args.symmetric):
            print(line, flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0
