"""Slitherlink rules: the file format, `verify` on real and broken loops, `brute`, drawing.

- The 583 janko.at solutions of the corpus verify, and (each being unique)
  single-cell changes of one are rejected (up to 100 a puzzle; one puzzle by default).
- `verify` names what is wrong with a loop: a point where it touches
  itself, two loops, no loop, a clue miscounted, a malformed answer.
- `brute` against a plain enumeration calling `verify` on every colouring.
- Bad files: one `InstanceError` naming the file, line, column and problem.
"""

from __future__ import annotations

import itertools

import pytest
from conftest import assert_bad_file, sampled
from slitherlink_corpus import janko, known

from twinsolve.core.errors import InstanceError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.puzzles.slitherlink import rules

FLIPS = 100  # single-cell changes tried per corpus solution, at most
SQUARE = rules.parse("slitherlink 3 3\n- 1 -\n1 - 1\n- 1 -\n")  # the loop round the middle


def inside(*rows):
    return {"inside": list(rows)}


# ---------------------------------------------------------------- file format

def test_parse_format_round_trip_with_metadata():
    text = "# source: here\n# expect-unique: true\nslitherlink 2 3\n0 - 3\n- 4 -\n"
    instance = rules.parse(text)
    assert instance.clues == ((0, None, 3), (None, 4, None))
    assert rules.format(instance) == text
    assert rules.parse(rules.format(instance)) == instance


@pytest.mark.parametrize("body,line,column,words", [
    (b"slitherlink 2 2\n- 5\n- -\n", 2, 3, "clue '5' is impossible"),
    (b"slitherlink 2 2\n- x\n- -\n", 2, 3, "is not '-' or a clue 0..4"),
    (b"slitherlink 2 2\n- - -\n- -\n", 2, 5, "row has 3 tokens, expected 2"),
    (b"slitherlink 2 2\n- -\n", 2, None, "expected 2 rows of clues, found 1"),
    (b"slitherlink 2 2 3\n- -\n- -\n", 1, 1, "header must be exactly"),
    (b"slitherlink 0 2\n", 1, 13, "ROWS must be a whole number 1..200"),
    (b"slitherlink 1 1\n-\n-\n", 3, 1, "more than 1 rows"),
])
def test_bad_files_name_the_line_column_and_problem(tmp_path, body, line, column, words):
    assert_bad_file(tmp_path, "bad", body, line, column, words)


def test_leading_zeros_read_as_the_clue():
    assert rules.parse("slitherlink 1 2\n03 -\n").clues == ((3, None),)


def test_build_instance_checks_like_parse():
    with pytest.raises(InstanceError, match="row 0 column 1: clue 7 is impossible"):
        rules.build_instance(1, 2, [[None, 7]])
    with pytest.raises(InstanceError, match="clue grid is not 2 x 1"):
        rules.build_instance(2, 1, [[None]])


# ---------------------------------------------------------------- verify

def test_verify_accepts_the_loop_and_names_each_fault():
    assert rules.verify(SQUARE, inside("000", "010", "000")) == []
    assert "no loop" in rules.verify(SQUARE, inside("000", "000", "000"))[0]
    pinch = rules.verify(rules.parse("slitherlink 2 2\n- -\n- -\n"), inside("10", "01"))
    assert any("4 loop sides meet at point (1, 1)" in p for p in pinch)
    two = rules.verify(rules.parse("slitherlink 1 3\n- - -\n"), inside("101"))
    assert two == ["the loop is not one loop: walking it from one side reaches 4 of its 8 "
                   "sides"]
    counted = rules.verify(SQUARE, inside("110", "010", "000"))
    assert "clue 1 at row 0, column 1 has 2 sides on the loop" in counted


@pytest.mark.parametrize("solution", [None, [], {"inside": "010"}, {"inside": ["01", "1"]},
                                      {"inside": ["0a0", "010", "000"]}, inside("00", "00"),
                                      inside("000", "000")])
def test_verify_rejects_malformed_answers_without_raising(solution):
    assert rules.verify(SQUARE, solution)


@pytest.mark.parametrize("keys", sampled([["63_10x10"], None]), ids=["one", "all"])
def test_corpus_solutions_verify_and_one_cell_changes_are_rejected(corpus, keys):
    checked = 0
    for _, instance in janko(corpus, keys):
        solution = known(instance)
        assert rules.verify(instance, solution) == []
        grid = [list(row) for row in solution["inside"]]
        every = max(1, instance.cells // FLIPS)  # large grids: an even spread of cells
        cells = list(itertools.product(range(instance.rows), range(instance.cols)))
        for r, c in cells[::every]:
            grid[r][c] = "1" if grid[r][c] == "0" else "0"
            assert rules.verify(instance, {"inside": ["".join(row) for row in grid]})
            grid[r][c] = "1" if grid[r][c] == "0" else "0"
        checked += 1
    assert checked == (len(keys) if keys else 583)


def test_sides_and_inside_read_each_other():
    grid = [[False, True, True], [True, True, False]]
    sides = rules.loop_sides(grid)
    assert rules.inside_from_sides(sides.across, sides.down) == grid
    assert [rules.side_count(sides, 0, c) for c in range(3)] == [2, 2, 3]


# ---------------------------------------------------------------- brute force

def oracle(instance):
    """Every colouring, checked by `verify`: the answers as sorted row tuples."""
    found = []
    for bits in itertools.product("01", repeat=instance.cells):
        rows = ["".join(bits[r * instance.cols:(r + 1) * instance.cols])
                for r in range(instance.rows)]
        if not rules.verify(instance, {"inside": rows}):
            found.append(tuple(rows))
    return found


@pytest.mark.parametrize("text", ["slitherlink 3 3\n- 2 -\n2 - 2\n- 2 -\n",
                                  "slitherlink 2 3\n- - -\n- - -\n",
                                  "slitherlink 3 2\n3 -\n- -\n- 1\n",
                                  "slitherlink 2 2\n4 -\n- -\n"])
def test_brute_counts_what_verify_accepts(text):
    instance = rules.parse(text)
    answers = oracle(instance)
    result = rules.brute(instance, Limits(count=True, unique=True))
    assert result.count == len(answers)
    if answers:
        assert result.status is Status.SOLVED
        assert tuple(result.solution["inside"]) in answers
    else:
        assert result.status is Status.UNSAT


def test_brute_refuses_large_grids_and_stops_at_its_node_limit():
    assert rules.brute(rules.parse("slitherlink 5 5\n" + "- - - - -\n" * 5),
                       Limits()).status is Status.UNSUPPORTED
    corners = rules.parse("slitherlink 4 4\n2 - - 2\n- - - -\n- - - -\n2 - - 2\n")
    stopped = rules.brute(corners, Limits(count=True, node_limit=1))
    assert stopped.status is Status.TIMEOUT and stopped.message == "brute stopped: nodes limit"


# ---------------------------------------------------------------- drawing

def test_render_draws_the_loop_and_fits_or_summarises():
    text = rules.render(SQUARE, inside("000", "010", "000")).plain
    assert text.count("─") == 6 and text.count("│") == 2  # one side, three characters wide
    assert max(map(len, rules.render(SQUARE, width=9).plain.splitlines())) <= 9
    wide = rules.parse("slitherlink 20 20\n" + ("- " * 19 + "-\n") * 20)
    lines = rules.render(wide, width=40).plain.splitlines()
    assert max(map(len, lines)) <= 40
    assert "too wide to draw in 40 columns" in " ".join(line.strip() for line in lines)
