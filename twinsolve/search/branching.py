"""The `solve` of a propagation-and-branching back-end: what every such back-end shares.

Rules. A back-end builds its propagation model (a `Propagator` on a store, a
branching choice, a reading of values as the puzzle's answer), then:

1. optionally settles the root first (`settle`: propagation, perhaps a
   lookahead, under the deadline): a failure is `unsat` (a proof), the
   deadline `timeout` ("hand stopped: time limit"), and a root that decides
   every cell (`decided`) is the one solution: `solved`, unique, count 1,
   no search;
2. searches depth first (`propagate.search`) for as many solutions as the
   limits want (`core.result.solutions_wanted`: one, two to settle
   uniqueness, all to count) and answers by `SolveResult.answer`.

Statistics: `nodes` (values tried at branching points; 0 when the root
settled it), `propagations` (rule runs) and, with probing on, `probes`
(failed-literal trials). The back-end's option is `probe=true|false`
(`check_probe_option`, which checks a back-end's further on-off switches too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from ..core.limits import Deadline, LimitReached, Limits
from ..core.result import Result, Stats, Status, Stopwatch, Tally, solutions_wanted
from .propagate import Parts, Propagator, Store, search

__all__ = ["check_probe_option", "Searchable", "solve_by_search"]


def check_probe_option(limits: Limits, backend: str = "hand",
                       switches: tuple[str, ...] = ()) -> None:
    """The back-end's option `probe=true|false`, and as many more on-off `switches`
    (default on), as the registry's checker."""
    limits.check_options(backend, ("probe", *switches))
    for name in ("probe", *switches):
        limits.flag(name, True)


class Searchable(Protocol):
    """A back-end's propagation model as the search sees it."""

    prop: Propagator

    def choose(self, store: Store) -> int | None:
        """The variable to branch on, None when every one is fixed."""

    def solution(self, values: Sequence[int]) -> dict[str, Any]:
        """The answer the variables' values read as."""


def solve_by_search(model: Searchable, limits: Limits, deadline: Deadline, watch: Stopwatch,
                    *, order: Callable[[Store, int], Iterable[int]],
                    probes: Callable[[], int] | None = None,
                    settle: Callable[[], bool] | None = None,
                    decided: Callable[[], bool] | None = None,
                    last_conflict: bool = False, parts: Parts | None = None,
                    choose_in: Callable[[Store, set[int]], int | None] | None = None
                    ) -> Result:
    """Settle the root when `settle` is given, then search; the back-end's `Result`
    (module docstring). `probes()` counts the probing trials, None: probing is off;
    `last_conflict`, `parts` and `choose_in` are `propagate.search`'s."""
    prop = model.prop

    def stats(nodes: int) -> Stats:
        counters = {"propagations": prop.runs}
        if probes is not None:
            counters["probes"] = probes()
        return watch.stats(nodes=nodes, **counters)

    if settle is not None:
        prop.deadline = deadline
        try:
            settled = settle()
        except LimitReached:
            return Result(Status.TIMEOUT, stats=stats(0), message="hand stopped: time limit")
        if not settled:
            return Result.unsat(limits, stats=stats(0))
        if decided is not None and decided():
            return Result.answer(Status.SOLVED, model.solution(prop.store.solution()),
                                 tally=Tally(1, complete=True), asked=limits, stats=stats(0))
    found = search(prop, choose=model.choose, order=order,
                   max_solutions=solutions_wanted(limits), keep=1,
                   node_limit=limits.node_limit, deadline=deadline,
                   last_conflict=last_conflict, parts=parts, choose_in=choose_in)
    return found.answer(limits, stats(found.nodes), model.solution)
