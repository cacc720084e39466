"""Clock stepping: the brute-force oracle, the gcd criterion, bad input, planning helpers.

- Random small dials: hand, cpsat and sat agree with `brute` (every move
  sequence by length) on reachability, the optimum, `unique` and `count`, and
  every plan passes `verify`; the gcd criterion is exact.
- Large dials (M up to 10^6): hand answers in well under a second, counts
  astronomically many shortest plans exactly (checked against a
  closed form), and the models say `unsupported` / `timeout`, never wrong.
- Bad files: an `InstanceError` at the right line and column, exit 2 on the
  CLI; fuzzed text parses or raises `InstanceError`; parse(format(i)) == i.
- The generic planning helpers (`twinsolve.models.planning_steps`):
  exactly-one, the closure certificate, and limits.
"""

from __future__ import annotations

import doctest
import itertools
import math

import pytest
from conftest import (
    assert_bad_file,
    assert_cli_refuses_file,
    assert_parses_or_refuses,
    assert_shipped_instances_hold,
    sampled,
)
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import clock_dials, word_lines

from twinsolve.core.limits import Deadline, Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.models import cpsat_common, planning_steps, sat_common
from twinsolve.puzzles.clock import hand as clock_search
from twinsolve.puzzles.clock import rules as clock
from twinsolve.puzzles.clock.models import build_cpsat, build_sat
from twinsolve.puzzles.clock.rules import Instance

BACKENDS = ("hand", "cpsat", "sat")
ASK = Limits(unique=True, count=True, timeout=60)


def answer(result):
    return result.status, result.objective, result.unique, result.count


@pytest.mark.parametrize("module", [clock, clock_search])
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(module)
    assert attempted > 0 and failed == 0


# ---------------------------------------------------------------- against brute force

@pytest.mark.parametrize("examples", sampled([25, 80]))  # the long run under `slow`
def test_backends_agree_with_brute(examples):
    @settings(max_examples=examples)
    @given(clock_dials())
    @example(Instance(12, 3, 2, (4, -5, 16)))  # the example of the design notes: +4 +7, twice
    @example(Instance(1, 0, 0, (5,)))          # one position, every step is 0
    @example(Instance(6, 1, 4, (2, 4, 8)))     # gcd 2 does not divide 3
    @example(Instance(9, 0, 8, (1,)))          # one move: the cycle, eight steps
    @example(Instance(10, 5, 5, (3, 7)))       # already there
    def agrees(instance):
        oracle = run(instance, "brute", ASK, catch=False)
        assert oracle.status in (Status.OPTIMAL, Status.UNSAT)
        assert (oracle.status is Status.UNSAT) == (clock.unreachable_reason(instance) is not None)
        if oracle.status is Status.OPTIMAL:
            assert oracle.objective <= clock.plan_length_bound(instance)
        for backend in BACKENDS:
            result = run(instance, backend, ASK, catch=False)
            assert answer(result) == answer(oracle), (backend, result.message)
            if result.solution is not None:
                assert result.verified is True
            plain = run(instance, backend, Limits(timeout=60), catch=False)  # no counting
            assert (plain.status, plain.objective) == (oracle.status, oracle.objective), backend

    agrees()


def test_steps_are_normalised():
    instance = clock.parse("clock 12\nstart 3\ntarget 2\nsteps 4 -5 16 0 24 7\n")
    assert instance.steps == (4, -5, 16, 0, 24, 7)  # as written, so format round-trips
    assert instance.moves == (4, 7)
    result = run(instance, "hand", Limits(count=True))
    assert result.objective == 2 and result.count == 2
    assert sorted(result.solution["steps"]) == [4, 7]


