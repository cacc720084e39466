"""Play any puzzle: boards, moves, check, hint and reveal, through the puzzle's `play` module.

The server keeps no game of a puzzle: every request brings the board (the
instance's text) and the moves made so far, and the position is made again
from the start by the play module (`start`, then `apply` per move, which
refuses an illegal move by number). So undo and redo are the page's list of
moves, and a bad request can never leave anything half-done behind.

- board: the play module's drawing as SVG, the targets to click (boxes in
  the drawing's millimetres), the moves possible now, complete, status;
- check: a complete position is judged by the rules' own `verify` (the
  first problem it names), and for an optimisation puzzle by how far it is
  from the optimum a verified `hand` run found; an incomplete one by its
  first mistake: the explanation's `hint` when the puzzle has one, else a
  marked item that differs from the puzzle's only solution, or, for a plan,
  whether and in how many moves the goal can still be reached (`remaining`);
- hint: the explanation's next step (its items highlighted, its sentence,
  the marks that make it), else the solution's next move or first item;
- reveal: a verified answer as the moves that make it.
"""

from __future__ import annotations

import functools
from typing import Any

from ..core import registry
from ..core.errors import UsageError, quoted
from ..core.registry import puzzle_of
from ..core.run import parse_text
from .jobs import run_job
from .library import svg_text
from .solving import answer, decided_moves, result_of

__all__ = ["instance_of", "position_of", "board", "check", "hint", "reveal", "MAX_TEXT",
           "MAX_MOVES", "HINT_SECONDS"]

MAX_TEXT = 1_000_000   # characters of an instance's text
MAX_MOVES = 20_000     # moves of one request
HINT_SECONDS = 20.0


@functools.lru_cache(maxsize=32)
def _parsed(text: str) -> Any:
    return parse_text(text, "the board")


def instance_of(text: Any) -> Any:
    """The instance a request's `text` holds; `UsageError` / `InstanceError` in one line."""
    if not isinstance(text, str) or not text.strip():
        raise UsageError("no board: the request holds no instance text")
    if len(text) > MAX_TEXT:
        raise UsageError(f"the instance text has {len(text):,} characters (at most "
                         f"{MAX_TEXT:,})")
    return _parsed(text)


def player(instance: Any) -> Any:
    """The play module of the instance's puzzle; `UsageError` when it declares none."""
    return registry.capability(puzzle_of(instance), "play")


def position_of(instance: Any, moves: Any) -> tuple[Any, Any]:
    """(play module, position after `moves` from the start)."""
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise UsageError(f"moves must be a list of at most {MAX_MOVES:,} moves")
    play = player(instance)
    position = play.start(instance)
    for number, move in enumerate(moves, 1):
        if not isinstance(move, str):
            raise UsageError(f"move {number} is {quoted(move)}, not a move's text")
        try:
            position = play.apply(instance, position, move)
        except UsageError as exc:
            raise UsageError(f"move {number}: {exc}") from None
    return play, position


def board(instance: Any, moves: Any) -> dict[str, Any]:
    play, position = position_of(instance, moves)
    entry = puzzle_of(instance)
    shown = play.board(instance, position)
    return {"puzzle": entry.name, "title": entry.title, "plan": bool(play.PLAN),
            "optimisation": entry.optimisation, "svg": svg_text(shown.drawing),
            "width": shown.drawing.width, "height": shown.drawing.height,
            "targets": [target.to_json() for target in shown.targets],
            "moves": [move.to_json() for move in play.moves(instance, position)],
            "complete": shown.complete, "status": shown.status, "count": len(moves)}


# ---------------------------------------------------------------- check

def check(instance: Any, moves: Any) -> dict[str, Any]:
    play, position = position_of(instance, moves)
    entry = puzzle_of(instance)
    shown = play.board(instance, position)
    if shown.complete:
        problems = entry.rules.verify(instance, position)
        if problems:
            return {"verdict": "wrong", "message": f"not solved: {problems[0]}", "items": []}
        return {"verdict": "solved", "message": _solved(instance, position), "items": []}
    if play.PLAN:
        return _plan_progress(instance, play, position, len(moves))
    found = _mistake(instance, play, position)
    if found is not None:
        item, reason = found
        return {"verdict": "mistake", "message": reason, "items": [item] if item else []}
    return {"verdict": "unfinished", "items": [],
            "message": f"no mistake so far ({shown.status})"}


def _solved(instance: Any, position: Any) -> str:
    """'solved', and for an optimisation puzzle how far from the fewest."""
    entry = puzzle_of(instance)
    if not entry.optimisation:
        return "solved"
    mine = entry.rules.objective(instance, position)
    best = answer(instance).get("objective")
    if best is None:
        return f"solved with {mine}"
    if mine == best:
        return f"solved with {mine}: the fewest possible"
    return f"solved with {mine}; the fewest is {best} ({mine - best} more than needed)"


