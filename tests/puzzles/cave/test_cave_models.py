"""Cave's CP-SAT and SAT back-ends, and the generic connectivity constraints under them.

Real puzzles (janko.at, puzz.link) must come back as their published unique
solutions; small random grids must agree with the exhaustive `brute` on
status, uniqueness and the number of solutions; `graph_constraints` must
accept exactly the connected vertex sets (networkx is the oracle); the lazy
cuts must never remove a connected solution; the exported CNF and CP-SAT
model must solve to verified answers outside twinsolve.
"""

from __future__ import annotations

import itertools
import json

import networkx as nx
import pytest
from cave_corpus import puzzlink_cases
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model
from pysat.formula import CNF, IDPool
from pysat.solvers import Solver
from strategies import SMALL_INSTANCES

from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.core.run import run
from twinsolve.models import graph_constraints as gc
from twinsolve.models.export import write_cnf, write_cpsat
from twinsolve.puzzles.cave import models as cave_models
from twinsolve.puzzles.cave import puzzlekit as puzzlekit_json
from twinsolve.puzzles.cave import puzzlink
from twinsolve.puzzles.cave import rules as cave

BACKENDS = ("cpsat", "sat")
UNIQUE = Limits(unique=True, timeout=120)
ASKED = Limits(unique=True, count=True, timeout=120)


def _expected(instance: cave.Instance) -> dict:
    return json.loads(dict(instance.meta)["expect-solution"])


def _check_unique(instance: cave.Instance, backend: str, expected: dict, label: str) -> None:
    result = run(instance, backend, UNIQUE, catch=False)
    assert result.status is Status.SOLVED, (label, result.message)
    assert result.verified is True, label
    assert result.solution == expected, label
    assert result.unique is True, label


# ---------------------------------------------------------------- real puzzles

PARTS = 4  # the 140 puzzles in interleaved quarters, so parallel test workers share them
SAMPLE = 35  # every 35th puzzle in the default run; the quarters, all 140, under `slow`


@pytest.mark.parametrize("part", sampled(["sample", *range(PARTS)]))
@pytest.mark.parametrize("backend", BACKENDS)
def test_janko_puzzles_have_their_published_unique_solution(corpus, backend, part):
    pairs = puzzlekit_json.read_dataset(corpus("cave", "janko-dev.json"))
    assert len(pairs) == 140
    for key, instance in pairs[::SAMPLE] if part == "sample" else pairs[part::PARTS]:
        _check_unique(instance, backend, _expected(instance), key)


@pytest.mark.parametrize("backend", BACKENDS)
def test_puzzlink_urls_have_their_published_unique_solution(corpus, backend):
    cases = puzzlink_cases(corpus)
    assert len(cases) == 3
    for url, expected in cases:
        _check_unique(puzzlink.decode_url(url), backend, expected, url)


def test_other_pysat_solver_works(corpus):
    url, expected = puzzlink_cases(corpus)[2]
    _check_unique(puzzlink.decode_url(url), "sat:glucose4", expected, url)


# ---------------------------------------------------------------- small grids vs brute

@pytest.mark.parametrize("examples", sampled([12, 40]))  # the long run under `slow`
def test_small_grids_agree_with_brute(examples):
    @settings(max_examples=examples)
    @given(SMALL_INSTANCES["cave"])
    def agrees(instance):
        oracle = run(instance, "brute", ASKED, catch=False)
        assert oracle.status in (Status.SOLVED, Status.UNSAT)
        for backend in BACKENDS:
            result = run(instance, backend, ASKED, catch=False)
            assert (result.status, result.unique, result.count) == \
                (oracle.status, oracle.unique, oracle.count), backend
            assert result.solution is None or result.verified is True

    agrees()


@pytest.mark.parametrize("examples", sampled([8, 25]))  # the long run under `slow`
def test_every_connectivity_encoding_agrees_with_brute(examples):
    @settings(max_examples=examples)
    @given(SMALL_INSTANCES["cave"])
    def agrees(instance):
        oracle = run(instance, "brute", UNIQUE, catch=False)
        specs = [f"cpsat:connectivity={m}" for m in cave_models.CPSAT_METHODS]
        specs += [f"sat:connectivity={m}" for m in cave_models.SAT_METHODS]
        for spec in specs:
            result = run(instance, spec, UNIQUE, catch=False)
            assert (result.status, result.unique) == (oracle.status, oracle.unique), spec
            assert result.solution is None or result.verified is True, spec

    agrees()


def test_count_on_a_grid_with_many_solutions():
    instance = cave.parse("cave 3 4\n- - - -\n- 3 - -\n- - - -\n")
    oracle = run(instance, "brute", ASKED, catch=False)
    assert oracle.count > 10
    for backend in BACKENDS:
        assert run(instance, backend, ASKED, catch=False).count == oracle.count


# ---------------------------------------------------------------- lazy cuts

