"""The studio's live game: one turn's round trip, from the page's request to its answer.

    python -m benchmarks.studio_game [--turns N] [--levels 1,2,3,4]

Starts `twinsolve studio --no-browser --port 0` (a real server in its own
process, as a person runs it), starts a game of each shipped level and plays
N turns (default 60) through `POST /api/game/turn`, each over a fresh local
connection as the page's `fetch` may: the time from sending the request to
having read the whole answer, the turn's record included. Beside it, in
this process, the same turns played straight on the engine
(`robots.play.turns` on `robots.play.new_game`): what the server adds is the
difference. The actions cycle through moves, waits and an undo now and then;
a turn the game does not take (after a capture, with no undo left) starts
the game again. Prints per level the median, 90th percentile and worst in
ms, and the ratio of the medians; the target is a median round trip under
30 ms on the shipped levels. Times are wall-clock: quote medians, with the
load average printed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ACTIONS = "RRDDWLLUUWRDWLZ"
TARGET_MS = 30.0


def _start() -> tuple[subprocess.Popen, str, str]:
    proc = subprocess.Popen([sys.executable, "-m", "twinsolve", "studio", "--no-browser",
                             "--port", "0", str(ROOT / "instances" / "robots")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT)
    line = proc.stdout.readline()
    found = re.search(r"(http://[^/]+)/\?token=(\S+)", line)
    if not found:
        proc.kill()
        raise SystemExit(f"the studio did not start: {line!r} {proc.stderr.read()[-500:]}")
    return proc, found.group(1), found.group(2)


def _post(base: str, token: str, path: str, body: dict) -> tuple[float, dict]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     method="POST", headers={"X-Twinsolve-Token": token})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        answer = json.loads(response.read())
    return (time.perf_counter() - started) * 1000, answer


def _served(base: str, token: str, level: int, turns: int) -> list[float]:
    times: list[float] = []
    _, facts = _post(base, token, "/api/game/new", {"level": level})
    game = facts["game"]
    for turn in range(turns):
        action = ACTIONS[turn % len(ACTIONS)]
        if not facts["accepts"][action]:
            action = next((a for a in "Z" if facts["accepts"][a]), None)
            if action is None:
                _, facts = _post(base, token, "/api/game/new", {"level": level})
                game = facts["game"]
                continue
        took, facts = _post(base, token, "/api/game/turn", {"game": game, "action": action})
        times.append(took)
    return times


def _direct(level: int, turns: int) -> list[float]:
    from twinsolve.robots import play

    path = play.shipped_levels()[level - 1]
    loaded = play.load(path)
    game = play.new_game(loaded, loaded.seed)
    times: list[float] = []
    for turn in range(turns):
        action = ACTIONS[turn % len(ACTIONS)]
        if not game.accepts(action):
            action = "Z" if game.accepts("Z") else None
            if action is None:
                game = play.new_game(loaded, loaded.seed)
                continue
        started = time.perf_counter()
        list(play.turns(game, action))
        times.append((time.perf_counter() - started) * 1000)
    return times


def _summary(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"{statistics.median(ordered):7.2f} {p90:7.2f} {ordered[-1]:7.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--levels", default="1,2,3,4")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    proc, base, token = _start()
    worst = 0.0
    try:
        print(f"{'level':>5}  {'served ms: median    p90   worst':>31}  "
              f"{'engine ms: median    p90   worst':>31}  ratio")
        for level in levels:
            served, direct = _served(base, token, level, args.turns), _direct(level, args.turns)
            ratio = statistics.median(served) / max(statistics.median(direct), 1e-9)
            worst = max(worst, statistics.median(served))
            print(f"{level:>5}  {_summary(served):>31}  {_summary(direct):>31}  {ratio:5.1f}")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    verdict = "within" if worst < TARGET_MS else "OVER"
    print(f"worst median round trip {worst:.2f} ms: {verdict} the {TARGET_MS:g} ms target "
          f"(load average {load}, {os.cpu_count()} cores)")
    return 0 if worst < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
