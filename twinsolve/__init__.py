"""twinsolve: logic puzzles modelled twice, solved three ways, benchmarked.

The public API:

    >>> import twinsolve
    >>> board = twinsolve.load("lightsout 3 3\\n111\\n111\\n111\\n")
    >>> result = twinsolve.solve(board, backend="hand")
    >>> result.status.value, result.objective
    ('optimal', 5)
    >>> twinsolve.verify(board, result.solution)
    []
"""

from __future__ import annotations

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
    name: `solve(board, "sat:glucose4")`.
    """
    return _run(instance, backend, Limits(**limits), catch=False)
