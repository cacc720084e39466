"""Cave (Corral): the whole puzzle in one folder.

Rules, hand (propagation + branching), models (connectivity CP-SAT / SAT), generate, and its
formats: puzzlink (puzz.link URLs) and puzzlekit (dataset JSON). This file declares the
puzzle's registry entry; nothing here imports a solver, so listing the puzzles stays cheap.
"""

from ...core.registry import PUZZLEKIT, standard

ENTRY = standard(__name__, "Cave (Corral)", optimisation=False,
                 own_options=("hand", "cpsat", "sat"), extra=(PUZZLEKIT,),
                 url_reader="puzzlink", dataset_reader="puzzlekit")
