"""Lights Out performance figures: `python -m benchmarks.lightsout_perf`.

Prints medians over repeats for the `hand` back-end's targets:

- `record`, record scale (issue 16): the all-on n x n board for n = 1000, 2000, 5000,
  10,000 end to end (solve + verify through `run`) by the polynomial method,
  with the resident memory the run adds (peak RSS: `system.memory.RunMemory`,
  VmHWM after a reset, one run in a fresh process per size), and the
  elimination method (`hand:method=elimination`) at 1000 and 2000 for the
  ratio; then the 100,000 x 100,000 board's summary (`hand.solve_summary`:
  status, presses, nullity, the streamed check), time and memory alike;
- `big`: the all-on 1000 x 1000 plain board: any solution plus the nullity
  (option minimise=False), and what the default (minimise) run does;
- `nullities`: the nullity of every plain n x n board, n <= 200, in total, by both methods;
- `fewest`: the fewest presses of the all-on n x n board for every n <= 78
  with a kernel and nullity <= --max-nullity (32 by default: n = 39 and 67
  included; 42 adds n = 61 and 65), each against its target and, for
  n <= 54, against the published term (OEIS A075464); plus two other
  boards of nullity 24 (a 30 x 40 torus, a 24 x 24 sigma board);
- `open` (only when asked: `--only open`): the all-on 79 x 79 board
  (nullity 64, its term unpublished), searched for --open-timeout seconds:
  the best solution found and the lower bounds proven.

`comparison`: when `twinsolve.puzzles.lightsout.models` exists, hand vs cpsat vs sat
on all-on n x n boards, n = 5, 10, ..., 30, as times and ratios to hand.

`time_backend(name, instance, repeats, limits)` is the reusable piece: it
goes through `twinsolve.core.run.run`, so every timed answer is verified.
"""

from __future__ import annotations

import argparse
import importlib
import multiprocessing
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from twinsolve.core.limits import Limits
from twinsolve.core.registry import puzzle
from twinsolve.core.result import Result, Status
from twinsolve.core.run import run
from twinsolve.puzzles.lightsout.hand import kernel_dimension, solve_summary
from twinsolve.puzzles.lightsout.published import FEWEST_ALL_ON
from twinsolve.puzzles.lightsout.rules import Instance
from twinsolve.search import walsh
from twinsolve.system.memory import RunMemory

__all__ = ["Timing", "time_backend", "time_call", "backend_available", "shared_all_on",
           "in_fresh_process", "main"]

_PROVEN = (Status.OPTIMAL, Status.SOLVED, Status.UNSAT)


@dataclass(frozen=True)
class Timing:
    """Median wall time of `run` (verification included) and of the back-end alone."""

    backend: str
    median_s: float
    backend_median_s: float
    result: Result

    @property
    def label(self) -> str:
        r = self.result
        return f"{r.status.value}" + ("" if r.verified in (None, True) else " (unverified)")


def time_backend(backend_name: str, instance: Any, repeats: int = 3,
                 limits: Limits | None = None) -> Timing:
    """Run `backend_name` on `instance` `repeats` times through `run`; medians and last result.

    `median_s` includes `verify`; `backend_median_s` is build + solve as the
    back-end reported them. A run that ends without an answer (timeout,
    error, ...) or at the time limit is not repeated: the median of
    time-outs says nothing.
    """
    walls, inside = [], []
    result = None
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        result = run(instance, backend_name, limits or Limits())
        walls.append(time.perf_counter() - start)
        inside.append(result.stats.build_s + result.stats.solve_s)
        hit_limit = limits is not None and limits.timeout is not None \
            and walls[-1] >= limits.timeout
        if not result.status.is_answer or hit_limit:
            break
    return Timing(backend_name, statistics.median(walls), statistics.median(inside), result)


