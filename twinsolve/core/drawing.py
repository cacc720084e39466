"""Terminal drawings that stay small, whatever the size of the instance.

The rules every puzzle's `render` follows:

- a sequence (a plan's steps, a list of moves) of more than `SEQUENCE_LIMIT`
  items is drawn as its first `HEAD` and last `TAIL` items with one gap
  between them, labelled "… 499,990 more steps …";
- a grid with more than `GRID_LIMIT` rows or columns is not drawn cell by
  cell: it is summarised as its size and a few counts
  ("5000x5000 grid, too large to draw (over 100x100): 25,000,000 lights on");
- a drawing fits a `width` budget (the terminal's columns; None: no limit):
  a grid's cells are spaced by one blank when that fits, else drawn side by
  side with no blank (`cell_gap`), else summarised as above, the summary
  naming the width and suggesting a picture (`--svg`, `--png`); every other
  line is word-wrapped to the width (`wrapped`), so no line of a drawing is
  wider than the budget and the terminal never breaks a grid row.

Why: a drawing of half a million steps or 25 million cells is of no use to a
reader, and building it costs more time and memory than the run that found
the answer (a rich `Text` keeps a style span per piece: 1.2 GB and 27 s for a
500,000-step plan). What is cut is only the drawing: `solve --json`
prints the whole solution.

>>> [i if isinstance(i, int) else i.label("steps") for i in shown(12, limit=4, head=2, tail=1)]
[0, 1, '… 9 more steps …', 11]
>>> grid_summary(200, 200, [(3, "clues"), (1234, "cells inside")])
'200x200 grid, too large to draw (over 100x100): 3 clues, 1,234 cells inside'
>>> cell_gap(80, lambda gap: 50 * (1 + gap)), cell_gap(None, lambda gap: 10**6)
(0, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

__all__ = ["SEQUENCE_LIMIT", "HEAD", "TAIL", "GRID_LIMIT", "PICTURE_HINT", "Gap", "shown",
           "too_big", "cell_gap", "grid_summary", "wrapped"]

SEQUENCE_LIMIT = 40   # items drawn in full up to this many
HEAD = 5              # beyond it: the first HEAD and the last TAIL items
TAIL = 5
GRID_LIMIT = 100      # rows or columns drawn cell by cell up to this many
PICTURE_HINT = "draw it with --svg OUT.svg or --png OUT.png"


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


def cell_gap(width: int | None, line_width: Callable[[int], int]) -> int | None:
    """The blanks between a grid's cells that fit `width`: 1 if the spaced grid fits (or
    there is no budget), 0 if the compact one does, None if neither (summarise it).

    `line_width(gap)` is the widest line of the grid drawn with `gap` blanks per cell.
    """
    for gap in (1, 0):
        if width is None or line_width(gap) <= width:
            return gap
    return None


def grid_summary(rows: int, cols: int, counts: Iterable[tuple[int, str]],
                 width: int | None = None) -> str:
    """One line for a grid not drawn: its size, why, and `counts` (number, what).

    Why: over `GRID_LIMIT` a side (`too_big`), else wider than `width` columns even
    compact (`cell_gap` None), which a picture shows (`PICTURE_HINT`).
    """
    told = ", ".join(f"{number:,} {what}" for number, what in counts)
    if too_big(rows, cols) or width is None:
        return (f"{rows}x{cols} grid, too large to draw (over {GRID_LIMIT}x{GRID_LIMIT})"
                + (f": {told}" if told else ""))
    return (f"{rows}x{cols} grid, too wide to draw in {width} columns"
            + (f": {told}" if told else "") + f"; {PICTURE_HINT}")


def wrapped(text: Text, width: int | None) -> Text:
    """`text` with every line longer than `width` word-wrapped (styles kept); None: as is.

    A word longer than the width is folded. Grid rows are made to fit before
    (`cell_gap`), so only titles, move lists and summaries are ever wrapped.
    """
    if width is None or all(len(line) <= width for line in text.plain.split("\n")):
        return text
    lines = text.wrap(Console(width=width), width, justify="default", overflow="fold")
    return Text("\n").join(lines)
