"""The propagation engine's public names (issue 24): Boolean values and masks, reading a
mask back, the poller a search polls, and no caller reading the engine's private state."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

import twinsolve
from twinsolve.core.limits import LimitHit
from twinsolve.search import propagate
from twinsolve.search.propagate import (
    FALSE,
    IS_FALSE,
    IS_TRUE,
    TRUE,
    UNDECIDED,
    Propagator,
    Store,
    mask_of,
    search,
    value_of,
)

PACKAGE = Path(twinsolve.__file__).parent


def test_boolean_values_and_masks_are_what_the_store_holds():
    store = Store.booleans(3)
    assert store.dom == [UNDECIDED] * 3 and store.assignment() == (None, None, None)
    store.assign(0, TRUE)
    store.assign(1, FALSE)
    assert store.dom == [IS_TRUE, IS_FALSE, UNDECIDED]
    assert store.assignment() == (TRUE, FALSE, None)
    assert [value_of(m) for m in store.dom] == [TRUE, FALSE, None]
    # A decided mask ^ UNDECIDED is the other decided mask (the module docstring's rule).
    assert IS_TRUE ^ UNDECIDED == IS_FALSE and IS_FALSE ^ UNDECIDED == IS_TRUE
    assert store.restrict(2, IS_TRUE) and store.value(2) == TRUE


@given(st.sets(st.integers(0, 40)))
def test_mask_of_and_value_of_agree_with_the_store(values):
    mask = mask_of(values)
    assert Store([values]).dom == [mask]
    assert value_of(mask) == (next(iter(values)) if len(values) == 1 else None)


class _Gone:
    def expired(self) -> bool:
        return True


class _Never:
    def expired(self) -> bool:
        return False


def test_the_poller_reads_the_propagators_clock_and_node_limit():
    assert Propagator(Store.booleans(1), deadline=_Gone()).poller()(0) is LimitHit.DEADLINE
    poller = Propagator(Store.booleans(1), deadline=_Never()).poller(node_limit=5)
    assert poller(4) is None and poller(5) is LimitHit.NODES


def test_search_polls_through_the_public_poller():
    asked = []

    class Watched(Propagator):
        def poller(self, node_limit=None):
            asked.append(node_limit)
            return super().poller(node_limit)

    found = search(Watched(Store.booleans(6)), max_solutions=None, node_limit=7)
    assert 7 in asked
    assert found.nodes == 7 and found.limit_hit is LimitHit.NODES


def _private_reads(path: Path) -> list[str]:
    """`obj._name` reads of anything but `self` / `cls` (dunders aside), as 'file:line: code'."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__") \
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            out.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {ast.unparse(node)}")
    return out


def test_no_private_state_of_the_engine_is_read_by_it_or_by_its_callers():
    users = [path for path in PACKAGE.rglob("*.py")
             if "search.propagate import" in path.read_text(encoding="utf-8")]
    assert any(path.parts[-3:] == ("puzzles", "cave", "hand.py") for path in users)
    offending = [line for path in [Path(propagate.__file__), *users]
                 for line in _private_reads(path)]
    assert offending == []


# The same change made again after an undo is another change (an equal trail entry).
@example([("open", 0, 0), ("narrow", 0, 1), ("mark", 0, 0), ("back", 0, 0),
          ("narrow", 0, 1), ("ask", 0, 0)])
@given(st.lists(st.tuples(st.sampled_from(["narrow", "open", "back", "mark", "ask"]),
                          st.integers(0, 1), st.sampled_from([1, 3, 6])), max_size=60))
def test_since_gives_the_changes_after_the_last_run_still_on_the_line(steps):
    """`Since` against a plain model: each trail entry gets a serial number, a run's mark
    keeps the serials of the trail before it, and a mark stands while the trail still
    starts with them; the changes asked for are the trail's entries after the last mark
    that stands (None when none does), in the order they were made."""
    store = Store.uniform(4, range(3))
    since = propagate.Since()
    serials: list[int] = []  # one per trail entry, as the model numbers them
    made = 0
    marks: list[list[int]] = []  # the model's marks: the serials before each
    opened: list[int] = []  # the store marks to go back to

    def expected():
        standing = [m for m in marks if serials[:len(m)] == m]
        return None if not standing else store.trail[len(standing[-1]):]

    for kind, var, mask in steps:
        if kind == "narrow" and store.dom[var] & mask and store.dom[var] & ~mask:
            store.restrict(var, mask)
            serials.append(made)
            made += 1
        elif kind == "open":
            opened.append(store.mark())
        elif kind == "back" and opened:
            store.undo(opened.pop())
            del serials[len(store.trail):]
        elif kind == "mark":
            assert since.changes(store) == expected()
            since.mark(store)
            marks.append(list(serials))
        elif kind == "ask":
            assert since.stands(store) is (expected() is not None)
            assert since.changes(store) == expected()


def test_since_forgets_its_marks_when_asked_of_another_store():
    """Marks are positions on one store's trail: asked of another store, `Since` has no
    mark that stands (the other store's changes are not news of the first)."""
    first, second = Store.booleans(2), Store.booleans(2)
    since = propagate.Since()
    since.changes(first)
    since.mark(first, "first")
    first.assign(0, TRUE)
    assert since.changes(first) == [(0, UNDECIDED)] and since.note == "first"
    assert since.changes(second) is None and since.note is None
    assert since.changes(first) is None  # forgotten


@given(st.integers(0, 300).flatmap(
    lambda size: st.tuples(st.just(size), st.integers(0, (1 << size) - 1))))
def test_flags_of_reads_a_mask_place_by_place(case):
    size, mask = case
    assert list(propagate.flags_of(mask, size)) == [mask >> i & 1 for i in range(size)]
