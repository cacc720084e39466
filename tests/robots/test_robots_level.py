"""Level files of the stealth game: they round-trip, and every bad one is refused with
file, line, column and problem (`InstanceError`, nothing else)."""

from __future__ import annotations

import pytest
from conftest import assert_parses_or_refuses
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.core.errors import InstanceError
from twinsolve.robots import level as levels
from twinsolve.robots.level import Door, Item, RobotKind, Tile

SMALL = """# source: hand-made
robots 3 6
P.*g#E
.D.r.S
k.eHIC
vision 7
turns 40
door 1 1 period 4 open 2 phase 1
"""


def test_a_level_reads_every_map_character_and_option():
    level = levels.parse(SMALL, "small.txt")
    assert (level.rows, level.cols, level.player, level.exit) == (3, 6, (0, 0), (0, 5))
    assert level.tile((0, 3)) is Tile.COVER and level.tile((1, 3)) is Tile.ALARM
    assert level.tile((0, 4)) is Tile.WALL and level.tile((0, 0)) is Tile.FLOOR
    assert level.items == (((0, 2), Item.SHARD), ((2, 0), Item.SKILL), ((2, 2), Item.EMP))
    assert [(robot.kind, robot.home) for robot in level.robots] == [
        (RobotKind.SENTINEL, (1, 5)), (RobotKind.HUNTER, (2, 3)),
        (RobotKind.INTERCEPTOR, (2, 4)), (RobotKind.SCOUT, (2, 5))]
    assert (level.vision, level.robot_vision, level.turns, level.seed) == (7, 5, 40, 0)
    assert level.doors == (Door((1, 1), 4, 2, 1),)
    assert level.meta == (("source", "hand-made"),)


def test_a_door_opens_on_its_schedule():
    door = Door((0, 0), period=4, open=2, phase=1)
    assert [door.is_open(tick) for tick in range(6)] == [True, False, False, True, True, False]


def test_format_writes_back_the_same_level_and_leaves_defaults_out():
    level = levels.parse(SMALL)
    text = levels.format(level)
    assert levels.parse(text) == level
    assert "robot-vision" not in text and "seed" not in text and "vision 7" in text


@pytest.mark.parametrize("text, line, column, words", [
    ("robot 1 2\nPE\n", 1, 1, "expected header 'robots ROWS COLS'"),
    ("robots 1 2 big\nPE\n", 1, 12, "unexpected 'big' after COLS"),
    ("robots 0 2\n", 1, 8, "ROWS must be a whole number 1..128"),
    ("robots 2 2\nPE\n", 2, None, "expected 2 map rows, found 1"),
    ("robots 1 3\nPXE\n", 2, 2, "unknown map character 'X'"),
    ("robots 1 3\nPE\n", 2, None, "map row has 2 cells, expected 3"),
    ("robots 1 2\nPEE\n", 2, 3, "map row has 3 cells, expected 2"),
    ("robots 1 2\n.E\n", 1, None, "exactly one player start ('P'), found 0"),
    ("robots 1 3\nPEE\n", 1, None, "exactly one exit ('E'), found 2"),
    ("robots 1 2\nPE\nspeed 3\n", 3, 1, "unknown option 'speed'"),
    ("robots 1 2\nPE\nvision 0\n", 3, 8, "vision must be a whole number 1..64, got '0'"),
    ("robots 1 2\nPE\nvision\n", 3, None, "vision needs a value"),
    ("robots 1 2\nPE\nvision 3 4\n", 3, 10, "vision takes one number"),
    ("robots 1 2\nPE\nturns 5\nturns 6\n", 4, 1, "second 'turns' line (first on line 3)"),
    ("robots 1 3\nPDE\n", 2, None, "the door at row 0 column 1 has no"),
    ("robots 1 3\nPDE\ndoor 0 1 period 2\n", 3, 1, "a door line reads"),
    ("robots 1 3\nPDE\ndoor 0 0 period 2 open 1 phase 0\n", 3, 6, "row 0 column 0 is no door"),
    ("robots 1 3\nPDE\ndoor 0 1 period 2 open 3 phase 0\n", 3, 24, "open must be a whole "
                                                                   "number 0..2, got '3'"),
    ("robots 1 3\nPDE\ndoor 0 1 period 2 open 1 phase 2\n", 3, 32, "phase must be a whole "
                                                                   "number 0..1"),
    ("robots 1 3\nPDE\ndoor 0 1 period 2 open 1 phase 0\ndoor 0 1 period 3 open 1 phase 0\n",
     4, 1, "a second door line for cell 0 1"),
    ("robots 1 3\nPDE\ndoor 0 7 period 2 open 1 phase 0\n", 3, 8, "COL must be a whole "
                                                                  "number 0..2, got '7'"),
])
def test_a_bad_level_names_its_line_column_and_problem(text, line, column, words):
    with pytest.raises(InstanceError) as caught:
        levels.parse(text, "bad.txt")
    error = caught.value
    assert (error.source, error.line, error.column) == ("bad.txt", line, column), error.message
    assert words in error.message


_CHARS = "#.grD" + "PE*ekSHIC"


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5),
       st.lists(st.text(alphabet=_CHARS, min_size=0, max_size=6), min_size=0, max_size=5),
       st.lists(st.sampled_from(["vision 3", "turns 9", "seed 4", "robot-vision 2",
                                 "door 0 0 period 3 open 1 phase 2", "door 1 1 period 1 "
                                 "open 1 phase 0", "bogus", "vision x", ""]), max_size=3))
def test_any_text_parses_and_round_trips_or_is_refused_with_an_instance_error(
        rows, cols, lines, options):
    text = f"robots {rows} {cols}\n" + "\n".join(lines + options) + "\n"
    assert_parses_or_refuses(levels, [text])


def test_random_maps_with_one_player_and_one_exit_parse():
    parsed = assert_parses_or_refuses(levels, [
        "robots 2 3\nP.*\n.SE\n", "robots 1 2\nEP\nseed 9223372036854775807\n",
        "robots 2 2\nPD\n.E\ndoor 0 1 period 5 open 0 phase 4\n"])
    assert parsed == 3
