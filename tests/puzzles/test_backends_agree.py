"""Every back-end of every puzzle against the exhaustive `brute` oracle.

On random small instances all back-ends must agree with `brute` on the status
(solvable or not), the optimal objective, uniqueness and the solution count,
and every solution they return must pass the puzzle's `verify` (the runner
marks a rejected one `wrong`, which fails here). A back-end may answer
`unsupported` only where its registry entry's `supports` says so, and it
must really answer some of the generated cases: a back-end that declined
everything would otherwise pass without being compared at all.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from strategies import SMALL_INSTANCES

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.registry import puzzle
from twinsolve.core.result import Status
from twinsolve.core.run import run

CASES = [(name, backend.name) for name in SMALL_INSTANCES
         for backend in puzzle(name).default_backends()]
ASKED = Limits(timeout=60, unique=True, count=True)


@pytest.mark.parametrize(("puzzle_name", "backend"), CASES)
def test_backend_agrees_with_brute(puzzle_name, backend):
    declared = puzzle(puzzle_name).backend(backend)
    answered = []

    @settings(max_examples=60)
    @given(SMALL_INSTANCES[puzzle_name])
    def check(instance):
        oracle = run(instance, "brute", ASKED, catch=False)
        assert oracle.status in (Status.OPTIMAL, Status.SOLVED, Status.UNSAT)
        result = run(instance, backend, ASKED, catch=False)
        reason = declared.unsupported_reason(instance)
        if result.status is Status.UNSUPPORTED:
            assert reason is not None, f"{backend} declined a case its entry supports: " \
                                       f"{result.message}"
            assert result.message == reason
            return
        assert reason is None, f"{backend} answered {result.status} where it is unsupported"
        answered.append(instance)
        assert result.status is oracle.status, result.message
        if result.solution is not None:
            assert result.verified is True
        assert result.objective == oracle.objective
        assert result.unique == oracle.unique
        assert result.count == oracle.count

    check()
    assert answered, f"{backend} answered none of the generated {puzzle_name} cases"


@pytest.mark.parametrize(("puzzle_name", "backend"), CASES)
def test_backend_refuses_an_option_it_does_not_read(puzzle_name, backend):
    @settings(max_examples=1)
    @given(SMALL_INSTANCES[puzzle_name])
    def check(instance):
        with pytest.raises(UsageError, match="no option 'colour'"):
            run(instance, f"{backend}:colour=blue", ASKED, catch=False)

    check()
