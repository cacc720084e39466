"""Nurikabe puzzles from puzzlekit-dataset JSON, written out as instance files.

Schema (`files.puzzlekit`, which reads it): `{"name": "Nurikabe", "data":
{KEY: {"problem": P, "solution": S, "source": URL, "info": ...}}}`. `P` is a
"ROWS COLS" line, then ROWS lines of space-separated tokens (`-` empty, `?` a
clue without a size, a number a clue): the body of a Nurikabe file. `S` has
the same header, then rows of `x` (shaded) and `-` (unshaded); the known
solution becomes `expect-solution` (`{"shaded": [...]}`).

A dataset is Nurikabe's when its `name` says so, in any case (puzzlekit's
datasets of other genres share the schema).
"""

from __future__ import annotations

from ...files.puzzlekit import GridDataset, file_name
from . import rules

__all__ = ["read_dataset", "is_dataset", "write_instances", "file_name", "NAMES"]

NAMES = ("nurikabe",)  # what a dataset's "name" may say, in any case

_DATASET = GridDataset(rules.NAME, NAMES, rules.KEY, rules.parse, rules.verify)
is_dataset = _DATASET.is_dataset
read_dataset = _DATASET.read_dataset
write_instances = _DATASET.write_instances
