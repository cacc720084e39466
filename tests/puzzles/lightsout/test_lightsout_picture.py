"""Lights Out pictures: every shipped board draws in SVG (one also in PNG and PDF, every one
under `slow`), and the SVG says what the board and its answer say.

The SVG is read back as XML and decoded by geometry alone: the cells are the
`<rect>`s of the one most common size, a cell's light is its fill, a press is
a `<circle>` inside a cell (with, for mod K, the bold digit at its centre). So
a picture that loses a light, moves a press or miscounts one fails here.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import picture_checks as checks
import pytest
from conftest import sampled

from twinsolve.core.drawing import GRID_LIMIT, grid_summary
from twinsolve.core.run import load_file
from twinsolve.graphics import canvas
from twinsolve.graphics.layout import MAX_HEIGHT, MAX_WIDTH
from twinsolve.puzzles.lightsout import picture
from twinsolve.puzzles.lightsout.rules import Instance, parse

FOLDER = checks.INSTANCES / "lightsout"
FILES = checks.shipped("lightsout")


# ---------------------------------------------------------------- reading an SVG back

class Picture(checks.GridPicture):
    """A Lights Out SVG decoded: cells, their fills, presses, state digits, legend."""

    def presses(self, modulus: int) -> list[str]:
        """The press grid the marks show, as solution rows."""
        rows, cols = self.shape
        grid = [[0] * cols for _ in range(rows)]
        digits = {(e.get("x"), e.get("y")): e.text for e in self.texts(font_weight="bold")}
        for mark in (e for e in self.elements if e.tag == checks.SVG + "circle"):
            r, c = self.cell_of(float(mark.get("cx")), float(mark.get("cy")))
            grid[r][c] = 1 if modulus == 2 else int(digits.pop((mark.get("cx"), mark.get("cy"))))
        assert not digits, f"bold digits without a press disc: {digits}"
        return ["".join(map(str, row)) for row in grid]

    def legend(self) -> list[str]:
        return [e.text for e in self.texts(text_anchor="start")]


RULE_WORDS = ("torus:", "sigma:", "mod")  # the first words of the variants' legend lines


def luminance(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


# ---------------------------------------------------------------- every shipped board

@pytest.mark.parametrize("path", FILES, ids=checks.file_id)
def test_shipped_board_shows_its_lights_and_presses(path):
    instance, solution = load_file(path), checks.hand_answer(path)
    _, text = checks.drawn(picture.draw, instance, solution)
    shown = Picture(text)
    assert shown.shape == (instance.rows, instance.cols)
    assert len(shown.cells) == instance.cells
    # Lights: cells of one state share one fill, different states differ, 0 is white.
    fills = shown.fills()
    by_state = {instance.lights[r][c]: set() for r, c in fills}
    for (r, c), fill in fills.items():
        by_state[instance.lights[r][c]].add(fill)
    assert all(len(f) == 1 for f in by_state.values()), by_state
    assert len({f for fs in by_state.values() for f in fs}) == len(by_state)
    assert by_state.get(0, {"#ffffff"}) == {"#ffffff"}
    no_presses = {"presses": ["0" * instance.cols] * instance.rows}
    assert shown.presses(instance.modulus) == (solution or no_presses)["presses"]
    if instance.modulus != 2:  # the state digits: one per lit cell, its state
        digits = {shown.cell_of(float(e.get("x")), float(e.get("y"))): int(e.text)
                  for e in shown.texts(text_anchor="middle") if e.get("font-weight") is None}
        assert digits == {(r, c): v for r, row in enumerate(instance.lights)
                          for c, v in enumerate(row) if v}
    assert shown.side == pytest.approx(min(picture.CELL_MM, shown.side), abs=0.01)


@pytest.mark.parametrize("path", sampled(FILES), ids=checks.file_id)
def test_shipped_board_with_its_answer_draws_in_png_and_pdf_at_the_drawing_size(path):
    page, _ = checks.drawn(picture.draw, load_file(path), checks.hand_answer(path))
    checks.check_formats(page)


def test_small_boards_get_full_size_cells_and_large_ones_fit_the_page():
    small = Picture(canvas.svg(picture.draw(load_file(FOLDER / "all-on-05x05.txt"))))
    assert small.side == picture.CELL_MM
    wide = picture.draw(Instance.all_on(GRID_LIMIT))
    assert wide.count("rect") == GRID_LIMIT ** 2
    assert wide.width == pytest.approx(MAX_WIDTH)
    tall = picture.draw(Instance.all_on(GRID_LIMIT, 2, torus=True, sigma=True))
    assert tall.height <= MAX_HEIGHT


def test_variants_are_named_under_the_board_and_the_torus_has_its_arrows():
    for name, words in [("all-on-05x05.txt", []), ("all-on-torus-5x5.txt", ["torus:"]),
                        ("all-on-sigma-5x5.txt", ["sigma:"]),
                        ("random-mod5-05x05.txt", ["mod 5:"])]:
        shown = Picture(canvas.svg(picture.draw(load_file(FOLDER / name))))
        assert [line.split()[0] + (" " + line.split()[1] if line.startswith("mod") else "")
                for line in shown.legend() if line.split()[0] in RULE_WORDS] == words, name
        heads = [e for e in shown.elements
                 if e.tag == checks.SVG + "polygon" and e.get("fill") != "none"]
        assert len(heads) == (6 if "torus:" in words else 0), name
    both = parse("lightsout 2 3 torus sigma mod 3\n012\n210\n")
    assert [line.split(":")[0] for line in Picture(canvas.svg(picture.draw(both))).legend()
            if line.split()[0] in RULE_WORDS] == ["torus", "sigma", "mod 3"]


def test_light_shades_darken_with_the_state_so_greyscale_keeps_them_apart():
    for modulus in (2, 3, 5, 7):
        shades = [luminance(picture.light_fill(state, modulus)) for state in range(modulus)]
        assert all(a - b > 15 for a, b in zip(shades, shades[1:], strict=False)), (modulus, shades)


# ---------------------------------------------------------------- the answer's marks

@pytest.mark.parametrize("name", ["all-on-05x05.txt", "random-torus-07x07.txt",
                                  "random-sigma-06x06.txt", "random-mod3-05x05.txt",
                                  "random-mod5-04x04.txt"])
def test_the_answer_adds_exactly_its_press_marks_and_one_legend_line(name):
    path = FOLDER / name
    instance, solution = load_file(path), checks.hand_answer(path)
    bare = Picture(canvas.svg(picture.draw(instance)))
    solved = Picture(canvas.svg(picture.draw(instance, solution)))

    def key(e: ET.Element) -> tuple:
        return e.tag, tuple(sorted(e.attrib.items())), e.text

    def is_mark(e: ET.Element) -> bool:
        return e.tag == checks.SVG + "circle" or e.get("font-weight") == "bold"

    def board(p: Picture) -> list[tuple]:
        return [key(e) for e in p.elements[1:] if e.get("text-anchor") != "start"
                and not is_mark(e) and e.get("x") is not None]  # not the page's background

    assert not any(is_mark(e) for e in bare.elements)
    assert board(bare) == board(solved)
    assert solved.legend()[:len(bare.legend())] == bare.legend()
    pressed = sum(int(d) for row in solution["presses"] for d in row)
    assert str(pressed) in " ".join(solved.legend()[len(bare.legend()):])
    assert solved.presses(instance.modulus) == solution["presses"]
    assert bare.presses(instance.modulus) == ["0" * instance.cols] * instance.rows


def test_a_press_digit_sits_in_its_own_cell():
    instance = parse("lightsout 1 3 mod 3\n000\n")
    solution = {"presses": ["020"]}  # drawn as given: a picture does not judge the answer
    shown = Picture(canvas.svg(picture.draw(instance, solution)))
    assert shown.presses(3) == ["020"]
    assert [e.text for e in shown.texts(font_weight="bold")] == ["2"]


def test_same_board_same_svg_bytes():
    path = FOLDER / "random-mod3-05x05.txt"
    checks.check_same_svg(picture.draw, load_file(path), parse(path.read_text()),
                          checks.hand_answer(path))


def test_saved_files_are_svg_png_and_pdf(tmp_path):
    path = FOLDER / "all-on-torus-6x6.txt"
    checks.check_saved(picture.draw(load_file(path), checks.hand_answer(path)), tmp_path)


# ---------------------------------------------------------------- too large, and bad answers

def test_a_board_over_the_limit_is_a_one_line_summary():
    instance = Instance(GRID_LIMIT + 1, 3, ((1, 0, 1),) * (GRID_LIMIT + 1))
    presses = {"presses": ["100"] + ["000"] * GRID_LIMIT}
    for solution, counts in [(None, [(2 * (GRID_LIMIT + 1), "lights on")]),
                             (presses, [(2 * (GRID_LIMIT + 1), "lights on"),
                                        (1, "cells pressed")])]:
        checks.check_one_line(picture.draw(instance, solution),
                              grid_summary(GRID_LIMIT + 1, 3, counts))


@pytest.mark.parametrize("solution", [{"presses": ["11"]}, {"presses": ["12", "00"]},
                                      {"presses": ["1", "00"]}, {"inside": ["11", "00"]},
                                      ["11", "00"]])
def test_an_answer_that_does_not_fit_the_board_is_refused(solution):
    with pytest.raises(ValueError, match="press"):
        picture.draw(Instance.all_on(2), solution)


@pytest.mark.parametrize("modulus", [3, 5, 7])
def test_a_board_mod_k_has_a_key_of_its_shades(modulus):
    instance = parse(f"lightsout 1 2 mod {modulus}\n10\n")
    root = ET.fromstring(canvas.svg(picture.draw(instance)))
    key = next(g for g in root.iter(checks.SVG + "g")  # the outermost: the whole key
               if any(e.text == "0 (off)" for e in g.iter(checks.SVG + "text")))
    samples = [e.get("fill") for e in key.iter(checks.SVG + "rect") if e.get("fill") != "none"]
    words = [e.text for e in key.iter(checks.SVG + "text")]
    assert samples == [picture.light_fill(state, modulus) for state in range(modulus)]
    assert words == ["0 (off)", *map(str, range(1, modulus))]
    plain = ET.fromstring(canvas.svg(picture.draw(parse("lightsout 1 2\n10\n"))))
    assert not any(e.text == "0 (off)" for e in plain.iter(checks.SVG + "text"))


def test_a_small_board_keeps_its_legend_narrow_so_that_a_sheet_can_enlarge_the_board():
    instance = parse("lightsout 4 4 torus sigma mod 3\n0120\n1201\n2012\n0120\n")
    page = picture.draw(instance)
    assert page.width <= picture.LEGEND_MM + 2 * picture.MARGIN_MM + 1e-9
    assert page.board == canvas.Board(4, 4, picture.CELL_MM)
    big = picture.draw(instance, cell=20.0)
    assert big.board.cell == 20.0 and big.width > page.width
