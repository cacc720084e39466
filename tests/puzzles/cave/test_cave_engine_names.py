"""Cave's hand solver speaks the engine's public Boolean names (issue 24): its cell masks
are the engine's masks, never numbers of its own, and values and masks are not mixed."""

from __future__ import annotations

import ast
import inspect

from twinsolve.puzzles.cave import hand
from twinsolve.puzzles.cave import rules as cave
from twinsolve.search import propagate
from twinsolve.search.propagate import FALSE, IS_FALSE, IS_TRUE, TRUE, UNDECIDED, value_of


def test_the_cell_masks_are_the_engines():
    assert (hand.INSIDE, hand.OUTSIDE, hand.UNDECIDED) == (IS_TRUE, IS_FALSE, UNDECIDED)
    assert hand.inside_first(None, 0) == (TRUE, FALSE)


def test_no_mask_or_value_is_spelled_as_a_number_at_module_level():
    tree = ast.parse(inspect.getsource(hand))
    numbers = [ast.unparse(node) for node in tree.body
               if isinstance(node, ast.Assign | ast.AnnAssign)
               and any(isinstance(leaf, ast.Constant) and type(leaf.value) is int
                       for leaf in ast.walk(node.value))]
    assert numbers == []
    imported = {alias.name for node in tree.body if isinstance(node, ast.ImportFrom)
                and node.module == "search.propagate" for alias in node.names}
    assert {"IS_TRUE", "IS_FALSE", "UNDECIDED", "TRUE", "FALSE"} <= imported


def test_masks_read_back_as_the_values_of_the_solution():
    model = hand.build(cave.parse("cave 1 5\n1 - - - -\n"), probe=False)
    assert model.prop.propagate()
    dom = model.store.dom
    assert dom == [hand.INSIDE] + [hand.OUTSIDE] * 4
    values = [value_of(mask) for mask in dom]
    assert values == [TRUE] + [FALSE] * 4 == list(model.store.solution())
    assert model.solution(values) == {"inside": ["10000"]}
    assert propagate.value_of(hand.UNDECIDED) is None
