"""Why a region rule decided what it did: the sentences and premises of `search.regions`.

The engine's region rules (`search.regions`: `RegionConnected`,
`ReachesBorder`, `NoCheckerboard`) narrow Boolean cells of a grid; a
puzzle's explanation runs them one at a time (so each deduction is the
engine's own, the same code its `hand` back-end and its grader run) and
asks this module why the cells they decided follow, in words a person can
check on paper, with the premises: the decided cells the argument uses and
nothing else. Any puzzle whose answer is a connected region without holes
(Cave's cave; Nurikabe's sea and Slitherlink's inside, too) speaks through it.

The arguments, for a region of `member` cells (say inside) and the other,
blocking value (outside):

- walled off (`RegionConnected`): undecided cells whose component of
  unblocked cells holds no member cell are blocked; premises: the blocked
  cells round that component (its wall) and one member cell elsewhere;
- only way (`RegionConnected` with cuts): an undecided cell whose removal
  leaves member cells on two sides is a member; premises: the wall round the
  smaller side and one member cell on each side;
- enclosed (`ReachesBorder`, for the blocking value, which must reach the
  edge): undecided cells whose component of cells that are not members
  touches no edge are members; premises: the members round it;
- only way out (`ReachesBorder` with cuts): an undecided cell whose removal
  cuts a blocking cell off from the edge is blocking; premises: the wall
  round that cell's side and the cell;
- checkerboard (`NoCheckerboard`): three cells of a 2x2 block decided so
  that the fourth would complete a checkerboard take its other value;
  premises: the three.

Each argument is a `Found`: the cells decided (one value), the reason, the
premises (cell indices) and a `brief` phrase for chains of steps. The same
functions explain a contradiction (`split`, `trapped`, `checkered`) when a
hypothetical value makes a rule fail.

Cells are flat indices of a `search.grid.Grid`; `Words` says how the puzzle
names its cells, its two values and its region.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..search.grid import Grid
from ..search.propagate import IS_FALSE, IS_TRUE, UNDECIDED

__all__ = ["Words", "Found", "cells_text", "components", "wall", "walled_off", "only_way",
           "enclosed", "only_way_out", "checkerboard", "split", "trapped", "checkered",
           "value_word"]


@dataclass(frozen=True)
class Words:
    """How a puzzle speaks of its grid: `key(cell)` ("r3c7"), the words of the member and
    blocking values ("inside", "outside"), and the region ("the cave")."""

    key: Callable[[int], str]
    member: str = "inside"
    blocked: str = "outside"
    region: str = "the cave"


@dataclass(frozen=True)
class Found:
    """One explained deduction (or contradiction, with no cells): the cells decided, the
    mask they take, the sentence after "because", the premises and a short phrase."""

    cells: tuple[int, ...]
    mask: int
    reason: str
    premises: tuple[int, ...]
    brief: str


def value_word(mask: int, words: Words, member: int) -> str:
    return words.member if mask == member else words.blocked


def cells_text(cells: Iterable[int], words: Words, cols: int) -> str:
    """The cells named in reading order, runs along a row joined with a dash.

    >>> w = Words(lambda i: f"r{i // 4}c{i % 4}")
    >>> cells_text([5, 1, 2, 3, 9], w, 4)
    'r0c1-r0c3, r1c1 and r2c1'
    """
    ordered = sorted(set(cells))
    runs: list[list[int]] = []
    for cell in ordered:
        if runs and cell == runs[-1][-1] + 1 and cell // cols == runs[-1][-1] // cols:
            runs[-1].append(cell)
        else:
            runs.append([cell])
    names = [words.key(run[0]) if len(run) == 1 else f"{words.key(run[0])}-{words.key(run[-1])}"
             for run in runs]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def components(grid: Grid, allowed: Callable[[int], bool], cells: Iterable[int] | None = None
               ) -> list[list[int]]:
    """The components of the cells `allowed` says yes to (each sorted, in order of their
    first cell); only those holding one of `cells` when given."""
    nbrs = grid.neighbours
    seen = bytearray(grid.size)
    found = []
    for start in range(grid.size) if cells is None else sorted(cells):
        if seen[start] or not allowed(start):
            continue
        seen[start] = 1
        part, queue = [start], deque([start])
        while queue:
            v = queue.popleft()
            for w in nbrs[v]:
                if not seen[w] and allowed(w):
                    seen[w] = 1
                    part.append(w)
                    queue.append(w)
        found.append(sorted(part))
    return found


def wall(grid: Grid, part: Iterable[int], skip: Iterable[int] = ()) -> list[int]:
    """The cells next to `part` that are not in it (nor in `skip`), sorted."""
    inner = set(part) | set(skip)
    return sorted({w for v in inner.difference(skip) for w in grid.neighbours[v]} - inner)


def _touches_edge(grid: Grid, part: Iterable[int]) -> bool:
    return any(len(grid.neighbours[v]) < 4 for v in part)


def _first(dom: Sequence[int], mask: int, limit: int) -> int | None:
    for v in range(limit):
        if dom[v] == mask:
            return v
    return None


# ---------------------------------------------------------------- the region connected

def walled_off(grid: Grid, dom: Sequence[int], decided: Iterable[int], member: int,
               words: Words) -> Found | None:
    """The component of the first of `decided` (cells the rule blocked) cut off from every
    member cell: all of it blocked."""
    blocked = member ^ UNDECIDED
    anchor = _first(dom, member, grid.size)
    if anchor is None:
        return None
    parts = components(grid, lambda v: dom[v] != blocked, decided)
    if not parts:
        return None
    part = parts[0]
    around = wall(grid, part)
    cols = grid.cols
    noun = "it" if len(part) == 1 else "them"
    reason = (f"the {words.blocked} cells {cells_text(around, words, cols)} wall {noun} off "
              f"from the {words.member} cell {words.key(anchor)}, and {words.region} is one "
              f"connected piece") if around else \
        f"{words.region} is one connected piece"
    return Found(tuple(part), blocked, reason, (*around, anchor),
                 f"walled off from {words.region}")


def _sides(grid: Grid, dom: Sequence[int], cut: int, passable: int, target: int
           ) -> list[list[int]]:
    """The components of cells that are not `passable ^ UNDECIDED`, once `cut` is taken
    out, that hold a cell of mask `target`, smallest first (then by first cell)."""
    other = passable ^ UNDECIDED
    parts = components(grid, lambda v: v != cut and dom[v] != other,
                       [w for w in grid.neighbours[cut]])
    held = [part for part in parts if any(dom[v] == target for v in part)]
    return sorted(held, key=lambda part: (len(part), part[0]))


def only_way(grid: Grid, dom: Sequence[int], cut: int, member: int, words: Words
             ) -> Found | None:
    """`cut` joins member cells that nothing else joins: it is a member."""
    held = _sides(grid, dom, cut, member, member)
    if not held:
        return None
    side = held[0]
    here = next(v for v in side if dom[v] == member)
    there = next((v for v in range(grid.size) if dom[v] == member and v not in set(side)
                  and v != cut), None)
    if there is None:
        return None
    around = wall(grid, side, skip=(cut,))
    around = [v for v in around if v != cut]
    closing = (f"; the {words.blocked} cells {cells_text(around, words, grid.cols)} close every "
               "other way") if around else ""
    reason = (f"it is the only way from the {words.member} cell {words.key(here)} to the "
              f"{words.member} cell {words.key(there)}{closing}")
    return Found((cut,), member, reason, (*around, here, there),
                 f"the only way from {words.key(here)} to {words.key(there)}")


def split(grid: Grid, dom: Sequence[int], member: int, words: Words) -> Found | None:
    """A contradiction: two member cells that no unblocked path joins."""
    blocked = member ^ UNDECIDED
    parts = components(grid, lambda v: dom[v] != blocked)
    held = [part for part in parts if any(dom[v] == member for v in part)]
    if len(held) < 2:
        return None
    side = min(held, key=lambda part: (len(part), part[0]))
    here = next(v for v in side if dom[v] == member)
    there = next(v for part in held if part is not side for v in part if dom[v] == member)
    around = wall(grid, side)
    reason = (f"the {words.blocked} cells {cells_text(around, words, grid.cols)} would cut the "
              f"{words.member} cell {words.key(here)} off from the {words.member} cell "
              f"{words.key(there)}")
    return Found((), member, reason, (*around, here, there), reason)


# ---------------------------------------------------------------- the other value reaches the edge

def enclosed(grid: Grid, dom: Sequence[int], decided: Iterable[int], member: int,
             words: Words) -> Found | None:
    """The component of cells that are not members, holding the first of `decided`, that
    touches no edge: all of it members (a blocking cell there could not reach the edge)."""
    parts = components(grid, lambda v: dom[v] != member, decided)
    part = next((p for p in parts if not _touches_edge(grid, p)), None)
    if part is None:
        return None
    around = wall(grid, part)
    noun = "it" if len(part) == 1 else "them"
    reason = (f"the {words.member} cells {cells_text(around, words, grid.cols)} enclose {noun}, "
              f"and an {words.blocked} cell must reach the edge of the grid")
    return Found(tuple(part), member, reason, tuple(around), f"enclosed by {words.region}")


def only_way_out(grid: Grid, dom: Sequence[int], cut: int, member: int, words: Words
                 ) -> Found | None:
    """`cut` is the only way from a blocking cell to the edge: it is blocking too."""
    blocked = member ^ UNDECIDED
    parts = components(grid, lambda v: v != cut and dom[v] != member, grid.neighbours[cut])
    held = sorted((p for p in parts if not _touches_edge(grid, p)
                   and any(dom[v] == blocked for v in p)), key=lambda p: (len(p), p[0]))
    if not held:
        return None
    side = held[0]
    here = next(v for v in side if dom[v] == blocked)
    around = [v for v in wall(grid, side, skip=(cut,)) if v != cut]
    closing = (f"; the {words.member} cells {cells_text(around, words, grid.cols)} close every "
               "other way") if around else ""
    reason = (f"it is the only way from the {words.blocked} cell {words.key(here)} to the edge of "
              f"the grid{closing}")
    return Found((cut,), blocked, reason, (*around, here),
                 f"the only way from {words.key(here)} to the edge")


def trapped(grid: Grid, dom: Sequence[int], member: int, words: Words) -> Found | None:
    """A contradiction: a blocking cell with no path of non-members to the edge."""
    blocked = member ^ UNDECIDED
    cells = [v for v in range(grid.size) if dom[v] == blocked]
    for part in components(grid, lambda v: dom[v] != member, cells):
        if not _touches_edge(grid, part):
            here = next(v for v in part if dom[v] == blocked)
            around = wall(grid, part)
            reason = (f"the {words.member} cells {cells_text(around, words, grid.cols)} would "
                      f"enclose the {words.blocked} cell {words.key(here)}")
            return Found((), blocked, reason, (*around, here), reason)
    return None


# ---------------------------------------------------------------- 2x2 blocks

def _block_text(block: Sequence[int], words: Words) -> str:
    return f"{words.key(block[0])}-{words.key(block[3])}"


def checkerboard(block: Sequence[int], dom: Sequence[int], cell: int, mask: int, member: int,
                 words: Words) -> Found:
    """`cell` of `block` (a b / c d) takes `mask`: the other value would make a checkerboard
    of the block with its three decided cells."""
    others = tuple(v for v in block if v != cell)
    reason = (f"otherwise the 2x2 block {_block_text(block, words)} would be a checkerboard "
              f"({_pairs(block, dom, cell, mask, member, words)}), and a connected "
              f"{words.member} region without holes never makes one")
    return Found((cell,), mask, reason, others, f"the 2x2 block {_block_text(block, words)}")


def _pairs(block: Sequence[int], dom: Sequence[int], cell: int, mask: int, member: int,
           words: Words) -> str:
    values = {v: (mask ^ UNDECIDED if v == cell else dom[v]) for v in block}
    ins = [words.key(v) for v in block if values[v] == member]
    outs = [words.key(v) for v in block if values[v] != member]
    return f"{' and '.join(ins)} {words.member}, {' and '.join(outs)} {words.blocked}"


def checkered(block: Sequence[int], dom: Sequence[int], member: int, words: Words
              ) -> Found | None:
    """A contradiction: the block's four cells already make a checkerboard."""
    a, b, c, d = block
    if UNDECIDED in (dom[a], dom[b], dom[c], dom[d]):
        return None
    if dom[a] == dom[d] and dom[b] == dom[c] and dom[a] != dom[b]:
        reason = f"the 2x2 block {_block_text(block, words)} would be a checkerboard"
        return Found((), member, reason, tuple(block), reason)
    return None


MEMBER_MASKS = (IS_TRUE, IS_FALSE)
