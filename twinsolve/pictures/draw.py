"""What `twinsolve render`, `solve --svg` and `sheet` draw: items, their solutions, file names.

An item is a puzzle instance (drawn by `puzzles/<name>/picture.py`, found
through the registry) or a stealth-game level (read by `twinsolve.robots.level`
and drawn by `twinsolve.robots.picture`: the game's files and pictures,
never its play). `gather(sources)` reads files and folders the way
`solve` does (`core.sources`), and also the stealth game's levels, which the
puzzle walks pass by: a `robots` file named directly, or found in a folder.

A picture's solution is the file's own (`# expect-solution:`, checked by the
puzzle's `verify` before it is drawn: a picture never shows a wrong answer)
or, when the file has none and solving is allowed, the `hand` back-end's
within the time limit (`core.run.run`, the one verified path). A puzzle
whose answer is a count or an objective only (`expect-solutions`) has no
solution picture without solving. Nor has a board too large to hold its
solution (`registry.too_large`: a `lights all` board over 5000 a side): it
is not solved for a picture, and its picture is the puzzle's one-line
summary of a grid too large to draw.

Without a solution, an item's `Answer` says why, and tells a proof from a
limit: `unsat` (with the back-end's reason when it gives one: `hand` proved
the puzzle has no solution) is not "no solution within S s" (a time-out,
nothing proven). So `render --solution` writes no solution picture of an
unsolvable puzzle (a note says `unsat`), but draws a timed-out one without
its answer, as it says; and a sheet refuses an unsolvable puzzle unless
asked to include it (`include_unsolvable`: its solution box then says "no
solution (proven)").
"""

from __future__ import annotations

import inspect
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import registry
from ..core.errors import InstanceError, UsageError, quoted
from ..core.instance_file import header_words, read_text
from ..core.limits import Limits
from ..core.result import Result, Status
from ..core.run import file_problem, run
from ..core.sources import instances
from ..files.atomic import write_bytes
from ..graphics.canvas import Drawing

__all__ = ["Item", "Answer", "gather", "answer_of", "draw", "check_styles", "file_names",
           "render_files", "sheet_file", "ROBOTS"]

ROBOTS = "robots"  # the header word of a stealth-game level
UNSOLVABLE_ON_SHEET = "no solution (proven)"  # a sheet's box for a puzzle proven unsolvable


@dataclass(frozen=True)
class Item:
    label: str  # the path as reached (FILE#KEY for a dataset entry)
    thing: Any  # a puzzle Instance, or a robots Level

    @property
    def is_level(self) -> bool:
        return not hasattr(self.thing, "PUZZLE")

    @property
    def meta(self) -> dict[str, str]:
        return dict(self.thing.meta)

    @property
    def name(self) -> str:
        """How a picture's title names it: its `# name:`, else the file's name without
        `.txt`."""
        stem = Path(self.label.split("#")[0]).stem
        key = self.label.partition("#")[2]
        return self.meta.get("name") or (f"{stem} {key}" if key else stem)

    @property
    def title(self) -> str:
        """What it is, for a caption: its puzzle's title, or a stealth-game level."""
        return "Stealth game level" if self.is_level else registry.puzzle_of(self.thing).title

    @property
    def level(self) -> str:
        """Its difficulty (`# difficulty:`, which `generate` and the graded sets write), or
        "" when the file has none."""
        return self.meta.get("difficulty", "")

    @property
    def rules(self) -> str:
        """Its puzzle's rules for people, headed by the title (`Puzzle.rules_text`; "":
        none)."""
        if self.is_level:
            return ""
        entry = registry.puzzle_of(self.thing)
        return f"{entry.title}: {entry.rules_text}" if entry.rules_text else ""


def _is_level_file(path: Path) -> bool:
    if file_problem(path):
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    words = header_words(head)
    return bool(words) and words[0] == ROBOTS


def _level(path: Path) -> Any:
    """The level in a file `_is_level_file` accepted (so no `file_problem`): read with the
    game's own level format (`robots.level`), never its play; `InstanceError` naming it."""
    from ..robots.level import parse

    return parse(read_text(path), str(path))


def _levels(source: str) -> list[Item]:
    path = Path(source)
    if path.is_dir():
        found = sorted(p for p in path.rglob("*.txt")
                       if not any(part.startswith(".") for part in p.relative_to(path).parts))
        return [Item(str(p), _level(p)) for p in found if _is_level_file(p)]
    return [Item(source, _level(path))] if path.is_file() and _is_level_file(path) else []


