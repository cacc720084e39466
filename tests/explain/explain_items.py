"""What each puzzle's solution looks like as explanation items (`rXcY`, `move k`), for the
replay check: the steps, replayed from nothing, must decide exactly these."""

from __future__ import annotations

from typing import Any


def solution_items(instance: Any, solution: dict[str, Any]) -> dict[str, Any]:
    """The items and values a complete explanation of `solution` decides."""
    # by the solution keys' shape, so a new puzzle of a known shape needs no line here
    if "flips" in solution:  # the rotatable mirrors, each flipped or not
        flipped = {tuple(cell) for cell in solution["flips"]}
        return {f"r{r}c{c}": int((r, c) in flipped) for r, c in instance.rotatable()}
    for key in ("steps", "moves"):  # a plan: its moves in order
        if key in solution:
            return {f"move {k}": move for k, move in enumerate(solution[key], 1)}
    grids = [value for value in solution.values()
             if isinstance(value, list) and value and all(isinstance(row, str) for row in value)]
    assert len(grids) == 1, f"no cell grid in the solution keys {sorted(solution)}"
    return {f"r{r}c{c}": int(ch) for r, row in enumerate(grids[0]) for c, ch in enumerate(row)}
