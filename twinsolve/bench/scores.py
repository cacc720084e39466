"""The totals: one row per puzzle and back-end, plus the virtual best.

A task is one instance file (its path and content), whatever the number of
repeats; a run is one back-end on one task, once. The repeats of a task are
taken together first (twinsolve.bench.repeats: a status, a median with its
spread), and every count is of tasks. Per puzzle and back-end the row
counts: runs; solved (a definite answer — optimal, solved or unsat — not
marked wrong, in every repeat); feasible (a solution without proof); wrong (a
wrong answer in any repeat); timeout; memout; crash; other (unsupported,
error; also counted apart as `unsupported` and `error`); flapping (tasks
whose repeats disagree); wins (the tasks where this back-end's solved median
time was the fastest of all, ties counting for each); only (the tasks no
other back-end solved); and, over the solved tasks, the median and the
geometric mean of their median wall times, the median of their median CPU
times (`median_cpu_s`), of the peak memory they added (`median_mem_mb`) and
of their nodes.

PAR-2 (the SAT Competition's score) is the mean over tasks of each task's
score: its (median) wall time when solved, else twice the time limit. It is
taken over the same tasks for every back-end of a puzzle: a task that some
back-end does not handle (`unsupported`) is left out for all of them alike,
so no back-end gains by refusing the hard variants (a back-end that handles
none of the puzzle's tasks takes no part and leaves nothing out); an `error`
counts as not solved. `par2_tasks` says over how many tasks, `tasks` and
`excluded` how many there are and how many were left out. With repeats,
`par2_range` is the PAR-2 of the worst and of the best repeat (each repeat's
runs scored alone), the spread of the score itself.

The virtual best back-end (VBS) of a puzzle takes, per task, the back-end
with the fastest solved median: the score a portfolio of all of them would
get. Its node count is given only when every back-end counts nodes in the
same unit (`same_nodes`: `hand` and `hand:probe=false`, never `hand` and
`cpsat`, whose nodes are branches of another search).

`problems` are the runs that went wrong (what makes `bench` exit 1), and
`scope_notes` say over which tasks each puzzle's PAR-2 is taken. Data only:
the terminal draws these rows in twinsolve.bench.terminal, the files and the
page in twinsolve.bench.exports and twinsolve.bench.html.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from ..core.result import Status
from .columns import groups
from .records import RunRecord
from .repeats import Task, TaskRuns, by_task, par2, task_of, task_runs

__all__ = ["totals", "TotalsRow", "VIRTUAL_BEST", "par2", "virtual_best", "task_of", "Task",
           "winners", "problems", "PROBLEMS", "scope_note", "scope_notes", "is_virtual_best",
           "same_nodes", "best_of"]

TotalsRow = dict[str, object]
VIRTUAL_BEST = "virtual best"
PROBLEMS = (Status.WRONG, Status.ERROR, Status.CRASH)   # what makes `bench` exit 1
_OTHER = (Status.UNSUPPORTED, Status.ERROR)


def same_nodes(a: str, b: str) -> bool:
    """Whether two back-end specs count `nodes` alike: the same back-end, other options.

    >>> same_nodes("sat", "sat:glucose4"), same_nodes("hand", "cpsat")
    (True, False)
    """
    return _base(a) == _base(b)


def _base(spec: str) -> str:
    """The back-end's name without options or a limits label (`hand [10s]`)."""
    return re.split(r"[:\s\[]", spec, maxsplit=1)[0]


def _mean_par2(tasks: Sequence[TaskRuns]) -> float | None:
    scores = [t.par2 for t in tasks]
    return statistics.fmean(scores) if scores and None not in scores else None  # type: ignore[arg-type]


def _par2_range(tasks: Sequence[TaskRuns]) -> list[float] | None:
    """[lowest, highest] PAR-2 of one repeat alone (repeat i: the i-th run of every task),
    over the same tasks; None without repeats, or when the tasks' repeats differ in number."""
    repeats = {len(t.runs) for t in tasks}
    if len(repeats) != 1 or min(repeats) < 2:
        return None
    per_repeat = []
    for index in range(min(repeats)):
        scores = [par2(t.runs[index]) for t in tasks]
        if None in scores:
            return None
        per_repeat.append(statistics.fmean(scores))  # type: ignore[arg-type]
    return [min(per_repeat), max(per_repeat)]


