"""Water jugs: published answers, the brute-force oracle, bad input, and layer counting.

- Every puzzle of ../shared/corpus/jugs/known.txt (Die Hard 3, 8-5-3,
  Poisson's 12-8-5, 10-7-3): hand, cpsat and sat give the published fewest
  moves and a plan that `verify` replays.
- Random 2-3 jug puzzles (capacities <= 9, any start, move subset and goal):
  every back-end agrees with `brute` on reachability, the optimum, `unique`
  and `count`; the rules' unreachability facts never refute a goal brute
  reaches, and `plan_length_bound` is never below the optimum.
- Bad files: an `InstanceError` at the right line and column, exit 2 on the
  CLI; fuzzed text parses or raises `InstanceError`; parse(format(i)) == i.
- The generic layer counter (`twinsolve.search.layers`) against brute-force
  path counting on random multigraphs, one way and from both ends.
"""

from __future__ import annotations

import doctest
import math
import random

import pytest
from conftest import (
    assert_bad_file,
    assert_cli_refuses_file,
    assert_parses_or_refuses,
    assert_shipped_instances_hold,
    sampled,
)
from hypothesis import example, given, settings
from hypothesis import strategies as st
from strategies import jug_puzzles, word_lines

from twinsolve.core.limits import Deadline, Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.puzzles.jugs import hand as jugs_search
from twinsolve.puzzles.jugs import models as jugs_models
from twinsolve.puzzles.jugs import rules as jugs
from twinsolve.puzzles.jugs.rules import Goal, GoalKind, Instance, MoveKind
from twinsolve.search import layers
from twinsolve.search.layers import bidirectional_count_shortest_paths, count_shortest_paths
from twinsolve.search.statespace import LimitHit, StateSpace

BACKENDS = ("hand", "cpsat", "sat")
ASK = Limits(unique=True, count=True, timeout=60)
ALL = (MoveKind.FILL, MoveKind.EMPTY, MoveKind.POUR)


def answer(result):
    return result.status, result.objective, result.unique, result.count


@pytest.mark.parametrize("module", [jugs, jugs_search, layers])
def test_docstring_examples(module):
    failed, attempted = doctest.testmod(module)
    assert attempted > 0 and failed == 0


# ---------------------------------------------------------------- published answers

def known_puzzles(path) -> list[tuple[str, Instance, int]]:
    """Rows `capacities | start | moves | goal | fewest` of known.txt, as instances."""
    puzzles = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        capacities, start, moves, goal, fewest = (part.strip() for part in line.split("|"))
        goal = goal.replace("some jug holds", "holds")
        text = (f"jugs\ncapacities {capacities}\nstart {start}\nmoves {moves}\n"
                f"goal {goal}\n")
        puzzles.append((f"line {number}: {capacities} / {goal}",
                        jugs.parse(text, f"{path}:{number}"), int(fewest)))
    return puzzles


def test_known_table_reads_every_row(corpus):
    puzzles = known_puzzles(corpus("jugs", "known.txt"))
    assert len(puzzles) == 7
    assert {p.goal.kind for _, p, _ in puzzles} == {GoalKind.HOLDS, GoalKind.EXACT}


@pytest.mark.parametrize("backend", BACKENDS)
def test_known_puzzles_fewest_moves(corpus, backend):
    for name, instance, fewest in known_puzzles(corpus("jugs", "known.txt")):
        result = run(instance, backend, Limits(timeout=60), catch=False)
        assert result.status is Status.OPTIMAL, (name, result.message)
        assert result.objective == fewest, name
        assert result.verified is True, name
        assert jugs.verify(instance, result.solution) == []


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_known_puzzles_have_one_shortest_plan(corpus):
    for name, instance, fewest in known_puzzles(corpus("jugs", "known.txt")):
        oracle = run(instance, "brute", ASK, catch=False)
        assert answer(oracle) == (Status.OPTIMAL, fewest, True, 1), name
        for backend in BACKENDS:
            assert answer(run(instance, backend, ASK, catch=False)) == answer(oracle), \
                (name, backend)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_shipped_instances_agree_with_their_metadata():
    assert_shipped_instances_hold("jugs", at_least=10)


# ---------------------------------------------------------------- against brute force

def quick_for_models(oracle) -> bool:
    """Instances CP-SAT and SAT settle in well under a second (the tail is hand's).

    Both grow the horizon one solver call at a time and count by forbidding
    one plan per call, so depth and the number of shortest plans cost them.
    """
    return oracle.objective is None or (oracle.objective <= 10 and oracle.count <= 40)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@settings(max_examples=60)
