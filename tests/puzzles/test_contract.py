"""Every registered puzzle holds the contract (`twinsolve.testing`, the kit a plugin's own
tests run too): declaration, round trips, parsing damaged text, verify against single-step
corruptions, every back-end against brute force, and the generator, picture and exports
where declared. A registered puzzle without a small-instance strategy fails here by name."""

from __future__ import annotations

import pytest

from twinsolve import testing
from twinsolve.core.registry import puzzles

NAMES = [entry.name for entry in puzzles()]


# The default run compares every back-end with brute on 7 examples of each puzzle, the slow
# run on the kit's full count (testing.EXAMPLES). Why 7: the first 7 of each puzzle hold
# every kind of case its first 12 hold (unsolvable, one solution, several, the cases a
# back-end declines), and the kit runs brute once per back-end on each: 12 took twice the time.
QUICK_EXAMPLES = 7


@pytest.mark.parametrize("check", testing.CHECKS, ids=testing.check_name)
@pytest.mark.parametrize("puzzle", NAMES)
def test_every_puzzle_holds_the_contract(puzzle, check):
    if check is testing.backends_agree:
        check(puzzle, QUICK_EXAMPLES)
    else:
        check(puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", NAMES)
def test_every_backend_agrees_with_brute_on_all_the_kits_examples(puzzle):
    testing.backends_agree(puzzle)


def test_a_puzzle_without_a_strategy_fails_the_kit_by_name(monkeypatch):
    from dataclasses import replace

    from twinsolve.core import registry
    from twinsolve.core.declaration import Absent

    table = registry._table()
    bare = replace(table.puzzles["clock"], strategy=Absent())
    monkeypatch.setitem(table.puzzles, "clock", bare)
    with pytest.raises(AssertionError, match="clock: declares no small-instance strategy"):
        testing.round_trip("clock")
