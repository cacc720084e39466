"""Each robot behaviour of `twinsolve.robots.ai`, proven on a small hand-made map by
playing the real rules (`twinsolve.robots.game`) with the real planner."""

from __future__ import annotations

import random

import pytest
from conftest import sampled

from twinsolve.robots import play
from twinsolve.robots.ai import LOOKAHEAD, SWEEP_TURNS, Mode, Planner, predicted_point
from twinsolve.robots.game import Game, Outcome
from twinsolve.robots.level import parse


def new_game(text: str) -> tuple[Game, Planner]:
    level = parse(text)
    planner = Planner([robot.kind for robot in level.robots])
    return Game(level, planner.brains(), memory=planner), planner


def cell(game: Game, r: int, c: int) -> int:
    return r * game.level.cols + c


# -- the sentinel ----------------------------------------------------------------------------

def test_the_sentinel_ends_on_the_chokepoint_between_the_player_and_the_exit():
    game, planner = new_game("robots 3 13\n"
                             ".......#.....\n"
                             ".P.........S.\n"
                             ".......#....E\n"
                             "robot-vision 12\n")
    sentinel = game.state.robots[0]
    for _ in range(8):
        game.play("W")
    exit_cell, start = game.exit, cell(game, 1, 1)
    assert game.grid.separators(start, exit_cell) == [cell(game, 1, c) for c in (6, 7, 8)]
    # Alerted (it sees the player), the way out nearest the player that it holds in time.
    assert sentinel.cell == cell(game, 1, 6) == planner.minds[0].post
    assert planner.minds[0].intent == "guard chokepoint" and planner.minds[0].mode is Mode.ALERT
    assert game.state.outcome is Outcome.PLAYING       # it holds: it never chased


def test_the_sentinel_never_steps_off_its_post_to_capture_but_walking_into_it_is_caught():
    game, planner = new_game("robots 3 11\n"
                             "#####.#####\n"
                             "P.........E\n"
                             "#####S#####\n")
    sentinel = game.state.robots[0]
    while sentinel.cell not in game.grid.neighbours[game.state.player]:
        game.play("R")                                 # up to the sentinel on its post
        assert game.state.outcome is Outcome.PLAYING
    post = sentinel.cell
    assert post == planner.minds[0].post
    for _ in range(4):
        game.play("W")                                 # next to it: it holds, no step onto them
        assert sentinel.cell == post and game.state.outcome is Outcome.PLAYING
    into = "R" if post == game.state.player + 1 else "D"
    assert game.play(into) == ["captured"]             # walking into it is a capture
    assert sentinel.cell == post == game.state.player


def test_the_sentinels_post_is_chosen_again_only_when_the_last_known_cell_changes():
    game, planner = new_game("robots 3 16\n"
                             "################\n"
                             "P.....S........E\n"
                             "################\n"
                             "robot-vision 9\n")
    chosen = []
    for action in "WWRRWWW":
        game.play(action)
        mind = planner.minds[0]
        chosen.append((mind.post_against, mind.post))
    againsts = [against for against, _ in chosen]
    assert againsts[:2] == [game.start] * 2            # it sees them at the entry
    assert len(set(againsts)) == 3                     # then where they stepped, twice
    for (before, post_before), (after, post_after) in zip(chosen, chosen[1:], strict=False):
        if before == after:
            assert post_before == post_after           # the same cell: the same post


def test_a_sentinel_never_takes_the_exit_its_doorstep_or_the_entry_as_its_post():
    game, planner = new_game("robots 1 9\n"
                             "P.S....E.\n")
    for _ in range(6):
        game.play("W")
    post = planner.minds[0].post
    assert post not in (game.exit, cell(game, 0, 6), cell(game, 0, 8), game.start)
    assert game.state.robots[0].cell == post


def test_a_robot_behind_a_closed_door_walks_up_to_it_and_waits_there():
    """Never standing still with an empty path while a route exists: a door closed for
    long between it and its target, it walks the maze's route up to the door."""
    game, planner = new_game("robots 3 14\n"
                             "##############\n"
                             "P.......D...HE\n"
                             "##############\n"
                             "door 1 8 period 40 open 1 phase 39\n")
    hunter = game.state.robots[0]
    planner.minds[0].mode, planner.minds[0].last_known = Mode.SEARCH, cell(game, 1, 2)
    game.play("W")
    assert planner.minds[0].path and planner.minds[0].path[0] == hunter.cell
    for _ in range(6):
        game.play("W")
    assert hunter.cell == cell(game, 1, 9)              # at the closed door, waiting
    assert planner.minds[0].path[:2] == (cell(game, 1, 9), cell(game, 1, 8))


