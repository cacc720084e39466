"""The stealth game: a turn-based grid maze where robots hunt the player through fog.

The robots plan only with the engine (`twinsolve.search`): this package is its
second user after the puzzles' hand-written solvers. `level` reads and writes
the level files (`instances/robots/`).
"""
