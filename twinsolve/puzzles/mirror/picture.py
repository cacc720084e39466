"""Mirror maze pictures: the grid, its mirrors, lasers and targets, the beams of a solution, a key.

What is drawn. Each cell is a square (about 8 mm, smaller so the page fits
180 x 250 mm, or the room asked for, 3 mm margin). Walls are dark grey
squares; fixed mirrors black diagonals; rotatable mirrors `?` blue diagonals
with a small white pivot circle, standing as `/` as they start; lasers a
square with a nozzle pointing the way they emit, each in its own colour
(`BEAMS`, in the order the lasers are read, row by row); targets a black
bullseye. With a solution, the flipped mirrors are drawn as `\\` in magenta
on a pale yellow square, every laser's beam is a thick line in its laser's
colour from the laser through its reflections to where it stops (into a
target's centre, against a wall's face or the grid's border, or back onto
itself when it loops), and each target hit is filled gold around its
centre. In greyscale the beams stay apart from the mirrors by their width.
Under the grid, a key: a sample cell of each part the picture shows (a
rotatable mirror "may be flipped", the highlight "flipped in this
solution") and, for goal `all`, that every target must be hit.

The idea. The beams are not re-derived here: `rules.trace_beam`, the tracer
`verify` uses, gives each beam's (cell, direction leaving it) states, and the
picture joins the centres of the cells where the direction changes. A beam
is drawn under the mirrors and lasers, so it meets each mirror at its pivot
and leaves from the laser's nozzle; only the cells a beam passes through,
the targets it hits and the flipped mirrors look different once solved.
The key's samples are drawn by the same functions as the grid's cells, on a
grid of one cell. A grid over `core.drawing.GRID_LIMIT` a side becomes one
line of text, the summary `render` prints (a `graphics.layout.line_page`).
"""

from __future__ import annotations

from typing import Any

from ...core import drawing
from ...core.errors import UsageError
from ...core.geometry import DELTAS, Direction
from ...graphics.canvas import Board, Drawing
from ...graphics.layout import MAX_HEIGHT, MAX_WIDTH, CellGrid, fit_cell, key, line_page
from . import rules
from .rules import CellKind, Instance

__all__ = ["draw", "layout", "beam_colour", "CELL_MM", "MARGIN_MM", "WALL", "FIXED",
           "ROTATABLE", "FLIPPED", "FLIPPED_CELL", "LASER", "TARGET", "TARGET_HIT", "BEAM",
           "BEAMS"]

CELL_MM = 8.0          # a cell's side when the page has room
MARGIN_MM = 3.0
SUMMARY_TEXT_MM = 3.5
KEY_TEXT_MM = 3.0      # the key's words
KEY_CELL_MM = 5.0      # a sample cell of the key
KEY_WIDTH_MM = 90.0    # the key's rows may be this wide under a narrower grid
KEY_ROOM_MM = 16.0     # the height kept under the grid for the key when fitting the cells

# One colour per role, so a picture (and a test) tells the parts apart by colour alone.
PAPER = "#ffffff"
GRID = "#c8c8c8"
BORDER = "#000000"
WALL = "#4d4d4d"
FIXED = "#000000"
ROTATABLE = "#1f5fbf"
FLIPPED = "#c2007a"
FLIPPED_CELL = "#ffe98a"
LASER = "#262626"
TARGET = "#111111"
TARGET_HIT = "#ffc61a"
# The lasers' colours, one each in reading order (cycled past eight): red first; none is
# a mirror's blue or magenta, and each stays apart from the others in hue.
BEAMS = ("#d81b1b", "#009e73", "#e07b00", "#7b3fa0", "#00a0c8", "#8c5a1a", "#e8559f",
         "#6b8e23")
BEAM = BEAMS[0]        # the first laser's colour

_FIXED_KINDS = {CellKind.SLASH: "/", CellKind.BACKSLASH: "\\"}


def layout(instance: Instance, width: float | None = None,
           height: float | None = None) -> CellGrid:
    """Where the cells are on the page, `MARGIN_MM` in from its corner: `CELL_MM` wide, or
    less so the page (or `width` x `height` mm) fits them and the key under them
    (`graphics.layout.fit_cell`).

    >>> layout(rules.parse("mirror 1 3\\nS?T\\n")).cell
    8.0
    """
    cell = fit_cell(instance.rows, instance.cols, CELL_MM, margin=MARGIN_MM, below=KEY_ROOM_MM,
                    max_width=min(width or MAX_WIDTH, MAX_WIDTH),
                    max_height=min(height or MAX_HEIGHT, MAX_HEIGHT))
    return CellGrid(instance.rows, instance.cols, cell, x=MARGIN_MM, y=MARGIN_MM)


def beam_colour(laser: int) -> str:
    """The colour of the `laser`-th laser (from 0, in reading order) and of its beam."""
    return BEAMS[laser % len(BEAMS)]


