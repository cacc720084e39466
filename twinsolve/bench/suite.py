"""A benchmark suite from paths to the summary table: plan, run, judge, summarise.

The progress bar shows elapsed time, runs done / total and the count of each
status so far; it is drawn only when a console is given (not with --quiet).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..core.errors import UsageError
from ..core.limits import Limits
from .execute import Executor, run_sequential
from .plan import plan_suite
from .records import RunRecord
from .summary import summarise, summary_table
from .verdict import judge

__all__ = ["run_suite"]


def run_suite(paths: Sequence[str | Path], backends: Sequence[str] | None, limits: Limits,
              quick: bool = False, console: Console | None = None,
              executor: Executor = run_sequential) -> tuple[list[RunRecord], Table]:
    tasks = plan_suite(paths, backends, quick=quick)
    if not tasks:
        raise UsageError("nothing to run: no instance files (*.txt) under the given paths")
    counts: Counter[str] = Counter()
    with Progress(TextColumn("[bold]bench"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.description}"),
                  console=console, disable=console is None, transient=True) as progress:
        bar = progress.add_task("", total=len(tasks))

        def advance(record: RunRecord) -> None:
            counts[record.status.value] += 1
            text = " ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            progress.update(bar, advance=1, description=text)

        records = judge(list(executor(tasks, limits, advance)))
    return records, summary_table(summarise(records))
