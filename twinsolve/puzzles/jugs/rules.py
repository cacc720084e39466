"""Water jugs: the rules, the file format, and the independent checker.

Rules. Jugs 0..n-1 with whole-number capacities hold whole amounts of water,
starting from `start` (all empty unless given). The allowed move kinds are a
subset of: `fill i` (from a tap, jug i becomes full), `empty i` (to a drain,
jug i becomes empty) and `pour i j` (from jug i into jug j, i != j, until jug
i is empty or jug j is full). The goal is `holds C` (some jug holds exactly
C), `total C` (the jugs together hold C) or `exact a b ...` (every level
given). Answer: the fewest moves; `count` asks for the number of distinct
shortest move sequences.

File: header `jugs`, then the lines `capacities A B ...`, optionally
`start a b ...`, `moves` with any of `fill empty pour`, and `goal holds C` |
`goal total C` | `goal exact a b ...`, each once, in any order. Solution:
`{"moves": ["fill 0", "pour 0 1"], "states": [[0, 0], [3, 0], [0, 3]]}`
(the levels from start to the end inclusive; jugs count from 0 in the JSON,
from 1 in what people read: `render`, the pictures, `move_text`).

Facts every back-end may use (each a proof, see `unreachable_reason`):

1. Bounds: no move overfills a jug, so a level never exceeds its capacity.
2. Lattice: let h = gcd of all capacities and start levels. Fill sets a level
   to a capacity, empty to 0, and a pour moves min(source, room in target),
   a difference of multiples of h; so by induction every level stays a
   multiple of h, whatever the move kinds and the start (for the empty start
   this is the classical "gcd of the capacities divides C").
3. Total: a pour keeps the total, fill never lowers it, empty never raises
   it. So without `fill` the total never rises above the start's, without
   `empty` it never drops below it, and with `pour` alone it is fixed.
4. Boundary: every move leaves the jug it touched full (fill, or the target
   of a pour that stopped there) or empty (empty, or the source of a pour),
   even a move that changes nothing; so after at least one move some jug is
   empty or full.

A shortest plan visits distinct states, all on the lattice and, after the
start, on the boundary: `plan_length_bound` counts them.

`brute` is the test oracle: it counts, for each length d = 0, 1, 2, ..., how
many move sequences of length d end in each state (every sequence of every
move kind, no-ops included) until a goal state is hit, and stops when the
states seen stop growing (then no longer sequence reaches anything new).
"""

from __future__ import annotations

import enum
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

__all__ = ["Instance", "Goal", "GoalKind", "Move", "MoveKind", "parse", "format", "verify",
           "objective", "render", "brute", "moves_of", "apply_move", "parse_move", "move_text",
           "level_gcd", "unreachable_reason", "plan_length_bound", "solution_from_moves",
           "MAX_JUGS", "MAX_CAPACITY", "BRUTE_MAX_STATES"]

MAX_JUGS = 16
MAX_CAPACITY = 1_000_000
MAX_AMOUNT = 999_999_999  # the largest amount a goal may name (9 digits, as every number)
BRUTE_MAX_STATES = 5_000
_KEYS = ("capacities", "start", "moves", "goal")


class MoveKind(str, enum.Enum):
    FILL = "fill"
    EMPTY = "empty"
    POUR = "pour"

    def __str__(self) -> str:
        return self.value


class GoalKind(str, enum.Enum):
    HOLDS = "holds"
    TOTAL = "total"
    EXACT = "exact"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Goal:
    """`holds C` / `total C` (amounts = (C,)) or `exact a b ...` (one level per jug)."""

    kind: GoalKind
    amounts: tuple[int, ...]

    def reached(self, levels: Sequence[int]) -> bool:
        if self.kind is GoalKind.HOLDS:
            return self.amounts[0] in levels
        if self.kind is GoalKind.TOTAL:
            return sum(levels) == self.amounts[0]
        return tuple(levels) == self.amounts

    def __str__(self) -> str:
        return " ".join([self.kind.value, *map(str, self.amounts)])


@dataclass(frozen=True)
class Move:
    """One move: `fill jug`, `empty jug` or `pour jug into`."""

    kind: MoveKind
    jug: int
    into: int | None = None

    def __str__(self) -> str:
        if self.kind is MoveKind.POUR:
            return f"pour {self.jug} {self.into}"
        return f"{self.kind.value} {self.jug}"


