"""The comparison table: one row per puzzle and back-end, plus the virtual best.

Columns: runs; solved (a definite answer — optimal, solved or unsat — not
marked wrong); feasible (a solution without proof); wrong; timeout; memout;
crash; other (unsupported, error); PAR-2 (the mean over runs of the wall time
when solved, else twice the time limit: the SAT Competition's score); median
and geometric-mean wall time and median nodes over the solved runs.

The virtual best back-end (VBS) of a puzzle takes, per instance, the fastest
solved run of any back-end: the score a portfolio of all of them would get.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence

from rich.table import Table

from ..core.result import Status
from .records import RunRecord

__all__ = ["summarise", "summary_table", "SummaryRow", "VIRTUAL_BEST", "par2", "virtual_best",
           "COLUMNS", "format_value"]

SummaryRow = dict[str, object]
VIRTUAL_BEST = "virtual best"
_OTHER = (Status.UNSUPPORTED, Status.ERROR)


def par2(record: RunRecord) -> float | None:
    if record.solved:
        return record.wall_s
    return None if record.timeout_s is None else 2 * record.timeout_s


def _row(puzzle: str, backend: str, runs: Sequence[RunRecord]) -> SummaryRow:
    solved = [r for r in runs if r.solved]
    times = [r.wall_s for r in solved]
    nodes = [r.nodes for r in solved if r.nodes is not None]
    scores = [par2(r) for r in runs if r.status not in _OTHER]
    return {
        "puzzle": puzzle, "backend": backend, "runs": len(runs), "solved": len(solved),
        "feasible": sum(r.status is Status.FEASIBLE for r in runs),
        "wrong": sum(r.status is Status.WRONG for r in runs),
        "timeout": sum(r.status is Status.TIMEOUT for r in runs),
        "memout": sum(r.status is Status.MEMOUT for r in runs),
        "crash": sum(r.status is Status.CRASH for r in runs),
        "other": sum(r.status in _OTHER for r in runs),
        "par2": statistics.fmean(scores) if scores and None not in scores else None,  # type: ignore[arg-type]
        "median_s": statistics.median(times) if times else None,
        "geomean_s": math.exp(statistics.fmean(math.log(max(t, 1e-6)) for t in times))
        if times else None,
        "median_nodes": statistics.median(nodes) if nodes else None,
    }


def virtual_best(runs: Sequence[RunRecord]) -> list[RunRecord]:
    """Per (instance, seed), the fastest solved run of any back-end (else any run of it)."""
    by_instance: dict[tuple[str, int], list[RunRecord]] = defaultdict(list)
    for record in runs:
        if record.status not in _OTHER:
            by_instance[(record.instance_hash or record.path, record.seed)].append(record)
    best = []
    for group in by_instance.values():
        solved = [r for r in group if r.solved]
        pick = min(solved, key=lambda r: r.wall_s) if solved else group[0]
        best.append(pick)
    return best


def summarise(records: Iterable[RunRecord]) -> list[SummaryRow]:
    groups: dict[tuple[str, str], list[RunRecord]] = defaultdict(list)
    for record in records:
        groups[(record.puzzle, record.backend)].append(record)
    rows = []
    for puzzle in sorted({p for p, _ in groups}):
        backends = sorted(b for p, b in groups if p == puzzle)
        rows.extend(_row(puzzle, b, groups[(puzzle, b)]) for b in backends)
        if len(backends) > 1:
            every = [r for b in backends for r in groups[(puzzle, b)]]
            rows.append(_row(puzzle, VIRTUAL_BEST, virtual_best(every)))
    return rows


def _seconds(value: object) -> str:
    if value is None:
        return "-"
    seconds = float(value)  # type: ignore[arg-type]
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


COLUMNS = (("puzzle", "puzzle"), ("back-end", "backend"), ("runs", "runs"),
           ("solved", "solved"), ("feasible", "feasible"), ("wrong", "wrong"),
           ("timeout", "timeout"), ("memout", "memout"), ("crash", "crash"),
           ("other", "other"), ("PAR-2", "par2"), ("median time", "median_s"),
           ("geomean time", "geomean_s"), ("median nodes", "median_nodes"))


def format_value(key: str, value: object) -> str:
    """A summary value as plain text, as the table shows it (`-` for none)."""
    if key in ("par2", "median_s", "geomean_s"):
        return _seconds(value)
    if key == "median_nodes":
        return "-" if value is None else f"{value:g}"  # type: ignore[str-format]
    return str(value)


def _cell(key: str, value: object) -> str:
    if key == "wrong" and value:
        return f"[bold red]{value}[/]"
    return format_value(key, value)


def summary_table(rows: list[SummaryRow], title: str = "twinsolve bench") -> Table:
    table = Table(title=title)
    for header, key in COLUMNS:
        table.add_column(header, justify="left" if key in ("puzzle", "backend") else "right",
                         no_wrap=True)
    for row in rows:
        style = "italic" if row["backend"] == VIRTUAL_BEST else None
        table.add_row(*(_cell(key, row[key]) for _, key in COLUMNS), style=style)
    return table
