"""The engine's island rules (`twinsolve.search.islands`) against brute force and by hand.

- On random small grids with clues (read off a random valid sea, or random;
  and on 4x4 and 4x5 grids read off a thin sea, where a thin sea's rule runs),
  for every technique set, the search over the rules finds exactly the
  shadings a plain oracle accepts (connected sea, no 2x2 sea, one clue per
  island, its number the island's size): the rules are sound and complete
  once every cell is decided, and no technique removes a solution.
- Along the published answer of a few corpus-like puzzles, decided in a
  random order, propagation never contradicts (every deduction is sound).
- Each technique forces what it should on its own: a cell between two
  islands, a complete island walled in, an unreachable cell, a bottleneck
  cell, the cells beside every completion, a thin sea's reach from what is
  known and what is left to place.
"""

from __future__ import annotations

import collections
import copy
import itertools
import random

import pytest
from conftest import clues_off, flood, sampled

from twinsolve.search.grid import Grid
from twinsolve.search.islands import SEA_LABEL, TECHNIQUES, Islands, _EdgeBudget, most_edges
from twinsolve.search.propagate import (
    IS_FALSE,
    IS_TRUE,
    UNDECIDED,
    Contradiction,
    Propagator,
    Since,
    Store,
    search,
)

LAND, SEA = IS_FALSE, IS_TRUE


def is_solution(grid, clues, sea):
    """The oracle: the rules read literally on one shading (a set of sea cells)."""
    numbers = dict(clues)
    if sea & set(numbers):
        return False
    cols = grid.cols
    for r in range(grid.rows - 1):
        for c in range(cols - 1):
            if {r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1} <= sea:
                return False
    if sea and flood(grid, min(sea), sea) != sea:
        return False
    land = set(range(grid.size)) - sea
    while land:
        island = flood(grid, min(land), land)
        land -= island
        held = [numbers[v] for v in island if v in numbers]
        if len(held) != 1 or (held[0] is not None and held[0] != len(island)):
            return False
    return True


def brute(grid, clues):
    free = [v for v in range(grid.size) if v not in dict(clues)]
    return {frozenset(s) for k in range(len(free) + 1)
            for s in itertools.combinations(free, k) if is_solution(grid, clues, set(s))}


def propagator(grid, clues, techniques=TECHNIQUES, fixed=(), trial_room=None):
    """The store of `Islands` on `grid` (its `trial_room`), the cells in `fixed` ((cell,
    mask) pairs) set, and a propagator holding its rules."""
    islands = Islands(grid, clues, LAND, techniques, trial_room)
    store = islands.store()
    for v, value in fixed:
        store.dom[v] = value
    prop = Propagator(store)
    islands.install(prop)
    return store, prop


def solve_all(grid, clues, techniques):
    _, prop = propagator(grid, clues, techniques)
    found = search(prop, choose=lambda s: next(
        (v for v in range(len(s.dom)) if not s.is_fixed(v)), None), max_solutions=None)
    assert found.exhausted
    return [frozenset(v for v in range(grid.size) if values[v]) for values in found.solutions]


def random_case(rng):
    rows, cols = rng.randint(1, 3), rng.randint(2, 4)
    grid = Grid(rows, cols)
    if rng.random() < 0.7:
        sea = set(range(grid.size))
        for v in rng.sample(range(grid.size), grid.size):
            if rng.random() < 0.5:
                sea.discard(v)
        clues, land = [], set(range(grid.size)) - sea
        while land:
            island = flood(grid, min(land), land)
            land -= island
            number = len(island) + (rng.choice((-1, 1)) if rng.random() < 0.15 else 0)
            clues.append((rng.choice(sorted(island)),
                          None if rng.random() < 0.1 else max(1, number)))
    else:
        cells = rng.sample(range(grid.size), rng.randint(0, min(3, grid.size)))
        clues = [(v, rng.choice((None, 1, 2, 3))) for v in cells]
    return grid, sorted(clues)


TECHNIQUE_SETS = [(), ("reach",), ("reach", "cuts"), TECHNIQUES]


@pytest.mark.parametrize("techniques", TECHNIQUE_SETS, ids=lambda t: "+".join(t) or "bounds")
def test_the_rules_find_exactly_the_solutions_brute_force_finds(techniques):
    rng = random.Random(f"islands {techniques}")
    for _ in range(60):
        grid, clues = random_case(rng)
        found = solve_all(grid, clues, techniques)
        assert len(found) == len(set(found)), (grid.rows, grid.cols, clues)  # labels fixed
        assert set(found) == brute(grid, clues), (grid.rows, grid.cols, clues)


