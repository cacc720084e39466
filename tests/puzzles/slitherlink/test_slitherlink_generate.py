"""Slitherlink generation and grading: exact levels, minimal clues, seeds, symmetry.

- Each level gives, from a seed, the same puzzle every time: unique (its
  `expect-solution` verifies and `hand` proves it unique), graded exactly
  to the level, and minimal for it (lifting any clue leaves a puzzle the
  level's techniques cannot finish).
- `--symmetric` places clues in 180-degree pairs; random loops are loops.
- The corpus grades: every puzzle gets a level (a sample by default).
"""

from __future__ import annotations

import json
import random

import pytest
from conftest import ROOT, sampled
from slitherlink_corpus import janko

from twinsolve.core.errors import UsageError
from twinsolve.core.generation import Request
from twinsolve.core.limits import Limits
from twinsolve.core.run import load_file
from twinsolve.puzzles.slitherlink import generate, hand, rules


def generated(level, size=6, symmetric=False, seed=0):
    request = Request("slitherlink", level, size, size, symmetric)
    for attempt in range(generate.ATTEMPTS):
        found = generate.attempt(request, random.Random(f"test {level} {seed} {attempt}"))
        if found is not None:
            return found
    raise AssertionError(f"no {level} puzzle in {generate.ATTEMPTS} tries")


@pytest.mark.parametrize("level", generate.LEVELS)
def test_each_level_is_unique_exact_and_minimal(level):
    found = generated(level)
    puzzle = found.instance
    solution = json.loads(dict(puzzle.meta)["expect-solution"])
    assert rules.verify(puzzle, solution) == []
    result = hand.solve(puzzle, Limits(unique=True))
    assert result.solution == solution and result.unique is True
    assert found.grade.level == level == generate.grade(puzzle).level
    model = hand.build(puzzle, generate.LEVEL_TECHNIQUES[level])
    clues = [(r, c) for r, c, _ in rules.clue_cells(puzzle)]
    for lifted in clues:
        rest = [cell for cell in clues if cell != lifted]
        assert model.deduce(rest)[0] is not hand.Deduced.SOLVED, (level, lifted)


def test_the_same_seed_gives_the_same_puzzle():
    assert generated("medium", seed=3).instance == generated("medium", seed=3).instance


def test_symmetric_clues_come_in_pairs():
    puzzle = generated("hard", size=7, symmetric=True).instance
    cells = {(r, c) for r, c, _ in rules.clue_cells(puzzle)}
    assert cells == {(6 - r, 6 - c) for r, c in cells}


@pytest.mark.parametrize("seed", range(20))
def test_random_loops_are_one_loop(seed):
    rng = random.Random(seed)
    inside = generate.random_loop(rng.randint(1, 9), rng.randint(1, 9), rng,
                                  rng.uniform(0.1, 0.9))
    assert rules.loop_problems(rules.loop_sides(inside)) == []


@pytest.mark.parametrize("rows,cols,level,words", [
    (2, 2, "hard", "a 2x2 grid has no hard Slitherlink puzzle"),
    (31, 5, "easy", "1..30 rows, got 31"),
])
def test_impossible_requests_are_refused(rows, cols, level, words):
    with pytest.raises(UsageError, match=words):
        generate.check(Request("slitherlink", level, rows, cols))


@pytest.mark.parametrize("keys", sampled([["4_4x4", "5_4x4", "13_5x5", "15_5x5", "25_6x6"],
                                          None]), ids=["five", "all"])
def test_the_corpus_grades(corpus, keys):
    levels = {key: generate.grade(instance).level for key, instance in janko(corpus, keys)}
    assert None not in levels.values()
    if keys:
        assert levels == {"4_4x4": "easy", "5_4x4": "medium", "13_5x5": "hard",
                          "15_5x5": "extreme", "25_6x6": "extreme"}  # 25: with branching


# ---------------------------------------------------------------- the shipped sets

def shipped_files():
    return sorted((ROOT / "instances" / "slitherlink" / "graded").glob("*.txt"))


@pytest.mark.parametrize("path", sampled(shipped_files()), ids=lambda p: p.name)
def test_shipped_puzzles_are_unique_and_of_their_level(path):
    puzzle = load_file(path)
    meta = dict(puzzle.meta)
    result = hand.solve(puzzle, Limits(unique=True))
    assert result.unique is True and result.solution == json.loads(meta["expect-solution"])
    assert generate.grade(puzzle).level == meta["difficulty"]


@pytest.mark.slow
def test_the_shipped_sets_regenerate_byte_for_byte(cli, tmp_path):
    for shipped in generate.SHIPPED:
        rows, cols = shipped.size
        proc = cli("generate", "slitherlink", "--difficulty", shipped.level, "--size",
                   f"{rows}x{cols}", "--count", str(shipped.count), "--seed", str(shipped.seed),
                   "--out", tmp_path, "--quiet", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
    made = sorted(tmp_path.glob("*.txt"))
    assert [p.name for p in made] == [p.name for p in shipped_files()]
    for new, old in zip(made, shipped_files(), strict=True):
        assert new.read_bytes() == old.read_bytes(), new.name
