"""A stand-in external SAT solver for tests, in either convention `cmd:` reads.

    python dimacs_solver.py IN.cnf                 a competition solver (Kissat, CaDiCaL):
                                                   `s SATISFIABLE` + `v` lines on stdout,
                                                   exit 10; `s UNSATISFIABLE`, exit 20
    python dimacs_solver.py [--minisat] IN.cnf OUT MiniSat with a result file: statistics
                                                   and `SATISFIABLE` on stdout, `SAT` and
                                                   the model (`1 -2 3 0`) or `UNSAT` in OUT
    python dimacs_solver.py --minisat IN.cnf       MiniSat without one: `SATISFIABLE` on
                                                   stdout and no model anywhere

It reads DIMACS CNF like any solver binary would, so the `cmd:PROGRAM` back-end
is tested through a real separate process and a real file, without installing
a solver binary.
"""

import sys

from pysat.formula import CNF
from pysat.solvers import Solver


def solved(path: str) -> list[int] | None:
    """A model of the CNF at `path`, or None when it has none."""
    formula = CNF(from_file=path)
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as solver:
        if not solver.solve():
            return None
        return solver.get_model() or []


def competition(path: str) -> int:
    model = solved(path)
    if model is None:
        print("s UNSATISFIABLE")
        return 20
    print("s SATISFIABLE")
    print("v " + " ".join(map(str, model)) + " 0")
    return 10


def minisat(path: str, result: str | None) -> int:
    model = solved(path)
    print("============================[ Problem Statistics ]=============================")
    print("restarts              : 1")
    if result is not None:
        with open(result, "w") as out:
            out.write("UNSAT\n" if model is None else "SAT\n" + " ".join(map(str, model)) + " 0\n")
    print()
    print("UNSATISFIABLE" if model is None else "SATISFIABLE")
    return 20 if model is None else 10


def main(args: list[str]) -> int:
    as_minisat = args[:1] == ["--minisat"]
    files = args[1:] if as_minisat else args
    if len(files) == 2 or as_minisat:
        return minisat(files[0], files[1] if len(files) == 2 else None)
    return competition(files[0])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
