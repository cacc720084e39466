"""Solitaire Chess: the published corpus counts, brute-force agreement, rules, bad input.

The corpus (../shared/corpus/chess) holds 20 ThinkFun challenges, each with
the number of distinct winning move sequences; `hand` must count exactly
that, and every back-end must give a solution `verify` accepts. On random
4x4 boards every back-end agrees with `brute` on solvability, uniqueness and
the count. `verify` is checked against hand-made wrong solutions.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import assert_bad_file, assert_cli_refuses_file, assert_parses_or_refuses, sampled
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import chess_boards

from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import load_file, run
from twinsolve.puzzles.chess import generate, hand
from twinsolve.puzzles.chess import rules as chess

ROOT = Path(__file__).resolve().parents[3]
CORPUS_NAMES = [f"thinkfun-{n:02d}.txt" for n in range(1, 59, 3)]
# Corpus challenges on which cpsat and sat also count every sequence (a few seconds in all).
MODEL_COUNTED = {"thinkfun-07.txt", "thinkfun-16.txt", "thinkfun-34.txt", "thinkfun-49.txt"}
COUNT = Limits(timeout=120, count=True, unique=True)


def board(text: str) -> chess.Instance:
    return chess.parse(text)


def expected(instance: chess.Instance) -> int:
    return int(dict(instance.meta)["expect-solutions"])


# ---------------------------------------------------------------- the corpus

@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_hand_counts_the_published_number(corpus, name):
    instance = load_file(corpus("chess", name))
    result = run(instance, "hand", COUNT, catch=False)
    assert result.status is Status.SOLVED and result.verified
    assert result.count == expected(instance)
    assert result.unique is (expected(instance) == 1)


@pytest.mark.parametrize("backend", ["cpsat", "sat"])
@pytest.mark.parametrize("name", sampled(CORPUS_NAMES, keep=3))  # 07: counted as well
def test_corpus_models_give_a_verified_solution(corpus, name, backend):
    instance = load_file(corpus("chess", name))
    limits = COUNT if name in MODEL_COUNTED else Limits(timeout=120)
    result = run(instance, backend, limits, catch=False)
    assert result.status is Status.SOLVED and result.verified, result.message
    assert chess.verify(instance, result.solution) == []
    if name in MODEL_COUNTED:
        assert result.count == expected(instance)


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_corpus_brute_agrees_where_it_can(corpus, name):
    instance = load_file(corpus("chess", name))
    result = run(instance, "brute", COUNT, catch=False)
    if instance.pieces > chess.BRUTE_MAX_PIECES:
        assert result.status is Status.UNSUPPORTED and "at most 7" in result.message
    else:
        assert result.count == expected(instance)


def test_corpus_published_solution_is_verified(corpus):
    instance = load_file(corpus("chess", "thinkfun-58.txt"))
    moves = "Nd2xPb3 Rb1xNb3 Rb3xBd3 Rd3xBa3 Ra3xNa4 Ra4xRa1 Ra1xPc1".split()
    assert chess.verify(instance, {"moves": moves}) == []


# ---------------------------------------------------------------- shipped instances

SHIPPED = sorted((ROOT / "instances" / "chess").glob("*.txt"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_instances_hand_counts_match(path):
    instance = load_file(path)
    if dict(instance.meta).get("suite") == "full":
        pytest.skip("full-suite instance (slow)")
    result = run(instance, "hand", Limits(timeout=120, count=True), catch=False)
    assert result.status is Status.SOLVED and result.verified
    assert result.count == expected(instance)


def test_shipped_instances_exist():
    assert len(SHIPPED) >= 6
    loaded = [load_file(p) for p in SHIPPED]
    assert any(i.knights for i in loaded) and any(i.rows == 8 for i in loaded)


# ---------------------------------------------------------------- brute-force agreement

@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run); the contract kit's brute check stays
@pytest.mark.parametrize("examples", [30])  # the 6 boards a run of 6 draws are among these
def test_4x4_backends_agree_with_brute(examples):
    @settings(max_examples=examples)
    @given(chess_boards(min_side=4, max_side=4, max_pieces=6))
    def agrees(instance):
        oracle = run(instance, "brute", COUNT, catch=False)
        assert oracle.status in (Status.SOLVED, Status.UNSAT)
        for backend in ("hand", "hand:engine=layers", "cpsat", "sat"):
            result = run(instance, backend, COUNT, catch=False)
            assert result.status is oracle.status, (backend, result.message)
            assert (result.count, result.unique) == (oracle.count, oracle.unique), backend
            if result.solution is not None:
                assert result.verified and chess.verify(instance, result.solution) == []

    agrees()


@pytest.mark.parametrize("examples", sampled([8, 25]))  # the long run under `slow`
def test_hand_symmetry_and_pruning_do_not_change_counts(examples):
    @settings(max_examples=examples)
    @given(st.integers(0, 10_000), st.sampled_from([(5, 5, 9, True), (6, 6, 9, False),
                                                     (4, 6, 8, False), (5, 3, 7, False)]))
    def same_counts(seed, shape):
        rows, cols, pieces, knights = shape
        instance = generate.random_solvable(rows, cols, pieces, seed, knights)
        counts = set()
        for options in ({}, {"symmetry": False}, {"prune": False},
                        {"symmetry": False, "prune": False}, {"engine": "layers"}):
            result = hand.solve(instance, Limits(count=True, options={"engine": "memo", **options}))
            counts.add(result.count)
        assert len(counts) == 1 and counts.pop() >= 1  # solvable by construction

    same_counts()


@pytest.mark.parametrize("text", [
    "chess 3 3 knights\nN.N\n...\nN.N\n",          # knights on corners never meet
    "chess 5 5\nQ...Q\n.....\n..R..\n.....\nQ...Q\n",  # all 8 symmetries apply
    "chess 3 5\nN...N\n..B..\nN...N\n",            # the 4 of a rectangle
    "chess 3 3\nP.P\n.R.\nP.P\n",                  # pawns: the mirror only
])
def test_hand_counts_symmetric_boards_like_brute(text):
    instance = board(text)
    truth = run(instance, "brute", COUNT, catch=False)
    for backend in ("hand", "sat"):
        result = run(instance, backend, COUNT, catch=False)
        assert (result.status, result.count) == (truth.status, truth.count), backend
    # cpsat re-solves once per sequence (848 on the queens board): uniqueness only.
    result = run(instance, "cpsat", Limits(unique=True, timeout=120), catch=False)
    assert (result.status, result.unique) == (truth.status, truth.unique)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_symmetry_shrinks_the_memo_and_keeps_the_count():
    memo, plain_memo = {"engine": "memo"}, {"engine": "memo", "symmetry": False}
    full = board("chess 4 4 knights\nNNNN\nNNNN\nNNNN\nNNNN\n")  # all 8 symmetries
    plain = hand.solve(full, Limits(count=True, options=plain_memo))
    reduced = hand.solve(full, Limits(count=True, options=memo))
    assert reduced.count == plain.count == 12423912163328
    assert reduced.stats.counters["memo"] * 4 < plain.stats.counters["memo"]
    pawns = board("chess 4 5\nPRBRP\n.....\n.....\nPRBRP\n")  # the mirror only
    plain = hand.solve(pawns, Limits(count=True, options=plain_memo))
    reduced = hand.solve(pawns, Limits(count=True, options=memo))
    assert reduced.count == plain.count
    assert reduced.stats.counters["memo"] < plain.stats.counters["memo"]


def test_symmetry_groups_respect_pawns():
    assert len(hand.symmetries(4, 4, pawns=False)) == 7
    assert len(hand.symmetries(4, 6, pawns=False)) == 3
    assert hand.symmetries(4, 4, pawns=True) == ["mirror"]


# ---------------------------------------------------------------- special cases

@pytest.mark.parametrize("backend", ["hand", "cpsat", "sat", "brute"])
def test_one_piece_is_already_won(backend):
    result = run(board("chess 2 2\n.Q\n..\n"), backend, COUNT, catch=False)
    assert result.status is Status.SOLVED and result.solution == {"moves": []}
    assert (result.count, result.unique, result.objective) == (1, True, None)


@pytest.mark.parametrize("backend", ["hand", "cpsat", "sat", "brute"])
def test_kings_cannot_be_captured(backend):
    two_kings = run(board("chess 1 2\nKK\n"), backend, COUNT, catch=False)
    assert two_kings.status is Status.UNSAT and (two_kings.count, two_kings.unique) == (0, False)
    king_last = run(board("chess 1 2\nKR\n"), backend, COUNT, catch=False)
    assert king_last.solution == {"moves": ["Ka1xRb1"]} and king_last.count == 1


@pytest.mark.parametrize("backend", ["hand", "cpsat", "sat", "brute"])
def test_pawns_capture_upward_only_and_sliders_need_a_clear_path(backend):
    # Either rook takes the knight, then either rook takes the other: 4 sequences.
    # A rook jumping the knight (Ra1xRc1) would add two more.
    blocked = run(board("chess 1 3\nRNR\n"), backend, COUNT, catch=False)
    assert blocked.status is Status.SOLVED and blocked.count == 4
    # Only the lower pawn can take (upward); a downward capture would add one more.
    upward = run(board("chess 2 2\nP.\n.P\n"), backend, COUNT, catch=False)
    assert upward.count == 1 and upward.solution == {"moves": ["Pb1xPa2"]}
    # A pawn on the top row never captures; nor does a pawn sideways.
    stuck = run(board("chess 2 3\nP.P\n...\n"), backend, COUNT, catch=False)
    assert stuck.status is Status.UNSAT


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_a_count_cut_short_says_so():
    instance = load_file(ROOT / "instances" / "chess" / "mixed-6x6-10.txt")  # 864 sequences
    result = run(instance, "cpsat", Limits(count=True, timeout=1), catch=False)
    assert result.status is Status.SOLVED and result.verified and result.count is None
    assert result.message.startswith("count unknown: stopped after ")


def test_hand_limits_give_timeout():
    instance = generate.random_solvable(6, 6, 12, 3)
    result = hand.solve(instance, Limits(count=True, node_limit=50))
    assert result.status is Status.TIMEOUT and result.count is None


def test_unique_without_count_stops_at_two():
    instance = generate.random_solvable(5, 5, 12, seed=1, knights=True)
    result = run(instance, "hand", Limits(unique=True), catch=False)
    assert result.status is Status.SOLVED and result.unique is False and result.count is None


# ---------------------------------------------------------------- verify

TWO = board("chess 4 4\nN...\n.B..\nP...\n....\n")


@pytest.mark.parametrize(("moves", "words"), [
    (["Pa2xBb3", "Pb3xNa4"], None),
    (["Pa2xBb3"], "2 pieces left"),
    (["Pa2-Bb3", "Pb3xNa4"], "form Pa2xBb3"),
    (["pa2xBb3", "Pb3xNa4"], "form Pa2xBb3"),
    (["Pa2xBb3", "Pb3xNa5"], "off the 4x4 board"),
    (["Pa2xNb3", "Pb3xNa4"], "is not N"),
    (["Na4xPa2", "Na2xBb3"], "does not move that way"),
    (["Bb3xPa2", "Pa2xNa4"], "does not move that way"),
    (["Pa2xBb3", "Pb3xNa4", "Pb3xNa4"], "no piece on the origin"),
    (["Pc1xBb3"], "no piece on the origin"),
    ("Pa2xBb3", 'solution must be {"moves"'),
    ([7], "form Pa2xBb3"),
])
def test_verify(moves, words):
    problems = chess.verify(TWO, {"moves": moves})
    if words is None:
        assert problems == []
    else:
        assert problems and words in problems[0]


def test_verify_blocked_paths_and_kings():
    rooks = board("chess 1 3\nRNR\n")
    assert "blocked" in chess.verify(rooks, {"moves": ["Ra1xRc1", "Rc1xNb1"]})[0]
    king = board("chess 1 2\nKQ\n")
    assert "king cannot be captured" in chess.verify(king, {"moves": ["Qb1xKa1"]})[0]
    assert chess.verify(king, {"moves": ["Ka1xQb1"]}) == []
    assert "nothing to capture" in chess.verify(king, {"moves": ["Ka1xQb1", "Kb1xQa1"]})[0]


# ---------------------------------------------------------------- input

BAD = {
    "unknown-piece": (b"chess 2 2\nN.\n.X\n", 3, 2, "unknown piece 'X'"),
    "lower-case": (b"chess 2 2\nN.\n.n\n", 3, 2, "upper-case"),
    "ragged": (b"chess 2 3\nN.N\nN.\n", 3, 3, "row has 2 squares, expected 3"),
    "too-long": (b"chess 1 2\nN.N\n", 2, 3, "row has 3 squares, expected 2"),
    "too-few-rows": (b"chess 3 2\nN.\n.N\n", 3, None, "expected 3 rows"),
    "too-many-rows": (b"chess 1 2\nN.\n.N\n", 3, 1, "more than 1 rows"),
    "missing-cols": (b"chess 3\nN..\n", 1, 1, "ROWS and COLS"),
    "too-big": (b"chess 9 2\n", 1, 7, "ROWS must be a whole number 1..8"),
    "zero": (b"chess 2 0\n", 1, 9, "COLS must be"),
    "not-a-number": (b"chess two 2\n", 1, 7, "ROWS must be"),
    "unknown-option": (b"chess 2 2 kings\nN.\n.N\n", 1, 1, "unexpected 'kings'"),
    "wrong-puzzle": (b"chees 2 2\nN.\n.N\n", 1, 1, "unknown puzzle"),
    "not-knight": (b"# knights only\nchess 2 3 knights\nN..\n.QN\n", 4, 2, "knights variant"),
    "no-pieces": (b"chess 2 2\n..\n..\n", 2, 1, "no pieces"),
    "binary": (b"chess 1 2\n\xff\xfe\n", 2, 1, "not UTF-8"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_is_an_instance_error_with_line_and_column(tmp_path, name):
    assert_bad_file(tmp_path, name, *BAD[name])


@pytest.mark.parametrize("name", ["unknown-piece", "ragged", "not-knight", "no-pieces",
                                  "too-big"])
def test_cli_reports_one_line_and_exit_2(tmp_path, name, cli):
    assert_cli_refuses_file(cli, tmp_path, name, *BAD[name][:2])


def test_cli_counts(tmp_path, corpus, cli):
    path = corpus("chess", "thinkfun-07.txt")
    proc = cli("solve", str(path), "--backend", "hand", "--count", "--json")
    assert proc.returncode == 0, proc.stderr
    assert '"count": 12' in proc.stdout and '"verified": true' in proc.stdout


@given(st.binary(max_size=120))
def test_parse_fuzz_bytes_returns_or_raises_instance_error(data):
    text = data.decode("utf-8", errors="replace")
    assert_parses_or_refuses(chess, (header + text for header in
                                     ("chess 2 3\n", "chess 1 1 knights\n", "")))


@given(chess_boards(max_side=8, max_pieces=12, max_sequences=None))
def test_format_round_trips(instance):
    assert chess.parse(chess.format(instance)) == instance


def test_format_keeps_metadata_and_variant():
    text = "# source: test\n# expect-solutions: 2\nchess 2 3 knights\nN..\n..N\n"
    instance = chess.parse(text)
    assert instance.knights and instance.meta == (("source", "test"), ("expect-solutions", "2"))
    assert chess.format(instance) == text


# ---------------------------------------------------------------- the generator

def test_generator_is_deterministic_and_solvable():
    first = generate.random_solvable(6, 6, 10, seed=5)
    assert first == generate.random_solvable(6, 6, 10, seed=5)
    assert first.pieces == 10
    assert run(first, "hand", Limits(), catch=False).status is Status.SOLVED
    knights = generate.random_solvable(5, 5, 8, seed=5, knights=True)
    assert knights.knights and {c for row in knights.board for c in row} <= {
        chess.Cell.KNIGHT, chess.Cell.EMPTY}
    kings = [generate.random_solvable(4, 4, 5, seed=s) for s in range(40)]
    for instance in kings:  # a king is never captured, so there is at most one
        assert sum(c is chess.Cell.KING for row in instance.board for c in row) <= 1
