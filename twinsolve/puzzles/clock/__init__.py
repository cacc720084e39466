"""Clock stepping: the whole puzzle in one folder.

Rules, hand (gcd test, then bidirectional BFS), models (planning encodings). This file
declares the puzzle's registry entry; nothing here imports a solver, so listing the puzzles
stays cheap.
"""

from ...core.declaration import Absent, standard

# Why no export: the encodings grow their planning horizon while solving.
_GROWS = "its encodings grow their horizon while solving"

# The rules for people: a printed sheet says them (`Puzzle.rules_text`).
RULES = ("Turn the dial by one of the given steps at a time (clockwise, round past 0) to bring "
         "it from the start to the goal in as few moves as you can.")

ENTRY = standard(__name__, "Clock stepping", rules_text=RULES,
                 generator="generate", picture="picture",
                 sat_export=Absent(_GROWS), cpsat_export=Absent(_GROWS),
                 strategy="strategies:small_instances",
                 explanation="explain", play="play")
