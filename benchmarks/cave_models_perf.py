"""Cave model back-ends (`sat`, `cpsat`) against the peer solver puzzlekit, on janko.at.

    python -m benchmarks.cave_models_perf [--connectivity] [--timeout S]
        [--dataset FILE] [--first N] [--per-instance] [--backends ...]

`benchmarks.cave_perf` with `--backends sat,cpsat,puzzlekit` by default
(the peer needs `pip install -e '.[peers]'`); see that module for what is
run, how runs are judged, and the figures measured on the 140 puzzles.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from benchmarks.cave_perf import main as cave_perf_main

__all__ = ["main", "DEFAULT_SPECS"]

DEFAULT_SPECS = ("sat", "cpsat", "puzzlekit")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not any(a == "--backends" or a.startswith("--backends=") for a in args):
        args = ["--backends", ",".join(DEFAULT_SPECS), *args]
    return cave_perf_main(args, prog="python -m benchmarks.cave_models_perf")


if __name__ == "__main__":
    raise SystemExit(main())
