"""A benchmark suite from paths to judged records: plan, resume, run, store, judge.

1. Plan every (instance file, back-end spec, seed) run under the limits, and
   check everything first (twinsolve.bench.plan): nothing is stored when a
   spec or a file is refused.
2. Open the database (twinsolve.bench.database checks it, and refuses it
   unchanged, before anything is written).
3. Resume: the runs whose key the database already holds are not run again
   (`resuming: 116 of 324 runs already stored`), the runs of an upgraded
   schema-1 database included; `fresh` runs everything anew in the new
   session, leaving the old runs as history. Every stored run the suite
   resumes or shares is read now, before the first write, so a row that no
   longer decodes refuses the database as it was.
4. Start a session; its plan is every run it asks for. Run the rest on the
   executor. Tasks that differ only in their file (the same board, back-end,
   options, seed and limits in two files) run once: the others are stored as
   runs of their own that reuse that answer (`reused_from`). The coordinator
   stores each record the moment it arrives, in its own transaction.
5. Judge every planned run, stored earlier or now, against its own file's
   metadata and against the other back-ends on the same board.
6. Record the host's load at the session's end, and say what made the
   measurements noisy (`SuiteOutcome.warnings`, twinsolve.bench.noise): a
   busy host, repeats that spread widely, flapping statuses.

Ctrl-C stops the suite with `SuiteInterrupted`, whose message says how many
of the plan's runs are stored and that the same command resumes the rest.

`say` receives the one-line messages a user should see even with `--quiet`
(resuming, skipped files); the progress bar shows elapsed time, runs done /
total and the count of each status so far, drawn only when a console is given.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..core.errors import UsageError
from .database import ResultsDatabase, RunKey
from .execute import Executor, LocalPool
from .noise import warnings
from .plan import Budget, Task, plan_suite
from .provenance import host_load, provenance
from .records import RunRecord
from .repeats import task_runs
from .verdict import judge

__all__ = ["SuiteConfig", "SuiteOutcome", "SuiteInterrupted", "run_suite"]


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
    fresh: bool = False
    skip_invalid: bool = False


@dataclass(frozen=True)
class SuiteOutcome:
    """The judged runs of the plan (in plan order) and what the suite did to get them."""

    records: list[RunRecord]
    session: int
    planned: int
    resumed: int                      # runs found stored, not run again
    reused: int                       # runs that share another file's answer
    invalid: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # noise (twinsolve.bench.noise)


class SuiteInterrupted(KeyboardInterrupt):
    """Ctrl-C during a suite; the message says what is stored and how to go on."""


@dataclass(frozen=True)
class _Known:
    """What the database already holds for a plan, all read before anything is written."""

    stored: dict[RunKey, int]          # resumed: each key's latest run
    adopted: dict[RunKey, int]         # of those, upgraded schema-1 runs the keys take on
    earlier: dict[tuple, RunRecord]    # a board's stored answer that another file shares


def _progress(console: Console | None) -> Progress:
    return Progress(TextColumn("[bold]bench"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("{task.description}"),
                    console=console, disable=console is None, transient=True)


def _as_follower(record: RunRecord, task: Task) -> RunRecord:
    """The answer of one file, stored for another file with the same board."""
    return replace(record, path=str(task.path), metadata=task.metadata,
                   task_path=task.task_path, task_hash=task.task_hash)


def _quiet(_: str) -> None:
    pass


def run_suite(config: SuiteConfig, console: Console | None = None,
              executor: Executor | None = None,
              say: Callable[[str], None] = _quiet) -> SuiteOutcome:
    """Run what is not yet stored; return the judged records of the whole plan."""
    plan = plan_suite(config.paths, config.backends, quick=config.quick, repeat=config.repeat,
                      budget=config.budget, skip_invalid=config.skip_invalid)
    for note in plan.notes:
        say(note)
    if plan.invalid:
        count = len(plan.invalid)
        say(f"skipping {count} invalid instance file{'s' if count > 1 else ''} "
            "(--skip-invalid; listed with the results)")
    tasks = plan.tasks
    if not tasks:
        raise UsageError("nothing to run: no instance files (*.txt, *.json) under the given "
                         "paths" + (" (all of them are invalid)" if plan.invalid else ""))
    executor = executor or LocalPool(config.jobs)
    with ResultsDatabase(config.db) as database:
        if database.upgraded_runs is not None:
            say(f"upgraded {config.db} to the current results format "
                f"({database.upgraded_runs} runs kept)")
        known = _known(database, tasks, config.fresh)
        session = None
        try:
            database.adopt(known.adopted)
            session = database.start_session({
                **provenance(), "argv": " ".join(sys.argv), "jobs": config.jobs,
                "timeout_s": config.budget.timeout, "memory_mb": config.budget.memory_mb,
                "executor": config.executor_name, "fresh": int(config.fresh)})
            database.add_invalid(session, plan.invalid)
            database.link(session, known.stored.values())
            if known.stored:
                say(f"resuming: {len(known.stored)} of {len(tasks)} runs already stored")
            run_ids = dict(known.stored)
            reused = _run_missing(database, session, [t for t in tasks if t.key not in run_ids],
                                  config, console, executor, run_ids, known.earlier)
        except KeyboardInterrupt:
            stored = len(known.stored) if session is None else len(database.plan(session))
            raise _interrupted(stored, len(tasks), config.db) from None
        database.end_session(session, {"load_end": host_load()})
        records = {r.run_id: r for r in database.records(run_ids.values())}
        judged = judge(records[run_ids[t.key]] for t in tasks if t.key in run_ids)
        noise = warnings(database.sessions(), database.loads(run_ids.values()), task_runs(judged))
    return SuiteOutcome(judged, session, len(tasks), len(known.stored), reused, plan.invalid,
                        plan.notes, noise)


def _interrupted(stored: int, planned: int, db: str | Path) -> SuiteInterrupted:
    return SuiteInterrupted(f"interrupted: {stored} of {planned} runs are stored in {db}; the "
                            f"same command resumes with the other {planned - stored}")


def _known(database: ResultsDatabase, tasks: Sequence[Task], fresh: bool) -> _Known:
    """The runs the plan resumes, and the answers its other boards can share, read (and
    so checked) before anything is written; nothing with `fresh`."""
    if fresh:
        return _Known({}, {}, {})
    stored = database.stored(t.key for t in tasks)
    adopted = database.upgraded(t.key for t in tasks if t.key not in stored)
    stored.update(adopted)
    boards = dict.fromkeys(t.board_key for t in tasks if t.key not in stored)
    shared = {board: run_id for board in boards
              if (run_id := database.board_run(*board)) is not None}
    records = {r.run_id: r for r in database.records([*stored.values(), *shared.values()])}
    return _Known(stored, adopted, {board: records[run_id] for board, run_id in shared.items()})


def _run_missing(database: ResultsDatabase, session: int, todo: list[Task], config: SuiteConfig,
                 console: Console | None, executor: Executor, run_ids: dict[RunKey, int],
                 earlier: dict[tuple, RunRecord]) -> int:
    """Run (or reuse) every task in `todo`, storing each; return how many were reused."""
    groups: dict[tuple, list[Task]] = defaultdict(list)
    for task in todo:
        groups[task.board_key].append(task)
    reused = 0
    leaders = []
    for board_key, group in groups.items():
        original = earlier.get(board_key)
        if original is None:
            leaders.append(group[0])
            continue
        for task in group:
            run_ids[task.key] = database.add(session, task.key, _as_follower(original, task),
                                          reused_from=original.run_id)
            reused += 1
    if not leaders:
        return reused
    counts: Counter[str] = Counter()
    with _progress(console) as progress:
        bar = progress.add_task("", total=len(run_ids) + sum(len(groups[t.board_key])
                                                             for t in leaders),
                                completed=len(run_ids))
        for task, record in executor(leaders, config.budget):
            first = database.add(session, task.key, record)
            run_ids[task.key] = first
            for other in groups[task.board_key][1:]:
                run_ids[other.key] = database.add(session, other.key, _as_follower(record, other),
                                               reused_from=first)
                reused += 1
            counts[record.status.value] += len(groups[task.board_key])
            progress.update(bar, advance=len(groups[task.board_key]), description=" ".join(
                f"{k} {v}" for k, v in sorted(counts.items())))
    return reused
