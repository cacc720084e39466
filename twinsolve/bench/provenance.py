"""Where a benchmark session ran: versions, commit, host and CPU, and how busy the host was.

`provenance()` is the sessions table's row at the start of a session:
versions, git commit, host, CPU model, the cores this process may use
(`cores`), the CPU frequency governor where Linux says (`governor`: e.g.
`performance`, `powersave`, or `schedutil`; several, comma-separated, when
the cores differ; None where it cannot be read, as in most virtual
machines), its memory (`ram_mb`) and the host's load (`load_start`).

`host_load()` is the host's 1-minute load average (`os.getloadavg`): the
number of processes running or waiting for a core, averaged over the last
minute. Above the number of cores, runs waited for a core, and their wall
times grew with the wait; the harness reads it when each run starts and when
the session ends, so a report can say when a session was not alone on its
host (twinsolve.bench.noise).
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import socket
import subprocess
from importlib import metadata
from pathlib import Path

__all__ = ["provenance", "host_load", "cores", "governor", "ram_mb"]

_GOVERNORS = Path("/sys/devices/system/cpu")


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def _git_commit() -> str | None:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                             text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                           capture_output=True, text=True, timeout=5).stdout.strip()
    return out.stdout.strip() + ("+dirty" if dirty else "")


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def cores() -> int:
    """The cores this process may run on (its CPU affinity), else the machine's."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def governor() -> str | None:
    """The CPU frequency governor(s) in use, where Linux says; else None."""
    found = set()
    for path in sorted(_GOVERNORS.glob("cpu[0-9]*/cpufreq/scaling_governor")):
        try:
            found.add(path.read_text().strip())
        except OSError:
            continue
    return ", ".join(sorted(g for g in found if g)) or None


def ram_mb() -> int | None:
    """The machine's physical memory in MiB, where the system says."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 20
    except (AttributeError, OSError, ValueError):
        return None


def host_load() -> float | None:
    """The host's 1-minute load average, or None where the system does not say."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def provenance() -> dict[str, str | int | float | None]:
    return {
        "started": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "twinsolve": _version("twinsolve"),
        "git_commit": _git_commit(),
        "python": platform.python_version(),
        "ortools": _version("ortools"),
        "python_sat": _version("python-sat"),
        "host": socket.gethostname(),
        "cpu": _cpu_model(),
        "platform": platform.platform(),
        "cores": cores(),
        "governor": governor(),
        "ram_mb": ram_mb(),
        "load_start": host_load(),
    }
