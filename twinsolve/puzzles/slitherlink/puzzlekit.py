"""Slitherlink puzzles from puzzlekit-dataset JSON, written out as instance files.

Schema (`files.puzzlekit`, which reads it): `{"name": "Slitherlink", "data":
{KEY: {"problem": P, "solution": S, "source": URL, "info": ...}}}`. `P` is a
"ROWS COLS" line, then ROWS lines of space-separated tokens (`-` no clue,
`0`-`4` a clue): the body of a Slitherlink file. `S` has the same header,
then rows of `x` (inside the loop) and `-` (outside); the known solution
becomes `expect-solution` (`{"inside": [...]}`).

This reader claims a dataset whose `name` is Slitherlink (or puzzlekit's
alias `slither`), in any case (`is_dataset`); a dataset of another puzzle
is another reader's.
"""

from __future__ import annotations

from ...files.puzzlekit import GridDataset, file_name
from . import rules

__all__ = ["read_dataset", "is_dataset", "write_instances", "file_name", "NAMES"]

NAMES = ("slitherlink", "slither")  # what a dataset's "name" may say, in any case

_DATASET = GridDataset(rules.NAME, NAMES, rules.KEY, rules.parse, rules.verify)
is_dataset = _DATASET.is_dataset
read_dataset = _DATASET.read_dataset
write_instances = _DATASET.write_instances
