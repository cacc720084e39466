"""The report as one self-contained HTML page: tables, problems, provenance and plots.

One file that can be mailed or attached to a ticket and still show
everything: the CSS and one small script are inline and every plot is
inlined as an `<svg>` element (no image files, fonts, external scripts or
other requests), its ids prefixed with the plot's name so that plots inlined
together never share one. Hovering a point of a plot names its task (the
SVG's own `<title>` tooltips, twinsolve.bench.plots).

Sections, listed in a table of contents at the top: per puzzle, over which
tasks PAR-2 is taken (a task some back-end does not handle is left out for
every back-end alike), its summary table with every column (as `twinsolve
report --wide` prints it), the per-task table (one row per instance file and
seed, one column per back-end: status and wall time, the fastest solved run
highlighted), and its plots; the runs judged wrong or that failed (crash,
memout, error) with their messages; the files the session skipped as
invalid; and the provenance of every benchmark session (versions, commit,
host, CPU, command line).

Tables with class `sortable` sort by a column when its header is clicked
(again: the other way). A cell's `data-sort` holds its sort key (a number:
the time of a solved run, unsolved runs after every solved one); cells
without one sort by their text.

`compare_page` is the page of `twinsolve report A B`: the two databases'
comparison table per puzzle and, per back-end, the time scatter of A against
B. Nothing on either page depends on the time it was made, so the same
databases give the same page.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.result import Status
from .columns import COLUMNS, COMPARE_COLUMNS, DEFINITIONS, RATIO_NOTE, Column, format_value
from .comparison import Comparison
from .records import RunRecord
from .results import ReportData
from .scores import Task, is_virtual_best, scope_notes, task_of, winners

if TYPE_CHECKING:  # the pictures and plots come drawn; only their types are named here
    from .gallery import Picture
    from .plots import Plot

__all__ = ["page", "compare_page", "inline_svg", "PROBLEM_LIMIT", "SORT_SCRIPT"]

PROBLEM_LIMIT = 200   # rows in the problems table; the CSV export has every run
_PROBLEMS = (Status.WRONG, Status.CRASH, Status.MEMOUT, Status.ERROR)
_UNSOLVED_KEY = 1e9   # sort key offset: every unsolved run after every solved one
_STATUS_ORDER = tuple(Status)

_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       margin: 2em auto; max-width: 1200px; padding: 0 1em; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin-top: 1.4em; }
p.meta, p.note { color: #555; margin-top: 0; }
nav ul { margin: 0.2em 0; padding-left: 1.4em; }
nav > ul > li { margin-top: 0.3em; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 13px; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #e4e4e4; vertical-align: top; }
th { background: #f3f3f3; text-align: left; white-space: nowrap; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th:hover { background: #e6e6e6; }
th[aria-sort=ascending]::after { content: " \\25B2"; font-size: 0.8em; }
th[aria-sort=descending]::after { content: " \\25BC"; font-size: 0.8em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.vbs td { font-style: italic; color: #444; background: #fafafa; }
td.bad { color: #b00; font-weight: bold; }
td.msg, td.path { font-family: ui-monospace, monospace; font-size: 12px; }
td.run { white-space: nowrap; font-variant-numeric: tabular-nums; }
td.ok { color: #15602b; }
td.partial { color: #8a5a00; }
td.out { color: #777; }
td.none { color: #aaa; }
td.best { background: #d9f2df; font-weight: bold; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; border: 1px solid #e4e4e4; padding: 0.4em; }
figure svg { display: block; max-width: 100%; height: auto; }
figure.picture svg { width: 220px; max-height: 320px; }
figcaption { font-size: 12px; color: #555; }
"""

