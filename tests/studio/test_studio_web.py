"""The studio as a real server (uvicorn in a thread of the test's process): its safety rules
over HTTP, and one game of Lights Out in a real browser (the default run's representative;
tests/studio/test_studio_flows.py has the other flows, marked slow, with the studio started
as the command starts it).

Safety: a request without the token is refused, and so is a change without the token's
header; a path with `..`, an absolute path, and a symlink that leaves the folder are
refused, nothing is read or written; a Host other than the address it listens on is
refused; bad JSON, a bad move, an unknown page each get one line of error, and the server
keeps serving. A save writes the file where asked, inside the folder, and nowhere else.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from studio_helpers import console_errors, instances_folder, open_browser, serve_in_thread, wait_for


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("studio")
    folder = instances_folder(tmp)
    outside = tmp / "outside.txt"
    outside.write_text("cave 1 1\n1\n")
    os.symlink(outside, folder / "cave" / "leak.txt")
    os.symlink(tmp, folder / "cave" / "up")
    server = serve_in_thread(folder)  # the real command: tests/studio/test_studio_flows.py
    yield server, folder, tmp
    server.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = open_browser(tmp_path_factory.mktemp("browser"))
    yield driver
    driver.quit()


# ---------------------------------------------------------------- safety over HTTP

def test_a_request_without_the_token_is_refused(studio):
    server, _, _ = studio
    for path in ("/", "/api/library", "/static/studio.js"):
        status, answer = server.request(path, token=False)
        assert status == 403 and "token" in answer["error"]
    status, answer = server.request("/api/board", {"text": "cave 1 1\n1\n"}, token=False)
    assert status == 403
    status, answer = server.request("/api/board", {"text": "cave 1 1\n1\n"},
                                    headers={"X-Twinsolve-Token": "guessed"}, token=False)
    assert status == 403
    status, _ = server.request(f"/api/library?token={server.token}", token=False)
    assert status == 200


def test_a_change_needs_the_header_even_with_the_token_in_the_url(studio):
    server, folder, _ = studio
    status, answer = server.request(f"/api/save?token={server.token}",
                                    {"text": "cave 1 1\n1\n", "folder": 0, "path": "x.txt"},
                                    token=False)
    assert status == 403 and not (folder / "x.txt").exists()


def test_paths_leaving_the_folder_are_refused(studio):
    server, folder, tmp = studio
    for path in ("../../etc/passwd", "/etc/passwd", "cave/leak.txt", "cave/up/outside.txt",
                 "cave/../../outside.txt", ".hidden.txt"):
        status, answer = server.request(f"/report?folder=0&path={path}")
        assert status == 400, (path, answer)
        assert answer["error"].count("\n") == 0 and "Traceback" not in answer["error"]
        status, answer = server.request(
            "/api/save", {"text": "cave 1 1\n1\n", "folder": 0, "path": path, "replace": True})
        assert status == 400, (path, answer)
    assert (tmp / "outside.txt").read_text() == "cave 1 1\n1\n"
    assert not Path("/etc/passwd.txt").exists()
    listed = server.post("/api/rescan", {})
    assert all("leak" not in entry["path"] and "up/" not in entry["path"]
               for entry in listed["entries"])


def test_a_save_writes_inside_the_folder_only(studio):
    server, folder, _ = studio
    saved = server.post("/api/save", {"text": "cave 2 2\n2 -\n- -\n", "folder": 0,
                                      "path": "cave/mine.txt"})
    assert Path(saved["saved"]) == (folder / "cave" / "mine.txt").resolve()
    assert (folder / "cave" / "mine.txt").read_text() == "cave 2 2\n2 -\n- -\n"
    status, answer = server.request("/api/save", {"text": "cave 2 2\n2 -\n- -\n", "folder": 0,
                                                  "path": "cave/mine.txt"})
    assert status == 400 and "exists" in answer["error"]
    status, answer = server.request("/api/save", {"text": "cave 2 2\n2 -\n- -\n", "folder": 0,
                                                  "path": "nowhere/mine.txt"})
    assert status == 400 and "folder does not exist" in answer["error"]


def test_bad_requests_get_one_line_and_the_server_goes_on(studio):
    server, _, _ = studio
    bad = [("/api/board", b"{not json"), ("/api/board", b'"a string"'),
           ("/api/board", b'{"text": "cave 2 2\\n9 -\\n- -\\n"}'),
           ("/api/board", b'{"text": "cave 1 1\\n1\\n", "moves": ["r5c5 1"]}'),
           ("/api/board", b'{"text": "cave 1 1\\n1\\n", "moves": "r0c0 1"}'),
           ("/api/solve", b'{"text": "cave 1 1\\n1\\n", "backend": "nosuch"}'),
           ("/api/solve", b'{"text": "cave 1 1\\n1\\n", "backend": "hand", "seconds": -1}'),
           ("/api/game/turn", b'{"game": "nope", "action": "R"}'),
           ("/api/edit", b'{"text": "cave 1 1\\n1\\n", "item": "r0c0", "token": "99"}'),
           ("/api/board", b"\xff\xfe")]
    for path, raw in bad:
        status, answer = server.request(path, raw=raw)
        assert status == 400, (path, raw, answer)
        assert answer["error"] and "\n" not in answer["error"], answer
    assert server.request("/api/nosuch")[0] == 404
    assert server.request("/static/../../etc/passwd")[0] == 404
    status, answer = server.request("/api/info", headers={"Host": "evil.example:80"})
    assert status == 403
    assert server.post("/api/board", {"text": "cave 1 1\n1\n", "moves": ["r0c0 1"]})["complete"]


# ---------------------------------------------------------------- a real browser

@pytest.mark.slow  # long: `pytest -m slow` runs it (.ci/run)
def test_lights_out_solved_by_clicking_its_presses(studio, browser, tmp_path):
    from selenium.webdriver.common.by import By

    server, _, _ = studio
    presses = server.post("/api/reveal", {"text": (studio[1] / "lightsout" /
                                                   "all-on-03x03.txt").read_text()})["moves"]
    browser.get(server.url)
    card = wait_for(lambda: browser.find_element(
        By.CSS_SELECTOR, '.card[data-path="lightsout/all-on-03x03.txt"] button[data-go="play"]'),
        what="the library's card")
    card.click()
    wait_for(lambda: "9 lights on" in browser.find_element(By.ID, "play-status").text)
    for count, move in enumerate(presses, 1):
        item = move.split()[0]
        browser.find_element(By.CSS_SELECTOR, f'#play-board rect[data-item="{item}"]').click()
        wait_for(lambda count=count: browser.find_element(By.ID, "play-count").text == str(count))
    verdict = wait_for(lambda: "solved" in browser.find_element(By.ID, "play-verdict").text
                       and browser.find_element(By.ID, "play-verdict"), what="'solved'")
    assert "fewest" in verdict.text
    assert "0 lights on" in browser.find_element(By.ID, "play-status").text
    browser.save_screenshot(str(tmp_path / "lightsout-solved.png"))
    assert console_errors(browser) == []
