"""Water-jug puzzles with exactly one optimal plan, graded by plan length and search effort.

Levels (the state-space grading of `twinsolve.search.plan_levels`). The level-d
solver is the `hand` back-end's search with `unique` (the layer-counting
BFS, from both ends for an `exact` goal) restricted to plans of at most a
level's length and to expanding at most a share of the states reachable
from the start:

- `easy`: an optimal plan of at most 6 moves, at most 50% of the reachable
  states expanded;
- `medium`: at most 10 moves, at most 80%;
- `hard`: any plan the search finds within `GRADE_NODE_BUDGET` (1,000,000) nodes.

A puzzle is of level d when the level-d solver finds its optimal plan and
proves it the only one, and the level-(d-1) solver does not; a puzzle with
no plan or several optimal plans has no level. The share is what a short
plan can still make hard: a goal among the last states the search reaches.
The published puzzles of the corpus (Die Hard, 8-5-3, Poisson's 12-8-5,
10-7-3) are all medium: 6 to 9 moves, and the 6-move ones expand 75% of
their 16 to 25 states. Of the 4-jug sets shipped none has a unique plan.

Drawing. What varies is what varies among the published puzzles: a family,
`tap` (2 or 3 jugs, empty at the start, fill, empty and pour allowed) or
`decant` (3 or 4 jugs, the largest full, pour only); distinct capacities,
the largest drawn around the plan length wanted (a longer plan needs more
room: `_largest`); the goal kind (`holds C`, `total C`, `exact a b ...`)
and its amounts. One forward layer count over the moves (`plan_levels.survey`)
gives every goal's optimal length and number of optimal plans at once;
goals with exactly one optimal plan of a wanted length are graded in a
seeded order until one is of the requested level.

Options: `length` (the exact optimal length; default: the level's drawn
lengths, easy 3-6, medium 7-10, hard 11-20; hard accepts up to
`LONGEST`), `jugs` (2 to 4) and `goal` (holds, total or exact).
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from ...core import generation
from ...core.errors import UsageError, quoted
from ...core.generation import Generated, Option, Request, Shipped, spelled
from ...search.plan_levels import (
    Band,
    PlanLevels,
    PlanProblem,
    reachable_counter,
    survey,
    whole_option,
)
from . import hand
from .rules import Goal, GoalKind, Instance, MoveKind, unreachable_reason

__all__ = ["LEVELS", "DEFAULT_SIZE", "OPTIONS", "BANDS", "LONGEST", "check", "attempt",
           "grade", "problem", "solves_at"]

BANDS = (
    Band("easy", 6, 50, range(3, 7)),
    Band("medium", 10, 80, range(7, 11)),
    Band("hard", None, None, range(11, 21)),
)
LEVELS = tuple(band.level for band in BANDS)
DEFAULT_SIZE = None
OPTIONS = (Option("length", "optimal plan length"),
           Option("jugs", "how many jugs, 2 to 4"),
           Option("goal", "holds: one jug holds C; total: C in all; exact: every level",
                  kind="word", choices=("holds", "total", "exact"), metavar="KIND"))
ATTEMPTS = generation.ATTEMPTS
# The graded sets in instances/jugs/graded/ (`python -m twinsolve.generation.shipped`).
SHIPPED = (Shipped("easy", None, 2), Shipped("medium", None, 2), Shipped("hard", None, 2))
# The longest optimal plan a request may ask for: two jugs of up to 23 and 19 give
# unique plans of 40 moves in about one attempt in three.
LONGEST = 40
_TAP = (MoveKind.FILL, MoveKind.EMPTY, MoveKind.POUR)
_DECANT = (MoveKind.POUR,)


def problem(instance: Instance) -> PlanProblem:
    """What the grader searches: the `hand` space, its direction, its reachable states."""
    space = hand.space(instance)
    return PlanProblem(space, hand.both_ends(instance), reachable_counter(space),
                       unreachable_reason(instance))


PLANS = PlanLevels(BANDS, problem, "jugs", LONGEST)
grade = PLANS.grade  # the contract's grade: the level of any jugs instance and its evidence
solves_at = PLANS.solves_at


def _options(request: Request) -> tuple[int | None, int | None, str | None]:
    """(length, jugs, goal), each refused as a `UsageError` when impossible."""
    length = PLANS.length(request)
    jugs = whole_option(request, "jugs", 2, 4)
    goal = request.option("goal")
    if goal is not None and goal not in {kind.value for kind in GoalKind}:
        raise UsageError(f"{spelled('goal')} must be holds, total or exact, "
                         f"got {quoted(goal)}")
    if jugs == 4 and goal == "total":
        raise UsageError("4 jugs are poured from a full one, which keeps the total: "
                         f"ask for {spelled('goal')}=holds or exact, or fewer jugs")
    return length, jugs, goal


def check(request: Request) -> None:
    """Refuse what no jugs puzzle can be (see `plan_levels.check_plan_request`) and bad options."""
    _options(request)


def _largest(rng: random.Random, jugs: int, longest: int) -> int:
    """The largest capacity, from about half to about the longest plan wanted: random jug
    sets have unique optimal plans up to about their largest capacity (two jugs of 40
    to 43 give one of 40 moves in most draws, of 25 in one draw in three)."""
    top = longest + 5
    return rng.randint(max(jugs + 1, top // 2), top)


def _shape(rng: random.Random, jugs: int | None, longest: int, goal: str | None) -> Instance:
    """Capacities, start and moves of one family (the goal is filled in later)."""
    # Long unique plans are rare with more jugs (more ways to every state); pouring keeps
    # the total, so a `total` goal needs the tap (never the 4-jug decanting family).
    counts = (2, 3, 3, 4) if longest <= 20 else (2, 2, 3)
    jugs = jugs or rng.choice(counts if goal != "total" else counts[:3])
    decant = jugs == 4 or (jugs == 3 and goal != "total" and rng.random() < 0.5)
    largest = _largest(rng, jugs, longest)
    others = rng.sample(range(2, largest), jugs - 1)
    capacities = tuple(sorted([largest, *others], reverse=True))
    start = (largest,) + (0,) * (len(capacities) - 1) if decant else (0,) * len(capacities)
    # The goal is a placeholder: the survey reads only the start and the moves.
    return Instance(capacities, start, _DECANT if decant else _TAP, Goal(GoalKind.HOLDS, (0,)))


def _goals(levels: tuple[int, ...], kinds: frozenset[str]) -> list[Hashable]:
    """The goals a state meets, as (kind, amounts) labels."""
    labels: list[Hashable] = []
    if "exact" in kinds:
        labels.append(("exact", levels))
    if "holds" in kinds:
        labels += [("holds", (amount,)) for amount in sorted(set(levels))]
    if "total" in kinds:
        labels.append(("total", (sum(levels),)))
    return labels


def attempt(request: Request, rng: random.Random) -> Generated | None:
    """One try: one random jug set, its survey, and up to a dozen goals graded."""
    length, jugs, goal = _options(request)
    lengths = PLANS.lengths(request, length)
    shape = _shape(rng, jugs, lengths[-1], goal)
    kinds = frozenset([goal] if goal else (kind.value for kind in GoalKind))
    hits = survey(hand.space(shape), lambda levels: _goals(levels, kinds), lengths[-1])

    def build(label: Hashable) -> Instance:
        kind, amounts = label
        return Instance(shape.capacities, shape.start, shape.kinds,
                        Goal(GoalKind(kind), amounts))

    return PLANS.draw(hits, lengths, rng, build, request.level)
