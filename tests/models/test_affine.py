"""`twinsolve.models.affine`: substitution into affine forms, and its CP-SAT / SAT encoders.

- On random chains of definitions over GF(K) (hypothesis), every free
  assignment, pushed through the forms, satisfies every defining equation.
- The encoders state exactly "target == form": enumerating the solutions of
  a model made of them gives one per free assignment, with the targets the
  forms' values (CP-SAT mod 2 and mod K, SAT mod 2); "form == 0" keeps
  exactly the free assignments that zero it.
- Bad definitions are refused.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model
from pysat.solvers import Solver

from twinsolve.models import sat_common
from twinsolve.models.affine import (
    Substitution,
    add_affine_cpsat,
    add_affine_sat,
    add_parity,
    support,
)


@st.composite
def chains(draw):
    """(K, free names, definitions): each defines a new variable from earlier ones."""
    k = draw(st.sampled_from((2, 3, 5, 7)))
    free = [f"x{i}" for i in range(draw(st.integers(1, 3)))]
    known, definitions = list(free), []
    for j in range(draw(st.integers(1, 5))):
        var = f"y{j}"
        used = draw(st.lists(st.sampled_from(known), max_size=3, unique=True))
        terms = {v: draw(st.integers(0, k - 1)) for v in used}
        terms[var] = draw(st.integers(1, k - 1))
        definitions.append((var, terms, draw(st.integers(0, k - 1))))
        known.append(var)
    return k, free, definitions


def _substitute(k, free, definitions):
    sub = Substitution(free, k)
    for var, terms, constant in definitions:
        sub.define(var, terms, constant)
    return sub


def _value(form: np.ndarray, values, k: int) -> int:
    return int((form[:-1] @ np.array(values) + form[-1]) % k)


@pytest.mark.parametrize("examples", sampled([20, 60]))  # the second under `slow`
def test_forms_satisfy_every_defining_equation(examples):
    @settings(max_examples=examples)
    @given(chains())
    def check(chain):
        k, free, definitions = chain
        sub = _substitute(k, free, definitions)
        for values in itertools.product(range(k), repeat=len(free)):
            value = {var: _value(sub.form(var), values, k) for var in
                     free + [d[0] for d in definitions]}
            assert [value[v] for v in free] == list(values)
            for var, terms, constant in definitions:
                assert (sum(c * value[v] for v, c in terms.items()) + constant) % k == 0, var
            # combine() is the form of a left-hand side: here the last equation, always 0.
            var, terms, constant = definitions[-1]
            assert _value(sub.combine(terms, constant), values, k) == 0
    check()


def _cpsat_solutions(model: cp_model.CpModel, variables) -> set[tuple[int, ...]]:
    class Collect(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.found: set[tuple[int, ...]] = set()

        def on_solution_callback(self) -> None:
            self.found.add(tuple(self.value(v) for v in variables))

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    collect = Collect()
    solver.solve(model, collect)
    return collect.found


@pytest.mark.parametrize("examples", sampled([15, 40]))  # the second under `slow`
def test_cpsat_encoding_is_exactly_the_forms(examples):
    @settings(max_examples=examples)
    @given(chains())
    def check(chain):
        k, free, definitions = chain
        sub = _substitute(k, free, definitions)
        model = cp_model.CpModel()
        new = model.new_bool_var if k == 2 else (lambda name: model.new_int_var(0, k - 1, name))
        xs = [new(name) for name in free]
        ys = [new(d[0]) for d in definitions]
        for (var, _, _), target in zip(definitions, ys, strict=True):
            add_affine_cpsat(model, sub.form(var), xs, k, target, var)
        expected = set()
        for values in itertools.product(range(k), repeat=len(free)):
            expected.add(values + tuple(_value(sub.form(d[0]), values, k) for d in definitions))
        assert _cpsat_solutions(model, xs + ys) == expected
    check()


@pytest.mark.parametrize("examples", sampled([15, 40]))  # the second under `slow`
def test_sat_encoding_is_exactly_the_forms(examples):
    @settings(max_examples=examples)
    @given(chains().filter(lambda chain: chain[0] == 2))
    def check(chain):
        k, free, definitions = chain
        sub = _substitute(k, free, definitions)
        enc = sat_common.Encoding()
        xs = [enc.var(name) for name in free]
        ys = [enc.var(d[0]) for d in definitions]
        for (var, _, _), target in zip(definitions, ys, strict=True):
            add_affine_sat(enc, sub.form(var), xs, target)
        found = set()
        with Solver(name="cadical195", bootstrap_with=enc.clauses) as solver:
            for model in solver.enum_models():
                true = set(model)
                found.add(tuple(int(v in true) for v in xs + ys))
        expected = {values + tuple(_value(sub.form(d[0]), values, 2) for d in definitions)
                    for values in itertools.product(range(2), repeat=len(free))}
        assert found == expected
    check()


@pytest.mark.parametrize("k", [2, 3])
def test_a_form_equal_to_zero_keeps_the_assignments_that_zero_it(k):
    sub = Substitution(["a", "b"], k)
    form = sub.combine({"a": 1, "b": k - 1}, 1)  # a - b + 1 == 0
    model = cp_model.CpModel()
    new = model.new_bool_var if k == 2 else (lambda name: model.new_int_var(0, k - 1, name))
    xs = [new("a"), new("b")]
    add_affine_cpsat(model, form, xs, k, name="check")
    assert _cpsat_solutions(model, xs) == {(a, b) for a in range(k) for b in range(k)
                                           if (a - b + 1) % k == 0}
    assert support(form) == [0, 1]


def test_constant_forms_and_empty_parities():
    model = cp_model.CpModel()
    add_parity(model, [], 0)  # xor of nothing is 0: nothing to add
    assert len(model.proto.constraints) == 0
    add_affine_cpsat(model, np.array([0, 0, 2]), [], 3)  # 2 == 0 mod 3: infeasible
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.INFEASIBLE


def test_bad_definitions_are_refused():
    sub = Substitution(["x"], 3)
    with pytest.raises(ValueError, match="does not involve"):
        sub.define("y", {"x": 1, "y": 3}, 0)  # 3 == 0 mod 3
    with pytest.raises(ValueError, match="already known"):
        sub.define("x", {"x": 1}, 0)
    with pytest.raises(KeyError):
        sub.define("z", {"w": 1, "z": 1}, 0)  # w was never defined
