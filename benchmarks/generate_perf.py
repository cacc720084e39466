"""How fast `twinsolve generate` makes unique puzzles: medians per puzzle, and --jobs 2 / 1.

    python -m benchmarks.generate_perf [--seeds N] [--only cave,chess,jobs] [--sizes 10,15,20]

Each row generates one puzzle per seed through the driver (`find_one`, every
try included, the uniqueness proof included) and prints the median and the
worst time per puzzle, with the tries it took. Targets (issue 12): Cave at every level 10x10
under 1 s, 15x15 under 5 s, 20x20 under 20 s; Solitaire Chess 4x4 with 8
pieces under 0.5 s, 10 pieces under 2 s. The last section times one run of
12 puzzles with --jobs 1 and --jobs 2 and prints the speed-up (target >= 1.8).
Times are wall-clock on this machine: quote medians, the machine is noisy.
"""

from __future__ import annotations

import argparse
import statistics
import time

from twinsolve.generation.driver import Plan, find_one, generate, make_plan


def _timed_one(plan: Plan, index: int) -> tuple[float, int]:
    began = time.perf_counter()
    instance = find_one(plan, index)
    tries = int(dict(instance.meta)["seed"].rsplit("try ", 1)[1].rstrip(")"))
    return time.perf_counter() - began, tries


def row(label: str, plans: list[Plan], target: float | None) -> None:
    times, tries = zip(*(_timed_one(plan, 0) for plan in plans), strict=True)
    median = statistics.median(times)
    verdict = "" if target is None else \
        f"  target {target:g} s: {'met' if median < target else 'NOT met'} " \
        f"({median / target:.2f} of it)"
    print(f"  {label:<34} median {median:7.3f} s  worst {max(times):7.3f} s  "
          f"tries {statistics.median(tries):g} (max {max(tries)}){verdict}", flush=True)


def _plans(puzzle: str, seeds: int, **kwargs) -> list[Plan]:
    return [make_plan(puzzle, seed=seed, **kwargs) for seed in range(seeds)]


def cave(seeds: int, sizes: tuple[int, ...]) -> None:
    print("== Cave, one puzzle per seed (every try and the uniqueness proof included)")
    for size, target in ((10, 1.0), (15, 5.0), (20, 20.0)):
        if size not in sizes:
            continue
        for level in ("easy", "medium", "hard", "extreme"):
            # The slow rows get a third of the seeds (at least 3): a median still.
            count = seeds if size == 10 or level != "extreme" else max(3, seeds // 3)
            row(f"{size}x{size} {level}", _plans("cave", count, level=level, size=(size, size)),
                target)
    if 10 in sizes:
        for level in ("hard", "extreme"):
            row(f"10x10 {level}, symmetric", _plans("cave", seeds, level=level, size=(10, 10),
                                                    symmetric=True), 1.0)


def chess(seeds: int) -> None:
    print("== Solitaire Chess 4x4, exactly one winning sequence")
    for pieces, level, target in ((8, "expert", 0.5), (10, "expert", 2.0)):
        row(f"4x4 {pieces} pieces ({level})",
            _plans("chess", seeds, level=level, size=(4, 4), options={"pieces": pieces}),
            target)


def jobs(count: int = 12) -> None:
    print(f"== --jobs: {count} hard 10x10 Cave puzzles in one run")
    plan = make_plan("cave", level="hard", size=(10, 10), count=count, seed=100)
    spent = {}
    for workers in (1, 2):
        began = time.perf_counter()
        generate(plan, jobs=workers)
        spent[workers] = time.perf_counter() - began
        print(f"  --jobs {workers}: {spent[workers]:.2f} s", flush=True)
    print(f"  speed-up --jobs 2 / --jobs 1: {spent[1] / spent[2]:.2f}x (target >= 1.8)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=9, help="puzzles per row (default 9)")
    parser.add_argument("--only", default="cave,chess,jobs", help="sections to run")
    parser.add_argument("--sizes", default="10,15,20",
                        help="Cave sizes to time (default 10,15,20: the three targets)")
    args = parser.parse_args(argv)
    sections = set(args.only.split(","))
    if "cave" in sections:
        cave(args.seeds, tuple(int(size) for size in args.sizes.split(",")))
    if "chess" in sections:
        chess(args.seeds)
    if "jobs" in sections:
        jobs()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
