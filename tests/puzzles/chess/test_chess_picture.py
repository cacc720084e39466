"""Solitaire Chess pictures: every shipped board draws, and the SVG shows the pieces and the win.

The SVG is read back as XML: a piece is a `<text>` holding a chess glyph, a
board its dark squares (`<rect>`s in the dark colour, as many per board as
the board has), a capture an arrow (a shaft and a head in the arrow's
colour) and, in the strip of boards (`win=boards`), its two highlighted
squares, a caption a `<text>` "k. Nxb5"; on the one board of the default
`win=arrows`, each arrow is numbered in a disc. So a picture that drops or
renames a piece, skips a capture or highlights the wrong square fails here.
Every shipped instance is drawn in SVG (the puzzle and its answer, and again
from the file read anew: the same bytes); one also in PNG and PDF
(`picture_checks.check_formats`; every one under `slow`), and the canvas
font is checked to hold every glyph drawn.
"""

from __future__ import annotations

import re
from collections import Counter

import picture_checks as checks
import pytest
from conftest import sampled

from twinsolve.core.drawing import HEAD, TAIL
from twinsolve.core.run import load_file
from twinsolve.graphics import canvas
from twinsolve.puzzles.chess import picture
from twinsolve.puzzles.chess.rules import Cell, Instance, parse, read_move, verify

FOLDER = checks.INSTANCES / "chess"
FILES = checks.shipped("chess")
CAPTION = re.compile(r"(\d+)\. ([KQRBN]?)([a-h]?[1-8]?)x([a-h][1-8])")
GLYPH_OF = {glyph: cell for cell, glyph in picture.GLYPHS.items()}


def answer(path):
    """The hand back-end's verified win (a search: SOLVED, or UNSAT when there is none)."""
    return checks.hand_answer(path, optimising=False)


def glyphs(text: str) -> list[str]:
    return [e.text for e in checks.elements(text, "text") if e.text in GLYPH_OF]


def boards(text: str, instance: Instance) -> float:
    """How many boards: the dark squares drawn over the dark squares one board has."""
    dark = sum((c + instance.rows - r) % 2 == 1 for r, c in instance.squares())
    return len(checks.elements(text, "rect", fill=picture.DARK)) / dark


def captions(text: str) -> list[re.Match]:
    return checks.matches(text, CAPTION)


def numbers(text: str) -> list[int]:
    """The numbers in the arrows' discs, in drawing order."""
    return [int(e.text) for e in checks.elements(text, "text", fill="#ffffff") if e.text.isdigit()]


# ---------------------------------------------------------------- every shipped instance

def test_the_shipped_instances_are_found():
    assert len(FILES) >= 20 and any("graded" in p.parts for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=checks.file_id)
def test_every_shipped_instance_draws_its_pieces_and_a_board_per_capture_in_the_same_bytes(path):
    instance, solution = load_file(path), answer(path)
    _, text = checks.drawn(picture.draw, instance)
    start = Counter(cell for row in instance.board for cell in row if cell is not Cell.EMPTY)
    assert boards(text, instance) == 1
    assert Counter(GLYPH_OF[g] for g in glyphs(text)) == start
    if solution is not None:
        checks.check_same_svg(picture.draw, instance, load_file(path), solution)
        moves = len(solution["moves"])
        shown = [0, *checks.shown_steps(moves)]
        _, text = checks.drawn(picture.draw, instance, solution)  # the win on one board
        assert boards(text, instance) == 1 and len(glyphs(text)) == instance.pieces
        assert [int(m.group(1)) for m in captions(text)] == shown[1:]
        assert numbers(text) == list(range(1, moves + 1))
        _, text = checks.drawn(lambda *a: picture.draw(*a, win="boards"), instance, solution)
        assert boards(text, instance) == len(shown)
        assert len(glyphs(text)) == sum(instance.pieces - k for k in shown)
        assert [int(m.group(1)) for m in captions(text)] == shown[1:]


@pytest.mark.parametrize("path", sampled(FILES), ids=checks.file_id)
def test_every_shipped_instance_draws_in_png_and_pdf_at_the_drawing_size(path):
    checks.check_both_formats(picture.draw, load_file(path), answer(path), dpi=40)


def test_the_canvas_font_has_every_piece_glyph():
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    font = FT2Font(font_manager.findfont(font_manager.FontProperties(family=canvas.FONT),
                                         fallback_to_default=False))
    assert font.family_name == canvas.FONT
    assert all(font.get_char_index(ord(glyph)) for glyph in picture.GLYPHS.values())


# ---------------------------------------------------------------- what the picture says

@pytest.mark.parametrize("win", picture.STYLES["win"])
def test_each_capture_is_captioned_and_its_squares_highlighted(win):
    path = FOLDER / "unique-8x8-12.txt"
    instance, solution = load_file(path), answer(path)
    text = canvas.svg(picture.draw(instance, solution, win=win))
    found = captions(text)
    assert len(found) == len(solution["moves"])
    for caption, move in zip(found, solution["moves"], strict=True):
        mover, origin, _, target = read_move(instance.rows, instance.cols, move)
        assert caption.group(4) == move[-2:]  # the target square
        assert caption.group(2) == ("" if mover is Cell.PAWN else mover.value)
        if caption.group(3):  # a hint names the origin's file, rank or both
            assert caption.group(3) in move[1:3]
    highlights = 0 if win == "arrows" else len(found)  # the strip shows each capture's squares
    for colour in (picture.FROM, picture.TO):
        assert sum(e.get("fill") == colour for e in checks.elements(text, "rect")) == highlights
    if win == "arrows":  # the survivor's square is framed, the arrows numbered
        framed = [e for e in checks.elements(text, "rect") if e.get("stroke") == picture.TO]
        assert len(framed) == 1 and numbers(text) == list(range(1, len(found) + 1))
    heads = [e for e in checks.elements(text, "polygon") if e.get("fill") == picture.ARROW]
    shafts = [e for e in checks.elements(text, "line") if e.get("stroke") == picture.ARROW]
    assert len(heads) == len(shafts) == len(found)


