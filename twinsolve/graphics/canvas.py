"""The one small drawing layer every picture goes through: shapes in millimetres, three outputs.

A `Drawing` is a page of `width` x `height` millimetres with the origin at the
top left and y growing downwards (as on paper and in SVG). Puzzles draw on it
with a handful of shapes: `line`, `polyline`, `rect`, `circle`, `polygon`,
`text`, and `place` (another drawing, moved and scaled: a board inside a
strip of steps, a puzzle on a sheet). A shape's sizes are millimetres too:
stroke widths, text heights. Because the units are physical, one picture
serves the screen and the printed page alike.

Outputs:
- `svg(drawing)` writes SVG directly (no library): the size in mm, a viewBox
  in mm, shapes in drawing order, numbers rounded to 0.01 mm, so the same
  drawing gives the same bytes on any machine (pictures can be committed and
  compared);
- `png(drawing, dpi)`, `pdf(drawing)` and `pdf_pages(drawings)` (one PDF,
  a page per drawing) draw the same shapes with
  matplotlib (Agg and its PDF backend, no system libraries); their metadata
  dates and software names are left out, so they repeat byte for byte too.
`save(drawing, path)` picks the format from the suffix (.svg, .png, .pdf)
and writes atomically.

What a layout needs to know of a picture. A drawing may say which grid it
shows (`board`: rows, columns and the side of a cell in mm), so that a
sheet can give the puzzles of a page one cell size by scaling each to it.
`walk(drawing)` lists every shape on the page, placed drawings opened up,
with the scale it is drawn at; `extent` is the box a shape's ink covers
(strokes included, texts measured with `text_width`) and `bounds` the box of
a whole drawing's ink: what a test checks a picture against its slot with.

Colours are SVG colour strings (`#rrggbb` or a name both SVG and matplotlib
know); `None` means no fill or no stroke.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ..core.errors import UsageError
from ..files.atomic import write_bytes

__all__ = ["Drawing", "Board", "Placed", "svg", "png", "pdf", "pdf_pages", "encode", "save",
           "FORMATS", "MM_PER_INCH", "POINTS_PER_MM", "text_width", "walk", "extent", "bounds"]

MM_PER_INCH = 25.4
POINTS_PER_MM = 72 / MM_PER_INCH
FORMATS = ("svg", "png", "pdf")
FONT = "DejaVu Sans"  # matplotlib ships it, so PNG and PDF text looks the same everywhere


# DejaVu Sans advance widths in em, each class rounded up to its widest character:
# (characters, regular, bold); any other character counts as the widest class.
_CLASSES = (
    (" '.,·:;|/\\ijlIJ", 0.34, 0.40),
    ("ft-()[]!r\"*_`", 0.50, 0.53),
    ("abcdeghknopqsuvxyz0123456789LFPTYES$?", 0.64, 0.74),
    ("ABCDGHKNOQRUVXZw&#+<=>^~×→−♚♛♜♝♞♟", 0.90, 0.93),
)
_WIDEST = (1.0, 1.11)  # m M W % @ … and the rest
_EM = {char: (regular, bold) for chars, regular, bold in _CLASSES for char in chars}
_HALF_LINE = 0.6  # a text's ink reaches at most this many text heights above and below y


def text_width(text: str, size: float, bold: bool = False) -> float:
    """At least the width in mm of `text` set `size` mm high in the canvas font (each
    character counted as the widest of its class, so a caption sized by it does not spill
    over its box)."""
    return sum(_EM.get(char, _WIDEST)[1 if bold else 0] for char in text) * size


@dataclass(frozen=True)
class Board:
    """The grid a picture shows: `rows` x `cols` square cells `cell` mm wide (module
    docstring: a sheet scales the puzzles of a page to one cell size), and the least cell
    at which the marks drawn in its cells still read (`least`, mm; 0: any size a sheet
    allows)."""

    rows: int
    cols: int
    cell: float
    least: float = 0.0


@dataclass(frozen=True)
class _Shape:
    kind: str  # line, polyline, rect, circle, polygon, text, place
    points: tuple[tuple[float, float], ...] = ()
    size: tuple[float, ...] = ()  # rect: w, h, corner radius; circle: r; place: scale
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, ...] | None = None
    text: str = ""
    anchor: str = "middle"  # text: start, middle, end
    bold: bool = False
    opacity: float = 1.0
    drawing: Drawing | None = None


@dataclass
class Drawing:
    """A page of shapes in millimetres (module docstring); methods return the drawing."""

    width: float
    height: float
    background: str | None = None
    shapes: list[_Shape] = field(default_factory=list)
    board: Board | None = None  # the grid it shows, when it shows one (module docstring)

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.height > 0):
            raise ValueError(f"a drawing needs a positive size, got {self.width}x{self.height}")

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str = "#000000",
             width: float = 0.3, dash: tuple[float, ...] | None = None,
             opacity: float = 1.0) -> Drawing:
        return self._add(_Shape("line", ((x1, y1), (x2, y2)), stroke=stroke, width=width,
                                dash=dash, opacity=opacity))

    def polyline(self, points: list[tuple[float, float]], *, stroke: str = "#000000",
                 width: float = 0.3, dash: tuple[float, ...] | None = None,
                 opacity: float = 1.0) -> Drawing:
        return self._add(_Shape("polyline", tuple(points), stroke=stroke, width=width,
                                dash=dash, opacity=opacity))

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, width: float = 0.3, radius: float = 0.0,
             opacity: float = 1.0) -> Drawing:
        return self._add(_Shape("rect", ((x, y),), (w, h, radius), fill, stroke, width,
                                opacity=opacity))

    def circle(self, cx: float, cy: float, r: float, *, fill: str | None = None,
               stroke: str | None = None, width: float = 0.3, opacity: float = 1.0) -> Drawing:
        return self._add(_Shape("circle", ((cx, cy),), (r,), fill, stroke, width,
                                opacity=opacity))

    def polygon(self, points: list[tuple[float, float]], *, fill: str | None = None,
                stroke: str | None = None, width: float = 0.3, opacity: float = 1.0) -> Drawing:
        return self._add(_Shape("polygon", tuple(points), (), fill, stroke, width,
                                opacity=opacity))

    def text(self, x: float, y: float, text: str, *, size: float = 3.5, fill: str = "#000000",
             anchor: str = "middle", bold: bool = False) -> Drawing:
        """`text` centred vertically on y, `size` mm high (the font's em), anchored at x."""
        if anchor not in ("start", "middle", "end"):
            raise ValueError(f"anchor must be start, middle or end, got {anchor!r}")
        return self._add(_Shape("text", ((x, y),), (size,), fill, text=str(text),
                                anchor=anchor, bold=bold))

    def place(self, other: Drawing, x: float, y: float, scale: float = 1.0) -> Drawing:
        """Draw `other` with its top left corner at (x, y), scaled by `scale`."""
        return self._add(_Shape("place", ((x, y),), (scale,), drawing=other))

    def _add(self, shape: _Shape) -> Drawing:
        self.shapes.append(shape)
        return self

    def count(self, kind: str) -> int:
        """How many shapes of `kind` it holds, placed drawings included (for tests)."""
        return sum(s.drawing.count(kind) if s.kind == "place" else s.kind == kind
                   for s in self.shapes)


# -- where the ink is -------------------------------------------------------------------------

@dataclass(frozen=True)
class Placed:
    """A shape as it lands on the page: drawn at (`x`, `y`) scaled by `scale`."""

    shape: _Shape
    x: float
    y: float
    scale: float

    def extent(self) -> tuple[float, float, float, float]:
        """The box (left, top, right, bottom) its ink covers on the page."""
        left, top, right, bottom = extent(self.shape)
        return (self.x + left * self.scale, self.y + top * self.scale,
                self.x + right * self.scale, self.y + bottom * self.scale)

    @property
    def text_size(self) -> float:
        """A text's height on the page in mm (0 for other shapes)."""
        return self.shape.size[0] * self.scale if self.shape.kind == "text" else 0.0


def walk(drawing: Drawing, x: float = 0.0, y: float = 0.0,
         scale: float = 1.0) -> Iterator[Placed]:
    """Every shape of `drawing` drawn at (x, y) scaled by `scale`, placed drawings opened up
    (a placed drawing's background counts as a rectangle of its size), in drawing order."""
    for shape in drawing.shapes:
        if shape.kind != "place":
            yield Placed(shape, x, y, scale)
            continue
        (px, py), inner, k = shape.points[0], shape.drawing, shape.size[0]
        if inner.background:
            yield Placed(_Shape("rect", ((0.0, 0.0),), (inner.width, inner.height, 0.0),
                                inner.background), x + px * scale, y + py * scale, k * scale)
        yield from walk(inner, x + px * scale, y + py * scale, k * scale)


def extent(shape: _Shape) -> tuple[float, float, float, float]:
    """The box (left, top, right, bottom) a shape's ink covers in its drawing (strokes
    half their width outside the path; a text as `text_width` wide and a little over its
    height tall); a placed drawing: its frame."""
    (x, y), *_ = shape.points or ((0.0, 0.0),)
    pad = shape.width / 2 if shape.stroke else 0.0
    if shape.kind == "text":
        size = shape.size[0]
        width = text_width(shape.text, size, shape.bold)
        left = {"start": x, "middle": x - width / 2, "end": x - width}[shape.anchor]
        return left, y - _HALF_LINE * size, left + width, y + _HALF_LINE * size
    if shape.kind == "rect":
        w, h, _ = shape.size
        return x - pad, y - pad, x + w + pad, y + h + pad
    if shape.kind == "circle":
        r = shape.size[0] + pad
        return x - r, y - r, x + r, y + r
    if shape.kind == "place":
        k = shape.size[0]
        return x, y, x + shape.drawing.width * k, y + shape.drawing.height * k
    xs, ys = [p[0] for p in shape.points], [p[1] for p in shape.points]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def bounds(drawing: Drawing) -> tuple[float, float, float, float] | None:
    """The box (left, top, right, bottom) of all the ink in `drawing` (None: no shapes)."""
    boxes = [placed.extent() for placed in walk(drawing)]
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


# -- SVG ---------------------------------------------------------------------------------------

def _n(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _paint(shape: _Shape) -> str:
    parts = [f'fill="{shape.fill}"' if shape.fill else 'fill="none"']
    if shape.stroke:
        parts.append(f'stroke="{shape.stroke}" stroke-width="{_n(shape.width)}"')
        if shape.kind in ("line", "polyline"):
            parts.append('stroke-linecap="round" stroke-linejoin="round"')
        if shape.dash:
            parts.append(f'stroke-dasharray="{" ".join(_n(d) for d in shape.dash)}"')
    if shape.opacity != 1.0:
        parts.append(f'opacity="{_n(shape.opacity)}"')
    return " ".join(parts)


def _svg_shapes(drawing: Drawing, out: list[str]) -> None:
    for s in drawing.shapes:
        (x, y), *_ = s.points or ((0.0, 0.0),)
        if s.kind == "line":
            (x2, y2) = s.points[1]
            out.append(f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                       f'{_paint(s)}/>')
        elif s.kind in ("polyline", "polygon"):
            points = " ".join(f"{_n(px)},{_n(py)}" for px, py in s.points)
            out.append(f'<{s.kind} points="{points}" {_paint(s)}/>')
        elif s.kind == "rect":
            w, h, radius = s.size
            corner = f' rx="{_n(radius)}"' if radius else ""
            out.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"'
                       f'{corner} {_paint(s)}/>')
        elif s.kind == "circle":
            out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(s.size[0])}" {_paint(s)}/>')
        elif s.kind == "text":
            weight = ' font-weight="bold"' if s.bold else ""
            out.append(f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(s.size[0])}" '
                       f'text-anchor="{s.anchor}" dominant-baseline="central"{weight} '
                       f'fill="{s.fill}">{escape(s.text)}</text>')
        elif s.kind == "place":
            out.append(f'<g transform="translate({_n(x)} {_n(y)}) scale({_n(s.size[0])})">')
            if s.drawing.background:
                out.append(f'<rect width="{_n(s.drawing.width)}" height="{_n(s.drawing.height)}" '
                           f'fill="{s.drawing.background}"/>')
            _svg_shapes(s.drawing, out)
            out.append("</g>")


