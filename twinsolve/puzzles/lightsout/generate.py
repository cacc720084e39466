"""Lights Out boards for the shipped instance folder and for tests.

A board made by pressing random cells of the all-off board is solvable by
construction (the presses themselves solve it, since every press can be
undone by K-1 more), so random boards never waste a benchmark slot on a
trivial `unsat`. `all_on` boards are the classic published family (some
sigma ones have no solution, which is kept: a proof of none is a result too).

`python -m twinsolve.puzzles.lightsout.generate --out instances/lightsout` writes the
shipped set. Every `# expect-objective:` it writes is the `hand` optimum,
confirmed equal by `cpsat` before the file is written; the same seed always
writes the same files, byte for byte.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterator
from pathlib import Path

from ...core.limits import Limits
from ...core.result import Status
from ...core.run import run
from ...core.writing import write_instances
from .rules import Instance, format, press_effect

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


def _confirmed_optimum(board: Instance, published: int | None) -> tuple[int | None, str]:
    """The `hand` optimum (None: no solution), confirmed by a published figure or by
    `cpsat` within 60 s. Returns it and what confirmed it; a disagreement stops the writing.
    """
    hand = run(board, "hand", Limits(timeout=120))
    if hand.status is Status.UNSAT:
        check = run(board, "cpsat", Limits(timeout=60))
        if check.status is not Status.UNSAT:
            raise RuntimeError(f"hand says unsat, cpsat {check.status} on\n{format(board)}")
        return None, "no solution: hand and cpsat agree"
    if hand.status is not Status.OPTIMAL or hand.objective is None:
        raise RuntimeError(f"hand gave {hand.status} on\n{format(board)}")
    if published is not None:
        if published != hand.objective:
            raise RuntimeError(f"hand {hand.objective} != published {published}")
        return hand.objective, "published figure"
    check = run(board, "cpsat", Limits(timeout=60))
    if check.status is Status.OPTIMAL:
        if check.objective != hand.objective:
            raise RuntimeError(f"hand {hand.objective} != cpsat {check.objective} on\n"
                               f"{format(board)}")
        return hand.objective, "hand and cpsat agree"
    return hand.objective, "hand (exhaustive over the solution coset; cpsat timed out)"


# Fewest presses of the all-on n x n board (OEIS A075464), for the boards shipped.
A075464 = {3: 5, 4: 4, 5: 15, 6: 28, 7: 33, 8: 40, 9: 25, 10: 44, 12: 72, 15: 117, 20: 224,
           25: 353}
# Boards a 5 s run of cpsat or sat does not finish: kept out of the quick suite.
FULL_SUITE_FROM = 12


def shipped_set(seed: int = 2026) -> dict[str, tuple[Instance, str]]:
    """File name -> (board, provenance note) for `instances/lightsout/`."""
    boards: dict[str, tuple[Instance, str]] = {}
    for n in sorted(A075464):
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
    """Write the shipped set with `source`, `expect-objective` and (big ones) `suite: full`."""
    return write_instances(out, _with_metadata(seed))


def _with_metadata(seed: int) -> Iterator[tuple[str, Instance]]:
    for name, (board, note) in sorted(shipped_set(seed).items()):
        published = A075464.get(board.rows) if name.startswith("all-on-") and \
            board.variant == "plain" else None
        optimum, confirmed = _confirmed_optimum(board, published)
        source = f"twinsolve.puzzles.lightsout.generate ({note})"
        meta: tuple[tuple[str, str], ...] = (("source", source),)
        if optimum is not None:
            meta += (("expect-objective", str(optimum)),)
        # What confirmed the optimum depends on how fast cpsat ran, so it is printed,
        # not written: the same seed must write the same bytes on any machine.
        print(f"{name}: {confirmed}")
        if max(board.rows, board.cols) >= FULL_SUITE_FROM:
            meta += (("suite", "full"),)
        yield name, Instance(**{**board.__dict__, "meta": meta})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    write_set(args.out, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
