"""The Slitherlink `hand` back-end against published answers, brute force and hand-made cases.

- The 583 janko.at puzzles of the corpus: every one solved, equal to the
  published solution, uniqueness proven, at least 95% without branching
  (a few by default, all with `-m slow`).
- Each rule family on its own: the patterns (adjacent 3s and their one
  exception, diagonal 3s, clues in corners), the corner parities, the
  single-loop closure rule, the colour classes, probing.
- Against `brute` on small grids, probing on and off; limits stop cleanly.
"""

from __future__ import annotations

import pytest
from conftest import sampled
from slitherlink_corpus import janko, known

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.slitherlink import hand, rules
from twinsolve.search.propagate import IS_FALSE, IS_TRUE, UNDECIDED, Contradiction, Store

PROVE = Limits(unique=True, timeout=60)
ALL = Limits(unique=True, count=True, timeout=60)


def started(text, techniques=hand.TECHNIQUES):
    """A model of `text` after its patterns and one propagation, and its layout."""
    model = hand.build(rules.parse(text), techniques)
    assert model.start()
    model.prop.schedule_all()
    assert model.prop.propagate()
    return model, model.layout


def states(model, sides):
    return [model.store.dom[s] for s in sides]


# ---------------------------------------------------------------- corpus

@pytest.mark.parametrize("keys", sampled([["1043_10x18", "15_5x5", "751_10x10"], None]),
                         ids=["three", "all"])
def test_janko_puzzles_are_solved_uniquely_mostly_without_branching(corpus, keys):
    pairs = janko(corpus, keys)
    branched = []
    for key, instance in pairs:
        result = run(instance, "hand", PROVE, catch=False)
        assert result.status is Status.SOLVED, (key, result.message)
        assert result.solution == known(instance), key
        assert result.unique is True, key
        assert result.stats.build_s + result.stats.solve_s < 5, key
        if result.stats.nodes:
            branched.append(key)
    assert len(pairs) == (len(keys) if keys else 583)
    assert len(branched) <= 0.05 * len(pairs), branched


# ---------------------------------------------------------------- patterns

def test_adjacent_threes_fix_their_three_parallel_sides():
    # (The 1 rules out the one exception, the loop round just the two 3s.)
    model, lay = started("slitherlink 3 4\n1 - - -\n- 3 3 -\n- - - -\n", ("counts", "patterns"))
    assert states(model, [lay.down(1, c) for c in (1, 2, 3)]) == [IS_TRUE] * 3
    assert states(model, [lay.down(0, 2), lay.down(2, 2)]) == [IS_FALSE] * 2


def test_adjacent_threes_alone_are_the_one_exception():
    # The loop round both 3s is the answer: the shared side is off.
    instance = rules.parse("slitherlink 1 2\n3 3\n")
    result = run(instance, "hand", ALL, catch=False)
    assert result.solution == {"inside": ["11"]} and result.count == 1
    assert rules.brute(instance, ALL).count == 1


def test_diagonal_threes_with_twos_between_fix_their_outer_corners():
    model, lay = started("slitherlink 3 3\n3 - -\n- 2 -\n- - 3\n", ("counts", "patterns"))
    top, _, _, left = lay.cell_sides(0, 0)
    _, right, bottom, _ = lay.cell_sides(2, 2)
    assert states(model, [top, left, right, bottom]) == [IS_TRUE] * 4


@pytest.mark.parametrize("clue,expected", [(1, IS_FALSE), (3, IS_TRUE)])
def test_ones_and_threes_in_a_corner(clue, expected):
    model, lay = started(f"slitherlink 2 2\n{clue} -\n- -\n", ("counts", "patterns"))
    assert states(model, [lay.across(0, 0), lay.down(0, 0)]) == [expected] * 2


def test_a_two_in_a_corner_fixes_its_neighbours_edge_sides():
    model, lay = started("slitherlink 3 3\n- - -\n- - -\n- - 2\n", ("counts", "patterns"))
    assert states(model, [lay.across(3, 1), lay.down(1, 3)]) == [IS_TRUE] * 2


# ---------------------------------------------------------------- corners

def test_an_even_corner_of_a_three_has_both_sides_on():
    model, lay = started("slitherlink 3 3\n- - -\n- 3 -\n- - -\n", ("counts", "corners"))
    top, right, bottom, left = lay.cell_sides(1, 1)
    assert states(model, [top, left]) == [UNDECIDED] * 2
    model.store.restrict(lay.cell_corners(1, 1)[0], IS_FALSE)  # top-left corner even
    assert model.prop.propagate()
    assert states(model, [top, left]) == [IS_TRUE] * 2
    # ... so the opposite corner is odd: right and bottom differ (one is the one off).
    assert model.store.dom[lay.cell_corners(1, 1)[2]] == IS_TRUE


def test_a_line_into_a_ones_corner_turns_away_from_the_opposite_corner():
    model, lay = started("slitherlink 3 3\n- - -\n- 1 -\n- - -\n", ("counts", "corners"))
    # A line arrives at the 1's top-left point from above, and not from the left.
    model.store.restrict(lay.down(0, 1), IS_TRUE)
    model.store.restrict(lay.across(1, 0), IS_FALSE)
    assert model.prop.propagate()
    _, right, bottom, _ = lay.cell_sides(1, 1)
    assert states(model, [right, bottom]) == [IS_FALSE] * 2  # the 1 is top or left


