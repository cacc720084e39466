"""The `cmd:PROGRAM` back-end: any DIMACS SAT solver binary on twinsolve's encoding.

The instance is encoded exactly as the `sat` back-end encodes it
(`twinsolve.models.<puzzle>.sat_export`), written to a temporary DIMACS
file, and `PROGRAM FILE` is run under the remaining time limit. Its output
is read as the SAT Competition prescribes (`s SATISFIABLE` / `s
UNSATISFIABLE` and `v` lines; exit codes 10 and 20 are accepted too), the
model is decoded back into a solution by the same decoder `sat` uses, and
the runner passes it through `verify` like every other answer.

Only feasibility puzzles (Cave, Solitaire Chess) can be judged from one CNF
model; for optimisation puzzles `twinsolve export --wcnf` feeds MaxSAT
solvers instead.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from ..core.limits import Limits
from ..core.registry import puzzle_of
from ..core.result import Result, Status, Stopwatch
from ..models.export import export_reason, read_dimacs_model, sat_export, write_cnf

__all__ = ["solve", "supports"]


def supports(instance: Any) -> str | None:
    entry = puzzle_of(instance)
    if entry.optimisation:
        return (f"cmd runs SAT solvers on feasibility puzzles; {entry.name} minimises, so use "
                "'twinsolve export --wcnf' with a MaxSAT solver")
    return export_reason(instance)


def solve(instance: Any, limits: Limits) -> Result:
    program = limits.options.get("program")
    if not program:
        return Result(Status.ERROR, message="cmd needs a program: cmd:PROGRAM (e.g. cmd:kissat)")
    watch = Stopwatch()
    export = sat_export(instance)
    deadline = limits.deadline()
    with tempfile.TemporaryDirectory(prefix="twinsolve-cmd-") as folder:
        cnf = Path(folder) / "instance.cnf"
        write_cnf(export, cnf)
        watch.built()
        command = [*shlex.split(str(program)), str(cnf)]
        try:
            done = subprocess.run(command, capture_output=True, text=True,
                                  timeout=deadline.remaining(), env=dict(os.environ))
        except FileNotFoundError:
            return Result(Status.ERROR, message=f"cmd: program not found: {command[0]}")
        except subprocess.TimeoutExpired:
            return Result(Status.TIMEOUT, stats=watch.stats(program=command[0]))
    verdict, literals = read_dimacs_model(done.stdout)
    if verdict == "unknown":
        verdict = {10: "sat", 20: "unsat"}.get(done.returncode, "unknown")
    stats = watch.stats(program=command[0], exit_code=done.returncode)
    if verdict == "unsat":
        return Result.unsat(limits, stats=stats)
    if verdict != "sat" or not literals:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return Result(Status.ERROR, stats=stats,
                      message=f"cmd: no answer from {command[0]} ({tail[0][:200]})")
    return Result(Status.SOLVED, export.decode(literals), None, stats=stats)
