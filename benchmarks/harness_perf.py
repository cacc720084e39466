"""How much the harness costs per run, and how well it uses the cores.

    python -m benchmarks.harness_perf [--runs 40] [--backend hand]

1. Overhead per run on a trivial instance: the median wall time of a run in a
   warm worker process (what `twinsolve bench` does), against a fresh worker
   started per run and a fresh `twinsolve solve` interpreter per run (what a
   naive harness does). Ratios printed.
2. Parallel speed-up: the same CPU-bound suite with `--jobs 1` and
   `--jobs 2`, wall time of each and the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from twinsolve.bench.execute import LocalPool
from twinsolve.bench.isolation import WorkerProcess
from twinsolve.bench.plan import Budget
from twinsolve.bench.suite import SuiteConfig, run_suite

__all__ = ["main"]

TRIVIAL = "lightsout 1 1\n1\n"


def _task(backend: str) -> dict:
    return {"id": 0, "text": TRIVIAL, "source": "trivial.txt", "backend": backend,
            "limits": {"timeout": 10, "node_limit": None, "unique": False, "count": False,
                       "seed": 0, "options": {}}}


def warm_overhead(runs: int, backend: str) -> list[float]:
    worker = WorkerProcess()
    try:
        worker.execute(_task(backend), 10, None)  # start it once, as the pool does
        return [worker.execute(_task(backend), 10, None).wall_s for _ in range(runs)]
    finally:
        worker.close()


def fresh_worker_overhead(runs: int, backend: str) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        worker = WorkerProcess()
        worker.execute(_task(backend), 10, None)
        times.append(time.perf_counter() - start)
        worker.close()
    return times


def fresh_cli_overhead(runs: int, backend: str, folder: Path) -> list[float]:
    path = folder / "trivial.txt"
    path.write_text(TRIVIAL)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "twinsolve", "solve", str(path), "--backend",
                        backend, "--json"], check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def cpu_bound_suite(folder: Path, count: int) -> Path:
    """4x4 boards for `brute`: 65,536 press grids each, pure Python work."""
    suite = folder / "cpu"
    suite.mkdir(exist_ok=True)
    for index in range(count):
        bits = f"{(index * 2654435761) % (1 << 16):016b}"
        rows = "\n".join(bits[r * 4:(r + 1) * 4] for r in range(4))
        (suite / f"b{index:02d}.txt").write_text(f"lightsout 4 4\n{rows}\n")
    return suite


def suite_wall(suite: Path, db: Path, jobs: int) -> float:
    start = time.perf_counter()
    run_suite(SuiteConfig([suite], ["brute"], Budget(timeout=120), db=db, jobs=jobs),
              executor=LocalPool(jobs))
    return time.perf_counter() - start


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:8.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="harness overhead and parallel speed-up")
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--backend", default="hand")
    parser.add_argument("--suite-size", type=int, default=32)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        warm = warm_overhead(args.runs, args.backend)
        fresh = fresh_worker_overhead(max(5, args.runs // 4), args.backend)
        cli = fresh_cli_overhead(max(5, args.runs // 4), args.backend, folder)
        print(f"overhead per run, trivial instance, back-end {args.backend!r} (medians)")
        print(f"  warm worker (twinsolve bench)     {_ms(warm)}")
        print(f"  fresh worker per run              {_ms(fresh)}   "
              f"x{statistics.median(fresh) / statistics.median(warm):.0f}")
        print(f"  fresh 'twinsolve solve' per run   {_ms(cli)}   "
              f"x{statistics.median(cli) / statistics.median(warm):.0f}")
        suite = cpu_bound_suite(folder, args.suite_size)
        one = suite_wall(suite, folder / "j1.sqlite", 1)
        two = suite_wall(suite, folder / "j2.sqlite", 2)
        print(f"CPU-bound suite ({args.suite_size} x brute 4x4): --jobs 1 {one:.2f} s, "
              f"--jobs 2 {two:.2f} s, speed-up x{one / two:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
