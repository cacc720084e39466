"""`twinsolve explain` and `twinsolve hint` (issue 28), and the hardest step in `grade`:
what they print, what they write, and one-line refusals of bad input with exit 2."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT

CAVE = ROOT / "instances" / "cave" / "unique-06x06-seed1.txt"
JUGS = ROOT / "instances" / "jugs" / "die-hard-holds-4.txt"


def _one_line(proc, *words: str) -> None:
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for word in words:
        assert word in lines[0], lines[0]


def test_explain_prints_numbered_steps_and_the_hardest(cli, tmp_path):
    proc = cli("explain", CAVE, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "   1. [bounds] r0c2-r0c3, r0c5, r2c3, r3c1, r3c4 and r4c0 are inside" in proc.stdout
    assert "hardest step: 11 (holes)" in proc.stdout


def test_explain_json_and_steps(cli, tmp_path):
    proc = cli("explain", CAVE, "--json", "--steps", "3", cwd=tmp_path)
    found = json.loads(proc.stdout)
    assert [s["number"] for s in found["steps"]] == [1, 2, 3]
    assert found["complete"] is False and found["total_steps"] == 20
    assert found["steps"][1] == {
        "technique": "bounds", "kind": "deduction", "decided": {"r1c3": 1},
        "reason": "r1c3 is inside: the 7 at r0c3 can see at most 5 other cells right, left and "
                  "up (r0c4-r0c5 right, r0c2-r0c0 left; every arm runs to the edge), so it "
                  "sees at least 1 down", "premises": ["r0c3"], "number": 2}
    assert found["solution"]["inside"][0] == "001111"


def test_explain_draws_the_worked_solution(cli, tmp_path):
    proc = cli("explain", CAVE, "--svg", "worked.svg", cwd=tmp_path)
    assert proc.returncode == 0 and "wrote worked.svg" in proc.stdout
    text = (tmp_path / "worked.svg").read_text()
    assert text.startswith("<?xml") or text.startswith("<svg")
    assert ">11</text>" in text  # the step numbers are written in
    proc = cli("explain", JUGS, "--svg", "plan.svg", cwd=tmp_path)
    assert "move 6, pour 1 0" in (tmp_path / "plan.svg").read_text()


@pytest.mark.slow
def test_explain_writes_a_pdf_a_page_each(cli, tmp_path):
    proc = cli("explain", ROOT / "instances" / "cave" / "unique-10x10-seed4.txt", "--pdf",
               "worked.pdf", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    data = (tmp_path / "worked.pdf").read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page\n") + \
        data.count(b"/Type /Page ") + data.count(b"/Type /Page>") >= 2


def test_explain_refuses_bad_arguments_in_one_line(cli, tmp_path):
    _one_line(cli("explain", CAVE, "--level", "nope", cwd=tmp_path), "no level 'nope'")
    _one_line(cli("explain", ROOT / "instances" / "cave", cwd=tmp_path),
              "explain takes exactly one")
    _one_line(cli("explain", CAVE, "--svg", "x.pdf", cwd=tmp_path), "must end in .svg")
    _one_line(cli("explain", CAVE, "--steps", "0", cwd=tmp_path), "--steps")
    _one_line(cli("explain", tmp_path / "none.txt", cwd=tmp_path), "none.txt")


def test_explain_of_no_solution_says_so_with_exit_1(cli, tmp_path):
    path = tmp_path / "stuck.txt"
    path.write_text("cave 1 3\n1 - 1\n")
    proc = cli("explain", path, cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == (f"twinsolve: {path}: no solution: the outside cells r0c1 "
                                   f"would cut the inside cell r0c0 off from the inside cell "
                                   f"r0c2")


def test_hint_takes_inline_json_or_a_file(cli, tmp_path):
    state = '{"inside": ["??1111", "??????", "??????", "??????", "??????", "??????"]}'
    proc = cli("hint", CAVE, "--state", state, "--json", cwd=tmp_path)
    found = json.loads(proc.stdout)
    assert found["answer"] == "step" and found["technique"] == "bounds"
    (tmp_path / "moves.json").write_text('{"moves": ["fill 0"]}')
    proc = cli("hint", JUGS, "--state", "moves.json", cwd=tmp_path)
    assert proc.returncode == 0 and "mistake at move 1" in proc.stdout


def test_hint_refuses_a_bad_state_naming_where(cli, tmp_path):
    _one_line(cli("hint", CAVE, "--state", '{"inside": [1]}', cwd=tmp_path), "--state:",
              "'inside' is a list of 6 strings")
    (tmp_path / "bad.json").write_text('{"inside": ')
    _one_line(cli("hint", CAVE, "--state", "bad.json", cwd=tmp_path), "bad.json:1")
    _one_line(cli("hint", CAVE, "--state", "missing.json", cwd=tmp_path), "missing.json",
              "no such file")
    (tmp_path / "rows.json").write_text('{"inside": ["0"]}')
    _one_line(cli("hint", CAVE, "--state", "rows.json", cwd=tmp_path), "rows.json:",
              "has 1 rows")


def test_grade_names_the_hardest_step(cli, tmp_path):
    path = ROOT / "instances" / "cave" / "graded" / "cave-medium-10x10-s1-01.txt"
    proc = cli("grade", path, "--json", cwd=tmp_path)
    found = json.loads(proc.stdout)
    assert found["level"] == "medium"
    assert found["hardest"]["technique"] == "holes" and found["hardest"]["number"] >= 1
    proc = cli("grade", path, cwd=tmp_path)
    assert f"  hardest step {found['hardest']['number']} (holes): " in proc.stdout
