"""Plans as walks in an explicit automaton: CP-SAT's automaton constraint over listed states.

The problem. A planning puzzle (water jugs) asks for the fewest moves from a
start to a goal. The step encoding of `planning_steps` describes each state
by variables and each move by constraints between two steps, and CP-SAT
must prove every horizon below the optimum empty by search: on plans of 14
moves and more that proof takes longer than 30 s. Yet the states a plan of
T moves can visit are often few enough to list.

The idea. List the states and hand CP-SAT the transition table:

- `explore(initial, successors, is_goal, moves, deadline, ...)`: the states
  within `max_depth` moves of `initial` (all reachable states without it),
  by the engine's breadth-first search (`search.bfs.bfs_distances`),
  numbered in BFS order (0 = `initial`); every move out of the states short
  of that depth as a triple (tail, move, head), moves that change nothing
  left out (they are never on a shortest plan); and the goal states. A walk
  of at most `max_depth` moves from the start uses only these. When the
  table would hold more than `max_transitions` moves, it stops a layer
  short of the state that overflowed it (the graph's `depth` says how deep).
  A horizon T gets only the moves out of states less than T moves deep.
- `build_walk_cpsat(graph, horizon)`: the plan's `do[t,m]` of
  `planning_steps.cpsat_choices` (exactly one move per step), an integer
  `move[t]` equal to the chosen index (`add_map_domain`), and one
  `add_automaton(move, 0, goals, transitions)`: the moves must label a walk
  of `horizon` steps from the start to a goal.
- `WalkBuilder`: `build(horizon)` for the growing horizon. It explores as
  the horizon grows, to the horizon's depth and beyond while the table at
  most doubles (`explore(past=horizon)`): each exploration starts afresh,
  so the doubling keeps their total near twice the last one, and a short
  plan in a huge space lists only the states near the start. When even the
  horizon's depth holds more than `max_transitions` moves, it hands this
  and every later horizon to the caller's `fallback` (the step encoding).
  Once the exploration has met every reachable state, `longest` is
  states - 1: a shortest plan never visits a state twice.
- `solve_walk_cpsat(builder, lower, upper, limits, timer)`: the growing
  horizon of `planning_steps.solve_plan_cpsat` (optimality, `unique` and
  `count` over the `do` variables, as there), with the upper bound
  tightened to `builder.longest` once it is known.

Why it is fast: CP-SAT unrolls an automaton into one layer of states per
step and keeps only the states reachable forward from the start and
backward from the goals, so a horizon with no plan is refuted in presolve
instead of by search, and a horizon with one leaves little to decide.

Moves are labelled 0 .. moves-1 (the indices of the caller's move list); a
move is a function of the state, so `do` fixes the walk, and distinct `do`
assignments are distinct plans.

>>> from twinsolve.core.limits import Deadline
>>> step = lambda x: [(0, x + 1), (1, x - 1)] if 0 <= x < 3 else []
>>> line = explore(0, step, lambda x: x == 3, 2, Deadline(None))
>>> line.states, line.goals, line.transitions[:2], line.complete
((0, 1, -1, 2, 3), (4,), ((0, 0, 1), (0, 1, 2)), True)
>>> near = explore(0, step, lambda x: x == 3, 2, Deadline(None), max_depth=1)
>>> near.states, near.transitions, near.covers(1), near.covers(2)
((0, 1, -1), ((0, 0, 1), (0, 1, 2)), True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from ortools.sat.python import cp_model

from ..core.limits import Deadline, Limits
from ..search.bfs import bfs_distances
from .planning_steps import CpPlan, PlanOutcome, PlanTimer, cpsat_choices, solve_plan_cpsat

__all__ = ["StateGraph", "explore", "build_walk_cpsat", "WalkBuilder", "solve_walk_cpsat"]

_POLL_EVERY = 256  # states expanded between two reads of the deadline

Successors = Callable[[Any], Iterable[tuple[int, Hashable]]]


@dataclass(frozen=True)
class StateGraph:
    """The listed states, in BFS order (index 0 the start), and the moves among them.

    `transitions` holds (tail, move, head) index triples, ordered by the tail's
    depth; `ends[k]` is how many of them leave states less than k moves from
    the start. `depth` is how deep the states are listed: every state within
    `depth` moves, and every move out of those within `depth - 1` (all of them
    when `complete`: then every reachable state is listed and `depth` is the
    deepest). `capped`: the cap on moves stopped the listing at `depth`, so no
    listing goes deeper. `goals` are the goal states' indices, `moves` the
    number of labels.
    """

    states: tuple[Hashable, ...]
    transitions: tuple[tuple[int, int, int], ...]
    ends: tuple[int, ...]
    goals: tuple[int, ...]
    moves: int
    depth: int
    complete: bool
    capped: bool = False

    def covers(self, horizon: int) -> bool:
        """Whether every walk of `horizon` moves from the start is in the table."""
        return self.complete or horizon <= self.depth

    def table(self, horizon: int) -> tuple[tuple[int, int, int], ...]:
        """The moves a walk of `horizon` moves can take: those out of states less than
        `horizon` moves from the start (a prefix of `transitions`)."""
        return self.transitions[:self.ends[min(horizon, len(self.ends) - 1)]]


class _Stop(Exception):
    """Exploring stops before expanding a state at `depth` (`capped`: by the hard cap)."""

    def __init__(self, depth: int, capped: bool) -> None:
        super().__init__(depth)
        self.depth, self.capped = depth, capped


def explore(initial: Hashable, successors: Successors, is_goal: Callable[[Any], bool],
            moves: int, deadline: Deadline, max_transitions: int | None = None,
            max_depth: int | None = None, past: int | None = None) -> StateGraph:
    """The states within `max_depth` moves of `initial` and the moves among them, or as
    deep as `max_transitions` moves allow (the graph's `depth` says how deep).

    With `past`, the listing goes deeper than `past` moves only while the table
    holds at most twice the moves out of the states within `past - 1` (so a
    layer-by-layer growing horizon re-explores about twice as deep as it needs
    when the layers stay small, and a layer or two deeper when they swell).
    `successors(state)` yields `(move, next_state)` with `move` in 0 .. moves-1.
    Raises `LimitReached` when `deadline` passes while exploring.
    """
    depth_of: dict[Hashable, int] = {initial: 0}
    listed: dict[Hashable, list[tuple[int, Hashable]]] = {}
    total, within = 0, None  # moves listed; those out of states short of `past`

    def expand(state: Hashable) -> list[tuple[int, Hashable]]:
        nonlocal total, within
        if len(listed) % _POLL_EVERY == 0:
            deadline.check()
        out = [(move, nxt) for move, nxt in successors(state) if nxt != state]
        for move, _ in out:
            if not 0 <= move < moves:
                raise ValueError(f"move label {move!r} is not in 0..{moves - 1}")
        depth = depth_of[state]
        if max_transitions is not None and total + len(out) > max_transitions:
            raise _Stop(depth, capped=True)
        if past is not None and depth >= past:
            within = total if within is None else within
            if total + len(out) > 2 * max(within, 1):
                raise _Stop(depth, capped=False)
        total += len(out)
        for _, nxt in out:
            depth_of.setdefault(nxt, depth + 1)  # layer by layer: the first depth is the BFS one
        listed[state] = out
        return out

    capped = False
    try:
        # Why the engine's BFS: it expands each state short of `max_depth` exactly once,
        # layer by layer, so `expand` sees every such state and every move out of it.
        bfs_distances(initial, expand, max_depth=max_depth)
        deepest = max(depth_of.values())
        complete = max_depth is None or deepest < max_depth
        depth = deepest if complete else max_depth
    except _Stop as stop:
        # Every state short of the one being expanded's depth was expanded in time.
        complete, depth, capped = False, stop.depth, stop.capped
    return _graph(depth_of, listed, is_goal, moves, depth, complete, capped)


def _graph(depth_of: dict[Hashable, int], listed: dict[Hashable, list[tuple[int, Hashable]]],
           is_goal: Callable[[Any], bool], moves: int, depth: int, complete: bool,
           capped: bool) -> StateGraph:
    """The StateGraph of the states within `depth` (in BFS order) and the moves out of
    those within `depth - 1` (out of all of them when `complete`)."""
    order = [state for state, d in depth_of.items() if d <= depth]
    index = {state: i for i, state in enumerate(order)}
    transitions: list[tuple[int, int, int]] = []
    ends = [0]
    for state in order:
        level = depth_of[state]
        if level >= depth and not complete:
            break
        while len(ends) <= level + 1:  # a new layer of tails begins
            ends.append(len(transitions))
        transitions += [(index[state], move, index[nxt]) for move, nxt in listed[state]]
        ends[-1] = len(transitions)
    goals = tuple(i for i, state in enumerate(order) if is_goal(state))
    return StateGraph(tuple(order), tuple(transitions), tuple(ends), goals, moves, depth,
                      complete, capped)


def build_walk_cpsat(graph: StateGraph, horizon: int) -> CpPlan:
    """The plans of exactly `horizon` moves as one automaton constraint (module docstring).

    `graph` must cover the horizon (`graph.covers(horizon)`).
    """
    if not graph.covers(horizon):
        raise ValueError(f"the graph lists states to depth {graph.depth}, not {horizon}")
    model = cp_model.CpModel()
    # Variables: one move per step, as the Booleans do[t,m] and as its index move[t].
    choices = cpsat_choices(model, horizon, graph.moves)
    move = [model.new_int_var(0, graph.moves - 1, f"move[{t}]") for t in range(horizon)]
    for t in range(horizon):
        model.add_map_domain(move[t], choices[t])
    # Constraints: the moves label a walk from the start (state 0) to a goal.
    table = graph.table(horizon)
    if horizon == 0 or not graph.goals or not table:
        # add_automaton needs steps, goals and transitions; without them the walk is
        # the empty one (a plan iff the start is a goal) or there is none.
        if not (horizon == 0 and 0 in graph.goals):
            model.add_bool_or([])
        return CpPlan(model, choices)
    model.add_automaton(move, 0, list(graph.goals), list(table))
    return CpPlan(model, choices)


class WalkBuilder:
    """`build(horizon)` on the automaton, exploring as the horizon grows (module docstring).

    `fallback(horizon)` builds the same plans another way (named `fallback_name`
    in the counters); it takes over every horizon from the first that the
    states within `max_transitions` moves do not cover. `explore` runs under
    `deadline` and raises `LimitReached` past it.
    """

    def __init__(self, initial: Hashable, successors: Successors,
                 is_goal: Callable[[Any], bool], moves: int, deadline: Deadline,
                 max_transitions: int | None, fallback: Callable[[int], CpPlan],
                 fallback_name: str = "fallback") -> None:
        self._explore = (initial, successors, is_goal, moves, deadline, max_transitions)
        self._fallback, self._fallback_name = fallback, fallback_name
        self.graph: StateGraph | None = None
        self.too_large = False        # the table outgrew the cap: the fallback builds
        self.used: list[str] = []     # what built the horizons, in order of first use

    @property
    def longest(self) -> int | None:
        """states - 1 once every reachable state is listed (a bound on shortest plans)."""
        if self.graph is None or not self.graph.complete:
            return None
        return len(self.graph.states) - 1

    def __call__(self, horizon: int) -> CpPlan:
        if not self.too_large and (self.graph is None or not self.graph.covers(horizon)):
            if self.graph is not None and self.graph.capped:
                self.too_large = True  # the cap stopped the last listing: none gets deeper
            else:
                self.graph = explore(*self._explore, past=horizon)
                self.too_large = not self.graph.covers(horizon)
        if self.too_large:
            self._use(self._fallback_name)
            return self._fallback(horizon)
        self._use("automaton")
        assert self.graph is not None
        return build_walk_cpsat(self.graph, horizon)

    def _use(self, name: str) -> None:
        if name not in self.used:
            self.used.append(name)

    def counters(self) -> dict[str, Any]:
        """`encoding` (automaton, the fallback or both, joined by +) and the table's size."""
        counters: dict[str, Any] = {"encoding": "+".join(self.used) or "automaton"}
        if self.graph is not None:
            counters.update(states=len(self.graph.states),
                            transitions=len(self.graph.transitions))
        return counters


def solve_walk_cpsat(builder: WalkBuilder, lower: int, upper: int, limits: Limits,
                     timer: PlanTimer) -> PlanOutcome:
    """Fewest moves by CP-SAT on the automaton, horizons `lower` .. the tightest bound known
    (`upper`, or `builder.longest` once known); the counters say what built them."""

    def bound() -> int:
        longest = builder.longest
        return upper if longest is None else min(upper, longest)

    outcome = solve_plan_cpsat(builder, lower, bound, limits, timer)
    return replace(outcome, stats=replace(outcome.stats,
                                          counters={**outcome.stats.counters,
                                                    **builder.counters()}))
