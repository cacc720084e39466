"""Executing planned tasks in isolated worker processes.

An executor takes the tasks still to run and yields `(task, RunRecord)` for
each, in completion order. `LocalPool` keeps `jobs` long-lived worker processes
(twinsolve.bench.isolation), one thread driving each: the threads only wait
on pipes, so the harness process itself never runs a back-end and its GIL is
not a bottleneck. Tasks whose back-end does not handle the instance are
recorded as `unsupported` without being sent anywhere.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any, Protocol

from ..core.errors import UsageError
from ..core.limits import Limits
from ..core.registry import puzzle_of
from ..core.result import Result, Status
from .isolation import Outcome, WorkerProcess
from .plan import Budget, Task
from .records import RunRecord
from .worker import USAGE_ERROR

__all__ = ["Budget", "Executor", "LocalPool", "task_payload", "record_of", "skipped_record"]


class Executor(Protocol):
    def __call__(self, tasks: Sequence[Task],
                 budget: Budget) -> Iterator[tuple[Task, RunRecord]]: ...


def task_payload(task: Task, budget: Budget, ident: int) -> dict[str, Any]:
    """The JSON task a worker process understands (instance sent as its text)."""
    limits = Limits(timeout=budget.timeout, unique=budget.unique, count=budget.count,
                    seed=task.seed)
    return {"id": ident, "text": puzzle_of(task.instance).rules.format(task.instance),
            "source": str(task.path), "backend": task.backend,
            "limits": limits.to_json()}


def record_of(task: Task, result: Result, wall_s: float, cpu_s: float | None,
              timeout_s: float | None, memory_mb: int | None = None,
              mem_mb: float | None = None, load: float | None = None) -> RunRecord:
    """The record of one run: its answer, measurements (`wall_s`, `cpu_s`, `mem_mb`,
    `load`: twinsolve.bench.records) and limits (`timeout_s`, `memory_mb`)."""
    record = RunRecord.from_result(str(task.path), task.puzzle, task.backend, result, wall_s,
                                   task.metadata)
    return replace(record, cpu_s=cpu_s, seed=task.seed, instance_hash=task.instance_hash,
                   timeout_s=timeout_s, memory_mb=memory_mb, task_path=task.task_path,
                   task_hash=task.task_hash, mem_mb=mem_mb, load=load)


def skipped_record(task: Task, budget: Budget) -> RunRecord:
    return record_of(task, Result(Status.UNSUPPORTED, message=task.skip_reason), 0.0, None,
                     budget.timeout, budget.memory_mb)


def outcome_record(task: Task, outcome: Outcome, budget: Budget) -> RunRecord:
    """The run record of a worker's outcome; UsageError when the back-end refused its spec.

    A refused spec (a bad option value) would fail on every instance alike, so
    the suite stops at once with the back-end's one-line message.
    """
    if outcome.result.get(USAGE_ERROR):
        raise UsageError(f"back-end {task.backend}: {outcome.result.get('message')}")
    return record_of(task, Result.from_json(outcome.result), outcome.wall_s, outcome.cpu_s,
                     budget.timeout, budget.memory_mb, outcome.mem_mb, outcome.load)


class LocalPool:
    """`jobs` warm worker processes on this machine."""

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)

    def __call__(self, tasks: Sequence[Task],
                 budget: Budget) -> Iterator[tuple[Task, RunRecord]]:
        todo: queue.Queue[tuple[int, Task] | None] = queue.Queue()
        done: queue.Queue[tuple[Task, RunRecord] | BaseException] = queue.Queue()
        runnable = []
        for task in tasks:
            if task.skip_reason:
                yield task, skipped_record(task, budget)
            else:
                runnable.append(task)
        for ident, task in enumerate(runnable):
            todo.put((ident, task))
        workers = [WorkerProcess() for _ in range(min(self.jobs, len(runnable)))]
        stop = threading.Event()

        def drive(worker: WorkerProcess) -> None:
            try:
                while not stop.is_set():
                    try:
                        item = todo.get_nowait()
                    except queue.Empty:
                        return
                    if item is None:
                        return
                    ident, task = item
                    outcome = worker.execute(task_payload(task, budget, ident),
                                             budget.timeout, budget.memory_mb)
                    done.put((task, outcome_record(task, outcome, budget)))
            except BaseException as exc:  # surfaced in the coordinator, never lost
                done.put(exc)
            finally:
                worker.close()

        threads = [threading.Thread(target=drive, args=(w,), daemon=True) for w in workers]
        for thread in threads:
            thread.start()
        try:
            for _ in range(len(runnable)):
                item = done.get()
                if isinstance(item, BaseException):
                    raise item
                yield item
        finally:
            stop.set()
            for worker in workers:
                worker.close()
