"""Water jugs: the whole puzzle in one folder.

Rules, hand (number theory, then BFS), models (planning encodings). This file declares the
puzzle's registry entry; nothing here imports a solver, so listing the puzzles stays cheap.
"""

from ...core.declaration import Absent, standard

# Why no export: the encodings grow their planning horizon while solving.
_GROWS = "its encodings grow their horizon while solving"

# The rules for people: a printed sheet says them (`Puzzle.rules_text`).
RULES = ("Fill a jug from the tap, empty it, or pour one jug into another until the first is "
         "empty or the other full; reach the goal in as few moves as you can.")

ENTRY = standard(__name__, "Water jugs", rules_text=RULES,
                 own_options=("cpsat",), generator="generate",
                 picture="picture", sat_export=Absent(_GROWS), cpsat_export=Absent(_GROWS),
                 strategy="strategies:small_instances",
                 explanation="explain", play="play")
