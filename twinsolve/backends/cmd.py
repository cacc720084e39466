"""The `cmd:PROGRAM` back-end: any DIMACS SAT solver binary on twinsolve's encoding.

The instance is encoded exactly as the `sat` back-end encodes it
(`twinsolve.models.<puzzle>.sat_export`) as DIMACS text in an in-memory
file, and `PROGRAM FILE` is run under the remaining time limit, tied to
the calling process (twinsolve.system.tether): it dies with it, descendants
and all, and leaves nothing in the temp folder. The model is decoded back
into a solution by the same decoder `sat` uses, and the runner passes it
through `verify` like every other answer.

Where the answer is read (`cmd:PROGRAM:result=stdout|file`), the two
conventions solvers follow:
- `stdout`, the SAT Competition's: `s SATISFIABLE` / `s UNSATISFIABLE` and
  the model in `v` lines on standard output (exit codes 10 and 20 are
  accepted for the verdict). Kissat, CaDiCaL, CryptoMiniSat, Lingeling.
- `file`, MiniSat's: `PROGRAM FILE RESULT`, the program writing `SAT` and
  the model (`1 -2 3 0`), `UNSAT` or `INDET` to the result file RESULT.
  MiniSat and Glucose. RESULT is no file on disk: it is `/dev/fd/N`, the
  pipe twinsolve reads (the program's own output goes to its stderr).
The default is `file` for a program named minisat or glucose (`minisat`,
`glucose-syrup`, `/opt/bin/minisat_static`) and `stdout` for every other:
a second argument is never passed blindly, since CaDiCaL and Kissat take it
as the file to write a proof to. A program that says it found a model but
shows none gets an `error` naming what was read and the other convention.

`--unique` and `--count` block each solution found and run the program
again, until it answers UNSAT (settled), the solutions wanted are found
(two settle uniqueness), or the time limit, which bounds all the runs
together, stops it (then unsettled, and the message says so). The blocking
clause names the variables that make the solution: those the puzzle's
decoder reads (`_solution_variables`), so solutions are counted, not the
models of auxiliary variables.

Only feasibility puzzles (Cave, Solitaire Chess) can be judged from one CNF
model; for optimisation puzzles `twinsolve export --wcnf` feeds MaxSAT
solvers instead.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import shutil
from dataclasses import dataclass
from typing import Any

from ..core.errors import UsageError
from ..core.limits import Deadline, Limits
from ..core.registry import puzzle_of
from ..core.result import Result, Status, Stopwatch, Tally, solutions_wanted
from ..models.export import CnfExport, cnf_text, export_reason, read_dimacs_model, sat_export
from ..system.tether import Finished, run_on_file

__all__ = ["solve", "supports", "check_options", "convention", "read_result_file", "CONVENTIONS"]

CONVENTIONS = ("stdout", "file")  # the `result` option: where the program's answer is
RESULT_FILE_SOLVERS = ("minisat", "glucose")  # names whose default convention is `file`

# Runs `PROGRAM ARGS... INPUT RESULT` where RESULT names a descriptor open on our stdout
# pipe, and the program's own stdout goes to stderr: the result file alone reaches stdout,
# and nothing is written to disk. The tether appends INPUT last, so the script finds it
# there, and picks a descriptor (8 or 9: `sh` names 0-9 only) that is not INPUT's.
_RESULT_WRAPPER = """\
for input; do :; done
case $input in /dev/fd/9) n=8 ;; *) n=9 ;; esac
eval 'exec "$@" /dev/fd/'$n' '$n'>&1 1>&2'
"""


def supports(instance: Any) -> str | None:
    entry = puzzle_of(instance)
    if entry.optimisation:
        return (f"cmd runs SAT solvers on feasibility puzzles; {entry.name} minimises, so use "
                "'twinsolve export --wcnf' with a MaxSAT solver")
    return export_reason(instance)


def _words(program: Any) -> list[str]:
    try:
        return shlex.split(str(program)) if program not in (None, "") else []
    except ValueError as exc:  # an unclosed quote
        raise UsageError(f"cmd: cannot read the command {program!r}: {exc}") from None


def convention(limits: Limits) -> str:
    """Where the program's answer is read: the `result` option, else by the program's name
    (module docstring).

    >>> convention(Limits(options={"program": "/usr/bin/minisat -verb=0"}))
    'file'
    >>> convention(Limits(options={"program": "cadical"}))
    'stdout'
    """
    words = _words(limits.options.get("program"))
    name = os.path.basename(words[0]).lower() if words else ""
    default = "file" if name.startswith(RESULT_FILE_SOLVERS) else "stdout"
    return limits.choice("result", default, CONVENTIONS)


def check_options(limits: Limits) -> None:
    """Refuse a `cmd` spec that cannot run: no program, or none by that name, or a `result`
    that is neither `stdout` nor `file` (registry checker).

    The program is looked up as the system will start it: on PATH, or as a path when
    its name has a slash. `cmd:nosuchprogram` is a usage error before any run.
    """
    limits.check_options("cmd", ("program", "result"))
    words = _words(limits.options.get("program"))
    if not words:
        raise UsageError("cmd needs a program: cmd:PROGRAM (e.g. cmd:kissat)")
    if shutil.which(words[0]) is None:
        raise UsageError(f"cmd: program not found: {words[0]}")
    convention(limits)


@dataclass(frozen=True)
class _Answer:
    """One run's answer: `sat`, `unsat` or `unknown`, the true literals, whether a model
    was `shown` at all (every variable may be false), and what was read (for a message
    when there is no answer)."""

    verdict: str
    true: set[int]
    shown: bool
    read: str

    @property
    def model(self) -> bool:
        return self.verdict == "sat" and self.shown


def read_result_file(text: str) -> tuple[str, set[int]]:
    """The verdict and true literals of a MiniSat-style result file (`SAT` then the model,
    `UNSAT`, `INDET`); the competition's `s` / `v` lines are read too.

    >>> read_result_file("SAT\\n1 -2 3 0\\n")
    ('sat', {1, 3})
    >>> read_result_file("UNSAT\\n"), read_result_file("INDET\\n")
    (('unsat', set()), ('unknown', set()))
    """
    words = text.split()
    if not words or words[0] not in ("SAT", "UNSAT", "INDET"):
        return read_dimacs_model(text)
    if words[0] != "SAT":
        return ("unsat" if words[0] == "UNSAT" else "unknown"), set()
    return "sat", {int(word) for word in words[1:] if word.lstrip("-").isdigit()
                   and int(word) > 0}


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return repr(lines[0][:80]) if lines else "nothing"


def _last_line(text: str) -> str:
    lines = text.strip().splitlines()
    return repr(lines[-1].strip()[:80]) if lines else "nothing"


def _v_lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith("v ") or line.rstrip() == "v")


def _answer(done: Finished, how: str) -> _Answer:
    """What one finished run answered, read by convention `how`."""
    exit_verdict = {10: "sat", 20: "unsat"}.get(done.exit_code, "unknown")
    if how == "file":
        verdict, true = read_result_file(done.stdout)
        if verdict == "unknown" and exit_verdict == "unsat":
            verdict = "unsat"  # a proof of none needs no model
        shown = len(done.stdout.split()) > 1 or _v_lines(done.stdout) > 0
        read = (f"result file: {_first_line(done.stdout)}; exit code {done.exit_code}; "
                f"last output line: {_last_line(done.stderr)}")
        return _Answer(verdict, true, shown, read)
    verdict, true = read_dimacs_model(done.stdout)
    said = "an 's' line" if verdict != "unknown" else f"exit code {done.exit_code}"
    if verdict == "unknown":
        verdict = exit_verdict
    lines = _v_lines(done.stdout)
    read = (f"stdout: {said}, {lines} 'v' line{'s' * (lines != 1)}; last output line: "
            f"{_last_line(done.stdout or done.stderr)}")
    return _Answer(verdict, true, lines > 0, read)


def _no_answer(command: list[str], how: str, answer: _Answer) -> str:
    """The `error` message of a run without a usable answer: what was read, what to try."""
    program = command[0]
    if answer.verdict == "sat" and how == "stdout":
        return (f"cmd: {program} answered satisfiable but showed no model ({answer.read}); "
                f"a solver that writes its model to a result file runs as "
                f"cmd:{shlex.join(command)}:result=file")
    if answer.verdict == "sat":
        return f"cmd: {program} answered satisfiable but wrote no model ({answer.read})"
    return f"cmd: no answer from {program} ({answer.read})"


class _Runs:
    """The program run on the CNF and blocking clauses, all runs within one deadline."""

    def __init__(self, command: list[str], how: str, deadline: Deadline) -> None:
        self.words = command
        self.how = how
        self.deadline = deadline
        self.count = 0
        self.exit_code: int | None = None
        # The result-file convention runs the program through the wrapper (above).
        self.command = command if how == "stdout" else \
            ["/bin/sh", "-c", _RESULT_WRAPPER, "twinsolve-result", *command]

    def __call__(self, export: CnfExport) -> _Answer | None:
        """The next run's answer; None when the time limit stopped it."""
        cnf = cnf_text(export).encode("utf-8")
        # Tied to this process: killed with it (even by kill -9), descendants and all,
        # and its input is an in-memory file, so nothing is left in the temp folder.
        done = run_on_file(self.command, cnf, self.deadline.remaining(), "instance.cnf")
        self.count += 1
        self.exit_code = done.exit_code
        return None if done.timed_out else _answer(done, self.how)


