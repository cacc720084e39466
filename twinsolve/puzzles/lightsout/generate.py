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

Graded puzzles (`twinsolve generate lightsout`): a board whose fewest-press
grid is the only one, with options `presses` (the exact fewest-press count,
with multiplicity; default any), `variant` (plain, torus, sigma, torus-sigma)
and `modulus` (2, 3, 5 or 7). A board is drawn by pressing the dark board
with `presses` random unit presses (without `presses`, a count drawn
uniformly up to `max_unique_presses`) and kept when it grades to the
requested level with a unique optimum of that many presses.

The levels, Tatham's way: each allows one more technique of the hand solver
(`hand.py`), and a board is of level d when the solver restricted to d
settles it (finds the fewest-press grid and proves it the only one) and the
solver restricted to d-1 does not (`settle`):

- easy: light chasing and elimination. They settle a board exactly when the
  press matrix has nullity 0: the one solution they find is the only one.
- medium: + a small coset walk (`hand.walk_coset`: branch and bound over the
  kernel coefficients, bounded by the presses on the cells already settled)
  that examines at most half of the coset's K^nullity members and at most
  `MEDIUM_MEMBERS` (256, a walk one could do on paper): the bound prunes at
  least half of the coset.
- hard: + the exhaustive coset search of the `hand` back-end: the bound
  prunes less than half of the coset, or the walk needs more than 256 members.