def time_call(function: Callable[[], Any], repeats: int = 3) -> tuple[float, Any]:
    """Median seconds of `function()` over `repeats`, and its last value."""
    times, value = [], None
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def backend_available(name: str, puzzle_name: str = "lightsout") -> str | None:
    """None if the back-end's code imports, else why not."""
    try:
        puzzle(puzzle_name).backend(name).solve  # noqa: B018 - resolving imports the module
    except (ImportError, AttributeError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


# ---------------------------------------------------------------- record scale

_MB = 1 << 20
_OLD_FIGURES = {1000: 2.2, 2000: 6.5}  # end to end before the polynomial method (issue 16)


def shared_all_on(n: int) -> Instance:
    """The all-on n x n board, every row the same tuple (as `Instance.all_on` builds it:
    a tuple per row would be 10^8 references, 800 MB, at n = 10,000)."""
    return Instance.all_on(n)


def _measured_run(n: int, method: str) -> tuple[float, int, str]:
    """One verified run on a fresh process's all-on n x n board: seconds, bytes added, label."""
    board = shared_all_on(n)
    memory = RunMemory()
    start = time.perf_counter()
    result = run(board, "hand", Limits(options={"method": method}))
    seconds = time.perf_counter() - start
    return seconds, memory.added(), f"{result.status.value} verified={result.verified}"


def _measured_summary(n: int) -> tuple[float, int, Result]:
    """`solve_summary` of the all-on n x n board in a fresh process: seconds, bytes, result."""
    memory = RunMemory()
    start = time.perf_counter()
    result = solve_summary(n, n)
    return time.perf_counter() - start, memory.added(), result


def in_fresh_process(function: Callable[..., Any], *args: Any) -> Any:
    """`function(*args)` in a new (spawned) process, so its memory peak is its own."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(function, *args).result()


def _record_scale(repeats: int, sizes: Sequence[int], old_sizes: Sequence[int]) -> None:
    print("== all-on n x n plain board, end to end (solve + verify), polynomial method "
          "(target: 10,000 x 10,000 < 5 s, < 2 GB; anchor: C++ with AVX2, ~18 s at 10,000)")
    print("  memory: peak RSS the run adds, one run in a fresh process (system.memory.RunMemory)")
    new_times = {}
    for n in sizes:
        timing = time_backend("hand", shared_all_on(n), repeats)
        _, added, label = in_fresh_process(_measured_run, n, "auto")
        r = timing.result
        new_times[n] = timing.median_s
        print(f"  n={n:6d}: {timing.label}, nullity {r.stats.counters.get('nullity')}, "
              f"{r.objective} presses; median {timing.median_s:.3f} s end to end "
              f"({timing.backend_median_s:.3f} s in the back-end); {added / _MB:.0f} MB "
              f"({label})")
    for n in old_sizes:
        old = time_backend("hand", shared_all_on(n), repeats,
                           Limits(options={"method": "elimination"}))
        _, added, _ = in_fresh_process(_measured_run, n, "elimination")
        ratio = old.median_s / new_times[n] if new_times.get(n) else float("nan")
        print(f"  n={n:6d} by elimination (hand:method=elimination): {old.label}, median "
              f"{old.median_s:.3f} s end to end, {added / _MB:.0f} MB; elimination / polynomial "
              f"= {ratio:.1f}x (issue 16 measured {_OLD_FIGURES.get(n, float('nan')):g} s)")


def _summary(side: int) -> None:
    print(f"== all-on {side:,} x {side:,} board, summary with the streamed check "
          f"(target: < 60 s; the grid, {side * side / 1e9:g} G cells, is never held)")
    seconds, added, r = in_fresh_process(_measured_summary, side)
    print(f"  {r.status.value}, verified={r.verified}, nullity {r.stats.counters.get('nullity')}, "
          f"{r.objective:,} presses; {seconds:.2f} s (polynomials, chase and check interleaved), "
          f"{added / _MB:.1f} MB added (fresh process)")


# ---------------------------------------------------------------- sections

def _big_board(repeats: int, side: int, timeout: float) -> None:
    board = Instance.all_on(side)
    print(f"== all-on {side} x {side} plain board (target: a solution + nullity < 3 s)")
    quick = time_backend("hand", board, repeats, Limits(options={"minimise": False}))
    r = quick.result
    print(f"  minimise=False: {quick.label}, nullity {r.stats.counters.get('nullity')}, "
          f"presses {r.objective}; median {quick.backend_median_s:.3f} s in the back-end "
          f"(build {r.stats.build_s:.3f} s), {quick.median_s:.3f} s with verify")
    default = time_backend("hand", board, 1, Limits(timeout=timeout))
    r = default.result
    print(f"  default (minimise, timeout {timeout:g} s): {default.label}, presses {r.objective}, "
          f"nullity {r.stats.counters.get('nullity')}, {default.backend_median_s:.3f} s in the "
          f"back-end, {default.median_s:.3f} s with verify")


def _nullities(repeats: int, limit: int) -> None:
    print(f"== nullity of every plain n x n board, n = 1..{limit} (target: < 10 s in all)")
    timed = {}
    for method in ("auto", "elimination"):
        timed[method] = time_call(
            lambda m=method: [kernel_dimension(n, n, method=m) for n in range(1, limit + 1)],
            repeats)
    seconds, values = timed["auto"]
    old_seconds, old_values = timed["elimination"]
    nonzero = sum(1 for v in values if v)
    agree = "agree" if values == old_values else "DISAGREE"
    print(f"  polynomial: median {seconds:.3f} s in all; elimination {old_seconds:.3f} s "
          f"({old_seconds / seconds:.0f}x); the methods {agree}; {nonzero} boards have a "
          f"kernel, largest nullity {max(values)} (n = {values.index(max(values)) + 1})")


_FEWEST_TARGETS = ((32, 10.0), (99, 600.0))  # (up to nullity, seconds): issue 16


def _target(nullity: int) -> float:
    return next(seconds for upto, seconds in _FEWEST_TARGETS if nullity <= upto)


def _fewest(repeats: int, limit: int, max_nullity: int, time_limit: float,
            jobs: int = 1) -> None:
    print(f"== fewest presses, all-on n x n, every n <= {limit} with a kernel and nullity <= "
          f"{max_nullity}, hand:jobs={jobs} (targets: nullity 32 < 10 s, every n <= 78 < 10 "
          f"min; anchor: the published terms, computed in C, OEIS A075464; transform: "
          f"{'fht-cpu' if walsh.FAST else 'numpy'})")
    reproduced, mismatched, over = [], [], []
    for n in range(1, limit + 1):
        dimension = kernel_dimension(n, n)
        if not dimension and n in FEWEST_ALL_ON:  # the only solution: checked, not listed
            only = run(Instance.all_on(n), "hand")
            (reproduced if only.objective == FEWEST_ALL_ON[n] else mismatched).append(n)
        if not dimension or dimension > max_nullity:
            continue
        # One run where a run takes seconds: the median of three would triple the section.
        timing = time_backend("hand", Instance.all_on(n), repeats if dimension < 28 else 1,
                              Limits(count=True, timeout=time_limit, options={"jobs": jobs}))
        r = timing.result
        if r.status is not Status.OPTIMAL:
            over.append(n)
            _unfinished(n, dimension, timing)
            continue
        published = FEWEST_ALL_ON.get(n)
        if published is None:
            check = "past the data line"
        elif r.objective == published:
            check, _ = "= A075464", reproduced.append(n)
        else:
            check, _ = f"!= A075464 ({published})", mismatched.append(n)
        target = _target(dimension)
        if timing.median_s >= target:
            over.append(n)
        print(f"  n={n:3d} nullity {dimension:2d}: {timing.label} {r.objective} presses {check}, "
              f"{r.count} fewest-press grid(s); {timing.median_s:.3f} s with verify "
              f"(target {target:g} s, {timing.median_s / target:.3f} of it), "
              f"{r.stats.counters.get('candidates'):,} members transformed")
    print(f"  A075464 terms reproduced: {len(reproduced)} of {len(FEWEST_ALL_ON)} (those with "
          f"a kernel are listed above; n = {', '.join(map(str, reproduced))})"
          + (f"; MISMATCHED: n = {mismatched}" if mismatched else ""))
    print("  every board within its target" if not over else f"  OVER TARGET: n = {over}")


def _unfinished(n: int, dimension: int, timing: Timing) -> None:
    """A board stopped by the time limit: its best so far and the time the rest would take."""
    r = timing.result
    examined = r.stats.counters.get("candidates") or 1
    orbits = 2 ** dimension / 8  # one member in eight: the eight symmetries, orbits nearly free
    print(f"  n={n:3d} nullity {dimension:2d}: {timing.label} after {timing.median_s:.0f} s, "
          f"best so far {r.objective} presses; {examined:,} members transformed, about "
          f"{examined / orbits:.0%} of one per orbit; the whole search would take about "
          f"{timing.median_s * orbits / examined:.0f} s at this rate "
          f"(target {_target(dimension):g} s)")


def _nullity_24(repeats: int) -> None:
    print("== fewest presses on other boards of nullity 24 (a torus, a sigma board)")
    for name, board in (("30 x 40 torus", Instance.all_on(30, 40, torus=True)),
                        ("24 x 24 sigma", Instance.all_on(24, 24, sigma=True))):
        timing = time_backend("hand", board, repeats, Limits(count=True))
        r = timing.result
        print(f"  {name}: nullity {r.stats.counters.get('nullity')}, {timing.label} "
              f"{r.objective} presses, {r.count} fewest-press grid(s), "
              f"median {timing.median_s:.3f} s with verify")


def _open_board(n: int, timeout: float) -> None:
    side_cells = n * n
    print(f"== the open term: all-on {n} x {n} (nullity {kernel_dimension(n, n)}), "
          f"time limit {timeout:g} s")
    start = time.perf_counter()
    result = run(Instance.all_on(n), "hand", Limits(timeout=timeout))
    seconds = time.perf_counter() - start
    # Every solution presses a dominating set (each closed neighbourhood an odd number of
    # times, so at least once); each press reaches at most 5 cells.
    reach = -(-side_cells // 5)
    domination = (n + 2) ** 2 // 5 - 4
    print(f"  best found: {result.objective} presses ({result.status.value}, verified="
          f"{result.verified}) in {seconds:.1f} s, "
          f"{result.stats.counters.get('candidates'):,} members transformed")
    print(f"  lower bounds: {reach} (each press reaches <= 5 of the {side_cells} cells, each "
          f"cell must be reached), {domination} (the grid's domination number, "
          "floor((n+2)^2/5) - 4, Goncalves, Pinlou, Rao and Thomasse 2011)")
    gap = "they meet: a new term" if result.objective == domination else \
        f"the gap is {result.objective - domination}: the term stays open"
    print(f"  {gap}")


def _ratio(timing: Timing, hand: Timing | None) -> str:
    if hand is None or not hand.median_s:
        return f" {'-':>11}"
    # Not proven (time-out, or only feasible at the time limit): at least this slow.
    bound = "" if timing.result.status in _PROVEN else ">"
    return f" {bound + format(timing.median_s / hand.median_s, '.1f'):>11}"


def _comparison(repeats: int, sizes: Sequence[int], timeout: float) -> None:
    print(f"== hand vs cpsat vs sat, all-on n x n (medians, wall time with verify; "
          f"ratio = back-end / hand; timeout {timeout:g} s)")
    try:
        importlib.import_module("twinsolve.puzzles.lightsout.models")
    except ImportError as exc:
        print(f"  skipped: twinsolve.puzzles.lightsout.models cannot be imported ({exc})")
        return
    names = ["hand", "cpsat", "sat"]
    missing = {name: backend_available(name) for name in names}
    for name, why in missing.items():
        if why:
            print(f"  back-end {name} unavailable: {why}")
    names = [name for name in names if not missing[name]]
    print("  " + f"{'n':>3} " + " ".join(f"{name + ' s':>18}" for name in names)
          + "".join(f" {name + '/hand':>11}" for name in names if name != "hand"))
    for n in sizes:
        limits = Limits(timeout=timeout)
        timings = {name: time_backend(name, Instance.all_on(n), repeats, limits)
                   for name in names}
        cells = [f"{t.median_s:9.3f} {t.label[:8]:>8}" for t in timings.values()]
        hand = timings.get("hand")
        ratios = [_ratio(t, hand) for name, t in timings.items() if name != "hand"]
        print(f"  {n:3d} " + " ".join(cells) + "".join(ratios))


SECTIONS = ("record", "big", "nullities", "fewest", "open", "comparison")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.lightsout_perf",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="repeats per median (3)")
    parser.add_argument("--quick", action="store_true", help="smaller boards, one repeat")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="per-run timeout for searches that may not finish (10 s)")
    parser.add_argument("--summary-side", type=int, default=100_000,
                        help="side of the all-on board summarised without its grid (100000)")
    parser.add_argument("--only", choices=SECTIONS, action="append",
                        help="run only this section (repeatable); default: all but 'open'")
    parser.add_argument("--max-nullity", type=int, default=32,
                        help="fewest presses: boards up to this nullity (32; 42 adds n = 61 "
                             "and 65, minutes each)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="fewest presses: processes of the coset walk (hand:jobs, 1)")
    parser.add_argument("--fewest-limit", type=float, default=1200.0,
                        help="fewest presses: time limit per board (1200 s, twice the "
                             "10-minute target); a board stopped there prints its best so "
                             "far and the time the whole search would take")
    parser.add_argument("--open-timeout", type=float, default=300.0,
                        help="time limit of the open n = 79 board's search (300 s)")
    args = parser.parse_args(argv)
    repeats = 1 if args.quick else args.repeats
    chosen = args.only or [name for name in SECTIONS if name != "open"]
    if "record" in chosen:
        _record_scale(repeats, (1000, 2000) if args.quick else (1000, 2000, 5000, 10_000),
                      (1000,) if args.quick else (1000, 2000))
        _summary(20_000 if args.quick else args.summary_side)
    if "big" in chosen:
        _big_board(repeats, 300 if args.quick else 1000, args.timeout)
    if "nullities" in chosen:
        _nullities(repeats, 60 if args.quick else 200)
    if "fewest" in chosen:
        _fewest(repeats, 40 if args.quick else 78, 24 if args.quick else args.max_nullity,
                args.fewest_limit, args.jobs)
        _nullity_24(repeats)
    if "open" in chosen:
        _open_board(79, args.open_timeout)
    if "comparison" in chosen:
        _comparison(repeats, (5, 10) if args.quick else (5, 10, 15, 20, 25, 30), args.timeout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
