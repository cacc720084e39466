"""Loading instances and running one back-end on one instance, checked.

`run` is the single path every answer takes, from the API, the CLI and the
benchmark workers alike: resolve the back-end, skip it with `unsupported` when
it does not handle the instance's variant, run it, and pass any solution
through the puzzle's independent `verify` and `objective`. An answer that
fails either comes back as `wrong` with the first problem as its message.
The limits' timeout bounds all of it, model building and checking included:
past it (and a short grace) the run is stopped wherever it is and comes back
as `timeout`, its message naming the phase (`core.time_limit`).

Boards too large to hold (`registry.too_large`: Lights Out's `lights all`
boards over 5000 a side) take the back-end's summary instead
(`registry.summary_module`): the same limits, the same stop, but the
summary checks its answer itself, with the puzzle's streamed checker, and
returns no solution. A back-end without a summary for such a board gets
`unsupported` with the reason (`size_refusal`), before anything is
allocated. `run(..., summary=True)` (`solve --summary`) leaves the
solution out: a board the full run can hold takes the full run, so its
answer is the one without `summary` (the fewest presses of a board with a
kernel, which the streamed summary cannot search); only a board too large
for it takes the summary.
"""

from __future__ import annotations

import difflib
import os
import stat
from typing import Any

from .errors import InstanceError, UsageError, quoted
from .instance_file import read_layout, read_text
from .limits import Limits
from .registry import (
    Backend,
    other_formats,
    puzzle,
    puzzle_of,
    puzzles,
    resolve_spec,
    summary_module,
    too_large,
    url_reader,
)
from .result import Result, Stats, Status
from .time_limit import TimeLimit, TimeLimitReached, set_phase

__all__ = ["load", "load_file", "parse_text", "file_problem", "run", "check", "verify",
           "size_refusal", "summary_problem"]


def parse_text(text: str, source: str | None = None) -> Any:
    """Parse instance text of any registered puzzle, chosen by the header's first word."""
    layout = read_layout(text, source)
    try:
        entry = puzzle(layout.header[0])
    except UsageError:
        raise layout.header_error(_unknown_puzzle(layout.header[0])) from None
    return entry.rules.parse(text, source)


