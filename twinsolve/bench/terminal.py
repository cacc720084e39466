"""The terminal's tables: one database's totals and its problem lines, or two side by side.

The rows are data (twinsolve.bench.scores, twinsolve.bench.comparison) and
their columns too (twinsolve.bench.columns); this module draws them for a
console with rich, one block per puzzle that fits its width
(twinsolve.bench.tables), or with `wide` every column in one table.
`problem_lines` lists the runs that went wrong, one line each, for the
terminal before the table, and `print_warnings` the noise warnings after it.
`twinsolve bench` and `twinsolve report` print `print_problems`,
`print_totals` and `print_warnings`; `twinsolve report A B`
`print_comparison`: what A and B are (host, load, date, version) and their
warnings, the changes in kind, the tasks that changed beyond noise (the
first `SHOWN` of each; `--wide` and the files list every one), then the
totals.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console, Group, RenderableType
from rich.text import Text

from .columns import (
    CHANGE_COLUMNS,
    COMPARE_COLUMNS,
    DEFINITIONS,
    RATIO_NOTE,
    TIME_COLUMNS,
    TOTALS_COLUMNS,
    Column,
    Row,
)
from .comparison import Comparison, change_rows, time_rows
from .noise import RULE
from .records import RunRecord
from .results import facts
from .scores import PROBLEMS, TotalsRow, is_virtual_best, problems, scope_notes, totals
from .tables import blocks, fit, rich_table

# `totals` makes the rows these functions print; the `bench` command takes both from here.
__all__ = ["totals_table", "print_totals", "problem_lines", "print_problems",
           "print_warnings", "compare_table", "print_comparison", "totals"]


# ------------------------------------------------------------------ problems

def _reason(record: RunRecord) -> str:
    lines = [line.strip() for line in (record.message or "").splitlines() if line.strip()]
    if not lines:
        return "(no message)"
    return lines[0] + (f" (+{len(lines) - 1} more lines)" if len(lines) > 1 else "")


def problem_lines(records: Iterable[RunRecord]) -> list[str]:
    """One line per problem run: status, instance, back-end (and seed), and the reason.

    >>> from twinsolve.core.result import Status
    >>> problem_lines([RunRecord("a.txt", "toy", "hand", Status.WRONG, message="bad")])
    ['wrong  a.txt  hand  bad']
    """
    bad = problems(records)
    seeds = any(r.seed for r in bad)
    names = [f"{r.backend} seed {r.seed}" if seeds else r.backend for r in bad]
    widths = [max((len(r.status.value) for r in bad), default=0),
              max((len(r.path) for r in bad), default=0), max(map(len, names), default=0)]
    return [f"{r.status.value:<{widths[0]}}  {r.path:<{widths[1]}}  {name:<{widths[2]}}  "
            f"{_reason(r)}" for r, name in zip(bad, names, strict=True)]


def print_problems(console: Console, records: Iterable[RunRecord]) -> None:
    """Print `problems (N): ...` and one line per problem run; nothing when there is none."""
    bad = problems(records)
    if not bad:
        return
    counts = ", ".join(f"{status.value} {n}" for status in PROBLEMS
                       if (n := sum(r.status is status for r in bad)))
    console.print(Text(f"problems ({len(bad)}: {counts}):", style="bold red"))
    for line in problem_lines(bad):
        # soft_wrap: a long line is left whole for the terminal to wrap (and to copy)
        console.print(Text(f"  {line}"), soft_wrap=True)


# ------------------------------------------------------------------ one database

def totals_table(rows: Sequence[TotalsRow], title: str = "twinsolve bench",
                  width: int | None = None, wide: bool = False) -> RenderableType:
    """The totals for the terminal: blocks that fit `width`, or with `wide` every column.

    A wide table is as wide as it needs (print it with `crop=False`, as
    `print_totals` does); a narrow one never shortens a cell.
    """
    drawn = blocks(TOTALS_COLUMNS, rows, width, wide=wide, notes=scope_notes(rows),
                   italic=is_virtual_best)
    return Group(Text(title, style="bold"), *drawn.parts, Text(""),
                 *(Text(line, style="dim") for line in (*drawn.footer, DEFINITIONS)))


def print_totals(console: Console, rows: Sequence[TotalsRow], title: str = "twinsolve bench",
                  wide: bool = False) -> None:
    """Print the totals to fit the console (or every column with `wide`, uncropped)."""
    if not rows:
        console.print(Text(f"{title}: no runs"))
        return
    console.print(totals_table(rows, title, width=console.width, wide=wide), crop=not wide)


# ------------------------------------------------------------------ warnings

def print_warnings(console: Console, lines: Iterable[str], prefix: str = "") -> None:
    """Each noise warning (twinsolve.bench.noise) on its own line, `warning: ...`, wrapped
    to the console's width as the table above it is."""
    for line in lines:
        console.print(Text(f"warning: {prefix}{line}", style="yellow"))


