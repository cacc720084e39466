"""Writing encodings out, so solvers twinsolve does not ship can run them.

A puzzle declares (`core.declaration`) its `sat_export(instance) ->
CnfExport` (the same clauses the `sat` back-end solves, the literals whose
truth costs one unit of the objective, and the decoder back to a solution)
and its `cpsat_export(instance) -> CpModel` (the `cpsat` back-end's model,
objective included), or says why it has none (a planning encoding that grows
its horizon while solving has no one file to write); an instance its `sat`
back-end does not handle has no CNF either. This module writes them:

- DIMACS CNF (`p cnf`): the hard clauses. For an optimisation puzzle a model
  of the CNF is a solution, not necessarily a best one (said in a comment).
- DIMACS WCNF (the classic `p wcnf VARS CLAUSES TOP` form every MaxSAT
  solver reads): hard clauses with weight TOP, and one unit soft clause of
  weight 1 per cost literal, forbidding it.
- CP-SAT model protobuf: text when the file name ends in `txt`, else binary.

Files are written by twinsolve.files.atomic: a plain file atomically (a
temporary file in the same folder, then a rename), so a failed export never
leaves a half-written file behind; a FIFO, a device or `-` (standard output)
is written through, a symlink at its target.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.registry import capability, has, puzzle_of
from ..files.atomic import write_text, write_with

__all__ = ["CnfExport", "export_reason", "sat_export", "cpsat_export", "cnf_text", "write_cnf",
           "write_wcnf", "write_cpsat", "read_dimacs_model"]


@dataclass(frozen=True)
class CnfExport:
    clauses: Sequence[Sequence[int]]
    variables: int
    cost: Sequence[int]                           # each true literal here costs 1
    decode: Callable[[set[int]], dict[str, Any]]  # true literals -> solution
    comments: Sequence[str] = field(default=())

    @property
    def optimisation(self) -> bool:
        return bool(self.cost)


def export_reason(instance: Any, kind: str = "sat_export") -> str | None:
    """Why this instance has no such export (None when it has one): the puzzle declares
    none, or (for the CNF) its `sat` back-end does not handle the instance."""
    entry = puzzle_of(instance)
    if not has(entry, kind):
        return entry.absent_reason(kind)
    if kind == "sat_export":
        sat = next((b for b in entry.backends if b.name == "sat"), None)
        return None if sat is None else sat.unsupported_reason(instance)
    return None


def sat_export(instance: Any) -> CnfExport:
    reason = export_reason(instance, "sat_export")
    if reason:
        raise UsageError(f"no CNF for this instance: {reason}")
    return capability(puzzle_of(instance), "sat_export")(instance)


def cpsat_export(instance: Any) -> Any:
    reason = export_reason(instance, "cpsat_export")
    if reason:
        raise UsageError(f"no CP-SAT model file for this instance: {reason}")
    return capability(puzzle_of(instance), "cpsat_export")(instance)


def _clause(clause: Sequence[int]) -> str:
    return " ".join(map(str, clause)) + " 0\n"


def cnf_text(export: CnfExport) -> str:
    """The DIMACS CNF text of `export` (what `write_cnf` writes)."""
    def lines() -> Iterable[str]:
        yield from (f"c {c}\n" for c in export.comments)
        if export.optimisation:
            yield "c objective not encoded: a model is a solution, not always a best one (--wcnf)\n"
        yield f"p cnf {export.variables} {len(export.clauses)}\n"
        yield from map(_clause, export.clauses)

    return "".join(lines())


def write_cnf(export: CnfExport, path: Path) -> None:
    write_text(path, cnf_text(export))


def write_wcnf(export: CnfExport, path: Path) -> None:
    top = len(export.cost) + 1

    def lines() -> Iterable[str]:
        yield from (f"c {c}\n" for c in export.comments)
        yield "c objective: the number of violated soft clauses (weight 1 each)\n"
        yield f"p wcnf {export.variables} {len(export.clauses) + len(export.cost)} {top}\n"
        yield from (f"{top} " + _clause(c) for c in export.clauses)
        yield from (f"1 {-lit} 0\n" for lit in export.cost)

    write_text(path, "".join(lines()))


def write_cpsat(model: Any, path: Path) -> None:
    def fill(temp: Path) -> None:
        if not model.export_to_file(str(temp)):
            raise UsageError(f"{path}: CP-SAT could not write the model")

    write_with(path, fill)


def read_dimacs_model(output: str) -> tuple[str, set[int]]:
    """The verdict and true literals from a SAT-competition solver's output.

    Returns ("sat", literals), ("unsat", set()) or ("unknown", set()) from the
    `s` line and the `v` lines.
    """
    verdict, literals = "unknown", set()
    for line in output.splitlines():
        if line.startswith("s "):
            word = line[2:].strip().upper()
            verdict = {"SATISFIABLE": "sat", "UNSATISFIABLE": "unsat"}.get(word, "unknown")
        elif line.startswith("v "):
            literals.update(int(tok) for tok in line[2:].split() if tok not in ("0", ""))
    return verdict, {lit for lit in literals if lit > 0}
