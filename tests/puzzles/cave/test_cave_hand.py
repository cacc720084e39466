"""The Cave `hand` back-end against published answers, brute force and hand-made cases.

- The 140 janko.at puzzles of the corpus and its puzz.link URLs: every one
  solved, equal to the published solution, uniqueness proven, and the
  search small (median nodes under 20, with and without probing).
- Root propagation on hand-made grids: each rule family of
  `twinsolve.puzzles.cave.hand` forces what it should, on its own.
- Random tiny grids (hypothesis, up to 4x5): random clues, and clues read
  off a random valid cave; `hand` agrees with `cave.brute` on the status,
  uniqueness and the exact solution count, probing on or off.
- Contradictory puzzles are `unsat`; node limits and deadlines stop cleanly.
"""

from __future__ import annotations

import json
import statistics

import pytest
from cave_corpus import puzzlink_cases
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.registry import puzzle
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.cave import puzzlekit as puzzlekit_json
from twinsolve.puzzles.cave import puzzlink
from twinsolve.puzzles.cave import rules as cave
from twinsolve.puzzles.cave.hand import INSIDE, OUTSIDE, UNDECIDED, build, solve

PROVE = Limits(unique=True, timeout=60)
NO_PROBE = Limits(unique=True, timeout=60, options={"probe": False})


def hand(instance, limits):
    """`hand` through the runner once `cave` is registered, else directly; verified."""
    try:
        puzzle("cave")
    except UsageError:
        result = solve(instance, limits)
        if result.solution is not None:
            assert cave.verify(instance, result.solution) == []
        return result
    spec = "hand" + "".join(f":{k}={v}" for k, v in limits.options.items())
    result = run(instance, spec, limits.with_(options={}), catch=False)
    assert result.status is not Status.WRONG, result.message
    return result


# ---------------------------------------------------------------- corpus


def janko(corpus):
    return puzzlekit_json.read_dataset(corpus("cave", "janko-dev.json"))


@pytest.mark.parametrize("step", sampled([10, 1]), ids=["every-10th", "all"])
@pytest.mark.parametrize("limits", [PROVE, NO_PROBE], ids=["probe", "no-probe"])
def test_every_janko_puzzle_is_solved_uniquely_with_few_nodes(corpus, limits, step):
    nodes = []
    for key, instance in janko(corpus)[::step]:
        result = hand(instance, limits)
        assert result.status is Status.SOLVED, (key, result.message)
        assert result.solution == json.loads(dict(instance.meta)["expect-solution"]), key
        assert result.unique is True, key
        assert result.stats.build_s + result.stats.solve_s < 5, key
        nodes.append(result.stats.nodes)
    assert len(nodes) == len(range(0, 140, step))
    assert statistics.median(nodes) < 20


def test_puzzlink_urls_are_solved_uniquely(corpus):
    cases = puzzlink_cases(corpus)
    assert len(cases) == 3
    for url, expected in cases:
        result = hand(puzzlink.decode_url(url), PROVE)
        assert (result.status, result.unique, result.solution) == (Status.SOLVED, True,
                                                                     expected), url


# ---------------------------------------------------------------- rules, one at a time


def root_state(text, decide=()):
    """The grid after root propagation without probing ('I', 'O', '.'), or None if it fails.

    `decide` is (row, col, 'I' or 'O') fixed before propagating.
    """
    model = build(cave.parse(text), probe=False)
    cols = model.grid.cols
    for r, c, mark in decide:
        model.store.restrict(r * cols + c, INSIDE if mark == "I" else OUTSIDE)
    if not model.prop.propagate():
        return None
    symbol = {INSIDE: "I", OUTSIDE: "O", UNDECIDED: "."}
    dom = model.store.dom
    return ["".join(symbol[dom[r * cols + c]] for c in range(cols))
            for r in range(model.grid.rows)]


def test_upper_bound_equal_to_the_clue_makes_the_arms_inside():
    assert root_state("cave 1 5\n- - 5 - -\n") == ["IIIII"]


def test_lower_bound_equal_to_the_clue_closes_the_arms_and_cut_off_cells_go_outside():
    assert root_state("cave 1 5\n1 - - - -\n") == ["IOOOO"]
    assert root_state("cave 1 5\n- - 3 - -\n", [(0, 1, "I"), (0, 3, "I")]) == ["OIIIO"]


