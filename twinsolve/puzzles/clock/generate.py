"""Clock-stepping puzzles with exactly one optimal plan, graded by plan length and effort.

Levels (the state-space grading of `twinsolve.search.plan_levels`). The level-d
solver is the `hand` back-end's search with `unique` (the layer-counting
BFS, from both ends with two or more moves) restricted to plans of at most
a level's length and to expanding at most a share of the M/g positions the
dial can reach (g = gcd(M, steps)):

- `easy`: an optimal plan of at most 4 moves, at most 30% of the reachable
  positions expanded;
- `medium`: at most 10 moves, at most 60%;
- `hard`: any plan the search finds within `GRADE_NODE_BUDGET` (1,000,000) nodes.

A puzzle is of level d when the level-d solver finds its optimal plan and
proves it the only one, and the level-(d-1) solver does not; a puzzle with
no plan or several optimal plans has no level.

Uniqueness is a strong condition here: moves commute, so a shortest plan
using two different steps can be reordered into another one. A unique
optimal plan is one step s taken k times, where no other k or fewer steps
add up to k*s (mod M); that is what makes it a puzzle: the obvious step is
not the one that works, and the solver must see that no mixture is as
short. Of the shipped dials only the one-step prime cycle has one.

Drawing. What varies: the dial M (from 3 to 12 times the longest plan
wanted, at least 8), two or three distinct steps (written between -M/2 and
M/2, as on the shipped dials: `steps 5 -7`), the start, and the target.
One forward layer count from the start (`plan_levels.survey`) gives every
target's optimal length and number of optimal plans at once; targets with
exactly one optimal plan of a wanted length are graded in a seeded order
until one is of the requested level.

Options: `length` (the exact optimal length; default: the level's drawn
lengths, easy 2-4, medium 5-10, hard 11-40; hard accepts up to `LONGEST`),
`hours` (M, 2 to 10^6; a dial of M hours has no plan of M moves or more)
and `steps` (how many steps, 1 to 4).
"""

from __future__ import annotations

import random

from ...core import generation
from ...core.errors import UsageError
from ...core.generation import Generated, Option, Request, Shipped
from ...search.plan_levels import Band, PlanLevels, PlanProblem, survey, whole_option
from . import hand
from .rules import MAX_HOURS, Instance, dial_gcd, unreachable_reason

__all__ = ["LEVELS", "DEFAULT_SIZE", "OPTIONS", "BANDS", "LONGEST", "check", "attempt",
           "grade", "problem", "solves_at"]

BANDS = (
    Band("easy", 4, 30, range(2, 5)),
    Band("medium", 10, 60, range(5, 11)),
    Band("hard", None, None, range(11, 41)),
)
LEVELS = tuple(band.level for band in BANDS)
DEFAULT_SIZE = None
OPTIONS = (Option("length", "optimal plan length"),
           Option("hours", "hours on the dial, 2 to 1,000,000"),
           Option("steps", "how many steps the dial has, 1 to 4"))
ATTEMPTS = generation.ATTEMPTS
# The graded sets in instances/clock/graded/ (`python -m twinsolve.generation.shipped`).
SHIPPED = (Shipped("easy", None, 2), Shipped("medium", None, 2), Shipped("hard", None, 2))
# The longest optimal plan a request may ask for: dials of 360 to 1,440 hours give
# unique plans of 120 moves in about one draw in thirty.
LONGEST = 120


def problem(instance: Instance) -> PlanProblem:
    """What the grader searches: the `hand` space, its direction, and the M/g positions."""
    positions = instance.hours // dial_gcd(instance)
    return PlanProblem(hand.space(instance), hand.both_ends(instance),
                       lambda cap: min(positions, cap), unreachable_reason(instance))


PLANS = PlanLevels(BANDS, problem, "clock", LONGEST)
grade = PLANS.grade  # the contract's grade: the level of any clock instance and its evidence
solves_at = PLANS.solves_at


def _options(request: Request) -> tuple[int | None, int | None, int | None]:
    """(length, hours, steps), each refused as a `UsageError` when impossible."""
    length = PLANS.length(request)
    hours = whole_option(request, "hours", 2, MAX_HOURS)
    steps = whole_option(request, "steps", 1, 4)
    if hours is not None and length is not None and length >= hours:
        raise UsageError(f"a dial of {hours} hours has no shortest plan of {length} moves: "
                         f"it visits distinct positions, so it has at most {hours - 1}")
    if hours is not None and steps is not None and steps >= hours:
        raise UsageError(f"a dial of {hours} hours has only {hours - 1} steps that move it")
    return length, hours, steps


def check(request: Request) -> None:
    """Refuse what no clock puzzle can be (see `plan_levels.check_plan_request`), bad options."""
    _options(request)


def _dial(rng: random.Random, hours: int | None, steps: int | None, longest: int) -> Instance:
    """A dial, its steps and its start (the target is filled in later)."""
    hours = hours or rng.randint(max(8, 3 * longest), max(8, 12 * longest))
    count = steps or min(rng.choice((2, 2, 3)), hours - 1)
    moves = rng.sample(range(1, hours), count)
    # Written as the shipped dials are: a step past half the dial turns it back.
    written = tuple(m - hours if m > hours // 2 else m for m in moves)
    start = rng.randrange(hours)
    return Instance(hours, start, start, written)


def attempt(request: Request, rng: random.Random) -> Generated | None:
    """One try: one random dial, its survey from the start, up to a dozen targets graded."""
    length, hours, steps = _options(request)
    lengths = PLANS.lengths(request, length)
    dial = _dial(rng, hours, steps, lengths[-1])
    hits = survey(hand.space(dial), lambda position: (position,), lengths[-1])

    def build(target: int) -> Instance:
        return Instance(dial.hours, dial.start, target, dial.steps)

    return PLANS.draw(hits, lengths, rng, build, request.level)
