"""Quick-match tables and the lobby (issue 7 item 6, follow-up): a quick-match table is created
public, with a turn clock, and seated before it starts, so while seating runs it is the lobby's
most relevant kind. It now keeps the keyed hash of its host's client address, as any table does
(it had none: no address cap), and when seating fails part-way the table is cancelled (seats
emptied, ``expired``, out of the lobby) and the players wait again (before: an open, clocked,
seated table was left behind, listed with no cap, and a failure that was not a refusal answered
500 to whoever polled)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from dineri.server.addresses import AddressKeys
from dineri.server.app import create_app
from dineri.server.session import Refused, TableSession
from dineri.settings import Settings
from dineri.store.db import make_engine, sessions
from dineri.store.models import Seat, Table

pytestmark = pytest.mark.timeout(120)
SECRET = "quick-cleanup"
HOST = "2001:db8:51:7::1"  # through the trusted local proxy (127.0.0.1)
MATE = "198.51.100.23"


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'quick.db'}"


def _app(url: str) -> TestClient:
    settings = Settings(database_url=url, testing=True, allowed_hosts=["testserver"], secret_key=SECRET,
                        guests_per_minute=0, clock_scale=0.001)
    return TestClient(create_app(settings), client=("127.0.0.1", 50000))


class Guest:
    def __init__(self, http: TestClient, name: str, address: str) -> None:
        self.http, self.address = http, address
        r = http.post("/api/players", json={"name": name}, headers={"X-Forwarded-For": address})
        assert r.status_code == 201, r.text
        self.token = r.json()["token"]
        http.cookies.clear()

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {self.token}", "X-Forwarded-For": self.address}
        return self.http.request(method, path, json=body, headers=headers)


def _stored(url: str, table_id: str) -> tuple[str, str | None, str | None, int]:
    """The stored status, address keys and number of seats of ``table_id``."""
    engine = make_engine(url)
    try:
        with sessions(engine)() as s:
            t = s.get(Table, table_id)
            assert t is not None
            seats = len(s.execute(select(Seat).where(Seat.table_id == table_id)).all())
            return t.status, t.creator_key, t.creator_net_key, seats
    finally:
        engine.dispose()


def _listed(http: TestClient) -> set[str]:
    return {t["id"] for t in http.get("/api/tables").json()}


def test_a_pairing_that_fails_at_the_start_leaves_no_table_and_the_pair_waits(
        url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two guests are paired; the start fails (a database error, not a refusal). While seated,
    the table carried the host's address keys; then it is cancelled (expired, no seats, not
    listed), the second guest's request answers ``waiting`` (not 500) and both wait again; once
    the start works, the next poll seats them at a new table."""
    keys = AddressKeys(SECRET)
    seen: dict[str, Any] = {}
    real_start = TableSession.start

    async def failing_start(self: TableSession, *args: Any, **kwargs: Any) -> None:
        seen["table"] = self.id
        seen["stored"] = _stored(url, self.id)
        raise RuntimeError("the database went away")
    with _app(url) as http:
        host, mate = Guest(http, "Host", HOST), Guest(http, "Mate", MATE)
        body = {"game": "chkobba", "seats": 2, "target": 11}
        assert host.call("POST", "/api/quick", body).json()["status"] == "waiting"
        monkeypatch.setattr(TableSession, "start", failing_start)
        r = mate.call("POST", "/api/quick", body)
        assert r.status_code == 202 and r.json()["status"] == "waiting", r.text
        assert seen["stored"] == ("open", keys.key(HOST), keys.network_key(HOST), 2)
        assert _stored(url, seen["table"]) == ("expired", None, None, 0)
        assert seen["table"] not in _listed(http)
        info = http.get(f"/api/tables/{seen['table']}").json()
        assert info["status"] == "expired" and all(s["player_id"] is None for s in info["seats"])
        assert host.call("GET", "/api/quick").json()["status"] == "waiting"
        monkeypatch.setattr(TableSession, "start", real_start)
        ticket = host.call("GET", "/api/quick").json()
        assert ticket["status"] == "seated" and ticket["table"] != seen["table"]
        assert mate.call("GET", "/api/quick").json() == ticket
        assert http.get(f"/api/tables/{ticket['table']}").json()["status"] == "playing"


def test_a_computer_game_that_fails_part_way_is_cancelled(url: str) -> None:
    """A 2v2 against computers: the first computer takes its seat, the second cannot (the
    launcher refuses). The table had the player's address keys; it is cancelled (the seated
    computer's task ends too), nothing is listed, and the player is still waiting."""
    keys = AddressKeys(SECRET)
    with _app(url) as http:
        services = http.app.state.services  # type: ignore[attr-defined]
        launcher, calls = services.bot_launcher, []

        async def half(sess: TableSession, seat: int, *args: Any, **kwargs: Any) -> None:
            calls.append((sess.id, seat, _stored(url, sess.id)))
            if len(calls) > 1:
                raise Refused("not_available", "computer players are not available", 501)
            await launcher(sess, seat, *args, **kwargs)
        services.bot_launcher = half
        player = Guest(http, "Solo", HOST)
        body = {"game": "chkobba", "seats": 4, "target": 11, "bot_after": 10}
        assert player.call("POST", "/api/quick", body).json()["status"] == "waiting"
        time.sleep(0.05)  # the 10 s wait, at clock_scale 0.001
        r = player.call("POST", "/api/quick/computer")
        assert r.status_code == 501 and r.json()["detail"]["code"] == "not_available", r.text
        [(table, seat_a, first), (again, seat_b, second)] = calls
        assert (again, seat_a, seat_b) == (table, 1, 2)
        assert first == ("open", keys.key(HOST), keys.network_key(HOST), 1)
        assert second == ("open", keys.key(HOST), keys.network_key(HOST), 2)
        assert _stored(url, table) == ("expired", None, None, 0)
        assert table not in _listed(http)
        assert player.call("GET", "/api/quick").json()["status"] == "waiting"
        deadline = time.monotonic() + 10
        while (table, 1) in launcher.tasks and time.monotonic() < deadline:
            time.sleep(0.02)
        assert (table, 1) not in launcher.tasks  # the computer at the cancelled table stopped