# Both relaxations (no connectivity, implied clauses kept) have solutions; the real
# puzzles have none: "2 - - - 2" makes two separate two-cell caves, and the ring of
# clues encloses the four centre cells the 4s keep outside, a hole.
RELAXATION_ONLY = ("cave 1 5\n2 - - - 2\n", "cave 4 4\n? 4 4 ?\n? - - ?\n? - - ?\n? 4 4 ?\n")


@pytest.mark.parametrize("text", RELAXATION_ONLY)
def test_lazy_cuts_prove_unsat_when_only_the_relaxation_is_satisfiable(text):
    instance = cave.parse(text)
    enc, _ = cave_models.build_sat(instance)
    with Solver(name="cadical195", bootstrap_with=enc.clauses) as solver:
        assert solver.solve()  # the CNF without connectivity has a model
    assert run(instance, "brute", UNIQUE, catch=False).status is Status.UNSAT
    result = run(instance, "sat", UNIQUE, catch=False)
    assert result.status is Status.UNSAT
    assert result.stats.counters["cuts"] > 0
    assert run(instance, "cpsat", UNIQUE, catch=False).status is Status.UNSAT


def _random_graph(draw, max_nodes: int):
    n = draw(st.integers(1, max_nodes))
    pairs = list(itertools.combinations(range(n), 2))
    edges = [pair for pair in pairs if draw(st.booleans())]
    neighbours: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        neighbours[u].append(v)
        neighbours[v].append(u)
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    return neighbours, graph


def _connected_subsets(graph: nx.Graph, root: int | None) -> set[frozenset[int]]:
    """Every vertex set inducing a connected subgraph (the empty set too, without a root)."""
    found = set()
    for bits in itertools.product((False, True), repeat=graph.number_of_nodes()):
        chosen = frozenset(v for v, on in enumerate(bits) if on)
        if root is not None and root not in chosen:
            continue
        if not chosen or nx.is_connected(graph.subgraph(chosen)):
            found.add(chosen)
    return found


@settings(max_examples=60)
@given(st.data())
def test_separator_cuts_are_sound_and_cut_off_the_model(data):
    neighbours, graph = _random_graph(data.draw, 7)
    n = len(neighbours)
    root = data.draw(st.one_of(st.none(), st.integers(0, n - 1)))
    values = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if root is not None:
        values[root] = True
    cuts = gc.separator_cuts(values, neighbours, root, required=[v for v in range(n)
                                                                  if values[v] and v % 3 == 0])
    model_set = frozenset(v for v in range(n) if values[v])
    assert (cuts == []) == (model_set in _connected_subsets(graph, root))

    def holds(cut: gc.Cut, chosen: frozenset[int]) -> bool:
        return any(v not in chosen for v in cut.off) or any(v in chosen for v in cut.on)

    for cut in cuts:
        assert not holds(cut, model_set)  # the model violates every cut it yields
    required = {v for v in range(n) if values[v] and v % 3 == 0}
    for chosen in _connected_subsets(graph, root):
        if required <= chosen:  # sound: no connected set with the required vertices is cut
            assert all(holds(cut, chosen) for cut in cuts)


# ---------------------------------------------------------------- graph_constraints

def _feasible_sets(model: cp_model.CpModel, active: list, n: int) -> set[frozenset[int]]:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    found = set()
    for bits in itertools.product((False, True), repeat=n):
        model.clear_assumptions()
        model.add_assumptions([lit if on else lit.negated() for lit, on in zip(active, bits,
                                                                                strict=True)])
        if solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            found.add(frozenset(v for v, on in enumerate(bits) if on))
    return found


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
@settings(max_examples=12)
@given(st.data())
def test_connected_accepts_exactly_the_connected_sets(data):
    neighbours, graph = _random_graph(data.draw, 5)
    n = len(neighbours)
    root = data.draw(st.one_of(st.none(), st.integers(0, n - 1)))
    expected = _connected_subsets(graph, root)
    for method in gc.METHODS:
        model = cp_model.CpModel()
        active = [model.new_bool_var(f"a{v}") for v in range(n)]
        gc.connected(model, active, neighbours, root, method)
        assert _feasible_sets(model, active, n) == expected, method


@settings(max_examples=40)
@given(st.data())
def test_connected_clauses_accept_exactly_the_connected_sets(data):
    neighbours, graph = _random_graph(data.draw, 7)
    n = len(neighbours)
    root = data.draw(st.one_of(st.none(), st.integers(0, n - 1)))
    pool = IDPool(start_from=n + 1)
    active = list(range(1, n + 1))
    clauses = gc.connected_clauses(active, neighbours, lambda key: pool.id(key), root)
    found = set()
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        for bits in itertools.product((False, True), repeat=n):
            if solver.solve(assumptions=[v if on else -v for v, on in zip(active, bits,
                                                                          strict=True)]):
                found.add(frozenset(v - 1 for v, on in zip(active, bits, strict=True) if on))
    assert found == _connected_subsets(graph, root)


