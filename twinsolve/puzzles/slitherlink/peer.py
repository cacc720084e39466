"""A peer solver from another project, as an optional Slitherlink back-end for the benchmark.

`puzzlekit` (MIT, `pip install puzzlekit`, imported lazily): a collection of
OR-Tools CP-SAT puzzle models. Its Slitherlink model takes `num_rows`,
`num_cols` and a grid of tokens (`-` no clue, a clue 0..4: our tokens) and
models the loop with CP-SAT's circuit constraint over the grid's points; it
answers each cell's loop sides as a 4-bit number (8 top, 4 left, 2 bottom,
1 right; `-` for none). `solve_puzzlekit` converts our instance to that
input, runs `puzzlekit.solver("slitherlink", ...).solve(...)`, reads the
vertical sides of the answer back into inside cells (a cell is inside when
an odd number of loop sides lie left of it in its row) and returns
`{"inside": [...]}`; the runner then checks it with `verify` like any other
answer.

What it does not do: puzzlekit solves once, so `unique` and `count` stay
None even when asked. Its model runs on one CP-SAT worker here (like
twinsolve's `cpsat`) unless `workers=N` is given; `nodes` is CP-SAT's
`num_branches`. Without puzzlekit installed the back-end answers
`unsupported` with the install command.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from typing import Any

from ...core.errors import UsageError
from ...core.limits import Limits
from ...core.result import Result, Stats, Status
from . import rules

__all__ = ["solve_puzzlekit", "puzzlekit_supports", "check_puzzlekit_options",
           "PUZZLEKIT_MISSING", "inside_from_walls"]

PUZZLEKIT_MISSING = "puzzlekit is not installed (pip install puzzlekit, or twinsolve[peers])"
_STATUS = {"Optimal": Status.SOLVED, "Feasible": Status.SOLVED, "Infeasible": Status.UNSAT,
           "Timeout": Status.TIMEOUT, "Unknown": Status.TIMEOUT, "Invalid Model": Status.ERROR}
_ALIASES = {"workers": "num_workers", "seed": "random_seed"}
_TOP, _LEFT, _BOTTOM, _RIGHT = 8, 4, 2, 1  # puzzlekit's bits of a cell's loop sides


def puzzlekit_supports(instance: Any) -> str | None:
    """None if puzzlekit can run `instance`, else why not (the registry's `supports`)."""
    if importlib.util.find_spec("puzzlekit") is None:
        return PUZZLEKIT_MISSING
    if not isinstance(instance, rules.Instance):
        return "the puzzlekit peer back-end handles slitherlink only here"
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


def inside_from_walls(grid: Any, rows: int, cols: int) -> list[list[bool]]:
    """puzzlekit's answer (a 4-bit number per cell, `-` for none) as inside cells.

    >>> inside_from_walls([["15", "4"]], 1, 2)  # cell 0: all four sides; cell 1: its left
    [[True, False]]
    """
    matrix = grid.matrix if hasattr(grid, "matrix") else grid
    bits = [[int(token) if str(token).isdigit() else 0 for token in row] for row in matrix]
    down = [[bool(bits[r][c] & _LEFT) if c < cols else bool(bits[r][cols - 1] & _RIGHT)
             for c in range(cols + 1)] for r in range(rows)]
    across = [[False] * cols for _ in range(rows + 1)]  # not read: rows are scanned
    return rules.inside_from_sides(across, down)


def solve_puzzlekit(instance: rules.Instance, limits: Limits) -> Result:
    """Run puzzlekit's Slitherlink model on `instance` (see the module docstring)."""
    reason = puzzlekit_supports(instance)
    if reason:
        return Result(Status.UNSUPPORTED, message=reason)
    started = time.perf_counter()
    puzzlekit = importlib.import_module("puzzlekit")
    options = _solver_options(limits)
    grid = [["-" if clue is None else str(clue) for clue in row] for row in instance.clues]
    solver = puzzlekit.solver("slitherlink", {"num_rows": instance.rows,
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
    inside = inside_from_walls(answer.sol_grid, instance.rows, instance.cols)
    return Result(Status.SOLVED, rules.solution_from_inside(inside), None, None, stats)