@given(jug_puzzles(max_capacity=9))
@example(Instance((3, 5), (0, 0), ALL, Goal(GoalKind.HOLDS, (4,))))
@example(Instance((3, 5), (0, 0), ALL, Goal(GoalKind.EXACT, (1, 1))))        # not on the boundary
@example(Instance((8, 5, 3), (8, 0, 0), (MoveKind.POUR,), Goal(GoalKind.EXACT, (2, 3, 3))))
@example(Instance((4, 6), (0, 0), ALL, Goal(GoalKind.TOTAL, (5,))))          # off the lattice
@example(Instance((2, 2), (2, 0), (MoveKind.FILL,), Goal(GoalKind.HOLDS, (0,))))  # at the start
@example(Instance((7, 6, 7), (0, 0, 0), ALL, Goal(GoalKind.EXACT, (3, 0, 3))))  # 19 moves
def test_backends_agree_with_brute(instance):
    oracle = run(instance, "brute", ASK, catch=False)
    assert oracle.status in (Status.OPTIMAL, Status.UNSAT)
    quick = quick_for_models(oracle)
    for backend in BACKENDS:
        if backend == "hand" or quick:
            result = run(instance, backend, ASK, catch=False)
            assert answer(result) == answer(oracle), (backend, result.message)
        else:  # a deep or much-tied plan: no counting, and no wrong answer within 3 s
            result = run(instance, backend, Limits(timeout=3), catch=False)
            assert result.status in (oracle.status, Status.TIMEOUT), backend
            assert result.objective in (oracle.objective, None), backend
        if result.solution is not None:
            assert result.verified is True
    plain = run(instance, "hand", Limits(), catch=False)  # plain BFS, no counting
    assert (plain.status, plain.objective) == (oracle.status, oracle.objective)


@pytest.mark.parametrize("examples", sampled([50, 150]))  # the long run under `slow`
def test_unreachability_facts_are_sound(examples):
    @settings(max_examples=examples)
    @given(jug_puzzles(max_capacity=9))
    def sound(instance):
        oracle = run(instance, "brute", Limits(), catch=False)
        if jugs.unreachable_reason(instance) is not None:
            assert oracle.status is Status.UNSAT
        if oracle.status is Status.OPTIMAL:
            assert oracle.objective <= jugs.plan_length_bound(instance)
            states = jugs_models.listed_states(instance)
            for levels in oracle.solution["states"]:  # every visited state is listed
                assert states is None or tuple(levels) in states

    sound()


@pytest.mark.parametrize("examples", sampled([20, 60]))  # the long run under `slow`
def test_four_jugs_hand_agrees_with_brute(examples):
    @settings(max_examples=examples)
    @given(jug_puzzles(max_capacity=6, max_jugs=4))
    def agrees(instance):
        oracle = run(instance, "brute", ASK, catch=False)
        if oracle.status is Status.UNSUPPORTED:
            return
        assert answer(run(instance, "hand", ASK, catch=False)) == answer(oracle)

    agrees()


def test_four_jugs_up_to_50_hand_is_quick():
    instance = Instance((50, 31, 23, 17), (0, 0, 0, 0), ALL, Goal(GoalKind.EXACT, (45, 0, 5, 1)))
    result = run(instance, "hand", Limits(timeout=30, count=True))
    assert (result.status, result.objective, result.count) == (Status.OPTIMAL, 15, 1)
    assert result.stats.solve_s < 5  # about 0.1 s on a slow machine; bidirectional
    assert result.stats.counters["direction"] == "bidirectional"


# ---------------------------------------------------------------- the checker

def test_verify_rejects_broken_plans():
    instance = jugs.parse("jugs\ncapacities 3 5\nmoves fill pour empty\ngoal holds 4\n")
    good = run(instance, "hand", Limits()).solution
    assert jugs.verify(instance, good) == []
    broken = {
        "not a dict": [],
        "missing states": {"moves": good["moves"]},
        "short states": {"moves": good["moves"], "states": good["states"][:-1]},
        "bad label": {"moves": ["fill 7"] + good["moves"][1:], "states": good["states"]},
        "self pour": {"moves": ["pour 1 1"] + good["moves"][1:], "states": good["states"]},
        "not allowed": {"moves": ["empty 0"], "states": [[0, 0], [0, 0]]},
        "wrong state": {"moves": ["fill 0"], "states": [[0, 0], [3, 1]]},
        "over capacity": {"moves": ["fill 0"], "states": [[0, 0], [4, 0]]},
        "bool level": {"moves": ["fill 0"], "states": [[0, 0], [True, 0]]},
        "not the start": {"moves": ["fill 0"], "states": [[3, 0], [3, 0]]},
        "goal not met": {"moves": ["fill 0"], "states": [[0, 0], [3, 0]]},
    }
    for name, solution in broken.items():
        assert jugs.verify(instance, solution), name
    no_moves = {"moves": [], "states": [[0, 0]]}
    assert jugs.verify(instance, no_moves)


# ---------------------------------------------------------------- bad input

