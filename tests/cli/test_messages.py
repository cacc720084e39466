"""The command line's messages and small faults (issue 23), in-process through `main`.

- One long line of a file was quoted whole: 2,000,109 bytes of stderr for one
  unknown line of a jugs file. Quotes are cut to about 60 characters.
- One bad file stopped `solve DIR` and `grade DIR` from doing anything; both
  take `--skip-invalid` as `bench` does, through the same check
  (`core.sources.checked`), and list what they skipped.
- Range errors stated a rule that was not the rule (a jugs capacity of
  1000000007 "is not a whole number >= 0"; the rule is 1..1000000).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from twinsolve.cli import main
from twinsolve.core.errors import QUOTE_LIMIT, quoted

GOOD = "jugs\ncapacities 3 5\nmoves fill empty pour\ngoal holds 4\n"
BROKEN = "jugs\ncapacities 3 5\nmoves fill\n"  # no goal line


def refused(capsys, *args: str) -> list[str]:
    """The stderr lines of a command that must exit 2 and print nothing on stdout."""
    assert main(list(args)) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    return err.splitlines()


# ---------------------------------------------------------------- quoting

def test_quoted_cuts_long_input_and_leaves_short_input_alone():
    assert quoted("pour 0 1") == "'pour 0 1'"
    long = quoted("x" * 2_000_000)
    assert long == repr("x" * QUOTE_LIMIT + "...") and len(long) < QUOTE_LIMIT + 10
    assert quoted(["a"] * 100_000).endswith("...") and len(quoted(["a"] * 10**5)) < 70


@pytest.mark.parametrize("text", [
    GOOD + "x" * 2_000_000 + "\n",
    "clock 12\nstart 0\ntarget 5\nsteps 1\n" + "x" * 2_000_000 + "\n",
])
def test_a_long_unknown_line_is_one_short_error_line(tmp_path, capsys, text):
    path = tmp_path / "long.txt"
    path.write_text(text)
    (line,) = refused(capsys, "solve", str(path))
    assert line.startswith(f"twinsolve: {path}:5:1: unknown line 'xxxx")
    assert len(line) < 200 + len(str(path))


@pytest.mark.parametrize(("args", "words"), [
    (("y" * 5000,), "argument command: invalid choice: 'yyyy"),
    (("render", "x", "--out", "o", "--format", "g" * 5000), "argument --format: invalid choice"),
    (("solve", "x.txt", "--" + "z" * 5000), "unrecognized arguments: '--zzz"),
    (("generate", "jugs", "--option", "w" * 5000, "--out", "o"), "use NAME=VALUE"),
    (("generate", "lightsout", "--presses", "p" * 5000, "--out", "o"), "at most 30 digits"),
])
def test_the_argument_parser_quotes_long_arguments_short(capsys, args, words):
    (line,) = refused(capsys, *args)
    assert words in line and line.count("...") == 1 and len(line) < 300, line


def test_short_unrecognized_arguments_read_as_typed(capsys):
    assert refused(capsys, "solve", "x.txt", "--bogus") == [
        "twinsolve: unrecognized arguments: --bogus"]


# ---------------------------------------------------------------- range errors

@pytest.mark.parametrize(("body", "words"), [
    ("capacities 3 1000000007\nmoves fill\ngoal holds 4\n",
     ":2:14: capacity must be a whole number 1..1000000, got '1000000007' (jug 2)"),
    ("capacities 3 0\nmoves fill\ngoal holds 4\n",
     ":2:14: capacity must be a whole number 1..1000000, got '0' (jug 2)"),
    ("capacities 3 5\nstart 1 99999999999\nmoves fill\ngoal holds 4\n",
     ":3:9: start must be a whole number 0..5, got '99999999999' (jug 2)"),
    ("capacities 3 5\nmoves fill\ngoal total 1000000000\n",
     ":4:12: goal total must be a whole number 0..999999999, got '1000000000'"),
])
def test_a_jugs_range_error_states_the_rule(tmp_path, capsys, body, words):
    path = tmp_path / "jugs.txt"
    path.write_text("jugs\n" + body)
    (line,) = refused(capsys, "solve", str(path))
    assert line == f"twinsolve: {path}{words}"


@pytest.mark.parametrize(("args", "words"), [
    (("bench", "x", "--jobs", "0"), "argument --jobs: must be a whole number "
                                    "1..999999999999999999: '0'"),
    (("bench", "x", "--jobs", "9999999999999999999"), "must be a whole number 1..9999"),
    (("sheet", "x", "--out", "o.pdf", "--per-page", "31"), "must be 1, 2, 4 or 6: '31'"),
])
def test_a_count_option_states_its_range(capsys, args, words):
    (line,) = refused(capsys, *args)
    assert words in line


# ---------------------------------------------------------------- --skip-invalid

@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a-good.txt").write_text(GOOD)
    (folder / "b-broken.txt").write_text(BROKEN)
    (folder / "c-bad.txt").write_text(GOOD.replace("3 5", "3 x"))
    return folder


@pytest.mark.parametrize("command", ["solve", "grade"])
def test_without_skip_invalid_every_bad_file_is_listed_and_nothing_runs(mixed, capsys,
                                                                        command):
    lines = refused(capsys, command, str(mixed))
    assert lines == [f"twinsolve: {mixed / 'b-broken.txt'}:3: missing 'goal' line "
                     "(e.g. 'goal holds 4')",
                     f"twinsolve: {mixed / 'c-bad.txt'}:2:14: capacity must be a whole "
                     "number 1..1000000, got 'x' (jug 2)",
                     "twinsolve: 2 invalid instance files: fix them or run the others with "
                     "--skip-invalid"]


@pytest.mark.parametrize("command", ["solve", "grade"])
def test_skip_invalid_runs_the_valid_files_and_lists_the_others(mixed, capsys, command):
    assert main([command, str(mixed), "--skip-invalid"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "twinsolve: skipping 2 invalid instance files (--skip-invalid):",
        f"twinsolve:   {mixed / 'b-broken.txt'}:3: missing 'goal' line (e.g. 'goal holds 4')",
        f"twinsolve:   {mixed / 'c-bad.txt'}:2:14: capacity must be a whole number 1..1000000, "
        "got 'x' (jug 2)"]
    assert "a-good.txt" in out and "b-broken" not in out and "c-bad" not in out
    if command == "solve":
        assert "hand: optimal, objective 6, verified" in out
    else:
        assert f"{mixed / 'a-good.txt'}: medium" in out


def test_skip_invalid_keeps_json_lines_clean(mixed, capsys):
    assert main(["solve", str(mixed), "--skip-invalid", "--json"]) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1 and '"status": "optimal"' in out
    assert "skipping 2 invalid" in err


def test_skip_invalid_with_nothing_valid_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "broken.txt").write_text(BROKEN)
    lines = refused(capsys, "solve", str(tmp_path), "--skip-invalid")
    assert lines[-1] == ("twinsolve: no instances (*.txt, *.json) under the given paths "
                         "(all of them are invalid)")


def test_one_bad_file_named_alone_is_still_one_line(tmp_path, capsys):
    (tmp_path / "broken.txt").write_text(BROKEN)
    (line,) = refused(capsys, "grade", str(tmp_path / "broken.txt"))
    assert line.endswith("broken.txt:3: missing 'goal' line (e.g. 'goal holds 4')")
