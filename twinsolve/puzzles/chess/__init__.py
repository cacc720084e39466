"""Solitaire Chess: the whole puzzle in one folder.

Rules, hand (bitboard memo search) with board (slot tables, packing) and layers (the numpy
layer count), models (planning encodings), generate. This file declares the puzzle's
registry entry; nothing here imports a solver, so listing the puzzles stays cheap.
"""

from ...core.declaration import standard

# The rules for people: a printed sheet says them (`Puzzle.rules_text`).
RULES = ("Every move is a capture by a chess move (kings are never taken, pawns take toward "
         "the top and are not promoted); capture until one piece is left.")

ENTRY = standard(__name__, "Solitaire Chess", rules_text=RULES,
                 optimisation=False, own_options=("hand",),
                 generator="generate", picture="picture", sat_export="models:sat_export",
                 cpsat_export="models:cpsat_export",
                 strategy="strategies:small_instances",
                 explanation="explain", play="play")
