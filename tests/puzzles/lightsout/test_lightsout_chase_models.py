"""Lights Out: the chase and the plain encodings of `cpsat` and `sat`, against `hand` and brute.

- Every shipped board (instances/lightsout/, graded/ included): both
  encodings of both back-ends give `hand`'s status and fewest presses, with
  a verified grid (`core.run.run` passes every answer through `verify`);
  the plain encoding only where it finishes in seconds (`PLAIN_TOO_SLOW`).
  Every fourth board (all kinds: plain, torus, sigma, mod k, graded) in the
  default run (the plain encoding of the 12x12 only under `slow`), every one
  under `slow`.
- Tiny boards of every variant and modulus (hypothesis): both encodings
  agree with `brute` on status, fewest presses, `unique` and `count`.
- `chase_plan`: the chase frees one line (two on a torus) of the shorter
  side, every other press is defined exactly once, and the lights left over
  are the last line (and the first on a torus); where it frees nothing the
  plain encoding runs, and the stats say which encoding ran.
- Options are checked before solving; a build out of time is a timeout.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import sampled
from hypothesis import example, given, settings
from strategies import lightsout_boards_mod

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import load_file, run
from twinsolve.puzzles.lightsout import models
from twinsolve.puzzles.lightsout.models import chase_plan, encoding_used
from twinsolve.puzzles.lightsout.rules import Instance

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted((ROOT / "instances" / "lightsout").rglob("*.txt"))
# Boards the plain encoding does not finish within a few seconds (one core, measured:
# 15x15 7 to 16 s, the others time out at 60 s); the chase solves each in under 4 s.
PLAIN_TOO_SLOW = {"all-on-15x15.txt", "all-on-20x20.txt", "all-on-25x25.txt",
                  "random-14x14.txt", "random-20x20.txt", "random-mod3-08x08.txt",
                  "random-torus-09x09.txt", "lightsout-hard-10x10-varianttorus-s1-01.txt"}
# The chase takes seconds here (under 4 s alone on one core, cpsat and sat): `slow` only.
SLOW = {"all-on-25x25.txt", "lightsout-hard-10x10-varianttorus-s1-01.txt"}
SAMPLE = set(SHIPPED[::4]) - {p for p in SHIPPED if p.name in SLOW}
# The plain encoding takes a second here: `slow` only; its chase stays in the sample.
PLAIN_SLOW = {"all-on-12x12.txt"}
SPECS = [f"{backend}:encoding={encoding}" for backend in ("cpsat", "sat")
         for encoding in ("chase", "plain")]
ASK = Limits(unique=True, count=True)


def _answer(result):
    return result.status, result.objective, result.unique, result.count


def _shipped_cases():
    for path in SHIPPED:
        for spec in SPECS:
            if not (spec.endswith("plain") and path.name in PLAIN_TOO_SLOW):
                yield path, spec


def _in_sample(case) -> bool:
    path, spec = case
    return path in SAMPLE and not (spec.endswith("plain") and path.name in PLAIN_SLOW)


@pytest.mark.parametrize(("path", "spec"), sampled(_shipped_cases(), keep=_in_sample),
                         ids=lambda value: getattr(value, "name", value))
def test_shipped_boards_agree_with_hand(path, spec):
    instance = load_file(path)
    if spec.startswith("sat") and instance.modulus != 2:
        assert run(instance, spec, Limits()).status is Status.UNSUPPORTED
        return
    oracle = run(instance, "hand", Limits(timeout=60))
    mine = run(instance, spec, Limits(timeout=60))
    assert mine.status in (Status.OPTIMAL, Status.UNSAT), (spec, mine.status, mine.message)
    assert (mine.status, mine.objective) == (oracle.status, oracle.objective), spec
    if mine.status is Status.OPTIMAL:
        assert mine.verified is True
    wanted = spec.rpartition("=")[2]
    assert mine.stats.counters["encoding"] == encoding_used(instance, wanted)


def test_every_shipped_board_is_there():
    assert len(SHIPPED) >= 40
    assert all(name in {p.name for p in SHIPPED} for name in PLAIN_TOO_SLOW)


def boards(moduli: tuple[int, ...]):
    return lightsout_boards_mod(moduli, max_rows=5)


def _agree_with_brute(instance: Instance, specs) -> None:
    oracle = run(instance, "brute", ASK, catch=False)
    assert oracle.status in (Status.OPTIMAL, Status.UNSAT)
    for spec in specs:
        result = run(instance, spec, ASK, catch=False)
        assert _answer(result) == _answer(oracle), (spec, instance, result.message)
        if result.status.has_solution:
            assert result.verified is True


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@settings(max_examples=80)
@given(boards((2,)))
@example(Instance(3, 3, ((1, 0, 1), (0, 1, 0), (1, 0, 1)), torus=True))   # the 3-torus
@example(Instance(2, 5, ((1, 1, 0, 1, 1), (0, 1, 1, 1, 0))))              # chase on columns
@example(Instance(4, 3, ((1,) * 3,) * 4, torus=True, sigma=True))
@example(Instance.all_on(4))
def test_mod2_encodings_agree_with_brute(instance):
    _agree_with_brute(instance, SPECS)


@pytest.mark.parametrize("examples", sampled([12, 40]))  # the long run under `slow`
def test_modk_cpsat_encodings_agree_with_brute(examples):
    @settings(max_examples=examples)
    @given(boards((3, 5, 7)))
    @example(Instance(2, 3, ((1, 2, 0), (0, 2, 1)), sigma=True, modulus=3))
    @example(Instance(3, 2, ((2, 1), (0, 2), (1, 1)), torus=True, modulus=3))
    def agrees(instance):
        _agree_with_brute(instance, ("cpsat:encoding=chase", "cpsat:encoding=plain"))

    agrees()


@pytest.mark.parametrize(("rows", "cols", "torus", "free"),
                         [(5, 5, False, 5), (3, 8, False, 3), (9, 4, False, 4),
                          (6, 6, True, 12), (3, 7, True, 6), (2, 7, True, 4)])
def test_the_chase_frees_a_line_of_the_shorter_side(rows, cols, torus, free):
    instance = Instance.all_on(rows, cols, torus=torus)
    chase = chase_plan(instance)
    assert len(chase.free) == free
    defined = [press for _, press in chase.steps]
    cells = {(r, c) for r in range(rows) for c in range(cols)}
    assert len(defined) == len(set(defined)) and set(defined) | set(chase.free) == cells
    assert not set(defined) & set(chase.free)
    # Every light is either a step (it defines a press) or left over as a constraint.
    lights = [light for light, _ in chase.steps] + list(chase.checks)
    assert sorted(lights) == sorted(cells)
    assert len(chase.checks) == free


@pytest.mark.parametrize("instance", [Instance.all_on(1), Instance.all_on(2, torus=True),
                                      Instance.all_on(1, 2, torus=True)])
def test_where_the_chase_frees_nothing_the_plain_encoding_runs(instance):
    assert chase_plan(instance) is None
    result = run(instance, "cpsat", Limits())
    assert result.stats.counters["encoding"] == "plain"
    assert result.stats.counters["free"] == instance.cells


def test_boards_over_the_chase_limit_keep_the_plain_encoding(monkeypatch):
    board = Instance.all_on(6)
    monkeypatch.setattr(models, "CHASE_MAX_ENTRIES", 6 * 6 * 7 - 1)
    assert encoding_used(board) == "plain"
    result = run(board, "sat", Limits())
    assert result.stats.counters["encoding"] == "plain" and result.objective == 28


def test_options_are_checked_before_solving():
    board = Instance.all_on(3)
    for spec in ("cpsat:encoding=xor", "sat:encoding=xor", "cpsat:encodings=plain",
                 "sat:encodings=plain"):
        with pytest.raises(UsageError):
            run(board, spec, Limits())
    result = run(board, "cpsat:encoding=plain:symmetry_level=2", Limits())
    assert result.status is Status.OPTIMAL and result.stats.counters["free"] == 9


def test_no_time_to_build_is_a_timeout():
    board = Instance.all_on(120)
    for spec in ("cpsat", "sat", "cpsat:encoding=plain"):
        result = run(board, spec, Limits(timeout=0))
        assert result.status is Status.TIMEOUT, spec