def gather(sources: list[str]) -> list[Item]:
    """Every puzzle instance and stealth-game level the sources name, in order; a
    `UsageError` listing every bad file (as `solve` does)."""
    items: list[Item] = []
    for source in sources:
        path = Path(source)
        if path.is_file() and _is_level_file(path):
            items += _levels(source)
            continue
        items += [Item(label, instance) for label, instance in instances([source])]
        if path.is_dir():
            items += _levels(source)
    if not items:
        raise UsageError("no instances or levels (*.txt, *.json) under the given paths")
    return items


@dataclass(frozen=True)
class Answer:
    """An item's verified `solution` to draw, or None and `why` there is none; `unsolvable`
    when that is proven (the back-end answered `unsat`), not a limit reached; `brief`, the
    words a sheet's solution box shows instead."""

    solution: Any | None
    why: str | None = None
    unsolvable: bool = False
    brief: str = "no solution known"


def answer_of(item: Item, solve: bool, timeout: float) -> Answer:
    """The item's solution to draw, or why there is none (module docstring)."""
    if item.is_level:  # a level's answer: how its robots keep watch, their patrol routes
        from ..robots.picture import routes_of

        return Answer(routes_of(item.thing) if solve else None)
    entry = registry.puzzle_of(item.thing)
    known = item.meta.get("expect-solution")
    if known is not None:
        solution = json.loads(known)
        problems = entry.rules.verify(item.thing, solution)
        if problems:
            raise InstanceError(item.label, None, None,
                                f"its expect-solution is wrong: {problems[0]}")
        return Answer(solution)
    if not solve:
        return Answer(None)
    big = registry.too_large(item.thing)
    if big:  # its summary run would hold no solution to draw
        return Answer(None, f"{big}, so no solution to draw", brief="too large to draw")
    return _answer_of_run(run(item.thing, "hand", Limits(timeout=timeout)), timeout)


def _answer_of_run(result: Result, timeout: float) -> Answer:
    """A run's answer as a picture needs it: only a verified solution is drawn."""
    because = f": {result.message}" if result.message else ""
    if result.verified and result.solution is not None:
        return Answer(result.solution)
    if result.status is Status.UNSAT:
        return Answer(None, f"unsat{because}", unsolvable=True, brief=UNSOLVABLE_ON_SHEET)
    if result.status is Status.TIMEOUT:
        within = f"no solution within {timeout:g} s"
        return Answer(None, within, brief=within)
    return Answer(None, f"no solution: hand answered {result.status.value}{because}")


Styles = tuple[tuple[str, str], ...]  # (name, value) pairs of `--style NAME=VALUE`


def _picture_module(item: Item) -> Any:
    return registry.picture(registry.puzzle_of(item.thing))


def _styles_of(module: Any) -> dict[str, tuple[str, ...]]:
    """The styles a picture module offers (`STYLES`: name -> its values, the default
    first); a picture without them has none."""
    return dict(getattr(module, "STYLES", {}))


def _keywords(function: Any) -> set[str]:
    """The keyword options a picture's `draw` takes: the room (`width`, `height`) and the
    cell size (`cell`) a sheet passes, and its styles; a plugin's `draw(instance,
    solution=None)` takes none (a sheet then scales its picture into the slot)."""
    return {name for name, parameter in inspect.signature(function).parameters.items()
            if parameter.kind in (parameter.KEYWORD_ONLY, parameter.POSITIONAL_OR_KEYWORD)}


def check_styles(items: list[Item], styles: Styles) -> None:
    """Refuse, in one line, a style no picture of `items` offers or a value it does not
    take (before anything is drawn or solved)."""
    offered: dict[str, dict[str, tuple[str, ...]]] = {}
    for item in items:
        if not item.is_level:
            for name, values in _styles_of(_picture_module(item)).items():
                offered.setdefault(name, {})[item.title] = values
    for name, value in styles:
        given = quoted(f"{name}={value}")
        if name not in offered:
            known = ", ".join(f"{n}={'|'.join(v)}" for n, by in sorted(offered.items())
                              for v in list(by.values())[:1])
            raise UsageError(f"--style {given}: no picture here has a style {quoted(name)}"
                             + (f" (styles: {known})" if known else ""))
        for title, values in offered[name].items():
            if value not in values:
                raise UsageError(f"--style {given}: {title} takes {name}={'|'.join(values)}")


def draw(item: Item, solution: Any | None = None, *, room: tuple[float, float] | None = None,
         cell: float | None = None, styles: Styles = ()) -> Drawing:
    """The item's picture, with `solution` drawn in when given; laid out for `room` (width,
    height in mm, a sheet's slot), its board's cells `cell` mm wide, and in `styles`, where
    its picture takes them."""
    if item.is_level:
        from ..robots.picture import draw as draw_level

        return draw_level(item.thing, routes=solution)
    module = _picture_module(item)
    takes = _keywords(module.draw)
    offered = _styles_of(module)
    options: dict[str, Any] = {name: value for name, value in styles if name in offered}
    if room is not None and {"width", "height"} <= takes:
        options.update(width=room[0], height=room[1])
    if cell is not None and "cell" in takes:
        options.update(cell=cell)
    return module.draw(item.thing, solution, **options)


