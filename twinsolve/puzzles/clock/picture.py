"""Clock stepping as a picture: the dial with its start and goal, a plan as a strip of dials.

What is drawn. The puzzle: a dial, position 0 at the top and the positions
running clockwise, the start as a hand and the goal as a red dot on the rim,
with text saying the size, the start, the goal and the moves allowed. A dial
of at most `MARKED` positions has a tick per position (and its numbers, or
every fifth, say); a larger one has no per-position shapes at all, only its
quarters labelled, so a dial of 1,000,000 positions draws as fast and as
small as one of 12: the numbers written say where the hand is.

With a solution: the text and the number of moves, then a strip of small
dials, one per position along the plan, each with its hand, the arc the step
swept from the position before, the goal dot, the position written below,
and the step as its caption ("3. +7"). A plan of more than
`core.drawing.SEQUENCE_LIMIT` steps (the shipped prime cycle has 500,000)
shows its first and last steps around a "… N more steps …" note, as the
text picture (`rules.render`) does. The page wraps its text and strip to
the room asked for (`width`, `height`: a sheet's slot).
"""

from __future__ import annotations

import math
from typing import Any

from ...core.drawing import shown
from ...graphics.canvas import Drawing
from ...graphics.layout import fit_size, headed_page, plan_page, text_width
from .rules import Instance

__all__ = ["draw", "MARKED", "FACE", "HAND", "GOAL", "SWEEP"]

MARKED = 60           # dials with at most this many positions get a tick per position
FACE = "#fbf7ee"      # the face of a dial: one per dial drawn
RIM = "#3b3b3b"
HAND = "#1f5fa8"
GOAL = "#c0392b"
SWEEP = "#f0a500"     # the arc a step turned the hand through
BIG_RADIUS = 35.0
SMALL_RADIUS = 9.0
CAPTION_MM = 3.2      # a dial's caption in the strip
_ARC_POINTS = 32      # points of a full turn's arc; a step's arc has fewer


def draw(instance: Instance, solution: dict[str, Any] | None = None, *,
         width: float | None = None, height: float | None = None) -> Drawing:
    """The dial at its start, or with `solution` the strip of the plan's positions, on a
    page at most `width` x `height` mm (None: the largest page)."""
    lines = _facts(instance)
    if not solution:
        return headed_page(lines, _puzzle_dial(instance), width=width)
    steps, times = solution["steps"], solution["times"]
    lines.append(f"solution: {len(steps):,} move{'s' * (len(steps) != 1)}")

    def frame(k: int) -> Drawing:
        before = times[k - 1] if k else None
        return _small_dial(instance, times[k], before)

    def caption(k: int) -> str:
        return f"{k:,}. +{steps[k - 1]:,}" if k else "start"

    return plan_page(lines, len(steps), frame, caption, noun="steps", width=width,
                     height=height, caption_size=CAPTION_MM)


def _facts(instance: Instance) -> list[str]:
    """The lines of text above the picture: the goal, the dial, the moves."""
    moves = instance.moves
    listed = [f"+{moves[i]:,}" if isinstance(i, int) else i.label("moves")
              for i in shown(len(moves))]
    lines = [f"goal: turn the dial from {instance.start:,} to {instance.target:,}",
             f"a dial of {instance.hours:,} positions, 0 to {instance.hours - 1:,}",
             "moves: " + (", ".join(listed) if listed else "none (every step is a whole turn)")]
    if tuple(s % instance.hours for s in instance.steps) != moves:
        lines.append("steps as written: " + " ".join(
            f"{instance.steps[i]:,}" if isinstance(i, int) else i.label("steps")
            for i in shown(len(instance.steps))))
    return lines


def _point(cx: float, cy: float, radius: float, hours: int,
           position: float) -> tuple[float, float]:
    """Where `position` is on a circle: 0 at the top, clockwise."""
    angle = 2 * math.pi * position / hours
    return cx + radius * math.sin(angle), cy - radius * math.cos(angle)


