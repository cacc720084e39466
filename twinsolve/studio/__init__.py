"""`twinsolve studio`: the local web application to play, solve, watch, author and print every
puzzle, and to play the stealth game live.

What it is. A real local server (Starlette on uvicorn, the `studio` extra:
`pip install -e '.[studio]'`) over the same registry and engine as the
command line: it adds no puzzle logic of its own. Moves are the puzzles'
own (each puzzle's `play` module, `core.play`), answers come from
`core.run.run` and pass `verify`, hints and steps from `twinsolve.explain`,
generation from `generation.driver`, the game from `robots`, the benchmark
report from `bench`. Nothing in this package names a puzzle: a plugin
puzzle that declares `play` is played, solved and authored like the
built-in ones.

The parts:
- `server`: routes, the token, the Host check, errors as one line;
- `folders`: where it reads (only the folders given) and writes (only where
  a person saves, inside them);
- `library`: the instances under the folders, with thumbnails;
- `boards`: play (board, moves, undo by the page's list of moves), check,
  hint, reveal;
- `solving`: any back-end in a job, and watching (the explanation's steps,
  a plan's search frontier layer by layer);
- `authoring`: generate, the editor (zero, one or many solutions, a second
  one drawn, grade and hardest step), save, puzz.link URL, PDF sheet;
- `game`: the stealth game live, drawn by the replay page;
- `reports`: a results database's HTML report;
- `jobs`: every heavy piece of work in a process of its own, with a hard
  time limit; the server keeps serving whatever a back-end does;
- `static/`: the page and its one script; nothing is fetched from
  elsewhere.

`serve` starts it (the command's work); `run` is the same without the
blocking loop, for tests that drive it in-process.
"""

from __future__ import annotations

import socket
import sys
import threading
import webbrowser
from typing import Any

from ..core.errors import UsageError

__all__ = ["serve", "warm_up", "MISSING"]

MISSING = "the studio needs its extra: pip install -e '.[studio]' (Starlette and uvicorn)"


def _need_extra() -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise UsageError(MISSING) from None


def warm_up() -> None:
    """Import what jobs use before the first one forks, so each starts in milliseconds (a
    child forked while another thread imports could wait on that import for ever)."""
    import importlib

    from ..core import registry

    def load(name: str, target: Any) -> None:
        # A module that cannot be imported now (an optional peer's package missing, a
        # plugin broken) says so when it is used, in one line: it must not stop the start.
        try:
            target() if callable(target) else importlib.import_module(name)
        except Exception:  # noqa: S110 - see above
            pass

    for module in ("twinsolve.explain", "twinsolve.generation.driver",
                   "twinsolve.generation.grade", "twinsolve.models.export",
                   "twinsolve.models.sat_common", "twinsolve.pictures.draw",
                   "twinsolve.pictures.sheet", "twinsolve.graphics.canvas"):
        load(module, None)
    for entry in registry.puzzles():
        load(entry.name, lambda entry=entry: entry.rules)
        for backend in entry.backends:
            load(backend.name, lambda backend=backend: backend.solve)
        for name in ("play", "picture", "generator", "explanation"):
            if registry.has(entry, name):
                load(name, lambda entry=entry, name=name: registry.capability(entry, name))


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(64)
    return sock


def serve(folders: list[str], port: int = 0, host: str = "127.0.0.1",
          open_browser: bool = True, say: Any = print) -> None:
    """Serve the studio over `folders` until interrupted (module docstring). `port` 0 takes
    a free one; the address with its token is said (`say`) once listening."""
    _need_extra()
    import uvicorn

    from .folders import Folders
    from .server import Studio, make_app

    studio = Studio(Folders(folders), host=host)
    sock = _bind(host, port)  # a port in use is said before any work
    studio.port = sock.getsockname()[1]
    warm_up()
    studio.library.scan()
    config = uvicorn.Config(make_app(studio, any_host=host != "127.0.0.1"), log_level="warning",
                            access_log=False, lifespan="off", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    say(f"twinsolve studio: {studio.url}")
    sys.stdout.flush()
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(studio.url,)).start()
    server.run(sockets=[sock])
