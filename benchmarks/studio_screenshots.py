"""The README's screenshots of `twinsolve studio`, made by driving it in headless Chromium.

    python -m benchmarks.studio_screenshots [--out docs/studio]

Starts the studio over the shipped instances (`twinsolve studio --no-browser
--port 0 instances`), opens it in the system's headless Chromium through its
chromedriver (Selenium; what the tests use: tests/studio/studio_helpers.py)
and writes three PNG screenshots, 1400 x 900:
- `studio-play.png`: a 6x6 Cave played by hand, two hints applied, the third
  highlighted with its sentence;
- `studio-author.png`: a Cave authored on a blank board, still with many
  solutions, two of them drawn;
- `studio-game.png`: level 2 of the stealth game after ten turns, on the
  replay page's canvas, the algorithm view on (V).
Any page's console error stops it (exit 1). It reads the shipped files and
writes only the three pictures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "studio"))

from studio_helpers import console_errors, open_browser, start_studio, wait_for  # noqa: E402


def _css(driver, selector):
    return driver.find_element("css selector", selector)


def _play(driver, url: str, out: Path) -> None:
    driver.get(url)
    wait_for(lambda: _css(driver, '.card[data-path="cave/unique-06x06-seed1.txt"] '
                                  'button[data-go="play"]')).click()
    wait_for(lambda: "cells decided" in _css(driver, "#play-status").text)
    for _ in range(2):
        _css(driver, "#play-hint").click()
        wait_for(lambda: not _css(driver, "#play-apply").get_attribute("hidden"))
        _css(driver, "#play-apply").click()
        wait_for(lambda: _css(driver, "#play-apply").get_attribute("hidden"))
    _css(driver, "#play-hint").click()
    wait_for(lambda: driver.find_elements("css selector", "#play-board rect.target.hint"))
    driver.save_screenshot(str(out / "studio-play.png"))


def _author(driver, url: str, out: Path) -> None:
    from selenium.webdriver.support.ui import Select

    driver.get(url + "#author")
    wait_for(lambda: Select(_css(driver, "#author-puzzle")).options)
    Select(_css(driver, "#author-puzzle")).select_by_value("cave")
    _css(driver, "#author-blank").click()
    wait_for(lambda: _css(driver, "#author-count").get_attribute("data-version"))
    for item, token in (("r0c2", "4"), ("r2c3", "7"), ("r4c0", "2")):
        version = int(_css(driver, "#author-count").get_attribute("data-version"))
        _css(driver, f'#author-board rect[data-item="{item}"]').click()
        _css(driver, "#author-value").send_keys(token, "\n")
        wait_for(lambda v=version: int(_css(driver, "#author-count")
                                       .get_attribute("data-version") or 0) > v)
    wait_for(lambda: driver.find_elements("css selector", "#author-second svg"))
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(out / "studio-author.png"))


def _game(driver, url: str, out: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.support.ui import Select

    driver.get(url + "#game")
    wait_for(lambda: Select(_css(driver, "#game-level")).options)
    Select(_css(driver, "#game-level")).select_by_value("2")
    _css(driver, "#game-start").click()
    wait_for(lambda: _css(driver, "#hud-turn").text == "0")
    for key in "dddd  ss  ":
        ActionChains(driver).send_keys(key).perform()
    wait_for(lambda: _css(driver, "#hud-turn").text == "10")
    ActionChains(driver).send_keys("v").perform()  # the algorithm view
    wait_for(lambda: _css(driver, "#hud-view").text == "on")
    driver.save_screenshot(str(out / "studio-game.png"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "studio"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="twinsolve-shots-") as scratch:
        server = start_studio(ROOT / "instances", Path(scratch))
        driver = open_browser(Path(scratch))
        try:
            driver.set_window_size(1400, 900)
            for shoot in (_play, _author, _game):
                shoot(driver, server.url, out)
                errors = console_errors(driver)
                if errors:
                    print(f"{shoot.__name__[1:]}: console errors: {errors}", file=sys.stderr)
                    return 1
        finally:
            driver.quit()
            server.stop()
    for name in ("studio-play.png", "studio-author.png", "studio-game.png"):
        print(f"wrote {out / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
