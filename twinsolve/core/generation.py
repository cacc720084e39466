"""The contract between `twinsolve generate` / `grade` and a puzzle's generator.

A puzzle that can be generated names a generator module in its registry
entry (`puzzles/<name>/generate.py`). The module provides:

- `LEVELS`: the difficulty levels, easiest first (`("easy", "medium", ...)`).
  A level is defined the way Simon Tatham's collection defines it: the
  techniques (or, for a state-space puzzle, the plan lengths and search
  effort) that solve it; its docstring states them.
- `DEFAULT_SIZE`: `(rows, cols)` when `--size` is not given (or `None` for a
  puzzle without a grid size).
- `OPTIONS`: the names of the puzzle-specific request options it reads
  (`presses`, `flips`, `pieces`, `length`, `variant`, ...), each a whole
  number or a word; any other option is refused before anything runs.
- `ATTEMPTS` (optional): tries per puzzle before a request is called
  impossible, when the driver's default does not fit the puzzle.
- `check(request) -> None`: raise `UsageError` (one line) for a request it
  can tell is impossible without trying (a 1x1 hard Cave, 8 pieces on a 2x2
  board); the driver's attempt budget catches the rest.
- `attempt(request, rng) -> Generated | None`: one bounded try from the
  seeded `random.Random`: a puzzle of exactly `request.level` with exactly
  one solution, its metadata (`expect-unique: true` and `expect-solution`
  or `expect-objective`), graded; None when this try found none. Never
  decide anything from a measured time: the same `rng` gives the same
  answer on every machine.
- `grade(instance) -> Grade`: the level of any instance of the puzzle and
  the evidence (what the grading solver needed), or `level=None` when it has
  no unique solution; deterministic, like `attempt`.

The driver (`twinsolve.generation`) owns everything else: seeds, attempts,
the per-puzzle time limit, jobs, the progress bar, the metadata lines that
say who made the file, and the writing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Request", "Grade", "Generated", "evidence_text", "FLAG_OPTIONS", "spelled"]

# The request options `twinsolve generate` takes as flags of their own (`--length 7`);
# every other one is given as `--option NAME=VALUE`.
FLAG_OPTIONS = ("presses", "flips", "pieces", "length", "modulus", "variant")


def spelled(name: str) -> str:
    """How a user gives option `name` on the command line, for error messages.

    >>> spelled("length"), spelled("jugs")
    ('--length', '--option jugs')
    """
    return f"--{name}" if name in FLAG_OPTIONS else f"--option {name}"


@dataclass(frozen=True)
class Request:
    """What to generate: one puzzle of `level` on a `rows` x `cols` grid.

    `rows` / `cols` are None for a puzzle without a grid size (jugs, clock);
    `symmetric` asks for 180-degree-symmetric clues where the puzzle has
    clues; `options` holds the puzzle's own options (`{"presses": 12}`).
    """

    puzzle: str
    level: str
    rows: int | None = None
    cols: int | None = None
    symmetric: bool = False
    options: dict[str, Any] = field(default_factory=dict)

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)


@dataclass(frozen=True)
class Grade:
    """The level of an instance (None: not uniquely solvable) and why: `evidence` is a
    small JSON-ready dict (techniques used, search nodes, branching depth, ...)."""

    level: str | None
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Generated:
    """One generated puzzle: the instance, with its answer in `meta`, and its grade."""

    instance: Any
    grade: Grade


def evidence_text(evidence: dict[str, Any]) -> str:
    """The evidence as one line of compact JSON, keys sorted (for a metadata line).

    >>> evidence_text({"nodes": 0, "techniques": ["bounds"]})
    '{"nodes":0,"techniques":["bounds"]}'
    """
    return json.dumps(evidence, sort_keys=True, separators=(",", ":"))
