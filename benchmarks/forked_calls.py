"""What forked solver calls cost, and how late the in-process stop was, side by side.

    python -m benchmarks.forked_calls [--repeats N] [--folder DIR]

Two tables, each measured in this one run:

1. *Lateness.* A pigeonhole formula (12 pigeons, 11 holes: hard for CDCL)
   solved under deadlines of 0.3, 0.5, 1.0 and 1.5 s; printed is how far past
   the deadline the call returned (the median of `--repeats`). `forked` is
   what twinsolve does now for the solvers nothing in process stops on time
   (models.sat_forked), and for CaDiCaL's slices once one may be long;
   `interrupt` is the in-process timer interrupt used before, shown for the
   solvers that have one (Glucose 4.1 hears it only at its next restart).
   Kissat and Lingeling had no in-process stop at all.
2. *Cost.* Every instance of `--folder` (default: the shipped Cave
   instances) run with `sat:SOLVER` under a 60 s limit (forked: one child per
   solver session) and without a limit (in process), interleaved; printed
   are the median wall times per run and their ratio.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from twinsolve.core.limits import Deadline, Limits
from twinsolve.core.run import load_file, run
from twinsolve.models import sat_common

ROOT = Path(__file__).resolve().parents[1]
DEADLINES = (0.3, 0.5, 1.0, 1.5)


def _late_forked(name: str, seconds: float) -> float:
    start = time.perf_counter()
    with sat_common.SatSession(name, PHP(11).clauses, Deadline(seconds)) as session:
        assert session.solve() is None
    return time.perf_counter() - start - seconds


def _late_interrupt(name: str, seconds: float) -> float:
    with Solver(name=name, bootstrap_with=PHP(11).clauses) as solver:
        start = time.perf_counter()
        assert sat_common._solve_with_timer(solver, seconds, ()) is None
        return time.perf_counter() - start - seconds


def lateness(repeats: int) -> None:
    print("seconds past the deadline (median of", repeats, "runs)")
    print(f"{'solver':<11} {'stop':<10}" + "".join(f"{t:>9.1f} s" for t in DEADLINES))
    for name, traits in sorted(sat_common.TRAITS.items()):
        if not (traits.forked or traits.sliced):
            continue
        ways = [("forked", _late_forked)] + ([("interrupt", _late_interrupt)]
                                             if traits.interrupt else [])
        for way, measure in ways:
            cells = [statistics.median(measure(name, t) for _ in range(repeats))
                     for t in DEADLINES]
            print(f"{name:<11} {way:<10}" + "".join(f"{c:>11.3f}" for c in cells))


def cost(folder: Path, repeats: int) -> None:
    files = sorted(p for p in folder.rglob("*.txt"))
    instances = [load_file(str(p)) for p in files]
    print(f"\nmedian wall time per run over {len(files)} instances of {folder} "
          f"({repeats} rounds, interleaved)")
    print(f"{'back-end':<15} {'no limit':>10} {'limit 60 s':>11} {'ratio':>7}")
    for name, traits in sorted(sat_common.TRAITS.items()):
        if not traits.forked:
            continue
        backend = f"sat:{name}"
        times: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(repeats):
            for instance in instances:
                for limited in (False, True):
                    start = time.perf_counter()
                    run(instance, backend, Limits(timeout=60 if limited else None))
                    times[limited].append(time.perf_counter() - start)
        free, bounded = (statistics.median(times[k]) for k in (False, True))
        print(f"{backend:<15} {free * 1e3:>8.1f} ms {bounded * 1e3:>8.1f} ms "
              f"{bounded / free:>6.1f}x")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.forked_calls",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=ROOT / "instances" / "cave")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    lateness(args.repeats)
    cost(args.folder, args.repeats)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
