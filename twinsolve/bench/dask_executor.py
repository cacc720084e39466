"""Running a suite on a Dask distributed cluster (`--executor dask --scheduler ADDR`).

Each Dask task drives the same worker-process protocol as the local pool
(twinsolve.bench.isolation) on whatever node it lands: the Dask worker keeps
one warm twinsolve worker process per thread and enforces the wall-clock and
memory limits on it there, so isolation holds on every node. Only plain JSON
payloads travel to the cluster and only outcomes come back; the coordinator
alone writes the SQLite database.

Install with the `dask` extra: `pip install -e '.[dask]'`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from typing import Any

from ..core.errors import UsageError
from .execute import Budget, outcome_record, skipped_record, task_payload
from .isolation import Outcome, WorkerProcess
from .plan import Task
from .records import RunRecord

__all__ = ["DaskExecutor", "run_on_node"]

_local = threading.local()


def run_on_node(payload: dict[str, Any], timeout: float | None,
                memory_mb: int | None) -> dict[str, Any]:
    """Executed by a Dask worker: one task in this thread's warm worker process; its
    `Outcome` as a plain dict (the load is the node's)."""
    worker = getattr(_local, "worker", None)
    if worker is None:
        worker = _local.worker = WorkerProcess()
    return asdict(worker.execute(payload, timeout, memory_mb))


class DaskExecutor:
    """Submits every runnable task to the scheduler at `address` (or a given Client)."""

    def __init__(self, address: str | None = None, client: Any = None) -> None:
        self.address = address
        self.client = client

    def _connect(self) -> Any:
        if self.client is not None:
            return self.client
        try:
            from distributed import Client
        except ImportError:
            raise UsageError("the dask executor needs dask[distributed]: "
                             "pip install -e '.[dask]'") from None
        try:
            return Client(self.address, timeout="10s")
        except OSError as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None

    def __call__(self, tasks: Sequence[Task],
                 budget: Budget) -> Iterator[tuple[Task, RunRecord]]:
        from distributed import as_completed

        runnable = []
        for task in tasks:
            if task.skip_reason:
                yield task, skipped_record(task, budget)
            else:
                runnable.append(task)
        if not runnable:
            return
        client = self._connect()
        futures = {}
        for ident, task in enumerate(runnable):
            future = client.submit(run_on_node, task_payload(task, budget, ident),
                                   budget.timeout, budget.memory_mb, pure=False)
            futures[future.key] = (future, task)
        try:
            for future in as_completed([f for f, _ in futures.values()]):
                task = futures[future.key][1]
                yield task, outcome_record(task, Outcome(**future.result()), budget)
        finally:
            if self.client is None:
                client.close()
