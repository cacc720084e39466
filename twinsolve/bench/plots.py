"""The benchmark plots: cactus, pairwise scatter (time and nodes), and nodes against time.

Three kinds, each drawn for every puzzle in the results, from judged records
(a run marked `wrong` does not count as solved):

- cactus (`cactus-<puzzle>`): for each back-end, the number of instances
  solved within a time t, against t on a log axis; the virtual best back-end
  (per instance, the fastest solved run of any back-end) is the dashed line,
  drawn when more than one back-end ran. The curve further right and lower is
  the slower back-end.
- scatter (`scatter-time-<puzzle>-<a>-vs-<b>`, `scatter-nodes-...`): one
  point per instance and seed that both back-ends ran, log-log, back-end `a`
  on x (names in sorted order). A run that did not solve is drawn on the
  border: at twice the time limit (its PAR-2 score) for time, and at twice
  the largest node count of any solved run of the puzzle for nodes. Points below the diagonal are
  instances where `b` was better.
- nodes against time (`nodes-time-<puzzle>`): every solved run, one series per
  back-end, log-log; the slope shows each back-end's cost per node.

Runs whose back-end does not handle the instance (`unsupported`) or failed
with an error are left out, as the summary leaves them out of PAR-2 and the
virtual best. Times and node counts below the axes' floor (a run that took
no measurable time, a solve with zero branches) are drawn at the floor.

Figures are built on matplotlib's object API with the Agg canvas (never
pyplot, so no window and no global figure list), and rendered under fixed
settings so the same results give the same bytes: a fixed `svg.hashsalt`
(matplotlib's ids are otherwise random per save), text as `<text>` rather
than font-dependent glyph paths, no date in the metadata, and colours chosen
by back-end position in sorted order. Margins are fixed rather than computed
by a layout engine, which would measure every text again on each save.
"""

from __future__ import annotations

import io
import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..core.atomic import output_folder, write_bytes
from ..core.result import Status
from .records import RunRecord
from .summary import VIRTUAL_BEST, virtual_best

__all__ = ["Plot", "FORMATS", "cactus_plots", "scatter_plots", "nodes_time_plots", "all_plots",
           "render", "write_plot", "write_cactus", "write_scatter", "write_nodes_time",
           "write_plots", "file_stem"]

FORMATS = ("png", "svg")
_SKIPPED = (Status.UNSUPPORTED, Status.ERROR)
_TIME_FLOOR = 1e-4          # seconds: the lowest time a log axis shows
_NODE_FLOOR = 1             # nodes: zero branches is drawn at one
_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22", "#17becf")
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")
_METADATA: dict[str, dict[str, Any]] = {"svg": {"Date": None}, "png": {"Software": None}}
_RC: dict[str, Any] = {
    "svg.fonttype": "none", "font.size": 9, "axes.titlesize": 10, "legend.fontsize": 8,
    "axes.grid": True, "grid.alpha": 0.3, "grid.linewidth": 0.5, "savefig.dpi": 110,
}


@dataclass(frozen=True, eq=False)
class Plot:
    """One figure and where it goes: `stem` + `.png` / `.svg` in the plots folder."""

    stem: str
    puzzle: str
    kind: str       # "cactus", "scatter-time", "scatter-nodes" or "nodes-time"
    title: str
    figure: Figure


def file_stem(*parts: str) -> str:
    """A file name from puzzle and back-end names, safe on every file system.

    >>> file_stem("scatter-time", "lightsout", "sat:glucose4", "vs", "hand")
    'scatter-time-lightsout-sat_glucose4-vs-hand'
    """
    return "-".join(re.sub(r"[^A-Za-z0-9_.+-]+", "_", part).strip("._") or "_" for part in parts)


# ------------------------------------------------------------------ shared helpers

def _by_puzzle(records: Iterable[RunRecord]) -> dict[str, list[RunRecord]]:
    groups: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        if record.status not in _SKIPPED:
            groups[record.puzzle].append(record)
    return {puzzle: groups[puzzle] for puzzle in sorted(groups)}


def _backends(runs: Sequence[RunRecord]) -> list[str]:
    return sorted({r.backend for r in runs})


def _instance(record: RunRecord) -> tuple[str, int]:
    return (record.instance_hash or record.path, record.seed)


