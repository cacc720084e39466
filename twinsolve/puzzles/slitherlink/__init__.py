"""Slitherlink: the whole puzzle in one folder.

Rules, hand (propagation + branching on the engine, the loop as the boundary of a
region: `search.regions`), models (CP-SAT's circuit; CP-SAT / SAT on the encoding
library's connectivity), generate, picture, explain (the hand solver's steps), and its
formats: puzzlink (puzz.link `slither` URLs) and puzzlekit (dataset JSON), and peer (the
puzzlekit package's solver as a back-end). This file declares the puzzle's registry
entry; nothing here imports a solver, so listing the puzzles stays cheap.
"""

from ...core.declaration import standard
from ...models import puzzlekit_peer

# A peer for side-by-side benchmarks (`peer.py`), never planned by default.
_PUZZLEKIT = puzzlekit_peer.backend(__name__)

# The rules for people: a printed sheet says them (`Puzzle.rules_text`).
RULES = ("Draw one loop along the grid lines, never crossing or touching itself; each number "
         "is how many of its cell's four sides the loop uses.")

ENTRY = standard(__name__, "Slitherlink", rules_text=RULES, optimisation=False,
                 own_options=("hand", "cpsat", "sat"), generator="generate", picture="picture",
                 sat_export="models:sat_export", cpsat_export="models:cpsat_export",
                 url_reader="puzzlink", dataset_reader="puzzlekit", extra=(_PUZZLEKIT,),
                 strategy="strategies:small_instances", explanation="explain",
                 play="play")
