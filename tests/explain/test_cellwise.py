"""What a cell-by-cell step's sentence names (`explain.cellwise.named`): the rules that
narrowed the step's own variables, each said once, the last few; led by a rule of the
step's technique when none of those is one."""

from __future__ import annotations

from twinsolve.explain.cellwise import named


class Clue:
    def __init__(self, cell: int) -> None:
        self.cell = cell


class Loop:
    pass


def say(rule: object) -> str:
    return f"clue {rule.cell}" if isinstance(rule, Clue) else "the loop"


def test_only_the_rules_that_narrowed_the_steps_variables_are_named():
    fired = [(Clue(1), {10, 11}), (Clue(2), {20}), (Clue(3), {11, 30}), (Clue(4), {40})]
    assert named(fired, {11}, say, 3) == ["clue 1", "clue 3"]
    assert named(fired, {99}, say, 3) == []


def test_each_is_said_once_and_the_last_few_are_kept_in_the_order_they_ran():
    one = Clue(1)
    fired = [(one, {5}), (Clue(2), {5}), (Clue(3), {5}), (one, {5}), (Clue(4), {5})]
    assert named(fired, {5}, say, 3) == ["clue 2", "clue 3", "clue 4"]
    assert named(fired, {5}, say, 1) == ["clue 4"]


def test_a_rule_of_the_technique_leads_when_none_of_the_named_is_one():
    fired = [(Loop(), {70}), (Clue(1), {5}), (Clue(2), {5}), (Clue(3), {5})]
    # The loop narrowed elsewhere, but the step needs what it found: it comes first,
    # then the last of the others, as many as the limit leaves.
    assert named(fired, {5}, say, 3, {"Loop"}) == ["the loop", "clue 2", "clue 3"]
    assert named(fired, {5}, say, 1, {"Loop"}) == ["the loop"]
    # Named anyway when it narrowed the step's variables: no change of order.
    fired = [(Clue(1), {5}), (Loop(), {5}), (Clue(2), {5})]
    assert named(fired, {5}, say, 3, {"Loop"}) == ["clue 1", "the loop", "clue 2"]
    # None of the technique's rules ran: nothing to add.
    assert named(fired[:1], {5}, say, 3, {"Loop"}) == ["clue 1"]