def _plan_progress(instance: Any, play: Any, position: Any, made: int) -> dict[str, Any]:
    """How far the plan's goal is from here, by solving what is left (`remaining`)."""
    entry = puzzle_of(instance)
    left = result_of(answer(play.remaining(instance, position)))
    if left.status.value == "unsat":
        return {"verdict": "mistake", "items": [],
                "message": "the goal cannot be reached from here: undo some moves"}
    if not left.status.has_solution:
        return {"verdict": "unfinished", "items": [],
                "message": f"not there yet ({left.message or left.status.value})"}
    if not entry.optimisation:
        return {"verdict": "unfinished", "items": [],
                "message": f"no dead end yet: the goal is still within reach, "
                           f"{len(play.moves_to(instance, left.solution))} moves on"}
    best = answer(instance).get("objective")
    ahead = left.objective
    message = (f"{made} move{'s' * (made != 1)} so far; the goal is {ahead} more away, "
               f"{made + ahead} in all")
    if best is not None:
        message += f" (the fewest from the start is {best})"
    return {"verdict": "unfinished", "items": [], "message": message}


def _hint_of(instance: Any, position: Any) -> Any:
    """The explanation's hint for a position, in a job; None when the puzzle has no
    explanation, or its explanation cannot read this position (then the answer of a
    verified solve stands in: `_mistake`, `_solution_hint`)."""
    if not registry.has(puzzle_of(instance), "explanation"):
        return None
    text = puzzle_of(instance).rules.format(instance)
    try:
        return run_job(_hint_job, text, position, seconds=HINT_SECONDS, what="finding a hint")
    except UsageError:
        return None


def _hint_job(text: str, position: Any) -> dict[str, Any] | None:
    from ..explain import Mistake, hint

    found = hint(parse_text(text, "the board"), position)
    if found is None:
        return {"kind": "done"}
    if isinstance(found, Mistake):
        return {"kind": "mistake", "item": found.item, "reason": found.reason}
    return {"kind": "step", **found.to_json()}


def _mistake(instance: Any, play: Any, position: Any) -> tuple[str, str] | None:
    """The first mistake of a marks position: the explanation's, else (a puzzle whose
    answer is any solution, not the fewest) the first marked item that the puzzle's only
    solution does not have."""
    found = _hint_of(instance, position)
    if found is not None:
        return (found["item"], found["reason"]) if found["kind"] == "mistake" else None
    if puzzle_of(instance).optimisation:
        return None  # other solutions than the fewest exist: a mark is no contradiction
    solved = answer(instance, unique=True)
    if not solved.get("verified") or solved.get("unique") is not True:
        return None
    truth = play.items(instance, solved["solution"])
    for item, value in play.items(instance, position).items():
        if truth.get(item) != value:
            return item, (f"{item} is {value} here, but the puzzle's only solution has "
                          f"{truth.get(item)} there")
    return None


# ---------------------------------------------------------------- hint and reveal

def hint(instance: Any, moves: Any) -> dict[str, Any]:
    play, position = position_of(instance, moves)
    found = _hint_of(instance, position)
    if found is not None:
        return _explained(instance, play, position, found)
    return _solution_hint(instance, play, position)


def _explained(instance: Any, play: Any, position: Any, found: dict[str, Any]
               ) -> dict[str, Any]:
    if found["kind"] == "done":
        return {"kind": "done", "message": "nothing left to find: check it", "items": [],
                "moves": []}
    if found["kind"] == "mistake":
        return {"kind": "mistake", "message": found["reason"], "items": [found["item"]],
                "moves": []}
    moves, _ = decided_moves(instance, play, position, found["decided"])
    items = list(found["decided"]) + _paths(instance, play, position, moves)
    return {"kind": "step", "message": found["reason"], "technique": found["technique"],
            "items": items, "moves": moves}


def _paths(instance: Any, play: Any, position: Any, moves: list[str]) -> list[str]:
    """The targets a plan's first move is made on (squares, vessels), to highlight."""
    if not play.PLAN or not moves:
        return []
    return next((list(m.path) for m in play.moves(instance, position) if m.move == moves[0]), [])


def _solution_hint(instance: Any, play: Any, position: Any) -> dict[str, Any]:
    """Without an explanation: the first move of a verified answer from here."""
    left = play.remaining(instance, position)
    found = result_of(answer(left))
    if not found.status.has_solution or found.solution is None:
        return {"kind": "none", "items": [], "moves": [],
                "message": f"no hint: {found.message or found.status.value}"}
    ahead = play.moves_to(left, found.solution)
    if not play.PLAN:
        marked = play.items(instance, position)
        ahead = [move for move in ahead if marked.get(move.split()[0]) != move.split()[1]]
    if not ahead:
        return {"kind": "done", "message": "nothing left to do: check it", "items": [],
                "moves": []}
    move = ahead[0]
    path = next((m.path for m in play.moves(instance, position) if m.move == move), ())
    return {"kind": "step", "message": f"try {move} (from a solution found by hand)",
            "items": list(path), "moves": [move]}


def reveal(instance: Any, spec: Any = "hand") -> dict[str, Any]:
    found = answer(instance, spec if isinstance(spec, str) else "hand")
    result = result_of(found)
    if result.solution is None or not result.verified:
        raise UsageError(f"nothing to reveal: {result.message or result.status.value}")
    return {"moves": list(player(instance).moves_to(instance, result.solution)),
            "status": result.status.value}
