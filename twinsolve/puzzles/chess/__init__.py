"""Solitaire Chess: the whole puzzle in one folder.

Rules, hand (bitboard memo search) with board (slot tables, packing) and layers (the numpy
layer count), models (planning encodings), generate. This file declares the puzzle's
registry entry; nothing here imports a solver, so listing the puzzles stays cheap.
"""

from ...core.declaration import standard

ENTRY = standard(__name__, "Solitaire Chess", optimisation=False, own_options=("hand",),
                 generator="generate", picture="picture", sat_export="models:sat_export",
                 cpsat_export="models:cpsat_export",
                 strategy="strategies:small_instances")
