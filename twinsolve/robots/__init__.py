"""The stealth game: a turn-based grid maze where robots hunt the player through fog.

The robots plan only with the engine (`twinsolve.search`): this package is its
second user after the puzzles' hand-written solvers. `level` reads and writes
the level files; `game` holds the rules of a turn (player actions, doors,
sight, footsteps, EMP, undo, the skill point, capture, winning, time), with
each robot's decisions left to a brain the rules call; `ai` holds the four
robots' minds (sentinel, hunter, interceptor, scout, and the ring they hold
together), which plan with `twinsolve.search` only.
"""

from ..core.declaration import OtherFormat

# The level files live among the puzzle instances (`instances/robots/`): the registry
# (`twinsolve.formats` entry point) lets a folder walk pass them by quietly.
LEVEL_FORMAT = OtherFormat("robots", "a level of the stealth game (twinsolve play), "
                                     "no puzzle instance")
