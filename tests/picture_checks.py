"""What the picture tests share: the shipped files and their answers, an SVG read back, the formats.

A picture test draws a puzzle (or a level), reads the SVG back as XML and
compares what it finds with the instance and its answer. The pieces every
such test needs live here, once:

- `shipped(folder)`, `file_id`: the shipped files of a puzzle and their test ids;
  `file_answer(instance)`, the file's own `expect-solution` (checked by the
  puzzle's `verify`); `hand_answer(path)`, the `hand` back-end's verified
  answer, solved once per run;
- `drawn(draw, instance, solution)`: the drawing and its SVG, checked to lie
  within the page; `elements(svg, tag, **attributes)` and `matches(svg,
  pattern)` read the SVG back; `GridPicture` decodes a grid of cells by
  geometry alone;
- `check_formats(drawing)`: SVG, PNG and PDF at the drawing's size (PNG
  pixels, PDF points) with ink on paper (`check_both_formats`: a puzzle's
  picture and its answer's); `check_saved`, the three files
  `canvas.save` writes; `check_same_svg`, the same input giving the same
  bytes; `check_one_line`, a grid too large to draw as one line of text;
- `shown_steps(steps)`: the steps a strip of a plan captions (head and tail
  around a gap for a long plan).
"""

from __future__ import annotations

import copy
import io
import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pypdf
from conftest import ROOT
from PIL import Image

from twinsolve.core import registry
from twinsolve.core.drawing import HEAD, SEQUENCE_LIMIT, TAIL
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import load_file, run
from twinsolve.graphics import canvas
from twinsolve.graphics.layout import MAX_HEIGHT, MAX_WIDTH

__all__ = ["SVG", "INSTANCES", "shipped", "file_id", "file_answer", "hand_answer", "drawn",
           "within_page", "elements", "matches", "GridPicture", "check_formats",
           "check_both_formats", "check_saved",
           "check_same_svg", "check_one_line", "shown_steps"]

SVG = "{http://www.w3.org/2000/svg}"
INSTANCES = ROOT / "instances"
_ANSWERS: dict[Path, Any] = {}


# ---------------------------------------------------------------- the shipped files

def shipped(folder: str) -> list[Path]:
    """Every shipped `*.txt` file under instances/`folder`, sorted."""
    return sorted((INSTANCES / folder).rglob("*.txt"))


def file_id(path: Path) -> str:
    """A shipped file's test id: its path below instances/."""
    return str(path.relative_to(INSTANCES))


def file_answer(instance: Any) -> Any:
    """The file's `expect-solution`, checked by its puzzle's `verify` first."""
    solution = json.loads(dict(instance.meta)["expect-solution"])
    assert registry.puzzle_of(instance).rules.verify(instance, solution) == []
    return solution


def hand_answer(path: Path, *, optimising: bool = True) -> Any | None:
    """The `hand` back-end's verified answer for a shipped file (solved once per run), None
    when it has none.

    An optimisation puzzle's file says it has one by its `expect-objective`: the run is
    then OPTIMAL and verified, else UNSAT. A search puzzle's run (`optimising=False`) is
    SOLVED and verified, or UNSAT.
    """
    if path not in _ANSWERS:
        instance = load_file(path)
        result = run(instance, "hand", Limits(timeout=30))
        if optimising:
            solvable = "expect-objective" in dict(instance.meta)
            assert result.status is (Status.OPTIMAL if solvable else Status.UNSAT), path
            assert result.verified or not solvable, path
        else:
            assert result.status in (Status.SOLVED, Status.UNSAT), path
            assert result.verified or result.status is Status.UNSAT, path
        _ANSWERS[path] = result.solution
    return _ANSWERS[path]


# ---------------------------------------------------------------- reading an SVG back

def within_page(drawing: canvas.Drawing) -> bool:
    """Whether the drawing has a size and fits the largest page (`graphics.layout`)."""
    return 0 < drawing.width <= MAX_WIDTH and 0 < drawing.height <= MAX_HEIGHT


def drawn(draw: Callable[..., canvas.Drawing], instance: Any,
          solution: Any = None) -> tuple[canvas.Drawing, str]:
    """`draw(instance, solution)` and its SVG; the drawing is checked to fit the page."""
    drawing = draw(instance) if solution is None else draw(instance, solution)
    assert within_page(drawing), (drawing.width, drawing.height)
    return drawing, canvas.svg(drawing)


def elements(svg: str | ET.Element, tag: str, **attributes: str) -> list[ET.Element]:
    """The `tag` elements of an SVG (text or parsed) whose attributes have the given values;
    an underscore in a name stands for a hyphen (`font_weight="bold"`)."""
    root = ET.fromstring(svg) if isinstance(svg, str) else svg
    wanted = {name.replace("_", "-"): value for name, value in attributes.items()}
    return [e for e in root.iter(SVG + tag)
            if all(e.get(name) == value for name, value in wanted.items())]


