"""A headless player at a Dineri table, through the documented protocol (``docs/protocol.md``).

:func:`play` creates a guest identity (``POST /api/players``) unless given a token, takes a
seat (``POST /api/tables/{id}/seats``), then plays on the table socket ``/ws/tables/{id}``:
``hello`` first (and again after each reconnect, with the last event number seen), then one
``action`` whenever its own view says it is its move, chosen by :mod:`dineri.bot.strategy`
from that view and the public events only. It returns when the match is over.

:func:`seat_bot` is the server-side hook for a computer opponent a host seats: it takes the
seat at once and returns the task that plays.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

import httpx
import websockets

from dineri.bot.strategy import STRATEGIES, SeatMemory, choose

log = logging.getLogger("dineri.bot")
Json = dict[str, Any]
#: Least seconds between two actions of one bot (the server's default limit is 20 frames a second).
MIN_INTERVAL = 0.07


class BotError(RuntimeError):
    """The bot could not join or play: a bad URL, a refused seat, a lost server."""


@dataclass(frozen=True, slots=True)
class TableLink:
    """Where a table is: the server's base URL (``http://host:port``), the table id, and the
    invitation code of a private table (or ``None``)."""

    base: str
    table_id: str
    code: str | None = None

    @property
    def ws_url(self) -> str:
        """The table socket's URL (``ws://`` or ``wss://``)."""
        parts = urlsplit(self.base)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return urlunsplit((scheme, parts.netloc, f"/ws/tables/{self.table_id}", "", ""))


def parse_table_url(url: str) -> TableLink:
    """Parse a table page URL ``http(s)://host/t/{id}`` or an invitation link
    (``http(s)://host/t/{id}?code={code}``, or the page's ``http(s)://host/join/{id}.{code}``).
    Raises :class:`BotError` for anything else."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BotError(f"not a table URL (http or https needed): {url!r}")
    segs = [s for s in parts.path.split("/") if s]
    base = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    if len(segs) == 2 and segs[0] == "join":
        table_id, dot, code = segs[1].partition(".")
        if table_id and dot and code:
            return TableLink(base, table_id, code)
    if len(segs) != 2 or segs[0] != "t" or not segs[1]:
        raise BotError(f"not a table URL (expected /t/<table id> or /join/<table id>.<code>): {url!r}")
    return TableLink(base, segs[1], parse_qs(parts.query).get("code", [None])[0])


@dataclass
class BotResult:
    """How the bot's match went: its seat, the ``match_over`` event, every event seen."""

    seat: int
    match_over: Json | None = None
    events: list[Json] = field(default_factory=list)
    actions_sent: int = 0
    errors: list[Json] = field(default_factory=list)


def _detail(resp: httpx.Response) -> str:
    try:
        body = resp.json()
    except ValueError:
        return resp.text[:200]
    detail = body.get("detail") if isinstance(body, dict) else body
    return json.dumps(detail, ensure_ascii=False)[:300]


async def new_guest(http: httpx.AsyncClient, base: str, name: str) -> str:
    """Create a guest identity named ``name``; return its bearer token (``POST /api/players``)."""
    resp = await http.post(f"{base}/api/players", json={"name": name})
    if resp.status_code != 201:
        raise BotError(f"could not create the guest {name!r}: {resp.status_code} {_detail(resp)}")
    return str(resp.json()["token"])


async def take_seat(http: httpx.AsyncClient, link: TableLink, token: str, *, seat: int | None = None,
                    side: int | None = None) -> int:
    """Take ``seat`` (or a seat of ``side``, or the first free one); return the seat taken."""
    body: Json = {}
    if seat is not None:
        body["seat"] = seat
    elif side is not None:
        body["side"] = side
    if link.code:
        body["code"] = link.code
    resp = await http.post(f"{link.base}/api/tables/{link.table_id}/seats", json=body,
                           headers={"Authorization": f"Bearer {token}"})
    if resp.status_code != 200:
        raise BotError(f"could not take a seat: {resp.status_code} {_detail(resp)}")
    me = await http.get(f"{link.base}/api/players/me", headers={"Authorization": f"Bearer {token}"})
    my_id = me.json().get("id") if me.status_code == 200 else None
    for s in resp.json().get("seats", []):
        if s.get("player_id") == my_id:
            return int(s["seat"])
    raise BotError("the server did not seat the bot")


async def fetch_record(link: TableLink, token: str) -> Json:
    """The match's ``dineri-match/1`` record, as a player of the ended match may download it."""
    async with httpx.AsyncClient(timeout=10) as http:
        resp = await http.get(f"{link.base}/api/tables/{link.table_id}/record",
                              headers={"Authorization": f"Bearer {token}"})
    if resp.status_code != 200:
        raise BotError(f"could not download the record: {resp.status_code} {_detail(resp)}")
    doc: Json = resp.json()
    return doc


