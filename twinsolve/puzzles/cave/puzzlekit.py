"""Cave puzzles from puzzlekit-dataset JSON, written out as instance files.

Schema (`files.puzzlekit`, which reads it): `{"data": {KEY: {"problem": P,
"solution": S, "source": URL, "info": ...}}}`. `P` is a "ROWS COLS" line,
then ROWS lines of space-separated tokens (`-` empty, `?` a clue without
number, a number a clue): the body of a Cave file. `S` has the same header,
then rows of `x` (inside) and `-` (outside); the known solution becomes
`expect-solution` (`{"inside": [...]}`).

A dataset is Cave's when its `name` is Cave's (`cave`, or its aliases
`corral` and `bag`, in any case) or when it has no name; a dataset named for
another puzzle is that puzzle's to read.
"""

from __future__ import annotations

from ...files.puzzlekit import GridDataset, file_name
from . import rules

__all__ = ["read_dataset", "is_dataset", "write_instances", "file_name", "NAMES"]

NAMES = ("cave", "corral", "bag")  # what a dataset's "name" may say, in any case

_DATASET = GridDataset(rules.NAME, NAMES, rules.KEY, rules.parse, rules.verify, unnamed=True)
is_dataset = _DATASET.is_dataset
read_dataset = _DATASET.read_dataset
write_instances = _DATASET.write_instances
