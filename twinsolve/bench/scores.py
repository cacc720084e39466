"""The summary's rows: one per puzzle and back-end, plus the virtual best.

A task is one instance file (its path and content) and seed; a run is one
back-end on one task. Per puzzle and back-end the row counts: runs; solved
(a definite answer — optimal, solved or unsat — not marked wrong); feasible
(a solution without proof); wrong; timeout; memout; crash; other
(unsupported, error; also counted apart as `unsupported` and `error`); wins
(the tasks where this back-end's solved run was the fastest of all, ties
counting for each); only (the tasks no other back-end solved); and times:
median and geometric-mean wall time and median nodes over the solved runs.

PAR-2 (the SAT Competition's score) is the mean over tasks of the wall time
when solved, else twice the time limit. It is taken over the same tasks for
every back-end of a puzzle: a task that some back-end does not handle
(`unsupported`) is left out for all of them alike, so no back-end gains by
refusing the hard variants (a back-end that handles none of the puzzle's
tasks takes no part and leaves nothing out); an `error` counts as not solved. `par2_tasks`
says over how many tasks, `tasks` and `excluded` how many there are and how
many were left out.

The virtual best back-end (VBS) of a puzzle takes, per task, the fastest
solved run of any back-end: the score a portfolio of all of them would get.

`problems` are the runs that went wrong (what makes `bench` exit 1), and
`scope_notes` say over which tasks each puzzle's PAR-2 is taken. Data only:
the terminal draws these rows in twinsolve.bench.summary, the files and the
page in twinsolve.bench.exports and twinsolve.bench.html.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from ..core.result import Status
from .columns import groups
from .records import RunRecord

__all__ = ["summarise", "SummaryRow", "VIRTUAL_BEST", "par2", "virtual_best", "task_of", "Task",
           "winners", "problems", "PROBLEMS", "scope_note", "scope_notes", "is_virtual_best"]

SummaryRow = dict[str, object]
Task = tuple[str, str, int]
VIRTUAL_BEST = "virtual best"
PROBLEMS = (Status.WRONG, Status.ERROR, Status.CRASH)   # what makes `bench` exit 1
_OTHER = (Status.UNSUPPORTED, Status.ERROR)


def task_of(record: RunRecord) -> Task:
    """The task a run belongs to: (content hash with metadata, path, seed) of its instance file.

    Two files with the same board are two tasks; one file run with two seeds too.
    """
    return (*record.task, record.seed)


def par2(record: RunRecord) -> float | None:
    if record.solved:
        return record.wall_s
    return None if record.timeout_s is None else 2 * record.timeout_s


def _mean_par2(runs: Sequence[RunRecord]) -> float | None:
    scores = [par2(r) for r in runs]
    return statistics.fmean(scores) if scores and None not in scores else None  # type: ignore[arg-type]


def _row(puzzle: str, backend: str, runs: Sequence[RunRecord], scored: Sequence[RunRecord],
         wins: int | None, only: int | None) -> SummaryRow:
    solved = [r for r in runs if r.solved]
    times = [r.wall_s for r in solved]
    nodes = [r.nodes for r in solved if r.nodes is not None]
    return {
        "puzzle": puzzle, "backend": backend, "runs": len(runs), "solved": len(solved),
        "feasible": sum(r.status is Status.FEASIBLE for r in runs),
        "wrong": sum(r.status is Status.WRONG for r in runs),
        "timeout": sum(r.status is Status.TIMEOUT for r in runs),
        "memout": sum(r.status is Status.MEMOUT for r in runs),
        "crash": sum(r.status is Status.CRASH for r in runs),
        "other": sum(r.status in _OTHER for r in runs),
        "par2": _mean_par2(scored),
        "median_s": statistics.median(times) if times else None,
        "geomean_s": math.exp(statistics.fmean(math.log(max(t, 1e-6)) for t in times))
        if times else None,
        "median_nodes": statistics.median(nodes) if nodes else None,
        "unsupported": sum(r.status is Status.UNSUPPORTED for r in runs),
        "error": sum(r.status is Status.ERROR for r in runs),
        "wins": wins, "only": only, "par2_tasks": len(scored),
    }


def virtual_best(runs: Sequence[RunRecord]) -> list[RunRecord]:
    """Per task, the fastest solved run of any back-end, else the first other run of it.

    Runs of a back-end that does not handle the task (`unsupported`) are no
    candidates; a task no back-end handles has no virtual best run.
    """
    by_task: dict[Task, list[RunRecord]] = defaultdict(list)
    for record in runs:
        if record.status is not Status.UNSUPPORTED:
            by_task[task_of(record)].append(record)
    best = []
    for group in by_task.values():
        solved = [r for r in group if r.solved]
        best.append(min(solved, key=lambda r: r.wall_s) if solved else group[0])
    return best


def winners(runs: Iterable[RunRecord]) -> dict[Task, set[str]]:
    """Per task that some back-end solved, the back-ends whose solved run was fastest."""
    fastest: dict[Task, float] = {}
    who: dict[Task, set[str]] = defaultdict(set)
    for record in runs:
        if not record.solved:
            continue
        task = task_of(record)
        if task not in fastest or record.wall_s < fastest[task]:
            fastest[task], who[task] = record.wall_s, {record.backend}
        elif record.wall_s == fastest[task]:
            who[task].add(record.backend)
    return dict(who)


def _puzzle_rows(puzzle: str, runs: Sequence[RunRecord]) -> list[SummaryRow]:
    by_backend: dict[str, list[RunRecord]] = defaultdict(list)
    for record in runs:
        by_backend[record.backend].append(record)
    tasks = {task_of(r) for r in runs}
    # A back-end that handles none of the puzzle's tasks (an option only another puzzle's
    # back-end reads, a peer for another puzzle) takes no part, so it leaves nothing out.
    taking_part = {b for b, group in by_backend.items()
                   if any(r.status is not Status.UNSUPPORTED for r in group)}
    excluded = {task_of(r) for r in runs
                if r.status is Status.UNSUPPORTED and r.backend in taking_part}
    won = winners(runs)
    solvers: dict[Task, set[str]] = defaultdict(set)
    for record in runs:
        if record.solved:
            solvers[task_of(record)].add(record.backend)
    groups = [(b, by_backend[b]) for b in sorted(by_backend)]

    def scored(group: Sequence[RunRecord]) -> list[RunRecord]:
        return [r for r in group if task_of(r) not in excluded]

    rows = [_row(puzzle, backend, group, scored(group),
                 sum(backend in names for names in won.values()),
                 sum(names == {backend} for names in solvers.values()))
            for backend, group in groups]
    if len(groups) > 1:
        best = virtual_best(runs)
        rows.append(_row(puzzle, VIRTUAL_BEST, best, scored(best), None, None))
    for row in rows:
        row["tasks"], row["excluded"] = len(tasks), len(excluded)
    return rows


def summarise(records: Iterable[RunRecord]) -> list[SummaryRow]:
    """The summary rows, puzzle by puzzle, back-ends in name order, the virtual best last."""
    by_puzzle: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        by_puzzle[record.puzzle].append(record)
    return [row for puzzle in sorted(by_puzzle) for row in _puzzle_rows(puzzle, by_puzzle[puzzle])]


# ------------------------------------------------------------------ problems

def problems(records: Iterable[RunRecord],
             statuses: Sequence[Status] = PROBLEMS) -> list[RunRecord]:
    """The runs with one of `statuses` (by default: wrong, error, crash), in run order."""
    return [r for r in records if r.status in statuses]


# ------------------------------------------------------------------ notes

def scope_note(row: SummaryRow, unsupported_by: Sequence[str] = ()) -> str:
    """Over which tasks the puzzle's PAR-2 is taken, for a block heading or a page."""
    tasks, excluded = int(row.get("tasks") or 0), int(row.get("excluded") or 0)
    text = f"{tasks} task{'' if tasks == 1 else 's'}"
    if excluded:
        by = f": unsupported by {', '.join(unsupported_by)}" if unsupported_by else ""
        text += f"; PAR-2 over {tasks - excluded} ({excluded} left out for every back-end{by})"
    return text


def scope_notes(rows: Sequence[SummaryRow]) -> dict[str, str]:
    """Per puzzle of the summary rows, `scope_note` naming the back-ends that refused tasks."""
    return {puzzle: scope_note(block[0], [str(r["backend"]) for r in block
                                          if not is_virtual_best(r) and r.get("unsupported")
                                          and r["unsupported"] != r["runs"]])
            for puzzle, block in groups(rows)}


def is_virtual_best(row: Mapping[str, object]) -> bool:
    return row["backend"] == VIRTUAL_BEST
