"""Generated Cave puzzles: deterministic, uniquely solvable, and what is shipped."""

from __future__ import annotations

import json
from pathlib import Path

from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import load_file, run
from twinsolve.puzzles.cave import rules as cave
from twinsolve.puzzles.cave.generate import unique_puzzle

SHIPPED = Path(__file__).resolve().parents[3] / "instances" / "cave"


def test_same_seed_same_puzzle_byte_for_byte():
    assert cave.format(unique_puzzle(6, 6, 11)) == cave.format(unique_puzzle(6, 6, 11))


def test_generated_puzzle_is_unique_for_every_backend_and_clues_are_minimal():
    puzzle = unique_puzzle(7, 7, 5)
    known = json.loads(dict(puzzle.meta)["expect-solution"])
    assert cave.verify(puzzle, known) == []
    for backend in ("hand", "sat", "cpsat"):
        result = run(puzzle, backend, Limits(timeout=60, unique=True))
        assert result.status is Status.SOLVED and result.unique is True, backend
        assert result.solution == known
    # Minimal: dropping any one clue leaves more than one solution.
    clues = [(c.row, c.col) for c in cave.clue_cells(puzzle)]
    for r, c in clues[:4]:
        grid = [list(row) for row in puzzle.clues]
        grid[r][c] = cave.EMPTY
        fewer = cave.Instance(puzzle.rows, puzzle.cols, tuple(map(tuple, grid)))
        assert run(fewer, "sat", Limits(timeout=60, unique=True)).unique is False


def test_shipped_puzzles_are_the_generated_ones():
    path = SHIPPED / "unique-06x06-seed1.txt"
    assert path.read_text() == cave.format(unique_puzzle(6, 6, 1))
    for file in sorted(SHIPPED.glob("*.txt")):
        puzzle = load_file(file)
        assert cave.verify(puzzle, json.loads(dict(puzzle.meta)["expect-solution"])) == []