def test_connected_rejects_an_unknown_method():
    model = cp_model.CpModel()
    with pytest.raises(ValueError, match="unknown connectivity method"):
        gc.connected(model, [model.new_bool_var("a")], [[]], method="magic")


# ---------------------------------------------------------------- exports

def _solve_exported(instance: cave.Instance, path) -> dict | None:
    export = cave_models.sat_export(instance)
    write_cnf(export, path)
    cnf = CNF(from_file=str(path))
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as solver:
        if not solver.solve():
            return None
        return export.decode({lit for lit in solver.get_model() if lit > 0})


def test_exported_cnf_solves_to_the_published_solution(corpus, tmp_path):
    for url, expected in puzzlink_cases(corpus):
        instance = puzzlink.decode_url(url)
        solution = _solve_exported(instance, tmp_path / "cave.cnf")
        assert cave.verify(instance, solution) == []
        assert solution == expected  # the puzzles are unique
    assert "complete encoding" in (tmp_path / "cave.cnf").read_text()[:2000]


@pytest.mark.parametrize("text", RELAXATION_ONLY)
def test_exported_cnf_is_complete_not_a_relaxation(text, tmp_path):
    assert _solve_exported(cave.parse(text), tmp_path / "unsat.cnf") is None


@settings(max_examples=15)
@given(SMALL_INSTANCES["cave"])
def test_exported_cnf_has_exactly_the_brute_solutions(instance):
    export = cave_models.sat_export(instance)
    inside = list(range(1, instance.cells + 1))  # variable r*cols+c+1 is inside(r, c)
    count = 0
    with Solver(name="cadical195", bootstrap_with=export.clauses) as solver:
        while solver.solve():
            true = {lit for lit in solver.get_model() if lit > 0}
            assert cave.verify(instance, export.decode(true)) == []
            solver.add_clause([-v if v in true else v for v in inside])
            count += 1
    assert count == run(instance, "brute", ASKED, catch=False).count


def test_exported_cpsat_model_file_loads_and_solves(corpus, tmp_path):
    url, expected = puzzlink_cases(corpus)[0]
    instance = puzzlink.decode_url(url)
    write_cpsat(cave_models.cpsat_export(instance), tmp_path / "cave.pbtxt")
    model = cp_model.CpModel()
    model.proto.parse_text_format((tmp_path / "cave.pbtxt").read_text())
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model) == cp_model.OPTIMAL
    names = {var.name: i for i, var in enumerate(model.proto.variables)}
    rows = ["".join(str(solver.value(model.get_bool_var_from_proto_index(
        names[f"inside[{r},{c}]"]))) for c in range(instance.cols)) for r in range(instance.rows)]
    assert {"inside": rows} == expected


# ---------------------------------------------------------------- limits and the peer

@pytest.mark.parametrize("backend", ["sat", "cpsat", "cpsat:connectivity=lazy",
                                     "sat:connectivity=layers"])
def test_no_time_left_is_a_timeout_not_a_wrong_answer(backend):
    instance = puzzlink.decode_url("https://puzz.link/p?cave/6/6/g3q2h3jbj3i3i2g")
    result = run(instance, backend, Limits(unique=True, timeout=1e-9), catch=False)
    assert result.status is Status.TIMEOUT and result.unique is None


@pytest.mark.parametrize("backend", ["cpsat:connectivity=magic", "sat:connectivity=flow",
                                     "sat:bogus=1"])
def test_unknown_option_is_a_usage_error(backend):
    with pytest.raises(UsageError):
        run(cave.parse("cave 1 2\n2 -\n"), backend, UNIQUE)


def test_puzzlekit_peer_solves_like_ours(corpus):
    pytest.importorskip("puzzlekit")
    from twinsolve.core.run import check
    from twinsolve.puzzles.cave.peer import solve_puzzlekit

    url, expected = puzzlink_cases(corpus)[0]
    result = check(puzzlink.decode_url(url), solve_puzzlekit(puzzlink.decode_url(url), UNIQUE))
    assert result.status is Status.SOLVED and result.verified is True
    assert result.solution == expected and result.unique is None  # it cannot tell
    unsat = solve_puzzlekit(cave.parse(RELAXATION_ONLY[0]), UNIQUE)
    assert unsat.status is Status.UNSAT


def test_puzzlekit_missing_is_unsupported(monkeypatch):
    from twinsolve.models import puzzlekit_peer
    from twinsolve.puzzles.cave import peer as peers

    monkeypatch.setattr(puzzlekit_peer.importlib.util, "find_spec", lambda name: None)
    result = peers.solve_puzzlekit(cave.parse("cave 1 2\n2 -\n"), UNIQUE)
    assert result.status is Status.UNSUPPORTED and "pip install puzzlekit" in result.message
