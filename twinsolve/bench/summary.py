"""The comparison table that ends every benchmark: one row per puzzle and back-end.

Columns: runs, solved (a definite answer: optimal, solved or unsat, and not
marked wrong), feasible (a solution without proof), wrong, timeouts, other
(unsupported, error, crash, memout), the median wall time and the median
nodes over the solved runs.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable

from rich.table import Table

from ..core.result import Status
from .records import RunRecord

__all__ = ["summarise", "summary_table", "SummaryRow"]

SummaryRow = dict[str, object]


def summarise(records: Iterable[RunRecord]) -> list[SummaryRow]:
    groups: dict[tuple[str, str], list[RunRecord]] = defaultdict(list)
    for record in records:
        groups[(record.puzzle, record.backend)].append(record)
    rows = []
    for (puzzle, backend), runs in sorted(groups.items()):
        solved = [r for r in runs if r.status.is_answer and r.status is not Status.FEASIBLE]
        rows.append({
            "puzzle": puzzle,
            "backend": backend,
            "runs": len(runs),
            "solved": len(solved),
            "feasible": sum(r.status is Status.FEASIBLE for r in runs),
            "wrong": sum(r.status is Status.WRONG for r in runs),
            "timeout": sum(r.status is Status.TIMEOUT for r in runs),
            "other": sum(r.status in (Status.UNSUPPORTED, Status.ERROR, Status.CRASH,
                                      Status.MEMOUT) for r in runs),
            "median_s": statistics.median(r.wall_s for r in solved) if solved else None,
            "median_nodes": statistics.median(r.nodes for r in solved if r.nodes is not None)
            if any(r.nodes is not None for r in solved) else None,
        })
    return rows


def _seconds(value: object) -> str:
    if value is None:
        return "-"
    seconds = float(value)  # type: ignore[arg-type]
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def summary_table(rows: list[SummaryRow], title: str = "twinsolve bench") -> Table:
    table = Table(title=title)
    for name, justify in (("puzzle", "left"), ("back-end", "left"), ("runs", "right"),
                          ("solved", "right"), ("feasible", "right"), ("wrong", "right"),
                          ("timeout", "right"), ("other", "right"), ("median time", "right"),
                          ("median nodes", "right")):
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for row in rows:
        nodes = row["median_nodes"]
        table.add_row(
            str(row["puzzle"]), str(row["backend"]), str(row["runs"]), str(row["solved"]),
            str(row["feasible"]),
            f"[bold red]{row['wrong']}[/]" if row["wrong"] else "0",
            str(row["timeout"]), str(row["other"]), _seconds(row["median_s"]),
            "-" if nodes is None else f"{nodes:g}",
        )
    return table
