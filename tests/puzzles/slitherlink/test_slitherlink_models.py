"""Slitherlink's CP-SAT and SAT back-ends, their connectivity options, the oracle, the peer.

- The corpus: `sat` and `cpsat` reproduce every published solution and prove
  it unique (three puzzles by default, all with `-m slow`).
- A generated puzzle with a large empty region is proven unique by every
  back-end (the circuit model once searched it for over 20 s).
- Every connectivity encoding agrees with `brute` on status and count,
  the empty circuit included; options are checked before solving.
- `LoopOracle` answers as brute force does; the puzzlekit peer's answers
  verify (skipped without puzzlekit).
"""

from __future__ import annotations

import importlib.util

import pytest
from conftest import sampled
from slitherlink_corpus import janko, known

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.slitherlink import models, rules
from twinsolve.puzzles.slitherlink.generate import clues_of

PROVE = Limits(unique=True, timeout=60)
ALL = Limits(unique=True, count=True, timeout=60)
SPECS = ["sat", "cpsat", "sat:connectivity=layers", *(f"cpsat:connectivity={m}"
                                                        for m in models.CPSAT_METHODS[1:])]


@pytest.mark.parametrize("keys", sampled([["1043_10x18", "15_5x5", "751_10x10"], None]),
                         ids=["three", "all"])
@pytest.mark.parametrize("backend", ["sat", "cpsat"])
def test_janko_puzzles_solved_and_proven_unique(corpus, backend, keys):
    pairs = janko(corpus, keys)
    for key, instance in pairs:
        result = run(instance, backend, PROVE, catch=False)
        assert result.status is Status.SOLVED, (key, result.message)
        assert result.solution == known(instance), key
        assert result.unique is True, key
    assert len(pairs) == (len(keys) if keys else 583)


# `twinsolve generate slitherlink --difficulty hard` (seed 0): its empty lower rows sent the
# circuit model without presolve on a search of over 20 s; it starts again with presolve
# on after `models.CIRCUIT_BUDGET`.
EMPTY_CORNER = """slitherlink 10 10
- - 1 1 1 - - 1 - -
1 - - - - 0 - 0 0 1
- 0 - - - - - - - -
2 0 - - - - 0 0 - -
- - 1 - - - - 2 2 1
- - 3 - 3 - - - - -
0 - - - 0 - 0 - - -
- - - - - - - - - -
- - - - - - - - - -
- - - - - - - - - -
"""
EMPTY_CORNER_INSIDE = ["1111111111"] * 4 + ["0111111100", "0101010000"] + ["0000000000"] * 4


@pytest.mark.parametrize("backend", ["hand", "sat", "cpsat"])
def test_a_puzzle_with_a_large_empty_region_is_proven_unique(backend):
    result = run(rules.parse(EMPTY_CORNER), backend, PROVE, catch=False)
    assert result.status is Status.SOLVED, result.message
    assert result.solution["inside"] == EMPTY_CORNER_INSIDE and result.unique is True


@pytest.mark.parametrize("text", ["slitherlink 2 1\n0\n-\n",  # no loop at all: unsat
                                  "slitherlink 2 3\n- - -\n- - -\n",
                                  "slitherlink 3 4\n- 2 - -\n3 - - 1\n- - 2 -\n",
                                  "slitherlink 2 3\n3 - 3\n3 - 3\n"])
@pytest.mark.parametrize("spec", sampled(SPECS, keep=3))
def test_every_encoding_counts_what_brute_counts(text, spec):
    instance = rules.parse(text)
    expected = rules.brute(instance, ALL)
    result = run(instance, spec, ALL, catch=False)
    assert (result.status, result.count, result.unique) == (expected.status, expected.count,
                                                            expected.unique)


def test_options_are_checked_before_solving():
    with pytest.raises(UsageError, match="connectivity='rings'"):
        models.check_cpsat_options(Limits(options={"connectivity": "rings"}))
    with pytest.raises(UsageError):
        models.check_sat_options(Limits(options={"connectivity": "flow"}))
    with pytest.raises(UsageError):
        models.check_cpsat_options(Limits(options={"no_such_parameter": 1}))


@pytest.mark.parametrize("inside", [["0110", "0100", "0000"], ["11", "11"],
                                    ["010", "111", "010"]])
def test_loop_oracle_answers_as_brute_force(inside):
    grid = [[ch == "1" for ch in row] for row in inside]
    numbers = clues_of(grid)
    cells = [(r, c) for r in range(len(grid)) for c in range(len(grid[0]))]
    with models.LoopOracle(grid) as oracle:
        for keep in (cells, cells[::2], cells[1::3], []):
            clues = [[numbers[r][c] if (r, c) in keep else None for c in range(len(grid[0]))]
                     for r in range(len(grid))]
            instance = rules.Instance(len(grid), len(grid[0]), tuple(map(tuple, clues)))
            unique = rules.brute(instance, ALL).count == 1
            other = oracle.other(keep)
            assert (other is None) == unique
            if other is not None:
                assert other != grid and not rules.verify(instance,
                                                          rules.solution_from_inside(other))


@pytest.mark.slow  # importing puzzlekit takes seconds
@pytest.mark.skipif(importlib.util.find_spec("puzzlekit") is None, reason="puzzlekit absent")
def test_the_puzzlekit_peer_answers_verify(corpus):
    for key, instance in janko(corpus, ["12_5x5", "15_5x5"]):
        result = run(instance, "puzzlekit", Limits(timeout=60), catch=False)
        assert result.status is Status.SOLVED, key
        assert result.solution == known(instance), key
