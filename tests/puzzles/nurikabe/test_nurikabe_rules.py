"""Nurikabe rules: parsing, formatting, the checker and brute force, bad input.

The corpus's published solutions are real answers `verify` must accept, and,
each being unique, every single-cell change of one must be rejected. `brute`
(bitboards over the cells without a clue) is checked against a plain
enumeration that calls `verify` on every shading. Bad files are one
`InstanceError` naming the line and column, and the CLI says so in one line.
"""

from __future__ import annotations

import functools
import itertools
import json

import pytest
from conftest import assert_bad_file, assert_cli_refuses_file, sampled
from hypothesis import given, settings

from twinsolve.core.errors import InstanceError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.puzzles.nurikabe import puzzlekit as dataset
from twinsolve.puzzles.nurikabe import rules as nurikabe
from twinsolve.puzzles.nurikabe.strategies import grids

SMALL = "nurikabe 3 3\n3 - -\n- - -\n- - 1\n"  # its one solution: 001 / 011 / 110


def test_parse_and_format_round_trip_with_metadata():
    text = "# source: here\n# expect-unique: true\nnurikabe 2 3\n- 2 -\n? - 5\n"
    instance = nurikabe.parse(text)
    assert instance.clues[0][1] == nurikabe.Cell.clue(2)
    assert instance.clues[1][0] == nurikabe.UNKNOWN and instance.clues[1][2].number == 5
    assert nurikabe.format(instance) == text
    assert nurikabe.parse(nurikabe.format(instance)) == instance


@pytest.mark.parametrize("text, line, column, words", [
    ("nurikabe 2 2\n- x\n- -\n", 2, 3, "is not '-', '?' or a clue number"),
    ("nurikabe 2 2\n- 0\n- -\n", 2, 3, "clue 0 is impossible: clues here are 1..4"),
    ("nurikabe 2 2\n- 5\n- -\n", 2, 3, "clue 5 is impossible"),
    ("nurikabe 2 2\n- 12345678\n- -\n", 2, 3, "a clue of 8 digits is impossible"),
    ("nurikabe 2 2\n- - -\n- -\n", 2, 5, "row has 3 tokens, expected 2"),
    ("nurikabe 2 2\n- -\n", 2, None, "expected 2 rows of clues, found 1"),
    ("nurikabe 2 2\n- -\n- -\n- -\n", 4, 1, "more than 2 rows"),
    ("nurikabe 2\n- -\n", 1, 1, "header needs ROWS and COLS"),
    ("nurikabe 2 2 x\n- -\n- -\n", 1, 1, "header must be exactly 'nurikabe ROWS COLS'"),
    ("nurikabe 0 2\n", 1, 10, "ROWS must be a whole number 1..200"),
])
def test_bad_files_name_the_line_and_column(tmp_path, text, line, column, words):
    assert_bad_file(tmp_path, "bad", text.encode(), line, column, words)


def test_the_cli_refuses_a_bad_file_in_one_line(cli, tmp_path):
    assert_cli_refuses_file(cli, tmp_path, "bad", b"nurikabe 2 2\n- x\n- -\n", 2)


def test_verify_names_each_broken_rule():
    instance = nurikabe.parse(SMALL)
    assert nurikabe.verify(instance, {"shaded": ["001", "011", "110"]}) == []
    assert nurikabe.verify(instance, {"shaded": ["101", "011", "110"]})[0] == (
        "clue at row 0, column 0 is shaded")
    problems = nurikabe.verify(instance, {"shaded": ["001", "111", "110"]})
    assert "the 2x2 block at rows 1-2, columns 0-1 is shaded (a pool)" in problems
    assert "clue 3 at row 0, column 0 has an island of 2 cells" in problems
    problems = nurikabe.verify(instance, {"shaded": ["011", "100", "110"]})
    assert "the shaded cells are not one connected region" in problems
    assert "clue 1 at row 2, column 2 has an island of 3 cells" in problems
    problems = nurikabe.verify(instance, {"shaded": ["010", "101", "010"]})
    assert "the island at row 0, column 2 (1 cells) has no clue" in problems


@pytest.mark.parametrize("solution, words", [
    (None, "solution must be"), ({"shaded": "001"}, "solution must be"),
    ({"shaded": ["001", "0x1", "110"]}, "shaded row 1 must be"),
    ({"shaded": ["001", "011"]}, "shaded has 2 rows, expected 3"),
    ({"shaded": ["001", "01", "110"]}, "shaded row 1 has 2 cells, expected 3"),
])
def test_verify_rejects_malformed_solutions_with_a_message(solution, words):
    assert words in nurikabe.verify(nurikabe.parse(SMALL), solution)[0]


def test_two_clues_in_one_island_are_refused():
    instance = nurikabe.parse("nurikabe 1 3\n2 - 2\n")
    assert "holds 2 clues" in nurikabe.verify(instance, {"shaded": ["000"]})[0]