# Click a header of a `table.sortable` to sort its body rows by that column.
SORT_SCRIPT = """
(function () {
  function key(cell) {
    var v = cell.getAttribute("data-sort");
    return v === null ? cell.textContent.trim().toLowerCase() : parseFloat(v);
  }
  function sortBy(th) {
    var head = th.parentNode, body = th.closest("table").tBodies[0];
    var col = Array.prototype.indexOf.call(head.cells, th);
    var up = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(head.cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[col]), y = key(b.cells[col]);
      var c = (typeof x === "number" && typeof y === "number") ? x - y
        : String(x).localeCompare(String(y));
      return up ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.addEventListener("click", function (event) {
    var th = event.target.closest && event.target.closest("table.sortable thead th");
    if (th) { sortBy(th); }
  });
})();
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value))


def _id(*parts: str) -> str:
    return "-".join(re.sub(r"[^A-Za-z0-9_.-]+", "_", part) for part in parts)


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


def _table(headers: Sequence[str], rows: Iterable[str], sortable: bool = False,
           table_id: str = "") -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    attrs = (f' id="{table_id}"' if table_id else "") + (' class="sortable"' if sortable else "")
    return (f'<div class="scroll"><table{attrs}><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def _number(value: object) -> str:
    """A data-sort key for a value: numbers as they are, none after every number."""
    return repr(float(value)) if isinstance(value, int | float) else repr(2 * _UNSOLVED_KEY)


def _rows_table(columns: Sequence[Column], rows: Sequence[dict[str, Any]], table_id: str) -> str:
    """Summary-like rows (twinsolve.bench.tables columns) as a sortable table."""
    lines = []
    for row in rows:
        cells = []
        for column in columns:
            value = row.get(column.key)
            classes = ["num"] if column.numeric else []
            if column.alarm and value:
                classes.append("bad")
            attr = f' class="{" ".join(classes)}"' if classes else ""
            sort = f' data-sort="{_number(value)}"' if column.numeric else ""
            cells.append(f"<td{attr}{sort}>{_e(column.text(row))}</td>")
        vbs = ' class="vbs"' if is_virtual_best(row) else ""
        lines.append(f"<tr{vbs}>{''.join(cells)}</tr>")
    return _table([c.header for c in columns], lines, sortable=True, table_id=table_id)


# ------------------------------------------------------------------ the per-task table

def _run_class(record: RunRecord) -> str:
    if record.solved:
        return "ok"
    if record.status is Status.FEASIBLE:
        return "partial"
    if record.status in (Status.TIMEOUT, Status.MEMOUT, Status.UNSUPPORTED):
        return "out"
    return "bad"


def _run_cell(record: RunRecord | None, best: bool) -> str:
    if record is None:
        return f'<td class="run none" data-sort="{3 * _UNSOLVED_KEY!r}">not run</td>'
    key = record.wall_s if record.solved else \
        _UNSOLVED_KEY + _STATUS_ORDER.index(record.status) + record.wall_s / 1e6
    classes = f"run {_run_class(record)}" + (" best" if best else "")
    tip = f' title="{_e(record.message)}"' if record.message else ""
    # a run that did not start (unsupported) has no time worth showing
    time = "" if record.status is Status.UNSUPPORTED else \
        f" {format_value('median_s', record.wall_s)}"
    return f'<td class="{classes}" data-sort="{key!r}"{tip}>{_e(record.status.value + time)}</td>'



def _task_table(puzzle: str, runs: Sequence[RunRecord]) -> str:
    backends = sorted({r.backend for r in runs})
    by_task: dict[Task, dict[str, RunRecord]] = defaultdict(dict)
    for record in runs:
        by_task[task_of(record)].setdefault(record.backend, record)
    fastest = winners(runs)
    seeds = len({task[2] for task in by_task}) > 1
    lines = []
    for task in sorted(by_task, key=lambda t: (t[1], t[2], t[0])):
        _, path, seed = task
        cells = [f'<td class="path">{_e(path)}</td>']
        if seeds:
            cells.append(f'<td class="num" data-sort="{seed}">{seed}</td>')
        cells += [_run_cell(by_task[task].get(b), b in fastest.get(task, ())) for b in backends]
        lines.append(f"<tr>{''.join(cells)}</tr>")
    headers = ["instance", *(["seed"] if seeds else []), *backends]
    return _table(headers, lines, sortable=True, table_id=_id("tasks-table", puzzle))


# ------------------------------------------------------------------ sections

def _figures(plots: Sequence[tuple[Plot, str]]) -> str:
    figures = [f'<figure id="{_e(plot.stem)}">{inline_svg(svg, plot.stem)}'
               f"<figcaption>{_e(plot.title.replace(chr(10), ', '))} ({_e(plot.stem)}.svg)"
               "</figcaption></figure>"
               for plot, svg in plots]
    return f'<div class="plots">{"".join(figures)}</div>' if figures else \
        "<p>No plot: no run to draw.</p>"


def _scope(rows: Sequence[dict[str, Any]]) -> str:
    first = rows[0]
    text = f"{scope_notes(rows)[str(first['puzzle'])]}. "
    text += ("PAR-2 is the mean over these tasks of the wall time when solved, else twice the "
             "time limit; it is taken over the same tasks for every back-end")
    if first.get("excluded"):
        text += (": a task that some back-end does not handle (unsupported) is left out for "
                 "every back-end alike")
    return f'<p class="note">{_e(text)}.</p>'


def _puzzles(data: ReportData) -> list[str]:
    return sorted({str(row["puzzle"]) for row in data.summary})


def _puzzle_section(data: ReportData, puzzle: str, plots: Sequence[tuple[Plot, str]],
                    pictures: dict[str, Sequence[Picture]]) -> str:
    rows = [row for row in data.summary if row["puzzle"] == puzzle]
    runs = [r for r in data.records if r.puzzle == puzzle]
    return (f'<h2 id="{_id("puzzle", puzzle)}">{_e(puzzle)}</h2>{_scope(rows)}'
            f'<h3 id="{_id("summary", puzzle)}">Summary</h3>'
            f"{_rows_table(COLUMNS[1:], rows, _id('summary-table', puzzle))}"
            f'<p class="note">{_e(DEFINITIONS)}. Click a column header to sort.</p>'
            f'<h3 id="{_id("tasks", puzzle)}">Per task</h3>'
            '<p class="note">One row per instance file; each cell the run\'s status and wall '
            "time, the fastest solved run of the task highlighted. Click a header to sort: "
            "by a back-end's column, its solved runs fastest first.</p>"
            f"{_task_table(puzzle, runs)}"
            f'<h3 id="{_id("plots", puzzle)}">Plots</h3>'
            '<p class="note">Hover a point to see its task.</p>'
            f"{_figures([(plot, svg) for plot, svg in plots if plot.puzzle == puzzle])}"
            f"{_pictures(puzzle, pictures.get(puzzle, ()))}")


def _pictures(puzzle: str, pictures: Sequence[Picture]) -> str:
    """The gallery of `twinsolve.bench.gallery`: inline SVGs, each with its caption."""
    if not pictures:
        return ""
    figures = []
    for index, picture in enumerate(pictures):
        body = inline_svg(picture.svg, f"pic-{puzzle}-{index}") if picture.svg is not None \
            else f'<p class="note">{_e(picture.why)}</p>'
        figures.append(f'<figure class="picture">{body}<figcaption>{_e(picture.caption)}'
                       "</figcaption></figure>")
    return (f'<h3 id="{_id("pictures", puzzle)}">Pictures</h3>'
            '<p class="note">A few solved instances with the answer the run returned, then each '
            "back-end's slowest solved instance.</p>"
            f'<div class="plots">{"".join(figures)}</div>')


def _problems(data: ReportData) -> str:
    bad = [(raw, r) for raw, r in zip(data.rows, data.records, strict=True)
           if r.status in _PROBLEMS]
    if not bad:
        return '<h2 id="problems">Problems</h2><p>No run was judged wrong, crashed, ran out ' \
               "of memory or failed with an error.</p>"
    lines = [f"<tr><td>{_e(r.puzzle)}</td><td class=\"path\">{_e(r.path)}</td>"
             f"<td>{_e(r.backend)}</td><td class=\"num\">{r.seed}</td>"
             f"<td>{_e(raw['status'])}</td><td class=\"bad\">{_e(r.status.value)}</td>"
             f"<td class=\"msg\">{_e(r.message)}</td></tr>"
             for raw, r in bad[:PROBLEM_LIMIT]]
    more = (f"<p>… and {len(bad) - PROBLEM_LIMIT} more (every run is in the --csv export).</p>"
            if len(bad) > PROBLEM_LIMIT else "")
    headers = ["puzzle", "instance", "back-end", "seed", "stored", "verdict", "message"]
    return (f'<h2 id="problems">Problems ({len(bad)})</h2>'
            f"{_table(headers, lines, sortable=True)}{more}")


def _invalid(data: ReportData) -> str:
    invalid = getattr(data, "invalid", ())
    if not invalid:
        return ""
    items = "".join(f'<li class="msg">{_e(line)}</li>' for line in invalid)
    return (f'<h2 id="invalid">Invalid files ({len(invalid)})</h2>'
            f"<p>Skipped by the session shown (--skip-invalid):</p><ul>{items}</ul>")


def _sessions(sessions: Sequence[dict[str, Any]]) -> str:
    if not sessions:
        return '<h2 id="sessions">Sessions</h2><p>No benchmark session is recorded.</p>'
    keys = list(sessions[0])
    lines = ["<tr>" + "".join(f"<td>{_e(s.get(k))}</td>" for k in keys) + "</tr>"
             for s in sessions]
    return f'<h2 id="sessions">Sessions (provenance)</h2>{_table(keys, lines)}'


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _toc(entries: Sequence[tuple[str, str, Sequence[tuple[str, str]]]]) -> str:
    """A nested list of links: (anchor, text, [(anchor, text), ...]) per section."""
    items = []
    for anchor, text, subs in entries:
        inner = "".join(f'<li><a href="#{a}">{_e(t)}</a></li>' for a, t in subs)
        items.append(f'<li><a href="#{anchor}">{_e(text)}</a>'
                     + (f"<ul>{inner}</ul>" if inner else "") + "</li>")
    return f'<nav id="contents"><h2>Contents</h2><ul>{"".join(items)}</ul></nav>'


def _document(title: str, heading: str, meta: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{_e(title)}</title><style>{_CSS}</style></head>\n"
        f"<body><h1>{_e(heading)}</h1><p class=\"meta\">{meta}</p>{body}"
        f"<script>{SORT_SCRIPT}</script></body></html>\n")


def _plot_links(plots: Sequence[tuple[Plot, str]], puzzle: str) -> list[tuple[str, str]]:
    return [(_e(plot.stem), plot.title.replace("\n", ", "))
            for plot, _ in plots if plot.puzzle == puzzle]


def page(data: ReportData, plots: Sequence[tuple[Plot, str]] = (),
         pictures: dict[str, Sequence[Picture]] | None = None) -> str:
    """The whole page; `plots` pairs each plot with its SVG text, in display order;
    `pictures` holds each puzzle's gallery (`twinsolve.bench.gallery`)."""
    pictures = pictures or {}
    puzzles = _puzzles(data)
    selection = getattr(data, "selection", "") or _count(len(data.rows), "run")
    overview = (f"shown: {selection} · {_count(len(data.sessions), 'session')} in the database "
                f"· puzzles: {', '.join(puzzles) or 'none'}")
    meta = f"{_e(data.db)} · {_e(overview)}"
    toc = [(_id("puzzle", p), p, [(_id("summary", p), "summary"), (_id("tasks", p), "per task"),
                                  (_id("plots", p), "plots"), *_plot_links(plots, p),
                                  *([(_id("pictures", p), "pictures")] if pictures.get(p)
                                    else [])])
           for p in puzzles]
    toc.append(("problems", "Problems", []))
    if getattr(data, "invalid", ()):
        toc.append(("invalid", "Invalid files", []))
    toc.append(("sessions", "Sessions (provenance)", []))
    sections = "".join(_puzzle_section(data, p, plots, pictures) for p in puzzles) \
        if data.rows \
        else "<p>The database holds no runs.</p>"
    body = f"{_toc(toc)}{sections}{_problems(data)}{_invalid(data)}{_sessions(data.sessions)}"
    return _document(f"twinsolve report: {data.db.name}", "twinsolve report", meta, body)


