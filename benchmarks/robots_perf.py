"""The stealth game's robots: decision time per turn, search nodes, and strength.

    python -m benchmarks.robots_perf [--turns N] [--games N] [--jobs N]
                                     [--only speed,tcod,strength,wins] [--write FILE]

speed: all robots' decisions per turn (the time spent in their brains, the
rules left out) over N simulated turns (default 10,000) of the greedy and
evasive scripted players on the shipped levels 1-4, and N on the 64x64
stress level; medians, 90th percentiles and worst, with search nodes per
turn (targets: median under 2 ms on the shipped levels, under 10 ms on
64x64). tcod: the engine's cost field (`search.fields.cost_field`) against
tcod's `dijkstra2d` on the same maps, as a ratio (when `pip install tcod`
has been done; tcod is no dependency of the project). strength: over N
seeded games per level (default 200), the capture rate of the greedy and
the evasive player by the level's robots, by each kind alone (every robot
replaced by that kind, homes kept) and by as many random-walk robots (the
baseline), with the median turn of capture; printed as a Markdown table for
the README. A kind beats the baseline with a higher capture rate, or, where
both catch every player (100%, nothing can be higher), by catching sooner;
the run exits 1 when some kind does not. The games run in `--jobs`
processes (each game is deterministic, so the table does not depend on it).
wins: the cautious scripted player's game on every shipped level (the
first of seeds 0-4 it wins), whether it won and collected every shard and
EMP pickup, its turns and undos; with `--write FILE` the winning lines as
the JSON `tests/robots/winning_lines.json` holds (level -> seed and moves),
which the test suite replays; the run exits 1 when some level has none.
Times are wall-clock on this machine: quote medians, the machine is noisy.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import os
import statistics
import time
from dataclasses import replace
from pathlib import Path

from twinsolve.robots import play
from twinsolve.robots.ai import costs, random_walk
from twinsolve.robots.game import Game, Outcome
from twinsolve.robots.level import Level, Robot, RobotKind
from twinsolve.search.fields import cost_field

LEVELS = Path(__file__).resolve().parents[1] / "instances" / "robots"
SHIPPED = [LEVELS / f"level-{n}.txt" for n in range(1, 5)]
STRESS = LEVELS / "stress-64x64.txt"


def _timed_game(level: Level, player: str, seed: int, limit: int) -> tuple[list, list]:
    """Per turn: seconds spent in the robots' brains, and their search nodes."""
    game = play.new_game(level, seed)
    spent = [0.0]

    def timed(brain):
        def run(view):
            began = time.perf_counter()
            step = brain(view)
            spent[0] += time.perf_counter() - began
            return step
        return run
    game.brains = [timed(brain) for brain in game.brains]
    seconds, nodes = [], []
    for record in play.turns(game, play.scripted(game, player, limit, seed)):
        seconds.append(spent[0])
        spent[0] = 0.0
        nodes.append(sum(robot["nodes"] for robot in record["robots"]))
    return seconds, nodes


def speed_row(label: str, paths: list[Path], turns: int, target_ms: float) -> None:
    seconds: list[float] = []
    nodes: list[int] = []
    seed = 0
    while len(seconds) < turns:
        for path in paths:
            for player in ("greedy", "evasive"):
                s, n = _timed_game(play.load(path), player, seed, turns - len(seconds))
                seconds += s
                nodes += n
        seed += 1
    ms = sorted(1000 * s for s in seconds[:turns])
    median = statistics.median(ms)
    print(f"  {label:<22} {turns} turns  median {median:6.3f} ms  p90 "
          f"{ms[int(0.9 * len(ms))]:6.3f} ms  worst {ms[-1]:7.2f} ms  nodes/turn median "
          f"{statistics.median(nodes[:turns]):g} mean {statistics.mean(nodes[:turns]):.0f}  "
          f"target {target_ms:g} ms: {'met' if median < target_ms else 'NOT met'} "
          f"({median / target_ms:.2f} of it)", flush=True)


def tcod_ratio(repeat: int = 50) -> None:
    try:
        import numpy as np
        import tcod.path
    except ImportError:
        print("  tcod is not installed (pip install tcod): skipped")
        return
    for path in [*SHIPPED, STRESS]:
        level = play.load(path)
        game = Game(level, [lambda view: view.cell] * len(level.robots))
        grid, cost = game.grid, costs(game.layout.tiles, 0, {})
        start = game.state.player
        # tcod's cost array: the same entry costs, 0 (blocked) on closed cells.
        blocked = np.array([[cost[r * grid.cols + c] if grid.is_open(r * grid.cols + c)
                             else 0 for c in range(grid.cols)] for r in range(grid.rows)],
                           dtype=np.int32)
        ours, theirs = [], []
        for _ in range(repeat):
            began = time.perf_counter()
            field = cost_field(grid, [start], cost)
            ours.append(time.perf_counter() - began)
            began = time.perf_counter()
            dist = np.full((grid.rows, grid.cols), np.iinfo(np.int32).max, dtype=np.int32)
            dist[divmod(start, grid.cols)] = 0
            tcod.path.dijkstra2d(dist, blocked, 1, None, out=dist)
            theirs.append(time.perf_counter() - began)
        flat = dist.ravel()
        same = all(field[v] == (flat[v] if flat[v] != np.iinfo(np.int32).max else -1)
                   for v in range(grid.size))
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"  {path.name:<18} engine {1000 * a:7.3f} ms  tcod {1000 * b:7.3f} ms  "
              f"engine / tcod {a / b:6.1f}x  same field: {same}", flush=True)