async def play_seated(link: TableLink, token: str, seat: int, *, strategy: str = "greedy",
                      seed: int | None = None, delay: float = 0.0, reconnects: int = 12) -> BotResult:
    """Play the seat already taken until the match is over; reconnect (with ``hello`` and the
    last event number) up to ``reconnects`` times in a row. Raises :class:`BotError`."""
    if strategy not in STRATEGIES:
        raise BotError(f"unknown strategy {strategy!r}")
    rng = random.Random(seed)
    memory = SeatMemory(seat=seat)
    result = BotResult(seat=seat)
    last_event: int | None = None
    failures = 0
    url = f"{link.ws_url}?token={token}"
    while True:
        seen = len(result.events)
        try:
            async with websockets.connect(url, open_timeout=10, max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello", "last_event": last_event}))
                last_event = await _session(ws, memory, result, strategy, rng, last_event, delay)
                if result.match_over is not None:
                    return result
                raise ConnectionError("the server closed the table socket")
        except (TimeoutError, OSError, websockets.WebSocketException) as e:
            # Failures count in a row: a socket that brought new events starts the count again.
            failures = 1 if len(result.events) > seen else failures + 1
            if failures > reconnects:
                raise BotError(f"lost the table socket: {e}") from None
            log.info("bot seat %s: reconnecting after %s", seat, e)
            await asyncio.sleep(min(0.2 * 2 ** failures, 2.0))  # about 20 s in all


async def _session(ws: Any, memory: SeatMemory, result: BotResult, strategy: str, rng: random.Random,
                   last_event: int | None, delay: float) -> int | None:
    """One socket's life: follow frames, act when the view says so. Returns the last event seen."""
    pending: str | None = None
    sent = ""
    view: Json | None = None
    async for raw in ws:
        for msg in _unpacked(json.loads(raw), view):
            kind = msg.get("type")
            if kind == "event":
                seq = int(msg["seq"])
                if last_event is not None and seq <= last_event:
                    continue
                last_event = seq
                event = msg["event"]
                result.events.append(event)
                memory.on_event(event)
                if event.get("type") == "match_over":
                    result.match_over = event
            elif kind == "view":
                view = msg.get("view")
                if view is not None:
                    memory.on_view(view)
            elif kind == "ack" and msg.get("id") == pending:
                pending = None
            elif kind == "error" and msg.get("code") == "rate_limited" and msg.get("id") == pending:
                await asyncio.sleep(1.0)  # the same id again: applied once even if it got through
                await ws.send(sent)
                continue
            elif kind == "error":
                result.errors.append(msg)
                if msg.get("id") == pending:
                    pending = None
                    memory.forget_window()  # a refused claim must not be retried forever
                if len(result.errors) > 20:
                    raise BotError(f"too many refused actions; last: {msg}")
            if result.match_over is not None and kind == "view":
                return last_event
            ready = pending is None and view is not None and view.get("phase") != "over"
            if ready and kind in ("view", "error", "ack"):
                assert view is not None
                action = choose(view, memory, strategy, rng)
                if action is not None:
                    # Pace the frames: the server answers more than its per-connection rate with errors.
                    await asyncio.sleep(max(delay, MIN_INTERVAL))
                    pending = f"s{memory.seat}-e{last_event}-n{result.actions_sent}"
                    result.actions_sent += 1
                    sent = json.dumps({"type": "action", "id": pending, "action": action})
                    await ws.send(sent)
    return last_event


def _unpacked(msg: Json, view: Json | None) -> list[Json]:
    """One frame in the per-event form: an ``update`` becomes its ``event`` frames, a ``view``
    with its patch applied to ``view`` (the last whole view), then its ``ack``; others as they are."""
    if msg.get("type") != "update":
        return [msg]
    out: list[Json] = [{"type": "event", "seq": e["seq"], "event": e["event"]} for e in msg["events"]]
    if msg.get("view") is not None and view is not None:
        out.append({"type": "view", "seq": msg["seq"], "view": {**view, **msg["view"]}})
    if msg.get("ack") is not None:
        out.append({"type": "ack", "id": msg["ack"], "seq": msg["seq"]})
    return out


async def play(url: str, *, name: str = "Bot", strategy: str = "greedy", seat: int | None = None,
               side: int | None = None, token: str | None = None, seed: int | None = None,
               delay: float = 0.0) -> tuple[BotResult, str]:
    """Join the table at ``url`` (:func:`parse_table_url`) as a new guest ``name`` (or with
    ``token``), take a seat, and play to the end. Returns the result and the token used."""
    link = parse_table_url(url)
    async with httpx.AsyncClient(timeout=10) as http:
        if token is None:
            token = await new_guest(http, link.base, name)
        taken = await take_seat(http, link, token, seat=seat, side=side)
    return await play_seated(link, token, taken, strategy=strategy, seed=seed, delay=delay), token


async def seat_bot(base_url: str, table_id: str, seat: int, *, code: str | None = None,
                   name: str = "Bot", strategy: str = "greedy",
                   delay: float = 0.5) -> asyncio.Task[BotResult]:
    """Server hook: seat a computer opponent at ``seat`` now, and return the task that plays it.

    ``base_url`` is the server's own address (``http://127.0.0.1:8000``). The bot joins
    like any client (a guest identity, the REST seat call, the table socket), so it sees
    exactly what a player sees. Raises :class:`BotError` when the seat cannot be taken.
    """
    link = TableLink(base_url.rstrip("/"), table_id, code)
    async with httpx.AsyncClient(timeout=10) as http:
        token = await new_guest(http, link.base, name)
        taken = await take_seat(http, link, token, seat=seat)

    async def run() -> BotResult:
        try:
            return await play_seated(link, token, taken, strategy=strategy, delay=delay, reconnects=20)
        except BotError:
            log.exception("computer opponent at table %s seat %s stopped", table_id, taken)
            raise

    task = asyncio.create_task(run(), name=f"bot-{table_id}-{taken}")
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)
    return task


# Strong references to running bot tasks (asyncio keeps only weak ones).
_TASKS: set[asyncio.Task[BotResult]] = set()


async def stop_all() -> None:
    """Cancel every running computer opponent (call on server shutdown)."""
    for task in list(_TASKS):
        task.cancel()
    for task in list(_TASKS):
        with contextlib.suppress(asyncio.CancelledError, BotError):
            await task
