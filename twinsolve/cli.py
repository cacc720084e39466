"""The `twinsolve` command line (README, "A tour of the commands"; docs/architecture.md).

    twinsolve list
    twinsolve solve PATH... [--backend NAME | --all] [--unique] [--count] [--timeout S] [--json]
                    [--summary] [--skip-invalid] [--svg OUT.svg] [--png OUT.png] [--pdf OUT.pdf]
    twinsolve bench PATH... [--backends a,b,c] [--timeout S] [--memory MB] [--jobs N]
                    [--repeat N] [--db FILE] [--executor local|dask] [--scheduler ADDR]
                    [--quick] [--quiet]
    twinsolve report DB [DB_B] [--html FILE] [--csv FILE] [--json FILE] [--plots DIR]
                     [--markdown FILE] [--latex FILE] [--solutions FILE] [--benchexec DIR]
                     [--wide] [--threshold R] [--fail-on-regression]
    twinsolve generate PUZZLE [--size RxC] [--count N] [--seed S] [--difficulty LEVEL]
                       [--NAME VALUE | --option NAME=VALUE ...] [--jobs N] [--timeout S]
                       --out DIR [--sheet OUT.pdf]
                       (each generator declares its own options and levels:
                        `twinsolve generate PUZZLE --help` lists them)
    twinsolve grade PATH... [--timeout S] [--json] [--skip-invalid]
    twinsolve explain PATH [--backend hand] [--level LEVEL] [--json] [--steps N]
                      [--svg OUT.svg | --pdf OUT.pdf]
    twinsolve hint PATH --state STATE [--json]
    twinsolve render PATH... --out DIR [--format svg|png|pdf] [--solution] [--timeout S]
                     [--style NAME=VALUE]
    twinsolve sheet FILES... --out OUT.pdf [--per-page 1|2|4|6] [--paper a4|letter]
                    [--solutions] [--title T] [--include-unsolvable] [--timeout S]
                    [--style NAME=VALUE]
    twinsolve play [LEVEL] [--moves M | --player greedy|evasive|cautious] [--seed S] [--json]
                   [--record FILE]
    twinsolve play --replay FILE [--verify | --html OUT.html]
    twinsolve new puzzle NAME --out DIR   (a plugin package to start a puzzle from)
    twinsolve studio [FOLDER...] [--port N] [--no-browser] [--host ADDR]
                     (the local web app; `pip install -e '.[studio]'`)

Exit codes: 0 all good; 1 a run failed or was wrong (for `solve`: error,
crash, memout or timeout; for `bench`, where time-outs are measurements:
error, crash or wrong; for `report A B --fail-on-regression`: a regression);
2 bad input or usage, reported as one line naming
the file, line and problem (several bad files: one such line each); 130
interrupted (Ctrl-C), said as `twinsolve: interrupted` (`bench` adds how
many of its runs are stored and that the same command resumes the rest).

`solve` runs each back-end for at most 60 s unless `--timeout` says
otherwise, and judges every answer against the file's `expect-*` metadata
exactly as `bench` does (twinsolve.bench.verdict): a contradiction is
`wrong: optimal objective 5, expected 2`, exit 1. Every number given is
checked (`--timeout nan`, `inf`, `0` and `-0` are refused). Output survives
names that are not UTF-8: they print as backslash escapes.

`solve --summary` reports each answer (status, objective, stats, verified)
without its solution: the full run with the solution left out, so the
answer is the one without `--summary`. A board too large for the full run
(a `lights all` board over 5000 a side) takes the back-end's summary
(Lights Out's `hand`, which never holds the press grid); without
`--summary`, or with a back-end that cannot summarise it, it is refused up
front, one line and exit 2. A `feasible` answer worse than the file's
expect-objective is not wrong; its message says the optimum is not proven
and why.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from . import __version__
from .core import registry
from .core.errors import QUOTE_LIMIT, InstanceError, UsageError, quoted
from .core.instance_file import ascii_int
from .core.limits import MAX_SEED, Limits, seconds_problem
from .core.registry import puzzle_of, too_large
from .core.result import Result, Status
from .core.run import run, size_refusal
from .core.sources import checked, instances

__all__ = ["main"]

FAILED = (Status.WRONG, Status.ERROR, Status.CRASH, Status.MEMOUT, Status.TIMEOUT)
PROG = "twinsolve"
SOLVE_TIMEOUT = 60.0  # seconds per run of `solve`: a forgotten --timeout never hangs a script


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2, quoting what the
    user typed short (`core.errors.quoted`), as every message does."""

    def error(self, message: str) -> None:  # type: ignore[override]
        # main() prefixes "twinsolve: "; say which command only below the top level.
        command = self.prog.removeprefix(PROG).strip()
        raise UsageError(f"{command}: {message}" if command else message)

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        parsed, extra = self.parse_known_args(args, namespace)
        if extra and getattr(parsed, "command", None) == "generate" \
                and extra[0].startswith("--"):
            # The generator's own options are its declaration's: say which it has.
            self.error(f"the generator of {quoted(parsed.puzzle)} has no option "
                       f"{quoted(extra[0])} ('twinsolve generate PUZZLE --help' lists its "
                       f"options)")
        if extra:
            shown = " ".join(extra)
            self.error(f"unrecognized arguments: "
                       f"{shown if len(shown) <= QUOTE_LIMIT else quoted(shown)}")
        return parsed

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            choices = ", ".join(map(repr, action.choices))
            raise argparse.ArgumentError(action, f"invalid choice: {quoted(value)} "
                                                 f"(choose from {choices})")


MAX_COUNT = 10**18 - 1  # the largest count, number of jobs, megabytes or session number
# Digits a generator option or size may have: its range is the generator's to check and
# to state ("--modulus must be one of 2, 3, 5, 7"), so the type only reads the number.
_OPTION_DIGITS = 30


def _positive_int(text: str) -> int:
    value = ascii_int(text.strip(), max_digits=18)
    if value is None or value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number 1..{MAX_COUNT}: "
                                         f"{quoted(text)}")
    return value


def _ratio_threshold(text: str) -> float:
    """A ratio above 1 (`1.25`: 25 % slower counts), finite."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {quoted(text)}") from None
    if not 1 < value < 1e6:
        raise argparse.ArgumentTypeError(f"must be a ratio above 1, e.g. 1.25 for 25% slower: "
                                         f"{quoted(text)}")
    return value


BENCH_MEASURES = """\
what each run records (stored; shown by 'twinsolve report', its CSV and JSON):
  wall   the run's wall-clock time in its worker: reading the instance, solving, and
         checking the answer (a run the harness killed: the time until the kill)
  cpu    the CPU time of the run itself: user + system time of the worker during the run
         and of the programs it started and waited for; the worker's idle time is not
         counted (above wall when a back-end uses threads, below it when the run waited
         for a core)
  mem    the peak resident memory the run added to its worker, in MB: its peak minus
         the worker's resting size (the ~100 MB of imports not counted), a child
         program's peak included; measured for every run, with or without --memory
  load   the host's 1-minute load average when the run started
Each session also records the host's cores, CPU model, frequency governor (where
readable), load at start and end, and jobs; bench warns at the end (and every report
again) when the load went above the cores, when a task's repeats spread over 50% of their
median, or when its repeats' statuses differ (flapping)."""

REPORT_RULE = """\
comparing two databases (A B): first the changes in kind (became wrong, no longer solved,
newly unsupported, then the improvements), then per task solved on both sides its
verdict, then the totals. A task is slower (faster) when the median wall time B/A is at
least the threshold (at most 1/threshold), the CPU time says so too, and, with 3 or more
repeats on each side, every repeat of the slower side took longer than every repeat of
the other (the exact rank test's most extreme outcome: p = 0.10 for 3 and 3 repeats,
0.008 for 5 and 5); with fewer repeats the verdict is 'untested', and when either side
ran on a busy host (its load average above its cores) it is not judged at all. Otherwise:
the same within noise. --fail-on-regression counts the changes in kind for the worse and
the tasks decided slower (untested ones too)."""


