"""The plan of a benchmark suite: which back-end runs on which instance, under which limits.

Plan = every instance found under the given paths (each file names its own
puzzle) x every chosen back-end spec (each once, in the order given) x
`repeat` repeats, all under one `Budget`. A spec is a back-end name with optional
options (`sat:glucose4`). With no `--backends`, every non-test back-end of each
instance's puzzle is planned.

Repeats are interleaved, not back to back: the plan runs every task and
back-end once (repeat 0), then all of them again (repeat 1), and so on, so a
drift of the machine (another job starting, the CPU warming) hits every
back-end alike. Repeat i runs with seed i: a back-end that draws random
numbers (CP-SAT's search) varies as it would in use, one that does not
repeats exactly. The repeats of a task are one task (twinsolve.bench.repeats).

Everything is checked before the first run, and every problem is reported at
once: a back-end name that no puzzle in the suite knows, or a spec that no
puzzle's back-end accepts (`hand:prbe=false`, `sat:nosuch`), is a usage error;
so is any invalid instance file (all of them are listed, one line each) unless
`skip_invalid` asks to run the valid ones and list the others. A spec that
some puzzles accept and others do not (`hand:probe=false` is Cave's), or a
back-end that does not handle an instance's variant, is planned as
`unsupported` and not run. Files reached through a folder that are not
instances at all (a README, a JSON that is no dataset) are skipped with a note.

`--quick` leaves out instances whose metadata says `# suite: full` (the large
ones kept for full runs).

Each task carries its run key (twinsolve.bench.database): the file's identity
(content hash with metadata, and its path relative to the suite root), the
back-end name, its options as canonical JSON, the seed and the limits.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core.errors import UsageError
from ..core.registry import Puzzle, check_spec, puzzle_of
from ..core.sources import checked
from .database import RunKey, limits_key, task_hash

__all__ = ["Budget", "Task", "Plan", "plan_suite", "content_hash"]


@dataclass(frozen=True)
class Budget:
    """Per-run limits the harness enforces, and what the back-end is asked to do."""

    timeout: float | None = 10.0
    memory_mb: int | None = None
    unique: bool = False
    count: bool = False

    @property
    def key(self) -> str:
        """These limits as the canonical text that is part of every run's key."""
        return limits_key(self.timeout, self.memory_mb, self.unique, self.count)


@dataclass(frozen=True)
class Task:
    path: str             # the label: a file, FILE#KEY for a dataset entry, or a URL
    instance: Any
    puzzle: str
    backend: str          # the full spec, e.g. "sat:glucose4"
    skip_reason: str | None = None
    seed: int = 0
    instance_hash: str = ""  # the board, without metadata
    options: str = "{}"   # the spec's options as canonical JSON
    task_path: str = ""   # the file's path relative to the suite root
    task_hash: str = ""   # the board's hash with the file's metadata
    limits: str = field(default_factory=lambda: Budget().key)

    @property
    def metadata(self) -> dict[str, str]:
        return dict(self.instance.meta)

    @property
    def backend_name(self) -> str:
        return self.backend.split(":", 1)[0]

    @property
    def key(self) -> RunKey:
        """What makes a run the same run: the file, back-end, options, seed and limits."""
        return (self.task_hash, self.task_path, self.backend_name, self.options, self.seed,
                self.limits)

    @property
    def board_key(self) -> tuple[str, str, str, int, str]:
        """What makes two runs give the same answer: the same key, whatever the file."""
        return (self.instance_hash, self.backend_name, self.options, self.seed, self.limits)


@dataclass(frozen=True)
class Plan:
    tasks: list[Task]
    invalid: list[str]    # one line per instance file that cannot be read (skip_invalid)
    notes: list[str]      # files under the folders that are not instances, skipped


def content_hash(instance: Any) -> str:
    """SHA-256 of the instance's canonical text without its metadata comments."""
    rules = puzzle_of(instance).rules
    bare = replace(instance, meta=())
    return hashlib.sha256(rules.format(bare).encode("utf-8")).hexdigest()


def _in_quick_suite(instance: Any) -> bool:
    return dict(instance.meta).get("suite", "").strip().lower() != "full"


def _unchecked_options(spec: str) -> str:
    """The key text of a spec a puzzle does not run: its options as written, so that two
    such specs (`hand` and `hand:probe=false` on Lights Out) never share a run key."""
    return json.dumps({"spec": spec})


def _spec_verdicts(specs: Sequence[str], entries: Sequence[Puzzle]
                   ) -> dict[tuple[str, str], tuple[str | None, str]]:
    """Per (puzzle, spec): (why it is not run or None, its options as canonical JSON).

    A spec no puzzle of the suite accepts is a usage error, with the first refusal.
    """
    verdicts: dict[tuple[str, str], tuple[str | None, str]] = {}
    for spec in specs:
        name = spec.split(":", 1)[0]
        refusals = []
        accepted = False
        for entry in entries:
            if name not in {b.name for b in entry.backends}:
                verdicts[(entry.name, spec)] = (f"{entry.name} has no back-end {spec!r}",
                                                _unchecked_options(spec))
                continue
            try:
                _, options = check_spec(spec, entry)
            except UsageError as exc:
                refusals.append(str(exc))
                verdicts[(entry.name, spec)] = (f"{entry.name}: {exc}", _unchecked_options(spec))
                continue
            accepted = True
            verdicts[(entry.name, spec)] = (None, json.dumps(options, sort_keys=True))
        if accepted:
            continue
        if refusals:
            raise UsageError(f"back-end {spec!r}: {refusals[0]}")
        known = sorted({b.name for e in entries for b in e.backends
                        if not b.name.startswith("fault-")})
        raise UsageError(f"unknown back-end {name!r} for the puzzles in this suite "
                         f"(known: {', '.join(known)})")
    return verdicts


def plan_suite(paths: Sequence[str | Path], backends: Sequence[str] | None,
               quick: bool = False, repeat: int = 1, budget: Budget | None = None,
               skip_invalid: bool = False) -> Plan:
    """Every task of the suite, checked; UsageError listing every problem found."""
    found = checked(paths, skip_invalid)
    items = [f for f in found.found if not quick or _in_quick_suite(f.instance)]
    limits = (budget or Budget()).key
    specs = list(dict.fromkeys(backends)) if backends else None  # each spec once
    entries = list({puzzle_of(f.instance).name: puzzle_of(f.instance) for f in items}.values())
    verdicts = _spec_verdicts(specs, entries) if specs else {}
    once = []  # every task and back-end, in file order: one repeat
    for item in items:
        entry = puzzle_of(item.instance)
        board = content_hash(item.instance)
        identity = task_hash(board, dict(item.instance.meta))
        chosen = specs or [b.name for b in entry.default_backends()]
        for spec in chosen:
            reason, options = verdicts.get((entry.name, spec), (None, None))
            if options is None:  # a default back-end: its spec is its bare name
                options = "{}"
            if reason is None:
                reason = entry.backend(spec.split(":", 1)[0]).unsupported_reason(item.instance)
            once.append(Task(item.label, item.instance, entry.name, spec, reason, 0, board,
                             options, item.task_path, identity, limits))
    tasks = [replace(task, seed=seed) for seed in range(repeat) for task in once]
    return Plan(tasks, list(found.invalid), list(found.notes))
