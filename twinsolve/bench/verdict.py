"""Checking answers against instance metadata and against each other.

`verify` has already run on every solution (a rejected one is `wrong`). This
pass catches the answers `verify` cannot judge alone:
- metadata: `# expect-solution: {json}` with `# expect-unique: true` (the
  only solution, or the only optimal one: a verified `solved` or `optimal`
  answer must equal it; a `feasible` one may differ), `# expect-objective: N`
  (a proven optimum must equal N; `unsat` is wrong when N is given),
  `# expect-unique: true|false`,
  `# expect-solutions: N` (a reported count must equal N; `unsat` is wrong
  when N > 0);
- each other, per instance: an `optimal` objective worse than a verified
  solution found elsewhere is wrong, and so is `unsat` where another back-end
  found a verified solution.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from ..core.instance_file import ascii_int
from ..core.result import Status
from .records import RunRecord

__all__ = ["judge", "against_metadata", "Answer"]


class Answer(Protocol):
    """What the metadata check reads: a bench `RunRecord` and a core `Result` both fit."""

    # Read-only properties, so frozen dataclasses match.
    @property
    def status(self) -> Status: ...
    @property
    def objective(self) -> int | None: ...
    @property
    def unique(self) -> bool | None: ...
    @property
    def count(self) -> int | None: ...
    @property
    def verified(self) -> bool | None: ...
    @property
    def solution(self) -> dict[str, Any] | None: ...


def against_metadata(metadata: Mapping[str, str], answer: Answer) -> str | None:
    """Why `answer` contradicts the instance's `expect-*` metadata, or None.

    The one check behind `bench` (judge) and `solve`, so both say the same:

    >>> from twinsolve.core.result import Result
    >>> against_metadata({"expect-objective": "2"}, Result(Status.OPTIMAL, {}, objective=5))
    'optimal objective 5, expected 2'
    """
    expected = ascii_int(metadata.get("expect-objective"))
    if expected is not None:
        if answer.status is Status.OPTIMAL and answer.objective != expected:
            return f"optimal objective {answer.objective}, expected {expected}"
        if answer.status is Status.UNSAT:
            return f"unsat, but a solution with objective {expected} is known"
        if answer.status is Status.FEASIBLE and answer.objective is not None \
                and answer.objective < expected:
            return f"objective {answer.objective} beats the known optimum {expected}"
    unique = metadata.get("expect-unique", "").strip().lower()
    known = metadata.get("expect-solution")
    # The known solution is the only (optimal) one: a `feasible` answer, not proven
    # optimal, may rightly differ from it.
    if known and unique == "true" and answer.verified and answer.solution is not None \
            and answer.status in (Status.OPTIMAL, Status.SOLVED):
        try:
            expected_solution = json.loads(known)
        except ValueError:
            expected_solution = None
        if expected_solution is not None and answer.solution != expected_solution:
            return "a different solution from the known unique one"
    if unique in ("true", "false") and answer.unique is not None:
        if answer.unique != (unique == "true"):
            return f"unique={answer.unique}, expected {unique}"
    solutions = ascii_int(metadata.get("expect-solutions"), max_digits=4000)
    if solutions is not None:
        if answer.count is not None and answer.count != solutions:
            return f"counted {answer.count} solutions, expected {solutions}"
        if answer.status is Status.UNSAT and solutions > 0:
            return f"unsat, but {solutions} solutions are known"
    return None


def _against_each_other(records: list[RunRecord]) -> dict[int, str]:
    solved = [r for r in records if r.verified and r.status.has_solution]
    wrong: dict[int, str] = {}
    if not solved:
        return wrong
    best = min((r.objective for r in solved if r.objective is not None), default=None)
    witness = min(solved, key=lambda r: (r.objective is None, r.objective or 0, r.backend))
    for index, record in enumerate(records):
        if record.status is Status.UNSAT:
            wrong[index] = f"unsat, but {witness.backend} found a verified solution"
        elif record.status is Status.OPTIMAL and best is not None \
                and record.objective is not None and record.objective > best:
            wrong[index] = (f"'optimal' objective {record.objective}, but "
                            f"{witness.backend} found {best}")
    return wrong


def judge(records: Iterable[RunRecord]) -> list[RunRecord]:
    """The records with every answer that contradicts a proven one marked `wrong`."""
    out = list(records)
    for index, record in enumerate(out):
        why = against_metadata(record.metadata, record)
        if why:
            out[index] = record.marked_wrong(why)
    by_instance: dict[str, list[int]] = defaultdict(list)
    for index, record in enumerate(out):
        by_instance[record.instance_hash or record.path].append(index)
    for indices in by_instance.values():
        group = [out[i] for i in indices]
        for local, why in _against_each_other(group).items():
            out[indices[local]] = out[indices[local]].marked_wrong(why)
    return out
