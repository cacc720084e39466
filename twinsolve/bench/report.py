"""`twinsolve report`: a results database read back as tables, files and plots.

The database that `twinsolve bench` wrote (twinsolve.bench.store) is opened
on a connection that cannot write (never created, never changed), so a
report can be made while a benchmark is still adding runs; what it reads is
one consistent snapshot. Every stored run is judged again
(twinsolve.bench.verdict) against its instance's metadata and against the
other back-ends, so a run stored as `solved` may be reported as `wrong`; the
stored status stays beside the verdict in every export.

Outputs, each written atomically (twinsolve.core.atomic):
- the summary rows (twinsolve.bench.summary), which the CLI prints as a table;
- `--csv FILE`: one row per run, every stored column in table order, with
  `verdict` after `status` and `verdict_message` (why a run was judged
  `wrong`, else the stored message) after `message`; JSON-valued columns
  (stats, solution, metadata) stay JSON text;
- `--json FILE`: {"database", "summary", "sessions", "runs"}; runs hold the
  same fields as the CSV, with the JSON-valued columns decoded;
- `--plots DIR`: PNG and SVG of every plot (twinsolve.bench.plots);
- `--html FILE`: one self-contained page (twinsolve.bench.html).

A path that does not exist, or a file that is not a twinsolve results
database, is a `UsageError` with one line naming it.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.atomic import output_folder, write_text
from .records import RunRecord
from .store import Store
from .summary import SummaryRow, summarise
from .verdict import judge

if TYPE_CHECKING:
    from .plots import Plot

__all__ = ["ReportData", "ReportResult", "load", "run_rows", "csv_text", "json_text", "report"]

_JSON_COLUMNS = ("stats", "solution", "metadata")


@dataclass(frozen=True)
class ReportData:
    """A results database loaded and judged: what every output is made from."""

    db: Path
    columns: tuple[str, ...]                 # the runs table's columns, in table order
    rows: tuple[dict[str, Any], ...]         # the stored runs, raw, ordered by id
    records: tuple[RunRecord, ...]           # the same runs, judged (same order)
    sessions: tuple[dict[str, Any], ...]     # provenance, one per bench invocation
    summary: tuple[SummaryRow, ...]


@dataclass(frozen=True)
class ReportResult:
    """What `report` loaded and the files it wrote, in the order written."""

    data: ReportData
    written: tuple[Path, ...] = field(default_factory=tuple)

    @property
    def summary(self) -> list[SummaryRow]:
        return list(self.data.summary)


def _raw_runs(connection: sqlite3.Connection) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    cursor = connection.execute("SELECT * FROM runs ORDER BY id")
    columns = tuple(d[0] for d in cursor.description)
    return columns, [dict(zip(columns, row, strict=True)) for row in cursor]


def load(db_path: str | Path) -> ReportData:
    """Read and judge a results database; UsageError if it is missing or not one."""
    path = Path(db_path)
    with Store.open_read_only(path) as store:
        # One read transaction: the raw rows and the records are the same snapshot,
        # even while a benchmark is still adding runs.
        with store.reading():
            columns, rows = _raw_runs(store.db)
            records = judge(store.records())
            sessions = store.sessions()
    return ReportData(path, columns, tuple(rows), tuple(records), tuple(sessions),
                      tuple(summarise(records)))


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
           plots: str | Path | None = None) -> ReportResult:
    """Load and judge `db_path`, write the outputs asked for, and say what was written."""
    data = load(db_path)
    written: list[Path] = []
    if csv is not None:
        written.append(write_text(csv, csv_text(data)))
    if json_path is not None:
        written.append(write_text(json_path, json_text(data)))
    if plots is not None or html is not None:
        plot_files, embedded = _plots_and_svgs(data, plots, want_svg=html is not None)
        written.extend(plot_files)
        if html is not None:
            from .html import page

            written.append(write_text(html, page(data, embedded)))
    return ReportResult(data, tuple(written))
