"""Two results databases side by side: the rows of `twinsolve report A.sqlite B.sqlite`.

The use: the same suite run twice (before and after a change to a solver, on
two machines, under two versions), compared back-end by back-end. Each
database is loaded and judged on its own (twinsolve.bench.results.load, with
the same choice of runs for both). The comparison is taken over the tasks
both hold (a task is an instance file and seed: its path and content) that
every back-end of either handles, so PAR-2 is over the same tasks on both
sides; a task one side lacks, or that some back-end of either side does not
handle (`unsupported`), is left out of both and counted in the puzzle's note.
A task is found in the other database by its content (board and metadata)
and seed, and by its path only where one content is in several files.

Per puzzle and back-end (and the virtual best) a row holds the solved and
wrong counts, PAR-2 and median time of A and of B, and the ratios B/A of
PAR-2 and of the median time: below 1 means B is faster. A back-end only one
side ran gets a row with the other side empty. Ratios of measured times are
reported, never used to decide anything.

Data only: the rows' columns are twinsolve.bench.columns.COMPARE_COLUMNS;
the terminal, the files and the page draw them (twinsolve.bench.summary,
twinsolve.bench.exports, twinsolve.bench.html).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..core.result import Status
from .records import RunRecord
from .results import ReportData
from .scores import VIRTUAL_BEST, Task, summarise, task_of

__all__ = ["Comparison", "CompareRow", "compare", "ratio"]

CompareRow = dict[str, object]


@dataclass(frozen=True)
class Comparison:
    """Two loaded databases and their rows side by side."""

    before: ReportData
    after: ReportData
    rows: tuple[CompareRow, ...]
    notes: dict[str, str]                  # per puzzle: over which tasks, in words
    before_records: tuple[RunRecord, ...]  # the compared runs (common, handled tasks)
    after_records: tuple[RunRecord, ...]


def ratio(after: object, before: object) -> float | None:
    """after / before, or None when either is missing or `before` is zero."""
    if after is None or before is None or not before:
        return None
    return float(after) / float(before)  # type: ignore[arg-type]


Match = tuple[object, ...]


def _matches(records: Sequence[RunRecord]) -> dict[Task, Match]:
    """Per task, the key that finds it in the other database.

    A task's content (board and metadata, hashed) and seed, and its path only
    where that content is in several files: paths are relative to the suite
    root, which two runs of one suite may have named differently (`bench
    instances` against `bench instances/NAME`), and an upgraded old database
    keeps the paths as they were given.
    """
    tasks = {task_of(r) for r in records}
    paths: dict[tuple[str, int], int] = defaultdict(int)
    for content, _, seed in tasks:
        paths[(content, seed)] += 1
    return {task: (task[0], task[2]) if paths[(task[0], task[2])] == 1 else task
            for task in tasks}


def _by_puzzle(records: Sequence[RunRecord], match: dict[Task, Match]) -> dict[str, set[Match]]:
    by_puzzle: dict[str, set[Match]] = defaultdict(set)
    for record in records:
        by_puzzle[record.puzzle].add(match[task_of(record)])
    return by_puzzle


def _unhandled(records: Sequence[RunRecord], match: dict[Task, Match]) -> set[Match]:
    return {match[task_of(r)] for r in records if r.status is Status.UNSUPPORTED}


def _named_as_in(records: Sequence[RunRecord], match: dict[Task, Match],
                 names: dict[Match, RunRecord]) -> tuple[RunRecord, ...]:
    """The records of the kept tasks, each under the path its task has in A (plots pair by it)."""
    out = []
    for record in records:
        key = match[task_of(record)]
        if key in names:
            model = names[key]
            out.append(replace(record, path=model.path, task_path=model.task_path))
    return tuple(out)


def _note(common: int, compared: int, only_a: int, only_b: int) -> str:
    parts = [f"{compared} task{'' if compared == 1 else 's'} compared"]
    if common - compared:
        parts.append(f"{common - compared} in both left out (unsupported by some back-end)")
    if only_a or only_b:
        parts.append(f"only in A: {only_a}, only in B: {only_b}")
    return "; ".join(parts)


def _side(row: dict[str, object] | None, suffix: str) -> dict[str, object]:
    keys = ("solved", "wrong", "par2", "median_s")
    return {f"{key}_{suffix}": None if row is None else row[key] for key in keys}


def _rows(before: Sequence[RunRecord], after: Sequence[RunRecord]) -> list[CompareRow]:
    a = {(str(r["puzzle"]), str(r["backend"])): r for r in summarise(before)}
    b = {(str(r["puzzle"]), str(r["backend"])): r for r in summarise(after)}
    # virtual best last within each puzzle, as in the summary
    keys = sorted(a.keys() | b.keys(), key=lambda k: (k[0], k[1] == VIRTUAL_BEST, k[1]))
    rows = []
    for puzzle, backend in keys:
        row_a, row_b = a.get((puzzle, backend)), b.get((puzzle, backend))
        row: CompareRow = {"puzzle": puzzle, "backend": backend,
                           **_side(row_a, "a"), **_side(row_b, "b")}
        row["par2_ratio"] = ratio(row["par2_b"], row["par2_a"])
        row["median_ratio"] = ratio(row["median_s_b"], row["median_s_a"])
        rows.append(row)
    return rows


def compare(before: ReportData, after: ReportData) -> Comparison:
    """The two databases' rows over the tasks both hold and every back-end handles."""
    match_a, match_b = _matches(before.records), _matches(after.records)
    tasks_a, tasks_b = _by_puzzle(before.records, match_a), _by_puzzle(after.records, match_b)
    unhandled = _unhandled(before.records, match_a) | _unhandled(after.records, match_b)
    notes, keep = {}, set()
    for puzzle in sorted(tasks_a.keys() | tasks_b.keys()):
        mine_a, mine_b = tasks_a.get(puzzle, set()), tasks_b.get(puzzle, set())
        common = mine_a & mine_b
        compared = common - unhandled
        keep |= compared
        notes[puzzle] = _note(len(common), len(compared), len(mine_a - mine_b),
                              len(mine_b - mine_a))
    names = {match_a[task_of(r)]: r for r in before.records if match_a[task_of(r)] in keep}
    kept_a = _named_as_in(before.records, match_a, names)
    kept_b = _named_as_in(after.records, match_b, names)
    return Comparison(before, after, tuple(_rows(kept_a, kept_b)), notes, kept_a, kept_b)