def file_names(items: list[Item], suffix: str) -> list[str]:
    """One file name per item, `STEM` + `suffix`, made unique with -2, -3 ... in order."""
    taken: dict[str, int] = {}
    names = []
    for item in items:
        base, _, key = item.label.partition("#")
        stem = Path(base).stem + (f"-{key}" if key else "")
        stem = re.sub(r"[^\w.-]+", "-", stem).strip("-") or "picture"
        count = taken.get(stem, 0) + 1
        taken[stem] = count
        names.append(f"{stem}{'' if count == 1 else f'-{count}'}{suffix}")
    return names


def check_picture_path(path: str, fmt: str | None = None) -> str:
    """The format a picture path's suffix names (which must be `fmt` when given), checked
    before any work, so a bad name never costs a solve; `UsageError` otherwise."""
    from ..graphics.canvas import FORMATS

    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise UsageError(f"{path}: a picture must end in .svg, .png or .pdf")
    if fmt is not None and suffix != fmt:
        raise UsageError(f"--{fmt} {path}: a {fmt.upper()} picture must end in .{fmt}")
    return suffix


def render_files(items: list[Item], out: str, fmt: str, with_solution: bool,
                 timeout: float, styles: Styles = ()) -> tuple[list[Path], list[str]]:
    """Write one picture per item into folder `out` (created when missing): `STEM.FMT`,
    or `STEM-solution.FMT` with the solution drawn in (module docstring), none for a
    puzzle proven unsolvable. Every picture is drawn before the first is written, so a
    failure leaves no partial set. Returns the files and a note per item drawn without
    the solution asked for, or not drawn."""
    from ..files.atomic import output_folder
    from ..graphics.canvas import encode

    check_styles(items, styles)
    suffix = f"-solution.{fmt}" if with_solution else f".{fmt}"
    pictures, notes = [], []
    for item, name in zip(items, file_names(items, suffix), strict=True):
        answer = answer_of(item, solve=True, timeout=timeout) if with_solution else Answer(None)
        if answer.unsolvable:
            notes.append(f"{item.label}: {answer.why}; no solution picture written")
            continue
        if answer.why:
            notes.append(f"{item.label}: {answer.why}; drawn without one")
        drawing = draw(item, answer.solution, styles=styles)
        pictures.append((name, encode(drawing, fmt, title=item.name)))
    folder = output_folder(Path(out))
    return [write_bytes(folder / name, data) for name, data in pictures], notes


def sheet_file(items: list[Item], out: str, per_page: int, with_solutions: bool,
               timeout: float, title: str = "twinsolve puzzles",
               include_unsolvable: bool = False, paper: str = "a4",
               styles: Styles = ()) -> Path:
    """Write the printable sheet of `items` to the PDF `out` (`pictures.sheet`).

    Every puzzle is solved (within `timeout`, unless its file gives the solution), with
    or without `with_solutions`, so that a puzzle proven unsolvable is refused, one line
    each and nothing written, unless `include_unsolvable`."""
    from ..graphics.canvas import pdf_pages
    from .sheet import pages

    check_styles(items, styles)
    answers = [answer_of(item, solve=True, timeout=timeout) for item in items]
    refused = [f"{item.label}: {answer.why}: a sheet holds puzzles with a solution "
               f"(--include-unsolvable prints it, as '{UNSOLVABLE_ON_SHEET}')"
               for item, answer in zip(items, answers, strict=True)
               if answer.unsolvable and not include_unsolvable]
    if refused:
        raise UsageError("\n".join(refused))
    entries = [sheet_entry(item, answer.solution if with_solutions else None, answer.brief,
                           styles) for item, answer in zip(items, answers, strict=True)]
    return write_bytes(out, pdf_pages(pages(entries, per_page, with_solutions, title, paper)))


def sheet_entry(item: Item, solution: Any | None, missing: str, styles: Styles = ()) -> Any:
    """The item as a sheet's `Entry`: its caption's words, rules, and its pictures drawn
    for the room of a slot."""
    from .sheet import Entry

    def puzzle(room: tuple[float, float], cell: float | None) -> Drawing:
        return draw(item, room=room, cell=cell, styles=styles)

    def answer(room: tuple[float, float], cell: float | None) -> Drawing:
        return draw(item, solution, room=room, cell=cell, styles=styles)

    kind = ROBOTS if item.is_level else registry.puzzle_of(item.thing).name
    name = item.meta.get("name", "")
    return Entry(item.title, item.level, puzzle, answer if solution is not None else None,
                 missing, kind=kind, rules=item.rules, name=name)
