"""Nurikabe: the whole puzzle in one folder.

Rules, hand (the engine's island and region rules, probing, branching), models (CP-SAT and
SAT with lazy connectivity cuts), generate, picture, and its formats: puzzlink (puzz.link
URLs) and puzzlekit (dataset JSON), and peer (the puzzlekit package's solver as a
back-end). This file declares the puzzle's registry entry; nothing here imports a solver,
so listing the puzzles stays cheap.
"""

from ...core.declaration import standard
from ...models import puzzlekit_peer

# A peer for side-by-side benchmarks (`peer.py`), never planned by default.
_PUZZLEKIT = puzzlekit_peer.backend(__name__)

# The rules for people: a printed sheet says them (`Puzzle.rules_text`).
RULES = ("Shade cells so that the shaded cells are connected and no 2x2 block is all shaded; "
         "the unshaded cells form islands, each holding exactly one number, its size.")

ENTRY = standard(__name__, "Nurikabe", rules_text=RULES, optimisation=False,
                 own_options=("hand", "cpsat", "sat"), generator="generate", picture="picture",
                 sat_export="models:sat_export", cpsat_export="models:cpsat_export",
                 url_reader="puzzlink", dataset_reader="puzzlekit", extra=(_PUZZLEKIT,),
                 strategy="strategies:small_instances", play="play",
                 explanation="explain")
