"""Generate and author: the generate form, the editor, saving, the puzz.link URL and the sheet.

Generating asks the puzzle's generator (`generation.driver`: the same plan
and seeds as `twinsolve generate`, one puzzle) in a job; the page gets the
instance's text, ready to play, print or save.

Authoring. An author starts from a blank board (the play module's `blank`)
or any instance, places clues or pieces (`edit`: a cell and what it holds;
or edits the text), and after each change the page asks `study`: a verified
`hand` run with uniqueness asked says whether the puzzle has no solution,
one, or more than one; with more, a second solution is drawn beside the
first. The second one comes from the puzzle's own CNF (the `sat_export`
capability, `models.export`): solve it, and if its answer decodes to the
first solution, forbid that answer and solve again. Which variables make an
answer is read off the export's decoder (the variables whose flip changes
the decoded solution, found by halving groups of variables), so auxiliary
variables never make a "different" model of the same solution. Every second
solution passes the rules' `verify`. The grade is the generator's
(`generation.grade`), the hardest step the explanation's.

Saving writes the text into a folder the studio was given
(`studio.folders`); the URL is the puzzle's own URL writer (`url_reader`
capability); the sheet is `pictures.sheet`'s page of the puzzle and its
solution as a PDF.
"""

from __future__ import annotations

from typing import Any

from ..core import registry
from ..core.errors import UsageError, quoted
from ..core.limits import Deadline, Limits
from ..core.registry import puzzle_of
from ..core.run import parse_text, run
from .jobs import run_job
from .solving import seconds_of

__all__ = ["blank", "edit", "study", "generate", "url", "sheet", "second_solution",
           "STUDY_SECONDS", "GENERATE_SECONDS", "MAX_SIDE"]

STUDY_SECONDS = 20.0
GENERATE_SECONDS = 60.0
MAX_SIDE = 100  # a blank board's side, at most


def _text(instance: Any) -> str:
    return puzzle_of(instance).rules.format(instance)


def blank(puzzle: Any, rows: Any, cols: Any) -> str:
    """The text of an empty `rows` x `cols` board of `puzzle`, to author on."""
    if not isinstance(puzzle, str):
        raise UsageError(f"no puzzle {quoted(puzzle)}")
    entry = registry.puzzle(puzzle)
    for side, what in ((rows, "rows"), (cols, "columns")):
        if type(side) is not int or not 1 <= side <= MAX_SIDE:
            raise UsageError(f"{what} must be a whole number 1..{MAX_SIDE}, got {quoted(side)}")
    play = registry.capability(entry, "play")
    return _text(play.blank(rows, cols))


def edit(instance: Any, item: Any, token: Any) -> str:
    """The text of `instance` with `item` holding `token` (the play module's `edit`)."""
    play = registry.capability(puzzle_of(instance), "play")
    if not play.EDIT_TOKENS:
        raise UsageError(f"{puzzle_of(instance).name} is authored as text: edit the text")
    if not isinstance(item, str) or not isinstance(token, str):
        raise UsageError("an edit names a cell and what it holds, both as text")
    text = _text(play.edit(instance, item, token.strip()))
    parse_text(text, "the edited board")  # what is authored stays a readable file
    return text


# ---------------------------------------------------------------- study

class _Flipped:
    """A model with some variables' values flipped, as a decoder reads it (`lit in true`)."""

    def __init__(self, model: set[int], group: set[int]) -> None:
        self.model, self.group = model, group

    def __contains__(self, lit: object) -> bool:
        if not isinstance(lit, int):
            return False
        return (lit in self.model) != (abs(lit) in self.group)

    def __iter__(self):
        return iter({(-v if abs(v) in self.group else v) for v in self.model})


def _deciding(decode: Any, model: set[int], variables: list[int]) -> list[int]:
    """The variables whose value the decoded solution depends on (module docstring)."""
    base = decode(model)

    def find(group: list[int]) -> list[int]:
        if not group or decode(_Flipped(model, set(group))) == base:
            return []
        if len(group) == 1:
            return group
        half = len(group) // 2
        return find(group[:half]) + find(group[half:])

    return find(variables)


def second_solution(instance: Any, first: dict[str, Any], deadline: Deadline
                    ) -> dict[str, Any] | None:
    """A verified solution other than `first`, from the puzzle's CNF, or None when there is
    none (`UsageError` when the puzzle has no CNF export)."""
    from ..models.export import sat_export
    from ..models.sat_common import SatSession

    cnf = sat_export(instance)
    verify = puzzle_of(instance).rules.verify
    with SatSession("cadical195", cnf.clauses, deadline) as session:
        while session.solve():
            model = session.model()
            found = cnf.decode(model)
            if found != first and not verify(instance, found):
                return found
            deciding = _deciding(cnf.decode, model, list(range(1, cnf.variables + 1)))
            if not deciding:
                return None  # every model decodes alike: one solution only
            session.add([-v if v in model else v for v in deciding])
    return None


