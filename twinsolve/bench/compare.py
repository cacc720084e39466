"""Two results databases side by side: `twinsolve report A.sqlite B.sqlite`.

The use: the same suite run twice (before and after a change to a solver, on
two machines, under two versions), compared back-end by back-end. Each
database is loaded and judged on its own (twinsolve.bench.report.load, with
the same choice of runs for both). The comparison is taken over the tasks
both hold (a task is an instance file and seed: its path and content) that
every back-end of either handles, so PAR-2 is over the same tasks on both
sides; a task one side lacks, or that some back-end of either side does not
handle (`unsupported`), is left out of both and counted in the puzzle's note.
A task is found in the other database by its content (board and metadata)
and seed, and by its path only where one content is in several files.

Per puzzle and back-end (and the virtual best) a row holds the solved and
wrong counts, PAR-2 and median time of A and of B, and the ratios B/A of
PAR-2 and of the median time: below 1 means B is faster. A back-end only one
side ran gets a row with the other side empty. Ratios of measured times are
reported, never used to decide anything.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group, RenderableType
from rich.text import Text

from ..core.atomic import write_text
from ..core.errors import UsageError
from ..core.result import Status
from .records import RunRecord
from .summary import VIRTUAL_BEST, Task, format_value, is_virtual_best, summarise, task_of
from .tables import Column, blocks, latex, markdown

if TYPE_CHECKING:
    from .report import ReportData

__all__ = ["Comparison", "CompareResult", "compare", "compare_report", "compare_table",
           "print_comparison", "COMPARE_COLUMNS", "RATIO_NOTE", "ratio", "markdown_text",
           "latex_text"]

CompareRow = dict[str, object]


@dataclass(frozen=True)
class Comparison:
    """Two loaded databases and their rows side by side."""

    before: ReportData
    after: ReportData
    rows: tuple[CompareRow, ...]
    notes: dict[str, str]                  # per puzzle: over which tasks, in words
    before_records: tuple[RunRecord, ...]  # the compared runs (common, handled tasks)
    after_records: tuple[RunRecord, ...]


@dataclass(frozen=True)
class CompareResult:
    comparison: Comparison
    written: tuple[Path, ...] = field(default_factory=tuple)


def ratio(after: object, before: object) -> float | None:
    """after / before, or None when either is missing or `before` is zero."""
    if after is None or before is None or not before:
        return None
    return float(after) / float(before)  # type: ignore[arg-type]


Match = tuple[object, ...]


def _matches(records: Sequence[RunRecord]) -> dict[Task, Match]:
    """Per task, the key that finds it in the other database.

    A task's content (board and metadata, hashed) and seed, and its path only
    where that content is in several files: paths are relative to the suite
    root, which two runs of one suite may have named differently (`bench
    instances` against `bench instances/jugs`), and an upgraded old database
    keeps the paths as they were given.
    """
    tasks = {task_of(r) for r in records}
    paths: dict[tuple[str, int], int] = defaultdict(int)
    for content, _, seed in tasks:
        paths[(content, seed)] += 1
    return {task: (task[0], task[2]) if paths[(task[0], task[2])] == 1 else task
            for task in tasks}


def _by_puzzle(records: Sequence[RunRecord], match: dict[Task, Match]) -> dict[str, set[Match]]:
    by_puzzle: dict[str, set[Match]] = defaultdict(set)
    for record in records:
        by_puzzle[record.puzzle].add(match[task_of(record)])
    return by_puzzle


def _unhandled(records: Sequence[RunRecord], match: dict[Task, Match]) -> set[Match]:
    return {match[task_of(r)] for r in records if r.status is Status.UNSUPPORTED}


def _named_as_in(records: Sequence[RunRecord], match: dict[Task, Match],
                 names: dict[Match, RunRecord]) -> tuple[RunRecord, ...]:
    """The records of the kept tasks, each under the path its task has in A (plots pair by it)."""
    out = []
    for record in records:
        key = match[task_of(record)]
        if key in names:
            model = names[key]
            out.append(replace(record, path=model.path, task_path=model.task_path))
    return tuple(out)


def _note(common: int, compared: int, only_a: int, only_b: int) -> str:
    parts = [f"{compared} task{'' if compared == 1 else 's'} compared"]
    if common - compared:
        parts.append(f"{common - compared} in both left out (unsupported by some back-end)")
    if only_a or only_b:
        parts.append(f"only in A: {only_a}, only in B: {only_b}")
    return "; ".join(parts)


def _side(row: dict[str, object] | None, suffix: str) -> dict[str, object]:
    keys = ("solved", "wrong", "par2", "median_s")
    return {f"{key}_{suffix}": None if row is None else row[key] for key in keys}


def _rows(before: Sequence[RunRecord], after: Sequence[RunRecord]) -> list[CompareRow]:
    a = {(str(r["puzzle"]), str(r["backend"])): r for r in summarise(before)}
    b = {(str(r["puzzle"]), str(r["backend"])): r for r in summarise(after)}
    # virtual best last within each puzzle, as in the summary
    keys = sorted(a.keys() | b.keys(), key=lambda k: (k[0], k[1] == VIRTUAL_BEST, k[1]))
    rows = []
    for puzzle, backend in keys:
        row_a, row_b = a.get((puzzle, backend)), b.get((puzzle, backend))
        row: CompareRow = {"puzzle": puzzle, "backend": backend,
                           **_side(row_a, "a"), **_side(row_b, "b")}
        row["par2_ratio"] = ratio(row["par2_b"], row["par2_a"])
        row["median_ratio"] = ratio(row["median_s_b"], row["median_s_a"])
        rows.append(row)
    return rows


def compare(before: ReportData, after: ReportData) -> Comparison:
    """The two databases' rows over the tasks both hold and every back-end handles."""
    match_a, match_b = _matches(before.records), _matches(after.records)
    tasks_a, tasks_b = _by_puzzle(before.records, match_a), _by_puzzle(after.records, match_b)
    unhandled = _unhandled(before.records, match_a) | _unhandled(after.records, match_b)
    notes, keep = {}, set()
    for puzzle in sorted(tasks_a.keys() | tasks_b.keys()):
        mine_a, mine_b = tasks_a.get(puzzle, set()), tasks_b.get(puzzle, set())
        common = mine_a & mine_b
        compared = common - unhandled
        keep |= compared
        notes[puzzle] = _note(len(common), len(compared), len(mine_a - mine_b),
                              len(mine_b - mine_a))
    names = {match_a[task_of(r)]: r for r in before.records if match_a[task_of(r)] in keep}
    kept_a = _named_as_in(before.records, match_a, names)
    kept_b = _named_as_in(after.records, match_b, names)
    return Comparison(before, after, tuple(_rows(kept_a, kept_b)), notes, kept_a, kept_b)


