"""Faults an adversarial run found (issue 10): each input here once got past a reader.

- Lights Out: a repeated header option (`mod 2 mod 3` was read as mod 3) and a
  blank line inside the grid (reported two lines further down, as "more than
  N rows").
- puzzlekit dataset JSON: a 5000-digit number (a raw `ValueError` traceback)
  and a lone surrogate in an entry (a `UnicodeEncodeError` later, from the
  terminal and from SQLite).
- The mirror generator: `# suite: full` and the hard levels must not depend on
  how fast the machine is.
- Every parser (issue 23): an error quoted the user's text whole, so one long
  line of a jugs or clock file made 2 MB of stderr; every quote is now cut to
  about 60 characters (`core.errors.quoted`).
"""

from __future__ import annotations

import itertools
import json
import subprocess
import time

import pytest
from conftest import ROOT, assert_cli_refuses_file, twinsolve

from twinsolve.core.errors import QUOTE_LIMIT, InstanceError
from twinsolve.core.run import load_file, parse_text, run
from twinsolve.puzzles.cave import puzzlekit as puzzlekit_json
from twinsolve.puzzles.lightsout import rules as lightsout
from twinsolve.puzzles.mirror import generate
from twinsolve.puzzles.mirror.rules import format as format_maze
from twinsolve.puzzles.mirror.rules import parse as parse_maze
from twinsolve.robots import level as robots_level


def refused(text: str) -> InstanceError:
    with pytest.raises(InstanceError) as caught:
        lightsout.parse(text, "x.txt")
    return caught.value


