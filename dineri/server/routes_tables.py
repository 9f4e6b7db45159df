"""``/api/tables``: create, list (lobby), get, seats, start, record (issue 3, item 3)."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from dineri.games import GameError, get_game
from dineri.server.deps import MaybePlayerDep, PlayerDep, ServicesDep
from dineri.server.errors import responses
from dineri.server.service import LOBBY_MAX_PAGE
from dineri.server.session import Refused, TableSession
from dineri.store import repo

router = APIRouter(prefix="/api/tables", tags=["tables"])


class _Body(BaseModel):
    # A request body is exactly its model: no unknown keys, strict JSON types ("yes" is not true).
    model_config = ConfigDict(extra="forbid", strict=True)


DEFAULT_GAME = "chkobba"
DEFAULT_OPTIONS = {"seats": 2, "target": 11, "best_of": 1}


def _game_branches(schema: dict[str, Any]) -> None:
    """The OpenAPI schema of :class:`NewTable` says what the server accepts (issue 7 item 7,
    schemathesis: valid-looking bodies answered 422): ``game`` one of the games, and one
    ``anyOf`` branch per game with its options exactly (``Game.options_schema``); ``game`` may
    be left out for the default game, ``options`` where the defaults fit the game."""
    from dineri.games import game_names

    names = game_names()
    schema["properties"]["game"]["enum"] = names
    branches = []
    for name in names:
        game = get_game(name)
        required = [] if name == DEFAULT_GAME else ["game"]
        try:
            fits = set(game.check_options(dict(DEFAULT_OPTIONS))) >= set(DEFAULT_OPTIONS)
        except GameError:
            fits = False
        if not fits:
            required.append("options")
        branch: dict[str, Any] = {"properties": {"game": {"const": name}, "options": game.options_schema()}}
        if required:
            branch["required"] = required
        branches.append(branch)
    schema["anyOf"] = branches


class NewTable(_Body):
    """A new table: game options (exactly the game's keys), privacy, turn clock (seconds, 0 = off;
    a JSON integer: ``false`` and ``15.0`` are refused)."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_game_branches)
    game: str = DEFAULT_GAME
    options: dict[str, Any] = Field(default_factory=lambda: dict(DEFAULT_OPTIONS),
                                    examples=[DEFAULT_OPTIONS])
    public: bool = True
    clock: Literal[0, 15, 30, 60] = 0

    @field_validator("clock", mode="before")
    @classmethod
    def _integer_clock(cls, value: object) -> object:
        # Literal compares by equality: False == 0 and 15.0 == 15 would pass without this.
        if type(value) is not int:
            raise ValueError("clock must be a JSON integer: 0, 15, 30 or 60")
        return value


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


def _address(request: Request) -> str:
    """The client's address: the peer, or what a trusted proxy forwarded (``ProxyHeadersMiddleware``
    with ``DINERI_FORWARDED_ALLOW_IPS``; another peer's ``X-Forwarded-For`` is ignored)."""
    return request.client.host if request.client else "?"


def _refused(e: Refused) -> HTTPException:
    return HTTPException(e.status, {"code": e.code, "message": e.message})


async def _session(services: ServicesDep, table_id: str) -> TableSession:
    sess = await services.tables.session(table_id)
    if sess is None:
        raise HTTPException(404, {"code": "not_found", "message": "no such table"})
    return await sess.fresh()


def _knows(sess: TableSession, player_id: str | None, code: str | None = None) -> bool:
    """Whether the table exists for this caller: a public table, or a private one for its host,
    its seated players and whoever has its invitation ``code``."""
    if sess.public:
        return True
    if player_id is not None and (player_id == sess.host_id or sess.seat_of(player_id) is not None):
        return True
    return isinstance(code, str) and secrets.compare_digest(code.encode(), sess.code.encode())


def _hide_from_strangers(sess: TableSession, player_id: str | None, code: str | None = None) -> None:
    """A private table does not exist for a stranger (not seated, not the host, no valid
    ``code``): ``404 not_found``, exactly the answer for a table that does not exist, rather
    than a refusal (``bad_code``, ``not_open``, ``not_seated``…) that would reveal it (issue 7,
    item 9)."""
    if not _knows(sess, player_id, code):
        raise HTTPException(404, {"code": "not_found", "message": "no such table"})


def _visible(sess: TableSession, player_id: str | None, code: str | None) -> dict[str, Any]:
    _hide_from_strangers(sess, player_id, code)
    return sess.info(with_code=player_id == sess.host_id)


def _no_unknown_options(game: str, options: dict[str, Any]) -> None:
    """``422 malformed`` naming a key of ``options`` that the game's normalised options do not
    have (``check_options`` keeps only the keys it knows, so it alone would ignore a typo)."""
    try:
        known = get_game(game).check_options(options)
    except (KeyError, GameError):
        return  # the service refuses these with their own message
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise HTTPException(422, {"code": "malformed",
                                  "message": f"options.{unknown[0]} is not an option of {game}"})