# ------------------------------------------------------------------ two databases

def compare_page(comparison: Comparison, plots: Sequence[tuple[Plot, str]] = ()) -> str:
    """The page of two databases side by side; `plots` as for `page` (compare plots)."""
    a, b = comparison.before, comparison.after
    meta = f"A = {_e(a.db)} · {_e(a.selection)}<br>B = {_e(b.db)} · {_e(b.selection)}"
    puzzles = list(comparison.notes)
    toc = [(_id("puzzle", p), p, [(_id("compare", p), "comparison"), *_plot_links(plots, p)])
           for p in puzzles]
    sections = []
    for puzzle in puzzles:
        rows = [r for r in comparison.rows if r["puzzle"] == puzzle]
        mine = [(plot, svg) for plot, svg in plots if plot.puzzle == puzzle]
        sections.append(
            f'<h2 id="{_id("puzzle", puzzle)}">{_e(puzzle)}</h2>'
            f'<p class="note">{_e(comparison.notes[puzzle])}.</p>'
            f'<h3 id="{_id("compare", puzzle)}">Comparison</h3>'
            f"{_rows_table(COMPARE_COLUMNS[1:], rows, _id('compare-table', puzzle))}"
            f'<p class="note">{_e(RATIO_NOTE)}.</p>'
            '<p class="note">Each plot: the same tasks in A (x) and in B (y); below the '
            "diagonal B was faster. Hover a point to see its task.</p>"
            f"{_figures(mine)}")
    body = _toc(toc) + ("".join(sections) or "<p>Neither database holds runs.</p>")
    return _document(f"twinsolve report: {a.db.name} against {b.db.name}",
                     "twinsolve report: A against B", meta, body)
