"""What every back-end returns: a `Status`, a solution, and `Stats`.

Status vocabulary (docs/architecture.md): `optimal` (minimum proven), `solved`
(feasibility puzzle), `feasible` (a solution whose optimality is not proven),
`unsat`, `timeout`, `memout`, `crash`, `error`, `unsupported`, and `wrong`,
given only after `verify` rejected an answer or the harness found it
contradicts a proven one.

`Stats` always holds `nodes`, `build_s` and `solve_s`. `nodes` means: hand =
search nodes expanded (a branching decision or a state popped); cpsat =
`num_branches`; sat = decisions. Back-end counters (conflicts, nullity, ...)
sit beside them under their own names in `counters`.

`unique` and `count` have one definition, `Tally`: how many solutions a
search has found and whether it went to the end. Every back-end, `brute`
included, builds its answer's `unique` / `count` through `Result.answer`
(or `Result.unsat`) from a `Tally`, and `solutions_wanted` says how many
solutions a search must find to settle what `Limits` asked.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .time_limit import set_phase

if TYPE_CHECKING:
    from .limits import Limits

__all__ = ["Status", "Stats", "Tally", "NO_SOLUTION", "UNSETTLED", "solutions_wanted",
           "stopped_short", "Result", "Stopwatch"]


class Status(str, enum.Enum):
    OPTIMAL = "optimal"
    SOLVED = "solved"
    FEASIBLE = "feasible"
    UNSAT = "unsat"
    TIMEOUT = "timeout"
    MEMOUT = "memout"
    CRASH = "crash"
    ERROR = "error"
    UNSUPPORTED = "unsupported"
    WRONG = "wrong"

    def __str__(self) -> str:
        return self.value

    @property
    def has_solution(self) -> bool:
        return self in (Status.OPTIMAL, Status.SOLVED, Status.FEASIBLE)

    @property
    def is_answer(self) -> bool:
        """A definite answer: a solution, or a proof there is none."""
        return self.has_solution or self is Status.UNSAT


@dataclass(frozen=True)
class Stats:
    nodes: int = 0
    build_s: float = 0.0
    solve_s: float = 0.0
    counters: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "nodes": int(self.nodes),
            "build_s": round(self.build_s, 6),
            "solve_s": round(self.solve_s, 6),
        }
        out.update(self.counters)
        return out


@dataclass(frozen=True)
class Tally:
    """Solutions found so far (`found`), and whether the search ran to the end (`complete`).

    What that settles: `unique` is False once two are found or when a complete
    search found none, True when a complete search found exactly one, None
    while neither is known; `count` is `found` when complete, else None. A
    search stopped at the solutions it wanted (`solutions_wanted`) is not
    complete, but two found already settle `unique`.

    >>> Tally(1, complete=True).unique, Tally(2, complete=False).unique, Tally(1, False).unique
    (True, False, None)
    >>> Tally(3, complete=True).count, Tally(3, complete=False).count
    (3, None)
    """

    found: int
    complete: bool

    @classmethod
    def of_search(cls, found: int, wanted: int | None, stopped: bool = False) -> Tally:
        """The tally of a search that ends after `wanted` solutions (None: never) or when
        a limit `stopped` it: complete only if it ran out of candidates first.

        >>> Tally.of_search(1, wanted=2), Tally.of_search(2, wanted=2).unique
        (Tally(found=1, complete=True), False)
        """
        return cls(found, complete=not stopped and (wanted is None or found < wanted))

    @property
    def unique(self) -> bool | None:
        if self.found >= 2 or (self.complete and self.found == 0):
            return False
        return True if self.complete else None

    @property
    def count(self) -> int | None:
        return self.found if self.complete else None

    def reported(self, asked: Limits) -> tuple[bool | None, int | None]:
        """(unique, count) as a `Result` holds them: each None unless `asked` asked for it."""
        return (self.unique if asked.unique else None), (self.count if asked.count else None)


NO_SOLUTION = Tally(0, complete=True)  # a proof that there is none: unique False, count 0
UNSETTLED = Tally(0, complete=False)  # nothing known of the solution set (optimum not proven)


def solutions_wanted(asked: Limits) -> int | None:
    """How many solutions a search must find to answer `asked`: every one (None) to
    count them, two to settle uniqueness (a second one disproves it), else one.

    >>> from twinsolve.core.limits import Limits
    >>> solutions_wanted(Limits()), solutions_wanted(Limits(unique=True))
    (1, 2)
    >>> solutions_wanted(Limits(unique=True, count=True)) is None
    True
    """
    return None if asked.count else (2 if asked.unique else 1)


def stopped_short(found: int, complete: bool, wanted: int | None) -> bool:
    """Whether a search that wanted `wanted` solutions (`solutions_wanted`) ended before
    it could answer: not complete, with fewer found (a limit stopped it).

    >>> stopped_short(1, False, 2), stopped_short(2, False, 2), stopped_short(1, True, 2)
    (True, False, False)
    """
    return not complete and (wanted is None or found < wanted)


@dataclass(frozen=True)
class Result:
    """An answer. `solution` is the puzzle's JSON-ready dict (the README's solution keys).

    `unique` is True / False / None (not asked or not known); `count` is the
    number of distinct solutions when asked and known; `verified` is set by
    the runner after `verify`; `message` explains unsupported / error /
    wrong outcomes in one line.
    """

    status: Status
    solution: dict[str, Any] | None = None
    objective: int | None = None
    unique: bool | None = None
    stats: Stats = field(default_factory=Stats)
    count: int | None = None
    verified: bool | None = None
    message: str | None = None

    def with_(self, **changes: Any) -> Result:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The one JSON form of an answer: `solve --json` lines hold it (beside the puzzle,
        instance and back-end) and the bench workers send it.

        >>> Result(Status.UNSAT, count=0).to_json()["count"]
        0
        """
        return {"status": self.status.value, "objective": self.objective,
                "unique": self.unique, "verified": self.verified, "solution": self.solution,
                "stats": self.stats.to_dict(), "count": self.count, "message": self.message}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Result:
        """The `Result` of `to_json`'s form."""
        stats = dict(data.get("stats") or {})
        core = Stats(int(stats.pop("nodes", 0) or 0), float(stats.pop("build_s", 0.0) or 0.0),
                     float(stats.pop("solve_s", 0.0) or 0.0), stats)
        return cls(Status(data["status"]), data.get("solution"), data.get("objective"),
                   data.get("unique"), core, data.get("count"), data.get("verified"),
                   data.get("message"))

    @classmethod
    def answer(cls, status: Status, solution: dict[str, Any] | None = None,
               objective: int | None = None, *, tally: Tally, asked: Limits,
               stats: Stats | None = None, message: str | None = None) -> Result:
        """A back-end's answer, `unique` and `count` read from `tally` where `asked` asked.

        >>> from twinsolve.core.limits import Limits
        >>> found = Result.answer(Status.SOLVED, {}, tally=Tally(2, complete=False),
        ...                       asked=Limits(unique=True))
        >>> found.unique, found.count
        (False, None)
        """
        unique, count = tally.reported(asked)
        return cls(status, solution, objective, unique, stats or Stats(), count,
                   message=message)

    @classmethod
    def unsat(cls, asked: Limits, stats: Stats | None = None,
              message: str | None = None) -> Result:
        """No solution: `unique` False and `count` 0 when `asked` (the Limits) asked for them."""
        return cls.answer(Status.UNSAT, tally=NO_SOLUTION, asked=asked, stats=stats,
                          message=message)


class Stopwatch:
    """Splits a back-end's time into model building and solving.

    >>> watch = Stopwatch()
    >>> watch.built()  # the model is built; solving starts
    >>> stats = watch.stats(nodes=3, memo=7)
    >>> stats.nodes, stats.counters, 0 <= stats.build_s <= 1, 0 <= stats.solve_s <= 1
    (3, {'memo': 7}, True, True)
    """

    def __init__(self) -> None:
        self._start = time.perf_counter()
        self._built: float | None = None
        set_phase("building the model")  # named by a time limit's stop (core.time_limit)

    def built(self) -> None:
        self._built = time.perf_counter()
        set_phase("solving")

    def stats(self, nodes: int = 0, **counters: Any) -> Stats:
        end = time.perf_counter()
        built = self._built if self._built is not None else self._start
        return Stats(nodes=nodes, build_s=built - self._start, solve_s=end - built,
                     counters=counters)