def _time_limit(runs: Sequence[RunRecord]) -> float | None:
    limits = [r.timeout_s for r in runs if r.timeout_s]
    return max(limits) if limits else None


def _seconds(record: RunRecord) -> float:
    return max(record.wall_s, _TIME_FLOOR)


def _new_figure(size: tuple[float, float] = (6.4, 4.4),
                below: float = 0.0) -> tuple[Figure, Axes]:
    """A figure with one axes; `below` inches kept free under the x label (for a legend)."""
    figure = Figure(figsize=size)
    FigureCanvasAgg(figure)  # an explicit Agg canvas: never a GUI window
    # Fixed margins (in inches, room for log tick labels and titles): a layout
    # engine would re-measure every text on each save and triple the time.
    width, height = size
    figure.subplots_adjust(left=0.75 / width, right=1 - 0.2 / width,
                           bottom=(0.55 + below) / height, top=1 - 0.4 / height)
    return figure, figure.add_subplot()


def _style(index: int) -> dict[str, Any]:
    return {"color": _COLOURS[index % len(_COLOURS)], "marker": _MARKERS[index % len(_MARKERS)]}


def _rc(stem: str) -> dict[str, Any]:
    return {**_RC, "svg.hashsalt": f"twinsolve:{stem}"}


def _build(stem: str, puzzle: str, kind: str, draw: Callable[..., tuple[Figure, str]],
           *args: Any) -> Plot:
    """Draw a figure under the plot's settings (they apply when artists are made)."""
    with matplotlib.rc_context(_rc(stem)):
        figure, title = draw(puzzle, *args)
    return Plot(stem, puzzle, kind, title, figure)


# ------------------------------------------------------------------ cactus

def _cactus_line(axes: Axes, times: list[float], right: float, label: str,
                 **style: Any) -> None:
    """A step curve: after the k-th fastest time, k instances are solved."""
    if not times:
        axes.plot([], [], label=label, **style)
        return
    xs = [times[0], *times, right]
    ys = [0, *range(1, len(times) + 1), len(times)]
    axes.step(xs, ys, where="post", label=label, linewidth=1.4, **style)


def _draw_cactus(puzzle: str, runs: Sequence[RunRecord]) -> tuple[Figure, str]:
    figure, axes = _new_figure()
    instances = len({_instance(r) for r in runs})
    solved_times = [_seconds(r) for r in runs if r.solved]
    limit = _time_limit(runs)
    right = limit or (max(solved_times) * 2 if solved_times else 1.0)
    backends = _backends(runs)
    for index, backend in enumerate(backends):
        times = sorted(_seconds(r) for r in runs if r.backend == backend and r.solved)
        _cactus_line(axes, times, right, f"{backend} ({len(times)})",
                     color=_style(index)["color"])
    if len(backends) > 1:  # as in the summary: a portfolio of one is that back-end
        best = sorted(_seconds(r) for r in virtual_best(runs) if r.solved)
        _cactus_line(axes, best, right, f"{VIRTUAL_BEST} ({len(best)})", color="black",
                     linestyle="--")
    axes.axhline(instances, color="grey", linestyle=":", linewidth=0.8)
    if limit:
        axes.axvline(limit, color="grey", linestyle=":", linewidth=0.8)
    axes.set_xscale("log")
    axes.set_xlim(min(solved_times, default=right) / 2, right * 1.5)
    axes.set_ylim(0, max(instances, 1) * 1.05)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("time limit t (s, wall)")
    axes.set_ylabel("instances solved within t")
    seeds = len({r.seed for r in runs})
    what = "instances" if seeds <= 1 else f"instance runs, {seeds} seeds"
    title = f"{puzzle}: solved within t ({instances} {what})"
    axes.set_title(title)
    axes.legend(loc="lower right")  # curves climb to the left and stay high to the right
    return figure, title


def cactus_plots(records: Iterable[RunRecord]) -> list[Plot]:
    """One cactus plot per puzzle."""
    return [_build(file_stem("cactus", puzzle), puzzle, "cactus", _draw_cactus, runs)
            for puzzle, runs in _by_puzzle(records).items()]


# ------------------------------------------------------------------ scatter

