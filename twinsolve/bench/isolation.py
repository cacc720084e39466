"""One long-lived worker process and the limits the harness enforces on it.

`WorkerProcess.execute(task)` sends a task to its worker and waits for the
reply while watching the time and the worker's resident memory:

- past the wall-clock limit (the run's timeout plus a grace period for the
  back-end's own cooperative stop) the worker's whole process group is
  killed (SIGKILL; an external solver program dies with the worker through
  its tether, twinsolve.system.tether) and the run is `timeout`;
- past the memory limit the group is killed and the run is `memout`. The
  limit is on what the run adds: the resident size of the worker and its
  children minus that of the idle worker, read just before the task is sent
  (the worker is then blocked on its stdin, so the reading is exact). A run
  that rises and falls between two polls is caught by the worker itself,
  which compares its peak with its own resting size (twinsolve.bench.worker);
- a worker that dies by itself gives `crash` with the signal's name (or its
  exit code).
After a kill or a death the process is replaced lazily on the next task, so
the suite always goes on. So is a worker whose reply says `retire`: its
memory accounting needs every earlier child program's peak within the budget
(twinsolve.system.memory), which one run over it has broken; for the same
reason a new budget gets a new worker.
Where in-memory files are missing (twinsolve.system.tether) the worker's
temporary folder is one the harness owns and removes with the worker, so a
killed run's files go too.

Measurements (`Outcome`), taken for every run:
- wall and CPU time: the worker's own, around the run (parsing the instance,
  running the back-end, checking its answer), so neither the pipe nor the
  worker's idle wait counts; CPU is user + system time of the worker and of
  the programs it started and waited for. A run the harness killed (or that
  died) has the harness's wall time around the exchange, and its CPU time
  from /proc;
- memory: the peak resident memory the run added, in MiB: the larger of the
  worker's own reading (its exact peak above its resting size, and a child
  program's peak where the kernel's high-water mark of children rose:
  twinsolve.system.memory) and the harness's polls of the worker and its
  children every 20 ms (which see a child program the kernel's mark does not;
  a child forked from the worker for a solver call counts its private pages);
- load: the host's 1-minute load average when the run was sent
  (twinsolve.bench.provenance.host_load).

The same class serves the local pool and each Dask task on its node, so
isolation and limits hold everywhere.
"""

from __future__ import annotations

import json
import math
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

from ..core.time_limit import GRACE_S, grace_seconds  # re-exported: they lived here first
from ..system.memory import private_bytes, resident_bytes
from ..system.tether import FILES_IN_MEMORY
from .provenance import host_load

__all__ = ["WorkerProcess", "Outcome", "GRACE_S", "grace_seconds"]

KILL_SLACK_S = 0.5     # past the worker's own hard stop, before the harness kills it
POLL_S = 0.02          # how often the time and the memory are checked
_TICK = os.sysconf("SC_CLK_TCK")
_MIB = 1 << 20


@dataclass
class Outcome:
    """What came back: the worker's reply (`result` dict), or a harness verdict, and the
    run's measurements (the module docstring says how each is taken)."""

    result: dict[str, Any]
    wall_s: float
    cpu_s: float | None
    mem_mb: float | None = None
    load: float | None = None


def _verdict(status: str, message: str) -> dict[str, Any]:
    return {"status": status, "solution": None, "objective": None, "unique": None,
            "count": None, "verified": None, "message": message,
            "stats": {"nodes": 0, "build_s": 0.0, "solve_s": 0.0}}


def _children(pid: int) -> list[int]:
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/task/{current}/children") as handle:
                kids = [int(k) for k in handle.read().split()]
        except (OSError, ValueError):
            kids = []
        found.extend(kids)
        stack.extend(kids)
    return found


