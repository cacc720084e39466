"""The studio's web server: routes, the token, and errors that never become tracebacks.

Safety, the rules:
- it listens on 127.0.0.1 unless `host` names another address (the command
  warns), and refuses a request whose `Host` is not the address it listens
  on (a page on another site cannot reach it by a DNS name it controls);
- every request carries the token made at start (`secrets`, as Jupyter
  does): in the URL the command prints (`?token=...`, which sets a cookie
  only this site can send, `SameSite=Strict`), in that cookie, or in the
  `X-Twinsolve-Token` header; a request that changes anything (every POST)
  must carry the header, which no form on another page can set. Anything
  else is answered 403 and nothing is done;
- every asset is the package's own (`static/`), and every page says so to
  the browser (`Content-Security-Policy`: nothing from elsewhere, no frame
  of another site's);
- a request with bad data gets one line of error as JSON with status 400
  (`UsageError`, `InstanceError`, bad JSON, a body too large) or 404; anything
  unexpected is 500 with one line, logged as one line: never a traceback,
  and the server keeps serving. Heavy work runs in jobs (`studio.jobs`).

The page's API is JSON in and out; the module `studio.static/studio.js` is
its only client. Every handler below is a few lines that read the request,
call the module that does the work (`library`, `boards`, `solving`,
`authoring`, `game`, `reports`) and answer.
"""

from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from .. import __version__
from ..core import registry
from ..core.errors import InstanceError, UsageError
from ..core.json_text import parse_json
from . import authoring, boards, reports, solving
from .folders import Folders
from .game import Games
from .library import Library

__all__ = ["Studio", "make_app", "TOKEN_HEADER", "COOKIE", "MAX_BODY"]

TOKEN_HEADER = "X-Twinsolve-Token"
COOKIE = "twinsolve-studio"
MAX_BODY = 4_000_000  # bytes of a request body
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")

# The page and its API: only the package's own files, no inline script.
APP_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
              "img-src 'self' data:; connect-src 'self'; frame-src 'self'; object-src 'none'; "
              "base-uri 'none'; form-action 'none'; frame-ancestors 'self'")
# The pages made elsewhere (the replay page, the benchmark report): self-contained, their
# scripts inline, and nothing at all fetched.
PAGE_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
               "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'")
STATIC = {"studio.js": "text/javascript", "studio.css": "text/css",
          "index.html": "text/html"}


@dataclass
class Studio:
    """What the server holds: its folders, the library, the live games, the token."""

    folders: Folders
    port: int = 0
    host: str = "127.0.0.1"
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))

    def __post_init__(self) -> None:
        self.library = Library(self.folders)
        self.games = Games(self.folders)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/?token={self.token}"


# ---------------------------------------------------------------- plumbing

def _say(message: str) -> None:
    print(f"twinsolve studio: {message}".splitlines()[0], file=sys.stderr, flush=True)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _secured(response: Response, policy: str = APP_POLICY) -> Response:
    """The response with the safety headers; a policy already set stays (the pages made
    elsewhere have their own)."""
    response.headers.setdefault("Content-Security-Policy", policy)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "SAMEORIGIN"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    return response


def _guarded(handler: Callable[[Request], Awaitable[Response]]
             ) -> Callable[[Request], Awaitable[Response]]:
    """A handler whose every failure is an answer (module docstring)."""
    async def guarded(request: Request) -> Response:
        try:
            return _secured(await handler(request))
        except (UsageError, InstanceError) as exc:
            return _secured(_error(400, str(exc).splitlines()[0]))
        except Exception as exc:  # a fault of ours: said in one line, the server goes on
            line = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
            _say(f"internal error on {request.url.path}: {line}")
            return _secured(_error(500, f"internal error: {line}"))
    return guarded


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object; `UsageError` for anything else."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY:
        raise UsageError(f"the request is {int(declared):,} bytes (at most {MAX_BODY:,})")
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY:
            raise UsageError(f"the request is over {MAX_BODY:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("the request is not UTF-8 text") from None
    body = parse_json(text, "the request")
    if not isinstance(body, dict):
        raise UsageError("the request is not a JSON object")
    return body


def _json_route(path: str, work: Callable[[Studio, dict[str, Any]], Any],
                studio: Studio) -> Route:
    """A POST route: the body to `work(studio, body)` in a worker thread, its value as JSON."""
    async def handler(request: Request) -> Response:
        body = await _body(request)
        value = await run_in_threadpool(work, studio, body)
        return value if isinstance(value, Response) else JSONResponse(value)
    return Route(path, _guarded(handler), methods=["POST"])


# ---------------------------------------------------------------- the token

class _Gate:
    """The outermost layer: the Host and the token checked, and nothing escapes as a
    traceback (module docstring)."""

    def __init__(self, app: Any, studio: Studio, any_host: bool) -> None:
        self.app, self.studio, self.any_host = app, studio, any_host

    def _refusal(self, scope: dict[str, Any]) -> str | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "").rsplit(":", 1)[0]
        if not self.any_host and host not in LOCAL_HOSTS:
            return f"this studio answers requests to {self.studio.host} only"
        token = self.studio.token
        request = Request(scope)
        given = headers.get(TOKEN_HEADER.lower())
        if scope["method"] != "GET":
            return None if given and secrets.compare_digest(given, token) else \
                "a change needs the studio's token in its header (reload the page)"
        for candidate in (given, request.query_params.get("token"), request.cookies.get(COOKIE)):
            if candidate and secrets.compare_digest(candidate, token):
                return None
        return ("this studio needs its token: open the address 'twinsolve studio' printed "
                "when it started")

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: dict) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            refusal = self._refusal(scope)
            if refusal is not None:
                await _secured(_error(403, refusal))(scope, receive, send)
                return
            await self.app(scope, receive, watched)
        except Exception as exc:
            _say(f"internal error: {type(exc).__name__}: {exc}")
            if not started:
                await _secured(_error(500, "internal error"))(scope, receive, send)


