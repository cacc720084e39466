"""Lights Out on paper: the board, the presses of an answer, and the variant's rules.

What is drawn. One square per cell, filled by its light: white is off (state
0); on a plain board (K = 2) a lit cell is orange; with `mod K` the states
1..K-1 darken step by step from light orange to brown, and each lit cell also
carries its state as a small digit in its top left corner, so the picture
reads without colour (the shades get darker as the state grows, which holds
in greyscale too); a key under the board shows each state's shade. An
answer's presses sit in the middle of their cells: a black dot with a white
ring for K = 2, a white disc holding the number of presses (bold) for K > 2.
On a torus the board is framed by the classic glued edge arrows (one
arrowhead on the left and right edges, two on the top and bottom: matching
arrows are the same edge). Under the board, one short line per rule that is
not the plain one (`torus`, `sigma`, `mod K`), the key of the shades for
K > 2 and, with an answer, a line counting the presses.

The idea. Cells are about `CELL_MM` wide, shrunk so that the page fits the
printable area of A4, or the room asked for (`width`, `height`: a sheet's
slot; `graphics.layout.fit_cell`), and the drawing says so (`board`). The
space of the answer's legend line is always reserved, so a board and its
answer have the same geometry: cell for cell, the two drawings differ only
by the press marks and that line. A board over `core.drawing.GRID_LIMIT` a
side is one line of text (`core.drawing.grid_summary` on a
`graphics.layout.line_page`), like the terminal picture, whose count of
lights on reads a row shared by many rows once (a `lights all` board of
10^10 cells is counted in milliseconds). Legend widths are measured
(`graphics.layout.text_width`).
"""

from __future__ import annotations

from typing import Any

from ...core import drawing
from ...graphics.canvas import Board, Drawing
from ...graphics.layout import MAX_HEIGHT, MAX_WIDTH, fit_cell, key, line_page, text_block
from .rules import Instance, lights_on

__all__ = ["draw", "light_fill", "CELL_MM", "MARGIN_MM"]

CELL_MM = 8.0
MARGIN_MM = 3.0
GUTTER_MM = 3.5          # room for the torus arrows beside each edge
TEXT_MM = 3.0            # legend text height
LINE_MM = 4.5            # legend line pitch
LEGEND_MM = 64.0         # the legend's lines wrap at this width under a narrower board

OFF = "#ffffff"
ON = "#e69f00"           # Okabe-Ito orange: the one lit state of a plain board
RAMP_LIGHT = (0xf7, 0xd9, 0x8b)   # state 1 of K > 2 ...
RAMP_DARK = (0x8c, 0x51, 0x00)    # ... to state K-1: light orange to brown
GRID = "#555555"
INK = "#000000"
PAPER = "#ffffff"


def draw(instance: Instance, solution: dict[str, Any] | None = None, *,
         width: float | None = None, height: float | None = None,
         cell: float | None = None) -> Drawing:
    """The board, with the presses of `solution` (`{"presses": [...]}`) marked when given,
    within `width` x `height` mm (None: the page), its cells `cell` mm wide when given (a
    sheet's common cell).

    Raises ValueError when the presses do not fit the board (wrong shape, a digit >= K).

    >>> from twinsolve.puzzles.lightsout.rules import Instance
    >>> page = draw(Instance.all_on(3), {"presses": ["101", "010", "101"]})
    >>> page.count("rect"), page.count("circle"), page.board.cell
    (9, 5, 8.0)
    """
    presses = None if solution is None else _presses(instance, solution)
    if drawing.too_big(instance.rows, instance.cols):
        return _summary(instance, presses)
    room = (min(width or MAX_WIDTH, MAX_WIDTH), min(height or MAX_HEIGHT, MAX_HEIGHT))
    cell = cell or _cell_size(instance, room)
    gutter = GUTTER_MM if instance.torus else 0.0
    x0 = y0 = MARGIN_MM + gutter
    board_w, board_h = instance.cols * cell, instance.rows * cell
    legend = _legend(instance, presses, min(max(board_w + 2 * gutter, LEGEND_MM),
                                            room[0] - 2 * MARGIN_MM))
    width = max([board_w + 2 * gutter, *(block.width for block in legend)])
    top = y0 + board_h + gutter + (LINE_MM / 2 if legend else 0.0)
    height = top + sum(block.height + LINE_MM / 4 for block in legend) + MARGIN_MM \
        - (LINE_MM / 4 if legend else 0.0)
    page = Drawing(width + 2 * MARGIN_MM, height, background=PAPER,
                   board=Board(instance.rows, instance.cols, cell))
    _draw_lights(page, instance, x0, y0, cell)
    if instance.torus:
        _draw_torus_arrows(page, x0, y0, board_w, board_h)
    if presses is not None:
        _draw_presses(page, instance, presses, x0, y0, cell)
    for block in legend:
        page.place(block, MARGIN_MM, top)
        top += block.height + LINE_MM / 4
    return page


