"""The clue-grid format and answer keys shared by grid puzzles (`core.clue_grid`), on a toy
puzzle of its own: one-line errors at their line and column, round trips, answer keys,
and the brute-force bitboard's flood (bounded in steps too) against a breadth-first flood."""

from __future__ import annotations

import random
import re

import pytest

from twinsolve.core.clue_grid import (
    EMPTY,
    UNKNOWN,
    AnswerKey,
    Bitboard,
    Cell,
    ClueGrid,
    checked_grid,
    format_grid,
    reachable,
    read_cell,
    read_header,
    read_rows,
)
from twinsolve.core.errors import InstanceError, UsageError
from twinsolve.core.instance_file import read_layout
from twinsolve.core.play import ClueEditing, clue_cell

KEY = AnswerKey("lit")


def _problem(number: int) -> str | None:
    return None if 1 <= number <= 9 else f"clue {number} is impossible: clues are 1..9"


def parse(text: str) -> ClueGrid:
    layout = read_layout(text, "toy.txt")
    rows, cols = read_header(layout, "toy")
    grid = read_rows(layout, rows, cols, lambda line, column, token: read_cell(
        layout, line, column, token, _problem, "clues are 1..9"))
    return ClueGrid(rows, cols, grid, layout.metadata)


def test_a_grid_round_trips_with_its_metadata():
    text = "# source: here\ntoy 2 3\n- 2 ?\n9 - -\n"
    grid = parse(text)
    assert grid.clues[0] == (EMPTY, Cell.clue(2), UNKNOWN) and grid.cells == 6
    assert format_grid("toy", grid, lambda cell: cell.token) == text


@pytest.mark.parametrize("text, where, message", [
    ("toy 1 1 x\n-\n", (1, 1), "header must be exactly 'toy ROWS COLS', got 'toy 1 1 x'"),
    ("toy 1 2\n-\n", (2, None), "row has 1 tokens, expected 2"),
    ("toy 1 2\n- -   -\n", (2, 7), "row has 3 tokens, expected 2"),
    ("toy 1 1\n-\n-\n", (3, 1), "more than 1 rows of clues"),
    ("toy 2 1\n-\n", (2, None), "expected 2 rows of clues, found 1"),
    ("toy 1 2\n- x\n", (2, 3), "token 'x' is not '-', '?' or a clue number"),
    ("toy 1 2\n- 0\n", (2, 3), "clue 0 is impossible: clues are 1..9"),
    ("toy 1 1\n00012345678\n", (2, 1), "a clue of 8 digits is impossible: clues are 1..9"),
])
def test_a_bad_file_is_one_error_at_its_line_and_column(text, where, message):
    with pytest.raises(InstanceError) as caught:
        parse(text)
    assert (caught.value.source, caught.value.line, caught.value.column) == ("toy.txt", *where)
    assert caught.value.message == message


def test_a_built_grid_is_checked_like_a_file():
    cell_problem = lambda cell: None if isinstance(cell, Cell) else "not a Cell"  # noqa: E731
    assert checked_grid(1, 2, [[EMPTY, UNKNOWN]], cell_problem) == ((EMPTY, UNKNOWN),)
    for rows, clues, message in ((0, [], "ROWS must be a whole number 1..200, got 0"),
                                 (1, [[EMPTY]], "clue grid is not 1 x 2"),
                                 (1, [[EMPTY, 3]], "row 0 column 1: not a Cell")):
        with pytest.raises(InstanceError, match=message) as caught:
            checked_grid(rows, 2, clues, cell_problem, "importer", 4)
        assert (caught.value.source, caught.value.line) == ("importer", 4)


def test_an_answer_key_reads_writes_and_checks_its_shape():
    grid = ClueGrid(2, 2, ((EMPTY, EMPTY), (EMPTY, EMPTY)))
    solution = KEY.solution([[True, 0], [0, 1]])
    assert solution == {"lit": ["10", "01"]}
    assert KEY.shape(grid, solution) == (((True, False), (False, True)), [])
    assert KEY.shape(grid, {"lit": ["10"]}) == (None, ["lit has 1 rows, expected 2"])
    assert KEY.shape(grid, {"lit": ["10", "0"]}) == (None, ["lit row 1 has 1 cells, expected 2"])
    assert KEY.shape(grid, {"on": []}) == (None, ['solution must be {"lit": [row strings of 0 '
                                                   'and 1]}'])
    assert KEY.shape(grid, {"lit": ["12", "00"]}) == (
        None, ["lit row 0 must be a string of 0 and 1, got '12'"])


