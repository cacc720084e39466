"""The layouts of `graphics.layout`: text measured against the font, strips wrapped to a page.

- `text_width` is never below the real advance of DejaVu Sans (read with
  matplotlib's FreeType binding), in either weight, and not wildly above it.
- `wrap` keeps every item once, in reading order, never wider or taller than
  asked (random item sizes), breaks rows greedily and shrinks by one factor.
- `plan_strip` draws the start and every step of a short plan, the head and
  tail of a long one around one note, captions as asked.
- `captioned`, `note`, `text_block` (long lines broken at spaces) and `stack`
  keep their sizes and margins.
- `fit_cell` keeps a grid (with its margin and the room asked beside and
  below) on the page, at the asked side when it fits and else filling the
  page along the tight side; `line_page` is one line that fits the page.
- `headed_page` and `plan_page` put the facts (the first line bold) over the
  picture or the strip, within the page however long the plan.
"""

from __future__ import annotations

import random
import string

import pytest

from twinsolve.core.drawing import HEAD, SEQUENCE_LIMIT, TAIL
from twinsolve.graphics import canvas
from twinsolve.graphics.canvas import Drawing
from twinsolve.graphics.layout import (
    BODY_WIDTH,
    MAX_HEIGHT,
    MAX_WIDTH,
    PAGE_GAP,
    PAGE_MARGIN,
    READABLE,
    body_width,
    captioned,
    fit_cell,
    fit_size,
    headed_page,
    key,
    line_page,
    note,
    plan_page,
    plan_strip,
    stack,
    swatch,
    text_block,
    text_width,
    wrap,
)

SYMBOLS = "…→·−×♚♛♜♝♞♟"


def placed(drawing: Drawing) -> list[tuple[float, float, float, Drawing]]:
    """(x, y, scale, drawing) of each drawing placed directly in `drawing`."""
    return [(*s.points[0], s.size[0], s.drawing) for s in drawing.shapes if s.kind == "place"]


def texts(drawing: Drawing) -> list[str]:
    found = []
    for shape in drawing.shapes:
        if shape.kind == "text":
            found.append(shape.text)
        elif shape.kind == "place":
            found += texts(shape.drawing)
    return found


# ---------------------------------------------------------------- measuring text

