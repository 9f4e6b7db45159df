"""Page routes of the browser client (issue 4).

``/`` home and lobby, ``/t/{table_id}`` a table, ``/join/{table_id}.{code}`` an
invitation (the join page asks for a name, then opens ``/t/{table_id}?code={code}``),
``/lang/{code}`` the language switch (sets the ``dineri_lang`` cookie and goes
back to ``next``), ``/replay`` the visual replay of a match record (and ``POST /api/replay``,
:mod:`dineri.web.replay`). Pages are rendered in the negotiated language
(:func:`dineri.web.i18n.negotiate`) with the catalogue for the scripts inlined.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles

from dineri.accounts.quick import offered
from dineri.games import game_names
from dineri.store import repo
from dineri.web import i18n, replay

STATIC_DIR = i18n.PACKAGE_DIR / "static"
STATIC_URL = "/static/"
# Table ids and invitation codes are URL-safe tokens; anything else is not a page.
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_INVITE = re.compile(r"^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64})?$")

#: Where the scripts find the server (REST and WebSocket paths; docs/protocol.md).
ENDPOINTS: dict[str, str] = {
    "me": "/api/players/me",
    "players": "/api/players",
    "tables": "/api/tables",
    "table": "/api/tables/{id}",
    "invite": "/api/invites/{code}",
    "lobby_ws": "/ws/lobby",
    "table_ws": "/ws/tables/{id}",
}


def page_games() -> list[str]:
    """The games with a table page (``templates/games/<game>.html``; ``_*.html`` are partials), sorted."""
    return sorted(p.stem for p in (i18n.TEMPLATES_DIR / "games").glob("*.html") if not p.stem.startswith("_"))


def page_game(game: str | None) -> str:
    """The game whose table page (``templates/games/<game>.html`` and ``js/games/<game>.js``)
    shows a table of *game*: that game when its page exists, else Chkobba's."""
    if game and _TOKEN.match(game) and game in page_games():
        return game
    return "chkobba"


async def _game_of(request: Request, table_id: str) -> str | None:
    """The game of table *table_id* (``None`` when there is no such table or no server): from
    the loaded session, else one read of the table's row (never loads the table)."""
    services = getattr(request.app.state, "services", None)
    if services is None:
        return None
    sess = services.tables.sessions.get(table_id)
    if sess is not None:
        return str(sess.game_name)

    def read() -> str | None:
        with services.sm() as s:
            t = repo.get_table(s, table_id)
            return None if t is None else str(t.game)

    return await asyncio.to_thread(read)


def _safe_next(value: str | None) -> str:
    """A local path to go back to (``/…`` but never ``//host``); else ``/``."""
    if value and value.startswith("/") and not value.startswith("//") and "\\" not in value:
        return value
    return "/"


def render(request: Request, template: str, status_code: int = 200, **extra: Any) -> HTMLResponse:
    """Render *template* in the request's language; *extra* goes to the template
    and its ``page`` entries to the scripts' config."""
    lang = i18n.negotiate(request.cookies.get(i18n.COOKIE), request.headers.get("accept-language"))
    config = {"lang": lang, "static": STATIC_URL, "endpoints": ENDPOINTS, **extra.pop("page", {})}
    next_path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    html = i18n.environment(lang).get_template(template).render(
        lang=lang,
        dir=i18n.direction(lang),
        languages=i18n.LANGUAGES,
        catalogue=i18n.js_catalogue(lang),
        config=config,
        static=STATIC_URL,
        next=next_path,
        **extra,
    )
    response = HTMLResponse(html, status_code=status_code)
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


def mount_web(app: FastAPI, settings: Any = None) -> None:
    """Mount ``/static`` and add the page routes ``/``, ``/t/{table_id}``, ``/join/{code}``,
    ``/replay``, ``/lang/{code}`` and ``/favicon.ico`` (a redirect to the SVG icon) and the
    replay endpoint ``POST /api/replay`` to *app*.

    *settings* is the server's settings object: the table page gets its ``grace_seconds`` (a
    dropped seat's grace before its side forfeits, R33), so a page whose own socket is down can
    count down to that forfeit while the server cannot tell it. Call once per app.
    """
    grace = getattr(settings, "grace_seconds", None)
    app.mount(STATIC_URL.rstrip("/"), StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(replay.router)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home(request: Request) -> HTMLResponse:
        games = game_names()
        return render(request, "home.html", games=games, queues=offered(games))

    @app.get("/t/{table_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table_page(request: Request, table_id: str) -> HTMLResponse:
        if not _TOKEN.match(table_id):
            return render(request, "not_found.html", status_code=404)
        game = page_game(await _game_of(request, table_id))
        return render(request, f"games/{game}.html", game=game,
                      page={"table_id": table_id, "game": game, "grace_seconds": grace})

    @app.get("/replay", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(request: Request, match: str | None = None,
                          played: str | None = None) -> HTMLResponse:
        # A stored match: ``match`` an admin's (from the admin API, admin cookie), ``played`` a
        # finished match of the player pages (``/api/matches/{id}/record``, its own access rules).
        def number(v: str | None) -> str | None:
            return v if v and v.isascii() and v.isdigit() and len(v) <= 12 else None
        return render(request, "replay.html", games=page_games(),
                      page={"replay": replay.PATH, "match": number(match), "played": number(played)})

    @app.get("/join/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def join_page(request: Request, code: str) -> HTMLResponse:
        if not _INVITE.match(code):
            return render(request, "not_found.html", status_code=404)
        return render(request, "join.html", page={"invite": code})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> RedirectResponse:
        # Browsers and tools ask for /favicon.ico without reading the page's <link rel="icon">.
        return RedirectResponse(STATIC_URL + "favicon.svg", status_code=301)

    @app.get("/lang/{code}", include_in_schema=False)
    async def set_language(request: Request, code: str, next: str | None = None) -> RedirectResponse:
        response = RedirectResponse(_safe_next(next), status_code=303)
        if code in i18n.LANGUAGES:  # Secure over HTTPS, as every cookie of the site
            response.set_cookie(i18n.COOKIE, code, max_age=i18n.COOKIE_MAX_AGE, samesite="lax",
                                secure=request.url.scheme == "https")
        return response
