"""Lights Out, `hand`'s summary: solve and check a board without holding its press grid.

The registry's `summary` module of the `hand` back-end (`core.registry`,
`core.run.run(..., summary=True)`, `twinsolve solve FILE --summary`). It
adapts an `Instance` to `hand.solve_summary`, which finds the first press
row by the polynomial method and chases the others one at a time straight
into the rules' streamed check (`rules.verify_rows`), counting the presses:
the answer is a status, the presses, the nullity and the other stats, and
the check's verdict, never the grid. So it handles what that method
handles, GF(2) boards without torus (`sigma` or not), at any size a file
allows (`rules.COMPACT_MAX_SIDE`); the all-on 100,000 x 100,000 board takes
about 8 s and 30 MB. A board with a kernel (nullity > 0) gets `feasible`:
a solution, not the fewest (the coset search needs every kernel grid), and
its message says so and why (`NOT_PROVEN`).

`core.run.run` takes the summary only for a board too large for the full
solve (`rules.too_large`); a board that fits takes the full solve, even
under `solve --summary`, so its answer (the fewest presses) does not depend
on the flag. `supports` says why a board or an option is not for the
summary (torus, mod K, `method=elimination`); such a board too large for
the full solve is refused.
"""

from __future__ import annotations

from ...core.limits import Limits
from ...core.result import Result, Status
from .hand import METHODS, solve_summary
from .rules import Instance, every_light_on, light_rows

__all__ = ["supports", "summary", "NOT_PROVEN"]

# The message of a `feasible` summary: what is not proven, and why.
NOT_PROVEN = ("fewest presses not proven: the board has a kernel of nullity {nullity} and "
              "the summary does not search it")


def supports(instance: Instance, limits: Limits) -> str | None:
    """None when `summary` handles `instance` under `limits`' options, else why not.

    >>> supports(Instance.all_on(4), Limits()) is None
    True
    >>> supports(Instance.all_on(4, torus=True), Limits())
    "hand's summary handles GF(2) boards without torus (this one is torus)"
    """
    if instance.modulus != 2 or instance.torus:
        return f"hand's summary handles GF(2) boards without torus (this one is " \
               f"{instance.variant})"
    if limits.choice("method", "auto", METHODS) == "elimination":
        return "hand's summary uses the polynomial method, not method=elimination"
    return None


def summary(instance: Instance, limits: Limits) -> Result:
    """Solve and check `instance` without its press grid (module docstring); `unsupported`
    (with `supports`' reason) for a board it does not handle.

    >>> result = summary(Instance.all_on(3), Limits())
    >>> result.status.value, result.objective, result.verified, result.solution
    ('optimal', 5, True, None)
    """
    why = supports(instance, limits)
    if why is not None:
        return Result(Status.UNSUPPORTED, message=why)
    # None: every light on, which solve_summary builds as one int repeated; otherwise one
    # int per row, rows shared by several rows read once (`light_rows`).
    lights = None if every_light_on(instance) else list(light_rows(instance))
    result = solve_summary(instance.rows, instance.cols, lights, instance.sigma, limits)
    if result.status is Status.FEASIBLE and result.message is None:
        nullity = result.stats.counters["nullity"]
        return result.with_(message=NOT_PROVEN.format(nullity=nullity))
    return result