@pytest.fixture(scope="module")
def advance():
    """The real advance width in em of a character of the canvas font, by weight."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    fonts = {}
    for bold in (False, True):
        prop = font_manager.FontProperties(family=canvas.FONT,
                                           weight="bold" if bold else "normal")
        fonts[bold] = FT2Font(font_manager.findfont(prop, fallback_to_default=False))
        fonts[bold].set_size(100, 72)

    def width(text: str, bold: bool) -> float:
        return sum(fonts[bold].load_char(ord(ch)).linearHoriAdvance for ch in text) / 65536 / 100
    return width


@pytest.mark.parametrize("bold", [False, True])
def test_text_width_is_never_below_the_font(advance, bold):
    for char in string.printable[:95] + SYMBOLS:
        assert text_width(char, 1.0, bold) >= advance(char, bold), repr(char)


@pytest.mark.parametrize("text", ["12. pour 0→1", "start", "… 499,990 more steps …",
                                  "goal: some jug holds exactly 4", "3. Nxb5", "+104,729"])
def test_text_width_of_captions_is_close_to_the_font(advance, text):
    assert 1.0 <= text_width(text, 1.0) / advance(text, False) < 1.35


def test_fit_size_shrinks_only_what_does_not_fit():
    assert fit_size("fill 0", 100, 3.0) == 3.0
    size = fit_size("a rather long caption", 20, 3.0)
    assert size < 3.0 and text_width("a rather long caption", size) == pytest.approx(20)


@pytest.mark.parametrize("seed", range(40))
def test_a_fitted_grid_stays_on_its_page_and_is_as_large_as_it_may_be(seed):
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 40), rng.randint(1, 40)
    margin, beside, below = rng.uniform(0, 10), rng.uniform(0, 20), rng.uniform(0, 60)
    limit_w, limit_h = rng.uniform(60, 180), rng.uniform(80, 250)
    cell = fit_cell(rows, cols, 8.0, margin=margin, beside=beside, below=below,
                    max_width=limit_w, max_height=limit_h)
    width = cols * cell + 2 * margin + beside
    height = rows * cell + 2 * margin + below
    assert 0 < cell <= 8.0 and width <= limit_w + 1e-9 and height <= limit_h + 1e-9
    assert cell == 8.0 or max(width - limit_w, height - limit_h) == pytest.approx(0, abs=1e-9)


def test_a_fitted_grid_keeps_its_cell_when_there_is_room():
    assert fit_cell(5, 5, 8.0, margin=3.0) == 8.0
    assert fit_cell(100, 10, 8.0, margin=3.0) == pytest.approx((MAX_HEIGHT - 6) / 100)
    assert fit_cell(10, 100, 8.0, margin=3.0, beside=4.0) == pytest.approx((MAX_WIDTH - 10) / 100)


@pytest.mark.parametrize("words", [3, 12, 60])
def test_a_line_page_holds_its_line_alone_within_the_page(words):
    line = " ".join(["150x150 grid, too large to draw"] * words)
    page = line_page(line, size=3.0, margin=3.0)
    (text,) = page.shapes
    assert text.kind == "text" and text.text == line and text.anchor == "start"
    assert text.points[0] == (3.0, 3.0 + text.size[0] / 2) and page.background == "#ffffff"
    assert page.width <= MAX_WIDTH and page.height == pytest.approx(text.size[0] + 6)
    assert 3.0 + text_width(line, text.size[0]) <= page.width - 3.0 + 1e-9  # the line fits
    assert (text.size[0] == 3.0) == (text_width(line, 3.0) <= MAX_WIDTH - 6)


# ---------------------------------------------------------------- wrapping

def reading_order(strip: Drawing) -> bool:
    spots = [(y, x) for x, y, _, _ in placed(strip)]
    return spots == sorted(spots)


def test_rows_break_where_the_next_item_would_not_fit():
    strip = wrap([Drawing(50, 20) for _ in range(7)], max_width=120, gap=5, row_gap=4)
    assert [(x, y) for x, y, _, _ in placed(strip)] == [
        (0, 0), (55, 0), (0, 24), (55, 24), (0, 48), (55, 48), (0, 72)]
    assert (strip.width, strip.height) == (105, 92)


@pytest.mark.parametrize("seed", range(40))
def test_a_strip_never_leaves_its_page_and_keeps_every_item_in_order(seed):
    rng = random.Random(seed)
    items = [Drawing(rng.uniform(5, 220), rng.uniform(5, 120)) for _ in range(rng.randint(1, 45))]
    limit_w, limit_h = rng.uniform(60, 180), rng.uniform(60, 250)
    strip = wrap(items, max_width=limit_w, max_height=limit_h)
    assert strip.width <= limit_w + 1e-9 and strip.height <= limit_h + 1e-9
    spots = placed(strip)
    assert [d for *_, d in spots] == items and reading_order(strip)
    assert len({scale for _, _, scale, _ in spots}) == 1  # one factor for all
    for x, y, scale, item in spots:
        assert x + item.width * scale <= strip.width + 1e-9
        assert y + item.height * scale <= strip.height + 1e-9


def test_a_strip_too_tall_is_shrunk_and_one_too_wide_scaled_to_fit():
    tall = wrap([Drawing(40, 40) for _ in range(30)], max_width=100, max_height=100)
    assert tall.height <= 100 and placed(tall)[0][2] < 0.5
    wide = wrap([Drawing(400, 10)], max_width=100)
    assert placed(wide)[0][2] == pytest.approx(0.25) and wide.width == pytest.approx(100)
    same = wrap([Drawing(40, 40)])
    assert placed(same)[0][2] == 1.0


def test_empty_layouts_are_refused():
    for empty in (lambda: wrap([]), lambda: stack([]), lambda: text_block([])):
        with pytest.raises(ValueError):
            empty()


# ---------------------------------------------------------------- plans

def frame(k: int) -> Drawing:
    return Drawing(20, 15 if k % 2 else 25)


def caption(k: int) -> str:
    return f"{k}. step" if k else "start"


@pytest.mark.parametrize("steps", [0, 1, 7, SEQUENCE_LIMIT])
def test_a_short_plan_draws_every_state(steps):
    strip = plan_strip(steps, frame, caption)
    assert texts(strip) == ["start", *(f"{k}. step" for k in range(1, steps + 1))]
    assert strip.width <= MAX_WIDTH and strip.height <= MAX_HEIGHT


@pytest.mark.parametrize("steps", [SEQUENCE_LIMIT + 1, 500_000])
def test_a_long_plan_draws_its_head_and_tail_around_one_note(steps):
    asked = []

    def watched(k: int) -> Drawing:
        asked.append(k)
        return frame(k)

    strip = plan_strip(steps, watched, caption, noun="moves")
    gap = f"… {steps - HEAD - TAIL:,} more moves …"
    heads = [f"{k}. step" for k in range(1, HEAD + 1)]
    tails = [f"{k}. step" for k in range(steps - TAIL + 1, steps + 1)]
    assert texts(strip) == ["start", *heads, gap, *tails]
    assert asked == [0, *range(1, HEAD + 1), *range(steps - TAIL + 1, steps + 1)]
    items = [d for *_, d in placed(strip)]
    assert items[HEAD + 1].height == max(d.height for d in items)  # the note: as tall as any


def test_captioned_frames_keep_the_drawing_whole_under_the_caption():
    inner = Drawing(10, 30)
    framed = captioned(inner, "a caption wider than ten", size=3.0)
    ((x, y, scale, drawing),) = placed(framed)
    assert drawing is inner and scale == 1.0 and y > 3.0
    assert framed.width >= text_width("a caption wider than ten", 3.0)
    assert x == pytest.approx((framed.width - 10) / 2) and framed.height == y + 30
    assert captioned(Drawing(80, 5), "x").width == 80


def test_note_text_block_and_stack_keep_their_sizes():
    gap = note("… 9 more steps …", 12, 30)
    assert (gap.width, gap.height) == (12, 30)
    assert text_width("… 9 more steps …", gap.shapes[0].size[0]) <= 12 + 1e-9
    long = "a line much too long for forty millimetres of page"
    block = text_block(["short", long, "unbreakablewordtoolongforforty"], width=40, size=3.5)
    rows = [(s.points[0][0], s.text, s.size[0]) for s in block.shapes]
    assert rows[0] == (0, "short", 3.5) and rows[-1][1] == "unbreakablewordtoolongforforty"
    broken = rows[1:-1]
    assert len(broken) > 1 and " ".join(text for _, text, _ in broken) == long
    assert [x for x, _, _ in broken] == [0] + [3.5] * (len(broken) - 1)  # then indented
    assert all(x + text_width(text, size) <= 40 for x, text, size in rows)
    assert [size < 3.5 for *_, size in rows] == [False] * (len(rows) - 1) + [True]
    assert block.width <= 40 and block.height == pytest.approx(3.5 * 1.5 * len(rows))
    page = stack([Drawing(100, 20), Drawing(60, 50)], gap=4, margin=5)
    assert (page.width, page.height) == (110, 20 + 4 + 50 + 10) and page.background == "#ffffff"
    assert [(x, y) for x, y, _, _ in placed(page)] == [(5, 5), (5, 29)]


# ---------------------------------------------------------------- pages

def test_a_headed_page_puts_the_facts_in_bold_over_the_picture():
    body = Drawing(BODY_WIDTH, 60)
    page = headed_page(["goal: one", "rules: two"], body)
    (hx, hy, _, heading), (bx, by, _, drawing) = placed(page)
    assert drawing is body and (hx, hy, bx) == (PAGE_MARGIN, PAGE_MARGIN, PAGE_MARGIN)
    assert by == pytest.approx(PAGE_MARGIN + heading.height + PAGE_GAP)
    assert [(s.text, s.bold) for s in heading.shapes] == [("goal: one", True),
                                                         ("rules: two", False)]
    assert page.width == pytest.approx(MAX_WIDTH) and page.height <= MAX_HEIGHT


@pytest.mark.parametrize("steps", [3, SEQUENCE_LIMIT + 1, 500_000])
def test_a_plan_page_fits_the_page_under_its_facts(steps):
    lines = ["goal: " + "a long goal " * 30, "a fact"]
    page = plan_page(lines, steps, frame, caption, noun="moves")
    (_, hy, _, heading), (_, sy, _, strip) = placed(page)
    assert heading.shapes[0].bold and sy == pytest.approx(hy + heading.height + PAGE_GAP)
    assert page.width <= MAX_WIDTH + 1e-9 and page.height <= MAX_HEIGHT + 1e-9
    assert texts(strip)[0] == "start" and texts(strip)[-1] == f"{steps}. step"
    assert strip.width <= BODY_WIDTH + 1e-9


def test_a_key_wraps_its_entries_within_its_width_each_sample_before_its_words():
    entries = [(swatch(f"#{i:02x}0000"), f"entry {i}") for i in range(9)]
    legend = key(entries, size=3.0, width=60)
    assert legend.width <= 60 and legend.count("rect") == 9 and legend.count("text") == 9
    rows = {round(p.y, 3) for p in canvas.walk(legend) if p.shape.kind == "text"}
    assert 1 < len(rows) < 9  # wrapped into rows, several entries to a row
    for placed in canvas.walk(legend):
        assert 0 <= placed.extent()[0] and placed.extent()[2] <= 60 + 1e-9


def test_a_plan_page_for_a_given_room_wraps_to_its_width_and_stays_readable():
    frame, caption = (lambda k: Drawing(20, 20)), (lambda k: f"{k}. step")
    page = plan_page(["a heading"], 30, frame, caption, width=90, height=60)
    assert page.width <= 90 + 1e-9 and body_width(90) == 80
    sizes = [p.text_size for p in canvas.walk(page) if p.shape.text.endswith("step")]
    assert min(sizes) >= 2.8 * READABLE - 1e-9  # shrunk no further: the page is taller
    assert page.height > 60
    free = plan_page(["a heading"], 30, frame, caption)  # the whole page: shrunk to fit it
    assert free.height <= MAX_HEIGHT + 1e-9
