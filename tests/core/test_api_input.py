"""The Python API refuses bad input with `UsageError` / `InstanceError`, never a raw error.

`Limits` checks its fields, `solve` its back-end and keywords, `load` tells a
file name from instance text and never opens what is not a regular file, and
Ctrl-C stops a solver blocked in C code at once, as a KeyboardInterrupt.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

import twinsolve
from twinsolve import InstanceError, Limits, Result, Status, UsageError
from twinsolve.bench.records import RunRecord
from twinsolve.bench.verdict import against_metadata
from twinsolve.core.limits import Deadline
from twinsolve.system.interrupts import interrupt_deferred, on_interrupt

ROOT = Path(__file__).resolve().parents[2]
ALL_ON = "lightsout 3 3\n111\n111\n111\n"


@pytest.fixture
def board():
    return twinsolve.load(ALL_ON)


# ---------------------------------------------------------------- Limits

@pytest.mark.parametrize("field, value, words", [
    ("timeout", "x", "timeout must be a finite number of seconds >= 0, got 'x'"),
    ("timeout", float("nan"), "got nan"),
    ("timeout", float("inf"), "got inf"),
    ("timeout", -1, "timeout must be"),
    ("timeout", True, "timeout must be"),
    ("node_limit", "x", "node_limit must be a whole number >= 0 or None, got 'x'"),
    ("node_limit", 2.5, "node_limit must be"),
    ("node_limit", -1, "node_limit must be"),
    ("seed", 2**70, "seed must be a whole number 0..2**63-1"),
    ("seed", -1, "seed must be"),
    ("seed", "3", "seed must be"),
    ("unique", "yes", "unique must be True or False"),
    ("count", 1, "count must be True or False"),
    ("options", ["workers"], "options must be a dict"),
    ("options", {1: 2}, "options must be a dict keyed by option names"),
])
def test_limits_refuse_bad_fields(field, value, words):
    with pytest.raises(UsageError) as caught:
        Limits(**{field: value})
    assert words in str(caught.value)


@pytest.mark.parametrize("fields", [
    {}, {"timeout": 0}, {"timeout": 2.5}, {"timeout": 10}, {"node_limit": 0},
    {"node_limit": 10**12}, {"seed": 2**63 - 1}, {"unique": True, "count": True},
    {"options": {"solver": "glucose4"}},
])
def test_limits_accept_good_fields(fields):
    assert Limits(**fields).options == fields.get("options", {})


@pytest.mark.parametrize("limits", [{"timeout": "x"}, {"timeout": float("nan")},
                                    {"node_limit": "x"}, {"seed": 2**70}])
def test_solve_refuses_bad_limits(board, limits):
    with pytest.raises(UsageError):
        twinsolve.solve(board, **limits)


# ---------------------------------------------------------------- solve

@pytest.mark.parametrize("backend", [None, 3, ["hand"]])
def test_solve_refuses_a_backend_that_is_no_spec_string(board, backend):
    with pytest.raises(UsageError, match="back-end spec string"):
        twinsolve.solve(board, backend=backend)


def test_solve_refuses_an_unknown_keyword_and_suggests_one(board):
    with pytest.raises(UsageError, match="no limit 'timout'; did you mean 'timeout'"):
        twinsolve.solve(board, timout=5)
    with pytest.raises(UsageError, match="no limit 'colour'"):
        twinsolve.solve(board, colour="blue")


def test_solve_still_solves(board):
    result = twinsolve.solve(board, "hand", timeout=30, unique=True)
    assert result.status is Status.OPTIMAL and result.objective == 5 and result.unique


# ---------------------------------------------------------------- load

def test_load_names_a_missing_file(tmp_path):
    with pytest.raises(InstanceError) as caught:
        twinsolve.load("nope/missing.txt")
    assert caught.value.source == "nope/missing.txt" and caught.value.message == "no such file"
    for name in ("missing.txt", "missing.json", str(tmp_path / "missing")):
        with pytest.raises(InstanceError, match="no such file"):
            twinsolve.load(name)


def test_load_reads_a_file_named_by_a_string_or_a_path(tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(ALL_ON)
    assert twinsolve.load(str(path)) == twinsolve.load(path) == twinsolve.load(ALL_ON)
    assert twinsolve.load(f"  {path}\n").rows == 3  # one line: surrounding space dropped


def test_a_header_alone_is_read_as_instance_text_not_a_file_name():
    with pytest.raises(InstanceError) as caught:
        twinsolve.load("lightsout 3 3")
    assert caught.value.source is None and "no such file" not in str(caught.value)


def _load_in_thread(path: Path) -> BaseException | None:
    """load(path) in a thread, so a blocking open fails the test instead of hanging it."""
    outcome: list[BaseException | None] = []

    def target() -> None:
        try:
            twinsolve.load(path)
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(10)
    assert not thread.is_alive(), f"load({path}) blocked"
    return outcome[0]


def test_load_refuses_a_named_pipe_without_opening_it(tmp_path):
    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    error = _load_in_thread(pipe)
    assert isinstance(error, InstanceError)
    assert str(error) == f"{pipe}: not a regular file (a named pipe)"


def test_load_refuses_devices_folders_and_broken_links(tmp_path):
    error = _load_in_thread(Path("/dev/zero"))
    assert isinstance(error, InstanceError) and "not a regular file (a device)" in str(error)
    with pytest.raises(InstanceError, match="not a regular file \\(a folder\\)"):
        twinsolve.load(tmp_path)
    (tmp_path / "link.txt").symlink_to(tmp_path / "gone.txt")
    with pytest.raises(InstanceError, match="broken symbolic link"):
        twinsolve.load(str(tmp_path / "link.txt"))


def test_load_refuses_what_is_not_a_name_or_text():
    for value in (b"lightsout 1 1\n1\n", 42, None):
        with pytest.raises(UsageError, match="load\\(\\) takes"):
            twinsolve.load(value)


def test_a_url_with_a_trailing_newline_is_read_as_a_url():
    url = "https://puzz.link/p?cave/2/2/g"
    assert twinsolve.load(url + "\n") == twinsolve.load(f"  {url} \r\n") == twinsolve.load(url)
    assert twinsolve.load(url).rows == 2


def test_a_puzzle_name_in_the_wrong_case_is_suggested():
    with pytest.raises(InstanceError) as caught:
        twinsolve.load("Cave 2 2\n- -\n- -\n")
    assert (caught.value.line, caught.value.column) == (1, 1)
    assert caught.value.message.startswith("unknown puzzle 'Cave' in header; "
                                           "did you mean 'cave'?")
    with pytest.raises(InstanceError, match="did you mean 'lightsout'"):
        twinsolve.load("lightsot 1 1\n1\n")


# ---------------------------------------------------------------- metadata

def test_against_metadata_reads_results_and_records_alike():
    answer = Result(Status.OPTIMAL, {"presses": ["1"]}, objective=5, verified=True)
    record = RunRecord("x.txt", "lightsout", "hand", Status.OPTIMAL, 5, verified=True)
    for checked in (answer, record):
        assert against_metadata({"expect-objective": "2"}, checked) == \
            "optimal objective 5, expected 2"
        assert against_metadata({"expect-objective": "5"}, checked) is None


# ---------------------------------------------------------------- Ctrl-C

class _Interrupt:
    """Ctrl-C (SIGINT to this process) in `seconds`; `sent` is when it went (monotonic)."""

    def __init__(self, seconds: float = 0.3) -> None:
        self.sent: float | None = None
        self.timer = threading.Timer(seconds, self._send)
        self.timer.start()

    def _send(self) -> None:
        self.sent = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    def since(self) -> float:
        """Seconds from the signal to now (it must have gone)."""
        assert self.sent is not None, "the interrupt was never sent"
        return time.monotonic() - self.sent

    def cancel(self) -> None:
        self.timer.cancel()


def test_ctrl_c_stops_a_cpsat_solve_at_once():
    """CP-SAT's own handler turned Ctrl-C into a `timeout` result; without it, the search
    ran on to its time limit. Now the search stops and KeyboardInterrupt is raised."""
    board = twinsolve.load(ROOT / "instances" / "jugs" / "gen-decant-50-37-29-13.txt")
    twinsolve.solve(twinsolve.load(ROOT / "instances" / "jugs" / "die-hard-holds-4.txt"),
                    "cpsat")  # imports done: the signal lands in the solver
    interrupt = _Interrupt()
    try:
        with pytest.raises(KeyboardInterrupt):  # the step encoding: a search of seconds
            twinsolve.solve(board, "cpsat:encoding=steps", timeout=40)
    finally:
        interrupt.cancel()
    # Timed from the signal, not from the start: a loaded machine builds slowly.
    assert interrupt.since() < 5


def test_ctrl_c_interrupts_a_long_glucose_call():
    """PySAT ignores SIGINT during `solve_limited(expect_interrupt=True)`: before, the call
    ran on to its deadline's timer (20 s here)."""
    from pysat.examples.genhard import PHP
    from pysat.solvers import Solver

    from twinsolve.models.sat_common import SolverTraits, limited_solve

    with Solver(name="glucose4", bootstrap_with=PHP(10).clauses) as solver:
        interrupt = _Interrupt()
        try:
            with pytest.raises(KeyboardInterrupt):
                limited_solve(solver, SolverTraits(interrupt=True), Deadline(20))
        finally:
            interrupt.cancel()
        assert interrupt.since() < 5


def test_on_interrupt_outside_a_handled_sigint_does_nothing():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Whatever wakeup fd another library of this process left (asyncio, from the Dask
    # test in the same pytest worker) stays; on_interrupt must not install its own.
    existing = signal.set_wakeup_fd(-1)
    signal.set_wakeup_fd(existing)
    try:
        with on_interrupt(lambda: None):
            assert signal.set_wakeup_fd(existing) == existing
    finally:
        signal.signal(signal.SIGINT, previous)


def test_interrupt_deferred_holds_ctrl_c_until_the_block_ends():
    finished = False
    with pytest.raises(KeyboardInterrupt):
        with interrupt_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # the handler has run by now: it only held the signal
            finished = True
    assert finished
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
