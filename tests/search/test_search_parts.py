"""`propagate.search` with independent parts (its AND/OR search) against brute force.

Random problems made of blocks of variables, each block with constraints of
its own (random tables of allowed pairs, kept by forward checking): with a
`parts` that splits the unfixed variables by block, the search counts and
lists exactly the solutions brute force finds, and the plain search finds;
it keeps and stops as asked (`keep`, `max_solutions`, `node_limit`), and
refuses a `parts` or a `choose_in` that breaks the contract.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search.propagate import Propagator, Store, mask_of, search


class Blocks:
    """Variables in blocks, random allowed pairs within a block, none across blocks."""

    def __init__(self, seed: int, sizes: list[int], values: int, density: float) -> None:
        rng = random.Random(seed)
        self.block = [b for b, size in enumerate(sizes) for _ in range(size)]
        self.values = values
        n = len(self.block)
        self.tables = {}
        for v, w in itertools.combinations(range(n), 2):
            if self.block[v] == self.block[w] and (w == v + 1 or rng.random() < 0.7):
                self.tables[v, w] = {(x, y) for x in range(values) for y in range(values)
                                     if rng.random() < density}
        self.split_calls = 0

    def propagator(self) -> Propagator:
        prop = Propagator(Store.uniform(len(self.block), range(self.values)))
        for (v, w), table in self.tables.items():
            prop.add_rule(self._checker(v, w, table), watches=(v, w))
        return prop

    @staticmethod
    def _checker(v: int, w: int, table: set[tuple[int, int]]):
        def rule(store: Store) -> None:  # forward checking of one table
            store.restrict(w, mask_of({y for x, y in table if store.contains(v, x)}))
            store.restrict(v, mask_of({x for x, y in table if store.contains(w, y)}))
        return rule

    def holds(self, values: tuple[int, ...]) -> bool:
        return all((values[v], values[w]) in table for (v, w), table in self.tables.items())

    def brute(self) -> list[tuple[int, ...]]:
        return [values for values in itertools.product(range(self.values), repeat=len(self.block))
                if self.holds(values)]

    def parts(self, store: Store, scope: list[int] | None) -> list[list[int]] | None:
        """The unfixed variables of the scope, by block, when in two blocks or more."""
        variables = range(len(store)) if scope is None else scope
        groups: dict[int, list[int]] = {}
        for v in variables:
            if not store.is_fixed(v):
                groups.setdefault(self.block[v], []).append(v)
        if len(groups) < 2:
            return None
        self.split_calls += 1
        return list(groups.values())


def lowest(store: Store, among: set[int]) -> int | None:
    return min(among)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), sizes=st.lists(st.integers(1, 3), min_size=1, max_size=4),
       values=st.integers(1, 3), density=st.floats(0.3, 0.9))
@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_parts_count_and_list_what_brute_force_finds(seed, sizes, values, density):
    blocks = Blocks(seed, sizes, values, density)
    expected = sorted(blocks.brute())
    plain = search(blocks.propagator(), max_solutions=None)
    apart = search(blocks.propagator(), max_solutions=None, parts=blocks.parts,
                   choose_in=lowest)
    assert plain.count == apart.count == len(expected)
    assert sorted(apart.solutions) == sorted(plain.solutions) == expected
    assert apart.exhausted and apart.limit_hit is None
    for wanted in (1, 2):
        found = search(blocks.propagator(), max_solutions=wanted, keep=1,
                       parts=blocks.parts, choose_in=lowest)
        assert found.count == min(wanted, len(expected))
        assert found.exhausted == (len(expected) < wanted)
        # unique: known with a second solution looked for, or with none at all
        assert found.unique == ((len(expected) == 1) if wanted == 2 or not expected else None)
        assert all(blocks.holds(values) for values in found.solutions)
        assert len(found.solutions) == min(1, len(expected))


def test_parts_are_searched_apart_and_multiply():
    # Three blocks of two variables, each pair different over three values: 6 ** 3
    # solutions. Apart, a block's pair is searched once per node that splits, not once per
    # way of completing the blocks before it.
    blocks = Blocks(0, [2, 2, 2], 3, 1.0)
    for v, w in blocks.tables:
        blocks.tables[v, w] = {(x, y) for x in range(3) for y in range(3) if x != y}
    plain = search(blocks.propagator(), max_solutions=None)
    apart = search(blocks.propagator(), max_solutions=None, keep=5, parts=blocks.parts,
                   choose_in=lowest)
    assert plain.count == apart.count == 6 ** 3
    assert blocks.split_calls == 1
    assert apart.nodes == 3 * (3 + 3 * 2) < plain.nodes  # a pair: 3 values, then 2 each
    assert len(apart.solutions) == 5 and len(set(apart.solutions)) == 5
    assert all(blocks.holds(values) for values in apart.solutions)
    assert apart.depth == 2  # one block's two decisions at a time
    assert plain.depth == 6


def test_a_part_without_a_completion_ends_the_node():
    # The first block, three variables pairwise different over two values, has no
    # solution (each value of its first variable fails at once); the second block, two
    # free variables, is then never searched.
    blocks = Blocks(0, [3, 2], 2, 1.0)
    different = {(x, y) for x in range(2) for y in range(2) if x != y}
    blocks.tables = {(0, 1): different, (0, 2): different, (1, 2): different}
    found = search(blocks.propagator(), max_solutions=None, parts=blocks.parts,
                   choose_in=lowest)
    assert found.count == 0 and found.exhausted and found.solutions == ()
    assert found.nodes == 2


def test_parts_stop_at_the_node_limit():
    blocks = Blocks(0, [3, 3, 3], 3, 1.0)
    found = search(blocks.propagator(), max_solutions=None, node_limit=5,
                   parts=blocks.parts, choose_in=lowest)
    assert found.limit_hit == "nodes" and not found.exhausted
    assert found.nodes == 5 and found.count == 0


def test_a_broken_contract_is_refused():
    blocks = Blocks(0, [2, 2], 2, 1.0)
    with pytest.raises(ValueError, match="go together"):
        search(blocks.propagator(), parts=blocks.parts)
    with pytest.raises(ValueError, match="split the unfixed variables"):
        search(blocks.propagator(), parts=lambda store, scope: [[0], [1]], choose_in=lowest)
    with pytest.raises(ValueError, match="not an unfixed variable"):
        search(blocks.propagator(), parts=blocks.parts, choose_in=lambda store, among: -1)
