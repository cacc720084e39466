"""How much a back-end may spend, and what it is asked to report.

`Limits` travels from the CLI / API / harness to every back-end unchanged:
a wall-clock `timeout` in seconds, an optional `node_limit`, whether to
prove uniqueness (`unique`) or count solutions (`count`), a `seed`, and the
back-end options given after a colon (`sat:glucose4`, `cpsat:workers=8`).
`Deadline` turns the timeout into cheap `expired()` checks inside loops.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
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