@router.post("", status_code=201, responses=responses(400, 401, 409, 413, 422, 429))
async def create_table(body: NewTable, player: PlayerDep, services: ServicesDep, request: Request
                       ) -> dict[str, Any]:
    """Create a table hosted by the caller (the host takes a seat like anybody else).
    ``422 malformed`` for an unknown game, bad options or a key that is not one of the game's.
    The table keeps a keyed hash of the client address (the forwarded one behind a trusted
    proxy): the lobby lists a few tables per address."""
    _no_unknown_options(body.game, body.options)
    try:
        sess = await services.tables.create_table(player.id, body.game, body.options, body.public, body.clock,
                                                  address=_address(request))
    except Refused as e:
        raise _refused(e) from None
    return sess.info(with_code=True)


@router.get("", responses=responses(422))
async def lobby(services: ServicesDep, response: Response,
                page: Annotated[int, Query(ge=1, le=LOBBY_MAX_PAGE)] = 1) -> list[dict[str, Any]]:
    """The lobby, ``LOBBY_PAGE_SIZE`` (50) open public tables a page: those where somebody other
    than the host sits first, then those whose host is connected now, then the others, newest
    first within each; none whose host has been gone ``DINERI_LOBBY_HOST_AWAY``; at most 2 per host,
    ``DINERI_LOBBY_PER_ADDRESS`` (3) created from one client address and
    ``DINERI_LOBBY_PER_NETWORK`` (6) from one network (an IPv6 /48); tables about to expire
    left out. When a next page has tables, the ``Link`` header names it (``rel="next"``)."""
    tables, more = await services.tables.lobby_page(page)
    if more:
        response.headers["Link"] = f'</api/tables?page={page + 1}>; rel="next"'
    return tables


@router.get("/{table_id}", responses=responses(404, 422))
async def get_table(table_id: str, services: ServicesDep, player: MaybePlayerDep,
                    code: str | None = None) -> dict[str, Any]:
    """A table (a private one only with its code, or for its host and seated players). Read
    through to storage: a change another process just made shows (issue 9). An open table
    answers a player its host removed with ``"removed": true`` besides the table (that caller's
    answer only: its pages then offer it no seat, since taking one is refused ``403 removed``)."""
    sess = await (await _session(services, table_id)).synced()
    pid = player.id if player else None
    info = _visible(sess, pid, code)
    if (pid is not None and sess.status == "open" and pid != sess.host_id
            and sess.seat_of(pid) is None and await sess.read_removed(pid)):
        info["removed"] = True
    return info


@router.post("/{table_id}/seats", responses=responses(400, 401, 404, 409, 413, 422))
async def take_seat(table_id: str, body: SeatRequest, player: PlayerDep, services: ServicesDep
                    ) -> dict[str, Any]:
    """Take a seat before the start."""
    sess = await _session(services, table_id)
    _hide_from_strangers(sess, player.id, body.code)
    try:
        await sess.take_seat(player.id, body.seat, body.side, body.code)
    except Refused as e:
        raise _refused(e) from None
    return sess.info(with_code=player.id == sess.host_id)


@router.delete("/{table_id}/seats/me", responses=responses(401, 404, 409))
async def leave_seat(table_id: str, player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """Leave your seat before the start."""
    sess = await _session(services, table_id)
    _hide_from_strangers(sess, player.id)
    try:
        await sess.free_seat(player.id, None)
    except Refused as e:
        raise _refused(e) from None
    return sess.info(with_code=player.id == sess.host_id)


@router.delete("/{table_id}/seats/{seat}", responses=responses(401, 403, 404, 409, 422))
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


@router.post("/{table_id}/bots", responses=responses(400, 401, 403, 404, 409, 413, 422, 501))
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


@router.post("/{table_id}/start", responses=responses(400, 401, 403, 404, 409, 413, 422))
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


@router.post("/{table_id}/rematch", responses=responses(401, 403, 404, 409))
async def rematch(table_id: str, player: PlayerDep, services: ServicesDep, request: Request
                  ) -> dict[str, Any]:
    """A player of the finished table asks for a rematch: the rematch table is created once (same
    options; host: the first to ask; its computer players seated again), every asking player is
    seated there on their side, and the finished table's info carries ``rematch`` (pushed to its
    sockets with a ``rematch`` event). Answers the rematch table, with its ``code``."""
    old = await _session(services, table_id)
    _hide_from_strangers(old, player.id)
    try:
        new, created = await services.tables.rematch(table_id, player.id, address=_address(request))
        if created and services.bot_launcher is not None:
            for seat, row in sorted(old.seat_rows.items()):
                if row.is_bot and seat not in new.seat_rows:
                    await services.bot_launcher(new, seat, like=row.name)  # the same level
    except Refused as e:
        raise _refused(e) from None
    # Every player of the finished table gets the rematch table's code: a private rematch table
    # stays reachable for them after leaving its seat (the page keeps the code in its URL).
    return new.info(with_code=True)


@router.get("/{table_id}/record", responses=responses(401, 403, 404, 409))
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
