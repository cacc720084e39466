"""The one strict JSON reader (`core.json_text.parse_json`): nesting over `MAX_DEPTH` is
refused at the bracket that goes too deep, whatever the decoder's own recursion limit
would do (issue 23: a replay nested 200,000 deep was a RecursionError); brackets inside
strings are text; numbers too long for `int` are refused at their place; and what every
other caller reads is read as before."""

from __future__ import annotations

import json

import pytest

from twinsolve.core.errors import InstanceError
from twinsolve.core.json_text import MAX_DEPTH, MAX_DIGITS, parse_json
from twinsolve.core.sources import collect


def _refused(text: str) -> InstanceError:
    with pytest.raises(InstanceError) as caught:
        parse_json(text, "x.json")
    return caught.value


def test_nesting_up_to_the_limit_is_read_and_one_deeper_is_refused_at_its_bracket():
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x.json") == \
        json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    # objects and arrays both count: {"a": [[...]]} with the 101st level on line 2
    text = '{"a":\n' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"
    error = _refused(text)
    assert (error.line, error.column) == (2, MAX_DEPTH)
    assert error.message == f"arrays and objects nested over {MAX_DEPTH} deep"


@pytest.mark.parametrize("depth", [150, 999, 1000, 200_000])
def test_deep_nesting_is_one_error_with_its_place_whatever_the_recursion_limit(depth):
    error = _refused("  " + "[" * depth + "]" * depth)
    assert str(error) == f"x.json:1:{MAX_DEPTH + 3}: arrays and objects nested over " \
                         f"{MAX_DEPTH} deep"


def test_brackets_inside_strings_are_text():
    deep_looking = json.dumps({"s": "[" * 500 + '\\"{' * 200, "t": "]" * 300})
    assert parse_json(deep_looking, "x.json") == json.loads(deep_looking)
    assert parse_json(json.dumps("[" * 1000), "x.json") == "[" * 1000


def test_scalars_and_the_other_json_words_are_read_as_before():
    text = '[true, false, null, -1.5e3, 0, "x", NaN, -Infinity]'
    read = parse_json("\ufeff" + text, "x.json")
    assert read[:6] == [True, False, None, -1500.0, 0, "x"] and read[7] == float("-inf")


def test_a_number_too_long_for_int_is_refused_at_its_place():
    error = _refused('{"n":\n  -' + "7" * (MAX_DIGITS + 1) + "}")
    assert (error.line, error.column) == (2, 3)
    assert error.message == f"number with {MAX_DIGITS + 1} digits (at most {MAX_DIGITS})"
    assert parse_json("9" * MAX_DIGITS, "x.json") == int("9" * MAX_DIGITS)


def test_a_deeply_nested_dataset_is_one_invalid_line(tmp_path):
    path, head = tmp_path / "deep.json", '{"data": '
    path.write_text(head + "[" * 5000 + "]" * 5000 + "}")
    found = collect([tmp_path])
    column = len(head) + MAX_DEPTH  # the object is the first level
    assert found.found == [] and found.invalid == [
        f"{path}:1:{column}: arrays and objects nested over {MAX_DEPTH} deep"]