So the size decides what is possible: nullity 0 (10x10 plain) gives easy
boards only; nullity > 0 (5x5 plain: 2) medium and hard ones only, nullity 1
hard ones only (the walk examines all K members). Few presses tend to give
medium boards, many hard ones; on some sizes the bound always prunes half
(5x5 torus: no hard board turned up in 2000 draws), which the driver's
attempt budget reports. A unique optimum has fewer presses than the average
member of its coset, which bounds `presses` (`max_unique_presses`). `grade`
reports the evidence: the techniques, `nullity`, `coset` (members),
`examined` and `share` (members the settling technique examined), the walk's
`nodes` (or `walk_limit`, the members it was allowed), `pivots`, `presses`.
"""

from __future__ import annotations

import argparse
import enum
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ...core.errors import UsageError, quoted
from ...core.generation import Generated, Grade, Option, Request, Shipped, spelled
from ...core.limits import Limits
from ...core.result import Status
from ...core.run import run
from ...files.writing import write_instances
from . import hand
from .published import FEWEST_ALL_ON
from .rules import PRIMES, Instance, format, press_effect

__all__ = ["random_solvable", "pressed", "shipped_set", "main", "LEVELS", "DEFAULT_SIZE",
           "OPTIONS", "check", "attempt", "grade", "settle", "Settled", "Outcome",
           "max_unique_presses", "medium_budget"]


def random_solvable(rows: int, cols: int, seed: int, density: float = 0.5, torus: bool = False,
                    sigma: bool = False, modulus: int = 2) -> Instance:
    """Press each cell a random number of times (with probability `density`)."""
    rng = random.Random(seed)
    presses = [[rng.randrange(1, modulus) if rng.random() < density else 0 for _ in range(cols)]
               for _ in range(rows)]
    return pressed(_dark(rows, cols, torus, sigma, modulus), presses)


def _dark(rows: int, cols: int, torus: bool, sigma: bool, modulus: int) -> Instance:
    return Instance(rows, cols, tuple((0,) * cols for _ in range(rows)), torus, sigma, modulus)


def pressed(board: Instance, presses: list[list[int]]) -> Instance:
    """`board` after pressing cell (r, c) presses[r][c] times."""
    lights = [list(row) for row in board.lights]
    for r, row in enumerate(presses):
        for c, times in enumerate(row):
            if times:
                for tr, tc in press_effect(board, r, c):
                    lights[tr][tc] = (lights[tr][tc] + times) % board.modulus
    return replace(board, lights=tuple(map(tuple, lights)))


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
A075464 = {n: FEWEST_ALL_ON[n] for n in (3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25)}
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


# ---------------------------------------------------------------- graded puzzles

LEVELS = ("easy", "medium", "hard")
DEFAULT_SIZE = (5, 5)
OPTIONS = (Option("presses", "fewest presses of the answer"),
           Option("variant", "which lights a press toggles", kind="word",
                  choices=("plain", "torus", "sigma", "torus-sigma"), metavar="NAME"),
           Option("modulus", "colours of a light: 2, 3, 5 or 7 (default 2)"))
VARIANTS = {"plain": (False, False), "torus": (True, False), "sigma": (False, True),
            "torus-sigma": (True, True)}
MAX_GENERATED_SIDE = 64
# Medium and hard boards are made where a board has at most this many solutions, so the
# exhaustive search of one grade stays near 10 ms (mod 2) to 0.4 s (mod 3).
MAX_COSET = 1 << 16
MEDIUM_MEMBERS = 256      # the most members a medium walk may examine, on any coset
GRADE_NODES = 1 << 22     # the exhaustive search of a grade stops here (nodes, not seconds)
DRAWS = 8                 # boards one attempt draws before it gives up
ATTEMPTS = 100            # tries per puzzle the driver makes (800 boards) before giving up
# The graded sets in instances/lightsout/graded/ (`python -m twinsolve.generation.shipped`).
SHIPPED = (Shipped("easy", (10, 10), 2), Shipped("medium", (5, 5), 2),
           Shipped("hard", (5, 5), 2),
           Shipped("hard", (10, 10), 1, options=(("variant", "torus"),)),
           Shipped("medium", (5, 5), 1, options=(("modulus", 3),)))
TECHNIQUES = {"easy": ["chase"], "medium": ["chase", "walk"],
              "hard": ["chase", "walk", "exhaustive"]}


class Outcome(enum.Enum):
    SOLVED = "solved"      # the fewest-press grid found and proven the only one
    SEVERAL = "several"    # proven: two or more fewest-press grids
    NONE = "none"          # no press grid turns the board off
    STUCK = "stuck"        # the level's techniques do not settle the board


@dataclass(frozen=True)
class Settled:
    """What the solver restricted to a level settled: how, at which level, the fewest
    presses (when known) and the evidence (JSON-ready)."""

    outcome: Outcome
    level: str | None
    presses: int | None
    evidence: dict[str, Any]


def medium_budget(coset_size: int) -> int:
    """The members a medium walk may examine: half the coset, at most `MEDIUM_MEMBERS`."""
    return min(coset_size // 2, MEDIUM_MEMBERS)


def _ended(level: str, ties: int, presses: int, facts: dict[str, Any]) -> Settled:
    """A technique that examined the whole coset (or pruned the rest): one optimum or more."""
    evidence = {"techniques": TECHNIQUES[level], **facts, "presses": presses}
    if "coset" in facts:
        evidence["share"] = float(f"{facts['examined'] / facts['coset']:.3g}")
    if ties == 1:
        return Settled(Outcome.SOLVED, level, presses, evidence)
    return Settled(Outcome.SEVERAL, level, presses, {**evidence, "optimal_grids": ties})


def settle(instance: Instance, level: str = "hard") -> Settled:
    """The hand solver restricted to `level`'s techniques (see the module docstring).

    The techniques run in level order and the first that settles the board
    answers, so `settle(board, d).outcome` is SOLVED exactly when the board's
    level is d or easier. Deterministic: limits count members and nodes.
    """
    allowed = LEVELS[:LEVELS.index(level) + 1]
    found = hand.coset(instance)  # light chasing and elimination
    facts: dict[str, Any] = {"nullity": found.nullity, "pivots": found.pivots}
    if found.particular is None:
        return Settled(Outcome.NONE, "easy", None, {**facts, "solutions": 0})
    if found.nullity == 0:
        return _ended("easy", 1, int(found.particular.sum()), {**facts, "examined": 1})
    facts["coset"] = size = instance.modulus ** found.nullity
    if "medium" not in allowed:
        return Settled(Outcome.STUCK, None, None, facts)
    budget = medium_budget(size)
    walked = hand.walk_coset(found, instance.modulus, member_limit=budget)
    if walked.complete:
        return _ended("medium", walked.ties, walked.presses,
                      {**facts, "examined": walked.examined, "nodes": walked.nodes})
    facts["walk_limit"] = budget
    if "hard" not in allowed:
        return Settled(Outcome.STUCK, None, None, facts)
    result = hand.solve(instance, Limits(unique=True, count=True, node_limit=GRADE_NODES))
    if result.status is not Status.OPTIMAL or result.objective is None or result.count is None:
        return Settled(Outcome.STUCK, None, None,
                       {**facts, "undecided": f"not settled in {GRADE_NODES} nodes"})
    examined = result.stats.counters["candidates"]
    return _ended("hard", result.count, result.objective, {**facts, "examined": examined})


def grade(instance: Instance) -> Grade:
    """The level of any Lights Out board; None when it has no solution or several optimal
    ones (or the exhaustive search could not settle it within `GRADE_NODES`)."""
    settled = settle(instance)
    return Grade(settled.level if settled.outcome is Outcome.SOLVED else None, settled.evidence)


def _whole_option(request: Request, name: str, default: int | None) -> int | None:
    value = request.option(name, default)
    if isinstance(value, str) and value.isdecimal():
        value = int(value)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise UsageError(f"{spelled(name)} must be a whole number, got {quoted(value)}")
    return value


def _shape(request: Request) -> Instance:
    """The dark board of the requested size and variant (options checked)."""
    variant = request.option("variant", "plain")
    if variant not in VARIANTS:
        raise UsageError(f"unknown Lights Out variant {quoted(variant)} "
                         f"(variants: {', '.join(VARIANTS)})")
    modulus = _whole_option(request, "modulus", 2)
    if modulus not in PRIMES:
        raise UsageError(f"--modulus must be one of {', '.join(map(str, PRIMES))}, "
                         f"got {modulus}")
    torus, sigma = VARIANTS[variant]
    return _dark(request.rows or 0, request.cols or 0, torus, sigma, modulus or 2)


def _presses(request: Request) -> int | None:
    return _whole_option(request, "presses", None)


def max_unique_presses(shape: Instance) -> tuple[int, int]:
    """(nullity, the most presses a unique fewest-press grid can have) on `shape`'s size.

    Why the bound: with nullity > 0 a cell that some kernel grid moves takes
    every digit equally often over a coset, so the coset's average member has
    (K-1)/2 presses there; a unique optimum lies strictly below the average,
    so 2 * presses < (K-1) * (2 * cells - moved cells).
    """
    found = hand.coset(shape)
    k, cells = shape.modulus, shape.cells
    if found.nullity == 0:
        return 0, cells * (k - 1)
    moved = int(found.kernel.reshape(found.nullity, -1).any(axis=0).sum())
    return found.nullity, ((k - 1) * (2 * cells - moved) - 1) // 2


def _level_problem(board: str, level: str, nullity: int, modulus: int) -> str | None:
    """Why no board of this size reaches `level` (see the module docstring), or None."""
    solutions = modulus ** nullity
    count = str(solutions) if solutions <= MAX_COSET else f"{modulus}^{nullity}"
    if level == "easy" and nullity > 0:
        return (f"a solvable {board} has {count} solutions (nullity {nullity}): "
                f"none is easy, ask for medium or hard")
    if level != "easy" and nullity == 0:
        return f"a {board} has at most one solution (nullity 0): its puzzles are all easy"
    if level == "medium" and nullity == 1:
        return (f"on a {board} (nullity 1) the walk examines all {modulus} solutions: "
                f"no board is medium")
    if level != "easy" and solutions > MAX_COSET:
        return (f"a solvable {board} has {count} solutions; medium and hard boards are "
                f"generated up to {MAX_COSET}")
    return None


def check(request: Request) -> None:
    """Refuse bad options, sizes out of range, and levels or press counts the size rules out."""
    if request.level not in LEVELS:
        raise UsageError(f"unknown Lights Out level {quoted(request.level)} (levels: "
                         f"{', '.join(LEVELS)})")
    for size, what in ((request.rows, "rows"), (request.cols, "columns")):
        if size is None or not 1 <= size <= MAX_GENERATED_SIDE:
            raise UsageError(f"a generated Lights Out board has 1..{MAX_GENERATED_SIDE} "
                             f"{what}, got {size}")
    if request.symmetric:
        raise UsageError("Lights Out has no clues to place symmetrically: drop --symmetric")
    shape, presses = _shape(request), _presses(request)
    board = f"{shape.rows}x{shape.cols} {shape.variant} board"
    nullity, most = max_unique_presses(shape)
    if most < 1:
        raise UsageError(f"no {board} with a light on has a unique fewest-press solution")
    # The press count first: its range holds for every level, so a bad --presses is what
    # the user hears about, not the level tried first when none was asked.
    if presses is not None and not 1 <= presses <= most:
        raise UsageError(f"--presses must be 1..{most}, got {presses}: at least 1 (a lit "
                         f"board), and a unique fewest-press solution on a {board} has at "
                         f"most {most} presses")
    problem = _level_problem(board, request.level, nullity, shape.modulus)
    if problem:
        raise UsageError(problem)


def _draw(shape: Instance, presses: int, rng: random.Random) -> list[list[int]]:
    """A random press grid of `presses` unit presses, no cell pressed K times."""
    k, cols = shape.modulus, shape.cols
    digits = [0] * shape.cells
    for slot in rng.sample(range(shape.cells * (k - 1)), presses):
        digits[slot // (k - 1)] += 1  # slot s: one of the K-1 presses cell s // (K-1) may take
    return [digits[start:start + cols] for start in range(0, shape.cells, cols)]


def attempt(request: Request, rng: random.Random) -> Generated | None:
    """One try: up to `DRAWS` pressed boards, the first that grades exactly to the level
    with a unique optimum of the requested presses (at least one: a lit board).

    Without `presses`, each draw takes a press count uniformly from 1 to the most a
    unique optimum can have: few presses tend to medium boards, many to hard ones.
    """
    shape, presses = _shape(request), _presses(request)
    most = max_unique_presses(shape)[1]
    if most < 1:
        return None
    for _ in range(DRAWS):
        board = pressed(shape, _draw(shape, presses or rng.randint(1, most), rng))
        settled = settle(board, request.level)
        if settled.outcome is not Outcome.SOLVED or settled.level != request.level:
            continue
        if not settled.presses or (presses is not None and settled.presses != presses):
            continue
        meta = (("expect-unique", "true"), ("expect-objective", str(settled.presses)))
        return Generated(replace(board, meta=meta), Grade(settled.level, settled.evidence))
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    write_set(args.out, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
