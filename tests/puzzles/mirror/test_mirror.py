"""Mirror maze: rules, file format, exactness of every back-end, generator, shipped set."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from conftest import assert_bad_file, assert_cli_refuses_file, sampled
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import mirror_levels

from twinsolve.core.errors import InstanceError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import load_file, run
from twinsolve.puzzles.mirror import generate
from twinsolve.puzzles.mirror.hand import MirrorSearch, relaxed_bound
from twinsolve.puzzles.mirror.models import beam_network, network_lower_bound
from twinsolve.puzzles.mirror.rules import (
    CellKind,
    Direction,
    Goal,
    Instance,
    format,
    parse,
    reflect,
    trace_beam,
    verify,
)

ROOT = Path(__file__).resolve().parents[3]
RIGHT, DOWN, LEFT, UP = Direction.RIGHT, Direction.DOWN, Direction.LEFT, Direction.UP
BACKENDS = ("hand", "cpsat", "sat")
ASKED = Limits(unique=True, count=True, timeout=60)


def level(*rows: str, goal: str = "any") -> Instance:
    return Instance.from_strings(rows, goal)


def answers(instance: Instance, backends=BACKENDS + ("brute",)) -> dict:
    return {b: run(instance, b, ASKED, catch=False) for b in backends}


@st.composite
def dense_levels(draw, rotatable: int = 10):
    """Generated 6x6 levels: denser in mirrors, so beams come back to flipped ones."""
    goal = draw(st.sampled_from(["any", "all"]))
    lasers = draw(st.integers(1, 3))
    return generate.random_level(6, 6, draw(st.integers(0, 10_000)), density=0.45,
                                 rotatable=rotatable, lasers=lasers, goal=goal,
                                 targets=min(lasers, 2) if goal == "all" else 1)


# ---------------------------------------------------------------- rules

def test_reflection_tables_as_the_rules_state_them():
    assert reflect(RIGHT, "/") == UP
    assert reflect(DOWN, "/") == LEFT
    assert reflect(LEFT, "/") == DOWN
    assert reflect(UP, "/") == RIGHT
    assert reflect(RIGHT, "\\") == DOWN
    assert reflect(DOWN, "\\") == RIGHT
    assert reflect(LEFT, "\\") == UP
    assert reflect(UP, "\\") == LEFT


def test_reflections_are_involutions_so_beams_can_be_traced_backwards():
    for mirror in "/\\":
        for direction in Direction:
            assert reflect(reflect(direction, mirror), mirror) == direction


def test_lasers_emit_in_their_direction():
    assert [kind.emits for kind in (CellKind.SOURCE, CellKind.SOURCE_RIGHT,
                                    CellKind.SOURCE_LEFT, CellKind.SOURCE_UP,
                                    CellKind.SOURCE_DOWN)] == [RIGHT, RIGHT, LEFT, UP, DOWN]
    assert CellKind.ROTATABLE.emits is None


def test_beam_turns_passes_lasers_and_stops_at_the_first_target():
    # S right -> '\' down -> '/' left -> through the '<' laser's cell -> T.
    maze = level("S.\\.", "T</.", "...T")
    beam = trace_beam(maze, maze.sources()[0], ())
    assert beam.hit == (1, 0) and beam.end == "target"
    assert [(r, c) for r, c, _ in beam.path] == [(0, 0), (0, 1), (0, 2), (1, 2), (1, 1)]


@pytest.mark.parametrize(("rows", "end"), [
    (("S.#T",), "wall"),
    (("S./", "..T"), "edge"),
    # A closed loop through the laser's own cell: the beam comes back to its start state.
    (("/S\\", "\\./", "..T"), "loop"),
])
def test_beam_failures(rows, end):
    maze = level(*rows)
    assert trace_beam(maze, maze.sources()[0], ()).end == end
    assert verify(maze, {"flips": []}) == ["no beam reaches a target"]


def test_a_flipped_mirror_keeps_its_orientation_on_every_pass():
    # The `?` is met twice; flipped, it sends the beam down and, from the loop, right.
    maze = parse(generate.RELAXATION_TRAP)
    beam = trace_beam(maze, maze.sources()[0], {(1, 3)})
    passes = [(r, c, d) for r, c, d in beam.path if (r, c) == (1, 3)]
    assert passes == [(1, 3, DOWN), (1, 3, RIGHT)] and beam.end == "edge"


def test_goal_all_needs_every_target():
    maze = level("S.T", ">.T", goal="all")
    assert verify(maze, {"flips": []}) == []
    maze = level("S.T", "..T", goal="all")
    assert verify(maze, {"flips": []})[0].startswith("1 target(s) not hit")


@pytest.mark.parametrize(("solution", "words"), [
    ({"flips": [[0, 0]]}, "not a rotatable"),
    ({"flips": [[0, 1], [0, 1]]}, "twice"),
    ({"flips": [[5, 1]]}, "outside the grid"),
    ({"flips": [[0, True]]}, "pair of integers"),
    ({"flip": []}, "solution must be"),
    ([], "solution must be"),
    ({"flips": []}, "no beam reaches"),
])
def test_verify_rejects_bad_solutions(solution, words):
    assert words in verify(level("S?.", ".T."), solution)[0]


def test_verify_accepts_the_flip():
    assert verify(level("S?.", ".T."), {"flips": [[0, 1]]}) == []


# ---------------------------------------------------------------- exactness

def test_relaxation_claims_a_solution_where_none_exists():
    maze = parse(generate.RELAXATION_TRAP)
    # The 0-1 BFS over (cell, direction), each visit choosing freely, finds 1 flip...
    assert relaxed_bound(maze) == 1
    assert network_lower_bound(beam_network(maze)) == 1
    # ...but with one orientation per mirror no flip set works.
    for backend, result in answers(maze).items():
        assert result.status is Status.UNSAT, backend
        assert result.count == 0 and result.unique is False, backend


def test_relaxation_value_is_not_achievable():
    maze = parse(generate.RELAXATION_GAP)
    assert relaxed_bound(maze) == 1
    assert network_lower_bound(beam_network(maze)) == 1
    for backend, result in answers(maze).items():
        assert result.status is Status.OPTIMAL, backend
        assert result.objective == 2 and result.verified, backend
        assert result.solution == {"flips": [[1, 3], [2, 4]]}, backend
        assert result.unique is True and result.count == 1, backend


def test_goal_all_shares_one_orientation_between_beams():
    # S needs the `?` as '/' (up into the top T); '^' needs it as '\\' (left, through S's
    # cell, into the left T). Each target alone is cheap, both at once are impossible.
    rows = ("..T", "TS?", "..^")
    both = level(*rows, goal="all")
    assert relaxed_bound(both) == 1
    for backend, result in answers(both).items():
        assert result.status is Status.UNSAT, backend
    either = level(*rows, goal="any")
    for backend, result in answers(either).items():
        assert (result.status, result.objective, result.count) == (Status.OPTIMAL, 0, 1), backend


def _agree(instance: Instance) -> None:
    oracle = run(instance, "brute", ASKED, catch=False)
    assert oracle.status in (Status.OPTIMAL, Status.UNSAT)
    # The relaxation, computed by hand's fields and by the models' network alike, never
    # exceeds the optimum although it counts '\\' turns, not flipped mirrors.
    bound = relaxed_bound(instance)
    assert bound == network_lower_bound(beam_network(instance)), format(instance)
    if oracle.status is Status.OPTIMAL:
        assert bound is not None and bound <= oracle.objective, format(instance)
    for backend in BACKENDS:
        result = run(instance, backend, ASKED, catch=False)
        assert result.status is oracle.status, (backend, result.message, format(instance))
        assert result.objective == oracle.objective, (backend, format(instance))
        assert result.unique == oracle.unique, (backend, format(instance))
        assert result.count == oracle.count, (backend, format(instance))
        if result.solution is not None:
            assert result.verified is True, (backend, result.message)


@pytest.mark.parametrize("examples", sampled([40, 120]))  # the long run under `slow`
def test_single_laser_levels_agree_with_brute(examples):
    @settings(max_examples=examples)
    @given(mirror_levels(max_side=6, max_rotatable=12, max_lasers=1))
    def agrees(instance):
        _agree(instance)

    agrees()


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@settings(max_examples=120)
@given(mirror_levels(max_side=6, max_rotatable=12, max_lasers=3))
def test_multi_laser_levels_agree_with_brute(instance):
    _agree(instance)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@settings(max_examples=80)
@given(dense_levels(rotatable=12))
def test_generated_dense_levels_agree_with_brute(instance):
    _agree(instance)


def _exact_cost_to_go(search: MirrorSearch, state) -> float:
    """The fewest further flips to a goal leaf below `state`, by walking the whole tree."""
    if search.is_goal(state):
        return 0
    return min((cost + _exact_cost_to_go(search, child)
                for cost, _move, child in search.successors(state)), default=math.inf)


def _heuristic_never_overestimates(search: MirrorSearch, state) -> float:
    exact = _exact_cost_to_go(search, state)
    assert search.heuristic(state) <= exact, state
    if search.is_goal(state):
        return exact
    for _cost, _move, child in search.successors(state):
        _heuristic_never_overestimates(search, child)
    return exact


@pytest.mark.parametrize("examples", sampled([50, 150]))  # the long run under `slow`
def test_hand_heuristic_is_admissible_in_every_state(examples):
    @settings(max_examples=examples)
    @given(st.one_of(mirror_levels(max_side=6, max_rotatable=8, max_lasers=3), dense_levels()))
    def admissible(instance):
        search = MirrorSearch(instance)
        start = search.start()
        if start is not None:
            _heuristic_never_overestimates(search, start)

    admissible()


def test_a_flipped_mirror_met_again_costs_nothing_more():
    # Beam 0 flips (2, 4); beam 1 then turns on the same flipped mirror for free. The
    # plain relaxed distance would charge it again, and the count of optimal sets was 0.
    maze = generate.random_level(6, 6, 904, density=0.45, rotatable=12, lasers=2, targets=2,
                                 goal="all")
    _agree(maze)
    result = run(maze, "hand", ASKED)
    assert (result.objective, result.count) == (2, 1)


def test_brute_refuses_many_mirrors():
    maze = level("S" + "?" * 17 + "T")
    assert run(maze, "brute", ASKED).status is Status.UNSUPPORTED


def test_hand_reports_timeout_when_out_of_time():
    maze = generate.random_level(30, 30, 1, density=0.3, rotatable=60, min_flips=3)
    result = run(maze, "hand", Limits(timeout=0))
    assert result.status is Status.TIMEOUT and result.solution is None


# ---------------------------------------------------------------- input

BAD = {
    "unknown-char": (b"mirror 2 3\nS.T\n.x.\n", 3, 2, "unknown character 'x'"),
    "no-source": (b"mirror 2 3\n..T\n.?.\n", 1, None, "no laser"),
    "no-target": (b"mirror 2 3\nS..\n.?.\n", 1, None, "no target"),
    "ragged-short": (b"mirror 2 3\nS.T\n..\n", 3, None, "row has 2 cells, expected 3"),
    "ragged-long": (b"mirror 2 3\nS.T\n....\n", 3, 4, "row has 4 cells, expected 3"),
    "too-few-rows": (b"mirror 3 3\nS.T\n...\n", 3, None, "expected 3 rows"),
    "too-many-rows": (b"# source: x\nmirror 1 3\nS.T\n...\n", 4, 1, "more than 1 rows"),
    "bad-header": (b"mirror 3\nS.T\n", 1, 1, "ROWS and COLS"),
    "bad-size": (b"mirror x 3\nS.T\n", 1, 8, "ROWS must be"),
    "zero-size": (b"mirror 0 3\n", 1, 8, "ROWS must be"),
    "bad-goal": (b"mirror 1 3 goal some\nS.T\n", 1, 1, "goal any"),
    "unknown-option": (b"mirror 1 3 torus\nS.T\n", 1, 1, "unexpected 'torus'"),
    "wrong-puzzle": (b"mirrors 1 3\nS.T\n", 1, 1, "unknown puzzle"),
    "tab": (b"mirror 1 3\nS\tT\n", 2, 2, "unknown character"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_is_an_instance_error_with_line_and_column(tmp_path, name):
    assert_bad_file(tmp_path, name, *BAD[name])


@pytest.mark.parametrize("name", ["unknown-char", "no-source", "ragged-short", "bad-header"])
def test_cli_reports_bad_input_in_one_line_with_exit_2(tmp_path, name, cli):
    assert_cli_refuses_file(cli, tmp_path, name, *BAD[name][:2])


@pytest.mark.parametrize("examples", sampled([100, 300]))  # the long run under `slow`
def test_parse_returns_or_raises_instance_error_only(examples):
    @settings(max_examples=examples)
    @given(st.text(alphabet="mirror goal any all 0123456789\n\r\t./\\?#TS><^vx", max_size=80))
    def returns_or_raises(text):
        try:
            instance = parse(text)
        except InstanceError:
            return
        assert isinstance(instance, Instance)

    returns_or_raises()


@pytest.mark.parametrize("examples", sampled([60, 200]))  # the long run under `slow`
def test_parse_of_any_body_returns_or_raises_instance_error_only(examples):
    @settings(max_examples=examples)
    @given(st.text(max_size=40), st.integers(1, 3), st.integers(1, 3))
    def returns_or_raises(body, rows, cols):
        try:
            parse(f"mirror {rows} {cols}\n{body}")
        except InstanceError:
            pass

    returns_or_raises()


@pytest.mark.parametrize("examples", sampled([30, 100]))  # the long run under `slow`
def test_format_round_trips(examples):
    @settings(max_examples=examples)
    @given(mirror_levels(max_side=6, max_rotatable=12))
    def round_trips(instance):
        assert parse(format(instance)) == instance

    round_trips()


def test_format_keeps_metadata_and_goal():
    text = "# source: test\n# expect-objective: 1\nmirror 1 3 goal all\nS?T\n"
    instance = parse(text)
    assert instance.goal is Goal.ALL and dict(instance.meta)["expect-objective"] == "1"
    assert format(instance) == text


# ---------------------------------------------------------------- generator

def test_generator_is_deterministic_and_reachable():
    first = generate.random_level(12, 12, 3, rotatable=16, min_flips=2)
    assert format(first) == format(generate.random_level(12, 12, 3, rotatable=16, min_flips=2))
    assert len(first.rotatable()) == 16
    result = run(first, "hand", Limits(timeout=30))
    assert result.status is Status.OPTIMAL and result.objective >= 2


def test_hard_level_has_an_unachievable_relaxed_bound():
    maze = generate.hard_level(12, 12, 1, density=0.3, rotatable=20, wall_share=0.05,
                               min_flips=2)
    bound = relaxed_bound(maze)
    results = {b: run(maze, b, Limits(timeout=60)) for b in BACKENDS}
    assert {r.objective for r in results.values()} == {results["hand"].objective}
    assert results["hand"].objective > bound
    assert all(r.status is Status.OPTIMAL and r.verified for r in results.values())


def test_generate_goal_all_places_one_target_per_laser():
    maze = generate.random_level(10, 10, 4, rotatable=12, lasers=3, targets=2, goal="all")
    assert len(maze.targets()) == 2 and len(maze.sources()) == 3
    assert run(maze, "hand", Limits(timeout=30)).status is Status.OPTIMAL


# ---------------------------------------------------------------- shipped instances

SHIPPED = sorted((ROOT / "instances" / "mirror").glob("*.txt"))


def test_shipped_set_spans_8x8_to_80x80_with_metadata():
    assert SHIPPED, "instances/mirror/ is empty"
    sizes = set()
    for path in SHIPPED:
        instance = load_file(path)
        meta = dict(instance.meta)
        assert "source" in meta, path
        assert "expect-objective" in meta or meta.get("expect-solutions") == "0", path
        sizes.add(instance.rows)
    assert min(sizes) <= 8 and max(sizes) == 80


@pytest.mark.parametrize("path", [p for p in SHIPPED if "suite: full" not in p.read_text()],
                         ids=lambda p: p.stem)
def test_quick_shipped_levels_meet_their_expectation(path):
    instance = load_file(path)
    meta = dict(instance.meta)
    result = run(instance, "hand", Limits(timeout=30))
    if "expect-objective" in meta:
        assert result.status is Status.OPTIMAL and result.verified
        assert result.objective == int(meta["expect-objective"])
    else:
        assert result.status is Status.UNSAT
