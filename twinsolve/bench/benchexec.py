"""BenchExec result XML: twinsolve's runs in the files BenchExec's `table-generator` reads.

One file per back-end — a BenchExec run set named after it — and, with
repeats, one per back-end and repeat (`<db>-<back-end>.xml`, then
`<db>-<back-end>.r1.xml`, `.r2` ...), so `table-generator *.xml` sets the
back-ends (and repeats) side by side, task by task, with its statistics
rows, filters and plots. The format is BenchExec's result XML (its DTD,
result-3.x): a `<result>` with the limits, the run set's name and start
time and the host (`<systeminfo>`: host name, operating system, CPU model
and cores, memory), then one `<run>` per task named by its instance path,
each holding columns:
- `status`, in BenchExec's words, so that its statistics rows count the
  correct and the wrong answers: the property is "the puzzle has a
  solution", so `true` is a solution the back-end returned as definite
  (twinsolve's `optimal` or `solved`, or a solution `verify` rejected) and
  `false(unsat)` a proof that there is none; what stopped a run is
  `TIMEOUT`, `OUT OF MEMORY`, `ERROR (crash)` or `ERROR`; a solution without
  proof of optimality is `unknown (feasible)`, and a variant the back-end
  does not handle `unknown (unsupported)`;
- `answer`: twinsolve's own status as stored (`optimal`, `solved`, `unsat`,
  `feasible`, `timeout`, ...);
- `category` (hidden, as BenchExec writes it): twinsolve's verdict —
  `correct` (a definite answer that passed `verify` and every check of the
  harness), `wrong`, `unknown` (a solution without proof, or unsupported),
  `error` (timeout, memout, crash, error);
- `cputime`, `walltime` (seconds, `s`), `memory` (bytes, `B`): the run's
  CPU and wall time and the peak memory it *added* to its worker
  (twinsolve.bench.records; BenchExec's own `memory` is a whole process's
  peak, which here would count the worker's imports);
- twinsolve's own: `nodes` and `load` (the host's load when the run started).

Renderer over the loaded data (twinsolve.bench.results); the report command
writes the files.
"""

from __future__ import annotations

import platform
from collections import defaultdict
from collections.abc import Mapping
from typing import Any
from xml.dom import minidom
from xml.etree import ElementTree

from ..core.result import Status
from .columns import file_stem
from .records import RunRecord
from .results import ReportData

__all__ = ["result_files", "PUBLIC_ID", "SYSTEM_ID"]

PUBLIC_ID = "+//IDN sosy-lab.org//DTD BenchExec result 3.0//EN"
SYSTEM_ID = "https://www.sosy-lab.org/benchexec/result-3.0.dtd"

_STOPPED = {Status.TIMEOUT: "TIMEOUT", Status.MEMOUT: "OUT OF MEMORY",
            Status.CRASH: "ERROR (crash)", Status.ERROR: "ERROR"}
# The back-end's claim in BenchExec's words (the module docstring); a stored `wrong` is a
# solution `verify` rejected, so it claimed one.
_CLAIMS = {Status.OPTIMAL: "true", Status.SOLVED: "true", Status.WRONG: "true",
           Status.UNSAT: "false(unsat)", Status.FEASIBLE: "unknown (feasible)",
           Status.UNSUPPORTED: "unknown (unsupported)", **_STOPPED}


def _category(judged: RunRecord) -> str:
    if judged.status is Status.WRONG:
        return "wrong"
    if judged.solved:
        return "correct"
    if judged.status in _STOPPED:
        return "error"
    return "unknown"


def _column(parent: ElementTree.Element, title: str, value: object,
            hidden: bool = False) -> None:
    if value is None:
        return
    element = ElementTree.SubElement(parent, "column", title=title, value=str(value))
    if hidden:
        element.set("hidden", "true")


def _run(raw: Mapping[str, Any], judged: RunRecord) -> ElementTree.Element:
    run = ElementTree.Element("run", name=judged.task_path or judged.path)
    stored = Status(raw["status"])
    _column(run, "status", _CLAIMS[stored])
    _column(run, "answer", stored.value)
    _column(run, "category", _category(judged), hidden=True)
    _column(run, "cputime", None if judged.cpu_s is None else f"{judged.cpu_s:.6f}s")
    _column(run, "walltime", f"{judged.wall_s:.6f}s")
    _column(run, "memory", None if judged.mem_mb is None else f"{round(judged.mem_mb * 2**20)}B")
    _column(run, "nodes", judged.nodes)
    _column(run, "load", judged.load)
    return run


def _header(data: ReportData, name: str, runs: list[RunRecord]) -> ElementTree.Element:
    sessions = data.shown_sessions
    first = sessions[0] if sessions else {}
    started = str(first.get("started") or "")
    result = ElementTree.Element(
        "result", benchmarkname=data.db.stem, name=name, tool="twinsolve",
        version=str(first.get("twinsolve") or ""), toolmodule="", options="",
        generator=f"twinsolve {first.get('twinsolve') or ''}".strip(),
        date=started.replace("T", " ").replace("+00:00", " UTC"), starttime=started)
    timeout, memory = runs[0].timeout_s, runs[0].memory_mb
    if timeout is not None:
        result.set("timelimit", f"{timeout:g} s")
    if memory is not None:
        result.set("memlimit", f"{memory} MB")
    columns = ElementTree.SubElement(result, "columns")
    for title in ("status", "answer", "cputime", "walltime", "memory", "nodes", "load"):
        ElementTree.SubElement(columns, "column", title=title)
    for session in sessions:
        info = ElementTree.SubElement(result, "systeminfo",
                                      hostname=str(session.get("host") or "unknown"))
        ElementTree.SubElement(info, "os", name=str(session.get("platform")
                                                    or platform.system()))
        ElementTree.SubElement(info, "cpu", model=str(session.get("cpu") or "unknown"),
                               cores=str(session.get("cores") or "-"))
        ram = session.get("ram_mb")
        ElementTree.SubElement(info, "ram", size=f"{int(ram) << 20}B" if ram else "-")
        ElementTree.SubElement(info, "environment")
    return result


def _document(element: ElementTree.Element) -> str:
    """The XML with BenchExec's DOCTYPE, indented as BenchExec writes it."""
    parsed = minidom.parseString(ElementTree.tostring(element, encoding="unicode"))
    doctype = minidom.DOMImplementation().createDocumentType("result", PUBLIC_ID, SYSTEM_ID)
    parsed.insertBefore(doctype, parsed.documentElement)
    return parsed.toprettyxml(indent="  ", encoding="utf-8").decode("utf-8")


def result_files(data: ReportData) -> dict[str, str]:
    """File name -> XML text: one result file per back-end and repeat (the module doc)."""
    sets: dict[tuple[str, int], list[tuple[Mapping[str, Any], RunRecord]]] = defaultdict(list)
    for raw, judged in zip(data.rows, data.records, strict=True):
        sets[(judged.backend, judged.seed)].append((raw, judged))
    files = {}
    for (backend, seed), runs in sorted(sets.items()):
        name = backend if seed == 0 else f"{backend} repeat {seed}"
        root = _header(data, name, [judged for _, judged in runs])
        for raw, judged in sorted(runs, key=lambda pair: pair[1].task_path or pair[1].path):
            root.append(_run(raw, judged))
        stem = file_stem(data.db.stem, backend) + ("" if seed == 0 else f".r{seed}")
        files[f"{stem}.xml"] = _document(root)
    return files
