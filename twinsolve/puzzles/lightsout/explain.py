"""Lights Out, explained: the first row's presses, then the chase row by row.

Rules: see `rules.py`. The reasoning a person follows with pencil and paper
(and the `hand` back-end, in bulk):

- The first row (the first two on a torus, every row on a torus under 3
  high) is settled first. Chasing the lights down from unknown first-row
  presses leaves equations on the last row; with no kernel they have one
  solution (technique "chase"). With a kernel of dimension k there are K^k
  press grids that turn the board off: the particular grid plus any
  combination of the k kernel grids; the step says which combination gives
  the fewest presses, and why it is the fewest (every combination's count,
  when there are few enough to list; else how many the search examined).
  Its technique is the grader's (`generate.settle`, the same code): "walk"
  when the human-scale coset walk settles it, else "exhaustive".
- Then the chase: each light of row r can now only be changed by the press
  just below it (every other press that reaches it is decided), so row
  r + 1's presses are forced: one step per row, technique "chase".

Items are cells `rXcY`, valued by their presses (0 included). The premises
of the first step are the lit cells; of a chase step, the lights of row r
and the decided presses around them.

`hint(instance, {"presses": ["1?0", ...]})`: the first decided cell (reading
order) that no fewest-press answer keeping the cells before it shares is a
`Mistake`, else the next step of an answer that keeps the position.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ...explain.state import grid_state, known_cells
from ...explain.steps import Explanation, Mistake, NoSolution, Step, cell_key, solved
from . import hand
from .generate import LEVELS, TECHNIQUES, Outcome, settle
from .rules import Instance, press_effect

__all__ = ["LEVELS", "ORDER", "explain", "hint"]

ORDER = tuple(TECHNIQUES[LEVELS[-1]])  # chase, walk, exhaustive
LISTED = 64          # combinations whose press counts the first step lists one by one
ENUMERATED = 1 << 16  # the most coset members enumerated (for hints and the counts)


def _free_rows(instance: Instance) -> int:
    """The rows left unknown by the chase: 1, 2 on a torus, all on a torus under 3 high."""
    if not instance.torus:
        return 1
    return 2 if instance.rows >= 3 else instance.rows


def _members(found: hand.Coset, modulus: int) -> tuple[np.ndarray, np.ndarray] | None:
    """Every coset member's presses and kernel coefficients, or None past `ENUMERATED`."""
    if modulus ** found.nullity > ENUMERATED:
        return None
    if found.nullity == 0:
        return found.particular.reshape(1, -1).astype(np.int64), np.zeros((1, 0), np.int64)
    coefficients = np.array(list(itertools.product(range(modulus), repeat=found.nullity)),
                            dtype=np.int64).reshape(-1, found.nullity)
    flat = found.kernel.reshape(found.nullity, -1).astype(np.int64)
    grids = (found.particular.reshape(-1).astype(np.int64) + coefficients @ flat) % modulus
    return grids, coefficients


def _words(cells: list[tuple[int, int]], values: dict[tuple[int, int], int]) -> str:
    if not cells:
        return "nothing"
    parts = [cell_key(r, c) + (f" ({values[(r, c)]} times)" if values[(r, c)] > 1 else "")
             for r, c in cells]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


class _Board:
    """One instance and the answer being explained (a press grid)."""

    def __init__(self, instance: Instance, grid: list[list[int]]) -> None:
        self.instance, self.grid = instance, grid
        self.rows, self.cols, self.k = instance.rows, instance.cols, instance.modulus

    def row_items(self, r: int) -> tuple[tuple[str, int], ...]:
        return tuple((cell_key(r, c), self.grid[r][c]) for c in range(self.cols))

    def pressed(self, rows: range) -> list[tuple[int, int]]:
        return [(r, c) for r in rows for c in range(self.cols) if self.grid[r][c]]

    def light_after(self, r: int, c: int, decided_rows: int) -> int:
        """Light (r, c) after the presses of rows 0 .. decided_rows - 1."""
        value = self.instance.lights[r][c]
        for pr, pc in self.pressed(range(decided_rows)):
            value += self.grid[pr][pc] * press_effect(self.instance, pr, pc).count((r, c))
        return value % self.k

    def chase_step(self, r: int) -> Step:
        """Row r + 1 forced by the lights of row r."""
        on = {(r, c): self.light_after(r, c, r + 1) for c in range(self.cols)}
        lit = [cell for cell, value in on.items() if value]
        presses = {(r + 1, c): self.grid[r + 1][c] for c in range(self.cols)}
        if not lit:
            said = (f"row {r + 1} takes no presses: row {r} is dark after the presses above "
                    f"it, and a press below a light is the last that reaches it")
        else:
            lights = ", ".join(f"{cell_key(*cell)}" + (f" (at {on[cell]})" if self.k > 2 else "")
                               for cell in lit)
            below = _words([(rr, cc) for (rr, cc) in presses if presses[(rr, cc)]], presses)
            said = (f"row {r + 1}: press {below}: after the presses above, {lights} "
                    f"{'is' if len(lit) == 1 else 'are'} still on in row {r}, and only the press "
                    f"just below a light can still change it")
        near = sorted({cell_key(*cell) for cell in on} |
                      {cell_key(*cell) for cell in self.pressed(range(max(r - 1, 0), r + 1))})
        return Step("chase", self.row_items(r + 1), said, tuple(near))

    def chase(self, first: int) -> list[Step]:
        return [self.chase_step(r) for r in range(first - 1, self.rows - 1)]


