"""The summary on the terminal: one database's table and its problem lines, or two side by side.

The rows are data (twinsolve.bench.scores, twinsolve.bench.comparison) and
their columns too (twinsolve.bench.columns); this module draws them for a
console with rich, one block per puzzle that fits its width
(twinsolve.bench.tables), or with `wide` every column in one table.
`problem_lines` lists the runs that went wrong, one line each, for the
terminal before the table. `twinsolve bench` and `twinsolve report` print
`print_problems` and `print_summary`; `twinsolve report A B`
`print_comparison`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console, Group, RenderableType
from rich.text import Text

from .columns import COLUMNS, COMPARE_COLUMNS, DEFINITIONS, RATIO_NOTE
from .comparison import Comparison
from .records import RunRecord
from .scores import PROBLEMS, SummaryRow, is_virtual_best, problems, scope_notes, summarise
from .tables import blocks

# `summarise` makes the rows these functions print; the `bench` command takes both from here.
__all__ = ["summary_table", "print_summary", "problem_lines", "print_problems",
           "compare_table", "print_comparison", "summarise"]


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


# ------------------------------------------------------------------ two databases

def _heading(comparison: Comparison) -> list[Text]:
    sides = (("A", comparison.before), ("B", comparison.after))
    return [Text.assemble((name, "bold"), f" = {data.db} · {data.selection}")
            for name, data in sides]


def compare_table(comparison: Comparison, width: int | None = None,
                  wide: bool = False) -> RenderableType:
    """The comparison for the terminal: one block per puzzle fitting `width`, or every column."""
    drawn = blocks(COMPARE_COLUMNS, comparison.rows, width, wide=wide, notes=comparison.notes,
                   italic=is_virtual_best)
    return Group(Text("twinsolve report: A against B", style="bold"), *_heading(comparison),
                 *drawn.parts, Text(""),
                 *(Text(line, style="dim") for line in (*drawn.footer, RATIO_NOTE)))


def print_comparison(console: Console, comparison: Comparison, wide: bool = False) -> None:
    """Print the comparison to fit the console (or every column with `wide`, uncropped)."""
    console.print(compare_table(comparison, console.width, wide), crop=not wide)
