"""Graded Cave puzzles: unique, of exactly their level, minimal for it, reproducible.

Generated through the driver (`twinsolve.generation.driver`), as `twinsolve
generate` makes them; every puzzle is proven unique by `hand` and by `sat`,
checked against its own metadata, and graded again.
"""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, corpus_path, sampled

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import load_file, run
from twinsolve.core.sources import instances
from twinsolve.generation.driver import find_one, make_plan
from twinsolve.puzzles.cave import generate as gen
from twinsolve.puzzles.cave import rules as cave

BATCH = {"easy": (7, 7), "medium": (7, 7), "hard": (7, 7), "extreme": (8, 8)}


def _plan(level: str, seed: int, count: int = 2, symmetric: bool = False,
          size: tuple[int, int] | None = None):
    return make_plan("cave", level=level, size=size or BATCH[level], count=count, seed=seed,
                     symmetric=symmetric)


def _batch(level: str, seed: int, count: int = 2, symmetric: bool = False,
           size: tuple[int, int] | None = None) -> list:
    plan = _plan(level, seed, count, symmetric, size)
    return [find_one(plan, index) for index in range(count)]


def _without(puzzle: cave.Instance, row: int, col: int) -> cave.Instance:
    grid = [list(line) for line in puzzle.clues]
    grid[row][col] = cave.EMPTY
    return cave.Instance(puzzle.rows, puzzle.cols, tuple(map(tuple, grid)))


@pytest.mark.parametrize("level", sampled(list(BATCH), keep=2))
def test_every_generated_puzzle_is_unique_for_two_backends_and_of_its_level(level):
    for puzzle in _batch(level, seed=3):
        meta = dict(puzzle.meta)
        known = json.loads(meta["expect-solution"])
        assert meta["expect-unique"] == "true" and meta["difficulty"] == level
        for backend in ("hand", "sat"):
            result = run(puzzle, backend, Limits(timeout=60, unique=True))
            assert (result.status, result.unique, result.verified) == \
                (Status.SOLVED, True, True), backend
            assert result.solution == known, backend
        assert gen.grade(puzzle).level == level
        assert json.loads(meta["grade"]) == gen.grade(puzzle).evidence


# hard in the default run: solved by its techniques, stuck with medium's; extreme's
# generator runs there in test_extreme_10x10_puzzles_are_unique_few_guesses_deep_and_...
@pytest.mark.parametrize("level", sampled(list(BATCH), keep=lambda level: level == "hard"))
def test_levels_are_exact_and_puzzles_minimal_for_their_level(level):
    easier = gen.LEVELS[gen.LEVELS.index(level) - 1] if level != "easy" else None
    for puzzle in _batch(level, seed=5):
        if level == "extreme":  # branching is needed, and no clue can go: all are needed
            assert gen._deduce(puzzle, gen.TECHNIQUES)[0] is gen._Deduced.STUCK
            assert gen.grade(puzzle).level == "extreme"
            for clue in cave.clue_cells(puzzle):
                fewer = _without(puzzle, clue.row, clue.col)
                assert run(fewer, "sat", Limits(timeout=60, unique=True)).unique is False, clue
            continue
        assert gen._deduce(puzzle, gen.LEVEL_TECHNIQUES[level])[0] is gen._Deduced.SOLVED
        if easier:
            assert gen._deduce(puzzle, gen.LEVEL_TECHNIQUES[easier])[0] is gen._Deduced.STUCK
        for clue in cave.clue_cells(puzzle):
            assert not gen._acceptable(_without(puzzle, clue.row, clue.col), level), clue


# Each of a batch of two, found on its own as `twinsolve generate` finds it (up to two
# seconds each): the second symmetric one, found quickest, in the default run.
@pytest.mark.parametrize("symmetric, index",
                         sampled([(False, 0), (False, 1), (True, 0), (True, 1)],
                                 keep=lambda case: case == (True, 1)))