def _pairs(runs: Sequence[RunRecord], a: str,
           b: str) -> list[tuple[RunRecord, RunRecord]]:
    """The runs of `a` and `b` on the same instance and seed, in a stable order."""
    first = {_instance(r): r for r in runs if r.backend == a}
    second = {_instance(r): r for r in runs if r.backend == b}
    return [(first[key], second[key]) for key in sorted(first.keys() & second.keys())]


def _measure(record: RunRecord, measure: str) -> float | None:
    """The solved run's time or nodes (floored for the log axis); None if not solved."""
    if not record.solved:
        return None
    if measure == "time":
        return _seconds(record)
    return None if record.nodes is None else max(float(record.nodes), _NODE_FLOOR)


def _border(runs: Sequence[RunRecord], measure: str) -> float:
    """Where runs that did not solve are drawn: past every solved value."""
    limit = _time_limit(runs)
    if measure == "time" and limit:
        return 2 * limit
    solved = [v for r in runs if (v := _measure(r, measure)) is not None]
    return 2 * max(solved, default=1.0)


_CATEGORIES = (("both solved", "#1f77b4", "o"), ("only {a} solved", "#2ca02c", "^"),
               ("only {b} solved", "#ff7f0e", "v"), ("neither solved", "#d62728", "x"))


def _draw_scatter(puzzle: str, runs: Sequence[RunRecord], a: str, b: str,
                  measure: str) -> tuple[Figure, str]:
    figure, axes = _new_figure((5.2, 5.5), below=0.5)
    border = _border(runs, measure)
    points: dict[int, tuple[list[float], list[float]]] = {i: ([], []) for i in range(4)}
    for first, second in _pairs(runs, a, b):
        x, y = _measure(first, measure), _measure(second, measure)
        if (first.solved and x is None) or (second.solved and y is None):
            continue  # solved but no node count recorded: nothing to place
        category = (x is None) * 2 + (y is None)  # the index in _CATEGORIES
        points[category][0].append(border if x is None else x)
        points[category][1].append(border if y is None else y)
    drawn = [v for xs, ys in points.values() for v in xs + ys]
    low = min(drawn, default=border / 10) / 2
    high = border * 1.6
    axes.plot([low, high], [low, high], color="grey", linewidth=0.8)
    for value in (border, border / 2) if measure == "time" else (border,):
        axes.axvline(value, color="grey", linestyle=":", linewidth=0.8)
        axes.axhline(value, color="grey", linestyle=":", linewidth=0.8)
    axes.text(border, low * 1.15, " not solved", rotation=90, va="bottom", ha="right",
              fontsize=7, color="grey")
    for index, (label, colour, marker) in enumerate(_CATEGORIES):
        xs, ys = points[index]
        text = label.format(a=a, b=b)
        axes.scatter(xs, ys, s=18, color=colour, marker=marker, alpha=0.8,
                     label=f"{text} ({len(xs)})")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, high)
    axes.set_ylim(low, high)
    axes.set_aspect("equal")
    unit = "wall time (s)" if measure == "time" else "nodes"
    axes.set_xlabel(f"{a}: {unit}")
    axes.set_ylabel(f"{b}: {unit}")
    title = f"{puzzle}: {'time' if measure == 'time' else 'nodes'}, {a} vs {b}"
    axes.set_title(title)
    if not drawn:
        axes.text(0.5, 0.5, "no runs on the same instances", transform=axes.transAxes,
                  ha="center", va="center", color="grey")
    # Under the axes: every corner of a scatter can hold points (border, diagonal).
    figure.legend(loc="lower center", ncols=2, frameon=False)
    return figure, title


def scatter_plots(records: Iterable[RunRecord], measure: str = "time") -> list[Plot]:
    """One log-log scatter per pair of back-ends per puzzle; `measure` is "time" or "nodes"."""
    if measure not in ("time", "nodes"):
        raise ValueError(f"measure must be 'time' or 'nodes', not {measure!r}")
    plots = []
    for puzzle, runs in _by_puzzle(records).items():
        for a, b in itertools.combinations(_backends(runs), 2):
            stem = file_stem(f"scatter-{measure}", puzzle, a, "vs", b)
            plots.append(_build(stem, puzzle, f"scatter-{measure}", _draw_scatter, runs, a, b,
                                measure))
    return plots


