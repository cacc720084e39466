"""Lights Out: the whole puzzle in one folder.

Rules (the board, presses, verify), hand (light chasing + GF(2)/GF(p) elimination), models
(XOR CP-SAT / SAT), generate, summary (`hand` without holding the press grid: `solve
--summary`, and every `lights all` board over 5000 a side, `rules.too_large`). This file
declares the puzzle's registry entry; nothing here imports a solver, so listing the
puzzles stays cheap.
"""

from ...core.declaration import standard

# The rules for people: a printed sheet says them (`Puzzle.rules_text`).
RULES = ("Pressing a cell changes its light and those of its four neighbours (a variant's "
         "rules are under its board); press cells until every light is off, with as few "
         "presses as you can.")

ENTRY = standard(__name__, "Lights Out", rules_text=RULES,
                 sat_unsupported=True,
                 own_options=("hand", "cpsat", "sat"), generator="generate", picture="picture",
                 sat_export="models:sat_export", cpsat_export="models:cpsat_export",
                 summary="summary", too_large="rules:too_large",
                 strategy="strategies:small_instances",
                 explanation="explain", play="play")
