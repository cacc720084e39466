"""The repeats of one task by one back-end, taken together: a median with its spread, and a status.

A task is one instance file: its content (board and metadata, hashed) and its
path (`task_of`); `bench --repeat N` runs it N times per back-end (repeat i
with seed i, interleaved: twinsolve.bench.plan). A task is one task whatever
N is, and every table says of it what its repeats say together (`TaskRuns`):

- a measure (wall time, CPU time, memory, nodes) is a `Spread`: the median of
  the repeats' values, their minimum and maximum, and how many there are,
  written `12.0 ms (11.8–12.4 ms, n=5)`; one run is its own median, without a
  range;
- the task's status is the one every repeat has. A task whose repeats
  disagree is *flapping* (`status` None): it is counted apart and shown with
  each status and its count (`solved 3 · timeout 2`), never hidden, and it is
  not solved. A task with any `wrong` run is `wrong`, whatever its other
  repeats said: a wrong answer is never outvoted;
- the task is solved when every repeat solved it; its PAR-2 score is the
  median of its repeats' scores (twice the time limit for a run that did not
  solve), so a flapping task scores between the two.
`representative` is one record standing for the task (the median values, the
task's status, or for a flapping task the most frequent status that did not
solve): what the plots draw.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from ..core.result import Status
from .records import RunRecord

__all__ = ["Task", "task_of", "par2", "Spread", "range_text", "TaskRuns", "task_runs", "by_task"]

Task = tuple[str, str]


def task_of(record: RunRecord) -> Task:
    """The task a run belongs to: (content hash with metadata, path) of its instance file.

    Two files with the same board are two tasks; the repeats of one file are one task.
    """
    return record.task


def par2(record: RunRecord) -> float | None:
    """The run's PAR-2 score: its wall time when solved, else twice its time limit."""
    if record.solved:
        return record.wall_s
    return None if record.timeout_s is None else 2 * record.timeout_s


@dataclass(frozen=True)
class Spread:
    """The median of some repeats' values, their minimum and maximum, and their count."""

    median: float
    low: float
    high: float
    n: int

    @classmethod
    def of(cls, values: Iterable[float | None]) -> Spread | None:
        """The spread of the values that are not None; None when there are none."""
        known = sorted(float(v) for v in values if v is not None)
        if not known:
            return None
        return cls(statistics.median(known), known[0], known[-1], len(known))

    @property
    def share(self) -> float:
        """The range as a share of the median (0 for one value or a zero median)."""
        return (self.high - self.low) / self.median if self.median > 0 else 0.0

    def text(self, shown: Callable[[float], str]) -> str:
        """`median (low–high, n=N)`, or the median alone for one value.

        >>> Spread(0.012, 0.0118, 0.0124, 5).text(lambda s: f"{s * 1000:.1f} ms")
        '12.0 ms (11.8–12.4 ms, n=5)'
        """
        if self.n < 2:
            return shown(self.median)
        return f"{shown(self.median)} ({range_text(self.low, self.high, shown)}, n={self.n})"


def range_text(low: float, high: float, shown: Callable[[float], str]) -> str:
    """`low–high` with the unit once where both values show the same one.

    >>> range_text(1.2, 1.31, lambda s: f"{s:.2f} s")
    '1.20–1.31 s'
    """
    first, second = shown(low), shown(high)
    number, _, unit = first.partition(" ")
    if unit and second.endswith(f" {unit}"):
        return f"{number}–{second}"
    return f"{first}–{second}"


@dataclass(frozen=True)
class TaskRuns:
    """One task's repeats by one back-end (the module docstring says what each means)."""

    task: Task
    backend: str
    runs: tuple[RunRecord, ...]     # by seed (repeat)

    @property
    def puzzle(self) -> str:
        return self.runs[0].puzzle

    @property
    def path(self) -> str:
        """The instance file as the user named it (`bench instances`: instances/NAME/a.txt)."""
        return self.runs[0].path

    @property
    def name(self) -> str:
        """The task's name: its path relative to the suite root (NAME/a.txt), which two runs
        of one suite share however each named it; the file's label where none is stored."""
        return self.task[1]

    @cached_property
    def counts(self) -> Counter[Status]:
        return Counter(r.status for r in self.runs)

    @property
    def flapping(self) -> bool:
        """The repeats' statuses differ."""
        return len(self.counts) > 1

    @property
    def status(self) -> Status | None:
        """The task's status: `wrong` if any run is, else the repeats' common status, else
        None (flapping)."""
        if Status.WRONG in self.counts:
            return Status.WRONG
        return None if self.flapping else self.runs[0].status

    @property
    def solved(self) -> bool:
        return all(r.solved for r in self.runs)

    def statuses(self) -> str:
        """Each status with its count, most frequent first: `solved 3 · timeout 2`; one
        status alone when the repeats agree."""
        if not self.flapping:
            return self.runs[0].status.value
        return " · ".join(f"{s.value} {n}" for s, n in
                          sorted(self.counts.items(), key=lambda item: (-item[1], item[0].value)))

    def measure(self, value: Callable[[RunRecord], float | None]) -> Spread | None:
        return Spread.of(value(r) for r in self.runs)

    @cached_property
    def wall(self) -> Spread:
        spread = self.measure(lambda r: r.wall_s)
        assert spread is not None  # every run has a wall time
        return spread

    @cached_property
    def cpu(self) -> Spread | None:
        return self.measure(lambda r: r.cpu_s)

    @cached_property
    def mem(self) -> Spread | None:
        return self.measure(lambda r: r.mem_mb)

    @cached_property
    def nodes(self) -> Spread | None:
        return self.measure(lambda r: r.nodes)

    @cached_property
    def par2(self) -> float | None:
        """The median of the repeats' PAR-2 scores; None without a time limit."""
        scores = [par2(r) for r in self.runs]
        return None if None in scores else statistics.median(scores)  # type: ignore[type-var]

    def representative(self) -> RunRecord:
        """One record for the task: the first run with the median measures and the
        task's status (a flapping task: its most frequent status that did not solve)."""
        status = self.status or min(
            (s for s in self.counts if s not in (Status.OPTIMAL, Status.SOLVED, Status.UNSAT)),
            key=lambda s: (-self.counts[s], s.value))
        first = self.runs[0]
        stats = dict(first.stats)
        if self.nodes is not None:  # a whole count stays one
            median = self.nodes.median
            stats["nodes"] = int(median) if median == int(median) else median
        return replace(first, status=status, wall_s=self.wall.median,
                       cpu_s=None if self.cpu is None else self.cpu.median,
                       mem_mb=None if self.mem is None else self.mem.median, stats=stats)


def task_runs(records: Iterable[RunRecord]) -> list[TaskRuns]:
    """The records grouped by task and back-end, in order of first appearance; each
    group's runs in seed order."""
    groups: dict[tuple[Task, str], list[RunRecord]] = defaultdict(list)
    for record in records:
        groups[(task_of(record), record.backend)].append(record)
    return [TaskRuns(task, backend, tuple(sorted(runs, key=lambda r: r.seed)))
            for (task, backend), runs in groups.items()]


def by_task(tasks: Sequence[TaskRuns]) -> dict[Task, list[TaskRuns]]:
    """The back-ends' repeats of each task, tasks in order of first appearance."""
    out: dict[Task, list[TaskRuns]] = defaultdict(list)
    for entry in tasks:
        out[entry.task].append(entry)
    return dict(out)
