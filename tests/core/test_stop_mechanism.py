"""The one stop mechanism: `core.limits.Poller`, `Deadline.check` and `LimitReached`.

Every search that counts nodes asks a `Poller` (its interval is the search's
choice); every block loop asks `Poller.spend`; every model build asks
`Deadline.check`. These tests pin the schedule and then show, search by
search, that the callers stop where the poller says.
"""

from __future__ import annotations

import pytest

from twinsolve.core.limits import Deadline, LimitHit, LimitReached, Limits, Poller
from twinsolve.puzzles.cave import rules as cave_rules
from twinsolve.puzzles.chess import hand as chess_hand
from twinsolve.puzzles.chess import rules as chess_rules
from twinsolve.puzzles.chess.layers import count_layers
from twinsolve.puzzles.chess.models import build_cpsat, build_sat
from twinsolve.puzzles.lightsout import hand as lightsout_hand
from twinsolve.puzzles.lightsout.rules import Instance as LightsOut
from twinsolve.puzzles.mirror import rules as mirror_rules
from twinsolve.puzzles.mirror.generate import random_level
from twinsolve.search.propagate import Propagator, Store, search

CHESS = "chess 4 4\nRR..\nNP..\n.BB.\n..K.\n"   # instances/chess/mixed-4x4-07: 1733 lines


class Clock:
    """A deadline that expires after `calls` questions, and counts them."""

    def __init__(self, calls: int) -> None:
        self.calls, self.asked = calls, 0

    def expired(self) -> bool:
        self.asked += 1
        return self.asked > self.calls


def due_counts(poller: Poller, upto: int, start: int = 0) -> list[int]:
    """The node counts at which a search that follows the contract asks `poller`."""
    asked = []
    for nodes in range(start, upto):
        if nodes >= poller.at:
            asked.append(nodes)
            if poller(nodes) is not None:
                break
    return asked


@pytest.mark.parametrize("every", [1, 16, 1024])
def test_the_clock_is_read_every_interval(every):
    clock = Clock(calls=10**9)
    assert due_counts(Poller(None, clock, every=every), 4 * every) == \
        [0, every, 2 * every, 3 * every]
    assert clock.asked == 4


def test_a_poller_made_part_way_is_asked_from_where_the_search_is():
    # propagate and the chess memo make a new poller when their limits change
    clock = Clock(calls=10**9)
    assert due_counts(Poller(None, clock, every=16), 70, start=37) == [37, 48, 64]


def test_the_node_limit_and_the_deadline_name_themselves():
    assert Poller(5, None)(5) is LimitHit.NODES
    assert Poller(None, Clock(calls=0))(0) is LimitHit.DEADLINE
    with pytest.raises(LimitReached) as stop:
        Poller(3, None).stop(3)
    assert stop.value.hit is LimitHit.NODES
    with pytest.raises(LimitReached) as stop:
        Deadline(0).check()
    assert stop.value.hit is LimitHit.DEADLINE
    Deadline(None).check()   # no deadline: never raises


def test_blocks_read_the_clock_each_time_and_never_pass_the_node_limit():
    clock = Clock(calls=2)
    poller = Poller(100, clock)
    assert poller.spend(0, 100) is None and poller.spend(100, 0) is None
    assert poller.spend(60, 41) is LimitHit.NODES   # would pass the limit: not started
    assert clock.asked == 2
    assert poller.spend(0, 1) is LimitHit.DEADLINE


@pytest.mark.parametrize("every", [0, 3, 100, -4, True, 2.0])
def test_the_interval_is_a_power_of_two(every):
    with pytest.raises(ValueError, match="power of two"):
        Poller(None, None, every=every)


def _free(n: int) -> Propagator:
    """n unconstrained booleans: 2**n solutions, a tree of 2**(n+1) - 2 value tries."""
    return Propagator(Store.uniform(n, (0, 1)))


@pytest.mark.parametrize("limit", [0, 1, 15, 16, 17, 100])
def test_propagation_search_stops_at_exactly_the_node_limit(limit):
    found = search(_free(8), max_solutions=None, node_limit=limit)
    assert (found.nodes, found.limit_hit, found.exhausted) == (limit, LimitHit.NODES, False)
    assert found.unique is (False if found.count >= 2 else None)