def _unknown_puzzle(word: str) -> str:
    """`unknown puzzle 'Name' in header; did you mean 'name'? (puzzles: ...)`; a file of
    another kind the registry knows (the game's levels) says what it is."""
    other = other_formats().get(word)
    if other is not None:
        return f"{word!r} is {other.description}"
    names = [entry.name for entry in puzzles()]
    close = [name for name in names if name == word.lower()]
    close = close or difflib.get_close_matches(word.lower(), names, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown puzzle {quoted(word)} in header{hint} (puzzles: {', '.join(names)})"


_NOT_REGULAR = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
                (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
                (stat.S_ISSOCK, "a socket"))


def file_problem(path: str | os.PathLike[str]) -> str | None:
    """Why `path` cannot be read as an instance file, or None.

    Decided from `stat` alone, without opening it: reading a named pipe or a
    terminal device would block forever.

    >>> file_problem("/dev/null"), file_problem("/no/such/file.txt")
    ('not a regular file (a device)', 'no such file')
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "broken symbolic link" if os.path.islink(path) else "no such file"
    except OSError as exc:  # a name too long, a loop of links, no permission
        return f"cannot read file: {(exc.strerror or type(exc).__name__).lower()}"
    except ValueError:
        return "not a valid file name (NUL character)"
    if stat.S_ISREG(mode):
        return None
    what = next((name for test, name in _NOT_REGULAR if test(mode)), "not a file")
    return f"not a regular file ({what})"


def load_file(path: str | os.PathLike[str]) -> Any:
    """The instance in the file at `path`; `InstanceError` naming the file otherwise."""
    if not isinstance(path, str | os.PathLike):
        raise UsageError(f"load_file() takes a file name, got {type(path).__name__}")
    source = str(path)
    problem = file_problem(path)
    if problem:
        raise InstanceError(source, None, None, problem)
    return parse_text(read_text(path, source), source)


def _names_a_file(line: str) -> bool:
    """Whether one line of text is meant as a file name rather than a header alone.

    It is when such a file exists, or when it looks like a path (a folder
    separator, or a `.txt` / `.json` ending) and does not start with a
    puzzle's name (`NAME 4/4` is a header with a typo, `Name 4 4` too).
    """
    if os.path.lexists(line):
        return True
    looks_like_path = ("/" in line or os.sep in line
                       or line.lower().endswith((".txt", ".json")))
    first = line.split(maxsplit=1)[0].lower() if line.split() else ""
    return looks_like_path and first not in {entry.name for entry in puzzles()}


def load(path_or_text: str | os.PathLike[str]) -> Any:
    """An instance from a file path, a puzz.link URL, or instance text.

    A `str` of one line (surrounding whitespace and a final newline ignored)
    is a URL or a file name (see `_names_a_file`); anything else is
    instance text. Raises `InstanceError` for a file that is missing, not a
    regular file (a named pipe or device is never opened) or not a valid
    instance, and `UsageError` for an argument of another type.

    >>> load("nope/missing.txt")
    Traceback (most recent call last):
    ...
    twinsolve.core.errors.InstanceError: nope/missing.txt: no such file
    """
    if isinstance(path_or_text, os.PathLike):
        return load_file(path_or_text)
    if not isinstance(path_or_text, str):
        raise UsageError(f"load() takes a file name, a puzz.link URL or instance text, "
                         f"got {type(path_or_text).__name__}")
    line = path_or_text.strip()
    if "\n" not in line and "\r" not in line:
        reader = url_reader(line)
        if reader is not None:
            return reader.decode_url(line, source="puzz.link URL")
        if _names_a_file(line):
            return load_file(line)
    return parse_text(path_or_text)


def verify(instance: Any, solution: Any) -> list[str]:
    """The puzzle's own `verify`, guarded so a malformed solution is a problem, not a crash."""
    try:
        return list(puzzle_of(instance).rules.verify(instance, solution))
    except Exception as exc:  # noqa: BLE001 - verify must never take the caller down
        return [f"verify could not read the solution: {type(exc).__name__}: {exc}"]


def check(instance: Any, result: Result) -> Result:
    """Verify a result's solution and objective; mark it `wrong` if either fails."""
    if result.solution is None:
        if result.status.has_solution:
            return result.with_(status=Status.WRONG, verified=False,
                                message=f"status {result.status} without a solution")
        return result
    problems = verify(instance, result.solution)
    if not problems:
        actual = puzzle_of(instance).rules.objective(instance, result.solution)
        if actual != result.objective:
            problems = [f"reported objective {result.objective}, the solution has {actual}"]
    if problems:
        return result.with_(status=Status.WRONG, verified=False, message=problems[0])
    return result.with_(verified=True)


def _prepared(instance: Any, backend: str, limits: Limits | None) -> tuple[Backend, Limits]:
    """The back-end a spec names for `instance` and the limits with the spec's options."""
    chosen, options = resolve_spec(backend, puzzle_of(instance))
    limits = limits or Limits()
    if options:
        limits = limits.with_options(**options)
    return chosen, limits


def summary_problem(backend: Backend, instance: Any, limits: Limits) -> str | None:
    """Why `backend` gives no summary of `instance` under `limits`, or None: it does."""
    module = summary_module(backend)
    if module is None:
        return f"back-end {backend.name} gives no summary{_with_summaries(instance)}"
    return module.supports(instance, limits)


def _with_summaries(instance: Any) -> str:
    """` (back-ends with one: hand)`, or '' when the instance's puzzle has none."""
    have = [b.name for b in puzzle_of(instance).backends if b.summary_module]
    return f" (back-ends with one: {', '.join(have)})" if have else ""


def size_refusal(instance: Any, backend: str = "hand", limits: Limits | None = None,
                 summary: bool | None = None) -> str | None:
    """Why `run(instance, backend, limits, summary=summary)` refuses `instance` as too large
    (it comes back `unsupported` with this message), or None: it runs.
    """
    big = too_large(instance)
    if big is None:
        return None
    if summary is False:
        return f"{big}: only a summary fits (no solution; run it with summary=True)"
    chosen, limits = _prepared(instance, backend, limits)
    why = summary_problem(chosen, instance, limits)
    if why is None:
        return None
    if summary_module(chosen) is None:
        return (f"{big}: too large for back-end {chosen.name}, which gives no summary"
                f"{_with_summaries(instance)}")
    return f"{big}, and {why}"


def run(instance: Any, backend: str = "hand", limits: Limits | None = None,
        catch: bool = True, summary: bool | None = None) -> Result:
    """Run back-end spec `backend` (e.g. `"sat:glucose4"`) on `instance`, verified.

    With `catch`, an exception inside the back-end becomes status `error`.
    `summary`: the back-end's summary (no solution: the summary checked it)
    is taken exactly for an instance too large to hold, unless False, which
    refuses such an instance; True also leaves the full run's solution out,
    so a board that fits gets the same answer as without it (module
    docstring).
    """
    chosen, limits = _prepared(instance, backend, limits)
    # Before anything runs, and whatever the instance: the same refusals as a bench plan.
    chosen.check_options(limits)
    reason = chosen.unsupported_reason(instance)
    if reason:
        return Result(Status.UNSUPPORTED, message=reason)
    refused = size_refusal(instance, backend, limits, summary)
    if refused:
        return Result(Status.UNSUPPORTED, message=refused)
    if too_large(instance) is not None:
        # Only the summary holds it (size_refusal let it through): a board the full run
        # holds takes the full run even with summary=True, so the answer does not change
        # (a streamed summary cannot search a kernel for the fewest presses).
        module = summary_module(chosen)
        assert module is not None  # size_refusal says it has one
        return _limited(lambda: _summary_checked(module.summary(instance, limits)), limits,
                        catch)
    result = _limited(lambda: _solved_and_checked(chosen, instance, limits), limits, catch)
    return result.with_(solution=None) if summary else result


def _solved_and_checked(chosen: Backend, instance: Any, limits: Limits) -> Result:
    result = chosen.solve(instance, limits)
    set_phase("checking the answer")
    return check(instance, result)


def _summary_checked(result: Result) -> Result:
    """A summary's answer as reported: it checked its answer itself, so an answer it did
    not check (or one with a solution, which a summary never holds) is `wrong`."""
    if result.solution is not None:
        return result.with_(status=Status.WRONG, solution=None, verified=False,
                            message="a summary returned a solution")
    if result.status.has_solution and result.verified is not True \
            and result.status is not Status.WRONG:
        return result.with_(status=Status.WRONG, verified=False,
                            message=f"a summary answered {result.status.value} unchecked")
    return result


def _limited(work: Any, limits: Limits, catch: bool) -> Result:
    """`work()`, a back-end's run and its check, under the hard time limit of `limits`."""
    # The time limit bounds the whole run: model building, solving and checking the
    # answer (core.time_limit), however the back-end spends it.
    limit = TimeLimit(limits.timeout, phase="running the back-end")
    try:
        with limit:
            return work()
    except TimeLimitReached as stop:
        if stop.limit is not limit:
            raise  # an outer limit's stop (a back-end that runs another): it ends there
        built = limit.spent("building the model")
        stats = Stats(build_s=built, solve_s=max(0.0, limit.elapsed() - built))
        return Result(Status.TIMEOUT, stats=stats, message=str(stop))
    except (UsageError, InstanceError):
        raise  # the user's mistake (a bad option, say): exit 2 with one line, not `error`
    except MemoryError:
        return Result(Status.MEMOUT, message="out of memory")
    except Exception as exc:
        if not catch:
            raise
        return Result(Status.ERROR, stats=Stats(), message=f"{type(exc).__name__}: {exc}")