def _per_page(text: str) -> int:
    value = ascii_int(text.strip(), max_digits=3)
    if value not in (1, 2, 4, 6):
        raise argparse.ArgumentTypeError(f"must be 1, 2, 4 or 6: {quoted(text)}")
    return value


def _style(text: str) -> tuple[str, str]:
    """`NAME=VALUE` of a picture's style (each puzzle's picture says which it takes)."""
    name, eq, value = text.partition("=")
    if not eq or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"use NAME=VALUE, e.g. shade=inside: {quoted(text)}")
    return name.strip(), value.strip()


def _positive_float(text: str) -> float:
    """Seconds: a finite number > 0 (`nan`, `inf`, `0` and `-0` are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {quoted(text)}") from None
    why = seconds_problem(value, zero=False)
    if why:
        raise argparse.ArgumentTypeError(f"{why}: {quoted(text)}")
    return value


def _option_number(text: str) -> int | None:
    """The whole number (either sign) a generator option or size spells, else None."""
    return ascii_int(text.strip(), max_digits=_OPTION_DIGITS)


def _size(text: str) -> tuple[int, int]:
    """`10x10` (or `10`, a square) as (rows, cols): whole numbers, whose range the
    puzzle's generator checks and states ("a generated Cave has 1..50 rows")."""
    values = [_option_number(part) for part in text.lower().split("x")]
    if len(values) == 1:
        values *= 2
    if len(values) != 2 or None in values:
        raise argparse.ArgumentTypeError(f"use ROWSxCOLS with whole numbers, e.g. 10x10: "
                                         f"{quoted(text)}")
    return values[0], values[1]


def _seed(text: str) -> int:
    value = ascii_int(text.strip(), max_digits=19)
    if value is None or not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be a whole number 0..2**63-1: {quoted(text)}")
    return value


def _key_value(text: str) -> tuple[str, int | str]:
    """`NAME=VALUE`: a whole number when VALUE is one, else the word (the generator
    checks both and states the range)."""
    name, eq, value = text.partition("=")
    if not eq or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"use NAME=VALUE, e.g. goal=all: {quoted(text)}")
    number = _option_number(value)
    return name.strip(), value.strip() if number is None else number


def _whole_option(text: str) -> int:
    """A generator's whole-number option: read here, its range checked and stated by the
    generator (`--presses 0`: "--presses must be 1..20")."""
    value = _option_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"must be a whole number (at most {_OPTION_DIGITS} "
                                         f"digits): {quoted(text)}")
    return value


def _generators_line() -> str:
    """The epilog of `generate --help`: the puzzles that have a generator, and their levels."""
    try:
        named = [f"{entry.name} ({', '.join(registry.generator(entry).LEVELS)})"
                 for entry in registry.puzzles() if registry.has(entry, "generator")]
    except UsageError as exc:  # a plugin's generator that cannot be imported
        return str(exc)
    return "puzzles with a generator, and their levels: " + "; ".join(named)


_OPTION_PREFIX = "generator_option_"  # the dest of a generator's own option


def _add_generator_options(generate: argparse.ArgumentParser, puzzle_name: str) -> None:
    """Add the options `puzzle_name`'s generator declares (`core.generation.Option`) as
    `--NAME VALUE`, and its levels as the choices of --difficulty. An unknown puzzle or
    one without a generator adds nothing: the command then says so in one line."""
    try:
        module = registry.generator(registry.puzzle(puzzle_name))
    except UsageError:
        return
    generate.description = (f"{puzzle_name}: levels {', '.join(module.LEVELS)} (easiest "
                            f"first); options of its own below, after --sheet.")
    taken = {flag for action in generate._actions for flag in action.option_strings}
    for option in module.OPTIONS:
        flag, helped = f"--{option.name}", option.help.replace("%", "%%")  # argparse formats it
        if flag in taken:
            raise UsageError(f"{puzzle_name}'s generator declares option {flag}, which "
                             f"generate itself takes")
        if option.kind == "flag":
            generate.add_argument(flag, dest=_OPTION_PREFIX + option.name, action="store_true",
                                  help=helped)
        elif option.kind == "word":
            generate.add_argument(flag, dest=_OPTION_PREFIX + option.name,
                                  metavar=option.metavar, help=helped,
                                  choices=option.choices or None)
        else:
            generate.add_argument(flag, dest=_OPTION_PREFIX + option.name, type=_whole_option,
                                  metavar=option.metavar, help=helped)


def _generating(argv: list[str]) -> str | None:
    """The PUZZLE of `generate PUZZLE ...`, so its generator's options can be parsed."""
    if len(argv) >= 2 and argv[0] == "generate" and not argv[1].startswith("-"):
        return argv[1]
    return None


