"""The sea's span (`twinsolve.search.seaspan`): the sea reaches past every side of an
island's box that is off the grid's edge, and a connected sea spanning w columns and h
rows has w + h - 1 cells at least.

- The bound, on every shading of small grids that the rules accept: every island's
  own box is among the boxes the rule lists in the solved state (so the rule refuses
  no solution), and `span_cost` never exceeds the sea's size there.
- On random 4x4 and 4x5 grids (and their transposes) whose clues are read off a
  small connected sea (fewer cells than the grid's rows and columns less one, where
  the rule is registered), the bounds and the rule alone: the search over them finds
  exactly brute force's solutions, and the rule acts, both by a contradiction and by
  keeping an island to its boxes.
- By hand: a small copy of 1030_32x32 of the janko.at corpus (a large island and a
  small one in a corner, a tiny sea) is settled by propagation alone, and not
  without the rule; the rule is registered only where the sea is that small.
"""

from __future__ import annotations

import random

import pytest
from conftest import clues_off, grown_sea, sampled
from test_enclosure import solved_stores
from test_islands import alone_agrees, is_solution, settled_text

from twinsolve.core.clue_grid import Bitboard
from twinsolve.search.enclosure import island_sets
from twinsolve.search.grid import Grid
from twinsolve.search.islands import Islands
from twinsolve.search.propagate import IS_FALSE, IS_TRUE
from twinsolve.search.seaspan import SeaSpan, span_boxes, span_cost

LAND, SEA = IS_FALSE, IS_TRUE


def box_of(grid, cells):
    """(top, left, height, width) of the box a set of cells spans."""
    rows = [v // grid.cols for v in cells]
    cols = [v % grid.cols for v in cells]
    return min(rows), min(cols), max(rows) - min(rows) + 1, max(cols) - min(cols) + 1


@pytest.mark.parametrize("rows, cols", sampled([(3, 4), (4, 4), (3, 5)]))
def test_every_island_of_a_solution_spans_a_box_the_rule_lists(rows, cols):
    grid = Grid(rows, cols)
    board = Bitboard(rows, cols)
    checked = tight = 0
    for sea, islands, clues, store in solved_stores(grid):
        rule = SeaSpan(grid, LAND, [number for _, number in clues], len(sea))
        rule(store)  # a solution: no contradiction
        sea_rows = sum(1 << r for r in {v // cols for v in sea})
        sea_cols = sum(1 << c for c in {v % cols for v in sea})
        for k, island in enumerate(islands):
            top, left, height, width = box_of(grid, island)
            cost = span_cost(top, left, height, width, rows, cols, sea_rows, sea_cols)
            assert cost <= len(sea), (rows, cols, sorted(sea), sorted(island))
            tight += cost == len(sea)
            known, other, known_sea = island_sets(store.dom, grid.size, LAND, 2 << k)
            boxes = span_boxes(board, rows, len(island), known, other, known_sea, len(sea))
            assert board.box(top, top + height - 1, left, left + width - 1) in boxes
            checked += 1
    assert checked > 0 and tight > 0  # the bound is met exactly somewhere


def small_sea_case(rng):
    """A 4x4 or 4x5 grid (or its transpose) whose clues are read off a random connected
    sea of 2 to rows + cols - 2 cells, one clue in eight off by one."""
    rows, cols = 4, rng.choice((4, 5))
    if rng.random() < 0.5:
        rows, cols = cols, rows
    grid = Grid(rows, cols)
    return grid, clues_off(rng, grid, grown_sea(rng, grid, 2, rows + cols - 2))


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@pytest.mark.parametrize("part", (0, 1, 2))
def test_the_sea_span_alone_keeps_exactly_the_solutions_brute_force_finds(part):
    acted = alone_agrees(
        random.Random(f"sea span {part}"), lambda rng, tried: small_sea_case(rng),
        lambda grid, numbers, size: SeaSpan(grid, LAND, numbers, size)
        if SeaSpan.fires(grid, size) else None, 40)
    assert acted["contradiction"] > 0 and acted["narrowed"] > 0, acted


def test_a_small_1030_is_settled_by_the_span_of_its_tiny_sea(monkeypatch):
    # A 37 and a 6 on 7x7, 6 sea cells: the 6's box costs the sea its width and height
    # and one more; against a corner 3 by 2 costs 6, and its clue in the third column of
    # the bottom row leaves the bottom left corner's 3 columns by 2 rows. Without the
    # rule, propagation leaves it open.
    rows = [". . . . . . 37", ". . . . . . .", ". . . . . . .", ". . . . . . .",
            ". . . . . . .", ". . . . . . .", ". . 6 . . . ."]
    grid, clues, shading = settled_text(rows)
    assert shading == [".......", ".......", ".......", ".......",
                       "####...", "...#...", "...#..."]
    assert is_solution(grid, clues, {v for v in range(grid.size)
                                     if shading[v // grid.cols][v % grid.cols] == "#"})
    monkeypatch.setattr(SeaSpan, "fires", staticmethod(lambda *args: False))
    assert "?" in "".join(settled_text(rows)[2])


def test_the_rule_runs_only_where_the_sea_is_smaller_than_a_corner_box_of_the_grid():
    def registered(rows, cols, clues):
        islands = Islands(Grid(rows, cols), clues)
        return any(isinstance(rule, SeaSpan) for rule, *_ in islands.rules())

    assert registered(7, 7, [(6, 37), (44, 6)])  # 6 sea cells, fewer than 13
    assert not registered(5, 5, [(6, 3), (12, 1), (20, 2)])  # 19 sea cells
    assert not registered(7, 7, [(6, None), (44, 6)])  # the sea's size unknown
    assert SeaSpan.fires(Grid(7, 7), 12) and not SeaSpan.fires(Grid(7, 7), 13)
