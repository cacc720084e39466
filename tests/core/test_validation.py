"""Everything is validated before the first run: metadata, sources, back-end specs.

Metadata the harness acts on is checked on every parse (file and line named);
`collect` lists every bad file at once, skips what is not an instance when
reached through a folder, and gives each instance its identity path;
`check_spec` refuses what a back-end would refuse at solve time, and `run`
refuses the same before solving.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
from conftest import ROOT

import twinsolve
from twinsolve.core.errors import InstanceError, UsageError
from twinsolve.core.instance_file import header_words, read_layout
from twinsolve.core.limits import Limits
from twinsolve.core.registry import check_spec, puzzle, puzzles
from twinsolve.core.result import Status
from twinsolve.core.run import load_file, parse_text, run
from twinsolve.core.sources import collect, instances, printable

BOARD = "lightsout 3 3\n111\n111\n111\n"
DATASET = {"data": {"k1": {"problem": "2 2\n- 2\n- -", "solution": "2 2\nx x\n- -"}}}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- metadata

@pytest.mark.parametrize(("meta", "words"), [
    ("# expect-objectve: 5", "unknown metadata key 'expect-objectve' (did you mean "
                             "'expect-objective'? known: expect-objective, expect-solution, "
                             "expect-solutions, expect-unique)"),
    ("# expect-objective: five", "metadata expect-objective: 'five' is not a whole number"),
    ("# expect-unique: yes", "metadata expect-unique: 'yes' is not true or false"),
    ("# expect-solutions: -2", "metadata expect-solutions: '-2' is not a whole number"),
    ("# expect-objective: 1234567890", "metadata expect-objective: '1234567890' has more "
                                       "than 9 digits"),
    ("# expect-solution: [1, 2]", "metadata expect-solution: '[1, 2]' is not a JSON object"),
    ("# suite: fast", "metadata suite: 'fast' is not full or quick"),
    ("# expect-objective 5", "metadata line needs the form '# expect-objective: VALUE'"),
    ("# expect-objective: 5", "metadata expect-objective given twice (first at line 1)"),
])
def test_a_bad_metadata_line_is_an_error_at_its_line(tmp_path, meta, words):
    path = write(tmp_path / "x.txt", f"# expect-objective: 5\n{meta}\n{BOARD}"
                 if "twice" in words else f"# source: a test\n{meta}\n{BOARD}")
    with pytest.raises(InstanceError) as caught:
        load_file(path)
    assert str(caught.value) == f"{path}:2:1: {words}"


def test_good_metadata_and_free_text_keys_are_kept():
    text = ("# source: anything at all\n# note: expect-objective: five is fine here\n"
            "# expect-objective: 5\n# Expect-Unique: TRUE\n# expect-solutions: " + "9" * 4000 +
            '\n# expect-solution: {"presses": ["101", "010", "101"]}\n# suite: Full\n' + BOARD)
    meta = dict(parse_text(text).meta)
    assert meta["expect-objective"] == "5" and meta["expect-unique"] == "TRUE"
    assert meta["note"] == "expect-objective: five is fine here"
    assert len(meta["expect-solutions"]) == 4000 and meta["suite"] == "Full"


def test_metadata_is_checked_for_every_puzzle():
    for text in ("# expect-unique: maybe\ncave 1 1\n?\n",
                 "# expect-unique: maybe\nchess 1 2\nNN\n",
                 "# expect-unique: maybe\nclock 12\nstart 0\ntarget 1\nsteps 1\n"):
        with pytest.raises(InstanceError, match="'maybe' is not true or false"):
            parse_text(text, "t.txt")


def test_a_byte_order_mark_is_accepted_and_columns_stay(tmp_path):
    plain = write(tmp_path / "plain.txt", BOARD)
    marked = tmp_path / "marked.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + BOARD.encode())
    assert load_file(marked) == load_file(plain)
    assert read_layout("\ufeff# expect-objective: 5\n" + BOARD).metadata == (
        ("expect-objective", "5"),)
    with pytest.raises(InstanceError) as caught:
        load_file(write(tmp_path / "bad.txt", "\ufefflightsout 3 3 foo\n111\n111\n111\n"))
    assert (caught.value.line, caught.value.column) == (1, 15)  # as without the mark


def test_every_shipped_instance_still_parses():
    found = collect([ROOT / "instances"])
    assert found.invalid == [] and found.notes == []
    assert len(found.found) > 100


def test_solve_names_the_bad_metadata_line(tmp_path, cli):
    write(tmp_path / "x.txt", f"# expect-objective: five\n{BOARD}")
    proc = cli("solve", "x.txt", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "x.txt:1:1: metadata expect-objective: 'five' is not a whole number" in proc.stderr


# ---------------------------------------------------------------- sources

@pytest.fixture
def suite(tmp_path):
    """A suite folder with good instances, three bad files and two files that are none."""
    root = tmp_path / "suite"
    write(root / "lightsout" / "good.txt", BOARD)
    write(root / "cave" / "set.json", json.dumps(DATASET))
    write(root / "bad-meta.txt", f"# expect-unique: yes\n{BOARD}")
    write(root / "bad-grid.txt", "lightsout 2 2\n11\n1x\n")
    write(root / "bad-header.txt", "Cave 4 4\n")
    write(root / "notes.json", '{"todo": ["more boards"]}')
    write(root / "README.txt", "These are the suite's boards.\n")
    write(root / ".hidden" / "skip.txt", "not read at all")
    return root


def test_collect_lists_every_bad_file_and_skips_what_is_no_instance(suite):
    found = collect([suite])
    assert [item.task_path for item in found.found] == ["cave/set.json#k1",
                                                         "lightsout/good.txt"]
    assert [line.split(":", 1)[0] for line in found.invalid] == [
        str(suite / "bad-grid.txt"), str(suite / "bad-header.txt"), str(suite / "bad-meta.txt")]
    assert found.invalid[0].startswith(f"{suite / 'bad-grid.txt'}:3:2: ")
    assert found.invalid[2] == (f"{suite / 'bad-meta.txt'}:1:1: metadata expect-unique: "
                                "'yes' is not true or false")
    assert found.notes == [f"{suite / 'README.txt'}: skipped, not an instance ('These' is no "
                           "puzzle's name)",
                           f"{suite / 'notes.json'}: skipped, not a puzzlekit dataset"]


def test_the_same_files_named_directly_are_invalid(suite):
    found = collect([suite / "notes.json", suite / "README.txt"])
    assert found.found == [] and found.notes == []
    assert found.invalid[0] == (f'{suite / "notes.json"}: expected a JSON object with "data": '
                                '{KEY: {"problem": ...}}')
    assert found.invalid[1].startswith(f"{suite / 'README.txt'}:1:1: unknown puzzle 'These' ")
    assert len(found.invalid) == 2


def test_instances_raises_one_usage_error_with_every_line(suite):
    with pytest.raises(UsageError) as caught:
        instances([suite])
    assert len(str(caught.value).splitlines()) == 3
    assert [label for label, _ in instances([suite / "lightsout"])] == [
        str(suite / "lightsout" / "good.txt")]


def test_task_paths(suite, monkeypatch):
    monkeypatch.chdir(suite.parent)
    url = "https://puzz.link/p?cave/2/2/g"
    found = collect(["suite/lightsout", "./suite/cave/../cave/set.json", url + "\n",
                     "suite/lightsout/good.txt"])
    assert [(item.label, item.task_path) for item in found.found] == [
        ("suite/lightsout/good.txt", "good.txt"),
        ("suite/cave/../cave/set.json#k1", "suite/cave/set.json#k1"),
        (url, url)]
    assert found.invalid == []


def test_a_dataset_with_a_5000_digit_number_is_invalid_not_a_crash(tmp_path):
    write(tmp_path / "big.json", '{"data": {"a": {"problem": "1 1\\n' + "9" * 5000 + '"}}, '
          '"n": ' + "9" * 5000 + "}")
    found = collect([tmp_path])
    assert found.invalid == [f"{tmp_path / 'big.json'}:1:34: number with 5000 digits (at most "
                             "4300)"]


def test_pipes_links_and_odd_names_are_said_for_what_they_are(tmp_path):
    os.mkfifo(tmp_path / "pipe.txt")
    (tmp_path / "link.txt").symlink_to(tmp_path / "gone.txt")
    long_name = "x" * 300
    outcome = {}
    # Why a thread: opening a pipe would block; the test must fail, not hang.
    worker = threading.Thread(target=lambda: outcome.setdefault("found", collect(
        [tmp_path / "pipe.txt", tmp_path / "link.txt", long_name, tmp_path, "nowhere"])),
        daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "collect opened a named pipe"
    assert outcome["found"].invalid == [
        f"{tmp_path / 'pipe.txt'}: not a regular file (a named pipe)",
        f"{tmp_path / 'link.txt'}: broken symbolic link",
        f"{long_name}: cannot read file: file name too long",
        "nowhere: no such file or folder"]


def test_a_file_name_that_is_not_utf8_is_printable(tmp_path):
    folder = os.fsencode(tmp_path)
    with open(folder + b"/caf\xe9.txt", "wb") as out:
        out.write(BOARD.encode())
    with open(folder + b"/bad\xe9.txt", "wb") as out:
        out.write(b"lightsout 1 1\n7\n")
    write(tmp_path / "two\nlines.txt", "lightsout 1 1\n7\n")
    found = collect([tmp_path, os.fsdecode(folder + b"/caf\xe9.txt")])
    assert [item.task_path for item in found.found] == ["caf\\xe9.txt"]
    assert found.invalid[0].startswith(f"{tmp_path}/bad\\xe9.txt:2:1: ")
    assert found.invalid[1].startswith(f"{tmp_path}/two\\x0alines.txt:2:1: ")  # one line
    for line in [*found.invalid, found.found[0].label]:
        line.encode("utf-8")  # printable and storable: no lone surrogates
    assert printable("\ud800") == "\\ud800"


def test_a_readme_is_told_from_an_instance_with_a_typo(tmp_path):
    assert header_words("\ufeff# c\n\n  Cave 4 4\n") == ("Cave", "4", "4")
    assert header_words("") == ()
    write(tmp_path / "typo.txt", "Cave 4 4\n")
    write(tmp_path / "readme.txt", "Chess puzzles for beginners\n\nchess 4 4 ...\n")
    write(tmp_path / "empty.txt", "# nothing here yet\n")
    found = collect([tmp_path])
    assert len(found.invalid) == 1 and found.invalid[0].startswith(f"{tmp_path / 'typo.txt'}:1")
    assert found.notes == [f"{tmp_path / 'empty.txt'}: skipped, not an instance (no header "
                           "line)",
                           f"{tmp_path / 'readme.txt'}: skipped, not an instance ('Chess' is no "
                           "puzzle's name)"]


# ---------------------------------------------------------------- back-end specs

@pytest.mark.parametrize(("puzzle_name", "spec", "message"), [
    ("chess", "hand:engine=fast", "option engine='fast': choose one of auto, memo, layers"),
    ("cave", "hand:prbe=false", "the hand back-end has no option 'prbe' (options: probe)"),
    ("cave", "sat:nosuch", "unknown SAT solver 'nosuch' (choose one of: "),
    ("lightsout", "sat:maxsat=magic", "unknown MaxSAT method 'magic' (choose one of: linear, "
                                      "rc2)"),
    ("lightsout", "cpsat:workers=-1", "cpsat options refused by CP-SAT: parameter "
                                      "'num_workers' should be in [0,10000]"),
    ("lightsout", "cpsat:workers=abc", "cpsat option workers='abc': expected a value of type "
                                       "int"),
    ("lightsout", "cpsat:seed=" + str(2 ** 70), "out of range"),
    ("cave", "cpsat:connectivity=magic", "option connectivity='magic': choose one of "),
    ("cave", "cmd:nosuchprogram", "cmd: program not found: nosuchprogram"),
    ("cave", "cmd", "cmd needs a program: cmd:PROGRAM"),
    ("jugs", "hand:fast=true", "the hand back-end has no option 'fast' (options: none)"),
    ("mirror", "nosuch", "puzzle 'mirror' has no back-end 'nosuch'"),
])
def test_check_spec_refuses_what_the_backend_would(puzzle_name, spec, message):
    with pytest.raises(UsageError) as caught:
        check_spec(spec, puzzle(puzzle_name))
    assert message in str(caught.value)


@pytest.mark.parametrize(("puzzle_name", "spec", "expected"), [
    ("lightsout", "hand", ("hand", {})),
    ("cave", "sat:glucose4", ("sat", {"solver": "glucose4"})),
    ("lightsout", "cpsat:workers=2", ("cpsat", {"workers": 2})),
    ("chess", "hand:engine=memo", ("hand", {"engine": "memo"})),
    ("cave", "cpsat:connectivity=lazy:workers=2", ("cpsat", {"connectivity": "lazy",
                                                             "workers": 2})),
    ("mirror", "sat:maxsat=linear", ("sat", {"maxsat": "linear"})),
    ("cave", "cmd:sh", ("cmd", {"program": "sh"})),
])
def test_check_spec_accepts_good_specs(puzzle_name, spec, expected):
    assert check_spec(spec, puzzle(puzzle_name)) == expected


def test_every_backend_has_a_checker_that_accepts_no_options():
    for entry in puzzles():
        for backend in entry.backends:
            if backend.name != "cmd":  # cmd needs its program
                backend.check_options(Limits())


def test_run_refuses_before_solving_even_when_unsupported():
    mod3 = twinsolve.load("lightsout 1 2 mod 3\n12\n")
    assert run(mod3, "sat").status is Status.UNSUPPORTED
    with pytest.raises(UsageError, match="unknown SAT solver 'nosuch'"):
        run(mod3, "sat:nosuch")
    board = twinsolve.load(BOARD)
    with pytest.raises(UsageError, match="num_workers"):  # was an `error` result
        twinsolve.solve(board, "cpsat:workers=-1")
    with pytest.raises(UsageError, match="a back-end is named by a string"):
        run(board, None)
    with pytest.raises(UsageError, match="has no option 'probe'"):  # options from Limits too
        twinsolve.solve(board, "hand", options={"probe": False})


def test_a_stealth_game_level_is_passed_by_in_a_folder_and_refused_as_an_instance(tmp_path):
    folder = tmp_path / "levels"
    folder.mkdir()
    level = folder / "one.txt"
    level.write_text("robots 1 2\nPE\n")
    found = collect([folder])
    assert found.found == [] and found.notes == [] and found.invalid == []
    named = collect([level])
    assert named.invalid == [f"{level}:1:1: 'robots' is a level of the stealth game "
                             "(twinsolve play), no puzzle instance"]
