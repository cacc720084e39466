"""Mirror maze pictures: every shipped maze draws; a solution changes the beam's cells only.

The SVG is read back as XML: the grid is the page's own shapes, the key under
it the one placed drawing (a `<g>`), read apart (`svg_root`, `key_texts`).
Each laser and its beam have a colour of their own, and the key names what
the picture shows."""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import picture_checks as checks
import pytest
from conftest import sampled
from matplotlib import image

from twinsolve.core.drawing import GRID_LIMIT
from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.run import load_file, run
from twinsolve.graphics import canvas
from twinsolve.puzzles.mirror import picture
from twinsolve.puzzles.mirror.rules import CellKind, Instance, render, trace_beam

SHIPPED = checks.shipped("mirror")
DPI = 100
INSET_PX = 1  # a cell's outermost pixels are shared with its neighbours by anti-aliasing


def maze(name: str) -> Path:
    """The shipped maze of that stem."""
    return next(p for p in SHIPPED if p.stem == name)


def svg_root(drawing: canvas.Drawing) -> ET.Element:
    """The picture's SVG without its key (the one placed drawing, a `<g>`)."""
    root = ET.fromstring(canvas.svg(drawing))
    for group in root.findall(checks.SVG + "g"):
        root.remove(group)
    return root


def key_texts(drawing: canvas.Drawing) -> list[str]:
    """The words of the picture's key."""
    (key,) = ET.fromstring(canvas.svg(drawing)).findall(checks.SVG + "g")
    return [e.text for e in key.iter(checks.SVG + "text")]


def slope_signs(lines: list[ET.Element]) -> set[int]:
    """-1 for a '/' line (y falls as x grows, y pointing down), +1 for a '\\' line."""
    return {int(math.copysign(1, (float(e.get("x2")) - float(e.get("x1")))
                              * (float(e.get("y2")) - float(e.get("y1"))))) for e in lines}


def points(polyline: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, pair.split(","))) for pair in polyline.get("points").split()]


def solved(instance: Instance) -> dict:
    """The file's expected solution (verified), else the hand solver's (verified) answer."""
    if "expect-solution" in dict(instance.meta):
        return checks.file_answer(instance)
    result = run(instance, "hand", Limits(timeout=30))
    assert result.verified, result.message
    return result.solution


