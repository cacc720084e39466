"""The benchmark plots: cactus, pairwise scatter (time and nodes), and nodes against time.

Three kinds, each drawn for every puzzle in the results, from judged records
(a run marked `wrong` does not count as solved); a task is one instance file
(twinsolve.bench.scores.task_of), drawn once whatever its repeats: at the
median of their times and nodes, solved only when every repeat solved it (a
flapping task is drawn as not solved; twinsolve.bench.repeats):

- cactus (`cactus-<puzzle>`): for each back-end, the number of tasks solved
  within a time t, against t on a log axis; the virtual best back-end (per
  task, the fastest solved run of any back-end) is the dashed line, drawn
  when more than one back-end ran. The curve further right and lower is the
  slower back-end.
- scatter (`scatter-time-<puzzle>-<a>-vs-<b>`, `scatter-nodes-...`): one
  point per task that both back-ends ran, log-log, back-end `a` on x (names
  in sorted order). A run that did not solve is drawn on the border: at twice
  the time limit (its PAR-2 score) for time, and at twice the largest node
  count of any solved run of the puzzle for nodes. Points below the diagonal
  are tasks where `b` was better. Time scatters pair every two back-ends of a
  puzzle while there are at most `PAIRWISE_MAX` of them (more would be a
  wall of plots), else each back-end is set against the virtual best. Node
  scatters pair only back-ends whose `nodes` count the same thing: the same
  base back-end under other options (`hand` and `hand:probe=false`, `sat` and
  `sat:glucose4`), never `hand` against `cpsat`, whose nodes are branches of
  another search.
- nodes against time (`nodes-time-<puzzle>`): every solved run, one series per
  back-end, log-log; the slope shows each back-end's cost per node.
- for two databases (`compare_plots`), one time scatter per puzzle and
  back-end that both hold: the same tasks before (x) and after (y).

Every title says what the plot shows. In the SVG, hovering a point names its
task and the values drawn (each point carries a `<title>`); matplotlib marks
each point with a link target of ours when drawing, which `render` turns
into the tooltip.

Runs whose back-end does not handle the instance (`unsupported`) or failed
with an error are left out, as the virtual best leaves them out. A log axis
has no 0: times and node counts below the axes' floor (a run that took no
measurable time, a solve with zero branches) are drawn at the floor, and the
axis's label says so (`nodes (0 drawn at 1)`) on every plot that has one.

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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ..core.result import Status
from ..files.atomic import output_folder, write_bytes
from .columns import file_stem, format_value
from .records import RunRecord
from .repeats import task_runs
from .scores import VIRTUAL_BEST, Task, same_nodes, task_of, virtual_best

__all__ = ["Plot", "FORMATS", "PAIRWISE_MAX", "cactus_plots", "scatter_plots",
           "nodes_time_plots", "all_plots", "compare_plots", "same_nodes", "render",
           "write_plot", "write_cactus", "write_scatter", "write_nodes_time", "write_plots",
           "file_stem"]

FORMATS = ("png", "svg")
PAIRWISE_MAX = 4            # back-ends of a puzzle up to which every pair gets a time scatter
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
_TIP_URL = "twinsolve-tip:"
_TIP = re.compile(r'<a xlink:href="twinsolve-tip:(\d+)"[^>]*>(.*?)</a>', re.S)


@dataclass(frozen=True, eq=False)
class Plot:
    """One figure and where it goes: `stem` + `.png` / `.svg` in the plots folder.

    `tips` holds the hover text of each point, by the index its link target names.
    """

    stem: str
    puzzle: str
    kind: str       # "cactus", "scatter-time", "scatter-nodes", "nodes-time" or "compare-time"
    title: str
    figure: Figure
    tips: tuple[str, ...] = ()


# ------------------------------------------------------------------ shared helpers

def _by_puzzle(records: Iterable[RunRecord]) -> dict[str, list[RunRecord]]:
    """Per puzzle, one record per task and back-end (its repeats' representative)."""
    groups: dict[str, list[RunRecord]] = defaultdict(list)
    for entry in task_runs(records):
        record = entry.representative()
        if record.status not in _SKIPPED:
            groups[record.puzzle].append(record)
    return {puzzle: groups[puzzle] for puzzle in sorted(groups)}


def _time_label(label: str, times: Iterable[float | None]) -> str:
    """A time axis's label, saying how times under its floor are drawn, if any are."""
    if any(t is not None and t < _TIME_FLOOR for t in times):
        return f"{label}; 0 to {format_value('par2', _TIME_FLOOR)} drawn at " \
               f"{format_value('par2', _TIME_FLOOR)}"
    return label


def _nodes_label(label: str, nodes: Iterable[float | None]) -> str:
    """A node axis's label, saying how 0 nodes are drawn, if any run has 0."""
    if any(n is not None and n < _NODE_FLOOR for n in nodes):
        return f"{label}; 0 drawn at {_NODE_FLOOR}"
    return label


def _backends(runs: Sequence[RunRecord]) -> list[str]:
    return sorted({r.backend for r in runs})


def _time_limit(runs: Sequence[RunRecord]) -> float | None:
    limits = [r.timeout_s for r in runs if r.timeout_s]
    return max(limits) if limits else None


def _seconds(record: RunRecord) -> float:
    return max(record.wall_s, _TIME_FLOOR)


def _task_name(task: Task) -> str:
    return task[1]


def _outcome(record: RunRecord) -> str:
    """A run as a tooltip says it: status, time, nodes."""
    nodes = "" if record.nodes is None else f", {record.nodes} nodes"
    return f"{record.backend}: {record.status.value} in {format_value('par2', record.wall_s)}" \
           f"{nodes}"


def _new_figure(size: tuple[float, float] = (6.4, 4.4), below: float = 0.0,
                title_lines: int = 1) -> tuple[Figure, Axes]:
    """A figure with one axes; `below` inches kept free under the x label (for a legend)."""
    figure = Figure(figsize=size)
    FigureCanvasAgg(figure)  # an explicit Agg canvas: never a GUI window
    # Fixed margins (in inches, room for log tick labels and titles): a layout
    # engine would re-measure every text on each save and triple the time.
    width, height = size
    figure.subplots_adjust(left=0.75 / width, right=1 - 0.2 / width,
                           bottom=(0.55 + below) / height,
                           top=1 - (0.22 + 0.18 * title_lines) / height)
    return figure, figure.add_subplot()


def _style(index: int) -> dict[str, Any]:
    return {"color": _COLOURS[index % len(_COLOURS)], "marker": _MARKERS[index % len(_MARKERS)]}


def _rc(stem: str) -> dict[str, Any]:
    return {**_RC, "svg.hashsalt": f"twinsolve:{stem}"}


Drawn = tuple[Figure, str, list[str]]   # the figure, its title, the points' hover texts


def _build(stem: str, puzzle: str, kind: str, draw: Callable[..., Drawn], *args: Any) -> Plot:
    """Draw a figure under the plot's settings (they apply when artists are made)."""
    with matplotlib.rc_context(_rc(stem)):
        figure, title, tips = draw(puzzle, *args)
    return Plot(stem, puzzle, kind, title, figure, tuple(tips))


def _with_tips(collection: PathCollection, tips: list[str], texts: Sequence[str]) -> None:
    """Mark each point of `collection` with its hover text (see `render`)."""
    collection.set_urls([f"{_TIP_URL}{len(tips) + i}" for i in range(len(texts))])
    tips.extend(texts)


# ------------------------------------------------------------------ cactus

def _cactus_line(axes: Axes, times: list[float], right: float, label: str,
                 **style: Any) -> None:
    """A step curve: after the k-th fastest time, k tasks are solved."""
    if not times:
        axes.plot([], [], label=label, **style)
        return
    xs = [times[0], *times, right]
    ys = [0, *range(1, len(times) + 1), len(times)]
    axes.step(xs, ys, where="post", label=label, linewidth=1.4, **style)


def _draw_cactus(puzzle: str, runs: Sequence[RunRecord]) -> Drawn:
    figure, axes = _new_figure()
    tasks = len({task_of(r) for r in runs})
    solved_times = [_seconds(r) for r in runs if r.solved]
    limit = _time_limit(runs)
    right = limit or (max(solved_times) * 2 if solved_times else 1.0)
    backends = _backends(runs)
    for index, backend in enumerate(backends):
        times = sorted(_seconds(r) for r in runs if r.backend == backend and r.solved)
        _cactus_line(axes, times, right, f"{backend} ({len(times)})",
                     color=_style(index)["color"])
    if len(backends) > 1:  # as in the totals: a portfolio of one is that back-end
        best = sorted(_seconds(r) for r in virtual_best(runs) if r.solved)
        _cactus_line(axes, best, right, f"{VIRTUAL_BEST} ({len(best)})", color="black",
                     linestyle="--")
    axes.axhline(tasks, color="grey", linestyle=":", linewidth=0.8)
    if limit:
        axes.axvline(limit, color="grey", linestyle=":", linewidth=0.8)
    axes.set_xscale("log")
    axes.set_xlim(min(solved_times, default=right) / 2, right * 1.5)
    axes.set_ylim(0, max(tasks, 1) * 1.05)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel(_time_label("time limit t (s, wall)",
                                [r.wall_s for r in runs if r.solved]))
    axes.set_ylabel("tasks solved within t")
    title = f"{puzzle}: tasks solved within time t, per back-end ({tasks} tasks)"
    axes.set_title(title)
    axes.legend(loc="lower right")  # curves climb to the left and stay high to the right
    return figure, title, []


def cactus_plots(records: Iterable[RunRecord]) -> list[Plot]:
    """One cactus plot per puzzle."""
    return [_build(file_stem("cactus", puzzle), puzzle, "cactus", _draw_cactus, runs)
            for puzzle, runs in _by_puzzle(records).items()]


# ------------------------------------------------------------------ scatter

def _pairs(runs: Sequence[RunRecord], a: str,
           b: str) -> list[tuple[Task, RunRecord, RunRecord]]:
    """The runs of `a` and `b` on the same task, in a stable order."""
    first = {task_of(r): r for r in runs if r.backend == a}
    second = {task_of(r): r for r in runs if r.backend == b}
    return [(key, first[key], second[key]) for key in sorted(first.keys() & second.keys())]


def _raw(record: RunRecord, measure: str) -> float | None:
    """The run's time or nodes as measured."""
    if measure == "time":
        return record.wall_s
    return None if record.nodes is None else float(record.nodes)


def _measure(record: RunRecord, measure: str) -> float | None:
    """The solved run's time or nodes (floored for the log axis); None if not solved."""
    if not record.solved:
        return None
    value = _raw(record, measure)
    floor = _TIME_FLOOR if measure == "time" else _NODE_FLOOR
    return None if value is None else max(value, floor)


def _border(runs: Sequence[RunRecord], measure: str) -> float:
    """Where runs that did not solve are drawn: past every solved value."""
    limit = _time_limit(runs)
    if measure == "time" and limit:
        return 2 * limit
    solved = [v for r in runs if (v := _measure(r, measure)) is not None]
    return 2 * max(solved, default=1.0)


_CATEGORIES = (("both solved", "#1f77b4", "o"), ("only {a} solved", "#2ca02c", "^"),
               ("only {b} solved", "#ff7f0e", "v"), ("neither solved", "#d62728", "x"))


def _scatter_points(runs: Sequence[RunRecord], a: str, b: str, measure: str,
                    border: float) -> list[tuple[list[float], list[float], list[str]]]:
    """Per category of `_CATEGORIES`: the points' x, y and hover texts."""
    points: list[tuple[list[float], list[float], list[str]]] = [([], [], []) for _ in range(4)]
    for task, first, second in _pairs(runs, a, b):
        x, y = _measure(first, measure), _measure(second, measure)
        if (first.solved and x is None) or (second.solved and y is None):
            continue  # solved but no node count recorded: nothing to place
        xs, ys, tips = points[(x is None) * 2 + (y is None)]
        xs.append(border if x is None else x)
        ys.append(border if y is None else y)
        tips.append("\n".join((_task_name(task), _outcome(first), _outcome(second))))
    return points


def _draw_scatter(puzzle: str, runs: Sequence[RunRecord], a: str, b: str,
                  measure: str) -> Drawn:
    figure, axes = _new_figure((5.2, 5.7), below=0.5, title_lines=2)
    border = _border(runs, measure)
    points = _scatter_points(runs, a, b, measure, border)
    drawn = [v for xs, ys, _ in points for v in xs + ys]
    low = min(drawn, default=border / 10) / 2
    high = border * 1.6
    axes.plot([low, high], [low, high], color="grey", linewidth=0.8)
    for value in (border, border / 2) if measure == "time" else (border,):
        axes.axvline(value, color="grey", linestyle=":", linewidth=0.8)
        axes.axhline(value, color="grey", linestyle=":", linewidth=0.8)
    axes.text(border, low * 1.15, " not solved", rotation=90, va="bottom", ha="right",
              fontsize=7, color="grey")
    tips: list[str] = []
    for (label, colour, marker), (xs, ys, texts) in zip(_CATEGORIES, points, strict=True):
        text = label.format(a=a, b=b)
        collection = axes.scatter(xs, ys, s=18, color=colour, marker=marker, alpha=0.8,
                                  label=f"{text} ({len(xs)})")
        _with_tips(collection, tips, texts)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, high)
    axes.set_ylim(low, high)
    axes.set_aspect("equal")
    unit = "wall time (s)" if measure == "time" else "nodes"
    for backend, set_label in ((a, axes.set_xlabel), (b, axes.set_ylabel)):
        raw = [_raw(r, measure) for r in runs if r.backend == backend and r.solved]
        label = f"{backend}: {unit}"
        set_label(_time_label(label, raw) if measure == "time" else _nodes_label(label, raw))
    what = "wall time" if measure == "time" else "search nodes"
    title = f"{puzzle}: {what} per task\n{a} (x) against {b} (y)"
    axes.set_title(title)
    if not drawn:
        axes.text(0.5, 0.5, "no runs on the same tasks", transform=axes.transAxes,
                  ha="center", va="center", color="grey")
    # Under the axes: every corner of a scatter can hold points (border, diagonal).
    figure.legend(loc="lower center", ncols=2, frameon=False)
    return figure, title, tips


