"""Lights Out, the chase against the plain encoding: `python -m benchmarks.lightsout_models_perf`.

For `cpsat` and `sat`, each with `encoding=chase` (the default) and
`encoding=plain`, on the all-on n x n boards (n = 10, 15, 20, 25, 30 unless
`--sizes`) and on a few random solvable boards of every variant
(`random_board`: random presses applied to a dark board, so a solution
exists): the median wall time over `--repeats` runs through
`twinsolve.core.run.run` (every answer verified), the nodes (CP-SAT
branches, SAT decisions) and the status, then the ratios plain / chase of
time and of nodes. A run that ends at the time limit without a proof (marked *) is not
repeated, and a ratio against such a run is a lower bound (printed ">="). One warm-up
CP-SAT call comes first: the first solve of a process pays about 0.3 s of
loading.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence

from benchmarks.lightsout_perf import Timing, time_backend
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.lightsout.rules import Instance, press_effect

__all__ = ["random_board", "boards", "main"]

SIZES = (10, 15, 20, 25, 30)
BACKENDS = ("cpsat", "sat")
_PROVEN = (Status.OPTIMAL, Status.SOLVED, Status.UNSAT)


def random_board(rows: int, cols: int, seed: int, **variant: object) -> Instance:
    """A solvable board: each cell pressed a random 0..K-1 times, lit by the presses."""
    dark = Instance(rows, cols, tuple((0,) * cols for _ in range(rows)), **variant)
    rng = random.Random(seed)
    lights = [[0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            times = rng.randrange(dark.modulus)
            for lr, lc in press_effect(dark, r, c):
                lights[lr][lc] = (lights[lr][lc] + times) % dark.modulus
    return Instance(rows, cols, tuple(map(tuple, lights)), **variant)


def boards(sizes: Sequence[int]) -> list[tuple[str, Instance]]:
    """The all-on n x n boards, then random boards (seeded, so the same every run)."""
    named = [(f"all-on {n}x{n}", Instance.all_on(n)) for n in sizes]
    named += [
        ("random 16x16", random_board(16, 16, 1)),
        ("random 22x22", random_board(22, 22, 2)),
        ("random 12x18", random_board(12, 18, 3)),
        ("random torus 10x10", random_board(10, 10, 4, torus=True)),
        ("random sigma 14x14", random_board(14, 14, 5, sigma=True)),
        ("random mod 3 8x8", random_board(8, 8, 6, modulus=3)),
    ]
    return named


def _capped(timing: Timing) -> bool:
    """Whether the run stopped at the limit (no proven answer): its time is a lower bound."""
    return timing.result.status not in _PROVEN


def _cell(timing: Timing) -> str:
    return (f"{timing.label:>9}{'*' if _capped(timing) else ' '} {timing.median_s:8.3f} s "
            f"{timing.result.stats.nodes:>9}")


def _ratio(plain: float, chase: float, plain_capped: bool) -> str:
    if chase <= 0:
        return "-"
    return f"{'>=' if plain_capped else '  '}{plain / chase:,.1f}"


def _row(name: str, instance: Instance, backend: str, repeats: int, limits: Limits) -> str:
    chase = time_backend(f"{backend}:encoding=chase", instance, repeats, limits)
    plain = time_backend(f"{backend}:encoding=plain", instance, repeats, limits)
    if chase.result.status.value == "unsupported":
        return f"{name:<20} {backend:<6} unsupported: {chase.result.message}"
    capped = _capped(plain)
    # Why +1: a board the presolve settles takes 0 branches.
    nodes = _ratio(plain.result.stats.nodes + 1, chase.result.stats.nodes + 1, capped)
    return (f"{name:<20} {backend:<6} {_cell(chase)} | {_cell(plain)} | "
            f"{_ratio(plain.median_s, chase.median_s, capped):>9} {nodes:>10}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds per run (default 60)")
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--backends", nargs="*", default=list(BACKENDS))
    args = parser.parse_args(argv)
    limits = Limits(timeout=args.timeout)
    run(Instance.all_on(3), "cpsat", Limits())  # warm-up: CP-SAT's first solve loads it
    print(f"medians of {args.repeats} runs, time limit {args.timeout:g} s (* = stopped at the "
          "limit, not repeated); nodes = CP-SAT branches / SAT decisions")
    print(f"{'board':<20} {'back':<6} {'chase: status':>10} {'time':>10} {'nodes':>9} | "
          f"{'plain: status':>10} {'time':>10} {'nodes':>9} | {'time x':>9} {'nodes x':>10}")
    for name, instance in boards(args.sizes):
        for backend in args.backends:
            print(_row(name, instance, backend, args.repeats, limits), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
