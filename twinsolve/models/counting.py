"""What forbid-and-re-solve learned: solutions found, and whether the list is complete.

Shared by the CP-SAT and the SAT helpers (which add their own effort
counters), without importing either solver library. `unique` and `count`
answer `Limits.unique` / `Limits.count`: None when time ran out before the
answer was settled.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Tally"]


@dataclass(frozen=True)
class Tally:
    found: int
    complete: bool

    @property
    def unique(self) -> bool | None:
        if self.found >= 2 or (self.complete and self.found == 0):
            return False
        return True if self.complete else None

    @property
    def count(self) -> int | None:
        return self.found if self.complete else None