# ---------------------------------------------------------------- handlers

def _info(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    return {"version": __version__, "puzzles": [_puzzle_info(entry) for entry in
                                                registry.puzzles()],
            "folders": [str(root) for root in studio.folders.roots],
            "levels": studio.games.levels(), "databases": reports.databases(studio.folders),
            "problems": list(registry.problems())}


def _puzzle_info(entry: registry.Puzzle) -> dict[str, Any]:
    """What the page needs to know of a puzzle: back-ends, generator, play, editor, URL."""
    backends = [b.name for b in entry.backends if not b.test_only]
    backends += [extra.backend.name for extra, _ in registry.extra_backends()
                 if extra.serves(entry.name) and not extra.backend.test_only
                 and extra.backend.name not in backends]
    info: dict[str, Any] = {"name": entry.name, "title": entry.title, "backends": backends,
                            "optimisation": entry.optimisation, "rules": entry.rules_text,
                            "url": registry.has(entry, "url_reader"),
                            "picture": registry.has(entry, "picture"),
                            "explanation": registry.has(entry, "explanation"),
                            "play": None, "generator": None}
    if registry.has(entry, "play"):
        play = registry.capability(entry, "play")
        info["play"] = {"plan": bool(play.PLAN), "tokens": list(play.EDIT_TOKENS)}
    else:
        info["no_play"] = entry.absent_reason("play")
    if registry.has(entry, "generator"):
        module = registry.generator(entry)
        size = module.DEFAULT_SIZE
        info["generator"] = {
            "levels": list(module.LEVELS), "size": f"{size[0]}x{size[1]}" if size else None,
            "options": [{"name": o.name, "help": o.help, "kind": o.kind,
                         "choices": list(o.choices)} for o in module.OPTIONS]}
    return info


def _open(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    entry = studio.library.entry(body.get("id"))
    text = registry.puzzle_of(entry.instance).rules.format(entry.instance)
    return {"text": text, "label": entry.path, "puzzle": entry.puzzle}


def _rescan(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    studio.library.scan()
    return studio.library.listing()


def _parse(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    instance = boards.instance_of(body.get("text"))
    return {"text": registry.puzzle_of(instance).rules.format(instance),
            "puzzle": registry.puzzle_of(instance).name}


def _with_board(work: Callable[..., Any]) -> Callable[[Studio, dict[str, Any]], Any]:
    """A handler that takes the request's board (`text`) and moves."""
    def handler(studio: Studio, body: dict[str, Any]) -> Any:
        return work(boards.instance_of(body.get("text")), body.get("moves", []))
    return handler


def _solve(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    return solving.solve(boards.instance_of(body.get("text")), body.get("backend"),
                         body.get("seconds"), body.get("unique", False))


def _watch(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    instance = boards.instance_of(body.get("text"))
    if body.get("kind") == "frontier":
        return {"kind": "frontier", **solving.frontier(instance)}
    if body.get("kind") == "steps":
        return {"kind": "steps", **solving.explanation(instance, body.get("level"))}
    raise UsageError("watch the 'steps' of an explanation or the 'frontier' of a search")


def _generate(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    return {"text": authoring.generate(body.get("puzzle"), body.get("level"), body.get("size"),
                                       body.get("seed", 0), body.get("options"),
                                       body.get("seconds"))}


def _blank(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    return {"text": authoring.blank(body.get("puzzle"), body.get("rows"), body.get("cols"))}


def _edit(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    return {"text": authoring.edit(boards.instance_of(body.get("text")), body.get("item"),
                                   body.get("token"))}


def _study(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    return authoring.study(boards.instance_of(body.get("text")))


def _save(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    instance = boards.instance_of(body.get("text"))
    text = registry.puzzle_of(instance).rules.format(instance)
    path = studio.folders.save(body.get("folder"), body.get("path"), text,
                               body.get("replace") is True)
    studio.library.scan()
    return {"saved": str(path)}


def _url(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    return {"url": authoring.url(boards.instance_of(body.get("text")))}


def _sheet(studio: Studio, body: dict[str, Any]) -> Response:
    pdf = authoring.sheet(boards.instance_of(body.get("text")))
    return Response(pdf, media_type="application/pdf",
                    headers={"Content-Disposition": 'inline; filename="twinsolve-sheet.pdf"'})


def _game_new(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    name, live = studio.games.start(body)
    return {"game": name, **live.facts()}


def _game_turn(studio: Studio, body: dict[str, Any]) -> dict[str, Any]:
    return studio.games.turn(body.get("game"), body.get("action"))


# ---------------------------------------------------------------- GET routes

def _get_routes(studio: Studio) -> list[Route]:
    async def index(request: Request) -> Response:
        if "token" in request.query_params:  # the address printed: keep the token as cookie
            response = RedirectResponse("/", status_code=303)
            response.set_cookie(COOKIE, studio.token, httponly=True, samesite="strict")
            return response
        page = _static_file("index.html").body.decode("utf-8")
        return HTMLResponse(page.replace("{{TOKEN}}", studio.token))

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return _error(404, f"no such file: {name}")
        return _static_file(name)

    async def library(request: Request) -> Response:
        return JSONResponse(studio.library.listing())

    async def info(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(_info, studio, {}))

    async def thumbnail(request: Request) -> Response:
        number = request.query_params.get("id", "")
        if not number.isdigit():
            raise UsageError("a thumbnail is asked for by its entry's number (?id=N)")
        svg = await run_in_threadpool(studio.library.thumbnail, int(number))
        return Response(svg, media_type="image/svg+xml")

    async def game_view(request: Request) -> Response:
        page = await run_in_threadpool(studio.games.page, request.query_params.get("game"))
        return _secured(HTMLResponse(page), PAGE_POLICY)

    async def game_replay(request: Request) -> Response:
        live = studio.games.get(request.query_params.get("game"))
        text = json.dumps(live.replay(), separators=(",", ":")) + "\n"
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": 'attachment; filename="twinsolve-replay.json"'})

    async def report(request: Request) -> Response:
        page = await run_in_threadpool(reports.report_page, studio.folders,
                                       _number(request.query_params.get("folder")),
                                       request.query_params.get("path"))
        return _secured(HTMLResponse(page), PAGE_POLICY)

    routes = [("/", index), ("/static/{name}", static), ("/api/library", library),
              ("/api/info", info), ("/api/thumbnail", thumbnail), ("/game/view", game_view),
              ("/api/game/replay", game_replay), ("/report", report)]
    return [Route(path, _guarded(handler), methods=["GET"]) for path, handler in routes]


def _number(text: str | None) -> int | None:
    return int(text) if text is not None and text.isdigit() and len(text) < 6 else None


def _static_file(name: str) -> Response:
    data = resources.files("twinsolve.studio").joinpath("static", name).read_bytes()
    return Response(data, media_type=STATIC[name])


_POSTS: dict[str, Callable[[Studio, dict[str, Any]], Any]] = {
    "/api/open": _open, "/api/rescan": _rescan, "/api/parse": _parse,
    "/api/board": _with_board(boards.board), "/api/check": _with_board(boards.check),
    "/api/hint": _with_board(boards.hint),
    "/api/reveal": lambda studio, body: boards.reveal(boards.instance_of(body.get("text"))),
    "/api/solve": _solve, "/api/watch": _watch, "/api/generate": _generate,
    "/api/blank": _blank, "/api/edit": _edit, "/api/study": _study, "/api/save": _save,
    "/api/url": _url, "/api/sheet": _sheet, "/api/game/new": _game_new,
    "/api/game/turn": _game_turn,
}


def make_app(studio: Studio, any_host: bool = False) -> Any:
    """The ASGI application of `studio` (module docstring)."""
    async def missing(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        return _secured(_error(status, f"{request.method} {request.url.path}: "
                                       f"{'no such page' if status == 404 else 'not allowed'}"))

    routes = _get_routes(studio) + [_json_route(path, work, studio)
                                    for path, work in _POSTS.items()]
    app = Starlette(routes=routes, exception_handlers={404: missing, 405: missing})
    return _Gate(app, studio, any_host)
