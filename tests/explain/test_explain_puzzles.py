"""The explanations of Lights Out, the mirror maze, Solitaire Chess, jugs, clock and Nurikabe
(issue 28): each step's claim re-checked on its own, the hardest step at the grader's
level, and the hints (mistakes, next steps, done)."""

from __future__ import annotations

import random
import re

import pytest
from conftest import ROOT, sampled

from twinsolve.core.limits import Limits
from twinsolve.core.run import load_file, parse_text, run
from twinsolve.explain import explain, hint
from twinsolve.explain.steps import Mistake, Step, decided_items
from twinsolve.puzzles.chess.hand import prove_unique
from twinsolve.puzzles.lightsout.rules import press_effect
from twinsolve.puzzles.nurikabe import explain as nurikabe_explain
from twinsolve.puzzles.nurikabe import rules as nurikabe
from twinsolve.search.propagate import IS_FALSE, IS_TRUE


def _load(puzzle: str, name: str):
    return load_file(ROOT / "instances" / puzzle / name)


def _cell(item: str) -> tuple[int, int]:
    r, c = item[1:].split("c")
    return int(r), int(c)


@pytest.mark.parametrize("name", ["all-on-05x05.txt",
                                  "graded/lightsout-medium-5x5-modulus3-s1-01.txt",
                                  pytest.param("graded/lightsout-hard-10x10-varianttorus-s1-01.txt",
                                               marks=pytest.mark.slow)])
def test_each_chase_step_turns_its_row_off_with_the_only_presses_left(name):
    """After the presses a chase step decides, every light of the row above is off, and
    no later step presses a cell that reaches it (so the chase's claim holds)."""
    board = _load("lightsout", name)
    found = explain(board)
    grid = {_cell(item): value for item, value in decided_items(found.steps).items()}
    for step in found.steps[1:]:
        assert step.technique == "chase"
        row = _cell(step.decided[0][0])[0] - 1
        for c in range(board.cols):
            total = board.lights[row][c] + sum(
                value * press_effect(board, r, cc).count((row, c))
                for (r, cc), value in grid.items())
            assert total % board.modulus == 0


def test_the_first_row_step_says_which_kernel_combination_is_fewest():
    found = explain(_load("lightsout", "all-on-05x05.txt"))
    first = found.steps[0]
    assert first.technique == "exhaustive" and "kernel of dimension 2" in first.reason
    assert "their press counts are 15, 15, 15, 15" in first.reason
    assert sum(decided_items(found.steps).values()) == 15


def test_lightsout_hints():
    board = _load("lightsout", "all-on-03x03.txt")  # one answer: press the corners and the middle
    assert hint(board, {"presses": ["101", "010", "101"]}) is None
    assert hint(board, {"presses": ["11?", "???", "???"]}) == Mistake(
        "r0c1", "r0c1 pressed 1 times is in no fewest-press answer that keeps the cells "
                "before it in reading order")
    step = hint(board, {"presses": ["101", "???", "???"]})
    assert isinstance(step, Step) and step.decided == (("r1c0", 0), ("r1c1", 1), ("r1c2", 0))


def test_mirror_forcing_steps_flip_mirrors_of_the_answer_and_keep_the_others():
    maze = _load("mirror", "easy-08x08.txt")
    found = explain(maze)
    assert [s.technique for s in found.steps][:-1] == ["forcing"] * (len(found.steps) - 1)
    flips = {(r, c) for r, c in found.solution["flips"]}
    for step in found.steps[:-1]:
        (item, value), = step.decided
        assert value == 1 and _cell(item) in flips and "kept as '/'" in step.reason
    assert hint(maze, {"flips": [list(cell) for cell in sorted(flips)]}) is None
    kept = next(cell for cell in maze.rotatable() if cell not in flips)
    wrong = hint(maze, {"flips": [list(kept)]})
    assert isinstance(wrong, Mistake) and wrong.item == f"r{kept[0]}c{kept[1]}"


def test_chess_counts_the_dead_ends_the_graders_proof_counts():
    board = _load("chess", "graded/chess-advanced-4x4-s1-01.txt")
    found = explain(board)
    proof = prove_unique(board)
    assert tuple(value for _, value in
                 sorted(decided_items(found.steps).items(),
                        key=lambda kv: int(kv[0].split()[1]))) == proof.moves
    assert f"{proof.dead_ends} dead ends" in found.summary[0]
    assert found.steps[found.hardest()].technique == "advanced"
    assert explain(board, "intermediate").complete is False
    first = found.solution["moves"][0]
    assert hint(board, {"moves": [first]}).decided[0][0] == "move 2"
    dead = found.steps[0].reason.split("; ")[1].split(" ")[0].rstrip(",")
    assert hint(board, {"moves": [dead]}) == Mistake(
        "move 1", f"move 1, {dead}, is a dead end: from there no sequence of captures "
                  f"leaves one piece")


def test_jugs_and_clock_prove_the_plan_shortest_by_the_layers():
    jugs = explain(_load("jugs", "die-hard-holds-4.txt"))
    assert "no plan has fewer than 6 moves" in jugs.summary[1]
    assert "only plan" in jugs.summary[2]
    clock = explain(_load("clock", "design-12-hours.txt"))
    assert "gcd(12, steps) = 1" in clock.summary[0] and "2 plans of 2 moves" in clock.summary[2]


