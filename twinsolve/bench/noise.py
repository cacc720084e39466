"""Telling a change from noise: the rule that decides `slower` and `faster`, and the warnings.

The rule (`decide`), for one task and back-end solved in both results A and
B, with the wall times of its repeats on each side:
1. the ratio B/A of the median wall times is beyond the threshold
   (`--threshold`, default 1.25): slower at B/A >= 1.25, faster at
   B/A <= 1/1.25 = 0.8; anything between is the same;
2. the CPU times agree (where both sides measured them): their ratio B/A is
   beyond the threshold the same way. A wall time that grew while the CPU
   time did not is time spent waiting for a core: the host was busier, the
   code is not slower ("wall time only");
3. with at least `MIN_REPEATS` (3) repeats on each side, the ranges are
   apart: every repeat of the slower side took longer than every repeat of
   the faster one. That is the most extreme outcome of the exact two-sided
   Mann-Whitney rank test, whose chance under no change is
   p = 2 / C(m + n, m) for m and n repeats: 0.10 for 3 and 3, 0.029 for 4 and
   4, 0.008 for 5 and 5 (each verdict states its p). With fewer repeats there
   is no spread to judge by: a change beyond the threshold is reported as
   *untested*, one smaller than `MIN_UNTESTED_S` (5 ms) counts as noise, and
   when either side ran on a busy host (`busy_sessions`) it is not judged at
   all: one run a side on a loaded machine says nothing of the code (the
   same within noise, "not judged: busy host").
A task that passes 1 and 2 but not 3 is the same within noise ("ranges
overlap"). Status changes (solved -> timeout, an answer that became wrong)
are not time changes: twinsolve.bench.comparison lists them first.
`TimeChange.cause` names the noise that made a change beyond the threshold
"the same": `HOST` (wall time only) or `BUSY` (not judged).

The warnings (`warnings`), said at the end of `bench` and by every report:
- a busy host: a session whose host's 1-minute load average (read when the
  session started, when each run started and when it ended) went above its
  cores, or that ran more jobs than cores: its runs waited for a core, so
  their wall times (not their CPU times) are inflated;
- a wide spread: a task whose repeats' wall times range over more than
  `SPREAD_SHARE` (50 %) of their median (for medians of at least
  `SPREAD_FLOOR_S`, 10 ms: below that a millisecond of jitter is half);
- flapping: a task whose repeats' statuses differ (twinsolve.bench.repeats).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .repeats import Spread, TaskRuns

__all__ = ["THRESHOLD", "MIN_REPEATS", "MIN_UNTESTED_S", "SPREAD_SHARE", "SPREAD_FLOOR_S",
           "TimeChange", "decide", "apart_p", "busy_sessions", "warnings", "RULE", "HOST",
           "BUSY"]

THRESHOLD = 1.25
MIN_REPEATS = 3
MIN_UNTESTED_S = 0.005
SPREAD_SHARE = 0.5
SPREAD_FLOOR_S = 0.01
_EXAMPLES = 3   # tasks named in a warning line; the rest are counted

RULE = ("slower / faster: the median wall time B/A beyond {threshold:g}x (or 1/{threshold:g}), "
        "the CPU time too, and with 3+ repeats a side every repeat of one side beyond every "
        "repeat of the other (exact rank test, p shown); with fewer repeats 'untested', and "
        "not judged when either side ran on a busy host")
HOST = "host"   # a change of the wall time alone: the host was busier, not the code slower
BUSY = "busy"   # too few repeats to judge by, on a busy host: not judged


@dataclass(frozen=True)
class TimeChange:
    """The verdict on one task's time, B against A (the module docstring's rule)."""

    verdict: str              # "slower", "faster" or "same"
    ratio: float              # B/A of the median wall times
    cpu_ratio: float | None   # B/A of the median CPU times, where both were measured
    tested: bool              # decided by the repeats' ranges, not by the ratio alone
    p: float | None           # the rank test's p when the ranges are apart
    why: str                  # the rule's reason, in words
    cause: str = ""           # HOST or BUSY: the noise a change beyond the threshold was

    @property
    def changed(self) -> bool:
        return self.verdict != "same"

    @property
    def label(self) -> str:
        """The verdict as a table shows it: `slower`, `slower (untested)`, `same`."""
        return self.verdict if self.tested or not self.changed else f"{self.verdict} (untested)"


def apart_p(m: int, n: int) -> float:
    """The exact two-sided Mann-Whitney p of the most extreme outcome (ranges apart).

    >>> round(apart_p(3, 3), 3), round(apart_p(5, 5), 3)
    (0.1, 0.008)
    """
    return min(1.0, 2 / math.comb(m + n, m))


def _ratio(after: float, before: float) -> float:
    return after / before if before > 0 else (1.0 if after <= 0 else math.inf)


def decide(wall_a: Spread, wall_b: Spread, cpu_a: Spread | None, cpu_b: Spread | None,
           threshold: float = THRESHOLD, busy: bool = False) -> TimeChange:
    """Slower, faster or the same, by the rule of the module docstring; `busy`: either side
    ran on a busy host."""
    ratio = _ratio(wall_b.median, wall_a.median)
    cpu_ratio = None if cpu_a is None or cpu_b is None or cpu_a.median <= 0 \
        else _ratio(cpu_b.median, cpu_a.median)
    if ratio >= threshold:
        verdict = "slower"
    elif ratio <= 1 / threshold:
        verdict = "faster"
    else:
        return TimeChange("same", ratio, cpu_ratio, False, None, f"within {threshold:g}x")
    cpu_agrees = cpu_ratio is None or (cpu_ratio >= threshold if verdict == "slower"
                                       else cpu_ratio <= 1 / threshold)
    if not cpu_agrees:
        return TimeChange("same", ratio, cpu_ratio, False, None,
                          f"wall time only: CPU time {cpu_ratio:.2f}x (the host was busier)",
                          HOST)
    if wall_a.n >= MIN_REPEATS and wall_b.n >= MIN_REPEATS:
        slow, fast = (wall_b, wall_a) if verdict == "slower" else (wall_a, wall_b)
        if fast.high >= slow.low:
            return TimeChange("same", ratio, cpu_ratio, True, None, "ranges overlap")
        p = apart_p(wall_a.n, wall_b.n)
        return TimeChange(verdict, ratio, cpu_ratio, True, p, f"ranges apart, p = {p:.3f}")
    if abs(wall_b.median - wall_a.median) < MIN_UNTESTED_S:
        return TimeChange("same", ratio, cpu_ratio, False, None,
                          "under 5 ms apart, without repeats to judge by")
    fewest = min(wall_a.n, wall_b.n)
    runs = f"{fewest} run{'' if fewest == 1 else 's'}"
    if busy:
        return TimeChange("same", ratio, cpu_ratio, False, None,
                          f"not judged: {runs} on a busy host", BUSY)
    return TimeChange(verdict, ratio, cpu_ratio, False, None, f"{runs}: ranges not judged")


# ------------------------------------------------------------------ warnings

def busy_sessions(sessions: Sequence[Mapping[str, object]],
                  runs: Iterable[Mapping[str, object]]) -> list[str]:
    """One line per session that ran on a busy host (the module docstring), else none.

    `runs` are stored rows (their `session_id` and `load`); only sessions that ran
    some of them are judged, by the loads of those runs (where recorded) and the
    session's own at its start and end.
    """
    loads: dict[object, list[float]] = defaultdict(list)
    for run in runs:
        mine = loads[run.get("session_id")]
        if isinstance(run.get("load"), int | float):
            mine.append(float(run["load"]))  # type: ignore[arg-type]
    lines = []
    for session in sessions:
        if session.get("id") not in loads:
            continue
        cores, jobs = session.get("cores"), session.get("jobs")
        seen = [*loads[session["id"]], *(float(session[k]) for k in ("load_start", "load_end")
                                         if isinstance(session.get(k), int | float))]
        why = []
        if isinstance(cores, int) and seen and max(seen) > cores:
            why.append(f"the host's load average reached {max(seen):.1f} on {cores} "
                       f"core{'' if cores == 1 else 's'}")
        if isinstance(cores, int) and isinstance(jobs, int) and jobs > cores:
            why.append(f"it ran {jobs} jobs on {cores} cores")
        if why:
            lines.append(f"session {session['id']} ran on a busy host: {' and '.join(why)}; "
                         "its runs waited for a core, so their wall times are inflated "
                         "(their CPU times are not)")
    return lines


def _named(tasks: Sequence[TaskRuns], detail: Callable[[TaskRuns], str]) -> str:
    shown = "; ".join(f"{t.backend} on {t.name}: {detail(t)}" for t in tasks[:_EXAMPLES])
    more = len(tasks) - _EXAMPLES
    return shown + (f"; and {more} more" if more > 0 else "")


def _seconds(value: float) -> str:
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def warnings(sessions: Sequence[Mapping[str, object]], runs: Iterable[Mapping[str, object]],
             tasks: Sequence[TaskRuns]) -> list[str]:
    """Every warning about noise in these results: busy sessions, wide spreads, flapping."""
    lines = busy_sessions(sessions, runs)
    wide = [t for t in tasks if t.wall.n > 1 and t.wall.median >= SPREAD_FLOOR_S
            and t.wall.share > SPREAD_SHARE]
    if wide:
        whose = "task's" if len(wide) == 1 else "tasks'"
        lines.append(f"{len(wide)} {whose} repeats spread over "
                     f"{SPREAD_SHARE:.0%} of their median wall time: "
                     + _named(wide, lambda t: t.wall.text(_seconds)))
    flapping = [t for t in tasks if t.flapping]
    if flapping:
        lines.append(f"{len(flapping)} task{'' if len(flapping) == 1 else 's'} flapped (their "
                     "repeats' statuses differ): " + _named(flapping, TaskRuns.statuses))
    return lines
