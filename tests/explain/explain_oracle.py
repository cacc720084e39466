"""An independent check that a Cave step's premises force its conclusion (issue 28).

The premises alone (each clue named among them with its count, each other
cell with its value) and the Cave rules (one connected cave of at least one
cell, every outside cell reaching the edge), plus the negation of the
step's conclusion, must be unsatisfiable. The encoding is this file's own:
each clue's count is a cardinality constraint over its arms' "sees"
literals (PySAT's totalizer), switched on by a selector literal when the
clue is a premise; connectivity, of the cave and of the outside with a
border vertex, is the complete BFS-layer CNF with no root fixed
(`models.graph_constraints.connected_clauses`), and no 2x2 checkerboard is
stated too (a theorem of the rules, to help the solver). UNSAT: the premises
force the conclusion; a model is a counter-example, a connected shading
without holes that keeps the premises and breaks the conclusion.
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from twinsolve.models.graph_constraints import connected_clauses, grid_neighbours
from twinsolve.puzzles.cave.rules import clue_cells

_DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class CaveOracle:
    """One incremental solver per instance; `forces(premises, conclusion)` per step."""

    def __init__(self, instance) -> None:
        rows, cols = instance.rows, instance.cols
        self.cols, self.size = cols, rows * cols
        self.top = self.size
        self.selector: dict[int, int] = {}
        clauses = [list(range(1, self.size + 1))]  # the cave has at least one cell
        for r, c, number in clue_cells(instance):
            selector = self._new()
            self.selector[r * cols + c] = selector
            clauses.append([-selector, r * cols + c + 1])
            if number is not None:
                clauses += [clause + [-selector] for clause in self._count(r, c, number, rows)]
        inner = [tuple(n) for n in grid_neighbours(rows, cols)]
        outer = [n + ((self.size,) if len(n) < 4 else ()) for n in inner]
        outer.append(tuple(v for v in range(self.size) if len(inner[v]) < 4))
        border = self._new()
        clauses.append([border])
        pool = IDPool(start_from=self.top + 1)
        inside = list(range(1, self.size + 1))
        clauses += connected_clauses(inside, inner, lambda key: pool.id(("in", *key)))
        clauses += connected_clauses([-v for v in inside] + [border], outer,
                                     lambda key: pool.id(("out", *key)), self.size)
        self.top = pool.top
        for r in range(rows - 1):
            for c in range(cols - 1):
                a, b = r * cols + c + 1, r * cols + c + 2
                d, e = a + cols, b + cols
                clauses += [[-a, -e, b, d], [-b, -d, a, e]]
        self.solver = Solver(name="glucose4", bootstrap_with=clauses)

    def _new(self) -> int:
        self.top += 1
        return self.top

    def _count(self, r: int, c: int, number: int, rows: int) -> list[list[int]]:
        """The clue sees exactly number - 1 other cells: "sees k" literals per arm."""
        clauses, sees = [], []
        for dr, dc in _DELTAS:
            previous, rr, cc = None, r + dr, c + dc
            while 0 <= rr < rows and 0 <= cc < self.cols:
                cell = rr * self.cols + cc + 1
                if previous is None:
                    literal = cell
                else:
                    literal = self._new()
                    clauses += [[-literal, previous], [-literal, cell],
                                [literal, -previous, -cell]]
                sees.append(literal)
                previous, rr, cc = literal, rr + dr, cc + dc
        want = number - 1
        if want > len(sees):
            return clauses + [[]]
        if want == 0:
            return clauses + [[-literal] for literal in sees]
        encoded = CardEnc.equals(lits=sees, bound=want, top_id=self.top,
                                 encoding=EncType.totalizer)
        self.top = max(self.top, encoded.nv)
        return clauses + encoded.clauses

    def forces(self, premises: dict[int, int], clues: set[int], conclusion: dict[int, int]
               ) -> bool:
        """Whether the clues in `clues` and the cells of `premises` (cell -> 0/1) force
        every cell of `conclusion` to its value."""
        assumptions = [self.selector[cell] for cell in sorted(clues)]
        assumptions += [cell + 1 if value else -(cell + 1) for cell, value in premises.items()]
        active = self._new()
        self.solver.add_clause([-active] + [-(cell + 1) if value else cell + 1
                                            for cell, value in conclusion.items()])
        assumptions.append(active)
        return not self.solver.solve(assumptions=assumptions)

    def close(self) -> None:
        self.solver.delete()


def check_steps(instance, explanation) -> list[str]:
    """The steps whose premises do not force their conclusion (empty: all do)."""
    from twinsolve.puzzles.cave.rules import inside_grid

    cols = instance.cols
    truth = [int(v) for row in inside_grid(explanation.solution) for v in row]
    clue_at = {r * cols + c for r, c, _ in clue_cells(instance)}

    def cell(key: str) -> int:
        r, c = key[1:].split("c")
        return int(r) * cols + int(c)

    oracle = CaveOracle(instance)
    wrong = []
    try:
        for number, step in enumerate(explanation.steps, 1):
            used = [cell(key) for key in step.premises]
            clues = {v for v in used if v in clue_at}
            premises = {v: truth[v] for v in used if v not in clue_at}
            conclusion = {cell(key): value for key, value in step.decided}
            if not oracle.forces(premises, clues, conclusion):
                wrong.append(f"step {number}: {step.reason}")
    finally:
        oracle.close()
    return wrong
