"""Clock stepping: the rules, the file format, and the independent checker.

Rules. An M-hour dial (positions 0..M-1) shows `start`. A move turns it on by
one of the given steps, modulo M. Steps may be negative or larger than M:
they are normalised into 0..M-1, and 0 (a move that changes nothing) and
duplicates after normalising are dropped, so the moves are `Instance.moves`.
Goal: show `target` after the fewest moves. The answer is a shortest plan;
`count` asks for the number of distinct shortest move sequences.

File: header `clock M` (1 <= M <= 10^6), then the lines `start S`,
`target T` (both 0..M-1) and `steps s1 s2 ...` (at least one step), each once,
in any order. Solution: `{"steps": [4, 7], "times": [3, 7, 2]}`: the steps
taken as normalised values, and the dial from start to target inclusive.

The fact every back-end may use (`unreachable_reason`): the moves generate
the subgroup g*Z_M of Z_M with g = gcd(M, s1, s2, ...), and repeating a move
reaches every multiple of it because the group is finite, so the positions
reachable from S are exactly S + g*Z_M (M/g of them). The target is
reachable iff g divides T - S, and a shortest plan visits distinct
positions, so it has at most M/g - 1 moves (`plan_length_bound`).

`brute` is the test oracle: every move sequence of length 0, 1, 2, ... in
turn until one ends at the target, tiny instances only.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text

from ...core import drawing
from ...core.errors import quoted
from ...core.instance_file import Entry, Layout, Metadata, ascii_int, format_metadata, read_layout
from ...core.limits import Limits
from ...core.result import Result, Status, Stopwatch, Tally

__all__ = ["Instance", "parse", "format", "verify", "objective", "render", "brute",
           "normalise_steps", "dial_gcd", "unreachable_reason", "plan_length_bound",
           "solution_from_steps", "MAX_HOURS", "BRUTE_MAX_WORK"]

MAX_HOURS = 1_000_000
MAX_STEP = 999_999_999  # a step is any whole number of up to 9 digits, either sign
BRUTE_MAX_WORK = 1_000_000
_KEYS = ("start", "target", "steps")


@dataclass(frozen=True)
class Instance:
    """A dial of `hours` positions; `steps` as written, `moves` as the rules use them."""

    PUZZLE: ClassVar[str] = "clock"

    hours: int
    start: int
    target: int
    steps: tuple[int, ...]
    meta: Metadata = ()

    @property
    def moves(self) -> tuple[int, ...]:
        return normalise_steps(self.steps, self.hours)


def normalise_steps(steps: Sequence[int], hours: int) -> tuple[int, ...]:
    """Steps mod `hours`, without 0 and without repeats, in the order first written.

    >>> normalise_steps([4, -1, 16, 12, 3], 12)
    (4, 11, 3)
    """
    seen: dict[int, None] = {}
    for step in steps:
        value = step % hours
        if value:
            seen.setdefault(value, None)
    return tuple(seen)


def dial_gcd(instance: Instance) -> int:
    """g = gcd(M, moves): the positions reachable from S are S + g*Z_M."""
    return math.gcd(instance.hours, *instance.moves)


def unreachable_reason(instance: Instance) -> str | None:
    """Why the target cannot be reached (a proof), or None when it can."""
    g = dial_gcd(instance)
    if (instance.target - instance.start) % g:
        distance = (instance.target - instance.start) % instance.hours
        return (f"every move is a multiple of gcd(M, steps) = {g} (mod {instance.hours}), "
                f"and the distance {instance.target} - {instance.start} = {distance} is not")
    return None


def plan_length_bound(instance: Instance) -> int:
    """Most moves a shortest plan can have: the M/g reachable positions, less one."""
    return instance.hours // dial_gcd(instance) - 1


# ---------------------------------------------------------------- parsing

def _read_hours(layout: Layout) -> int:
    words = layout.header
    if words[0] != "clock":
        raise layout.header_error(f"expected header 'clock M', got {quoted(words[0])}")
    if len(words) != 2:
        raise layout.header_error("header must be 'clock M' (M = hours on the dial)")
    hours = ascii_int(words[1])
    if hours is None or not 1 <= hours <= MAX_HOURS:
        raise layout.header_error(f"M must be a whole number 1..{MAX_HOURS}, "
                                  f"got {quoted(words[1])}")
    return hours


def _read_lines(layout: Layout) -> dict[str, Entry]:
    """keyword -> (line number, value tokens); each keyword once."""
    return layout.keyword_lines(_KEYS, {word: "steps 3 5" if word == "steps" else f"{word} 0"
                                        for word in _KEYS})


def _position(layout: Layout, word: str, entry: Entry,
              hours: int) -> int:
    number, values = entry
    if len(values) != 1:
        column = values[1][0] if len(values) > 1 else None
        raise layout.error(number, column, f"{word} takes one position, got {len(values)}")
    column, token = values[0]
    value = ascii_int(token)
    if value is None or not 0 <= value < hours:
        raise layout.error(number, column,
                           f"{word} must be a dial position 0..{hours - 1}, "
                           f"got {quoted(token)}")
    return value


def _steps(layout: Layout, entry: Entry) -> tuple[int, ...]:
    number, values = entry
    if not values:
        raise layout.error(number, None, "steps needs at least one step")
    steps = []
    for column, token in values:
        value = ascii_int(token)
        if value is None:
            raise layout.error(number, column, f"a step must be a whole number of at most 9 "
                               f"digits, -{MAX_STEP}..{MAX_STEP}, got {quoted(token)}")
        steps.append(value)
    return tuple(steps)


def parse(text: str, source: str | None = None) -> Instance:
    """Read a clock instance; any problem is an `InstanceError`."""
    layout = read_layout(text, source)
    hours = _read_hours(layout)
    found = _read_lines(layout)
    start = _position(layout, "start", found["start"], hours)
    target = _position(layout, "target", found["target"], hours)
    return Instance(hours, start, target, _steps(layout, found["steps"]), layout.metadata)


def format(instance: Instance) -> str:  # noqa: A001 - the contract's name
    steps = " ".join(str(s) for s in instance.steps)
    return (format_metadata(instance.meta) + f"clock {instance.hours}\n"
            f"start {instance.start}\ntarget {instance.target}\nsteps {steps}\n")


# ---------------------------------------------------------------- checking

def _int_list(solution: dict[str, Any], key: str) -> list[int] | None:
    values = solution.get(key)
    if not isinstance(values, list):
        return None
    if any(not isinstance(v, int) or isinstance(v, bool) for v in values):
        return None
    return values


def verify(instance: Instance, solution: Any) -> list[str]:
    """Replay the steps on the dial; [] if every step is a move and the dial ends at target."""
    if not isinstance(solution, dict):
        return ['solution must be {"steps": [...], "times": [...]}']
    steps, times = _int_list(solution, "steps"), _int_list(solution, "times")
    if steps is None or times is None:
        return ['solution needs "steps" and "times", lists of whole numbers']
    if len(times) != len(steps) + 1:
        return [f"{len(steps)} steps need {len(steps) + 1} times, got {len(times)}"]
    allowed = set(instance.moves)
    problems = []
    if times[0] != instance.start:
        problems.append(f"times start at {times[0]}, the dial starts at {instance.start}")
    for index, step in enumerate(steps):
        if step not in allowed:
            problems.append(f"step {index} ({step}) is not one of the moves "
                            f"{sorted(allowed)}")
        after = (times[index] + step) % instance.hours
        if times[index + 1] != after:
            problems.append(f"step {index} turns {times[index]} by {step} to {after}, "
                            f"not {times[index + 1]}")
    if times[-1] != instance.target:
        problems.append(f"the dial ends at {times[-1]}, not at the target {instance.target}")
    return problems


def objective(instance: Instance, solution: Any) -> int:
    """The number of moves."""
    return len(solution["steps"])


def solution_from_steps(instance: Instance, steps: Sequence[int]) -> dict[str, list[int]]:
    """`{"steps": ..., "times": ...}` for normalised steps, the times replayed from start."""
    times = [instance.start]
    for step in steps:
        times.append((times[-1] + step) % instance.hours)
    return {"steps": [int(s) for s in steps], "times": times}


# ---------------------------------------------------------------- drawing

def render(instance: Instance, solution: dict[str, Any] | None = None,
           width: int | None = None) -> Text:
    """The dial, the moves, and the plan as positions joined by the steps taken.

    A long plan or move list is elided in the middle (`core.drawing`); lines wider
    than `width` are word-wrapped.
    """
    text = Text()
    text.append(f"Clock with {instance.hours} hours: {instance.start} -> {instance.target}\n",
                style="bold")
    moves = [f"+{instance.moves[i]}" if isinstance(i, int) else i.label("moves")
             for i in drawing.shown(len(instance.moves))]
    text.append("moves: " + ", ".join(moves) + "\n", style="dim")
    if solution:
        times, steps = solution["times"], solution["steps"]
        text.append(str(times[0]), style="yellow")
        for index in drawing.shown(len(steps)):
            if isinstance(index, drawing.Gap):  # then the position the next shown step leaves
                text.append(f" {index.label('steps')} ", style="dim")
                text.append(str(times[index.stop]), style="yellow")
                continue
            text.append(f" -(+{steps[index]})-> ", style="dim")
            text.append(str(times[index + 1]), style="yellow")
        text.append(f"   ({len(steps)} moves)\n")
    return drawing.wrapped(text, width)


# ---------------------------------------------------------------- brute force

def brute(instance: Instance, limits: Limits) -> Result:
    """Every move sequence by length until one ends at the target (tiny dials only).

    A shortest plan never shows a position twice, so lengths up to M - 1
    settle it; each length's sequences are all tried, so the ties are counted.
    """
    watch = Stopwatch()
    moves, hours = instance.moves, instance.hours
    longest = hours - 1 if moves else 0
    watch.built()
    tried = work = 0
    for length in range(longest + 1):
        tried += len(moves) ** length
        work += len(moves) ** length * max(length, 1)  # each sequence is summed in full
        if work > BRUTE_MAX_WORK:
            return Result(Status.UNSUPPORTED, message=f"brute adds up at most {BRUTE_MAX_WORK} "
                          "steps over all sequences; this dial needs more")
        hits = [seq for seq in itertools.product(moves, repeat=length)
                if (instance.start + sum(seq)) % hours == instance.target]
        if hits:
            stats = watch.stats(nodes=tried)
            return Result.answer(Status.OPTIMAL, solution_from_steps(instance, hits[0]), length,
                                 tally=Tally(len(hits), complete=True), asked=limits,
                                 stats=stats)
    return Result.unsat(limits, stats=watch.stats(nodes=tried))
