"""Running planned tasks and collecting their records.

This first executor runs tasks one after another in the calling process, each
under the wall-clock budget passed to the back-end as `Limits.timeout`. It
is one implementation of `Executor`: a callable that takes the tasks, the
limits and a progress callback and yields one `RunRecord` per task, so
process pools and cluster executors can stand in its place.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence

from ..core.limits import Limits
from ..core.result import Result, Status
from ..core.run import run
from .plan import Task
from .records import RunRecord

__all__ = ["run_task", "run_sequential", "Executor"]

Executor = Callable[[Sequence[Task], Limits, Callable[[RunRecord], None]], Iterable[RunRecord]]


def run_task(task: Task, limits: Limits) -> RunRecord:
    if task.skip_reason:
        result = Result(Status.UNSUPPORTED, message=task.skip_reason)
        return RunRecord.from_result(str(task.path), task.puzzle, task.backend, result, 0.0,
                                     task.metadata)
    start = time.perf_counter()
    result = run(task.instance, task.backend, limits)
    wall = time.perf_counter() - start
    return RunRecord.from_result(str(task.path), task.puzzle, task.backend, result, wall,
                                 task.metadata)


def run_sequential(tasks: Sequence[Task], limits: Limits,
                   progress: Callable[[RunRecord], None]) -> Iterator[RunRecord]:
    for task in tasks:
        record = run_task(task, limits)
        progress(record)
        yield record
