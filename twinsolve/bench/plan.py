"""The plan of a benchmark suite: which back-end runs on which instance.

Plan = every instance found under the given paths (each file names its own
puzzle) x every chosen back-end spec. A spec is a back-end name with optional
options (`sat:glucose4`). With no `--backends`, every non-test back-end of each
instance's puzzle is planned. A back-end name that no puzzle in the suite
knows is a usage error; a back-end that the instance's puzzle lacks, or that
does not handle the instance's variant, is planned as `unsupported` and not run.

`--quick` leaves out instances whose metadata says `# suite: full` (the large
ones kept for full runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.discover import instance_files
from ..core.errors import UsageError
from ..core.registry import puzzle_of
from ..core.run import load_file

__all__ = ["Task", "plan_suite"]


@dataclass(frozen=True)
class Task:
    path: Path
    instance: Any
    puzzle: str
    backend: str          # the full spec, e.g. "sat:glucose4"
    skip_reason: str | None = None

    @property
    def metadata(self) -> dict[str, str]:
        return dict(self.instance.meta)


def _in_quick_suite(instance: Any) -> bool:
    return dict(instance.meta).get("suite", "").strip().lower() != "full"


def plan_suite(paths: Sequence[str | Path], backends: Sequence[str] | None,
               quick: bool = False) -> list[Task]:
    instances = [(path, load_file(path)) for path in instance_files(paths)]
    if quick:
        instances = [(p, i) for p, i in instances if _in_quick_suite(i)]
    names = {spec.split(":", 1)[0] for spec in backends or ()}
    known = {b.name for _, i in instances for b in puzzle_of(i).backends}
    unknown = sorted(names - known)
    if unknown and instances:
        raise UsageError(f"unknown back-end {unknown[0]!r} for the puzzles in this suite "
                         f"(known: {', '.join(sorted(known))})")
    tasks = []
    for path, instance in instances:
        entry = puzzle_of(instance)
        specs = list(backends) if backends else [b.name for b in entry.default_backends()]
        have = {b.name: b for b in entry.backends}
        for spec in specs:
            backend = have.get(spec.split(":", 1)[0])
            if backend is None:
                reason = f"{entry.name} has no back-end {spec!r}"
            else:
                reason = backend.unsupported_reason(instance)
            tasks.append(Task(path, instance, entry.name, spec, reason))
    return tasks
