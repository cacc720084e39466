"""The harness's judgement: metadata and cross-back-end contradictions become `wrong`."""

from __future__ import annotations

from twinsolve.bench.records import RunRecord
from twinsolve.bench.terminal import totals
from twinsolve.bench.verdict import judge
from twinsolve.core.result import Status


def record(backend, status, objective=None, verified=None, meta=None, path="x.txt", **kw):
    return RunRecord(path, "lightsout", backend, status, objective, verified=verified,
                     metadata=meta or {}, stats={"nodes": 3}, **kw)


def test_worse_optimal_and_false_unsat_are_wrong():
    records = judge([
        record("hand", Status.OPTIMAL, 4, True),
        record("cpsat", Status.OPTIMAL, 6, True),
        record("sat", Status.UNSAT),
    ])
    assert [r.status for r in records] == [Status.OPTIMAL, Status.WRONG, Status.WRONG]
    assert "found 4" in records[1].message and "verified solution" in records[2].message


def test_metadata_expectations():
    meta = {"expect-objective": "5", "expect-unique": "true", "expect-solutions": "1"}
    records = judge([
        record("a", Status.OPTIMAL, 5, True, meta, unique=True, count=1),
        record("b", Status.OPTIMAL, 7, True, meta, path="y.txt"),
        record("c", Status.UNSAT, None, None, meta, path="z.txt"),
        record("d", Status.OPTIMAL, 5, True, meta, unique=False, path="w.txt"),
        record("e", Status.OPTIMAL, 5, True, meta, count=2, path="v.txt"),
    ])
    assert [r.status for r in records] == [Status.OPTIMAL] + [Status.WRONG] * 4


def test_agreeing_answers_stay_and_are_counted():
    records = judge([record("hand", Status.OPTIMAL, 4, True, wall_s=0.1),
                     record("hand", Status.TIMEOUT, path="slow.txt", wall_s=9.0),
                     record("sat", Status.OPTIMAL, 4, True, wall_s=0.3)])
    rows = {row["backend"]: row for row in totals(records)}
    assert rows["hand"]["solved"] == 1 and rows["hand"]["timeout"] == 1
    assert rows["hand"]["median_s"] == 0.1 and rows["sat"]["median_nodes"] == 3
    assert all(r.status is not Status.WRONG for r in records)


def test_solution_must_match_the_known_unique_one():
    meta = {"expect-unique": "true", "expect-solution": '{"inside": ["10", "11"]}'}
    records = judge([
        record("a", Status.SOLVED, None, True, meta, solution={"inside": ["10", "11"]}),
        record("b", Status.SOLVED, None, True, meta, path="y.txt",
               solution={"inside": ["11", "11"]}),
    ])
    assert [r.status for r in records] == [Status.SOLVED, Status.WRONG]


def test_a_known_unique_optimum_judges_optimal_answers_not_feasible_ones():
    meta = {"expect-unique": "true", "expect-solution": '{"presses":["11","00"]}'}
    other = {"presses": ["01", "10"]}
    records = judge([
        record("hand", Status.OPTIMAL, 2, True, meta, solution=other),
        record("hand:minimise=false", Status.FEASIBLE, 2, True, meta, solution=other,
               path="y.txt"),
        record("cpsat", Status.OPTIMAL, 2, True, meta, solution={"presses": ["11", "00"]},
               path="z.txt"),
    ])
    assert [r.status for r in records] == [Status.WRONG, Status.FEASIBLE, Status.OPTIMAL]
    assert records[0].message == "a different solution from the known unique one"
