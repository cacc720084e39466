"""A worked solution as pictures: one board per group of steps, for a book's answer pages.

What is drawn. The steps are cut into groups: a run of steps of one
technique, at most `GROUP` steps. Each group gets a board: the puzzle as its
picture module draws it (`registry.picture`, `draw(instance)`, the clues
only), with every item decided so far marked on it (a value 1 shaded, a 0
dotted, other values written), the group's new cells outlined in orange
and their step numbers written in their top left corners; its caption
names the steps and the technique. Under the boards of a page come the
sentences of their steps. Puzzles whose items are not grid cells (the plans
of jugs, clock and chess) get their picture with the whole solution and
the steps as text.

Where the cells are. The board's cells are found in the drawing itself:
the most common square the picture draws, `rows x cols` of them, give the
cell side and the grid's corner (`grid_of`), so the marks stay on the
cells whatever margins a picture uses. A picture that draws no such grid
gets the marks on a plain grid of the same shape under it.

`pages(instance, explanation)` gives the pages (one SVG takes them stacked,
a PDF one per page); `save(...)` writes them through `graphics.canvas`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core import registry
from ..core.errors import UsageError
from ..files.atomic import write_bytes
from ..graphics.canvas import Drawing, encode, pdf_pages, walk
from ..graphics.layout import MAX_HEIGHT, MAX_WIDTH, CellGrid, captioned, stack, text_block, wrap
from .steps import BIFURCATION, Explanation, Step

__all__ = ["GROUP", "PER_PAGE", "groups", "grid_of", "pages", "save"]

GROUP = 6       # steps on one board at most
PER_PAGE = 4    # boards on one page
SHADE = "#a6d4f2"    # a decided 1: the cave's blue
NEW = "#e66100"      # the outline of a cell the group decided
INK = "#000000"
DOT = "#555555"
TEXT_MM = 2.6
_CELL = re.compile(r"r(\d+)c(\d+)")


def groups(steps: Sequence[Step]) -> list[range]:
    """The steps cut into runs of one technique (and kind), at most `GROUP` long.

    >>> groups([Step("a", (), "."), Step("a", (), "."), Step("b", (), ".")])
    [range(0, 2), range(2, 3)]
    """
    found: list[range] = []
    start = 0
    for index in range(1, len(steps) + 1):
        if index == len(steps) or index - start == GROUP or \
                (steps[index].technique, steps[index].kind) != \
                (steps[start].technique, steps[start].kind):
            found.append(range(start, index))
            start = index
    return found


def _cell(item: str) -> tuple[int, int] | None:
    match = _CELL.fullmatch(item)
    return None if match is None else (int(match[1]), int(match[2]))


def grid_of(drawing: Drawing, rows: int, cols: int) -> CellGrid | None:
    """Where a picture drew its `rows x cols` cells: the most common square it draws,
    when there are enough of them in a grid (module docstring); None otherwise."""
    squares = [(round(p.shape.size[0] * p.scale, 3), p.x + p.shape.points[0][0] * p.scale,
                p.y + p.shape.points[0][1] * p.scale)
               for p in walk(drawing) if p.shape.kind == "rect"
               and abs(p.shape.size[0] - p.shape.size[1]) < 1e-6 and p.shape.size[0] > 0]
    if not squares:
        return None
    side, _ = Counter(s for s, _, _ in squares).most_common(1)[0]
    cells = [(x, y) for s, x, y in squares if s == side]
    if len(cells) < rows * cols:
        return None
    x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
    right, bottom = max(x for x, _ in cells), max(y for _, y in cells)
    if abs(right - x0 - (cols - 1) * side) > 0.01 or abs(bottom - y0 - (rows - 1) * side) > 0.01:
        return None
    return CellGrid(rows, cols, side, x=x0, y=y0)


def _board(instance: Any, base: Drawing, decided: dict[tuple[int, int], Any],
           new: dict[tuple[int, int], int]) -> Drawing:
    """The puzzle's picture with the decided cells marked and the new ones numbered."""
    rows, cols = instance.rows, instance.cols
    grid = grid_of(base, rows, cols)
    page = Drawing(base.width, base.height, background="#ffffff")
    page.place(base, 0, 0)
    if grid is None:  # no grid found in the picture: a plain one below it
        grid = CellGrid(rows, cols, min(8.0, MAX_WIDTH / max(cols, 1)), x=0.0,
                        y=base.height + 2.0)
        page = Drawing(max(base.width, grid.width), grid.y + grid.height, background="#ffffff")
        page.place(base, 0, 0)
        for r in range(rows):
            for c in range(cols):
                page.rect(*grid.corner(r, c), grid.cell, grid.cell, stroke="#8c8c8c", width=0.1)
    side = grid.cell
    for (r, c), value in decided.items():
        x, y = grid.corner(r, c)
        if value == 1:
            page.rect(x, y, side, side, fill=SHADE, opacity=0.6)
        elif value == 0:
            page.circle(x + side / 2, y + side / 2, side * 0.08, fill=DOT)
        else:
            page.text(x + side * 0.78, y + side * 0.78, str(value), size=side * 0.3, fill=DOT)
    for (r, c), number in new.items():
        x, y = grid.corner(r, c)
        page.rect(x + side * 0.05, y + side * 0.05, side * 0.9, side * 0.9, stroke=NEW,
                  width=max(0.2, side * 0.06))
        page.text(x + side * 0.08, y + side * 0.2, str(number), size=side * 0.24, fill=NEW,
                  anchor="start", bold=True)
    return page


