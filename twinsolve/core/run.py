"""Loading instances and running one back-end on one instance, checked.

`run` is the single path every answer takes, from the API, the CLI and the
benchmark workers alike: resolve the back-end, skip it with `unsupported` when
it does not handle the instance's variant, run it, and pass any solution
through the puzzle's independent `verify` and `objective`. An answer that
fails either comes back as `wrong` with the first problem as its message.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import InstanceError, UsageError
from .instance_file import decode, read_layout
from .limits import Limits
from .registry import parse_backend_spec, puzzle, puzzle_of
from .result import Result, Stats, Status

__all__ = ["load", "load_file", "parse_text", "run", "check", "verify"]


def parse_text(text: str, source: str | None = None) -> Any:
    """Parse instance text of any registered puzzle, chosen by the header's first word."""
    layout = read_layout(text, source)
    try:
        entry = puzzle(layout.header[0])
    except UsageError:
        raise layout.header_error(
            f"unknown puzzle {layout.header[0]!r} in header (expected e.g. 'lightsout 5 5')"
        ) from None
    return entry.rules.parse(text, source)


def load_file(path: str | os.PathLike[str]) -> Any:
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InstanceError(source, None, None, f"cannot read file: {exc.strerror}") from None
    return parse_text(decode(data, source), source)


def load(path_or_text: str | os.PathLike[str]) -> Any:
    """An instance from a file path, a puzz.link URL, or instance text.

    >>> load("lightsout 1 2\\n11\\n").cols
    2
    """
    if isinstance(path_or_text, os.PathLike):
        return load_file(path_or_text)
    if not isinstance(path_or_text, str):
        raise InstanceError(None, None, None, "load() takes a path, a URL or instance text")
    if "\n" not in path_or_text:
        from ..puzzles.puzzlink import decode_url, is_puzzlink_url

        if is_puzzlink_url(path_or_text.strip()):
            return decode_url(path_or_text.strip(), source="puzz.link URL")
        if Path(path_or_text).is_file():
            return load_file(path_or_text)
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


def run(instance: Any, backend: str = "hand", limits: Limits | None = None,
        catch: bool = True) -> Result:
    """Run back-end spec `backend` (e.g. `"sat:glucose4"`) on `instance`, verified.

    With `catch`, an exception inside the back-end becomes status `error`.
    """
    entry = puzzle_of(instance)
    name = backend.split(":", 1)[0]
    chosen = entry.backend(name)
    name, options = parse_backend_spec(backend, chosen)
    limits = limits or Limits()
    if options:
        limits = Limits(**{**limits.__dict__, "options": {**limits.options, **options}})
    reason = chosen.unsupported_reason(instance)
    if reason:
        return Result(Status.UNSUPPORTED, message=reason)
    try:
        result = chosen.solve(instance, limits)
    except (UsageError, InstanceError):
        raise  # the user's mistake (a bad option, say): exit 2 with one line, not `error`
    except MemoryError:
        return Result(Status.MEMOUT, message="out of memory")
    except Exception as exc:
        if not catch:
            raise
        return Result(Status.ERROR, stats=Stats(), message=f"{type(exc).__name__}: {exc}")
    return check(instance, result)