def idle_robots(name: str, player: str) -> list[str]:
    """Every turn of `player`'s game on the shipped level `name` on which a robot that can
    act has a target elsewhere but no path from its cell to it, or stands still while the
    next cell of its path is open (so it only ever waits at a closed door)."""
    level = play.load(play.LEVELS / f"{name}.txt")
    game = play.new_game(level)
    doors = {door.cell: door for door in level.doors}
    found, before = [], play.start_record(game)
    for record in play.turns(game, play.scripted(game, player, level.turns)):
        if record["outcome"] == "captured":
            break  # the robots after the one that caught the player did not act
        for index, (robot, earlier) in enumerate(zip(record["robots"], before["robots"],
                                                     strict=True)):
            where = f"{name} tick {record['tick']} robot {index} ({robot['intent']})"
            if robot["stunned"] or robot["target"] in (None, robot["cell"]):
                continue
            path = robot["path"]
            if not path or path[0] != robot["cell"] or path[-1] != robot["target"]:
                found.append(f"{where}: path {path[:2]}... to {robot['target']}")
            elif robot["cell"] == earlier["cell"] and len(path) > 1:
                door = doors.get(tuple(path[1]))
                if door is None or door.is_open(record["tick"]):
                    found.append(f"{where}: stood on {robot['cell']}, {path[1]} open")
        before = record
    return found


@pytest.mark.parametrize("name, player", sampled(
    [(name, player) for name in ("level-3", "level-1", "level-2", "level-4")
     for player in ("evasive", "greedy")]))
def test_no_robot_stands_still_with_an_empty_path_while_a_route_exists(name, player):
    """Issue 26 saw level 3's sentinel in "return" stand for turns with no path, waiting for
    a door ten cells away: every robot walks its route up to the door and waits there."""
    assert idle_robots(name, player) == []


# -- the hunter ------------------------------------------------------------------------------

def test_the_hunter_goes_to_the_last_known_cell_after_losing_sight():
    game, planner = new_game("robots 3 9\n"
                             "H......P.\n"
                             "#######.#\n"
                             "E........\n"
                             "robot-vision 10\n")
    hunter = game.state.robots[0]
    game.play("W")                                     # seen: the chase begins
    assert planner.minds[0].mode is Mode.CHASE and planner.minds[0].target == cell(game, 0, 7)
    game.play("D")                                     # out of its line of sight
    game.play("D")
    assert planner.minds[0].mode is Mode.SEARCH
    assert planner.minds[0].target == cell(game, 0, 7)      # where it last saw them
    for _ in range(4):
        game.play("W")
    assert hunter.cell == cell(game, 0, 7) and planner.minds[0].mode is Mode.SEARCH
    game.play("W")                                     # from there it sees down the column
    assert planner.minds[0].mode is Mode.CHASE and planner.minds[0].target == game.state.player


def test_a_planned_path_starts_at_the_robots_cell_and_ends_at_its_target():
    game, planner = new_game("robots 3 9\n"
                             "H......P.\n"
                             "#######.#\n"
                             "E........\n"
                             "robot-vision 10\n")
    game.play("W")
    mind, body = planner.minds[0], game.state.robots[0]
    assert mind.path[0] == body.cell == cell(game, 0, 1) and mind.path[-1] == mind.target


# -- the interceptor -------------------------------------------------------------------------

# Two ways east: the player's, along the top with a bend, and a straight corridor below.
# Stepping on the alarms (r) they are heard, heading east, by the robot down below.
JUNCTION = ("robots 7 15\n"
            "###############\n"
            "#Prr...#......#\n"
            "#.####.#.####.#\n"
            "#.#E##...####.#\n"
            "#.###########.#\n"
            "#...{robot}.........#\n"
            "###############\n")
EAST = "RRRRRDDRRUURRRRRDDDD"  # the player's way: east along the top, round the bend


