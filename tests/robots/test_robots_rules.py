"""The stealth game's rules (`twinsolve.robots.game`), each on a small hand-made map,
with scripted robot brains (the robots' own AI is not what these test)."""

from __future__ import annotations

import pytest

from twinsolve.robots import game as rules
from twinsolve.robots.game import Game, Outcome
from twinsolve.robots.level import parse


def stay(view):
    return view.cell


def walk(*cells):
    """A brain that steps through `cells` in turn, then stays."""
    plan = list(cells)

    def brain(view):
        return plan.pop(0) if plan else view.cell
    return brain


def recorder(log):
    def brain(view):
        log.append(view)
        return view.cell
    return brain


def test_nobody_enters_a_closed_door_and_anybody_may_leave_one():
    # Door at column 1: open on ticks 0 and 1 (period 4, open 2), closed on 2 and 3.
    level = parse("robots 1 4\nPD.E\ndoor 0 1 period 4 open 2 phase 0\n")
    game = Game(level, [])
    assert game.play("R") == []           # tick 0: open, the player steps in
    assert game.state.player == 1
    assert game.play("W") == []           # tick 1: still open; after it the door closes
    assert not game.grid.is_open(1)
    assert game.play("R") == [] and game.state.player == 2   # leaving a closed door: allowed
    assert game.play("L") == ["blocked"] and game.state.player == 2  # entering: not


def test_sight_is_blocked_by_walls_and_closed_doors_and_halved_on_cover():
    level = parse("robots 3 7\nP.#...E\n.......\nS..g...\nrobot-vision 6\nvision 8\n")
    game = Game(level, [stay])
    assert 2 not in game.player_sight() and 1 in game.player_sight()  # the wall at column 2
    robot = game.state.robots[0]
    assert game.player_seen_by(robot)            # same column, 2 cells, nothing between
    robot.cell = 2 * 7 + 6                       # row 2, column 6: another row and column
    assert not game.player_seen_by(robot)
    game.state.player = 2 * 7 + 3                # on cover: robot vision 6 -> 3
    robot.cell = 2 * 7 + 0                       # 3 cells away: seen
    assert game.player_seen_by(robot)
    game.state.player = 2 * 7 + 3
    robot.cell = 2 * 7 + 6                       # also 3 away, from the right
    assert game.player_seen_by(robot)
    game.level = parse("robots 3 7\nP.#...E\n.......\nS..g...\nrobot-vision 5\n")
    assert not game.player_seen_by(robot)        # 5 // 2 = 2 < 3


def test_a_closed_door_blocks_a_robots_sight():
    level = parse("robots 1 5\nSDP.E\ndoor 0 1 period 2 open 1 phase 1\n")
    game = Game(level, [stay])
    assert not game.grid.is_open(1)              # tick 0: (0 + 1) mod 2 = 1, not < 1: closed
    assert not game.player_seen_by(game.state.robots[0])
    game.play("W")                               # tick 1: open
    assert game.player_seen_by(game.state.robots[0])


def test_footsteps_spread_through_corridors_not_walls_and_reach_farther_on_alarms():
    level = parse("robots 3 12\n"
                  "P....S......\n"
                  "############\n"
                  "H..r...C...E\n")
    views = []
    game = Game(level, [recorder(views), recorder(views), recorder(views)])
    game.play("R")                               # player at column 1: S is 4 steps away
    heard = {view.kind.value: view.heard for view in views}
    assert heard["S"] == 1 and heard["H"] is None  # H is 1 cell away through the wall: deaf
    field_ = game.footsteps()
    assert field_[2 * 12] == -1 and field_[5] == 4
    # On the alarm cell the radius is 4 + 5 = 9, and the alarm sounds.
    views.clear()
    game2 = Game(parse("robots 2 12\n.Pr.......SE\n............\n"), [recorder(views)])
    events = game2.play("R")
    assert events == ["alarm"] and views[0].heard == 2   # 8 steps away: heard
    assert views[0].alarms == {2: 0}


def test_an_emp_stuns_the_robots_within_four_steps_for_its_turn_and_five_more():
    level = parse("robots 1 12\nPe...H.....E\n")
    moves = []

    def brain(view):
        moves.append(view.tick)
        return view.cell
    game = Game(level, [brain])
    game.play("R")                               # picks up the charge; the robot acts
    assert game.state.emp == 1 and moves == [0]
    assert game.play("X") == ["emp"]             # Manhattan distance 4: stunned
    # The count the HUD shows is the rules' five: the turns it will not act from now on.
    assert game.state.robots[0].stunned == rules.EMP_TURNS == 5
    left = []
    for _ in range(rules.EMP_TURNS):
        game.play("W")
        left.append(game.state.robots[0].stunned)
    assert left == [4, 3, 2, 1, 0] and moves == [0]  # the EMP's turn and five more
    game.play("W")
    assert moves == [0, 7]
    far = Game(parse("robots 1 12\nPe....H....E\n"), [brain])
    far.play("R")
    far.play("X")
    assert far.state.robots[0].stunned == 0      # Manhattan distance 5: not stunned