@dataclass(frozen=True)
class Instance:
    PUZZLE: ClassVar[str] = "jugs"

    capacities: tuple[int, ...]
    start: tuple[int, ...]
    kinds: tuple[MoveKind, ...]
    goal: Goal
    meta: Metadata = ()

    @property
    def jugs(self) -> int:
        return len(self.capacities)


def moves_of(instance: Instance) -> tuple[Move, ...]:
    """Every allowed move: fills, then empties, then pours (i, j) in order."""
    n = instance.jugs
    moves: list[Move] = []
    for kind in (MoveKind.FILL, MoveKind.EMPTY):
        if kind in instance.kinds:
            moves += [Move(kind, i) for i in range(n)]
    if MoveKind.POUR in instance.kinds:
        moves += [Move(MoveKind.POUR, i, j) for i in range(n) for j in range(n) if i != j]
    return tuple(moves)


def apply_move(capacities: Sequence[int], levels: Sequence[int], move: Move) -> tuple[int, ...]:
    """The levels after `move` (a move that changes nothing is allowed).

    >>> apply_move((3, 5), (3, 4), Move(MoveKind.POUR, 0, 1))  # stops when jug 1 is full
    (2, 5)
    """
    after = list(levels)
    if move.kind is MoveKind.FILL:
        after[move.jug] = capacities[move.jug]
    elif move.kind is MoveKind.EMPTY:
        after[move.jug] = 0
    else:
        amount = min(after[move.jug], capacities[move.into] - after[move.into])
        after[move.jug] -= amount
        after[move.into] += amount
    return tuple(after)


def parse_move(label: Any, jugs: int) -> Move | None:
    """The move a label such as "pour 0 1" names, or None if it names none.

    >>> str(parse_move("pour 0 1", 2)), parse_move("pour 1 1", 2), parse_move("fill 2", 2)
    ('pour 0 1', None, None)
    """
    if not isinstance(label, str):
        return None
    words = label.split()
    kinds = {k.value: k for k in MoveKind}
    if not words or words[0] not in kinds:
        return None
    kind = kinds[words[0]]
    numbers = [ascii_int(w) for w in words[1:]]
    if len(numbers) != (2 if kind is MoveKind.POUR else 1):
        return None
    if any(x is None or not 0 <= x < jugs for x in numbers):
        return None
    if kind is MoveKind.POUR:
        return None if numbers[0] == numbers[1] else Move(kind, numbers[0], numbers[1])
    return Move(kind, numbers[0])


# ---------------------------------------------------------------- facts of the rules

def level_gcd(instance: Instance) -> int:
    """h = gcd(capacities, start levels): every reachable level is a multiple of h (fact 2)."""
    return math.gcd(*instance.capacities, *instance.start)


def _on_boundary(instance: Instance, levels: Sequence[int]) -> bool:
    return any(v in (0, c) for v, c in zip(levels, instance.capacities, strict=True))


def unreachable_reason(instance: Instance) -> str | None:
    """A proof from facts 1-4 of the module docstring that no plan exists, or None.

    None does not mean reachable: these facts are necessary conditions only.
    """
    goal, caps, start = instance.goal, instance.capacities, instance.start
    if goal.reached(start):
        return None
    h = level_gcd(instance)
    total = sum(start)
    no_fill = MoveKind.FILL not in instance.kinds
    no_empty = MoveKind.EMPTY not in instance.kinds
    if goal.kind is GoalKind.EXACT:
        levels = goal.amounts
        over = [i for i, (v, c) in enumerate(zip(levels, caps, strict=True)) if v > c]
        if over:
            return (f"jug {over[0] + 1} cannot hold {levels[over[0]]} "
                    f"(capacity {caps[over[0]]})")
        if any(v % h for v in levels):
            return f"every level stays a multiple of {h} (gcd of capacities and start)"
        wanted = sum(levels)
        if not _on_boundary(instance, levels):
            return "after any move some jug is empty or full; no jug is in the goal"
    else:
        wanted = goal.amounts[0]
        most = max(caps) if goal.kind is GoalKind.HOLDS else sum(caps)
        if wanted > most:
            what = "any jug" if goal.kind is GoalKind.HOLDS else "all the jugs"
            return f"{wanted} is more than {what} can hold ({most})"
        if wanted % h:
            return f"every level stays a multiple of {h} (gcd of capacities and start)"
    if no_fill and wanted > total:
        return f"without fill the water never exceeds the start's {total}"
    if no_empty and goal.kind is not GoalKind.HOLDS and wanted < total:
        return f"without empty the water never drops below the start's {total}"
    return None


