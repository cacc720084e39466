"""A results database read back and judged: the data every report output is made from.

The database that `twinsolve bench` wrote (twinsolve.bench.database) is opened
on a connection that cannot write (never created, never changed), so a
report can be made while a benchmark is still adding runs; what it reads is
one consistent snapshot. Every stored run is judged again
(twinsolve.bench.verdict) against its instance's metadata and against the
other back-ends, so a run stored as `solved` may be reported as `wrong`; the
stored status stays beside the verdict in every export.

Which runs. By default a report shows the plan of the latest session (the
runs the last `twinsolve bench` asked for, run then or stored earlier), so its
numbers are those of one set of limits; `session=N` picks another session's
plan, `timeout=S` every task's latest run at that time limit, and
`all_sessions` every stored run. Where the runs shown were made under more
than one set of limits, each back-end's label says which (`hand [10s]`), so no
row mixes them.

Noise. `warnings` are twinsolve.bench.noise's about the runs shown: the
sessions that ran them on a busy host, tasks whose repeats spread widely, and
flapping tasks; every report says them.

A path that does not exist, or a file that is not a twinsolve results
database, is a `UsageError` with one line naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from .database import ResultsDatabase
from .noise import warnings
from .records import RunRecord
from .repeats import task_runs
from .scores import TotalsRow, totals
from .verdict import judge

__all__ = ["ReportData", "load", "facts"]


@dataclass(frozen=True)
class ReportData:
    """A results database loaded and judged: what every output is made from."""

    db: Path
    selection: str                           # which runs are shown, in words
    columns: tuple[str, ...]                 # the runs table's columns, in table order
    rows: tuple[dict[str, Any], ...]         # the stored runs, raw, ordered by id
    records: tuple[RunRecord, ...]           # the same runs, judged (same order)
    sessions: tuple[dict[str, Any], ...]     # provenance, one per bench invocation
    totals: tuple[TotalsRow, ...]
    invalid: tuple[str, ...] = ()            # files the shown session skipped as invalid
    warnings: tuple[str, ...] = ()           # noise in the runs shown (twinsolve.bench.noise)

    @property
    def shown_sessions(self) -> tuple[dict[str, Any], ...]:
        """The sessions that ran the runs shown, oldest first."""
        ran = {row.get("session_id") for row in self.rows}
        return tuple(s for s in self.sessions if s.get("id") in ran)


def _limits_label(record: RunRecord) -> str:
    parts = [] if record.timeout_s is None else [f"{record.timeout_s:g}s"]
    if record.memory_mb is not None:
        parts.append(f"{record.memory_mb}MB")
    return " ".join(parts) or "no limit"


def _labelled(records: list[RunRecord]) -> list[RunRecord]:
    """Records whose back-end label names their limits, when the runs mix several."""
    if len({(r.timeout_s, r.memory_mb) for r in records}) <= 1:
        return records
    return [replace(r, backend=f"{r.backend} [{_limits_label(r)}]") for r in records]


def _select(database: ResultsDatabase, session: int | None, timeout: float | None,
            all_sessions: bool) -> tuple[list[int] | None, str, int | None]:
    """The run ids to show (None: all), the choice in words, and the session shown."""
    if all_sessions:
        return None, "every stored run, of every session", None
    if timeout is not None:
        ids = database.runs_with_timeout(timeout)
        return ids, f"the latest run of every task at a {timeout:g} s time limit", None
    known = [int(s["id"]) for s in database.sessions()]
    if session is not None:
        if session not in known:
            raise UsageError(f"{database.path}: no session {session} (sessions: "
                             f"{', '.join(map(str, known)) or 'none'})")
        chosen = session
    else:
        latest = database.latest_planned_session()
        if latest is None:
            return None, "every stored run", None
        chosen = latest
    plan = database.plan(chosen)
    which = "" if session is not None else " (the latest)"
    runs = f"{len(plan)} run{'' if len(plan) == 1 else 's'}"
    return plan, f"the plan of session {chosen}{which}: {runs}", chosen


def load(db_path: str | Path, session: int | None = None, timeout: float | None = None,
         all_sessions: bool = False) -> ReportData:
    """Read and judge a results database; UsageError if it is missing or not one.

    By default the latest session's plan; see the module docstring for the others.
    """
    if sum((session is not None, timeout is not None, all_sessions)) > 1:
        raise UsageError("report: choose one of --session, --timeout and --all-sessions")
    path = Path(db_path)
    with ResultsDatabase.open_read_only(path) as database:
        # One read transaction: the raw rows and the records are the same snapshot,
        # even while a benchmark is still adding runs.
        with database.reading():
            ids, selection, shown = _select(database, session, timeout, all_sessions)
            columns, rows = database.rows(ids)
            records = _labelled(judge(database.records(ids)))
            sessions = database.sessions()
            invalid = database.invalid(shown) if shown is not None else []
    return ReportData(path, selection, columns, tuple(rows), tuple(records), tuple(sessions),
                      tuple(totals(records)), tuple(invalid),
                      tuple(warnings(sessions, rows, task_runs(records))))


# ------------------------------------------------------------------ the header's facts

def _distinct(values: Any) -> list[str]:
    return list(dict.fromkeys(str(v) for v in values if v not in (None, "")))


def _limits(data: ReportData) -> str:
    pairs = dict.fromkeys((r.timeout_s, r.memory_mb) for r in data.records)
    texts = []
    for timeout, memory in pairs:
        time = "no time limit" if timeout is None else f"{timeout:g} s per run"
        texts.append(f"{time}, " + ("no memory limit" if memory is None
                                    else f"{memory} MB memory per run"))
    return "; ".join(texts) or "-"


def _load(data: ReportData) -> str:
    sessions = data.shown_sessions
    loads = [float(v) for v in (*(r.get("load") for r in data.rows),
                                *(s.get(k) for s in sessions for k in ("load_start", "load_end")))
             if isinstance(v, int | float)]
    if not loads:
        return "not recorded"
    cores = _distinct(s.get("cores") for s in sessions)
    on = f" on {'/'.join(cores)} cores" if cores else ""
    low, high = min(loads), max(loads)
    return (f"{low:.1f}" if low == high else f"{low:.1f} to {high:.1f}") + on + \
        " (1-minute load average while it ran)"


def facts(data: ReportData) -> list[tuple[str, str]]:
    """What a report's header says of the runs shown: (label, text) pairs — the limits, the
    host, its load, the date and twinsolve's version, from the sessions that ran them."""
    sessions = data.shown_sessions
    hosts = [f"{s.get('host')} ({s.get('cpu')}, {s.get('cores') or '?'} cores, governor "
             f"{s.get('governor') or 'not readable'})" for s in sessions]
    dates = _distinct(str(s.get("started") or "").replace("T", " ").replace("+00:00", " UTC")
                      for s in sessions)
    versions = _distinct(f"twinsolve {s.get('twinsolve')}"
                         + (f" (git {str(s['git_commit'])[:12]})" if s.get("git_commit") else "")
                         for s in sessions)
    repeats = max((int(row.get("repeats") or 1) for row in data.totals), default=1)
    jobs = _distinct(s.get("jobs") for s in sessions)
    runs = f"{len(data.rows)} run{'' if len(data.rows) == 1 else 's'}"
    if repeats > 1:
        runs += f", {repeats} repeats per task"
    if jobs:
        runs += f", {'/'.join(jobs)} job{'' if jobs == ['1'] else 's'}"
    return [("limits", _limits(data)), ("host", "; ".join(_distinct(hosts)) or "-"),
            ("load", _load(data)), ("date", ", ".join(dates) or "-"),
            ("version", ", ".join(versions) or "-"), ("runs", runs)]
