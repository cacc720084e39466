"""How much a back-end may spend, and what it is asked to report.

`Limits` travels from the CLI / API / harness to every back-end unchanged:
a wall-clock `timeout` in seconds, an optional `node_limit`, whether to
prove uniqueness (`unique`) or count solutions (`count`), a `seed`, and the
back-end options given after a colon (`sat:glucose4`, `cpsat:workers=8`).
`Deadline` turns the timeout into cheap `expired()` checks inside loops.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import UsageError

__all__ = ["Limits", "Deadline"]


@dataclass(frozen=True)
class Limits:
    timeout: float | None = None
    node_limit: int | None = None
    unique: bool = False
    count: bool = False
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)

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