def test_plan_hints_catch_a_move_off_the_shortest_plans():
    instance = _load("jugs", "die-hard-holds-4.txt")
    assert hint(instance, {"moves": ["fill 1", "pour 1 0", "empty 0", "pour 1 0", "fill 1",
                                     "pour 1 0"]}) is None
    step = hint(instance, {"moves": ["fill 1"]})
    assert step.decided == (("move 2", "pour 1 0"),)
    wrong = hint(instance, {"moves": ["fill 1", "empty 1"]})
    assert wrong.item == "move 2" and "cannot end in 6 moves" in wrong.reason
    illegal = hint(instance, {"moves": ["pour 0 1"]})
    assert illegal.item == "move 1" and "not a move the rules allow" in illegal.reason


def test_no_plan_says_the_number_theory():
    from twinsolve.explain.steps import NoSolution

    with pytest.raises(NoSolution, match="multiple of gcd.M, steps. = 2"):
        explain(_load("clock", "million-unreachable.txt"))


def test_nurikabe_cites_the_sea_edge_budget_and_it_agrees_with_the_answer():
    # Four 4s in the corners of a 5x5: compact islands, so the sea's edge budget (an
    # isoperimetric count, `search.islands`) decides cells; each such step agrees with
    # the answer `sat` proves unique.
    instance = parse_text("nurikabe 5 5\n4 - - - 4\n- - - - -\n- - - - -\n- - - - -\n"
                          "4 - - - 4\n")
    answer = run(instance, "sat", Limits(unique=True))
    assert answer.unique is True
    shaded = answer.solution["shaded"]
    cited = [step for step in explain(instance).steps if "compact" in step.reason]
    assert cited and all(step.technique == "shapes" for step in cited)
    for step in cited:
        for item, value in step.decided:
            r, c = _cell(item)
            assert value == int(shaded[r][c]), (item, value)  # 1: shaded


NURIKABE_GRADED = sorted(path.name for path in (ROOT / "instances" / "nurikabe" / "graded")
                         .glob("*.txt"))
ISLAND_NAMED = re.compile(r"island of the (\d+) at r(\d+)c(\d+)")
# What the rules of the shapes technique say (`nurikabe.explain._said`), one of which a step
# of that technique names.
SHAPES_SAY = ("every way to complete", "compact", "a loop of shaded cells", "one line past")


@pytest.mark.parametrize("name", NURIKABE_GRADED)
def test_nurikabe_steps_name_the_islands_that_could_take_their_cells(name):
    """An island a step's sentence names could take one of the step's cells (the cell lies
    within its number less one steps of its clue): the rules named are those that narrowed
    the cells or their labels, not whatever else the same propagation did on the grid. And
    a step of the shapes technique names one of its rules."""
    found = explain(_load("nurikabe", f"graded/{name}"))
    named = 0
    for step in found.steps:
        cells = [_cell(item) for item, _ in step.decided]
        for number, r, c in ISLAND_NAMED.findall(step.reason):
            named += 1
            assert any(abs(int(r) - rr) + abs(int(c) - cc) < int(number)
                       for rr, cc in cells), step
        if step.technique == "shapes":
            assert any(words in step.reason for words in SHAPES_SAY), step
    assert named  # the steps do name islands


# Small Nurikabe grids with several answers (2, 4 and 12 of them).
SMALL_NURIKABE = ("nurikabe 3 4\n3 - - -\n- - - -\n- - - 2\n",
                  "nurikabe 4 4\n3 - - -\n- - - -\n- - - -\n- - - 4\n",
                  "nurikabe 3 4\n- - - -\n- 5 - -\n- - - -\n")


@pytest.mark.parametrize("text", sampled(
    SMALL_NURIKABE, keep=lambda text: not text.startswith("nurikabe 4 4")))
def test_nurikabe_completions_are_exact_with_a_trial_after_the_root(text):
    """The answer search a bifurcation step refutes with (`explain._completion`: the
    known cells settled as hand's root, then the trial cell's value) finds an answer
    exactly when one of every shading `verify` accepts keeps the known cells and the
    trial; the known cells taken from one answer, the trial either value of a cell."""
    instance = parse_text(text)
    cells = instance.rows * instance.cols
    answers = [bits for bits in range(1 << cells)
               if not nurikabe.verify(instance, {"shaded": _rows(bits, instance.cols,
                                                                  instance.rows)})]
    assert answers
    rng = random.Random(text)
    refuted = 0
    for _ in range(12):
        answer = rng.choice(answers)
        known = {v: _mask(answer >> v & 1) for v in rng.sample(range(cells), cells // 3)}
        cell = rng.choice([v for v in range(cells) if v not in known])
        for value in (0, 1):
            fits = [bits for bits in answers if bits >> cell & 1 == value
                    and all(_mask(bits >> v & 1) == m for v, m in known.items())]
            found = nurikabe_explain._completion(instance, known, (cell, _mask(value)))
            assert (found is not None) == bool(fits), (known, cell, value)
            if found is not None:
                bits = sum(shaded << v for v, shaded in enumerate(found))
                assert bits in fits
            refuted += found is None
    assert refuted  # the trials include refuted ones


def _rows(bits: int, cols: int, rows: int) -> list[str]:
    return ["".join(str(bits >> (r * cols + c) & 1) for c in range(cols)) for r in range(rows)]


def _mask(shaded: int) -> int:
    """A cell's domain mask (`search.propagate`): shaded is TRUE."""
    return IS_TRUE if shaded else IS_FALSE
