"""Mirror maze, explained: the relaxed bound, the flips it forces, and the proof of the optimum.

Rules: see `rules.py`. The reasoning is the grader's (`generate.solve_at_level`
and `hand.forced_flips`, the same code):

- The relaxation: let every `?` turn as it suits at every visit. Its
  cheapest route to the goal costs B flips, a lower bound on the fewest.
- Forcing (one step per forced mirror): with that `?` kept as '/', no
  relaxed route stays within B, so every set of B flips flips it.
- The rest in one step: when the forced flips meet the goal, every other
  `?` keeps '/' (technique "forcing": B flips, and none fewer can do);
  else the search held to B flips finds the set ("search within the
  bound"); else no set of B flips exists and A* with the relaxation as its
  heuristic finds the fewest ("search past the bound").

Items are the `?` cells `rXcY`: 1 flipped to '\\', 0 kept as '/'. Premises:
the lasers and targets, and the mirror of a forcing step.

`hint(instance, {"flips": [[r, c], ...], "kept": [[r, c], ...]})`: the
mirrors flipped (and, optionally, those decided to stay) so far.
"""

from __future__ import annotations

from typing import Any

from ...explain.state import position_error
from ...explain.steps import Explanation, Mistake, NoSolution, Step, cell_key, solved
from . import hand
from .generate import GRADE_NODE_LIMIT, LEVELS, TECHNIQUES, solve_at_level
from .rules import Instance

__all__ = ["LEVELS", "ORDER", "explain", "hint"]

ORDER = tuple(t for t in TECHNIQUES[LEVELS[-1]] if t != "relaxation")
_BY_LEVEL = {level: TECHNIQUES[level][-1] for level in LEVELS}  # each level's top technique


def _names(cells: list[tuple[int, int]]) -> str:
    keys = [cell_key(r, c) for r, c in cells]
    if len(keys) <= 1:
        return "".join(keys) or "none"
    return ", ".join(keys[:-1]) + " and " + keys[-1]


def _ends(instance: Instance) -> tuple[str, ...]:
    """The lasers and the targets: what every relaxed route runs between."""
    return tuple(cell_key(r, c) for r, c, _ in instance.sources()) + \
        tuple(cell_key(r, c) for r, c in instance.targets())


def _steps(instance: Instance, flips: set[tuple[int, int]], level: str | None
           ) -> tuple[list[Step], tuple[str, ...]]:
    """The steps of the answer `flips` (module docstring), cut at `level`'s techniques."""
    forcing = hand.forced_flips(instance)
    if forcing.bound is None:
        raise NoSolution("no solution: not even the relaxation, each ? turned as it suits at "
                         "every visit, meets the goal")
    bound, mirrors = forcing.bound, instance.rotatable()
    graded = solve_at_level(instance).grade.level
    allowed = ORDER if level is None else TECHNIQUES[level]
    optimum = len(flips)
    steps: list[Step] = []
    forced = [mirrors[m] for m in forcing.forced] if optimum == bound else []
    for cell in forced:
        said = (f"{cell_key(*cell)} is flipped: letting every ? turn as it suits at every "
                f"visit, the cheapest route needs {bound} flips, the fewest any answer can "
                f"have, and with {cell_key(*cell)} kept as '/' no such route stays within "
                f"{bound}")
        steps.append(Step("forcing", ((cell_key(*cell), 1),), said, (*_ends(instance),
                                                                      cell_key(*cell))))
    rest = [cell for cell in mirrors if cell not in forced]
    technique = _last_technique(graded, forcing, optimum, bound)
    if technique not in allowed:
        note = (f"The {level} techniques ({', '.join(allowed)}) stop here: settling the "
                f"other mirrors needs {technique}.")
        return [s for s in steps if s.technique in allowed], (note,)
    if rest:
        steps.append(_rest(instance, rest, flips, forced, technique, bound, optimum))
    return steps, (f"The relaxed bound is {bound} and the answer flips {optimum}.",)


def _last_technique(graded: str | None, forcing: hand.Forcing, optimum: int, bound: int
                    ) -> str:
    """The technique of the last step: the grader's level's top one, or (no unique answer
    to grade) what the bound and the optimum say."""
    if graded is not None:
        return _BY_LEVEL[graded]
    if forcing.proves:
        return "forcing"
    return "search within the bound" if optimum == bound else "search past the bound"