def _caption(explanation: Explanation, span: range) -> str:
    first, last = span.start + 1, span.stop
    step = explanation.steps[span.start]
    what = "bifurcation" if step.kind == BIFURCATION else step.technique
    numbers = f"step {first}" if first == last else f"steps {first}-{last}"
    return f"{numbers}: {what}"


def _sentences(explanation: Explanation, spans: Sequence[range]) -> list[str]:
    return [f"{i + 1}. {explanation.steps[i].reason}" for span in spans for i in span]


def _grid_pages(instance: Any, explanation: Explanation, base_of: Any) -> list[Drawing]:
    spans = groups(explanation.steps)
    decided: dict[tuple[int, int], Any] = {}
    boards = []
    for span in spans:
        new: dict[tuple[int, int], int] = {}
        for index in span:
            for item, value in explanation.steps[index].decided:
                cell = _cell(item)
                if cell is not None:
                    decided[cell] = value
                    new[cell] = index + 1
        boards.append(captioned(_board(instance, base_of(), dict(decided), new),
                                _caption(explanation, span)))
    return _paged(_heading(instance, explanation), boards, spans, explanation)


def _paged(heading: Drawing, boards: list[Drawing], spans: list[range],
           explanation: Explanation) -> list[Drawing]:
    """Pages of boards and their steps' sentences, as many groups to a page as fit
    `MAX_HEIGHT` (at most `PER_PAGE`; at least one, however long its sentences)."""
    found: list[Drawing] = []
    start = 0
    while start < len(boards):
        page = None
        for stop in range(start + 1, min(start + PER_PAGE, len(boards)) + 1):
            blocks = [*([heading] if start == 0 else []),
                      wrap(boards[start:stop], max_width=MAX_WIDTH - 10, max_height=150),
                      text_block(_sentences(explanation, spans[start:stop]), size=TEXT_MM,
                                 width=MAX_WIDTH - 10)]
            candidate = stack(blocks)
            if page is not None and candidate.height > MAX_HEIGHT:
                break
            page, end = candidate, stop
        found.append(page)
        start = end
    return found or [stack([heading])]


def _heading(instance: Any, explanation: Explanation) -> Drawing:
    lines = [f"{registry.puzzle_of(instance).title}: worked solution, "
             f"{len(explanation.steps)} steps", *explanation.summary]
    return text_block(lines, size=3.2, width=MAX_WIDTH - 10, bold_first=True)


def _plan_pages(instance: Any, explanation: Explanation, module: Any) -> list[Drawing]:
    """A puzzle whose items are no grid cells: its picture with the solution, the steps."""
    picture = module.draw(instance, explanation.solution)
    lines = [f"{i}. {step.reason}" for i, step in enumerate(explanation.steps, 1)]
    body = text_block(lines or ["(no steps)"], size=TEXT_MM, width=MAX_WIDTH - 10)
    scale = min(1.0, (MAX_WIDTH - 10) / picture.width)
    framed = Drawing(picture.width * scale, picture.height * scale)
    framed.place(picture, 0, 0, scale)
    return [stack([_heading(instance, explanation), framed, body])]


def pages(instance: Any, explanation: Explanation) -> list[Drawing]:
    """The worked solution's pages (module docstring); `UsageError` when the puzzle has
    no pictures."""
    module = registry.picture(registry.puzzle_of(instance))
    items = [item for step in explanation.steps for item, _ in step.decided]
    on_grid = items and all(_cell(item) for item in items) \
        and getattr(instance, "rows", None) is not None
    if not on_grid:
        return _plan_pages(instance, explanation, module)
    return _grid_pages(instance, explanation, lambda: module.draw(instance))


def save(instance: Any, explanation: Explanation, path: str | Path, fmt: str) -> None:
    """Write the worked solution: an SVG of the pages stacked, or a PDF a page each."""
    drawn = pages(instance, explanation)
    if fmt == "pdf":
        data = pdf_pages(drawn)
    elif fmt == "svg":
        data = encode(drawn[0] if len(drawn) == 1 else stack(drawn, margin=0.0), "svg")
    else:
        raise UsageError(f"a worked solution is an SVG or a PDF, not {fmt!r}")
    write_bytes(path, data)