def _median(values: Iterable[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _row(puzzle: str, backend: str, tasks: Sequence[TaskRuns], scored: Sequence[TaskRuns],
         wins: int | None, only: int | None, nodes: bool = True) -> TotalsRow:
    solved = [t for t in tasks if t.solved]
    times = [t.wall.median for t in solved]

    def count(*statuses: Status) -> int:
        return sum(t.status in statuses for t in tasks)

    return {
        "puzzle": puzzle, "backend": backend, "runs": sum(len(t.runs) for t in tasks),
        "solved": len(solved), "feasible": count(Status.FEASIBLE), "wrong": count(Status.WRONG),
        "timeout": count(Status.TIMEOUT), "memout": count(Status.MEMOUT),
        "crash": count(Status.CRASH), "other": count(*_OTHER),
        "flapping": sum(t.status is None for t in tasks),
        "par2": _mean_par2(scored), "par2_range": _par2_range(scored),
        "median_s": statistics.median(times) if times else None,
        "geomean_s": math.exp(statistics.fmean(math.log(max(t, 1e-6)) for t in times))
        if times else None,
        "median_cpu_s": _median(t.cpu.median if t.cpu else None for t in solved),
        "median_mem_mb": _median(t.mem.median if t.mem else None for t in solved),
        "median_nodes": _median(t.nodes.median if t.nodes else None for t in solved)
        if nodes else None,
        "unsupported": count(Status.UNSUPPORTED), "error": count(Status.ERROR),
        "wins": wins, "only": only, "par2_tasks": len(scored),
        "repeats": max((len(t.runs) for t in tasks), default=0),
    }


def best_of(candidates: Sequence[TaskRuns]) -> TaskRuns | None:
    """The virtual best of one task: the solved entry with the fastest median wall time
    (the first back-end by name on a tie), else the first that is not unsupported."""
    handled = sorted((t for t in candidates if t.status is not Status.UNSUPPORTED),
                     key=lambda t: t.backend)
    solved = [t for t in handled if t.solved]
    if solved:
        return min(solved, key=lambda t: t.wall.median)
    return handled[0] if handled else None


def _virtual_best(tasks: Sequence[TaskRuns]) -> list[TaskRuns]:
    return [best for group in by_task(tasks).values() if (best := best_of(group)) is not None]


def virtual_best(runs: Sequence[RunRecord]) -> list[RunRecord]:
    """The runs of each task's virtual best back-end (all its repeats); see `best_of`.

    A task no back-end handles has no virtual best run.
    """
    return [r for best in _virtual_best(task_runs(runs)) for r in best.runs]


def _winners(tasks: Sequence[TaskRuns]) -> dict[Task, set[str]]:
    fastest: dict[Task, float] = {}
    who: dict[Task, set[str]] = defaultdict(set)
    for entry in tasks:
        if not entry.solved:
            continue
        time = entry.wall.median
        if entry.task not in fastest or time < fastest[entry.task]:
            fastest[entry.task], who[entry.task] = time, {entry.backend}
        elif time == fastest[entry.task]:
            who[entry.task].add(entry.backend)
    return dict(who)


def winners(runs: Iterable[RunRecord]) -> dict[Task, set[str]]:
    """Per task that some back-end solved, the back-ends whose solved median was fastest."""
    return _winners(task_runs(runs))


def _puzzle_rows(puzzle: str, runs: Sequence[RunRecord]) -> list[TotalsRow]:
    tasks = task_runs(runs)
    by_backend: dict[str, list[TaskRuns]] = defaultdict(list)
    for entry in tasks:
        by_backend[entry.backend].append(entry)
    # A back-end that handles none of the puzzle's tasks (an option only another puzzle's
    # back-end reads, a peer for another puzzle) takes no part, so it leaves nothing out.
    taking_part = {b for b, group in by_backend.items()
                   if any(t.status is not Status.UNSUPPORTED for t in group)}
    excluded = {t.task for t in tasks
                if t.status is Status.UNSUPPORTED and t.backend in taking_part}
    won = _winners(tasks)
    solvers: dict[Task, set[str]] = defaultdict(set)
    for entry in tasks:
        if entry.solved:
            solvers[entry.task].add(entry.backend)

    def scored(group: Sequence[TaskRuns]) -> list[TaskRuns]:
        return [t for t in group if t.task not in excluded]

    rows = [_row(puzzle, backend, group, scored(group),
                 sum(backend in names for names in won.values()),
                 sum(names == {backend} for names in solvers.values()))
            for backend, group in sorted(by_backend.items())]
    if len(by_backend) > 1:
        best = _virtual_best(tasks)
        one_unit = len({_base(b) for b in taking_part}) <= 1
        rows.append(_row(puzzle, VIRTUAL_BEST, best, scored(best), None, None, nodes=one_unit))
    for row in rows:
        row["tasks"], row["excluded"] = len({t.task for t in tasks}), len(excluded)
    return rows


def totals(records: Iterable[RunRecord]) -> list[TotalsRow]:
    """The totals rows, puzzle by puzzle, back-ends in name order, the virtual best last."""
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

def scope_note(row: TotalsRow, unsupported_by: Sequence[str] = ()) -> str:
    """Over which tasks the puzzle's PAR-2 is taken, for a block heading or a page."""
    tasks, excluded = int(row.get("tasks") or 0), int(row.get("excluded") or 0)
    repeats = int(row.get("repeats") or 1)
    text = f"{tasks} task{'' if tasks == 1 else 's'}"
    if repeats > 1:
        text += f" x {repeats} repeats"
    if excluded:
        by = f": unsupported by {', '.join(unsupported_by)}" if unsupported_by else ""
        text += f"; PAR-2 over {tasks - excluded} ({excluded} left out for every back-end{by})"
    return text


def scope_notes(rows: Sequence[TotalsRow]) -> dict[str, str]:
    """Per puzzle of the totals rows, `scope_note` naming the back-ends that refused tasks."""
    return {puzzle: scope_note(block[0], [str(r["backend"]) for r in block
                                          if not is_virtual_best(r) and r.get("unsupported")
                                          and r["unsupported"] * int(r.get("repeats") or 1)
                                          != r["runs"]])
            for puzzle, block in groups(rows)}


def is_virtual_best(row: Mapping[str, object]) -> bool:
    return row["backend"] == VIRTUAL_BEST
