"""Layouts on `graphics.canvas` drawings: text that fits, captioned frames, strips in rows.

A picture of a plan is a strip of small drawings, one per state, each with a
caption naming the move that led to it. `wrap` lays such a strip out left to
right and breaks it into rows, like words into lines; when the rows would be
taller than the page allows it shrinks every frame by the same factor and
wraps again (smaller frames fit more to a row), until the strip fits.
`plan_strip` is the strip of a plan: the start, then the state after each
step, a long plan cut to its first and last steps around a "… N more steps …"
note (`core.drawing.shown`, the rule the text pictures follow). `stack` puts
blocks (a heading, a strip) under one another on a page with a margin. Pages
made this way stay within `MAX_WIDTH` x `MAX_HEIGHT` mm when their blocks
are made for `MAX_WIDTH - 2 * margin`: `headed_page` and `plan_page` are
the two pages the sequence puzzles draw (facts over a picture, facts over a
plan's strip), their blocks `BODY_WIDTH` wide at most.

A picture may be asked for a narrower or shorter page than `MAX_WIDTH` x
`MAX_HEIGHT` (a slot of a printed sheet): `headed_page` and `plan_page`
take the page's `width` and `height`, so their text wraps and their strip
rows break for the room there is, and `body_width(width)` is the widest
block such a page holds. `key` is a picture's key: small samples, each
followed by what it means, wrapped into rows like a strip.

Grid puzzles draw cells of a fixed side, smaller when the grid would not
fit the page: `fit_cell` is that side, and a `CellGrid` says where each cell
of such a grid lies on the page. A grid too large to draw cell by cell
(`core.drawing.too_big`) is one line of text on a page of its own,
`line_page`.

Text is measured without a font library: `text_width` sums per-character
widths of DejaVu Sans (the canvas font) as fractions of the text height,
each rounded up to the widest of its class (narrow, digits and most lower
case, capitals, the widest), so a caption sized with `fit_size` does not
spill over its box.

>>> strip = wrap([Drawing(50, 20) for _ in range(7)], max_width=120, gap=5)
>>> (strip.width, strip.height), len(strip.shapes)  # rows of 2 + 2 + 2 + 1, 4 mm apart
((105.0, 92.0), 7)
>>> round(text_width("fill 0", 3.0), 2)
7.5
>>> fit_cell(10, 40, 8.0, margin=3.0)  # 40 columns of 8 mm would not fit 180 - 2 * 3 mm
4.35
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.drawing import Gap, shown
from .canvas import Drawing, text_width

__all__ = ["MAX_WIDTH", "MAX_HEIGHT", "PAGE_MARGIN", "PAGE_GAP", "BODY_WIDTH", "text_width",
           "fit_size", "fit_cell", "CellGrid", "line_page", "text_block", "captioned", "note",
           "wrap", "plan_strip", "stack", "headed_page", "plan_page", "key", "swatch",
           "body_width"]

MAX_WIDTH = 180.0    # mm: the widest page a picture may be
MAX_HEIGHT = 250.0   # mm: the tallest
PAGE_MARGIN = 5.0    # mm round a page of `stack`, `headed_page` and `plan_page`
PAGE_GAP = 4.0       # mm between its blocks
BODY_WIDTH = MAX_WIDTH - 2 * PAGE_MARGIN  # the widest block such a page holds
_SHRINK = 0.92       # each retry of `wrap` shrinks the frames by this factor
_SMALLEST = 0.02     # ... down to this scale at most
READABLE = 0.8       # a strip laid out for a given room is shrunk no further (`plan_page`)


def fit_size(text: str, width: float, size: float, bold: bool = False) -> float:
    """`size`, or less so that `text` fits in `width` mm."""
    natural = text_width(text, size, bold)
    return size if natural <= width else size * width / natural


def fit_cell(rows: int, cols: int, cell: float, *, margin: float = 0.0, beside: float = 0.0,
             below: float = 0.0, max_width: float = MAX_WIDTH,
             max_height: float = MAX_HEIGHT) -> float:
    """`cell`, or less so that a `rows` x `cols` grid of square cells that side fits the page.

    The page is at most `max_width` x `max_height` mm and keeps `margin` mm
    all round; `beside` mm more across and `below` mm more down (a legend,
    room for marks round the grid) are taken from it first.
    """
    return min(cell, (max_width - 2 * margin - beside) / cols,
               (max_height - 2 * margin - below) / rows)


@dataclass(frozen=True)
class CellGrid:
    """Where a `rows` x `cols` grid of square cells lies on a page, in mm: the side of a
    cell and the grid's top left corner (x, y).

    >>> grid = CellGrid(2, 3, 8.0, x=3.0, y=3.0)
    >>> grid.corner(1, 2), grid.centre(0, 0), (grid.width, grid.height)
    ((19.0, 11.0), (7.0, 7.0), (24.0, 16.0))
    """

    rows: int
    cols: int
    cell: float
    x: float = 0.0
    y: float = 0.0

    @property
    def width(self) -> float:
        """The grid's own width, without what lies round it."""
        return self.cols * self.cell

    @property
    def height(self) -> float:
        return self.rows * self.cell

    def corner(self, r: int, c: int) -> tuple[float, float]:
        """The top left corner of the cell in row `r`, column `c` (`rows`, `cols`: the far
        corner of the grid)."""
        return self.x + c * self.cell, self.y + r * self.cell

    def centre(self, r: int, c: int) -> tuple[float, float]:
        x, y = self.corner(r, c)
        return x + self.cell / 2, y + self.cell / 2