def _study(text: str, seconds: float) -> dict[str, Any]:
    """In a job: how many solutions, the first two, the grade and the hardest step."""
    from ..generation.grade import grade_instance

    instance = parse_text(text, "the board")
    entry = puzzle_of(instance)
    result = run(instance, "hand", Limits(timeout=seconds / 2, unique=True))
    study: dict[str, Any] = {"status": result.status.value, "message": result.message,
                             "first": result.solution if result.verified else None,
                             "second": None, "level": None, "why": None, "hardest": None}
    if result.status.value == "unsat":
        study["solutions"] = "none"
    elif not result.verified:
        study["solutions"] = "unknown"
    else:
        study["solutions"] = {True: "one", False: "many"}.get(result.unique, "unknown")
    if study["solutions"] == "many":
        try:
            study["second"] = second_solution(instance, result.solution, Deadline(seconds / 4))
        except UsageError as exc:
            study["why_no_second"] = str(exc)
    if registry.has(entry, "generator") and study["solutions"] == "one":
        graded = grade_instance("the board", instance, seconds / 4)
        study["level"], study["why"] = graded.level, graded.why
        study["evidence"] = graded.grade.evidence if graded.grade else None
    if registry.has(entry, "explanation") and study["solutions"] == "one":
        study["hardest"] = _hardest(instance)
    return study


def _hardest(instance: Any) -> dict[str, Any] | None:
    from ..explain import explain

    explanation = explain(instance)
    index = explanation.hardest()
    if index is None:
        return None
    return {"number": index + 1, "of": len(explanation.steps),
            **explanation.steps[index].to_json()}


def study(instance: Any) -> dict[str, Any]:
    """Zero, one or many solutions (the first two drawn), grade and hardest step."""
    from .solving import _picture

    found = run_job(_study, _text(instance), STUDY_SECONDS, seconds=STUDY_SECONDS,
                    what="studying the puzzle")
    for key in ("first", "second"):
        found[f"{key}_picture"] = _picture(instance, found[key]) if found[key] else None
    return found


# ---------------------------------------------------------------- generate, URL, sheet

def _size(value: Any) -> tuple[int, int] | None:
    if value in (None, ""):
        return None
    if isinstance(value, str) and value.count("x") == 1:
        rows, cols = value.split("x")
        if rows.isdigit() and cols.isdigit() and 0 < int(rows) <= 1000 and 0 < int(cols) <= 1000:
            return int(rows), int(cols)
    raise UsageError(f"a size is ROWSxCOLS, e.g. 8x8, not {quoted(value)}")


def _options(puzzle: str, given: Any) -> dict[str, Any]:
    """The generator's own options from the form, typed by their declaration."""
    if given in (None, {}):
        return {}
    if not isinstance(given, dict):
        raise UsageError("options must be an object of NAME: VALUE")
    declared = {o.name: o for o in registry.generator(registry.puzzle(puzzle)).OPTIONS}
    options: dict[str, Any] = {}
    for name, value in given.items():
        option = declared.get(name)
        if option is None:
            raise UsageError(f"{puzzle}'s generator has no option {quoted(name)}")
        if value in ("", None, False):
            continue
        if option.kind == "flag":
            options[name] = True
        elif option.kind == "whole":
            text = str(value).strip()
            if not text.lstrip("-").isdigit() or len(text) > 12:
                raise UsageError(f"option {name} is a whole number, not {quoted(value)}")
            options[name] = int(text)
        else:
            if option.choices and value not in option.choices:
                raise UsageError(f"option {name} is one of {', '.join(option.choices)}, "
                                 f"not {quoted(value)}")
            options[name] = str(value)
    return options


def _generate(puzzle: str, level: str | None, size: Any, seed: int, options: dict,
              seconds: float) -> str:
    from ..generation.driver import find_one, make_plan

    plan = make_plan(puzzle, level=level, size=size, count=1, seed=seed, options=options,
                     timeout=seconds)
    return _text(find_one(plan, 0))


def generate(puzzle: Any, level: Any, size: Any, seed: Any, options: Any,
             seconds: Any = None) -> str:
    """The text of one generated puzzle (module docstring)."""
    if not isinstance(puzzle, str):
        raise UsageError(f"no puzzle {quoted(puzzle)}")
    registry.generator(registry.puzzle(puzzle))  # refuses a puzzle without a generator
    if level not in (None, "") and not isinstance(level, str):
        raise UsageError(f"a level is a word, not {quoted(level)}")
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise UsageError(f"a seed is a whole number 0..2^63-1, not {quoted(seed)}")
    limit = seconds_of(seconds, GENERATE_SECONDS)
    from ..generation.driver import make_plan

    make_plan(puzzle, level=level or None, size=_size(size), seed=seed,
              options=_options(puzzle, options))  # the request checked before the job
    return run_job(_generate, puzzle, level or None, _size(size), seed,
                   _options(puzzle, options), limit, seconds=limit + 1,
                   what=f"generating a {puzzle} puzzle")


def url(instance: Any) -> str:
    entry = puzzle_of(instance)
    return registry.capability(entry, "url_reader").encode_url(instance)


def _sheet(text: str, seconds: float) -> bytes:
    from ..graphics.canvas import pdf_pages
    from ..pictures.draw import Item, answer_of, sheet_entry
    from ..pictures.sheet import pages

    instance = parse_text(text, "the board")
    item = Item("studio", instance)
    answer = answer_of(item, solve=True, timeout=seconds)
    entry = sheet_entry(item, answer.solution, answer.brief)
    return pdf_pages(pages([entry], per_page=1, solutions=answer.solution is not None,
                           title=f"twinsolve studio: {item.title}"))


def sheet(instance: Any) -> bytes:
    """The puzzle and its solution as a printable PDF sheet (`pictures.sheet`)."""
    return run_job(_sheet, _text(instance), STUDY_SECONDS, seconds=STUDY_SECONDS + 10,
                   what="making the sheet")
