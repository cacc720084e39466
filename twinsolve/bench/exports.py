"""The report's files as text: the runs as CSV and JSON, the summary and the comparison as
Markdown and LaTeX.

- `csv_text`: one row per run, every stored column in table order, with
  `verdict` after `status` and `verdict_message` (why a run was judged
  `wrong`, else the stored message) after `message`; JSON-valued columns
  (stats, solution, metadata) stay JSON text;
- `json_text`: {"database", "summary", "sessions", "runs"}; runs hold the
  same fields as the CSV, with the JSON-valued columns decoded;
- `markdown_text`, `latex_text`: the summary table with every column, for a
  README or a paper (Markdown pipe table; LaTeX booktabs `tabular`), with
  over which tasks each puzzle's PAR-2 is taken;
- `comparison_markdown_text`, `comparison_latex_text`: the same for two
  databases side by side, with what A and B are.

Renderers over the loaded data (twinsolve.bench.results,
twinsolve.bench.comparison) and its columns (twinsolve.bench.columns,
drawn by twinsolve.bench.tables); the commands write the text.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from .columns import COLUMNS, COMPARE_COLUMNS, DEFINITIONS, RATIO_NOTE, Row
from .comparison import Comparison
from .results import ReportData
from .scores import is_virtual_best, scope_notes
from .tables import latex, markdown

__all__ = ["run_rows", "csv_text", "json_text", "markdown_text", "latex_text",
           "comparison_markdown_text", "comparison_latex_text"]

_JSON_COLUMNS = ("stats", "solution", "metadata")


def _new_puzzle(previous: Row, row: Row) -> bool:
    """A LaTeX table's rule goes between two puzzles."""
    return previous["puzzle"] != row["puzzle"]


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
                 rule_before=_new_puzzle)


# ------------------------------------------------------------------ two databases

def _comparison_comment(comparison: Comparison) -> str:
    return "\n".join([f"twinsolve report: A = {comparison.before.db}, B = {comparison.after.db}",
                      *(f"{p}: {note}" for p, note in comparison.notes.items()), RATIO_NOTE])


def comparison_markdown_text(comparison: Comparison) -> str:
    """The comparison as a Markdown table, with what A and B are and the notes."""
    notes = "\n".join(f"- {p}: {note}" for p, note in comparison.notes.items())
    return (f"A = `{comparison.before.db}`, B = `{comparison.after.db}`\n\n"
            f"{markdown(COMPARE_COLUMNS, comparison.rows, emphasis=is_virtual_best)}\n{notes}\n\n"
            f"{RATIO_NOTE}\n")


def comparison_latex_text(comparison: Comparison) -> str:
    """The comparison as a booktabs `tabular`; what A and B are goes in a comment."""
    return latex(COMPARE_COLUMNS, comparison.rows, comment=_comparison_comment(comparison),
                 rule_before=_new_puzzle,
                 emphasis=is_virtual_best)
