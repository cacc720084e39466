"""Water jugs under `cpsat:encoding=automaton` (the default) against `hand`.

- Every shipped puzzle (instances/jugs/, graded/ included): the same status
  and fewest moves as `hand`, a plan `verify` replays, and the automaton (not
  the step encoding) built every horizon.
- Long plans: 3-jug pour-only puzzles whose optimal plans take 14 moves and
  more (`benchmarks.jugs_models_perf.long_decantings`: the farthest states
  of a decanting, found by the engine's BFS), where the step encoding timed
  out at 30 s: the same optimum, `unique` and `count` as `hand`, well within
  a few seconds.
- The step encoding stays selectable (`encoding=steps`) and agrees; a bad
  value is refused before solving; a deadline while listing is a timeout.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import sampled

from benchmarks.jugs_models_perf import long_decantings
from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Result, Status
from twinsolve.core.run import load_file, run
from twinsolve.puzzles.jugs import models as jugs_models
from twinsolve.puzzles.jugs.rules import Instance

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = sorted((ROOT / "instances" / "jugs").rglob("*.txt"))
# The 4-jug exact goals: 12 moves deep in spaces of half a million states, tables of
# 600,000 to 800,000 moves, seconds each (the step encoding: 25 s to over 30 s); and the
# one holds goal that takes over a second. Under `slow`.
SLOW = {"gen-4jugs-0-exact.txt", "gen-4jugs-1-exact.txt", "gen-4jugs-2-exact.txt",
        "gen-4jugs-1-holds.txt"}


def _agree(instance: Instance, spec: str, limits: Limits) -> Result:
    """`spec`'s answer, checked against `hand`'s: status, optimum, unique, count, verified."""
    oracle = run(instance, "hand", limits)
    mine = run(instance, spec, limits)
    assert mine.status is oracle.status, (spec, mine.message)
    assert (mine.objective, mine.unique, mine.count) == \
        (oracle.objective, oracle.unique, oracle.count), spec
    if mine.status.has_solution:
        assert mine.verified is True
    return mine


@pytest.mark.parametrize("path", sampled([p for p in SHIPPED if p.name not in SLOW], keep=3)
                         + sampled([p for p in SHIPPED if p.name in SLOW], keep=0),
                         ids=lambda p: p.name)
def test_shipped_puzzles_agree_with_hand(path):
    result = _agree(load_file(path), "cpsat", Limits(timeout=60))
    if result.status is Status.OPTIMAL:
        assert result.stats.counters["encoding"] == "automaton", path.name


def test_every_shipped_set_is_there():
    assert len(SHIPPED) >= 25


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_long_pour_only_plans_agree_with_hand_quickly():
    puzzles = [instance for _, instance in long_decantings()]
    assert len(puzzles) >= 5
    asked = Limits(timeout=60, unique=True, count=True)
    for instance in puzzles:
        began = time.perf_counter()
        result = _agree(instance, "cpsat", asked)
        assert result.objective >= 14 and time.perf_counter() - began < 10, instance
        assert result.stats.counters["encoding"] == "automaton"


def test_the_step_encoding_stays_selectable_and_agrees():
    die_hard = load_file(ROOT / "instances" / "jugs" / "die-hard-holds-4.txt")
    asked = Limits(timeout=60, unique=True, count=True)
    _agree(die_hard, "cpsat:encoding=steps", asked)
    steps = run(die_hard, "cpsat:encoding=steps", asked)
    assert steps.stats.counters["encoding"] == "steps"
    with pytest.raises(UsageError, match="encoding"):
        run(die_hard, "cpsat:encoding=table", asked)
    with pytest.raises(UsageError):
        run(die_hard, "cpsat:no_such_parameter=1", asked)


def test_a_tiny_cap_hands_the_horizons_to_the_step_encoding(monkeypatch):
    poisson = load_file(ROOT / "instances" / "jugs" / "poisson-12-8-5-exact-6-6-0.txt")
    monkeypatch.setattr(jugs_models, "AUTOMATON_MAX_TRANSITIONS", 20)
    result = _agree(poisson, "cpsat", Limits(timeout=60, unique=True))
    assert result.stats.counters["encoding"] == "automaton+steps"
    assert result.stats.counters["transitions"] <= 20


def test_no_time_to_list_the_states_is_a_timeout():
    big = load_file(ROOT / "instances" / "jugs" / "gen-4jugs-0-exact.txt")
    result = run(big, "cpsat", Limits(timeout=0.05))
    assert result.status is Status.TIMEOUT