def svg(drawing: Drawing, title: str | None = None) -> str:
    """The drawing as an SVG document (sizes in mm; the same drawing, the same text)."""
    w, h = _n(drawing.width), _n(drawing.height)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
           f'viewBox="0 0 {w} {h}" font-family={quoteattr(FONT + ", sans-serif")}>']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    if drawing.background:
        out.append(f'<rect width="{w}" height="{h}" fill="{drawing.background}"/>')
    _svg_shapes(drawing, out)
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- matplotlib (PNG, PDF) ---------------------------------------------------------------------

def _figure(drawing: Drawing, dpi: float) -> Any:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(drawing.width / MM_PER_INCH, drawing.height / MM_PER_INCH), dpi=dpi)
    axes = figure.add_axes((0, 0, 1, 1))
    axes.set_xlim(0, drawing.width)
    axes.set_ylim(drawing.height, 0)  # y grows downwards, as in SVG
    axes.set_axis_off()
    if drawing.background:
        figure.patch.set_facecolor(drawing.background)
    else:
        figure.patch.set_alpha(0)
    _mpl_shapes(axes, drawing, lambda x, y: (x, y), 1.0, iter(range(1, 1 << 62)))
    return figure


def _mpl_shapes(axes: Any, drawing: Drawing, at: Any, scale: float, order: Any) -> None:
    """Each shape as a matplotlib artist; `order` numbers them, because matplotlib draws
    by z-order (texts above lines above patches), not in the order they were added."""
    from matplotlib import patches
    from matplotlib.lines import Line2D

    # add_artist, not plot / add_patch: those recompute the data limits per shape (1 ms
    # each), and the limits are fixed anyway.
    add = axes.add_artist

    def style(s: _Shape) -> dict[str, Any]:
        return {"facecolor": s.fill or "none", "edgecolor": s.stroke or "none",
                "linewidth": s.width * scale * POINTS_PER_MM if s.stroke else 0,
                "alpha": s.opacity, "joinstyle": "round", "zorder": next(order)}

    for s in drawing.shapes:
        (x, y), *_ = s.points or ((0.0, 0.0),)
        if s.kind in ("line", "polyline"):
            xs, ys = zip(*(at(px, py) for px, py in s.points), strict=True)
            dashes = (0, tuple(d * scale * POINTS_PER_MM / max(s.width * scale * POINTS_PER_MM,
                                                                1e-9) for d in s.dash)) \
                if s.dash else "solid"
            add(Line2D(xs, ys, color=s.stroke, linewidth=s.width * scale * POINTS_PER_MM,
                       linestyle=dashes, alpha=s.opacity, solid_capstyle="round",
                       solid_joinstyle="round", dash_capstyle="butt", zorder=next(order)))
        elif s.kind == "rect":
            w, h, radius = s.size
            x0, y0 = at(x, y)
            if radius:
                box = patches.FancyBboxPatch((x0 + radius * scale, y0 + radius * scale),
                                             (w - 2 * radius) * scale, (h - 2 * radius) * scale,
                                             boxstyle=f"round,pad={radius * scale}", **style(s))
            else:
                box = patches.Rectangle((x0, y0), w * scale, h * scale, **style(s))
            add(box)
        elif s.kind == "circle":
            add(patches.Circle(at(x, y), s.size[0] * scale, **style(s)))
        elif s.kind == "polygon":
            add(patches.Polygon([at(px, py) for px, py in s.points], closed=True, **style(s)))
        elif s.kind == "text":
            tx, ty = at(x, y)
            axes.text(tx, ty, s.text, fontsize=s.size[0] * scale * POINTS_PER_MM, color=s.fill,
                      ha={"start": "left", "middle": "center", "end": "right"}[s.anchor],
                      va="center_baseline", family=FONT,
                      fontweight="bold" if s.bold else "normal", zorder=next(order))
        elif s.kind == "place":
            inner, k = s.drawing, s.size[0]
            ox, oy = at(x, y)

            def placed(px: float, py: float, ox=ox, oy=oy, k=k) -> tuple[float, float]:
                return ox + px * k * scale, oy + py * k * scale
            if inner.background:
                add(patches.Rectangle((ox, oy), inner.width * k * scale,
                                      inner.height * k * scale, facecolor=inner.background,
                                      linewidth=0, zorder=next(order)))
            _mpl_shapes(axes, inner, placed, k * scale, order)