def matches(svg: str, pattern: re.Pattern[str]) -> list[re.Match[str]]:
    """The texts of an SVG that `pattern` matches whole, in drawing order."""
    found = (pattern.fullmatch(e.text or "") for e in elements(svg, "text"))
    return [m for m in found if m]


class GridPicture:
    """An SVG of a grid decoded by geometry alone: the cells are the `<rect>`s of the one
    most common size (the page's background, which has no x, left out)."""

    def __init__(self, text: str) -> None:
        self.root = ET.fromstring(text)
        self.elements = list(self.root.iter())
        rects = [e for e in self.elements if e.tag == SVG + "rect" and e.get("x")]
        size = Counter((e.get("width"), e.get("height")) for e in rects).most_common(1)[0][0]
        self.cells = [e for e in rects if (e.get("width"), e.get("height")) == size]
        self.side = float(size[0])
        xs = sorted({float(e.get("x")) for e in self.cells})
        ys = sorted({float(e.get("y")) for e in self.cells})
        self.x0, self.y0 = xs[0], ys[0]
        self.shape = (len(ys), len(xs))

    def cell_of(self, x: float, y: float) -> tuple[int, int]:
        """The (row, col) of the cell holding the point (x, y)."""
        return int((y - self.y0) // self.side), int((x - self.x0) // self.side)

    def fills(self) -> dict[tuple[int, int], str]:
        """Each cell's fill, by (row, col)."""
        return {self.cell_of(float(e.get("x")) + 0.01, float(e.get("y")) + 0.01): e.get("fill")
                for e in self.cells}

    def texts(self, **attributes: str) -> list[ET.Element]:
        return elements(self.root, "text", **attributes)


# ---------------------------------------------------------------- formats and bytes

def check_formats(drawing: canvas.Drawing, dpi: float = 20) -> None:
    """The drawing in all three formats, each at its size: the SVG's width and height in mm,
    the PNG's pixels at `dpi` (within a pixel) with ink on paper, a one-page PDF's points."""
    root = ET.fromstring(canvas.svg(drawing))
    for name, mm in (("width", drawing.width), ("height", drawing.height)):
        assert abs(float(root.get(name).removesuffix("mm")) - mm) <= 0.005, name
    png = canvas.png(drawing, dpi=dpi)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = Image.open(io.BytesIO(png))
    for pixels, mm in zip(image.size, (drawing.width, drawing.height), strict=True):
        assert abs(pixels - mm / canvas.MM_PER_INCH * dpi) < 1, (pixels, mm)
    darkest, lightest = image.convert("L").getextrema()
    assert darkest < 100 and lightest > 200  # ink on paper, not a blank page
    pdf = canvas.pdf(drawing)
    assert pdf.startswith(b"%PDF-")
    pages = pypdf.PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) == 1
    box = pages[0].mediabox
    for points, mm in ((box.width, drawing.width), (box.height, drawing.height)):
        assert abs(float(points) - mm * 72 / canvas.MM_PER_INCH) <= 0.5, (points, mm)


def check_both_formats(draw: Callable[..., canvas.Drawing], instance: Any, solution: Any,
                       dpi: float = 20) -> None:
    """The instance's picture, and its answer's, each in all three formats (`check_formats`)."""
    for answer in (None, solution):
        check_formats(draw(instance) if answer is None else draw(instance, answer), dpi)


def check_saved(drawing: canvas.Drawing, folder: Path) -> None:
    """`canvas.save` writes an SVG, a PNG and a PDF file, picking the format by the suffix."""
    for fmt, start in {"svg": b"<?xml", "png": b"\x89PNG", "pdf": b"%PDF"}.items():
        assert canvas.save(drawing, folder / f"picture.{fmt}").read_bytes().startswith(start)


def check_same_svg(draw: Callable[..., canvas.Drawing], instance: Any, again: Any,
                   solution: Any) -> None:
    """The input read twice (`instance`, `again`) draws the same SVG bytes, alone and with
    `solution` or a deep copy of it, each time; the solution changes the bytes."""
    alone = canvas.svg(draw(instance)).encode()
    solved = canvas.svg(draw(instance, solution)).encode()
    assert canvas.svg(draw(again)).encode() == alone
    for source in (instance, again):
        assert canvas.svg(draw(source, copy.deepcopy(solution))).encode() == solved
    assert solved != alone


def check_one_line(page: canvas.Drawing, line: str) -> None:
    """`page` is `line` alone, as a grid too large to draw is: one text and no other shape,
    a few mm high, within the page, in every format."""
    assert [e.text for e in elements(canvas.svg(page), "text")] == [line]
    assert len(page.shapes) == 1 and page.count("text") == 1
    assert within_page(page) and page.height <= 12
    check_formats(page, dpi=100)


# ---------------------------------------------------------------- plans

def shown_steps(steps: int) -> list[int]:
    """The step numbers (from 1) a strip of a `steps`-step plan captions: all of a short
    plan, the head and the tail of a long one."""
    if steps <= SEQUENCE_LIMIT:
        return list(range(1, steps + 1))
    return [*range(1, HEAD + 1), *range(steps - TAIL + 1, steps + 1)]
