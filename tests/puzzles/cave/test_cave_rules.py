"""Cave rules and importers: corpus solutions verify, brute agrees with an oracle, bad input.

The corpus gives 140 janko.at puzzles with their unique solutions and a few
puzz.link URLs with solutions: real answers `verify` must accept, and since
each solution is unique, every single-cell change of it must be rejected.
`brute` (bitboards) is checked against a second, plain enumeration that
calls `verify` (breadth-first search) on every shading.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import string

import pytest
from cave_corpus import puzzlink_cases
from conftest import sampled
from hypothesis import given, settings
from hypothesis import strategies as st

from twinsolve.core.errors import InstanceError, UsageError
from twinsolve.core.geometry import DELTAS
from twinsolve.core.instance_file import decode
from twinsolve.core.limits import Limits
from twinsolve.core.result import Status
from twinsolve.puzzles.cave import puzzlekit as puzzlekit_json
from twinsolve.puzzles.cave import puzzlink
from twinsolve.puzzles.cave import rules as cave

# ---------------------------------------------------------------- corpus helpers


def janko_pairs(corpus):
    return puzzlekit_json.read_dataset(corpus("cave", "janko-dev.json"))


def known_solution(instance):
    return json.loads(dict(instance.meta)["expect-solution"])


def flipped(solution, r, c):
    rows = list(solution["inside"])
    rows[r] = rows[r][:c] + ("0" if rows[r][c] == "1" else "1") + rows[r][c + 1:]
    return {"inside": rows}


# ---------------------------------------------------------------- janko-dev.json


def test_every_janko_entry_parses_with_its_metadata(corpus):
    raw = json.loads(corpus("cave", "janko-dev.json").read_text())["data"]
    pairs = janko_pairs(corpus)
    assert [key for key, _ in pairs] == list(raw)
    assert len(pairs) == 140
    for key, instance in pairs:
        meta = dict(instance.meta)
        assert meta["source"] == raw[key]["source"]
        assert meta["expect-unique"] == "true"
        rows, cols = map(int, raw[key]["problem"].split("\n")[0].split())
        assert (instance.rows, instance.cols) == (rows, cols)
        # The clue grid is the problem text, token for token.
        tokens = [line.split() for line in raw[key]["problem"].split("\n")[1:]]
        assert [[cell.token for cell in row] for row in instance.clues] == tokens


@pytest.mark.parametrize("step", sampled([10, 1]), ids=["every-10th", "all"])
def test_every_janko_solution_verifies_and_every_one_cell_change_fails(corpus, step):
    for key, instance in janko_pairs(corpus)[::step]:
        solution = known_solution(instance)
        assert cave.verify(instance, solution) == [], key
        assert cave.objective(instance, solution) is None
        # The published solution is unique, so no other shading may pass.
        for r in range(instance.rows):
            for c in range(instance.cols):
                assert cave.verify(instance, flipped(solution, r, c)), (key, r, c)


def test_janko_instances_round_trip_through_files(corpus, tmp_path):
    pairs = janko_pairs(corpus)
    paths = puzzlekit_json.write_instances(pairs, tmp_path / "out")
    assert [p.name for p in paths] == [f"{key}.txt" for key, _ in pairs]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(p.name for p in paths)
    for path, (_, instance) in zip(paths, pairs, strict=True):
        assert cave.parse(decode(path.read_bytes(), str(path)), str(path)) == instance
    before = [p.read_bytes() for p in paths]
    again = puzzlekit_json.write_instances(pairs, tmp_path / "out")
    assert again == paths and [p.read_bytes() for p in again] == before


# ---------------------------------------------------------------- puzz.link


def test_every_puzzlink_url_round_trips_and_its_solution_verifies(corpus):
    cases = puzzlink_cases(corpus)
    assert len(cases) >= 3
    for url, solution in cases:
        instance = puzzlink.decode_url(url)
        assert puzzlink.is_puzzlink_url(url)
        assert puzzlink.encode_url(instance) == url
        assert dict(instance.meta)["source"] == url
        assert cave.verify(instance, solution) == [], url
        assert cave.verify(instance, flipped(solution, 0, 0))


def test_puzzlink_and_puzzlekit_agree_on_the_same_janko_puzzle(corpus):
    janko = dict(janko_pairs(corpus))["01_10x10"]
    cases = [url for url, _ in puzzlink_cases(corpus) if "/10/10/" in url]
    assert cases, "the corpus lists janko 01_10x10 as a URL"
    assert puzzlink.decode_url(cases[0]).clues == janko.clues


def test_decode_reads_every_encoding_form():
    # 3 columns x 4 rows: '.', a hex digit, '-' (2 hex digits), skips g..z.
    instance = puzzlink.decode_url("http://pzv.jp/p.html?bag/6/5/.ha-0ah")
    tokens = [[cell.token for cell in row] for row in instance.clues]
    assert tokens == [["?", "-", "-", "10", "10", "-"]] + [["-"] * 6] * 4
    assert puzzlink.encode_url(instance) == "https://puzz.link/p?cave/6/5/.haazk"
    wide = cave.build_instance(150, 120, [[cave.EMPTY] * 120 for _ in range(150)])
    clues = [list(row) for row in wide.clues]
    clues[0][0], clues[149][119] = cave.Cell.clue(260), cave.Cell.clue(20)
    wide = cave.build_instance(150, 120, clues)
    url = puzzlink.encode_url(wide)
    assert url.startswith("https://puzz.link/p?cave/120/150/+104z") and url.endswith("-14")
    assert puzzlink.decode_url(url).clues == wide.clues


def test_short_body_leaves_the_remaining_cells_empty():
    instance = puzzlink.decode_url("https://puzz.link/p?cave/3/3/g2")
    assert [c.token for row in instance.clues for c in row] == ["-", "2"] + ["-"] * 7
    assert puzzlink.decode_url("https://puzz.link/p?cave/2/1").clues == ((cave.EMPTY,) * 2,)


BAD_URLS = {
    "bad-type": ("https://puzz.link/p?nurikabe/3/3/i", 21, "not Cave"),
    "not-a-url": ("https://example.com/p?cave/3/3/i", 1, "not a puzz.link URL"),
    "missing-sizes": ("https://puzz.link/p?cave/3", 27, "missing size"),
    "missing-rows": ("https://puzz.link/p?cave/3/", 28, "ROWS must be"),
    "zero-size": ("https://puzz.link/p?cave/0/3/", 26, "COLS must be"),
    "big-size": ("https://puzz.link/p?cave/3/201/", 28, "ROWS must be"),
    "truncated-minus": ("https://puzz.link/p?cave/6/6/-1", 30, "escape '-' needs 2"),
    "truncated-plus": ("https://puzz.link/p?cave/6/6/+12", 30, "escape '+' needs 3"),
    "non-hex-escape": ("https://puzz.link/p?cave/6/6/-g1", 30, "escape '-' needs 2"),
    "trailing-garbage": ("https://puzz.link/p?cave/2/2/jz", 31, "too many cells"),
    "extra-segment": ("https://puzz.link/p?cave/2/2/j/x", 31, "too many cells"),
    "skip-overshoots": ("https://puzz.link/p?cave/2/2/k", 30, "too many cells"),
    "clue-after-end": ("https://puzz.link/p?cave/2/2/j1", 31, "too many cells"),
    "uppercase": ("https://puzz.link/p?cave/3/3/A", 30, "unexpected character 'A'"),
    "equals-escape": ("https://puzz.link/p?cave/3/3/=001", 30, "unexpected character '='"),
    "space": ("https://puzz.link/p?cave/3/3/g 2", 31, "unexpected character ' '"),
    "clue-too-big": ("https://puzz.link/p?cave/2/2/g4", 31, "ROWS+COLS-1 = 3"),
    "clue-zero": ("https://puzz.link/p?cave/2/2/0", 30, "at least 1"),
    "big-escape": ("https://puzz.link/p?cave/3/3/-ff", 30, "ROWS+COLS-1 = 5"),
    "empty": ("", None, "not a puzz.link URL"),
}


@pytest.mark.parametrize("name", sorted(BAD_URLS))
def test_bad_url_is_an_instance_error_at_its_column(name):
    url, column, words = BAD_URLS[name]
    with pytest.raises(InstanceError) as caught:
        puzzlink.decode_url(url, "urls.txt", line=7)
    error = caught.value
    assert (error.source, error.line, error.column) == ("urls.txt", 7, column)
    assert words in error.message


def test_url_column_counts_leading_spaces():
    with pytest.raises(InstanceError) as caught:
        puzzlink.decode_url("  https://puzz.link/p?cave/2/x/")
    assert (caught.value.line, caught.value.column) == (1, 30)


@pytest.mark.parametrize("text,expected", [
    ("https://puzz.link/p?cave/6/6/k3h6j2l7g3g2h3n", True),
    ("http://pzv.jp/p.html?bag/2/2/j", True),
    ("https://pzprxs.vercel.app/p?nurikabe/2/2/j", True),
    ("cave 6 6", False), ("https://puzz.links/p?cave/1/1/g", False), ("", False),
])
def test_is_puzzlink_url(text, expected):
    assert puzzlink.is_puzzlink_url(text) is expected


# ---------------------------------------------------------------- brute force


def oracle(instance):
    """Every shading with the clue cells inside, in brute's order, kept if `verify` passes.

    Returns the masks (bit r*cols+c = inside) of the solutions.
    """
    clues = {(r, c) for r, c, _ in cave.clue_cells(instance)}
    free = [(r, c) for r in range(instance.rows) for c in range(instance.cols)
            if (r, c) not in clues]
    found = []
    for values in itertools.product((False, True), repeat=len(free)):
        inside = dict(zip(free, values, strict=True)) | dict.fromkeys(clues, True)
        grid = [[inside[r, c] for c in range(instance.cols)] for r in range(instance.rows)]
        if cave.verify(instance, cave.solution_from_inside(grid)) == []:
            found.append(sum(1 << (r * instance.cols + c) for (r, c), v in inside.items() if v))
    return sorted(found)


def mask_of(instance, solution):
    return sum(1 << (r * instance.cols + c) for r, row in enumerate(solution["inside"])
               for c, ch in enumerate(row) if ch == "1")


HAND_MADE = {
    "3x3": ("cave 3 3\n- - -\n3 2 -\n2 - -\n", ["000", "110", "100"]),
    "4x4-column": ("cave 4 4\n- - - -\n- - - 3\n- - - 3\n- - - 3\n",
                   ["0000", "0001", "0001", "0001"]),
    "4x5": ("cave 4 5\n- - - - 4\n- - - - -\n- - 4 ? 6\n- - 5 5 -\n",
            ["00001", "00001", "00111", "01111"]),
}


# The oracle tries 2^13 shadings on the larger two (seconds); the property test below
# compares brute with it on every default run.
@pytest.mark.parametrize("name", sampled(sorted(HAND_MADE), keep=lambda name: name == "3x3"))
def test_brute_finds_the_unique_solution_of_hand_made_puzzles(name):
    text, expected = HAND_MADE[name]
    instance = cave.parse(text)
    result = cave.brute(instance, Limits(unique=True, count=True))
    assert result.status is Status.SOLVED
    assert result.solution == {"inside": expected}
    assert cave.verify(instance, result.solution) == []
    assert (result.unique, result.count, result.objective) == (True, 1, None)
    assert result.stats.nodes == 2 ** instance.cells
    assert oracle(instance) == [mask_of(instance, result.solution)]


def test_brute_counts_many_solutions_and_stops_early_when_not_counting():
    instance = cave.parse("cave 3 3\n- ? -\n- - -\n- - -\n")
    counted = cave.brute(instance, Limits(count=True, unique=True))
    masks = oracle(instance)
    assert counted.count == len(masks) > 1 and counted.unique is False
    assert mask_of(instance, counted.solution) == masks[0]
    first = cave.brute(instance, Limits())
    assert (first.solution, first.unique, first.count) == (counted.solution, None, None)
    assert first.stats.nodes == masks[0] + 1  # masks 0..first examined
    unique = cave.brute(instance, Limits(unique=True))
    assert unique.unique is False and unique.stats.nodes == masks[1] + 1


@pytest.mark.parametrize("rows,cols,expected", [(1, 1, 1), (2, 2, 13), (3, 3, None)])
def test_brute_without_clues_counts_every_cave(rows, cols, expected):
    # 2x2: the 15 non-empty shadings but the two diagonal pairs. The empty shading
    # is never a cave, even with no clue to place.
    instance = cave.parse(f"cave {rows} {cols}\n" + ("- " * cols + "\n") * rows)
    result = cave.brute(instance, Limits(count=True))
    assert result.count == len(oracle(instance)) == (expected or result.count)
    assert mask_of(instance, result.solution) == 1


def test_brute_unsat_unsupported_and_node_limit():
    # Both ends are 1s, so the middle is outside and the cave falls apart.
    unsat = cave.brute(cave.parse("cave 1 3\n1 - 1\n"), Limits(unique=True, count=True))
    assert (unsat.status, unsat.solution, unsat.count, unsat.unique) == (Status.UNSAT, None, 0,
                                                                         False)
    big = cave.parse("cave 3 7\n" + "- - - - - - -\n" * 3)
    unsupported = cave.brute(big, Limits())
    assert unsupported.status is Status.UNSUPPORTED and "21" in unsupported.message
    stopped = cave.brute(cave.parse("cave 2 2\n3 -\n- -\n"), Limits(node_limit=3))
    assert stopped.status is Status.TIMEOUT and stopped.stats.nodes == 3


@st.composite
def tiny_puzzles(draw):
    """Grids up to 4x4 with at most 12 cells free of clues (the oracle tries 2^free).

    Half are random clues (often unsolvable); half are planted: a random
    connected cave with its holes filled, clued with its own counts.
    """
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    n = rows * cols
    rng = random.Random(draw(st.integers(0, 2**32)))
    if draw(st.booleans()):
        cells = rng.sample(range(n), rng.randint(max(1, n - 12), n))
        grid = [[cave.EMPTY] * cols for _ in range(rows)]
        for index in cells:
            number = rng.randint(0, rows + cols - 1)
            grid[index // cols][index % cols] = cave.Cell.clue(number) if number else cave.UNKNOWN
        return cave.Instance(rows, cols, tuple(map(tuple, grid))), None
    inside = planted_cave(rng, rows, cols, rng.randint(max(1, n - 12), n))
    cells = [(r, c) for r in range(rows) for c in range(cols) if inside[r][c]]
    clued = rng.sample(cells, rng.randint(max(1, n - 12), len(cells)))
    grid = [[cave.EMPTY] * cols for _ in range(rows)]
    for r, c in clued:
        number = cave.count_visible(inside, r, c)
        grid[r][c] = cave.UNKNOWN if rng.random() < 0.25 else cave.Cell.clue(number)
    return cave.Instance(rows, cols, tuple(map(tuple, grid))), inside


def planted_cave(rng, rows, cols, size):
    """A connected set of at least `size` cells grown at random, then its holes filled."""
    start = (rng.randrange(rows), rng.randrange(cols))
    inside = {start}
    while len(inside) < size:
        frontier = sorted({(r + dr, c + dc) for r, c in inside for dr, dc in DELTAS
                           if 0 <= r + dr < rows and 0 <= c + dc < cols} - inside)
        inside.add(rng.choice(frontier))
    outside = {(r, c) for r in range(rows) for c in range(cols)} - inside
    reached = {(r, c) for r, c in outside if r in (0, rows - 1) or c in (0, cols - 1)}
    todo = list(reached)
    while todo:
        r, c = todo.pop()
        for dr, dc in DELTAS:
            if (r + dr, c + dc) in outside - reached:
                reached.add((r + dr, c + dc))
                todo.append((r + dr, c + dc))
    inside |= outside - reached
    return [[(r, c) in inside for c in range(cols)] for r in range(rows)]


@pytest.mark.parametrize("examples", sampled([30, 150]))  # the long run under `slow`
def test_brute_agrees_with_a_plain_enumeration(examples):
    @settings(max_examples=examples)
    @given(tiny_puzzles())
    def agrees(puzzle):
        instance, planted = puzzle
        masks = oracle(instance)
        result = cave.brute(instance, Limits(unique=True, count=True))
        assert result.count == len(masks)
        assert result.unique is (len(masks) == 1)
        if planted is not None:
            assert cave.verify(instance, cave.solution_from_inside(planted)) == []
            assert masks
        if masks:
            assert result.status is Status.SOLVED
            assert mask_of(instance, result.solution) == masks[0]
            assert cave.verify(instance, result.solution) == []
        else:
            assert result.status is Status.UNSAT and result.solution is None

    agrees()


# ---------------------------------------------------------------- verify


def test_verify_names_each_broken_rule():
    instance = cave.parse("cave 3 3\n2 - -\n- - -\n- - 1\n")
    assert cave.verify(instance, {"inside": ["110", "000", "001"]}) == [
        "the inside cells are not one connected region"]
    assert cave.verify(instance, {"inside": ["111", "101", "111"]}) == [
        "clue 2 at row 0, column 0 sees 5 inside cells",
        "clue 1 at row 2, column 2 sees 5 inside cells",
        "1 outside cell(s) are enclosed by the cave (not connected to the edge)"]
    assert "clue at row 2, column 2 is outside the cave" in cave.verify(
        instance, {"inside": ["110", "000", "000"]})
    empty = cave.parse("cave 2 2\n- -\n- -\n")
    assert cave.verify(empty, {"inside": ["00", "00"]}) == ["no cell is inside the cave"]
    assert cave.verify(empty, {"inside": ["11", "11"]}) == []


@pytest.mark.parametrize("solution", [
    None, [], "0110", {}, {"inside": None}, {"inside": "01"}, {"inside": ["01"]},
    {"inside": ["01", "0"]}, {"inside": ["01", "012"]}, {"inside": ["01", "02"]},
    {"inside": [1, 1]}, {"inside": ["01", "01", "01"]}, {"inside": [["0", "1"], "01"]},
    {"presses": ["01", "01"]},
])
def test_verify_reports_malformed_solutions_without_raising(solution):
    problems = cave.verify(cave.parse("cave 2 2\n- -\n- -\n"), solution)
    assert problems and all(isinstance(p, str) for p in problems)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text("01x", max_size=4),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["inside", "x"]), inner, max_size=2),
                    max_leaves=10))
def test_verify_never_raises(solution):
    problems = cave.verify(cave.parse("cave 2 2\n? -\n- -\n"), solution)
    assert isinstance(problems, list)


def test_helpers_round_trip():
    solution = cave.solution_from_inside([[1, 0, True], (False, 1, 0)])
    assert solution == {"inside": ["101", "010"]}
    assert cave.inside_grid(solution) == ((True, False, True), (False, True, False))
    with pytest.raises(ValueError):
        cave.inside_grid({"inside": ["12"]})
    instance = cave.parse("cave 2 3\n- 4 -\n? - 2\n")
    assert cave.clue_cells(instance) == [(0, 1, 4), (1, 0, None), (1, 2, 2)]
    assert cave.clue_cells(instance)[0].number == 4


def test_render_shows_clues_and_shades_the_outside():
    instance = cave.parse("cave 3 3\n- - -\n3 2 -\n2 - -\n")
    plain = cave.render(instance).plain
    assert "Cave 3x3" in plain and "3" in plain and "2" in plain
    solved = cave.render(instance, {"inside": ["000", "110", "100"]}).plain
    assert solved.count("▒▒") == 6
    assert cave.render(instance, {"inside": ["junk"]}).plain == plain  # malformed: no shading


# ---------------------------------------------------------------- parse / format


def instances():
    def grid(shape):
        rows, cols = shape
        cell = st.sampled_from([cave.EMPTY, cave.UNKNOWN]) | st.integers(
            1, rows + cols - 1).map(cave.Cell.clue)
        return st.lists(st.lists(cell, min_size=cols, max_size=cols).map(tuple),
                        min_size=rows, max_size=rows).map(lambda g: (rows, cols, tuple(g)))

    key = st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True)
    value = st.text(string.ascii_letters + string.digits + ' :/.{}",[]-_#', max_size=30).map(
        str.strip)
    meta = st.lists(st.tuples(key, value), max_size=3).map(tuple)
    shapes = st.tuples(st.integers(1, 7), st.integers(1, 7))
    return st.builds(lambda g, m: cave.Instance(*g, meta=m), shapes.flatmap(grid), meta)


@pytest.mark.parametrize("examples", sampled([25, 100]))  # the long run under `slow`
def test_parse_format_round_trip(examples):
    @settings(max_examples=examples)
    @given(instances())
    def round_trips(instance):
        text = cave.format(instance)
        assert cave.parse(text) == instance
        body = text.splitlines()[len(instance.meta) + 1:]
        assert all(line == " ".join(line.split()) for line in body)

    round_trips()


def test_parse_accepts_loose_spacing_and_comments():
    text = "# source: hand\n# note without key\n\ncave 2 3\n  -   3 ?\t\n? - 03\n\n"
    instance = cave.parse(text)
    assert instance.meta == (("source", "hand"),)
    assert cave.format(instance) == "# source: hand\ncave 2 3\n- 3 ?\n? - 3\n"


BAD = {
    "empty": (b"", 1, None, "empty instance"),
    "wrong-header": (b"caves 2 2\n- -\n- -\n", 1, 1, "expected header 'cave ROWS COLS'"),
    "header-extra-word": (b"cave 2 2 torus\n- -\n- -\n", 1, 1, "exactly 'cave ROWS COLS'"),
    "missing-cols": (b"cave 2\n- -\n", 1, 1, "header needs ROWS and COLS"),
    "zero-size": (b"cave 0 2\n", 1, 6, "ROWS must be a whole number 1..200"),
    "huge-size": (b"cave 2 201\n- -\n", 1, 8, "COLS must be a whole number 1..200"),
    "endless-digits": (b"cave 2 " + b"9" * 5000 + b"\n", 1, 8, "COLS must be"),
    "negative": (b"cave -2 2\n", 1, 6, "ROWS must be"),
    "unicode-digit": ("cave ２ 2\n- -\n- -\n".encode(), 1, 6, "ROWS must be"),
    "ragged": (b"cave 2 3\n- - -\n- -\n", 3, None, "row has 2 tokens, expected 3"),
    "too-many-tokens": (b"cave 2 2\n- -\n- - 2\n", 3, 5, "row has 3 tokens, expected 2"),
    "blank-row": (b"cave 2 2\n- -\n\n- -\n", 3, None, "row has 0 tokens"),
    "too-few-rows": (b"cave 3 2\n- -\n- -\n", 3, None, "expected 3 rows"),
    "too-many-rows": (b"cave 1 2\n- -\n- -\n", 3, 1, "more than 1 rows"),
    "letter": (b"# source: t\ncave 2 2\n- x\n- -\n", 3, 3, "token 'x' is not"),
    "digit-letter": (b"cave 2 2\n- -\n3a -\n", 3, 1, "token '3a' is not"),
    "negative-clue": (b"cave 2 2\n- -\n- -3\n", 3, 3, "token '-3' is not"),
    "question-number": (b"cave 2 2\n?3 -\n- -\n", 2, 1, "token '?3' is not"),
    "unicode-clue": ("cave 2 2\n- ²\n- -\n".encode(), 2, 3, "token '²' is not"),
    "clue-zero": (b"cave 2 2\n- 0\n- -\n", 2, 3, "clue 0 is impossible"),
    "clue-too-big": (b"cave 2 3\n- - -\n- 5 -\n", 3, 3, "at most ROWS+COLS-1 = 4"),
    "clue-endless": (b"cave 1 2\n- " + b"7" * 5000 + b"\n", 2, 3, "5000 digits is impossible"),
    "binary": (b"cave 2 2\n\xff\xfe\n- -\n", 2, 1, "not UTF-8"),
    "control": (b"cave 1 1\n\x00\n", 2, 1, "control character"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_file_is_an_instance_error_with_its_line(name):
    data, line, column, words = BAD[name]
    with pytest.raises(InstanceError) as caught:
        cave.parse(decode(data, "bad.txt"), "bad.txt")
    error = caught.value
    assert (error.source, error.line, error.column) == ("bad.txt", line, column)
    assert words in error.message


def test_build_instance_checks_like_parse():
    with pytest.raises(InstanceError, match="row 1 column 0: clue 4 is impossible"):
        cave.build_instance(2, 2, [[cave.EMPTY] * 2, [cave.Cell.clue(4), cave.EMPTY]])
    with pytest.raises(InstanceError, match="not 2 x 2"):
        cave.build_instance(2, 2, [[cave.EMPTY] * 2])
    with pytest.raises(ValueError):
        cave.Cell(cave.CellKind.NUMBER)  # a number cell needs its number


@given(st.binary(max_size=200))
def test_parse_fuzz_bytes_returns_or_raises_instance_error(data):
    try:
        instance = cave.parse(decode(b"cave 2 3\n" + data, "fuzz.txt"), "fuzz.txt")
    except InstanceError:
        return
    assert cave.parse(cave.format(instance)) == instance


@given(st.text(alphabet="cave0123456789 -?\n#:x\t", max_size=80))
def test_parse_fuzz_text_returns_or_raises_instance_error(text):
    try:
        instance = cave.parse(text)
    except InstanceError:
        return
    assert cave.parse(cave.format(instance)) == instance


URL_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz-+./?=%AZ "


@given(st.sampled_from(["https://puzz.link/p?cave/", "https://puzz.link/p?cave/3/4/",
                        "http://pzv.jp/p.html?", ""]),
       st.text(alphabet=URL_ALPHABET, max_size=40))
def test_decode_url_fuzz_returns_or_raises_instance_error(prefix, rest):
    try:
        instance = puzzlink.decode_url(prefix + rest)
    except InstanceError:
        return
    assert puzzlink.decode_url(puzzlink.encode_url(instance)).clues == instance.clues


# ---------------------------------------------------------------- puzzlekit JSON


def entry(problem="2 2\n2 -\n- -", solution="2 2\nx x\n- -", **extra):
    return {"problem": problem, "solution": solution, "source": "https://x/1", "info": "",
            **extra}


def dataset(**entries):
    return json.dumps({"count": len(entries), "data": entries})


def test_read_dataset_from_text_keeps_the_known_solution():
    [(key, instance)] = puzzlekit_json.read_dataset(dataset(a=entry()), "d.json")
    assert key == "a"
    assert instance.meta == (("source", "https://x/1"), ("expect-unique", "true"),
                             ("expect-solution", '{"inside":["11","00"]}'))
    assert cave.parse(cave.format(instance)) == instance


@pytest.mark.parametrize("text,line,words", [
    ('{"data": {"a": ', 1, "not valid JSON"),
    ('{\n "data": {\n  "a": [1,]\n }\n}', 3, "not valid JSON"),
    ("[1, 2]", None, "expected a JSON object"),
    ('{"data": {}}', None, "no entries"),
    (dataset(k7=[]), None, "entry 'k7' must be an object"),
    (dataset(k7=entry(problem=3)), None, "entry 'k7': 'problem' must be a string"),
    (dataset(k7=entry(problem="2 2\n- x\n- -")), None, "entry 'k7', problem line 2: token 'x'"),
    (dataset(k7=entry(problem="2 2\n- -")), None, "entry 'k7', problem line 2: expected 2 rows"),
    (dataset(k7=entry(solution="2 3\nx x\n- -")), None, "entry 'k7', solution: must start"),
    (dataset(k7=entry(solution="2 2\nx y\n- -")), None, "entry 'k7', solution: line 2"),
    (dataset(k7=entry(solution="2 2\nx x")), None, "entry 'k7', solution: has 1 rows"),
    (dataset(k7=entry(solution="2 2\n- x\n- -")), None, "entry 'k7', solution: breaks the rules"),
])
def test_bad_dataset_is_an_instance_error_naming_file_and_entry(text, line, words):
    with pytest.raises(InstanceError) as caught:
        puzzlekit_json.read_dataset(text, "d.json")
    assert caught.value.source == "d.json" and caught.value.line == line
    assert words in caught.value.message


def test_read_dataset_from_a_path_names_the_file(tmp_path):
    path = tmp_path / "broken.json"
    path.write_bytes(b'{"data": \xff}')
    with pytest.raises(InstanceError) as caught:
        puzzlekit_json.read_dataset(path)
    assert caught.value.source == str(path) and "not UTF-8" in caught.value.message
    path.write_text(dataset(a=entry()))
    assert puzzlekit_json.read_dataset(str(path))[0][0] == "a"


def test_write_instances_makes_safe_distinct_names(tmp_path):
    instance = cave.parse("cave 1 1\n?\n")
    keys = ["../escape", "a b", "a_b", ".hidden", "A_B"]
    paths = puzzlekit_json.write_instances([(k, instance) for k in keys], tmp_path)
    assert [p.name for p in paths] == ["escape.txt", "a_b.txt", "a_b-2.txt", "hidden.txt",
                                       "A_B-3.txt"]
    assert all(p.parent == tmp_path for p in paths)
    assert sorted(os.listdir(tmp_path)) == sorted(p.name for p in paths)  # no temp files left


def test_write_instances_never_leaves_a_half_written_file(tmp_path, monkeypatch):
    instance = cave.parse("cave 1 1\n?\n")
    [path] = puzzlekit_json.write_instances([("p", instance)], tmp_path)
    before = path.read_bytes()

    def fail(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    changed = cave.Instance(1, 1, ((cave.EMPTY,),))
    with pytest.raises(UsageError, match="disk full"):
        puzzlekit_json.write_instances([("p", changed)], tmp_path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["p.txt"]
