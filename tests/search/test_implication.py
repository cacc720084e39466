"""A learned implication (`search.implication.Implication`): `var = value` implies each
narrowed variable within its mask, forwards once `var = value`, backwards (`var` is not
`value`) once one of them has no value of its mask left; nothing while `var` cannot be
`value`. Masks of several values (an island's label) as well as one; the lookahead's
learning, which adds these rules, is tested with the lookahead
(`test_lookahead.py`, `test_probing.py` against brute force).
"""

from __future__ import annotations

import pytest

from twinsolve.search.implication import Implication
from twinsolve.search.propagate import Contradiction, Store

# x0 = 2 implies x1 in {0, 1} and x2 = 3.
RULE = dict(var=0, value=2, narrowed={0: 0b100, 1: 0b011, 2: 0b1000})


def store() -> Store:
    return Store.uniform(3, range(4))


def test_forwards_once_var_takes_the_value():
    s = store()
    s.assign(0, 2)
    Implication(**RULE)(s)
    assert s.values(1) == [0, 1] and s.values(2) == [3]


@pytest.mark.parametrize("var, removed", [(1, [0, 1]), (2, [3])])
def test_backwards_once_a_narrowing_is_impossible(var, removed):
    s = store()
    for x in removed:
        s.remove(var, x)
    Implication(**RULE)(s)
    assert s.values(0) == [0, 1, 3]


def test_nothing_while_a_narrowing_stays_possible_or_var_cannot_take_the_value():
    s = store()
    s.remove(1, 0)  # x1 = 1 is still possible
    Implication(**RULE)(s)
    assert s.values(0) == [0, 1, 2, 3]
    s.remove(0, 2)
    s.remove(2, 3)  # would remove 2 from x0, were it there; forwards neither
    before = list(s.dom)
    Implication(**RULE)(s)
    assert s.dom == before


def test_forwards_into_an_impossible_narrowing_is_a_contradiction():
    s = store()
    s.remove(2, 3)
    s.assign(0, 2)
    with pytest.raises(Contradiction):
        Implication(**RULE)(s)


def test_it_watches_var_and_what_it_narrows_and_leaves_var_out():
    rule = Implication(**RULE)
    assert rule.watches == (0, 1, 2) and rule.narrowed == ((1, 0b011), (2, 0b1000))
