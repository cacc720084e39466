"""The columns of the report's tables: which row key each shows, under which header, as what text.

Data for every renderer (the terminal, Markdown, LaTeX and HTML tables of
twinsolve.bench.tables, twinsolve.bench.terminal and twinsolve.bench.html),
so every output shows the same text for the same value. Rows are dicts:
the totals rows of twinsolve.bench.scores, the comparison rows of
twinsolve.bench.comparison.

`TOTALS_COLUMNS` are the totals', `COMPARE_COLUMNS` those of two databases side
by side (A, B and the ratios B/A), `CHANGE_COLUMNS` and `TIME_COLUMNS` the
comparison's changes in kind and time verdicts, one row per task;
`DEFINITIONS`, `MEASURES` and `RATIO_NOTE` are the notes printed under them.
`drop` ranks what a narrow terminal leaves out first (the least needed to
compare back-ends); every count of failures stays. A column may also be left
out of a narrow table for what it holds (`quiet`): a count that is 0 on
every row, or the CPU time where it says nothing the wall time does not
(within 25 % of it on every row, `cpu_differs`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .repeats import range_text

__all__ = ["Column", "Row", "groups", "format_value", "seconds", "megabytes", "TOTALS_COLUMNS",
           "DEFINITIONS", "MEASURES", "COMPARE_COLUMNS", "RATIO_NOTE", "CHANGE_COLUMNS",
           "TIME_COLUMNS", "cpu_differs", "ZEROS_LEFT_OUT", "file_stem"]

Row = Mapping[str, object]
ZEROS_LEFT_OUT = "columns with only zeros are left out"


def _all_zero(key: str) -> Callable[[Sequence[Row]], bool]:
    return lambda rows: all(not row.get(key) for row in rows)


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
    # left out of a narrow table when this says the rows' values add nothing, and why
    says_nothing: Callable[[Sequence[Row]], bool] | None = None
    why_left_out: str = ZEROS_LEFT_OUT
    fold: bool = False         # a long text (a path) that breaks over lines where nothing fits

    def label(self, wide: bool) -> str:
        return self.header if wide or not self.short else self.short

    def text(self, row: Row) -> str:
        return self.format(row.get(self.key))

    def quiet(self, rows: Sequence[Row]) -> bool:
        """Whether a narrow table leaves this column out for what the rows hold."""
        if self.hide_zero and _all_zero(self.key)(rows):
            return True
        return self.says_nothing is not None and self.says_nothing(rows)


def groups(rows: Sequence[Row], key: str = "puzzle") -> list[tuple[str, list[Row]]]:
    """The rows grouped by `key`, groups in order of first appearance."""
    names = list(dict.fromkeys(str(row[key]) for row in rows))
    return [(name, [row for row in rows if row[key] == name]) for name in names]


def file_stem(*parts: str) -> str:
    """A file name from puzzle and back-end names, safe on every file system.

    >>> file_stem("scatter-time", "toy", "sat:glucose4", "vs", "hand")
    'scatter-time-toy-sat_glucose4-vs-hand'
    """
    return "-".join(re.sub(r"[^A-Za-z0-9_.+-]+", "_", part).strip("._") or "_" for part in parts)


def seconds(value: float) -> str:
    """Seconds as a table shows them.

    >>> seconds(0.0123), seconds(2.5)
    ('12.3 ms', '2.50 s')
    """
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def megabytes(value: float) -> str:
    """MiB (the unit of `--memory`, written MB) as a table shows them.

    >>> megabytes(0.42), megabytes(12.3), megabytes(2048)
    ('0.4 MB', '12 MB', '2.0 GB')
    """
    if value >= 1024:
        return f"{value / 1024:.1f} GB"
    return f"{value:.1f} MB" if value < 10 else f"{value:.0f} MB"


def _range(value: object) -> str:
    if not value:
        return "-"
    low, high = value  # type: ignore[misc]
    return range_text(float(low), float(high), seconds)


def format_value(key: str, value: object) -> str:
    """A totals value as plain text, as the table shows it (`-` for none).

    >>> format_value("par2", 0.0123), format_value("median_nodes", 12.0), format_value("wins", None)
    ('12.3 ms', '12', '-')
    """
    if value is None:
        return "-"
    if key in ("par2", "median_s", "geomean_s", "median_cpu_s"):
        return seconds(float(value))  # type: ignore[arg-type]
    if key == "median_mem_mb":
        return megabytes(float(value))  # type: ignore[arg-type]
    if key == "par2_range":
        return _range(value)
    if key == "median_nodes":
        return f"{value:g}"  # type: ignore[str-format]
    return str(value)


def _ratio_text(value: object) -> str:
    return "-" if value is None else f"{float(value):.2f}x"  # type: ignore[arg-type]


def _text(value: object) -> str:
    return "-" if value is None else str(value)


def _column(key: str, header: str, short: str = "", meaning: str = "",
            shown: Callable[[object], str] | None = None, **kw: Any) -> Column:
    """A column showing its key's value as `format_value` does; a comparison's `par2_a`
    and `par2_b` show as `par2`."""
    base = key.rsplit("_", 1)[0] if key.endswith(("_a", "_b")) else key
    return Column(key, header, shown or (lambda value: format_value(base, value)), short,
                  meaning, **kw)


def cpu_differs(rows: Sequence[Row], wall: str = "median_s", cpu: str = "median_cpu_s") -> bool:
    """Whether some row's CPU time is more than 25 % (and 1 ms) away from its wall time."""
    for row in rows:
        w, c = row.get(wall), row.get(cpu)
        if isinstance(w, int | float) and isinstance(c, int | float) \
                and abs(c - w) > max(0.25 * w, 0.001):
            return True
    return False


