"""A stand-in external SAT solver for tests: `python dimacs_solver.py FILE.cnf`.

It reads DIMACS CNF like any solver binary would and answers in the SAT
Competition format (`s SATISFIABLE` + `v` lines, exit 10; `s UNSATISFIABLE`,
exit 20), so the `cmd:PROGRAM` back-end is tested through a real separate
process and a real file, without installing a solver binary.
"""

import sys

from pysat.formula import CNF
from pysat.solvers import Solver


def main() -> int:
    formula = CNF(from_file=sys.argv[1])
    with Solver(name="minisat22", bootstrap_with=formula.clauses) as solver:
        if not solver.solve():
            print("s UNSATISFIABLE")
            return 20
        print("s SATISFIABLE")
        print("v " + " ".join(map(str, solver.get_model())) + " 0")
        return 10


if __name__ == "__main__":
    raise SystemExit(main())
