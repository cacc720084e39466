"""Solitaire Chess, explained: the winning line, and the dead ends pruned on the way.

Rules: see `rules.py`. The reasoning is the grader's proof (`hand.prove_unique`,
the same `Searcher`): play the winning line forwards; at each position try
every capture, and let the memo search settle the position after it. A
capture whose position has no win (no sequence of captures leaves one
piece) is a dead end; the line goes on with a capture that wins. One step
per move (item `move k`, the move in the solution's words), naming the dead
ends it leaves aside and whether it is the only capture that leads on.

The technique of a step is the level whose solver could have made it
(`generate.level_of`: the pieces on the board and the dead ends refuted so
far against each level's budgets), so the steps' hardest technique is the
board's grade, and `--level` stops the steps where that level's solver
would give up.

`hint(instance, {"moves": [...]})` takes the captures made so far.
"""

from __future__ import annotations

from typing import Any

from ...explain.plans import moves_of_state
from ...explain.steps import Explanation, Mistake, Step, solved
from .board import move_name
from .generate import GRADE_NODES, LEVELS, level_of
from .hand import Searcher
from .rules import Instance

__all__ = ["LEVELS", "explain", "hint"]


def _names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class _Walk:
    """The winning line played forwards with the grader's searcher (module docstring)."""

    def __init__(self, instance: Instance) -> None:
        self.instance = instance
        self.searcher = Searcher(instance, cap=2, node_limit=GRADE_NODES)
        self.position, self.pieces = self.searcher.start, self.searcher.pieces
        self.dead = 0

    def captures(self) -> list[tuple[str, Any, int]]:
        """(name, position after it, winning lines from there saturated at 2) of every
        capture from the current position, in the searcher's order."""
        searcher, board = self.searcher, self.searcher.board
        return [(move_name(board, *move), child, searcher.settle(child))
                for move, child in searcher.moves(self.position)]

    def step(self, number: int, move: str) -> tuple[Step, Any]:
        """The step of `move` from the current position, and the position after it."""
        found = self.captures()
        chosen = next((c for c in found if c[0] == move), None)
        if chosen is None:
            raise ValueError(f"{move} is no capture here")
        dead = [name for name, _, ways in found if not ways]
        onward = [name for name, _, ways in found if ways and name != move]
        self.dead += len(dead)
        parts = [f"move {number}, {move}, leaves {self.pieces - 1} "
                 f"piece{'s' if self.pieces > 2 else ''}"]
        if dead:
            parts.append(f"{_names(dead)} {'is a dead end' if len(dead) == 1 else 'are dead ends'}"
                         f" (from there no sequence of captures leaves one piece)")
        if onward:
            parts.append(f"{_names(onward)} would win too (the board has several winning "
                         f"lines)")
        elif len(found) > 1:
            parts.append("it is the only capture that leads on")
        else:
            parts.append("it is the only capture there is")
        technique = level_of(self.instance.pieces, self.dead)
        premises = (f"move {number - 1}",) if number > 1 else ()
        self.position, self.pieces = chosen[1], self.pieces - 1
        return Step(technique, ((f"move {number}", move),), "; ".join(parts), premises), chosen


def explain(instance: Instance, level: str | None = None) -> Explanation:
    """The winning line and the dead ends beside it (module docstring)."""
    result = solved(instance)
    moves = list(result.solution["moves"])
    walk = _Walk(instance)
    steps = []
    for number, move in enumerate(moves, 1):
        step, _ = walk.step(number, move)
        if level is not None and LEVELS.index(step.technique) > LEVELS.index(level):
            note = (f"A {level} solver gives up here: {walk.dead} dead ends refuted on "
                    f"{instance.pieces} pieces are past its budget.")
            return Explanation("chess", tuple(steps), result.solution, False, level, LEVELS,
                               (note,))
        steps.append(step)
    lines = "one winning line" if result.unique else "more than one winning line"
    summary = (f"The board has {lines}; {walk.dead} dead ends were refuted on the way.",)
    return Explanation("chess", tuple(steps), result.solution, True, level, LEVELS, summary)


def hint(instance: Instance, state: dict[str, Any]) -> Step | Mistake | None:
    """The first capture of the position that is not legal or leads to a dead end, else
    the next capture of a winning line, else None when one piece is left."""
    made = moves_of_state(state, "moves")
    walk = _Walk(instance)
    for number, move in enumerate(made, 1):
        found = {name: (child, ways) for name, child, ways in walk.captures()}
        if move not in found:
            return Mistake(f"move {number}", f"move {number}, {move}, is not a capture the "
                                             f"rules allow in that position")
        child, ways = found[move]
        if not ways:
            return Mistake(f"move {number}", f"move {number}, {move}, is a dead end: from there "
                                             f"no sequence of captures leaves one piece")
        walk.position, walk.pieces = child, walk.pieces - 1
    if walk.pieces <= 1:
        return None
    onward = next((name for name, _, ways in walk.captures() if ways), None)
    if onward is None:
        return None
    step, _ = walk.step(len(made) + 1, onward)
    return step
