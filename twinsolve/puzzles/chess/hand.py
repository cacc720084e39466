"""Solitaire Chess, the `hand` back-end: a memo search that counts, and the engine choice.

Rules (see `twinsolve.puzzles.chess.rules`): every move captures (sliders need a
clear path, pawns capture diagonally toward the top row only, the king
cannot be captured); goal: one piece left. Positions are bitboards over the
start squares ("slots", see `chess_board`); the memo keys them packed into
one int (`chess_board.Packing`), so a child already in the memo costs a few
integer operations and is never built as bitboards.

Two engines (`solve` picks): this module's depth-first memo search, and
`chess_layers`, which counts every reachable position a layer at a time
in numpy. The memo search prunes dead ends, folds symmetries and stops at
a cap, so it wins on puzzles; the layer count has a far smaller cost per
position, so it wins on busy boards with millions of positions.

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

`nodes` counts positions expanded; `engine`, `memo`, `memo_hits` and
`pruned` (dead ends cut by `linked`) sit beside it.

Graded proofs (for `generate`, never called by the back-end). `prove_unique`
plays the winning line forwards and settles the position after every
capture on it through the same memo (`Searcher.settle`), counting the
captures that lead nowhere: the dead ends a person has to see through;
budgets on pieces and dead ends make it the solver of a difficulty level.
`Searcher.over_board` keys every square of a board, so the generator can
settle boards of its own making through one memo.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ...core.limits import Deadline, LimitReached, Limits, Poller
from ...core.result import Result, Stats, Status, Stopwatch, Tally, solutions_wanted
from .board import (
    KING,
    PAWN,
    Image,
    Position,
    Square,
    Tables,
    move_name,
    packing,
    start_position,
    union_map,
)
from .layers import TooBig, count_layers, default_budget_mb, fits
from .rules import Cell, Instance, answer

__all__ = ["solve", "check_options", "Searcher", "symmetries", "Proof", "prove_unique",
           "ENGINES", "SWITCH_NODES"]

Move = tuple[int, int, int, int]  # (mover kind, origin bit, captured kind, target bit)
_EVERY = 1024  # the memo search reads the clock every 1024 expansions: most are cheap


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
    support = sum(1 << slot for slot in mapping)
    return support, union_map([1 << mapping[slot] if slot in mapping else 0
                               for slot in range(len(board.squares))])


# ---------------------------------------------------------------- search

class Searcher:
    """The memoised count over one instance; see the module docstring.

    `count()` answers the number of winning sequences from the start,
    saturated at `cap` (None: exact); `line()` then reads one back.
    """

    def __init__(self, instance: Instance, cap: int | None = None,
                 deadline: Deadline | None = None, node_limit: int | None = None,
                 symmetry: bool = True, prune: bool = True, every_kind: bool = False) -> None:
        self._node_limit: int | None = None
        self.board, self.start = start_position(instance)
        self.pieces = len(self.board.squares)
        self.cap = cap
        self.deadline = deadline or Deadline(None)
        self.node_limit = node_limit  # builds `self._poller`
        self.prune = prune
        self.memo: dict[int, int] = {}  # packed canonical position -> count
        # `every_kind`: a code for every piece type, also those not on the start board
        # (the generator settles positions of its own on these slots: `over_board`).
        self.packing = packing((1,) * 6 if every_kind else self.start)
        self._packed_targets = self.packing.targets(self.board)
        self.nodes = self.hits = self.pruned = 0
        self._groups = {pawns: self._group(instance, pawns) if symmetry else []
                        for pawns in (False, True)}
        # The slot sets some symmetry keeps inside the start squares: a position
        # outside all of them is its own canonical form.
        self._supports = tuple(sorted({support for group in self._groups.values()
                                       for support, _ in group}))

    @classmethod
    def over_board(cls, rows: int, cols: int, cap: int | None = None,
                   node_limit: int | None = None, symmetry: bool = False,
                   prune: bool = False) -> Searcher:
        """A searcher whose slots are all rows x cols squares (slot r * cols + c) and whose
        packing codes every piece type: for `settle` on any position of that board.

        Symmetry and dead-end pruning are off by default: with every square a slot,
        every symmetry applies to every position and the dead-end closures span the
        whole board, and both cost more than the positions they save (generating
        4x4 boards, about 1.5x; 8x8 boards, about 4x).
        """
        full = tuple(tuple(Cell.KNIGHT for _ in range(cols)) for _ in range(rows))
        return cls(Instance(rows, cols, full), cap, node_limit=node_limit, symmetry=symmetry,
                   prune=prune, every_kind=True)

    @property
    def node_limit(self) -> int | None:
        """Expansions allowed (None: any); `solve` lowers it to switch engines."""
        return self._node_limit

    @node_limit.setter
    def node_limit(self, limit: int | None) -> None:
        self._node_limit = limit
        # `nodes` already counts the expansion being started when it is polled,
        # so the poller's limit is one more: `limit` expansions run, the next stops.
        self._poller = Poller(None if limit is None else limit + 1, self.deadline, every=_EVERY)

    def _group(self, instance: Instance, pawns: bool) -> list[tuple[int, Image]]:
        group = []
        for name in symmetries(instance.rows, instance.cols, pawns):
            found = _slot_symmetry(self.board, name)
            if found is not None:
                group.append(found)
        return group

    def key(self, position: Position, occupied: int) -> int:
        """The memo key: the packed least reachable image of `position` (itself included)."""
        best = position
        for support, image in self._groups[bool(position[PAWN])]:
            if occupied & ~support:
                continue  # the image leaves the start squares: never reached
            candidate = (image(position[0]), image(position[1]), image(position[2]),
                         image(position[3]), image(position[4]), image(position[5]))
            if candidate < best:
                best = candidate
        return self.packing.pack(best)

    # -------------------------------------------------------- moves

    def moves(self, position: Position) -> Iterator[tuple[Move, Position]]:
        """Every legal capture and the position after it: by type, then slot (`line` reads
        a winning line back in this order)."""
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
                        captured = _kind_at(position, target)
                        yield (kind, origin, captured, target), \
                            _after(position, kind, origin, target, captured)

    # -------------------------------------------------------- dead ends

    def linked(self, position: Position, occupied: int) -> bool:
        """False when the pieces can never come down to one (see "Dead ends" above).

        Each closure grows a whole frontier of slots per step through the
        set maps of `Tables`, so a step costs a few table lookups per kind.
        """
        kings = position[KING]
        if kings & (kings - 1):
            return False  # two pieces that are never captured
        attacked, attackers = self.board.attacked, self.board.attackers
        homes, king_home = [], 0
        for kind in range(6):
            pieces = position[kind]
            if not pieces:
                continue
            spread = attacked[kind]
            home = frontier = pieces
            while frontier:
                frontier = spread(frontier) & occupied & ~home
                home |= frontier
            if kind == KING:
                if home == pieces:
                    return False
                king_home = home
            homes.append((spread, attackers[kind], home))
        if kings:
            # Every piece must end up captured by a chain that ends with the king:
            # each occupied square reaches the king's home along possible moves.
            seen = frontier = king_home
            while frontier:
                new = 0
                for _, gather, home in homes:
                    new |= gather(frontier) & home
                frontier = new & occupied & ~seen
                seen |= frontier
            return seen == occupied
        seen = frontier = occupied & -occupied
        while frontier:
            new = 0
            for spread, gather, home in homes:
                new |= spread(frontier & home) | gather(frontier) & home
            frontier = new & occupied & ~seen
            seen |= frontier
        return seen == occupied

    # -------------------------------------------------------- counting

    def count(self) -> int:
        """Winning sequences from the start, saturated at `cap`."""
        if self.pieces == 1:
            return 1
        occupied = (1 << self.pieces) - 1
        return self._expand(self.start, self.packing.pack(self.start), occupied, self.pieces,
                            self.key(self.start, occupied))

    def _expand(self, position: Position, packed: int, occupied: int, pieces: int,
                key: int) -> int:
        """Count from a position not in the memo, and memoise it under `key`.

        The move loop of `moves` is written out here on the packed form, so a
        child that is already in the memo costs a few integer operations; its
        bitboards are built only when it must be expanded.
        """
        memo = self.memo
        if self.prune and not self.linked(position, occupied):
            self.pruned += 1
            memo[key] = 0
            return 0
        self.nodes += 1
        if self.nodes >= self._poller.at:
            self._poller.stop(self.nodes)
        cap, last, total, hits = self.cap, pieces == 2, 0, 0
        supports = self._supports
        targets, kinds = self._packed_targets, self.packing.kinds
        width = self.packing.width
        mask, king = (1 << width) - 1, self.packing.codes[KING]  # king: 0 when there is none
        movers = occupied
        while movers:
            origin = movers & -movers
            movers ^= origin
            slot = origin.bit_length() - 1
            shift = width * slot
            code = packed >> shift & mask
            vacated = packed - (code << shift)
            child_occupied = occupied ^ origin
            for target, path, target_shift in targets[code][slot]:
                if not target & occupied or path & occupied:
                    continue
                victim = packed >> target_shift & mask
                if victim == king:
                    continue
                if last:
                    total += 1
                else:
                    child = vacated + ((code - victim) << target_shift)
                    boards, child_key = None, child
                    for support in supports:
                        if not child_occupied & ~support:  # a symmetry may apply
                            boards = _after(position, kinds[code], origin, target, kinds[victim])
                            child_key = self.key(boards, child_occupied)
                            break
                    value = memo.get(child_key)
                    if value is None:
                        if boards is None:
                            boards = _after(position, kinds[code], origin, target, kinds[victim])
                        value = self._expand(boards, child, child_occupied, pieces - 1,
                                             child_key)
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

    def settle(self, position: Position) -> int:
        """The count of any position over these slots, saturated at `cap`: from the
        memo, or searched now (the memo keeps it for the next call).

        The proof and the generator (`prove_unique`, `generate.attempt`) ask this
        of positions other than the start; `count` itself never calls it.
        """
        occupied = position[0] | position[1] | position[2] | position[3] | position[4] \
            | position[5]
        pieces = occupied.bit_count()
        if pieces == 1:
            return 1
        key = self.key(position, occupied)
        value = self.memo.get(key)
        if value is None:
            value = self._expand(position, self.packing.pack(position), occupied, pieces, key)
        return value

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
        return move_name(self.board, kind, origin, captured, target)


def _kind_at(position: Position, target: int) -> int:
    kind = 0
    while not position[kind] & target:
        kind += 1
    return kind


def _after(position: Position, kind: int, origin: int, target: int,
           captured: int) -> Position:
    """The position after the `kind` piece on `origin` captures the `captured` one on `target`."""
    boards = list(position)
    boards[captured] ^= target
    boards[kind] ^= origin | target
    return tuple(boards)  # type: ignore[return-value]


# ---------------------------------------------------------------- the graded proof

@dataclass(frozen=True)
class Proof:
    """What `prove_unique` found.

    `winning_lines`: the winning sequences, saturated at 2 (2: two or more);
    `moves`: the winning line when there is exactly one; `dead_ends`: the
    captures from positions on the line whose position after them has no win
    (all but one capture of each, when the line is unique), counted up to
    where the walk stopped; `nodes`: positions the memo search expanded;
    `stopped`: the budget that ran out first (`"pieces"`, `"dead ends"`,
    `"nodes"`), or None when the proof ran to its end.
    """

    winning_lines: int
    moves: tuple[str, ...] = ()
    dead_ends: int = 0
    nodes: int = 0
    stopped: str | None = None

    @property
    def proved(self) -> bool:
        """Whether this is a complete proof that exactly one winning line exists."""
        return self.stopped is None and self.winning_lines == 1


def prove_unique(instance: Instance, max_pieces: int | None = None,
                 max_dead_ends: int | None = None, node_limit: int | None = None) -> Proof:
    """Play the winning line forwards, refuting every other capture on the way.

    The solver a person would be: at each position on the line it tries every
    capture, the memo search (`Searcher`, saturated at 2) settles the position
    after it, and each capture whose position has no win is a dead end. One
    capture must lead on, and to exactly one winning line; with several (or
    none) the walk stops: not unique (or no win). The budgets make the solver
    of a difficulty level (`generate.LEVELS`): it takes no board of more than
    `max_pieces` pieces and gives up at dead end number `max_dead_ends` + 1;
    `node_limit` bounds the search below. The default `hand` back-end never
    calls this.

    >>> from .rules import parse
    >>> proof = prove_unique(parse("chess 4 4\\nN...\\n.B..\\nP...\\n....\\n"))
    >>> proof.proved, proof.moves, proof.dead_ends
    (True, ('Pa2xBb3', 'Pb3xNa4'), 2)
    """
    if max_pieces is not None and instance.pieces > max_pieces:
        return Proof(0, stopped="pieces")
    searcher = Searcher(instance, cap=2, node_limit=node_limit)
    position, pieces, dead, moves = searcher.start, searcher.pieces, 0, []
    try:
        while pieces > 1:
            onward = []  # (move, position after it, its winning lines saturated at 2)
            for move, child in searcher.moves(position):
                ways = searcher.settle(child)
                if ways:
                    onward.append((move, child, ways))
                    continue
                dead += 1
                if max_dead_ends is not None and dead > max_dead_ends:
                    return Proof(0, dead_ends=dead, nodes=searcher.nodes, stopped="dead ends")
            if len(onward) != 1 or onward[0][2] > 1:
                lines = min(2, sum(ways for _, _, ways in onward))
                return Proof(lines, dead_ends=dead, nodes=searcher.nodes)
            move, position, _ = onward[0]
            moves.append(searcher._name(move))
            pieces -= 1
    except LimitReached:
        return Proof(0, dead_ends=dead, nodes=searcher.nodes, stopped="nodes")
    return Proof(1, tuple(moves), dead, searcher.nodes)


ENGINES = ("auto", "memo", "layers")
SWITCH_NODES = 5000  # auto: memo expansions before the layer count takes over


def check_options(limits: Limits) -> None:
    """hand's options, read as `solve` reads them (its docstring; the registry's checker)."""
    limits.check_options("hand", ("engine", "switch", "memory", "symmetry", "prune"))
    limits.choice("engine", "auto", ENGINES)
    limits.whole("switch", SWITCH_NODES)
    limits.whole("memory", 1, minimum=1)
    limits.flag("symmetry", True)
    limits.flag("prune", True)


def solve(instance: Instance, limits: Limits) -> Result:
    """Count winning sequences through a table of positions; SOLVED with `{"moves": [...]}`.

    Two engines count through a table keyed by position (neither enumerates
    sequences): `memo`, the depth-first `Searcher` with dead-end pruning,
    symmetry and a cap (it stops at the first win, or the second for
    `unique`), and `layers` (`chess_layers`), every reachable position a
    layer at a time in numpy, always exact. `auto` (the default) runs the
    memo search for `SWITCH_NODES` expansions (puzzles and small boards end
    there, at a fraction of a millisecond each) and hands boards that need
    more to the layer count, when their positions fit a uint64; should the
    layer count outgrow its memory budget, the memo search takes over again
    where it stopped (its memo holds only finished counts).

    Options: `hand:engine=auto|memo|layers`, `hand:switch=N` (memo
    expansions before auto switches), `hand:memory=MB` (the layer count's
    budget; default `chess_layers.default_budget_mb()`: 2 GiB, less under a
    process memory limit), `hand:symmetry=false` (memo keyed by the plain
    position), `hand:prune=false` (no dead-end test).
    """
    engine = limits.choice("engine", "auto", ENGINES)
    switch = limits.whole("switch", SWITCH_NODES)
    memory = limits.whole("memory", default_budget_mb(), minimum=1)
    watch, deadline = Stopwatch(), limits.deadline()
    cap = solutions_wanted(limits)
    searcher = Searcher(instance, cap, deadline, limits.node_limit,
                        limits.flag("symmetry", True), limits.flag("prune", True))
    watch.built()
    if bin(searcher.start[KING]).count("1") > 1:  # kings are never captured
        return Result.unsat(limits, stats=_stats(watch, searcher, "memo"))
    layered = fits(searcher.board, searcher.start)
    if engine == "layers" and not layered:
        return Result(Status.UNSUPPORTED, message=f"{searcher.pieces} pieces of these types do "
                      "not pack into 64 bits; use hand:engine=memo")
    if engine != "layers":
        may_switch = engine == "auto" and layered and \
            (limits.node_limit is None or switch < limits.node_limit)
        if may_switch:
            searcher.node_limit = switch
        done = _memo_answer(watch, searcher, limits)
        if done is not None or not may_switch or deadline.expired():
            return done or _stopped(watch, searcher, "memo")
        searcher.node_limit = limits.node_limit
    spent = searcher.nodes
    try:
        layers = count_layers(searcher.board, searcher.start, deadline,
                              None if limits.node_limit is None else limits.node_limit - spent,
                              memory)
    except LimitReached:
        return _stopped(watch, searcher, "layers")
    except TooBig as exc:
        if engine == "layers":
            return Result(Status.MEMOUT, stats=_stats(watch, searcher, "layers"),
                          message=f"{exc}; raise hand:memory=MB or use hand:engine=memo")
        return _memo_answer(watch, searcher, limits) or _stopped(watch, searcher, "memo")
    stats = watch.stats(nodes=spent + layers.positions, engine="layers", memo_nodes=spent,
                        captures=layers.captures)
    return answer(layers.moves, Tally(layers.count, complete=True), limits, stats)


def _memo_answer(watch: Stopwatch, searcher: Searcher, limits: Limits) -> Result | None:
    """The memo search's answer, or None when it stopped at its node limit or the deadline."""
    try:
        total = searcher.count()
    except LimitReached:
        return None
    moves = searcher.line() if total else None
    return answer(moves, Tally.of_search(total, searcher.cap), limits,
                  _stats(watch, searcher, "memo"))


def _stopped(watch: Stopwatch, searcher: Searcher, engine: str) -> Result:
    return Result(Status.TIMEOUT, stats=_stats(watch, searcher, engine),
                  message=f"hand ({engine}) stopped: time or node limit")


def _stats(watch: Stopwatch, searcher: Searcher, engine: str) -> Stats:
    return watch.stats(nodes=searcher.nodes, engine=engine, memo=len(searcher.memo),
                       memo_hits=searcher.hits, pruned=searcher.pruned)
