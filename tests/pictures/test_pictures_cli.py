"""`twinsolve render`, `twinsolve sheet`, `solve --svg/--png/--pdf` and `generate --sheet`
used as people use them: files in, pictures and PDF sheets out, read back (SVG as XML, PDF
pages and text with pypdf, PDF pages turned into PNG by pdftoppm); bad arguments are one
line and exit 2 with nothing written. The commands run in the test's process
(`conftest.cli`), one refusal in a real one."""

from __future__ import annotations

import io
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pypdf
import pytest
from conftest import ROOT, twinsolve
from PIL import Image

INSTANCES = ROOT / "instances"
LIGHTS = INSTANCES / "lightsout" / "all-on-05x05.txt"
CAVE = INSTANCES / "cave" / "unique-06x06-seed1.txt"
LEVEL = INSTANCES / "robots" / "level-1.txt"


def pdf_pages(path) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(path.read_bytes())).pages]


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_render_draws_each_file_and_level_in_each_format(tmp_path, cli):
    for fmt in ("svg", "png", "pdf"):
        out = tmp_path / fmt
        done = cli("render", str(LIGHTS), str(CAVE), str(LEVEL), "--out", str(out),
                         "--format", fmt)
        assert done.returncode == 0, done.stderr
        names = sorted(p.name for p in out.iterdir())
        assert names == sorted(f"{p.stem}.{fmt}" for p in (LIGHTS, CAVE, LEVEL))
        assert done.stdout.strip() == f"wrote 3 pictures into {out}"
    for svg in (tmp_path / "svg").iterdir():
        assert ET.parse(svg).getroot().tag == "{http://www.w3.org/2000/svg}svg"
    assert (tmp_path / "png" / f"{CAVE.stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "pdf" / f"{CAVE.stem}.pdf").read_bytes()[:5] == b"%PDF-"


def test_render_is_byte_for_byte_repeatable_and_a_solution_changes_the_picture(tmp_path, cli):
    first, second, solved = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for out, extra in ((first, ()), (second, ()), (solved, ("--solution",))):
        done = cli("render", str(CAVE), "--out", str(out), *extra)
        assert done.returncode == 0, done.stderr
    plain = (first / f"{CAVE.stem}.svg").read_bytes()
    assert plain == (second / f"{CAVE.stem}.svg").read_bytes()
    assert (solved / f"{CAVE.stem}-solution.svg").read_bytes() != plain


def test_solve_draws_the_answer_it_found(tmp_path, cli):
    out = tmp_path / "lights.svg"
    done = cli("solve", str(LIGHTS), "--svg", str(out), "--png", str(tmp_path / "l.png"))
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stdout and (tmp_path / "l.png").exists()
    with_answer = out.read_bytes()
    plain = tmp_path / "plain"
    assert cli("render", str(LIGHTS), "--out", str(plain)).returncode == 0
    assert with_answer != (plain / f"{LIGHTS.stem}.svg").read_bytes()
    # the same answer drawn by render --solution (hand solves it: the file has no solution)
    drawn = tmp_path / "drawn"
    assert cli("render", str(LIGHTS), "--solution", "--out", str(drawn)).returncode == 0
    assert with_answer == (drawn / f"{LIGHTS.stem}-solution.svg").read_bytes()


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_a_sheet_has_numbered_captions_rules_page_numbers_and_solutions_last(tmp_path, cli):
    files = sorted((INSTANCES / "cave").glob("unique-*.txt"))[:5] + [LIGHTS]
    out = tmp_path / "sheet.pdf"
    done = cli("sheet", *map(str, files), "--out", str(out), "--per-page", "4",
               "--solutions", "--title", "Club night")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"wrote {out}: {len(files)} puzzles"
    pages = pdf_pages(out)
    total = len(pages)
    assert all(f"page {k} of {total}" in page for k, page in enumerate(pages, 1))
    assert "Club night" in pages[0] and "Cave (Corral): Shade cells" in pages[0]
    text = "\n".join(pages)
    sizes = [f"{n}x{n}" for n in (6, 8, 8, 10, 10)]
    for number, size in enumerate(sizes, 1):
        assert text.count(f"{number} · Cave (Corral) {size}") == 2  # the puzzle, its answer
    assert text.count("6 · Lights Out 5x5") == 2
    assert "solutions" in pages[-1] and "solutions" not in pages[0]
    assert text.count("Cave (Corral): Shade cells") == 1  # the rules once, where it first shows
    box = pypdf.PdfReader(io.BytesIO(out.read_bytes())).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4 in points
    # one puzzle per page on US Letter, without solutions
    single = tmp_path / "single.pdf"
    assert cli("sheet", *map(str, files), "--out", str(single), "--per-page", "1",
               "--paper", "letter").returncode == 0
    reader = pypdf.PdfReader(io.BytesIO(single.read_bytes()))
    assert len(reader.pages) == len(files)
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)