def test_large_dial_hand_counts_exactly():
    # Steps 1 and 1000 on a dial of 10^6, from 0 to 77077: a plan of a thousands and b ones
    # has 1000a + b = 77077 + k * 10^6. With k = 0 the moves a + b = 77077 - 999a are fewest
    # at a = 77, b = 77; k >= 1 needs over 1077 moves. So 154 moves, in any order:
    # C(154, 77) shortest sequences, a 45-digit number.
    instance = Instance(1_000_000, 0, 77_077, (1, 1000))
    result = run(instance, "hand", Limits(count=True, unique=True, timeout=60))
    assert result.status is Status.OPTIMAL and result.verified
    assert result.objective == 154
    assert result.count == math.comb(154, 77) and result.unique is False
    assert result.stats.counters["direction"] == "bidirectional"


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_large_dial_hand_is_quick_and_models_never_wrong():
    instance = Instance(1_000_000, 5, 999_999, (7919, 104729, 3))
    result = run(instance, "hand", Limits(timeout=60))
    assert result.status is Status.OPTIMAL and result.verified
    assert result.stats.solve_s < 5  # about 0.05 s; a forward BFS would visit far more
    assert run(instance, "sat", Limits(timeout=5)).status is Status.UNSUPPORTED
    model = run(instance, "cpsat", Limits(timeout=1))  # out of time at 3 s as at 1 s
    assert model.status in (Status.OPTIMAL, Status.TIMEOUT)
    assert model.objective in (None, result.objective)
    unreachable = Instance(1_000_000, 1, 2, (2, 4, 8))
    for backend in BACKENDS:
        assert run(unreachable, backend, Limits(timeout=5)).status is Status.UNSAT


def test_hand_limits_stop_the_search():
    instance = Instance(999_983, 0, 500_000, (1,))
    stopped = run(instance, "hand", Limits(node_limit=100))
    assert stopped.status is Status.TIMEOUT and "nodes" in stopped.message
    assert run(instance, "hand", Limits(timeout=0)).status is Status.TIMEOUT


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_shipped_instances_agree_with_their_metadata():
    assert_shipped_instances_hold("clock", at_least=5)


# ---------------------------------------------------------------- the checker

def test_verify_rejects_broken_plans():
    instance = Instance(12, 3, 2, (4, -5))
    assert clock.verify(instance, {"steps": [4, 7], "times": [3, 7, 2]}) == []
    broken = {
        "not a dict": [4, 7],
        "no times": {"steps": [4, 7]},
        "strings": {"steps": ["4", 7], "times": [3, 7, 2]},
        "bools": {"steps": [True, 7], "times": [3, 4, 11]},
        "raw step": {"steps": [4, -5], "times": [3, 7, 2]},      # -5 normalises to 7
        "not a move": {"steps": [5, 6], "times": [3, 8, 2]},
        "wrong time": {"steps": [4, 7], "times": [3, 8, 2]},
        "short times": {"steps": [4, 7], "times": [3, 7]},
        "wrong start": {"steps": [7, 4], "times": [4, 11, 3]},
        "not at target": {"steps": [4], "times": [3, 7]},
    }
    for name, solution in broken.items():
        assert clock.verify(instance, solution), name


# ---------------------------------------------------------------- bad input