def thin_case(rng):
    """A 4x4 to 4x5 grid whose clues are read off a random connected sea of a third of
    the grid at most (every clue numbered, so the thin sea's rule runs), one clue in
    eight off by one."""
    grid = Grid(4, rng.choice((4, 5)))
    sea = {rng.randrange(grid.size)}
    while len(sea) < rng.randint(1, grid.size // 3):
        sea.add(rng.choice([w for v in sorted(sea) for w in grid.neighbours[v]
                            if w not in sea]))
    return grid, clues_off(rng, grid, sea)


@pytest.mark.parametrize(
    "techniques",
    [t if t == TECHNIQUES else pytest.param(t, marks=pytest.mark.slow) for t in TECHNIQUE_SETS],
    ids=lambda t: "+".join(t) or "bounds")
def test_on_thin_seas_the_rules_find_exactly_the_solutions_brute_force_finds(techniques):
    # The brute force tries only seas of the size the numbers leave, which every
    # solution has: 4x5 grids stay quick.
    rng = random.Random(f"thin {techniques}")
    for _ in range(25):
        grid, clues = thin_case(rng)
        size = grid.size - sum(number for _, number in clues)
        free = [v for v in range(grid.size) if v not in dict(clues)]
        expected = {frozenset(s) for s in itertools.combinations(free, max(size, 0))
                    if is_solution(grid, clues, set(s))}
        assert set(solve_all(grid, clues, techniques)) == expected, (grid.cols, clues)


# A 6x6 with its answer (# sea, . land): the deductions along it must never contradict.
PUZZLE = ["##1###", "#1##1#", "###.##", ".2#..#", "###4#1", ".2####"]


def test_no_deduction_contradicts_the_answer_in_any_order():
    grid = Grid(6, 6)
    clues = [(r * 6 + c, int(ch)) for r, line in enumerate(PUZZLE) for c, ch in enumerate(line)
             if ch.isdigit()]
    answer = [ch == "#" for line in PUZZLE for ch in line]
    for seed in range(5):
        store, prop = propagator(grid, clues)
        assert prop.propagate()
        for v in random.Random(seed).sample(range(grid.size), grid.size):
            if store.dom[v] == UNDECIDED:
                store.restrict(v, SEA if answer[v] else LAND)
                assert prop.propagate(), (seed, v)
            assert store.dom[v] == (SEA if answer[v] else LAND)


def settled(rows, cols, clues, techniques=TECHNIQUES, fixed=()):
    """The shading propagation leaves: '#' sea, '.' land, '?' undecided, row by row."""
    grid = Grid(rows, cols)
    store, prop = propagator(grid, clues, techniques, fixed)
    assert prop.propagate()
    marks = {SEA: "#", LAND: ".", UNDECIDED: "?"}
    text = "".join(marks[m] for m in store.dom[:grid.size])
    return [text[r * cols:(r + 1) * cols] for r in range(rows)]


def test_a_cell_between_two_islands_is_sea_and_a_complete_island_is_walled_in():
    # 2 . 2 on one row: the middle cell would join both islands.
    assert settled(2, 3, [(0, 2), (2, 2)], ())[0] == ".#."
    # A 1 is complete at once: its neighbours are sea (and no island reaches a corner).
    assert settled(3, 3, [(4, 1)], ()) == ["###", "#.#", "###"]


def test_cells_no_island_reaches_around_the_sea_are_sea():
    # A 3 walled off on its right: the top right cell is near enough on the grid, but
    # out of reach around the wall; then the island has one way to grow.
    fixed = [(1, SEA)]
    assert settled(2, 3, [(0, 3)], (), fixed) == [".#?", "??#"]
    assert settled(2, 3, [(0, 3)], ("reach",), fixed) == [".##", "..#"]


def test_a_bottleneck_an_island_cannot_grow_without_is_land():
    # A 3 with exactly two free cells to grow into: both are land, found by the cut rule
    # (reach alone leaves the lower one open). The `?` on the right keeps the sea's size
    # unknown, so that counting it decides nothing.
    fixed = [(2, SEA), (6, SEA), (7, SEA)]  # row 0: 3 ? # - ?, row 1: ? # # - -
    clues = [(0, 3), (4, None)]
    assert settled(2, 5, clues, ("reach",), fixed)[1][0] == "?"
    rows = settled(2, 5, clues, ("reach", "cuts"), fixed)
    assert [row[:3] for row in rows] == ["..#", ".##"]


def test_the_sea_size_decides_the_last_cells():
    # A 1 and a 5 on a 3x3 grid leave 3 sea cells: the two beside the 1 and the centre,
    # given; the rest is land, which without `reach` and `cuts` only the count says.
    clues = [(0, 1), (8, 5)]
    assert settled(3, 3, clues, (), [(4, SEA)]) == [".#.", "##.", "..."]


def test_a_thin_sea_reaches_only_so_far_from_a_sea_cell():
    # A 12 on a 4x4 grid leaves 4 sea cells, connected: with the bottom right one sea,
    # every sea cell is within 3 steps of it, so the cells farther are land (`reach`; no
    # other rule sees it, the island reaching everywhere).
    clues, fixed = [(0, 12)], [(15, SEA)]
    assert settled(4, 4, clues, (), fixed) == [".???", "????", "????", "???#"]
    assert settled(4, 4, clues, ("reach",), fixed) == ["...?", "..??", ".???", "???#"]
    # With two sea cells known, two are left to place: a cell more than two steps from
    # both is land (three from one of them would leave the top right corner open).
    fixed = [(15, SEA), (14, SEA)]
    assert settled(4, 4, clues, (), fixed) == [".???", "????", "????", "??##"]
    assert settled(4, 4, clues, ("reach",), fixed) == ["....", "..??", ".???", "??##"]


def test_a_thin_sea_whose_known_parts_cannot_meet_in_the_cells_left_is_a_contradiction():
    # A 20 on a 5x5 grid leaves 5 sea cells. The two top corners and the bottom right one
    # known leave 2: the top corners, 4 steps apart, need 3 cells between them. Growing
    # each known cell by the 2 cells left, as far as a sea cell may lie, is not enough to
    # see it: the two reaches meet in the middle of the top row.
    fixed = [(v, SEA) for v in (0, 4, 24)]
    for techniques, holds in (((), True), (("reach",), False)):
        _, prop = propagator(Grid(5, 5), [(12, 20)], techniques, fixed)
        assert prop.propagate() is holds, techniques


def test_a_thin_sea_places_its_cells_by_the_regions_it_parts_the_grid_into():
    # A 9 and an 8 on a 5x5 grid leave 8 sea cells; the middle column, sea, parts the
    # grid into two regions of 10 cells. The left one keeps 1 sea cell for its 9, so its
    # far column is land (with the 3 cells left overall it would be in reach).
    fixed = [(r * 5 + 2, SEA) for r in range(5)]
    assert settled(5, 5, [(0, 9), (24, 8)], (), fixed)[1] == "??#??"
    assert settled(5, 5, [(0, 9), (24, 8)], ("reach",), fixed) == [
        ".?#??", ".?#??", ".?#??", ".?#??", ".?#?."]
    # A 6 and a 5 on the left (11 cells in 10) do not fit, though each would alone.
    _, prop = propagator(Grid(5, 5), [(0, 6), (20, 5), (24, 6)], ("reach",), fixed)
    assert not prop.propagate()


def test_the_cells_beside_every_completion_of_an_island_are_sea():
    # A 2 in a corner grows right or down; the cell beside both completions is sea, which
    # only listing the completions finds (the 3 opposite could reach it).
    clues = [(0, 2), (8, 3)]
    assert settled(3, 3, clues, ("reach", "cuts"))[1][1] == "?"
    assert settled(3, 3, clues, ("reach", "cuts", "shapes"))[1][1] == "#"


def test_a_label_holds_only_the_islands_near_enough():
    islands = Islands(Grid(1, 5), [(0, 2)], LAND)
    store = islands.store()
    assert store.dom[5] == 2  # the clue cell: its own island only
    assert store.dom[6] == SEA_LABEL | 2 and store.dom[7] == SEA_LABEL  # too far


def test_unknown_techniques_and_land_masks_are_refused():
    with pytest.raises(ValueError, match="unknown techniques"):
        Islands(Grid(2, 2), [], LAND, ("guessing",))
    with pytest.raises(ValueError, match="land is IS_TRUE or IS_FALSE"):
        Islands(Grid(2, 2), [], UNDECIDED)


def test_the_lookahead_finds_what_one_level_of_probing_cannot():
    """x0 = 1 leaves x1 no value, but only probing x1 shows it: plain probing at the root
    (x0 still open) finds nothing; a lookahead trial on x0 probes x1 and refutes x0 = 1."""
    from twinsolve.search.lookahead import Lookahead
    from twinsolve.search.propagate import Contradiction, Store

    store = Store.booleans(2)
    prop = Propagator(store)

    def no_x1_with_x0(s):
        if s.value(0) == 1 and s.value(1) is not None:
            raise Contradiction

    prop.add_rule(no_x1_with_x0)
    prop.enable_probing(lambda s: [1])
    assert prop.propagate() and store.dom == [UNDECIDED, UNDECIDED]
    lookahead = Lookahead(prop, lambda s: [0], budget=10)
    assert lookahead.run() is True and store.dom[0] == IS_FALSE and lookahead.trials == 2
    assert Lookahead(prop, lambda s: [1], budget=0).run() is None  # out of budget at once


@pytest.mark.parametrize("searches", sampled([8, 20]))  # the second under `slow`
def test_a_survey_kept_for_a_state_is_the_survey_that_state_gets_afresh(monkeypatch, searches):
    """An island's survey is kept per state of what it reads (`islands._Survey`): along
    searches with probing on random 5x5 grids, every survey it answers from what it kept
    is the one a survey with nothing kept makes (the state's sets of cells read whole),
    and it does answer so (the key holds all the survey reads: a state met again may
    differ elsewhere, even beside the island's land). Each survey is made twice: the
    default run makes the first 8 searches of the 20."""
    from twinsolve.search import islands as module

    def forget(fresh):
        fresh.cache = {}  # nothing kept, and the sets of cells read whole
        fresh.cells = copy.copy(fresh.cells)
        fresh.cells.since = Since()

    def agree(kept, fresh, region, again):
        assert (region.part, region.reach, region.owned, region.labelled) == (
            again.part, again.reach, again.owned, again.labelled)

    reused = checked_afresh(monkeypatch, module._Survey, "__call__", "kept surveys", searches,
                            mark=lambda survey: len(survey.cache), forget=forget, agree=agree,
                            kept=lambda survey, size, region: len(survey.cache) == size)
    assert reused > 50


@pytest.mark.parametrize("searches", sampled([8, 20]))  # the second under `slow`
def test_the_sets_of_cells_kept_are_those_the_state_has(monkeypatch, searches):
    """The state's sets of cells (`islands._Cells`: land, sea, each island's label, the
    cells one island or more may own, two or more, the sea's labels) are updated from
    those of the last state met in the line of the search by the trail since: along
    searches with probing on random 5x5 grids, every answer is what a read of the whole
    state gives, and most come from an update."""
    from twinsolve.search import islands as module

    def forget(fresh):
        fresh.since = Since()  # no state met: a read of the whole state

    def agree(kept, fresh, sets, again):
        assert sets == again

    updated = checked_afresh(monkeypatch, module._Cells, "__call__", "kept cells", searches,
                             mark=lambda cells: bool(cells.since.marks), forget=forget,
                             agree=agree, kept=lambda cells, marked, sets: marked)
    assert updated > 1000


@pytest.mark.parametrize("searches", sampled([8, 20]))  # the second under `slow`
def test_a_land_part_kept_for_a_state_is_the_part_that_state_gets_afresh(monkeypatch,
                                                                         searches):
    """A large land part is kept while no land beside it changes (`islands._Part`; here
    every part, however small): along searches with probing on random 5x5 grids, every
    part it answers with is the one a fresh search makes, rim and set included, and it
    does answer from what it kept."""
    from twinsolve.search import islands as module

    monkeypatch.setattr(module, "_KEPT_PART", 1)

    def forget(fresh):
        fresh.seen, fresh.kept = None, ([], set())

    def agree(kept, fresh, found, again):
        assert found == again and kept.beside() == fresh.beside()
        assert kept.mask() == sum(1 << v for v in again[0])

    reused = checked_afresh(monkeypatch, module._Part, "__call__", "kept parts", searches,
                            mark=lambda part: part.kept, forget=forget, agree=agree,
                            kept=lambda part, before, found: found is before)
    assert reused > 50


@pytest.mark.parametrize("searches", sampled([8, 20]))  # the second under `slow`
def test_completions_filtered_from_a_base_are_those_grown_afresh(monkeypatch, searches):
    """An island's candidate completions are filtered from an enumeration kept that
    finished when the part only grew and the reach only shrank, and an enumeration is
    known to run past its limits when one kept did from a part that only grew and a
    reach that only shrank (`islands._Shapes`): along searches with probing on random
    5x5 grids, every list it gives holds the sets a fresh enumeration grows (in another
    order: the summary of the completions does not depend on it), it runs past the
    limits exactly where a fresh one does; and it does filter, and it does know.
    Smaller limits here, so that enumerations run past them."""
    from twinsolve.search import islands as module

    monkeypatch.setattr(module, "SHAPE_NODES", 12)

    def forget(fresh):  # its own empty histories (a shallow copy shares the kept ones)
        fresh.bases = collections.deque(maxlen=fresh.bases.maxlen)
        fresh.crowded = collections.deque(maxlen=fresh.crowded.maxlen)

    def agree(kept, fresh, found, again):
        assert sorted(found) == sorted(again)

    def memo(shapes):
        return [id(base) for base in shapes.bases], list(shapes.crowded)

    known = 0

    def kept(shapes, before, found):
        nonlocal known
        unchanged = memo(shapes) == before  # no enumeration grown
        known += unchanged and isinstance(found, module._TooMany)
        return unchanged and not isinstance(found, Exception)

    reused = checked_afresh(monkeypatch, module._Shapes, "_candidates", "filtered completions",
                            searches, mark=memo, forget=forget, agree=agree, kept=kept)
    assert reused > 50 and known > 20, (reused, known)


@pytest.mark.parametrize("searches", sampled([8, 20]))  # the second under `slow`
@pytest.mark.parametrize("rule", ("_Island", "_Shapes"))
def test_a_run_skipped_for_no_news_would_have_found_nothing(monkeypatch, rule, searches):
    """An island's bounds and its shapes skip a run when nothing they read changed since
    their last run in the current line of the search (`_Island._news`, `_Shapes._news`,
    through `propagate.Since`): along searches with probing on random 5x5 grids, every
    run skipped so, made afresh on a copy of the store (the same rule, with no run
    remembered), narrows nothing and finds no contradiction; and runs are skipped."""
    import copy

    from twinsolve.search import islands as module

    cls = getattr(module, rule)
    news = cls._news
    skipped = 0

    def checked(self, store):
        nonlocal skipped
        if news(self, store):
            return True
        skipped += 1
        fresh = copy.copy(self)
        fresh.since = Since()
        scratch = Store(())
        scratch.dom = list(store.dom)
        fresh(scratch)  # a Contradiction fails the test
        assert scratch.trail == [], "a skipped run would have narrowed"
        return False

    monkeypatch.setattr(cls, "_news", checked)
    random_searches(random.Random("no news"), searches)
    # The shapes run for islands a few cells short of their number only: fewer runs
    assert skipped > {"_Island": 50, "_Shapes": 5}[rule]


def checked_afresh(monkeypatch, cls, name: str, seed: str, searches: int, *, mark, forget,
                   agree, kept) -> int:
    """Run `random_searches` with `cls.name` (a rule's part that keeps work between calls)
    checked at every call: the call is made again on a copy of its object with what it
    kept forgotten (`forget(copy)`), and `agree(obj, copy, answer, again)` asserts the two
    answers agree. How many answers came from what was kept: `kept(obj, mark(obj) before
    the call, answer)` says."""
    import copy

    method = getattr(cls, name)
    reused = 0

    def checked(self, *args):
        nonlocal reused
        before = mark(self)
        answer = _outcome(method, self, *args)
        fresh = copy.copy(self)
        forget(fresh)
        again = _outcome(method, fresh, *args)
        if isinstance(answer, Exception) or isinstance(again, Exception):
            assert type(answer) is type(again), (answer, again)  # the same way out
        else:
            agree(self, fresh, answer, again)
        reused += kept(self, before, answer)
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setattr(cls, name, checked)
    random_searches(random.Random(seed), searches)
    return reused


def _outcome(method, *args):
    """What `method(*args)` returns, or the exception it raises (a contradiction, or an
    enumeration past its limits, is an answer too)."""
    try:
        return method(*args)
    except Exception as error:  # noqa: BLE001 - compared, then raised again
        return error


def random_searches(rng: random.Random, searches: int) -> None:
    """Searches (two solutions at most, 200 nodes) with probing on random 5x5 grids of
    islands, every rule of `Islands` on."""
    for _ in range(searches):
        grid = Grid(5, 5)
        land = {v for v in range(grid.size) if rng.random() < 0.55}
        clues = []
        while land:
            island = flood(grid, min(land), land)
            land -= island
            clues.append((rng.choice(sorted(island)), len(island)))
        islands = Islands(grid, sorted(clues), LAND)
        prop = Propagator(islands.store())
        islands.install(prop)
        cells = range(grid.size)
        prop.enable_probing(lambda s, cells=cells: [v for v in cells if s.dom[v] == UNDECIDED])
        search(prop, choose=lambda s, cells=cells: next(
            (v for v in cells if s.dom[v] == UNDECIDED), None), max_solutions=2, node_limit=200)


def test_a_survey_enters_no_orphan_land_that_touches_another_islands_land():
    """Mid-propagation (the links not settled yet) a land cell labelled both islands may
    touch the other island's land: the 3 cannot take it, so it reaches cells 0 and 1
    only; and a survey kept for another state is not given for this one."""
    from twinsolve.search.islands import _Cells, _Survey

    islands = Islands(Grid(1, 4), [(0, 3), (3, 1)], LAND)
    survey = _Survey(islands, 0, _Cells(islands))
    a, b = 2, 4  # the labels of the 3 (clue 0) and of the 1 (clue 1)
    apart = [LAND, UNDECIDED, LAND, UNDECIDED, a, a | b | SEA_LABEL, a | b, b | SEA_LABEL]
    assert survey(stored(apart), [0], 0b1, 2).reach == 0b0111
    touching = apart[:3] + [LAND] + apart[4:7] + [b]
    assert survey(stored(touching), [0], 0b1, 2).reach == 0b0011


def stored(domains: list[int]) -> Store:
    """A store holding `domains` as they are."""
    store = Store(())
    store.dom = list(domains)
    return store


# ---------------------------------------------------------------- the sea's edge budget

def polyominoes(grid, size):
    """Every connected set of `size` cells of `grid` (as frozensets), each once."""
    found = {frozenset([v]) for v in range(grid.size)}
    for _ in range(size - 1):
        found = {part | {w} for part in found for v in part for w in grid.neighbours[v]
                 if w not in part}
    return found


@pytest.mark.parametrize("size", range(1, 8))
def test_most_edges_bounds_every_connected_set_by_its_span(size):
    # Exhaustive on a 4x5 grid: no connected set holds more side-by-side pairs than the
    # bound for the columns and rows it spans (both as the most and as the least).
    grid = Grid(4, 5)
    tight = False
    for part in polyominoes(grid, size):
        pairs = sum(1 for v in part for w in grid.neighbours[v] if w in part) // 2
        cols = len({v % 5 for v in part})
        rows = len({v // 5 for v in part})
        bound = most_edges(size, cols, rows, (cols, rows))
        assert bound is not None and pairs <= bound, (sorted(part), pairs, bound)
        assert pairs <= most_edges(size, 5, 4)
        tight |= pairs == most_edges(size, 5, 4)
    assert tight  # and the unbounded most is met


def budget_of(grid, clues):
    size = grid.size - sum(number for _, number in clues)
    return _EdgeBudget(grid, SEA, clues, size)


def test_the_edge_budget_leaves_the_sea_four_sides_on_the_edge_around_four_squares():
    # Four 4s in the corners of a 5x5 leave 9 sea cells. Each island holds at most 4
    # pairs (a 2x2 square), so the sea's sides on the edge plus its loops are at most
    # 16 - 40 + 3 * 9 + 1 = 4: with the middle of each edge sea, every other undecided
    # edge cell is land, and a fifth sea cell on the edge is a contradiction.
    grid = Grid(5, 5)
    clues = [(0, 4), (4, 4), (20, 4), (24, 4)]
    budget = budget_of(grid, clues)
    assert budget.slack() == 4
    store = Islands(grid, clues, LAND).store()
    for v in (2, 10, 14, 22):
        store.dom[v] = SEA
    budget(store)
    edge = [v for v in range(25) if len(grid.neighbours[v]) < 4]
    assert [v for v in edge if store.dom[v] == LAND] == [v for v in edge
                                                          if v not in (2, 10, 14, 22)]
    assert all(store.dom[v] == UNDECIDED for v in range(25) if v not in edge)
    store = Islands(grid, clues, LAND).store()
    for v in (1, 2, 10, 14, 22):
        store.dom[v] = SEA
    with pytest.raises(Contradiction):
        budget(store)


def test_the_edge_budget_needs_a_sea_side_between_two_islands_along_the_edge():
    # The four 4s again: along the edge, between two corners (two islands) some cell is
    # sea, so the four stretches spend the whole slack of 4 before any sea is known. A
    # sea cell in the middle of the top row then leaves the rest of that row land (a
    # second sea cell there would spend a fifth side); the other stretches still need
    # their one sea cell, so nothing else is decided.
    grid = Grid(5, 5)
    clues = [(0, 4), (4, 4), (20, 4), (24, 4)]
    store = Islands(grid, clues, LAND).store()
    store.dom[2] = SEA
    budget_of(grid, clues)(store)
    assert [store.dom[v] for v in (1, 3)] == [LAND, LAND]
    assert all(store.dom[v] == UNDECIDED for v in range(25) if v not in (0, 1, 2, 3, 4, 20, 24))
    # Two sea cells in one stretch, the four stretches then spend 5: no room.
    store.dom[1], store.dom[3] = UNDECIDED, SEA
    with pytest.raises(Contradiction):
        budget_of(grid, clues)(store)


def test_the_edge_budget_holds_an_island_to_the_boxes_its_number_fills():
    # The four 4s again: the four stretches along the edge spend the whole slack, so
    # no island may span more than a 2x2 square (a 4 spanning 3 columns holds at most 3
    # pairs, not 4). Each may still own only the cells of the 2x2 box in its corner; the
    # cells between them are nobody's (sea, once the link rule runs).
    grid = Grid(5, 5)
    clues = [(0, 4), (4, 4), (20, 4), (24, 4)]
    store = Islands(grid, clues, LAND).store()
    budget_of(grid, clues)(store)
    boxes = [{0, 1, 5, 6}, {3, 4, 8, 9}, {15, 16, 20, 21}, {18, 19, 23, 24}]
    for k, box in enumerate(boxes):
        owned = {v for v in range(25) if store.dom[25 + v] & (2 << k)}
        assert owned == box, (k, sorted(owned))


def test_the_edge_budget_counts_the_loops_a_cell_would_close():
    # The four 4s again (a slack of 4), the four edge middles sea (4 sides on the edge)
    # and a U of sea around the centre: a cell beside two cells of one known group would
    # close a loop, which the budget has no room for, so the centre and the cell under
    # it are land (the cell under it also touches the bottom middle's group: one loop).
    grid = Grid(5, 5)
    clues = [(0, 4), (4, 4), (20, 4), (24, 4)]
    store = Islands(grid, clues, LAND).store()
    for v in (2, 10, 14, 22, 6, 7, 8, 11, 13, 16, 18):
        store.dom[v] = SEA
    budget_of(grid, clues)(store)
    assert store.dom[12] == LAND and store.dom[17] == LAND


def test_the_edge_budget_shrinks_when_an_island_is_held_to_one_row():
    # A 4 holds at most 4 pairs (a 2x2 square) but 3 in one row (a straight line): when
    # the cells it may take lie in one row, the budget is one less.
    grid = Grid(3, 4)
    clues = [(0, 4), (11, 4)]
    budget = budget_of(grid, clues)
    store = Islands(grid, clues, LAND).store()
    assert budget.slack(store.dom) == budget.slack()
    for v in (4, 5, 6, 7, 8, 9, 10):
        store.dom[grid.size + v] &= ~2  # the 4 of cell 0 may take only the top row
    assert budget.slack(store.dom) == budget.slack() - 1


def alone_with(grid, clues, rule):
    """The shadings the bounds and `rule` alone keep (a search over them to the end), the
    seas of the size the numbers leave that the oracle accepts, and what `rule` did in
    its runs that did something: "contradiction" or "narrowed", one per run."""
    acted = []

    def counted(store):
        mark = store.mark()
        try:
            rule(store)
        except Contradiction:
            acted.append("contradiction")
            raise
        if store.mark() > mark:
            acted.append("narrowed")

    _, prop = propagator(grid, clues, ())
    prop.add_rule(counted, None, priority=1)
    found = search(prop, choose=lambda s: next(
        (v for v in range(len(s.dom)) if not s.is_fixed(v)), None), max_solutions=None)
    assert found.exhausted
    size = grid.size - sum(number for _, number in clues)
    free = [v for v in range(grid.size) if v not in dict(clues)]
    expected = {frozenset(s) for s in itertools.combinations(free, max(size, 0))
                if is_solution(grid, clues, set(s))}
    got = {frozenset(v for v in range(grid.size) if values[v]) for values in found.solutions}
    return got, expected, acted


def alone_agrees(rng, case, rule_of, tries):
    """Draw `case(rng, tried)` (a grid and its clues) until `tries` of them register the
    rule (`rule_of(grid, numbers, sea size)`, None where it is not registered); on each,
    the bounds and the rule alone keep exactly brute force's solutions (`alone_with`).
    What the rule did in its runs, counted."""
    tried, acted = 0, collections.Counter()
    while tried < tries:
        grid, clues = case(rng, tried)
        size = grid.size - sum(number for _, number in clues)
        rule = None if size < 0 else rule_of(grid, [number for _, number in clues], size)
        if rule is None:
            continue
        tried += 1
        got, expected, done = alone_with(grid, clues, rule)
        assert got == expected, (grid.rows, grid.cols, clues)
        acted.update(done)
    return acted


def settled_text(text_rows, techniques=("reach", "cuts", "shapes")):
    """The grid, the clues and the shading `settled` leaves, of a grid given as rows of
    numbers and dots."""
    grid = Grid(len(text_rows), len(text_rows[0].split()))
    clues = [(r * grid.cols + c, int(token)) for r, line in enumerate(text_rows)
             for c, token in enumerate(line.split()) if token != "."]
    return grid, clues, settled(grid.rows, grid.cols, clues, techniques)


def cross_case(rng):
    """A 4x4 or 4x5 grid (or its transpose) parted into rectangles by a sea of one full
    line and an arm on each side of it, as in 753_10x10: compact islands, a small slack.
    One clue in eight is off by one."""
    rows, cols = 4, rng.choice((4, 5))
    line, left, right = rng.randrange(cols), rng.randrange(rows), rng.randrange(rows)
    sea = ({(r, line) for r in range(rows)} | {(left, c) for c in range(line)}
           | {(right, c) for c in range(line + 1, cols)})
    if rng.random() < 0.5:
        rows, cols, sea = cols, rows, {(c, r) for r, c in sea}
    grid = Grid(rows, cols)
    return grid, clues_off(rng, grid, {r * cols + c for r, c in sea})


# Part 2 runs by default: it is the one whose cases catch a stretch between two islands
# counted twice (checked by that mutation), as 3 does; 0 and 1 do not.
@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@pytest.mark.parametrize("part", (2, 0, 1, 3))
def test_the_edge_budget_alone_keeps_exactly_the_solutions_brute_force_finds(part):
    # On seas that part the grid into rectangles, or thin ones (compact islands, a small
    # slack), the bounds and the edge budget alone: the search over them finds exactly
    # brute force's solutions, and the budget narrows something (or finds a
    # contradiction) in many of them.
    rng = random.Random(f"edges {part}")
    fired = 0
    for case in range(16):
        grid, clues = (cross_case if case % 2 else thin_case)(rng)
        budget = budget_of(grid, clues)
        if budget.slack() is None:
            continue
        got, expected, acted = alone_with(grid, clues, budget)
        assert got == expected, (grid.cols, clues)
        fired += bool(acted)
    assert fired >= 8


@pytest.mark.parametrize("trial_room", (None, 1))
def test_the_shapes_of_larger_islands_sit_out_probings_trials(monkeypatch, trial_room):
    """`Islands(trial_room=1)`: in probing's trials (`Propagator.trial`) the shapes of an
    island run only while it needs one cell at most; outside them, up to `SHAPE_ROOM`.
    Without it, in the trials too."""
    from twinsolve.search import islands as module

    grid = Grid(5, 5)
    clues = [(1, 3), (9, 2), (17, 4), (19, 1)]  # a 3, a 2, a 4 and a 1
    _, prop = propagator(grid, clues, trial_room=trial_room)
    prop.enable_probing(lambda s: range(grid.size))
    seen = set()  # (whether a trial ran, the cells the island needed) of each listing
    listed = module._Shapes._completions

    def spied(self, store, region, near):
        seen.add((prop.trial, self.number - len(region.part)))
        return listed(self, store, region, near)

    monkeypatch.setattr(module._Shapes, "_completions", spied)
    assert prop.propagate()
    assert {room for trial, room in seen if not trial} & {2, 3}  # larger islands listed
    larger_in_trials = {room for trial, room in seen if trial and room > 1}
    assert bool(larger_in_trials) == (trial_room is None)
    assert any(trial for trial, _ in seen)  # the small ones still in the trials
    with pytest.raises(ValueError, match="trial_room"):
        Islands(grid, clues, LAND, TECHNIQUES, -1)