def _rest(instance: Instance, rest: list[tuple[int, int]], flips: set[tuple[int, int]],
          forced: list[tuple[int, int]], technique: str, bound: int, optimum: int) -> Step:
    flipped = [cell for cell in rest if cell in flips]
    kept = [cell for cell in rest if cell not in flips]
    items = tuple((cell_key(*cell), int(cell in flips)) for cell in rest)
    what = (f"flip {_names(flipped)} and keep {_names(kept)} as '/'" if flipped else
            f"{_names(kept)} {'keeps' if len(kept) == 1 else 'keep'} '/'")
    if technique == "forcing":
        why = (f"flipping the {len(forced)} forced mirrors already meets the goal, and no "
               f"answer has fewer than {bound} flips")
    elif technique == "search within the bound":
        why = (f"a search of the beams' mirrors held to {bound} flips (the relaxed bound, so "
               f"none fewer will do) finds this flip set")
    else:
        why = (f"no set of {bound} flips meets the goal (the search held to that bound finds "
               f"none), and A*, with the relaxation as its bound, finds {optimum} flips the "
               f"fewest, this set")
    return Step(technique, items, f"{what}: {why}", (*_ends(instance),
                                                        *(cell_key(*c) for c in forced)))


def _flip_set(solution: dict[str, Any]) -> set[tuple[int, int]]:
    return {(r, c) for r, c in solution["flips"]}


def explain(instance: Instance, level: str | None = None) -> Explanation:
    """The relaxed bound, the forced flips, the rest (module docstring)."""
    if not instance.rotatable():
        result = solved(instance, unique=False)
        return Explanation("mirror", (), result.solution, True, level, ORDER,
                           ("There is no ? to flip: the beams already meet the goal.",))
    result = solved(instance, unique=False)
    steps, summary = _steps(instance, _flip_set(result.solution), level)
    complete = len({item for step in steps for item, _ in step.decided}) == \
        len(instance.rotatable())
    return Explanation("mirror", tuple(steps), result.solution, complete, level, ORDER, summary)


def _cells(state: dict[str, Any], key: str, mirrors: set[tuple[int, int]]) -> list:
    cells = state.get(key, [])
    if not isinstance(cells, list):
        raise position_error(f"the position's {key!r} is a list of [row, column] pairs")
    found = []
    for index, cell in enumerate(cells):
        if (not isinstance(cell, list) or len(cell) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)):
            raise position_error(f"the position's {key!r} item {index} is not a [row, column] "
                                 "pair")
        if tuple(cell) not in mirrors:
            raise position_error(f"the position's {key!r} item {index}, {cell}, is not a ? cell")
        found.append(tuple(cell))
    return found


def hint(instance: Instance, state: dict[str, Any]) -> Step | Mistake | None:
    """The first flip (or kept mirror) no fewest-flip answer shares, else the next step of
    the explanation, else None."""
    extra = sorted(set(state) - {"flips", "kept"})
    if extra:
        raise position_error(f"the position has key {extra[0]!r}; it takes 'flips' and 'kept'")
    mirrors = set(instance.rotatable())
    flipped, kept = _cells(state, "flips", mirrors), _cells(state, "kept", mirrors)
    answers = _answers(instance)
    decided = sorted([(cell, 1) for cell in flipped] + [(cell, 0) for cell in kept])
    for number in range(1, len(decided) + 1):
        fits = [answer for answer in answers
                if all((cell in answer) == bool(value) for cell, value in decided[:number])]
        if not fits:
            (r, c), value = decided[number - 1]
            word = "flipped" if value else "kept as '/'"
            return Mistake(cell_key(r, c), f"{cell_key(r, c)} {word} is in no fewest-flip "
                                           f"answer that keeps the mirrors before it")
        answers = fits
    known = {cell_key(*cell) for cell, _ in decided}
    steps, _ = _steps(instance, answers[0], None)
    for step in steps:
        if any(item not in known and value for item, value in step.decided):
            return step
    return None


def _answers(instance: Instance) -> list[set[tuple[int, int]]]:
    """The fewest-flip answers the search finds (at most two)."""
    found = hand.search_optimum(instance, node_limit=GRADE_NODE_LIMIT)
    mirrors = instance.rotatable()
    answers = [{cell for i, cell in enumerate(mirrors) if mask >> i & 1} for mask in found.sets]
    if not answers:
        answers = [_flip_set(solved(instance, unique=False).solution)]
    return answers
