"""The report's files as text: the runs as CSV, JSON and JSON Lines, the totals and the
comparison as Markdown and LaTeX.

- `csv_text`: one row per run, every stored column in table order, with
  `verdict` after `status` and `verdict_message` (why a run was judged
  `wrong`, else the stored message) after `message`, and the solution as
  `solution_sha256` and `solution_size`: the SHA-256 and the length in bytes
  of its JSON text as stored (UTF-8), so a row stays small whatever the
  answer (spreadsheets stop at 32,767 characters a cell; a longer cell of
  another column is replaced by a note saying so). The measurements are
  `wall_s`, `cpu_s`, `mem_mb` (peak MB the run added) and `load` (the host's
  load when it started; twinsolve.bench.records); JSON-valued columns (stats,
  metadata) stay JSON text;
- `json_text`: {"database", "totals", "warnings", "sessions", "tasks", "runs"};
  `tasks` has one entry per task and back-end, its repeats taken together
  (twinsolve.bench.repeats): the status (None where the repeats disagree:
  `flapping`, with `statuses`), the PAR-2 score, and each measure (`wall_s`,
  `cpu_s`, `mem_mb`, `nodes`) as {"median", "low", "high", "n"}; runs hold
  the same fields as the CSV, with the JSON-valued columns decoded;
- `solutions_text`: every run's full solution, one JSON object per line
  (JSON Lines): run id, instance, back-end, seed, status, the same SHA-256,
  and the solution;
- `markdown_text`, `latex_text`: the totals table with every column, for a
  README or a paper (Markdown pipe table; LaTeX booktabs `tabular`), with
  over which tasks each puzzle's PAR-2 is taken and the noise warnings;
- `comparison_markdown_text`, `comparison_latex_text`: two databases: what
  A and B are, their warnings, the changes in kind, every task that changed
  beyond noise with the rule that decided it, and the totals.

Renderers over the loaded data (twinsolve.bench.results,
twinsolve.bench.comparison) and its columns (twinsolve.bench.columns,
drawn by twinsolve.bench.tables); the commands write the text.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Sequence
from typing import Any

from .columns import (
    CHANGE_COLUMNS,
    COMPARE_COLUMNS,
    DEFINITIONS,
    MEASURES,
    RATIO_NOTE,
    TIME_COLUMNS,
    TOTALS_COLUMNS,
    Row,
)
from .comparison import Comparison, change_rows, time_rows
from .noise import RULE
from .repeats import Spread, task_runs
from .results import ReportData, facts
from .scores import is_virtual_best, scope_notes
from .tables import latex, markdown

__all__ = ["run_rows", "task_rows", "csv_text", "json_text", "solutions_text", "markdown_text",
           "latex_text", "comparison_markdown_text", "comparison_latex_text", "CELL_LIMIT"]

_JSON_COLUMNS = ("stats", "metadata")
CELL_LIMIT = 32_767   # characters: the most a spreadsheet cell holds (Excel, LibreOffice)


def _new_puzzle(previous: Row, row: Row) -> bool:
    """A LaTeX table's rule goes between two puzzles."""
    return previous["puzzle"] != row["puzzle"]


def _export_columns(columns: Sequence[str]) -> list[str]:
    """The stored columns with `verdict` after `status`, `verdict_message` after `message`
    and the solution as its hash and size."""
    after = {"status": ["verdict"], "message": ["verdict_message"]}
    out = []
    for name in columns:
        out += ["solution_sha256", "solution_size"] if name == "solution" else [name]
        out += after.get(name, [])
    return out


def _digest(text: str | None) -> tuple[str | None, int | None]:
    if text is None:
        return None, None
    data = text.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest(), len(data)


def run_rows(data: ReportData) -> list[dict[str, Any]]:
    """One dict per run: the stored values (the solution as its hash and size), plus the
    verdict and its message."""
    rows = []
    for raw, judged in zip(data.rows, data.records, strict=True):
        sha, size = _digest(raw.get("solution"))
        row = {**raw, "verdict": judged.status.value, "verdict_message": judged.message,
               "solution_sha256": sha, "solution_size": size}
        rows.append({name: row.get(name) for name in _export_columns(data.columns)})
    return rows


def _cell(value: Any) -> Any:
    """A value a spreadsheet cell can hold: a longer text is replaced by a note."""
    if isinstance(value, str) and len(value) > CELL_LIMIT:
        sha, size = _digest(value)
        return (f"({size} bytes, too long for a spreadsheet cell; sha256 {sha}; the --json "
                "export has it)")
    return value


