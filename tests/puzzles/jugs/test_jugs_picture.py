"""Water-jug pictures: every shipped instance draws, and the SVG shows the jugs and the plan.

The SVG is read back as XML: a vessel is a `<rect>` stroked in the glass
colour, its water the `<rect>` filled with water inside it, a caption a
`<text>` "k. move". So a picture that drops a jug or a state, draws a jug
out of proportion, or loses or renames a move fails here; jugs are numbered
from 1, as people count (the solution JSON keeps its indexes from 0). Every shipped
instance is drawn in SVG (the puzzle and its answer, and again from the file
read anew: the same bytes); one also in PNG and PDF (matplotlib draws them at
about half a second each; `picture_checks.check_formats`; every one under `slow`).
"""

from __future__ import annotations

import re

import picture_checks as checks
import pytest
from conftest import sampled

from twinsolve.core.drawing import HEAD, TAIL
from twinsolve.core.run import load_file
from twinsolve.graphics import canvas
from twinsolve.puzzles.jugs import picture
from twinsolve.puzzles.jugs.rules import (
    Move,
    MoveKind,
    parse,
    render,
    solution_from_moves,
    verify,
)

FOLDER = checks.INSTANCES / "jugs"
FILES = checks.shipped("jugs")
CAPTION = re.compile(r"(\d[\d,]*)\. (.+)")


def vessels(text: str) -> list:
    return checks.elements(text, "rect", stroke=picture.GLASS)


def captions(text: str) -> list[tuple[int, str]]:
    return [(int(m.group(1).replace(",", "")), m.group(2)) for m in checks.matches(text, CAPTION)]


# ---------------------------------------------------------------- every shipped instance

def test_the_shipped_instances_are_found():
    assert len(FILES) >= 20 and any("graded" in p.parts for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=checks.file_id)
def test_every_shipped_instance_draws_its_jugs_and_plan_in_the_same_bytes(path):
    instance, solution = load_file(path), checks.hand_answer(path)
    _, text = checks.drawn(picture.draw, instance)
    assert len(vessels(text)) == instance.jugs
    assert any(e.text.startswith("goal: ") for e in checks.elements(text, "text"))
    if solution is not None:
        checks.check_same_svg(picture.draw, instance, load_file(path), solution)
        moves = len(solution["moves"])
        _, text = checks.drawn(picture.draw, instance, solution)
        assert len(vessels(text)) == instance.jugs * (len(checks.shown_steps(moves)) + 1)
        assert [k for k, _ in captions(text)] == list(range(1, moves + 1))


@pytest.mark.parametrize("path", sampled(FILES), ids=checks.file_id)
def test_every_shipped_instance_draws_in_png_and_pdf_at_the_drawing_size(path):
    checks.check_both_formats(picture.draw, load_file(path), checks.hand_answer(path), dpi=40)


# ---------------------------------------------------------------- what the picture says

DIE_HARD = parse("jugs\ncapacities 3 5\nmoves fill empty pour\ngoal holds 4\n")


def test_vessels_are_proportional_to_capacity_and_water_to_level():
    instance = parse("jugs\ncapacities 8 5 2\nstart 6 5 0\nmoves pour\ngoal exact 4 4 3\n")
    text = canvas.svg(picture.draw(instance))
    outlines = vessels(text)
    heights = [float(e.get("height")) for e in outlines]
    assert heights[0] == pytest.approx(60, abs=0.01)
    assert [h / heights[0] for h in heights] == pytest.approx([1, 5 / 8, 2 / 8], abs=0.001)
    water = [float(e.get("height")) for e in checks.elements(text, "rect")
             if e.get("fill") == picture.WATER]
    assert water == pytest.approx([60 * 6 / 8, 60 * 5 / 8], abs=0.01)  # the empty jug has none
    goal_marks = [e for e in checks.elements(text, "line") if e.get("stroke") == picture.GOAL]
    assert len(goal_marks) == 3


