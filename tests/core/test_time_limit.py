"""The time limit bounds the whole run, and drawings stay small (twinsolve.core.time_limit,
twinsolve.core.drawing).

The hard stop: a loop that never looks at its deadline still ends, an
`except Exception` cannot keep it going, the previous SIGALRM handler and timer
come back, limits nest, and a thread is left to its cooperative checks. Then
the runs the adversarial report found unbounded: an empty 60x60 Cave on
CP-SAT spent seconds building its model, a 1000x1000 Lights Out chased to the
end past its limit, and a 500,000-step clock plan took 27 s to draw.
"""

from __future__ import annotations

import gc
import signal
import subprocess
import sys
import threading
import time
import types

import numpy as np
import pytest
from pysat.examples.genhard import PHP  # n + 1 pigeons in n holes: UNSAT, hard for CDCL

from twinsolve.core import drawing
from twinsolve.core.limits import Deadline, Limits
from twinsolve.core.result import Status
from twinsolve.core.run import load, run
from twinsolve.core.time_limit import (
    TimeLimit,
    TimeLimitReached,
    checkpoint,
    interruptible,
    remaining,
    set_phase,
)
from twinsolve.puzzles.cave import rules as cave
from twinsolve.puzzles.chess import rules as chess
from twinsolve.puzzles.clock import rules as clock
from twinsolve.puzzles.jugs import rules as jugs
from twinsolve.puzzles.lightsout import rules as lightsout
from twinsolve.puzzles.mirror import rules as mirror

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")


def _spin(seconds: float) -> None:
    """A pure-Python busy loop that never checks any deadline."""
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        pass


@pytest.fixture
def alarm_state():
    """Leave SIGALRM as found, whatever a test did."""
    handler = signal.getsignal(signal.SIGALRM)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, handler)


# ---------------------------------------------------------------- the hard stop

def test_the_hard_stop_ends_a_loop_that_ignores_its_deadline(alarm_state):
    start = time.perf_counter()
    with pytest.raises(TimeLimitReached) as stopped:
        with TimeLimit(0.2, grace=0.1) as limit:
            set_phase("spinning")
            _spin(30)
    elapsed = time.perf_counter() - start
    assert stopped.value.limit is limit
    assert str(stopped.value) == "time limit of 0.2 s reached while spinning"
    assert 0.3 <= elapsed < 3, elapsed  # at timeout + grace, not after 30 s


def test_except_exception_cannot_swallow_the_stop(alarm_state):
    swallowed = 0
    with pytest.raises(TimeLimitReached):
        with TimeLimit(0.1, grace=0.05):
            for _ in range(100_000):
                try:
                    _spin(0.05)
                except Exception:  # noqa: BLE001 - what a careless back-end does
                    swallowed += 1
    assert swallowed == 0


def test_the_previous_handler_and_timer_come_back(alarm_state):
    rang: list[int] = []
    mine = signal.signal(signal.SIGALRM, lambda signum, frame: rang.append(signum))
    mine = signal.getsignal(signal.SIGALRM)
    signal.setitimer(signal.ITIMER_REAL, 20.0)
    with TimeLimit(5):
        assert signal.getsignal(signal.SIGALRM) is not mine
        assert signal.getitimer(signal.ITIMER_REAL)[0] <= 20.0
    assert signal.getsignal(signal.SIGALRM) is mine
    assert 15.0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 20.0
    with pytest.raises(TimeLimitReached):
        with TimeLimit(0.05, grace=0.05):
            _spin(10)
    assert signal.getsignal(signal.SIGALRM) is mine
    assert 15.0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 20.0
    assert rang == []


def test_an_outer_alarm_due_first_still_rings_for_its_own_handler(alarm_state):
    rang: list[int] = []
    signal.signal(signal.SIGALRM, lambda signum, frame: rang.append(signum))
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    with TimeLimit(10):
        end = time.perf_counter() + 5
        while not rang and time.perf_counter() < end:
            pass
    assert rang == [signal.SIGALRM]
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0  # rung: not armed again


