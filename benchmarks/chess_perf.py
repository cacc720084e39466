"""How fast Solitaire Chess is counted, by back-end and board size.

    python -m benchmarks.chess_perf [--repeat 5] [--model-repeat 3] [--skip-dense]
    python -m benchmarks.chess_perf --census SEED

1. The 20 corpus challenges (../shared/corpus/chess, or $TWINSOLVE_CORPUS),
   every winning sequence counted: the median wall time of `hand`, `cpsat`
   and `sat` per challenge (each answer verified and its count checked
   against `# expect-solutions:`), and the ratios cpsat / hand, sat / hand.
2. 5x5 boards with 12 knights, puzzle-like 8x8 boards with 16 mixed pieces
   (`random_solvable(..., fewest_of=30)`) and busier ones (`fewest_of=3`):
   `hand` (engine auto) counting every winning sequence, median and worst
   board, beside `hand:engine=memo` (the depth-first memo search alone)
   and its ratio.
3. Denser boards (`fewest_of=2`, and plain random backward play, which
   gives up to 10^15 winning lines over 12 million positions): `hand`
   under a 60 s limit.

`--census SEED` instead counts plain random board SEED with both engines to
the end and prints its reachable and live positions (the memo search alone
takes minutes on the dense ones).

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

from twinsolve.core.limits import Limits
from twinsolve.core.result import Result, Status
from twinsolve.core.run import load_file, run
from twinsolve.puzzles.chess.board import start_position
from twinsolve.puzzles.chess.generate import random_solvable
from twinsolve.puzzles.chess.hand import Searcher
from twinsolve.puzzles.chess.layers import count_layers
from twinsolve.puzzles.chess.rules import Instance

__all__ = ["main", "timed", "corpus_table", "family_table"]

ROOT = Path(__file__).resolve().parents[1]
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
                 repeat: int, backends: Sequence[str] = ("hand",),
                 limits: Limits = COUNT) -> None:
    """Counting on generated boards, one line per seed and back-end, then medians and worst.

    The first back-end is the one measured against the 2 s target; the
    others are printed with their ratio to it.
    """
    print(title)
    times: dict[str, list[float]] = {backend: [] for backend in backends}
    for seed in seeds:
        instance = make(seed)
        for backend in backends:
            seconds, result = timed(instance, backend, repeat, limits)
            times[backend].append(seconds)
            counters = result.stats.to_dict()
            ratio = "" if backend == backends[0] else \
                f" ({seconds / times[backends[0]][-1]:.1f}x)"
            print(f"  seed {seed:3} {backend:18} {result.status!s:8} {_ms(seconds)} ms{ratio}"
                  f"  count {result.count}  {counters.get('engine')}  nodes {counters['nodes']}"
                  f"{_check(instance, result) if result.status is not Status.TIMEOUT else ''}")
    for backend, seconds in times.items():
        print(f"  {backend}: median {_ms(statistics.median(seconds)).strip()} ms, worst "
              f"{_ms(max(seconds)).strip()} ms, {sum(t < 2 for t in seconds)}/{len(seconds)} "
              "under 2 s")
    print()


def census(instance: Instance, title: str) -> None:
    """Both engines to the end on one board: reachable and live positions, lines, times.

    The memo search (no symmetry) visits every live position, those with at
    least one winning line, so their number bounds any memo count; the
    layer count expands every reachable position.
    """
    board, start = start_position(instance)
    started = time.perf_counter()
    layers = count_layers(board, start, memory_mb=1 << 20)
    layer_s = time.perf_counter() - started
    searcher = Searcher(instance, symmetry=False)
    started = time.perf_counter()
    total = searcher.count()
    memo_s = time.perf_counter() - started
    live = sum(1 for value in searcher.memo.values() if value > 0)
    assert total == layers.count, (total, layers.count)
    print(f"census of {title}: {layers.count:,} winning lines")
    print(f"  layers: {layers.positions:,} reachable positions expanded, {layers.captures:,} "
          f"captures, {layer_s:.2f} s")
    print(f"  memo:   {len(searcher.memo):,} positions in the memo, {live:,} live, "
          f"{searcher.nodes:,} expanded, {searcher.pruned:,} cut as dead ends, {memo_s:.1f} s "
          f"(x{memo_s / layer_s:.0f})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per board for hand")
    parser.add_argument("--model-repeat", type=int, default=3, help="runs for cpsat and sat")
    parser.add_argument("--skip-dense", action="store_true", help="leave out section 3")
    parser.add_argument("--census", type=int, metavar="SEED", default=None,
                        help="only the census of plain random 8x8 board SEED (minutes)")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
    if args.census is not None:
        census(random_solvable(8, 8, 16, args.census), f"plain random 8x8 board {args.census}")
        return 0
    corpus_table(args.repeat, args.model_repeat)
    memo_too = ("hand", "hand:engine=memo")
    family_table("2a. 5x5, 12 knights (every sequence counted)",
                 lambda s: random_solvable(5, 5, 12, s, knights=True), range(5), args.repeat,
                 memo_too)
    family_table("2b. 8x8, 16 mixed pieces, puzzle-like (fewest_of=30)",
                 lambda s: random_solvable(8, 8, 16, s, fewest_of=30), range(10), args.repeat,
                 memo_too)
    family_table("2c. 8x8, 16 mixed pieces, 10^7..10^10 winning lines (fewest_of=3)",
                 lambda s: random_solvable(8, 8, 16, s, fewest_of=3), range(8), args.repeat,
                 memo_too)
    if not args.skip_dense:
        dense = Limits(count=True, timeout=60)
        family_table("3a. 8x8, 16 knights, dense (plain backward play)",
                     lambda s: random_solvable(8, 8, 16, s, knights=True), range(3), 1,
                     ("hand",), dense)
        family_table("3b. 8x8, 16 mixed pieces, 10^8..10^11 winning lines (fewest_of=2)",
                     lambda s: random_solvable(8, 8, 16, s, fewest_of=2), range(8), 1,
                     ("hand",), dense)
        family_table("3c. 8x8, 16 mixed pieces, dense: up to 10^13 lines and 12M positions "
                     "(plain backward play)",
                     lambda s: random_solvable(8, 8, 16, s), range(8), 1, ("hand",), dense)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
