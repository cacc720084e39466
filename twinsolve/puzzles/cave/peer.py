"""A peer solver from another project, as an optional Cave back-end for the benchmark.

`puzzlekit` (MIT, `pip install puzzlekit`, imported lazily; `models.puzzlekit_peer`
runs it): a collection of OR-Tools CP-SAT puzzle models. Its Cave ("cave",
alias "corral") model takes `num_rows`, `num_cols` and a grid of tokens - `-`
empty, `?` an inside cell without a count, a number a clue - exactly our
tokens, and answers a grid of `x` (inside) / `-` (outside). `solve_puzzlekit`
converts our instance to that input, runs `puzzlekit.solver("cave",
...).solve(...)`, and converts the answer back to `{"inside": [...]}`; the
runner then checks it with `cave.verify` like any other answer.

What it does not do (`models.puzzlekit_peer`): `unique` and `count` stay None
(unknown) even when asked; it runs on one CP-SAT worker unless `workers=N` is
given; without puzzlekit installed the back-end answers `unsupported` with
the install command.
"""

from __future__ import annotations

from typing import Any

from ...core.limits import Limits
from ...core.result import Result
from ...models import puzzlekit_peer
from ...models.puzzlekit_peer import PUZZLEKIT_MISSING
from . import rules

__all__ = ["solve_puzzlekit", "puzzlekit_supports", "check_puzzlekit_options",
           "PUZZLEKIT_MISSING"]

check_puzzlekit_options = puzzlekit_peer.check_options


def puzzlekit_supports(instance: Any) -> str | None:
    """None if puzzlekit can run `instance`, else why not (the registry's `supports`)."""
    return puzzlekit_peer.supports(instance, rules.Instance, rules.NAME)


def solve_puzzlekit(instance: rules.Instance, limits: Limits) -> Result:
    """Run puzzlekit's Cave model on `instance` (see the module docstring)."""
    return puzzlekit_peer.solve_marked(instance, limits, puzzlekit_supports(instance), rules.NAME,
                                       rules.KEY.name)
