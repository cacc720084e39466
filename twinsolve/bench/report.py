"""`twinsolve report DB`: a results database read back as tables, files and plots.

The command: load and judge the database (twinsolve.bench.results: which
runs are shown, the database opened so it cannot be written), then write
the outputs asked for, each by twinsolve.files.atomic (a plain file
atomically), each drawn by its renderer:
- `--csv FILE`, `--json FILE`: the runs, each solution as its hash and size;
  `--solutions FILE`: every solution whole, as JSON Lines (twinsolve.bench.exports);
- `--benchexec DIR`: a BenchExec result XML per back-end (twinsolve.bench.benchexec);
- `--markdown FILE`, `--latex FILE`: the totals table with every column, for
  a README or a paper, with over which tasks each puzzle's PAR-2 is taken
  (twinsolve.bench.exports);
- `--plots DIR`: PNG and SVG of every plot (twinsolve.bench.plots);
- `--html FILE`: one self-contained page (twinsolve.bench.html), with the
  plots inlined, a few pictures per puzzle and each task's picture in its
  runs' details (twinsolve.bench.gallery).
The totals rows come back in the result; the CLI prints them
(twinsolve.bench.terminal).

Two databases (`twinsolve report A B`) are compared by twinsolve.bench.compare.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..files.atomic import output_folder, write_text
from .benchexec import result_files
from .exports import csv_text, json_text, latex_text, markdown_text, solutions_text
from .gallery import gallery, task_pictures
from .html import page
from .results import ReportData, load
from .scores import TotalsRow

if TYPE_CHECKING:
    from .plots import Plot

__all__ = ["ReportResult", "report", "html_page"]


@dataclass(frozen=True)
class ReportResult:
    """What `report` loaded and the files it wrote, in the order written."""

    data: ReportData
    written: tuple[Path, ...] = field(default_factory=tuple)

    @property
    def totals(self) -> list[TotalsRow]:
        return list(self.data.totals)


# ------------------------------------------------------------------ the command

def _plots_and_svgs(data: ReportData, plots_dir: str | Path | None,
                    want_svg: bool) -> tuple[list[Path], list[tuple[Plot, str]]]:
    """Write the plot files if asked; return them and each plot's SVG text for the page."""
    from .plots import all_plots, render, write_plot  # matplotlib only when plots are wanted

    written: list[Path] = []
    embedded: list[tuple[Plot, str]] = []
    if plots_dir is not None:
        output_folder(plots_dir)
    for plot in all_plots(data.records):
        svg = render(plot, "svg")
        if plots_dir is not None:
            written.extend(write_plot(plot, plots_dir, {"svg": svg}))
        if want_svg:
            embedded.append((plot, svg.decode("utf-8")))
    return written, embedded


def report(db_path: str | Path, html: str | Path | None = None, csv: str | Path | None = None,
           json_path: str | Path | None = None,
           plots: str | Path | None = None, session: int | None = None,
           timeout: float | None = None, all_sessions: bool = False,
           markdown_path: str | Path | None = None,
           latex_path: str | Path | None = None, solutions_path: str | Path | None = None,
           benchexec: str | Path | None = None) -> ReportResult:
    """Load and judge `db_path`, write the outputs asked for, and say what was written.

    `session`, `timeout` and `all_sessions` choose the runs shown (see `load`).
    """
    data = load(db_path, session=session, timeout=timeout, all_sessions=all_sessions)
    written: list[Path] = []
    if csv is not None:
        written.append(write_text(csv, csv_text(data)))
    if json_path is not None:
        written.append(write_text(json_path, json_text(data)))
    if markdown_path is not None:
        written.append(write_text(markdown_path, markdown_text(data)))
    if latex_path is not None:
        written.append(write_text(latex_path, latex_text(data)))
    if solutions_path is not None:
        written.append(write_text(solutions_path, solutions_text(data)))
    if benchexec is not None:
        folder = output_folder(benchexec)
        written.extend(write_text(folder / name, text)
                       for name, text in result_files(data).items())
    if plots is not None or html is not None:
        plot_files, embedded = _plots_and_svgs(data, plots, want_svg=html is not None)
        written.extend(plot_files)
        if html is not None:
            written.append(write_text(html, html_page(data, embedded)))
    return ReportResult(data, tuple(written))


def html_page(data: ReportData, embedded: list[tuple[Plot, str]] | None = None) -> str:
    """The HTML report of loaded runs, what `report --html` writes (the studio serves it):
    its plots inlined (`embedded`, made here when not given) and its pictures."""
    if embedded is None:
        _, embedded = _plots_and_svgs(data, None, want_svg=True)
    pictures = gallery(data.records, sorted({r.puzzle for r in data.records}))
    return page(data, embedded, pictures, task_pictures(data.records))
