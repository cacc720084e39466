"""How much a back-end may spend, and what it is asked to report.

`Limits` travels from the CLI / API / harness to every back-end unchanged:
a wall-clock `timeout` in seconds, an optional `node_limit`, whether to
prove uniqueness (`unique`) or count solutions (`count`), a `seed`, and the
back-end options given after a colon (`sat:glucose4`, `cpsat:workers=8`).
Every field is checked when a `Limits` is made, so a bad value is one
`UsageError` at the caller instead of a `TypeError` deep in a back-end or a
run that never ends (`timeout=nan` compares false with everything).
`Deadline` turns the timeout into cheap `expired()` checks inside loops.

How a search stops on a limit, the one way for every search and model build:
`LimitHit` names the limit (nodes or deadline), `Poller` is the one check of
a node limit and a deadline (the time read every `every` nodes, or once per
block of states), `Deadline.check` the one stop test of a model build, and
`LimitReached` is the one exception that carries a stop out of nested code.
The run's hard stop (`core.time_limit`) is the backstop behind all of them.
"""

from __future__ import annotations

import enum
import math
import numbers
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol

from . import time_limit
from .errors import UsageError

__all__ = ["Limits", "Options", "Deadline", "MAX_SEED", "seconds_problem", "Expiring",
           "LimitHit", "LimitReached", "Poller"]

MAX_SEED = 2**63 - 1  # what every solver's seed parameter holds (a signed 64-bit int)
_NATIVE_SLACK = 0.05  # a solver given `remaining` seconds may return this much early


def seconds_problem(value: Any, zero: bool = True) -> str | None:
    """Why `value` is not a time limit in seconds, or None: a finite real number > 0
    (or exactly 0, "no time at all", when `zero`).

    >>> seconds_problem(2.5), seconds_problem(float("nan"))
    (None, 'must be a finite number of seconds >= 0')
    """
    wanted = f"must be a finite number of seconds {'>= 0' if zero else '> 0'}"
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return wanted
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero):
        return wanted
    return None


def _whole(value: Any, low: int, high: int | None = None) -> bool:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return False
    return low <= value and (high is None or value <= high)


