"""Where a benchmark session ran: versions, commit, host and CPU, for the sessions table."""

from __future__ import annotations

import datetime as _dt
import platform
import socket
import subprocess
from importlib import metadata
from pathlib import Path

__all__ = ["provenance"]


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


def provenance() -> dict[str, str | None]:
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
    }