def test_nested_limits_each_stop_at_their_own_time(alarm_state):
    original = signal.getsignal(signal.SIGALRM)
    with TimeLimit(30) as outer:
        with pytest.raises(TimeLimitReached) as inner_stop:
            with TimeLimit(0.05, grace=0.05) as inner:
                _spin(10)
        assert inner_stop.value.limit is inner
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 25  # the outer's time again
    with pytest.raises(TimeLimitReached) as outer_stop:
        with TimeLimit(0.05, grace=0.05) as outer:
            with TimeLimit(30):
                _spin(10)
    assert outer_stop.value.limit is outer
    assert signal.getsignal(signal.SIGALRM) is original
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_in_a_thread_only_the_cooperative_checks_apply(alarm_state):
    original = signal.getsignal(signal.SIGALRM)
    seen: dict[str, object] = {}

    def work() -> None:
        with TimeLimit(0.05, grace=0.01):
            seen["handler"] = signal.getsignal(signal.SIGALRM)
            seen["timer"] = signal.getitimer(signal.ITIMER_REAL)[0]
            _spin(0.2)  # past timeout + grace: nothing may interrupt it
            seen["spun"] = True
            try:
                checkpoint()
            except TimeLimitReached as stop:
                seen["checkpoint"] = str(stop)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen["handler"] is original and seen["timer"] == 0 and seen["spun"]
    assert seen["checkpoint"] == "time limit of 0.05 s reached while running"


def test_no_limit_means_no_timer_and_no_stop(alarm_state):
    original = signal.getsignal(signal.SIGALRM)
    with TimeLimit(None):
        assert signal.getsignal(signal.SIGALRM) is original
        assert signal.getitimer(signal.ITIMER_REAL)[0] == 0
        checkpoint()


def test_run_turns_a_hanging_backend_into_timeout(alarm_state):
    start = time.perf_counter()
    result = run(lightsout.Instance.all_on(2), "fault-hang", Limits(timeout=0.2))
    assert time.perf_counter() - start < 3
    assert result.status is Status.TIMEOUT
    assert result.message == "time limit of 0.2 s reached while running the back-end"
    assert result.stats.build_s == 0 and result.stats.solve_s >= 0.2  # the time it took


# ---------------------------------------------------------------- runs that overran

@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_an_empty_60x60_cave_on_cpsat_stops_at_its_limit(alarm_state):
    instance = cave.parse("cave 60 60\n" + ("- " * 60 + "\n") * 60)
    start = time.perf_counter()
    result = run(instance, "cpsat", Limits(timeout=1))
    elapsed = time.perf_counter() - start
    assert result.status is Status.TIMEOUT
    assert elapsed < 3, elapsed  # was 6.3 s of model building, then the solver's own load


def test_an_unrooted_flow_model_grows_linearly_with_the_grid():
    # Without clues the cave has no root: each vertex's supply once held the whole
    # count of active cells, n terms per vertex (1.6e9 terms, 4.1 GB at 200x200).
    from twinsolve.puzzles.cave.models import build_cpsat

    instance = cave.parse("cave 30 30\n" + ("- " * 30 + "\n") * 30)
    model, _ = build_cpsat(instance, "flow")
    terms = sum(len(c.linear.vars) for c in model.proto.constraints)
    assert terms < 100 * instance.rows * instance.cols, terms  # was 955 a cell at 30x30


def test_the_lights_out_chase_counts_against_the_limit(alarm_state):
    # The elimination method's chase of 2000 rows takes about a second; the limit and its
    # grace, 0.26 s. (The polynomial method solves this board in 30 ms.)
    result = run(lightsout.Instance.all_on(2000), "hand:method=elimination",
                 Limits(timeout=0.01))
    assert result.status is Status.TIMEOUT  # was `optimal`, after the whole chase
    assert result.message == "time limit of 0.01 s reached while building the model"
    assert result.stats.build_s >= 0.01


def test_solution_from_grid_reads_digits_as_before():
    grid = np.random.default_rng(1).integers(0, 3, (7, 9))
    slow = ["".join(str(int(v)) for v in row) for row in grid]
    assert lightsout.solution_from_grid(grid) == {"presses": slow}
    assert lightsout.solution_from_grid([(1, 0), (0, 2)]) == {"presses": ["10", "02"]}


# ---------------------------------------------------------------- drawings

def test_shown_keeps_short_sequences_whole_and_elides_long_ones():
    assert drawing.shown(drawing.SEQUENCE_LIMIT) == list(range(drawing.SEQUENCE_LIMIT))
    long = drawing.shown(500_000)
    gap = long[drawing.HEAD]
    assert isinstance(gap, drawing.Gap) and gap.label("steps") == "… 499,990 more steps …"
    assert long[:drawing.HEAD] == list(range(drawing.HEAD))
    assert long[-drawing.TAIL:] == list(range(500_000 - drawing.TAIL, 500_000))


def test_a_500000_step_clock_plan_is_drawn_fast_and_elided():
    instance = clock.parse("clock 999983\nstart 0\ntarget 500000\nsteps 1\n")
    plan = {"steps": [1] * 500_000, "times": list(range(500_001))}
    start = time.perf_counter()
    plain = clock.render(instance, plan).plain
    assert time.perf_counter() - start < 1
    assert "0 -(+1)-> 1 -(+1)-> 2" in plain
    assert "-(+1)-> 5 … 499,990 more steps … 499995 -(+1)-> 499996" in plain
    assert plain.rstrip().endswith("500000   (500000 moves)")
    assert len(plain) < 500