def line_page(line: str, *, size: float, margin: float, max_width: float = MAX_WIDTH,
              background: str | None = "#ffffff") -> Drawing:
    """A page holding `line` alone, left aligned, `margin` mm round it: what a grid too large
    to draw is (`core.drawing.grid_summary`). The text is `size` mm high, or less so that
    the page is at most `max_width` wide.

    >>> page = line_page("200x200 grid, too large to draw", size=3.0, margin=3.0)
    >>> page.count("text"), page.height, page.width == text_width(page.shapes[0].text, 3.0) + 6
    (1, 9.0, True)
    """
    size = fit_size(line, max_width - 2 * margin, size)
    page = Drawing(min(max_width, text_width(line, size) + 2 * margin), size + 2 * margin,
                   background=background)
    return page.text(margin, margin + size / 2, line, size=size, anchor="start")


def _broken(line: str, width: float, size: float, bold: bool) -> list[str]:
    """`line` broken at spaces into pieces that fit in `width` mm, the pieces after the
    first indented by `size` (a word too long alone stays whole)."""
    pieces = [""]
    for word in line.split(" "):
        joined = f"{pieces[-1]} {word}" if pieces[-1] else word
        room = width - (size if len(pieces) > 1 else 0.0)
        if pieces[-1] and text_width(joined, size, bold) > room:
            pieces.append(word)
        else:
            pieces[-1] = joined
    return pieces


def text_block(lines: Sequence[str], *, size: float = 3.5, width: float = MAX_WIDTH,
               bold_first: bool = False, spacing: float = 1.5) -> Drawing:
    """Lines of text, left aligned, one under another, at most `width` mm wide.

    A line too long is broken at spaces, its further pieces indented by one
    text height; a word too long alone is set smaller. Lines are `spacing`
    times `size` apart; the block is as wide as its longest line.
    """
    if not lines:
        raise ValueError("a text block needs at least one line")
    rows: list[tuple[str, bool, float]] = []  # text, bold, indent
    for i, line in enumerate(lines):
        bold = bold_first and i == 0
        for k, piece in enumerate(_broken(line, width, size, bold)):
            rows.append((piece, bold, size if k else 0.0))
    sizes = [fit_size(text, width - indent, size, bold) for text, bold, indent in rows]
    widest = max(indent + text_width(text, s, bold)
                 for (text, bold, indent), s in zip(rows, sizes, strict=True))
    block = Drawing(min(max(widest, 1.0), width), size * spacing * len(rows))
    for i, ((text, bold, indent), s) in enumerate(zip(rows, sizes, strict=True)):
        block.text(indent, size * spacing * (i + 0.5), text, size=s, anchor="start", bold=bold)
    return block


