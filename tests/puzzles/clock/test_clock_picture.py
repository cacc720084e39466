"""Clock pictures: every shipped dial draws, big dials stay small and fast, the SVG shows the plan.

The SVG is read back as XML: a dial is a `<circle>` filled with the face
colour, a hand a `<line>` in the hand colour from the dial's centre, a
caption a `<text>` "k. +step". So a picture that drops a position of the
plan, points a hand the wrong way, or draws a shape per position of a
million-position dial fails here. Every shipped instance is drawn in SVG
(the puzzle and its answer, and again from the file read anew: the same
bytes); one also in PNG and PDF (`picture_checks.check_formats`; every one under
`slow`).
"""

from __future__ import annotations

import math
import re
import time
import xml.etree.ElementTree as ET

import picture_checks as checks
import pytest
from conftest import sampled

from twinsolve.core.drawing import HEAD, TAIL
from twinsolve.core.run import load_file
from twinsolve.graphics import canvas
from twinsolve.puzzles.clock import picture
from twinsolve.puzzles.clock.rules import Instance, solution_from_steps, verify

FOLDER = checks.INSTANCES / "clock"
FILES = checks.shipped("clock")
BIG = [p for p in FILES if load_file(p).hours >= 100_000]
CAPTION = re.compile(r"([\d,]+)\. \+([\d,]+)")


def dials(text: str) -> int:
    return len(checks.elements(text, "circle", fill=picture.FACE))


def captions(text: str) -> list[tuple[int, int]]:
    return [(int(m.group(1).replace(",", "")), int(m.group(2).replace(",", "")))
            for m in checks.matches(text, CAPTION)]


# ---------------------------------------------------------------- every shipped instance

def test_the_shipped_instances_are_found():
    assert len(FILES) >= 15 and len(BIG) >= 4 and any("graded" in p.parts for p in FILES)


@pytest.mark.parametrize("path", sampled(FILES, keep=3), ids=checks.file_id)
def test_every_shipped_instance_draws_one_dial_per_position_shown_in_the_same_bytes(path):
    instance, solution = load_file(path), checks.hand_answer(path)
    assert dials(checks.drawn(picture.draw, instance)[1]) == 1
    if solution is not None:
        checks.check_same_svg(picture.draw, instance, load_file(path), solution)
        _, text = checks.drawn(picture.draw, instance, solution)
        steps = checks.shown_steps(len(solution["steps"]))
        assert dials(text) == len(steps) + 1
        assert captions(text) == [(k, solution["steps"][k - 1]) for k in steps]


@pytest.mark.parametrize("path", sampled(FILES), ids=checks.file_id)
def test_every_shipped_instance_draws_in_png_and_pdf_at_the_drawing_size(path):
    checks.check_both_formats(picture.draw, load_file(path), checks.hand_answer(path), dpi=40)


# ---------------------------------------------------------------- big dials

@pytest.mark.parametrize("path", BIG, ids=lambda p: p.name)
def test_a_big_dial_and_its_plan_draw_fast_and_small(path):
    instance, solution = load_file(path), checks.hand_answer(path)
    began = time.perf_counter()
    texts = [canvas.svg(picture.draw(instance))]
    if solution is not None:
        texts.append(canvas.svg(picture.draw(instance, solution)))
    elapsed = time.perf_counter() - began
    assert elapsed < 1.0
    assert all(len(text.encode()) < 200_000 for text in texts)
    assert len(checks.elements(texts[0], "line")) < 20  # no tick per position


def test_ticks_are_one_per_position_on_a_small_dial_and_none_on_a_big_one():
    def lines(hours: int) -> int:
        return len(checks.elements(canvas.svg(picture.draw(Instance(hours, 0, 1, (1,)))), "line"))

    assert lines(60) - lines(12) == 48
    assert lines(picture.MARKED + 1) == lines(1_000_000) < lines(12)


# ---------------------------------------------------------------- what the picture says

def hand_angles(text: str) -> list[float]:
    """The turn (0..1, clockwise from the top) each hand points at, dial by dial: a hand is
    a line in the hand colour from the centre of a face drawn beside it."""
    angles = []
    for group in ET.fromstring(text).iter():
        children = list(group)
        centres = [(float(c.get("cx")), float(c.get("cy"))) for c in children
                   if c.tag == checks.SVG + "circle" and c.get("fill") == picture.FACE]
        for line in children:
            if line.tag != checks.SVG + "line" or line.get("stroke") != picture.HAND:
                continue
            x1, y1, x2, y2 = (float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
            if (x1, y1) in centres:
                angles.append(math.atan2(x2 - x1, y1 - y2) / (2 * math.pi) % 1.0)
    return angles


@pytest.mark.parametrize("hours, start", [(12, 3), (24, 7), (360, 270), (1_000_000, 125_000)])
def test_the_hand_points_at_the_start(hours, start):
    text = canvas.svg(picture.draw(Instance(hours, start, 0, (1,))))
    assert hand_angles(text) == pytest.approx([start / hours], abs=0.002)


def test_the_hands_of_a_plan_point_at_its_positions():
    instance = Instance(12, 3, 2, (4, -5))
    solution = solution_from_steps(instance, [7, 4])
    assert verify(instance, solution) == []
    text = canvas.svg(picture.draw(instance, solution))
    assert hand_angles(text) == pytest.approx([3 / 12, 10 / 12, 2 / 12], abs=0.002)
    written = [e.text for e in checks.elements(text, "text") if e.get("font-weight") == "bold"]
    assert written[-3:] == ["3", "10", "2"]


def test_a_half_million_step_plan_shows_its_first_and_last_steps_around_a_gap():
    instance = Instance(1_000_000, 0, 500_000, (1,))
    solution = solution_from_steps(instance, [1] * 500_000)
    assert verify(instance, solution) == []
    began = time.perf_counter()
    text = canvas.svg(picture.draw(instance, solution))
    assert time.perf_counter() - began < 1.0
    steps = len(solution["steps"])
    assert [k for k, _ in captions(text)] == checks.shown_steps(steps)
    hidden = steps - HEAD - TAIL
    assert [e.text for e in checks.elements(text, "text")].count(f"… {hidden:,} more steps …") == 1
    assert dials(text) == HEAD + TAIL + 1
