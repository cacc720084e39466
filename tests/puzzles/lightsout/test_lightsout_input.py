"""Bad Lights Out input: always an InstanceError naming file and line, exit 2 on the CLI."""

from __future__ import annotations

import pytest
from conftest import assert_cli_refuses_file, assert_parses_or_refuses, sampled
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import lightsout_boards

from twinsolve.core.errors import InstanceError
from twinsolve.core.run import load_file
from twinsolve.puzzles.lightsout import rules as lightsout

BAD = {
    "empty": (b"", 1, "empty instance"),
    "only-comments": (b"# source: nowhere\n# just a comment\n", 2, "empty instance"),
    "wrong-header": (b"lightsoot 3 3\n000\n000\n000\n", 1, "unknown puzzle"),
    "missing-cols": (b"lightsout 3\n000\n", 1, "ROWS and COLS"),
    "zero-size": (b"lightsout 0 3\n", 1, "ROWS must be"),
    "huge-size": (b"lightsout 3 999999\n000\n", 1, "COLS must be"),
    "superscript": ("lightsout ² 2\n00\n".encode(), 1, "ROWS must be"),
    "fullwidth": ("lightsout 1 ２\n00\n".encode(), 1, "COLS must be"),
    "negative": (b"lightsout -3 3\n", 1, "ROWS must be"),
    "ragged": (b"lightsout 2 3\n010\n01\n", 3, "row has 2 cells, expected 3"),
    "too-few-rows": (b"lightsout 3 2\n01\n10\n", 3, "expected 3 rows"),
    "too-many-rows": (b"lightsout 1 2\n01\n10\n", 3, "more than 1 rows"),
    "digit-too-big": (b"lightsout 2 2\n01\n21\n", 3, "not a digit 0..1"),
    "digit-mod3": (b"lightsout 1 3 mod 3\n123\n", 2, "not a digit 0..2"),
    "not-prime": (b"lightsout 2 2 mod 4\n01\n10\n", 1, "prime"),
    "prime-too-big": (b"lightsout 2 2 mod 11\n01\n10\n", 1, "prime"),
    "mod-missing": (b"lightsout 2 2 mod\n01\n10\n", 1, "prime"),
    "unknown-option": (b"lightsout 2 2 wraparound\n01\n10\n", 1, "unexpected 'wraparound'"),
    "letter": (b"# expect-objective: 1\nlightsout 1 2\n0x\n", 3, "'x'"),
    "binary": (b"lightsout 2 2\n\x00\x01\n\xff\xfe\n", 3, "not UTF-8"),
    "control": (b"lightsout 2 2\n\x00\x01\n00\n", 2, "control character"),
    "not-utf8": (b"lightsout 1 2\n\xff\xfe\n", 2, "not UTF-8"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_is_an_instance_error_with_its_line(tmp_path, name):
    data, line, words = BAD[name]
    path = tmp_path / f"{name}.txt"
    path.write_bytes(data)
    with pytest.raises(InstanceError) as caught:
        load_file(path)
    error = caught.value
    assert error.source == str(path)
    assert error.line == line
    assert words in error.message
    assert str(error).startswith(f"{path}:{line}")


@pytest.mark.parametrize("name", ["empty", "ragged", "not-prime", "binary"])
def test_cli_reports_one_line_and_exit_2(tmp_path, name, cli):
    assert_cli_refuses_file(cli, tmp_path, name, *BAD[name][:2])


@given(st.binary(max_size=200))
def test_parse_fuzz_bytes_returns_or_raises_instance_error(data):
    assert_parses_or_refuses(lightsout, ["lightsout 2 3\n" + data.decode("utf-8", "replace")])


@given(st.text(alphabet="lightsout0123456789 modsigmatrus\n#:-x", max_size=80))
def test_parse_fuzz_text_returns_or_raises_instance_error(text):
    try:
        instance = lightsout.parse(text, "fuzz.txt")
    except InstanceError:
        return
    assert instance.rows * instance.cols > 0
    assert lightsout.parse(lightsout.format(instance)) == instance


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the long run under `slow`
def test_format_parse_round_trip(examples):
    @settings(max_examples=examples)
    @given(st.integers(1, 6), st.integers(1, 6), st.booleans(), st.booleans(),
           st.sampled_from(lightsout.PRIMES), st.data())
    def round_trips(rows, cols, torus, sigma, modulus, data):
        lights = tuple(tuple(data.draw(st.lists(st.integers(0, modulus - 1), min_size=cols,
                                                max_size=cols))) for _ in range(rows))
        board = lightsout.Instance(rows, cols, lights, torus, sigma, modulus,
                                   (("source", "test"), ("expect-objective", "3")))
        assert lightsout.parse(lightsout.format(board)) == board

    round_trips()


def test_body_line_starting_with_hash_is_not_a_comment():
    with pytest.raises(InstanceError) as caught:
        lightsout.parse("lightsout 2 2\n#1\n00\n")
    assert caught.value.line == 2 and caught.value.column == 1


@given(lightsout_boards(max_cells=25), st.data())
def test_verify_agrees_with_the_rules_press_by_press(instance, data):
    """`verify` (whole-grid shifts) against `press_effect` applied one press at a time."""
    presses = [data.draw(st.lists(st.integers(0, instance.modulus - 1), min_size=instance.cols,
                                  max_size=instance.cols)) for _ in range(instance.rows)]
    board = [list(row) for row in instance.lights]
    for r, row in enumerate(presses):
        for c, times in enumerate(row):
            for tr, tc in lightsout.press_effect(instance, r, c):
                board[tr][tc] = (board[tr][tc] + times) % instance.modulus
    lit = [(r, c) for r in range(instance.rows) for c in range(instance.cols) if board[r][c]]
    solution = {"presses": ["".join(map(str, row)) for row in presses]}
    problems = lightsout.verify(instance, solution)
    if lit:
        assert problems == [f"{len(lit)} light(s) still on after the presses, first at row "
                            f"{lit[0][0]}, column {lit[0][1]}"]
    else:
        assert problems == []
        assert lightsout.objective(instance, solution) == sum(map(sum, presses))


@pytest.mark.parametrize(("presses", "words"), [
    (["1²", "00"], "press row 0 must be a string of 2 digits"),
    (["10", "0/"], "press row 1 has a digit outside 0..1"),
    (["10", "02"], "press row 1 has a digit outside 0..1"),
    (["10", "0"], "press row 1 must be a string of 2 digits"),
    (["10"], "presses must be a list of 2 row strings"),
])
def test_verify_names_a_malformed_press_grid(presses, words):
    assert lightsout.verify(lightsout.Instance.all_on(2), {"presses": presses}) == [words]
