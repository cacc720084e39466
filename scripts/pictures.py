"""Remake the README's pictures and one printable sheet per puzzle: `python scripts/pictures.py`.

Every file in docs/pictures/ comes from one of the twinsolve commands in
`COMMANDS`, run here in this process from the project's root, in order:
`render` for the pictures the README shows, `sheet` for each puzzle's graded
set (instances/<puzzle>/graded/: every level, the rules on the first page,
the solutions at the end) as docs/pictures/sheet-<puzzle>.pdf. The same
input gives the same bytes (SVG written directly, PDF without dates), so
tests/pictures/test_readme_pictures.py runs this list again and compares
the files byte for byte; after a change to a picture, run this script and
commit what it rewrote.

    python scripts/pictures.py              # into docs/pictures/
    python scripts/pictures.py --out DIR    # somewhere else, to compare
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from twinsolve.cli import main as twinsolve

ROOT = Path(__file__).resolve().parents[1]
PICTURES = ROOT / "docs" / "pictures"
PUZZLES = {"cave": "Cave (Corral)", "chess": "Solitaire Chess", "clock": "Clock stepping",
           "jugs": "Water jugs", "lightsout": "Lights Out", "mirror": "Mirror maze"}

# Each command without its --out, and the files it makes there (a render writes into the
# folder; a sheet is the one file named).
COMMANDS: list[tuple[list[str], list[str]]] = [
    (["render", "instances/cave/unique-10x10-seed4.txt", "instances/mirror/multi-20x20.txt",
      "instances/chess/mixed-6x6-07.txt", "instances/jugs/die-hard-holds-4.txt",
      "instances/lightsout/random-mod3-05x05.txt", "--solution"],
     ["unique-10x10-seed4-solution.svg", "multi-20x20-solution.svg",
      "mixed-6x6-07-solution.svg", "die-hard-holds-4-solution.svg",
      "random-mod3-05x05-solution.svg"]),
    (["render", "instances/robots/level-2.txt"], ["level-2.svg"]),
    *((["sheet", f"instances/{puzzle}/graded", "--solutions",
        "--title", f"twinsolve · {title}"], [f"sheet-{puzzle}.pdf"])
      for puzzle, title in PUZZLES.items()),
]


def command_line(args: list[str], names: list[str], out: Path) -> list[str]:
    """The full command: a render writes into `out`, a sheet writes `out`/its file."""
    target = out if args[0] == "render" else out / names[0]
    return [*args, "--out", str(target)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PICTURES,
                        help="the folder to write into (default docs/pictures)")
    out = parser.parse_args(argv).out.resolve()
    os.chdir(ROOT)  # the commands name the instances from the project's root
    out.mkdir(parents=True, exist_ok=True)
    for args, names in COMMANDS:
        code = twinsolve(command_line(args, names, out))
        if code:
            return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
