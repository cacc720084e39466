"""One benchmark run's outcome, as stored and reported.

A `RunRecord` is plain data: where the instance came from, which back-end
spec ran, the verified `Result` fields flattened, and the run's measurements
(twinsolve.bench.isolation says how each is taken):
- `wall_s`: the run's wall-clock time, parsing the instance included;
- `cpu_s`: the CPU time of the run itself, user + system, of the worker and
  of every program it started and waited for (None where not measured);
- `mem_mb`: the peak resident memory the run added to its worker, in MiB
  (the worker's own imports not counted; None where not measured);
- `load`: the host's 1-minute load average when the run started.
Records are what the verdict pass rewrites (to `wrong`) and what the totals
table aggregates.

Three identities matter: `instance_hash` is the board (the puzzle without its
metadata comments: runs of different back-ends on the same board are checked
against each other); `task` is the instance file (board, metadata and path:
one task per file, even when two files hold the same board); `run_id` is the
stored row (`reused_from` names the row whose answer a duplicate board shares).
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
    memory_mb: int | None = None
    task_path: str = ""
    task_hash: str = ""
    run_id: int | None = None
    reused_from: int | None = None
    mem_mb: float | None = None
    load: float | None = None

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
    def task(self) -> tuple[str, str]:
        """The instance file this run answers: (content hash with metadata, path)."""
        return (self.task_hash or self.instance_hash, self.task_path or self.path)

    @property
    def nodes(self) -> int | None:
        return self.stats.get("nodes")
