"""Printable puzzle sheets laid out like a puzzle book: numbered puzzles, rules, solutions last.

What a page holds. A title line at the top and the page number at the foot
("page 2 of 5"); under the title, the rules of each kind of puzzle that
appears on the page for the first time, in a line or two (`Entry.rules`);
then `per_page` slots (1, 2, 4 or 6: one column for 1 and 2, two columns
for 4 and 6), each with its caption ("3 · Cave (Corral) 8x8 · hard": the
number, the puzzle's title, its board's size and its level) over its
picture. With `solutions`, the answers follow on the last pages under the
same numbers and captions, smaller (more to a page: `SOLUTIONS_PER_PAGE`),
a puzzle without one saying why ("no solution (proven)"). Paper is A4 or US
Letter (`PAPERS`), portrait.

How a puzzle meets its slot. Each picture is drawn for the room of its slot
(a picture that lays itself out, a plan's strip say, wraps to that width).
The puzzles that show a board (`canvas.Board`) on a page share one cell
size, the largest at which each of them fits its slot, but no larger than
`MAX_CELL` (a 4x4 board does not become a poster): each is drawn again with
its cells that size (a picture taking `cell`; its words keep their size),
or scaled to it (one that does not); other pictures are scaled to fit
their slot, never enlarged. A picture is big for a slot when a board would
get cells under `MIN_CELL` there (or under the least its own marks need,
`Board.least`: numbered arrows), or another picture would be shrunk under
`MIN_SCALE`, or most of its words under `MIN_WORDS` (a plan's strip that
its own layout already shrank counts): it goes on a page with fewer, larger
slots (4, 2, or 1: a page of its own, where it is as large as the page
allows), the page it comes to when its puzzles still fit such slots, else a
new one, which the puzzles after it share while they fit. Pages keep the
puzzles in their order.

Captions are `CAPTION_MM` high (10 pt) and never under `MIN_TEXT_MM` (8 pt):
a caption too long for its slot at that size is cut with "…". `layout`
returns the pages with where everything went (`Page`, `Slot`), so a test
can check that nothing overlaps and nothing leaves its slot; `pages` the
drawings, written as one PDF by `canvas.pdf_pages`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..graphics.canvas import POINTS_PER_MM, Drawing, text_width, walk
from ..graphics.layout import fit_size, text_block

__all__ = ["Entry", "Slot", "Page", "layout", "pages", "grid_of", "PAPERS", "PER_PAGE",
           "SOLUTIONS_PER_PAGE", "MARGIN", "MIN_CELL", "MAX_CELL", "MIN_TEXT_MM", "CAPTION_MM"]

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm, portrait
PER_PAGE = (1, 2, 4, 6)
SOLUTIONS_PER_PAGE = {1: 2, 2: 4, 4: 6, 6: 8}  # solutions are printed smaller: more to a page
MARGIN = 12.0          # mm round the page
TITLE_MM = 4.6         # the title line (13 pt)
HEADER = 11.0          # the band the title takes at the top
FOOTER = 8.0           # the band the page number takes at the foot
PAGE_NUMBER_MM = 3.2   # 9 pt
RULES_MM = 3.2         # the rules lines (9 pt)
CAPTION_MM = 3.5       # a caption (10 pt) ...
MIN_TEXT_MM = 8 / POINTS_PER_MM  # ... never under 8 pt
CAPTION_BAND = CAPTION_MM * 2.0  # the caption's band at the top of its slot
GAP = 7.0              # mm between slots, and under the rules
MIN_CELL = 6.0         # mm: a board's cells on a shared page are at least this ...
MAX_CELL = 12.0        # ... and at most this
MIN_SCALE = 0.8        # a picture without a board is shrunk no further on a shared page ...
MIN_WORDS = 2.5        # ... nor so far that most of its words print under 2.5 mm (7 pt)
SOLUTION_MIN_CELL = 4.0  # the same for the solutions, printed smaller
SOLUTION_MAX_CELL = 7.0
SOLUTION_MIN_SCALE = 0.65
SOLUTION_MIN_WORDS = 2.1  # 6 pt
GREY = "#555555"

Room = tuple[float, float]  # the width and height in mm a picture is drawn for


@dataclass(frozen=True)
class Entry:
    """One puzzle of a sheet: the words of its caption, its picture and its solution's
    (each drawn for a room of w x h mm), and its rules.

    - `title`, `level`, `name`: the caption's words ("Cave (Corral)", "hard", the file's
      own `# name:` or ""); the board's size comes from the picture;
    - `puzzle(room, cell)`, `solution(room, cell)`: the drawings for a room of w x h mm,
      the board's cells `cell` mm wide when it is not None and the picture can (`solution`
      None: `missing` says why there is none, "no solution (proven)", "no solution
      within 60 s");
    - `kind`, `rules`: which puzzle it is and its rules in a sentence or two, printed on
      the first page where the kind appears ("" : none).
    """

    title: str
    level: str
    puzzle: Callable[[Room, float | None], Drawing]
    solution: Callable[[Room, float | None], Drawing] | None = None
    missing: str = "no solution known"
    kind: str = ""
    rules: str = ""
    name: str = ""


@dataclass(frozen=True)
class Slot:
    """Where one puzzle went: its box (x, y, w, h) on the page, its caption (text and
    height), and its picture placed at (`at_x`, `at_y`) scaled by `scale` (None: the slot
    shows `note` instead)."""

    box: tuple[float, float, float, float]
    caption: str
    caption_size: float
    picture: Drawing | None
    at_x: float = 0.0
    at_y: float = 0.0
    scale: float = 1.0
    note: str = ""

    @property
    def cell(self) -> float | None:
        """The side in mm of the board's cells as printed (None: no board)."""
        board = self.picture.board if self.picture is not None else None
        return None if board is None else board.cell * self.scale


