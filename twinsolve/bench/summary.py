"""The summary on the terminal: one database's table and its problem lines, or two side by side.

The rows are data (twinsolve.bench.scores, twinsolve.bench.comparison) and
their columns too (twinsolve.bench.columns); this module draws them for a
console with rich, one block per puzzle that fits its width
(twinsolve.bench.tables), or with `wide` every column in one table.
`problem_lines` lists the runs that went wrong, one line each, for the
terminal before the table, and `print_warnings` the noise warnings after it.
`twinsolve bench` and `twinsolve report` print `print_problems`,
`print_summary` and `print_warnings`; `twinsolve report A B`
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
    COLUMNS,
    COMPARE_COLUMNS,
    DEFINITIONS,
    RATIO_NOTE,
    TIME_COLUMNS,
    Column,
    Row,
)
from .comparison import Comparison, change_rows, time_rows
from .noise import RULE
from .records import RunRecord
from .results import facts
from .scores import PROBLEMS, SummaryRow, is_virtual_best, problems, scope_notes, summarise
from .tables import blocks, fit, rich_table

# `summarise` makes the rows these functions print; the `bench` command takes both from here.
__all__ = ["summary_table", "print_summary", "problem_lines", "print_problems",
           "print_warnings", "compare_table", "print_comparison", "summarise"]


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

def summary_table(rows: Sequence[SummaryRow], title: str = "twinsolve bench",
                  width: int | None = None, wide: bool = False) -> RenderableType:
    """The summary for the terminal: blocks that fit `width`, or with `wide` every column.

    A wide table is as wide as it needs (print it with `crop=False`, as
    `print_summary` does); a narrow one never shortens a cell.
    """
    drawn = blocks(COLUMNS, rows, width, wide=wide, notes=scope_notes(rows),
                   italic=is_virtual_best)
    return Group(Text(title, style="bold"), *drawn.parts, Text(""),
                 *(Text(line, style="dim") for line in (*drawn.footer, DEFINITIONS)))


def print_summary(console: Console, rows: Sequence[SummaryRow], title: str = "twinsolve bench",
                  wide: bool = False) -> None:
    """Print the summary to fit the console (or every column with `wide`, uncropped)."""
    if not rows:
        console.print(Text(f"{title}: no runs"))
        return
    console.print(summary_table(rows, title, width=console.width, wide=wide), crop=not wide)


# ------------------------------------------------------------------ warnings

def print_warnings(console: Console, lines: Iterable[str], prefix: str = "") -> None:
    """Each noise warning (twinsolve.bench.noise) on its own line: `warning: ...`."""
    for line in lines:
        console.print(Text(f"warning: {prefix}{line}", style="yellow"), soft_wrap=True)


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
    return _listed(f"changed in kind: {len(changes)} ({worse} for the worse)", CHANGE_COLUMNS,
                   change_rows(changes), width, wide)


def _times(comparison: Comparison, width: int | None, wide: bool) -> list[RenderableType]:
    rule = RULE.format(threshold=comparison.threshold)
    changed = comparison.changed_times
    same = len(comparison.times) - len(changed)
    load = sum(t.change.why.startswith("wall time only") for t in comparison.times)
    host = f" ({load} slower or faster by wall time only: the host, not the code)" if load \
        else ""
    if not changed:
        return [Text(""), Text(f"time: no change beyond noise ({same} task"
                               f"{'' if same == 1 else 's'} solved on both sides the same"
                               f"{host})", style="bold"), Text(rule, style="dim")]
    title = (f"time: {len(changed)} task{'' if len(changed) == 1 else 's'} changed beyond "
             f"noise, {same} the same{host}")
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