def test_short_directions_force_the_others():
    # 4 from a corner of a 3x3: each arm holds at most 2, so each holds at least 1.
    assert root_state("cave 3 3\n4 - -\n- - -\n- - -\n") == ["II.", "I..", "..."]
    # 3 at the left end of 1x4: its one arm is exactly 2 long.
    assert root_state("cave 1 4\n3 - - -\n") == ["IIIO"]


def test_arm_lengths_that_no_combination_completes_are_dropped():
    # In the middle of a 1x5 whose ends are inside, an arm cannot stop just before its
    # inside end: each arm is 0 or 2 long, so the clue sees 1, 3 or 5 cells, never 4.
    assert root_state("cave 1 5\n? - 4 - ?\n") is None
    assert root_state("cave 1 5\n? - 5 - ?\n") == ["IIIII"]


def test_checkerboard_block_forces_its_fourth_cell():
    # (0, 1) and (1, 0) inside, (0, 0) outside: (1, 1) outside would be ringed in by the
    # inside path around it; no other rule sees this yet.
    text = "cave 3 3\n- ? -\n? - -\n- - -\n"
    assert root_state(text) == [".I.", "I..", "..."]
    assert root_state(text, [(0, 0, "O")]) == ["OI.", "II.", "..."]


def test_a_cell_joining_inside_cells_is_inside():
    assert root_state("cave 1 3\n? - ?\n") == ["III"]


def test_cells_cut_off_from_the_border_are_inside_and_border_cut_vertices_outside():
    assert root_state("cave 3 3\n? ? ?\n? - ?\n? ? ?\n") == ["III", "III", "III"]
    text = "cave 3 4\n? ? ? ?\n? - - -\n? ? ? ?\n"
    assert root_state(text) == ["IIII", "I...", "IIII"]
    assert root_state(text, [(1, 1, "O")]) == ["IIII", "IOOO", "IIII"]


# ---------------------------------------------------------------- unsat and limits


@pytest.mark.parametrize("text", [
    "cave 1 3\n1 - 1\n",              # two clues that cannot join
    "cave 3 3\n? 3 ?\n? - ?\n? ? ?\n",  # the 3 leaves a hole in the middle
    "cave 2 2\n1 -\n- 1\n",            # each 1 walls itself in
])
def test_contradictory_puzzles_are_unsat(text):
    instance = cave.parse(text)
    asked = Limits(unique=True, count=True, timeout=60)
    assert cave.brute(instance, asked).status is Status.UNSAT
    for limits in (asked, Limits(unique=True, count=True, options={"probe": False})):
        result = hand(instance, limits)
        assert (result.status, result.unique, result.count) == (Status.UNSAT, False, 0)


def test_node_limit_and_deadline_stop_the_search():
    one_clue = cave.parse("cave 3 4\n- - - -\n- 3 - -\n- - - -\n")
    assert hand(one_clue, Limits(count=True, timeout=60)).count == cave.brute(
        one_clue, Limits(count=True)).count
    first = hand(one_clue, Limits(count=True, unique=True, node_limit=20))
    assert (first.status, first.count, first.unique, first.stats.nodes) == (
        Status.SOLVED, None, False, 20)
    assert hand(one_clue, Limits(unique=True, node_limit=0)).status is Status.TIMEOUT
    assert hand(one_clue, Limits(count=True, timeout=0)).status is Status.TIMEOUT


def test_an_expired_deadline_is_a_timeout_even_where_propagation_alone_would_finish(corpus):
    # Probing solves janko 01 at the root; the deadline guard stops that propagation, and
    # the contradictions it raised must not be read as a proof of unsatisfiability.
    _, instance = janko(corpus)[0]
    for probe in (True, False):
        result = hand(instance, Limits(unique=True, count=True, timeout=0,
                                       options={"probe": probe}))
        assert (result.status, result.unique, result.count) == (Status.TIMEOUT, None, None)


# ---------------------------------------------------------------- against brute force


