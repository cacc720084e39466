"""Solitaire Chess counted layer by layer: every reachable position once, a layer at a time.

Rules: see `twinsolve.puzzles.chess.rules`; slots and attack tables: see
`twinsolve.puzzles.chess.board`.

The idea. Every move removes one piece, so the positions k moves from the
start form layer k, and a winning sequence is a path from the start to the
last layer (one piece left). Walking forward, ways(child) = the sum of
ways(parent) over the captures parent -> child, and the number of winning
sequences is the sum of the ways over the last layer. Each position is
stored once per layer however many paths reach it, so this counts through a
table keyed by position, like the memo of `chess.Searcher`, and never
enumerates sequences; but a whole layer is one numpy array, so a position
costs about a microsecond instead of tens. It has no dead-end pruning and no
symmetry: it expands every reachable position, which on boards with
millions of positions is still far cheaper than the memo search.

Packing. A position is one uint64 packed as `chess_board.Packing` says:
`width` bits per slot, so 64 // width slots fit: 21 with all six piece
types, 32 with three, 64 with knights only (`fits`).

Expanding a layer. For each slot a and code t: the positions with a t on a
(one comparison over the layer); then for each slot b that a t on a attacks
on an empty board, the capture is legal where b's code is above the king's
(occupied, and not the king) and the fields of the slots between are zero.
The child clears a's and b's fields and writes t on b. The children of a
layer are sorted (stable, so the order is the same on every run), equal
ones merged and their ways summed with `np.add.reduceat`.

Exactness. Ways are uint64 while the float estimate of a layer's total stays
under 2^62 (`exact_limit`), so no sum can wrap; past it they switch to
Python ints in object arrays, exact at any size.

The line. Each position keeps the index of its first parent in sorted order;
the winning line is read back from the first position of the last layer,
each step named by finding the capture that turns one position into the next.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ...core.limits import Deadline, LimitReached, Poller
from ...system.memory import address_space_left
from .board import KING, Packing, Position, Tables, move_name, packing

__all__ = ["fits", "LayerCount", "count_layers", "TooBig", "MEMORY_MB", "default_budget_mb"]

EXACT_LIMIT = 2.0 ** 62  # ways stay uint64 while a layer's total is below this
MEMORY_MB = 2048         # the default memory budget of one count, without a process limit
# Peak bytes while a layer's captures are merged: each capture's child and parent
# index, their sorted copies, the sort order and the gathered ways; and what every
# position keeps to the end: itself, its first parent, its ways.
_BYTES_PER_CAPTURE = 48
_BYTES_PER_POSITION = 24


class TooBig(Exception):
    """The count would need more memory than its budget."""


def default_budget_mb() -> int:
    """`MEMORY_MB`, or a third of what the process's address-space limit leaves, if less.

    Why a third: numpy's temporaries and the allocator's slack come on top of
    the estimate, and under the harness the resident-memory watch must not
    fire first.
    """
    left = address_space_left()
    return MEMORY_MB if left is None else max(1, min(MEMORY_MB, left // 3 >> 20))


def fits(board: Tables, start: Position) -> bool:
    """True when every position of the instance packs into one uint64."""
    return len(board.squares) <= packing(start).capacity


@dataclass(frozen=True)
class LayerCount:
    """The number of winning sequences, one of them (None when there is none), and effort."""

    count: int
    moves: list[str] | None
    positions: int   # positions expanded, all layers
    captures: int    # captures generated (edges between layers)


Capture = tuple[np.uint64, np.uint64, np.uint64, np.uint64]  # (b shift, between, clear, put)


def _captures(board: Tables, pack: Packing) -> list[list[list[Capture]]]:
    """Per code and slot a, the captures a piece of that code on a may make, as masks."""
    width, full = pack.width, (1 << 64) - 1
    fields = [((1 << width) - 1) << width * slot for slot in range(len(board.squares))]

    def spread(slots: int) -> int:
        mask = 0
        while slots:
            low = slots & -slots
            slots ^= low
            mask |= fields[low.bit_length() - 1]
        return mask

    return [[[(np.uint64(shift), np.uint64(spread(path)),
               np.uint64(full & ~(fields[a] | fields[shift // width])),
               np.uint64(code << shift))
              for _, path, shift in found]
             for a, found in enumerate(per_slot)]
            for code, per_slot in enumerate(pack.targets(board))]


def count_layers(board: Tables, start: Position, deadline: Deadline | None = None,
                 node_limit: int | None = None, memory_mb: int = MEMORY_MB,
                 exact_limit: float = EXACT_LIMIT) -> LayerCount:
    """Count the winning sequences from `start` layer by layer (see the module docstring).

    Raises `LimitReached` past the deadline or when more than `node_limit`
    positions would be expanded; `TooBig` as soon as the layers kept and the
    captures of the layer being merged would take more than `memory_mb`
    (estimated from their sizes, before the memory is taken); `ValueError`
    when the positions do not fit a uint64 (check `fits` first).
    """
    pack = packing(start)
    slots = len(board.squares)
    if slots > pack.capacity:
        raise ValueError(f"{slots} slots do not fit {pack.width}-bit fields in 64 bits")
    deadline = deadline or Deadline(None)
    poller = Poller(node_limit, deadline)  # a layer is one block of positions
    captures = _captures(board, pack)
    mask = np.uint64((1 << pack.width) - 1)
    floor = np.uint64(1 if start[KING] else 0)  # a target's code must exceed the king's
    shifts = [np.uint64(pack.width * slot) for slot in range(slots)]
    layer = np.array([pack.pack(start)], dtype=np.uint64)
    ways: np.ndarray = np.ones(1, dtype=np.uint64)
    layers, firsts = [layer], []
    positions = edges = 0
    budget, kept = memory_mb << 20, _BYTES_PER_POSITION
    for _ in range(slots - 1):
        hit = poller.spend(positions, len(layer))
        if hit is not None:
            raise LimitReached(hit)
        positions += len(layer)
        children, parents, pending = [], [], 0
        for a in range(slots):
            on_a = (layer >> shifts[a]) & mask
            for code in range(1, len(pack.kinds)):
                rows = np.flatnonzero(on_a == code)
                if not rows.size:
                    continue
                movers = layer[rows]
                for b_shift, between, clear, put in captures[code][a]:
                    legal = ((movers >> b_shift) & mask) > floor
                    if between:
                        legal &= (movers & between) == 0
                    hit = np.flatnonzero(legal)
                    if hit.size:
                        children.append((movers[hit] & clear) | put)
                        parents.append(rows[hit])
                        pending += hit.size
            deadline.check()
            if kept + pending * _BYTES_PER_CAPTURE > budget:
                raise TooBig(f"the layer count needs more than {memory_mb} MB here")
        if not children:
            return LayerCount(0, None, positions, edges)
        child, parent = np.concatenate(children), np.concatenate(parents)
        del children, parents  # the pieces are copied: free them before the sort
        edges += len(child)
        order = np.argsort(child, kind="stable")  # stable: deterministic first parents
        child, parent = child[order], parent[order]
        del order
        first = np.flatnonzero(np.concatenate(([True], child[1:] != child[:-1])))
        through = ways[parent]
        firsts.append(parent[first])
        del parent
        if through.dtype != object and through.sum(dtype=np.float64) >= exact_limit:
            through = through.astype(object)  # sums could wrap: exact Python ints from here
        ways = np.add.reduceat(through, first)
        layer = child[first]
        del child, through
        layers.append(layer)
        kept += len(layer) * _BYTES_PER_POSITION
    count = sum(int(value) for value in ways.tolist())
    return LayerCount(count, _line(board, pack, captures, layers, firsts), positions, edges)


def _line(board: Tables, pack: Packing, captures: list[list[list[Capture]]],
          layers: list[np.ndarray], firsts: list[np.ndarray]) -> list[str]:
    """The moves from the start to the first position of the last layer, via first parents."""
    index, path = 0, [int(layers[-1][0])]
    for depth in range(len(firsts) - 1, -1, -1):
        index = int(firsts[depth][index])
        path.append(int(layers[depth][index]))
    path.reverse()
    return [_name(board, pack, captures, before, after)
            for before, after in zip(path, path[1:], strict=False)]


def _name(board: Tables, pack: Packing, captures: list[list[list[Capture]]],
          before: int, after: int) -> str:
    """The capture that turns `before` into `after`, in the puzzle's notation."""
    for a, code in _occupied(pack, before):
        if pack.field(after, a):
            continue  # the mover leaves its slot empty
        for b_shift, _, clear, put in captures[code][a]:
            b = int(b_shift) // pack.width
            victim = pack.field(before, b)
            if victim and (before & int(clear)) | int(put) == after:
                return move_name(board, pack.kinds[code], 1 << a, pack.kinds[victim], 1 << b)
    raise RuntimeError("consecutive layer positions are not one capture apart")


def _occupied(pack: Packing, packed: int) -> Iterator[tuple[int, int]]:
    slot = 0
    while packed >> pack.width * slot:
        code = pack.field(packed, slot)
        if code:
            yield slot, code
        slot += 1
