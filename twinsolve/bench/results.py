"""A results database read back and judged: the data every report output is made from.

The database that `twinsolve bench` wrote (twinsolve.bench.store) is opened
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

A path that does not exist, or a file that is not a twinsolve results
database, is a `UsageError` with one line naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from .records import RunRecord
from .scores import SummaryRow, summarise
from .store import Store
from .verdict import judge

__all__ = ["ReportData", "load"]


@dataclass(frozen=True)
class ReportData:
    """A results database loaded and judged: what every output is made from."""

    db: Path
    selection: str                           # which runs are shown, in words
    columns: tuple[str, ...]                 # the runs table's columns, in table order
    rows: tuple[dict[str, Any], ...]         # the stored runs, raw, ordered by id
    records: tuple[RunRecord, ...]           # the same runs, judged (same order)
    sessions: tuple[dict[str, Any], ...]     # provenance, one per bench invocation
    summary: tuple[SummaryRow, ...]
    invalid: tuple[str, ...] = ()            # files the shown session skipped as invalid


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


def _select(store: Store, session: int | None, timeout: float | None,
            all_sessions: bool) -> tuple[list[int] | None, str, int | None]:
    """The run ids to show (None: all), the choice in words, and the session shown."""
    if all_sessions:
        return None, "every stored run, of every session", None
    if timeout is not None:
        ids = store.runs_with_timeout(timeout)
        return ids, f"the latest run of every task at a {timeout:g} s time limit", None
    known = [int(s["id"]) for s in store.sessions()]
    if session is not None:
        if session not in known:
            raise UsageError(f"{store.path}: no session {session} (sessions: "
                             f"{', '.join(map(str, known)) or 'none'})")
        chosen = session
    else:
        latest = store.latest_planned_session()
        if latest is None:
            return None, "every stored run", None
        chosen = latest
    plan = store.plan(chosen)
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
    with Store.open_read_only(path) as store:
        # One read transaction: the raw rows and the records are the same snapshot,
        # even while a benchmark is still adding runs.
        with store.reading():
            ids, selection, shown = _select(store, session, timeout, all_sessions)
            columns, rows = store.rows(ids)
            records = _labelled(judge(store.records(ids)))
            sessions = store.sessions()
            invalid = store.invalid(shown) if shown is not None else []
    return ReportData(path, selection, columns, tuple(rows), tuple(records), tuple(sessions),
                      tuple(summarise(records)), tuple(invalid))
