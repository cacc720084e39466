"""Pictures of puzzles without a solution: a proof (`unsat`) is not a limit (a time-out).

`render --solution` writes no solution picture of a puzzle proven unsolvable and says
`unsat` (with the back-end's reason when it gives one), but draws a timed-out puzzle without
its answer and says "no solution within S s"; `sheet` refuses an unsolvable puzzle, one
line each and nothing written, unless `--include-unsolvable`, and its solution pages tell
"no solution (proven)" from "no solution within S s". In-process (`cli.main`), fast.
"""

from __future__ import annotations

import io

import pypdf
from conftest import ROOT

from twinsolve.cli import main

LIGHTS = ROOT / "instances" / "lightsout" / "all-on-05x05.txt"
# No press pattern lights one corner of a 4 x 4 board alone (hand proves it, no reason given).
CORNER = "lightsout 4 4\n1000\n0000\n0000\n0000\n"
# Jugs of 2 and 4 litres never hold 3 (hand proves it and says why: the gcd).
JUGS = "jugs\ncapacities 2 4\nstart 0 0\nmoves fill empty pour\ngoal holds 3\n"
JUGS_WHY = "unreachable: every level stays a multiple of 2 (gcd of capacities and start)"
# Eliminating a 1000 x 1000 board mod 3 takes longer than 0.2 s: a time-out, nothing proven.
SLOW = "lightsout 1000 1000 mod 3 lights all\n"


def boards(folder, **texts: str) -> list[str]:
    paths = []
    for name, text in texts.items():
        (folder / f"{name}.txt").write_text(text)
        paths.append(str(folder / f"{name}.txt"))
    return paths


def pdf_text(path) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages]


def test_render_writes_no_solution_picture_of_an_unsolvable_puzzle(tmp_path, capsys):
    corner, jugs = boards(tmp_path, corner=CORNER, jugs=JUGS)
    out = tmp_path / "pics"
    assert main(["render", corner, jugs, str(LIGHTS), "--solution", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"note: {corner}: unsat; no solution picture written",
                     f"note: {jugs}: unsat: {JUGS_WHY}; no solution picture written",
                     f"wrote 1 picture into {out}"]
    assert sorted(p.name for p in out.iterdir()) == [f"{LIGHTS.stem}-solution.svg"]


def test_render_draws_a_timed_out_puzzle_without_its_answer_and_says_so(tmp_path, capsys):
    [slow] = boards(tmp_path, slow=SLOW)
    out = tmp_path / "pics"
    assert main(["render", slow, "--solution", "--out", str(out), "--timeout", "0.2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"note: {slow}: no solution within 0.2 s; drawn without one",
                     f"wrote 1 picture into {out}"]
    assert sorted(p.name for p in out.iterdir()) == ["slow-solution.svg"]


def test_a_sheet_refuses_an_unsolvable_puzzle_one_line_each(tmp_path, capsys):
    corner, jugs = boards(tmp_path, corner=CORNER, jugs=JUGS)
    sheet = tmp_path / "sheet.pdf"
    for extra in ([], ["--solutions"]):  # the puzzles are checked either way
        assert main(["sheet", corner, str(LIGHTS), jugs, "--out", str(sheet), *extra]) == 2
        err = capsys.readouterr().err.splitlines()
        assert err == [
            f"twinsolve: {corner}: unsat: a sheet holds puzzles with a solution "
            "(--include-unsolvable prints it, as 'no solution (proven)')",
            f"twinsolve: {jugs}: unsat: {JUGS_WHY}: a sheet holds puzzles with a solution "
            "(--include-unsolvable prints it, as 'no solution (proven)')"]
        assert not sheet.exists()


def test_a_sheet_includes_an_unsolvable_puzzle_when_asked_and_says_it_has_none(tmp_path,
                                                                               capsys):
    corner, slow = boards(tmp_path, corner=CORNER, slow=SLOW)
    sheet = tmp_path / "sheet.pdf"
    assert main(["sheet", corner, slow, str(LIGHTS), "--out", str(sheet), "--solutions",
                 "--include-unsolvable", "--per-page", "1", "--timeout", "0.2"]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {sheet}: 3 puzzles"
    pages = pdf_text(sheet)
    assert len(pages) == 5  # three puzzles, then their solutions, printed two to a page
    assert "no solution (proven)" in pages[3] and "no solution within 0.2 s" in pages[3]
    assert "no solution" not in pages[4]  # the solvable one is drawn with its answer