def build_parser(generating: str | None = None, helping: bool = False
                 ) -> argparse.ArgumentParser:
    """The command line; with `generating`, `generate` also takes that puzzle's own options;
    `helping` (only then: it imports every generator) lists the generators' levels."""
    parser = _Parser(prog=PROG, description="Model, solve and benchmark logic puzzles.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    commands.add_parser("list", help="puzzles and their back-ends")

    solve = commands.add_parser("solve", help="solve instance files or folders")
    solve.add_argument("paths", nargs="+", metavar="PATH")
    chosen = solve.add_mutually_exclusive_group()
    # hand is the default: it is the fastest back-end of every puzzle in the benchmarks,
    # and the only one that counts Solitaire Chess lines without one solver call per line.
    chosen.add_argument("--backend", default="hand",
                        help="back-end spec, e.g. hand, cpsat, sat:glucose4 (default: hand)")
    chosen.add_argument("--all", action="store_true", help="every back-end of each puzzle")
    solve.add_argument("--unique", action="store_true", help="prove the answer unique, or not")
    solve.add_argument("--count", action="store_true", help="count the (optimal) solutions")
    solve.add_argument("--timeout", type=_positive_float, metavar="S", default=SOLVE_TIMEOUT,
                       help=f"seconds per run, model building included "
                            f"(default {SOLVE_TIMEOUT:g})")
    solve.add_argument("--json", action="store_true", help="one JSON object per line")
    solve.add_argument("--skip-invalid", action="store_true",
                       help="solve the valid instance files, list the invalid ones")
    solve.add_argument("--summary", action="store_true",
                       help="status, objective, stats and the check, without the solution "
                            "(boards too large to print: Lights Out 'lights all')")
    for fmt in ("svg", "png", "pdf"):
        solve.add_argument(f"--{fmt}", metavar="OUT", help=f"draw the instance with its answer "
                                                          f"as {fmt.upper()} (one instance)")

    render = commands.add_parser("render", help="pictures of instances and levels (no solving)")
    render.add_argument("paths", nargs="+", metavar="PATH")
    render.add_argument("--out", required=True, metavar="DIR", help="folder for the pictures")
    render.add_argument("--format", choices=("svg", "png", "pdf"), default="svg",
                        help="picture format (default svg)")
    render.add_argument("--solution", action="store_true",
                        help="draw the solution in: the file's expect-solution, else solved "
                             "with hand")
    render.add_argument("--timeout", type=_positive_float, metavar="S", default=SOLVE_TIMEOUT,
                        help=f"seconds per hand solve (default {SOLVE_TIMEOUT:g})")
    render.add_argument("--style", action="append", type=_style, default=[],
                        metavar="NAME=VALUE", help="a picture's style (e.g. shade=inside)")

    sheet = commands.add_parser("sheet", help="a printable PDF sheet of puzzles (A4 or Letter)")
    sheet.add_argument("paths", nargs="+", metavar="FILES")
    sheet.add_argument("--out", required=True, metavar="OUT.pdf", help="the PDF to write")
    sheet.add_argument("--per-page", type=_per_page, metavar="N", default=4,
                       help="puzzles per page: 1, 2, 4 or 6 (default 4)")
    sheet.add_argument("--paper", choices=("a4", "letter"), default="a4",
                       help="paper size (default a4)")
    sheet.add_argument("--style", action="append", type=_style, default=[],
                       metavar="NAME=VALUE", help="a picture's style (e.g. shade=inside)")
    sheet.add_argument("--solutions", action="store_true",
                       help="the solutions on the last pages")
    sheet.add_argument("--title", default="twinsolve puzzles", help="the title on every page")
    sheet.add_argument("--include-unsolvable", action="store_true",
                       help="print a puzzle proven unsolvable (refused otherwise); its "
                            "solution box says 'no solution (proven)'")
    sheet.add_argument("--timeout", type=_positive_float, metavar="S", default=SOLVE_TIMEOUT,
                       help=f"seconds per hand solve (default {SOLVE_TIMEOUT:g})")

    bench = commands.add_parser("bench", help="run back-ends over instances and compare",
                                epilog=BENCH_MEASURES,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    bench.add_argument("paths", nargs="+", metavar="PATH")
    bench.add_argument("--backends", metavar="a,b,c",
                       help="back-end specs (default: every back-end of each puzzle)")
    bench.add_argument("--timeout", type=_positive_float, metavar="S",
                       help="seconds per run (default 10; 5 with --quick)")
    bench.add_argument("--memory", type=_positive_int, metavar="MB",
                       help="MB a run may add to its worker's resident memory at its peak "
                            "(the worker's own ~100 MB of imports not counted; an external "
                            "program counts whole)")
    bench.add_argument("--jobs", type=_positive_int, metavar="N", default=os.cpu_count() or 1,
                       help="worker processes (default: cores)")
    bench.add_argument("--repeat", type=_positive_int, metavar="N", default=1,
                       help="run each task N times, interleaved (all tasks once, then again), "
                            "repeat i with seed i; a task stays one task, its times the "
                            "median of its repeats with their range")
    bench.add_argument("--db", default="twinsolve-bench.sqlite", metavar="FILE",
                       help="SQLite results database (default: ./twinsolve-bench.sqlite)")
    bench.add_argument("--executor", choices=("local", "dask"), default="local")
    bench.add_argument("--scheduler", metavar="ADDR", help="Dask scheduler address")
    bench.add_argument("--unique", action="store_true", help="ask every run for uniqueness")
    bench.add_argument("--count", action="store_true", help="ask every run to count")
    bench.add_argument("--quick", action="store_true",
                       help="the quick suite: skip '# suite: full' instances, 5 s runs")
    bench.add_argument("--quiet", action="store_true", help="no progress bar")
    bench.add_argument("--wide", action="store_true",
                       help="every column of the totals, however wide the terminal")
    bench.add_argument("--fresh", action="store_true",
                       help="run everything again in a new session (history is kept)")
    bench.add_argument("--skip-invalid", action="store_true",
                       help="run the valid instance files, list the invalid ones")

    generate = commands.add_parser(
        "generate", help="unique-solution puzzles, graded exactly",
        description="Unique-solution puzzles of exactly one level. Each puzzle's generator "
                    "declares its levels and its own options: 'twinsolve generate PUZZLE "
                    "--help' lists them.", epilog=_generators_line() if helping else None)
    generate.add_argument("puzzle", metavar="PUZZLE", help="the puzzle (see 'twinsolve list')")
    generate.add_argument("--size", type=_size, metavar="RxC",
                          help="grid size, e.g. 10x10 (default: the puzzle's)")
    generate.add_argument("--count", type=_positive_int, metavar="N", default=1,
                          help="puzzles to write (default 1)")
    generate.add_argument("--seed", type=_seed, metavar="S", default=0,
                          help="the seed: the same arguments give the same files (default 0)")
    generate.add_argument("--difficulty", metavar="LEVEL",
                          help="the level (default: the easiest the request allows)")
    generate.add_argument("--option", action="append", type=_key_value, metavar="NAME=VALUE",
                          default=[], help="an option of the puzzle's generator, as "
                                           "NAME=VALUE (the same as --NAME VALUE); repeatable")
    generate.add_argument("--jobs", type=_positive_int, metavar="N", default=1,
                          help="worker processes (default 1; the files do not depend on it)")
    generate.add_argument("--timeout", type=_positive_float, metavar="S",
                          help="seconds each puzzle may take, all its tries (default: none)")
    generate.add_argument("--out", required=True, metavar="DIR", help="folder for the files")
    generate.add_argument("--quiet", action="store_true", help="no progress bar")
    generate.add_argument("--sheet", metavar="OUT.pdf",
                          help="also a printable sheet of the puzzles, solutions at the end")
    if generating is not None:
        _add_generator_options(generate, generating)

    grade = commands.add_parser("grade", help="the difficulty level of existing puzzles")
    grade.add_argument("paths", nargs="+", metavar="PATH")
    grade.add_argument("--timeout", type=_positive_float, metavar="S", default=SOLVE_TIMEOUT,
                       help=f"seconds per file (default {SOLVE_TIMEOUT:g})")
    grade.add_argument("--json", action="store_true", help="one JSON object per line")
    grade.add_argument("--skip-invalid", action="store_true",
                       help="grade the valid instance files, list the invalid ones")

    explain = commands.add_parser("explain", help="the hand solver's reasoning, step by step")
    explain.add_argument("path", metavar="PATH", help="one instance file (or URL)")
    explain.add_argument("--backend", default="hand", choices=("hand",),
                         help="whose reasoning: hand, the one back-end that reasons in steps")
    explain.add_argument("--level", metavar="LEVEL",
                         help="only the techniques a player of this level uses")
    explain.add_argument("--json", action="store_true", help="the steps as one JSON object")
    explain.add_argument("--steps", type=_positive_int, metavar="N",
                         help="only the first N steps")
    drawn = explain.add_mutually_exclusive_group()
    drawn.add_argument("--svg", metavar="OUT", help="the worked solution as an SVG picture")
    drawn.add_argument("--pdf", metavar="OUT", help="the worked solution as a PDF, a page "
                                                   "per few boards")

    hint = commands.add_parser("hint", help="the next step from a position, or its first "
                                            "mistake")
    hint.add_argument("path", metavar="PATH", help="one instance file (or URL)")
    hint.add_argument("--state", required=True, metavar="STATE",
                      help="the position: inline JSON (text starting with '{') or a JSON file, "
                           "the solution keys with unknowns, e.g. '{\"inside\": [\"1?0\", "
                           "...]}' (? undecided), '{\"moves\": [...]}' (a plan so far)")
    hint.add_argument("--json", action="store_true", help="the answer as one JSON object")

    play = commands.add_parser("play", help="play a stealth-game level, or watch a replay")
    play.add_argument("level", metavar="LEVEL", nargs="?",
                      help="a level file, or the number of a shipped level (none: list them)")
    who = play.add_mutually_exclusive_group()
    who.add_argument("--moves", metavar="M", help="the player's actions without a terminal: "
                                                  "R D L U move, W wait, X release an EMP, Z undo")
    who.add_argument("--player", choices=("greedy", "evasive", "cautious"),
                     help="a scripted player instead (plays until the game ends)")
    play.add_argument("--seed", type=_seed, metavar="S",
                      help="the game's random seed (default: the level's)")
    play.add_argument("--json", action="store_true", help="one JSON object per turn")
    play.add_argument("--record", metavar="FILE", help="write the game's replay (JSON) to FILE")
    play.add_argument("--replay", metavar="FILE", help="watch a replay in the terminal")
    check = play.add_mutually_exclusive_group()
    check.add_argument("--verify", action="store_true",
                       help="with --replay: re-simulate it and confirm every recorded turn")
    check.add_argument("--html", metavar="OUT", help="with --replay: write a self-contained "
                                                     "HTML page that animates it")

    importer = commands.add_parser("import", help="puzz.link URLs and puzzlekit datasets to files")
    importer.add_argument("source", metavar="SOURCE", help="a puzz.link URL or a dataset .json")
    importer.add_argument("--out", required=True, metavar="DIR", help="folder for the files")

    studio = commands.add_parser("studio", help="the local web app: play, solve, watch, author, "
                                                "print, and the stealth game live")
    studio.add_argument("folders", nargs="*", metavar="FOLDER",
                        help="folders of instances it may read and save into (default: the "
                             "shipped instances)")
    studio.add_argument("--port", type=_port, default=0, metavar="N",
                        help="the port to listen on (default: a free one)")
    studio.add_argument("--no-browser", action="store_true", help="do not open a browser")
    studio.add_argument("--host", metavar="ADDR", default="127.0.0.1",
                        help="listen on ADDR instead of 127.0.0.1: anyone who reaches it with "
                             "the token can use the studio")

    export = commands.add_parser("export", help="write an instance's encoding for other solvers")
    export.add_argument("instance", metavar="INSTANCE", help="an instance file or URL")
    export.add_argument("--cnf", metavar="FILE", help="DIMACS CNF of the sat encoding")
    export.add_argument("--wcnf", metavar="FILE", help="DIMACS WCNF (MaxSAT) with the objective")
    export.add_argument("--cpsat", metavar="FILE",
                        help="CP-SAT model protobuf (text if FILE ends in txt)")
    export.add_argument("--url", metavar="FILE",
                        help="the puzz.link URL, one line ('-': standard output), for the "
                             "puzzles that read URLs")

    new = commands.add_parser("new", help="a plugin package to start your own puzzle from",
                              description="Write a complete, installable plugin package for "
                                          "a real small puzzle (Star Battle) named NAME, to "
                                          "edit into yours (docs/writing-a-puzzle.md).")
    new.add_argument("kind", choices=("puzzle",), metavar="puzzle", help="what to make")
    new.add_argument("name", metavar="NAME", help="the puzzle's name: one lowercase word")
    new.add_argument("--out", required=True, metavar="DIR",
                     help="a new or empty folder for the package")

    report = commands.add_parser("report", help="tables, exports and plots of a results DB",
                                 epilog=f"{BENCH_MEASURES}\n\n{REPORT_RULE}",
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    report.add_argument("db", metavar="DB", nargs="+",
                        help="SQLite results database from 'bench --db'; two (A B): compared "
                        "side by side, with ratios B/A")
    shown = report.add_mutually_exclusive_group()
    shown.add_argument("--session", type=_positive_int, metavar="N",
                       help="the plan of session N (default: the latest session's plan)")
    shown.add_argument("--timeout", type=_positive_float, metavar="S",
                       help="the latest run of every task at time limit S")
    shown.add_argument("--all-sessions", action="store_true", help="every stored run")
    report.add_argument("--html", metavar="FILE", help="one self-contained HTML page")
    report.add_argument("--csv", metavar="FILE", help="one row per run, raw values and verdict; "
                        "the solution as its SHA-256 and size")
    report.add_argument("--solutions", metavar="FILE",
                        help="every run's full solution, one JSON object per line")
    report.add_argument("--benchexec", metavar="DIR",
                        help="a BenchExec result XML per back-end (for its table-generator)")
    report.add_argument("--json", metavar="FILE", help="totals, warnings, sessions, tasks (their "
                        "repeats' median and range) and runs as JSON")
    report.add_argument("--plots", metavar="DIR", help="cactus, scatter and nodes plots "
                        "(PNG and SVG)")
    report.add_argument("--markdown", metavar="FILE", help="the totals as a Markdown table")
    report.add_argument("--latex", metavar="FILE", help="the totals as a LaTeX (booktabs) table")
    report.add_argument("--wide", action="store_true",
                        help="every column of the totals, however wide the terminal")
    report.add_argument("--threshold", type=_ratio_threshold, metavar="R", default=None,
                        help="comparing two: the ratio of median times B/A that counts as "
                             "slower (1/R: faster); default 1.25")
    report.add_argument("--fail-on-regression", action="store_true",
                        help="comparing two: exit 1 when a task became wrong, is no longer "
                             "solved or newly unsupported, or is slower beyond noise")
    return parser


# ---------------------------------------------------------------- list

def cmd_list(console: Console) -> int:
    """Every puzzle and back-end the registry knows, where each comes from, the levels
    `generate` makes, and the plugins left out (one line each)."""
    entries = registry.puzzles()
    table = Table(title="puzzles")
    for column in ("puzzle", "from", "generate levels"):
        table.add_column(column)
    for entry in entries:
        levels = ", ".join(registry.generator(entry).LEVELS) \
            if registry.has(entry, "generator") else "none (no generator)"
        table.add_row(f"{entry.name} ({entry.title})", entry.origin, levels)
    console.print(table)
    # One row per back-end and origin, with the puzzles it serves.
    rows: dict[tuple[str, str, str], list[str]] = {}
    for entry in entries:
        for backend in entry.backends:
            if backend.name.startswith("fault-"):
                continue
            label = backend.name + (" (tests)" if backend.test_only else "")
            key = (label, registry.backend_origin(entry, backend), backend.description)
            rows.setdefault(key, []).append(entry.name)
    backends = Table(title="back-ends")
    for column in ("back-end", "for", "from", "what"):
        backends.add_column(column)
    for (label, origin, description), served in rows.items():
        every = len(served) == len(entries) and len(entries) > 1
        backends.add_row(label, "every puzzle" if every else ", ".join(served), origin,
                         description)
    console.print(backends)
    for line in registry.problems():
        console.print(Text(f"left out: {line}"), soft_wrap=True)
    return 0


# ---------------------------------------------------------------- solve

def _json_line(path: str, puzzle: str, backend: str, result: Result, with_count: bool,
               summary: bool = False) -> str:
    """One `solve --json` line: the puzzle, instance and back-end, then the answer's one
    JSON form (`Result.to_json`), `count` only when asked and `message` only when there is
    one; `summary` true when the solution is left out by request."""
    answer = result.to_json()
    line: dict[str, Any] = {"puzzle": puzzle, "instance": path, "backend": backend,
                            **{key: answer[key] for key in ("status", "objective", "unique",
                                                            "verified", "solution", "stats")}}
    if with_count:
        line["count"] = answer["count"]
    if summary:
        line["summary"] = True  # `solution` is null by request, not for want of one
    if answer["message"]:
        line["message"] = answer["message"]
    return json.dumps(line)


def _describe(backend: str, result: Result) -> str:
    parts = [f"[bold]{backend}[/]: [bold]{result.status.value}[/]"]
    if result.objective is not None:
        parts.append(f"objective {result.objective}")
    if result.unique is not None and result.status.has_solution:
        # (no solution is "not unique" too, which the status has said already)
        parts.append("unique" if result.unique else "not unique")
    if result.count is not None:
        parts.append(f"{result.count} solution(s)")
    if result.verified:
        parts.append("verified")
    stats = result.stats.to_dict()
    timing = (f"nodes {stats.pop('nodes')}, build {stats.pop('build_s') * 1000:.1f} ms, "
              f"solve {stats.pop('solve_s') * 1000:.1f} ms")
    extra = "".join(f", {k} {v}" for k, v in stats.items())
    text = ", ".join(parts) + f"  [dim]({escape(timing + extra)})[/]"
    if result.message:  # `wrong: optimal objective 5, expected 2`, as bench lists problems
        why = "wrong: " if result.status is Status.WRONG else ""
        text += f"\n  {why}{escape(result.message)}"
    return text


def _against_file(instance: Any, result: Result) -> Result:
    """The answer marked `wrong` when it contradicts the file's `expect-*` metadata, with
    the reason bench gives (twinsolve.bench.verdict); a `feasible` answer worse than the
    file's expect-objective is no contradiction, but its message says it is not proven."""
    from .bench.verdict import against_metadata

    meta = dict(getattr(instance, "meta", ()))
    why = against_metadata(meta, result)
    if why is not None:
        return result.with_(status=Status.WRONG, message=why)
    expected = ascii_int(meta.get("expect-objective"))
    if result.status is Status.FEASIBLE and expected is not None \
            and result.objective is not None and result.objective > expected:
        reason = result.message or ("the back-end gave no reason (a search stopped at its "
                                    "time or node limit answers with its best so far)")
        return result.with_(message=f"optimum not proven: objective {result.objective}, the "
                                    f"file expects {expected}; {reason}")
    return result


def _valid_instances(paths: list[str], skip_invalid: bool) -> list[tuple[str, Any]]:
    """The (label, instance) pairs the paths name. An invalid file stops everything (one
    line each, exit 2) unless `skip_invalid`; then the skipped files are listed on stderr,
    one line each, and the others run: bench's rule (`core.sources.checked`)."""
    found = checked(paths, skip_invalid)
    if found.invalid:
        count = len(found.invalid)
        _say("\n".join([f"skipping {count} invalid instance file{'s' * (count > 1)} "
                        "(--skip-invalid):", *(f"  {line}" for line in found.invalid)]))
    if not found.found:
        raise UsageError("no instances (*.txt, *.json) under the given paths"
                         + (" (all of them are invalid)" if found.invalid else ""))
    return [(item.label, item.instance) for item in found.found]


def cmd_solve(args: argparse.Namespace, console: Console) -> int:
    limits = Limits(timeout=args.timeout, unique=args.unique, count=args.count)
    pictures = _picture_options(args)
    loaded = _valid_instances(args.paths, args.skip_invalid)
    if pictures and len(loaded) != 1:
        raise UsageError(f"--{pictures[0][0]} draws one instance; the paths name {len(loaded)}")
    _refuse_too_large(loaded, args, limits)
    exit_code = 0
    for path, instance in loaded:
        entry = puzzle_of(instance)
        specs = [b.name for b in entry.default_backends()] if args.all else [args.backend]
        answers = []
        for spec in specs:
            result = _against_file(instance, run(instance, spec, limits, summary=args.summary))
            answers.append((spec, result))
            if result.status in FAILED:
                exit_code = 1
            if args.json:
                print(_json_line(path, entry.name, spec, result, args.count, args.summary),
                      flush=True)
        # the first back-end's verified solution, for the board and a picture
        answer = next((result.solution for _, result in answers if result.status not in FAILED
                       and result.solution is not None), None)
        if not args.json:
            _print_answers(console, path, instance, answers, answer, args.summary)
        if pictures:
            _draw_answer(path, instance, answer, pictures, console, args.json, args.summary)
    return exit_code


def _print_answers(console: Console, path: str, instance: Any,
                   answers: list[tuple[str, Result]], answer: Any, summary: bool) -> None:
    """An instance's rule, its board with `answer` (none with `summary`: the answers'
    lines alone), then one line per back-end. Printed once every back-end has answered,
    so the board comes first however many there are, and a usage error prints nothing.
    The board fits the console's width (`render`'s budget), so it is printed unwrapped."""
    console.rule(f"[bold]{escape(path)}")
    if not summary:
        board = puzzle_of(instance).rules.render(instance, answer, width=console.width)
        console.print(board, soft_wrap=True)
    for spec, result in answers:
        console.print(_describe(spec, result))


def _refuse_too_large(loaded: list[tuple[str, Any]], args: argparse.Namespace,
                      limits: Limits) -> None:
    """Refuse, before the first run, every board too large for the run asked (a side over
    the full solve's limit): without --summary, or with a back-end that cannot summarise
    it. `--all` leaves such back-ends to answer `unsupported` beside the summary."""
    for path, instance in loaded:
        big = too_large(instance)
        if big is None:
            continue
        if not args.all:
            why = size_refusal(instance, args.backend, limits, summary=True)
            if why:
                raise UsageError(f"{path}: {why}")
        if not args.summary:
            raise UsageError(f"{path}: {big}; 'twinsolve solve {path} --summary' solves and "
                             f"checks it without writing the grid")


def _picture_options(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The (format, path) pairs of --svg / --png / --pdf, each path checked before solving."""
    chosen = [(fmt, getattr(args, fmt)) for fmt in ("svg", "png", "pdf") if getattr(args, fmt)]
    if chosen:  # the pictures layer is imported only by a solve that draws
        from .pictures.draw import check_picture_path

        for fmt, path in chosen:
            if _named_file(path):  # a FIFO or a device has no suffix to check
                check_picture_path(path, fmt)
    return chosen


def _draw_answer(label: str, instance: Any, solution: Any, pictures: list[tuple[str, str]],
                 console: Console, quiet: bool, summary: bool = False) -> None:
    """Draw the instance with its answer (verified, as every answer), or alone without one."""
    from .files.atomic import write_bytes
    from .graphics.canvas import encode
    from .pictures.draw import Item, draw

    item = Item(label, instance)
    drawing = draw(item, solution)
    for fmt, path in pictures:
        write_bytes(path, encode(drawing, fmt, title=item.name))
        if not quiet:
            alone = " (a summary holds no answer to draw: the puzzle alone)" if summary else \
                " (no answer to draw: the puzzle alone)"
            console.print(Text(f"wrote {path}" + ("" if solution is not None else alone)),
                          soft_wrap=True)


# ---------------------------------------------------------------- bench

def cmd_bench(args: argparse.Namespace, console: Console) -> int:
    from .bench.plan import Budget
    from .bench.suite import SuiteConfig, SuiteInterrupted, run_suite
    from .bench.terminal import print_problems, print_totals, print_warnings, totals

    backends = [s.strip() for s in args.backends.split(",") if s.strip()] if args.backends else None
    budget = Budget(timeout=args.timeout or (5.0 if args.quick else 10.0), memory_mb=args.memory,
                    unique=args.unique, count=args.count)
    config = SuiteConfig(args.paths, backends, budget, args.quick, args.repeat, args.db,
                         args.jobs, args.executor, fresh=args.fresh,
                         skip_invalid=args.skip_invalid)
    executor = None
    if args.executor == "dask":
        from .bench.dask_executor import DaskExecutor

        if not args.scheduler:
            raise UsageError("--executor dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
        executor = DaskExecutor(args.scheduler)
    try:
        outcome = run_suite(config, console=None if args.quiet else console, executor=executor,
                            say=_say)
    except SuiteInterrupted as stopped:  # Ctrl-C: what is stored, and how to go on
        _say(str(stopped))
        return 130
    records = outcome.records
    if outcome.invalid:  # --skip-invalid: what was left out, where the results are read
        console.print(Text(f"invalid files skipped ({len(outcome.invalid)}):", style="bold"))
        for line in outcome.invalid:
            console.print(Text(f"  {line}"), soft_wrap=True)
    print_problems(console, records)
    print_totals(console, totals(records), wide=args.wide)
    print_warnings(console, outcome.warnings)
    if not args.quiet:
        console.print(f"[dim]results in {args.db}; see them again with "
                      f"'twinsolve report {args.db}'[/]")
    # Time-outs and memouts are measurements here, not failures: a suite fails when an
    # answer is wrong or a run broke.
    broken = (Status.WRONG, Status.ERROR, Status.CRASH)
    return 1 if any(r.status in broken for r in records) else 0


# ---------------------------------------------------------------- report

def cmd_report(args: argparse.Namespace, console: Console) -> int:
    from .bench.report import report
    from .bench.terminal import print_totals, print_warnings

    selection = {"session": args.session, "timeout": args.timeout,
                 "all_sessions": args.all_sessions}
    if len(args.db) > 2:
        raise UsageError(f"report: compares at most two databases (A B), not {len(args.db)}")
    written: tuple[Any, ...]
    failed = False
    if len(args.db) == 2:
        from .bench.compare import compare_report, print_comparison

        for flag, value in (("--csv", args.csv), ("--json", args.json), ("--plots", args.plots),
                            ("--solutions", args.solutions), ("--benchexec", args.benchexec)):
            if value is not None:
                raise UsageError(f"report: {flag} reads one database; to compare two, use "
                                 "--html, --markdown or --latex")
        compared = compare_report(*args.db, html=args.html, markdown_path=args.markdown,
                                  latex_path=args.latex, threshold=args.threshold, **selection)
        print_comparison(console, compared.comparison, wide=args.wide)
        written = compared.written
        regressions = compared.comparison.regressions
        failed = args.fail_on_regression and regressions > 0
        if args.fail_on_regression:
            console.print(Text(f"{regressions} regression{'' if regressions == 1 else 's'}"
                               f"{': exit 1 (--fail-on-regression)' if failed else ''}",
                               style="bold red" if failed else "bold"))
    else:
        for flag, given in (("--threshold", args.threshold is not None),
                            ("--fail-on-regression", args.fail_on_regression)):
            if given:
                raise UsageError(f"report: {flag} compares two databases (A B); give two")
        result = report(args.db[0], html=args.html, csv=args.csv, json_path=args.json,
                        plots=args.plots, markdown_path=args.markdown, latex_path=args.latex,
                        solutions_path=args.solutions, benchexec=args.benchexec, **selection)
        print_totals(console, result.totals, wide=args.wide,
                      title=f"twinsolve report: {args.db[0]} · {result.data.selection}")
        print_warnings(console, result.data.warnings)
        written = result.written
    for path in written:
        console.print(Text(f"wrote {path}"), soft_wrap=True)
    return 1 if failed else 0


# ---------------------------------------------------------------- generate / grade

def _progress(console: Console, label: str, total: int, quiet: bool):
    """A rich progress bar on stderr, only when it is a terminal and not `quiet`."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    err = Console(stderr=True)
    return Progress(TextColumn(f"[bold]{escape(label)}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=err, transient=True,
                    disable=quiet or not err.is_terminal or total < 2)


def cmd_generate(args: argparse.Namespace, console: Console) -> int:
    from .generation.driver import generate, make_plan, write

    options = {key.removeprefix(_OPTION_PREFIX): value for key, value in vars(args).items()
               if key.startswith(_OPTION_PREFIX) and value is not None and value is not False}
    for name, value in args.option:
        if name in options:
            raise UsageError(f"generate: option {name} given twice")
        options[name] = value
    if args.sheet and _named_file(args.sheet) and not args.sheet.lower().endswith(".pdf"):
        raise UsageError(f"--sheet {args.sheet}: a sheet is a PDF (OUT.pdf)")
    plan = make_plan(args.puzzle, level=args.difficulty, size=args.size, count=args.count,
                     seed=args.seed, options=options,
                     timeout=args.timeout)
    with _progress(console, f"generate {plan.describe()}s", plan.count, args.quiet) as bar:
        task = bar.add_task("", total=plan.count)
        found = generate(plan, jobs=args.jobs,
                         progress=lambda done: bar.update(task, completed=done))
    written = write(plan, found, args.out)
    for path in written:
        console.print(Text(f"wrote {path}"), soft_wrap=True)
    if args.sheet:
        from .pictures.draw import gather, sheet_file

        title = f"twinsolve: {plan.describe()}s, seed {plan.seed}"
        sheet_file(gather([str(p) for p in written]), args.sheet, 4, True, SOLVE_TIMEOUT, title)
        console.print(Text(f"wrote {args.sheet}"), soft_wrap=True)
    return 0


def cmd_render(args: argparse.Namespace, console: Console) -> int:
    from .pictures.draw import gather, render_files

    written, notes = render_files(gather(args.paths), args.out, args.format, args.solution,
                                  args.timeout, tuple(args.style))
    for note in notes:
        console.print(Text(f"note: {note}"), soft_wrap=True)
    console.print(Text(f"wrote {len(written)} picture{'s' * (len(written) != 1)} "
                       f"into {args.out}"), soft_wrap=True)
    return 0


def cmd_sheet(args: argparse.Namespace, console: Console) -> int:
    from .pictures.draw import gather, sheet_file

    if _named_file(args.out) and not args.out.lower().endswith(".pdf"):
        raise UsageError(f"--out {args.out}: a sheet is a PDF (OUT.pdf)")
    items = gather(args.paths)
    sheet_file(items, args.out, args.per_page, args.solutions, args.timeout, args.title,
               args.include_unsolvable, args.paper, tuple(args.style))
    console.print(Text(f"wrote {args.out}: {len(items)} puzzle{'s' * (len(items) != 1)}"),
                  soft_wrap=True)
    return 0


def _grade_line(item: Any) -> str:
    if item.grade is None or item.level is None:
        evidence = "" if item.grade is None else \
            "  " + ", ".join(f"{k} {v}" for k, v in item.grade.evidence.items())
        return f"{item.label}: {item.why}{evidence}"
    shown = []
    for key, value in item.grade.evidence.items():
        shown.append(f"{key} {'+'.join(map(str, value)) if isinstance(value, list) else value}")
    line = f"{item.label}: {item.level}  ({', '.join(shown)})"
    if item.hardest is not None:
        number, step = item.hardest
        line += f"\n  hardest step {number} ({step.technique}): {step.reason}"
    return line


def cmd_grade(args: argparse.Namespace, console: Console) -> int:
    from .generation.grade import distribution, grade_instance

    loaded = _valid_instances(args.paths, args.skip_invalid)
    for label, instance in loaded:  # every puzzle graded before the first file is: one clear error
        registry.generator(puzzle_of(instance))
        big = too_large(instance)
        if big:  # grading runs the full solve, which would hold the whole press grid
            raise UsageError(f"{label}: {big}; grading needs the full solve")
    graded = []
    for label, instance in loaded:
        item = grade_instance(label, instance, args.timeout)
        graded.append(item)
        if args.json:
            hardest = None if item.hardest is None else \
                {"number": item.hardest[0], **item.hardest[1].to_json()}
            print(json.dumps({"instance": label, "puzzle": item.puzzle, "level": item.level,
                              "evidence": None if item.grade is None else item.grade.evidence,
                              **({"message": item.why} if item.why else {}),
                              **({"hardest": hardest} if hardest else {})}), flush=True)
        else:
            console.print(Text(_grade_line(item)), soft_wrap=True)
    if not args.json and len(graded) > 1:
        for puzzle, counts in distribution(graded).items():
            parts = ", ".join(f"{level} {n}" for level, n in counts.items())
            console.print(Text(f"{puzzle}: {sum(counts.values())} graded: {parts}", style="bold"))
    return 0 if all(item.level is not None for item in graded) else 1


# ---------------------------------------------------------------- explain / hint

def cmd_explain(args: argparse.Namespace, console: Console) -> int:
    from .explain import explain
    from .explain.steps import NoSolution

    label, instance = _one_instance(args.path, "explain")
    for fmt in ("svg", "pdf"):
        path = getattr(args, fmt)
        if path and _named_file(path) and not path.lower().endswith(f".{fmt}"):
            raise UsageError(f"--{fmt} {path}: the file name must end in .{fmt}")
    try:
        found = explain(instance, args.level)
    except NoSolution as exc:
        _say(f"{label}: {exc}")
        return 1
    shown = found if args.steps is None else found.first(args.steps)
    if args.json:
        print(json.dumps({"instance": label, **shown.to_json(),
                          "total_steps": len(found.steps)}), flush=True)
    else:
        _print_steps(console, label, shown, len(found.steps))
    for fmt in ("svg", "pdf"):
        if getattr(args, fmt):
            from .explain.pictures import save

            save(instance, shown, getattr(args, fmt), fmt)
            if not args.json:
                console.print(Text(f"wrote {getattr(args, fmt)}"), soft_wrap=True)
    return 0


def _print_steps(console: Console, label: str, found: Any, total: int) -> None:
    """The numbered steps, the hardest named, the closing lines."""
    console.rule(f"[bold]{escape(label)}")
    for number, step in enumerate(found.steps, 1):
        kind = " (bifurcation)" if step.kind == "bifurcation" else ""
        console.print(Text(f"{number:>4}. [{step.technique}{kind}] {step.reason}"),
                      soft_wrap=True)
    if len(found.steps) < total:
        console.print(Text(f"      ... {total - len(found.steps)} more steps (--steps)"))
    hardest = found.hardest()
    if hardest is not None:
        step = found.steps[hardest]
        console.print(Text(f"hardest step: {hardest + 1} ({step.technique})"), soft_wrap=True)
    for line in found.summary:
        console.print(Text(line), soft_wrap=True)


def _state(text: str) -> Any:
    """The position `--state` gives: inline JSON, or the JSON text of a file."""
    from .core.instance_file import read_text
    from .core.json_text import parse_json
    from .core.run import file_problem

    if text.lstrip().startswith("{"):
        return parse_json(text, "--state")
    problem = file_problem(text)
    if problem:
        raise UsageError(f"--state {text}: {problem} (a position is inline JSON starting "
                         f"with '{{' or a JSON file)")
    return parse_json(read_text(text), text)


def cmd_hint(args: argparse.Namespace, console: Console) -> int:
    from .explain import Step, hint

    label, instance = _one_instance(args.path, "hint")
    state = _state(args.state)
    try:
        found = hint(instance, state)
    except InstanceError as exc:
        where = "--state" if args.state.lstrip().startswith("{") else args.state
        raise InstanceError(where, exc.line, exc.column, exc.message) from None
    if args.json:
        answer: dict[str, Any] = {"instance": label, "answer": "done"}
        if isinstance(found, Step):
            answer.update(answer="step", **found.to_json())
        elif found is not None:
            answer.update(answer="mistake", **found.to_json())
        print(json.dumps(answer), flush=True)
    elif found is None:
        console.print(Text(f"{label}: the position is complete and right"), soft_wrap=True)
    elif isinstance(found, Step):
        console.print(Text(f"{label}: next step [{found.technique}] {found.reason}"),
                      soft_wrap=True)
    else:
        console.print(Text(f"{label}: mistake at {found.item}: {found.reason}"), soft_wrap=True)
    return 0


# ---------------------------------------------------------------- import / export

def _one_instance(source: str, command: str = "export") -> tuple[str, Any]:
    found = instances([source])
    if len(found) != 1:
        raise UsageError(f"{source}: names {len(found)} instances; {command} takes exactly one")
    return found[0]


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    from .robots import play

    if args.replay is not None:
        return _replay(args, console)
    if args.verify or args.html:
        raise UsageError(f"{'--verify' if args.verify else '--html'} goes with --replay FILE")
    if args.level is None:
        if args.moves is not None or args.player or args.record or args.json:
            raise UsageError("play needs a LEVEL (a file, or a shipped level's number)")
        return _list_levels(console)
    path = play.resolve_level(args.level)
    level = play.load(path)
    seed = level.seed if args.seed is None else args.seed
    if args.moves is None and args.player is None:
        if args.json:
            raise UsageError("--json goes with --moves or --player (the terminal game has "
                             "no JSON)")
        _need_terminal("the terminal game", "give --moves or --player to play without one")
        from .robots import terminal

        return terminal.play(path, seed, record=args.record)
    game = play.new_game(level, seed)
    actions = play.moves_of(args.moves) if args.moves is not None else \
        play.scripted(game, args.player, 2 * level.turns, seed)  # (the game's time ends it)
    records = []
    for turn in play.turns(game, actions):
        records.append(turn)
        if args.json:
            print(json.dumps(turn, separators=(",", ":")))
            continue
        events = ", ".join(turn["events"]) or "-"
        console.print(f"tick {turn['tick']:>4}  {turn['action']}  player "
                      f"{tuple(turn['player'])}  shards left {turn['shards_left']}  "
                      f"events {events}  {turn['outcome']}", markup=False)
    if args.record:
        from .core.instance_file import read_text
        from .robots import replay

        replay.write(args.record, replay.build(level, read_text(path, str(path)),
                                               play.source_of(path), seed, records))
        if not args.json:
            console.print(f"wrote {args.record}", markup=False)
    return 0


def _need_terminal(what: str, otherwise: str) -> None:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError(f"{what} needs a terminal (stdin and stdout); {otherwise}")


def _list_levels(console: Console) -> int:
    from .robots import play

    levels = play.shipped_levels()
    if not levels:
        raise UsageError(f"no shipped levels in {play.LEVELS}: name a level file")
    console.print("the shipped levels ('twinsolve play N' plays level N):", markup=False)
    for number, path in enumerate(levels, start=1):
        level = play.load(path)
        name = dict(level.meta).get("name", path.stem)
        robots = len(level.robots)
        console.print(f"  {number}  {name:<16} {level.rows}x{level.cols}, {robots} "
                      f"robot{'s' * (robots != 1)}, {len(level.doors)} doors  ({path.name})",
                      markup=False)
    return 0


def _replay(args: argparse.Namespace, console: Console) -> int:
    from .robots import replay

    extra = [flag for flag, given in (("LEVEL", args.level is not None),
                                      ("--moves", args.moves is not None),
                                      ("--player", args.player), ("--seed", args.seed is not None),
                                      ("--record", args.record), ("--json", args.json)) if given]
    if extra:
        raise UsageError(f"--replay FILE takes no {extra[0]} (the replay holds the game)")
    watched = replay.read(args.replay)
    if args.verify:
        mismatch = replay.verify(watched)
        if mismatch is not None:
            console.print(f"{args.replay}: {mismatch}", markup=False, soft_wrap=True)
            return 1
        console.print(f"{args.replay}: all {len(watched['turns'])} turns verified", markup=False,
                      soft_wrap=True)
        return 0
    if args.html:
        from .files.atomic import write_text
        from .robots import replay_html

        write_text(args.html, replay_html.page(watched))
        console.print(f"wrote {args.html}", markup=False, soft_wrap=True)
        return 0
    _need_terminal("watching a replay", "use --verify or --html OUT.html without one")
    from .robots import terminal

    return terminal.watch(watched, args.replay)


def _port(text: str) -> int:
    number = ascii_int(text.strip())
    if number is None or not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a whole number 0..65535, got {quoted(text)}")
    return number


def cmd_studio(args: argparse.Namespace, console: Console) -> int:
    from .studio import serve
    from .studio.folders import SHIPPED

    if args.host != "127.0.0.1":
        _say(f"warning: listening on {args.host}, not 127.0.0.1: anyone who can reach it and "
             "has the token can read and save files in its folders")
    folders = args.folders or [str(SHIPPED)]
    serve(folders, port=args.port, host=args.host, open_browser=not args.no_browser,
          say=lambda line: console.print(Text(line), soft_wrap=True))
    return 0


def cmd_import(args: argparse.Namespace, console: Console) -> int:
    from .files.imports import import_source

    for path in import_source(args.source, args.out):
        console.print(f"wrote {path}")
    return 0


def cmd_new(args: argparse.Namespace, console: Console) -> int:
    from .scaffold import new_puzzle, plugin_names

    written = new_puzzle(args.name, args.out)
    names = plugin_names(args.name)
    console.print(f"wrote {args.out}: the plugin {names['distribution']}, a Star Battle "
                  f"puzzle named {args.name} ({len(written)} files). Next:", soft_wrap=True)
    for step in (f"pip install -e '{args.out}[test]'", "twinsolve list",
                 f"twinsolve solve {args.out}/instances --all --unique",
                 f"pytest {args.out}", "then make it yours: docs/writing-a-puzzle.md"):
        console.print(f"  {step}", soft_wrap=True, markup=False)
    return 0


def cmd_export(args: argparse.Namespace, console: Console) -> int:
    from .models import export

    if not (args.cnf or args.wcnf or args.cpsat or args.url):
        raise UsageError("export needs at least one of --cnf FILE, --wcnf FILE, --cpsat FILE, "
                         "--url FILE")
    source, instance = _one_instance(args.instance)
    if args.url:
        _export_url(instance, args.url, console)
        if not (args.cnf or args.wcnf or args.cpsat):
            return 0
    big = too_large(instance)
    if big:  # an encoding has a variable per cell: 10^10 of them would not fit either
        raise UsageError(f"{source}: {big}; its encodings would be as large")
    if args.cnf or args.wcnf:
        encoding = export.sat_export(instance)
        if args.cnf:
            export.write_cnf(encoding, args.cnf)
            console.print(f"wrote {args.cnf} ({encoding.variables} variables, "
                          f"{len(encoding.clauses)} clauses)")
        if args.wcnf:
            export.write_wcnf(encoding, args.wcnf)
            console.print(f"wrote {args.wcnf} ({len(encoding.cost)} soft clauses)")
    if args.cpsat:
        export.write_cpsat(export.cpsat_export(instance), args.cpsat)
        console.print(f"wrote {args.cpsat}")
    return 0


def _export_url(instance: Any, path: str, console: Console) -> None:
    """The instance's puzz.link URL to `path` (`-`: standard output), or one line naming
    the puzzles that have URLs when its puzzle has none."""
    from .files.atomic import STDOUT, write_text

    entry = puzzle_of(instance)
    if not registry.has(entry, "url_reader"):
        raise UsageError(f"{entry.name} has no puzz.link URL "
                         f"(URLs: {', '.join(registry.url_puzzles())})")
    url = registry.capability(entry, "url_reader").encode_url(instance)
    write_text(path, url + "\n")
    if path != STDOUT:
        console.print(f"wrote {path}")


_COMMANDS = {"list": lambda args, console: cmd_list(console), "solve": cmd_solve,
             "bench": cmd_bench, "report": cmd_report, "generate": cmd_generate,
             "grade": cmd_grade, "play": cmd_play, "import": cmd_import,
             "export": cmd_export, "render": cmd_render, "sheet": cmd_sheet, "new": cmd_new,
             "studio": cmd_studio, "explain": cmd_explain, "hint": cmd_hint}

# Every option naming a file or a folder a command writes (files.atomic: one set of rules
# for all of them), checked before the command's work so a long run never ends in "cannot
# write". `-` (standard output) is taken where nothing else must go there; the command's
# own lines then go to stderr. `solve` prints its answers there, `play` its turns.
_OUTPUT_FILES = {"solve": ("svg", "png", "pdf"), "sheet": ("out",), "generate": ("sheet",),
                 "explain": ("svg", "pdf"),
                 "play": ("record", "html"), "export": ("cnf", "wcnf", "cpsat", "url"),
                 "report": ("html", "csv", "json", "markdown", "latex", "solutions")}
_OUTPUT_FOLDERS = {"render": ("out",), "generate": ("out",), "import": ("out",),
                   "report": ("plots", "benchexec")}
_STDOUT_TAKEN = {**{("solve", fmt): "the answers" for fmt in ("svg", "png", "pdf")},
                 ("play", "record"): "the game's turns"}


# The suffixes of the files twinsolve writes: a folder output not made yet and named so is
# refused (`_not_named_like_a_file`).
_FILE_SUFFIXES = frozenset({"svg", "png", "pdf", "txt", "json", "html", "csv", "md", "tex",
                            "cnf", "wcnf", "pb", "sqlite"})


def _not_named_like_a_file(args: argparse.Namespace, name: str) -> None:
    """Refuse folder output `--name` when it does not exist yet and is named like a file
    (`render --out board.png`). Why: whoever types that means a picture, and would find a
    folder called board.png holding board.svg; a folder made beforehand is taken as it is."""
    folder = Path(getattr(args, name))
    suffix = folder.suffix.lower().lstrip(".")
    if suffix not in _FILE_SUFFIXES or folder.exists() or folder.is_symlink():
        return
    hint = ""
    if args.command == "render" and suffix in ("svg", "png", "pdf"):
        hint = f" (--format {suffix} picks the pictures' format)"
    raise UsageError(f"--{name} {folder}: names a folder, but is named like a .{suffix} "
                     f"file; name a folder{hint}")


def _check_outputs(args: argparse.Namespace) -> bool:
    """Refuse (one line) every output path the command could not write; True when one of
    them is standard output."""
    from .files.atomic import STDOUT, check_folder, check_output

    for name in _OUTPUT_FOLDERS.get(args.command, ()):
        if getattr(args, name) is not None:
            check_folder(getattr(args, name))
            _not_named_like_a_file(args, name)
    to_stdout = [name for name in _OUTPUT_FILES.get(args.command, ())
                 if getattr(args, name) == STDOUT]
    for name in to_stdout:
        if (args.command, name) in _STDOUT_TAKEN:
            raise UsageError(f"--{name} -: standard output carries "
                             f"{_STDOUT_TAKEN[args.command, name]}; name a file")
    if len(to_stdout) > 1:
        raise UsageError(f"--{to_stdout[0]} and --{to_stdout[1]} both name standard output "
                         "(-); only one output can go there")
    for name in _OUTPUT_FILES.get(args.command, ()):
        if getattr(args, name) is not None:
            check_output(getattr(args, name))
    return bool(to_stdout)


def _named_file(path: str) -> bool:
    """Whether `path` is written as a plain file, whose name's suffix then says its format:
    not standard output, a FIFO or a device (files.atomic.check_output)."""
    from .files.atomic import check_output

    return check_output(path).how == "replace"


def _printable_streams() -> None:
    """Names that are not UTF-8 (file names as surrogate escapes, lone surrogates in JSON
    keys) print as backslash escapes instead of raising UnicodeEncodeError. The rich
    Console writes through sys.stdout, so it inherits this."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _say(message: str) -> None:
    """Every line of a message on stderr, each prefixed (the source collector's message
    lists every bad file, one per line)."""
    for line in message.splitlines() or [""]:
        print(f"{PROG}: {line}", file=sys.stderr, flush=True)


def _parse(argv: list[str]) -> argparse.Namespace | int:
    """The arguments, or the exit code when there is nothing to run: no arguments at all
    (the help is printed), `--help` or `--version`."""
    parser = build_parser(_generating(argv), helping=bool({"-h", "--help"} & set(argv)))
    if not argv:
        parser.print_help()
        return 2
    try:
        return parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits after printing the help or the version
        return exc.code if isinstance(exc.code, int) else 0


def _console_width() -> int | None:
    """None (rich asks the terminal, or reads COLUMNS) for a terminal or when COLUMNS is
    set; else 160: piped output is not squeezed into 80 columns, unless COLUMNS says so."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS", "").strip().isdigit():
        return None
    return 160


def main(argv: Sequence[str] | None = None) -> int:
    _printable_streams()
    console = Console(highlight=False, width=_console_width())
    try:
        args = _parse(sys.argv[1:] if argv is None else list(argv))
        if isinstance(args, int):
            return args
        if _check_outputs(args):  # an output goes to stdout: the command's lines to stderr
            console = Console(stderr=True, highlight=False,
                              width=None if sys.stderr.isatty() else 160)
        return _COMMANDS[args.command](args, console)
    except (InstanceError, UsageError) as exc:
        _say(str(exc))
        return 2
    except KeyboardInterrupt:
        _say("interrupted")
        return 130
    except BrokenPipeError:
        # The reader left (`| head`): nothing more to say, and nothing to flush at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