def draw(instance: Instance, solution: dict[str, Any] | None = None, *,
         width: float | None = None, height: float | None = None,
         cell: float | None = None) -> Drawing:
    """The maze as a `Drawing`, within `width` x `height` mm (None: the page), its cells
    `cell` mm wide when given (a sheet's common cell); with a solution (`{"flips": [[r, c],
    ...]}`) its beams too.

    A solution whose shape is wrong (not a list of `?` cells) is a `UsageError`; one that
    misses its goal is drawn as it is, beams and all.
    """
    flipped: frozenset[tuple[int, int]] = frozenset()
    if solution is not None:
        flipped, problems = rules.flips_of(instance, solution)
        if problems:
            raise UsageError(f"cannot draw the solution: {problems[0]}")
    if drawing.too_big(instance.rows, instance.cols):
        return _summary(instance, flipped if solution is not None else None)
    grid = layout(instance, width, height)
    if cell:
        grid = CellGrid(grid.rows, grid.cols, cell, x=grid.x, y=grid.y)
    room = min(min(width or MAX_WIDTH, MAX_WIDTH) - 2 * MARGIN_MM,
               max(grid.width, KEY_WIDTH_MM))
    # The page has room for the solved key, so a maze and its answer have one size.
    legend, solved_key = (_key(instance, solved, room) for solved in (solution is not None,
                                                                      True))
    page = Drawing(max(grid.width, solved_key.width) + 2 * MARGIN_MM,
                   grid.height + 2 * MARGIN_MM + solved_key.height + MARGIN_MM,
                   background=PAPER, board=Board(grid.rows, grid.cols, grid.cell))
    beams = [rules.trace_beam(instance, source, flipped) for source in instance.sources()] \
        if solution is not None else []
    _draw_floor(page, grid, instance, flipped)
    for number, beam in enumerate(beams):
        page.polyline(_beam_points(grid, beam), stroke=beam_colour(number),
                      width=_beam_width(grid))
    _draw_mirrors(page, grid, instance, flipped)
    for number, (r, c, direction) in enumerate(instance.sources()):
        _draw_laser(page, grid, r, c, direction, beam_colour(number))
    hit = {}  # target -> the colour of the first beam that hits it
    for number, beam in enumerate(beams):
        hit.setdefault(beam.hit, beam_colour(number))
    for r, c in instance.targets():
        _draw_target(page, grid, r, c, hit.get((r, c)))
    page.rect(MARGIN_MM, MARGIN_MM, grid.cols * grid.cell, grid.rows * grid.cell,
              stroke=BORDER, width=0.05 * grid.cell)
    page.place(legend, MARGIN_MM, grid.y + grid.height + MARGIN_MM)
    return page


def _key(instance: Instance, solved: bool, width: float) -> Drawing:
    """The key under the grid: a sample cell of each part the maze has (and, solved, of
    a flipped mirror and a target hit), and the goal when it is `all`."""
    entries = []
    kinds = {kind for row in instance.grid for kind in row}
    if kinds & set(_FIXED_KINDS):
        entries.append((_sample(lambda p, g: _mirror_line(p, g, 0, 0, "/", FIXED)),
                        "fixed mirror"))
    if instance.rotatable():
        entries.append((_sample(lambda p, g: _rotatable(p, g, 0, 0, False)),
                        "may be flipped"))
        if solved:
            entries.append((_sample(lambda p, g: _rotatable(p, g, 0, 0, True), flipped=True),
                            "flipped in this solution"))
    lasers = len(instance.sources())
    entries.append((_sample(lambda p, g: _draw_laser(p, g, 0, 0, Direction.RIGHT, BEAM)),
                    "laser" if lasers == 1 else f"{lasers} lasers, a colour each"))
    entries.append((_sample(lambda p, g: _draw_target(p, g, 0, 0, None)), "target"))
    if solved:
        entries.append((_sample(lambda p, g: _draw_target(p, g, 0, 0, BEAM)), "target hit"))
    if CellKind.WALL in kinds:
        entries.append((_sample(lambda p, g: p.rect(*g.corner(0, 0), g.cell, g.cell,
                                                    fill=WALL)), "wall"))
    if instance.goal is rules.Goal.ALL and len(instance.targets()) > 1:
        entries.append((Drawing(0.01, KEY_CELL_MM), "goal: hit every target"))
    return key(entries, size=KEY_TEXT_MM, width=width, gap=3.0)


def _sample(paint: Any, flipped: bool = False) -> Drawing:
    """One key cell: `paint(page, grid)` on a grid of one cell, framed like the grid's."""
    grid = CellGrid(1, 1, KEY_CELL_MM)
    sample = Drawing(KEY_CELL_MM, KEY_CELL_MM)
    if flipped:
        sample.rect(0, 0, KEY_CELL_MM, KEY_CELL_MM, fill=FLIPPED_CELL)
    paint(sample, grid)
    return sample.rect(0.1, 0.1, KEY_CELL_MM - 0.2, KEY_CELL_MM - 0.2, stroke=GRID, width=0.2)


def _summary(instance: Instance, flipped: frozenset[tuple[int, int]] | None) -> Drawing:
    """One line of text for a grid too large to draw, the words `render` uses."""
    # rules._counts is the one list of what the summary counts; sharing it keeps the
    # picture's line and the terminal's line the same.
    line = drawing.grid_summary(instance.rows, instance.cols, rules._counts(instance, flipped))
    return line_page(line, size=SUMMARY_TEXT_MM, margin=MARGIN_MM, background=PAPER)


