"""Terminal drawings that stay small, whatever the size of the instance.

The rules every puzzle's `render` follows:

- a sequence (a plan's steps, a list of moves) of more than `SEQUENCE_LIMIT`
  items is drawn as its first `HEAD` and last `TAIL` items with one gap
  between them, labelled "… 499,990 more steps …";
- a grid with more than `GRID_LIMIT` rows or columns is not drawn cell by
  cell: it is summarised as its size and a few counts
  ("5000x5000 grid, too large to draw (over 100x100): 25,000,000 lights on").

Why: a drawing of half a million steps or 25 million cells is of no use to a
reader, and building it costs more time and memory than the run that found
the answer (a rich `Text` keeps a style span per piece: 1.2 GB and 27 s for a
500,000-step clock plan). What is cut is only the drawing: `solve --json`
prints the whole solution.

>>> [i if isinstance(i, int) else i.label("steps") for i in shown(12, limit=4, head=2, tail=1)]
[0, 1, '… 9 more steps …', 11]
>>> grid_summary(200, 200, [(3, "clues"), (1234, "cells inside")])
'200x200 grid, too large to draw (over 100x100): 3 clues, 1,234 cells inside'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["SEQUENCE_LIMIT", "HEAD", "TAIL", "GRID_LIMIT", "Gap", "shown", "too_big",
           "grid_summary"]

SEQUENCE_LIMIT = 40   # items drawn in full up to this many
HEAD = 5              # beyond it: the first HEAD and the last TAIL items
TAIL = 5
GRID_LIMIT = 100      # rows or columns drawn cell by cell up to this many


@dataclass(frozen=True)
class Gap:
    """Items start..stop-1 of a sequence, left out of its drawing."""

    start: int
    stop: int

    @property
    def hidden(self) -> int:
        return self.stop - self.start

    def label(self, noun: str) -> str:
        return f"… {self.hidden:,} more {noun} …"


def shown(count: int, limit: int = SEQUENCE_LIMIT, head: int = HEAD,
          tail: int = TAIL) -> list[int | Gap]:
    """The indices of a `count`-item sequence to draw, in order, with one `Gap` if any.

    All of them up to `limit` items; beyond, the first `head`, a `Gap`, the last `tail`.
    """
    if count <= limit:
        return list(range(count))
    return [*range(head), Gap(head, count - tail), *range(count - tail, count)]


def too_big(rows: int, cols: int) -> bool:
    """Whether a rows x cols grid is summarised instead of drawn."""
    return rows > GRID_LIMIT or cols > GRID_LIMIT


def grid_summary(rows: int, cols: int, counts: Iterable[tuple[int, str]]) -> str:
    """One line for a grid too large to draw: its size and `counts` (number, what)."""
    told = ", ".join(f"{number:,} {what}" for number, what in counts)
    return (f"{rows}x{cols} grid, too large to draw (over {GRID_LIMIT}x{GRID_LIMIT})"
            + (f": {told}" if told else ""))
