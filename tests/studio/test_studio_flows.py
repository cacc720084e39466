"""The studio's flows in a real browser (slow: one server and one browser for the module).

Each test does what a person does with mouse and keyboard and reads what the page then
shows: a Cave marked wrongly named by "check" and a hint highlighted; `sat` run on a mirror
maze and its flipped mirrors drawn on the board; a Cave authored from a blank board until
its solution count goes from many to one; a Solitaire Chess puzzle generated and played to
the end; ten turns of the stealth game's level 2 with the robots moving and the head-up
display changing; a watched explanation and a watched frontier. No page may log a console
error. Screenshots go to each test's tmp folder.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from studio_helpers import (
    choose,
    console_errors,
    instances_folder,
    open_browser,
    start_studio,
    wait_for,
)

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("studio")
    server = start_studio(instances_folder(tmp), tmp)
    yield server
    errors = server.stop()
    assert "Traceback" not in errors, errors


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = open_browser(tmp_path_factory.mktemp("browser"))
    yield driver
    driver.quit()


@pytest.fixture(autouse=True)
def no_console_errors(browser):
    console_errors(browser)  # what earlier tests left is theirs
    yield
    assert console_errors(browser) == []


def by_css(browser, css):
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, css)


def all_css(browser, css):
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, css)


def open_tab(browser, studio, tab):
    """The studio opened at `#tab`, once its script shows that tab."""
    browser.get(studio.url + "#" + tab)
    wait_for(lambda: by_css(browser, f"#tab-{tab}.active"), what=f"the {tab} tab")


def usable(browser, css):
    """The element once it is displayed and enabled. Why: going to `#tab` on the page
    already open only changes the hash, so the page's script shows the tab a moment later,
    and the old tab's controls (a select already filled) are there before it."""
    def shown():
        element = by_css(browser, css)
        return element if element.is_displayed() and element.is_enabled() else None
    return wait_for(shown, what=f"{css} to be shown")


def text_of(browser, element_id):
    return by_css(browser, f"#{element_id}").text


def open_card(browser, studio, path, tab):
    browser.get(studio.url)
    wait_for(lambda: by_css(browser, f'.card[data-path="{path}"] button[data-go="{tab}"]'),
             what=f"the card of {path}").click()
    wait_for(lambda: by_css(browser, f"#tab-{tab}.active"))


def cell(browser, board, item):
    return by_css(browser, f'#{board} rect[data-item="{item}"]')


def test_cave_check_names_the_first_contradiction_then_hint_highlights(studio, browser,
                                                                       tmp_path):
    open_card(browser, studio, "cave/unique-06x06-seed1.txt", "play")
    wait_for(lambda: "0 of 36" in text_of(browser, "play-status"))
    clue = next(item for item in ("r0c2", "r0c3") if cell(browser, "play-board", item))
    cell(browser, "play-board", clue).click()  # undecided -> inside
    wait_for(lambda: text_of(browser, "play-count") == "1")
    cell(browser, "play-board", clue).click()  # inside -> outside: a clue cell outside
    wait_for(lambda: text_of(browser, "play-count") == "2")
    by_css(browser, "#play-check").click()
    verdict = wait_for(lambda: clue in text_of(browser, "play-verdict")
                       and text_of(browser, "play-verdict"), what="check's verdict")
    assert "mistake" in by_css(browser, "#play-verdict").get_attribute("class")
    assert cell(browser, "play-board", clue).get_attribute("class").split().count("mistake")
    browser.save_screenshot(str(tmp_path / "cave-check.png"))
    by_css(browser, "#play-undo").click()
    by_css(browser, "#play-undo").click()
    wait_for(lambda: text_of(browser, "play-count") == "0")
    by_css(browser, "#play-hint").click()
    hinted = wait_for(lambda: all_css(browser, "#play-board rect.target.hint"), what="a hint")
    assert text_of(browser, "play-verdict") and verdict
    browser.save_screenshot(str(tmp_path / "cave-hint.png"))
    by_css(browser, "#play-apply").click()
    wait_for(lambda: text_of(browser, "play-count") == str(len(hinted)))