# ------------------------------------------------------------------ columns and tables

def _ratio_text(value: object) -> str:
    return "-" if value is None else f"{float(value):.2f}x"  # type: ignore[arg-type]


def _column(key: str, header: str, short: str = "", meaning: str = "",
            shown: Callable[[object], str] | None = None, **kw: Any) -> Column:
    base = key.rsplit("_", 1)[0] if key.endswith(("_a", "_b")) else key
    return Column(key, header, shown or (lambda value: format_value(base, value)), short,
                  meaning, **kw)


COMPARE_COLUMNS: tuple[Column, ...] = (
    _column("puzzle", "puzzle", numeric=False),
    _column("backend", "back-end", numeric=False),
    _column("solved_a", "solved A"),
    _column("solved_b", "solved B"),
    _column("wrong_a", "wrong A", hide_zero=True, alarm=True),
    _column("wrong_b", "wrong B", hide_zero=True, alarm=True),
    _column("par2_a", "PAR-2 A"),
    _column("par2_b", "PAR-2 B"),
    _column("par2_ratio", "PAR-2 B/A", "B/A", "PAR-2 of B over A", shown=_ratio_text),
    _column("median_s_a", "median A", drop=2),
    _column("median_s_b", "median B", drop=2),
    _column("median_ratio", "median B/A", "med B/A", "median time of B over A",
            shown=_ratio_text, drop=1),
)

RATIO_NOTE = ("ratios are B/A: below 1.00x B is faster · PAR-2: mean wall time per task, a task "
            "not solved counting twice its time limit · median: median time of the solved runs")


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


def _comment(comparison: Comparison) -> str:
    return "\n".join([f"twinsolve report: A = {comparison.before.db}, B = {comparison.after.db}",
                      *(f"{p}: {note}" for p, note in comparison.notes.items()), RATIO_NOTE])


def markdown_text(comparison: Comparison) -> str:
    """The comparison as a Markdown table, with what A and B are and the notes."""
    notes = "\n".join(f"- {p}: {note}" for p, note in comparison.notes.items())
    return (f"A = `{comparison.before.db}`, B = `{comparison.after.db}`\n\n"
            f"{markdown(COMPARE_COLUMNS, comparison.rows, emphasis=is_virtual_best)}\n{notes}\n\n"
            f"{RATIO_NOTE}\n")


def latex_text(comparison: Comparison) -> str:
    """The comparison as a booktabs `tabular`; what A and B are goes in a comment."""
    return latex(COMPARE_COLUMNS, comparison.rows, comment=_comment(comparison),
                 rule_before=lambda previous, row: previous["puzzle"] != row["puzzle"],
                 emphasis=is_virtual_best)


# ------------------------------------------------------------------ the command

def compare_report(before: str | Path, after: str | Path, html: str | Path | None = None,
                   markdown_path: str | Path | None = None, latex_path: str | Path | None = None,
                   **selection: Any) -> CompareResult:
    """Load both databases (the same `selection` of runs, see report.load), compare, write."""
    from .report import load

    if Path(before).resolve() == Path(after).resolve():
        raise UsageError(f"{before}: the same database twice; compare two different ones")
    comparison = compare(load(before, **selection), load(after, **selection))
    written: list[Path] = []
    if markdown_path is not None:
        written.append(write_text(markdown_path, markdown_text(comparison)))
    if latex_path is not None:
        written.append(write_text(latex_path, latex_text(comparison)))
    if html is not None:
        from .html import compare_page
        from .plots import compare_plots, render

        plots = [(plot, render(plot, "svg").decode("utf-8"))
                 for plot in compare_plots(comparison.before_records, comparison.after_records)]
        written.append(write_text(html, compare_page(comparison, plots)))
    return CompareResult(comparison, tuple(written))