def csv_text(data: ReportData) -> str:
    """The runs as CSV: a header, then one line per run (None as an empty cell)."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=_export_columns(data.columns),
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: _cell(v) for k, v in row.items()} for row in run_rows(data))
    return buffer.getvalue()


def solutions_text(data: ReportData) -> str:
    """Every run that returned a solution, one JSON object per line (JSON Lines)."""
    lines = []
    for raw in data.rows:
        text = raw.get("solution")
        if text is None:
            continue
        sha, _ = _digest(text)
        lines.append(json.dumps({
            "run_id": raw.get("id"), "instance": raw.get("instance_path"),
            "backend": raw.get("backend_spec"), "seed": raw.get("seed"),
            "status": raw.get("status"), "sha256": sha, "solution": json.loads(text)}))
    return "".join(f"{line}\n" for line in lines)


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    for name in _JSON_COLUMNS:
        if isinstance(out.get(name), str):
            try:
                out[name] = json.loads(out[name])
            except ValueError:
                pass  # not JSON after all: keep the text as stored
    return out


def _spread(spread: Spread | None) -> dict[str, float] | None:
    if spread is None:
        return None
    return {"median": spread.median, "low": spread.low, "high": spread.high, "n": spread.n}


def task_rows(data: ReportData) -> list[dict[str, Any]]:
    """One dict per task and back-end: its repeats taken together (the module docstring)."""
    return [{"puzzle": entry.puzzle, "task": entry.name, "backend": entry.backend,
             "status": None if entry.status is None else entry.status.value,
             "flapping": entry.flapping, "statuses": entry.statuses(), "solved": entry.solved,
             "runs": len(entry.runs), "par2_s": entry.par2, "wall_s": _spread(entry.wall),
             "cpu_s": _spread(entry.cpu), "mem_mb": _spread(entry.mem),
             "nodes": _spread(entry.nodes)}
            for entry in task_runs(data.records)]


def json_text(data: ReportData) -> str:
    """Totals, sessions, tasks and runs as one JSON document."""
    document = {
        "database": str(data.db),
        "totals": list(data.totals),
        "warnings": list(data.warnings),
        "sessions": list(data.sessions),
        "tasks": task_rows(data),
        "runs": [_decoded(row) for row in run_rows(data)],
    }
    return json.dumps(document, indent=1) + "\n"


def _warned(lines: Sequence[str], prefix: str = "") -> str:
    return "".join(f"- **warning**: {prefix}{line}\n" for line in lines)


def markdown_text(data: ReportData) -> str:
    """The totals as a Markdown table (every column), then what PAR-2 is taken over, the
    measures, the facts of the runs and the warnings."""
    notes = "".join(f"- {puzzle}: {note}\n" for puzzle, note in scope_notes(data.totals).items())
    said = "".join(f"- {label}: {text}\n" for label, text in facts(data))
    warned = _warned(data.warnings)
    return (f"{markdown(TOTALS_COLUMNS, data.totals, emphasis=is_virtual_best)}\n{notes}\n"
            f"{DEFINITIONS}.\n\n{MEASURES}.\n\n{said}" + (f"\n{warned}" if warned else ""))


def latex_text(data: ReportData) -> str:
    """The totals as a booktabs `tabular` (a rule between puzzles); the notes as comments."""
    comment = "\n".join([f"twinsolve report: {data.db}",
                         *(f"{p}: {note}" for p, note in scope_notes(data.totals).items()),
                         DEFINITIONS, MEASURES,
                         *(f"{label}: {text}" for label, text in facts(data)),
                         *(f"warning: {line}" for line in data.warnings)])
    return latex(TOTALS_COLUMNS, data.totals, comment=comment, emphasis=is_virtual_best,
                 rule_before=_new_puzzle)


# ------------------------------------------------------------------ two databases

def _sides(comparison: Comparison) -> list[str]:
    """One line each for A and B: the database, the runs shown and the facts."""
    lines = []
    for name, data in (("A", comparison.before), ("B", comparison.after)):
        said = " · ".join(f"{label} {text}" for label, text in facts(data))
        lines.append(f"{name} = {data.db} · {data.selection} · {said}")
    return lines


def _comparison_comment(comparison: Comparison) -> str:
    return "\n".join(["twinsolve report: A against B", *_sides(comparison),
                      *(f"{p}: {note}" for p, note in comparison.notes.items()), RATIO_NOTE,
                      RULE.format(threshold=comparison.threshold), comparison.time_headline()])


def _comparison_warnings(comparison: Comparison) -> list[str]:
    return [f"{name}: {line}" for name, data in (("A", comparison.before),
                                                  ("B", comparison.after))
            for line in data.warnings]


def comparison_markdown_text(comparison: Comparison) -> str:
    """The comparison in Markdown: A and B, warnings, changes in kind, the tasks that
    changed beyond noise, and the totals with their notes."""
    sides = "".join(f"- {line}\n" for line in _sides(comparison))
    warned = "".join(f"- **warning**: {line}\n" for line in _comparison_warnings(comparison))
    changes = change_rows(comparison.changes)
    kinds = markdown(CHANGE_COLUMNS, changes) if changes else "Nothing: every task kept its " \
        "status.\n"
    changed = comparison.changed_times
    same = len(comparison.times) - len(changed)
    times = (markdown(TIME_COLUMNS, time_rows(changed)) if changed
             else "No task changed beyond noise.\n")
    notes = "\n".join(f"- {p}: {note}" for p, note in comparison.notes.items())
    return (f"# twinsolve report: A against B\n\n{sides}\n"
            + (f"{warned}\n" if warned else "")
            + f"## Changed in kind ({len(changes)})\n\n{kinds}\n"
            f"## Time: {len(changed)} changed beyond noise, {same} the same\n\n"
            f"{comparison.time_headline()}.\n\n"
            f"{RULE.format(threshold=comparison.threshold)}.\n\n{times}\n"
            f"## Totals\n\n"
            f"{markdown(COMPARE_COLUMNS, comparison.rows, emphasis=is_virtual_best)}\n{notes}\n\n"
            f"{RATIO_NOTE}.\n")


def comparison_latex_text(comparison: Comparison) -> str:
    """The comparison as booktabs `tabular`s: the totals, then the changes in kind and the
    tasks that changed beyond noise where there are any; what A and B are goes in a
    comment."""
    comment = _comparison_comment(comparison)
    comment += "".join(f"\nwarning: {line}" for line in _comparison_warnings(comparison))
    parts = [latex(COMPARE_COLUMNS, comparison.rows, comment=comment, rule_before=_new_puzzle,
                   emphasis=is_virtual_best)]
    if comparison.changes:
        parts.append(latex(CHANGE_COLUMNS, change_rows(comparison.changes),
                           comment="changed in kind"))
    if comparison.changed_times:
        parts.append(latex(TIME_COLUMNS, time_rows(comparison.changed_times),
                           comment="tasks that changed beyond noise"))
    return "\n".join(parts)
