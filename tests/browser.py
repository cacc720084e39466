"""Headless Chromium for the tests of HTML pages (the benchmark report, the replay page).

`CHROMIUM` is the browser's path, or None where it is not installed (`.ci/run`
installs Debian's `chromium` when missing; the tests skip with `NO_CHROMIUM`
as the reason). `dump_dom(page, folder)` opens a page file and returns the DOM
after its scripts ran: tests append a probe script that writes what it found
into attributes of <body>, and read them back with `body_attributes`;
`ERROR_HOOK`, put first in <head>, gathers the page's script errors for the
probe to report. The browser's profile, caches and keys stay inside `folder`.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
NO_CHROMIUM = "headless Chromium is not installed (apt-get install -y chromium)"


def dump_dom(page: Path, folder: Path, window: str | None = None) -> str:
    """The DOM of `page` after its scripts ran, from `chromium --headless --dump-dom`."""
    size = [f"--window-size={window}"] if window else []
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", *size,
         f"--user-data-dir={folder / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=90, cwd=folder,
        env={**os.environ, "HOME": str(folder)})
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def body_attributes(dom: str) -> dict[str, str]:
    """The data-* attributes of the DOM's <body>, unescaped, by name without `data-`."""
    body = re.search(r"<body([^>]*)>", dom)
    assert body, dom[:500]
    return {name: html.unescape(value)
            for name, value in re.findall(r'data-([\w-]+)="([^"]*)"', body.group(1))}


# Put first in a page's <head>: every uncaught error and console.error of the page's own
# scripts lands in `window.probeErrors`, for a probe at the end of <body> to report.
ERROR_HOOK = """<script>
window.probeErrors = [];
window.onerror = function (message, source, line) {
  window.probeErrors.push(message + " (line " + line + ")");
};
(function () {
  var original = console.error;
  console.error = function () {
    window.probeErrors.push(Array.prototype.join.call(arguments, " "));
    return original.apply(console, arguments);
  };
})();
</script>"""
