"""Mirror maze: the whole puzzle in one folder.

Rules, hand (A* over partial orientations), models (beam reachability CP-SAT / MaxSAT),
generate. This file declares the puzzle's registry entry; nothing here imports a solver, so
listing the puzzles stays cheap.
"""

from ...core.declaration import standard

ENTRY = standard(__name__, "Mirror maze", own_options=("sat",), generator="generate",
                 picture="picture", sat_export="models:sat_export",
                 cpsat_export="models:cpsat_export",
                 strategy="strategies:small_instances")
