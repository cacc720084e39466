"""Each robot behaviour of `twinsolve.robots.ai`, proven on a small hand-made map by
playing the real rules (`twinsolve.robots.game`) with the real planner."""

from __future__ import annotations

import random

from twinsolve.robots.ai import SWEEP_RADIUS, SWEEP_TURNS, Mode, Planner
from twinsolve.robots.game import Game, Outcome
from twinsolve.robots.level import parse


def new_game(text: str) -> tuple[Game, Planner]:
    level = parse(text)
    planner = Planner([robot.kind for robot in level.robots])
    return Game(level, planner.brains(), memory=planner), planner


def cell(game: Game, r: int, c: int) -> int:
    return r * game.level.cols + c


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
    assert sentinel.cell == cell(game, 1, 8)          # the chokepoint nearest to itself
    assert planner.minds[0].intent == "guard chokepoint" and planner.minds[0].mode is not Mode.CHASE
    assert game.state.outcome is Outcome.PLAYING       # it holds: it never chased


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


def test_two_scouts_sweep_a_region_without_claiming_the_same_cell_and_cover_it():
    game, planner = new_game("robots 7 9\n"
                             ".........\n"
                             ".........\n"
                             "C...P...C\n"
                             ".........\n"
                             ".........\n"
                             "#########\n"
                             "E........\n")
    game.play("W")                                     # both see the player
    game.state.player = cell(game, 6, 8)               # gone behind the wall: unseen, unheard
    seen_claims, checked = [], set()
    for _ in range(SWEEP_TURNS + 2):
        game.play("W")
        first, second = game.state.robots
        checked |= planner.minds[0].checked | planner.minds[1].checked
        if planner.minds[0].mode is Mode.SEARCH and planner.minds[1].mode is Mode.SEARCH:
            seen_claims.append((planner.minds[0].target, planner.minds[1].target))
    assert len(seen_claims) >= 5 and all(a != b for a, b in seen_claims)
    region = {v for v, d in enumerate(game.grid.distances([cell(game, 2, 4)]))
              if 0 <= d <= SWEEP_RADIUS}
    assert region <= checked                           # the sweep covered the region
    assert all(mind.mode in (Mode.RETURN, Mode.PATROL) for mind in planner.minds)


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


def test_a_sentinel_on_patrol_guards_the_way_from_the_entry_to_the_exit():
    """Never seeing nor hearing the player, it walks to the separator of the entry cell
    and the exit nearest to itself and holds it; a second sentinel takes another one,
    and the door closing and opening moves neither."""
    game, planner = new_game("robots 3 15\n"
                       "......#..S.....\n"
                       "P.....D..S....E\n"
                       "......#........\n"
                       "door 1 6 period 4 open 2 phase 0\n")
    first, second = game.state.robots
    separators = set(game.maze.separators(game.start, game.exit))
    posts = set()
    for _ in range(12):
        game.play("W")
        assert all(mind.mode is Mode.PATROL for mind in planner.minds)
        posts.add((planner.minds[0].post, planner.minds[1].post))
    assert len(posts) == 1                                # chosen once, kept through the doors
    assert first.cell in separators and second.cell in separators
    assert first.cell != second.cell
    assert {first.cell, second.cell} == {cell(game, 1, c) for c in (6, 7)}
    assert planner.minds[0].intent == planner.minds[1].intent == "guard chokepoint"


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
    assert game.state.robots[0].cell == game.state.player   # caught next to its post
