"""Nurikabe's generator: exact levels, unique, clue-minimal for the level, symmetric.

Each level's first puzzle (as the driver would seed it) is unique (a SAT
proof), settles with its level's techniques and not with the level below,
carries its answer, and no clue can be lifted with the level's solver still
settling the puzzle; `--symmetric` gives 180-degree-symmetric clues. The
same seed gives the same text. Requests that cannot be met are refused in
one line.
"""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, first_generated, sampled

from twinsolve.core.errors import UsageError
from twinsolve.core.generation import Request
from twinsolve.core.limits import Limits
from twinsolve.core.run import run
from twinsolve.puzzles.nurikabe import generate as gen
from twinsolve.puzzles.nurikabe import rules as nurikabe


def _lifted(instance, r, c):
    grid = [list(row) for row in instance.clues]
    grid[r][c] = nurikabe.EMPTY
    return nurikabe.Instance(instance.rows, instance.cols, tuple(map(tuple, grid)))


@pytest.mark.parametrize("symmetric", [False, True], ids=["plain", "symmetric"])
@pytest.mark.parametrize("level", sampled(gen.LEVELS, keep=lambda level: level != "hard"))
def test_a_generated_puzzle_is_unique_exact_and_clue_minimal(level, symmetric):
    request = Request("nurikabe", level, 8, 8, symmetric)
    found = first_generated(gen, request, f"test {level} {symmetric}")
    instance = found.instance
    meta = dict(instance.meta)
    assert meta["expect-unique"] == "true" and found.grade.level == level
    answer = json.loads(meta["expect-solution"])
    assert nurikabe.verify(instance, answer) == []
    assert run(instance, "sat", Limits(timeout=60, unique=True)).unique is True
    d = gen.LEVELS.index(level)
    assert gen.settle(instance, gen.LEVEL_TECHNIQUES[level])[0] == answer
    if d:
        assert gen.settle(instance, gen.LEVEL_TECHNIQUES[gen.LEVELS[d - 1]])[0] is None
    clues = nurikabe.clue_cells(instance)
    for r, c, _ in clues:
        lifted = _lifted(instance, r, c)
        if symmetric:
            lifted = _lifted(lifted, instance.rows - 1 - r, instance.cols - 1 - c)
        assert gen.settle(lifted, gen.LEVEL_TECHNIQUES[level])[0] is None, (r, c)
    if symmetric:
        cells = {(r, c) for r, c, _ in clues}
        assert cells == {(instance.rows - 1 - r, instance.cols - 1 - c) for r, c in cells}


def test_the_same_seed_gives_the_same_puzzle():
    request = Request("nurikabe", "easy", 7, 7)
    first = first_generated(gen, request, "same")
    again = first_generated(gen, request, "same")
    assert nurikabe.format(first.instance) == nurikabe.format(again.instance)


@pytest.mark.parametrize("rows, cols, level, words", [
    (1, 5, "easy", "2..30 rows"), (5, 31, "easy", "2..30 columns"),
    (3, 3, "hard", "no hard Nurikabe puzzle"),
])
def test_impossible_requests_are_refused(rows, cols, level, words):
    with pytest.raises(UsageError, match=words):
        gen.check(Request("nurikabe", level, rows, cols))


def test_grade_says_why_a_puzzle_has_no_level():
    several = gen.grade(nurikabe.parse("nurikabe 2 2\n2 -\n- -\n"))
    assert several.level is None and several.evidence["verdict"] == "several solutions"
    none = gen.grade(nurikabe.parse("nurikabe 2 2\n1 -\n- 1\n"))
    assert none.level is None and none.evidence["verdict"] == "no solution"


# ---------------------------------------------------------------- the shipped sets

def shipped_files():
    return sorted((ROOT / "instances" / "nurikabe" / "graded").glob("*.txt"))


@pytest.mark.parametrize("path", sampled(shipped_files()), ids=lambda p: p.name)
def test_shipped_puzzles_are_unique_and_of_their_level(path):
    instance = nurikabe.parse(path.read_text(), str(path))
    meta = dict(instance.meta)
    assert gen.grade(instance).level == meta["difficulty"]
    result = run(instance, "sat", Limits(timeout=60, unique=True))
    assert result.unique is True and result.solution == json.loads(meta["expect-solution"])


@pytest.mark.slow
def test_the_shipped_sets_regenerate_byte_for_byte(cli, tmp_path):
    for shipped in gen.SHIPPED:
        rows, cols = shipped.size
        proc = cli("generate", "nurikabe", "--difficulty", shipped.level, "--size",
                   f"{rows}x{cols}", "--count", str(shipped.count), "--seed", str(shipped.seed),
                   "--out", str(tmp_path), "--quiet")
        assert proc.returncode == 0, proc.stderr
    made = sorted(tmp_path.glob("*.txt"))
    assert [p.name for p in made] == [p.name for p in shipped_files()]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(made, shipped_files(),
                                                                strict=True))