def _scatter_pairs(runs: Sequence[RunRecord], measure: str) -> tuple[list[RunRecord],
                                                                      list[tuple[str, str]]]:
    """The runs to draw from and the (x, y) back-end pairs of one puzzle's scatters."""
    backends = _backends(runs)
    if measure == "nodes":
        return list(runs), [(a, b) for a, b in itertools.combinations(backends, 2)
                            if same_nodes(a, b)]
    if len(backends) <= PAIRWISE_MAX:
        return list(runs), list(itertools.combinations(backends, 2))
    best = [replace(r, backend=VIRTUAL_BEST) for r in virtual_best(runs)]
    return [*runs, *best], [(b, VIRTUAL_BEST) for b in backends]


def scatter_plots(records: Iterable[RunRecord], measure: str = "time") -> list[Plot]:
    """The log-log scatters of each puzzle (which pairs: see the module doc).

    `measure` is "time" or "nodes".
    """
    if measure not in ("time", "nodes"):
        raise ValueError(f"measure must be 'time' or 'nodes', not {measure!r}")
    plots = []
    for puzzle, runs in _by_puzzle(records).items():
        drawn_from, pairs = _scatter_pairs(runs, measure)
        for a, b in pairs:
            stem = file_stem(f"scatter-{measure}", puzzle, a, "vs", b)
            plots.append(_build(stem, puzzle, f"scatter-{measure}", _draw_scatter, drawn_from,
                                a, b, measure))
    return plots


