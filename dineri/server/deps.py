"""FastAPI dependencies: the app's services and the current player."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from sqlalchemy.orm import Session, sessionmaker

from dineri.server.auth import COOKIE, Tokens
from dineri.server.ratelimit import Window
from dineri.server.service import TableService
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


def _player(request: Request, services: Services) -> CurrentPlayer | None:
    token = token_from(request.headers.get("authorization"), request.cookies.get(COOKIE))
    pid = services.tokens.check(token)
    if pid is None:
        return None
    with services.sm() as s:
        p = repo.get_player(s, pid)
        return CurrentPlayer(p.id, p.name) if p else None


def optional_player(request: Request, services: Annotated[Services, Depends(get_services)]
                    ) -> CurrentPlayer | None:
    """The player of the request's token, or ``None``."""
    return _player(request, services)


def require_player(request: Request, services: Annotated[Services, Depends(get_services)]) -> CurrentPlayer:
    """The player of the request's token; ``401 unauthenticated`` without a valid one."""
    p = _player(request, services)
    if p is None:
        raise HTTPException(401, {"code": "unauthenticated", "message": "create a player first"})
    return p


ServicesDep = Annotated[Services, Depends(get_services)]
PlayerDep = Annotated[CurrentPlayer, Depends(require_player)]
MaybePlayerDep = Annotated[CurrentPlayer | None, Depends(optional_player)]