def plan_length_bound(instance: Instance) -> int:
    """Most moves a shortest plan can have (facts 1, 2 and 4).

    A shortest plan visits distinct states: the start, then lattice states on
    the boundary. With k_i + 1 lattice levels 0, h, ..., c_i per jug there are
    prod(k_i + 1) - prod(k_i - 1) boundary states.
    """
    h = level_gcd(instance)
    steps = [c // h for c in instance.capacities]
    boundary = math.prod(k + 1 for k in steps) - math.prod(max(k - 1, 0) for k in steps)
    start_extra = 0 if _on_boundary(instance, instance.start) else 1
    return boundary + start_extra - 1


# ---------------------------------------------------------------- parsing

def _read_lines(layout: Layout) -> dict[str, Entry]:
    if layout.header != ("jugs",):
        if layout.header[0] != "jugs":
            raise layout.header_error(f"expected header 'jugs', got {quoted(layout.header[0])}")
        raise layout.header_error("the header is the word 'jugs' alone; capacities, start, "
                                  "moves and goal go on lines of their own")
    return layout.keyword_lines(_KEYS, {"capacities": "capacities 3 5",
                                        "moves": "moves fill empty pour",
                                        "goal": "goal holds 4"})


def _numbers(layout: Layout, entry: Entry, what: str, highs: Sequence[int],
             low: int = 0) -> list[int]:
    """Whole numbers from an entry's tokens, one per item of `highs`, the i-th in
    low..highs[i] (the message states the range)."""
    number, tokens = entry
    count = len(highs)
    if len(tokens) != count:
        column = tokens[count][0] if len(tokens) > count else None
        raise layout.error(number, column, f"{what} needs {count} value(s)"
                           + (", one per jug" if count > 1 else "") + f", got {len(tokens)}")
    values = []
    for (column, token), high in zip(tokens, highs, strict=True):
        value = ascii_int(token)
        if value is None or not low <= value <= high:
            jug = f" (jug {len(values) + 1})" if count > 1 else ""  # people count from 1
            raise layout.error(number, column, f"{what} must be a whole number {low}..{high}, "
                               f"got {quoted(token)}{jug}")
        values.append(value)
    return values


def _capacities(layout: Layout, entry: Entry) -> tuple[int, ...]:
    number, tokens = entry
    if not tokens:
        raise layout.error(number, None, "capacities needs at least one jug")
    if len(tokens) > MAX_JUGS:
        raise layout.error(number, tokens[MAX_JUGS][0], f"at most {MAX_JUGS} jugs")
    return tuple(_numbers(layout, entry, "capacity", [MAX_CAPACITY] * len(tokens), low=1))


def _start(layout: Layout, entry: Entry | None, capacities: tuple[int, ...]) -> tuple[int, ...]:
    """The start levels: jug i holds 0..its capacity (all empty without the line)."""
    if entry is None:
        return (0,) * len(capacities)
    return tuple(_numbers(layout, entry, "start", capacities))


def _kinds(layout: Layout, entry: Entry) -> tuple[MoveKind, ...]:
    number, tokens = entry
    if not tokens:
        raise layout.error(number, None, "moves needs at least one of: fill empty pour")
    known = {k.value: k for k in MoveKind}
    chosen: set[MoveKind] = set()
    for column, token in tokens:
        if token not in known:
            raise layout.error(number, column,
                               f"unknown move kind {quoted(token)} (choose from fill, empty, "
                               "pour)")
        if known[token] in chosen:
            raise layout.error(number, column, f"move kind {quoted(token)} given twice")
        chosen.add(known[token])
    return tuple(k for k in MoveKind if k in chosen)


def _goal(layout: Layout, entry: Entry, jugs: int) -> Goal:
    number, tokens = entry
    if not tokens:
        raise layout.error(number, None, "goal needs a kind: holds C, total C or exact a b ...")
    column, word = tokens[0]
    kinds = {k.value: k for k in GoalKind}
    if word not in kinds:
        raise layout.error(number, column,
                           f"unknown goal {quoted(word)} (choose from holds, total, exact)")
    kind = kinds[word]
    # Any amount a file can write (9 digits): one no jug can hold is a valid, unsolvable goal.
    count = jugs if kind is GoalKind.EXACT else 1
    values = _numbers(layout, (number, tokens[1:]), f"goal {word}", [MAX_AMOUNT] * count)
    return Goal(kind, tuple(values))


def parse(text: str, source: str | None = None) -> Instance:
    """Read a water-jug instance; any problem is an `InstanceError`."""
    layout = read_layout(text, source)
    found = _read_lines(layout)
    capacities = _capacities(layout, found["capacities"])
    start = _start(layout, found.get("start"), capacities)
    kinds = _kinds(layout, found["moves"])
    goal = _goal(layout, found["goal"], len(capacities))
    return Instance(capacities, start, kinds, goal, layout.metadata)


def format(instance: Instance) -> str:  # noqa: A001 - the contract's name
    def line(word: str, values: Sequence[Any]) -> str:
        return " ".join([word, *map(str, values)]) + "\n"

    return (format_metadata(instance.meta) + "jugs\n"
            + line("capacities", instance.capacities) + line("start", instance.start)
            + line("moves", instance.kinds) + line("goal", [instance.goal]))


# ---------------------------------------------------------------- checking

def _levels(value: Any, capacities: Sequence[int]) -> tuple[int, ...] | None:
    if not isinstance(value, list | tuple) or len(value) != len(capacities):
        return None
    if any(not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= c
           for v, c in zip(value, capacities, strict=True)):
        return None
    return tuple(value)


def verify(instance: Instance, solution: Any) -> list[str]:
    """Replay every move by hand; [] if each is allowed, each state follows, the goal holds."""
    if not isinstance(solution, dict) or not isinstance(solution.get("moves"), list) \
            or not isinstance(solution.get("states"), list):
        return ['solution must be {"moves": [...], "states": [[...], ...]}']
    moves, states = solution["moves"], solution["states"]
    caps = instance.capacities
    if len(states) != len(moves) + 1:
        return [f"{len(moves)} moves need {len(moves) + 1} states, got {len(states)}"]
    levels = [_levels(s, caps) for s in states]
    bad = [i for i, lv in enumerate(levels) if lv is None]
    if bad:
        return [f"state {bad[0]} is not {len(caps)} levels within the capacities {list(caps)}"]
    problems = []
    if levels[0] != instance.start:
        problems.append(f"states start at {list(levels[0])}, the jugs at {list(instance.start)}")
    for index, label in enumerate(moves):
        problems += _check_step(instance, index, label, levels[index], levels[index + 1])
    if not instance.goal.reached(levels[-1]):
        problems.append(f"the last state {list(levels[-1])} does not meet 'goal {instance.goal}'")
    return problems


def _check_step(instance: Instance, index: int, label: Any, before: tuple[int, ...],
                after: tuple[int, ...]) -> list[str]:
    """One move, replayed without `apply_move`: allowed, and `after` follows from `before`."""
    move = parse_move(label, instance.jugs)
    if move is None:
        return [f"move {index} ({quoted(label)}) is not 'fill i', 'empty i' or 'pour i j' "
                f"with jugs 0..{instance.jugs - 1}"]
    if move.kind not in instance.kinds:
        return [f"move {index} ({label}): {move.kind} is not allowed here"]
    expected = list(before)
    caps = instance.capacities
    if move.kind is MoveKind.FILL:
        expected[move.jug] = caps[move.jug]
    elif move.kind is MoveKind.EMPTY:
        expected[move.jug] = 0
    else:
        source, target = move.jug, move.into
        poured = min(expected[source], caps[target] - expected[target])
        expected[source] -= poured
        expected[target] += poured
    if tuple(expected) != after:
        return [f"move {index} ({label}) turns {list(before)} into {expected}, "
                f"not {list(after)}"]
    return []


def objective(instance: Instance, solution: Any) -> int:
    """The number of moves."""
    return len(solution["moves"])


def solution_from_moves(instance: Instance, moves: Sequence[Move]) -> dict[str, list]:
    """`{"moves": [...], "states": [...]}`, the states replayed from the start."""
    states = [instance.start]
    for move in moves:
        states.append(apply_move(instance.capacities, states[-1], move))
    return {"moves": [str(m) for m in moves], "states": [list(s) for s in states]}


# ---------------------------------------------------------------- drawing

def move_text(move: Move, arrow: str = "→") -> str:
    """A move as people read it, jugs counted from 1: "fill 1", "empty 2", "pour 1→2".

    >>> move_text(Move(MoveKind.POUR, 0, 1)), move_text(Move(MoveKind.FILL, 2))
    ('pour 1→2', 'fill 3')
    """
    if move.kind is MoveKind.POUR:
        return f"pour {move.jug + 1}{arrow}{move.into + 1}"
    return f"{move.kind.value} {move.jug + 1}"


def _readable(label: Any, jugs: int) -> str:
    """A solution's move label as people read it (`move_text`), or as given when it is
    none (`render` draws what it is handed)."""
    move = parse_move(label, jugs)
    return str(label) if move is None else move_text(move)


def render(instance: Instance, solution: dict[str, Any] | None = None,
           width: int | None = None) -> Text:
    """The jugs and goal, and the plan as one line per move with the levels after it; jugs
    are numbered from 1 (`move_text`).

    A long plan is elided in the middle (`core.drawing`); lines wider
    than `width` are word-wrapped.
    """
    text = Text()
    caps = " ".join(map(str, instance.capacities))
    text.append(f"Water jugs {caps}: goal {instance.goal}\n", style="bold")
    text.append("moves: " + " ".join(map(str, instance.kinds)) + "\n", style="dim")
    if solution:
        states, moves = solution["states"], solution["moves"]
        text.append("start".ljust(10) + str(states[0]) + "\n", style="yellow")
        for index in drawing.shown(len(moves)):
            if isinstance(index, drawing.Gap):
                text.append(index.label("moves") + "\n", style="dim")
                continue
            text.append(_readable(moves[index], instance.jugs).ljust(10),
                        style="bold magenta")
            text.append(str(states[index + 1]) + "\n")
    return drawing.wrapped(text, width)


# ---------------------------------------------------------------- brute force

def brute(instance: Instance, limits: Limits) -> Result:
    """How many move sequences of each length end in each state, until a goal (tests only)."""
    watch = Stopwatch()
    states = math.prod(c + 1 for c in instance.capacities)
    if states > BRUTE_MAX_STATES:
        return Result(Status.UNSUPPORTED, message=f"brute handles at most {BRUTE_MAX_STATES} "
                      f"states; these jugs have {states}")
    moves = moves_of(instance)
    watch.built()
    layers = [{instance.start: 1}]
    seen = {instance.start}
    nodes = 0
    while True:
        layer = layers[-1]
        goals = [s for s in layer if instance.goal.reached(s)]
        if goals:
            return _brute_answer(instance, limits, layers, goals, moves, watch, nodes)
        following: dict[tuple[int, ...], int] = {}
        for state, ways in layer.items():
            nodes += 1
            for move in moves:
                after = apply_move(instance.capacities, state, move)
                following[after] = following.get(after, 0) + ways
        if following.keys() <= seen:  # nothing new: no longer sequence reaches anything new
            return Result.unsat(limits, stats=watch.stats(nodes=nodes))
        seen.update(following)
        layers.append(following)


def _brute_answer(instance: Instance, limits: Limits, layers: list[dict], goals: list,
                  moves: Sequence[Move], watch: Stopwatch, nodes: int) -> Result:
    """One plan, walked back through the layers, and the number of sequences hitting a goal.

    Every sequence of the first length that reaches a goal is a shortest plan
    (one with a no-op or a loop would be longer than a plan without it).
    """
    count = sum(layers[-1][g] for g in goals)
    plan: list[Move] = []
    state = goals[0]
    for earlier in reversed(layers[:-1]):
        state, move = next((s, m) for s in earlier for m in moves
                           if apply_move(instance.capacities, s, m) == state)
        plan.append(move)
    plan.reverse()
    return Result.answer(Status.OPTIMAL, solution_from_moves(instance, plan), len(plan),
                         tally=Tally(count, complete=True), asked=limits,
                         stats=watch.stats(nodes=nodes))