class _Reads:
    """A model's true literals that notes every variable a decoder asks about (`in`)."""

    def __init__(self, true: set[int]) -> None:
        self.true = true
        self.asked: set[int] = set()

    def __contains__(self, literal: int) -> bool:
        self.asked.add(abs(literal))
        return literal in self.true


def _solution_variables(export: CnfExport, true: set[int], solution: Any) -> list[int] | None:
    """The variables that make the solution: those the decoder reads. Two models that
    agree on them decode alike, so blocking them forbids this solution and nothing else
    (not another model of the auxiliary variables). None when the decoder reads the model
    otherwise than by `in` (it cannot be watched)."""
    reads = _Reads(true)
    try:
        again = export.decode(reads)  # type: ignore[arg-type]
    except (TypeError, AttributeError):
        return None
    return sorted(reads.asked) if reads.asked and again == solution else None


def _more_solutions(runs: _Runs, export: CnfExport, true: set[int], solution: Any,
                    wanted: int | None) -> tuple[Tally, str | None]:
    """Block each solution found and run again (module docstring): the tally, and why it
    is unsettled when it is."""
    variables = _solution_variables(export, true, solution)
    if variables is None:
        return Tally(1, complete=False), ("not settled: cmd cannot tell which variables make "
                                          "this puzzle's solution, to block it and run again")
    blocks: list[list[int]] = []
    found = 1
    while wanted is None or found < wanted:
        blocks.append([-v if v in true else v for v in variables])
        answer = runs(dataclasses.replace(export, clauses=[*export.clauses, *blocks]))
        if answer is None:
            return Tally(found, complete=False), (
                f"not settled: the time limit stopped run {runs.count} of {runs.words[0]} "
                f"with {found} solution{'s' * (found != 1)} found")
        if answer.verdict == "unsat":
            return Tally(found, complete=True), None
        if not answer.model:
            return Tally(found, complete=False), \
                f"not settled: {_no_answer(runs.words, runs.how, answer)}"
        found, true = found + 1, answer.true
    return Tally(found, complete=False), None


def solve(instance: Any, limits: Limits) -> Result:
    words = _words(limits.options.get("program"))
    if not words:
        return Result(Status.ERROR, message="cmd needs a program: cmd:PROGRAM (e.g. cmd:kissat)")
    if shutil.which(words[0]) is None:
        return Result(Status.ERROR, message=f"cmd: program not found: {words[0]}")
    watch = Stopwatch()
    export = sat_export(instance)
    watch.built()
    runs = _Runs(words, convention(limits), limits.deadline())
    first = runs(export)

    def stats() -> Any:
        return watch.stats(program=words[0], exit_code=runs.exit_code, runs=runs.count)

    if first is None:
        return Result(Status.TIMEOUT, stats=stats())
    if first.verdict == "unsat":
        return Result.unsat(limits, stats=stats())
    if not first.model:
        return Result(Status.ERROR, stats=stats(), message=_no_answer(words, runs.how, first))
    solution = export.decode(first.true)
    wanted = solutions_wanted(limits)
    tally, why = (Tally(1, complete=False), None) if wanted == 1 else \
        _more_solutions(runs, export, first.true, solution, wanted)
    return Result.answer(Status.SOLVED, solution, None, tally=tally, asked=limits,
                         stats=stats(), message=why)
