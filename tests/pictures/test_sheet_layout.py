"""Printed sheets checked by where the ink lands: every shipped instance on a sheet at every
`--per-page`, on A4 and US Letter, with its solution.

The sheet's `layout` says where each part of each page went (the title, the
rules, the page number, each slot's caption and picture); the ink of each is
measured with `canvas.walk` / `canvas.bounds` (strokes and texts included). On
every page: nothing leaves the paper's margins, no two slots overlap, no
slot overlaps the title, the rules or the page number, each caption and
picture stays in its slot (the caption in its band, the picture under it);
every caption is at least 8 pt; the boards of a page share one cell size,
and a board that fits its slot with cells of 6 mm (4 mm on the solution
pages) gets at least that. Every puzzle is on the puzzle pages once, in
order, and so is its solution after them.

Every shipped instance at every per-page is under `slow`; the default run
lays out one mixed sample (a board of each puzzle, a big one, the plans) at
each per-page on A4, and on Letter at 4 per page.
"""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

import pytest
from conftest import ROOT, sampled

from twinsolve.graphics import canvas
from twinsolve.pictures import sheet
from twinsolve.pictures.draw import Item, answer_of, gather, sheet_entry

INSTANCES = ROOT / "instances"
EPS = 0.01  # mm
MIN_POINTS = 8
SAMPLE = ["cave/graded/cave-hard-10x10-s1-01.txt", "lightsout/random-mod3-04x04.txt",
          "chess/mixed-6x6-07.txt", "jugs/die-hard-holds-4.txt", "mirror/multi-20x20.txt",
          "clock/day-24-hours.txt", "cave/unique-15x15-seed7.txt",
          "lightsout/all-on-torus-5x5.txt"]

Box = tuple[float, float, float, float]  # left, top, right, bottom


@cache
def item_and_answer(path: Path) -> tuple[Item, object, str]:
    """A file's item, its verified solution (or None) and why there is none: once a run."""
    (item,) = gather([str(path)])
    answer = answer_of(item, solve=True, timeout=60)
    return item, answer.solution, answer.brief


def entries_of(paths: list[Path]) -> list[sheet.Entry]:
    return [sheet_entry(*item_and_answer(path)) for path in paths]


def every_shipped() -> list[Path]:
    return sorted(p for p in INSTANCES.rglob("*.txt"))


def corners(x: float, y: float, w: float, h: float) -> Box:
    return x, y, x + w, y + h


def inside(inner: Box, outer: Box) -> bool:
    return (inner[0] >= outer[0] - EPS and inner[1] >= outer[1] - EPS
            and inner[2] <= outer[2] + EPS and inner[3] <= outer[3] + EPS)


def apart(a: Box, b: Box) -> bool:
    return a[2] <= b[0] + EPS or b[2] <= a[0] + EPS or a[3] <= b[1] + EPS or b[3] <= a[1] + EPS


def ink(drawing: canvas.Drawing, x: float, y: float, scale: float) -> Box:
    box = canvas.bounds(drawing)
    assert box is not None, "a picture with no ink"
    return (x + box[0] * scale, y + box[1] * scale, x + box[2] * scale, y + box[3] * scale)


def caption_ink(page: sheet.Page, slot: sheet.Slot) -> Box:
    (text,) = [p for p in canvas.walk(page.drawing)
               if p.shape.kind == "text" and p.shape.text == slot.caption and p.scale == 1.0
               and abs(p.shape.points[0][0] - slot.box[0]) < EPS
               and slot.box[1] <= p.shape.points[0][1] <= slot.box[1] + sheet.CAPTION_BAND]
    return text.extent()


def check_page(page: sheet.Page, paper: tuple[float, float], least_cell: float,
               entries: list[sheet.Entry], answers: bool) -> None:
    """The page's invariants (module docstring)."""
    width, height = paper
    margins = (sheet.MARGIN, sheet.MARGIN, width - sheet.MARGIN, height - sheet.MARGIN)
    whole = canvas.bounds(page.drawing)
    assert whole is not None and inside(whole, margins), (whole, margins)
    parts = [corners(*page.header), corners(*page.footer)]
    if page.rules is not None:
        parts.append(corners(*page.rules))
    slots = [corners(*slot.box) for slot in page.slots]
    for a, b in itertools.combinations(parts + slots, 2):
        assert apart(a, b), (a, b)
    for slot, box in zip(page.slots, slots, strict=True):
        band = (box[0], box[1], box[2], box[1] + sheet.CAPTION_BAND)
        assert inside(caption_ink(page, slot), band), slot.caption
        assert slot.caption_size * canvas.POINTS_PER_MM >= MIN_POINTS - 1e-9, slot.caption
        if slot.picture is not None:
            below = (box[0], band[3], box[2], box[3])
            assert inside(ink(slot.picture, slot.at_x, slot.at_y, slot.scale), below), \
                slot.caption
    cells = [slot.cell for slot in page.slots if slot.cell is not None]
    assert max(cells, default=0) - min(cells, default=0) < 1e-6, cells  # one cell size
    for slot, box, entry in zip(page.slots, slots, entries, strict=True):
        if slot.cell is not None and slot.cell < least_cell - 1e-6:
            # a board with smaller cells does not fit its slot when drawn with `least_cell`
            room = (box[2] - box[0], box[3] - box[1] - sheet.CAPTION_BAND)
            drawn = (entry.solution if answers else entry.puzzle)(room, least_cell)
            assert drawn.width > room[0] + EPS or drawn.height > room[1] + EPS, \
                (slot.caption, slot.cell)


