"""The layer-by-layer Solitaire Chess count (`hand:engine=layers`) and how `hand` picks it.

The layer count must give the same number of winning sequences as the memo
search and as the plain-rules count of the generator (independent of both
engines' bitboards and packing), stay exact past 2^64, hand back a line
that `verify` accepts, stop at the deadline or node limit, and be chosen
by `auto` only for boards the memo search does not settle quickly.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import chess_boards

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Deadline, LimitReached, Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.chess import generate, hand
from twinsolve.puzzles.chess import rules as chess
from twinsolve.puzzles.chess.board import packing, start_position
from twinsolve.puzzles.chess.layers import TooBig, count_layers, fits

COUNT = Limits(count=True, unique=True, timeout=120)
LAYERS = "hand:engine=layers"
MEMO = "hand:engine=memo"


@settings(max_examples=40)
@given(chess_boards(min_side=1, max_side=5, max_pieces=8, max_sequences=None))
def test_layers_count_like_the_plain_rules(instance):
    result = run(instance, LAYERS, COUNT, catch=False)
    truth = generate.plain_count(instance)
    assert result.count == truth and result.unique is (truth == 1)
    assert result.status is (Status.SOLVED if truth else Status.UNSAT)
    if truth:
        assert result.verified and chess.verify(instance, result.solution) == []


@pytest.mark.parametrize("examples", sampled([4, 12]))  # the long run under `slow`
def test_layers_and_memo_agree_on_bigger_boards(examples):
    @settings(max_examples=examples, deadline=None)
    @given(st.integers(0, 10_000), st.sampled_from([(5, 5, 12, True), (6, 6, 11, False),
                                                     (8, 8, 12, False), (4, 7, 10, False)]))
    def agree(seed, shape):
        rows, cols, pieces, knights = shape
        instance = generate.random_solvable(rows, cols, pieces, seed, knights, fewest_of=3)
        layers = run(instance, LAYERS, COUNT, catch=False)
        memo = run(instance, MEMO, COUNT, catch=False)
        assert layers.count == memo.count >= 1  # solvable by construction
        assert layers.verified and memo.verified

    agree()


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_counts_past_two_to_the_64_stay_exact():
    queens = chess.parse("chess 4 4\nQQQQ\nQQQQ\nQQQQ\nQQQQ\n")
    layers = run(queens, LAYERS, COUNT, catch=False)
    memo = run(queens, MEMO, COUNT, catch=False)  # symmetry folds its 65,519 positions by 8
    assert layers.count == memo.count > 2 ** 64
    assert layers.verified
    board, start = start_position(queens)
    # The same count when the ways are Python ints from the first layer on.
    assert count_layers(board, start, exact_limit=0.0).count == layers.count


def test_auto_keeps_small_boards_on_the_memo_and_hands_big_ones_to_layers():
    small = generate.random_solvable(4, 4, 6, seed=3)
    assert run(small, "hand", COUNT, catch=False).stats.counters["engine"] == "memo"
    dense = generate.random_solvable(8, 8, 14, seed=2)
    result = run(dense, "hand", COUNT, catch=False)
    assert result.stats.counters["engine"] == "layers"
    assert result.stats.counters["memo_nodes"] == hand.SWITCH_NODES + 1
    assert result.count == run(dense, "hand:switch=10000000", COUNT, catch=False).count


def test_layers_stop_at_the_node_limit_and_the_deadline():
    instance = generate.random_solvable(8, 8, 14, seed=2)
    limited = run(instance, LAYERS, Limits(count=True, node_limit=1000), catch=False)
    assert limited.status is Status.TIMEOUT and limited.count is None
    board, start = start_position(instance)
    with pytest.raises(LimitReached):
        count_layers(board, start, Deadline(0.0))


def test_the_memory_budget_is_kept_and_auto_falls_back_to_the_memo_search():
    instance = generate.random_solvable(8, 8, 14, seed=2)
    board, start = start_position(instance)
    with pytest.raises(TooBig, match="more than 1 MB"):
        count_layers(board, start, memory_mb=1)
    refused = run(instance, "hand:engine=layers:memory=1", COUNT, catch=False)
    assert refused.status is Status.MEMOUT and "hand:memory=MB" in refused.message
    fallback = run(instance, "hand:memory=1", COUNT, catch=False)
    assert fallback.stats.counters["engine"] == "memo"
    assert fallback.count == run(instance, LAYERS, COUNT, catch=False).count
    assert fallback.verified


def test_packing_width_follows_the_piece_types():
    knights = chess.parse("chess 8 8 knights\n" + "NNNNNNNN\n" * 8)
    assert packing(start_position(knights)[1]).width == 1 and fits(*start_position(knights))
    crowded = chess.parse("chess 4 6\nKQRBNP\nQRBNPQ\nRBNPQR\nBNPQR.\n")  # 23 pieces, 6 types
    assert not fits(*start_position(crowded))
    refused = run(crowded, LAYERS, Limits(count=True), catch=False)
    assert refused.status is Status.UNSUPPORTED and "hand:engine=memo" in refused.message


@pytest.mark.parametrize(("spec", "words"), [
    ("hand:engine=fast", "choose one of auto, memo, layers"),
    ("hand:speed=1", "the hand back-end has no option 'speed'"),
    ("hand:switch=abc", "use a whole number >= 0"),
    ("hand:switch=-5", "use a whole number >= 0"),
    ("hand:switch=true", "use a whole number >= 0"),
    ("hand:symmetry=maybe", "use symmetry=true or symmetry=false"),
    ("hand:prune=1", "use prune=true or prune=false"),
    ("hand:memory=0", "use a whole number >= 1"),
])
def test_bad_hand_options_are_refused(spec, words):
    instance = chess.parse("chess 1 2\nNN\n")
    with pytest.raises(UsageError, match=words):
        run(instance, spec, Limits(), catch=False)


def test_census_reports_both_engines_on_one_board(capsys):
    from benchmarks.chess_perf import census

    instance = generate.random_solvable(6, 6, 10, seed=4)
    census(instance, "a 6x6 board")
    out = capsys.readouterr().out
    count = run(instance, MEMO, COUNT, catch=False).count
    assert f"census of a 6x6 board: {count:,} winning lines" in out
    assert "reachable positions expanded" in out and " live, " in out


def test_the_default_budget_shrinks_under_an_address_space_limit():
    script = ("import resource; from twinsolve.system.memory import mapped_bytes; "
              "from twinsolve.puzzles.chess.layers import default_budget_mb, MEMORY_MB; "
              "print(default_budget_mb() == MEMORY_MB); "
              "cap = mapped_bytes() + (900 << 20); "
              "hard = resource.getrlimit(resource.RLIMIT_AS)[1]; "
              "resource.setrlimit(resource.RLIMIT_AS, (cap, hard)); "
              "print(default_budget_mb())")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    unlimited, limited = proc.stdout.split()
    assert unlimited == "True" and 250 <= int(limited) <= 300  # a third of ~900 MB left

