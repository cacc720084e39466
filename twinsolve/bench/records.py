"""One benchmark run's outcome, as stored and reported.

A `RunRecord` is plain data: where the instance came from, which back-end
spec ran, the verified `Result` fields flattened, and the wall time the
harness saw. Records are what the verdict pass rewrites (to `wrong`) and what
the summary table aggregates.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..core.result import Result, Status

__all__ = ["RunRecord"]


@dataclass(frozen=True)
class RunRecord:
    path: str
    puzzle: str
    backend: str
    status: Status
    objective: int | None = None
    unique: bool | None = None
    count: int | None = None
    verified: bool | None = None
    wall_s: float = 0.0
    stats: dict[str, Any] = field(default_factory=dict)
    message: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    solution: dict[str, Any] | None = None
    cpu_s: float | None = None
    seed: int = 0
    instance_hash: str = ""
    timeout_s: float | None = None

    @property
    def solved(self) -> bool:
        """A definite, unrefuted answer: a proven solution or a proof of none."""
        return self.status in (Status.OPTIMAL, Status.SOLVED, Status.UNSAT)

    @classmethod
    def from_result(cls, path: str, puzzle: str, backend: str, result: Result, wall_s: float,
                    metadata: dict[str, str]) -> RunRecord:
        return cls(path, puzzle, backend, result.status, result.objective, result.unique,
                   result.count, result.verified, wall_s, result.stats.to_dict(),
                   result.message, metadata, result.solution)

    def marked_wrong(self, why: str) -> RunRecord:
        return replace(self, status=Status.WRONG, message=why)

    @property
    def nodes(self) -> int | None:
        return self.stats.get("nodes")