def captioned(drawing: Drawing, caption: str, *, size: float = 2.8, pad: float = 1.0,
              fill: str = "#000000", bold: bool = False) -> Drawing:
    """`drawing` with `caption` centred above it; as wide as the wider of the two."""
    width = max(drawing.width, text_width(caption, size, bold) + 2 * pad)
    band = size + 2 * pad
    frame = Drawing(width, band + drawing.height)
    frame.text(width / 2, band / 2, caption, size=size, fill=fill, bold=bold)
    frame.place(drawing, (width - drawing.width) / 2, band)
    return frame


def note(text: str, width: float, height: float, *, size: float = 2.8,
         fill: str = "#666666") -> Drawing:
    """A `width` x `height` frame holding `text` in its middle (set smaller if need be)."""
    frame = Drawing(width, height)
    frame.text(width / 2, height / 2, text, size=fit_size(text, width, size), fill=fill)
    return frame


@dataclass(frozen=True)
class _Rows:
    rows: tuple[tuple[int, ...], ...]  # item indices per row
    width: float
    height: float


def _rows(items: Sequence[Drawing], scale: float, max_width: float, gap: float,
          row_gap: float) -> _Rows:
    """Greedy line breaking: as many items in a row as fit in `max_width`."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for index, item in enumerate(items):
        width = item.width * scale
        if rows[-1] and used + gap + width > max_width:
            rows.append([])
            used = 0.0
        used += (gap if rows[-1] else 0.0) + width
        rows[-1].append(index)
    widths = [sum(items[i].width * scale for i in row) + gap * (len(row) - 1) for row in rows]
    heights = [max(items[i].height * scale for i in row) for row in rows]
    return _Rows(tuple(map(tuple, rows)), max(widths), sum(heights) + row_gap * (len(rows) - 1))


def wrap(items: Sequence[Drawing], *, max_width: float = MAX_WIDTH,
         max_height: float = MAX_HEIGHT, gap: float = 3.0, row_gap: float = 4.0,
         least: float = _SMALLEST) -> Drawing:
    """The items left to right in rows at most `max_width` wide, each row under the last.

    Every item keeps its proportions; all are shrunk by one factor when the
    rows would be taller than `max_height` (or an item wider than
    `max_width`), but not below `least` (the strip is then taller than
    `max_height`). Items in a row share its top edge; gaps are not shrunk.
    """
    if not items:
        raise ValueError("a strip needs at least one drawing")
    scale = min(1.0, max_width / max(item.width for item in items))
    layout = _rows(items, scale, max_width, gap, row_gap)
    while layout.height > max_height and scale * _SHRINK >= min(least, scale):
        scale *= _SHRINK
        layout = _rows(items, scale, max_width, gap, row_gap)
    strip = Drawing(layout.width, layout.height)
    top = 0.0
    for row in layout.rows:
        left = 0.0
        for index in row:
            strip.place(items[index], left, top, scale)
            left += items[index].width * scale + gap
        top += max(items[i].height * scale for i in row) + row_gap
    return strip


def plan_strip(steps: int, frame: Callable[[int], Drawing], caption: Callable[[int], str], *,
               noun: str = "steps", size: float = 2.8, max_width: float = MAX_WIDTH,
               max_height: float = MAX_HEIGHT, gap: float = 3.0,
               row_gap: float = 4.0, least: float = _SMALLEST) -> Drawing:
    """A wrapped strip of the states of a `steps`-step plan, each with its caption.

    `frame(k)` draws the state after k steps (0 is the start) and `caption(k)`
    names it (say "start", "3. fill 0"). A plan longer than
    `core.drawing.SEQUENCE_LIMIT` shows the start, its first and last steps,
    and a note for the ones between, as tall as the frames.
    """
    frames: list[Drawing | str] = [captioned(frame(0), caption(0), size=size)]
    for index in shown(steps):
        if isinstance(index, Gap):
            frames.append(index.label(noun))
        else:
            frames.append(captioned(frame(index + 1), caption(index + 1), size=size))
    tallest = max(f.height for f in frames if isinstance(f, Drawing))
    items = [f if isinstance(f, Drawing) else note(f, text_width(f, size) + 4, tallest, size=size)
             for f in frames]
    return wrap(items, max_width=max_width, max_height=max_height, gap=gap, row_gap=row_gap,
                least=least)


def stack(blocks: Sequence[Drawing], *, gap: float = 4.0, margin: float = 5.0,
          background: str | None = "#ffffff") -> Drawing:
    """The blocks one under another, left aligned, with `margin` mm all round."""
    if not blocks:
        raise ValueError("a stack needs at least one drawing")
    width = max(block.width for block in blocks) + 2 * margin
    height = sum(block.height for block in blocks) + gap * (len(blocks) - 1) + 2 * margin
    page = Drawing(width, height, background=background)
    top = margin
    for block in blocks:
        page.place(block, margin, top)
        top += block.height + gap
    return page


def body_width(width: float | None = None, margin: float = PAGE_MARGIN) -> float:
    """The widest block a page `width` mm wide (None: `MAX_WIDTH`) holds inside its margin.

    >>> body_width(), body_width(90)
    (170.0, 80.0)
    """
    return min(width or MAX_WIDTH, MAX_WIDTH) - 2 * margin


def headed_page(lines: Sequence[str], body: Drawing, *, margin: float = PAGE_MARGIN,
                gap: float = PAGE_GAP, width: float | None = None,
                size: float = 3.5) -> Drawing:
    """`lines` as a text block (the first bold, `size` mm high) over `body`, `margin` mm
    round a page at most `width` mm wide (None: `MAX_WIDTH`).

    The text is at most `body_width(width)` wide; so should `body` be.
    """
    heading = text_block(lines, size=size, width=body_width(width, margin), bold_first=True)
    return stack([heading, body], gap=gap, margin=margin)


def plan_page(lines: Sequence[str], steps: int, frame: Callable[[int], Drawing],
              caption: Callable[[int], str], *, noun: str = "steps",
              margin: float = PAGE_MARGIN, gap: float = PAGE_GAP, width: float | None = None,
              height: float | None = None, size: float = 3.5,
              caption_size: float = 2.8) -> Drawing:
    """`lines` as a text block (the first bold, `size` mm high) over the `plan_strip` of a
    `steps`-step plan (captions `caption_size` mm high), the strip shrunk to the room the
    text leaves on a page at most `width` x `height` mm (None: `MAX_WIDTH` x
    `MAX_HEIGHT`). A strip laid out for a given `height` (a sheet's slot) is shrunk no
    further than `READABLE`: the page is then taller than asked, and the caller scales
    it or finds it more room, rather than getting frames too small to read."""
    inner = body_width(width, margin)
    tallest = min(height or MAX_HEIGHT, MAX_HEIGHT) - 2 * margin
    heading = text_block(lines, size=size, width=inner, bold_first=True)
    strip = plan_strip(steps, frame, caption, noun=noun, size=caption_size, max_width=inner,
                       max_height=max(tallest - heading.height - gap, 10.0),
                       least=_SMALLEST if height is None else READABLE)
    return stack([heading, strip], gap=gap, margin=margin)


def swatch(fill: str | None, *, side: float = 4.0, stroke: str | None = "#555555",
           width: float = 0.25) -> Drawing:
    """A `side` mm square sample of a colour for a `key`."""
    sample = Drawing(side, side)
    return sample.rect(width / 2, width / 2, side - width, side - width, fill=fill,
                       stroke=stroke, width=width)


def key(entries: Sequence[tuple[Drawing, str]], *, size: float = 3.0,
        width: float = MAX_WIDTH, gap: float = 4.0) -> Drawing:
    """A picture's key: each sample drawing followed by what it means, in rows at most
    `width` mm wide (`wrap`), each entry's words `size` mm high (smaller when one entry
    alone would be wider than `width`).

    >>> legend = key([(swatch("#ff0000"), "a red cell"), (swatch(None), "an empty one")],
    ...              width=40)
    >>> legend.width <= 40, legend.count("rect"), legend.count("text")
    (True, 2, 2)
    """
    if not entries:
        raise ValueError("a key needs at least one entry")
    items = []
    for sample, words in entries:
        room = width - sample.width - size * 0.5
        text = fit_size(words, room, size)
        tall = max(sample.height, size * 1.4)
        item = Drawing(sample.width + size * 0.5 + text_width(words, text), tall)
        item.place(sample, 0.0, (tall - sample.height) / 2)
        item.text(sample.width + size * 0.5, tall / 2, words, size=text, anchor="start")
        items.append(item)
    return wrap(items, max_width=width, gap=gap, row_gap=size * 0.4)
