"""The enclosure rule (`twinsolve.search.enclosure`): two islands that touch at a corner,
one of them inside a loop of sea.

- The bound, on every shading of small grids that the rules accept: wherever two
  islands touch at a corner, one of them has a box for its loop (`fits`, and the
  boxes the rule lists in the solved state), so a rule that refuses a state with
  no box refuses no solution.
- On random 4x4 and 4x5 grids (and their transposes) whose clues are read off a
  small connected sea, the bounds and the enclosure rule alone: the search over
  them finds exactly brute force's solutions, and the rule acts, both by a
  contradiction (no box for either island) and by confining the island inside.
- By hand: a small copy of 29_10x10 of the janko.at corpus is settled by
  propagation alone; a corner contact between islands too large to enclose is a
  contradiction; the rule is registered only where an island is too large for
  any loop of the sea.
"""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import clues_off, flood, grown_sea, sampled
from test_islands import alone_agrees, is_solution, propagator, settled_text

from twinsolve.search.enclosure import Enclosure, fits
from twinsolve.search.grid import Grid
from twinsolve.search.islands import Islands
from twinsolve.search.propagate import IS_FALSE, IS_TRUE, Contradiction, span_of

LAND, SEA = IS_FALSE, IS_TRUE


def islands_of(grid, sea):
    """The islands (sets of cells) a shading's land makes."""
    land, found = set(range(grid.size)) - sea, []
    while land:
        island = flood(grid, min(land), land)
        land -= island
        found.append(island)
    return found


def solved_stores(grid):
    """Every shading of `grid` the rules accept, the clues read off its islands (each at
    its lowest cell): (sea, islands in the order of their lowest cells, clues, a store
    holding it as a solved store does: every cell and label fixed, island k's label
    `2 << k`)."""
    for sea_cells in itertools.product((False, True), repeat=grid.size):
        sea = {v for v in range(grid.size) if sea_cells[v]}
        islands = islands_of(grid, sea)
        clues = sorted((min(island), len(island)) for island in islands)
        if not islands or not is_solution(grid, clues, sea):
            continue
        store, _ = propagator(grid, clues, (), fixed=[
            (v, SEA if v in sea else LAND) for v in range(grid.size)])
        for k, island in enumerate(islands):
            for v in island:
                store.dom[grid.size + v] = 2 << k
        yield sea, islands, clues, store


