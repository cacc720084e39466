"""Lights Out boards for the shipped instance folder and for tests.

A board made by pressing random cells of the all-off board is solvable by
construction (the presses themselves solve it, since every press can be
undone by K-1 more), so random boards never waste a benchmark slot on a
trivial `unsat`. `all_on` boards are the classic published family.

`python -m twinsolve.generate.lightsout --out instances/lightsout` writes the
shipped set. Every `# expect-objective:` it writes is the `hand` optimum,
confirmed equal by `cpsat` before the file is written; the same seed always
writes the same files, byte for byte.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from ..core.limits import Limits
from ..core.result import Status
from ..core.run import run
from ..puzzles.lightsout import Instance, format, press_effect

__all__ = ["random_solvable", "shipped_set", "main"]


def random_solvable(rows: int, cols: int, seed: int, density: float = 0.5, torus: bool = False,
                    sigma: bool = False, modulus: int = 2) -> Instance:
    """Press each cell a random number of times (with probability `density`)."""
    rng = random.Random(seed)
    shape = Instance(rows, cols, tuple((0,) * cols for _ in range(rows)), torus, sigma, modulus)
    lights = [[0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if rng.random() < density:
                times = rng.randrange(1, modulus)
                for tr, tc in press_effect(shape, r, c):
                    lights[tr][tc] = (lights[tr][tc] + times) % modulus
    return Instance(rows, cols, tuple(map(tuple, lights)), torus, sigma, modulus)


def _confirmed_optimum(board: Instance) -> int:
    limits = Limits(timeout=120)
    hand = run(board, "hand", limits)
    check = run(board, "cpsat", limits)
    if hand.status is not Status.OPTIMAL or check.status is not Status.OPTIMAL \
            or hand.objective != check.objective:
        raise RuntimeError(f"hand ({hand.status} {hand.objective}) and cpsat "
                           f"({check.status} {check.objective}) disagree on\n{format(board)}")
    assert hand.objective is not None
    return hand.objective


def shipped_set(seed: int = 2026) -> dict[str, tuple[Instance, str]]:
    """File name -> (board, provenance note) for `instances/lightsout/`."""
    boards: dict[str, tuple[Instance, str]] = {}
    for n in (3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25):
        boards[f"all-on-{n:02d}x{n:02d}.txt"] = (Instance.all_on(n), "all-on board, OEIS A075464")
    for n in (5, 6, 7):
        boards[f"all-on-torus-{n}x{n}.txt"] = (Instance.all_on(n, torus=True), "all-on torus")
        boards[f"all-on-sigma-{n}x{n}.txt"] = (Instance.all_on(n, sigma=True), "all-on sigma")
    variants = [
        ("random", {}, (6, 8, 10, 14, 20)),
        ("random-torus", {"torus": True}, (5, 7, 9)),
        ("random-sigma", {"sigma": True}, (6, 8, 11)),
        ("random-mod3", {"modulus": 3}, (4, 5, 6, 8)),
        ("random-mod5", {"modulus": 5}, (4, 5)),
    ]
    for index, (name, variant, sizes) in enumerate(variants):
        for n in sizes:
            board = random_solvable(n, n, seed * 1000 + index * 100 + n, **variant)
            boards[f"{name}-{n:02d}x{n:02d}.txt"] = (board, f"random solvable board, seed {seed}")
    return boards


def write_set(out: Path, seed: int = 2026) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (board, note) in sorted(shipped_set(seed).items()):
        meta = (("source", f"twinsolve.generate.lightsout ({note})"),
                ("expect-objective", str(_confirmed_optimum(board))))
        path = out / name
        path.write_text(format(Instance(**{**board.__dict__, "meta": meta})), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    for path in write_set(args.out, args.seed):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