def test_extreme_10x10_puzzles_are_unique_few_guesses_deep_and_symmetric_when_asked(
        symmetric, index):
    """The size the benchmark times: unique by sat, within the generator's node cap."""
    puzzle = find_one(_plan("extreme", seed=8, symmetric=symmetric, size=(10, 10)), index)
    result = run(puzzle, "sat", Limits(timeout=60, unique=True))
    assert (result.unique, result.verified) == (True, True)
    cells = cave.clue_cells(puzzle)
    if symmetric:
        assert {(c.row, c.col) for c in cells} == \
            {(9 - c.row, 9 - c.col) for c in cells}
    assert json.loads(dict(puzzle.meta)["grade"])["nodes"] <= gen.GENERATED_NODES


def test_a_shipped_extreme_puzzle_needs_branching_and_is_unique():
    extreme = sorted((ROOT / "instances" / "cave" / "graded").glob("cave-extreme-*.txt"))
    assert extreme, "the shipped graded set has extreme puzzles"
    puzzle = load_file(extreme[0])
    assert gen._deduce(puzzle, gen.LEVEL_TECHNIQUES["hard"])[0] is gen._Deduced.STUCK
    graded = gen.grade(puzzle)
    assert graded.level == "extreme" and graded.evidence["nodes"] >= 1
    result = run(puzzle, "sat", Limits(timeout=60, unique=True))
    assert result.unique is True and result.solution == \
        json.loads(dict(puzzle.meta)["expect-solution"])


def test_symmetric_clues_come_in_180_degree_pairs():
    for puzzle in _batch("medium", seed=2, symmetric=True):
        cells = {(clue.row, clue.col) for clue in cave.clue_cells(puzzle)}
        assert cells == {(puzzle.rows - 1 - r, puzzle.cols - 1 - c) for r, c in cells}
        assert "symmetric" in dict(puzzle.meta)["parameters"]


def test_same_seed_same_bytes_and_other_seeds_other_puzzles():
    first = [cave.format(p) for p in _batch("easy", seed=11)]
    assert first == [cave.format(p) for p in _batch("easy", seed=11)]
    assert first[0] != first[1]
    other = [cave.format(p) for p in _batch("easy", seed=12)]
    assert not set(first) & set(other)


@pytest.mark.parametrize("size, level, words", [
    ((1, 1), "hard", "a 1x1 grid has no hard Cave puzzle"),
    ((7, 7), "extreme", "a 7x7 grid has no extreme Cave puzzle"),
    ((41, 10), "easy", "a generated Cave has 1..40 rows, got 41"),
])
def test_impossible_requests_are_refused_before_anything_runs(size, level, words):
    with pytest.raises(UsageError, match=words):
        make_plan("cave", level=level, size=size)


def test_a_request_no_try_meets_ends_within_its_budget():
    plan = make_plan("cave", level="medium", size=(2, 5))
    with pytest.raises(UsageError, match=r"no medium 2x5 cave puzzle found in 60 tries "
                                         r"\(seed 0, puzzle 1 of 1\)"):
        find_one(plan, 0)


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_corpus_grades_to_medium_and_hard():
    corpus = corpus_path("cave", "janko-dev.json")
    levels = [gen.grade(puzzle).level for _, puzzle in instances([corpus])[:30]]
    assert set(levels) <= {"medium", "hard"} and "hard" in levels


def test_the_driver_verifies_the_answer_a_generator_writes(monkeypatch):
    right = gen.attempt

    def wrong_answer(request, rng):
        found = right(request, rng)
        if found is None:
            return None
        meta = dict(found.instance.meta)
        inside = json.loads(meta["expect-solution"])["inside"]
        inside[0] = "".join("1" if bit == "0" else "0" for bit in inside[0])
        meta["expect-solution"] = json.dumps({"inside": inside})
        return gen.Generated(cave.Instance(found.instance.rows, found.instance.cols,
                                           found.instance.clues, tuple(meta.items())),
                             found.grade)

    plan = make_plan("cave", level="easy", size=(6, 6))
    assert find_one(plan, 0) is not None
    monkeypatch.setattr(gen, "attempt", wrong_answer)
    with pytest.raises(RuntimeError, match="wrote an expect-solution that verify rejects"):
        find_one(plan, 0)
