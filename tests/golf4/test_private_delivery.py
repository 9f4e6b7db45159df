"""G6 on the socket (dineri/server/ws.py ``TableClient``): a seat's private event (golf4's
``peek_cards``) goes out only with the change it belongs to, to a socket that receives that change
live. A socket whose hello (a reconnect) already covered the change, because the bundle was
delivered late (a Redis fan-out delivers after the commit, so a hello can run in between), never
gets it: the peek is never shown again on a reconnect."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

from dineri.server.frames import Receiver
from dineri.server.ws import TableClient

PEEK = {"type": "peek_cards", "slots": {"2": "7H", "3": "KS"}}


class Conn:
    """A socket's send queue, kept (frames are the encoded JSON texts)."""

    id = "c1"

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, frame: str) -> None:
        self.sent.append(json.loads(frame))


def _bundle(seq: int, seat: int) -> dict[str, Any]:
    """A bundle as Frames.publish makes it (the view patched from position seq - 1 to seq)."""
    table = {"public": True, "seats": [{"seat": s, "player_id": f"p{s}"} for s in range(3)]}
    return {"seq": seq, "events": [(seq, {"type": "peek", "seat": seat, "auto": False})], "table": table,
            "ack": None, "table_changed": True, "table_new": False, "origin": "x",
            "public": {}, "seats": {str(s): {"seat": s} for s in range(3)}, "at": seq, "base": seq - 1,
            "patch": {}, "private_changed": [], "private": {str(seat): [PEEK]}}


def _client(player: str, sent_seq: int) -> tuple[TableClient, Conn]:
    conn = Conn()
    sess = SimpleNamespace(host_id="p0", id="t1")
    services = SimpleNamespace(settings=SimpleNamespace(send_queue_size=256))
    client = TableClient(sess, conn, player, services)  # type: ignore[arg-type]
    seat = int(player[1:])
    client.live, client.present_seat = True, seat
    client.rx = Receiver(seat=seat, view_at=sent_seq, sent_seq=sent_seq)
    return client, conn


def test_a_live_socket_of_the_seat_gets_its_private_event_once() -> None:
    async def run() -> None:
        client, conn = _client("p1", 4)
        client.on_bundle(_bundle(5, 1))
        assert [f["type"] for f in conn.sent] == ["update"]
        assert conn.sent[0]["private"] == [PEEK] and conn.sent[0]["seq"] == 5
        client.on_bundle(_bundle(5, 1))  # the same bundle again (a duplicate delivery)
        assert sum(1 for f in conn.sent if f.get("private")) == 1
        other, conn2 = _client("p2", 4)  # another seat: never
        other.on_bundle(_bundle(5, 1))
        assert conn2.sent and not any("private" in f for f in conn2.sent)
    asyncio.run(run())


def test_a_socket_whose_hello_already_covered_the_change_never_gets_it() -> None:
    async def run() -> None:
        client, conn = _client("p1", 5)  # its hello sent everything up to event 5
        client.on_bundle(_bundle(5, 1))  # the peek's bundle, delivered late
        assert not any("private" in f for f in conn.sent)
    asyncio.run(run())
