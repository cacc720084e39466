"""The report as one self-contained HTML page: tables, problems, provenance and plots.

One file that can be mailed or attached to a ticket and still show
everything: the CSS is inline and every plot is inlined as an `<svg>`
element (no image files, scripts, fonts or other requests), its ids prefixed
with the plot's name so that plots inlined together never share one.

Sections: an overview; per puzzle, its summary table (as `twinsolve report`
prints it) followed by its plots; the runs judged wrong or that failed
(crash, memout, error) with their messages; and the provenance of every
benchmark session (versions, commit, host, CPU, command line). Nothing on the
page depends on the time it was made, so the same database gives the same
page.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.result import Status
from .summary import COLUMNS, VIRTUAL_BEST, format_value

if TYPE_CHECKING:
    from .plots import Plot
    from .report import ReportData

__all__ = ["page", "inline_svg", "PROBLEM_LIMIT"]

PROBLEM_LIMIT = 200   # rows in the problems table; the CSV export has every run
_PROBLEMS = (Status.WRONG, Status.CRASH, Status.MEMOUT, Status.ERROR)
_RIGHT = frozenset(key for _, key in COLUMNS if key not in ("puzzle", "backend"))

_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       margin: 2em auto; max-width: 1200px; padding: 0 1em; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
p.meta { color: #555; margin-top: 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 13px; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #e4e4e4; vertical-align: top; }
th { background: #f3f3f3; text-align: left; white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.vbs td { font-style: italic; color: #444; background: #fafafa; }
td.bad { color: #b00; font-weight: bold; }
td.msg, td.path { font-family: ui-monospace, monospace; font-size: 12px; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; border: 1px solid #e4e4e4; padding: 0.4em; }
figure svg { display: block; max-width: 100%; height: auto; }
figcaption { font-size: 12px; color: #555; }
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value))


_ID = re.compile(r'(\bid="|\bhref="#|url\(#)([^")]+)')


def inline_svg(svg: str, prefix: str) -> str:
    """An SVG document as an element to inline in a page with others.

    The XML prolog and doctype go, and every id (and each reference to one)
    gets `prefix`, so the ids of several plots on one page never collide.

    >>> inline_svg('<?xml?><svg><g id="a" clip-path="url(#c)"/></svg>', "p1")
    '<svg><g id="p1-a" clip-path="url(#p1-c)"/></svg>'
    """
    start = svg.find("<svg")
    if start < 0:
        return ""
    return _ID.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", svg[start:])


def _table(headers: Sequence[str], rows: Iterable[str]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    return (f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def _summary_table(rows: Sequence[dict[str, Any]]) -> str:
    lines = []
    for row in rows:
        cells = []
        for _, key in COLUMNS:
            classes = ["num"] if key in _RIGHT else []
            if key == "wrong" and row[key]:
                classes.append("bad")
            attr = f' class="{" ".join(classes)}"' if classes else ""
            cells.append(f"<td{attr}>{_e(format_value(key, row[key]))}</td>")
        vbs = ' class="vbs"' if row["backend"] == VIRTUAL_BEST else ""
        lines.append(f"<tr{vbs}>{''.join(cells)}</tr>")
    return _table([header for header, _ in COLUMNS], lines)


def _plots(plots: Sequence[tuple[Plot, str]]) -> str:
    figures = [f'<figure id="{_e(plot.stem)}">{inline_svg(svg, plot.stem)}'
               f"<figcaption>{_e(plot.title)} ({_e(plot.stem)})</figcaption></figure>"
               for plot, svg in plots]
    return f'<div class="plots">{"".join(figures)}</div>' if figures else ""


def _puzzle_sections(data: ReportData, plots: Sequence[tuple[Plot, str]]) -> str:
    puzzles = sorted({str(row["puzzle"]) for row in data.summary})
    parts = []
    for puzzle in puzzles:
        rows = [row for row in data.summary if row["puzzle"] == puzzle]
        mine = [(plot, svg) for plot, svg in plots if plot.puzzle == puzzle]
        parts.append(f'<h2 id="puzzle-{_e(puzzle)}">{_e(puzzle)}</h2>'
                     f"{_summary_table(rows)}{_plots(mine)}")
    return "".join(parts)


def _problems(data: ReportData) -> str:
    bad = [(raw, r) for raw, r in zip(data.rows, data.records, strict=True)
           if r.status in _PROBLEMS]
    if not bad:
        return "<h2>Problems</h2><p>No run was judged wrong, crashed, ran out of memory " \
               "or failed with an error.</p>"
    lines = [f"<tr><td>{_e(r.puzzle)}</td><td class=\"path\">{_e(r.path)}</td>"
             f"<td>{_e(r.backend)}</td><td class=\"num\">{r.seed}</td>"
             f"<td>{_e(raw['status'])}</td><td class=\"bad\">{_e(r.status.value)}</td>"
             f"<td class=\"msg\">{_e(r.message)}</td></tr>"
             for raw, r in bad[:PROBLEM_LIMIT]]
    more = (f"<p>… and {len(bad) - PROBLEM_LIMIT} more (every run is in the --csv export).</p>"
            if len(bad) > PROBLEM_LIMIT else "")
    headers = ["puzzle", "instance", "back-end", "seed", "stored", "verdict", "message"]
    return f"<h2>Problems ({len(bad)})</h2>{_table(headers, lines)}{more}"


def _sessions(sessions: Sequence[dict[str, Any]]) -> str:
    if not sessions:
        return "<h2>Sessions</h2><p>No benchmark session is recorded.</p>"
    keys = list(sessions[0])
    lines = ["<tr>" + "".join(f"<td>{_e(s.get(k))}</td>" for k in keys) + "</tr>"
             for s in sessions]
    return f"<h2>Sessions (provenance)</h2>{_table(keys, lines)}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def page(data: ReportData, plots: Sequence[tuple[Plot, str]] = ()) -> str:
    """The whole page; `plots` pairs each plot with its SVG text, in display order."""
    puzzles = sorted({r.puzzle for r in data.records})
    overview = (f"{_count(len(data.rows), 'run')}, {_count(len(data.sessions), 'session')}, "
                f"puzzles: {', '.join(puzzles) or 'none'}")
    body = _puzzle_sections(data, plots) if data.rows else "<p>The database holds no runs.</p>"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>twinsolve report: {_e(data.db.name)}</title><style>{_CSS}</style></head>\n"
        f"<body><h1>twinsolve report</h1><p class=\"meta\">{_e(data.db)} · {_e(overview)}</p>"
        f"{body}{_problems(data)}{_sessions(data.sessions)}</body></html>\n")
