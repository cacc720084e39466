"""Scaffolding: `twinsolve new puzzle NAME --out DIR`, a plugin package to start from.

`new.py` writes the template (`template/`, shipped as package data): a
complete, installable plugin for a real small puzzle, Star Battle, which the
author then edits into theirs (docs/writing-a-puzzle.md).
"""

from .new import new_puzzle, plugin_names, rendered

__all__ = ["new_puzzle", "plugin_names", "rendered"]
