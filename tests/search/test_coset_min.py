"""The fewest-ones search over GF(2) affine spaces, against brute force.

Spaces are drawn invariant under the dihedral group of a small square grid
(kernel vectors spanned by whole orbits, the particular symmetric plus a
kernel member), so the orbit reduction, the invariant tail, the symmetric
presearch and the chunk bound all take part when the chunks are shrunk.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.core.limits import Deadline
from twinsolve.search import coset_min, walsh
from twinsolve.search.coset_min import Best, Effort, fewest_digits, fewest_ones
from twinsolve.search.gf2 import pack_rows, solve_gf2
from twinsolve.search.walsh import walsh_hadamard


def _dihedral(side: int) -> list[np.ndarray]:
    index = np.arange(side * side).reshape(side, side)
    turned = [np.rot90(index, k) for k in (1, 2, 3)]
    turned += [index.T, index[::-1], index[:, ::-1], np.rot90(index, 2).T]
    return [t.reshape(-1) for t in turned]


def _independent(vectors: np.ndarray) -> np.ndarray:
    """A basis (rows) of the span of `vectors`."""
    if len(vectors) == 0:
        return vectors
    system = solve_gf2(vectors.T)  # pivot columns = independent rows of `vectors`
    return vectors[list(system.pivot_columns)]


@st.composite
def symmetric_spaces(draw, side_range=(3, 5), max_dimension=11):
    side = draw(st.integers(*side_range))
    cells = side * side
    group = _dihedral(side)
    seeds = draw(st.lists(st.lists(st.integers(0, 1), min_size=cells, max_size=cells)
                          .filter(any), min_size=1, max_size=3))
    orbit = [np.array(seed, dtype=np.uint8)[perm] for seed in seeds
             for perm in [np.arange(cells), *group]]
    kernel = _independent(np.array(orbit, dtype=np.uint8))[:max_dimension]
    kernel = _independent(np.array([v[perm] for v in kernel for perm in
                                    [np.arange(cells), *group]], dtype=np.uint8))
    if len(kernel) > max_dimension:  # keep brute force small: one orbit only
        kernel = _independent(np.array([np.array(seeds[0], np.uint8)[perm] for perm in
                                        [np.arange(cells), *group]], dtype=np.uint8))
    symmetric = np.array(draw(st.lists(st.integers(0, 1), min_size=cells, max_size=cells)),
                         dtype=np.uint8)
    for perm in group:  # OR over the orbit: a symmetric grid
        symmetric |= symmetric[perm]
    shift = draw(st.lists(st.integers(0, 1), min_size=len(kernel), max_size=len(kernel)))
    particular = (symmetric + np.array(shift, dtype=np.int64) @ kernel) % 2
    return particular.astype(np.uint8), kernel, group


def _brute(particular: np.ndarray, kernel: np.ndarray) -> tuple[int, int]:
    weights = [int(((particular + np.array(y, dtype=np.int64) @ kernel) % 2).sum())
               for y in itertools.product((0, 1), repeat=len(kernel))]
    return min(weights), weights.count(min(weights))


def _cells(particular: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    return pack_rows(np.column_stack([particular, kernel.T]), 1 + len(kernel))


def _member_weight(particular: np.ndarray, kernel: np.ndarray, choice) -> int:
    if choice is None:
        return int(particular.sum())
    return int(((particular + np.array(choice, dtype=np.int64) @ kernel) % 2).sum())


def _search(particular, kernel, symmetries, node_limit=None):
    best = Best(int(particular.sum()), None)
    budget = Effort(Deadline(None), node_limit, 0)
    complete = fewest_ones(_cells(particular, kernel), len(kernel), budget, best, symmetries)
    return complete, best, budget


@pytest.mark.parametrize("examples", sampled([20, 60]))  # the second under `slow`
def test_fewest_ones_and_its_ties_match_brute_force_with_the_group(examples):
    """Both transforms (fht-cpu where installed, numpy), chunks and presearch shrunk."""
    @settings(max_examples=examples, deadline=None)
    @given(space=symmetric_spaces(), tail=st.integers(0, 3), presearch=st.integers(0, 4),
           numpy_only=st.booleans())
    def check(space, tail, presearch, numpy_only):
        particular, kernel, group = space
        expected = _brute(particular, kernel)
        with pytest.MonkeyPatch.context() as patch:
            if numpy_only:
                patch.setattr(walsh, "_fht", None)
                patch.setattr(walsh, "FAST", False)
            patch.setattr(coset_min, "TAIL_BITS", tail)
            patch.setattr(coset_min, "PRESEARCH_BITS", presearch)
            patch.setattr(coset_min, "HEAD_BLOCK", 4)  # several blocks of heads
            complete, best, _ = _search(particular, kernel, group)
        assert complete
        assert (best.weight, best.ties) == expected
        assert _member_weight(particular, kernel, best.choice) == best.weight
    check()


@pytest.mark.parametrize("examples", sampled([10, 30]))  # the second under `slow`
def test_the_group_changes_the_work_not_the_answer(examples):
    """With and without the symmetries: the same fewest ones and ties (the saving is measured
    on Lights Out boards, where the orbits are large)."""
    @settings(max_examples=examples, deadline=None)
    @given(space=symmetric_spaces(), tail=st.integers(1, 3))
    def check(space, tail):
        particular, kernel, group = space
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(coset_min, "TAIL_BITS", tail)
            patch.setattr(coset_min, "PRESEARCH_BITS", 0)
            _, alone, plain = _search(particular, kernel, [])
            _, grouped, reduced = _search(particular, kernel, group)
        assert (alone.weight, alone.ties) == (grouped.weight, grouped.ties)
        assert plain.candidates and reduced.candidates
    check()


def test_a_permutation_that_moves_the_space_off_itself_is_refused():
    particular = np.array([1, 0, 0, 0], dtype=np.uint8)  # a 2 x 2 grid, one corner on
    kernel = np.array([[1, 1, 0, 0], [0, 0, 1, 1]], dtype=np.uint8)
    swap = np.array([0, 2, 1, 3])  # the transpose maps row pairs to column pairs
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(coset_min, "TAIL_BITS", 0)
        with pytest.raises(ValueError, match="does not map the space onto itself"):
            _search(particular, kernel, [swap])


def test_a_node_limit_stops_with_a_real_member_as_the_best_so_far():
    rng = np.random.default_rng(7)
    kernel = _independent(rng.integers(0, 2, (10, 40)).astype(np.uint8))
    particular = rng.integers(0, 2, 40).astype(np.uint8)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(coset_min, "TAIL_BITS", 6)  # 16 chunks of 64, too many keys to prune
        complete, best, budget = _search(particular, kernel, [], node_limit=100)
    assert not complete and budget.nodes <= 100
    assert _member_weight(particular, kernel, best.choice) == best.weight
    assert best.weight >= _brute(particular, kernel)[0]


@given(st.lists(st.integers(-5, 5), min_size=16, max_size=16))
def test_walsh_hadamard_is_the_character_sum(values):
    array = np.array(values, dtype=np.int32)
    expected = [sum(v * (-1) ** bin(i & z).count("1") for i, v in enumerate(values))
                for z in range(16)]
    assert walsh_hadamard(array.copy()).tolist() == expected


def test_fewest_digits_over_gf3_matches_brute_force():
    rng = np.random.default_rng(3)
    kernel = rng.integers(0, 3, (3, 12))
    particular = rng.integers(0, 3, 12)
    sums = [int(((particular + np.array(y) @ kernel) % 3).sum())
            for y in itertools.product(range(3), repeat=3)]
    best = Best(int(particular.sum()), None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(coset_min, "TAIL_TABLE", 3)  # heads walked one digit at a time
        complete = fewest_digits(np.column_stack([particular, kernel.T]), 3, 3,
                                 Effort(Deadline(None), None, 0), best)
    assert complete and (best.weight, best.ties) == (min(sums), sums.count(min(sums)))


# A Random seeded by hypothesis: one backed by its choices made a draw of every call
# (seconds in all).
@given(st.lists(st.integers(1, 255), min_size=1, max_size=6), st.integers(0, 255),
       st.randoms(use_true_random=True))
def test_a_span_has_one_canonical_basis_and_one_representative_per_coset(vectors, start, rng):
    """Two spanning sets of one subspace, and two points of one coset, give the same key."""
    first, second = coset_min._Span(), coset_min._Span()
    for vector in vectors:
        first.add(vector)
    mixed = list(vectors)
    for _ in range(10):  # the same span: add one vector to another, shuffle
        i, j = rng.randrange(len(mixed)), rng.randrange(len(mixed))
        if i != j:
            mixed[i] ^= mixed[j]
        rng.shuffle(mixed)
    for vector in mixed:
        second.add(vector)
    assert first.canonical() == second.canonical()
    shift = 0
    for vector in vectors:
        if rng.random() < 0.5:
            shift ^= vector
    assert first.representative(start) == second.representative(start ^ shift)


@pytest.mark.parametrize("examples", sampled([4, 12]))  # the second under `slow`
def test_walkers_in_two_processes_give_the_walk_in_one(examples):
    """The same fewest ones, ties and member, the head blocks dealt out to two forks (two
    processes started per example: the default run takes a few)."""
    @settings(max_examples=examples, deadline=None)
    @given(space=symmetric_spaces(side_range=(4, 5)), tail=st.integers(0, 2))
    def check(space, tail):
        particular, kernel, group = space
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(coset_min, "TAIL_BITS", tail)
            patch.setattr(coset_min, "HEAD_BLOCK", 2)  # several blocks even for a small head
            alone = _search(particular, kernel, group)
            best = Best(int(particular.sum()), None)
            complete = fewest_ones(_cells(particular, kernel), len(kernel),
                                   Effort(Deadline(None), None, 0), best, group, jobs=2)
        assert complete and alone[0]
        assert (best.weight, best.ties, best.choice) == \
            (alone[1].weight, alone[1].ties, alone[1].choice)
        assert (best.weight, best.ties) == _brute(particular, kernel)
    check()


def test_walkers_share_the_node_limit_and_stop_with_the_best_so_far():
    rng = np.random.default_rng(11)
    kernel = _independent(rng.integers(0, 2, (12, 60)).astype(np.uint8))
    particular = rng.integers(0, 2, 60).astype(np.uint8)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(coset_min, "TAIL_BITS", 6)
        patch.setattr(coset_min, "HEAD_BLOCK", 4)
        best = Best(int(particular.sum()), None)
        budget = Effort(Deadline(None), 300, 0)
        complete = fewest_ones(_cells(particular, kernel), len(kernel), budget, best, [],
                               jobs=2)
    assert not complete and budget.nodes <= 300
    assert _member_weight(particular, kernel, best.choice) == best.weight