def test_long_jugs_and_chess_move_lists_are_elided():
    instance = jugs.parse("jugs\ncapacities 3 5\nstart 0 0\nmoves fill empty pour\n"
                          "goal holds 4\n")
    moves = ["fill 0", "empty 0"] * 50
    states = [[0, 0]] + [[3, 0], [0, 0]] * 50
    plain = jugs.render(instance, {"moves": moves, "states": states}).plain
    # the render counts jugs from 1: the JSON's "fill 0" reads "fill 1"
    assert "… 90 more moves …" in plain and plain.count("fill 1") + plain.count("empty 1") == 10
    board = chess.parse("chess 2 2\nRN\n..\n")
    plain = chess.render(board, {"moves": [f"m{i}" for i in range(60)]}).plain
    assert "m0 m1 m2 m3 m4 … 50 more moves … m55" in plain and "m30" not in plain


def test_grids_over_the_limit_are_summarised():
    board = lightsout.Instance.all_on(200, 150)
    presses = {"presses": ["1" + "0" * 149] * 200}
    plain = lightsout.render(board, presses).plain
    assert "200x150 grid, too large to draw (over 100x100): 30,000 lights on, " \
           "200 cells pressed" in plain
    assert len(plain) < 500
    assert "●" in lightsout.render(lightsout.Instance.all_on(100)).plain  # drawn
    big_cave = cave.parse("cave 101 3\n4 - -\n" + "- - -\n" * 100)
    plain = cave.render(big_cave, {"inside": ["111"] + ["100"] * 100}).plain
    assert "101x3 grid, too large to draw (over 100x100): 1 clues, 103 cells inside" in plain
    maze = mirror.parse("mirror 1 120\nS?/" + "." * 116 + "T\n")
    plain = mirror.render(maze, {"flips": [[0, 1]]}).plain
    assert ("1x120 grid, too large to draw (over 100x100): 1 fixed mirrors, "
            "1 rotatable mirrors, 1 lasers, 1 targets, 1 flipped") in plain


def test_solve_prints_a_long_plan_elided(tmp_path, cli):
    (tmp_path / "long.txt").write_text("clock 1000\nstart 0\ntarget 500\nsteps 1\n")
    proc = cli("solve", "long.txt", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "… 490 more steps …" in proc.stdout and "optimal" in proc.stdout
    assert len(proc.stdout) < 2000
    assert load(tmp_path / "long.txt").hours == 1000


def test_a_ring_while_entering_or_leaving_the_block_rings_again_and_leaving_disarms(
        alarm_state):
    # The alarm may ring inside __enter__ or __exit__ (a loaded machine). Raising there
    # would leave a block that never closes (its limit active, stopping every later
    # checkpoint of the process) or an exit half done: it rings again in the block instead.
    from twinsolve.core.time_limit import RERING_S, _active

    limit = TimeLimit(5)
    limit.__enter__()
    inside_enter = types.SimpleNamespace(f_code=TimeLimit.__enter__.__code__)
    limit._on_alarm(signal.SIGALRM, inside_enter)  # no raise
    assert limit in _active()
    assert signal.getitimer(signal.ITIMER_REAL)[1] == pytest.approx(RERING_S)
    with pytest.raises(TimeLimitReached):
        limit._on_alarm(signal.SIGALRM, None)  # the next ring, in the block
    inside_exit = types.SimpleNamespace(f_code=TimeLimit.__exit__.__code__)
    limit._on_alarm(signal.SIGALRM, inside_exit)  # no raise
    limit.__exit__(TimeLimitReached, None, None)
    assert limit not in _active()
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    checkpoint()  # nothing active: nothing to stop


class _SpinsWhenCollected:
    """An object whose __del__ spins: a stop raised in there would be dropped."""

    def __init__(self, finished: list[str]) -> None:
        self.finished = finished

    def __del__(self) -> None:
        _spin(0.3)
        self.finished.append("__del__")


@pytest.fixture
def unraisable(monkeypatch):
    """Every exception the interpreter drops ("Exception ignored in ...") while the test
    runs: none may be a stop."""
    dropped: list[BaseException] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda info: dropped.append(info.exc_value))
    return dropped