def test_a_tiny_jug_beside_a_huge_one_is_still_seen_and_the_page_fits():
    instance = parse("jugs\ncapacities " + " ".join(["1000000"] * 15 + ["1"])
                     + "\nmoves fill\ngoal holds 1\n")
    drawing = picture.draw(instance)
    heights = [float(e.get("height")) for e in vessels(canvas.svg(drawing))]
    assert len(heights) == 16 and min(heights) >= 2.0 and checks.within_page(drawing)
    solution = solution_from_moves(instance, [Move(MoveKind.FILL, 15)])
    assert verify(instance, solution) == []
    solved = picture.draw(instance, solution)
    assert checks.within_page(solved) and len(vessels(canvas.svg(solved))) == 16 * 2


def test_each_state_of_the_plan_is_drawn_with_its_move():
    solution = checks.hand_answer(FOLDER / "die-hard-holds-4.txt")
    text = canvas.svg(picture.draw(DIE_HARD, solution))
    assert solution["moves"][:3] == ["fill 1", "pour 1 0", "empty 0"]  # the JSON: from 0
    assert [move for _, move in captions(text)] == [  # what people read: jugs from 1
        "fill 2", "pour 2→1", "empty 1", "pour 2→1", "fill 2", "pour 2→1"]
    names = [e.text for e in checks.elements(canvas.svg(picture.draw(DIE_HARD)), "text")]
    assert "jug 1" in names and "jug 2" in names and "jug 0" not in names
    levels = [e.text for e in checks.elements(text, "text") if e.get("font-weight") == "bold"
              and (e.text or "").isdigit()]
    assert levels == [str(v) for state in solution["states"] for v in state]


def test_a_long_plan_shows_its_first_and_last_moves_around_a_gap():
    wasted = [Move(MoveKind.FILL, 0), Move(MoveKind.EMPTY, 0)] * 20  # 40 moves to nowhere
    plan = wasted + [Move(MoveKind.FILL, 1), Move(MoveKind.POUR, 1, 0), Move(MoveKind.EMPTY, 0),
                     Move(MoveKind.POUR, 1, 0), Move(MoveKind.FILL, 1), Move(MoveKind.POUR, 1, 0)]
    solution = solution_from_moves(DIE_HARD, plan)
    assert verify(DIE_HARD, solution) == []
    drawing = picture.draw(DIE_HARD, solution)
    text = canvas.svg(drawing)
    steps = [k for k, _ in captions(text)]
    assert steps == [*range(1, HEAD + 1), *range(len(plan) - TAIL + 1, len(plan) + 1)]
    gap = len(plan) - HEAD - TAIL
    assert [e.text for e in checks.elements(text, "text")].count(f"… {gap} more moves …") == 1
    assert len(vessels(text)) == 2 * (HEAD + TAIL + 1) and checks.within_page(drawing)


def test_a_move_that_is_not_one_is_refused():
    with pytest.raises(ValueError, match="not a move"):
        picture.move_caption(DIE_HARD, "pour 0 0")


def test_the_text_picture_numbers_the_jugs_from_1_too():
    solution = checks.hand_answer(FOLDER / "die-hard-holds-4.txt")
    lines = render(DIE_HARD, solution).plain.splitlines()
    assert solution["moves"][:2] == ["fill 1", "pour 1 0"]
    assert [line.split("  ")[0].strip() for line in lines[3:5]] == ["fill 2", "pour 2→1"]


def test_a_plan_strip_laid_out_for_a_slot_wraps_there_and_stays_readable():
    solution = checks.hand_answer(FOLDER / "die-hard-holds-4.txt")
    page = picture.draw(DIE_HARD, solution, width=85, height=90)
    assert page.width <= 85 + 1e-9
    sizes = [placed.text_size for placed in canvas.walk(page) if placed.shape.kind == "text"]
    assert min(sizes) >= 3.2 * 0.8 - 1e-9  # captions and levels shrunk at most to 80 %
