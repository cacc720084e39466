"""Shortest plans, explained: the search layers that prove a plan shortest, and hints on it.

A shortest-plan puzzle (water jugs, clock stepping) is explained by its
moves and the proof that none is shorter: a breadth-first search from the
start reaches its states layer by layer (after 1 move, after 2, ...), and
the first layer that holds a goal state is the fewest moves any plan can
take. `layers` counts the new states of each layer (over the puzzle's own
`search.statespace.StateSpace`, the `hand` back-end's), up to the goal's
layer or a cap; `layers_text` says it in one sentence.

A position of such a puzzle is the plan made so far (its moves, in the
solution keys' own words). `plan_hint` replays it on the space: a move the
rules do not allow there is a `Mistake`, and so is a move after which the
goal is further than the optimum leaves (the plan can no longer be
shortest); else the next step is the first move of a shortest plan from
where the position stands, or None at the goal.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..core.errors import quoted
from ..core.generation import Grade
from ..search.plan_levels import Band, PlanProblem, band_of
from ..search.statespace import StateSpace
from .state import position_error
from .steps import Mistake, Step

__all__ = ["layers", "layers_text", "distance_to_goal", "plan_hint", "moves_of_state",
           "plan_level", "proof_lines", "too_hard", "LAYER_STATES"]

LAYER_STATES = 200_000  # the states `layers` counts at most (a proof beyond is the search's)


def layers(space: StateSpace, cap: int = LAYER_STATES) -> list[int] | None:
    """The number of states first reached after 0, 1, 2, ... moves, up to the first layer
    holding a goal state (its count last); None when the goal is not found within `cap`
    states (or not at all)."""
    key, is_goal, successors = space.key_fn(), space.goal_test(), space.moves()
    frontier = [space.initial]
    seen: set[Hashable] = {key(space.initial)}
    counts = [1]
    while frontier:
        if any(is_goal(state) for state in frontier):
            return counts
        following = []
        for state in frontier:
            for _label, child in successors(state):
                k = key(child)
                if k not in seen:
                    seen.add(k)
                    following.append(child)
        if len(seen) > cap:
            return None
        frontier = following
        counts.append(len(frontier))
    return None


def layers_text(counts: Sequence[int], noun: str = "states") -> str:
    """The layers in words: `the search from the start reaches 2, 4 and 3 new states after
    1, 2 and 3 moves, and a goal first after 3`."""
    moves = len(counts) - 1
    if moves == 0:
        return "the start is already a goal"
    shown = list(counts[1:])
    if len(shown) > 12:
        new = ", ".join(map(str, shown[:6])) + ", ..., " + ", ".join(map(str, shown[-3:]))
    else:
        new = ", ".join(map(str, shown))
    return (f"a breadth-first search from the start reaches {new} new {noun} after 1 to "
            f"{moves} moves, and no goal before the last of these layers, so no plan has "
            f"fewer than {moves} moves")


def distance_to_goal(space: StateSpace, state: Any, limit: int, cap: int = LAYER_STATES
                     ) -> tuple[int | None, list[Any]]:
    """(the fewest moves from `state` to a goal, their labels) by breadth-first search,
    looking at most `limit` moves and `cap` states ahead; (None, []) when there is none."""
    key, is_goal, successors = space.key_fn(), space.goal_test(), space.moves()
    parents: dict[Hashable, tuple[Hashable | None, Any, Any]] = {key(state): (None, None, state)}
    frontier = [state]
    for depth in range(limit + 1):
        for current in frontier:
            if is_goal(current):
                return depth, _labels(parents, key(current))
        if depth == limit or len(parents) > cap:
            break
        following = []
        for current in frontier:
            for label, child in successors(current):
                k = key(child)
                if k not in parents:
                    parents[k] = (key(current), label, child)
                    following.append(child)
        frontier = following
    return None, []


def _labels(parents: dict, end: Hashable) -> list[Any]:
    found = []
    while parents[end][0] is not None:
        parent, label, _ = parents[end]
        found.append(label)
        end = parent
    return found[::-1]


def plan_hint(space: StateSpace, made: Sequence[Any], optimum: int, *,
              word: Callable[[Any], Any], show: Callable[[Any], str], technique: str,
              key: str = "moves") -> Step | Mistake | None:
    """The hint for a plan made so far (module docstring). `made` are the moves in the
    solution keys' words; `word(label)` turns a space's move label into those words and
    `show(state)` a state into text."""
    state, index, successors = space.initial, 0, space.moves()
    for index, move in enumerate(made, 1):
        options = {_frozen(word(label)): child for label, child in successors(state)}
        if _frozen(move) not in options:
            return Mistake(f"move {index}", f"move {index}, {move}, is not a move the rules "
                                            f"allow from {show(state)}")
        state = options[_frozen(move)]
        left = optimum - index
        ahead, _ = distance_to_goal(space, state, max(left, 0))
        if ahead is None:
            return Mistake(f"move {index}", f"after move {index}, {move}, the goal is more than "
                                            f"{max(left, 0)} moves away from {show(state)}, so "
                                            f"the plan cannot end in {optimum} moves")
    ahead, labels = distance_to_goal(space, state, optimum - len(made))
    if not labels:
        return None
    label = labels[0]
    child = next(c for lab, c in successors(state) if lab == label)
    number = len(made) + 1
    reason = (f"move {number}, {word(label)}, takes {show(state)} to {show(child)}, "
              f"{ahead - 1} moves from the goal: the first move of a shortest plan from here")
    premises = (f"move {len(made)}",) if made else ()
    return Step(technique, ((f"move {number}", word(label)),), reason, premises)


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def moves_of_state(state: dict[str, Any], key: str) -> list[Any]:
    """The plan made so far, `state[key]` (a list); the one error of a position otherwise."""
    extra = sorted(set(state) - {key})
    if extra:
        raise position_error(f"the position has key {extra[0]!r}; it takes only {key!r}")
    made = state.get(key, [])
    if not isinstance(made, list):
        raise position_error(f"the position's {key!r} is a list of the moves made so far")
    for index, move in enumerate(made):
        if isinstance(move, bool) or not isinstance(move, str | int):
            raise position_error(f"the position's {key!r} item {index} is {quoted(move)}, "
                                 f"not a move")
    return made


def plan_level(problem: PlanProblem, bands: Sequence[Band], graded: Grade) -> str:
    """The level whose search finds the plan: the grade's (`plan_levels.grade_plan`, the
    generator's code), or for a puzzle of several optimal plans (no grade) the first band
    admitting its length and effort, else the last."""
    if graded.level is not None:
        return graded.level
    evidence = graded.evidence
    if "length" in evidence and "nodes" in evidence:
        band, _, _ = band_of(bands, evidence["length"], evidence["nodes"], problem.reachable)
        if band is not None:
            return band.level
    return bands[-1].level


def too_hard(level: str | None, technique: str, levels: Sequence[str]) -> bool:
    """Whether a solver of `level` (None: any) cannot find this plan, of `technique`'s level."""
    return level is not None and levels.index(level) < levels.index(technique)


def proof_lines(space: StateSpace, length: int, count: int | None, nodes: int,
                both_ends: bool) -> tuple[str, ...]:
    """Why the plan is shortest (the search's layers, or the search's size when they are
    too many to count here) and whether it is the only one."""
    counts = layers(space)
    if counts is not None and len(counts) - 1 == length:
        shortest = layers_text(counts).capitalize() + "."
    else:
        how = "from both ends" if both_ends else "from the start"
        shortest = (f"The search {how} expanded {nodes} states and met no goal in fewer than "
                    f"{length} moves, so no plan is shorter.")
    if count is None:
        return (shortest,)
    plans = ("It is the only plan of that length." if count == 1 else
             f"There are {count} plans of {length} moves; this is one of them.")
    return shortest, plans
