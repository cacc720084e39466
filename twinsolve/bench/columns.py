"""The columns of the report's tables: which row key each shows, under which header, as what text.

Data for every renderer (the terminal, Markdown, LaTeX and HTML tables of
twinsolve.bench.tables, twinsolve.bench.summary and twinsolve.bench.html),
so every output shows the same text for the same value. Rows are dicts:
the summary rows of twinsolve.bench.scores, the comparison rows of
twinsolve.bench.comparison.

`COLUMNS` are the summary's, `COMPARE_COLUMNS` those of two databases side
by side (A, B and the ratios B/A); `DEFINITIONS` and `RATIO_NOTE` are the
notes printed under them. `drop` ranks what a narrow terminal leaves out
first (the least needed to compare back-ends); every count of failures stays.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Column", "Row", "groups", "format_value", "COLUMNS", "DEFINITIONS",
           "COMPARE_COLUMNS", "RATIO_NOTE"]

Row = Mapping[str, object]


@dataclass(frozen=True)
class Column:
    """One column: the row key it shows and how."""

    key: str
    header: str
    format: Callable[[object], str]
    short: str = ""            # the terminal's narrow header; `meaning` explains it
    meaning: str = ""          # legend text for the short header
    numeric: bool = True       # right-aligned
    drop: int = 0              # 0: always shown; higher: left out first when narrow
    hide_zero: bool = False    # a count column: left out of a narrow table when all 0
    alarm: bool = False        # a nonzero value is drawn bold red (wrong, crash)

    def label(self, wide: bool) -> str:
        return self.header if wide or not self.short else self.short

    def text(self, row: Row) -> str:
        return self.format(row.get(self.key))


def groups(rows: Sequence[Row], key: str = "puzzle") -> list[tuple[str, list[Row]]]:
    """The rows grouped by `key`, groups in order of first appearance."""
    names = list(dict.fromkeys(str(row[key]) for row in rows))
    return [(name, [row for row in rows if row[key] == name]) for name in names]


def _seconds(value: object) -> str:
    if value is None:
        return "-"
    seconds = float(value)  # type: ignore[arg-type]
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def format_value(key: str, value: object) -> str:
    """A summary value as plain text, as the table shows it (`-` for none).

    >>> format_value("par2", 0.0123), format_value("median_nodes", 12.0), format_value("wins", None)
    ('12.3 ms', '12', '-')
    """
    if key in ("par2", "median_s", "geomean_s"):
        return _seconds(value)
    if key == "median_nodes":
        return "-" if value is None else f"{value:g}"  # type: ignore[str-format]
    return "-" if value is None else str(value)


def _ratio_text(value: object) -> str:
    return "-" if value is None else f"{float(value):.2f}x"  # type: ignore[arg-type]


def _column(key: str, header: str, short: str = "", meaning: str = "",
            shown: Callable[[object], str] | None = None, **kw: Any) -> Column:
    """A column showing its key's value as `format_value` does; a comparison's `par2_a`
    and `par2_b` show as `par2`."""
    base = key.rsplit("_", 1)[0] if key.endswith(("_a", "_b")) else key
    return Column(key, header, shown or (lambda value: format_value(base, value)), short,
                  meaning, **kw)


# The summary's columns, in table order.
COLUMNS: tuple[Column, ...] = (
    _column("puzzle", "puzzle", numeric=False),
    _column("backend", "back-end", numeric=False),
    _column("runs", "runs", drop=5),
    _column("solved", "solved"),
    _column("wins", "wins", drop=3),
    _column("only", "only solver", "only", "only solver", drop=2),
    _column("feasible", "feasible", "feas", "feasible", hide_zero=True),
    _column("wrong", "wrong", hide_zero=True, alarm=True),
    _column("timeout", "timeout", "t/o", "timeout", hide_zero=True),
    _column("memout", "memout", "mem", "memout", hide_zero=True),
    _column("crash", "crash", hide_zero=True, alarm=True),
    _column("other", "other", "other", "unsupported or error", hide_zero=True),
    _column("par2", "PAR-2"),
    _column("median_s", "median time", "median", "median time", drop=4),
    _column("geomean_s", "geomean time", "geomean", "geomean time", drop=7),
    _column("median_nodes", "median nodes", "nodes", "median nodes", drop=6),
)

DEFINITIONS = ("PAR-2: mean wall time per task, a task not solved counting twice its time "
               "limit · wins: tasks where its solved run was the fastest · only solver: "
               "tasks no other back-end solved · feasible: a solution, optimum not proven · "
               "times and nodes: over the solved runs")

# Two databases side by side: A's and B's value of each, and B over A.
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
