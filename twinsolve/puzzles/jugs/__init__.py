"""Water jugs: the whole puzzle in one folder.

Rules, hand (number theory, then BFS), models (planning encodings). This file declares the
puzzle's registry entry; nothing here imports a solver, so listing the puzzles stays cheap.
"""

from ...core.registry import standard

ENTRY = standard(__name__, "Water jugs", own_options=("cpsat",))
