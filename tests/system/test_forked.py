"""`system.forked`: one call in a forked child, killed at its deadline, never outliving us."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from twinsolve.system import memory
from twinsolve.system.forked import ForkedCallFailed, ForkedServer, Returned, call_forked


def _gone(pid: int) -> bool:
    """True once `pid` no longer exists (killed and reaped: not even a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _sleeper(pid_file: Path, seconds: float = 60.0):
    def work() -> None:
        pid_file.write_text(str(os.getpid()))
        time.sleep(seconds)
    return work


def test_the_value_comes_back_from_the_child():
    child, model = call_forked(lambda: (os.getpid(), [1, -2, 3]), 10).value
    assert child != os.getpid() and model == [1, -2, 3]


def test_a_child_past_its_deadline_is_killed_and_reaped(tmp_path):
    pid_file = tmp_path / "pid"
    start = time.perf_counter()
    assert call_forked(_sleeper(pid_file), 0.3) is None
    took = time.perf_counter() - start
    assert 0.3 <= took < 1.0
    assert _gone(int(pid_file.read_text()))


def test_an_exception_in_the_child_is_raised_in_the_caller():
    with pytest.raises(ZeroDivisionError):
        call_forked(lambda: 1 // 0, 10)
    with pytest.raises(MemoryError):  # a memout stays a memout
        call_forked(lambda: (_ for _ in ()).throw(MemoryError()), 10)


def test_a_child_that_dies_without_an_answer_is_a_failure_naming_how():
    with pytest.raises(ForkedCallFailed, match="died without an answer .killed by SIGKILL"):
        call_forked(lambda: os.kill(os.getpid(), signal.SIGKILL), 10)
    with pytest.raises(ForkedCallFailed, match="does not pickle|PicklingError|pickle"):
        call_forked(lambda: threading.Lock(), 10)


def test_ctrl_c_while_waiting_kills_the_child(tmp_path):
    pid_file = tmp_path / "pid"
    main = threading.get_ident()
    timer = threading.Timer(0.3, signal.pthread_kill, (main, signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call_forked(_sleeper(pid_file), 30)
    finally:
        timer.cancel()
    assert _gone(int(pid_file.read_text()))


@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_the_child_dies_with_its_parent_even_by_kill_9(tmp_path):
    pid_file = tmp_path / "pid"
    script = ("import sys, time, pathlib, os\n"
              "from twinsolve.system.forked import call_forked\n"
              "def work():\n"
              f"    pathlib.Path({str(pid_file)!r}).write_text(str(os.getpid()))\n"
              "    time.sleep(60)\n"
              "call_forked(work, 60)\n")
    parent = subprocess.Popen([sys.executable, "-c", script])
    try:
        for _ in range(200):
            if pid_file.exists() and pid_file.read_text():
                break
            time.sleep(0.05)
        child = int(pid_file.read_text())
        parent.kill()
        parent.wait()
        for _ in range(100):  # the kernel kills it (PR_SET_PDEATHSIG); init reaps it
            if _gone(child):
                break
            time.sleep(0.05)
        assert _gone(child)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


def test_a_run_counts_what_a_forked_call_added_not_the_pages_it_shares():
    ballast = b"p" * (150 << 20)  # the parent's own pages, resident in the child too
    run = memory.RunMemory()
    assert call_forked(lambda: len(ballast), 10) == Returned(len(ballast))
    assert run.added() < 40 << 20  # it added nothing: not the 150 MB it shares

    run = memory.RunMemory()
    assert call_forked(lambda: len(b"c" * (200 << 20)), 10) == Returned(200 << 20)
    assert 180 << 20 < run.added() < 320 << 20  # its own 200 MB, counted once


def test_a_server_keeps_its_state_between_requests_and_stops_at_a_deadline():
    seen: list[int] = []

    def handle(request: float) -> list[int]:
        seen.append(os.getpid())  # the child's own copy of `seen`
        time.sleep(request)
        return list(seen)

    server = ForkedServer(handle)
    try:
        first = server.ask(0, 10).value
        assert server.ask(0, 10).value == first * 2  # one child served both
        assert first[0] != os.getpid() and seen == []
        assert server.ask(30, 0.3) is None and not server.alive
        with pytest.raises(ForkedCallFailed, match="already stopped"):
            server.ask(0, 10)
    finally:
        server.close()


def test_a_dead_server_is_noticed_at_once_not_at_its_deadline():
    server = ForkedServer(lambda _: os.getpid())
    try:
        child = server.ask(None, 10).value
        os.kill(child, signal.SIGKILL)
        start = time.perf_counter()
        with pytest.raises(ForkedCallFailed, match="killed by SIGKILL"):
            server.ask(None, 20)
        assert time.perf_counter() - start < 5
        assert _gone(child) and not server.alive
    finally:
        server.close()


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc")
def test_a_child_keeps_no_descriptor_but_its_two_pipes(tmp_path):
    # an inherited end of another pipe (a cmd program's tether, another server's) held
    # open in a child would keep that pipe's reader from seeing its end
    with open(tmp_path / "held", "w"):
        server = ForkedServer(lambda _: sorted(int(fd) for fd in os.listdir("/proc/self/fd")))
        try:
            descriptors = server.ask(None, 10).value
        finally:
            server.close()
    assert len([fd for fd in descriptors if fd > 2]) == 3  # the two pipes, and the listing


def test_the_runs_hard_stop_while_waiting_kills_the_child(tmp_path):
    from twinsolve.core.time_limit import TimeLimit, TimeLimitReached

    pid_file = tmp_path / "pid"
    with ForkedServer(lambda _: _sleeper(pid_file)()) as server:
        with pytest.raises(TimeLimitReached):
            with TimeLimit(0.3, grace=0.0):
                server.ask(None, 60)  # no deadline of its own: only the run's stop ends it
        assert not server.alive
    assert _gone(int(pid_file.read_text()))


@pytest.mark.parametrize(("code", "raised"), [(errno.ENOMEM, MemoryError),
                                              (errno.EAGAIN, ForkedCallFailed)])
def test_a_fork_that_fails_says_why_and_leaks_no_pipe(monkeypatch, code, raised):
    def refused() -> int:
        raise OSError(code, os.strerror(code))

    before = set(os.listdir("/proc/self/fd"))
    monkeypatch.setattr(os, "fork", refused)
    with pytest.raises(raised, match="cannot fork a child for the call: " + os.strerror(code)):
        call_forked(lambda: 1, 10)
    assert set(os.listdir("/proc/self/fd")) == before


_SLOW_AT_FORK: list[float] = []  # seconds the test's at-fork callback waits (none: no wait)
os.register_at_fork(after_in_parent=lambda: _SLOW_AT_FORK and time.sleep(_SLOW_AT_FORK[0]))


def _our_children() -> set[int]:
    found = set()
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children") as handle:
            found |= {int(pid) for pid in handle.read().split()}
    return found


def test_the_runs_stop_never_lands_in_an_at_fork_callback(monkeypatch):
    # It landed in logging's lock release that os.fork() runs in the parent: dropped
    # ("Exception ignored"), the run went on unbounded, and the lock stayed held.
    from twinsolve.core.time_limit import TimeLimit, TimeLimitReached

    dropped = []
    monkeypatch.setattr(sys, "unraisablehook", dropped.append)
    before = _our_children()
    _SLOW_AT_FORK.append(0.3)
    try:
        with pytest.raises(TimeLimitReached):
            with TimeLimit(0.05, grace=0.0):
                # it rings inside the callback, then again once the fork is done
                ForkedServer(lambda _: time.sleep(1)).ask(None, 30)
    finally:
        _SLOW_AT_FORK.clear()
    assert dropped == []
    assert _wait_gone(_our_children() - before)


def _wait_gone(pids: set[int]) -> bool:
    for _ in range(100):
        if all(_gone(pid) for pid in pids):
            return True
        time.sleep(0.02)
    return False
