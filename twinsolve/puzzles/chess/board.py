"""Solitaire Chess on slots: the attack tables both `hand` engines search with.

A capture moves a piece onto an occupied square, so pieces only ever stand
on the n squares that held a piece at the start (the start set S). Number
those squares 0..n-1 ("slots"); a position is six bitboards over the slots,
one int per piece type (K Q R B N P), in `PIECES` order. Per instance, each
piece type and slot gets the list of slots it attacks on an empty board,
each with the mask of slots strictly between (empty for knights, kings and
pawns): a capture a -> b is legal when b holds a piece other than a king
and `between & occupied == 0`. Squares outside S are always empty, so they
never block.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...core.geometry import DELTAS
from .rules import PIECES, Cell, Instance

__all__ = ["Position", "Target", "Image", "Tables", "tables", "union_map",
           "Packing", "packing", "start_position", "move_name", "KING", "QUEEN", "ROOK",
           "BISHOP", "KNIGHT", "PAWN"]

Position = tuple[int, int, int, int, int, int]  # slot bitboards in PIECES order: K Q R B N P
Square = tuple[int, int]

KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN = range(6)
_LETTERS = "".join(piece.value for piece in PIECES)
_FILES = "abcdefgh"
_ORTHOGONAL = DELTAS
_DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT_JUMPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
# How each type moves, in PIECES order: (directions, slides). Pawns go toward row 0.
_MOVES = (
    (_ORTHOGONAL + _DIAGONAL, False),
    (_ORTHOGONAL + _DIAGONAL, True),
    (_ORTHOGONAL, True),
    (_DIAGONAL, True),
    (_KNIGHT_JUMPS, False),
    (((-1, -1), (-1, 1)), False),
)

Target = tuple[int, int]  # (target slot bit, mask of the slots strictly between)
PackedTarget = tuple[int, int, int]  # a Target and the shift of the target's packed field
Image = Callable[[int], int]  # a map of slot sets to slot sets


# ---------------------------------------------------------------- tables

@dataclass(frozen=True)
class Tables:
    """Attack tables over the slots (the start squares) of one instance.

    `targets[kind][a]`: (bit of b, slots between) for every slot b a `kind`
    piece on slot a attacks on an empty board. `attacked[kind]` maps a set of
    slots to the slots a `kind` piece on any of them attacks, `attackers[kind]`
    a set of slots to those from which a `kind` piece attacks one of them,
    ignoring blockers: the closures of the dead-end test (`Searcher.linked`).
    """

    rows: int
    cols: int
    squares: tuple[Square, ...]
    targets: tuple[tuple[tuple[Target, ...], ...], ...]
    attacked: tuple[Image, ...]
    attackers: tuple[Image, ...]

    def name(self, bit: int) -> str:
        r, c = self.squares[bit.bit_length() - 1]
        return f"{_FILES[c]}{self.rows - r}"


def _walk(rows: int, cols: int, origin: Square, kind: int,
          slot_of: dict[Square, int]) -> tuple[Target, ...]:
    """Slots attacked from `origin` on an empty board, each with the slots passed on the way."""
    directions, slides = _MOVES[kind]
    found = []
    for dr, dc in directions:
        r, c, passed = origin[0] + dr, origin[1] + dc, 0
        while 0 <= r < rows and 0 <= c < cols:
            slot = slot_of.get((r, c))
            if slot is not None:
                found.append((1 << slot, passed))
                passed |= 1 << slot
            if not slides:
                break
            r, c = r + dr, c + dc
    return tuple(found)


def tables(rows: int, cols: int, squares: tuple[Square, ...]) -> Tables:
    """The attack tables of a rows x cols board whose pieces start on `squares`."""
    slot_of = {square: slot for slot, square in enumerate(squares)}
    targets = tuple(tuple(_walk(rows, cols, square, kind, slot_of) for square in squares)
                    for kind in range(6))
    reach = tuple(tuple(_union(found) for found in per_kind) for per_kind in targets)
    came = tuple(tuple(sum(1 << a for a in range(len(squares)) if per_kind[a] >> b & 1)
                       for b in range(len(squares)))
                 for per_kind in reach)
    return Tables(rows, cols, squares, targets,
                  tuple(union_map(list(per_kind)) for per_kind in reach),
                  tuple(union_map(list(per_kind)) for per_kind in came))


def _union(found: tuple[Target, ...]) -> int:
    mask = 0
    for bit, _ in found:
        mask |= bit
    return mask


def union_map(images: list[int]) -> Image:
    """The map bits -> OR of images[slot] over the set bits, 8 slots per table lookup.

    Both the symmetries (a slot to its image slot) and the closures of the
    dead-end test (a slot to the slots it attacks) are such maps.

    >>> union_map([0b10, 0b100, 0b1])(0b101)  # slots 0 and 2
    3
    """
    chunks = []
    for base in range(0, len(images), 8):
        table = [0] * (1 << min(8, len(images) - base))  # only slots that exist index it
        for bits in range(1, len(table)):
            low = bits & -bits
            table[bits] = table[bits ^ low] | images[base + low.bit_length() - 1]
        chunks.append(tuple(table))
    if len(chunks) == 1:
        return chunks[0].__getitem__  # boards of up to 8 pieces: one lookup
    if len(chunks) == 2:
        low, high = chunks
        return lambda bits: low[bits & 255] | high[bits >> 8]  # up to 16 pieces
    return _chunked(tuple(chunks))


def _chunked(chunks: tuple[tuple[int, ...], ...]) -> Image:
    def image(bits: int) -> int:
        out = 0
        for table in chunks:
            if not bits:
                break
            out |= table[bits & 255]
            bits >>= 8
        return out

    return image


@dataclass(frozen=True)
class Packing:
    """A position as one int: `width` bits per slot holding a code, 0 for an empty slot.

    Codes number the piece types on the start board in PIECES order, the
    king first, so code 1 is the king when there is one; `width` is the bit
    length of the number of types. Both engines key positions this way: a
    capture is two field updates, and a position hashes as one int.
    """

    width: int
    codes: tuple[int, ...]   # per piece type (PIECES order): its code, 0 when absent
    kinds: tuple[int, ...]   # per code: its piece type (index 0 unused)

    @property
    def capacity(self) -> int:
        """How many slots fit in 64 bits."""
        return 64 // self.width

    def pack(self, position: Position) -> int:
        packed = 0
        for kind, board in enumerate(position):
            while board:
                low = board & -board
                board ^= low
                packed |= self.codes[kind] << self.width * (low.bit_length() - 1)
        return packed

    def field(self, packed: int, slot: int) -> int:
        return packed >> self.width * slot & ((1 << self.width) - 1)

    def targets(self, board: Tables) -> tuple[tuple[tuple[PackedTarget, ...], ...], ...]:
        """`board.targets` by code instead of type, each target with its field shift.

        Per code (index 0: empty, no moves) and slot a: (bit of b, slots
        between, shift of b's field) for every slot b that piece attacks.
        """
        return ((),) + tuple(
            tuple(tuple((bit, path, self.width * (bit.bit_length() - 1)) for bit, path in found)
                  for found in board.targets[kind])
            for kind in self.kinds[1:])


def packing(start: Position) -> Packing:
    """The packing for a start position: codes for the types on the board, the king first.

    >>> packing((0, 0, 0, 0, 0b111, 0)).width, packing((1, 0, 0, 0, 2, 4)).codes
    (1, (1, 0, 0, 0, 2, 3))
    """
    present = [kind for kind in range(6) if start[kind]]
    codes = [0] * 6
    for code, kind in enumerate(present, start=1):
        codes[kind] = code
    return Packing(max(1, len(present).bit_length()), tuple(codes), (-1, *present))


def start_position(instance: Instance) -> tuple[Tables, Position]:
    """The slot tables of an instance and its start position on them."""
    squares = tuple((r, c) for r, c in instance.squares()
                    if instance.board[r][c] is not Cell.EMPTY)
    boards = [0] * 6
    for slot, (r, c) in enumerate(squares):
        boards[PIECES.index(instance.board[r][c])] |= 1 << slot
    return tables(instance.rows, instance.cols, squares), tuple(boards)  # type: ignore[return-value]


def move_name(board: Tables, kind: int, origin: int, captured: int, target: int) -> str:
    """A capture in the puzzle's notation, e.g. `Pa2xBb3` (origin and target as slot bits)."""
    return f"{_LETTERS[kind]}{board.name(origin)}x{_LETTERS[captured]}{board.name(target)}"
