"""How fast Solitaire Chess is counted, by back-end and board size.

    python -m twinsolve.bench.chess_perf [--repeat 5] [--model-repeat 3] [--skip-dense]

1. The 20 corpus challenges (../shared/corpus/chess, or $TWINSOLVE_CORPUS),
   every winning sequence counted: the median wall time of `hand`, `cpsat`
   and `sat` per challenge (each answer verified and its count checked
   against `# expect-solutions:`), and the ratios cpsat / hand, sat / hand.
2. 5x5 boards with 12 knights, and puzzle-like 8x8 boards with 16 mixed
   pieces (`random_solvable(..., fewest_of=30)`): `hand` counting every
   winning sequence through its memo, median and worst board.
3. Dense boards (plain random backward play), for the record: 8x8 with 16
   knights and with 16 mixed pieces, under a time limit.

Times are wall-clock medians through `twinsolve.core.run.run`, so they
include `verify`; the machine's load is printed first, as it skews them.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..core.limits import Limits
from ..core.result import Result, Status
from ..core.run import load_file, run
from ..generate.chess import random_solvable
from ..puzzles.chess import Instance

__all__ = ["main", "timed", "corpus_table", "family_table"]

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(os.environ.get("TWINSOLVE_CORPUS", ROOT.parent / "shared" / "corpus")) / "chess"
COUNT = Limits(count=True, timeout=120)


def timed(instance: Instance, backend: str, repeat: int,
          limits: Limits = COUNT) -> tuple[float, Result]:
    """Median wall seconds of `repeat` runs, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run(instance, backend, limits)
        times.append(time.perf_counter() - start)
    assert result is not None
    return statistics.median(times), result


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f}"


def _check(instance: Instance, result: Result) -> str:
    want = dict(instance.meta).get("expect-solutions")
    if result.status is not Status.SOLVED or not result.verified:
        return f"  {result.status} {result.message or ''}"
    if want is not None and result.count != int(want):
        return f"  WRONG count {result.count}, expected {want}"
    return ""


def corpus_table(repeat: int, model_repeat: int) -> None:
    files = sorted(CORPUS.glob("*.txt"))
    if not files:
        print(f"corpus not found at {CORPUS}; set TWINSOLVE_CORPUS")
        return
    print(f"1. corpus, counting every sequence ({len(files)} challenges; hand x{repeat}, "
          f"models x{model_repeat})")
    print(f"{'challenge':18} {'pieces':>6} {'count':>6} {'hand ms':>9} {'cpsat ms':>9} "
          f"{'sat ms':>9} {'cpsat/hand':>10} {'sat/hand':>9}")
    medians: dict[str, list[float]] = {"hand": [], "cpsat": [], "sat": []}
    for path in files:
        instance = load_file(path)
        row, notes = {}, ""
        for backend in medians:
            seconds, result = timed(instance, backend, repeat if backend == "hand"
                                    else model_repeat)
            row[backend] = seconds
            medians[backend].append(seconds)
            notes += _check(instance, result)
        print(f"{path.stem:18} {instance.pieces:6} {dict(instance.meta)['expect-solutions']:>6} "
              f"{_ms(row['hand'])} {_ms(row['cpsat'])} {_ms(row['sat'])} "
              f"{row['cpsat'] / row['hand']:10.0f} {row['sat'] / row['hand']:9.0f}{notes}")
    hand = medians["hand"]
    print(f"hand: median {_ms(statistics.median(hand)).strip()} ms, worst "
          f"{_ms(max(hand)).strip()} ms, {sum(t < 0.010 for t in hand)}/{len(hand)} under 10 ms")
    for backend in ("cpsat", "sat"):
        ratios = [m / h for m, h in zip(medians[backend], hand, strict=True)]
        print(f"{backend}: median {_ms(statistics.median(medians[backend])).strip()} ms; "
              f"{backend}/hand median ratio {statistics.median(ratios):.0f}x "
              f"(range {min(ratios):.0f}x..{max(ratios):.0f}x)")
    print()


def family_table(title: str, make: Callable[[int], Instance], seeds: Sequence[int],
                 repeat: int, limits: Limits = COUNT) -> None:
    """`hand` counting on generated boards, one line per seed, then median and worst."""
    print(title)
    times = []
    for seed in seeds:
        instance = make(seed)
        seconds, result = timed(instance, "hand", repeat, limits)
        times.append(seconds)
        counters = result.stats.to_dict()
        print(f"  seed {seed:3}: {result.status!s:8} {_ms(seconds)} ms  count "
              f"{result.count}  nodes {counters['nodes']}  memo {counters.get('memo')}"
              f"{_check(instance, result) if result.status is not Status.TIMEOUT else ''}")
    print(f"  median {_ms(statistics.median(times)).strip()} ms, worst "
          f"{_ms(max(times)).strip()} ms\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per board for hand")
    parser.add_argument("--model-repeat", type=int, default=3, help="runs for cpsat and sat")
    parser.add_argument("--skip-dense", action="store_true", help="leave out section 3")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
    corpus_table(args.repeat, args.model_repeat)
    family_table("2a. 5x5, 12 knights (hand, every sequence counted)",
                 lambda s: random_solvable(5, 5, 12, s, knights=True), range(5), args.repeat)
    family_table("2b. 8x8, 16 mixed pieces, puzzle-like (fewest_of=30)",
                 lambda s: random_solvable(8, 8, 16, s, fewest_of=30), range(10), args.repeat)
    if not args.skip_dense:
        dense = Limits(count=True, timeout=30)
        family_table("3a. 8x8, 16 knights, dense (plain backward play)",
                     lambda s: random_solvable(8, 8, 16, s, knights=True), range(3), 1, dense)
        family_table("3b. 8x8, 16 mixed pieces, dense (plain backward play; 30 s limit)",
                     lambda s: random_solvable(8, 8, 16, s), range(3), 1, dense)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
