"""The studio's test helpers: a real server on a free port, and a real headless browser.

`start_studio(folder, tmp)` runs `twinsolve studio --no-browser --port 0 FOLDER`
as a process of its own (cwd in the test's tmp folder) and reads the address
it prints; `Server` sends requests to it (with or without its token) and ends
it by its process id. `open_browser(tmp)` is the system's headless Chromium
through the system's chromedriver (Selenium, nothing downloaded), its
profile and home inside `tmp`; tests skip, saying why, where the studio's
packages, Selenium or the browser are missing. A module shares one server
and one browser (module-scoped fixtures in each test module).
"""

from __future__ import annotations

import json
import os
import re
import selectors
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def need_studio() -> None:
    for module in ("starlette", "uvicorn"):
        try:
            __import__(module)
        except ImportError:
            pytest.skip(f"the studio extra is not installed ({module}): pip install -e '.[studio]'")


@dataclass
class Server:
    url: str
    token: str
    proc: subprocess.Popen

    @property
    def base(self) -> str:
        return self.url.split("/?")[0]

    def request(self, path: str, body: Any = None, token: bool = True,
                headers: dict[str, str] | None = None, raw: bytes | None = None
                ) -> tuple[int, Any]:
        """(status, JSON or text) of a GET (no body) or POST to `path`."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data,
                                         method="POST" if data is not None else "GET")
        if token:
            request.add_header("X-Twinsolve-Token", self.token)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, _decoded(response.read(), response.headers)
        except urllib.error.HTTPError as error:
            return error.code, _decoded(error.read(), error.headers)

    def post(self, path: str, body: Any) -> Any:
        status, answer = self.request(path, body)
        assert status == 200, answer
        return answer

    def stop(self) -> str:
        """End the server by its process id; its stderr."""
        self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return err


def _decoded(data: bytes, headers: Any) -> Any:
    if "json" in headers.get("content-type", ""):
        return json.loads(data)
    return data.decode("utf-8", "replace")


def start_studio(folder: Path, tmp: Path) -> Server:
    need_studio()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "twinsolve", "studio", "--no-browser",
                             "--port", "0", str(folder)], cwd=tmp, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        if not selector.select(60):
            proc.kill()
            pytest.fail("the studio did not start within 60 s")
    line = proc.stdout.readline()
    found = re.search(r"(http://\S+/\?token=(\S+))", line)
    if not found:
        proc.kill()
        pytest.fail(f"the studio said {line!r}; stderr: {proc.stderr.read()[-2000:]}")
    return Server(found.group(1), found.group(2), proc)


class _ThreadServer(Server):
    """A studio served by uvicorn in a thread of this process: no start-up to wait for."""

    def stop(self) -> str:
        self.proc.should_exit = True
        self.thread.join(10)
        return ""


def serve_in_thread(folder: Path) -> Server:
    """The studio over `folder` in this process (its jobs still fork processes of their own):
    for the default run's quick tests; `start_studio` is the real command."""
    need_studio()
    import socket
    import threading

    import uvicorn

    from twinsolve.studio.folders import Folders
    from twinsolve.studio.server import Studio, make_app

    studio = Studio(Folders([str(folder)]))
    studio.library.scan()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    studio.port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(make_app(studio), log_level="warning",
                                           access_log=False, lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    wait_for(lambda: server.started, 30, "uvicorn to start")
    served = _ThreadServer(studio.url, studio.token, server)
    served.thread = thread
    return served


def open_browser(tmp: Path) -> Any:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (it is in the test extra)")
    if not CHROMIUM or not Path(CHROMEDRIVER).exists():
        pytest.skip("headless Chromium and chromedriver are not installed "
                    "(apt-get install -y chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--no-first-run", "--disable-sync",
                     "--disable-background-networking", "--disable-component-update",
                     f"--user-data-dir={tmp / 'profile'}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(CHROMEDRIVER, env={**os.environ, "HOME": str(tmp)})
    return webdriver.Chrome(service=service, options=options)


def console_errors(driver: Any) -> list[str]:
    """The browser console's errors since the last call (every page and frame)."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE"]


def wait_for(condition: Any, seconds: float = 30.0, what: str = "the page") -> Any:
    """Poll `condition()` until it gives something truthy (its value), else fail."""
    end = time.monotonic() + seconds
    last: Any = None
    while time.monotonic() < end:
        try:
            last = condition()
        except Exception as exc:  # the element is not there yet
            last = exc
        if last and not isinstance(last, Exception):
            return last
        time.sleep(0.05)
    pytest.fail(f"waited {seconds:g} s for {what}; last: {last!r}")


def choose(browser: Any, css: str, value: str) -> None:
    """Pick `value` in the select `css` once its options are there; the page may draw the
    list again meanwhile, so a stale element is retried."""
    from selenium.webdriver.support.ui import Select

    wait_for(lambda: Select(browser.find_element("css selector", css)).select_by_value(value)
             or True, what=f"{value!r} in {css}")


def instances_folder(tmp: Path) -> Path:
    """A folder of a few shipped instances (copied: the studio may save into it)."""
    folder = tmp / "instances"
    for puzzle, names in (("lightsout", ["all-on-03x03.txt"]),
                          ("cave", ["unique-06x06-seed1.txt"]),
                          ("chess", ["mixed-4x4-07.txt"]),
                          ("jugs", ["die-hard-holds-4.txt"]),
                          ("clock", ["design-12-hours.txt"])):
        (folder / puzzle).mkdir(parents=True)
        for name in names:
            shutil.copy(ROOT / "instances" / puzzle / name, folder / puzzle / name)
    mirror = sorted((ROOT / "instances" / "mirror").glob("*.txt"))[0]
    (folder / "mirror").mkdir()
    shutil.copy(mirror, folder / "mirror" / "maze.txt")
    return folder