def test_sat_on_a_mirror_maze_draws_the_flipped_mirrors(studio, browser, tmp_path):
    from selenium.webdriver.support.ui import Select

    open_card(browser, studio, "mirror/maze.txt", "solve")
    wait_for(lambda: Select(by_css(browser, "#solve-backend")).options)
    choose(browser, "#solve-backend", "sat")
    by_css(browser, "#solve-run").click()
    row = wait_for(lambda: all_css(browser, "#solve-runs tbody tr"), seconds=90)[0]
    cells = [td.text for td in row.find_elements("css selector", "td")]
    assert cells[0] == "sat" and cells[1] == "optimal" and cells[4] == "true", cells
    flipped = wait_for(lambda: all_css(browser, '#solve-board rect[data-state="flipped"]'),
                       what="the flipped mirrors on the board")
    assert len(flipped) == int(cells[2]) == 2  # the file's expect-objective
    assert by_css(browser, "#solve-picture svg")
    browser.save_screenshot(str(tmp_path / "mirror-sat.png"))


def test_authoring_a_cave_goes_from_many_solutions_to_one(studio, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    text = studio.post("/api/open", {"id": _entry(studio, "cave/unique-06x06-seed1.txt")})["text"]
    clues = [(r, c, token) for r, line in enumerate(text.splitlines()[-6:])
             for c, token in enumerate(line.split()) if token != "-"]
    open_tab(browser, studio, "author")
    wait_for(lambda: Select(by_css(browser, "#author-puzzle")).options)
    choose(browser, "#author-puzzle", "cave")
    for name in ("author-rows", "author-cols"):
        box = usable(browser, f"#{name}")
        box.clear()
        box.send_keys("6")
    by_css(browser, "#author-blank").click()

    def studied(version):
        board, count = by_css(browser, "#author-board"), by_css(browser, "#author-count")
        return (board.get_attribute("data-version") == str(version)
                and count.get_attribute("data-version") == str(version) and count.text)

    first = int(wait_for(lambda: by_css(browser, "#author-count").get_attribute("data-version")))
    assert studied(first) == "many solutions"
    assert all_css(browser, "#author-second svg")  # a second solution drawn
    counts = []
    for number, (r, c, token) in enumerate(clues, 1):
        cell(browser, "author-board", f"r{r}c{c}").click()
        by_css(browser, "#author-value").send_keys(token, "\n")
        counts.append(wait_for(lambda number=number: studied(first + number),
                               what=f"the count after clue {token} at r{r}c{c}"))
    assert counts[0] == "many solutions" and counts[-1] == "one solution", counts
    assert text_of(browser, "author-grade") not in ("", "-")
    assert not browser.find_elements(By.CSS_SELECTOR, "#author-second svg")
    browser.save_screenshot(str(tmp_path / "cave-authored.png"))


def _entry(studio, path):
    listing = studio.post("/api/rescan", {})
    return next(e["id"] for e in listing["entries"] if e["path"] == path)


def test_a_generated_chess_puzzle_played_to_the_end(studio, browser, tmp_path):
    from selenium.webdriver.support.ui import Select

    open_tab(browser, studio, "generate")
    wait_for(lambda: Select(by_css(browser, "#gen-puzzle")).options)
    choose(browser, "#gen-puzzle", "chess")
    size = usable(browser, "#gen-size")
    size.clear()
    size.send_keys("4x4")
    by_css(browser, "#gen-run").click()
    text = wait_for(lambda: text_of(browser, "gen-text"), seconds=90, what="a generated puzzle")
    assert text.splitlines()[-5].startswith("chess 4 4")
    moves = studio.post("/api/reveal", {"text": text})["moves"]
    by_css(browser, "#gen-play").click()
    wait_for(lambda: "pieces left" in text_of(browser, "play-status"))
    for count, move in enumerate(moves, 1):
        origin, target = re.fullmatch(r"[KQRBNP]([a-h]\d)x[KQRBNP]([a-h]\d)", move).groups()
        cell(browser, "play-board", origin).click()
        wait_for(lambda origin=origin: "selected" in cell(browser, "play-board", origin)
                 .get_attribute("class"))
        cell(browser, "play-board", target).click()
        wait_for(lambda count=count: text_of(browser, "play-count") == str(count))
    wait_for(lambda: "solved" in text_of(browser, "play-verdict"), what="'solved'")
    assert "one piece left" in text_of(browser, "play-status")
    browser.save_screenshot(str(tmp_path / "chess-played.png"))


def test_ten_turns_of_level_2_move_the_robots_and_change_the_hud(studio, browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    from twinsolve.cli import main

    open_tab(browser, studio, "game")
    wait_for(lambda: Select(by_css(browser, "#game-level")).options)
    choose(browser, "#game-level", "2")
    usable(browser, "#game-start").click()
    wait_for(lambda: text_of(browser, "hud-turn") == "0")

    def robots():
        browser.switch_to.frame(by_css(browser, "#game-frame"))
        try:
            return [row.text for row in all_css(browser, "#robots tbody tr")]
        finally:
            browser.switch_to.default_content()

    before = wait_for(robots, what="the robots' table in the replay page")
    keys = [Keys.ARROW_RIGHT, "d", Keys.ARROW_RIGHT, "d", Keys.SPACE, Keys.SPACE, "s",
            Keys.ARROW_DOWN, Keys.SPACE, Keys.SPACE]
    for key in keys:
        ActionChains(browser).send_keys(key).perform()
    wait_for(lambda: text_of(browser, "hud-turn") == "10", what="turn 10 in the HUD")
    assert text_of(browser, "hud-outcome") == "playing"
    after = wait_for(lambda: robots() != before and robots(), what="the robots to move")
    assert after != before
    browser.save_screenshot(str(tmp_path / "game-level-2.png"))
    ActionChains(browser).send_keys("u").perform()
    wait_for(lambda: text_of(browser, "hud-undos") == "2", what="an undo")
    replay = studio.request("/api/game/replay?game=" + browser.execute_script(
        "return new URL(document.getElementById('game-frame').src).searchParams.get('game')"))
    assert replay[0] == 200 and replay[1]["moves"] == "RRRRWWDDWWZ"
    saved = tmp_path / "replay.json"
    saved.write_text(json.dumps(replay[1]))
    assert main(["play", "--replay", str(saved), "--verify"]) == 0  # twinsolve play opens it


def test_watching_steps_and_a_frontier(studio, browser, tmp_path):
    open_card(browser, studio, "cave/unique-06x06-seed1.txt", "solve")
    by_css(browser, "#watch-steps").click()
    wait_for(lambda: len(all_css(browser, "#watch-list li")) > 3, seconds=60)
    slider = by_css(browser, "#watch-slider")
    last = int(slider.get_attribute("max"))
    browser.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent("
                           "new Event('input'))", slider, last)
    wait_for(lambda: "step" in text_of(browser, "watch-label"))
    wait_for(lambda: all_css(browser, "#watch-view rect.target.hint"), seconds=60)
    open_card(browser, studio, "jugs/die-hard-holds-4.txt", "solve")
    by_css(browser, "#watch-frontier").click()
    wait_for(lambda: len(all_css(browser, "#watch-list li")) > 2, seconds=60)
    by_css(browser, "#watch-play").click()
    wait_for(lambda: "goal is reached" in text_of(browser, "watch-label"), seconds=60)
    assert all_css(browser, "#watch-view .bars rect.bar.goal")
    browser.save_screenshot(str(tmp_path / "jugs-frontier.png"))


def test_jugs_by_mouse_and_a_clock_by_keys(studio, browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains

    open_card(browser, studio, "jugs/die-hard-holds-4.txt", "play")
    wait_for(lambda: "levels 0 0" in text_of(browser, "play-status"))
    moves = studio.post("/api/reveal", {"text": (
        studio.post("/api/open", {"id": _entry(studio, "jugs/die-hard-holds-4.txt")})["text"])
    })["moves"]
    assert moves == ["fill 1", "pour 1 0", "empty 0", "pour 1 0", "fill 1", "pour 1 0"]
    for count, move in enumerate(moves, 1):
        words = move.split()
        jug = cell(browser, "play-board", f"j{words[1]}")
        if words[0] == "fill":
            jug.click()
        elif words[0] == "empty":
            ActionChains(browser).context_click(jug).perform()
        else:
            ActionChains(browser).drag_and_drop(jug, cell(browser, "play-board",
                                                          f"j{words[2]}")).perform()
        wait_for(lambda count=count: text_of(browser, "play-count") == str(count))
    wait_for(lambda: "solved" in text_of(browser, "play-verdict"), what="'solved'")
    assert "the fewest possible" in text_of(browser, "play-verdict")
    browser.save_screenshot(str(tmp_path / "jugs-played.png"))

    open_card(browser, studio, "clock/design-12-hours.txt", "play")
    listed = wait_for(lambda: [b.get_attribute("data-move") for b in
                               all_css(browser, "#play-moves button")])
    text = studio.post("/api/open", {"id": _entry(studio, "clock/design-12-hours.txt")})["text"]
    for count, step in enumerate(studio.post("/api/reveal", {"text": text})["moves"], 1):
        ActionChains(browser).send_keys(str(listed.index(step) + 1)).perform()
        wait_for(lambda count=count: text_of(browser, "play-count") == str(count))
    wait_for(lambda: "solved" in text_of(browser, "play-verdict"), what="'solved'")
    ActionChains(browser).send_keys("u").perform()
    wait_for(lambda: text_of(browser, "play-count") == str(count - 1))
    ActionChains(browser).send_keys("U").perform()
    wait_for(lambda: text_of(browser, "play-count") == str(count))


KEYS = {"R": "d", "D": "s", "L": "a", "U": "w", "W": " ", "X": "e", "Z": "u"}


def _play_level(browser, level, seed, moves):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import Select

    browser.get(f"{browser.current_url.split('#')[0]}#game")
    wait_for(lambda: Select(by_css(browser, "#game-level")).options)
    choose(browser, "#game-level", str(level))
    by_css(browser, "#game-seed").send_keys(str(seed))
    by_css(browser, "#game-start").click()
    wait_for(lambda: text_of(browser, "hud-turn") == "0")
    ActionChains(browser).send_keys(*[KEYS[action] for action in moves]).perform()
    wait_for(lambda: text_of(browser, "hud-turn") == str(len(moves)), seconds=90,
             what=f"turn {len(moves)}")


def test_the_lose_screen_takes_an_undo_and_the_win_screen_ends_level_1(studio, browser,
                                                                      tmp_path):
    browser.get(studio.url)
    _play_level(browser, 1, 0, "RRRRDDDDDDDD" + "W" * 11)
    wait_for(lambda: text_of(browser, "hud-outcome") == "captured")
    assert text_of(browser, "game-over-title") == "Caught!"
    assert "U undoes" in text_of(browser, "game-over-text")
    browser.save_screenshot(str(tmp_path / "game-lost.png"))
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys("u").perform()
    wait_for(lambda: text_of(browser, "hud-outcome") == "playing", what="the undo")
    assert not by_css(browser, "#game-over").is_displayed()
    won = json.loads((ROOT / "tests" / "robots" / "winning_lines.json").read_text())["level-1"]
    _play_level(browser, 1, won["seed"], won["moves"])
    wait_for(lambda: text_of(browser, "hud-outcome") == "won", what="the win")
    assert text_of(browser, "game-over-title") == "You got out!"
    assert "X" in won["moves"]  # an EMP (the key E) was released on the way
    browser.save_screenshot(str(tmp_path / "game-won.png"))


def test_a_sheet_a_url_and_a_benchmark_report(studio, tmp_path):
    text = studio.post("/api/open", {"id": _entry(studio, "cave/unique-06x06-seed1.txt")})["text"]
    status, pdf = studio.request("/api/sheet", {"text": text})
    assert status == 200 and pdf.startswith("%PDF")
    url = studio.post("/api/url", {"text": text})["url"]
    assert url.startswith("https://puzz.link/p?cave/6/6/")
    folder = Path(studio.post("/api/rescan", {})["folders"][0])
    done = subprocess.run([sys.executable, "-m", "twinsolve", "bench", str(folder / "jugs"),
                           "--backends", "hand", "--jobs", "1", "--quiet",
                           "--db", str(folder / "results.sqlite")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    status, page = studio.request("/report?folder=0&path=results.sqlite")
    assert status == 200 and "<html" in page.lower() and "jugs" in page
    status, answer = studio.request("/report?folder=0&path=jugs/die-hard-holds-4.txt")
    assert status == 400 and "\n" not in answer["error"]