# ---------------------------------------------------------------- the loop

def u_round_cell_1_1(model, lay):
    """Three sides of cell (1, 1) on: a path whose ends its left side would join."""
    for side in (lay.across(1, 1), lay.down(1, 2), lay.across(2, 1)):
        model.store.restrict(side, IS_TRUE)


def test_a_path_may_not_close_while_other_sides_are_on():
    model, lay = started("slitherlink 4 4\n" + "- - - -\n" * 4, ("counts", "loop"))
    u_round_cell_1_1(model, lay)
    model.store.restrict(lay.across(4, 2), IS_TRUE)  # a side on elsewhere
    assert model.prop.propagate()
    assert model.store.dom[lay.down(1, 1)] == IS_FALSE  # it would close a second loop


def test_a_path_may_close_into_the_answer():
    model, lay = started("slitherlink 4 4\n- 1 - -\n" + "- - - -\n" * 3, ("counts", "loop"))
    u_round_cell_1_1(model, lay)
    assert model.prop.propagate()
    assert model.store.dom[lay.down(1, 1)] == UNDECIDED  # the loop round (1, 1) answers


def test_a_closed_loop_with_other_sides_on_is_a_contradiction():
    model, lay = started("slitherlink 3 3\n- - -\n- - -\n- - -\n", ("counts", "loop"))
    for side in (*lay.cell_sides(0, 0), lay.across(3, 2)):
        model.store.restrict(side, IS_TRUE)
    assert not model.prop.propagate()


# ---------------------------------------------------------------- colours

def test_colour_classes_decide_a_side_between_cells_of_one_class():
    model = hand.build(rules.parse("slitherlink 2 2\n- -\n- -\n"), ("counts", "colours"))
    lay = model.layout
    classes = next(rule for rule, _, _ in model.rule_list
                   if type(rule).__name__ == "_ColourClasses")
    store = Store.booleans(len(model.store))
    # (0,0) and (0,1) the same colour, (0,1) and (1,1) different, (1,1) and (1,0) the same:
    store.restrict(lay.down(0, 1), IS_FALSE)
    store.restrict(lay.across(1, 1), IS_TRUE)
    store.restrict(lay.down(1, 1), IS_FALSE)
    classes(store)
    assert store.dom[lay.across(1, 0)] == IS_TRUE  # (0,0) and (1,0) differ
    store.restrict(lay.cell(0, 0), IS_TRUE)
    classes(store)
    assert store.dom[lay.cell(1, 1)] == IS_FALSE and store.dom[lay.across(0, 0)] == IS_TRUE
    contradicting = Store.booleans(len(model.store))
    for side, mask in ((lay.down(0, 1), IS_FALSE), (lay.across(1, 1), IS_FALSE),
                       (lay.down(1, 1), IS_FALSE), (lay.across(1, 0), IS_TRUE)):
        contradicting.restrict(side, mask)
    with pytest.raises(Contradiction):
        classes(contradicting)


# ---------------------------------------------------------------- probing and search

def test_probing_settles_what_the_other_rules_leave_to_branching(corpus):
    [(_, instance)] = janko(corpus, ["15_5x5"])
    probed = hand.solve(instance, PROVE)
    plain = hand.solve(instance, Limits(unique=True, options={"probe": False}))
    assert probed.stats.nodes == 0 and probed.stats.counters["probes"] > 0
    assert plain.stats.nodes > 0 and plain.solution == probed.solution
    assert probed.unique is plain.unique is True


@pytest.mark.parametrize("text", ["slitherlink 3 3\n- - -\n- - -\n- - -\n",
                                  "slitherlink 3 4\n- 2 - -\n3 - - 1\n- - 2 -\n",
                                  "slitherlink 2 3\n3 - 3\n3 - 3\n",
                                  "slitherlink 4 3\n0 - -\n- 3 -\n- - -\n1 - 2\n"])
@pytest.mark.parametrize("probe", [True, False])
def test_hand_counts_what_brute_counts(text, probe):
    instance = rules.parse(text)
    expected = rules.brute(instance, ALL)
    result = run(instance, f"hand:probe={str(probe).lower()}", ALL, catch=False)
    assert (result.status, result.count) == (expected.status, expected.count)


def test_limits_stop_the_search_cleanly(corpus):
    [(_, instance)] = janko(corpus, ["105_10x10"])  # six search nodes
    stopped = hand.solve(instance, Limits(unique=True, node_limit=1))
    assert stopped.status is Status.TIMEOUT and stopped.message == "hand stopped: nodes limit"
    assert hand.solve(instance, Limits(timeout=0)).status is Status.TIMEOUT


def test_unknown_options_and_techniques_are_refused():
    with pytest.raises(UsageError, match="no option 'prob'"):
        hand.check_options(Limits(options={"prob": True}))
    with pytest.raises(ValueError, match="unknown techniques"):
        hand.build(rules.parse("slitherlink 1 1\n-\n"), ("counts", "guessing"))
