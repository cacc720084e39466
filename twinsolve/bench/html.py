"""The report as one self-contained HTML page: its first screen, the tables, runs, plots.

One file that can be mailed or attached to a ticket and still show
everything: the CSS and the scripts are inline (twinsolve.bench.html_parts),
every plot is
inlined as an `<svg>` element, its ids prefixed with the plot's name so that
plots inlined together never share one, and the runs' details travel as one
JSON block (no image files, fonts, external scripts or other requests).
Hovering a point of a plot names its task (the SVG's own `<title>`
tooltips, twinsolve.bench.plots).

The first screen (1280 x 800 and up) holds, without scrolling: the header —
the title, the database and the runs shown, then the limits, the host, its
load, the date and twinsolve's version (twinsolve.bench.results.facts) — and
the overview across all puzzles: per back-end its tasks, solved, wrong (and
flapping) and PAR-2, one cell per puzzle (solved of tasks, PAR-2) and the
virtual best. Below it the warnings about noise (twinsolve.bench.noise) and
the contents, collapsed.

Then per puzzle: over which tasks PAR-2 is taken, its totals table with
every column, the per-task table (one row per instance file, one column per
back-end; each cell the task's status and median wall time, the fastest
solved task highlighted), its plots and pictures; then the problems, the
invalid files and the provenance of every session. The per-task table
(twinsolve.bench.task_table) has controls: a status filter (all tasks, only
problems — a task some back-end did not solve, or flapping — or only
differences — back-ends whose statuses differ), a choice of back-end
columns, and what each cell shows (wall time, the repeats' range, CPU time,
memory, nodes). Clicking a cell opens its run details: every repeat's
status, times, memory, load, nodes, message and stats, its answer, the
answer the file's metadata expects, and the task's picture.

Every table sorts by a column when its header is clicked (again: the other
way).

`compare_page` is the page of `twinsolve report A B`: both sides' facts and
warnings, the changes in kind, the tasks that changed beyond noise (all
tasks solved on both sides, filtered to those by default), the totals per
puzzle and, per back-end, the time scatter of A against B. Nothing on either
page depends on the time it was made, so the same databases give the same
page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.result import Status
from .columns import (
    CHANGE_COLUMNS,
    COMPARE_COLUMNS,
    DEFINITIONS,
    MEASURES,
    RATIO_NOTE,
    TIME_COLUMNS,
    TOTALS_COLUMNS,
    Column,
    format_value,
)
from .comparison import Comparison, change_rows, time_rows
from .html_parts import SORT_SCRIPT, anchor, document, escape, inline_svg, rows_table, table
from .noise import RULE, busy_sessions
from .results import ReportData, facts
from .scores import VIRTUAL_BEST, scope_notes
from .task_table import Details, task_table

if TYPE_CHECKING:  # the pictures and plots come drawn; only their types are named here
    from .gallery import Picture
    from .plots import Plot

# SORT_SCRIPT and inline_svg are named here for those who found them here first.
__all__ = ["page", "compare_page", "inline_svg", "PROBLEM_LIMIT", "SORT_SCRIPT"]

PROBLEM_LIMIT = 200   # rows in the problems table; the CSV export has every run
_PROBLEMS = (Status.WRONG, Status.CRASH, Status.MEMOUT, Status.ERROR)


# ------------------------------------------------------------------ the first screen

def _facts(data: ReportData, name: str = "") -> str:
    items = []
    busy = bool(busy_sessions(data.shown_sessions, data.rows))
    for label, text in facts(data):
        shown = f'<span class="busy">{escape(text)}: busier than its cores</span>' \
            if busy and label == "load" else escape(text)
        items.append(f"<div><dt>{escape(label)}</dt><dd>{shown}</dd></div>")
    ident = anchor("facts", name) if name else "facts"
    return f'<dl class="facts" id="{ident}">{"".join(items)}</dl>'


def _warnings(lines: Sequence[str]) -> str:
    if not lines:
        return ""
    return '<ul class="warnings" id="warnings">' + "".join(
        f"<li>warning: {escape(line)}</li>" for line in lines) + "</ul>"


def _overview(data: ReportData) -> str:
    """Per back-end across every puzzle: tasks, solved, wrong, flapping and PAR-2 (over all
    its tasks, when it ran every puzzle), then one cell per puzzle; the virtual best last."""
    puzzles = _puzzles(data)
    by = {(str(r["puzzle"]), str(r["backend"])): r for r in data.totals}
    backends = sorted({b for _, b in by if b != VIRTUAL_BEST})
    flapping = any(r.get("flapping") for r in data.totals)
    lines = []
    for backend in [*backends, VIRTUAL_BEST]:
        if backend == VIRTUAL_BEST:  # a puzzle with one back-end: that one is its best
            rows = {p: by.get((p, VIRTUAL_BEST)) or _only_row(by, p, backends) for p in puzzles}
        else:
            rows = {p: by.get((p, backend)) for p in puzzles}
        present = [r for r in rows.values() if r is not None]
        if not present:
            continue
        cells = [f"<td>{escape(backend)}</td>", _count_cell(sum(int(r["tasks"]) for r in present)),
                 _count_cell(sum(int(r["solved"]) for r in present)),
                 _count_cell(sum(int(r["wrong"]) for r in present), alarm=True)]
        if flapping:
            cells.append(_count_cell(sum(int(r.get("flapping") or 0) for r in present)))
        cells.append(f'<td class="num">{escape(format_value("par2", _overall_par2(rows)))}</td>')
        cells += [_puzzle_cell(rows[puzzle]) for puzzle in puzzles]
        vbs = ' class="vbs"' if backend == VIRTUAL_BEST else ""
        lines.append(f"<tr{vbs}>{''.join(cells)}</tr>")
    heads = "".join(f'<th class="pz"><a href="#{anchor("puzzle", p)}">{escape(p)}</a></th>'
                    for p in puzzles)
    counts = ["back-end", "tasks", "solved", "wrong", *(["flapping"] if flapping else []),
              "PAR-2 (all)"]
    # One narrow column per puzzle (solved over PAR-2), so a suite of many puzzles still
    # fits the first screen's width.
    return (f'<section id="overview"><h2>Overview</h2><div class="scroll">'
            f'<table id="overview-table"><thead><tr>'
            f'{"".join(f"<th>{escape(h)}</th>" for h in counts)}{heads}</tr></thead>'
            f"<tbody>{''.join(lines)}</tbody></table></div>"
            '<p class="note">PAR-2 (all): the mean over every task of the back-end\'s puzzles '
            "(only for a back-end that ran every puzzle). Under each puzzle: the tasks solved of "
            "its tasks, and its PAR-2 over the tasks every back-end of it handles.</p>"
            "</section>")


def _puzzle_cell(row: Mapping[str, Any] | None) -> str:
    if row is None:
        return '<td class="num pz"></td>'
    return (f'<td class="num pz">{escape(row["solved"])}/{escape(row["tasks"])}<br>'
            f'<span class="par2">{escape(format_value("par2", row["par2"]))}</span></td>')


def _only_row(by: Mapping[tuple[str, str], Any], puzzle: str,
              backends: Sequence[str]) -> Any:
    ran = [by[(puzzle, b)] for b in backends if (puzzle, b) in by]
    return ran[0] if len(ran) == 1 else None


def _count_cell(value: int, alarm: bool = False) -> str:
    return f'<td class="num{" bad" if alarm and value else ""}">{value}</td>'


def _overall_par2(rows: Mapping[str, Any]) -> float | None:
    present = list(rows.values())
    if not present or any(r is None or r.get("par2") is None for r in present):
        return None
    weight = sum(int(r["par2_tasks"]) for r in present)
    if not weight:
        return None
    return sum(float(r["par2"]) * int(r["par2_tasks"]) for r in present) / weight


def _toc(entries: Sequence[tuple[str, str, Sequence[tuple[str, str]]]]) -> str:
    """The contents, collapsed: (anchor, text, [(anchor, text), ...]) per section."""
    items = []
    for target, text, subs in entries:
        inner = "".join(f'<li><a href="#{a}">{escape(t)}</a></li>' for a, t in subs)
        items.append(f'<li><a href="#{target}">{escape(text)}</a>'
                     + (f"<ul>{inner}</ul>" if inner else "") + "</li>")
    return (f'<details id="contents"><summary>Contents ({len(entries)} sections)</summary>'
            f'<nav><ul>{"".join(items)}</ul></nav></details>')


# ------------------------------------------------------------------ sections

def _figures(plots: Sequence[tuple[Plot, str]]) -> str:
    figures = [f'<figure id="{escape(plot.stem)}">{inline_svg(svg, plot.stem)}'
               f"<figcaption>{escape(plot.title.replace(chr(10), ', '))} ({escape(plot.stem)}.svg)"
               "</figcaption></figure>"
               for plot, svg in plots]
    return f'<div class="plots">{"".join(figures)}</div>' if figures else \
        "<p>No plot: no run to draw.</p>"


def _scope(rows: Sequence[Mapping[str, Any]]) -> str:
    first = rows[0]
    text = f"{scope_notes(rows)[str(first['puzzle'])]}. "
    text += ("PAR-2 is the mean over these tasks of the wall time when solved, else twice the "
             "time limit; it is taken over the same tasks for every back-end")
    if first.get("excluded"):
        text += (": a task that some back-end does not handle (unsupported) is left out for "
                 "every back-end alike")
    return f'<p class="note">{escape(text)}.</p>'


def _puzzles(data: ReportData) -> list[str]:
    return sorted({str(row["puzzle"]) for row in data.totals})


def _totals_table(rows: Sequence[Mapping[str, Any]], puzzle: str) -> str:
    """A puzzle's totals: every column but the counts empty or 0 on every row, which a note
    names (as the terminal leaves them out), so the table fits the page."""
    columns = [c for c in TOTALS_COLUMNS[1:] if not (c.hide_zero and _all_zero(c, rows))]
    left = [c.header for c in TOTALS_COLUMNS[1:] if c not in columns]
    note = (f'<p class="note">Empty or 0 on every row, left out: {escape(", ".join(left))} '
            "(the --markdown, --latex and --json exports hold every column).</p>") if left else ""
    return rows_table(columns, rows, anchor("totals-table", puzzle)) + note


def _all_zero(column: Column, rows: Sequence[Mapping[str, Any]]) -> bool:
    return all(not row.get(column.key) for row in rows)


def _puzzle_section(data: ReportData, puzzle: str, plots: Sequence[tuple[Plot, str]],
                    pictures: Mapping[str, Sequence[Picture]], details: Details) -> str:
    rows = [row for row in data.totals if row["puzzle"] == puzzle]
    runs = [r for r in data.records if r.puzzle == puzzle]
    return (f'<h2 id="{anchor("puzzle", puzzle)}">{escape(puzzle)}</h2>{_scope(rows)}'
            f'<h3 id="{anchor("totals", puzzle)}">Totals</h3>{_totals_table(rows, puzzle)}'
            f'<p class="note">{escape(DEFINITIONS)}. {escape(MEASURES)}. Click a column header to '
            "sort.</p>"
            f'<h3 id="{anchor("tasks", puzzle)}">Per task</h3>'
            '<p class="note">One row per instance file; each cell the task\'s status (each '
            "status with its count where its repeats disagree) and median wall time, the "
            "fastest solved task highlighted. Click a cell for its runs' details, a header "
            "to sort (by a back-end's column: its solved tasks fastest first).</p>"
            f"{task_table(puzzle, runs, details)}"
            f'<h3 id="{anchor("plots", puzzle)}">Plots</h3>'
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
            else f'<p class="note">{escape(picture.why)}</p>'
        figures.append(f'<figure class="picture">{body}<figcaption>{escape(picture.caption)}'
                       "</figcaption></figure>")
    return (f'<h3 id="{anchor("pictures", puzzle)}">Pictures</h3>'
            '<p class="note">A few solved instances with the answer the run returned, then each '
            "back-end's slowest solved instance.</p>"
            f'<div class="plots">{"".join(figures)}</div>')


def _problems(data: ReportData) -> str:
    bad = [(raw, r) for raw, r in zip(data.rows, data.records, strict=True)
           if r.status in _PROBLEMS]
    if not bad:
        return '<h2 id="problems">Problems</h2><p>No run was judged wrong, crashed, ran out ' \
               "of memory or failed with an error.</p>"
    lines = [f"<tr><td>{escape(r.puzzle)}</td><td class=\"path\">{escape(r.path)}</td>"
             f"<td>{escape(r.backend)}</td><td class=\"num\">{r.seed}</td>"
             f"<td>{escape(raw['status'])}</td><td class=\"bad\">{escape(r.status.value)}</td>"
             f"<td class=\"msg\">{escape(r.message)}</td></tr>"
             for raw, r in bad[:PROBLEM_LIMIT]]
    more = (f"<p>… and {len(bad) - PROBLEM_LIMIT} more (every run is in the --csv export).</p>"
            if len(bad) > PROBLEM_LIMIT else "")
    headers = ["puzzle", "instance", "back-end", "seed", "stored", "verdict", "message"]
    return (f'<h2 id="problems">Problems ({len(bad)})</h2>'
            f"{table(headers, lines, sortable=True)}{more}")


def _invalid(data: ReportData) -> str:
    invalid = getattr(data, "invalid", ())
    if not invalid:
        return ""
    items = "".join(f'<li class="msg">{escape(line)}</li>' for line in invalid)
    return (f'<h2 id="invalid">Invalid files ({len(invalid)})</h2>'
            f"<p>Skipped by the session shown (--skip-invalid):</p><ul>{items}</ul>")


def _sessions(sessions: Sequence[Mapping[str, Any]]) -> str:
    if not sessions:
        return '<h2 id="sessions">Sessions</h2><p>No benchmark session is recorded.</p>'
    keys = list(dict.fromkeys(k for s in sessions for k in s))
    lines = ["<tr>" + "".join(f"<td>{escape(s.get(k))}</td>" for k in keys) + "</tr>"
             for s in sessions]
    return f'<h2 id="sessions">Sessions (provenance)</h2>{table(keys, lines)}'


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _plot_links(plots: Sequence[tuple[Plot, str]], puzzle: str) -> list[tuple[str, str]]:
    return [(escape(plot.stem), plot.title.replace("\n", ", "))
            for plot, _ in plots if plot.puzzle == puzzle]


def page(data: ReportData, plots: Sequence[tuple[Plot, str]] = (),
         pictures: Mapping[str, Sequence[Picture]] | None = None,
         task_pictures: Mapping[str, Picture] | None = None) -> str:
    """The whole page; `plots` pairs each plot with its SVG text, in display order;
    `pictures` holds each puzzle's gallery and `task_pictures` each task's picture for its
    details (`twinsolve.bench.gallery`)."""
    pictures = pictures or {}
    puzzles = _puzzles(data)
    selection = getattr(data, "selection", "") or _count(len(data.rows), "run")
    meta = (f"{escape(data.db)} · shown: {escape(selection)} · "
            f"{escape(_count(len(data.sessions), 'session'))} in the database · puzzles: "
            f"{escape(', '.join(puzzles) or 'none')}")
    head = f'<h1>twinsolve report</h1><p class="meta">{meta}</p>{_facts(data)}'
    toc = [(anchor("puzzle", p), p, [(anchor("totals", p), "totals"),
                                     (anchor("tasks", p), "per task"),
                                     (anchor("plots", p), "plots"), *_plot_links(plots, p),
                                     *([(anchor("pictures", p), "pictures")] if pictures.get(p)
                                       else [])])
           for p in puzzles]
    toc.append(("problems", "Problems", []))
    if getattr(data, "invalid", ()):
        toc.append(("invalid", "Invalid files", []))
    toc.append(("sessions", "Sessions (provenance)", []))
    details = Details(task_pictures or {})
    if data.rows:
        sections = "".join(_puzzle_section(data, p, plots, pictures, details) for p in puzzles)
        overview = _overview(data)
    else:
        sections, overview = "<p>The database holds no runs.</p>", ""
    body = (f"{overview}{_warnings(getattr(data, 'warnings', ()))}{_toc(toc)}{sections}"
            f"{_problems(data)}{_invalid(data)}{_sessions(data.sessions)}{details.html()}")
    return document(f"twinsolve report: {data.db.name}", head, body)


# ------------------------------------------------------------------ two databases

def _verdict_attrs(row: Mapping[str, Any]) -> str:
    return f' data-changed="{int(bool(row.get("changed")))}"'


def _compare_controls(table_id: str) -> str:
    name = f"filter-{table_id}"
    filters = "".join(
        f'<label><input type="radio" name="{name}" data-filter="{value}"'
        f'{" checked" if value == "changed" else ""}> {escape(text)}</label>'
        for value, text in (("changed", "only tasks that changed beyond noise"),
                            ("all", "every task solved on both sides")))
    return (f'<div class="controls" data-for="{table_id}"><span><b>show</b> {filters}</span>'
            '<span class="count"></span></div>')


def compare_page(comparison: Comparison, plots: Sequence[tuple[Plot, str]] = ()) -> str:
    """The page of two databases; `plots` as for `page` (compare plots)."""
    a, b = comparison.before, comparison.after
    sides = "".join(f'<p class="meta"><b>{name}</b> = {escape(data.db)} · '
                    f"{escape(data.selection)}</p>{_facts(data, name)}"
                    for name, data in (("A", a), ("B", b)))
    head = f"<h1>twinsolve report: A against B</h1>{sides}"
    warned = _warnings([f"{name}: {line}" for name, data in (("A", a), ("B", b))
                        for line in data.warnings])
    changes = change_rows(comparison.changes)
    worse = sum(c.worse for c in comparison.changes)
    kinds = (rows_table(CHANGE_COLUMNS, changes, "changes-table") if changes
             else "<p>Nothing: every task kept its status.</p>")
    rows = time_rows(comparison.times)
    changed = sum(bool(r["changed"]) for r in rows)
    times = (_compare_controls("times-table")
             + rows_table(TIME_COLUMNS, rows, "times-table", _verdict_attrs)) if rows \
        else "<p>No task was solved on both sides.</p>"
    puzzles = list(comparison.notes)
    toc = [("changes", "Changed in kind", []), ("times", "Time per task", []),
           *((anchor("puzzle", p), p, [(anchor("compare", p), "totals"), *_plot_links(plots, p)])
             for p in puzzles)]
    sections = []
    for puzzle in puzzles:
        mine = [(plot, svg) for plot, svg in plots if plot.puzzle == puzzle]
        totals = [r for r in comparison.rows if r["puzzle"] == puzzle]
        sections.append(
            f'<h2 id="{anchor("puzzle", puzzle)}">{escape(puzzle)}</h2>'
            f'<p class="note">{escape(comparison.notes[puzzle])}.</p>'
            f'<h3 id="{anchor("compare", puzzle)}">Totals</h3>'
            f"{rows_table(COMPARE_COLUMNS[1:], totals, anchor('compare-table', puzzle))}"
            f'<p class="note">{escape(RATIO_NOTE)}.</p>'
            '<p class="note">Each plot: the same tasks in A (x) and in B (y); below the '
            "diagonal B was faster. Hover a point to see its task.</p>"
            f"{_figures(mine)}")
    body = (f"{warned}"
            f'<h2 id="changes">Changed in kind: {len(changes)} ({worse} for the worse)</h2>'
            f"{kinds}"
            f'<h2 id="times">Time: {changed} of {len(rows)} tasks changed beyond noise</h2>'
            f"<p>{escape(comparison.time_headline())}.</p>"
            f'<p class="note">{escape(RULE.format(threshold=comparison.threshold))}.</p>{times}'
            f"{_toc(toc)}" + ("".join(sections) or "<p>Neither database holds runs.</p>"))
    return document(f"twinsolve report: {a.db.name} against {b.db.name}", head, body)
