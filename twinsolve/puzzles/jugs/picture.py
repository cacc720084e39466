"""Water jugs as a picture: the jugs as vessels, a plan as a strip of their states.

What is drawn. The puzzle: a line of vessels, one per jug, each a tall
rectangle whose height is proportional to its capacity (the largest 60 mm;
a tiny jug beside a huge one is kept at least 2 mm high, to be seen), filled
with water to its start level, its number above and its level and capacity
below; for an `exact` goal a dashed line marks each jug's goal level. Text
above says the capacities, the moves allowed and the goal.

With a solution: the same text and the number of moves, then a strip of
small drawings of the jugs, one per state from the start to the goal, each
captioned with the move that led to it ("3. pour 1→2"), the levels of the
jugs that move touched written in colour. A plan of more than
`core.drawing.SEQUENCE_LIMIT` moves shows its first and last ones around a
"… N more moves …" note, as the text picture (`rules.render`) does. The
strip's frames are big enough to read on a printed sheet (levels and
captions 3 mm and more), and the page wraps its text and strip to the room
asked for (`width`, `height`: a sheet's slot).

Jugs are numbered from 1 here, as people count (`rules.move_text`); the
solution JSON keeps the file's indexes from 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...graphics.canvas import Drawing
from ...graphics.layout import body_width, fit_size, headed_page, plan_page
from .rules import GoalKind, Instance, move_text, parse_move

__all__ = ["draw", "move_caption", "WATER", "GLASS", "GOAL", "TOUCHED"]

WATER = "#5b9bd5"
GLASS = "#2f3e4e"     # the outline of a vessel: one per jug drawn
INSIDE = "#f4f7fa"
GOAL = "#c0392b"
TOUCHED = "#d35400"   # the level of a jug the last move changed or used


@dataclass(frozen=True)
class _Style:
    """Sizes in mm of one drawing of the jugs."""

    tallest: float    # the height of the largest vessel
    floor: float      # the least height of any vessel
    width: float      # of a vessel at most
    column: float     # a vessel and the space beside it, at most
    text: float       # the height of the level written below
    names: bool       # "jug i" above and "of C" below


BIG = _Style(tallest=60.0, floor=2.0, width=14.0, column=22.0, text=4.0, names=True)
SMALL = _Style(tallest=22.0, floor=1.5, width=6.0, column=9.0, text=3.2, names=False)
CAPTION_MM = 3.2      # a frame's caption in the strip


def draw(instance: Instance, solution: dict[str, Any] | None = None, *,
         width: float | None = None, height: float | None = None) -> Drawing:
    """The jugs at their start levels, or with `solution` the strip of the plan's states,
    on a page at most `width` x `height` mm (None: the largest page)."""
    lines = _facts(instance)
    room = body_width(width)
    if not solution:
        return headed_page(lines, _vessels(instance, instance.start, BIG, room, goal=True),
                           width=width)
    moves, states = solution["moves"], solution["states"]
    lines.append(f"solution: {len(moves)} move{'s' * (len(moves) != 1)}, "
                 f"from {' '.join(map(str, states[0]))} to {' '.join(map(str, states[-1]))}")

    def frame(k: int) -> Drawing:
        touched = _touched(instance, moves[k - 1]) if k else ()
        return _vessels(instance, states[k], SMALL, room, touched=touched)

    def caption(k: int) -> str:
        return f"{k}. {move_caption(instance, moves[k - 1])}" if k else "start"

    return plan_page(lines, len(moves), frame, caption, noun="moves", width=width,
                     height=height, caption_size=CAPTION_MM)


def _facts(instance: Instance) -> list[str]:
    """The lines of text above the picture: capacities, start, moves, goal."""
    goal = instance.goal
    if goal.kind is GoalKind.HOLDS:
        wanted = f"some jug holds exactly {goal.amounts[0]}"
    elif goal.kind is GoalKind.TOTAL:
        wanted = f"the jugs hold {goal.amounts[0]} together"
    else:
        wanted = "the levels " + " ".join(map(str, goal.amounts)) + ", jug by jug"
    return [f"goal: {wanted}",
            f"capacities of jugs 1-{instance.jugs}: " + " ".join(map(str, instance.capacities))
            + " · start " + " ".join(map(str, instance.start)),
            "moves: " + ", ".join(kind.value for kind in instance.kinds)]


def move_caption(instance: Instance, label: str) -> str:
    """A move of the solution JSON (jugs from 0) as a caption, jugs from 1: "fill 1",
    "empty 3", "pour 1→2".

    >>> from twinsolve.puzzles.jugs.rules import parse
    >>> move_caption(parse("jugs\\ncapacities 3 5\\nmoves pour\\ngoal holds 4\\n"), "pour 1 0")
    'pour 2→1'
    """
    move = parse_move(label, instance.jugs)
    if move is None:
        raise ValueError(f"{label!r} is not a move of these {instance.jugs} jugs")
    return move_text(move, arrow="→")


def _touched(instance: Instance, label: str) -> tuple[int, ...]:
    move = parse_move(label, instance.jugs)
    if move is None:
        raise ValueError(f"{label!r} is not a move of these {instance.jugs} jugs")
    return (move.jug,) if move.into is None else (move.jug, move.into)


def _heights(capacities: tuple[int, ...], style: _Style) -> list[float]:
    """Vessel heights proportional to capacity, none below the style's floor."""
    largest = max(capacities)
    return [max(style.tallest * c / largest, style.floor) for c in capacities]