def test_undo_restores_everything_the_random_generator_included():
    level = parse("robots 3 5\nP*...\n.k...\n....E\nseed 11\n")
    game = Game(level, [])
    game.play("R")
    before = (game.state.player, set(game.state.shards), game.state.skill, game.rng.getstate())
    game.play("D")
    game.play("Z")
    after = (game.state.player, set(game.state.shards), game.state.skill, game.rng.getstate())
    assert after == before and game.undos_left == rules.UNDOS - 1
    again = game.play("D")
    replay = Game(level, [])
    replay.play("R")
    assert replay.play("D") == again and replay.state.skill == game.state.skill


def test_undo_is_limited_per_game():
    game = Game(parse("robots 1 8\nP......E\n"), [])
    for _ in range(4):
        game.play("R")
    assert [game.play("Z") for _ in range(4)] == [["undo"]] * 3 + [["no-undo"]]
    assert game.state.player == 1


def test_stepping_on_the_open_exit_wins_even_when_a_robot_reaches_it_that_turn():
    level = parse("robots 1 4\n*PEH\n")
    game = Game(level, [walk(2)])
    game.play("L")                               # the shard: the exit opens
    assert game.exit_open()
    game.play("R")
    assert game.play("R") == ["won"] and game.state.outcome is Outcome.WON


def test_a_robot_captures_by_stepping_onto_or_swapping_with_the_player():
    game = Game(parse("robots 1 4\nP.HE\n"), [walk(1)])
    assert game.play("W") == [] and game.state.player == 0  # the robot steps next to them
    game2 = Game(parse("robots 1 4\nP.HE\n"), [walk(1)])
    assert game2.play("R") == ["captured"]       # both move: they meet on cell 1
    game3 = Game(parse("robots 1 4\nPH.E\n"), [walk(0)])
    assert game3.play("R") == ["captured"]       # they swap cells: a capture too


def test_a_shield_absorbs_one_capture():
    game = Game(parse("robots 1 4\nPH.E\n"), [walk(0)])
    game.state.shield = 1
    assert game.play("R") == ["shield"] and game.state.outcome is Outcome.PLAYING


def test_an_undo_takes_back_a_capture_while_undos_are_left():
    game = Game(parse("robots 1 5\nP.H.E\n"), [walk(1)])
    assert game.play("R") == ["captured"] and game.state.outcome is Outcome.CAPTURED
    assert game.accepts("Z") and not game.accepts("W")
    with pytest.raises(ValueError, match="the game is over"):
        game.play("W")
    assert game.play("Z") == ["undo"]
    assert (game.state.outcome, game.state.player, game.state.tick) == (Outcome.PLAYING, 0, 0)
    assert game.state.robots[0].cell == 2 and game.undos_left == rules.UNDOS - 1
    spent = Game(parse("robots 1 5\nP.H.E\n"), [walk(1)])
    spent.undos_left = 0
    spent.play("R")
    assert not spent.accepts("Z")                # no undo left: the capture stands


def test_the_game_is_lost_on_time():
    game = Game(parse("robots 1 5\nP*..E\nturns 2\n"), [])
    game.play("W")
    assert game.play("W") == ["timeout"] and game.state.outcome is Outcome.TIMEOUT
    assert not game.accepts("Z")                 # no undo after the time ran out
    with pytest.raises(ValueError, match="the game is over"):
        game.play("W")


def test_the_skill_point_wanders_by_the_seeded_generator_and_gives_a_gift():
    level = parse("robots 3 3\n...\n.k.\nP.E\nseed 3\n")
    walks = []
    for _ in range(2):
        game = Game(level, [])
        path = []
        for _ in range(6):
            game.play("W")
            path.append(game.state.skill)
        walks.append(path)
    assert walks[0] == walks[1]
    game = Game(level, [])
    game.state.skill = 7                         # next to the player: step onto it
    events = game.play("R")
    assert game.state.skill is None and events[0].startswith("skill-")
    assert (game.state.shield, game.state.silence, game.state.emp) != (0, 0, 0)


def test_a_brain_may_not_walk_through_walls():
    game = Game(parse("robots 1 4\nP#HE\n"), [walk(1)])
    with pytest.raises(ValueError, match="may not step"):
        game.play("W")