def assert_one_line_exit_2(proc: subprocess.CompletedProcess[str], *words: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert all(word in lines[0] for word in words), lines[0]


# ---------------------------------------------------------------- Lights Out header


@pytest.mark.parametrize(("header", "column", "words"), [
    ("lightsout 1 1 mod 2 mod 3", 21, "option 'mod' given twice (first at column 15)"),
    ("lightsout 1 1 mod 3 mod 3", 21, "option 'mod' given twice (first at column 15)"),
    ("lightsout 1 1 torus  torus", 22, "option 'torus' given twice (first at column 15)"),
    ("lightsout 1 1 sigma mod 3 sigma", 27, "option 'sigma' given twice (first at column 15)"),
    ("  lightsout 1 1 torus sigma torus", 29, "option 'torus' given twice (first at column 17)"),
])
def test_a_repeated_header_option_is_refused_at_its_word(header, column, words):
    error = refused(f"# source: test\n{header}\n1\n")
    assert (error.line, error.column, error.message) == (2, column, words)


@pytest.mark.parametrize(("header", "column", "words"), [
    ("lightsout 1 1 wrap", 15,
     "unexpected 'wrap' in header (options: torus, sigma, mod K, lights all)"),
    ("lightsout 1 1 torus mod 4", 25, "mod K needs a prime K in 2, 3, 5, 7, got '4'"),
    ("lightsout 1 1 mod", 15, "mod K needs a prime K in 2, 3, 5, 7, got nothing"),
])
def test_other_header_mistakes_point_at_their_word(header, column, words):
    error = refused(f"{header}\n1\n")
    assert (error.line, error.column, error.message) == (1, column, words)


def test_every_option_once_in_any_order_is_read():
    board = lightsout.parse("lightsout 1 1 mod 3 sigma torus\n2\n")
    assert (board.torus, board.sigma, board.modulus) == (True, True, 3)


def test_cli_refuses_a_repeated_mod(tmp_path):
    """In a real process: exit 2, one line, no traceback (the other refusals run in-process)."""
    assert_cli_refuses_file(twinsolve, tmp_path, "mod-twice", b"lightsout 1 1 mod 2 mod 3\n1\n",
                            1)


# ---------------------------------------------------------------- Lights Out body


@pytest.mark.parametrize(("text", "line", "words"), [
    ("lightsout 3 3\n111\n\n111\n111\n", 3, "blank line inside the grid (expected row 2 of 3)"),
    ("lightsout 3 3\n111\n   \n111\n111\n", 3, "blank line inside the grid (expected row 2 of 3)"),
    ("lightsout 2 2\n\n11\n11\n", 2, "blank line inside the grid (expected row 1 of 2)"),
    ("lightsout 3 3\n111\n\n111\n", 3, "blank line inside the grid (expected row 2 of 3)"),
])
def test_a_blank_line_inside_the_grid_is_reported_at_its_own_line(text, line, words):
    error = refused(text)
    assert (error.line, error.column) == (line, None) and error.message == words


def test_text_after_the_grid_is_reported_where_it_is_not_at_the_blank_line_before_it():
    error = refused("lightsout 1 2\n01\n\n10\n")
    assert (error.line, error.column, error.message) == (4, 1, "more than 1 rows of lights")


def test_blank_lines_after_the_grid_are_fine():
    assert lightsout.parse("lightsout 1 2\n01\n\n\n").lights == ((0, 1),)


# ---------------------------------------------------------------- puzzlekit JSON


def entry(**extra: str) -> dict[str, str]:
    return {"problem": "2 2\n2 -\n- -", "solution": "2 2\nx x\n- -", "source": "https://x/1",
            "info": "", **extra}


def test_a_number_too_long_for_int_is_an_error_at_its_line(tmp_path, cli):
    path = tmp_path / "big.json"
    path.write_text(f'{{"data": {{"a": {json.dumps(entry())}}},\n "count":\n    -{"9" * 5000}}}')
    with pytest.raises(InstanceError) as caught:
        puzzlekit_json.read_dataset(path)
    error = caught.value
    assert (error.source, error.line, error.column) == (str(path), 3, 5)
    assert error.message == "number with 5000 digits (at most 4300)"
    # the command: this was a raw ValueError traceback (in this process the exception would
    # fail the test; a real process's exit is test_cli_refuses_a_repeated_mod's)
    assert_one_line_exit_2(cli("solve", str(path), cwd=tmp_path),
                           f"{path}:3:5: number with 5000 digits")


def test_a_number_at_the_limit_is_read():
    text = f'{{"data": {{"a": {json.dumps(entry())}}}, "count": {"9" * 4300}}}'
    assert [key for key, _ in puzzlekit_json.read_dataset(text, "d.json")] == ["a"]


@pytest.mark.parametrize(("key", "fields", "words"), [
    ("a\ud800b", {}, r"entry 'a\ud800b': the key has a lone surrogate '\ud800'"),
    ("\udfff", {}, r"entry '\udfff': the key has a lone surrogate '\udfff'"),
    ("a", {"source": "x\ud800"}, r"entry 'a': 'source' has a lone surrogate '\ud800'"),
    ("a", {"info": "\udc00"}, r"entry 'a': 'info' has a lone surrogate '\udc00'"),
])
def test_a_lone_surrogate_is_refused_naming_the_file_and_the_escaped_key(tmp_path, key,
                                                                           fields, words, cli):
    path = tmp_path / "surrogate.json"
    text = json.dumps({"data": {key: entry(**fields)}})
    assert "\\ud" in text  # written as the JSON escape, as a file has it
    path.write_text(text, encoding="ascii")
    with pytest.raises(InstanceError) as caught:
        puzzlekit_json.read_dataset(path)
    assert caught.value.source == str(path) and caught.value.message.startswith(words)
    str(caught.value).encode("utf-8")  # the message itself prints and stores fine
    assert_one_line_exit_2(cli("solve", str(path), cwd=tmp_path), str(path), words)


def test_a_surrogate_pair_is_one_character_and_is_kept():
    text = '{"data": {"a\\ud83d\\ude00": ' + json.dumps(entry()) + "}}"
    [(key, _instance)] = puzzlekit_json.read_dataset(text, "d.json")
    assert key == "a\N{GRINNING FACE}"


# ---------------------------------------------------------------- mirror generator


def jumping_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every read of time.perf_counter from now on is an hour after the previous one."""
    clock = itertools.count(time.perf_counter(), 3600.0)
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))


def test_mirror_suite_label_does_not_read_the_clock(tmp_path, monkeypatch):
    gap, trap = parse_maze(generate.RELAXATION_GAP), parse_maze(generate.RELAXATION_TRAP)
    answers = {format_maze(level): run(level, "brute") for level in (gap, trap)}
    # The real plan's names on the two tiny levels, every back-end answering at once.
    monkeypatch.setattr(generate, "shipped_set", lambda: {
        "easy-08x08": gap, "hard-64x64": gap, "trap-unsat-03x05": trap})
    monkeypatch.setattr(generate, "run", lambda level, backend, limits:
                        answers[format_maze(level)])
    generate.write_set(tmp_path / "steady")
    jumping_clock(monkeypatch)
    generate.write_set(tmp_path / "jumpy")
    steady = {p.name: p.read_bytes() for p in sorted((tmp_path / "steady").iterdir())}
    jumpy = {p.name: p.read_bytes() for p in sorted((tmp_path / "jumpy").iterdir())}
    assert steady == jumpy
    assert [name for name, data in steady.items() if b"# suite: full\n" in data] == \
        ["hard-64x64.txt"]


def test_shipped_mirror_files_follow_the_suite_rule():
    shipped = sorted((ROOT / "instances" / "mirror").glob("*.txt"))
    assert len(shipped) == len(generate._PLAN) + 2  # the plan and the two hand-made traps
    full = [p.stem for p in shipped if "suite" in dict(load_file(p).meta)]
    assert full == [p.stem for p in shipped if generate.in_full_suite(p.stem)]
    assert full == ["hard-64x64", "hard-80x80"]


def test_hard_level_does_not_read_the_clock(monkeypatch):
    """hard-12x12 of the shipped set, made again while the clock races: a time limit
    would expire at once, a node budget does not notice."""
    def make() -> str:
        return format_maze(generate.hard_level(12, 12, 19, density=0.3, rotatable=20,
                                               wall_share=0.05, min_flips=2))

    steady = make()
    jumping_clock(monkeypatch)
    assert make() == steady
    shipped = load_file(ROOT / "instances" / "mirror" / "hard-12x12.txt")
    assert parse_maze(steady).grid == shipped.grid


# ---------------------------------------------------------------- long quotes (issue 23)

LONG = "x" * 200_000     # one word of a long line
DIGITS = "9" * 200_000   # a number far too long
GOOD_JUGS = "capacities 3 5\nmoves fill\ngoal holds 4\n"


@pytest.mark.parametrize(("text", "line", "words"), [
    # every puzzle's parser, through the header word that picks it (as `solve` reads a file)
    (f"jugs\n{GOOD_JUGS}{LONG}\n", 5, "unknown line 'xxx"),
    (f"jugs\ncapacities 3 {DIGITS}\nmoves fill\ngoal holds 4\n", 2, "capacity must be a whole "
     "number 1..1000000, got '999"),
    (f"jugs\ncapacities 3 5\nmoves fill {LONG}\ngoal holds 4\n", 3, "unknown move kind 'xx"),
    (f"jugs\ncapacities 3 5\nmoves fill\ngoal {LONG}\n", 4, "unknown goal 'xx"),
    (f"jugs\ncapacities 3 5\nstart 0 {DIGITS}\nmoves fill\ngoal holds 4\n", 3, "0..5"),
    (f"clock 12\nstart 0\ntarget 5\nsteps 1\n{LONG}\n", 5, "unknown line 'xxx"),
    (f"clock {DIGITS}\nstart 0\ntarget 5\nsteps 1\n", 1, "M must be a whole number 1..1000000"),
    (f"clock 12\nstart {LONG}\ntarget 5\nsteps 1\n", 2, "start must be a dial position"),
    (f"clock 12\nstart 0\ntarget 5\nsteps 1 {DIGITS}\n", 4, "a step must be a whole number"),
    (f"lightsout 1 1 {LONG}\n1\n", 1, "unexpected 'xxx"),
    (f"lightsout 1 1 mod {LONG}\n1\n", 1, "mod K needs a prime K"),
    (f"lightsout 1 1 lights {LONG}\n", 1, "option 'lights' takes 'all'"),
    (f"lightsout {DIGITS} 1\n1\n", 1, "ROWS must be a whole number 1..5000"),
    (f"cave 1 2\n- {LONG}\n", 2, "token 'xxx"),
    (f"cave 1 2 {LONG}\n- -\n", 1, "header must be exactly 'cave ROWS COLS'"),
    (f"mirror 1 1 goal {LONG}\n.\n", 1, "unexpected 'goal xxx"),
    (f"chess 1 2 {LONG}\n..\n", 1, "unexpected 'xxx"),
    (f"{LONG} 1 2\n", 1, "unknown puzzle 'xxx"),
    # the metadata every instance file shares
    (f"# expect-objective: {DIGITS}\njugs\n{GOOD_JUGS}", 1, "has more than 9 digits"),
    (f"# expect-unique: {LONG}\njugs\n{GOOD_JUGS}", 1, "is not true or false"),
    (f"# expect-{LONG}: 3\njugs\n{GOOD_JUGS}", 1, "unknown metadata key 'expect-xxx"),
])
def test_every_parser_quotes_a_long_input_short(text, line, words):
    with pytest.raises(InstanceError) as caught:
        parse_text(text, "x.txt")
    assert_quoted_short(caught.value, line, words)


@pytest.mark.parametrize(("text", "line", "words"), [
    (f"robots 1 2 {LONG}\nPE\n", 1, "unexpected 'xxx"),
    (f"robots 1 2\nPE\n{LONG} 3\n", 3, "unknown option 'xxx"),
    (f"robots 1 2\nPE\nvision {DIGITS}\n", 3, "vision must be a whole number 1..64, got '99"),
    (f"robots {DIGITS} 2\nPE\n", 1, "ROWS must be a whole number 1.."),
])
def test_the_level_parser_quotes_a_long_input_short(text, line, words):
    with pytest.raises(InstanceError) as caught:
        robots_level.parse(text, "x.txt")
    assert_quoted_short(caught.value, line, words)


def assert_quoted_short(error: InstanceError, line: int, words: str) -> None:
    """One short line at the right place: the quote cut to QUOTE_LIMIT characters + `...`."""
    message = str(error)
    assert (error.source, error.line) == ("x.txt", line), message
    assert words in message and "\n" not in message, message
    assert len(message) < 2 * QUOTE_LIMIT + 150 and "..." in message, message
