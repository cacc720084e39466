"""The `cmd:PROGRAM` back-end: any DIMACS SAT solver binary on twinsolve's encoding.

The instance is encoded exactly as the `sat` back-end encodes it
(`twinsolve.models.<puzzle>.sat_export`) as DIMACS text in an in-memory
file, and `PROGRAM FILE` is run under the remaining time limit, tied to
the calling process (twinsolve.core.tether): it dies with it, descendants
and all, and leaves nothing in the temp folder. Its output is read as the
SAT Competition prescribes (`s SATISFIABLE` / `s
UNSATISFIABLE` and `v` lines; exit codes 10 and 20 are accepted too), the
model is decoded back into a solution by the same decoder `sat` uses, and
the runner passes it through `verify` like every other answer.

Only feasibility puzzles (Cave, Solitaire Chess) can be judged from one CNF
model; for optimisation puzzles `twinsolve export --wcnf` feeds MaxSAT
solvers instead.
"""

from __future__ import annotations

import shlex
import shutil
from typing import Any

from ..core.errors import UsageError
from ..core.limits import Limits
from ..core.registry import puzzle_of
from ..core.result import Result, Status, Stopwatch
from ..core.tether import run_on_file
from ..models.export import cnf_text, export_reason, read_dimacs_model, sat_export

__all__ = ["solve", "supports", "check_options"]


def supports(instance: Any) -> str | None:
    entry = puzzle_of(instance)
    if entry.optimisation:
        return (f"cmd runs SAT solvers on feasibility puzzles; {entry.name} minimises, so use "
                "'twinsolve export --wcnf' with a MaxSAT solver")
    return export_reason(instance)


def check_options(limits: Limits) -> None:
    """Refuse a `cmd` spec that cannot run: no program, or none by that name (registry checker).

    The program is looked up as the system will start it: on PATH, or as a path when
    its name has a slash. `cmd:nosuchprogram` is a usage error before any run.
    """
    limits.check_options("cmd", ("program",))
    program = limits.options.get("program")
    try:
        words = shlex.split(str(program)) if program not in (None, "") else []
    except ValueError as exc:  # an unclosed quote
        raise UsageError(f"cmd: cannot read the command {program!r}: {exc}") from None
    if not words:
        raise UsageError("cmd needs a program: cmd:PROGRAM (e.g. cmd:kissat)")
    if shutil.which(words[0]) is None:
        raise UsageError(f"cmd: program not found: {words[0]}")


def solve(instance: Any, limits: Limits) -> Result:
    program = limits.options.get("program")
    if not program:
        return Result(Status.ERROR, message="cmd needs a program: cmd:PROGRAM (e.g. cmd:kissat)")
    watch = Stopwatch()
    export = sat_export(instance)
    cnf = cnf_text(export).encode("utf-8")
    watch.built()
    command = shlex.split(str(program))
    try:
        # Tied to this process: killed with it (even by kill -9), descendants and all,
        # and its input is an in-memory file, so nothing is left in the temp folder.
        done = run_on_file(command, cnf, limits.deadline().remaining(), "instance.cnf")
    except FileNotFoundError:
        return Result(Status.ERROR, message=f"cmd: program not found: {command[0]}")
    if done.timed_out:
        return Result(Status.TIMEOUT, stats=watch.stats(program=command[0]))
    verdict, literals = read_dimacs_model(done.stdout)
    if verdict == "unknown":
        verdict = {10: "sat", 20: "unsat"}.get(done.exit_code, "unknown")
    stats = watch.stats(program=command[0], exit_code=done.exit_code)
    if verdict == "unsat":
        return Result.unsat(limits, stats=stats)
    if verdict != "sat" or not literals:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return Result(Status.ERROR, stats=stats,
                      message=f"cmd: no answer from {command[0]} ({tail[0][:200]})")
    return Result(Status.SOLVED, export.decode(literals), None, stats=stats)