def test_the_bitboard_flood_is_the_breadth_first_flood():
    chance = random.Random(3)
    for _ in range(200):
        rows, cols = chance.randint(1, 5), chance.randint(1, 5)
        allowed = [[chance.random() < 0.6 for _ in range(cols)] for _ in range(rows)]
        start = (chance.randrange(rows), chance.randrange(cols))
        if not allowed[start[0]][start[1]]:
            continue
        board = Bitboard(rows, cols)
        region = sum(1 << r * cols + c for r in range(rows) for c in range(cols)
                     if allowed[r][c])
        flooded = board.flood(1 << start[0] * cols + start[1], region)
        assert {divmod(bit, cols) for bit in range(rows * cols) if flooded >> bit & 1} == \
            reachable([start], allowed)
        # With a bound on the steps: the cells within that many, breadth first.
        distance, frontier = {start: 0}, [start]
        for r, c in frontier:
            for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if (0 <= cell[0] < rows and 0 <= cell[1] < cols and allowed[cell[0]][cell[1]]
                        and cell not in distance):
                    distance[cell] = distance[(r, c)] + 1
                    frontier.append(cell)
        steps = chance.randint(0, 4)
        near = board.flood(1 << start[0] * cols + start[1], region, steps)
        assert {divmod(bit, cols) for bit in range(rows * cols) if near >> bit & 1} == \
            {cell for cell, d in distance.items() if d <= steps}


def _bitboard_agrees(rows: int, cols: int, chance: random.Random) -> None:
    """Each Bitboard operation against the same set of cells worked out one by one."""
    board = Bitboard(rows, cols)
    every = {(r, c) for r in range(rows) for c in range(cols)}
    corners = {(r, c) for r, c in every if r < rows - 1 and c < cols - 1}
    cells = {cell for cell in every if chance.random() < 0.5}
    some = {corner for corner in corners if chance.random() < 0.3}

    def bits(of):
        return sum(1 << r * cols + c for r, c in of)

    def as_cells(value):
        assert 0 <= value <= board.full
        return {divmod(bit, cols) for bit in range(rows * cols) if value >> bit & 1}

    def beside(r, c):
        return [(r + dr, c + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if (r + dr, c + dc) in every]

    def block(r, c):
        return {(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)}

    assert as_cells(board.around(bits(cells))) == {
        cell for r, c in cells for cell in beside(r, c)} - cells
    assert as_cells(board.crowded(bits(cells))) == {
        (r, c) for r, c in every if sum(w in cells for w in beside(r, c)) >= 3}
    assert as_cells(board.blocks(bits(cells))) == {
        corner for corner in corners if block(*corner) <= cells}
    assert as_cells(board.touching(bits(cells))) == {
        corner for corner in corners if block(*corner) & cells}
    assert as_cells(board.block_cells(bits(some))) == {
        cell for corner in some for cell in block(*corner)}


def test_bitboard_neighbours_and_blocks_agree_with_the_cells_one_by_one():
    chance = random.Random(7)
    for _ in range(200):
        _bitboard_agrees(chance.randint(1, 6), chance.randint(1, 6), chance)


def test_an_author_edits_a_clue_grid_in_one_line_errors():
    build = lambda rows, cols, clues, meta=(): ClueGrid(  # noqa: E731
        rows, cols, checked_grid(rows, cols, clues, lambda cell: None), tuple(meta))
    editing = ClueEditing(build, EMPTY, lambda token, grid: clue_cell(
        token, "a toy cell holds '-', '?' or a clue number", _problem))
    grid = editing.edit(editing.blank(1, 2), "r0c1", "7")
    assert grid.clues == ((EMPTY, Cell.clue(7)),)
    for token, message in (("x", "a toy cell holds '-', '?' or a clue number, not 'x'"),
                           ("0", "clue 0 is impossible: clues are 1..9")):
        with pytest.raises(UsageError, match=re.escape(message)):
            editing.edit(grid, "r0c0", token)
    with pytest.raises(UsageError, match="ROWS must be a whole number 1..200, got 0"):
        editing.blank(0, 2)