# The totals' columns (per puzzle and back-end), in table order.
TOTALS_COLUMNS: tuple[Column, ...] = (
    _column("puzzle", "puzzle", numeric=False),
    _column("backend", "back-end", numeric=False),
    _column("runs", "runs", drop=8),
    _column("solved", "solved"),
    _column("wins", "wins", drop=3),
    _column("only", "only solver", "only", "only solver", drop=2),
    _column("feasible", "feasible", "feas", "feasible", hide_zero=True),
    _column("wrong", "wrong", hide_zero=True, alarm=True),
    _column("timeout", "timeout", "t/o", "timeout", hide_zero=True),
    _column("memout", "memout", "m/o", "memout", hide_zero=True),
    _column("crash", "crash", hide_zero=True, alarm=True),
    _column("other", "other", "other", "unsupported or error", hide_zero=True),
    _column("flapping", "flapping", "flap", "flapping: repeats disagree", hide_zero=True),
    _column("par2", "PAR-2"),
    _column("par2_range", "PAR-2 range", "range", "PAR-2 of the best and worst repeat",
            hide_zero=True, drop=7),
    _column("median_s", "median time", "median", "median wall time", drop=5),
    _column("median_cpu_s", "median CPU", "cpu", "median CPU time", drop=4, hide_zero=True,
            says_nothing=lambda rows: not cpu_differs(rows),
            why_left_out="cpu is left out where it is within 25% of the wall time"),
    _column("median_mem_mb", "median memory", "mem", "median peak memory added", drop=6,
            hide_zero=True),
    _column("geomean_s", "geomean time", "geomean", "geomean time", drop=10),
    _column("median_nodes", "median nodes", "nodes", "median nodes", drop=9),
)

DEFINITIONS = ("PAR-2: mean wall time per task, a task not solved counting twice its time "
               "limit · wins: tasks where its solved run was the fastest · only solver: "
               "tasks no other back-end solved · feasible: a solution, optimum not proven · "
               "times, memory and nodes: medians over the solved tasks (a task: the median of "
               "its repeats) · the virtual best has nodes only if all back-ends count the "
               "same unit")

MEASURES = ("wall: the run's wall-clock time · CPU: user + system time of the run and the "
            "programs it waited for · memory: the peak resident memory the run added to its "
            "worker · load: the host's 1-minute load average when the run started")

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
    _column("median_s_a", "median A", drop=3),
    _column("median_s_b", "median B", drop=3),
    _column("median_ratio", "median B/A", "med B/A", "median wall time of B over A",
            shown=_ratio_text, drop=2),
    _column("cpu_ratio", "CPU B/A", "cpu B/A", "median CPU time of B over A",
            shown=_ratio_text, drop=1),
    _column("slower", "slower", shown=_text),
    _column("faster", "faster", shown=_text),
)

RATIO_NOTE = ("ratios are B/A: below 1.00x B is faster · PAR-2: mean wall time per task, a task "
              "not solved counting twice its time limit · median: median time of the solved "
              "tasks · slower, faster: tasks beyond noise (the rule above)")

# The comparison's changes in kind, one row per task and back-end.
CHANGE_COLUMNS: tuple[Column, ...] = (
    _column("kind", "change", numeric=False),
    _column("path", "instance", numeric=False, fold=True),
    _column("backend", "back-end", numeric=False),
    _column("before", "A", numeric=False),
    _column("after", "B", numeric=False),
    _column("note", "note", numeric=False, drop=1, hide_zero=True),
)

# The comparison's time verdicts, one row per task and back-end solved on both sides.
TIME_COLUMNS: tuple[Column, ...] = (
    _column("verdict", "verdict", numeric=False),
    _column("ratio", "B/A", shown=_ratio_text),
    _column("cpu_ratio", "CPU B/A", "cpu", "CPU time of B over A", shown=_ratio_text, drop=3),
    _column("path", "instance", numeric=False, fold=True),
    _column("backend", "back-end", numeric=False),
    _column("a", "A: median (range, n)", "A", "A's median wall time (range, repeats)",
            numeric=False, drop=1),
    _column("b", "B: median (range, n)", "B", "B's median wall time (range, repeats)",
            numeric=False, drop=2),
    _column("why", "why", numeric=False, drop=4),
)
