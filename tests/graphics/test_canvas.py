"""The drawing layer (`twinsolve.graphics.canvas`): one drawing, three formats, the same bytes
every time, and shapes where they were put (SVG read back as XML, PNG pixels read back)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from matplotlib import image

from twinsolve.core.errors import UsageError
from twinsolve.graphics import canvas

SVG = "{http://www.w3.org/2000/svg}"


def sample() -> canvas.Drawing:
    inner = canvas.Drawing(20, 10, background="#eeeeee")
    inner.rect(1, 1, 18, 8, stroke="#000000")
    inner.text(10, 5, "in", size=4)
    d = canvas.Drawing(60, 40, background="#ffffff")
    d.rect(0, 0, 30, 20, fill="#ff0000")                 # top left quarter: red
    d.circle(45, 30, 5, fill="#0000ff", stroke="#000000")
    d.line(0, 39, 60, 39, stroke="#00aa00", width=1, dash=(2, 1))
    d.polyline([(35, 5), (40, 10), (45, 5)], stroke="#000000")
    d.polygon([(5, 35), (10, 25), (15, 35)], fill="#880088", opacity=0.5)
    d.text(15, 10, "a < b & c", size=3, anchor="middle", bold=True)
    d.place(inner, 35, 12, scale=0.5)
    return d


def test_the_svg_holds_every_shape_in_millimetres_and_escapes_text():
    text = canvas.svg(sample(), title="x & y")
    root = ET.fromstring(text.encode())
    assert root.get("width") == "60mm" and root.get("height") == "40mm"
    assert root.get("viewBox") == "0 0 60 40"
    assert root.find(f"{SVG}title").text == "x & y"
    kinds = [child.tag.removeprefix(SVG) for child in root]
    assert kinds == ["title", "rect", "rect", "circle", "line", "polyline", "polygon", "text",
                     "g"]
    assert [t.text for t in root.iter(f"{SVG}text")] == ["a < b & c", "in"]
    group = root.find(f"{SVG}g")
    assert group.get("transform") == "translate(35 12) scale(0.5)"
    assert sample().count("text") == 2 and sample().count("rect") == 2


@pytest.mark.parametrize("fmt", canvas.FORMATS)
def test_the_same_drawing_gives_the_same_bytes(fmt):
    assert canvas.encode(sample(), fmt) == canvas.encode(sample(), fmt)


def test_the_png_puts_the_shapes_where_the_millimetres_say():
    dpi = 100
    pixels = image.imread(io.BytesIO(canvas.png(sample(), dpi)))
    per_mm = dpi / canvas.MM_PER_INCH
    assert pixels.shape[:2] == (round(40 * per_mm), round(60 * per_mm))

    def colour(x_mm, y_mm):
        return tuple(round(float(v), 1) for v in pixels[int(y_mm * per_mm), int(x_mm * per_mm)][:3])
    assert colour(3, 3) == (1.0, 0.0, 0.0)      # the red rectangle, top left
    assert colour(45, 30) == (0.0, 0.0, 1.0)    # the blue circle's centre
    assert colour(55, 20) == (1.0, 1.0, 1.0)    # background
    assert colour(40, 12.5) != (1.0, 1.0, 1.0)  # the placed drawing's grey background


def test_a_pdf_of_several_pages_has_them_all():
    pypdf = pytest.importorskip("pypdf")
    pages = []
    for word in ("first", "second", "third"):
        page = canvas.Drawing(210, 297)
        page.text(100, 100, word)
        pages.append(page)
    reader = pypdf.PdfReader(io.BytesIO(canvas.pdf_pages(pages)))
    assert [p.extract_text().strip() for p in reader.pages] == ["first", "second", "third"]
    width, height = (float(v) for v in reader.pages[0].mediabox[2:])
    assert (round(width / 72 * 25.4), round(height / 72 * 25.4)) == (210, 297)


def test_bad_sizes_formats_and_anchors_are_refused(tmp_path):
    with pytest.raises(ValueError):
        canvas.Drawing(0, 10)
    with pytest.raises(ValueError):
        canvas.Drawing(10, 10).text(1, 1, "x", anchor="left")
    with pytest.raises(UsageError, match="must end in .svg, .png or .pdf"):
        canvas.save(sample(), tmp_path / "x.gif")
    assert list(tmp_path.iterdir()) == []
    saved = canvas.save(sample(), tmp_path / "x.svg")
    assert saved.read_text() == canvas.svg(sample())


def test_walk_and_bounds_find_the_ink_of_every_shape_placed_drawings_included():
    drawing = sample()
    placed = list(canvas.walk(drawing))
    inner = [p for p in placed if p.scale == 0.5]
    # the placed drawing: its background, its framed rect and its text, at half size
    assert [p.shape.kind for p in inner] == ["rect", "rect", "text"]
    assert inner[2].text_size == 2.0 and inner[2].x == 35 and inner[2].y == 12
    assert canvas.bounds(drawing) == pytest.approx((-0.5, 0.0, 60.5, 39.5))  # the line's caps
    left, top, right, bottom = inner[1].extent()  # rect (1, 1, 18 x 8), stroke 0.3, at 0.5
    assert (left, top, right, bottom) == pytest.approx((35.425, 12.425, 44.575, 16.575))
    text = next(p for p in placed if p.shape.kind == "text" and p.scale == 1.0)
    width = canvas.text_width("a < b & c", 3, bold=True)
    assert text.extent() == pytest.approx((15 - width / 2, 10 - 1.8, 15 + width / 2, 11.8))
    assert canvas.bounds(canvas.Drawing(5, 5)) is None


def test_a_drawing_says_the_board_it_shows():
    drawing = canvas.Drawing(30, 30, board=canvas.Board(3, 3, 8.0))
    assert drawing.board.cell == 8.0 and drawing.board.least == 0.0
    assert canvas.Drawing(30, 30).board is None