def test_propagation_search_reads_the_deadline_every_16_nodes():
    clock = Clock(calls=3)
    found = search(_free(10), max_solutions=None, deadline=clock)
    # propagation asks too (every 16 rule runs; this store has no rules), so the
    # search stops at the fourth multiple of 16 nodes at the latest
    assert found.limit_hit is LimitHit.DEADLINE and found.nodes == 48


def test_propagation_rules_read_the_deadline_every_16_runs():
    store = Store.uniform(2, range(1000))
    prop = Propagator(store, deadline=Clock(calls=2))

    def shrink(s):   # one value off x0 per run, forever through x1
        s.restrict(0, s.dom[0] & (s.dom[0] - 1))
        s.restrict(1, s.dom[1] & (s.dom[1] - 1))

    prop.add_rule(shrink, watches=(0, 1))
    with pytest.raises(LimitReached):
        prop.propagate()
    assert prop.runs == 32   # runs 0 and 16 asked and went on; run 32 stopped


def test_the_chess_memo_search_keeps_its_node_count_under_a_limit():
    board = chess_rules.parse(CHESS)
    whole = chess_hand.Searcher(board)
    whole.count()
    assert whole.nodes > 3
    for limit in (0, 1, whole.nodes - 1):
        searcher = chess_hand.Searcher(board, node_limit=limit)
        with pytest.raises(LimitReached) as stop:
            searcher.count()
        assert stop.value.hit is LimitHit.NODES
        assert searcher.nodes == limit + 1   # the expansion that was refused is counted
    searcher = chess_hand.Searcher(board, node_limit=whole.nodes)
    assert searcher.count() == whole.count()


def test_the_layer_count_stops_before_a_layer_past_the_node_limit():
    board = chess_rules.parse(CHESS)
    searcher = chess_hand.Searcher(board)
    full = count_layers(searcher.board, searcher.start)
    with pytest.raises(LimitReached) as stop:
        count_layers(searcher.board, searcher.start, node_limit=full.positions - 1)
    assert stop.value.hit is LimitHit.NODES
    assert count_layers(searcher.board, searcher.start, node_limit=full.positions) == full
    with pytest.raises(LimitReached):
        count_layers(searcher.board, searcher.start, deadline=Deadline(0))


@pytest.mark.parametrize("build", [build_cpsat, build_sat])
def test_chess_model_builds_stop_at_the_deadline(build):
    board = chess_rules.parse(CHESS)
    with pytest.raises(LimitReached):
        build(board, deadline=Deadline(0))
    build(board)   # no deadline given: builds


@pytest.mark.parametrize("puzzle, make", [
    (cave_rules, lambda: cave_rules.parse("cave 4 4\n- - - -\n- 3 - -\n- - - -\n- - - 2\n")),
    (chess_rules, lambda: chess_rules.parse(CHESS)),
    (mirror_rules, lambda: random_level(6, 6, seed=3, rotatable=6)),
])
def test_brute_force_stops_on_either_limit(puzzle, make):
    instance = make()
    whole = puzzle.brute(instance, Limits(count=True))
    assert whole.status.has_solution or whole.status.value == "unsat"
    cut = puzzle.brute(instance, Limits(count=True, node_limit=1))
    assert cut.status.value == "timeout" and cut.stats.nodes == 1 and "nodes limit" in cut.message
    late = puzzle.brute(instance, Limits(count=True, timeout=0))
    assert late.status.value == "timeout" and "deadline limit" in late.message


def test_lights_out_coset_walk_stops_on_either_limit():
    board = LightsOut.all_on(5)   # nullity 2: four grids, one chunk
    whole = lightsout_hand.solve(board, Limits(count=True))
    assert whole.status.value == "optimal" and whole.objective == 15
    pivots = whole.stats.counters["pivots"]
    cut = lightsout_hand.solve(board, Limits(count=True, node_limit=pivots))
    assert cut.status.value == "feasible" and cut.stats.nodes == pivots   # no chunk started
    late = lightsout_hand.solve(board, Limits(count=True, timeout=0))
    assert late.status.value == "feasible"   # elimination's solution, the walk not begun
