"""Independent parts of an islands store (`twinsolve.search.islandparts`).

- From random states (a random valid sea and its islands' clues, every cell
  decided as that sea but a few blobs of cells eight apart, then propagated,
  under each technique set), the AND/OR search with `IslandParts` finds
  exactly the solutions the plain search finds, each one the rules read
  literally accept; and it does split, often enough to matter.
- By hand: two regions that could each join the same two pools of sea are
  not split (each would decide whether the other must join them), nor two
  regions one island could grow into, nor open cells that touch at a corner,
  nor regions and pools that are not all connected; one pool between two
  regions is.
"""

from __future__ import annotations

import random

import pytest
from conftest import flood, grown_sea
from test_enclosure import islands_of
from test_islands import is_solution

from twinsolve.search.grid import Grid
from twinsolve.search.islandparts import IslandParts
from twinsolve.search.islands import SEA_LABEL, TECHNIQUES, Islands
from twinsolve.search.propagate import IS_FALSE, IS_TRUE, Propagator, search

LAND, SEA = IS_FALSE, IS_TRUE
TECHNIQUE_SETS = [(), ("reach",), ("reach", "cuts"), TECHNIQUES]


def random_sea(rng: random.Random, grid: Grid) -> set[int] | None:
    """A random valid sea: all cells at first, then a cell of a random 2x2 pool turned
    land while the rest stays connected, until no pool is left; None when no cell of a
    pool can go."""
    sea = set(range(grid.size))
    cols = grid.cols
    while True:
        pools = [(r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
                 for r in range(grid.rows - 1) for c in range(cols - 1)]
        pools = [block for block in pools if set(block) <= sea]
        if not pools:
            return sea
        block = rng.choice(pools)
        for cell in rng.sample(block, 4):
            rest = sea - {cell}
            if flood(grid, min(rest), rest) == rest:
                sea = rest
                break
        else:
            return None


def blobs(rng: random.Random, grid: Grid, starts: list[int]) -> list[set[int]]:
    """Random connected sets of 3 to 8 cells (`grown_sea`), each grown from one of
    `starts`, every two eight apart (a set that would not be is left out)."""
    cols, found = grid.cols, []
    for start in starts:
        blob = grown_sea(rng, grid, 3, 8, start)
        if all(abs(a // cols - b // cols) > 1 or abs(a % cols - b % cols) > 1
               for other in found for a in blob for b in other):
            found.append(blob)
    return found


def random_state(rng: random.Random, techniques: tuple[str, ...]):
    """(grid, clues, islands, propagator) of a state with open blobs (grown from cells of
    up to five islands), propagated; None when the sea's carving got stuck."""
    rows, cols = rng.choice(((6, 6), (6, 7), (7, 7), (7, 8)))
    grid = Grid(rows, cols)
    sea = random_sea(rng, grid)
    if sea is None:
        return None
    clues, cells = [], []
    for island in islands_of(grid, sea):
        clue = rng.choice(sorted(island))
        clues.append((clue, len(island)))
        cells.append(rng.choice(sorted(island - {clue} or island)))
    islands = Islands(grid, sorted(clues), LAND, techniques)
    prop = Propagator(islands.store())
    islands.install(prop)
    # Blobs grown from cells of different islands: regions that islands apart complete.
    opened = set().union(*blobs(rng, grid, rng.sample(cells, min(len(cells), 5))))
    for cell in range(grid.size):
        if cell not in opened:
            prop.store.restrict(cell, SEA if cell in sea else LAND)
    assert prop.propagate()  # the sea drawn is a solution
    return grid, sorted(clues), islands, prop


def spy(parts: IslandParts, calls: list[bool]):
    """`parts`, noting in `calls` whether each call split."""
    def counted(store, scope):
        groups = parts(store, scope)
        calls.append(groups is not None)
        return groups
    return counted


def first_unfixed(store, among=None):
    return next((v for v in (range(len(store)) if among is None else sorted(among))
                 if not store.is_fixed(v)), None)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_parts_find_what_the_whole_search_finds():
    rng = random.Random("parts")
    split = {techniques: 0 for techniques in TECHNIQUE_SETS}
    for draw in range(1200):
        techniques = TECHNIQUE_SETS[draw % len(TECHNIQUE_SETS)]
        state = random_state(rng, techniques)
        if state is None:
            continue
        grid, clues, islands, prop = state
        calls: list[bool] = []
        counted = spy(IslandParts(islands), calls)
        whole = search(prop, choose=first_unfixed, max_solutions=None)
        apart = search(prop, choose=first_unfixed, max_solutions=None, parts=counted,
                       choose_in=first_unfixed)
        assert whole.exhausted and apart.exhausted
        assert whole.count == apart.count >= 1
        assert sorted(apart.solutions) == sorted(whole.solutions)
        for values in apart.solutions:
            assert is_solution(grid, clues, {v for v in range(grid.size) if values[v]})
        split[techniques] += any(calls)
    # The draws do split (the strongest rules decide most of them): the test reaches the
    # AND/OR search.
    assert sum(split.values()) >= 10 and split[()] >= 3, split


def test_two_regions_that_could_both_join_two_pools_are_not_split():
    # Row 1 is land (a 7 at its left end) but for cells 9 and 13, which only the sea may
    # take; the sea is the rows above and below it. Two pools (rows 0 and 2), and two
    # regions (cells 9 and 13), each beside both: either could join the pools, so neither
    # count is its own. With cell 6 above cell 13 land, cell 13 is beside one pool only:
    # H is a tree (pool 0 - 9 - pool 2 - 13), and the regions are split.
    grid = Grid(3, 7)
    islands = Islands(grid, [(7, 7)], LAND)
    store = islands.store()
    n = grid.size
    for cell in range(n):
        land = 7 <= cell < 14 and cell not in (9, 13)
        store.dom[cell] = LAND if land else SEA
        store.dom[n + cell] = 2 if land else SEA_LABEL
    store.dom[9] = store.dom[13] = LAND | SEA
    parts = IslandParts(islands)
    assert parts(store, None) is None
    store.dom[6], store.dom[n + 6] = LAND, 2
    assert parts(store, None) == [[9], [13]]


def test_a_cycle_beside_a_region_no_pool_touches_is_not_a_tree():
    # Rows 0 and 2 sea, row 1 land but for cells 8 and 12, rows 3 and 4 land but for cell
    # 31, which only the sea may take. Five vertices and four edges (8 and 12 each beside
    # both pools), but a cycle, and 31 beside no pool: not a tree, not split.
    grid = Grid(5, 7)
    islands = Islands(grid, [(7, 5), (21, 13)], LAND)
    store = islands.store()
    n = grid.size
    for cell in range(n):
        land = 7 <= cell < 14 or cell >= 21
        store.dom[cell] = LAND if land else SEA
        store.dom[n + cell] = (2 if cell < 14 else 4) if land else SEA_LABEL
    for cell in (8, 12, 31):
        store.dom[cell], store.dom[n + cell] = LAND | SEA, SEA_LABEL
    assert IslandParts(islands)(store, None) is None


def test_one_pool_between_two_regions_splits_them_unless_an_island_reaches_both():
    # A 1x7 row: a 2 at each end, the middle three cells sea. Cells 1 and 5 are apart,
    # each beside the one pool, and each only its own island's.
    grid = Grid(1, 7)
    islands = Islands(grid, [(0, 2), (6, 2)], LAND)
    store = islands.store()
    for cell in (2, 3, 4):
        store.dom[cell], store.dom[7 + cell] = SEA, SEA_LABEL
    parts = IslandParts(islands)
    assert parts(store, None) == [[1, 8], [5, 12]]
    assert parts(store, [1, 8, 5, 12]) == [[1, 8], [5, 12]]
    assert parts(store, [1, 8]) is None  # a scope of one region
    # Could the first island grow into cell 5 too, the two regions would share it.
    store.dom[7 + 5] |= 2
    assert parts(store, None) is None
    store.dom[7 + 5] &= ~2
    # Cell 3 land: two pools, each beside one region, H not connected.
    store.dom[3], store.dom[7 + 3] = LAND, 2
    assert parts(store, None) is None


def test_open_cells_that_touch_at_a_corner_are_one_region():
    # A 3x3 grid with no clue: a ring of sea round the centre, the top-left corner and the
    # centre open. They touch at a corner, in a block with two cells of the ring: both sea
    # would make it a pool, so they are one region (split, each could be sea on its own).
    grid = Grid(3, 3)
    islands = Islands(grid, [], LAND)
    store = islands.store()
    for cell in (1, 2, 3, 5, 6, 7, 8):
        store.dom[cell] = SEA
    assert IslandParts(islands)(store, None) is None