def walk_east(kind: str) -> tuple[Game, list[tuple[int, int, int | None]]]:
    """The player walks `EAST` until the end or a capture; per turn, the player's cell,
    the robot's and its target."""
    game, planner = new_game(JUNCTION.format(robot=kind))
    seen = []
    for action in EAST:
        if game.state.outcome is not Outcome.PLAYING:
            break
        game.play(action)
        seen.append((game.state.player, game.state.robots[0].cell, planner.minds[0].target))
    return game, seen


def test_the_interceptor_cuts_the_player_off_ahead_where_the_hunter_comes_up_behind():
    """Heard heading east, the player is followed by the hunter round the west junction,
    from behind, and lost; the interceptor takes the corridor below to the east junction,
    ahead of them, and catches them coming the other way."""
    hunter, followed = walk_east("H")
    assert hunter.state.outcome is Outcome.PLAYING      # it came up behind, and lost them
    assert cell(hunter, 1, 2) in [robot for _, robot, _ in followed]  # on their way
    interceptor, cut_off = walk_east("I")
    assert interceptor.state.outcome is Outcome.CAPTURED
    cols = interceptor.level.cols
    player, robot, _ = cut_off[-1]
    assert robot == player == cell(interceptor, 1, 13)  # at the far junction
    ahead = [target for _, _, target in cut_off[1:] if target is not None]
    assert ahead and all(target % cols >= 8 for target in ahead)  # always east of the bend
    assert cell(interceptor, 1, 2) not in [robot for _, robot, _ in cut_off]  # never behind


def test_the_interceptors_ambush_cell_comes_from_the_whole_maze():
    """None of the four cells ahead on the player's heading is one it reaches first: the
    ambush lies off that route, at the far junction."""
    game, planner = new_game(JUNCTION.format(robot="I"))
    game.play("R")
    game.play("R")
    mind = planner.minds[0]
    assert mind.heading == (0, 1) and mind.intent == "intercept"
    predicted = predicted_point(game.grid, mind.last_known, mind.heading)
    assert predicted == cell(game, 1, 6)                 # the wall at (1, 7) stops it
    route = {mind.last_known + k for k in range(1, LOOKAHEAD + 1)}
    assert mind.target not in route and mind.target == cell(game, 2, 13)


def test_the_interceptor_waits_where_the_player_will_arrive():
    game, planner = new_game("robots 2 16\n"
                             "P..............I\n"
                             "E...............\n"
                             "robot-vision 16\n")
    interceptor = game.state.robots[0]
    turns = []  # (player, interceptor, its target) after each turn
    while game.state.outcome is Outcome.PLAYING:
        game.play("R")
        turns.append((game.state.player, interceptor.cell, planner.minds[0].target))
    assert game.state.outcome is Outcome.CAPTURED
    # It aimed ahead of the player on their route, then stood still while they came.
    assert any(target > player + 1 for player, _, target in turns)
    cells = [robot for _, robot, _ in turns]
    assert any(a == b == c for a, b, c in zip(cells, cells[1:], cells[2:], strict=False))
    assert cells[-1] > turns[-2][0]


# -- the scout -------------------------------------------------------------------------------

def test_two_scouts_sweep_the_whole_region_without_claiming_the_same_cell():
    """The region of the last sighting is far larger than six steps round it: the scouts
    sweep all of it, never claiming one cell twice in a turn, then forget and go home."""
    game, planner = new_game("robots 7 21\n"
                             ".....................\n"
                             ".....................\n"
                             "C...P...............C\n"
                             ".....................\n"
                             ".....................\n"
                             "#####################\n"
                             "E....................\n"
                             "robot-vision 4\n")
    game.play("W")                                     # the first scout sees the player
    game.state.player = cell(game, 6, 20)              # gone behind the wall: unseen, unheard
    claims, checked = [], set()
    for _ in range(40):
        game.play("W")
        checked |= planner.minds[0].checked | planner.minds[1].checked
        searching = [mind for mind in planner.minds if mind.mode is Mode.SEARCH]
        if len(searching) == 2:
            claims.append((searching[0].target, searching[1].target))
    assert len(claims) >= 5 and all(a != b for a, b in claims)
    region = {v for v, d in enumerate(game.grid.distances([cell(game, 2, 4)])) if d >= 0}
    far = {v for v in region if game.grid.distances([cell(game, 2, 4)])[v] > 6}
    assert far & checked                               # beyond a six-step radius
    assert len(checked & region) >= 0.9 * len(region)  # the sweep covered the region
    assert all(mind.mode in (Mode.RETURN, Mode.PATROL) for mind in planner.minds)


