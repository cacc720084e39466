"""Solve and watch: any back-end on the board shown, and the search played as an animation.

Solving. A back-end (its spec as `solve --backend` takes it: `hand`, `sat`,
`sat:glucose4`, a plugin's) runs through `core.run.run`, the one verified
path every answer takes, in a job of its own (`studio.jobs`: its own
process, its own time limit); what comes back is the run's JSON form, so the
page shows exactly what `solve --json` would: status, time, nodes, the
answer (drawn by the puzzle's picture and laid on the board as moves, the
play module's `moves_to`). Answers are kept per board text and spec, so
check, hint and reveal do not solve the same board twice.

Watching. Two views of how an answer is found:
- the explanation's steps (`twinsolve.explain`, for puzzles that declare
  one): frame k is the position after steps 1..k, each step's items set as
  the marks a person would make (`"ITEM VALUE"`, `core.play`);
- the frontier, for puzzles whose positions are plans (`PLAN`): a
  breadth-first search over the play module's own moves, one layer per
  depth, positions told apart by the puzzle left to solve from them
  (`remaining`, written by the rules' `format`), each layer's size and a few
  of its positions as move lists (the page draws them as small boards),
  until a goal (the rules' `verify` passes) or `FRONTIER_STATES`.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from ..core import registry
from ..core.errors import UsageError
from ..core.limits import Limits
from ..core.registry import puzzle_of
from ..core.result import Result
from ..core.run import parse_text, run
from .jobs import run_job

__all__ = ["answer", "solve", "explanation", "decided_moves", "frontier", "without_meta",
           "SOLVE_SECONDS", "FRONTIER_STATES"]

SOLVE_SECONDS = 30.0       # a solve's default limit (the page can ask for up to MAX_SECONDS)
MAX_SECONDS = 600.0
FRONTIER_STATES = 20_000   # positions the frontier view expands at most
SAMPLES = 6                # positions of each layer sent to be drawn
_KEPT = 64                 # answers kept
_answers: OrderedDict[tuple, dict[str, Any]] = OrderedDict()
_lock = threading.Lock()


def without_meta(instance: Any) -> str:
    """The instance's text without its metadata: the key of its board."""
    text = puzzle_of(instance).rules.format(instance)
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))


def _run(text: str, spec: str, limits: dict[str, Any]) -> dict[str, Any]:
    """In a job: the run's JSON form (the instance is parsed again from its text)."""
    started = time.perf_counter()
    result = run(parse_text(text, "the board"), spec, Limits.from_json(limits))
    return {**result.to_json(), "wall_s": time.perf_counter() - started}


def seconds_of(value: Any, default: float = SOLVE_SECONDS) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or \
            not 0 < value <= MAX_SECONDS:
        raise UsageError(f"a time limit is a number of seconds 0 < S <= {MAX_SECONDS:g}, "
                         f"got {value!r}")
    return float(value)


def answer(instance: Any, spec: str = "hand", seconds: float = SOLVE_SECONDS,
           unique: bool = False) -> dict[str, Any]:
    """The JSON form of `spec`'s verified run on `instance` (kept; module docstring)."""
    entry = puzzle_of(instance)
    registry.check_spec(spec, entry)  # a mistyped spec is refused before any work
    text = entry.rules.format(instance)
    key = (without_meta(instance), spec, unique)
    with _lock:
        if key in _answers:
            _answers.move_to_end(key)
            return _answers[key]
    limits = Limits(timeout=seconds, unique=unique).to_json()
    found = run_job(_run, text, spec, limits, seconds=seconds, what=f"solving with {spec}")
    if found["status"] not in ("timeout", "memout", "crash", "error"):
        with _lock:
            _answers[key] = found
            while len(_answers) > _KEPT:
                _answers.popitem(last=False)
    return found


def solve(instance: Any, spec: Any, seconds: Any, unique: Any = False) -> dict[str, Any]:
    """The page's solve: the run's JSON form, the moves that lay its answer on the board
    and its picture (module docstring)."""
    if not isinstance(spec, str) or not spec.strip():
        raise UsageError("name a back-end (hand, cpsat, sat, ...)")
    found = answer(instance, spec.strip(), seconds_of(seconds), bool(unique))
    reply = {"backend": spec.strip(), **found, "moves": None, "picture": None}
    if found["solution"] is not None and found["verified"]:
        reply["moves"] = _moves_of(instance, found["solution"])
        reply["picture"] = _picture(instance, found["solution"])
    return reply


