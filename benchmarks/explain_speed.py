"""How fast `twinsolve explain` is: a 10x10 Cave against solving it with `hand`, and the corpus.

    python -m benchmarks.explain_speed [--dataset FILE] [--repeat N] [--jobs N]

Two measurements (issue 28's targets), printed with the load average:

1. Every 10x10 puzzle of the janko-dev corpus (and the shipped 10x10
   Caves): `hand` through the verified path (`core.run.run(instance,
   "hand")`, what `twinsolve solve` runs) and `twinsolve.explain.explain`
   (the whole explanation: the steps, their sentences and premises, the
   solution verified), measured side by side, interleaved, `--repeat`
   times each (median kept), after one untimed warm-up of each. Printed:
   the medians over the puzzles, the ratio of those medians, and the median
   and largest of the per-puzzle ratios. Target: explain <= 3x hand.
2. The whole corpus explained once, in `--jobs` processes (default 2):
   the wall time. Target: under a minute on 2 cores.

Measured on a shared 2-core machine (CPython 3.11, load average 6 to 8: about
seven engineers shared the cores), two runs:

    10x10 caves: 90 janko + 2 shipped
    hand median 0.0072 s, explain median 0.0178 s: ratio of medians 2.47
    per-puzzle ratios: median 2.47, largest 11.2
    corpus: 140 puzzles explained (9764 steps) in 4.1 s wall on 2 processes

    hand median 0.0082 s, explain median 0.0210 s: ratio of medians 2.56
    per-puzzle ratios: median 2.22, largest 8.8
    corpus: 140 puzzles explained (9764 steps) in 4.9 s wall on 2 processes

The largest ratios are the puzzles `hand` settles in 1 to 2 ms by propagation
alone (85_10x10: 1.5 ms against 16 ms): there the sentences and premises of
some 60 steps, not the search, are what an explanation costs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from twinsolve.core.limits import Limits
from twinsolve.core.run import load_file, run
from twinsolve.explain import explain
from twinsolve.puzzles.cave.puzzlekit import read_dataset

ROOT = Path(__file__).resolve().parents[1]


def default_dataset() -> Path:
    """The corpus's janko set: $TWINSOLVE_CORPUS or `shared/corpus` beside the project."""
    corpus = Path(os.environ.get("TWINSOLVE_CORPUS", ROOT.parent / "shared" / "corpus"))
    return corpus / "cave" / "janko-dev.json"


def _seconds(action: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def side_by_side(instances: list, repeat: int) -> list[tuple[float, float]]:
    """(hand seconds, explain seconds) per instance, each the median of `repeat` runs,
    the two interleaved so a change of load hits both alike."""
    pairs = []
    for instance in instances:
        def solving(instance=instance):
            return run(instance, "hand", Limits())

        def explaining(instance=instance):
            return explain(instance)

        solving()
        explaining()
        hand: list[float] = []
        explained: list[float] = []
        for _ in range(repeat):
            hand.append(_seconds(solving, 1))
            explained.append(_seconds(explaining, 1))
        pairs.append((statistics.median(hand), statistics.median(explained)))
    return pairs


def _explain_one(item: tuple[str, str]) -> int:
    from twinsolve.puzzles.cave.rules import parse

    return len(explain(parse(item[1], item[0])).steps)


def corpus_wall(texts: list[tuple[str, str]], jobs: int) -> tuple[float, int]:
    """Seconds to explain every puzzle in `jobs` processes, and the steps written."""
    started = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        steps = sum(pool.map(_explain_one, texts, chunksize=4))
    return time.perf_counter() - started, steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=default_dataset())
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if not args.dataset.is_file():
        print(f"no corpus at {args.dataset} (set TWINSOLVE_CORPUS)", file=sys.stderr)
        return 2
    from twinsolve.puzzles.cave.rules import format as cave_text

    pairs = read_dataset(args.dataset.read_text(encoding="utf-8"), str(args.dataset))
    ten = [instance for _, instance in pairs if (instance.rows, instance.cols) == (10, 10)]
    shipped = [load_file(path) for path in sorted((ROOT / "instances" / "cave").glob("*.txt"))]
    ten_shipped = [i for i in shipped if (i.rows, i.cols) == (10, 10)]
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f} on {os.cpu_count()} cores")
    print(f"10x10 caves: {len(ten)} janko + {len(ten_shipped)} shipped")
    measured = side_by_side(ten + ten_shipped, args.repeat)
    hand = statistics.median(h for h, _ in measured)
    explained = statistics.median(e for _, e in measured)
    ratios = [e / h for h, e in measured]
    print(f"hand median {hand:.4f} s, explain median {explained:.4f} s: ratio of medians "
          f"{explained / hand:.2f}")
    print(f"per-puzzle ratios: median {statistics.median(ratios):.2f}, "
          f"largest {max(ratios):.1f}")
    texts = [(key, cave_text(instance)) for key, instance in pairs]
    wall, steps = corpus_wall(texts, args.jobs)
    print(f"corpus: {len(texts)} puzzles explained ({steps} steps) in {wall:.1f} s wall on "
          f"{args.jobs} processes")
    print(f"load average {os.getloadavg()[0]:.2f} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