def _first_rows(board: _Board, technique: str, found: hand.Coset, presses: int) -> Step:
    """The step settling the free rows (module docstring)."""
    instance, free = board.instance, _free_rows(board.instance)
    rows_word = "the first row" if free == 1 else f"the first {free} rows"
    count = instance.modulus ** found.nullity
    if found.nullity == 0:
        why = (f"chasing the lights down from unknown presses in {rows_word} leaves "
               f"equations on the last rows with exactly one solution")
    else:
        why = (f"chasing the lights down from unknown presses in {rows_word} leaves equations "
               f"with a kernel of dimension {found.nullity}: {count} press grids turn the "
               f"board off, and {_fewest(board, found, presses)}")
    items = tuple(item for r in range(free) for item in board.row_items(r))
    cells = board.pressed(range(free))
    pressed = _words(cells, {cell: board.grid[cell[0]][cell[1]] for cell in cells})
    said = f"press {pressed} in {rows_word}: {why}" if cells else f"no press in {rows_word}: {why}"
    lit = tuple(cell_key(r, c) for r in range(instance.rows) for c in range(instance.cols)
                if instance.lights[r][c])
    return Step(technique, items, said, lit)


def _fewest(board: _Board, found: hand.Coset, presses: int) -> str:
    """Which kernel combination gives the fewest presses, and why it is the fewest."""
    members = _members(found, board.instance.modulus)
    if members is None:
        return (f"the exhaustive search of all of them finds {presses} presses the fewest, "
                f"taken by this grid")
    grids, coefficients = members
    totals = grids.sum(axis=1)
    mine = np.array(board.grid, dtype=np.int64).reshape(-1)
    index = int(np.flatnonzero((grids == mine).all(axis=1))[0])
    used = [f"kernel grid {i + 1}" + (f" x{int(y)}" if y > 1 else "")
            for i, y in enumerate(coefficients[index]) if y]
    combination = ("the particular grid alone" if not used else
                   "the particular grid plus " + " and ".join(used))
    ties = int((totals == presses).sum())
    if len(totals) <= LISTED:
        counts = ", ".join(map(str, sorted(totals.tolist())))
        proof = f"their press counts are {counts}"
    else:
        proof = "every one of them counted, none has fewer"
    tie_words = "" if ties == 1 else f" ({ties} grids tie)"
    return f"{combination} gives {presses} presses, the fewest{tie_words}: {proof}"


def _technique(instance: Instance) -> str:
    """The first row's technique: the grader's level (`generate.settle`), its top one."""
    settled = settle(instance)
    if settled.outcome is Outcome.NONE:
        raise NoSolution("no solution: no press grid turns every light off")
    level = settled.level or LEVELS[-1]
    return TECHNIQUES[level][-1]


def _explained(instance: Instance, grid: list[list[int]], technique: str, found: hand.Coset,
               level: str | None) -> tuple[list[Step], tuple[str, ...]]:
    board = _Board(instance, grid)
    presses = sum(map(sum, grid))
    allowed = ORDER if level is None else TECHNIQUES[level]
    if technique not in allowed:
        return [], (f"The {level} techniques ({', '.join(allowed)}) do not settle the first "
                    f"row: the kernel has dimension {found.nullity}, and choosing among its "
                    f"{instance.modulus ** found.nullity} grids needs {technique}.",)
    steps = [_first_rows(board, technique, found, presses), *board.chase(_free_rows(instance))]
    return steps, (f"The last row is dark too: the board is off with {presses} presses.",)


def explain(instance: Instance, level: str | None = None) -> Explanation:
    """The first row's presses, then the chase (module docstring)."""
    technique = _technique(instance)
    result = solved(instance, unique=False)
    grid = [[int(ch) for ch in row] for row in result.solution["presses"]]
    steps, summary = _explained(instance, grid, technique, hand.coset(instance), level)
    return Explanation("lightsout", tuple(steps), result.solution, bool(steps), level, ORDER,
                       summary)


def hint(instance: Instance, state: dict[str, Any]) -> Step | Mistake | None:
    """The first mistake of a position, else its next step, else None (module docstring)."""
    digits = "".join(str(d) for d in range(instance.modulus))
    known = known_cells(grid_state(state, "presses", instance.rows, instance.cols, digits))
    technique = _technique(instance)
    found = hand.coset(instance)
    answers = _fewest_grids(instance, found)
    order = sorted(known)
    for number in range(1, len(order) + 1):
        kept = [grid for grid in answers
                if all(grid[r][c] == known[(r, c)] for r, c in order[:number])]
        if not kept:
            r, c = order[number - 1]
            return Mistake(cell_key(r, c), f"{cell_key(r, c)} pressed {known[(r, c)]} times is in "
                                           f"no fewest-press answer that keeps the cells before "
                                           f"it in reading order")
        answers = kept
    steps, _ = _explained(instance, answers[0], technique, found, None)
    for step in steps:
        items = [item for item, _ in step.decided]
        if any(_cell(item) not in known for item in items):
            return step
    return None


def _cell(item: str) -> tuple[int, int]:
    r, c = item[1:].split("c")
    return int(r), int(c)


def _fewest_grids(instance: Instance, found: hand.Coset) -> list[list[list[int]]]:
    """The fewest-press answers (every one when the coset is small enough to list, else
    the `hand` answer alone)."""
    members = _members(found, instance.modulus)
    if members is None:
        return [[[int(ch) for ch in row]
                 for row in solved(instance, unique=False).solution["presses"]]]
    grids, _ = members
    totals = grids.sum(axis=1)
    best = grids[totals == totals.min()]
    return [row.reshape(instance.rows, instance.cols).tolist() for row in best]

