"""The admin router (issue 3 item 7, issue 4 item 3): ``/admin`` pages and ``/admin/api`` JSON.

Pages (browser; a signed cookie after ``/admin/login``, else a redirect to the login form):
``GET /admin`` (the match list, filters ``player``, ``from``, ``to``, ``status``, ``page``),
``GET /admin/matches/{id}`` (players, options, rounds, result, the full action log),
``GET /admin/matches/{id}/record`` (download the complete ``dineri-match/1`` record),
``GET /admin/matches/{id}/raw`` (download every stored text of the match as stored, unparsed:
what a quarantined match's analysis starts from, issue 7 item 1),
``GET /admin/matches/{id}/replay?step=i`` (the replay viewer: every hand, table, piles, scores).
JSON (``Authorization: Bearer <DINERI_ADMIN_TOKEN>``, or the cookie; else ``401``):
``GET /admin/api/matches``, ``GET /admin/api/matches/{id}``, ``GET /admin/api/matches/{id}/record``,
``GET /admin/api/matches/{id}/raw``,
``GET /admin/api/matches/{id}/replay/{step}``; ``POST /admin/api/players/{id}/revoke`` (revoke
every token of a player). Failed logins (form or bearer) are limited per client address
(:class:`dineri.admin.auth.LoginLimit`: ``429`` with ``Retry-After``).

With no admin token set, :func:`admin_router` returns an empty router: every admin path is 404.
Database calls are synchronous, so the endpoints are plain functions (run in the thread pool).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlencode

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from dineri.admin import i18n
from dineri.admin.auth import COOKIE, COOKIE_MAX_AGE, AdminAuth, LoginLimit
from dineri.admin.queries import STATUSES, MatchFilter, get_match, list_matches, raw_match
from dineri.admin.replay import ReplayError, action_log, final_state, game_match_view, game_of, step
from dineri.server import revocation
from dineri.store import repo

log = logging.getLogger("dineri.admin")
Json = dict[str, Any]
SessionFactory = Callable[[], Session]


def _render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    lang = i18n.negotiate(request.cookies.get(i18n.LANG_COOKIE), request.headers.get("accept-language"))
    env = i18n.environment(lang)
    html = env.get_template(f"admin/{template}").render(
        lang=lang, dir=i18n.direction(lang), languages=i18n.LANGUAGES,
        next=request.url.path + (f"?{request.url.query}" if request.url.query else ""), **context)
    resp = HTMLResponse(html, status_code=status)
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["X-Frame-Options"] = "DENY"
    resp.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'")
    return resp


def _record_response(match_id: int, record: Json) -> Response:
    body = json.dumps(record, ensure_ascii=False, indent=1)
    return Response(body, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="dineri-match-{match_id}.json"',
        "Cache-Control": "no-store"})


def _unreadable(match_id: int) -> HTTPException:
    return HTTPException(409, {"code": "unreadable", "message": (
        f"match {match_id}'s stored record does not parse (see its problems); "
        f"its stored text: /admin/api/matches/{match_id}/raw")})


def admin_router(settings: Any, sessions: SessionFactory) -> APIRouter:
    """The admin routes for ``settings.admin_token`` (empty router when unset), reading the store
    through ``sessions`` (a SQLAlchemy ``sessionmaker``). Signs cookies with the server's secret."""
    router = APIRouter(prefix="/admin", include_in_schema=False)
    token = getattr(settings, "admin_token", None)
    if not token:
        return router
    auth = AdminAuth(token, settings.resolved_secret())
    limit = LoginLimit()  # failed logins per client address: 429 beyond MAX_FAILURES a minute

    def address(request: Request) -> str:
        return request.client.host if request.client else "?"

    def check_limit(request: Request) -> None:
        wait = limit.retry_after(address(request))
        if wait is not None:
            raise HTTPException(429, {"code": "rate_limited",
                                      "message": f"too many failed admin logins: try again in {wait} s"},
                                headers={"Retry-After": str(wait)})

    def bearer(request: Request) -> bool:
        return request.headers.get("authorization", "").lower().startswith("bearer ")

    def guarded(request: Request) -> bool:
        """Whether the request is an admin's; a wrong bearer token counts as a failed login."""
        if bearer(request):
            check_limit(request)
        if auth.request_ok(request):
            return True
        if bearer(request):
            limit.failed(address(request))
        return False

    def page_guard(request: Request) -> RedirectResponse | None:
        if guarded(request):
            return None
        return RedirectResponse("/admin/login", status_code=303)

    def api_guard(request: Request) -> None:
        if not guarded(request):
            raise HTTPException(401, {"code": "unauthorized", "message": "admin token needed"},
                                headers={"WWW-Authenticate": "Bearer"})

    def found(match_id: int) -> tuple[Json, Json | None]:
        """The match's item and its record (``None``: the stored text does not parse)."""
        if not 1 <= match_id < 2**63:  # beyond a SQL integer: no such match (never an overflow)
            raise HTTPException(404, {"code": "not_found", "message": f"no match {match_id}"})
        with sessions() as s:
            got = get_match(s, match_id)
        if got is None:
            raise HTTPException(404, {"code": "not_found", "message": f"no match {match_id}"})
        return got

    def load(match_id: int) -> tuple[Json, Json]:
        """The match's item and record; ``409 unreadable`` when its stored text does not parse."""
        item, record = found(match_id)
        if record is None:
            raise _unreadable(match_id)
        return item, record

    def raw(match_id: int) -> Response:
        if not 1 <= match_id < 2**63:
            raise HTTPException(404, {"code": "not_found", "message": f"no match {match_id}"})
        with sessions() as s:
            doc = raw_match(s, match_id)
        if doc is None:
            raise HTTPException(404, {"code": "not_found", "message": f"no match {match_id}"})
        body = json.dumps(doc, ensure_ascii=False, indent=1)
        return Response(body, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="dineri-match-{match_id}-stored.json"',
            "Cache-Control": "no-store"})

    def filters(request: Request) -> MatchFilter:
        q = request.query_params
        try:
            return MatchFilter.parse(q.get("player"), q.get("from"), q.get("to"), q.get("status"),
                                     q.get("page"))
        except ValueError as e:
            raise HTTPException(422, {"code": "malformed", "message": str(e)}) from None

    @router.get("/login")
    def login_form(request: Request) -> Response:
        return _render(request, "login.html", error=False)

    @router.post("/login")
    async def login(request: Request) -> Response:
        check_limit(request)
        body = (await request.body())[:4096].decode("utf-8", "replace")
        given = (parse_qs(body).get("token") or [""])[0]
        if not auth.token_ok(given):
            limit.failed(address(request))
            return _render(request, "login.html", status=401, error=True)
        resp = RedirectResponse("/admin", status_code=303)
        resp.set_cookie(COOKIE, auth.cookie_value(), max_age=COOKIE_MAX_AGE, httponly=True,
                        samesite="strict", path="/admin", secure=request.url.scheme == "https")
        return resp

    @router.post("/logout")
    def logout() -> Response:
        resp = RedirectResponse("/admin/login", status_code=303)
        resp.delete_cookie(COOKIE, path="/admin")
        return resp

    @router.get("")
    def match_list(request: Request) -> Response:
        if (redirect := page_guard(request)) is not None:
            return redirect
        q = request.query_params
        try:
            f = MatchFilter.parse(q.get("player"), q.get("from"), q.get("to"), q.get("status"), q.get("page"))
            problem = None
        except ValueError as e:
            f, problem = MatchFilter(), str(e)
        with sessions() as s:
            items, more = list_matches(s, f)
        base = {k: v for k, v in q.items() if k != "page" and v}
        return _render(request, "matches.html", status=422 if problem else 200, matches=items, more=more,
                       problem=problem, statuses=STATUSES, q=q, page=f.page,
                       prev_url=f"/admin?{urlencode({**base, 'page': f.page - 1})}" if f.page > 1 else None,
                       next_url=f"/admin?{urlencode({**base, 'page': f.page + 1})}" if more else None)

    @router.get("/matches/{match_id}")
    def match_detail(request: Request, match_id: int) -> Response:
        if (redirect := page_guard(request)) is not None:
            return redirect
        item, maybe = found(match_id)
        if maybe is None:  # quarantined: what is known, and the stored text to download
            return _render(request, "match_unreadable.html", match=item)
        record = maybe
        game = game_of(record)
        try:
            if game == "chkobba":
                log, state = action_log(record), final_state(record)
            else:  # Seven Diamonds, golf4: their own records and replay steps
                log, state = game_match_view(record)
        except ReplayError as e:
            log, state = [], {"ok": False, "error": {"index": None, "code": "malformed", "message": str(e)}}
        template = "match.html" if game == "chkobba" else "match_game.html"
        return _render(request, template, match=item, record=record, log=log, state=state, game=game)

    @router.get("/matches/{match_id}/record")
    def match_record(request: Request, match_id: int) -> Response:
        if (redirect := page_guard(request)) is not None:
            return redirect
        return _record_response(match_id, load(match_id)[1])

    @router.get("/matches/{match_id}/raw")
    def match_raw(request: Request, match_id: int) -> Response:
        if (redirect := page_guard(request)) is not None:
            return redirect
        return raw(match_id)

    @router.get("/matches/{match_id}/replay")
    def replay_viewer(request: Request, match_id: int) -> Response:
        if (redirect := page_guard(request)) is not None:
            return redirect
        item, record = load(match_id)
        if game_of(record) != "chkobba":  # the text viewer is Chkobba's; the visual replay draws any game
            return RedirectResponse(f"/replay?match={match_id}", status_code=303)
        raw = request.query_params.get("step")
        total = len(record.get("actions") or [])
        if raw and not (len(raw) <= 9 and raw.isascii() and raw.isdigit() and int(raw) <= total):
            raise HTTPException(422, {"code": "malformed",
                                      "message": f"step must be a whole number from 0 to {total}"})
        try:
            shown = step(record, int(raw) if raw else total)
        except ReplayError as e:
            raise HTTPException(404, {"code": "not_found", "message": str(e)}) from None
        return _render(request, "replay.html", match=item, players=record.get("players") or [],
                       shown=shown, state=shown["state"], last=total)

    @router.get("/api/matches")
    def api_list(request: Request) -> Json:
        api_guard(request)
        f = filters(request)
        with sessions() as s:
            items, more = list_matches(s, f)
        return {"matches": items, "page": f.page, "more": more}

    @router.get("/api/matches/{match_id}")
    def api_detail(request: Request, match_id: int) -> Json:
        api_guard(request)
        item, maybe = found(match_id)
        if maybe is None:  # the record does not parse: what is known, and where its text is
            return {**item, "first_dealer": None, "rounds": [], "final": None, "log": [],
                    "raw": f"/admin/api/matches/{match_id}/raw"}
        record = maybe
        try:
            if game_of(record) == "chkobba":
                log, state = action_log(record), final_state(record)
            else:
                log, state = game_match_view(record)
        except ReplayError as e:  # parses, but is not a record: shown as what is wrong, not a 500
            problems = [*item["problems"], {"where": "record", "at": None, "message": str(e)}]
            return {**item, "problems": problems, "first_dealer": None, "rounds": [], "final": None,
                    "log": [], "raw": f"/admin/api/matches/{match_id}/raw"}
        return {**item, "options": record.get("options"), "first_dealer": record.get("first_dealer"),
                "rounds": state["rounds"], "final": state, "log": log}

    @router.get("/api/matches/{match_id}/record")
    def api_record(request: Request, match_id: int) -> Response:
        api_guard(request)
        return _record_response(match_id, load(match_id)[1])

    @router.get("/api/matches/{match_id}/raw")
    def api_raw(request: Request, match_id: int) -> Response:
        api_guard(request)
        return raw(match_id)

    @router.post("/api/players/{player_id}/revoke")
    async def api_revoke(request: Request, player_id: str) -> Json:
        """Revoke every token of ``player_id`` (bumps its token version; ``404`` without such a
        player) and close the player's open sockets on every process (4401, through the
        fan-out: dineri/server/revocation.py). The CLI does the same: ``dineri revoke-tokens``."""
        api_guard(request)

        def revoke() -> int | None:
            with sessions() as s, s.begin():
                return repo.revoke_tokens(s, player_id[:64])
        version = await asyncio.to_thread(revoke)
        if version is None:
            raise HTTPException(404, {"code": "not_found", "message": "no such player"})
        services = getattr(request.app.state, "services", None)
        if services is not None:
            try:
                await revocation.announce(services.tables.fanout, player_id[:64], version)
            except Exception as e:  # stored all the same: new requests and sockets are refused
                log.warning("revocation not announced to open sockets", extra={"error": repr(e)})
        return {"player": player_id, "token_version": version}

    @router.get("/api/matches/{match_id}/replay/{step_no}")
    def api_step(request: Request, match_id: int, step_no: int) -> Response:
        api_guard(request)
        _, record = load(match_id)
        try:
            return JSONResponse(step(record, step_no))
        except ReplayError as e:
            raise HTTPException(404, {"code": "not_found", "message": str(e)}) from None

    return router
