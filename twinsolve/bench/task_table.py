"""The HTML report's per-task table of a puzzle, its controls, and its runs' details.

One row per instance file, one column per back-end; each cell the task's
status (each status with its count where its repeats disagree:
twinsolve.bench.repeats) and its measures, each in a span the table's
controls show or hide: the median wall time, the repeats' range, the
median CPU time, memory and nodes. The fastest solved task of a row is
highlighted (`scores.winners`). A row carries `data-problem` (some back-end
did not solve it, unsupported aside, or its repeats flapped) and
`data-differ` (the back-ends' statuses differ, unsupported aside), which the
status filter reads (twinsolve.bench.html_parts' script).

`Details` collects, cell by cell, what a click on the cell shows: every
repeat's seed, status, wall and CPU time, memory, load, nodes and objective,
their messages, the first run's stats, the answer (cut to `SOLUTION_CUT`
characters; `report --solutions` writes it whole), the answer the file's
metadata expects (its `expect-*` lines), and the task's picture
(twinsolve.bench.gallery.task_pictures) or why there is none; `html()` is the
JSON block (every `<` escaped, so no text closes the script element), the
pictures as `<template>`s, and the dialog.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.result import Status
from .columns import megabytes, seconds
from .html_parts import UNSOLVED_KEY, anchor, escape, inline_svg, table
from .records import RunRecord
from .repeats import TaskRuns, by_task, task_runs
from .scores import winners

if TYPE_CHECKING:  # the pictures come drawn; only their type is named here
    from .gallery import Picture

__all__ = ["task_table", "Details", "SOLUTION_CUT"]

SOLUTION_CUT = 400    # characters of a run's answer in its details
_STATUS_ORDER = tuple(Status)
_MEASURES = (("wall", "wall time", True), ("range", "range of the repeats", True),
             ("cpu", "CPU time", False), ("mem", "memory", False), ("nodes", "nodes", False))


def _run_class(entry: TaskRuns) -> str:
    if entry.flapping and entry.status is not Status.WRONG:
        return "flap"
    if entry.solved:
        return "ok"
    status = entry.status
    if status is Status.FEASIBLE:
        return "partial"
    if status in (Status.TIMEOUT, Status.MEMOUT, Status.UNSUPPORTED):
        return "out"
    return "bad"


def _measures(entry: TaskRuns) -> str:
    """The cell's optional measures, each in a span the table's controls show or hide."""
    if entry.status is Status.UNSUPPORTED:
        return ""  # a run that did not start has no time worth showing
    parts = [("wall", f" {seconds(entry.wall.median)}")]
    if entry.wall.n > 1:
        parts.append(("range", f" ({entry.wall.text(seconds).split(' (', 1)[1]}"))
    if entry.cpu is not None:
        parts.append(("cpu", f" · cpu {seconds(entry.cpu.median)}"))
    if entry.mem is not None:
        parts.append(("mem", f" · {megabytes(entry.mem.median)}"))
    if entry.nodes is not None:
        parts.append(("nodes", f" · {entry.nodes.median:g} nodes"))
    return "".join(f'<span class="m m-{name}">{escape(text)}</span>' for name, text in parts)


def _run_cell(entry: TaskRuns | None, best: bool, detail: int | None) -> str:
    if entry is None:
        return f'<td class="run none" data-sort="{3 * UNSOLVED_KEY!r}">not run</td>'
    key = entry.wall.median if entry.solved else \
        UNSOLVED_KEY + _STATUS_ORDER.index(entry.representative().status) + \
        entry.wall.median / 1e6
    classes = f"run {_run_class(entry)}" + (" best" if best else "")
    messages = sorted({r.message for r in entry.runs if r.message})
    tip = f' title="{escape(messages[0])}"' if messages else ""
    opens = f' data-run="{detail}" tabindex="0"' if detail is not None else ""
    return (f'<td class="{classes}" data-sort="{key!r}"{tip}{opens}>'
            f'<span class="st">{escape(entry.statuses())}</span>{_measures(entry)}</td>')


def _problem(entry: TaskRuns) -> bool:
    return entry.flapping or (not entry.solved and entry.status is not Status.UNSUPPORTED)


def _differ(entries: Sequence[TaskRuns]) -> bool:
    handled = {e.statuses() for e in entries if e.status is not Status.UNSUPPORTED}
    return len(handled) > 1


def _controls(table_id: str, backends: Sequence[str], repeats: bool) -> str:
    name = f"filter-{table_id}"
    filters = "".join(
        f'<label><input type="radio" name="{name}" data-filter="{value}"'
        f'{" checked" if value == "all" else ""}> {escape(text)}</label>'
        for value, text in (("all", "all tasks"), ("problem", "only problems"),
                            ("differ", "only differences between back-ends")))
    columns = "".join(f'<label><input type="checkbox" data-column="{index + 1}" checked> '
                      f"{escape(backend)}</label>" for index, backend in enumerate(backends))
    measures = "".join(
        f'<label><input type="checkbox" data-measure="{key}"'
        f'{" checked" if default and (key != "range" or repeats) else ""}> {escape(text)}</label>'
        for key, text, default in _MEASURES)
    return (f'<div class="controls" data-for="{table_id}"><span><b>show</b> {filters}</span>'
            f"<span><b>back-ends</b> {columns}</span><span><b>in each cell</b> {measures}</span>"
            '<span class="count"></span></div>')


def task_table(puzzle: str, runs: Sequence[RunRecord], details: Details) -> str:
    entries = task_runs(runs)
    backends = sorted({e.backend for e in entries})
    grouped = by_task(entries)
    fastest = winners(runs)
    repeats = any(len(e.runs) > 1 for e in entries)
    table_id = anchor("tasks-table", puzzle)
    lines = []
    for task in sorted(grouped, key=lambda t: (t[1], t[0])):
        mine = {e.backend: e for e in grouped[task]}
        cells = [f'<td class="path">{escape(task[1])}</td>']
        cells += [_run_cell(mine.get(b), b in fastest.get(task, ()),
                            details.add(mine[b]) if b in mine else None) for b in backends]
        flags = (f' data-problem="{int(any(_problem(e) for e in mine.values()))}"'
                 f' data-differ="{int(_differ(list(mine.values())))}"')
        lines.append(f"<tr{flags}>{''.join(cells)}</tr>")
    classes = "tasks show-wall" + (" show-range" if repeats else "")
    return (_controls(table_id, backends, repeats) +
            table(["instance", *backends], lines, sortable=True, table_id=table_id,
                   classes=classes))


class Details:
    """The runs' details of a page, in the order their cells were made, as one JSON list."""

    def __init__(self, pictures: Mapping[str, Picture]) -> None:
        self.pictures = pictures
        self.items: list[dict[str, Any]] = []
        self.templates: dict[str, str] = {}   # picture id -> its inline SVG

    def add(self, entry: TaskRuns) -> int:
        self.items.append(self._detail(entry))
        return len(self.items) - 1

    def _picture(self, path: str) -> dict[str, str | None]:
        picture = self.pictures.get(path)
        if picture is None:
            return {"picture": None, "picture_why": "no picture: no back-end solved it, or "
                                                   "the report was made without pictures"}
        if picture.svg is None:
            return {"picture": None, "picture_why": f"no picture: {picture.why}"}
        name = anchor("detail-picture", str(len(self.templates)))
        if path not in self.templates:
            self.templates[path] = name
        return {"picture": self.templates[path], "picture_caption": picture.caption}

    def _detail(self, entry: TaskRuns) -> dict[str, Any]:
        first = entry.runs[0]
        solution = next((r.solution for r in entry.runs if r.solution is not None), None)
        answer = "no answer" if solution is None else json.dumps(solution)
        if len(answer) > SOLUTION_CUT:
            answer = (f"{answer[:SOLUTION_CUT]}… ({len(answer)} characters in all: "
                      "'twinsolve report DB --solutions FILE' writes it whole)")
        expected = {k: v for k, v in first.metadata.items() if k.startswith("expect")}
        return {
            "task": entry.path, "backend": entry.backend,
            "status": f"{entry.statuses()} · {len(entry.runs)} run"
                      f"{'' if len(entry.runs) == 1 else 's'}",
            "columns": ["seed", "status", "wall", "CPU", "memory", "load", "nodes",
                        "objective"],
            "runs": [{"seed": r.seed, "message": r.message or "",
                      "stats": json.dumps(r.stats, sort_keys=True),
                      "cells": [str(r.seed), r.status.value, seconds(r.wall_s),
                                "-" if r.cpu_s is None else seconds(r.cpu_s),
                                "-" if r.mem_mb is None else megabytes(r.mem_mb),
                                "-" if r.load is None else f"{r.load:.2f}",
                                "-" if r.nodes is None else f"{r.nodes:g}",
                                "-" if r.objective is None else str(r.objective)]}
                     for r in entry.runs],
            "answer": answer,
            "expected": "\n".join(f"{k}: {v}" for k, v in sorted(expected.items()))
                        or "nothing (no expect-* metadata)",
            **self._picture(entry.path),
        }

    def html(self) -> str:
        """The JSON block, the pictures' templates and the dialog that shows a detail."""
        if not self.items:
            return ""
        # `<` escaped, so no text in it can close the script element
        blob = json.dumps(self.items, ensure_ascii=False).replace("<", "\\u003c")
        templates = "".join(
            f'<template id="{name}">{inline_svg(self.pictures[path].svg or "", name)}</template>'
            for path, name in self.templates.items())
        return (f'<script type="application/json" id="run-data">{blob}</script>{templates}'
                '<dialog id="run-detail"><button class="close" type="button">close</button>'
                '<div class="body"></div></dialog>')
