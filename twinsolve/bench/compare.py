"""`twinsolve report A.sqlite B.sqlite`: two results databases compared, as tables and a page.

The command: load and judge both databases with the same choice of runs
(twinsolve.bench.results), compare them over the tasks both hold
(twinsolve.bench.comparison, which says how), and write the outputs asked
for: `--markdown` and `--latex` (twinsolve.bench.exports), `--html`, the
comparison table per puzzle and each back-end's time scatter of A against B
(twinsolve.bench.html, twinsolve.bench.plots). The CLI prints the comparison
with `print_comparison` (twinsolve.bench.terminal, named here for it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..files.atomic import write_text
from .comparison import Comparison, compare
from .exports import comparison_latex_text, comparison_markdown_text
from .html import compare_page
from .noise import THRESHOLD
from .results import load
from .terminal import print_comparison

__all__ = ["CompareResult", "compare_report", "print_comparison"]


@dataclass(frozen=True)
class CompareResult:
    """What `compare_report` compared and the files it wrote, in the order written."""

    comparison: Comparison
    written: tuple[Path, ...] = field(default_factory=tuple)


def compare_report(before: str | Path, after: str | Path, html: str | Path | None = None,
                   markdown_path: str | Path | None = None, latex_path: str | Path | None = None,
                   threshold: float | None = None, **selection: Any) -> CompareResult:
    """Load both databases (the same `selection` of runs, see results.load), compare with
    `threshold` (the ratio B/A that counts as slower; twinsolve.bench.noise), write."""
    if Path(before).resolve() == Path(after).resolve():
        raise UsageError(f"{before}: the same database twice; compare two different ones")
    comparison = compare(load(before, **selection), load(after, **selection),
                         THRESHOLD if threshold is None else threshold)
    written: list[Path] = []
    if markdown_path is not None:
        written.append(write_text(markdown_path, comparison_markdown_text(comparison)))
    if latex_path is not None:
        written.append(write_text(latex_path, comparison_latex_text(comparison)))
    if html is not None:
        from .plots import compare_plots, render  # matplotlib only when the page is wanted

        plots = [(plot, render(plot, "svg").decode("utf-8"))
                 for plot in compare_plots(comparison.before_records, comparison.after_records)]
        written.append(write_text(html, compare_page(comparison, plots)))
    return CompareResult(comparison, tuple(written))
