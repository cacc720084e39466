"""The Walsh-Hadamard transform: both implementations against the character sum."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.search import walsh


def _character_sum(values: list[int]) -> list[int]:
    return [sum(v * (-1) ** bin(u & z).count("1") for u, v in enumerate(values))
            for z in range(len(values))]


@pytest.fixture(params=["fast", "numpy"])
def implementation(request, monkeypatch):
    if request.param == "numpy":
        monkeypatch.setattr(walsh, "_fht", None)
        monkeypatch.setattr(walsh, "FAST", False)
    elif not walsh.FAST:
        pytest.skip("fht-cpu is not installed here (Linux wheels only): numpy alone runs")
    return request.param


ROWS = st.integers(1, 3).flatmap(lambda count: st.integers(0, 5).flatmap(
    lambda bits: st.lists(st.lists(st.integers(-6, 6), min_size=1 << bits, max_size=1 << bits),
                          min_size=count, max_size=count)))


def test_every_row_is_its_character_sum(implementation):
    @settings(max_examples=40, deadline=None)
    @given(rows=ROWS)
    def check(rows):
        table = np.array(rows, dtype=walsh.row_dtype(6 * len(rows[0])))
        assert walsh.transform_rows(table).astype(np.int64).tolist() == \
            [_character_sum(row) for row in rows]
    check()


def test_the_row_type_holds_every_partial_sum(implementation):
    """Float32 is exact below 2^24, int16 to 32767; beyond, the wider type."""
    small, large = walsh.row_dtype(1000), walsh.row_dtype(1 << 25)
    if implementation == "fast":
        assert (small, large) == (np.float32, np.float64)
    else:
        assert (small, walsh.row_dtype(40000), large) == (np.int16, np.int32, np.int32)
    row = np.zeros((1, 1 << 10), dtype=walsh.row_dtype(1 << 10))
    row[0, :] = 1  # every partial sum up to 2^10 at the top
    assert walsh.transform_rows(row)[0, 0] == 1 << 10


def test_the_one_row_numpy_transform_is_the_character_sum():
    values = [3, -1, 0, 2, 5, 0, -4, 1]
    assert walsh.walsh_hadamard(np.array(values)).tolist() == _character_sum(values)
