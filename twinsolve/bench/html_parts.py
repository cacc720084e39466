"""The report pages' building blocks: their CSS and scripts, escaping, tables, inline SVG.

Shared by the pages of twinsolve.bench.html and the per-task table of
twinsolve.bench.task_table, so both look and behave alike:
- `CSS`, and `page_script()`: the one inline script of every page — sorting
  (`SORT_SCRIPT`: click a header of a `table.sortable` to sort its body rows
  by that column, again for the other way; a cell's `data-sort` holds its
  sort key, a number, else its text is the key), then the tables' controls
  and the run details (`CONTROLS_SCRIPT`: a `.controls[data-for=TABLE]` box
  filters its table's rows by `data-filter` radio buttons — a row is kept
  when its `data-<filter>` attribute is 1 —, hides the columns whose
  `data-column` box is unchecked, and shows the `.m-<measure>` spans of its
  cells whose `data-measure` box is checked; a cell with `data-run=K`
  opens the K-th run detail of the page's `#run-data` JSON in the
  `#run-detail` dialog, written with text nodes only);
- `escape`, `anchor` (an id from names), `inline_svg`, `table` and
  `rows_table` (rows of twinsolve.bench.columns' columns), `document` (the
  whole page around a header and a body).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .columns import Column
from .scores import is_virtual_best

__all__ = ["CSS", "SORT_SCRIPT", "CONTROLS_SCRIPT", "page_script", "escape", "anchor",
           "inline_svg", "table", "sort_key", "rows_table", "document", "UNSOLVED_KEY"]

UNSOLVED_KEY = 1e9   # sort key offset: every unsolved task after every solved one

CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222;
       margin: 1.2em auto; max-width: 1240px; padding: 0 1em; }
h1 { font-size: 1.5em; margin: 0 0 0.1em; }
h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin-top: 1.4em; }
p.meta, p.note { color: #555; margin-top: 0; }
dl.facts { display: flex; flex-wrap: wrap; gap: 0.1em 1.4em; margin: 0.4em 0; }
dl.facts div { display: flex; gap: 0.4em; min-width: 0; }
dl.facts dt { color: #666; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.busy { color: #a05a00; font-weight: bold; }
ul.warnings { margin: 0.5em 0; padding: 0.4em 0.8em 0.4em 1.8em; background: #fff6e0;
              border: 1px solid #f0d9a0; color: #6a4500; }
details#contents { margin: 0.6em 0; } details#contents summary { cursor: pointer; }
nav ul { margin: 0.2em 0; padding-left: 1.4em; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 13px; }
th, td { padding: 0.25em 0.6em; border-bottom: 1px solid #e4e4e4; vertical-align: top; }
th { background: #f3f3f3; text-align: left; white-space: nowrap; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th:hover { background: #e6e6e6; }
th[aria-sort=ascending]::after { content: " \\25B2"; font-size: 0.8em; }
th[aria-sort=descending]::after { content: " \\25BC"; font-size: 0.8em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
#overview-table th.pz { text-align: right; } #overview-table .par2 { color: #555; }
tr.vbs td { font-style: italic; color: #444; background: #fafafa; white-space: nowrap; }
td.bad, span.bad { color: #b00; font-weight: bold; }
td.msg, td.path { font-family: ui-monospace, monospace; font-size: 12px; }
td.run { white-space: nowrap; font-variant-numeric: tabular-nums; cursor: pointer; }
td.run:hover { outline: 1px solid #999; }
td.ok { color: #15602b; } td.partial { color: #8a5a00; } td.out { color: #777; }
td.none { color: #aaa; cursor: default; } td.flap { color: #8a3ab9; }
td.best { background: #d9f2df; font-weight: bold; }
table.tasks .m { display: none; color: #555; font-weight: normal; }
table.tasks.show-wall .m-wall, table.tasks.show-range .m-range, table.tasks.show-cpu .m-cpu,
table.tasks.show-mem .m-mem, table.tasks.show-nodes .m-nodes { display: inline; }
.controls { display: flex; flex-wrap: wrap; gap: 0.3em 1.2em; font-size: 13px;
            background: #f6f6f6; padding: 0.4em 0.6em; border: 1px solid #e4e4e4; }
.controls label { white-space: nowrap; } .controls b { font-weight: 600; }
.plots { display: flex; flex-wrap: wrap; gap: 1em; }
figure { margin: 0; border: 1px solid #e4e4e4; padding: 0.4em; }
figure svg { display: block; max-width: 100%; height: auto; }
figure.picture svg { width: 220px; max-height: 320px; }
figcaption { font-size: 12px; color: #555; }
dialog#run-detail { max-width: min(900px, 92vw); max-height: 86vh; overflow: auto; }
dialog#run-detail pre { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px;
                        background: #f6f6f6; padding: 0.4em; margin: 0.2em 0; }
dialog#run-detail .picture svg { max-width: 360px; max-height: 360px; height: auto; }
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

# The per-task tables' controls (filters, columns, measures) and the run details.
CONTROLS_SCRIPT = """
(function () {
  function tableOf(box) { return document.getElementById(box.getAttribute("data-for")); }
  function apply(box) {
    var table = tableOf(box), shown = 0;
    var filter = box.querySelector("input[data-filter]:checked");
    var want = filter ? filter.getAttribute("data-filter") : "all";
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      var keep = want === "all" || row.getAttribute("data-" + want) === "1";
      row.hidden = !keep;
      if (keep) { shown += 1; }
    });
    box.querySelectorAll("input[data-column]").forEach(function (input) {
      var col = parseInt(input.getAttribute("data-column"), 10);
      Array.prototype.forEach.call(table.rows, function (row) {
        if (row.cells[col]) { row.cells[col].hidden = !input.checked; }
      });
    });
    box.querySelectorAll("input[data-measure]").forEach(function (input) {
      table.classList.toggle("show-" + input.getAttribute("data-measure"), input.checked);
    });
    var count = box.querySelector(".count");
    if (count) { count.textContent = shown + " of " + table.tBodies[0].rows.length + " shown"; }
  }
  document.querySelectorAll(".controls[data-for]").forEach(function (box) {
    box.addEventListener("change", function () { apply(box); });
    apply(box);
  });

  var dataNode = document.getElementById("run-data");
  var details = dataNode ? JSON.parse(dataNode.textContent) : [];
  var dialog = document.getElementById("run-detail");
  function add(parent, tag, text, cls) {
    var node = document.createElement(tag);
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    if (cls) { node.className = cls; }
    parent.appendChild(node);
    return node;
  }
  function show(index) {
    var d = details[index], body = dialog.querySelector(".body");
    body.textContent = "";
    add(body, "h2", d.task + " \\u00b7 " + d.backend);
    add(body, "p", d.status, "meta");
    var table = add(body, "table"), head = add(add(table, "thead"), "tr");
    d.columns.forEach(function (c) { add(head, "th", c); });
    var rows = add(table, "tbody");
    d.runs.forEach(function (run) {
      var tr = add(rows, "tr");
      run.cells.forEach(function (c) { add(tr, "td", c); });
    });
    d.runs.forEach(function (run) {
      if (run.message) {
        add(body, "h3", "message (seed " + run.seed + ")");
        add(body, "pre", run.message);
      }
    });
    add(body, "h3", "stats (seed " + d.runs[0].seed + ")");
    add(body, "pre", d.runs[0].stats);
    add(body, "h3", "answer");
    add(body, "pre", d.answer);
    add(body, "h3", "expected by the file's metadata");
    add(body, "pre", d.expected);
    add(body, "h3", "picture");
    var template = d.picture ? document.getElementById(d.picture) : null;
    if (template) {
      var holder = add(body, "div", null, "picture");
      holder.appendChild(template.content.cloneNode(true));
      add(body, "p", d.picture_caption, "note");
    } else {
      add(body, "p", d.picture_why, "note");
    }
    dialog.showModal();
  }
  document.addEventListener("click", function (event) {
    var cell = event.target.closest && event.target.closest("td[data-run]");
    if (cell && dialog) { show(parseInt(cell.getAttribute("data-run"), 10)); }
    if (event.target.closest && event.target.closest("button.close") && dialog) {
      dialog.close();
    }
  });
  document.addEventListener("keydown", function (event) {
    var cell = event.target.closest && event.target.closest("td[data-run]");
    if (cell && dialog && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      show(parseInt(cell.getAttribute("data-run"), 10));
    }
  });
})();
"""


def page_script() -> str:
    """Every script of a page: sorting, then the tables' controls and the run details."""
    return SORT_SCRIPT + CONTROLS_SCRIPT


