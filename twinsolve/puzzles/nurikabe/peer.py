"""A peer solver from another project, as an optional Nurikabe back-end for the benchmark.

`puzzlekit` (MIT, `pip install puzzlekit`, imported lazily): a collection of
OR-Tools CP-SAT puzzle models. Its Nurikabe model takes `num_rows`,
`num_cols` and a grid of tokens - `-` empty, a number a clue - and answers a
grid of `x` (shaded) / `-` (unshaded). `solve_puzzlekit` converts our
instance to that input, runs `puzzlekit.solver("nurikabe", ...).solve(...)`,
and converts the answer back to `{"shaded": [...]}`; the runner then checks
it with `nurikabe.verify` like any other answer.

What it does not do: `?` clues (its model wants every clue numbered: such an
instance is `unsupported`), and `unique` and `count`: puzzlekit solves once,
so they stay None (unknown) even when asked. Its model is single-threaded
here (`num_workers` = 1, like twinsolve's `cpsat`) unless `workers=N` is
given; `nodes` is CP-SAT's `num_branches`, as for `cpsat`. Without puzzlekit
installed the back-end answers `unsupported` with the install command.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from typing import Any

from ...core.errors import UsageError
from ...core.limits import Limits
from ...core.result import Result, Stats, Status
from . import rules as nurikabe

__all__ = ["solve_puzzlekit", "puzzlekit_supports", "check_puzzlekit_options",
           "PUZZLEKIT_MISSING"]

PUZZLEKIT_MISSING = "puzzlekit is not installed (pip install puzzlekit, or twinsolve[peers])"
_STATUS = {"Optimal": Status.SOLVED, "Feasible": Status.SOLVED, "Infeasible": Status.UNSAT,
           "Timeout": Status.TIMEOUT, "Unknown": Status.TIMEOUT, "Invalid Model": Status.ERROR}
_ALIASES = {"workers": "num_workers", "seed": "random_seed"}


def puzzlekit_supports(instance: Any) -> str | None:
    """None if puzzlekit can run `instance`, else why not (the registry's `supports`)."""
    if importlib.util.find_spec("puzzlekit") is None:
        return PUZZLEKIT_MISSING
    if not isinstance(instance, nurikabe.Instance):
        return "the puzzlekit peer back-end handles nurikabe only"
    if any(cell.kind is nurikabe.CellKind.UNKNOWN for row in instance.clues for cell in row):
        return "puzzlekit's Nurikabe takes numbered clues only, not '?'"
    return None


def check_puzzlekit_options(limits: Limits) -> None:
    """Refuse what CP-SAT would refuse, since puzzlekit hands it the options (registry checker)."""
    from ...models import cpsat_common

    cpsat_common.check_options(limits, "puzzlekit")


def _solver_options(limits: Limits) -> dict[str, Any]:
    """CP-SAT parameters for puzzlekit: time limit, one worker, seed, and pass-throughs."""
    from ortools.sat.python import cp_model

    options: dict[str, Any] = {
        "time_limit_sec": float("inf") if limits.timeout is None else float(limits.timeout),
        "num_workers": 1,
        "random_seed": int(limits.seed),
    }
    fields = cp_model.CpSolver().parameters
    for key, value in limits.options.items():
        name = _ALIASES.get(key, key)
        if not hasattr(fields, name):
            raise UsageError(f"puzzlekit has no option {key!r} (use workers=N, seed=N or a "
                             "CP-SAT SatParameters field)")
        options[name] = value
    return options


def _shaded_rows(grid: Any) -> list[str]:
    """puzzlekit's answer grid (`x` shaded, `-` not) as our row strings."""
    rows = grid.matrix if hasattr(grid, "matrix") else grid
    return ["".join("1" if str(token) == "x" else "0" for token in row) for row in rows]


def solve_puzzlekit(instance: nurikabe.Instance, limits: Limits) -> Result:
    """Run puzzlekit's Nurikabe model on `instance` (see the module docstring)."""
    reason = puzzlekit_supports(instance)
    if reason:
        return Result(Status.UNSUPPORTED, message=reason)
    started = time.perf_counter()
    puzzlekit = importlib.import_module("puzzlekit")
    options = _solver_options(limits)
    grid = [[cell.token for cell in row] for row in instance.clues]
    solver = puzzlekit.solver("nurikabe", {"num_rows": instance.rows,
                                           "num_cols": instance.cols, "grid": grid})
    answer = solver.solve(solver_options=options)
    wall = time.perf_counter() - started
    data = answer.solution_data
    status = _STATUS.get(str(data.get("status")), Status.ERROR)
    build = float(data.get("build_time", 0.0))
    stats = Stats(nodes=int(data.get("num_branches", 0)), build_s=build,
                  solve_s=max(wall - build, 0.0),
                  counters={"conflicts": int(data.get("num_conflicts", 0))})
    if status is not Status.SOLVED:
        message = None if status is not Status.ERROR else f"puzzlekit: {data.get('status')}"
        return Result(status, stats=stats, message=message)
    return Result(Status.SOLVED, {"shaded": _shaded_rows(answer.sol_grid)}, None, None, stats)