@dataclass(frozen=True)
class Page:
    """A page's drawing and where its parts are: the slots, and the boxes of the title,
    the rules (None: no rules on this page) and the page number."""

    drawing: Drawing
    slots: tuple[Slot, ...]
    header: tuple[float, float, float, float]
    rules: tuple[float, float, float, float] | None
    footer: tuple[float, float, float, float]


def grid_of(per_page: int) -> tuple[int, int]:
    """(columns, rows) of `per_page` slots on a portrait page: one column for 1 and 2, two
    for more (the slots of portrait paper are then closest to square).

    >>> [grid_of(n) for n in (1, 2, 4, 6, 8)]
    [(1, 1), (1, 2), (2, 2), (2, 3), (2, 4)]
    """
    cols = 1 if per_page <= 2 else 2
    return cols, math.ceil(per_page / cols)


@dataclass(frozen=True)
class _Frame:
    """One kind of page: its paper, its slots' grid and the board sizes it aims at."""

    paper: tuple[float, float]
    per_page: int
    min_cell: float
    max_cell: float
    min_scale: float
    min_words: float

    @property
    def content_width(self) -> float:
        return self.paper[0] - 2 * MARGIN

    def boxes(self, top: float, count: int) -> list[tuple[float, float, float, float]]:
        """The slot boxes of a page whose slots start at `top` (`count` slots: the page's
        `per_page`, or fewer, larger ones for a big picture)."""
        cols, rows = grid_of(count)
        bottom = self.paper[1] - MARGIN - FOOTER
        width = (self.content_width - (cols - 1) * GAP) / cols
        height = (bottom - top - (rows - 1) * GAP) / rows
        return [(MARGIN + (i % cols) * (width + GAP), top + (i // cols) * (height + GAP),
                 width, height) for i in range(count)]


def _room(box: tuple[float, float, float, float]) -> Room:
    """The room a slot's picture has: the slot under its caption band."""
    return box[2], box[3] - CAPTION_BAND


def _fit(drawing: Drawing, room: Room) -> float:
    """The largest scale at which `drawing` fits `room`."""
    return min(room[0] / drawing.width, room[1] / drawing.height)


@dataclass
class _Planned:
    """A page being planned: its entries (indices), the kinds whose rules it prints, and
    how many slots it has (`per_page`, or fewer for a big picture)."""

    members: list[int]
    new_kinds: list[str]
    count: int


def _rules_block(entries: Sequence[Entry], new_kinds: Sequence[str],
                 width: float) -> Drawing | None:
    """The rules of the kinds a page shows first, a paragraph each (None: none)."""
    rules = []
    for kind in new_kinds:
        entry = next(e for e in entries if e.kind == kind)
        rules.append(entry.rules)
    return text_block(rules, size=RULES_MM, width=width, spacing=1.35) if rules else None


def _top(frame: _Frame, rules: Drawing | None) -> float:
    """Where the slots start: under the title, and the rules when there are any."""
    top = MARGIN + HEADER
    return top + (rules.height + GAP * 0.6 if rules is not None else 0.0)


class _Pictures:
    """The entries' pictures (or their solutions'), each drawn once per room."""

    def __init__(self, entries: Sequence[Entry], answers: bool) -> None:
        self.entries, self.answers = entries, answers
        self.drawn: dict[tuple[int, Room, float | None], Drawing | None] = {}

    def __call__(self, index: int, room: Room, cell: float | None = None) -> Drawing | None:
        key = (index, (round(room[0], 3), round(room[1], 3)), cell)
        if key not in self.drawn:
            entry = self.entries[index]
            draw = entry.solution if self.answers else entry.puzzle
            self.drawn[key] = draw(room, cell) if draw is not None else None
        return self.drawn[key]


def _big(frame: _Frame, pictures: _Pictures, index: int, room: Room) -> bool:
    """Whether a picture needs more room than `room`: a board that does not fit it with
    cells of the frame's least size (or its own `least`), or another picture shrunk under
    `min_scale` or with most of its words under `min_words`."""
    drawing = pictures(index, room)
    if drawing is None:
        return False
    if drawing.board is None:
        scale = min(_fit(drawing, room), 1.0)
        return scale < frame.min_scale - 1e-9 \
            or _typical_text(drawing) * scale < frame.min_words - 1e-9
    wanted = max(frame.min_cell, drawing.board.least)
    least = pictures(index, room, wanted)
    if least.board is not None and abs(least.board.cell - wanted) < 1e-9:
        return _fit(least, room) < 1.0 - 1e-9  # drawn with such cells: does it fit?
    return _fit(drawing, room) * drawing.board.cell < wanted - 1e-9  # scaled


def _typical_text(drawing: Drawing) -> float:
    """The height in mm of the words in `drawing` as drawn, the median of its texts (inf:
    none): the size most of what it says is read at, a small mark aside."""
    sizes = [placed.text_size for placed in walk(drawing) if placed.shape.kind == "text"]
    return statistics.median_low(sizes) if sizes else math.inf


def _plan(entries: Sequence[Entry], frame: _Frame, drawn: _Pictures) -> list[_Planned]:
    """The pages: entries in order, `per_page` to a page; an entry too big for a slot of
    such a page starts a page with fewer, larger slots (a page of its own if need be), and
    the entries after it join that page while they fit it (module docstring). Each page's
    rules are those of the kinds it shows first."""
    seen: set[str] = set()
    planned: list[_Planned] = []
    counts = [n for n in sorted(set(PER_PAGE) | {frame.per_page}, reverse=True)
              if n <= frame.per_page]

    def kinds_of(members: list[int]) -> list[str]:
        found: list[str] = []
        for i in members:
            kind = entries[i].kind
            if not drawn.answers and entries[i].rules and kind not in seen \
                    and kind not in found:
                found.append(kind)
        return found

    def fits(members: list[int], count: int) -> bool:
        top = _top(frame, _rules_block(entries, kinds_of(members), frame.content_width))
        boxes = frame.boxes(top, count)
        return not any(_big(frame, drawn, i, _room(box))
                       for i, box in zip(members, boxes, strict=False))

    page: _Planned | None = None
    for index in range(len(entries)):
        if page is not None:
            # the page as it is, or with fewer, larger slots when that takes this one too
            joined = [*page.members, index]
            count = next((n for n in counts if len(joined) <= n <= page.count
                          and fits(joined, n)), None)
            if count is not None:
                page.members, page.count = joined, count
                continue
        if page is not None:
            page.new_kinds = kinds_of(page.members)
            planned.append(page)
            seen.update(page.new_kinds)
        count = next((n for n in counts if fits([index], n)), 1)
        page = _Planned([index], [], count)
    if page is not None:
        page.new_kinds = kinds_of(page.members)
        planned.append(page)
    return planned


def _caption(number: int, entry: Entry, drawing: Drawing | None, width: float) -> tuple[str,
                                                                                       float]:
    """"3 · Cave (Corral) 8x8 · hard" and its size: `CAPTION_MM`, smaller to fit `width`
    but not under `MIN_TEXT_MM`, cut with "…" when even that is too wide."""
    board = drawing.board if drawing is not None else None
    what = entry.title + (f" {board.rows}x{board.cols}" if board is not None else "")
    words = [str(number), *([entry.name] if entry.name else []), what,
             *([entry.level] if entry.level else [])]
    text = " · ".join(words)
    size = max(fit_size(text, width, CAPTION_MM, bold=True), MIN_TEXT_MM)
    while text_width(text, size, bold=True) > width and len(text) > 2:
        text = text[:-2] + "…"
    return text, size


def _common_cell(frame: _Frame, pictures: _Pictures,
                 placed: list[tuple[int, tuple[float, float, float, float]]]) -> float:
    """The page's one cell size: the largest at which every board fits its slot, at most
    the frame's `max_cell`. A board drawn again at a size keeps its words at their size,
    so it may need a little more room than its scaled first drawing: the size is lowered
    until every redrawn board fits (a few rounds), but not under the least cell when
    every board fits with that."""
    boards = [(i, _room(box)) for i, box in placed
              if (d := pictures(i, _room(box))) is not None and d.board is not None]
    if not boards:
        return frame.max_cell
    common = min([frame.max_cell, *(_fit(pictures(i, room), room) * pictures(i, room).board.cell
                                    for i, room in boards)])
    floor = 0.0  # the cell every board is known to fit with, and wants at least
    if not any(_big(frame, pictures, i, room) for i, room in boards):
        wanted = max(frame.min_cell, *(pictures(i, room).board.least for i, room in boards))
        floor = wanted if all(_fit(pictures(i, room, wanted), room) >= 1.0 - 1e-9
                              for i, room in boards) else frame.min_cell
    common = max(common, floor)
    for _ in range(8):
        worst = min(_fit(pictures(i, room, common), room) for i, room in boards)
        if worst >= 1.0 - 1e-9:
            break
        if common * worst < floor:
            return floor
        common *= worst * 0.999
    return common


def _slots(entries: Sequence[Entry], page: _Planned, frame: _Frame, top: float,
           pictures: _Pictures) -> list[Slot]:
    """Each member's slot: caption, picture drawn for its room (a board at the page's
    common cell size) and scaled into it (module docstring)."""
    placed = list(zip(page.members, frame.boxes(top, page.count), strict=False))
    common = _common_cell(frame, pictures, placed)
    slots = []
    for index, box in placed:
        x, y, w, _ = box
        drawing = pictures(index, _room(box))
        if drawing is not None and drawing.board is not None:
            drawing = pictures(index, _room(box), common)
        caption, size = _caption(index + 1, entries[index], drawing, w)
        if drawing is None:
            slots.append(Slot(box, caption, size, None, note=entries[index].missing))
            continue
        fit = _fit(drawing, _room(box))
        scale = min(fit, common / drawing.board.cell) if drawing.board is not None \
            else min(fit, 1.0)
        slots.append(Slot(box, caption, size, drawing, x + (w - drawing.width * scale) / 2,
                          y + CAPTION_BAND, scale))
    return slots


def _draw_page(frame: _Frame, title: str, number: int, total: int, slots: Sequence[Slot],
               rules: Drawing | None) -> Page:
    width, height = frame.paper
    page = Drawing(width, height, background="#ffffff")
    title_size = max(fit_size(title, frame.content_width, TITLE_MM, bold=True), MIN_TEXT_MM)
    page.text(MARGIN, MARGIN + TITLE_MM * 0.6, title, size=title_size, anchor="start",
              bold=True)
    rule = 0.3  # the line under the title, its round ends inside the margins
    page.line(MARGIN + rule / 2, MARGIN + HEADER - 3, width - MARGIN - rule / 2,
              MARGIN + HEADER - 3, stroke="#999999", width=rule)
    rules_box = None
    if rules is not None:
        page.place(rules, MARGIN, MARGIN + HEADER)
        rules_box = (MARGIN, MARGIN + HEADER, rules.width, rules.height)
    for slot in slots:
        x, y, w, h = slot.box
        page.text(x, y + CAPTION_MM * 0.7, slot.caption, size=slot.caption_size,
                  anchor="start", bold=True)
        if slot.picture is None:
            page.text(x + w / 2, y + CAPTION_BAND + (h - CAPTION_BAND) / 3, slot.note,
                      size=max(fit_size(slot.note, w, CAPTION_MM), MIN_TEXT_MM), fill=GREY)
        else:
            page.place(slot.picture, slot.at_x, slot.at_y, slot.scale)
    label = f"page {number} of {total}"
    foot = height - MARGIN - FOOTER / 2 + 2
    page.text(width / 2, foot, label, size=PAGE_NUMBER_MM, fill=GREY)
    return Page(page, tuple(slots), (MARGIN, MARGIN, frame.content_width, HEADER - 3),
                rules_box, (MARGIN, height - MARGIN - FOOTER, frame.content_width, FOOTER))


def layout(entries: Sequence[Entry], per_page: int = 4, solutions: bool = False,
           title: str = "twinsolve puzzles", paper: str = "a4") -> list[Page]:
    """The sheet's pages and where everything on them went (module docstring)."""
    if not entries:
        raise ValueError("a sheet needs at least one puzzle")
    if per_page not in PER_PAGE:
        raise ValueError(f"per_page must be one of {', '.join(map(str, PER_PAGE))}, "
                         f"got {per_page}")
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    parts = [(title, _Frame(PAPERS[paper], per_page, MIN_CELL, MAX_CELL, MIN_SCALE, MIN_WORDS),
              _Pictures(entries, False))]
    if solutions:
        smaller = _Frame(PAPERS[paper], SOLUTIONS_PER_PAGE[per_page], SOLUTION_MIN_CELL,
                         SOLUTION_MAX_CELL, SOLUTION_MIN_SCALE, SOLUTION_MIN_WORDS)
        parts.append((f"{title}: solutions", smaller, _Pictures(entries, True)))
    planned = [(heading, frame, pictures, page) for heading, frame, pictures in parts
               for page in _plan(entries, frame, pictures)]
    result = []
    for number, (heading, frame, pictures, page) in enumerate(planned, 1):
        rules = _rules_block(entries, page.new_kinds, frame.content_width)
        slots = _slots(entries, page, frame, _top(frame, rules), pictures)
        result.append(_draw_page(frame, heading, number, len(planned), slots, rules))
    return result


def pages(entries: Sequence[Entry], per_page: int = 4, solutions: bool = False,
          title: str = "twinsolve puzzles", paper: str = "a4") -> list[Drawing]:
    """The sheet's pages as drawings (module docstring)."""
    return [page.drawing for page in layout(entries, per_page, solutions, title, paper)]
