"""A benchmark suite from paths to the summary table: plan, resume, run, store, judge.

1. Plan every (instance, back-end spec, seed) run.
2. Skip the runs whose key the database already holds (resume).
3. Run the rest on the executor; the coordinator stores each record the
   moment it arrives, in its own transaction.
4. Judge every planned run, stored earlier or now, against metadata and
   against the other back-ends, and summarise.

The progress bar shows elapsed time, runs done / total and the count of each
status so far; it is drawn only when a console is given (not with --quiet).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..core.errors import UsageError
from .execute import Budget, Executor, LocalPool
from .plan import plan_suite
from .provenance import provenance
from .records import RunRecord
from .store import Store
from .verdict import judge

__all__ = ["SuiteConfig", "run_suite"]


@dataclass(frozen=True)
class SuiteConfig:
    paths: Sequence[str | Path]
    backends: Sequence[str] | None = None
    budget: Budget = Budget()
    quick: bool = False
    repeat: int = 1
    db: str | Path = "twinsolve-bench.sqlite"
    jobs: int = 1
    executor_name: str = "local"


def _progress(console: Console | None) -> Progress:
    return Progress(TextColumn("[bold]bench"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("{task.description}"),
                    console=console, disable=console is None, transient=True)


def run_suite(config: SuiteConfig, console: Console | None = None,
              executor: Executor | None = None) -> list[RunRecord]:
    """Run what is not yet stored; return the judged records of the whole plan."""
    tasks = plan_suite(config.paths, config.backends, quick=config.quick, repeat=config.repeat)
    if not tasks:
        raise UsageError("nothing to run: no instance files (*.txt) under the given paths")
    executor = executor or LocalPool(config.jobs)
    with Store(config.db) as store:
        done = store.done_keys()
        todo = [t for t in tasks if t.key not in done]
        if todo:
            session = store.start_session({
                **provenance(), "argv": " ".join(sys.argv), "jobs": config.jobs,
                "timeout_s": config.budget.timeout, "memory_mb": config.budget.memory_mb,
                "executor": config.executor_name})
            counts: Counter[str] = Counter()
            with _progress(console) as progress:
                bar = progress.add_task("", total=len(tasks), completed=len(tasks) - len(todo))
                for task, record in executor(todo, config.budget):
                    store.add(session, task.key, record, config.budget.timeout,
                              config.budget.memory_mb)
                    counts[record.status.value] += 1
                    progress.update(bar, advance=1, description=" ".join(
                        f"{k} {v}" for k, v in sorted(counts.items())))
        # Judge with the metadata and paths of this plan: a run stored under another
        # file with the same puzzle (the key ignores comments) meets today's expectations.
        stored = store.records_by_key(t.key for t in tasks)
        return judge(replace(stored[t.key], path=str(t.path), metadata=t.metadata)
                     for t in tasks if t.key in stored)