def _legend(instance: Instance, presses: list[str] | None, width: float) -> list[Drawing]:
    """The blocks under the board, each at most `width` mm wide: the rules that differ
    from the plain game, the shades' key (K > 2), and with an answer its line."""
    blocks = []
    if _rule_lines(instance):
        blocks.append(text_block(_rule_lines(instance), size=TEXT_MM, width=width,
                                 spacing=LINE_MM / TEXT_MM))
    shades = _shades_key(instance, width)
    if shades is not None:
        blocks.append(shades)
    if presses is not None:
        blocks.append(text_block([_press_line(instance, presses)], size=TEXT_MM, width=width,
                                 spacing=LINE_MM / TEXT_MM))
    return blocks


# ---------------------------------------------------------------- the answer

def _presses(instance: Instance, solution: Any) -> list[str]:
    """The answer's press rows, checked against the board; ValueError when they do not fit.

    Kept as strings: a board too large to draw is only counted, never turned into ints.
    """
    rows = solution.get("presses") if isinstance(solution, dict) else None
    if not isinstance(rows, list) or len(rows) != instance.rows:
        raise ValueError(f'a Lights Out answer is {{"presses": [{instance.rows} row strings]}}')
    digits = "0123456789"[:instance.modulus]
    for r, row in enumerate(rows):
        # Why strip: it leaves something exactly when a character is no digit 0..K-1.
        if not isinstance(row, str) or len(row) != instance.cols or row.strip(digits):
            raise ValueError(f"press row {r} must be {instance.cols} digits "
                             f"0..{instance.modulus - 1}, got {row!r:.40}")
    return rows


def _press_line(instance: Instance, presses: list[str]) -> str:
    total = sum(int(times) for row in presses for times in row)
    if total == 0:
        return "no presses needed: every light is already off"
    if instance.modulus == 2:
        return f"dots: the {total:,} cell{'s' * (total != 1)} to press"
    return f"discs: how often to press each cell ({total:,} presses in all)"


# ---------------------------------------------------------------- the board

def _rule_lines(instance: Instance) -> list[str]:
    """One line per rule that differs from the plain game."""
    k = instance.modulus
    lines = []
    if instance.torus:
        lines.append("torus: edges wrap around (matching arrows are the same edge)")
    if instance.sigma:
        lines.append(f"sigma: a press does not {'toggle' if k == 2 else 'change'} "
                     "its own light")
    if k != 2:
        lines.append(f"mod {k}: lights go 0 (off) to {k - 1}; a press adds 1, mod {k}")
    return lines


def _shades_key(instance: Instance, width: float) -> Drawing | None:
    """For K > 2, the key of the shades: a sample of each state 0..K-1 and its number."""
    k = instance.modulus
    if k == 2:
        return None
    entries = [(_shade_sample(state, k), f"{state} (off)" if state == 0 else str(state))
               for state in range(k)]
    return key(entries, size=TEXT_MM, width=max(width, 20.0), gap=2.5)


def _shade_sample(state: int, modulus: int) -> Drawing:
    side = TEXT_MM * 1.5
    sample = Drawing(side, side)
    return sample.rect(0.1, 0.1, side - 0.2, side - 0.2, fill=light_fill(state, modulus),
                       stroke=GRID, width=0.2)


def _cell_size(instance: Instance, room: tuple[float, float]) -> float:
    """CELL_MM, or less so that board, arrows and legend fit the page or `room` (the
    legend reserved at its narrowest, with the longest answer line)."""
    gutter = 2 * GUTTER_MM if instance.torus else 0.0
    most = "9" * len(str(instance.rows * instance.cols * (instance.modulus - 1)))
    answer = [most] * instance.rows  # stands for any answer's line: as many digits or fewer
    legend = _legend(instance, answer, LEGEND_MM)
    below = sum(block.height + LINE_MM / 4 for block in legend) + LINE_MM
    return fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM, beside=gutter,
                    below=gutter + below, max_width=room[0], max_height=room[1])


