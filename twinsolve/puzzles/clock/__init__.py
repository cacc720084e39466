"""Clock stepping: the whole puzzle in one folder.

Rules, hand (gcd test, then bidirectional BFS), models (planning encodings). This file
declares the puzzle's registry entry; nothing here imports a solver, so listing the puzzles
stays cheap.
"""

from ...core.declaration import Absent, standard

# Why no export: the encodings grow their planning horizon while solving.
_GROWS = "its encodings grow their horizon while solving"

ENTRY = standard(__name__, "Clock stepping", generator="generate", picture="picture",
                 sat_export=Absent(_GROWS), cpsat_export=Absent(_GROWS),
                 strategy="strategies:small_instances")