def escape(value: object) -> str:
    return html.escape("" if value is None else str(value))


def anchor(*parts: str) -> str:
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


def table(headers: Sequence[str], rows: Iterable[str], sortable: bool = False,
           table_id: str = "", classes: str = "") -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    names = " ".join(filter(None, ["sortable" if sortable else "", classes]))
    attrs = (f' id="{table_id}"' if table_id else "") + (f' class="{names}"' if names else "")
    return (f'<div class="scroll"><table{attrs}><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def sort_key(value: object) -> str:
    """A data-sort key for a value: numbers as they are, none after every number."""
    if isinstance(value, list | tuple) and value:
        value = value[0]
    return repr(float(value)) if isinstance(value, int | float) else repr(2 * UNSOLVED_KEY)


def rows_table(columns: Sequence[Column], rows: Sequence[Mapping[str, Any]],
                table_id: str = "", row_attrs: Any = None) -> str:
    """Summary-like rows (twinsolve.bench.columns) as a sortable table; `row_attrs(row)`
    gives a row's extra attributes."""
    lines = []
    for row in rows:
        cells = []
        for column in columns:
            value = row.get(column.key)
            classes = ["num"] if column.numeric else []
            if column.alarm and value:
                classes.append("bad")
            attr = f' class="{" ".join(classes)}"' if classes else ""
            sort = f' data-sort="{sort_key(value)}"' if column.numeric else ""
            cells.append(f"<td{attr}{sort}>{escape(column.text(row))}</td>")
        vbs = ' class="vbs"' if is_virtual_best(row) else ""
        extra = row_attrs(row) if row_attrs else ""
        lines.append(f"<tr{vbs}{extra}>{''.join(cells)}</tr>")
    return table([c.header for c in columns], lines, sortable=True, table_id=table_id)


def document(title: str, head: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{escape(title)}</title><style>{CSS}</style></head>\n"
        f"<body><header>{head}</header>{body}<script>{page_script()}</script></body></html>\n")