def test_the_arrow_runs_from_the_movers_square_toward_the_target():
    instance = parse("chess 3 3\nN..\n...\n.B.\n")
    text = canvas.svg(picture.draw(instance, {"moves": ["Na3xBb1"]}))
    (board,) = [e for e in checks.elements(text, "rect") if e.get("fill") == picture.LIGHT]
    x, y = float(board.get("x")), float(board.get("y"))
    side = float(board.get("width")) / 3

    def square(px: float, py: float) -> tuple[int, int]:
        return int((py - y) // side), int((px - x) // side)

    (shaft,) = [e for e in checks.elements(text, "line") if e.get("stroke") == picture.ARROW]
    (head,) = [e for e in checks.elements(text, "polygon") if e.get("fill") == picture.ARROW]
    tip = tuple(map(float, head.get("points").split()[0].split(",")))
    assert square(float(shaft.get("x1")), float(shaft.get("y1"))) == (0, 0)  # a3
    assert square(*tip) == (2, 1)  # b1


@pytest.mark.parametrize("rows, cols", [(1, 2), (2, 1), (3, 3), (5, 4), (8, 8)])
def test_a1_is_dark_and_its_neighbours_light(rows, cols):
    instance = parse(f"chess {rows} {cols}\n" + "N" + "." * (cols - 1) + "\n"
                     + ("." * cols + "\n") * (rows - 1))
    text = canvas.svg(picture.draw(instance))
    (board,) = [e for e in checks.elements(text, "rect") if e.get("fill") == picture.LIGHT]
    x, y = float(board.get("x")), float(board.get("y"))
    side = float(board.get("width")) / cols
    dark = {(round((float(e.get("x")) - x) / side), round((float(e.get("y")) - y) / side))
            for e in checks.elements(text, "rect") if e.get("fill") == picture.DARK}
    a1 = (0, rows - 1)  # (column, row from the top)
    assert a1 in dark and (1, rows - 1) not in dark and (0, rows - 2) not in dark
    assert len(dark) == sum((c + rows - r) % 2 == 1 for r, c in instance.squares())


@pytest.mark.parametrize("board, move, expected", [
    ("R.N\n..R\n", ((0, 0), (0, 2)), "Raxc2"),           # the other rook: another file
    ("N..\n..B\nN..\n", ((0, 0), (1, 2)), "N3xc2"),      # the other knight: the same file
    (".N.N.\n.....\n..B..\n.....\n.N...\n", ((0, 1), (2, 2)), "Nb5xc3"),  # both alike
    ("N.N\n...\n.N.\n", ((0, 0), (2, 1)), "Naxb1"),
    ("RNRB\n", ((0, 2), (0, 3)), "Rxd1"),                 # the other rook is blocked
    (".B\nP.\n", ((1, 0), (0, 1)), "axb2"),               # a pawn by its file
])
def test_short_notation_adds_a_file_or_rank_only_when_another_piece_could_take(board, move,
                                                                               expected):
    rows = board.count("\n")
    instance = parse(f"chess {rows} {board.index(chr(10))}\n{board}")
    assert picture.short_notation(rows, picture.instance_grid(instance), *move) == expected


def test_a_long_win_shows_its_first_and_last_captures_around_a_gap():
    rooks = parse("chess 8 8\n" + "RRRRRRRR\n" * 8)
    snake = [(r, c if r % 2 == 0 else 7 - c) for r in range(8) for c in range(8)]
    moves = [f"R{'abcdefgh'[a[1]]}{8 - a[0]}xR{'abcdefgh'[b[1]]}{8 - b[0]}"
             for a, b in zip(snake, snake[1:], strict=False)]
    solution = {"moves": moves}
    assert verify(rooks, solution) == [] and len(moves) == 63
    shown = [0, *checks.shown_steps(63)]
    gap = f"… {63 - HEAD - TAIL} more moves …"
    for win in picture.STYLES["win"]:
        drawing = picture.draw(rooks, solution, win=win)
        text = canvas.svg(drawing)
        assert [int(m.group(1)) for m in captions(text)] == shown[1:]
        assert [e.text for e in checks.elements(text, "text")].count(gap) == 1
        assert checks.within_page(drawing)
        if win == "boards":
            assert boards(text, rooks) == len(shown)
            assert len(glyphs(text)) == sum(64 - k for k in shown)
        else:  # every capture drawn as an arrow on the one board, the list cut short
            assert boards(text, rooks) == 1 and numbers(text) == list(range(1, 64))


def test_a_move_that_cannot_be_read_is_refused():
    instance = parse("chess 2 2\nNN\n..\n")
    with pytest.raises(ValueError, match="move 1"):
        picture.draw(instance, {"moves": ["Na9xNb2"]})


def test_the_board_is_as_large_as_the_room_allows_and_says_its_square():
    instance = parse("chess 6 6\nN.....\n......\n..B...\n......\n......\n.....R\n")
    page = picture.draw(instance)
    assert page.board == canvas.Board(6, 6, picture.BIG_SQUARE)
    narrow = picture.draw(instance, width=70, height=90)
    assert narrow.board.cell < picture.BIG_SQUARE
    assert narrow.width <= 70 + 1e-9 and narrow.height <= 90 + 1e-9
    assert picture.draw(instance, cell=5.0).board.cell == 5.0
    with pytest.raises(ValueError, match="win must be one of arrows, boards"):
        picture.draw(instance, {"moves": []}, win="film")
