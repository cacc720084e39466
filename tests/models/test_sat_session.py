"""`SatSession.solve(assumptions)`: assumptions hold for one call, learnt clauses stay."""

from __future__ import annotations

import pytest

from twinsolve.core.limits import Deadline
from twinsolve.models import sat_common


@pytest.mark.parametrize("name", ["cadical195", "glucose4", "minisat22"])
def test_assumptions_hold_for_one_call_only(name):
    # x1 or x2, x1 -> x3: assuming not x2 forces x1 and x3; then assuming not x3 is UNSAT.
    with sat_common.SatSession(name, [[1, 2], [-1, 3]], Deadline(None)) as session:
        assert session.solve([-2]) is True
        assert {1, 3} <= session.model()
        assert session.solve([-2, -3]) is False
        assert session.solve() is True  # nothing assumed any more: satisfiable again
        session.add([-2])
        assert session.solve([-3]) is False  # the added clause stays, the old assumption not
        assert session.solve([3]) is True


def test_a_solver_that_is_not_incremental_refuses_assumptions():
    with sat_common.SatSession("kissat404", [[1, 2]], Deadline(None)) as session:
        with pytest.raises(ValueError, match="takes no assumptions"):
            session.solve([-1])
        assert session.solve() is True
