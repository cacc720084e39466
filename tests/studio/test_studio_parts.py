"""The studio's parts in this process: every puzzle's play module through the contract, the
folder rules, the jobs' hard limits, the second solution, the frontier, and the rules that
keep the studio generic (it names no puzzle) and optional (without its extra, one line).
"""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path

import pytest

from twinsolve.core import registry
from twinsolve.core.errors import UsageError
from twinsolve.core.limits import Deadline
from twinsolve.core.run import load_file, parse_text, run

ROOT = Path(__file__).resolve().parents[2]
PLAYED = [entry.name for entry in registry.puzzles() if registry.has(entry, "play")]


def _small_instance(puzzle: str):
    """The shipped instance of `puzzle` with the shortest text that `hand` solves quickly."""
    files = sorted((ROOT / "instances" / puzzle).glob("*.txt"), key=lambda p: len(p.read_text()))
    for path in files:
        instance = load_file(path)
        result = run(instance, "hand")
        if result.verified and result.solution is not None:
            return instance, result.solution
    pytest.skip(f"no shipped {puzzle} instance with a solution")


@pytest.mark.parametrize("puzzle", PLAYED)
def test_a_solution_played_move_by_move_is_complete_and_verified(puzzle):
    instance, solution = _small_instance(puzzle)
    play = registry.capability(registry.puzzle(puzzle), "play")
    position = play.start(instance)
    start = play.board(instance, position)
    width, height = start.drawing.width, start.drawing.height
    for target in start.targets:  # every target lies on the drawing
        x, y, w, h = target.box
        assert 0 <= x and x + w <= width + 1e-6 and 0 <= y and y + h <= height + 1e-6
    items = {target.item for target in start.targets}
    for move in play.moves(instance, position):
        assert set(move.path) <= items, move
    for move in play.moves_to(instance, solution):
        position = play.apply(instance, position, move)
    board = play.board(instance, position)
    assert board.complete and instance.PUZZLE and board.status
    assert registry.puzzle(puzzle).rules.verify(instance, position) == []
    assert play.items(instance, position) == play.items(instance, solution)
    with pytest.raises(UsageError):
        play.apply(instance, play.start(instance), "no such move")


@pytest.mark.parametrize("puzzle", [name for name in PLAYED if registry.capability(
    registry.puzzle(name), "play").EDIT_TOKENS])
def test_an_author_edits_a_blank_board_cell_by_cell(puzzle):
    entry = registry.puzzle(puzzle)
    play = registry.capability(entry, "play")
    blank = play.blank(3, 4)
    items = [target.item for target in play.board(blank, play.start(blank)).targets]
    assert len(items) == 12
    assert entry.rules.parse(entry.rules.format(blank)) == blank
    # the last token keeps a board whole (a piece, a laser) while another cell takes each
    edited = play.edit(blank, items[0], play.EDIT_TOKENS[-1])
    for token in play.EDIT_TOKENS:
        edited = play.edit(edited, items[1], token)
        assert entry.rules.parse(entry.rules.format(edited)) == edited
    with pytest.raises(UsageError):
        play.edit(blank, items[0], "@@")
    with pytest.raises(UsageError):
        play.edit(blank, "r9c9", play.EDIT_TOKENS[0])


def test_folders_refuse_every_way_out(tmp_path):
    from twinsolve.studio.folders import Folders

    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (tmp_path / "secret.txt").write_text("x")
    (root / "out").symlink_to(tmp_path)
    (root / "leak.txt").symlink_to(tmp_path / "secret.txt")
    folders = Folders([str(root)])
    for path in ("../secret.txt", "/etc/passwd", "sub/../../secret.txt", "out/secret.txt",
                 "leak.txt", ".hidden", "sub\\x.txt", "a\0b", "", 7):
        with pytest.raises(UsageError):
            folders.path(0, path)
    for index in (1, -1, "0", None):
        with pytest.raises(UsageError):
            folders.root(index)
    assert folders.path(0, "sub/new.txt") == root.resolve() / "sub" / "new.txt"
    folders.save(0, "sub/new.txt", "cave 1 1\n1\n")
    with pytest.raises(UsageError, match="exists"):
        folders.save(0, "sub/new.txt", "cave 1 1\n?\n")
    with pytest.raises(UsageError, match=".txt"):
        folders.save(0, "sub/new.csv", "x")
    assert (root / "sub" / "new.txt").read_text() == "cave 1 1\n1\n"
    assert (tmp_path / "secret.txt").read_text() == "x"
    with pytest.raises(UsageError, match="no such folder"):
        Folders([str(tmp_path / "missing")])


