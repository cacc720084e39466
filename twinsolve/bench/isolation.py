"""One long-lived worker process and the limits the harness enforces on it.

`WorkerProcess.execute(task)` sends a task to its worker and waits for the
reply while watching the clock and the worker's resident memory:

- past the wall-clock limit (the run's timeout plus a grace period for the
  back-end's own cooperative stop) the worker's whole process group is
  killed (SIGKILL, so solver subprocesses die too) and the run is `timeout`;
- past the memory limit (resident set of the worker and its children) the
  group is killed and the run is `memout`;
- a worker that dies by itself gives `crash` with the signal's name (or its
  exit code).
After a kill or a death the process is replaced lazily on the next task, so
the suite always goes on. Wall time is measured here, around the exchange;
CPU time comes from the worker (or from /proc when it had to be killed).

The same class serves the local pool and each Dask task on its node, so
isolation and limits hold everywhere.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Any

__all__ = ["WorkerProcess", "Outcome", "GRACE_S", "grace_seconds"]

GRACE_S = 1.0          # at most this long beyond the timeout, for the back-end's own clean stop
POLL_S = 0.02          # how often the clock and the memory are checked
_TICK = os.sysconf("SC_CLK_TCK")
_PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass
class Outcome:
    """What came back: the worker's reply (`result` dict), or a harness verdict."""

    result: dict[str, Any]
    wall_s: float
    cpu_s: float | None


def _verdict(status: str, message: str) -> dict[str, Any]:
    return {"status": status, "solution": None, "objective": None, "unique": None,
            "count": None, "verified": None, "message": message,
            "stats": {"nodes": 0, "build_s": 0.0, "solve_s": 0.0}}


def grace_seconds(timeout: float) -> float:
    """Time past the limit for a cooperative stop: 10% of it plus 0.25 s, at most GRACE_S."""
    return min(GRACE_S, 0.25 + 0.1 * timeout)


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


def _resident_bytes(pid: int) -> int:
    total = 0
    for member in [pid, *_children(pid)]:
        try:
            with open(f"/proc/{member}/statm") as statm:
                total += int(statm.read().split()[1]) * _PAGE
        except (OSError, ValueError, IndexError):
            pass
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

    def _start(self) -> subprocess.Popen[str]:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
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
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream:
                stream.close()

    def _died(self, start: float) -> Outcome:
        assert self.proc is not None
        code = self.proc.wait()
        self.close()
        if code < 0:
            name = signal.Signals(-code).name
            return Outcome(_verdict("crash", f"worker killed by {name}"),
                           time.perf_counter() - start, None)
        return Outcome(_verdict("crash", f"worker exited with code {code}"),
                       time.perf_counter() - start, None)

    def _killed(self, status: str, message: str, start: float, cpu0: float | None) -> Outcome:
        assert self.proc is not None
        cpu = _cpu_from_proc(self.proc.pid)
        wall = time.perf_counter() - start
        self.close()
        return Outcome(_verdict(status, message), wall,
                       None if cpu is None or cpu0 is None else cpu - cpu0)

    def execute(self, task: dict[str, Any], timeout: float | None,
                memory_mb: int | None) -> Outcome:
        """Run one task under the limits; never raises for what the back-end does."""
        if self.proc is None or self.proc.poll() is not None:
            self.close()
            self.proc = self._start()
        proc = self.proc
        assert proc.stdin is not None and proc.stdout is not None
        cpu0 = _cpu_from_proc(proc.pid)
        start = time.perf_counter()
        try:
            proc.stdin.write(json.dumps({**task, "memory_mb": memory_mb}) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            return self._died(start)
        hard_limit = None if timeout is None else timeout + grace_seconds(timeout)
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout, selectors.EVENT_READ)
            while True:
                if selector.select(POLL_S):
                    line = proc.stdout.readline()
                    if not line:
                        return self._died(start)
                    reply = json.loads(line)
                    return Outcome(reply["result"], time.perf_counter() - start,
                                   reply.get("cpu_s"))
                elapsed = time.perf_counter() - start
                if hard_limit is not None and elapsed > hard_limit:
                    return self._killed("timeout", f"killed after {elapsed:.1f} s (limit "
                                        f"{timeout:g} s)", start, cpu0)
                if memory_mb and _resident_bytes(proc.pid) > memory_mb * (1 << 20):
                    return self._killed("memout", f"resident memory over {memory_mb} MB",
                                        start, cpu0)