def test_a_sheet_converts_to_png_pages_of_its_paper(tmp_path, cli):
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    out = tmp_path / "sheet.pdf"
    assert cli("sheet", str(CAVE), str(LIGHTS), "--out", str(out), "--solutions",
               "--per-page", "2").returncode == 0
    subprocess.run([pdftoppm, "-r", "30", "-png", str(out), str(tmp_path / "page")],
                   check=True, cwd=tmp_path, timeout=60)
    pngs = sorted(tmp_path.glob("page-*.png"))
    assert len(pngs) == len(pdf_pages(out)) == 2
    for png in pngs:
        image = Image.open(png)
        for pixels, mm in zip(image.size, (210, 297), strict=True):  # A4 at 30 dpi
            assert abs(pixels - mm / 25.4 * 30) <= 1
        darkest, lightest = image.convert("L").getextrema()
        assert darkest < 100 and lightest > 200  # ink on paper


def test_a_style_is_passed_to_the_pictures_that_have_it(tmp_path, cli):
    plain, styled = tmp_path / "plain", tmp_path / "styled"
    assert cli("render", str(CAVE), str(LIGHTS), "--solution", "--out", str(plain)
               ).returncode == 0
    done = cli("render", str(CAVE), str(LIGHTS), "--solution", "--out", str(styled),
               "--style", "shade=inside")
    assert done.returncode == 0, done.stderr
    name = f"{CAVE.stem}-solution.svg"
    assert (plain / name).read_bytes() != (styled / name).read_bytes()
    assert 'fill="#a6d4f2"' in (styled / name).read_text()  # the cave shaded light blue
    lights = f"{LIGHTS.stem}-solution.svg"
    assert (plain / lights).read_bytes() == (styled / lights).read_bytes()


def test_generate_writes_a_sheet_of_what_it_made(tmp_path, cli):
    out, sheet = tmp_path / "made", tmp_path / "made.pdf"
    done = cli("generate", "lightsout", "--size", "5x5", "--count", "3", "--seed", "7",
                     "--out", str(out), "--sheet", str(sheet), "--quiet")
    assert done.returncode == 0, done.stderr
    made = sorted(out.iterdir())
    assert len(made) == 3 and f"wrote {sheet}" in done.stdout
    pages = pdf_pages(sheet)
    assert len(pages) == 2  # the three puzzles, then their solutions
    for number in (1, 2, 3):
        assert f"{number} · Lights Out 5x5 · " in pages[0]  # with the level it was made at
        assert f"{number} · Lights Out 5x5 · " in pages[1]
    assert "no solution known" not in pages[1]


@pytest.mark.parametrize("args, words", [
    (["render", str(CAVE), "--out", "o", "--format", "gif"], "invalid choice: 'gif'"),
    (["render", "missing.txt", "--out", "o"], "missing.txt"),
    (["solve", str(CAVE), "--svg", "x.gif"], "x.gif: a picture must end in .svg, .png or .pdf"),
    (["solve", str(CAVE), "--png", "x.svg"], "--png x.svg: a PNG picture must end in .png"),
    (["solve", str(CAVE), str(LIGHTS), "--svg", "x.svg"], "--svg draws one instance; the "
                                                          "paths name 2"),
    (["sheet", str(CAVE), "--out", "x.txt"], "--out x.txt: a sheet is a PDF (OUT.pdf)"),
    (["sheet", str(CAVE), "--out", "x.pdf", "--per-page", "0"], "must be 1, 2, 4 or 6: '0'"),
    (["sheet", str(CAVE), "--out", "x.pdf", "--per-page", "3"], "must be 1, 2, 4 or 6: '3'"),
    (["sheet", str(CAVE), "--out", "x.pdf", "--paper", "a3"], "invalid choice: 'a3'"),
    (["sheet", str(CAVE), "--out", "x.pdf", "--style", "shade"], "use NAME=VALUE"),
    (["sheet", str(CAVE), "--out", "x.pdf", "--style", "shade=blue"],
     "--style 'shade=blue': Cave (Corral) takes shade=outside|inside"),
    (["render", str(LIGHTS), "--out", "o", "--style", "shade=inside"],
     "--style 'shade=inside': no picture here has a style 'shade'"),
    (["generate", "lightsout", "--out", "o", "--sheet", "s.png"], "a sheet is a PDF"),
])
def test_bad_picture_arguments_are_one_line_and_exit_2_and_write_nothing(tmp_path, args, words,
                                                                         cli):
    done = cli(*args, cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert words in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


def test_render_into_a_file_instead_of_a_folder_is_one_line(tmp_path):
    blocker = tmp_path / "taken"
    blocker.write_text("a file")
    done = twinsolve("render", str(CAVE), "--out", str(blocker))
    assert done.returncode == 2 and "it is a file, not a folder" in done.stderr
    assert blocker.read_text() == "a file"
