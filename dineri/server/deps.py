"""FastAPI dependencies: the app's services and the current player (issue 7, item 11: tokens
expire, are renewed past half their life, and are revoked by the player's token version)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Response
from sqlalchemy.orm import Session, sessionmaker

from dineri.server.auth import COOKIE, TokenClaims, Tokens
from dineri.server.ratelimit import Window
from dineri.server.revocation import SocketTokens
from dineri.server.service import TableService
from dineri.server.shared import SharedCounters
from dineri.settings import Settings
from dineri.store import repo


@dataclass
class Services:
    """Everything the routers need, built once by ``create_app``."""

    settings: Settings
    sm: sessionmaker[Session]
    tokens: Tokens
    tables: TableService
    bot_launcher: Callable[..., Awaitable[None]] | None = None  # (session, seat, level=None, like=None)
    guests: Window | None = None  # new players per client address (settings.guests_per_minute)
    shared: SharedCounters | None = None  # site-wide counters in Redis (issue 9 item 3), if any
    socket_tokens: SocketTokens = field(default_factory=SocketTokens)  # open sockets' tokens (revocation)


@dataclass
class CurrentPlayer:
    """The authenticated player."""

    id: str
    name: str


def get_services(request: Request) -> Services:
    """The app's :class:`Services`."""
    services: Services = request.app.state.services
    return services


def token_from(headers_auth: str | None, cookie: str | None, query: str | None = None) -> str | None:
    """The token from ``Authorization: Bearer``, the cookie or the ``token`` query parameter."""
    if headers_auth and headers_auth.lower().startswith("bearer "):
        return headers_auth[7:].strip()
    return cookie or query


#: The response header carrying a renewed token (bearer clients keep it; pages get the cookie).
RENEWED_HEADER = "X-Dineri-Token"


def authenticate_sync(services: Services, token: str | None) -> tuple[CurrentPlayer, TokenClaims] | None:
    """The player of ``token`` and its claims, or ``None`` for a token that is missing, forged,
    expired, of a player that does not exist, or revoked (its version is not the player's
    stored ``token_version``). Reads the database: call it off the event loop."""
    claims = services.tokens.check(token)
    if claims is None:
        return None
    with services.sm() as s:
        p = repo.get_player(s, claims.player_id)
        if p is None or p.token_version != claims.version:
            return None
        return CurrentPlayer(p.id, p.name), claims


async def authenticate(services: Services, token: str | None) -> tuple[CurrentPlayer, TokenClaims] | None:
    """:func:`authenticate_sync` on a worker thread (the event loop never waits on the database)."""
    if not token:
        return None
    return await asyncio.to_thread(authenticate_sync, services, token)


def set_token_cookie(response: Response, request: Request, token: str, lifetime: float) -> None:
    """Set the httponly ``dineri_token`` cookie: ``SameSite=Lax``, ``Max-Age`` the token lifetime,
    ``Secure`` when the request came over HTTPS (directly, or through a trusted proxy's
    ``X-Forwarded-Proto``: ``DINERI_FORWARDED_ALLOW_IPS``)."""
    response.set_cookie(COOKIE, token, httponly=True, samesite="lax", max_age=int(lifetime),
                        secure=request.url.scheme == "https")


async def _player(request: Request, response: Response, services: Services) -> CurrentPlayer | None:
    header = request.headers.get("authorization")
    cookie = request.cookies.get(COOKIE)
    token = token_from(header, cookie)
    found = await authenticate(services, token)
    if found is None:
        return None
    player, claims = found
    if services.tokens.due_for_renewal(claims):
        fresh = services.tokens.make(claims.player_id, claims.version)
        response.headers[RENEWED_HEADER] = fresh
        if token == cookie:
            set_token_cookie(response, request, fresh, services.tokens.lifetime)
    return player


async def optional_player(request: Request, response: Response,
                          services: Annotated[Services, Depends(get_services)]) -> CurrentPlayer | None:
    """The player of the request's token, or ``None`` (a renewed token rides on the answer)."""
    return await _player(request, response, services)


async def require_player(request: Request, response: Response,
                         services: Annotated[Services, Depends(get_services)]) -> CurrentPlayer:
    """The player of the request's token; ``401 unauthenticated`` without a valid one (missing,
    forged, expired or revoked: all the same answer)."""
    p = await _player(request, response, services)
    if p is None:
        raise HTTPException(401, {"code": "unauthenticated", "message": "create a player first"})
    return p


ServicesDep = Annotated[Services, Depends(get_services)]
PlayerDep = Annotated[CurrentPlayer, Depends(require_player)]
MaybePlayerDep = Annotated[CurrentPlayer | None, Depends(optional_player)]
