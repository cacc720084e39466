"""Cave pictures: every shipped puzzle draws in SVG (one also in PNG and PDF, every one under
`slow`), and the SVG says what the puzzle and its answer say.

The SVG is read back as XML and decoded by geometry alone: the cells are the
`<rect>`s of the one most common size, a cell is shaded when its fill is the
shade of its style (outside the cave by default, as published solutions
mark it; the cave itself with `shade=inside`), the outline is the
`<line>`s, cut into unit cell edges and compared with the cave's boundary
computed here from the answer, and the texts are the clues. So a picture
that shades a wrong cell, misses a stretch of outline or drops a clue fails
here.
"""

from __future__ import annotations

import picture_checks as checks
import pytest
from conftest import sampled

from twinsolve.core.drawing import GRID_LIMIT, grid_summary
from twinsolve.core.run import load_file
from twinsolve.graphics import canvas
from twinsolve.puzzles.cave import picture
from twinsolve.puzzles.cave.rules import EMPTY, UNKNOWN, Cell, Instance, parse

FOLDER = checks.INSTANCES / "cave"
FILES = checks.shipped("cave")


# ---------------------------------------------------------------- reading an SVG back

class Picture(checks.GridPicture):
    """A Cave SVG decoded: cells and their fills, outline edges, clue texts."""

    def index(self, value: float, origin: float) -> float:
        return (value - origin) / self.side

    def shaded(self, shade: str = picture.SHADED) -> set[tuple[int, int]]:
        return {cell for cell, fill in self.fills().items() if fill == shade}

    def clues(self) -> list[tuple[tuple[int, int], str]]:
        return [(self.cell_of(float(e.get("x")), float(e.get("y"))), e.text)
                for e in self.texts()]

    def outline(self) -> set[tuple[tuple[int, int], tuple[int, int]]]:
        """The `<line>`s as unit edges between grid points (row, col), each once."""
        edges = set()
        for e in (e for e in self.elements if e.tag == checks.SVG + "line"):
            (c1, c2), (r1, r2) = ((round(self.index(float(e.get(k)), o)) for k in pair)
                                  for pair, o in ((("x1", "x2"), self.x0),
                                                  (("y1", "y2"), self.y0)))
            assert r1 == r2 or c1 == c2, "outline lines run along the grid"
            steps = max(abs(r2 - r1), abs(c2 - c1))
            dr, dc = (r2 - r1) // steps, (c2 - c1) // steps
            for k in range(steps):
                a, b = (r1 + k * dr, c1 + k * dc), (r1 + (k + 1) * dr, c1 + (k + 1) * dc)
                assert (min(a, b), max(a, b)) not in edges, "an edge drawn twice"
                edges.add((min(a, b), max(a, b)))
        return edges