@dataclass(frozen=True)
class Limits:
    """What one run may spend and must report; every field is checked here.

    - `timeout`: seconds of wall-clock time, a finite number >= 0 (0: no time
      at all, the run times out at its first check), or None for no limit;
    - `node_limit`: a whole number >= 0 of search nodes, or None;
    - `unique`, `count`: bools, prove uniqueness / count the solutions;
    - `seed`: a whole number 0 .. 2**63 - 1;
    - `options`: the back-end options keyed by name (kept as an `Options`, which
      cannot be changed: a changed copy is `with_options`).

    Raises `UsageError` naming the field for anything else:

    >>> Limits(timeout=float("inf"))
    Traceback (most recent call last):
    ...
    twinsolve.core.errors.UsageError: timeout must be a finite number of seconds >= 0, got inf
    """

    timeout: float | None = None
    node_limit: int | None = None
    unique: bool = False
    count: bool = False
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        why = None if self.timeout is None else seconds_problem(self.timeout)
        if why:
            raise UsageError(f"timeout {why}, got {self.timeout!r}")
        if self.node_limit is not None and not _whole(self.node_limit, 0):
            raise UsageError(f"node_limit must be a whole number >= 0 or None, "
                             f"got {self.node_limit!r}")
        for name in ("unique", "count"):
            if not isinstance(getattr(self, name), bool):
                raise UsageError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if not _whole(self.seed, 0, MAX_SEED):
            raise UsageError(f"seed must be a whole number 0..2**63-1, got {self.seed!r}")
        if not isinstance(self.options, dict) or not all(isinstance(k, str)
                                                         for k in self.options):
            raise UsageError(f"options must be a dict keyed by option names, "
                             f"got {self.options!r}")
        if type(self.options) is not Options:
            object.__setattr__(self, "options", Options(self.options))

    def with_(self, **changes: Any) -> Limits:
        """A copy with `changes` (checked like any `Limits`)."""
        return replace(self, **changes)

    def with_options(self, **options: Any) -> Limits:
        """A copy whose options are these merged over the current ones."""
        return replace(self, options={**self.options, **options})

    def to_json(self) -> dict[str, Any]:
        """The JSON form (a bench worker's task): every field, options as a plain dict."""
        return {**{name: getattr(self, name) for name in self.field_names()},
                "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Limits:
        """The `Limits` of `to_json`'s form; `UsageError` for an unknown or bad field."""
        unknown = sorted(set(data) - set(cls.field_names()))
        if unknown:
            raise UsageError(f"{unknown[0]!r} is no field of Limits")
        return cls(**data)

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def deadline(self) -> Deadline:
        return Deadline(self.timeout)

    def check_options(self, backend: str, allowed: Iterable[str]) -> None:
        """Refuse option keys a back-end does not read, so a typo is not silently ignored."""
        unknown = sorted(set(self.options) - set(allowed))
        if unknown:
            raise UsageError(f"the {backend} back-end has no option {unknown[0]!r} "
                             f"(options: {', '.join(sorted(allowed)) or 'none'})")

    def flag(self, name: str, default: bool) -> bool:
        """A true/false option (`hand:prune=false`); anything else is a usage error."""
        value = self.options.get(name, default)
        if not isinstance(value, bool):
            raise UsageError(f"option {name}={value!r}: use {name}=true or {name}=false")
        return value

    def whole(self, name: str, default: int, minimum: int = 0) -> int:
        """A whole-number option of at least `minimum` (`hand:switch=20000`)."""
        value = self.options.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            raise UsageError(f"option {name}={value!r}: use a whole number >= {minimum}")
        return value

    def choice(self, name: str, default: str, choices: Sequence[str]) -> str:
        """One of `choices` (`hand:engine=layers`)."""
        value = self.options.get(name, default)
        if value not in choices:
            raise UsageError(f"option {name}={value!r}: choose one of {', '.join(choices)}")
        return str(value)

    def split_choice(self, name: str, default: str, choices: Sequence[str]
                     ) -> tuple[str, Limits]:
        """`choice`, and a copy without that option: a back-end reads its own option and
        hands the rest to a solver that takes them as its parameters."""
        value = self.choice(name, default, choices)
        options = {key: given for key, given in self.options.items() if key != name}
        return value, replace(self, options=options)


class Options(dict):
    """Back-end options that cannot be changed in place (`Limits.with_options` makes a
    changed copy): one run's options never leak into another's.

    >>> options = Options({"solver": "g4"})
    >>> options["solver"] = "m22"
    Traceback (most recent call last):
    ...
    TypeError: Limits options cannot be changed: use Limits.with_options
    """

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("Limits options cannot be changed: use Limits.with_options")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as its items, not item by item
        return (Options, (dict(self),))


class Deadline:
    """A point in time after which work should stop; None means never."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._end = None if seconds is None else time.perf_counter() + seconds

    def remaining(self) -> float | None:
        if self._end is None:
            return None
        return max(0.0, self._end - time.perf_counter())

    def expired(self) -> bool:
        return self._end is not None and time.perf_counter() >= self._end

    def check(self) -> None:
        """Raise `LimitReached` once expired: a model build's or a block loop's stop test."""
        if self.expired():
            raise LimitReached(LimitHit.DEADLINE)

    def within_run(self) -> Deadline:
        """The time a solver call in native code may take: this deadline, or the hard stop
        of the run's time limit (`core.time_limit.remaining`) when that comes first.

        Why: the hard stop cannot cut a native call short, and is held until the call
        has returned (core.time_limit); a call given this much time returns by then
        by itself, through the solver's own time-out or interrupt. A solver a
        generator keeps without a deadline of its own (`Deadline(None)`) is bounded
        by the `generate --timeout` around it this way.
        """
        left = time_limit.remaining()
        mine = self.remaining()
        if left is None or (mine is not None and mine <= left):
            return self
        return Deadline(left)

    def out_of_time(self) -> None:
        """After a call bounded by `within_run()` stopped for time: when this deadline has
        not passed, the run's time limit has, and its stop is raised here, between
        solver calls, where the solver is whole. Returns when this deadline is the
        one that passed (the caller answers with what it has)."""
        if not self.expired():
            time_limit.checkpoint(grace=True, slack=_NATIVE_SLACK)


# ---------------------------------------------------------------- how a search stops

class Expiring(Protocol):
    """Anything with `expired()`, e.g. `twinsolve.core.limits.Deadline`."""

    def expired(self) -> bool: ...


class LimitHit(str, enum.Enum):
    """Which limit stopped a search (a `str`, so it compares equal to its value)."""

    NODES = "nodes"
    DEADLINE = "deadline"

    def __str__(self) -> str:
        return self.value


class LimitReached(Exception):
    """A limit stopped a search or a model build part-way; `hit` names it.

    Not a contradiction and no proof: what failed while it was raised proves nothing.
    Every search of the engine, every hand solver and every model build stops with
    this one exception (or answers the `LimitHit` of a `Poller`).
    """

    def __init__(self, hit: LimitHit = LimitHit.DEADLINE) -> None:
        super().__init__(f"{hit} limit reached")
        self.hit = hit



class Poller:
    """When a search stops on its limits: the one node-limit and deadline check.

    A search calls `poller(nodes)` before expanding a state once `nodes`
    reaches `poller.at`; it answers the `LimitHit` that stops the search, or
    None after moving `at` to the next node count worth checking (`stop`
    raises `LimitReached` instead, for searches that unwind by exception).
    The node limit stops the search with exactly `node_limit` states
    expanded; the time is read at every `every`-th node (a power of two, 256
    by default): `expired()` costs more than expanding a small state, so a
    search whose steps are cheaper (a memo lookup) reads it less often, one
    whose steps are dearer (a propagation) more often. With neither limit
    `at` is `NEVER`, so an unlimited search pays one integer comparison per
    node. The test is `nodes >= poller.at`, so a search that changes its
    limits part-way (a new poller) may resume from any count.

    A search that expands states in blocks (a numpy layer, a chunk of a
    coset) asks `spend(nodes, amount)` before each block instead: the node
    limit forbids a block that would pass it, and the time is read at every
    block, since a block is worth one read of it.

    >>> poller = Poller(node_limit=300, deadline=None)
    >>> poller.at, poller(0)
    (300, None)
    >>> poller(300)
    <LimitHit.NODES: 'nodes'>
    >>> poller.spend(250, 51), poller.spend(250, 50)
    (<LimitHit.NODES: 'nodes'>, None)
    """

    NEVER = sys.maxsize  # `at` when no limit is set: no node count reaches it

    __slots__ = ("node_limit", "deadline", "mask", "at")

    def __init__(self, node_limit: int | None = None, deadline: Expiring | None = None,
                 every: int = 256) -> None:
        if isinstance(every, bool) or not isinstance(every, int) or every < 1 \
                or every & (every - 1):
            raise ValueError(f"every must be a power of two, got {every!r}")
        self.node_limit = node_limit
        self.deadline = deadline
        self.mask = every - 1
        self.at = self._next(-1)

    def __call__(self, nodes: int) -> LimitHit | None:
        if self.node_limit is not None and nodes >= self.node_limit:
            return LimitHit.NODES
        if self.deadline is not None and self.deadline.expired():
            return LimitHit.DEADLINE
        self.at = self._next(nodes)
        return None

    def stop(self, nodes: int) -> None:
        """`poller(nodes)`, raising `LimitReached` for the limit that stops the search."""
        hit = self(nodes)
        if hit is not None:
            raise LimitReached(hit)

    def spend(self, nodes: int, amount: int) -> LimitHit | None:
        """The limit that forbids expanding a block of `amount` states after `nodes`, or None."""
        if self.node_limit is not None and nodes + amount > self.node_limit:
            return LimitHit.NODES
        if self.deadline is not None and self.deadline.expired():
            return LimitHit.DEADLINE
        return None

    def _next(self, nodes: int) -> int:
        """The first node count after `nodes` at which a limit may stop the search."""
        due = Poller.NEVER
        if self.node_limit is not None and self.node_limit > nodes:
            due = self.node_limit
        if self.deadline is not None:
            due = min(due, (nodes | self.mask) + 1)   # the next multiple of `every`
        return due