def test_a_scout_forgets_after_fourteen_fruitless_turns():
    game, planner = new_game("robots 3 40\n"
                             "C..P....................................\n"
                             "########################################\n"
                             "E.......................................\n"
                             "robot-vision 6\n")
    game.play("W")
    game.state.player = cell(game, 2, 39)
    modes = []
    for _ in range(SWEEP_TURNS + 2):
        game.play("W")
        modes.append(planner.minds[0].mode)
    assert modes[:SWEEP_TURNS - 1].count(Mode.SEARCH) == SWEEP_TURNS - 1
    assert Mode.RETURN in modes[SWEEP_TURNS - 1:] or Mode.PATROL in modes[SWEEP_TURNS - 1:]


# -- the ring --------------------------------------------------------------------------------

def test_the_ring_takes_distinct_posts_around_the_last_known_cell():
    game, planner = new_game("robots 7 9\n"
                             "H...P....\n"
                             ".........\n"
                             ".........\n"
                             ".#######.\n"
                             ".........\n"
                             ".........\n"
                             "HE......H\n")
    game.play("W")                                     # the first hunter sees the player
    ringed = [mind for mind in planner.minds if mind.intent == "hold ring"]
    assert len(ringed) == 2
    posts = [mind.target for mind in ringed]
    assert len(set(posts)) == 2
    around = game.grid.distances([cell(game, 0, 4)])
    assert all(2 <= around[post] <= 4 or post in game.grid.articulation_points()
               for post in posts)


POCKET = ("robots 3 12\n"
          "P.......S..E\n"
          ".##########.\n"
          ".....HHH....\n"
          "robot-vision 11\n")  # the sentinel sees the player all along the top row


def test_ring_posts_are_distinct_and_never_a_sentinels_post():
    """Three hunters alerted by the sentinel's sighting, none seeing or hearing the player
    themselves: distinct posts round them, none of them the sentinel's."""
    game, planner = new_game(POCKET)
    for _ in range(3):
        game.play("W")
        ringed = [mind.target for mind in planner.minds if mind.intent == "hold ring"]
        assert len(ringed) == 3 and len(set(ringed)) == 3
        assert planner.minds[0].post not in ringed
        around = game.grid.distances([game.state.player])
        assert all(1 <= around[post] <= 4 for post in ringed)


def test_a_ring_round_a_player_who_stays_put_closes_in():
    game, planner = new_game(POCKET)
    intents = set()
    while game.state.outcome is Outcome.PLAYING and game.state.tick < 30:
        game.play("W")
        intents |= {mind.intent for mind in planner.minds}
    assert {"hold ring", "close in"} <= intents
    assert game.state.outcome is Outcome.CAPTURED


# -- the scripted players ----------------------------------------------------------------------

def test_the_evasive_player_waits_for_a_safe_way_then_runs_out_of_patience():
    from twinsolve.robots.players import PATIENCE, PLAYERS
    game, _ = new_game("robots 3 9\n"
                       "#########\n"
                       "P...S...E\n"
                       "#########\n")
    player, rng = PLAYERS["evasive"](), random.Random(0)
    actions = []
    while game.state.outcome is Outcome.PLAYING and len(actions) < 40:
        actions.append(player(game, rng))
        game.play(actions[-1])
    # the sentinel holds the corridor: the player keeps clear while patient, then goes
    assert game.state.outcome is Outcome.CAPTURED
    assert PATIENCE < len(actions) <= PATIENCE + 8
    assert game.state.robots[0].cell == game.state.player   # walked into it at its post


def test_the_cautious_player_stuns_the_sentinel_that_bars_the_way_and_slips_past():
    from twinsolve.robots.players import PLAYERS
    game, _ = new_game("robots 3 11\n"
                       "###########\n"
                       "Pe...S...*E\n"
                       "###########\n")
    player, rng = PLAYERS["cautious"](), random.Random(0)
    actions = []
    while game.state.outcome is Outcome.PLAYING and len(actions) < 40:
        actions.append(player(game, rng))
        game.play(actions[-1])
    assert game.state.outcome is Outcome.WON and "X" in actions