# Every shape up to 4x5 / 5x4 (brute's 20 cells), the larger ones drawn more often.
SIZES = [(rows, cols) for rows in range(1, 6) for cols in range(1, 6) if rows * cols <= 20]
WEIGHTED_SIZES = [size for size in SIZES for _ in range(1 + size[0] * size[1] // 4)]


def grid_sizes():
    return st.sampled_from(WEIGHTED_SIZES)


@st.composite
def random_clue_caves(draw):
    """Clues anywhere: mostly unsolvable or ambiguous puzzles."""
    rows, cols = draw(grid_sizes())
    top = rows + cols - 1
    token = st.one_of(st.just(cave.EMPTY), st.just(cave.EMPTY), st.just(cave.EMPTY),
                      st.just(cave.UNKNOWN), st.integers(1, top).map(cave.Cell.clue))
    grid = [[draw(token) for _ in range(cols)] for _ in range(rows)]
    if rows * cols > 9 and not any(cell.is_clue for row in grid for cell in row):
        grid[0][0] = cave.Cell.clue(draw(st.integers(1, top)))  # keep brute's count small
    return cave.build_instance(rows, cols, grid)


def fill_holes(inside, rows, cols):
    """Outside cells that cannot reach the edge through outside cells become inside."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    reach = {(r, c) for r, c in cells if not inside[r][c]
             and (r in (0, rows - 1) or c in (0, cols - 1))}
    queue = list(reach)
    for r, c in queue:
        for nr, nc in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
            if (nr, nc) in cells and not inside[nr][nc] and (nr, nc) not in reach:
                reach.add((nr, nc))
                queue.append((nr, nc))
    return [[inside[r][c] or (r, c) not in reach for c in range(cols)] for r in range(rows)]


@st.composite
def derived_caves(draw):
    """A random valid cave, grown cell by cell, with some of its cells as clues."""
    rows, cols = draw(grid_sizes())
    inside = [[False] * cols for _ in range(rows)]
    r, c = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
    inside[r][c] = True
    for _ in range(draw(st.integers(0, rows * cols - 1))):
        frontier = sorted({(nr, nc) for r in range(rows) for c in range(cols) if inside[r][c]
                           for nr, nc in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c))
                           if 0 <= nr < rows and 0 <= nc < cols and not inside[nr][nc]})
        if not frontier:
            break
        r, c = draw(st.sampled_from(frontier))
        inside[r][c] = True
    inside = fill_holes(inside, rows, cols)
    empty = cave.build_instance(rows, cols, [[cave.EMPTY] * cols for _ in range(rows)])
    assert cave.verify(empty, cave.solution_from_inside(inside)) == []
    grid = [[cave.EMPTY] * cols for _ in range(rows)]
    for r, c in [(r, c) for r in range(rows) for c in range(cols) if inside[r][c]]:
        kind = draw(st.sampled_from("-n?"))
        if kind == "n":
            grid[r][c] = cave.Cell.clue(cave.count_visible(inside, r, c))
        elif kind == "?":
            grid[r][c] = cave.UNKNOWN
    if not any(cell.is_clue for row in grid for cell in row):
        r, c = next((r, c) for r in range(rows) for c in range(cols) if inside[r][c])
        grid[r][c] = cave.Cell.clue(cave.count_visible(inside, r, c))
    return cave.build_instance(rows, cols, grid)


def agrees_with_brute(instance, probe):
    asked = Limits(unique=True, count=True, timeout=60)
    oracle = cave.brute(instance, asked)
    result = hand(instance, Limits(unique=True, count=True, timeout=60,
                                   options={"probe": probe}))
    assert (result.status, result.unique, result.count) == (
        oracle.status, oracle.unique, oracle.count), cave.format(instance)
    if oracle.unique:
        assert result.solution == oracle.solution
    return oracle


@pytest.mark.parametrize("examples", sampled([10, 100]))  # the long run under `slow`
def test_hand_agrees_with_brute_on_random_clues(examples):
    @settings(max_examples=examples)
    @given(random_clue_caves(), st.booleans())
    def agrees(instance, probe):
        agrees_with_brute(instance, probe)

    agrees()


@pytest.mark.parametrize("examples", sampled([10, 100]))  # the long run under `slow`
def test_hand_agrees_with_brute_on_clues_of_a_valid_cave(examples):
    @settings(max_examples=examples)
    @given(derived_caves(), st.booleans())
    def agrees(instance, probe):
        assert agrees_with_brute(instance, probe).status is Status.SOLVED

    agrees()
