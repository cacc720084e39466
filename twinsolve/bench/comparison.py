"""Two results databases side by side: what `twinsolve report A.sqlite B.sqlite` says.

The use: the same suite run twice (before and after a change to a solver, on
two machines, under two versions), compared back-end by back-end. Each
database is loaded and judged on its own (twinsolve.bench.results.load, with
the same choice of runs for both). A task (an instance file, its repeats
together: twinsolve.bench.repeats) is found in the other database by its
content (board and metadata), and by its path only where one content is in
several files.

What changed, in the order a reader needs it:
1. changes in kind (`changes`), over every task and back-end both hold: an
   answer that became wrong, a task no longer solved (a timeout, a memout, a
   crash, flapping repeats), a task newly unsupported — the regressions —
   then the rest (newly solved, no longer wrong, one failure for another);
2. per task solved on both sides, the time verdict (`times`): slower, faster
   or the same within noise, by twinsolve.bench.noise's rule (told whether
   either side ran on a busy host), with the ratios B/A of the median wall and
   CPU times; `time_headline` says it in one line;
3. the totals (`rows`) per puzzle and back-end (and the virtual best) over
   the tasks both hold that every back-end of either handles, so PAR-2 is
   over the same tasks on both sides: solved and wrong counts, PAR-2 and
   median time of A and of B, the ratios B/A of PAR-2, of the median wall
   time and of the median CPU time (below 1: B is faster), and how many tasks
   were decided slower and faster. A task one side lacks, or that some
   back-end of either side does not handle (`unsupported`), is left out of
   the totals and counted in the puzzle's note. A back-end only one side ran
   gets a row with the other side empty.

A change in kind to a timeout or a memout on a side that ran on a busy host
carries a note with its CPU time, so a reader can tell a run that waited for
a core from one that worked the whole time.

`regressions` are what `--fail-on-regression` fails on: the changes in kind
for the worse, and the tasks decided slower (the untested ones too: with
fewer than 3 repeats the ratio alone decides, as pytest-benchmark's compare
does, unless a side ran on a busy host, where one run decides nothing).
Data only: the columns are twinsolve.bench.columns'; the terminal,
the files and the page draw them (twinsolve.bench.terminal,
twinsolve.bench.exports, twinsolve.bench.html).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..core.result import Status
from .columns import seconds
from .noise import BUSY, HOST, THRESHOLD, TimeChange, busy_sessions, decide
from .records import RunRecord
from .repeats import TaskRuns, task_runs
from .results import ReportData
from .scores import VIRTUAL_BEST, Task, task_of, totals

__all__ = ["Comparison", "CompareRow", "StatusChange", "TaskTime", "compare", "ratio",
           "change_rows", "time_rows"]

CompareRow = dict[str, object]
Match = tuple[object, ...]


@dataclass(frozen=True)
class StatusChange:
    """A task whose status by one back-end differs between A and B."""

    puzzle: str
    path: str          # the task: its path relative to the suite root
    backend: str
    before: str        # the statuses of A's repeats (`solved`, `solved 3 · timeout 2`)
    after: str
    kind: str          # what changed, in words: "became wrong", "no longer solved", ...
    worse: bool        # a regression
    note: str = ""     # a timeout or memout on a busy host: its CPU time


@dataclass(frozen=True)
class TaskTime:
    """One task solved by one back-end on both sides, and the verdict on its time."""

    puzzle: str
    path: str          # the task: its path relative to the suite root
    backend: str
    before: TaskRuns
    after: TaskRuns
    change: TimeChange


@dataclass(frozen=True)
class Comparison:
    """Two loaded databases: their changes in kind, the time verdicts and the totals."""

    before: ReportData
    after: ReportData
    rows: tuple[CompareRow, ...]
    notes: dict[str, str]                  # per puzzle: over which tasks, in words
    before_records: tuple[RunRecord, ...]  # the compared runs (common, handled tasks)
    after_records: tuple[RunRecord, ...]
    changes: tuple[StatusChange, ...] = ()
    times: tuple[TaskTime, ...] = ()
    threshold: float = THRESHOLD
    busy: bool = False                     # either side ran on a busy host (noise.busy_sessions)

    @property
    def changed_times(self) -> tuple[TaskTime, ...]:
        """The tasks decided slower or faster, slowest ratio first."""
        return tuple(sorted((t for t in self.times if t.change.changed),
                            key=lambda t: (-t.change.ratio, t.puzzle, t.path, t.backend)))

    def time_headline(self) -> str:
        """The time verdicts in one line: how many changed beyond noise, how many are the
        same, and how many of those only for noise (`TimeChange.cause`)."""
        changed = len(self.changed_times)
        same = len(self.times) - changed
        host = sum(t.change.cause == HOST for t in self.times)
        busy = sum(t.change.cause == BUSY for t in self.times)
        notes = []
        if host:
            notes.append(f"{host} of them slower or faster by wall time only: the host, not "
                         "the code")
        if busy:
            notes.append(f"{busy} of them beyond {self.threshold:g}x in too few runs on a busy "
                         "host: not judged; run both again with --repeat 3 or more on a quiet "
                         "host")
        if not changed:
            tasks = f"{same} task{'' if same == 1 else 's'} solved on both sides the same"
            return f"time: no change beyond noise ({'; '.join([tasks, *notes])})"
        return (f"time: {changed} task{'' if changed == 1 else 's'} changed beyond noise, "
                f"{same} the same" + (f" ({'; '.join(notes)})" if notes else ""))

    @property
    def regressions(self) -> int:
        """Changes in kind for the worse, and tasks decided slower."""
        return sum(c.worse for c in self.changes) + \
            sum(t.change.verdict == "slower" for t in self.times)


def ratio(after: object, before: object) -> float | None:
    """after / before, or None when either is missing or `before` is zero."""
    if after is None or before is None or not before:
        return None
    return float(after) / float(before)  # type: ignore[arg-type]


def _matches(records: Sequence[RunRecord]) -> dict[Task, Match]:
    """Per task, the key that finds it in the other database.

    A task's content (board and metadata, hashed), and its path only where
    that content is in several files: paths are relative to the suite root,
    which two runs of one suite may have named differently (`bench instances`
    against `bench instances/NAME`), and an upgraded old database keeps the
    paths as they were given.
    """
    tasks = {task_of(r) for r in records}
    paths: dict[str, int] = defaultdict(int)
    for content, _ in tasks:
        paths[content] += 1
    return {task: (task[0],) if paths[task[0]] == 1 else task for task in tasks}


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
            out.append(replace(record, path=model.path, task_path=model.task_path,
                               task_hash=model.task_hash, instance_hash=model.instance_hash))
    return tuple(out)


def _note(common: int, compared: int, only_a: int, only_b: int) -> str:
    parts = [f"{compared} task{'' if compared == 1 else 's'} compared"]
    if common - compared:
        parts.append(f"{common - compared} in both left out (unsupported by some back-end)")
    if only_a or only_b:
        parts.append(f"only in A: {only_a}, only in B: {only_b}")
    return "; ".join(parts)


# ------------------------------------------------------------------ changes in kind

def _kind(before: TaskRuns, after: TaskRuns) -> tuple[str, bool] | None:
    """What changed in kind from `before` to `after`, and whether it is a regression."""
    if before.status is after.status:
        return None
    if after.status is Status.WRONG:
        return "became wrong", True
    if after.status is Status.UNSUPPORTED:
        return "newly unsupported", True
    if before.solved and not after.solved:
        return "no longer solved", True
    if after.solved and not before.solved:
        return "newly solved", False
    if before.status is Status.WRONG:
        return "no longer wrong", False
    return "changed", False


_KIND_ORDER = ("became wrong", "no longer solved", "newly unsupported", "changed",
               "no longer wrong", "newly solved")


_STOPPED = (Status.TIMEOUT, Status.MEMOUT)


def _busy_note(entry: TaskRuns, busy: bool) -> str:
    """For a task stopped by a limit on a busy host: its median CPU and wall time."""
    if not busy or entry.status not in _STOPPED or entry.cpu is None:
        return ""
    return (f"{entry.status.value} on a busy host after {seconds(entry.cpu.median)} of CPU in "
            f"{seconds(entry.wall.median)}")


def _changes(before: dict[tuple[Match, str], TaskRuns],
             after: dict[tuple[Match, str], TaskRuns],
             busy: tuple[bool, bool]) -> list[StatusChange]:
    found = []
    for key in before.keys() & after.keys():
        a, b = before[key], after[key]
        kind = _kind(a, b)
        if kind is not None:
            note = _busy_note(a, busy[0]) or _busy_note(b, busy[1])
            found.append(StatusChange(a.puzzle, a.name, a.backend, a.statuses(), b.statuses(),
                                      *kind, note))
    return sorted(found, key=lambda c: (_KIND_ORDER.index(c.kind), c.puzzle, c.path, c.backend))


def _times(before: dict[tuple[Match, str], TaskRuns], after: dict[tuple[Match, str], TaskRuns],
           keep: set[Match], threshold: float, busy: bool) -> list[TaskTime]:
    out = []
    for key in sorted(before.keys() & after.keys(), key=lambda k: (before[k].name, k[1])):
        a, b = before[key], after[key]
        if key[0] in keep and a.solved and b.solved:
            out.append(TaskTime(a.puzzle, a.name, a.backend, a, b,
                                decide(a.wall, b.wall, a.cpu, b.cpu, threshold, busy)))
    return out


def _busy(data: ReportData) -> bool:
    """Whether a session that ran the runs shown ran on a busy host."""
    return bool(busy_sessions(data.shown_sessions, data.rows))


# ------------------------------------------------------------------ totals

def _side(row: dict[str, object] | None, suffix: str) -> dict[str, object]:
    keys = ("solved", "wrong", "par2", "median_s", "median_cpu_s")
    return {f"{key}_{suffix}": None if row is None else row[key] for key in keys}


def _rows(before: Sequence[RunRecord], after: Sequence[RunRecord],
          times: Sequence[TaskTime]) -> list[CompareRow]:
    a = {(str(r["puzzle"]), str(r["backend"])): r for r in totals(before)}
    b = {(str(r["puzzle"]), str(r["backend"])): r for r in totals(after)}
    verdicts: dict[tuple[str, str], list[str]] = defaultdict(list)
    for time in times:
        verdicts[(time.puzzle, time.backend)].append(time.change.verdict)
    # virtual best last within each puzzle, as in the totals
    keys = sorted(a.keys() | b.keys(), key=lambda k: (k[0], k[1] == VIRTUAL_BEST, k[1]))
    rows = []
    for puzzle, backend in keys:
        row_a, row_b = a.get((puzzle, backend)), b.get((puzzle, backend))
        row: CompareRow = {"puzzle": puzzle, "backend": backend,
                           **_side(row_a, "a"), **_side(row_b, "b")}
        row["par2_ratio"] = ratio(row["par2_b"], row["par2_a"])
        row["median_ratio"] = ratio(row["median_s_b"], row["median_s_a"])
        row["cpu_ratio"] = ratio(row["median_cpu_s_b"], row["median_cpu_s_a"])
        said = verdicts.get((puzzle, backend))
        row["slower"] = None if said is None else said.count("slower")
        row["faster"] = None if said is None else said.count("faster")
        rows.append(row)
    return rows


def compare(before: ReportData, after: ReportData, threshold: float = THRESHOLD) -> Comparison:
    """What changed from `before` to `after` (the module docstring says in which order)."""
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
    entries_a = {(match_a[t.task], t.backend): t for t in task_runs(before.records)}
    entries_b = {(match_b[t.task], t.backend): t for t in task_runs(after.records)}
    busy = (_busy(before), _busy(after))
    times = _times(entries_a, entries_b, keep, threshold, any(busy))
    names = {match_a[task_of(r)]: r for r in before.records if match_a[task_of(r)] in keep}
    kept_a = _named_as_in(before.records, match_a, names)
    kept_b = _named_as_in(after.records, match_b, names)
    return Comparison(before, after, tuple(_rows(kept_a, kept_b, times)), notes, kept_a, kept_b,
                      tuple(_changes(entries_a, entries_b, busy)), tuple(times), threshold,
                      any(busy))


# ------------------------------------------------------------------ rows for the tables

def change_rows(changes: Sequence[StatusChange]) -> list[CompareRow]:
    """The changes in kind as rows of `columns.CHANGE_COLUMNS`."""
    return [{"puzzle": c.puzzle, "kind": c.kind, "path": c.path, "backend": c.backend,
             "before": c.before, "after": c.after, "worse": c.worse, "note": c.note}
            for c in changes]


def time_rows(times: Sequence[TaskTime]) -> list[CompareRow]:
    """The time verdicts as rows of `columns.TIME_COLUMNS`."""
    return [{"puzzle": t.puzzle, "verdict": t.change.label, "ratio": t.change.ratio,
             "cpu_ratio": t.change.cpu_ratio, "path": t.path, "backend": t.backend,
             "a": t.before.wall.text(seconds), "b": t.after.wall.text(seconds),
             "why": t.change.why, "p": t.change.p, "changed": t.change.changed}
            for t in times]
