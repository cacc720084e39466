"""What each puzzle's solution looks like as explanation items (`rXcY`, `move k`), for the
replay check: the steps, replayed from nothing, must decide exactly these."""

from __future__ import annotations

from typing import Any


def solution_items(instance: Any, solution: dict[str, Any]) -> dict[str, Any]:
    """The items and values a complete explanation of `solution` decides."""
    puzzle = type(instance).PUZZLE
    if puzzle in ("cave", "lightsout"):
        key = "inside" if puzzle == "cave" else "presses"
        return {f"r{r}c{c}": int(ch) for r, row in enumerate(solution[key])
                for c, ch in enumerate(row)}
    if puzzle == "mirror":
        flipped = {tuple(cell) for cell in solution["flips"]}
        return {f"r{r}c{c}": int((r, c) in flipped) for r, c in instance.rotatable()}
    key = "steps" if puzzle == "clock" else "moves"
    return {f"move {k}": move for k, move in enumerate(solution[key], 1)}