BAD = {
    "empty": (b"", 1, None, "empty instance"),
    "no-hours": (b"clock\nstart 0\ntarget 1\nsteps 1\n", 1, 1, "clock M"),
    "zero-hours": (b"clock 0\nstart 0\ntarget 0\nsteps 1\n", 1, 1, "M must be"),
    "huge-hours": (b"clock 1000001\nstart 0\ntarget 0\nsteps 1\n", 1, 1, "M must be"),
    "extra-header": (b"clock 12 24\nstart 0\ntarget 0\nsteps 1\n", 1, 1, "clock M"),
    "no-start": (b"clock 12\ntarget 1\nsteps 1\n", 3, None, "missing 'start'"),
    "no-target": (b"clock 12\nstart 1\nsteps 1\n", 3, None, "missing 'target'"),
    "no-steps": (b"clock 12\nstart 1\ntarget 2\n", 3, None, "missing 'steps'"),
    "empty-steps": (b"clock 12\nstart 1\ntarget 2\nsteps\n", 4, None, "at least one step"),
    "start-too-big": (b"clock 12\nstart 12\ntarget 2\nsteps 1\n", 2, 7, "0..11"),
    "start-negative": (b"clock 12\nstart -1\ntarget 2\nsteps 1\n", 2, 7, "0..11"),
    "target-two": (b"clock 12\nstart 1\ntarget 2 3\nsteps 1\n", 3, 10, "one position"),
    "step-letter": (b"clock 12\nstart 1\ntarget 2\nsteps 1 x\n", 4, 9, "'x'"),
    "step-huge": (b"clock 12\nstart 1\ntarget 2\nsteps 1 12345678901\n", 4, 9, "9 digits"),
    "unknown-line": (b"clock 12\nstart 1\ngoal 2\nsteps 1\n", 3, 1, "unknown line 'goal'"),
    "twice": (b"clock 12\nstart 1\ntarget 2\nstart 3\nsteps 1\n", 4, 1,
              "second 'start' line (first on line 2)"),
    "superscript": ("clock 12\nstart ²\ntarget 2\nsteps 1\n".encode(), 2, 7, "0..11"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_is_an_instance_error_at_its_line_and_column(tmp_path, name):
    assert_bad_file(tmp_path, name, *BAD[name])


@pytest.mark.parametrize("name", ["zero-hours", "start-too-big", "no-steps"])
def test_cli_bad_file_one_line_exit_2(tmp_path, name, cli):
    assert_cli_refuses_file(cli, tmp_path, name, *BAD[name][:2])


WORDS = ["clock", "start", "target", "steps", "0", "1", "11", "12", "-3", "25", "x", "#",
         "1e3", "9999999999"]


@pytest.mark.parametrize("examples", sampled([100, 300]))  # the long run under `slow`
def test_parse_fuzz_returns_or_raises_instance_error(examples):
    @settings(max_examples=examples)
    @given(word_lines(WORDS, 4), st.binary(max_size=40))
    def returns_or_raises(text, noise):
        assert_parses_or_refuses(clock, ("clock 12\n" + text, text,
                                         "clock 7\n" + noise.decode("utf-8", "replace")))

    returns_or_raises()


@given(clock_dials(max_hours=1000))
def test_format_round_trips(instance):
    assert clock.parse(clock.format(instance)) == instance
    with_meta = Instance(instance.hours, instance.start, instance.target, instance.steps,
                         (("source", "a test"), ("expect-objective", "3")))
    assert clock.parse(clock.format(with_meta)) == with_meta


# ---------------------------------------------------------------- generic: planning helpers

@pytest.mark.parametrize("size", [1, 2, 5, 6, 7, 12])
def test_exactly_one_has_one_model_per_literal(size):
    enc = sat_common.Encoding()
    lits = [enc.var("x", i) for i in range(size)]
    planning_steps.add_exactly_one(enc, lits)
    found = set()
    with sat_common.SatSession("glucose4", enc.clauses, Deadline(None)) as session:
        while session.solve():
            model = session.model()
            found.add(tuple(lit in model for lit in lits))
            session.add([-v if v in model else v for v in range(1, enc.top + 1)])
    assert found == {tuple(i == j for j in range(size)) for i in range(size)}


def test_closure_certificate_on_a_small_graph():
    # 0 -> 1 -> 2 -> 0 and 3 -> 4: from 0, 4 is unreachable and 2 is reachable.
    edges = {0: [1], 1: [2], 2: [0], 3: [4], 4: [4]}
    for prover in (planning_steps.closure_unreachable_cpsat,
                   planning_steps.closure_unreachable_sat):
        far = prover(0, range(5), edges.__getitem__, lambda s: s == 4, Limits(), Deadline(None))
        near = prover(0, range(5), edges.__getitem__, lambda s: s == 2, Limits(), Deadline(None))
        assert (far.unreachable, near.unreachable) == (True, False)
        with pytest.raises(ValueError):  # the listed states must be closed under the moves
            prover(0, range(3), {0: [1], 1: [5], 2: []}.__getitem__, bool, Limits(),
                   Deadline(None))


@pytest.mark.parametrize("horizon", [0, 1, 2, 4])
def test_encodings_of_one_horizon_list_exactly_the_plans(horizon):
    # Every sequence of `horizon` moves that ends at the target, and nothing else, for
    # both encodings, with and without the sorted-moves symmetry.
    instance = Instance(6, 1, 3, (1, 2, 5))
    plans = {seq for seq in itertools.product(range(3), repeat=horizon)
             if (1 + sum(instance.moves[k] for k in seq)) % 6 == 3}
    for ordered in (False, True):
        expected = {p for p in plans if not ordered or list(p) == sorted(p)}
        plan = build_sat(instance, horizon, ordered)
        found = set()
        with sat_common.SatSession("glucose4", plan.encoding.clauses, Deadline(None)) as s:
            while s.solve():
                model = s.model()
                seq = tuple(next(k for k, lit in enumerate(row) if lit in model)
                            for row in plan.choices)
                found.add(seq)
                s.add([-lit if lit in model else lit for row in plan.choices for lit in row])
        assert found == expected, ("sat", ordered)
        cp = build_cpsat(instance, horizon, ordered)
        count = cpsat_common.count_solutions(
            cp.model, [v for row in cp.choices for v in row], Limits())
        assert count.count == len(expected), ("cpsat", ordered)
