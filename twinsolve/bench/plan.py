"""The plan of a benchmark suite: which back-end runs on which instance.

Plan = every instance found under the given paths (each file names its own
puzzle) x every chosen back-end spec x `repeat` seeds. A spec is a back-end name with optional
options (`sat:glucose4`). With no `--backends`, every non-test back-end of each
instance's puzzle is planned. A back-end name that no puzzle in the suite
knows is a usage error; a back-end that the instance's puzzle lacks, or that
does not handle the instance's variant, is planned as `unsupported` and not run.

`--quick` leaves out instances whose metadata says `# suite: full` (the large
ones kept for full runs).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.registry import parse_backend_spec, puzzle_of
from ..core.sources import instances as load_sources

__all__ = ["Task", "plan_suite"]


@dataclass(frozen=True)
class Task:
    path: str             # a file, FILE#KEY for a dataset entry, or a URL
    instance: Any
    puzzle: str
    backend: str          # the full spec, e.g. "sat:glucose4"
    skip_reason: str | None = None
    seed: int = 0
    instance_hash: str = ""
    options: str = "{}"   # the spec's options as canonical JSON, part of the run's key

    @property
    def metadata(self) -> dict[str, str]:
        return dict(self.instance.meta)

    @property
    def backend_name(self) -> str:
        return self.backend.split(":", 1)[0]

    @property
    def key(self) -> tuple[str, str, str, int]:
        """What makes a run the same run: instance content, back-end, options, seed."""
        return (self.instance_hash, self.backend_name, self.options, self.seed)


def content_hash(instance: Any) -> str:
    """SHA-256 of the instance's canonical text without its metadata comments."""
    rules = puzzle_of(instance).rules
    bare = replace(instance, meta=())
    return hashlib.sha256(rules.format(bare).encode("utf-8")).hexdigest()


def _in_quick_suite(instance: Any) -> bool:
    return dict(instance.meta).get("suite", "").strip().lower() != "full"


def plan_suite(paths: Sequence[str | Path], backends: Sequence[str] | None,
               quick: bool = False, repeat: int = 1) -> list[Task]:
    instances = load_sources(paths)
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
        digest = content_hash(instance)
        specs = list(backends) if backends else [b.name for b in entry.default_backends()]
        have = {b.name: b for b in entry.backends}
        for spec in specs:
            backend = have.get(spec.split(":", 1)[0])
            options: dict[str, Any] = {}
            if backend is None:
                reason: str | None = f"{entry.name} has no back-end {spec!r}"
            else:
                reason = backend.unsupported_reason(instance)
                options = parse_backend_spec(spec, backend)[1]
            for seed in range(repeat):
                tasks.append(Task(path, instance, entry.name, spec, reason, seed, digest,
                                  json.dumps(options, sort_keys=True)))
    return tasks
