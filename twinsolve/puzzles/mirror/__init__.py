"""Mirror maze: the whole puzzle in one folder.

Rules, hand (A* over partial orientations), models (beam reachability CP-SAT / MaxSAT),
generate. This file declares the puzzle's registry entry; nothing here imports a solver, so
listing the puzzles stays cheap.
"""

from ...core.declaration import standard

# The rules for people: a printed sheet says them (`Puzzle.rules_text`).
RULES = ("Each laser's beam runs straight, turns at mirrors and stops at a target, a wall or "
         "the edge; flip as few rotatable mirrors as you can so that a beam hits a target "
         "(every target, when the goal is all).")

ENTRY = standard(__name__, "Mirror maze", rules_text=RULES,
                 own_options=("sat",), generator="generate",
                 picture="picture", sat_export="models:sat_export",
                 cpsat_export="models:cpsat_export",
                 strategy="strategies:small_instances",
                 explanation="explain", play="play")
