"""Solitaire Chess, the `hand` back-end: bitboard search that counts through a memo.

Rules (see `twinsolve.puzzles.chess`): every move captures (sliders need a
clear path, pawns capture diagonally toward the top row only, the king
cannot be captured); goal: one piece left.

Bitboards. A capture moves a piece onto an occupied square, so pieces only
ever stand on the n squares that held a piece at the start (the start set
S). Number those squares 0..n-1 ("slots"); a position is six bitboards over
the slots, one int per piece type (K Q R B N P). Per instance, each piece
type and slot gets the list of slots it attacks on an empty board, each
with the mask of slots strictly between (empty for knights, kings and
pawns); a capture a -> b is legal when b holds a piece other than a king
and `between & occupied == 0`. Squares outside S are always empty, so they
never block.

Counting. Every move removes one piece, so every win from a position has
the same length and the number of winning sequences from a position does
not depend on how it was reached. The search is a depth-first count with a
memo, position -> number of winning sequences from it (0 = dead):
count(p) = 1 with one piece left, else the sum over the legal captures of
count(child) (with two pieces left: the number of legal captures). Counting
never enumerates sequences one by one. Without `count` the same recursion
runs with the sums saturated at a cap (1 to find a win, 2 to settle
`unique`), which stays exact: min(a + b, cap) = min(min(a, cap) + min(b,
cap), cap), and a node stops summing once it reaches the cap. The move
sequence reported is read back from the memo, taking at each step the first
capture whose child is winnable.

Dead ends (`linked`). A piece of one type only ever stands on the occupied
squares it can reach by moves of its type (its home, ignoring blockers),
and every later move goes from a square of a home to a square it attacks.
When those links split the occupied squares into two groups, each group
keeps a piece forever: the position is dead and is not expanded. With a
king on the board the test is directed: the king is never captured, so it
is the last piece and every other piece is taken in a chain of captures
that ends with the king; every occupied square must therefore reach the
king's home along possible moves. A king that can never move is dead weight
(it would have to take the last but one piece), and two kings can never
both be the last piece: `unsat` at once.

Symmetry. A board symmetry g maps positions to positions with the same
count exactly when it maps each piece type's moves onto moves of the same
type: all 8 symmetries of a square board (4 of a rectangle: the mirrors and
the half turn) for kings, queens, rooks, bishops and knights, but pawns
capture toward the top row, so with a pawn on the board only the left-right
mirror is left. The memo is keyed by a canonical position, the least image
of the position under those symmetries (the counts of an orbit are equal,
so counting through the canonical key stays exact). Only images inside S
can ever be reached, so a symmetry is tried only when the position's
squares all map into S (the key is then the least reachable image of the
orbit, the same for every reachable member), and the group depends only on
whether a pawn is on the board, which the whole orbit shares. Images are
computed 8 slots at a time through lookup tables.

`nodes` counts positions expanded; `memo`, `memo_hits` and `pruned` (dead
ends cut by `linked`) sit beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..core.limits import Deadline, Limits
from ..core.result import Result, Stats, Status, Stopwatch
from ..puzzles.chess import PIECES, Cell, Instance, answer

__all__ = ["solve", "Tables", "tables", "Searcher", "symmetries"]

Position = tuple[int, int, int, int, int, int]  # slot bitboards in PIECES order: K Q R B N P
Move = tuple[int, int, int, int]  # (mover kind, origin bit, captured kind, target bit)
Square = tuple[int, int]

KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN = range(6)
_LETTERS = "".join(piece.value for piece in PIECES)
_FILES = "abcdefgh"
_ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
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
_POLL = 1023  # poll the deadline when nodes & _POLL == 0

Target = tuple[int, int]  # (target slot bit, mask of the slots strictly between)


# ---------------------------------------------------------------- tables

@dataclass(frozen=True)
class Tables:
    """Attack tables over the slots (the start squares) of one instance.

    `targets[kind][a]`: (bit of b, slots between) for every slot b a `kind`
    piece on slot a attacks on an empty board; `reach[kind][a]` the union of
    those bits; `came[kind][b]` the slots from which a `kind` piece attacks b.
    """

    rows: int
    cols: int
    squares: tuple[Square, ...]
    targets: tuple[tuple[tuple[Target, ...], ...], ...]
    reach: tuple[tuple[int, ...], ...]
    came: tuple[tuple[int, ...], ...]

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
    return Tables(rows, cols, squares, targets, reach, came)


def _union(found: tuple[Target, ...]) -> int:
    mask = 0
    for bit, _ in found:
        mask |= bit
    return mask


# ---------------------------------------------------------------- symmetry

SquareMap = Callable[[int, int, int, int], Square]

_DIHEDRAL: dict[str, SquareMap] = {
    "mirror": lambda r, c, rows, cols: (r, cols - 1 - c),      # left-right
    "flip": lambda r, c, rows, cols: (rows - 1 - r, c),        # top-bottom
    "half-turn": lambda r, c, rows, cols: (rows - 1 - r, cols - 1 - c),
    "transpose": lambda r, c, rows, cols: (c, r),              # square boards only from here
    "anti-transpose": lambda r, c, rows, cols: (cols - 1 - c, rows - 1 - r),
    "quarter-turn": lambda r, c, rows, cols: (c, rows - 1 - r),
    "three-quarter-turn": lambda r, c, rows, cols: (cols - 1 - c, r),
}


def symmetries(rows: int, cols: int, pawns: bool) -> list[str]:
    """Names of the non-identity symmetries that preserve every piece type's moves.

    >>> symmetries(4, 4, pawns=False)[:4], symmetries(3, 5, pawns=False), symmetries(4, 4, True)
    (['mirror', 'flip', 'half-turn', 'transpose'], ['mirror', 'flip', 'half-turn'], ['mirror'])
    """
    if pawns:
        return ["mirror"]
    names = list(_DIHEDRAL)
    return names if rows == cols else names[:3]


Image = Callable[[int], int]


def _slot_symmetry(board: Tables, name: str) -> tuple[int, Image] | None:
    """(support, image) of a symmetry on slot bitboards, None when it is of no use.

    The support is the set of slots whose image square is again a slot; the
    image is only ever applied to bitboards inside the support.
    """
    slot_of = {square: slot for slot, square in enumerate(board.squares)}
    mapping = {}
    for slot, (r, c) in enumerate(board.squares):
        image_slot = slot_of.get(_DIHEDRAL[name](r, c, board.rows, board.cols))
        if image_slot is not None:
            mapping[slot] = image_slot
    if len(mapping) < 2 or all(a == b for a, b in mapping.items()):
        return None  # no position of 2+ pieces fits, or it fixes every slot it keeps
    chunks = []
    for base in range(0, len(board.squares), 8):
        table = [0] * 256
        for bits in range(1, 256):
            low = bits & -bits
            slot = base + low.bit_length() - 1
            table[bits] = table[bits ^ low] | (1 << mapping[slot] if slot in mapping else 0)
        chunks.append(tuple(table))
    support = sum(1 << slot for slot in mapping)
    return support, _chunked_image(tuple(chunks))


def _chunked_image(chunks: tuple[tuple[int, ...], ...]) -> Image:
    def image(bits: int) -> int:
        out = 0
        for table in chunks:
            if not bits:
                break
            out |= table[bits & 255]
            bits >>= 8
        return out

    return image


# ---------------------------------------------------------------- search

class _Stop(Exception):
    """The deadline or the node limit ended the search."""


class Searcher:
    """The memoised count over one instance; see the module docstring.

    `count()` answers the number of winning sequences from the start,
    saturated at `cap` (None: exact); `line()` then reads one back.
    """

    def __init__(self, instance: Instance, cap: int | None = None,
                 deadline: Deadline | None = None, node_limit: int | None = None,
                 symmetry: bool = True, prune: bool = True) -> None:
        squares = tuple((r, c) for r, c in instance.squares()
                        if instance.board[r][c] is not Cell.EMPTY)
        self.board = tables(instance.rows, instance.cols, squares)
        boards = [0] * 6
        for slot, (r, c) in enumerate(squares):
            boards[PIECES.index(instance.board[r][c])] |= 1 << slot
        self.start: Position = tuple(boards)  # type: ignore[assignment]
        self.pieces = len(squares)
        self.cap = cap
        self.deadline = deadline or Deadline(None)
        self.node_limit = node_limit
        self.prune = prune
        self.memo: dict[Position, int] = {}
        self.nodes = self.hits = self.pruned = 0
        self._groups = {pawns: self._group(instance, pawns) if symmetry else []
                        for pawns in (False, True)}

    def _group(self, instance: Instance, pawns: bool) -> list[tuple[int, Image]]:
        group = []
        for name in symmetries(instance.rows, instance.cols, pawns):
            found = _slot_symmetry(self.board, name)
            if found is not None:
                group.append(found)
        return group

    def key(self, position: Position, occupied: int) -> Position:
        """The canonical form: the least reachable image of `position` (itself included)."""
        best = position
        for support, image in self._groups[bool(position[PAWN])]:
            if occupied & ~support:
                continue  # the image leaves the start squares: never reached
            candidate = (image(position[0]), image(position[1]), image(position[2]),
                         image(position[3]), image(position[4]), image(position[5]))
            if candidate < best:
                best = candidate
        return best

    # -------------------------------------------------------- moves

    def moves(self, position: Position) -> Iterator[tuple[Move, Position]]:
        """Every legal capture and the position after it, in the order `count` uses."""
        occupied = position[0] | position[1] | position[2] | position[3] | position[4] \
            | position[5]
        prey = occupied & ~position[KING]
        for kind in range(6):
            movers, table = position[kind], self.board.targets[kind]
            while movers:
                origin = movers & -movers
                movers ^= origin
                for target, path in table[origin.bit_length() - 1]:
                    if target & prey and not path & occupied:
                        yield (kind, origin, _kind_at(position, target), target), \
                            _after(position, kind, origin, target)

    # -------------------------------------------------------- dead ends

    def linked(self, position: Position, occupied: int) -> bool:
        """False when the pieces can never come down to one (see "Dead ends" above)."""
        kings = position[KING]
        if kings & (kings - 1):
            return False  # two pieces that are never captured
        homes, king_home = [], 0
        for kind in range(6):
            pieces = position[kind]
            if not pieces:
                continue
            reach = self.board.reach[kind]
            home = frontier = pieces
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                new = reach[low.bit_length() - 1] & occupied & ~home
                home |= new
                frontier |= new
            if kind == KING:
                if home == pieces:
                    return False
                king_home = home
            homes.append((reach, self.board.came[kind], home))
        if kings:
            # Every piece must end up captured by a chain that ends with the king:
            # each occupied square reaches the king's home along possible moves.
            seen = frontier = king_home
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                slot, new = low.bit_length() - 1, 0
                for _, came, home in homes:
                    new |= came[slot] & home
                new &= occupied & ~seen
                seen |= new
                frontier |= new
            return seen == occupied
        seen = frontier = occupied & -occupied
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            slot, new = low.bit_length() - 1, 0
            for reach, came, home in homes:
                if home & low:
                    new |= reach[slot]
                new |= came[slot] & home
            new &= occupied & ~seen
            seen |= new
            frontier |= new
        return seen == occupied

    # -------------------------------------------------------- counting

    def count(self) -> int:
        """Winning sequences from the start, saturated at `cap`."""
        if self.pieces == 1:
            return 1
        occupied = (1 << self.pieces) - 1
        return self._expand(self.start, occupied, self.pieces, self.key(self.start, occupied))

    def _expand(self, position: Position, occupied: int, pieces: int, key: Position) -> int:
        """Count from a position not in the memo, and memoise it under `key`.

        The move loop of `moves` is written out here: this is the hot path.
        """
        memo = self.memo
        if self.prune and not self.linked(position, occupied):
            self.pruned += 1
            memo[key] = 0
            return 0
        self.nodes += 1
        if not self.nodes & _POLL and self.deadline.expired() or \
                self.node_limit is not None and self.nodes > self.node_limit:
            raise _Stop
        cap, last, total, hits = self.cap, pieces == 2, 0, 0
        prey = occupied & ~position[KING]
        canonical = self.key if self._groups[bool(position[PAWN])] else None
        for kind in range(6):
            movers, table = position[kind], self.board.targets[kind]
            while movers:
                origin = movers & -movers
                movers ^= origin
                for target, path in table[origin.bit_length() - 1]:
                    if not target & prey or path & occupied:
                        continue
                    if last:
                        total += 1
                    else:
                        boards = list(position)  # _after, written out
                        captured = 1
                        while not boards[captured] & target:
                            captured += 1
                        boards[captured] ^= target
                        boards[kind] ^= origin | target
                        child = tuple(boards)
                        child_occupied = occupied ^ origin
                        child_key = child if canonical is None \
                            else canonical(child, child_occupied)  # type: ignore[arg-type]
                        value = memo.get(child_key)
                        if value is None:
                            value = self._expand(child, child_occupied,  # type: ignore[arg-type]
                                                 pieces - 1, child_key)
                        else:
                            hits += 1
                        total += value
                    if cap is not None and total >= cap:
                        self.hits += hits
                        memo[key] = cap
                        return cap
        self.hits += hits
        memo[key] = total
        return total

    def value(self, position: Position, pieces: int) -> int:
        """The count of a position the search has settled (0 if it never got there)."""
        if pieces == 1:
            return 1
        if pieces == 2:
            return sum(1 for _ in self.moves(position))
        occupied = 0
        for board in position:
            occupied |= board
        return self.memo.get(self.key(position, occupied), 0)

    def line(self) -> list[str]:
        """A winning sequence read back from the memo (after `count` found one)."""
        position, pieces, names = self.start, self.pieces, []
        while pieces > 1:
            for move, child in self.moves(position):
                if self.value(child, pieces - 1) > 0:
                    names.append(self._name(move))
                    position, pieces = child, pieces - 1
                    break
            else:
                raise RuntimeError("memo lost the winning line")
        return names

    def _name(self, move: Move) -> str:
        kind, origin, captured, target = move
        return (f"{_LETTERS[kind]}{self.board.name(origin)}x"
                f"{_LETTERS[captured]}{self.board.name(target)}")


def _kind_at(position: Position, target: int) -> int:
    kind = 0
    while not position[kind] & target:
        kind += 1
    return kind


def _after(position: Position, kind: int, origin: int, target: int) -> Position:
    """The position after the `kind` piece on `origin` captures on `target`."""
    boards = list(position)
    captured = 1  # never the king
    while not boards[captured] & target:
        captured += 1
    boards[captured] ^= target
    boards[kind] ^= origin | target
    return tuple(boards)  # type: ignore[return-value]


def solve(instance: Instance, limits: Limits) -> Result:
    """Count winning sequences through the memo; SOLVED with `{"moves": [...]}`, or UNSAT.

    Options: `hand:symmetry=false` keys the memo by the plain position,
    `hand:prune=false` turns the dead-end test off.
    """
    watch = Stopwatch()
    cap = None if limits.count else (2 if limits.unique else 1)
    searcher = Searcher(instance, cap, limits.deadline(), limits.node_limit,
                        bool(limits.options.get("symmetry", True)),
                        bool(limits.options.get("prune", True)))
    watch.built()
    total = 0
    if bin(searcher.start[KING]).count("1") < 2:  # kings are never captured
        try:
            total = searcher.count()
        except _Stop:
            return Result(Status.TIMEOUT, stats=_stats(watch, searcher),
                          message="hand stopped: time or node limit")
    moves = searcher.line() if total else None
    return answer(moves, total, limits, _stats(watch, searcher),
                  exact=cap is None or total < cap)


def _stats(watch: Stopwatch, searcher: Searcher) -> Stats:
    return watch.stats(nodes=searcher.nodes, memo=len(searcher.memo), memo_hits=searcher.hits,
                       pruned=searcher.pruned)