def png(drawing: Drawing, dpi: float = 150) -> bytes:
    """The drawing as a PNG at `dpi` dots per inch."""
    buffer = io.BytesIO()
    _figure(drawing, dpi).savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


def pdf(drawing: Drawing) -> bytes:
    """The drawing as a one-page PDF of its size in mm."""
    buffer = io.BytesIO()
    _figure(drawing, 72).savefig(buffer, format="pdf",
                                 metadata={"Creator": None, "Producer": None,
                                           "CreationDate": None})
    return buffer.getvalue()


def pdf_pages(drawings: list[Drawing]) -> bytes:
    """Several drawings as the pages of one PDF, in order (a printable sheet)."""
    from matplotlib.backends.backend_pdf import PdfPages

    if not drawings:
        raise ValueError("a PDF needs at least one page")
    buffer = io.BytesIO()
    with PdfPages(buffer, metadata={"Creator": None, "Producer": None,
                                    "CreationDate": None}) as pages:
        for drawing in drawings:
            pages.savefig(_figure(drawing, 72))
    return buffer.getvalue()


def encode(drawing: Drawing, fmt: str, title: str | None = None) -> bytes:
    """The drawing in format `fmt` (svg, png or pdf) as bytes."""
    if fmt == "svg":
        return svg(drawing, title).encode()
    if fmt == "png":
        return png(drawing)
    if fmt == "pdf":
        return pdf(drawing)
    raise UsageError(f"unknown picture format {fmt!r} (one of {', '.join(FORMATS)})")


def save(drawing: Drawing, path: str | Path, fmt: str | None = None,
         title: str | None = None) -> Path:
    """Write the drawing to `path` atomically, in `fmt` or the format its suffix names."""
    target = Path(path)
    fmt = fmt or target.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise UsageError(f"{target}: a picture must end in .svg, .png or .pdf")
    return write_bytes(target, encode(drawing, fmt, title))