def check_sheet(paths: list[Path], per_page: int, paper: str) -> list[sheet.Page]:
    entries = entries_of(paths)
    pages = sheet.layout(entries, per_page, solutions=True, paper=paper)
    size = sheet.PAPERS[paper]
    numbers: dict[bool, list[int]] = {False: [], True: []}
    for number, page in enumerate(pages, 1):
        answers = "solutions" in page.drawing.shapes[0].text
        shown = [entries[int(slot.caption.split(" · ")[0]) - 1] for slot in page.slots]
        check_page(page, size, sheet.SOLUTION_MIN_CELL if answers else sheet.MIN_CELL, shown,
                   answers)
        numbers[answers] += [int(slot.caption.split(" · ")[0]) for slot in page.slots]
        texts = [p.shape.text for p in canvas.walk(page.drawing) if p.shape.kind == "text"]
        assert f"page {number} of {len(pages)}" in texts
    expected = list(range(1, len(paths) + 1))
    assert numbers[False] == expected and numbers[True] == expected
    return pages


@pytest.mark.parametrize("per_page", sheet.PER_PAGE)
def test_a_mixed_sample_lays_out_on_a4_at_every_per_page(per_page):
    pages = check_sheet([INSTANCES / name for name in SAMPLE], per_page, "a4")
    first = pages[0]
    assert first.rules is not None  # the rules of the first page's puzzles
    puzzles = [page for page in pages if "solutions" not in page.drawing.shapes[0].text]
    solutions = pages[len(puzzles):]
    assert max(len(page.slots) for page in puzzles) <= per_page
    assert max(len(page.slots) for page in solutions) <= sheet.SOLUTIONS_PER_PAGE[per_page]


def test_a_mixed_sample_lays_out_on_letter():
    pages = check_sheet([INSTANCES / name for name in SAMPLE], 4, "letter")
    assert (pages[0].drawing.width, pages[0].drawing.height) == sheet.PAPERS["letter"]


@pytest.mark.slow
@pytest.mark.parametrize("per_page, paper", sampled(
    [(n, paper) for paper in sheet.PAPERS for n in sheet.PER_PAGE], keep=0))
def test_every_shipped_instance_lays_out_at_every_per_page(per_page, paper):
    check_sheet(every_shipped(), per_page, paper)


# ---------------------------------------------------------------- what the pages say

def test_captions_name_the_number_the_puzzle_its_board_and_its_level():
    pages = sheet.layout(entries_of([INSTANCES / name for name in SAMPLE[:4]]), 4)
    assert [slot.caption for slot in pages[0].slots] == [
        "1 · Cave (Corral) 10x10 · hard", "2 · Lights Out 4x4", "3 · Solitaire Chess 6x6",
        "4 · Water jugs"]


def test_the_rules_of_a_puzzle_are_printed_once_on_the_first_page_it_appears_on():
    paths = [INSTANCES / "cave" / "graded" / f"cave-{name}.txt"
             for name in ("easy-10x10-s1-01", "easy-10x10-s1-02", "hard-10x10-s1-01",
                          "medium-10x10-s1-01", "medium-10x10-s1-02")]
    pages = sheet.layout(entries_of(paths), 2, solutions=True)
    said = [[p.shape.text for p in canvas.walk(page.drawing) if p.shape.kind == "text"
             and p.shape.text.startswith("Cave (Corral): ")] for page in pages]
    assert [len(lines) for lines in said] == [1] + [0] * (len(pages) - 1)
    assert pages[0].rules is not None and all(page.rules is None for page in pages[1:])


def test_a_big_board_gets_a_page_with_fewer_slots_and_the_rest_share_pages():
    names = ["lightsout/random-mod3-04x04.txt", "mirror/easy-40x40.txt",
             "lightsout/random-mod3-05x05.txt", "lightsout/all-on-05x05.txt"]
    pages = sheet.layout(entries_of([INSTANCES / name for name in names]), 4)
    assert [[slot.caption.split(" · ")[0] for slot in page.slots] for page in pages] \
        == [["1"], ["2"], ["3", "4"]]
    big = pages[1].slots[0]
    assert big.box[2] == pytest.approx(sheet.PAPERS["a4"][0] - 2 * sheet.MARGIN)
    assert big.cell < sheet.MIN_CELL  # 40 columns: no page gives them 6 mm
    assert pages[2].slots[0].cell == pages[2].slots[1].cell <= sheet.MAX_CELL


def test_small_boards_share_a_cell_size_as_large_as_their_slots_allow():
    names = ["lightsout/random-mod3-04x04.txt", "lightsout/random-mod5-04x04.txt"]
    (page,) = sheet.layout(entries_of([INSTANCES / name for name in names]), 2)
    assert page.slots[0].cell == page.slots[1].cell == sheet.MAX_CELL


def test_bad_layout_requests_are_refused():
    entries = entries_of([INSTANCES / SAMPLE[1]])
    for per_page, paper in ((3, "a4"), (4, "a3")):
        with pytest.raises(ValueError, match="per_page|paper"):
            sheet.layout(entries, per_page, paper=paper)
    with pytest.raises(ValueError, match="at least one"):
        sheet.layout([], 4)