def _moves_of(instance: Any, solution: Any) -> list[str] | None:
    entry = puzzle_of(instance)
    if not registry.has(entry, "play"):
        return None
    return list(registry.capability(entry, "play").moves_to(instance, solution))


def _picture(instance: Any, solution: Any) -> str | None:
    from .library import svg_text

    entry = puzzle_of(instance)
    if not registry.has(entry, "picture"):
        return None
    return svg_text(registry.picture(entry).draw(instance, solution))


def result_of(found: dict[str, Any]) -> Result:
    return Result.from_json({k: v for k, v in found.items() if k != "wall_s"})


# ---------------------------------------------------------------- watching

def _explain(text: str, level: str | None) -> dict[str, Any]:
    from ..explain import explain

    return explain(parse_text(text, "the board"), level).to_json()


def explanation(instance: Any, level: Any = None, seconds: float = SOLVE_SECONDS
                ) -> dict[str, Any]:
    """The explanation's steps, each with the moves that make it on the board."""
    entry = puzzle_of(instance)
    if not registry.has(entry, "explanation"):
        raise UsageError(entry.absent_reason("explanation"))
    if level is not None and not isinstance(level, str):
        raise UsageError(f"a level is a word, not {level!r}")
    found = run_job(_explain, entry.rules.format(instance), level or None, seconds=seconds,
                    what="explaining")
    play = registry.capability(entry, "play") if registry.has(entry, "play") else None
    position = play.start(instance) if play else None
    for step in found["steps"]:
        step["moves"], position = decided_moves(instance, play, position, step["decided"])
    return found


def decided_moves(instance: Any, play: Any, position: Any, decided: dict[str, Any]
                  ) -> tuple[list[str], Any]:
    """The moves that make a step's decisions from `position`, and the position after them:
    a marks puzzle's `ITEM VALUE`, a plan's moves (the values); what no move of the board
    makes (an item that is no cell, say) is left out."""
    if play is None:
        return [], position
    moves = []
    for item, value in decided.items():
        value = int(value) if isinstance(value, bool) else value
        move = str(value) if play.PLAN else f"{item} {value}"
        try:
            position = play.apply(instance, position, move)
        except UsageError:
            continue
        moves.append(move)
    return moves, position


def _layers(text: str, limit: int) -> dict[str, Any]:
    """In a job: the breadth-first layers over the play module's moves (module docstring)."""
    instance = parse_text(text, "the board")
    entry = puzzle_of(instance)
    play = registry.capability(entry, "play")
    start = play.start(instance)
    seen = {without_meta(play.remaining(instance, start))}
    layer: list[tuple[dict, list[str]]] = [(start, [])]
    layers, goal, expanded = [], None, 0
    while layer and goal is None and expanded < limit:
        layers.append({"depth": len(layers), "size": len(layer),
                       "samples": [moves for _, moves in layer[:SAMPLES]]})
        goal = next((moves for position, moves in layer
                     if not entry.rules.verify(instance, position)), None)
        if goal is not None:
            break
        following = []
        for position, moves in layer:
            expanded += 1
            for move in play.moves(instance, position):
                after = play.apply(instance, position, move.move)
                key = without_meta(play.remaining(instance, after))
                if key not in seen:
                    seen.add(key)
                    following.append((after, [*moves, move.move]))
            if expanded >= limit:
                break
        layer = following
    return {"layers": layers, "goal": goal, "expanded": expanded, "seen": len(seen),
            "stopped": goal is None and bool(layer) and expanded >= limit,
            "exhausted": goal is None and not layer}


def frontier(instance: Any, seconds: float = SOLVE_SECONDS) -> dict[str, Any]:
    """The frontier view's layers (module docstring)."""
    entry = puzzle_of(instance)
    play = registry.capability(entry, "play")
    if not play.PLAN:
        raise UsageError(f"{entry.name} is played by marks, not by a plan: watch its "
                         "explanation's steps instead")
    return run_job(_layers, entry.rules.format(instance), FRONTIER_STATES, seconds=seconds,
                   what="searching the frontier")
