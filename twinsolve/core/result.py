"""What every back-end returns: a `Status`, a solution, and `Stats`.

Status vocabulary (DESIGN.md): `optimal` (minimum proven), `solved`
(feasibility puzzle), `feasible` (a solution whose optimality is not proven),
`unsat`, `timeout`, `memout`, `crash`, `error`, `unsupported`, and `wrong`,
given only after `verify` rejected an answer or the harness found it
contradicts a proven one.

`Stats` always holds `nodes`, `build_s` and `solve_s`. `nodes` means: hand =
search nodes expanded (a branching decision or a state popped); cpsat =
`num_branches`; sat = decisions. Back-end counters (conflicts, nullity, ...)
sit beside them under their own names in `counters`.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .time_limit import set_phase

if TYPE_CHECKING:
    from .limits import Limits

__all__ = ["Status", "Stats", "Result", "Stopwatch"]


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
class Result:
    """An answer. `solution` is the puzzle's JSON-ready dict (DESIGN.md keys).

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

    @classmethod
    def unsat(cls, asked: Limits, stats: Stats | None = None,
              message: str | None = None) -> Result:
        """No solution: `unique` False and `count` 0 when `asked` (the Limits) asked for them."""
        return cls(Status.UNSAT, stats=stats or Stats(), unique=False if asked.unique else None,
                   count=0 if asked.count else None, message=message)


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
