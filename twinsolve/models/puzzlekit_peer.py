"""The puzzlekit package's solvers as peer back-ends: the plumbing every puzzle's peer shares.

`puzzlekit` (MIT, `pip install puzzlekit`, imported lazily, so a run without
it costs nothing): a collection of OR-Tools CP-SAT puzzle models, each named
by a genre and taking `num_rows`, `num_cols` and a grid of tokens. A
puzzle's `peer.py` says what is its own (the genre, its instance as tokens,
the answer grid read back into its solution key); `solve` runs the model and
reports it in twinsolve's terms, and the runner then checks the answer with
the puzzle's `verify` like any other answer.

What a peer does not do: puzzlekit solves once, so `unique` and `count` stay
None (unknown) even when asked. Its model is single-threaded here
(`num_workers` = 1, like twinsolve's `cpsat`) unless `workers=N` is given, so
that node counts and times compare like with like; `nodes` is CP-SAT's
`num_branches`, as for `cpsat`. Without puzzlekit installed the back-end
answers `unsupported` with the install command.
"""

from __future__ import annotations

import importlib
import importlib.util
import time
from collections.abc import Callable
from typing import Any

from ..core.declaration import Backend
from ..core.errors import UsageError
from ..core.limits import Limits
from ..core.result import Result, Stats, Status

__all__ = ["PUZZLEKIT_MISSING", "backend", "supports", "check_options", "solve", "marked_rows",
           "solve_marked"]

PUZZLEKIT_MISSING = "puzzlekit is not installed (pip install puzzlekit, or twinsolve[peers])"
_STATUS = {"Optimal": Status.SOLVED, "Feasible": Status.SOLVED, "Infeasible": Status.UNSAT,
           "Timeout": Status.TIMEOUT, "Unknown": Status.TIMEOUT, "Invalid Model": Status.ERROR}
_ALIASES = {"workers": "num_workers", "seed": "random_seed"}


def backend(package: str) -> Backend:
    """The peer's declaration for the puzzle folder `package`, whose `peer.py` binds
    `solve_puzzlekit`, `puzzlekit_supports` and `check_puzzlekit_options`: for side-by-side
    benchmarks (`pip install -e '.[peers]'`), never planned by default (named with
    --backends). Importing this module imports no solver, so declaring it stays cheap."""
    return Backend("puzzlekit", f"{package}.peer:solve_puzzlekit",
                   "the puzzlekit package's OR-Tools solver (peer, benchmarks only)",
                   supports_target=f"{package}.peer:puzzlekit_supports",
                   bare_option="workers", by_default=False,
                   options_target=f"{package}.peer:check_puzzlekit_options")


def supports(instance: Any, kind: type, name: str) -> str | None:
    """None if puzzlekit is installed and `instance` is a `kind` (the puzzle `name`'s
    instance), else why not (the registry's `supports`)."""
    if importlib.util.find_spec("puzzlekit") is None:
        return PUZZLEKIT_MISSING
    if not isinstance(instance, kind):
        return f"the puzzlekit peer back-end handles {name} only"
    return None


def check_options(limits: Limits) -> None:
    """Refuse what CP-SAT would refuse, since puzzlekit hands it the options (registry checker)."""
    from . import cpsat_common

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


def marked_rows(grid: Any) -> list[str]:
    """puzzlekit's answer grid of `x` (the cell is in) and `-` as our row strings of 1/0."""
    rows = grid.matrix if hasattr(grid, "matrix") else grid
    return ["".join("1" if str(token) == "x" else "0" for token in row) for row in rows]


def solve(genre: str, rows: int, cols: int, grid: list[list[str]], limits: Limits,
          answer: Callable[[Any], dict[str, Any]]) -> Result:
    """Run puzzlekit's `genre` model on a grid of tokens; `answer(sol_grid)` is its answer
    grid as the puzzle's solution key."""
    started = time.perf_counter()
    puzzlekit = importlib.import_module("puzzlekit")
    options = _solver_options(limits)
    solver = puzzlekit.solver(genre, {"num_rows": rows, "num_cols": cols, "grid": grid})
    found = solver.solve(solver_options=options)
    wall = time.perf_counter() - started
    data = found.solution_data
    status = _STATUS.get(str(data.get("status")), Status.ERROR)
    build = float(data.get("build_time", 0.0))
    stats = Stats(nodes=int(data.get("num_branches", 0)), build_s=build,
                  solve_s=max(wall - build, 0.0),
                  counters={"conflicts": int(data.get("num_conflicts", 0))})
    if status is not Status.SOLVED:
        message = None if status is not Status.ERROR else f"puzzlekit: {data.get('status')}"
        return Result(status, stats=stats, message=message)
    return Result(Status.SOLVED, answer(found.sol_grid), None, None, stats)


def solve_marked(instance: Any, limits: Limits, reason: str | None, genre: str,
                 key: str) -> Result:
    """Run puzzlekit's `genre` model on a grid of clue cells whose tokens it reads as they
    are (`instance.clues[r][c].token`), its answer a grid of `x` marks read back under the
    solution key `key`; `unsupported` with `reason` when there is one."""
    if reason:
        return Result(Status.UNSUPPORTED, message=reason)
    grid = [[cell.token for cell in row] for row in instance.clues]
    return solve(genre, instance.rows, instance.cols, grid, limits,
                 lambda found: {key: marked_rows(found)})
