"""`twinsolve report`: a results database read back as tables, files and plots.

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

Outputs, each written by twinsolve.core.atomic (a plain file atomically):
- the summary rows (twinsolve.bench.summary), which the CLI prints as a table;
- `--csv FILE`: one row per run, every stored column in table order, with
  `verdict` after `status` and `verdict_message` (why a run was judged
  `wrong`, else the stored message) after `message`; JSON-valued columns
  (stats, solution, metadata) stay JSON text;
- `--json FILE`: {"database", "summary", "sessions", "runs"}; runs hold the
  same fields as the CSV, with the JSON-valued columns decoded;
- `--plots DIR`: PNG and SVG of every plot (twinsolve.bench.plots);
- `--html FILE`: one self-contained page (twinsolve.bench.html);
- `--markdown FILE`, `--latex FILE`: the summary table with every column, for
  a README or a paper (Markdown pipe table; LaTeX booktabs `tabular`), with
  over which tasks each puzzle's PAR-2 is taken.

Two databases (`twinsolve report A B`) are compared side by side by
twinsolve.bench.compare, each loaded with `load`.

A path that does not exist, or a file that is not a twinsolve results
database, is a `UsageError` with one line naming it.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.atomic import output_folder, write_text
from ..core.errors import UsageError
from .records import RunRecord
from .store import Store
from .summary import COLUMNS, DEFINITIONS, SummaryRow, is_virtual_best, scope_notes, summarise
from .tables import latex, markdown
from .verdict import judge

if TYPE_CHECKING:
    from .plots import Plot

__all__ = ["ReportData", "ReportResult", "load", "run_rows", "csv_text", "json_text",
           "markdown_text", "latex_text", "report"]

_JSON_COLUMNS = ("stats", "solution", "metadata")


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


@dataclass(frozen=True)
class ReportResult:
    """What `report` loaded and the files it wrote, in the order written."""

    data: ReportData
    written: tuple[Path, ...] = field(default_factory=tuple)

    @property
    def summary(self) -> list[SummaryRow]:
        return list(self.data.summary)


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


# ------------------------------------------------------------------ exports

def _export_columns(columns: Sequence[str]) -> list[str]:
    """The stored columns with `verdict` after `status` and `verdict_message` after `message`."""
    out = []
    for name in columns:
        out.append(name)
        if name == "status":
            out.append("verdict")
        elif name == "message":
            out.append("verdict_message")
    return out


def run_rows(data: ReportData) -> list[dict[str, Any]]:
    """One dict per run: the stored values, plus the verdict and its message."""
    rows = []
    for raw, judged in zip(data.rows, data.records, strict=True):
        row = {**raw, "verdict": judged.status.value, "verdict_message": judged.message}
        rows.append({name: row[name] for name in _export_columns(data.columns)})
    return rows


def csv_text(data: ReportData) -> str:
    """The runs as CSV: a header, then one line per run (None as an empty cell)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_export_columns(data.columns),
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(run_rows(data))
    return buffer.getvalue()


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    for name in _JSON_COLUMNS:
        if isinstance(out.get(name), str):
            try:
                out[name] = json.loads(out[name])
            except ValueError:
                pass  # not JSON after all: keep the text as stored
    return out


def json_text(data: ReportData) -> str:
    """Summary, sessions and runs as one JSON document."""
    document = {
        "database": str(data.db),
        "summary": list(data.summary),
        "sessions": list(data.sessions),
        "runs": [_decoded(row) for row in run_rows(data)],
    }
    return json.dumps(document, indent=1) + "\n"


def markdown_text(data: ReportData) -> str:
    """The summary as a Markdown table (every column), then what PAR-2 is taken over."""
    notes = "".join(f"- {puzzle}: {note}\n" for puzzle, note in scope_notes(data.summary).items())
    return (f"{markdown(COLUMNS, data.summary, emphasis=is_virtual_best)}\n{notes}\n"
            f"{DEFINITIONS}.\n")


def latex_text(data: ReportData) -> str:
    """The summary as a booktabs `tabular` (a rule between puzzles); the notes as comments."""
    comment = "\n".join([f"twinsolve report: {data.db}",
                         *(f"{p}: {note}" for p, note in scope_notes(data.summary).items()),
                         DEFINITIONS])
    return latex(COLUMNS, data.summary, comment=comment, emphasis=is_virtual_best,
                 rule_before=lambda previous, row: previous["puzzle"] != row["puzzle"])


# ------------------------------------------------------------------ the command

def _plots_and_svgs(data: ReportData, plots_dir: str | Path | None,
                    want_svg: bool) -> tuple[list[Path], list[tuple[Plot, str]]]:
    """Write the plot files if asked; return them and each plot's SVG text for the page."""
    from .plots import all_plots, render, write_plot  # matplotlib only when plots are wanted

    written: list[Path] = []
    embedded: list[tuple[Plot, str]] = []
    if plots_dir is not None:
        output_folder(plots_dir)
    for plot in all_plots(data.records):
        svg = render(plot, "svg")
        if plots_dir is not None:
            written.extend(write_plot(plot, plots_dir, {"svg": svg}))
        if want_svg:
            embedded.append((plot, svg.decode("utf-8")))
    return written, embedded


def report(db_path: str | Path, html: str | Path | None = None, csv: str | Path | None = None,
           json_path: str | Path | None = None,
           plots: str | Path | None = None, session: int | None = None,
           timeout: float | None = None, all_sessions: bool = False,
           markdown_path: str | Path | None = None,
           latex_path: str | Path | None = None) -> ReportResult:
    """Load and judge `db_path`, write the outputs asked for, and say what was written.

    `session`, `timeout` and `all_sessions` choose the runs shown (see `load`).
    """
    data = load(db_path, session=session, timeout=timeout, all_sessions=all_sessions)
    written: list[Path] = []
    if csv is not None:
        written.append(write_text(csv, csv_text(data)))
    if json_path is not None:
        written.append(write_text(json_path, json_text(data)))
    if markdown_path is not None:
        written.append(write_text(markdown_path, markdown_text(data)))
    if latex_path is not None:
        written.append(write_text(latex_path, latex_text(data)))
    if plots is not None or html is not None:
        plot_files, embedded = _plots_and_svgs(data, plots, want_svg=html is not None)
        written.extend(plot_files)
        if html is not None:
            from .gallery import gallery
            from .html import page

            pictures = gallery(data.records, sorted({r.puzzle for r in data.records}))
            written.append(write_text(html, page(data, embedded, pictures)))
    return ReportResult(data, tuple(written))