def spans(grid, cells):
    """(columns, rows) a set of cells spans."""
    return (span_of(sum(1 << v % grid.cols for v in cells)),
            span_of(sum(1 << v // grid.cols for v in cells)))


def corner_contacts(grid, islands):
    """Pairs of islands (indices) with cells that touch at a corner."""
    owner = {v: k for k, island in enumerate(islands) for v in island}
    cols, pairs = grid.cols, set()
    for v, k in owner.items():
        r, c = divmod(v, cols)
        for dc in (-1, 1):
            if r + 1 < grid.rows and 0 <= c + dc < cols:
                other = owner.get(v + cols + dc)
                if other is not None and other != k:
                    pairs.add((min(k, other), max(k, other)))
    return pairs


@pytest.mark.parametrize("rows, cols", sampled([(3, 4), (4, 4), (3, 5)]))
def test_at_every_corner_contact_of_a_solution_one_island_has_a_loop(rows, cols):
    # Every shading the rules accept, the clues read off its islands: the loop bound
    # never refuses one, whether from the islands' sizes and spans alone (`fits`) or
    # from the boxes the rule lists once every cell is decided.
    grid = Grid(rows, cols)
    contacts = 0
    for sea, islands, clues, store in solved_stores(grid):
        pairs = corner_contacts(grid, islands)
        if not pairs:
            continue
        contacts += len(pairs)
        rule = Enclosure(grid, LAND, [number for _, number in clues], len(sea))
        for pair in pairs:
            boxed = [k for k in pair
                     if fits(len(islands[k]), *spans(grid, islands[k]), cols, rows, len(sea))]
            assert boxed, (rows, cols, sorted(sea), pair)
            assert any(rule._boxes(store.dom, 2 << k) for k in pair), sorted(sea)
    assert contacts > 0


def small_sea_case(rng):
    """A 4x4 or 4x5 grid (or its transpose) whose clues are read off a random connected
    sea of 3 to 8 cells, one clue in eight off by one."""
    rows, cols = 4, rng.choice((4, 5))
    if rng.random() < 0.5:
        rows, cols = cols, rows
    grid = Grid(rows, cols)
    return grid, clues_off(rng, grid, grown_sea(rng, grid, 3, 8))


def ring_case(rng):
    """As 29_10x10, small: a 4x5 or 5x4 grid whose sea is a loop round a box inside it,
    but for the loop's corner nearest the grid's far corner, which the island outside
    takes: that island touches the one inside at a corner. One clue in eight off by
    one."""
    rows, cols = rng.choice(((4, 5), (5, 4)))
    grid = Grid(rows, cols)
    height, width = rng.randint(1, rows - 3), rng.randint(1, cols - 3)
    top, left = rng.randint(1, rows - 2 - height), rng.randint(1, cols - 2 - width)
    bottom, right = top + height, left + width  # the outer box's last row and column
    sea = {r * cols + c for r in range(top - 1, bottom + 1) for c in range(left - 1, right + 1)
           if not (top <= r < bottom and left <= c < right)}
    sea.discard(bottom * cols + right)  # the outside island's corner, beside its cells
    return grid, clues_off(rng, grid, sea)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@pytest.mark.parametrize("part", (2, 0, 1))  # 2 catches the mutations tried
def test_the_enclosure_alone_keeps_exactly_the_solutions_brute_force_finds(part):
    acted = alone_agrees(
        random.Random(f"enclosure {part}"),
        lambda rng, tried: (ring_case if tried % 3 == 2 else small_sea_case)(rng),
        lambda grid, numbers, size: Enclosure(grid, LAND, numbers, size)
        if Enclosure.fires(grid, numbers, size) else None, 30)
    assert acted["contradiction"] > 0 and acted["narrowed"] > 0, acted


def test_a_small_29_is_settled_by_the_loop_round_the_smaller_island(monkeypatch):
    # A 17 and a 1 touching at a corner, 7 sea cells: no loop of 7 goes round 17 cells,
    # so the 1 is inside a loop of all 7, and the rest is the 17's. Without the rule,
    # propagation leaves it open.
    rows = [". . . . .", ". 17 . . .", ". . 1 . .", ". . . . .", ". . . . ."]
    grid, clues, shading = settled_text(rows)
    assert shading == [".....", "..##.", ".#.#.", ".###.", "....."]
    assert is_solution(grid, clues, {v for v in range(grid.size) if shading[v // 5][v % 5] == "#"})
    monkeypatch.setattr(Enclosure, "fires", staticmethod(lambda *args: False))
    assert "?" in "".join(settled_text(rows)[2])


def test_a_corner_contact_of_islands_too_large_to_enclose_is_a_contradiction():
    # A 7 and a 6 on a 4x4 (3 sea cells): no loop of 3 goes round either, so the two
    # may not touch at a corner; cell 5 is the 7's land and cell 10 the 6's.
    grid = Grid(4, 4)
    clues = [(5, 7), (10, 6)]
    rule = Enclosure(grid, LAND, [7, 6], 3)
    store, _ = propagator(grid, clues, ())
    with pytest.raises(Contradiction):
        rule(store)
    apart = Enclosure(grid, LAND, [7, 6], 3)
    store, _ = propagator(Grid(4, 4), [(5, 7), (15, 6)], ())
    apart(store)  # no contact: nothing to say


def test_the_rule_runs_only_where_an_island_is_too_large_for_any_loop():
    def registered(rows, cols, clues):
        islands = Islands(Grid(rows, cols), clues)
        return any(isinstance(rule, Enclosure) for rule, *_ in islands.rules())

    assert registered(5, 5, [(6, 17), (12, 1)])  # 7 sea cells; no loop of 7 round 17
    assert not registered(5, 5, [(6, 3), (12, 1), (20, 2)])  # 19 sea cells
    assert not registered(5, 5, [(6, None), (12, 1)])  # the sea's size unknown
    assert fits(36, 1, 1, 10, 10, 27) and not fits(37, 1, 1, 10, 10, 27)
    assert not fits(36, 7, 1, 10, 10, 27)  # a 36 spanning 7 columns: a loop of 29
