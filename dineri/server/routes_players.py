"""``/api/players``: guest identities (issue 3, item 2)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from dineri.accounts.names import NameError_, check_display_name
from dineri.server.addresses import network_of
from dineri.server.auth import MAX_NAME, clean_name, text_pattern
from dineri.server.deps import PlayerDep, ServicesDep, set_token_cookie
from dineri.server.errors import responses
from dineri.store import repo

router = APIRouter(prefix="/api/players", tags=["players"])


def _name_schema(schema: dict[str, Any]) -> None:
    schema.update(minLength=1, maxLength=MAX_NAME, pattern=text_pattern())


class NewPlayer(BaseModel):
    """A display name: 1–24 characters after trimming, no control characters."""

    model_config = ConfigDict(extra="forbid", strict=True)
    # The lengths as the OpenAPI document shows them (issue 7 item 7, schemathesis ST202); the
    # name is trimmed and put in NFC before they are checked, so they are not enforced as sent.
    # The pattern: no control, format, private-use or line separator character. Checked after,
    # beyond what a JSON Schema can state: no unassigned code point, a visible character, no
    # official-looking name, no mix of scripts with look-alike letters.
    name: str = Field(json_schema_extra=_name_schema)


class PlayerOut(BaseModel):
    """A player; ``token`` only when it was just created."""

    id: str
    name: str
    token: str | None = None


@router.post("", status_code=201, response_model=PlayerOut, responses=responses(400, 413, 422, 429))
async def create_player(body: NewPlayer, request: Request, response: Response, services: ServicesDep
                        ) -> PlayerOut:
    """Create a guest identity; sets the httponly cookie (``Secure`` over HTTPS, living the token
    lifetime) and returns the bearer token.
    ``422 malformed`` for a bad name; ``429 rate_limited`` beyond ``guests_per_minute`` new
    players from one client address (an IPv6 /64; guests are free: unlimited ones could flood the lobby)."""
    try:
        name = check_display_name(clean_name(body.name))  # reserved and look-alike names: issue 14
    except NameError_ as e:
        raise HTTPException(422, {"code": e.code, "message": str(e)}) from None
    except ValueError as e:
        raise HTTPException(422, {"code": "malformed", "message": str(e)}) from None
    # Counted per network (an IPv6 /64: one subscriber's block), else a client with a block of
    # addresses would get a fresh limit from each.
    address = network_of(request.client.host if request.client else None)
    if services.guests is not None and not await services.guests.allow(address):
        wait = services.guests.retry_after(address)
        raise HTTPException(429, {"code": "rate_limited",
                                  "message": f"at most {services.guests.limit} new players a minute"},
                            headers={"Retry-After": str(wait)})

    def write() -> tuple[str, int]:
        with services.sm.begin() as s:
            p = repo.create_player(s, name)
            return p.id, p.token_version or 0
    pid, version = await asyncio.to_thread(write)
    token = services.tokens.make(pid, version)
    set_token_cookie(response, request, token, services.tokens.lifetime)
    return PlayerOut(id=pid, name=name, token=token)


@router.get("/me", response_model=PlayerOut, responses=responses(401))
async def me(player: PlayerDep) -> PlayerOut:
    """The player of the token."""
    return PlayerOut(id=player.id, name=player.name)