def _vessels(instance: Instance, levels: list[int] | tuple[int, ...], style: _Style,
             room: float, *, touched: tuple[int, ...] = (), goal: bool = False) -> Drawing:
    """The jugs side by side, bottoms aligned, water at `levels`.

    Columns are `style.column` wide, narrower when that many would not fit in
    `room` mm; the level (and in the big style the name and capacity) is
    written in its column, all at one size that fits the widest.
    """
    caps = instance.capacities
    column = min(style.column, room / len(caps))
    width = min(style.width, column * 0.7)
    top = style.text * 1.6 if style.names else 1.0
    bottom = top + style.tallest
    rows = 2 if style.names else 1
    picture = Drawing(column * len(caps), bottom + style.text * 1.6 * rows)
    marks = instance.goal.amounts if goal and instance.goal.kind is GoalKind.EXACT else None
    sizes = _text_sizes(instance, style, column * 0.95)
    for i, (cap, level, height) in enumerate(zip(caps, levels, _heights(caps, style),
                                                 strict=True)):
        middle = column * (i + 0.5)
        left = middle - width / 2
        picture.rect(left, bottom - height, width, height, fill=INSIDE)
        if level:
            water = height * level / cap
            picture.rect(left, bottom - water, width, water, fill=WATER)
        picture.rect(left, bottom - height, width, height, stroke=GLASS, width=0.35)
        if marks is not None:
            mark = bottom - height * marks[i] / cap
            picture.line(left - 1, mark, left + width + 1, mark, stroke=GOAL, width=0.4,
                         dash=(1.0, 0.7))
        _label(picture, style, sizes, i, cap, level, middle, bottom, i in touched)
    return picture


def _text_sizes(instance: Instance, style: _Style, room: float) -> tuple[float, float]:
    """The sizes of the levels and of the names and capacities: the widest fits in `room`."""
    widest = str(max(instance.capacities))
    small = style.text * 0.8
    return (fit_size(widest, room, style.text, bold=True),
            min(fit_size(f"jug {instance.jugs}", room, small),
                fit_size(f"of {widest}", room, small)))


def _label(picture: Drawing, style: _Style, sizes: tuple[float, float], jug: int, cap: int,
           level: int, middle: float, bottom: float, touched: bool) -> None:
    """The level under a vessel; in the big style its name above and its capacity below."""
    level_size, small = sizes
    picture.text(middle, bottom + style.text * 0.85, str(level), size=level_size, bold=True,
                 fill=TOUCHED if touched else "#000000")
    if style.names:
        picture.text(middle, style.text * 0.8, f"jug {jug + 1}", size=small)
        picture.text(middle, bottom + style.text * 2.35, f"of {cap}", size=small,
                     fill="#555555")