def _command_line(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def _resident_bytes(pid: int) -> int:
    """The worker's resident size plus its children's. A child forked from the worker
    (a solver call under a limit, twinsolve.system.forked) shares the worker's pages
    and keeps its command line: only its private pages are its own."""
    total = resident_bytes(pid)
    children = _children(pid)
    if children:  # the worker's command line is read only when there is a child to match
        worker = _command_line(pid)
        for child in children:
            forked = bool(worker) and _command_line(child) == worker
            total += private_bytes(child) if forked else resident_bytes(child)
    return total


def _cpu_from_proc(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return sum(int(v) for v in fields[11:15]) / _TICK  # utime stime cutime cstime
    except (OSError, ValueError, IndexError):
        return None


class WorkerProcess:
    """A worker subprocess in its own process group, replaced after any kill."""

    def __init__(self, python: str = sys.executable) -> None:
        self.python = python
        self.proc: subprocess.Popen[str] | None = None
        self.scratch: str | None = None  # the worker's TMPDIR, when the harness owns one
        self._memory_mb: int | None = None  # the budget the running worker has served

    def _start(self) -> subprocess.Popen[str]:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if not FILES_IN_MEMORY:
            self.scratch = tempfile.mkdtemp(prefix="twinsolve-worker-")
            env["TMPDIR"] = self.scratch
        proc = subprocess.Popen(
            [self.python, "-m", "twinsolve.bench.worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
            start_new_session=True,  # its own process group: one killpg takes all of it
        )
        assert proc.stdout is not None
        hello = proc.stdout.readline()
        if not hello:
            raise RuntimeError("the benchmark worker (python -m twinsolve.bench.worker) "
                               "failed to start")
        return proc

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def close(self) -> None:
        if self.proc is not None:
            proc, self.proc = self.proc, None
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream:
                    stream.close()
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None

    def _died(self, start: float, watch: _Watch) -> Outcome:
        assert self.proc is not None
        code = self.proc.wait()
        self.close()
        why = f"worker killed by {signal.Signals(-code).name}" if code < 0 else \
            f"worker exited with code {code}"
        return Outcome(_verdict("crash", why), time.perf_counter() - start, None,
                       watch.peak_mb, watch.load)

    def _killed(self, status: str, message: str, start: float, watch: _Watch) -> Outcome:
        assert self.proc is not None
        cpu = _cpu_from_proc(self.proc.pid)
        wall = time.perf_counter() - start
        self.close()
        return Outcome(_verdict(status, message), wall,
                       None if cpu is None or watch.cpu0 is None else cpu - watch.cpu0,
                       watch.peak_mb, watch.load)

    def _ready(self, memory_mb: int | None) -> subprocess.Popen[str]:
        """The running worker, or a new one (also for a new budget: see the docstring)."""
        if self.proc is None or self.proc.poll() is not None or memory_mb != self._memory_mb:
            self.close()
            self.proc = self._start()
            self._memory_mb = memory_mb
        return self.proc

    def _replied(self, line: str, start: float, watch: _Watch) -> Outcome:
        reply = json.loads(line)
        own = reply.get("mem_mb")
        memory = max(own, watch.peak_mb) if own is not None else watch.peak_mb
        outcome = Outcome(reply["result"], reply.get("wall_s", time.perf_counter() - start),
                          reply.get("cpu_s"), memory, watch.load)
        if reply.get("retire"):
            self.close()  # replaced on the next task: see the module docstring
        return outcome

    def execute(self, task: dict[str, Any], timeout: float | None,
                memory_mb: int | None) -> Outcome:
        """Run one task under the limits; never raises for what the back-end does."""
        proc = self._ready(memory_mb)
        assert proc.stdin is not None and proc.stdout is not None
        watch = _Watch(proc.pid)
        start = time.perf_counter()
        try:
            proc.stdin.write(json.dumps({**task, "memory_mb": memory_mb}) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            return self._died(start, watch)
        # The worker stops itself at timeout + grace (core.time_limit) and says in which
        # phase; the kill waits a little longer, for a run the worker cannot interrupt.
        hard_limit = None if timeout is None else timeout + grace_seconds(timeout) + KILL_SLACK_S
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout, selectors.EVENT_READ)
            while True:
                if selector.select(POLL_S):
                    line = proc.stdout.readline()
                    return self._replied(line, start, watch) if line else \
                        self._died(start, watch)
                elapsed = time.perf_counter() - start
                if hard_limit is not None and elapsed > hard_limit:
                    return self._killed("timeout", f"killed after {elapsed:.1f} s (limit "
                                        f"{timeout:g} s)", start, watch)
                if watch.added() > (memory_mb or math.inf) * _MIB:
                    return self._killed("memout", f"the run added over {memory_mb} MB of "
                                        f"resident memory (the worker's own "
                                        f"{watch.idle >> 20} MB not counted)", start, watch)


class _Watch:
    """One run seen from the harness: its start (load, CPU so far, the worker's resting
    size: it waits on its stdin, so the reading is exact) and its polled memory peak."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.load = host_load()
        self.cpu0 = _cpu_from_proc(pid)
        self.idle = _resident_bytes(pid)
        self.peak = 0

    def added(self) -> int:
        """Bytes the worker and its children hold now above the resting size; kept as
        the peak."""
        now = _resident_bytes(self.pid) - self.idle
        self.peak = max(self.peak, now)
        return now

    @property
    def peak_mb(self) -> float:
        return self.peak / _MIB
