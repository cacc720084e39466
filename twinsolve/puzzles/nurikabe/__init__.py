"""Nurikabe: the whole puzzle in one folder.

Rules, hand (the engine's island and region rules, probing, branching), models (CP-SAT and
SAT with lazy connectivity cuts), generate, picture, and its formats: puzzlink (puzz.link
URLs) and puzzlekit (dataset JSON), and peer (the puzzlekit package's solver as a
back-end). This file declares the puzzle's registry entry; nothing here imports a solver,
so listing the puzzles stays cheap.
"""

from ...core.declaration import Backend, standard

# A peer for side-by-side benchmarks (`peer.py`, `pip install -e '.[peers]'`), never
# planned by default: name it with --backends.
_PUZZLEKIT = Backend("puzzlekit", f"{__name__}.peer:solve_puzzlekit",
                     "the puzzlekit package's OR-Tools solver (peer, benchmarks only)",
                     supports_target=f"{__name__}.peer:puzzlekit_supports",
                     bare_option="workers", by_default=False,
                     options_target=f"{__name__}.peer:check_puzzlekit_options")

# The rules for people: a printed sheet says them (`Puzzle.rules_text`).
RULES = ("Shade cells so that the shaded cells are connected and no 2x2 block is all shaded; "
         "the unshaded cells form islands, each holding exactly one number, its size.")

ENTRY = standard(__name__, "Nurikabe", rules_text=RULES, optimisation=False,
                 own_options=("hand", "cpsat", "sat"), generator="generate", picture="picture",
                 sat_export="models:sat_export", cpsat_export="models:cpsat_export",
                 url_reader="puzzlink", dataset_reader="puzzlekit", extra=(_PUZZLEKIT,),
                 strategy="strategies:small_instances", play="play",
                 explanation="explain")