def _face(picture: Drawing, cx: float, cy: float, radius: float, hours: int,
          numbers: bool) -> None:
    """The face, a tick per position (four on a big dial), and its numbers inside them."""
    picture.circle(cx, cy, radius, fill=FACE, stroke=RIM, width=radius * 0.03)
    quarters = hours > MARKED  # then four ticks only, at the quarters of a turn
    long = set(_numbered(hours))  # the positions a big dial writes have long ticks
    for p in (q * hours / 4 for q in range(4)) if quarters else range(hours):
        outer = _point(cx, cy, radius * 0.96, hours, p)
        inner = _point(cx, cy, radius * (0.86 if quarters or p in long else 0.9), hours, p)
        picture.line(*inner, *outer, stroke=RIM, width=radius * 0.012)
    for p in _numbered(hours) if numbers else (0,):
        label = f"{p:,}"
        size = fit_size(label, radius * 0.45, radius * (0.11 if numbers else 0.22))
        # the label's box just inside the ticks, whichever way it faces
        angle = 2 * math.pi * p / hours
        inset = (text_width(label, size) / 2 * abs(math.sin(angle))
                 + size * 0.6 * abs(math.cos(angle)))
        picture.text(*_point(cx, cy, radius * 0.8 - inset, hours, p), label, size=size,
                     fill="#555555")


def _numbered(hours: int) -> list[int]:
    """The positions a big dial writes: all of up to 12, every fifth of up to 60, or quarters."""
    if hours <= 12:
        return list(range(hours))
    if hours <= 24:
        return list(range(0, hours, 2))
    if hours <= MARKED:
        return list(range(0, hours, 5))
    return sorted({round(q * hours / 4) for q in range(4)})


def _hand(picture: Drawing, cx: float, cy: float, radius: float, hours: int, position: int,
          colour: str, length: float = 0.8) -> None:
    tip = _point(cx, cy, radius * length, hours, position)
    picture.line(cx, cy, *tip, stroke=colour, width=radius * 0.06)
    picture.circle(cx, cy, radius * 0.06, fill=colour)


def _goal_dot(picture: Drawing, cx: float, cy: float, radius: float, hours: int,
              target: int, size: float = 0.09) -> None:
    picture.circle(*_point(cx, cy, radius, hours, target), radius * size, fill=GOAL,
                   stroke="#ffffff", width=radius * 0.02)


def _sweep(picture: Drawing, cx: float, cy: float, radius: float, hours: int, before: int,
           after: int) -> None:
    """The arc from `before` clockwise to `after` (a step turns the dial on, modulo M)."""
    turned = (after - before) % hours
    points = max(2, math.ceil(_ARC_POINTS * turned / hours) + 1)
    arc = [_point(cx, cy, radius * 0.9, hours, before + turned * i / (points - 1))
           for i in range(points)]
    picture.polyline(arc, stroke=SWEEP, width=radius * 0.08, opacity=0.8)


def _puzzle_dial(instance: Instance) -> Drawing:
    """The big dial: the start hand, the goal dot, and a legend under it."""
    r = BIG_RADIUS
    picture = Drawing(2 * r + 10, 2 * r + 22)
    cx, cy = r + 5, r + 3
    _face(picture, cx, cy, r, instance.hours, numbers=True)
    _hand(picture, cx, cy, r, instance.hours, instance.start, HAND, length=0.6)
    _goal_dot(picture, cx, cy, r, instance.hours, instance.target, size=0.06)
    legend = cy + r + 8
    picture.line(4, legend, 10, legend, stroke=HAND, width=1.2)
    picture.text(12, legend, f"start {instance.start:,}", size=3.2, anchor="start")
    picture.circle(cx + 8, legend, 1.6, fill=GOAL)
    picture.text(cx + 11, legend, f"goal {instance.target:,}", size=3.2, anchor="start")
    return picture


def _small_dial(instance: Instance, position: int, before: int | None) -> Drawing:
    """One position of a plan: face, the step's arc, goal dot, hand, the number below."""
    r = SMALL_RADIUS
    picture = Drawing(2 * r + 2, 2 * r + 6)
    cx, cy = r + 1, r + 1
    _face(picture, cx, cy, r, instance.hours, numbers=False)
    if before is not None:
        _sweep(picture, cx, cy, r, instance.hours, before, position)
    _goal_dot(picture, cx, cy, r, instance.hours, instance.target)
    _hand(picture, cx, cy, r, instance.hours, position, HAND)
    label = f"{position:,}"
    picture.text(cx, 2 * r + 4, label, size=fit_size(label, 2 * r + 2, 2.6, bold=True),
                 bold=True, fill=GOAL if position == instance.target else "#000000")
    return picture