# ------------------------------------------------------------------ nodes against time

def _draw_nodes_time(puzzle: str, runs: Sequence[RunRecord]) -> tuple[Figure, str]:
    figure, axes = _new_figure()
    drawn = 0
    for index, backend in enumerate(_backends(runs)):
        solved = [r for r in runs if r.backend == backend and r.solved and r.nodes is not None]
        xs = [_seconds(r) for r in solved]
        ys = [max(float(r.nodes), _NODE_FLOOR) for r in solved]  # type: ignore[arg-type]
        axes.scatter(xs, ys, s=16, alpha=0.75, label=f"{backend} ({len(xs)})", **_style(index))
        drawn += len(xs)
    axes.set_xscale("log")
    axes.set_yscale("log")
    if not drawn:
        axes.set_xlim(_TIME_FLOOR, 1)
        axes.set_ylim(_NODE_FLOOR, 10)
        axes.text(0.5, 0.5, "no solved runs", transform=axes.transAxes, ha="center",
                  va="center", color="grey")
    axes.set_xlabel("wall time (s)")
    axes.set_ylabel("nodes")
    title = f"{puzzle}: nodes against time (solved runs)"
    axes.set_title(title)
    axes.legend(loc="best")
    return figure, title


def nodes_time_plots(records: Iterable[RunRecord]) -> list[Plot]:
    """One nodes-against-time plot per puzzle, one series per back-end."""
    return [_build(file_stem("nodes-time", puzzle), puzzle, "nodes-time", _draw_nodes_time, runs)
            for puzzle, runs in _by_puzzle(records).items()]


def all_plots(records: Iterable[RunRecord]) -> list[Plot]:
    """Every plot, grouped by puzzle: cactus, nodes against time, then the scatters."""
    records = list(records)
    plots = [*cactus_plots(records), *nodes_time_plots(records),
             *scatter_plots(records, "time"), *scatter_plots(records, "nodes")]
    order = {"cactus": 0, "nodes-time": 1, "scatter-time": 2, "scatter-nodes": 3}
    return sorted(plots, key=lambda p: (p.puzzle, order[p.kind]))


# ------------------------------------------------------------------ output

def render(plot: Plot, fmt: str) -> bytes:
    """The plot as PNG or SVG bytes; the same plot always gives the same bytes."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, not {fmt!r}")
    buffer = io.BytesIO()
    with matplotlib.rc_context(_rc(plot.stem)):
        plot.figure.savefig(buffer, format=fmt, metadata=_METADATA[fmt])
    return buffer.getvalue()


def write_plot(plot: Plot, directory: str | Path,
               rendered: dict[str, bytes] | None = None) -> list[Path]:
    """Write `<stem>.png` and `<stem>.svg` (atomically); `rendered` reuses bytes already made."""
    folder = output_folder(directory)
    rendered = rendered or {}
    return [write_bytes(folder / f"{plot.stem}.{fmt}", rendered.get(fmt) or render(plot, fmt))
            for fmt in FORMATS]


def _write_all(plots: Iterable[Plot], directory: str | Path) -> list[Path]:
    return [path for plot in plots for path in write_plot(plot, directory)]


def write_cactus(records: Iterable[RunRecord], directory: str | Path) -> list[Path]:
    """Write the cactus plot of every puzzle; return the paths written."""
    return _write_all(cactus_plots(records), directory)


def write_scatter(records: Iterable[RunRecord], directory: str | Path) -> list[Path]:
    """Write the time and the nodes scatter of every pair of back-ends; return the paths."""
    records = list(records)
    return _write_all([*scatter_plots(records, "time"), *scatter_plots(records, "nodes")],
                      directory)


def write_nodes_time(records: Iterable[RunRecord], directory: str | Path) -> list[Path]:
    """Write the nodes-against-time plot of every puzzle; return the paths written."""
    return _write_all(nodes_time_plots(records), directory)


def write_plots(records: Iterable[RunRecord], directory: str | Path) -> list[Path]:
    """Write every plot of every puzzle as PNG and SVG; return the paths written."""
    return _write_all(all_plots(records), directory)
