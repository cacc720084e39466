"""Grading and drawing shortest-plan puzzles: levels by plan length and search effort.

A state-space puzzle (water jugs, clock stepping) asks for a fewest-move plan,
and a generated one must have exactly one. Its difficulty is defined the way
Simon Tatham's collection defines it, by what the solver may do: level d is a
`Band`, and the level-d solver is the layer-counting BFS of `search.layers`
(one way, or from both ends, as the puzzle's `hand` back-end searches)
allowed plans of at most `max_length` moves and at most `max_share` percent
of the reachable states expanded (a node limit of max_share * reachable).
An instance is of level d when the level-d solver finds its optimal plan and
proves it the only one, and the level-(d-1) solver does not. The bands grow
with d and the search is deterministic, so one unbounded search settles the
level: its (length, nodes) against each band in turn (`grade_plan`);
`solves_within` is the restricted solver itself, run under its node limit,
and the two agree by construction (tests check it).

Counting the reachable states may cost far more than the search (a 4-jug
space of half a million states against 7,500 expanded), so `grade_plan`
counts only as far as the decision needs: with n nodes expanded, every band
admits the share once n * 100 <= min_share * reachable, so counting stops at
the larger of ceil(n * 100 / min_share) and `EXACT_REACHABLE` states;
`reachable` is then a lower bound (`reachable_capped` in the evidence, and
`share` an upper bound).

Drawing (`survey`, `draw`). One forward layer count over the space (to the
longest length wanted) gives every state's depth and number of shortest
move sequences; a puzzle's goal labels (a state, a level some jug holds, a
total, ...) then have their optimal length and number of optimal plans from
the first layer where they appear, for every goal at once. `draw` takes the
goals with exactly one optimal plan of a wanted length in a seeded order
and keeps the first the grader puts at the requested level. Nothing here
reads a clock: node limits only, so the same rng gives the same puzzle.

A puzzle's generator holds its bands and grader in one `PlanLevels`, whose
`grade` and `solves_at` are the generator's own, and asks it for the
request's length, the lengths to draw and the draw.

>>> from .statespace import StateSpace
>>> line = StateSpace(0, lambda x: [("+1", x + 1)] if x < 9 else [], goal_state=6)
>>> problem = PlanProblem(line, both_ends=False, reachable=lambda cap: min(10, cap))
>>> bands = (Band("easy", 4, 50, range(2, 5)), Band("hard", None, None, range(5, 9)))
>>> graded = grade_plan(problem, bands)
>>> graded.level, graded.evidence["length"], graded.evidence["share"]
('hard', 6, 0.6)
>>> solves_within(problem, bands[0]), solves_within(problem, bands[1])
(False, True)
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import UsageError, quoted
from ..core.generation import Generated, Grade, Request, spelled
from .bfs import bfs, bfs_distances
from .layers import PathCount, shortest
from .statespace import StateSpace

__all__ = ["Band", "PlanProblem", "PlanLevels", "Hit", "GRADE_NODE_BUDGET", "EXACT_REACHABLE",
           "DRAWS_PER_ATTEMPT",
           "reachable_counter", "grade_plan", "solves_within", "band_of", "survey", "draw",
           "with_answer", "wanted_lengths", "check_plan_request", "whole_option"]

# Nodes the grading search may expand: the shipped instances need at most 500,000 (the
# one-step prime dial, 3 s); beyond it an instance is not graded (level None, the reason).
GRADE_NODE_BUDGET = 1_000_000
# States counted exactly for the evidence even when fewer settle the level (a BFS of
# this many states takes a fraction of a second).
EXACT_REACHABLE = 20_000
# Goals `draw` grades in one attempt before giving the attempt up.
DRAWS_PER_ATTEMPT = 12


@dataclass(frozen=True)
class Band:
    """One level: what its solver may do, and what `attempt` draws for it.

    `max_length`: the longest optimal plan the level's solver may find (None:
    any); `max_share`: the percent of the reachable states it may expand
    (None: any); `drawn`: the plan lengths drawn when no length is asked.
    """

    level: str
    max_length: int | None
    max_share: int | None
    drawn: range

    def admits(self, length: int, nodes: int, reachable: int) -> bool:
        """The level's solver finds a `length`-move plan expanding `nodes` of `reachable`."""
        if self.max_length is not None and length > self.max_length:
            return False
        return self.max_share is None or nodes * 100 <= self.max_share * reachable

    def node_limit(self, reachable: int, budget: int) -> int:
        """The level solver's node limit on a space of `reachable` states."""
        if self.max_share is None:
            return budget
        return min(budget, self.max_share * reachable // 100)


@dataclass(frozen=True)
class PlanProblem:
    """What grading needs of an instance: the `hand` back-end's state space and
    direction, `reachable(cap)` = min(number of reachable states, cap), and the rules'
    proof that no plan exists (None when they have none)."""

    space: StateSpace
    both_ends: bool
    reachable: Callable[[int], int]
    unreachable: str | None = None


@dataclass(frozen=True)
class Hit:
    """A goal's optimal plan length and number of optimal plans (from `survey`)."""

    length: int
    plans: int


def reachable_counter(space: StateSpace) -> Callable[[int], int]:
    """`reachable(cap)`: min(the number of states reachable in `space`, cap), by a BFS
    that stops after `cap` states (so a huge space costs only what is asked)."""
    roam = StateSpace(space.initial, space.successors, is_goal=lambda state: False,
                      key=space.key)

    def reachable(cap: int) -> int:
        found = bfs(roam, node_limit=cap)
        return found.nodes if found.exhausted else cap

    return reachable


def _search(problem: PlanProblem, node_limit: int) -> PathCount:
    found = shortest(problem.space, count=True, both_ends=problem.both_ends,
                     node_limit=node_limit)
    assert isinstance(found, PathCount)
    return found


def band_of(bands: Sequence[Band], length: int, nodes: int,
            reachable: Callable[[int], int]) -> tuple[Band | None, int, bool]:
    """The first band admitting a plan of `length` found with `nodes` expanded, and the
    reachable count it was judged on (exact, or capped once every band admits the share:
    see the module docstring) and whether it was capped."""
    shares = [b.max_share for b in bands if b.max_share is not None]
    enough = math.ceil(nodes * 100 / min(shares)) if shares else 0
    cap = max(enough, nodes, EXACT_REACHABLE)
    counted = reachable(cap)
    capped = counted >= cap
    band = next((b for b in bands if b.admits(length, nodes, counted)), None)
    return band, counted, capped


def grade_plan(problem: PlanProblem, bands: Sequence[Band],
               budget: int = GRADE_NODE_BUDGET) -> Grade:
    """The level of a shortest-plan instance and its evidence: `length`, `plans` (the
    number of optimal plans), `nodes` expanded, `reachable` states, `share` =
    nodes / reachable; level None when there is no plan, more than one optimal
    plan, or the search passed `budget` nodes (`reason` says which)."""
    if problem.unreachable:
        return Grade(None, {"reason": f"unreachable: {problem.unreachable}", "nodes": 0})
    found = _search(problem, budget)
    if not found.found:
        why = "unreachable: search exhausted" if found.exhausted else \
            f"not graded: the search passed {budget} nodes"
        return Grade(None, {"reason": why, "nodes": found.nodes})
    evidence: dict[str, Any] = {"length": found.cost, "plans": found.count,
                                "nodes": found.nodes}
    if found.count != 1:
        return Grade(None, {**evidence, "reason": f"{found.count} optimal plans"})
    band, counted, capped = band_of(bands, found.cost, found.nodes, problem.reachable)
    evidence.update(reachable=counted, share=round(found.nodes / max(counted, 1), 4))
    if capped:
        evidence["reachable_capped"] = True
    return Grade(None if band is None else band.level, evidence)


def solves_within(problem: PlanProblem, band: Band, budget: int = GRADE_NODE_BUDGET) -> bool:
    """The level solver of `band`: does it find the only optimal plan and prove it unique?

    It searches with the node limit max_share * reachable. Its reachable count
    starts small and doubles only while that lower bound is what stopped the
    search, so a small search on a huge space stays small.
    """
    if problem.unreachable:
        return False
    cap = 1024
    while True:
        counted = problem.reachable(cap)
        limit = band.node_limit(counted, budget)
        found = _search(problem, limit)
        if found.found:
            return found.count == 1 and (band.max_length is None
                                         or found.cost <= band.max_length)
        if found.exhausted or counted < cap or limit >= budget:
            return False
        cap *= 2


# ---------------------------------------------------------------- drawing

def survey(space: StateSpace, labels: Callable[[Any], Iterable[Hashable]],
           max_depth: int) -> dict[Hashable, Hit]:
    """Every goal label within `max_depth` moves: its optimal length and number of plans.

    `labels(state)` names the goals a state meets. One BFS gives the depths (in
    BFS order, so a state's number of shortest sequences is final before it
    passes it on); a label's plans are those of its states in the first layer
    that holds one. The space's moves must change the state (no no-ops) and
    carry no symmetry `key`, as the `hand` spaces do.

    >>> ring = StateSpace(0, lambda x: [(s, (x + s) % 6) for s in (1, 2)], goal_state=0)
    >>> hits = survey(ring, lambda x: [x], max_depth=3)
    >>> hits[2], hits[3]   # +2, or +1+1; +1+2 and +2+1
    (Hit(length=1, plans=1), Hit(length=2, plans=2))
    """
    moves = space.moves()
    depth = bfs_distances(space.initial, moves, max_depth=max_depth)
    ways = dict.fromkeys(depth, 0)
    ways[space.initial] = 1
    for state, d in depth.items():
        if d == max_depth:
            continue
        for _move, nxt in moves(state):
            if depth.get(nxt) == d + 1:
                ways[nxt] += ways[state]
    hits: dict[Hashable, Hit] = {}
    for state, d in depth.items():
        for label in labels(state):
            hit = hits.get(label)
            if hit is None:
                hits[label] = Hit(d, ways[state])
            elif hit.length == d:
                hits[label] = Hit(d, hit.plans + ways[state])
    return hits


def with_answer(instance: Any, length: int) -> Any:
    """The instance with its answer lines as metadata: unique, and the optimum."""
    meta = (("expect-unique", "true"), ("expect-objective", str(length)))
    return dataclasses.replace(instance, meta=meta)


def draw(hits: dict[Hashable, Hit], lengths: range, rng: random.Random,
         build: Callable[[Hashable], Any], grade: Callable[[Any], Grade], level: str,
         tries: int = DRAWS_PER_ATTEMPT) -> Generated | None:
    """The first of `tries` goals, in a seeded order, with one optimal plan of a length in
    `lengths` whose instance `build(goal)` grades to `level`; None if none does."""
    goals = [label for label, hit in hits.items() if hit.plans == 1 and hit.length in lengths]
    rng.shuffle(goals)
    for goal in goals[:tries]:
        instance = build(goal)
        graded = grade(instance)
        if graded.level == level:
            return Generated(with_answer(instance, graded.evidence["length"]), graded)
    return None


# ---------------------------------------------------------------- requests

def whole_option(request: Request, name: str, low: int, high: int) -> int | None:
    """The request's whole-number option `name` (None when not given), refused as a
    `UsageError` outside low..high.

    >>> whole_option(Request("jugs", "easy", options={"jugs": 3}), "jugs", 2, 4)
    3
    """
    value = request.option(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise UsageError(f"{spelled(name)} must be a whole number {low}..{high}, "
                         f"got {quoted(value)}")
    return value


def wanted_lengths(bands: Sequence[Band], level: str, length: int | None) -> range:
    """The plan lengths to draw: exactly `length`, or the level's band."""
    if length is not None:
        return range(length, length + 1)
    return next(b for b in bands if b.level == level).drawn


def check_plan_request(request: Request, bands: Sequence[Band], title: str,
                       longest: int) -> int | None:
    """Refuse what no shortest-plan puzzle of the request can be; the `length` option.

    Refused: a grid size or `--symmetric` (no grid, no clues), an unknown
    level, a length below 1 (the start itself is no puzzle), above the
    level's `max_length` (its solver finds no longer plan) or above `longest`
    (the most the generator draws).
    """
    levels = [b.level for b in bands]
    if request.rows is not None or request.cols is not None:
        raise UsageError(f"{title} puzzles have no grid size: leave out --size")
    if request.symmetric:
        raise UsageError(f"{title} puzzles have no clues to place symmetrically")
    if request.level not in levels:
        raise UsageError(f"{title} levels are {', '.join(levels)}; "
                         f"got {quoted(request.level)}")
    length = whole_option(request, "length", 1, longest)
    band = bands[levels.index(request.level)]
    if length is not None and band.max_length is not None and length > band.max_length:
        raise UsageError(f"{title} puzzles of level {request.level} have optimal plans of at "
                         f"most {band.max_length} moves, not {length}")
    return length


@dataclass(frozen=True)
class PlanLevels:
    """A shortest-plan puzzle's levels: its `bands`, `problem(instance)` (what its grader
    searches), its `title` in messages and the `longest` plan a request may ask for."""

    bands: tuple[Band, ...]
    problem: Callable[[Any], PlanProblem]
    title: str
    longest: int

    def grade(self, instance: Any) -> Grade:
        """The level of any instance of the puzzle and its evidence (`grade_plan`)."""
        return grade_plan(self.problem(instance), self.bands)

    def solves_at(self, instance: Any, level: str) -> bool:
        """Whether the solver restricted to `level` finds the one optimal plan."""
        levels = [b.level for b in self.bands]
        return solves_within(self.problem(instance), self.bands[levels.index(level)])

    def length(self, request: Request) -> int | None:
        """The request's `length`, anything impossible refused (`check_plan_request`)."""
        return check_plan_request(request, self.bands, self.title, self.longest)

    def lengths(self, request: Request, length: int | None) -> range:
        """The plan lengths to draw for `request` (`wanted_lengths`)."""
        return wanted_lengths(self.bands, request.level, length)

    def draw(self, hits: dict[Hashable, Hit], lengths: range, rng: random.Random,
             build: Callable[[Hashable], Any], level: str) -> Generated | None:
        """The first goal drawn whose instance grades to `level` (`draw`)."""
        return draw(hits, lengths, rng, build, self.grade, level)
