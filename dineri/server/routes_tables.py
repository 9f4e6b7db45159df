"""``/api/tables``: create, list (lobby), get, seats, start, record (issue 3, item 3)."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from dineri.server.deps import MaybePlayerDep, PlayerDep, ServicesDep
from dineri.server.session import Refused, TableSession
from dineri.store import repo

router = APIRouter(prefix="/api/tables", tags=["tables"])


class _Body(BaseModel):
    # A request body is exactly its model: no unknown keys, strict JSON types ("yes" is not true).
    model_config = ConfigDict(extra="forbid", strict=True)


class NewTable(_Body):
    """A new table: game options, privacy, turn clock (seconds, 0 = off)."""

    game: str = "chkobba"
    options: dict[str, Any] = Field(default_factory=lambda: {"seats": 2, "target": 11, "best_of": 1},
                                    examples=[{"seats": 2, "target": 11, "best_of": 1}])
    public: bool = True
    clock: Literal[0, 15, 30, 60] = 0


class SeatRequest(_Body):
    """Take ``seat``, or a free seat of ``side`` (2v2), or the first free seat; ``code`` for a
    private table."""

    seat: int | None = None
    side: int | None = None
    code: str | None = None


class StartRequest(_Body):
    """Start the match. ``first_dealer`` and ``decks`` (lists of 40 card codes) only on a testing server."""

    first_dealer: int | None = None
    decks: list[list[str]] | None = None


class BotRequest(_Body):
    """Seat a computer opponent in ``seat``, playing at ``level`` (default: the server's, greedy)."""

    seat: int
    level: Literal["easy", "medium", "hard", "greedy", "random"] | None = None


def _refused(e: Refused) -> HTTPException:
    return HTTPException(e.status, {"code": e.code, "message": e.message})


async def _session(services: ServicesDep, table_id: str) -> TableSession:
    sess = await services.tables.session(table_id)
    if sess is None:
        raise HTTPException(404, {"code": "not_found", "message": "no such table"})
    return await sess.fresh()


def _hide_from_strangers(sess: TableSession, player_id: str) -> None:
    """A private table does not exist for a stranger (not seated, not the host): ``404
    not_found``, as ``GET`` answers, rather than a refusal that would reveal it."""
    if not sess.public and player_id != sess.host_id and sess.seat_of(player_id) is None:
        raise HTTPException(404, {"code": "not_found", "message": "no such table"})


def _visible(sess: TableSession, player_id: str | None, code: str | None) -> dict[str, Any]:
    seated = sess.seat_of(player_id) is not None
    is_host = player_id == sess.host_id
    if not sess.public and not (seated or is_host or code == sess.code):
        raise HTTPException(404, {"code": "not_found", "message": "no such table"})
    return sess.info(with_code=is_host)


@router.post("", status_code=201)
async def create_table(body: NewTable, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """Create a table hosted by the caller (the host takes a seat like anybody else)."""
    try:
        sess = await services.tables.create_table(player.id, body.game, body.options, body.public, body.clock)
    except Refused as e:
        raise _refused(e) from None
    return sess.info(with_code=True)


@router.get("")
async def lobby(services: ServicesDep) -> list[dict[str, Any]]:
    """The lobby: open public tables."""
    return await services.tables.lobby()


@router.get("/{table_id}")
async def get_table(table_id: str, services: ServicesDep, player: MaybePlayerDep,
                    code: str | None = None) -> dict[str, Any]:
    """A table (a private one only with its code, or for its host and seated players)."""
    sess = await _session(services, table_id)
    return _visible(sess, player.id if player else None, code)


@router.post("/{table_id}/seats")
async def take_seat(table_id: str, body: SeatRequest, player: PlayerDep, services: ServicesDep
                    ) -> dict[str, Any]:
    """Take a seat before the start."""
    sess = await _session(services, table_id)
    try:
        await sess.take_seat(player.id, body.seat, body.side, body.code)
    except Refused as e:
        raise _refused(e) from None
    return sess.info(with_code=player.id == sess.host_id)


@router.delete("/{table_id}/seats/me")
async def leave_seat(table_id: str, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """Leave your seat before the start."""
    sess = await _session(services, table_id)
    try:
        await sess.free_seat(player.id, None)
    except Refused as e:
        raise _refused(e) from None
    return sess.info(with_code=player.id == sess.host_id)


@router.delete("/{table_id}/seats/{seat}")
async def remove_player(table_id: str, seat: int, player: PlayerDep, services: ServicesDep
                        ) -> dict[str, Any]:
    """The host removes the player of ``seat`` before the start."""
    sess = await _session(services, table_id)
    _hide_from_strangers(sess, player.id)
    try:
        await sess.free_seat(player.id, seat)
    except Refused as e:
        raise _refused(e) from None
    return sess.info(with_code=True)


@router.post("/{table_id}/bots")
async def seat_bot(table_id: str, body: BotRequest, player: PlayerDep, services: ServicesDep
                   ) -> dict[str, Any]:
    """Seat a computer opponent (hook: ``app.state.bot_launcher(app, table, seat)`` once ``dineri bot``
    provides one; ``501`` until then)."""
    sess = await _session(services, table_id)
    _hide_from_strangers(sess, player.id)
    if player.id != sess.host_id:
        raise HTTPException(403, {"code": "not_host", "message": "only the host may seat a computer"})
    launcher = services.bot_launcher
    if launcher is None:
        raise HTTPException(501, {"code": "not_available", "message": "computer opponents are not available"})
    try:
        await launcher(sess, body.seat, body.level)
    except Refused as e:
        raise _refused(e) from None
    return sess.info(with_code=True)


@router.post("/{table_id}/start")
async def start(table_id: str, body: StartRequest, player: PlayerDep, services: ServicesDep
                ) -> dict[str, Any]:
    """The host starts the match when every seat is taken."""
    sess = await _session(services, table_id)
    _hide_from_strangers(sess, player.id)
    if (body.decks is not None or body.first_dealer is not None) and not services.settings.testing:
        raise HTTPException(403, {"code": "testing_only",
                                  "message": "deck orders may be supplied only on a testing server"})
    try:
        await sess.start(player.id, body.first_dealer, body.decks)
    except Refused as e:
        raise _refused(e) from None
    await services.tables.resume_bots(sess)  # computer seats play, however the table was loaded
    return sess.info(with_code=player.id == sess.host_id)


@router.post("/{table_id}/rematch")
async def rematch(table_id: str, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """A player of the finished table asks for a rematch: the rematch table is created once (same
    options; host: the first to ask; its computer players seated again), every asking player is
    seated there on their side, and the finished table's info carries ``rematch`` (pushed to its
    sockets with a ``rematch`` event). Answers the rematch table, with its ``code``."""
    old = await _session(services, table_id)
    _hide_from_strangers(old, player.id)
    try:
        new, created = await services.tables.rematch(table_id, player.id)
        if created and services.bot_launcher is not None:
            for seat, row in sorted(old.seat_rows.items()):
                if row.is_bot and seat not in new.seat_rows:
                    await services.bot_launcher(new, seat, like=row.name)  # the same level
    except Refused as e:
        raise _refused(e) from None
    # Every player of the finished table gets the rematch table's code: a private rematch table
    # stays reachable for them after leaving its seat (the page keeps the code in its URL).
    return new.info(with_code=True)


@router.get("/{table_id}/record")
async def record(table_id: str, player: PlayerDep, services: ServicesDep) -> JSONResponse:
    """The full ``dineri-match/1`` record, for the table's players once the match is over."""
    sess = await _session(services, table_id)
    _hide_from_strangers(sess, player.id)
    if sess.seat_of(player.id) is None:
        raise HTTPException(403, {"code": "forbidden", "message": "only the table's players"})
    if sess.match is None or not sess.match.over or sess.match_id is None:
        raise HTTPException(409, {"code": "not_over", "message": "the record is available after the match"})
    match_id = sess.match_id

    def read() -> str | None:
        with services.sm() as s:
            m = repo.current_match(s, table_id)
            return m.record if m is not None and m.id == match_id else None
    text = await asyncio.to_thread(read)
    if text is None:
        raise HTTPException(404, {"code": "not_found", "message": "no record"})
    return JSONResponse(json.loads(text), headers={
        "Content-Disposition": f'attachment; filename="dineri-{table_id}.json"'})