def test_a_stop_never_lands_inside_a_del(alarm_state, unraisable):
    finished: list[str] = []
    start = time.perf_counter()
    with pytest.raises(TimeLimitReached):
        with TimeLimit(0.05, grace=0.0):
            _SpinsWhenCollected(finished)  # collected at once: the stop is due inside
            _spin(3.0)                     # it lands here, after __del__ has finished
    assert finished == ["__del__"] and unraisable == []
    assert time.perf_counter() - start < 1.5


def test_a_stop_never_lands_inside_a_gc_callback(alarm_state, unraisable):
    calls = {"started": 0, "finished": 0}

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            calls["started"] += 1
            _spin(0.004)  # half the time is spent in here: the stop often falls due inside
            calls["finished"] += 1

    gc.callbacks.append(callback)
    try:
        with pytest.raises(TimeLimitReached):
            with TimeLimit(0.1, grace=0.0):
                for _ in range(1000):  # 8 s of work: the stop must come long before
                    gc.collect()
                    _spin(0.004)
    finally:
        gc.callbacks.remove(callback)
    assert calls["started"] == calls["finished"] and 0 < calls["started"] < 200
    assert unraisable == []


def test_a_stop_waits_until_a_native_solver_wrapper_has_returned(alarm_state):
    # Code of a native-solver wrapper (PySAT's delete frees the solver, then clears its
    # pointer) is never cut in two: the stop lands once it has returned.
    wrapper = types.ModuleType("pysat.stand_in")
    exec("def call(spin, log):\n    spin(0.4)\n    log.append('returned')\n",
         wrapper.__dict__)
    log: list[str] = []
    with pytest.raises(TimeLimitReached):
        with TimeLimit(0.05, grace=0.0):
            wrapper.call(_spin, log)
            log.append("back in twinsolve")
            _spin(3.0)
    assert log == ["returned", "back in twinsolve"]


def test_once_raised_the_stop_rings_no_more_so_cleanup_runs_whole(alarm_state, unraisable):
    cleaned: list[bool] = []
    with pytest.raises(TimeLimitReached):
        with TimeLimit(0.05, grace=0.0):
            try:
                _spin(3.0)
            finally:
                _spin(0.3)  # six rings' worth of cleanup
                cleaned.append(True)
    assert cleaned == [True] and unraisable == []


def test_which_frames_a_stop_may_land_in():
    here = sys._getframe()
    assert interruptible(here) and interruptible(None)
    inside_exit = types.SimpleNamespace(f_code=TimeLimit.__exit__.__code__, f_back=None,
                                        f_globals={})
    assert not interruptible(inside_exit)
    wrapper = types.SimpleNamespace(f_code=here.f_code, f_back=None,
                                    f_globals={"__name__": "ortools.sat.python.cp_model"})
    assert not interruptible(types.SimpleNamespace(f_code=here.f_code, f_back=wrapper,
                                                   f_globals={"__name__": "twinsolve.x"}))


def test_native_calls_get_the_time_left_before_the_hard_stop(alarm_state):
    assert remaining() is None and Deadline(None).within_run().remaining() is None
    with TimeLimit(2.0, grace=0.5):
        left = Deadline(None).within_run().remaining()
        assert 2.3 < left <= 2.5
        own = Deadline(1.0)
        assert own.within_run() is own  # the earlier end wins
        with TimeLimit(0.5, grace=0.0):
            assert remaining() <= 0.5


@pytest.mark.parametrize("solver", ["cadical195", "minisat22", "glucose4", "kissat404",
                                    "lingeling"])
def test_a_solver_without_a_deadline_is_stopped_by_the_run_around_it(alarm_state, solver):
    # What a generator's incremental oracle is: a solver kept with Deadline(None). The run's
    # limit stops it through its own slices, its interrupt or its forked child (Glucose 4.1
    # was up to 1.5 s late, Kissat and Lingeling ran on), and the stop is raised once it has
    # returned, never as an "out of time" answer the caller could take for a proof.
    from twinsolve.models.sat_common import SatSession

    start = time.perf_counter()
    with pytest.raises(TimeLimitReached):
        with TimeLimit(0.3, grace=0.0):
            with SatSession(solver, PHP(11).clauses, Deadline(None)) as session:
                session.solve()
    assert time.perf_counter() - start < 1.0


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_generate_stops_at_its_timeout_and_frees_its_solvers(tmp_path):
    # It printed its refusal, then died freeing a half-deleted CaDiCaL (exit 139).
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "twinsolve", "generate", "cave", "--size",
                           "40x40", "--difficulty", "extreme", "--timeout", "1", "--out", "g",
                           "--quiet"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == ["twinsolve: puzzle 1 of 1: no extreme 40x40 cave puzzle "
                                        "found within --timeout 1 s (seed 0)"]
    assert time.perf_counter() - start < 8
    assert not (tmp_path / "g").exists()