def _plain_brute(instance):
    """Every shading of the whole grid, checked by `verify`: the oracle of the oracle."""
    cells = instance.rows * instance.cols
    found = []
    for bits in itertools.product("01", repeat=cells):
        text = "".join(bits)
        solution = {"shaded": [text[r * instance.cols:(r + 1) * instance.cols]
                               for r in range(instance.rows)]}
        if not nurikabe.verify(instance, solution):
            found.append(solution)
    return found


@settings(max_examples=25, deadline=None)
@given(grids(max_rows=3, max_cols=3))
def test_brute_counts_what_verify_accepts(instance):
    plain = _plain_brute(instance)
    result = nurikabe.brute(instance, Limits(count=True))
    assert result.count == len(plain)
    assert (result.status is Status.SOLVED) == bool(plain)
    if plain:
        assert result.solution in plain


def test_brute_refuses_large_grids():
    big = nurikabe.parse("nurikabe 5 5\n" + "- - - - -\n" * 5)
    assert nurikabe.brute(big, Limits()).status is Status.UNSUPPORTED


def test_render_fits_the_width_and_marks_the_sea():
    instance = nurikabe.parse(SMALL)
    text = nurikabe.render(instance, {"shaded": ["001", "011", "110"]}, width=40).plain
    assert text.splitlines() == ["Nurikabe 3x3", " 3  · ██ ", " · ██ ██ ", "██ ██  1 "]
    wide = nurikabe.parse("nurikabe 1 60\n" + " ".join(["-"] * 60) + "\n")
    assert all(len(line) <= 50 for line in nurikabe.render(wide, width=50).plain.splitlines())


# ---------------------------------------------------------------- the corpus


@functools.lru_cache(maxsize=1)
def _read(path):
    return dataset.read_dataset(path)


def janko(corpus):
    """The corpus's 567 puzzles, read once per test process."""
    return _read(corpus("nurikabe", "janko-dev.json"))


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_every_janko_entry_reads_with_its_published_solution(corpus):
    raw = json.loads(corpus("nurikabe", "janko-dev.json").read_text())["data"]
    pairs = janko(corpus)
    assert [key for key, _ in pairs] == list(raw) and len(pairs) == 567
    for key, instance in pairs:
        meta = dict(instance.meta)
        assert meta["source"] == raw[key]["source"] and meta["expect-unique"] == "true"
        tokens = [line.split() for line in raw[key]["problem"].strip().split("\n")[1:]]
        assert [[cell.token for cell in row] for row in instance.clues] == tokens
        assert nurikabe.verify(instance, json.loads(meta["expect-solution"])) == []


@pytest.mark.parametrize("step", sampled([200, 20]), ids=["every-200th", "every-20th"])
def test_every_single_cell_change_of_a_published_solution_is_rejected(corpus, step):
    for _, instance in janko(corpus)[::step]:
        solution = json.loads(dict(instance.meta)["expect-solution"])
        rows = solution["shaded"]
        for r, c in itertools.product(range(instance.rows), range(instance.cols)):
            changed = list(rows)
            changed[r] = rows[r][:c] + ("0" if rows[r][c] == "1" else "1") + rows[r][c + 1:]
            assert nurikabe.verify(instance, {"shaded": changed}), (r, c)


@pytest.mark.parametrize("document, words", [
    ('{"name": "Nurikabe", "data": {}}', "no entries"),
    ('{"name": "Nurikabe", "data": {"a": {"problem": "2 2\\n- x\\n- -"}}}',
     "entry 'a', problem line 2: token 'x'"),
    ('{"name": "Nurikabe", "data": {"a": {"problem": "1 3\\n1 - 1", "solution": '
     '"1 3\\n- - -"}}}', "breaks the rules"),
    ('{"name": "Nurikabe", "data": {"a": {"problem": "1 3\\n1 - 1", "solution": '
     '"1 3\\n- x"}}}', "line 2 must be 3 tokens"),
    ('{"name": "Nurikabe", "data": {"a": 5}}', "entry 'a' must be an object"),
    ('{"name": "Nurikabe", "data": {"a": {"problem": "1 1\\n1", "source": "\\ud800"}}}',
     "lone surrogate"),
    ('{"name": "Nurikabe", "data": [}', "JSON"),
])
def test_bad_datasets_are_one_error_naming_the_entry(document, words):
    with pytest.raises(InstanceError) as caught:
        dataset.read_dataset(document, "d.json")
    assert words in caught.value.message and caught.value.source == "d.json"


def test_only_datasets_named_nurikabe_are_claimed():
    assert dataset.is_dataset({"name": "Nurikabe", "data": {}})
    assert not dataset.is_dataset({"name": "Cave", "data": {}})
    assert not dataset.is_dataset({"data": {}})


def test_a_dataset_imports_to_instance_files(cli, tmp_path):
    source = tmp_path / "set.json"
    source.write_text(json.dumps({"name": "Nurikabe", "data": {
        "a b": {"problem": "1 3\n1 - 1", "solution": "1 3\n- x -", "source": "x"}}}))
    written = dataset.write_instances(dataset.read_dataset(source), tmp_path / "out")
    assert [path.name for path in written] == ["a_b.txt"]
    instance = nurikabe.parse(written[0].read_text())
    assert json.loads(dict(instance.meta)["expect-solution"]) == {"shaded": ["010"]}
