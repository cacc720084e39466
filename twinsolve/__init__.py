"""twinsolve: logic puzzles modelled twice, solved three ways, benchmarked.

The public API:

    >>> import twinsolve
    >>> board = twinsolve.load("lightsout 3 3\\n111\\n111\\n111\\n")
    >>> result = twinsolve.solve(board, backend="hand")
    >>> result.status.value, result.objective
    ('optimal', 5)
    >>> twinsolve.verify(board, result.solution)
    []

What is raised. Bad input never surfaces as a raw `TypeError`, `OSError` or
parser exception; the API raises only these two (both `ValueError`s):

- `InstanceError` (with `source`, `line`, `column`, `message`): instance text
  or a file that cannot be read as an instance, from `load`: a missing file,
  one that is not a regular file (a named pipe or a device, refused without
  opening it), bytes that are not UTF-8, a header naming no puzzle
  (`Cave 4 4`: "did you mean 'cave'?"), a bad grid;
- `UsageError`: a bad call: `solve` with a back-end that is not a spec string
  (`backend=None`) or names no back-end, a bad back-end option, a limit
  that is no field of `Limits` (`timout=5`) or has a bad value (`timeout="x"`,
  `nan`, `inf`, `seed=2**70`; see `Limits`), an object that is no instance.

A `KeyboardInterrupt` (Ctrl-C) stops any back-end promptly and propagates as
itself; it never comes back as a `timeout` result.
"""

from __future__ import annotations

import difflib
from typing import Any

from .core import InstanceError, Limits, Result, Stats, Status, UsageError
from .core.run import load, verify
from .core.run import run as _run

__version__ = "0.1.0"

__all__ = ["load", "solve", "verify", "InstanceError", "UsageError", "Limits", "Result",
           "Stats", "Status", "__version__"]


def solve(instance: Any, backend: str = "hand", **limits: Any) -> Result:
    """Solve `instance` with one back-end; the answer has passed `verify`.

    `limits` are the fields of `Limits`: `timeout` (seconds), `node_limit`,
    `unique`, `count`, `seed`, `options`. Back-end options may also follow the
    name: `solve(board, "sat:glucose4")`. Raises `UsageError` for a back-end
    that is not a spec string, an unknown keyword or a bad limit value
    (module docstring).

    A board too large to hold its solution (Lights Out's `lights all` form
    over 5000 a side) is solved by the back-end's summary where it has one
    (`hand`): the answer is checked row by row as it is found and comes
    back verified with `solution` None; a back-end without one returns
    status `unsupported`, saying why.

    >>> solve(load("lightsout 1 1\\n1\\n"), timout=5)
    Traceback (most recent call last):
    ...
    twinsolve.core.errors.UsageError: solve() has no limit 'timout'; did you mean 'timeout'? ...
    """
    if not isinstance(backend, str):
        raise UsageError(f"backend must be a back-end spec string such as 'hand' or "
                         f"'sat:glucose4', got {backend!r}")
    _check_limit_names(limits)
    return _run(instance, backend, Limits(**limits), catch=False)


def _check_limit_names(limits: dict[str, Any]) -> None:
    known = Limits.field_names()
    for name in limits:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UsageError(f"solve() has no limit {name!r}{hint} "
                             f"(limits: {', '.join(known)})")