def boundary(inside: list[str]) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    """The unit edges of the cave's boundary, each inside cell's four sides checked."""
    rows, cols = len(inside), len(inside[0])

    def is_in(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and inside[r][c] == "1"

    edges = set()
    for r in range(rows):
        for c in range(cols):
            if not is_in(r, c):
                continue
            sides = {(-1, 0): ((r, c), (r, c + 1)), (1, 0): ((r + 1, c), (r + 1, c + 1)),
                     (0, -1): ((r, c), (r + 1, c)), (0, 1): ((r, c + 1), (r + 1, c + 1))}
            edges |= {edge for (dr, dc), edge in sides.items() if not is_in(r + dr, c + dc)}
    return edges


def clue_tokens(instance: Instance) -> list[tuple[tuple[int, int], str]]:
    return [((r, c), cell.token) for r, row in enumerate(instance.clues)
            for c, cell in enumerate(row) if cell.is_clue]


# ---------------------------------------------------------------- every shipped puzzle

@pytest.mark.parametrize("path", FILES, ids=checks.file_id)
def test_shipped_puzzle_draws_its_clues_and_its_cave(path):
    instance = load_file(path)
    solution = checks.file_answer(instance)
    inside = {(r, c) for r, row in enumerate(solution["inside"])
              for c, flag in enumerate(row) if flag == "1"}
    every = {(r, c) for r in range(instance.rows) for c in range(instance.cols)}
    for answer, shaded in ((None, set()), (solution, every - inside)):
        _, text = checks.drawn(picture.draw, instance, answer)
        shown = Picture(text)
        assert len(shown.cells) == instance.cells
        assert set(shown.fills()) == every
        assert shown.clues() == clue_tokens(instance)
        assert shown.shaded() == shaded  # the outside, as published solutions mark it
        assert shown.outline() == (boundary(solution["inside"]) if answer else set())
    cave = Picture(canvas.svg(picture.draw(instance, solution, shade="inside")))
    assert cave.shaded(picture.INSIDE) == inside and cave.shaded() == set()
    assert shown.side == pytest.approx(min(picture.CELL_MM, shown.side), abs=0.01)


@pytest.mark.parametrize("path", sampled(FILES), ids=checks.file_id)
def test_shipped_puzzle_and_its_answer_draw_in_png_and_pdf_at_the_drawing_size(path):
    instance = load_file(path)
    checks.check_both_formats(picture.draw, instance, checks.file_answer(instance))


def test_clue_texts_are_exactly_the_clues_in_row_major_order():
    instance = parse("cave 3 8\n? - 10 - - - - -\n- - - - - - - -\n3 - ? 1 - - - 9\n")
    assert [text for _, text in Picture(canvas.svg(picture.draw(instance))).clues()] \
        == ["?", "10", "3", "?", "1", "9"]


# ---------------------------------------------------------------- the answer's cave

@pytest.mark.parametrize("shade, flag", [("outside", "0"), ("inside", "1")])
def test_the_answer_changes_only_the_fill_of_its_shaded_side_and_adds_its_outline(shade, flag):
    instance = load_file(FOLDER / "unique-08x08-seed2.txt")
    solution = checks.file_answer(instance)
    bare = Picture(canvas.svg(picture.draw(instance, shade=shade)))
    solved = Picture(canvas.svg(picture.draw(instance, solution, shade=shade)))
    before, after = bare.fills(), solved.fills()
    assert set(before) == set(after)
    changed = {cell for cell in before if before[cell] != after[cell]}
    assert changed == {(r, c) for r, row in enumerate(solution["inside"])
                       for c, value in enumerate(row) if value == flag}
    assert set(before.values()) == {picture.OUTSIDE}
    assert bare.clues() == solved.clues()
    geometry = [[(e.get("x"), e.get("y"), e.get("width")) for e in p.cells] for p in (bare, solved)]
    assert geometry[0] == geometry[1]


def test_a_cave_with_a_notch_has_every_boundary_edge_once():
    instance = parse("cave 3 3\n? - ?\n- - -\n- ? -\n")
    solution = {"inside": ["101", "111", "111"]}
    shown = Picture(canvas.svg(picture.draw(instance, solution)))
    assert shown.outline() == boundary(solution["inside"])
    assert len(shown.outline()) == 14  # 11 along the frame, 3 round the notch
    assert picture.outline_runs([[True, True], [False, True]]) == [
        ((0, 0), (0, 2)), ((1, 0), (1, 1)), ((2, 1), (2, 2)),
        ((0, 0), (1, 0)), ((1, 1), (2, 1)), ((0, 2), (2, 2))]


def test_same_puzzle_same_svg_bytes():
    path = FOLDER / "unique-10x10-seed4.txt"
    checks.check_same_svg(picture.draw, load_file(path), parse(path.read_text()),
                   checks.file_answer(load_file(path)))


def test_saved_files_are_svg_png_and_pdf(tmp_path):
    instance = load_file(FOLDER / "unique-06x06-seed1.txt")
    checks.check_saved(picture.draw(instance, checks.file_answer(instance)), tmp_path)


def test_the_largest_drawn_grid_fits_the_page():
    side = GRID_LIMIT
    clues = tuple(tuple(Cell.clue(side) if r == c == 0 else EMPTY for c in range(side))
                  for r in range(side))
    page = picture.draw(Instance(side, side, clues))
    assert page.count("rect") == side * side and page.count("text") == 1
    assert checks.within_page(page)


# ---------------------------------------------------------------- too large, and bad answers

def test_a_grid_over_the_limit_is_a_one_line_summary():
    rows, cols = GRID_LIMIT + 1, 2
    clues = ((UNKNOWN, Cell.clue(3)),) + ((EMPTY, EMPTY),) * (rows - 1)
    instance = Instance(rows, cols, clues)
    solution = {"inside": ["11", "10"] + ["00"] * (rows - 2)}
    for answer, counts in [(None, [(2, "clues")]), (solution, [(2, "clues"),
                                                              (3, "cells inside")])]:
        checks.check_one_line(picture.draw(instance, answer), grid_summary(rows, cols, counts))


@pytest.mark.parametrize("solution", [{"inside": ["11"]}, {"inside": ["12", "00"]},
                                      {"inside": ["1", "00"]}, {"presses": ["11", "00"]},
                                      None])
def test_an_answer_that_does_not_fit_the_grid_is_refused(solution):
    instance = parse("cave 2 2\n2 -\n- -\n")
    if solution is None:
        assert picture.draw(instance).count("rect") == 4
        return
    with pytest.raises(ValueError, match="inside|rows"):
        picture.draw(instance, solution)


def test_an_unknown_shading_is_refused_and_the_picture_says_its_board():
    instance = parse("cave 2 2\n2 -\n- -\n")
    with pytest.raises(ValueError, match="shade must be one of outside, inside"):
        picture.draw(instance, shade="both")
    assert picture.draw(instance).board == canvas.Board(2, 2, picture.CELL_MM)
    assert picture.draw(instance, cell=11.5).board.cell == 11.5
