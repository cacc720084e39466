"""What a robot's brain is given (issue 24): its `View` only, which carries the level's
public facts and leads back to nothing of the game; the minds live in the planner, which
coordinates the robots without the game and is the game's memory across an undo."""

from __future__ import annotations

import copy
import dataclasses
import random
import types

import pytest

from twinsolve.robots import play
from twinsolve.robots.ai import Planner, random_walk
from twinsolve.robots.game import Game, Layout, RobotBody, View
from twinsolve.robots.level import parse

LEVEL_1 = play.shipped_levels()[0]


def reachable(root: object) -> list[object]:
    """Every object reachable from `root` through attributes and containers (not through
    classes, functions or modules: what a brain could walk to from what it holds)."""
    seen, out, todo = set(), [], [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, int | float | str | bytes | bytearray | type(None)
                                          | type | types.FunctionType | types.ModuleType):
            continue
        seen.add(id(obj))
        out.append(obj)
        if isinstance(obj, dict | types.MappingProxyType):
            todo += [*obj.keys(), *obj.values()]
        elif isinstance(obj, list | tuple | set | frozenset):
            todo += list(obj)
        else:
            todo += list(getattr(obj, "__dict__", {}).values())
            todo += [getattr(obj, name) for cls in type(obj).__mro__
                     for name in getattr(cls, "__slots__", ()) if hasattr(obj, name)]
            if isinstance(obj, types.MethodType):
                todo.append(obj.__self__)
    return out


def spied_game(level, turns: str) -> tuple[Game, list[tuple]]:
    """A game of `level` with its planner, every brain call's arguments logged."""
    game = play.new_game(level, 0)
    calls = []

    def spy(brain):
        def run(*args, **kwargs):
            calls.append((args, kwargs))
            return brain(*args, **kwargs)
        return run
    game.brains = [spy(brain) for brain in game.brains]
    for action in turns:
        game.play(action)
    return game, calls


def test_a_brain_is_given_its_view_alone_and_nothing_in_it_leads_to_the_game():
    game, calls = spied_game(play.load(LEVEL_1), "RRRDDW")
    assert calls and all(len(args) == 1 and not kwargs and isinstance(args[0], View)
                         for args, kwargs in calls)
    forbidden = (Game, RobotBody, Planner, random.Random, type(game.state))
    for (view,), _ in calls[:6]:
        assert not [obj for obj in reachable(view) if isinstance(obj, forbidden)]


def test_the_view_is_read_only_and_carries_the_public_level_facts():
    game, calls = spied_game(play.load(LEVEL_1), "R")
    view = calls[0][0][0]
    body = game.state.robots[0]
    assert (view.robot, view.kind, view.home) == (0, body.kind, body.home)
    assert view.layout == Layout(tuple(game.tiles), game.maze, game.exit, game.start,
                                 game.level.robot_vision)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.cell = 0
    with pytest.raises(TypeError):
        view.alarms[0] = 0  # a read-only copy: the rules' alarms are out of reach
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.layout.exit = 0


def test_the_planner_owns_the_minds_and_never_holds_the_game():
    game, _ = spied_game(play.load(LEVEL_1), "RRRDD")
    planner = game.memory
    assert isinstance(planner, Planner) and play.minds(game) is planner.minds
    assert len(planner.minds) == len(game.state.robots)
    assert not [obj for obj in reachable(planner) if isinstance(obj, Game | RobotBody)]
    assert not any(hasattr(body, "mind") for body in game.state.robots)


def test_an_undo_brings_the_planners_minds_back_as_they_were_before_the_turn():
    game = play.new_game(play.load(LEVEL_1), 0)
    for action in "RRR":
        game.play(action)
    before = copy.deepcopy(play.minds(game))
    game.play("D")
    assert play.minds(game) != before                  # the robots planned again
    assert game.play("Z") == ["undo"]
    assert play.minds(game) == before


def test_sentinels_take_distinct_posts_through_the_planner():
    level = parse("robots 3 15\n"
                  "......#..S.....\n"
                  "P.......S.....E\n"
                  "......#........\n")
    planner = Planner([robot.kind for robot in level.robots])
    game = Game(level, planner.brains(), memory=planner)
    for _ in range(6):
        game.play("W")
    posts = [mind.post for mind in planner.minds]
    assert None not in posts and len(set(posts)) == 2
    assert sorted(body.cell for body in game.state.robots) == sorted(posts)


def test_the_random_walk_draws_only_from_the_generator_it_is_handed():
    level = play.load(LEVEL_1)

    def cells(seed: int) -> list[int]:
        game = Game(level, [random_walk(random.Random(seed))] * len(level.robots), 0)
        out = []
        for _ in range(12):
            game.play("W")
            out += [body.cell for body in game.state.robots]
        return out
    assert cells(1) == cells(1) != cells(2)