def compare_plots(before: Iterable[RunRecord], after: Iterable[RunRecord],
                  names: tuple[str, str] = ("A", "B")) -> list[Plot]:
    """Per puzzle and back-end in both result sets, the time scatter of `before` against `after`."""
    labelled = {name: _by_puzzle(records) for name, records in zip(names, (before, after),
                                                                   strict=True)}
    plots = []
    for puzzle in sorted(labelled[names[0]].keys() & labelled[names[1]].keys()):
        sides = [labelled[name][puzzle] for name in names]
        for backend in sorted(set(_backends(sides[0])) & set(_backends(sides[1]))):
            a, b = (f"{backend} in {name}" for name in names)
            runs = [replace(r, backend=label) for label, side in zip((a, b), sides, strict=True)
                    for r in side if r.backend == backend]
            stem = file_stem("compare-time", puzzle, backend)
            plots.append(_build(stem, puzzle, "compare-time", _draw_scatter, runs, a, b, "time"))
    return plots


# ------------------------------------------------------------------ nodes against time

def _draw_nodes_time(puzzle: str, runs: Sequence[RunRecord]) -> Drawn:
    figure, axes = _new_figure()
    tips: list[str] = []
    for index, backend in enumerate(_backends(runs)):
        solved = [r for r in runs if r.backend == backend and r.solved and r.nodes is not None]
        xs = [_seconds(r) for r in solved]
        ys = [max(float(r.nodes), _NODE_FLOOR) for r in solved]  # type: ignore[arg-type]
        collection = axes.scatter(xs, ys, s=16, alpha=0.75, label=f"{backend} ({len(xs)})",
                                  **_style(index))
        _with_tips(collection, tips, [f"{_task_name(task_of(r))}\n{_outcome(r)}"
                                      for r in solved])
    axes.set_xscale("log")
    axes.set_yscale("log")
    if not tips:
        axes.set_xlim(_TIME_FLOOR, 1)
        axes.set_ylim(_NODE_FLOOR, 10)
        axes.text(0.5, 0.5, "no solved runs", transform=axes.transAxes, ha="center",
                  va="center", color="grey")
    solved = [r for r in runs if r.solved and r.nodes is not None]
    axes.set_xlabel(_time_label("wall time (s)", [r.wall_s for r in solved]))
    axes.set_ylabel(_nodes_label("nodes (each back-end counts its own)",
                                 [r.nodes for r in solved]))
    title = f"{puzzle}: search nodes against wall time, one point per solved run"
    axes.set_title(title)
    axes.legend(loc="best")
    return figure, title, tips


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

def _tooltips(svg: bytes, tips: Sequence[str]) -> bytes:
    """Each point's link target of ours becomes a group with a `<title>`: the hover text."""
    def group(match: re.Match[str]) -> str:
        return f'<g><title>{escape(tips[int(match.group(1))])}</title>{match.group(2)}</g>'

    return _TIP.sub(group, svg.decode("utf-8")).encode("utf-8")


def render(plot: Plot, fmt: str) -> bytes:
    """The plot as PNG or SVG bytes; the same plot always gives the same bytes."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, not {fmt!r}")
    buffer = io.BytesIO()
    with matplotlib.rc_context(_rc(plot.stem)):
        plot.figure.savefig(buffer, format=fmt, metadata=_METADATA[fmt])
    return _tooltips(buffer.getvalue(), plot.tips) if fmt == "svg" else buffer.getvalue()


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
