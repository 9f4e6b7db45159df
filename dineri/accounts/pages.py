"""Pages of the accounts (issue 14): ``/account`` (claim, sign in and out, password, privacy,
deletion), ``/p/{name}`` (a player's page), ``/ratings`` (leaderboards), ``/play`` (quick match),
``/watch`` (games to watch), ``/matches/{id}`` (a finished match's replay) and
``/api/matches/{id}/record`` (its record).

A finished match's record and replay are open to anybody for a public table (the decks were
revealed at its end, R7) and to its players only for a private one; the names in it are the
players' current ones (:func:`shown_record`).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from dineri.accounts import store as accounts
from dineri.accounts.names import name_key
from dineri.accounts.profile import profile
from dineri.accounts.quick import offered
from dineri.accounts.security import csrf_token, set_csrf
from dineri.games import GameError, game_names, get_game
from dineri.ratings.glicko2 import Glicko
from dineri.ratings.modes import MODES
from dineri.server.auth import COOKIE
from dineri.server.deps import Services, authenticate, token_from
from dineri.store.models import Match, Player, Seat, Table
from dineri.web.pages import render


def _page(request: Request, template: str, status_code: int = 200, **extra: Any) -> HTMLResponse:
    token = csrf_token(request)
    page = {"csrf": token, **extra.pop("page", {})}
    response = render(request, template, status_code=status_code, page=page, **extra)
    set_csrf(response, token, request)
    return response


def finished_match(s: Session, match_id: int, viewer_id: str | None) -> tuple[Match, Table] | None:
    """A finished match the viewer may see (public table, or a private one the viewer played)."""
    if not 1 <= match_id < 2**63:  # beyond a SQL integer: no such match (never an overflow, a 500)
        return None
    m = s.get(Match, match_id)
    if m is None or m.status != "over":
        return None
    t = s.get(Table, m.table_id)
    if t is None:
        return None
    if not t.public:
        seated = set(s.execute(select(Seat.player_id).where(Seat.table_id == t.id)).scalars())
        if viewer_id not in seated:
            return None
    return m, t


def shown_record(s: Session, match: Match) -> dict[str, Any]:
    """The record of a finished match as the pages serve it: its ``players`` are the seats'
    current names, so a deleted account shows as "deleted player" and an admin's rename holds
    (the names are not part of the fairness commitments; everything else is as stored)."""
    record: dict[str, Any] = json.loads(match.record)
    names = dict(s.execute(select(Seat.seat, Player.name).join(Player, Player.id == Seat.player_id)
                           .where(Seat.table_id == match.table_id)).all())
    players = record.get("players")
    if isinstance(players, list):
        record["players"] = [names.get(i, name) for i, name in enumerate(players)]
    return record


def mount_pages(app: FastAPI, services: Services) -> None:
    """Add the accounts' pages to ``app``."""

    async def viewer(request: Request) -> str | None:
        token = token_from(request.headers.get("authorization"), request.cookies.get(COOKIE))
        found = await authenticate(services, token)  # off the loop; expired or revoked: nobody
        return found[0].id if found else None

    async def read(fn: Any) -> Any:
        def run() -> Any:
            with services.sm() as s:
                return fn(s)
        return await asyncio.to_thread(run)

    @app.get("/account", response_class=HTMLResponse, include_in_schema=False)
    async def account_page(request: Request) -> HTMLResponse:
        return _page(request, "accounts/account.html")

    @app.get("/p/{name}", response_class=HTMLResponse, include_in_schema=False)
    async def player_page(request: Request, name: str) -> Response:
        if len(name) > 64:
            return _page(request, "not_found.html", status_code=404)
        who = await viewer(request)
        data = await read(lambda s: profile(s, name, who))
        if data is None:
            return _page(request, "accounts/no_player.html", status_code=404)
        if data["username"] != name and name_key(data["username"]) == name_key(name):
            return RedirectResponse(f"/p/{data['username']}", status_code=301)
        return _page(request, "accounts/player.html", player=data, modes=MODES,
                     page={"player": data["id"], "username": data["username"], "self": data["self"]})

    @app.get("/ratings", response_class=HTMLResponse, include_in_schema=False)
    async def ratings_page(request: Request, mode: str = "chkobba-1v1") -> HTMLResponse:
        if mode not in MODES:
            mode = "chkobba-1v1"

        def rows(s: Session) -> list[dict[str, Any]]:
            return [{"username": a.username, "rating": round(r.rating), "rd": round(r.rd),
                     "provisional": Glicko(r.rating, r.rd).provisional, "games": r.games}
                    for a, r in accounts.leaderboard(s, mode)]
        return _page(request, "accounts/ratings.html", mode=mode, modes=MODES, rows=await read(rows))

    @app.get("/play", response_class=HTMLResponse, include_in_schema=False)
    async def play_page(request: Request) -> HTMLResponse:
        return _page(request, "accounts/play.html", queues=offered(game_names()))

    @app.get("/watch", response_class=HTMLResponse, include_in_schema=False)
    async def watch_page(request: Request) -> HTMLResponse:
        return _page(request, "accounts/watch.html")

    @app.get("/matches/{match_id}", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(request: Request, match_id: int) -> HTMLResponse:
        who = await viewer(request)  # the token check reads the database (off the loop)

        def load(s: Session) -> tuple[dict[str, Any], str, bool] | None:
            found = finished_match(s, match_id, who)
            return (shown_record(s, found[0]), found[1].game, found[1].public) if found else None
        found = await read(load)
        if found is None:
            return _page(request, "accounts/no_player.html", status_code=404)
        record, game, _public = found
        try:
            steps = get_game(game).replay_steps(record)
        except (GameError, KeyError):
            steps = []
        # The game's page module words each step (a registered game only: its script's path).
        module = game if game in game_names() else None
        players = record.get("players") or []
        return _page(request, "accounts/replay.html", match_id=match_id, players=players, module=module,
                     page={"steps": steps, "players": players, "game": game,
                           "options": record.get("options") or {}})

    @app.get("/api/matches/{match_id}/record", tags=["accounts"])
    async def match_record(request: Request, match_id: int) -> JSONResponse:
        """The ``dineri-match/1`` record of a finished match: anybody's for a public table, its
        players' for a private one (``404 not_found`` otherwise)."""
        who = await viewer(request)  # the token check reads the database (off the loop)
        def load(s: Session) -> dict[str, Any] | None:
            f = finished_match(s, match_id, who)
            return shown_record(s, f[0]) if f else None
        found = await read(load)
        if found is None:
            raise HTTPException(404, {"code": "not_found", "message": "no such finished match"})
        return JSONResponse(found, headers={
            "Content-Disposition": f'attachment; filename="dineri-match-{match_id}.json"'})