def _draw_floor(page: Drawing, grid: CellGrid, instance: Instance,
                flipped: frozenset[tuple[int, int]]) -> None:
    """Walls, the flipped mirrors' highlight squares, then the grid lines over them."""
    for r, c in instance.positions(CellKind.WALL):
        page.rect(*grid.corner(r, c), grid.cell, grid.cell, fill=WALL)
    for r, c in sorted(flipped):
        page.rect(*grid.corner(r, c), grid.cell, grid.cell, fill=FLIPPED_CELL)
    thin = 0.025 * grid.cell
    right, bottom = grid.corner(grid.rows, grid.cols)
    for r in range(1, grid.rows):
        page.line(MARGIN_MM, MARGIN_MM + r * grid.cell, right, MARGIN_MM + r * grid.cell,
                  stroke=GRID, width=thin)
    for c in range(1, grid.cols):
        page.line(MARGIN_MM + c * grid.cell, MARGIN_MM, MARGIN_MM + c * grid.cell, bottom,
                  stroke=GRID, width=thin)


def _beam_width(grid: CellGrid) -> float:
    return 0.15 * grid.cell


def _beam_points(grid: CellGrid, beam: rules.Beam) -> list[tuple[float, float]]:
    """The beam's corners: the laser, each cell where it turns, and where it stops.

    A hit ends at the target's centre and a loop at the cell it comes back to; a beam
    stopped by a wall or the border ends at that face, its round cap inside its cell.
    """
    (r, c, direction), *rest = beam.path
    points = [grid.centre(r, c)]
    for r, c, leaving in rest:
        if leaving != direction:
            points.append(grid.centre(r, c))
        direction = leaving
    dr, dc = DELTAS[direction]
    x, y = grid.centre(r, c)
    if beam.end in ("target", "loop"):
        points.append((x + dc * grid.cell, y + dr * grid.cell))
    else:
        reach = grid.cell / 2 - _beam_width(grid) / 2
        points.append((x + dc * reach, y + dr * reach))
    return points


def _draw_mirrors(page: Drawing, grid: CellGrid, instance: Instance,
                  flipped: frozenset[tuple[int, int]]) -> None:
    """Fixed mirrors black; `?` blue with a pivot as they start, magenta when flipped."""
    for r, c in instance.positions(*_FIXED_KINDS):
        _mirror_line(page, grid, r, c, _FIXED_KINDS[instance.kind(r, c)], FIXED)
    for r, c in instance.rotatable():
        _rotatable(page, grid, r, c, (r, c) in flipped)


def _rotatable(page: Drawing, grid: CellGrid, r: int, c: int, flipped: bool) -> None:
    """A `?` mirror: blue `/` with its pivot as it starts, magenta `\\` when flipped."""
    colour, shape = (FLIPPED, "\\") if flipped else (ROTATABLE, "/")
    _mirror_line(page, grid, r, c, shape, colour)
    page.circle(*grid.centre(r, c), 0.09 * grid.cell, fill=PAPER, stroke=colour,
                width=0.04 * grid.cell)


def _mirror_line(page: Drawing, grid: CellGrid, r: int, c: int, shape: str, colour: str) -> None:
    x, y = grid.corner(r, c)
    near, far = 0.12 * grid.cell, 0.88 * grid.cell
    if shape == "/":
        page.line(x + near, y + far, x + far, y + near, stroke=colour, width=0.09 * grid.cell)
    else:
        page.line(x + near, y + near, x + far, y + far, stroke=colour, width=0.09 * grid.cell)


def _draw_laser(page: Drawing, grid: CellGrid, r: int, c: int, direction: Direction,
                colour: str) -> None:
    """A square body and a triangular nozzle pointing the way the laser emits, in a dark
    frame, the body in the laser's own colour."""
    x, y = grid.centre(r, c)
    dr, dc = DELTAS[direction]
    s = grid.cell
    tip = (x + dc * 0.40 * s, y + dr * 0.40 * s)
    base = (x + dc * 0.14 * s, y + dr * 0.14 * s)
    side = (dr * 0.22 * s, dc * 0.22 * s)  # half the nozzle's base, across the direction
    page.rect(x - 0.2 * s, y - 0.2 * s, 0.4 * s, 0.4 * s, fill=colour, stroke=LASER,
              width=0.05 * s, radius=0.06 * s)
    page.polygon([tip, (base[0] + side[0], base[1] + side[1]),
                  (base[0] - side[0], base[1] - side[1])], fill=LASER)


def _draw_target(page: Drawing, grid: CellGrid, r: int, c: int, hit: str | None) -> None:
    """A bullseye; one a beam hits (`hit`: its colour) filled gold around a centre of the
    beam's colour."""
    x, y = grid.centre(r, c)
    s = grid.cell
    page.circle(x, y, 0.34 * s, fill=TARGET_HIT if hit else PAPER, stroke=TARGET,
                width=0.07 * s)
    page.circle(x, y, 0.13 * s, fill=hit or TARGET)
