"""Variables defined by linear equations mod K, as affine forms over a few free ones.

The problem. A system of linear equations over GF(K) (K prime) in which the
equations can be ordered so that each one brings in exactly one new
variable: Lights Out's light chasing, where light (r, c) is the last light
the press below it can still fix. Choose the free variables, then each such
equation *defines* its new variable as an affine form over the free ones,
and the equations left over constrain the free variables alone. A solver
then searches over the free variables only; everything else follows by
substitution (forward elimination done once, in Python, at build time).

The idea in code. `Substitution(free, K)` holds every known variable as a
form: a vector of `len(free)` coefficients and a constant, reduced mod K.
`define(var, terms, constant)` reads the equation sum(coef * x) + constant
== 0 (mod K), in which `var` is the only unknown, and stores the form of
`var`; `combine(terms, constant)` is the form of a left-hand side, for the
equations left over. The encoders state "target == form" or "form == 0":

- CP-SAT, K = 2: one `add_bool_xor` (`add_parity`);
- CP-SAT, K > 2: a linear equation with an integer slack counting the
  wrap-arounds (`add_modular`), sum(coef * x) + constant == K * slack;
- SAT (K = 2): one XOR in CNF (`sat_common.Encoding.add_xor`, chained Tseitin).

Example: x0 free, y defined by x0 + y + 1 == 0 and z by y + z == 0 (mod 2):

>>> sub = Substitution(["x0"], 2)
>>> sub.define("y", {"x0": 1, "y": 1}, 1).tolist()
[1, 1]
>>> sub.define("z", {"y": 1, "z": 1}, 0).tolist()
[1, 1]
>>> sub.combine({"x0": 1, "z": 1}, 0).tolist()   # x0 + z == 1: no solution
[0, 1]

Reference: the chase as forward elimination is folklore of Lights Out
(J. Scherphuis, jaapsch.net/puzzles/lights.htm; K. Sutner, "Linear
cellular automata and the Garden-of-Eden", 1989).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
from ortools.sat.python import cp_model

from . import sat_common

__all__ = ["Substitution", "support", "add_parity", "add_modular", "add_affine_cpsat",
           "add_affine_sat"]


class Substitution:
    """Known variables as affine forms over `free`, mod a prime `modulus`.

    A form is a numpy int64 vector: `len(free)` coefficients, then the constant.
    """

    def __init__(self, free: Sequence[Hashable], modulus: int) -> None:
        self.modulus = modulus
        self.width = len(free)
        self._forms: dict[Hashable, np.ndarray] = {}
        for index, var in enumerate(free):
            unit = np.zeros(self.width + 1, dtype=np.int64)
            unit[index] = 1
            self._forms[var] = unit

    def __contains__(self, var: Hashable) -> bool:
        return var in self._forms

    def form(self, var: Hashable) -> np.ndarray:
        """The form of a free or defined variable (KeyError for an unknown one)."""
        return self._forms[var]

    def combine(self, terms: Mapping[Hashable, int], constant: int) -> np.ndarray:
        """The form of sum(coef * var) + constant over known variables, reduced mod K."""
        total = np.zeros(self.width + 1, dtype=np.int64)
        total[-1] = constant
        for var, coef in terms.items():
            total += coef * self._forms[var]
        return total % self.modulus

    def define(self, var: Hashable, terms: Mapping[Hashable, int], constant: int) -> np.ndarray:
        """Store and return the form of `var` fixed by sum(coef * x) + constant == 0.

        `terms` holds `var` with a coefficient that is not 0 mod K, and otherwise
        known variables only.
        """
        if var in self._forms:
            raise ValueError(f"{var!r} is already known")
        coef = terms.get(var, 0) % self.modulus
        if not coef:
            raise ValueError(f"the equation does not involve {var!r} (mod {self.modulus})")
        rest = self.combine({v: c for v, c in terms.items() if v != var}, constant)
        form = (-rest * pow(coef, -1, self.modulus)) % self.modulus
        self._forms[var] = form
        return form


def support(form: np.ndarray) -> list[int]:
    """The indices of the free variables a form depends on."""
    return np.flatnonzero(form[:-1]).tolist()


# ---------------------------------------------------------------- CP-SAT

def add_parity(model: cp_model.CpModel, literals: Sequence[cp_model.IntVar],
               parity: int) -> None:
    """xor(literals) == parity.

    Why the negation: `add_bool_xor` demands an odd number of true literals;
    negating one literal flips the parity, which states "even". No literal at
    all: the xor of nothing is 0, so parity 1 adds the empty XOR (infeasible,
    as it should be) and parity 0 adds nothing.
    """
    if not literals:
        if parity % 2:
            model.add_bool_xor([])
        return
    literals = list(literals)
    if not parity % 2:
        literals[0] = literals[0].negated()
    model.add_bool_xor(literals)


def add_modular(model: cp_model.CpModel, terms: Mapping[cp_model.IntVar, int], constant: int,
                modulus: int, name: str) -> None:
    """sum(coef * var) + constant == 0 (mod K), variables in 0..K-1, coefficients >= 0.

    Why a slack: CP-SAT reasons best over linear equations; the slack
    `wraps[name]` counts how many times the sum wraps round, between 0 and
    the most it can reach.
    """
    most = constant + (modulus - 1) * sum(terms.values())
    slack = model.new_int_var(0, most // modulus, f"wraps[{name}]")
    total = cp_model.LinearExpr.weighted_sum(list(terms), list(terms.values()))
    model.add(total + constant == modulus * slack)


def add_affine_cpsat(model: cp_model.CpModel, form: np.ndarray,
                     free: Sequence[cp_model.IntVar], modulus: int,
                     target: cp_model.IntVar | None = None, name: str = "") -> None:
    """target == form (mod K), or form == 0 without a target; `free` in form order.

    Over GF(2) the variables are Booleans and this is one XOR; mod K they are
    integers in 0..K-1 and target == form is form + (K - 1) * target == 0.
    """
    columns = support(form)
    constant = int(form[-1])
    if modulus == 2:
        literals = [free[j] for j in columns] + ([target] if target is not None else [])
        add_parity(model, literals, constant)
        return
    terms = {free[j]: int(form[j]) for j in columns}
    if target is not None:
        terms[target] = modulus - 1
    if not terms:
        if constant:
            model.add_bool_or([])  # a non-zero constant that nothing can cancel
        return
    add_modular(model, terms, constant, modulus, name)


# ---------------------------------------------------------------- SAT

def add_affine_sat(enc: sat_common.Encoding, form: np.ndarray, free: Sequence[int],
                   target: int | None = None) -> None:
    """target == form over GF(2), or form == 0 without a target: one XOR in CNF."""
    literals = [free[j] for j in support(form)] + ([target] if target is not None else [])
    enc.add_xor(literals, int(form[-1]) % 2)