# ------------------------------------------------------------------ two databases

SHOWN = 15   # rows of each comparison list the terminal shows; the files show every one


def _heading(comparison: Comparison) -> list[Text]:
    lines = []
    for name, data in (("A", comparison.before), ("B", comparison.after)):
        said = dict(facts(data))
        lines.append(Text.assemble((name, "bold"), f" = {data.db} · {data.selection}"))
        lines.append(Text(f"    {said['host']} · load {said['load']} · {said['date']} · "
                          f"{said['version']}", style="dim"))
    return lines


def _listed(title: str, columns: Sequence[Column], rows: Sequence[Row], width: int | None,
            wide: bool) -> list[RenderableType]:
    """A titled table of the first `SHOWN` rows (all with `wide`), fitting `width`."""
    shown = rows if wide else rows[:SHOWN]
    layout = fit(columns, shown, None if wide else width)
    parts: list[RenderableType] = [Text(""), Text(title, style="bold"),
                                   rich_table(layout.columns, shown, wide=wide, gap=layout.gap)]
    if len(rows) > len(shown):
        parts.append(Text(f"... and {len(rows) - len(shown)} more (--wide, --markdown or "
                          "--html list every one)", style="dim"))
    return parts


def _kinds(comparison: Comparison, width: int | None, wide: bool) -> list[RenderableType]:
    changes = comparison.changes
    if not changes:
        return [Text(""), Text("changed in kind: nothing (every task kept its status)",
                               style="bold")]
    worse = sum(c.worse for c in changes)
    # The notes go under the table, one line each: a column of them would not fit.
    columns = [c for c in CHANGE_COLUMNS if c.key != "note"]
    rows = change_rows(changes)
    parts = _listed(f"changed in kind: {len(changes)} ({worse} for the worse)", columns, rows,
                    width, wide)
    shown = rows if wide else rows[:SHOWN]
    return parts + [Text(f"note: {row['path']} · {row['backend']}: {row['note']}", style="dim")
                    for row in shown if row["note"]]


def _times(comparison: Comparison, width: int | None, wide: bool) -> list[RenderableType]:
    rule = RULE.format(threshold=comparison.threshold)
    changed = comparison.changed_times
    title = comparison.time_headline()
    if not changed:
        return [Text(""), Text(title, style="bold"), Text(rule, style="dim")]
    return [*_listed(title, TIME_COLUMNS, time_rows(changed), width, wide),
            Text(rule, style="dim")]


def compare_table(comparison: Comparison, width: int | None = None,
                  wide: bool = False) -> RenderableType:
    """The comparison for the terminal: its heading and warnings, the changes in kind, the
    tasks that changed beyond noise, then the totals per puzzle (blocks fitting `width`,
    or every column with `wide`)."""
    drawn = blocks(COMPARE_COLUMNS, comparison.rows, width, wide=wide, notes=comparison.notes,
                   italic=is_virtual_best)
    warned = [Text(f"warning: {name}: {line}", style="yellow")
              for name, data in (("A", comparison.before), ("B", comparison.after))
              for line in data.warnings]
    return Group(Text("twinsolve report: A against B", style="bold"), *_heading(comparison),
                 *warned, *_kinds(comparison, width, wide), *_times(comparison, width, wide),
                 Text(""), Text("totals", style="bold"), *drawn.parts, Text(""),
                 *(Text(line, style="dim") for line in (*drawn.footer, RATIO_NOTE)))


def print_comparison(console: Console, comparison: Comparison, wide: bool = False) -> None:
    """Print the comparison to fit the console (or every column with `wide`, uncropped)."""
    console.print(compare_table(comparison, console.width, wide), crop=not wide)
