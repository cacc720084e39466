"""Play by marking cells (`core.play.CellMarking`): Slitherlink and Nurikabe played to a
verified answer on tiny boards, each drawn in its own convention (Slitherlink's loop as
lines between inside and outside cells, Nurikabe's sea dark with its clues readable), and
their editors' one-line refusals. Cave, the first user, keeps its own tests green.
"""

from __future__ import annotations

import re

import pytest

from twinsolve.core import registry
from twinsolve.core.errors import UsageError
from twinsolve.puzzles.nurikabe.picture import SEA
from twinsolve.puzzles.slitherlink.picture import LOOP

# (puzzle, instance text, a verified answer, the first cells' states in it)
TINY = [("slitherlink", "slitherlink 1 2\n4 -\n", {"inside": ["10"]}, ["inside", "outside"]),
        ("nurikabe", "nurikabe 2 2\n2 -\n- -\n", {"shaded": ["00", "11"]}, ["white", "white"])]


def _play(puzzle):
    entry = registry.puzzle(puzzle)
    return entry, registry.capability(entry, "play")


@pytest.mark.parametrize(("puzzle", "text", "answer", "states"), TINY)
def test_a_tiny_board_played_cell_by_cell_is_complete_and_verified(puzzle, text, answer,
                                                                   states):
    entry, play = _play(puzzle)
    instance = entry.rules.parse(text)
    position = play.start(instance)
    assert not play.board(instance, position).complete and play.items(instance, position) == {}
    for move in play.moves_to(instance, answer):
        position = play.apply(instance, position, move)
    board = play.board(instance, position)
    cells = instance.rows * instance.cols
    assert position == answer and board.complete
    assert board.status == f"{cells} of {cells} cells decided"
    assert entry.rules.verify(instance, position) == []
    assert [target.state for target in board.targets][:2] == states
    with pytest.raises(UsageError, match="holds"):
        play.apply(instance, position, "r0c0 x")


def _loop_lines(page):
    return sorted(shape.points for shape in page.shapes
                  if shape.kind == "line" and shape.stroke == LOOP)


def test_slitherlink_draws_only_the_loop_that_is_already_fixed():
    entry, play = _play("slitherlink")
    instance = entry.rules.parse("slitherlink 1 2\n4 -\n")
    half = play.board(instance, {"inside": ["1?"]}).drawing
    whole = play.board(instance, {"inside": ["10"]}).drawing
    # the side between r0c0 and the undecided r0c1 is not known yet: three sides of four
    assert len(_loop_lines(half)) == 3 and len(_loop_lines(whole)) == 4
    assert set(_loop_lines(half)) < set(_loop_lines(whole))
    assert whole.count("circle") == 6 and [s.text for s in whole.shapes if s.kind == "text"] \
        == ["4"]
    assert _loop_lines(play.board(instance, play.start(instance)).drawing) == []


def test_nurikabe_shades_the_sea_and_keeps_a_shaded_clue_readable():
    entry, play = _play("nurikabe")
    instance = entry.rules.parse("nurikabe 2 2\n2 -\n- -\n")
    page = play.board(instance, {"shaded": ["1?", "10"]}).drawing
    sea = [shape for shape in page.shapes if shape.kind == "rect" and shape.fill == SEA]
    assert len(sea) == 2
    (clue,) = [shape for shape in page.shapes if shape.kind == "text"]
    assert clue.text == "2" and clue.fill != SEA  # light on the dark cell it sits on
    assert page.count("circle") == 1  # the one white cell without a clue is dotted


@pytest.mark.parametrize(("puzzle", "token", "message"), [
    ("slitherlink", "5", "clue 5 is impossible"),
    ("slitherlink", "?", "a Slitherlink cell holds '-' or a clue 0..4, not '?'"),
    ("slitherlink", "x", "a Slitherlink cell holds '-' or a clue 0..4, not 'x'"),
    ("nurikabe", "13", "clue 13 is impossible"),
    ("nurikabe", "0", "clue 0 is impossible"),
    ("nurikabe", "-1", "a Nurikabe cell holds '-', '?' or a clue number, not '-1'"),
])
def test_the_editor_refuses_a_clue_the_cell_cannot_hold_in_one_line(puzzle, token, message):
    _, play = _play(puzzle)
    with pytest.raises(UsageError, match=re.escape(message)) as caught:
        play.edit(play.blank(3, 4), "r0c0", token)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("puzzle", ["slitherlink", "nurikabe"])
def test_a_blank_board_too_large_is_refused_in_one_line(puzzle):
    _, play = _play(puzzle)
    with pytest.raises(UsageError, match="ROWS must be a whole number 1..200"):
        play.blank(201, 3)
    with pytest.raises(UsageError, match="too large to play by hand"):
        play.start(play.blank(200, 200))