def light_fill(state: int, modulus: int) -> str:
    """The colour of a light in `state` (0..modulus-1): white when off, darker when higher."""
    if state == 0:
        return OFF
    if modulus == 2:
        return ON
    t = (state - 1) / (modulus - 2)
    rgb = (round(a + (b - a) * t) for a, b in zip(RAMP_LIGHT, RAMP_DARK, strict=True))
    return "#" + "".join(f"{v:02x}" for v in rgb)


def _draw_lights(page: Drawing, instance: Instance, x0: float, y0: float, cell: float) -> None:
    """The cells, each filled by its light, and the board's frame; for K > 2 the states."""
    grid_width = max(0.08, 0.025 * cell)
    for r, row in enumerate(instance.lights):
        for c, state in enumerate(row):
            page.rect(x0 + c * cell, y0 + r * cell, cell, cell,
                      fill=light_fill(state, instance.modulus), stroke=GRID, width=grid_width)
    if instance.modulus != 2:
        _draw_states(page, instance, x0, y0, cell)
    x1, y1 = x0 + instance.cols * cell, y0 + instance.rows * cell
    page.polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], stroke=INK,
                 width=max(0.15, 0.06 * cell))


def _draw_states(page: Drawing, instance: Instance, x0: float, y0: float, cell: float) -> None:
    """Each lit cell's state as a small digit in its top left corner, white on dark shades."""
    for r, row in enumerate(instance.lights):
        for c, state in enumerate(row):
            if state:
                dark = _luminance(light_fill(state, instance.modulus)) < 150
                page.text(x0 + (c + 0.14) * cell, y0 + (r + 0.17) * cell, str(state),
                          size=0.24 * cell, fill=PAPER if dark else INK)


def _luminance(colour: str) -> float:
    """The grey level (0..255) of a `#rrggbb` colour."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * red + 0.587 * green + 0.114 * blue


def _draw_presses(page: Drawing, instance: Instance, presses: list[str], x0: float,
                  y0: float, cell: float) -> None:
    """A ringed dot per press (K = 2), or a disc with the press count (K > 2)."""
    for r, row in enumerate(presses):
        for c, times in enumerate(row):
            if times == "0":
                continue
            cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
            if instance.modulus == 2:
                page.circle(cx, cy, 0.18 * cell, fill=INK, stroke=PAPER, width=0.05 * cell)
            else:
                page.circle(cx, cy, 0.27 * cell, fill=PAPER, stroke=INK, width=0.04 * cell)
                page.text(cx, cy, times, size=0.38 * cell, bold=True)


def _draw_torus_arrows(page: Drawing, x0: float, y0: float, board_w: float,
                       board_h: float) -> None:
    """The glued edges of a torus: one head down the left and right, two right along the
    top and bottom, in the gutter beside each edge's middle."""
    side = GUTTER_MM / 2
    length = min(board_w, board_h) * 0.4
    for x in (x0 - side, x0 + board_w + side):
        _arrow(page, (x, y0 + (board_h - length) / 2), (x, y0 + (board_h + length) / 2), 1)
    for y in (y0 - side, y0 + board_h + side):
        _arrow(page, (x0 + (board_w - length) / 2, y), (x0 + (board_w + length) / 2, y), 2)


def _arrow(page: Drawing, start: tuple[float, float], end: tuple[float, float],
           heads: int) -> None:
    """A line from start to end with `heads` filled arrowheads at its end (axis-aligned)."""
    (x1, y1), (x2, y2) = start, end
    page.line(x1, y1, x2, y2, stroke=INK, width=0.3)
    dx, dy = (1.0 if x2 > x1 else 0.0), (1.0 if y2 > y1 else 0.0)
    size = 1.3
    for head in range(heads):
        tip_x, tip_y = x2 - dx * head * size, y2 - dy * head * size
        back_x, back_y = tip_x - dx * size, tip_y - dy * size
        page.polygon([(tip_x, tip_y), (back_x + dy * size / 2, back_y + dx * size / 2),
                      (back_x - dy * size / 2, back_y - dx * size / 2)], fill=INK)


# ---------------------------------------------------------------- too large to draw

def _summary(instance: Instance, presses: list[str] | None) -> Drawing:
    """One line, as the terminal picture gives it: the size, lights on, cells pressed."""
    counts = [(lights_on(instance), "lights on")]  # a shared row counted once: 10^10 cells fast
    if presses is not None:
        counts.append((sum(len(row) - row.count("0") for row in presses), "cells pressed"))
    return line_page(drawing.grid_summary(instance.rows, instance.cols, counts), size=TEXT_MM,
                     margin=MARGIN_MM, background=PAPER)
