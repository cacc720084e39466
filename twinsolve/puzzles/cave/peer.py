"""A peer solver from another project, as an optional Cave back-end for the benchmark.

`puzzlekit` (MIT, `pip install puzzlekit`, imported lazily): a collection of
OR-Tools CP-SAT puzzle models. Its Cave ("cave", alias "corral") model takes
`num_rows`, `num_cols` and a grid of tokens - `-` empty, `?` an inside cell
without a count, a number a clue - exactly our tokens, and answers a grid of
`x` (inside) / `-` (outside). `solve_puzzlekit` converts our instance to that
input, runs `puzzlekit.solver("cave", ...).solve(...)`, and converts the
answer back to `{"inside": [...]}`; the runner then checks it with
`cave.verify` like any other answer.

What it does not do: puzzlekit solves once, so `unique` and `count` stay
None (unknown) even when asked. Its model is single-threaded here
(`num_workers` = 1, like twinsolve's `cpsat`) unless `workers=N` is given,
so that node counts and times compare like with like; `nodes` is CP-SAT's
`num_branches`, as for `cpsat`. Without puzzlekit installed the back-end
answers `unsupported` with the install command.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from typing import Any

from ...core.errors import UsageError
from ...core.limits import Limits
from ...core.result import Result, Stats, Status
from . import rules as cave

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
    if not isinstance(instance, cave.Instance):
        return "the puzzlekit peer back-end handles cave only"
    return None


def check_puzzlekit_options(limits: Limits) -> None:
    """Refuse what CP-SAT would refuse, since puzzlekit hands it the options (registry checker)."""
    from ...models import cpsat_common

    cpsat_common.check_options(limits, "puzzlekit")


def _puzzlekit_input(instance: cave.Instance) -> dict[str, Any]:
    """Our instance as puzzlekit's CaveSolver arguments (the same tokens, as strings)."""
    grid = [[cell.token for cell in row] for row in instance.clues]
    return {"num_rows": instance.rows, "num_cols": instance.cols, "grid": grid}


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


def _inside_rows(grid: Any, instance: cave.Instance) -> list[str]:
    """puzzlekit's answer grid (`x` inside, `-` outside) as our row strings."""
    rows = grid.matrix if hasattr(grid, "matrix") else grid
    return ["".join("1" if str(token) == "x" else "0" for token in row) for row in rows]


def solve_puzzlekit(instance: cave.Instance, limits: Limits) -> Result:
    """Run puzzlekit's Cave model on `instance` (see the module docstring)."""
    reason = puzzlekit_supports(instance)
    if reason:
        return Result(Status.UNSUPPORTED, message=reason)
    started = time.perf_counter()
    puzzlekit = importlib.import_module("puzzlekit")
    options = _solver_options(limits)
    solver = puzzlekit.solver("cave", _puzzlekit_input(instance))
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
    solution = {"inside": _inside_rows(answer.sol_grid, instance)}
    return Result(Status.SOLVED, solution, None, None, stats)
