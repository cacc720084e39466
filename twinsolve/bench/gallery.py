"""Pictures for the HTML report: a few solved instances per puzzle, each back-end's
slowest solved one, and the picture of each solved task in its runs' details, drawn with
the solution a run returned.

The database keeps each run's solution but not the instance, so a picture
needs the instance file: it is read again from the run's stored path and
drawn only when its content hash equals the one stored with the run (the
same instance, whatever happened to the file since); otherwise the report
says why it shows no picture. The solution drawn is the stored one, which
passed `verify` when it was run and passes it again here (a picture never
shows a wrong answer). Which runs are shown is decided from the stored
runs alone (paths in order, wall times), so the same database gives the
same page. A task's detail picture (`task_pictures`) shows the answer of the
first back-end by name that solved it; the page holds them up to
`DETAIL_BUDGET` bytes of SVG in all (the smallest first: most tasks get
one), a picture over `DETAIL_MAX` bytes never, and a detail without one says
why and how to draw it. Drawing goes through `twinsolve.pictures.draw` (the registry's
picture module of each puzzle) and `graphics.canvas`: the harness knows the
pictures layer, which knows nothing of the harness.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core import registry
from ..core.errors import InstanceError, UsageError
from ..core.run import load_file
from ..graphics.canvas import svg
from ..pictures.draw import Item, draw
from .plan import content_hash
from .records import RunRecord

__all__ = ["Picture", "gallery", "task_pictures", "EXAMPLES", "DETAIL_BUDGET", "DETAIL_MAX"]

EXAMPLES = 3  # solved instances shown per puzzle
DETAIL_BUDGET = 2_000_000   # bytes of SVG for the details' pictures of one page
DETAIL_MAX = 150_000        # bytes: a larger picture is left out of the details


@dataclass(frozen=True)
class Picture:
    puzzle: str
    caption: str
    svg: str | None  # None: not drawn, `why` says why
    why: str = ""
    path: str = ""   # the instance file drawn


def _solved(records: Sequence[RunRecord], puzzle: str) -> list[RunRecord]:
    return [r for r in records if r.puzzle == puzzle and r.solved and r.solution is not None
            and r.verified is not False]


def _draw(record: RunRecord, caption: str) -> Picture:
    def none(why: str) -> Picture:
        return Picture(record.puzzle, caption, None, why, record.path)

    if not Path(record.path).is_file():
        return none(f"{record.path} is not here to draw")
    try:
        instance = load_file(record.path)
    except (InstanceError, UsageError) as exc:
        return none(f"cannot read it again: {exc}")
    if record.instance_hash and content_hash(instance) != record.instance_hash:
        return none(f"{record.path} changed since the run: not drawn")
    if registry.puzzle_of(instance).rules.verify(instance, record.solution):
        return none("the stored solution does not verify")
    return Picture(record.puzzle, caption, svg(draw(Item(record.path, instance),
                                                    record.solution)), path=record.path)


def task_pictures(records: Sequence[RunRecord]) -> dict[str, Picture]:
    """Per instance path with a solved run: its picture with the answer of the first
    back-end (by name) that solved it, within the page's budget (module docstring)."""
    first: dict[str, RunRecord] = {}
    for record in sorted((r for r in records if r.solved and r.solution is not None
                          and r.verified is not False), key=lambda r: (r.path, r.backend, r.seed)):
        first.setdefault(record.path, record)
    drawn = {path: _draw(record, f"the answer {record.backend} returned")
             for path, record in first.items()}
    left, out = DETAIL_BUDGET, {}
    for path, picture in sorted(drawn.items(), key=lambda item: (len(item[1].svg or ""),
                                                                 item[0])):
        size = len(picture.svg or "")
        if picture.svg is not None and (size > DETAIL_MAX or size > left):
            why = "too large to hold in the page" if size > DETAIL_MAX else \
                "left out: the page holds the smaller pictures first"
            picture = Picture(picture.puzzle, picture.caption, None,
                              f"{why} ('twinsolve render {path} --solution --out DIR' draws it)",
                              path)
        left -= len(picture.svg or "")
        out[path] = picture
    return out


def gallery(records: Sequence[RunRecord], puzzles: Sequence[str]) -> dict[str, list[Picture]]:
    """Per puzzle: up to `EXAMPLES` solved instances (the first paths in order, each once,
    the first back-end's answer), then each back-end's slowest solved run."""
    shown: dict[str, list[Picture]] = {}
    for puzzle in puzzles:
        solved = _solved(records, puzzle)
        pictures: list[Picture] = []
        first: dict[str, RunRecord] = {}
        for record in sorted(solved, key=lambda r: (r.path, r.backend)):
            first.setdefault(record.path, record)
        for path in sorted(first)[:EXAMPLES]:
            pictures.append(_draw(first[path], f"{Path(path).name} ({first[path].backend})"))
        for backend in sorted({r.backend for r in solved}):
            mine = [r for r in solved if r.backend == backend]
            slowest = max(mine, key=lambda r: (r.wall_s, r.path))
            pictures.append(_draw(slowest, f"{backend}: slowest solved, "
                                           f"{Path(slowest.path).name} ({slowest.wall_s:.3g} s)"))
        shown[puzzle] = pictures
    return shown