def beam_cells(instance: Instance, flips: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Every cell a beam leaves, and every target one hits."""
    cells: set[tuple[int, int]] = set()
    for source in instance.sources():
        beam = trace_beam(instance, source, flips)
        cells.update((r, c) for r, c, _ in beam.path)
        if beam.hit is not None:
            cells.add(beam.hit)
    return cells


# ---------------------------------------------------------------- every shipped maze

@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_maze_draws_its_parts(path):
    instance = load_file(path)
    drawing = picture.draw(instance)
    root = svg_root(drawing)
    fixed = instance.positions(CellKind.SLASH, CellKind.BACKSLASH)
    assert len(checks.elements(root, "line", stroke=picture.FIXED)) == len(fixed)
    rotatable = checks.elements(root, "line", stroke=picture.ROTATABLE)
    assert len(rotatable) == len(checks.elements(root, "circle", stroke=picture.ROTATABLE)) \
        == len(instance.rotatable())
    assert slope_signs(rotatable) <= {-1}, "an unflipped rotatable mirror stands as '/'"
    assert len(checks.elements(root, "polygon", fill=picture.LASER)) == len(instance.sources())
    assert len(checks.elements(root, "circle", stroke=picture.TARGET)) == len(instance.targets())
    walls = instance.positions(CellKind.WALL)
    assert len(checks.elements(root, "rect", fill=picture.WALL)) == len(walls)
    assert not checks.elements(root, "polyline")
    assert not checks.elements(root, "rect", fill=picture.FLIPPED_CELL)
    assert not checks.elements(root, "text"), "no titles or names on the grid"
    words = key_texts(drawing)
    assert ("fixed mirror" in words) == bool(fixed) and "target" in words
    assert ("may be flipped" in words) == bool(instance.rotatable())
    assert "flipped in this solution" not in words and "target hit" not in words


# PNG and PDF cost about a millisecond a shape in matplotlib: 3-7 s for a 64x64 or 80x80
# maze. One maze in the default run, the rest under `slow`.
@pytest.mark.parametrize("path", sampled(SHIPPED), ids=lambda p: p.stem)
def test_every_shipped_maze_and_its_answer_draw_in_png_and_pdf_at_the_drawing_size(path):
    checks.check_both_formats(picture.draw, load_file(path), checks.hand_answer(path))


@pytest.mark.parametrize("path", [p for p in SHIPPED if "# expect-solution:" in p.read_text()],
                         ids=lambda p: p.stem)
def test_a_solution_adds_one_beam_per_laser_the_flips_and_the_hits(path):
    instance = load_file(path)
    solution = solved(instance)
    flips = {tuple(cell) for cell in solution["flips"]}
    drawing = picture.draw(instance, solution)
    root = svg_root(drawing)
    flipped = checks.elements(root, "line", stroke=picture.FLIPPED)
    highlighted = checks.elements(root, "rect", fill=picture.FLIPPED_CELL)
    assert len(flipped) == len(highlighted) == len(flips)
    assert slope_signs(flipped) == {1}, "a flipped mirror stands as '\\'"
    assert len(checks.elements(root, "line", stroke=picture.ROTATABLE)) == \
        len(instance.rotatable()) - len(flips)
    beams = checks.elements(root, "polyline")
    assert [e.get("stroke") for e in beams] == [picture.beam_colour(k)
                                               for k in range(len(instance.sources()))]
    grid = picture.layout(instance)
    hits = set()
    for (r, c, direction), beam in zip(instance.sources(), beams, strict=True):
        traced = trace_beam(instance, (r, c, direction), flips)
        assert points(beam)[0] == pytest.approx(grid.centre(r, c), abs=0.01)
        if traced.hit is not None:
            hits.add(traced.hit)
            assert points(beam)[-1] == pytest.approx(grid.centre(*traced.hit), abs=0.01)
    assert hits, "the expected solution meets its goal"
    assert len(checks.elements(root, "circle", fill=picture.TARGET_HIT)) == len(hits)


# ---------------------------------------------------------------- the test

def cell_pixels(pixels: np.ndarray, drawing: canvas.Drawing, instance: Instance,
                r: int, c: int) -> np.ndarray:
    """Cell (r, c)'s pixels, its box computed from the page's mm geometry and the dpi."""
    cell = picture.layout(instance).cell
    assert drawing.board.cell == pytest.approx(cell)
    per_mm = DPI / canvas.MM_PER_INCH
    x0, y0 = picture.MARGIN_MM + c * cell, picture.MARGIN_MM + r * cell
    left, right = math.ceil(x0 * per_mm) + INSET_PX, math.floor((x0 + cell) * per_mm) - INSET_PX
    top, bottom = math.ceil(y0 * per_mm) + INSET_PX, math.floor((y0 + cell) * per_mm) - INSET_PX
    assert right - left >= 10 and bottom - top >= 10, "cells big enough to compare"
    return pixels[top:bottom, left:right]


# Three lasers: one hits the target once (0, 2) is flipped, one stops at the wall (1, 0)
# beside cells it never enters, one loops back through its own laser. The shipped beams
# all end in targets or at the border.
STOPS = ("S.?..",
         "#...<",
         "T./..",
         "/>.\\.",
         "\\../.")


@pytest.mark.parametrize("name", ["stops", "easy-08x08", "trap-gap-04x05", "multi-20x20",
                                  "mirror-hard-8x8-s1-01"])
def test_solving_changes_the_pixels_along_the_beam_and_nowhere_else(name):
    instance = Instance.from_strings(STOPS) if name == "stops" else load_file(maze(name))
    solution = solved(instance)
    flips = {tuple(cell) for cell in solution["flips"]}
    lit = beam_cells(instance, flips)
    puzzle, answer = picture.draw(instance), picture.draw(instance, solution)
    before = image.imread(io.BytesIO(canvas.png(puzzle, dpi=DPI)))
    after = image.imread(io.BytesIO(canvas.png(answer, dpi=DPI)))
    assert before.shape == after.shape
    untouched = 0
    for r in range(instance.rows):
        for c in range(instance.cols):
            old = cell_pixels(before, puzzle, instance, r, c)
            new = cell_pixels(after, answer, instance, r, c)
            if (r, c) in lit or (r, c) in flips:
                assert not np.array_equal(old, new), f"cell {r},{c} on the beam looks the same"
            else:
                assert np.array_equal(old, new), f"cell {r},{c} off the beam changed"
                untouched += 1
    assert lit and untouched


# ---------------------------------------------------------------- beam ends, sizes, errors

@pytest.mark.parametrize("stop, rows, end", [
    ("wall", ["S.#T"], lambda g, w: (picture.MARGIN_MM + 2 * g.cell - w / 2, g.centre(0, 1)[1])),
    ("edge", ["S..", "..T"],
     lambda g, w: (picture.MARGIN_MM + 3 * g.cell - w / 2, g.centre(0, 2)[1])),
    ("target", ["S.\\", "T./"], lambda g, w: g.centre(1, 0)),
    ("loop", ["...T", "/S.\\", "\\../"], lambda g, w: g.centre(1, 1)),  # back through S
], ids=lambda v: v if isinstance(v, str) else "")
def test_a_beam_stops_where_the_rules_stop_it(stop, rows, end):
    instance = Instance.from_strings(rows)
    assert trace_beam(instance, instance.sources()[0], ()).end == stop
    grid = picture.layout(instance)
    beam, = checks.elements(svg_root(picture.draw(instance, {"flips": []})), "polyline")
    width = float(beam.get("stroke-width"))
    assert points(beam)[-1] == pytest.approx(end(grid, width), abs=0.01)


def test_pages_fit_180_by_250_mm_with_8_mm_cells_when_there_is_room():
    small = load_file(maze("easy-08x08"))
    assert picture.layout(small).cell == picture.CELL_MM
    assert picture.draw(small).board == canvas.Board(8, 8, picture.CELL_MM)
    for name in ("easy-80x80", "multi-50x50"):
        page = picture.draw(load_file(maze(name)))
        assert page.width <= 180 + 1e-9 and page.height <= 250 + 1e-9
        assert max(page.width, page.height) > 170


def test_the_same_input_gives_the_same_svg_bytes():
    path = maze("multi-20x20")
    checks.check_same_svg(picture.draw, load_file(path), load_file(path), solved(load_file(path)))


def test_a_grid_over_the_limit_is_one_line_of_summary():
    tall = Instance.from_strings(["S?T"] + ["..."] * GRID_LIMIT)
    for solution in (None, {"flips": [[0, 1]]}):
        line = render(tall, solution).plain.splitlines()[1]
        assert line.startswith(f"{GRID_LIMIT + 1}x3 grid, too large to draw")
        checks.check_one_line(picture.draw(tall, solution), line)
    at_limit = Instance.from_strings(["S?T"] + ["..."] * (GRID_LIMIT - 1))
    assert not checks.elements(svg_root(picture.draw(at_limit)), "text")


def test_a_solution_of_the_wrong_shape_is_refused():
    instance = load_file(maze("easy-08x08"))
    with pytest.raises(UsageError, match="not a rotatable mirror"):
        picture.draw(instance, {"flips": [[0, 0]]})
    with pytest.raises(UsageError, match="flips"):
        picture.draw(instance, {"moves": []})


def test_each_laser_and_its_beam_have_a_colour_of_their_own_and_the_key_says_so():
    instance = load_file(maze("multi-20x20"))
    solution = solved(instance)
    lasers = len(instance.sources())
    assert lasers == 3
    root = svg_root(picture.draw(instance, solution))
    bodies = [e.get("fill") for e in checks.elements(root, "rect") if e.get("stroke") ==
              picture.LASER]
    colours = [picture.beam_colour(k) for k in range(lasers)]
    assert bodies == colours and len(set(colours)) == lasers
    assert [e.get("stroke") for e in checks.elements(root, "polyline")] == colours
    words = key_texts(picture.draw(instance, solution))
    assert {"may be flipped", "flipped in this solution", "target hit",
            f"{lasers} lasers, a colour each"} <= set(words)
    assert len(set(picture.BEAMS) & {picture.ROTATABLE, picture.FLIPPED, picture.WALL}) == 0


def test_the_key_of_a_goal_all_maze_says_every_target_must_be_hit():
    instance = Instance.from_strings(["S.T", "...", "T.."], goal="all")
    assert "goal: hit every target" in key_texts(picture.draw(instance))
    assert "goal: hit every target" not in key_texts(picture.draw(
        Instance.from_strings(["S.T"], goal="all")))
