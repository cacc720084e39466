"""The `twinsolve` command line (DESIGN.md, "CLI contract").

    twinsolve list
    twinsolve solve PATH... [--backend NAME | --all] [--unique] [--count] [--timeout S] [--json]
    twinsolve bench PATH... [--backends a,b,c] [--timeout S] [--memory MB] [--jobs N]
                    [--repeat N] [--db FILE] [--executor local|dask] [--scheduler ADDR]
                    [--quick] [--quiet]
    twinsolve report DB [--html FILE] [--csv FILE] [--json FILE] [--plots DIR]

Exit codes: 0 all good; 1 a run failed or was wrong (for `solve`: error,
crash, memout or timeout; for `bench`, where time-outs are measurements:
error, crash or wrong); 2 bad input or usage, reported as one line naming
the file, line and problem.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from .core.errors import InstanceError, UsageError
from .core.limits import Limits
from .core.registry import puzzle_of, puzzles
from .core.result import Result, Status
from .core.run import run
from .core.sources import instances

__all__ = ["main"]

FAILED = (Status.WRONG, Status.ERROR, Status.CRASH, Status.MEMOUT, Status.TIMEOUT)


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def _positive_int(text: str) -> int:
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1: {text!r}")
    return int(text)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="twinsolve", description="Model, solve and benchmark logic puzzles.")
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
    solve.add_argument("--timeout", type=_positive_float, metavar="S", help="seconds per run")
    solve.add_argument("--json", action="store_true", help="one JSON object per line")

    bench = commands.add_parser("bench", help="run back-ends over instances and compare")
    bench.add_argument("paths", nargs="+", metavar="PATH")
    bench.add_argument("--backends", metavar="a,b,c",
                       help="back-end specs (default: every back-end of each puzzle)")
    bench.add_argument("--timeout", type=_positive_float, metavar="S",
                       help="seconds per run (default 10; 5 with --quick)")
    bench.add_argument("--memory", type=_positive_int, metavar="MB", help="memory per run")
    bench.add_argument("--jobs", type=_positive_int, metavar="N", default=os.cpu_count() or 1,
                       help="worker processes (default: cores)")
    bench.add_argument("--repeat", type=_positive_int, metavar="N", default=1,
                       help="runs per instance and back-end, with seeds 0..N-1")
    bench.add_argument("--db", default="twinsolve-bench.sqlite", metavar="FILE",
                       help="SQLite results database (default: ./twinsolve-bench.sqlite)")
    bench.add_argument("--executor", choices=("local", "dask"), default="local")
    bench.add_argument("--scheduler", metavar="ADDR", help="Dask scheduler address")
    bench.add_argument("--unique", action="store_true", help="ask every run for uniqueness")
    bench.add_argument("--count", action="store_true", help="ask every run to count")
    bench.add_argument("--quick", action="store_true",
                       help="the quick suite: skip '# suite: full' instances, 5 s runs")
    bench.add_argument("--quiet", action="store_true", help="no progress bar")

    importer = commands.add_parser("import", help="puzz.link URLs and puzzlekit datasets to files")
    importer.add_argument("source", metavar="SOURCE", help="a puzz.link URL or a dataset .json")
    importer.add_argument("--out", required=True, metavar="DIR", help="folder for the files")

    export = commands.add_parser("export", help="write an instance's encoding for other solvers")
    export.add_argument("instance", metavar="INSTANCE", help="an instance file or URL")
    export.add_argument("--cnf", metavar="FILE", help="DIMACS CNF of the sat encoding")
    export.add_argument("--wcnf", metavar="FILE", help="DIMACS WCNF (MaxSAT) with the objective")
    export.add_argument("--cpsat", metavar="FILE",
                        help="CP-SAT model protobuf (text if FILE ends in txt)")

    report = commands.add_parser("report", help="tables, exports and plots of a results DB")
    report.add_argument("db", metavar="DB", help="SQLite results database from 'bench --db'")
    report.add_argument("--html", metavar="FILE", help="one self-contained HTML page")
    report.add_argument("--csv", metavar="FILE", help="one row per run, raw values and verdict")
    report.add_argument("--json", metavar="FILE", help="summary, sessions and runs as JSON")
    report.add_argument("--plots", metavar="DIR", help="cactus, scatter and nodes plots "
                        "(PNG and SVG)")
    return parser


# ---------------------------------------------------------------- list

def cmd_list(console: Console) -> int:
    table = Table(title="twinsolve puzzles and back-ends")
    table.add_column("puzzle")
    table.add_column("back-ends")
    for entry in puzzles():
        names = ", ".join(b.name + (" (tests)" if b.test_only else "") for b in entry.backends
                          if not b.name.startswith("fault-"))
        table.add_row(f"{entry.name} ({entry.title})", names)
    console.print(table)
    return 0


# ---------------------------------------------------------------- solve

def _json_line(path: str, puzzle: str, backend: str, result: Result, with_count: bool) -> str:
    line: dict[str, Any] = {
        "puzzle": puzzle, "instance": path, "backend": backend,
        "status": result.status.value, "objective": result.objective,
        "unique": result.unique, "verified": result.verified,
        "solution": result.solution, "stats": result.stats.to_dict(),
    }
    if with_count:
        line["count"] = result.count
    if result.message:
        line["message"] = result.message
    return json.dumps(line)


def _describe(backend: str, result: Result) -> str:
    parts = [f"[bold]{backend}[/]: [bold]{result.status.value}[/]"]
    if result.objective is not None:
        parts.append(f"objective {result.objective}")
    if result.unique is not None:
        parts.append("unique" if result.unique else "not unique")
    if result.count is not None:
        parts.append(f"{result.count} solution(s)")
    if result.verified:
        parts.append("verified")
    stats = result.stats.to_dict()
    timing = (f"nodes {stats.pop('nodes')}, build {stats.pop('build_s') * 1000:.1f} ms, "
              f"solve {stats.pop('solve_s') * 1000:.1f} ms")
    extra = ", ".join(f"{k} {v}" for k, v in stats.items())
    text = ", ".join(parts) + f"  [dim]({timing}{', ' + extra if extra else ''})[/]"
    if result.message:
        text += f"\n  {result.message}"
    return text


def cmd_solve(args: argparse.Namespace, console: Console) -> int:
    limits = Limits(timeout=args.timeout, unique=args.unique, count=args.count)
    loaded = instances(args.paths)
    if not loaded:
        raise UsageError("no instances (*.txt, *.json) under the given paths")
    exit_code = 0
    for path, instance in loaded:
        entry = puzzle_of(instance)
        specs = [b.name for b in entry.default_backends()] if args.all else [args.backend]
        shown_solution = False
        for index, spec in enumerate(specs):
            result = run(instance, spec, limits)
            if result.status in FAILED:
                exit_code = 1
            if args.json:
                print(_json_line(path, entry.name, spec, result, args.count), flush=True)
                continue
            if index == 0:  # after the first run, so a usage error prints nothing first
                console.rule(f"[bold]{path}")
            if not shown_solution and (result.solution or spec == specs[-1]):
                console.print(entry.rules.render(instance, result.solution))
                shown_solution = result.solution is not None
            console.print(_describe(spec, result))
    return exit_code


# ---------------------------------------------------------------- bench

def cmd_bench(args: argparse.Namespace, console: Console) -> int:
    from .bench.execute import Budget
    from .bench.suite import SuiteConfig, run_suite
    from .bench.summary import summarise, summary_table

    backends = [s.strip() for s in args.backends.split(",") if s.strip()] if args.backends else None
    budget = Budget(timeout=args.timeout or (5.0 if args.quick else 10.0), memory_mb=args.memory,
                    unique=args.unique, count=args.count)
    config = SuiteConfig(args.paths, backends, budget, args.quick, args.repeat, args.db,
                         args.jobs, args.executor)
    executor = None
    if args.executor == "dask":
        from .bench.dask_executor import DaskExecutor

        if not args.scheduler:
            raise UsageError("--executor dask needs --scheduler ADDRESS (e.g. tcp://host:8786)")
        executor = DaskExecutor(args.scheduler)
    records = run_suite(config, console=None if args.quiet else console, executor=executor)
    console.print(summary_table(summarise(records)))
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
    from .bench.summary import summary_table

    result = report(args.db, html=args.html, csv=args.csv, json_path=args.json,
                    plots=args.plots)
    console.print(summary_table(result.summary, title=f"twinsolve report: {args.db}"))
    for path in result.written:
        print(f"wrote {path}", flush=True)
    return 0


# ---------------------------------------------------------------- import / export

def _one_instance(source: str) -> tuple[str, Any]:
    found = instances([source])
    if len(found) != 1:
        raise UsageError(f"{source}: names {len(found)} instances; export takes exactly one")
    return found[0]


def cmd_import(args: argparse.Namespace, console: Console) -> int:
    from .core.imports import import_source

    for path in import_source(args.source, args.out):
        console.print(f"wrote {path}")
    return 0


def cmd_export(args: argparse.Namespace, console: Console) -> int:
    from .models import export

    if not (args.cnf or args.wcnf or args.cpsat):
        raise UsageError("export needs at least one of --cnf FILE, --wcnf FILE, --cpsat FILE")
    _, instance = _one_instance(args.instance)
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


_COMMANDS = {"list": lambda args, console: cmd_list(console), "solve": cmd_solve,
             "bench": cmd_bench, "report": cmd_report, "import": cmd_import,
             "export": cmd_export}


def main(argv: Sequence[str] | None = None) -> int:
    # Piped output gets a fixed width so tables are not squeezed into 80 columns.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
    try:
        args = build_parser().parse_args(argv)
        return _COMMANDS[args.command](args, console)
    except (InstanceError, UsageError) as exc:
        print(f"twinsolve: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("twinsolve: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