BAD = {
    "empty": (b"", 1, None, "empty instance"),
    "header-words": (b"jugs 3 5\ncapacities 3 5\n", 1, 1, "alone"),
    "unknown-line": (b"jugs\ncapacity 3 5\n", 2, 1, "unknown line 'capacity'"),
    "no-capacities": (b"jugs\nmoves fill\ngoal holds 1\n", 3, None, "missing 'capacities'"),
    "no-moves": (b"jugs\ncapacities 3\ngoal holds 1\n", 3, None, "missing 'moves'"),
    "no-goal": (b"jugs\ncapacities 3 5\nmoves fill\n", 3, None, "missing 'goal'"),
    "negative-capacity": (b"jugs\ncapacities 3 -5\nmoves fill\ngoal holds 1\n", 2, 14,
                          "capacity must be a whole number 1..1000000, got '-5' (jug 2)"),
    "zero-capacity": (b"jugs\ncapacities 0 5\nmoves fill\ngoal holds 1\n", 2, 12,
                      "capacity must be"),
    "huge-capacity": (b"jugs\ncapacities 3 5000000\nmoves fill\ngoal holds 1\n", 2, 14,
                      "capacity must be"),
    "no-jugs": (b"jugs\ncapacities\nmoves fill\ngoal holds 1\n", 2, None, "at least one jug"),
    "start-above": (b"jugs\ncapacities 3 5\nstart 4 0\nmoves fill\ngoal holds 1\n", 3, 7,
                    "start must be a whole number 0..3, got '4' (jug 1)"),
    "start-count": (b"jugs\ncapacities 3 5\nstart 0\nmoves fill\ngoal holds 1\n", 3, None,
                    "one per jug, got 1"),
    "start-extra": (b"jugs\ncapacities 3 5\nstart 0 0 0\nmoves fill\ngoal holds 1\n", 3, 11,
                    "one per jug, got 3"),
    "start-letter": (b"jugs\ncapacities 3 5\nstart 0 x\nmoves fill\ngoal holds 1\n", 3, 9,
                     "'x'"),
    "unknown-move": (b"jugs\ncapacities 3 5\nmoves fill spill\ngoal holds 1\n", 3, 12,
                     "unknown move kind 'spill'"),
    "twice-move": (b"jugs\ncapacities 3 5\nmoves fill fill\ngoal holds 1\n", 3, 12, "twice"),
    "no-move-kind": (b"jugs\ncapacities 3 5\nmoves\ngoal holds 1\n", 3, None, "at least one"),
    "unknown-goal": (b"jugs\ncapacities 3 5\nmoves fill\ngoal most 4\n", 4, 6,
                     "unknown goal 'most'"),
    "goal-no-kind": (b"jugs\ncapacities 3 5\nmoves fill\ngoal\n", 4, None, "goal needs a kind"),
    "goal-missing-c": (b"jugs\ncapacities 3 5\nmoves fill\ngoal holds\n", 4, None,
                       "needs 1 value"),
    "goal-exact-count": (b"jugs\ncapacities 3 5\nmoves fill\ngoal exact 1 2 3\n", 4, 16,
                         "one per jug, got 3"),
    "goal-negative": (b"jugs\ncapacities 3 5\nmoves fill\ngoal total -2\n", 4, 12,
                      "goal total must be a whole number 0..999999999"),
    "second-goal": (b"jugs\ncapacities 3 5\nmoves fill\ngoal holds 1\ngoal total 2\n", 5, 1,
                    "second 'goal' line (first on line 4)"),
    "binary": (b"jugs\ncapacities 3 5\n\xff\xfe\n", 3, 1, "not UTF-8"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_is_an_instance_error_at_its_line_and_column(tmp_path, name):
    assert_bad_file(tmp_path, name, *BAD[name])


@pytest.mark.parametrize("name", ["no-goal", "negative-capacity", "start-above", "unknown-move"])
def test_cli_bad_file_one_line_exit_2(tmp_path, name, cli):
    assert_cli_refuses_file(cli, tmp_path, name, *BAD[name][:2])


def test_defaults_and_any_line_order():
    instance = jugs.parse("# source: test\njugs\n\ngoal exact 0 4\nmoves pour fill\n"
                          "capacities 3 5\n")
    assert instance.start == (0, 0)
    assert instance.kinds == (MoveKind.FILL, MoveKind.POUR)
    assert instance.meta == (("source", "test"),)
    assert jugs.parse(jugs.format(instance)) == instance
    # a goal above the capacities is a puzzle without a plan, not a bad file
    unreachable = jugs.parse("jugs\ncapacities 3 5\nmoves fill\ngoal exact 4 0\n")
    for backend in BACKENDS:
        assert run(unreachable, backend, Limits()).status is Status.UNSAT


WORDS = ["jugs", "capacities", "start", "moves", "goal", "fill", "empty", "pour", "holds",
         "total", "exact", "0", "1", "3", "5", "9", "-1", "x", "#", "10000000"]


@pytest.mark.parametrize("examples", sampled([100, 300]))  # the long run under `slow`
def test_parse_fuzz_returns_or_raises_instance_error(examples):
    @settings(max_examples=examples)
    @given(word_lines(WORDS, 5), st.binary(max_size=40))
    def returns_or_raises(text, noise):
        assert_parses_or_refuses(jugs, ("jugs\n" + text, text,
                                        "jugs\n" + noise.decode("utf-8", "replace")))

    returns_or_raises()


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the long run under `slow`
def test_format_round_trips(examples):
    @settings(max_examples=examples)
    @given(jug_puzzles(max_capacity=9))
    def round_trips(instance):
        assert jugs.parse(jugs.format(instance)) == instance

    round_trips()


# ---------------------------------------------------------------- generic: layer counting

def random_multigraph(rng: random.Random, nodes: int, edges: int) -> dict[int, list]:
    """Node -> [(label, node)], parallel edges and self-loops included."""
    out: dict[int, list] = {v: [] for v in range(nodes)}
    for e in range(edges):
        a, b = rng.randrange(nodes), rng.randrange(nodes)
        out[a].append((f"e{e}", b))
    return out


def brute_count(graph: dict[int, list], start: int, goals: set[int]) -> tuple[int | None, int]:
    """(shortest length, number of label sequences of that length), by walks of each length."""
    walks = {start: 1}
    for length in range(len(graph) + 1):
        hits = sum(ways for v, ways in walks.items() if v in goals)
        if hits:
            return length, hits
        following: dict[int, int] = {}
        for v, ways in walks.items():
            for _, w in graph[v]:
                following[w] = following.get(w, 0) + ways
        walks = following
    return None, 0


@pytest.mark.parametrize("seed", range(60))
def test_layer_counts_match_walk_counting(seed):
    rng = random.Random(seed)
    nodes = rng.randint(1, 12)
    graph = random_multigraph(rng, nodes, rng.randint(0, 4 * nodes))
    reverse: dict[int, list] = {v: [] for v in graph}
    for v, out in graph.items():
        for label, w in out:
            reverse[w].append((label, v))
    start, goal = rng.randrange(nodes), rng.randrange(nodes)
    length, count = brute_count(graph, start, {goal})
    space = StateSpace(start, graph.__getitem__, goal_state=goal, predecessors=reverse.__getitem__)
    for search in (count_shortest_paths, bidirectional_count_shortest_paths):
        found = search(space)
        assert (found.cost, found.count) == (length, count), search.__name__
        assert found.found is (length is not None)
        assert found.exhausted is (length is None)
        if found.found:  # the path is real: each label leads to the next state
            assert found.states[0] == start and found.states[-1] == goal
            for label, a, b in zip(found.path, found.states, found.states[1:], strict=False):
                assert (label, b) in graph[a]
    goals = {v for v in range(nodes) if rng.random() < 0.3}
    length, count = brute_count(graph, start, goals)
    found = count_shortest_paths(StateSpace(start, graph.__getitem__,
                                            is_goal=goals.__contains__))
    assert (found.cost, found.count) == (length, count)


def test_layer_counts_grid_binomials_and_limits():
    # Monotone lattice paths on an n x n grid: C(2n, n) shortest paths corner to corner.
    n = 12

    def right_or_down(cell):
        r, c = cell
        steps = []
        if c < n:
            steps.append(("R", (r, c + 1)))
        if r < n:
            steps.append(("D", (r + 1, c)))
        return steps

    def back(cell):
        r, c = cell
        steps = []
        if c > 0:
            steps.append(("R", (r, c - 1)))
        if r > 0:
            steps.append(("D", (r - 1, c)))
        return steps

    space = StateSpace((0, 0), right_or_down, goal_state=(n, n), predecessors=back)
    binomial = math.comb(2 * n, n)
    for search in (count_shortest_paths, bidirectional_count_shortest_paths):
        found = search(space)
        assert (found.cost, found.count) == (2 * n, binomial)
        limited = search(space, node_limit=5)
        assert (limited.found, limited.limit_hit, limited.nodes) == (False, LimitHit.NODES, 5)
        expired = search(space, deadline=Deadline(0))
        assert expired.limit_hit is LimitHit.DEADLINE and expired.count == 0
    start_is_goal = count_shortest_paths(StateSpace(0, lambda x: [("a", x)], goal_state=0))
    assert (start_is_goal.cost, start_is_goal.count, start_is_goal.states) == (0, 1, (0,))
    with pytest.raises(ValueError):
        bidirectional_count_shortest_paths(StateSpace(0, right_or_down, is_goal=bool))