def _variant(level: Level, kind: RobotKind | None) -> Level:
    if kind is None:
        return level
    return replace(level, robots=tuple(Robot(kind, robot.home) for robot in level.robots))


@functools.cache
def _load(path: Path) -> Level:
    """A level file read once per process, not once per game (levels are frozen)."""
    return play.load(path)


def _capture_turn(job: tuple[Path, RobotKind | None, bool, str, int]) -> int | None:
    """The turn on which the player of one seeded game was captured (None: not captured)."""
    path, kind, walkers, player, seed = job
    level = _variant(_load(path), kind)
    game = play.new_game(level, seed)
    if walkers:
        game.brains = [random_walk(game.rng)] * len(level.robots)  # the game's one generator
    for _ in play.turns(game, play.scripted(game, player, level.turns, seed)):
        pass
    return game.state.tick if game.state.outcome is Outcome.CAPTURED else None


def _rate(turns: list[int | None]) -> tuple[float, float]:
    """The capture rate, and the median turn of capture (inf when never captured)."""
    caught = [turn for turn in turns if turn is not None]
    return len(caught) / len(turns), statistics.median(caught) if caught else math.inf


def _beats(robots: tuple[float, float], walkers: tuple[float, float]) -> bool:
    """A higher capture rate; at an equal rate of 100% (nothing can be higher), sooner."""
    if robots[0] != walkers[0]:
        return robots[0] > walkers[0]
    return robots[0] == 1.0 and robots[1] < walkers[1]


def strength(games: int, jobs: int) -> bool:
    """The strength table; True when every kind beats the random walk everywhere."""
    columns = [("all four", None, False), *((kind.name.lower(), kind, False)
                                            for kind in RobotKind), ("random walk", None, True)]
    print(f"  capture rate over {games} seeded games per level, greedy / evasive player "
          "(median turn of capture in brackets)\n")
    print("  | level | " + " | ".join(name for name, _, _ in columns) + " |")
    print("  |---|" + "---|" * len(columns))
    players = ("greedy", "evasive")
    work = [(path, kind, walkers, player, seed) for path in SHIPPED
            for _, kind, walkers in columns for player in players for seed in range(games)]
    with multiprocessing.Pool(jobs) as pool:
        results = pool.map(_capture_turn, work, chunksize=8)
    rates = {}
    for start in range(0, len(work), games):
        path, kind, walkers, player, _ = work[start]
        rates[path, kind, walkers, player] = _rate(results[start:start + games])
    failures = []
    for path in SHIPPED:
        cells = []
        for name, kind, walkers in columns:
            cells.append(" / ".join(
                f"{100 * rate:.0f}% ({median:.0f})" if median != math.inf else f"{100 * rate:.0f}%"
                for rate, median in (rates[path, kind, walkers, player] for player in players)))
            if kind is not None:
                failures += [f"{path.stem} {name} vs {player}" for player in players
                             if not _beats(rates[path, kind, False, player],
                                           rates[path, None, True, player])]
        print(f"  | {path.stem} | " + " | ".join(cells) + " |", flush=True)
    print("\n  every kind beats the random walk (a higher rate; at 100% each, sooner): "
          + ("yes" if not failures else "NO: " + ", ".join(failures)))
    return not failures


def winning_line(path: Path, seeds: int = 5) -> tuple[int, str, dict] | None:
    """(seed, moves, facts) of the cautious player's first won game on the level at `path`
    (seeds 0..seeds-1), or None."""
    level = play.load(path)
    for seed in range(seeds):
        game = play.new_game(level, seed)
        records = list(play.turns(game, play.scripted(game, "cautious", 4 * level.turns, seed)))
        if game.state.outcome is Outcome.WON:
            last = records[-1]
            return seed, "".join(record["action"] for record in records), {
                "turns": last["tick"] + 1, "undos": sum(r["action"] == "Z" for r in records),
                "everything": not last["shards"] and not last["pickups"]}
    return None


def wins(write: str | None) -> bool:
    """The winning lines of every shipped level; True when each has one."""
    lines, ok = {}, True
    for path in [*SHIPPED, STRESS]:
        began = time.perf_counter()
        found = winning_line(path)
        took = time.perf_counter() - began
        if found is None:
            ok = False
            print(f"  {path.stem:<14} no win by the cautious player (seeds 0-4), {took:.0f} s")
            continue
        seed, moves, facts = found
        lines[path.stem] = {"seed": seed, "moves": moves}
        print(f"  {path.stem:<14} won, seed {seed}, {facts['turns']} turns, {facts['undos']} "
              f"undos, every shard and EMP pickup taken: {facts['everything']}  ({took:.0f} s)",
              flush=True)
    if write:
        Path(write).write_text(json.dumps(lines, indent=1, sort_keys=True) + "\n")
        print(f"  wrote {write}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--only", default="speed,tcod,strength,wins")
    parser.add_argument("--write", metavar="FILE", help="wins: write the winning lines here")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="processes for the strength games (default: every core)")
    args = parser.parse_args(argv)
    sections = set(args.only.split(","))
    if "speed" in sections:
        print("== all robots' decisions per turn (scripted players, the rules left out)")
        speed_row("shipped levels 1-4", SHIPPED, args.turns, 2.0)
        speed_row("64x64, four robots", [STRESS], args.turns, 10.0)
    if "tcod" in sections:
        print("== cost field from the player's start: the engine against tcod.dijkstra2d")
        tcod_ratio()
    failed = False
    if "strength" in sections:
        print("== strength")
        failed |= not strength(args.games, args.jobs)
    if "wins" in sections:
        print("== a winning line per shipped level (the cautious scripted player)")
        failed |= not wins(args.write)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
