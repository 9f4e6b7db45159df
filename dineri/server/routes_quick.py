"""``/api/quick`` (quick match, issue 14 item 4) and ``/api/watch`` (games to watch, item 5)."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, ConfigDict

from dineri.accounts.matcher import QuickError, QuickMatch, check_key, ticket_json
from dineri.accounts.quick import offered
from dineri.accounts.security import check_csrf
from dineri.accounts.tables import rated_info
from dineri.accounts.watch import Watchers, live_item, playing_public
from dineri.games import game_names
from dineri.server.deps import PlayerDep, ServicesDep
from dineri.server.session import Refused

router = APIRouter(prefix="/api", tags=["quick match"])


def get_quick(request: Request) -> QuickMatch:
    """The app's :class:`QuickMatch`."""
    quick: QuickMatch = request.app.state.quick
    return quick


def get_watchers(request: Request) -> Watchers:
    """The app's :class:`Watchers` (open table sockets)."""
    watchers: Watchers = request.app.state.watchers
    return watchers


QuickDep = Annotated[QuickMatch, Depends(get_quick)]
WatchersDep = Annotated[Watchers, Depends(get_watchers)]
Csrf = Depends(check_csrf)


def _queue_branches(schema: dict[str, Any]) -> None:
    """The OpenAPI schema of :class:`PlayNow` names the offered queues exactly (issue 7 item 7,
    schemathesis ST202: a game, seats or target of no queue was a valid body answered 422): one
    ``anyOf`` branch per game and seats with its targets; ``bot_after`` one of its waits."""
    from dineri.accounts.matcher import BOT_WAITS
    from dineri.accounts.quick import QUEUES, TARGETS

    branches = []
    for game, seats in sorted(QUEUES):
        props: dict[str, Any] = {"game": {"const": game}, "seats": {"const": seats},
                                 "target": {"enum": list(TARGETS[game])}}
        branch: dict[str, Any] = {"properties": props}
        # A key may be left out where its default (chkobba, 2 seats, to 11) fits the queue.
        fits = {"game": game == "chkobba", "seats": seats == 2, "target": 11 in TARGETS[game]}
        required = [k for k in ("game", "seats", "target") if not fits[k]]
        if required:
            branch["required"] = required
        branches.append(branch)
    schema["anyOf"] = branches
    schema["properties"]["bot_after"] = {"anyOf": [{"type": "integer", "enum": [w for w in BOT_WAITS if w]},
                                                   {"type": "null"}], "title": "Bot After"}


class PlayNow(BaseModel):
    """A quick-match request: game, seats and target of one of the offered queues (``GET
    /api/quick/queues``: Chkobba 2 or 4 seats to 11, 21 or 31; Seven Diamonds 4 seats to 500;
    golf4 4 seats, ``target`` its 9 or 18 rounds), and after how many seconds a computer
    opponent is offered (10, 30, 60, 120 or null for never)."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_queue_branches)
    game: str = "chkobba"
    seats: int = 2
    target: int = 11
    bot_after: int | None = None


def _fail(e: QuickError | Refused) -> HTTPException:
    return HTTPException(e.status, {"code": e.code, "message": e.message})


@router.post("/quick", status_code=202, dependencies=[Csrf])
async def play_now(body: PlayNow, player: PlayerDep, quick: QuickDep, request: Request) -> dict[str, Any]:
    """Join the quick-match queue (leaving any queue the player was in); answers the ticket
    (``seated`` at once when a partner was waiting). ``422 malformed``. The client address (the
    forwarded one behind a trusted proxy) is kept while waiting: a table this player hosts keeps
    its keyed hash, as any table does (the lobby's address caps)."""
    try:
        key = check_key(body.game, body.seats, body.target)
        address = request.client.host if request.client else None
        return ticket_json(await quick.join(player.id, key, body.bot_after, address))
    except (QuickError, Refused) as e:
        raise _fail(e) from None


@router.get("/quick/queues")
async def quick_queues() -> dict[str, Any]:
    """The quick-match queues of the registered games: ``{"queues": [{"game", "seats", "mode",
    "targets"}]}``."""
    return {"queues": offered(game_names())}


@router.get("/quick")
async def quick_ticket(player: PlayerDep, quick: QuickDep) -> dict[str, Any]:
    """The player's quick-match ticket (polled by the page every second: each poll also pairs)."""
    return ticket_json(await quick.poll(player.id))


@router.delete("/quick", dependencies=[Csrf])
async def leave_queue(player: PlayerDep, quick: QuickDep) -> dict[str, bool]:
    """Stop waiting."""
    return {"left": await quick.leave(player.id)}


@router.post("/quick/computer", dependencies=[Csrf])
async def against_computer(player: PlayerDep, quick: QuickDep) -> dict[str, Any]:
    """Take the computer opponent offered after the chosen wait: seated at a new started table
    (not rated). ``409 not_waiting``, ``409 too_early``."""
    try:
        return {"status": "seated", "table": await quick.with_computer(player.id)}
    except (QuickError, Refused) as e:
        raise _fail(e) from None


@router.get("/watch", tags=["watch"])
async def watch_list(services: ServicesDep, watchers: WatchersDep) -> dict[str, Any]:
    """Public matches in progress, newest first (50 at most): players (with their rating in the
    table's mode when they have an account), score, spectators. Pages poll it every few seconds."""
    def read() -> tuple[list[str], dict[str, Any]]:
        with services.sm() as s:
            ids = playing_public(s)
            return ids, {i: rated_info(s, i) for i in ids}
    ids, ratings = await asyncio.to_thread(read)
    out = []
    for table_id in ids:
        sess = await services.tables.session(table_id)
        if sess is None or sess.status != "playing" or not sess.public:
            continue
        info = sess.info()
        seated = [s["player_id"] for s in info["seats"] if s.get("player_id")]
        view = sess.match.public_view() if sess.match is not None else None
        out.append(live_item(info, view, watchers.spectators(table_id, seated), ratings.get(table_id)))
    return {"tables": out}


@router.get("/tables/{table_id}/watchers", tags=["watch"])
async def table_watchers(table_id: str, services: ServicesDep, watchers: WatchersDep) -> dict[str, Any]:
    """How many watch a public table now. ``404 not_found`` for no such (or a private) table."""
    sess = await services.tables.session(table_id)
    if sess is None or not sess.public:
        raise HTTPException(404, {"code": "not_found", "message": "no such table"})
    seated = [s["player_id"] for s in sess.info()["seats"] if s.get("player_id")]
    return {"table": table_id, "spectators": watchers.spectators(table_id, seated)}