def _loop_for(seconds):
    from twinsolve.core.time_limit import TimeLimit

    with TimeLimit(seconds):
        while True:
            pass


def _sleep():
    import time

    time.sleep(60)


def _exit():
    import os

    os._exit(3)


def test_a_job_that_overruns_or_dies_is_one_line_and_the_caller_goes_on():
    from twinsolve.studio.jobs import run_job

    caught = []

    def work():  # from a thread, as the server's handlers call it
        for job, args in ((_loop_for, (0.2,)), (_exit, ())):
            try:
                run_job(job, *args, seconds=5, what="the job")
            except UsageError as exc:
                caught.append(str(exc))
        caught.append(run_job(sorted, [3, 1, 2], seconds=5, what="sorting"))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    assert "time limit" in caught[0] and "ended without an answer" in caught[1]
    assert caught[2] == [1, 2, 3] and all("\n" not in line for line in caught[:2])


@pytest.mark.slow
def test_a_job_past_its_limit_is_killed():
    from twinsolve.studio.jobs import run_job

    with pytest.raises(UsageError, match=r"the job: stopped after .* \(the limit is 0.1 s\)"):
        run_job(_sleep, seconds=0.1, what="the job")


def test_the_second_solution_differs_and_is_verified():
    from twinsolve.studio.authoring import second_solution

    many = parse_text("cave 3 3\n- - -\n- 2 -\n- - -\n")
    first = run(many, "hand").solution
    second = second_solution(many, first, Deadline(20))
    assert second is not None and second != first
    assert registry.puzzle_of(many).rules.verify(many, second) == []
    one = parse_text("cave 2 3\n- - -\n- 1 -\n")  # its only cave: the clue's cell
    assert second_solution(one, run(one, "hand").solution, Deadline(20)) is None


def test_the_frontier_reaches_the_goal_at_the_optimum():
    from twinsolve.studio.solving import FRONTIER_STATES, _layers

    instance = load_file(ROOT / "instances" / "jugs" / "die-hard-holds-4.txt")
    found = _layers(registry.puzzle_of(instance).rules.format(instance), FRONTIER_STATES)
    assert len(found["goal"]) == run(instance, "hand").objective == len(found["layers"]) - 1
    assert found["layers"][0]["size"] == 1 and not found["stopped"]


def test_the_studio_names_no_puzzle():
    names = "|".join(entry.name for entry in registry.puzzles())
    word = re.compile(rf"(?<![\w-])({names})(?![\w-])")
    found = [f"{path.relative_to(ROOT)}:{number}: {match.group(1)}"
             for path in sorted((ROOT / "twinsolve" / "studio").rglob("*"))
             if path.suffix in (".py", ".js", ".html", ".css")
             for number, line in enumerate(path.read_text().splitlines(), 1)
             for match in word.finditer(line)]
    assert not found, "\n".join(found)


def test_without_its_extra_the_studio_says_how_to_install_it(monkeypatch, capsys, tmp_path):
    from twinsolve.cli import main

    monkeypatch.setitem(sys.modules, "starlette", None)  # import starlette: ImportError
    monkeypatch.chdir(tmp_path)
    assert main(["studio", "--no-browser", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install -e '.[studio]'" in err[0]


def test_bad_arguments_are_one_line_before_anything_starts(capsys, tmp_path):
    import socket

    from twinsolve.cli import main

    (tmp_path / "a.txt").write_text("cave 1 1\n1\n")
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = str(taken.getsockname()[1])
    try:
        for args, words in ((["--port", "70000"], "a port is a whole number 0..65535"),
                            ([str(tmp_path / "a.txt")], "not a folder"),
                            ([str(tmp_path / "missing")], "no such folder"),
                            (["--port", port, str(tmp_path)], "cannot listen on 127.0.0.1")):
            assert main(["studio", "--no-browser", *args]) == 2
            err = capsys.readouterr().err.strip().splitlines()
            assert len(err) == 1 and words in err[0], err
    finally:
        taken.close()
