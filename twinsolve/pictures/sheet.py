"""Printable puzzle sheets: A4 pages with several puzzles each, the solutions at the end.

The way puzzle authors hand out a set: the puzzles numbered in order, each
with its name and level above it, `per_page` to a page (laid out in the
grid of columns and rows that wastes least space: 1, 2 = 1x2, 4 = 2x2,
6 = 2x3, 9 = 3x3, ...), each picture scaled down (never up beyond its own
size) to fit its box; then, when asked, the solutions under the same
numbers on the last pages, where a puzzle without one says why ("no
solution (proven)", "no solution within 60 s"). Every page carries its
number ("page 2 of 5") and the sheet's title. The pages are `graphics.canvas`
drawings, written as one PDF by `canvas.pdf_pages`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..graphics.canvas import Drawing

__all__ = ["Entry", "pages", "grid_of", "A4", "MARGIN", "MAX_PER_PAGE"]

A4 = (210.0, 297.0)  # mm, portrait
MARGIN = 12.0
HEADER = 10.0  # the title line at the top of a page
CAPTION = 7.0  # the name line above each puzzle
GAP = 6.0
MAX_PER_PAGE = 30


@dataclass(frozen=True)
class Entry:
    name: str
    level: str
    puzzle: Drawing
    solution: Drawing | None  # None: no solution to show; `missing` says why instead
    missing: str = "no solution known"  # or "no solution (proven)", "no solution within 60 s"


def grid_of(per_page: int) -> tuple[int, int]:
    """(columns, rows) for `per_page` boxes on a portrait page: the fewest empty boxes,
    then the squarest boxes."""
    usable_w, usable_h = A4[0] - 2 * MARGIN, A4[1] - 2 * MARGIN - HEADER

    def badness(cols: int) -> tuple[int, float]:
        rows = math.ceil(per_page / cols)
        box_w, box_h = usable_w / cols, usable_h / rows
        return (cols * rows - per_page, abs(math.log(box_w / box_h)))
    cols = min(range(1, per_page + 1), key=badness)
    return cols, math.ceil(per_page / cols)


def _page(title: str, number: int, total: int, boxes: list[tuple[str, Drawing | str]],
          per_page: int) -> Drawing:
    page = Drawing(*A4, background="#ffffff")
    page.text(MARGIN, MARGIN + HEADER / 2 - 2, title, size=4.2, anchor="start", bold=True)
    page.text(A4[0] - MARGIN, MARGIN + HEADER / 2 - 2, f"page {number} of {total}", size=3.2,
              anchor="end", fill="#555555")
    page.line(MARGIN, MARGIN + HEADER - 2, A4[0] - MARGIN, MARGIN + HEADER - 2,
              stroke="#999999", width=0.3)
    cols, rows = grid_of(per_page)
    box_w = (A4[0] - 2 * MARGIN - (cols - 1) * GAP) / cols
    box_h = (A4[1] - 2 * MARGIN - HEADER - (rows - 1) * GAP) / rows
    for index, (caption, drawing) in enumerate(boxes):
        col, row = index % cols, index // cols
        x = MARGIN + col * (box_w + GAP)
        y = MARGIN + HEADER + row * (box_h + GAP)
        page.text(x, y + CAPTION / 2, caption, size=min(3.6, box_w / max(len(caption), 1) * 1.8),
                  anchor="start", bold=True)
        room_h = box_h - CAPTION
        if isinstance(drawing, str):  # no solution to show: why not
            page.text(x + box_w / 2, y + CAPTION + room_h / 2, drawing, size=3.2,
                      fill="#777777")
            continue
        scale = min(1.0, box_w / drawing.width, room_h / drawing.height)
        left = x + (box_w - drawing.width * scale) / 2
        page.place(drawing, left, y + CAPTION, scale)
    return page


def pages(entries: list[Entry], per_page: int = 4, solutions: bool = False,
          title: str = "twinsolve puzzles") -> list[Drawing]:
    """The sheet's pages (module docstring)."""
    if not entries:
        raise ValueError("a sheet needs at least one puzzle")
    if not 1 <= per_page <= MAX_PER_PAGE:
        raise ValueError(f"per_page must be 1..{MAX_PER_PAGE}, got {per_page}")
    puzzles = [(f"{n}. {e.name} ({e.level})", e.puzzle) for n, e in enumerate(entries, 1)]
    answers = [(f"{n}. {e.name}: solution", e.missing if e.solution is None else e.solution)
               for n, e in enumerate(entries, 1)]
    chunks = [(title, puzzles[i:i + per_page]) for i in range(0, len(puzzles), per_page)]
    if solutions:
        chunks += [(f"{title}: solutions", answers[i:i + per_page])
                   for i in range(0, len(answers), per_page)]
    return [_page(heading, number, len(chunks), boxes, per_page)
            for number, (heading, boxes) in enumerate(chunks, 1)]
