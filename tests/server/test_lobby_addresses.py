"""The lobby cannot be filled from one address (issue 7, item 6, the adversarial re-check): 25
guests of one client address are 25 hosts, so the per-host cap let their seated, clocked tables
fill page 1 and a new table of somebody else never showed there. Each table now keeps a keyed
hash of its creating address, and the lobby lists at most ``DINERI_LOBBY_PER_ADDRESS`` (3) tables
of one address, applied in the query before paging. The address is the peer's, or what a
trusted proxy forwarded: ``X-Forwarded-For`` from any other peer changes nothing. An IPv6
address counts as its /64 (for the lobby and for new guests a minute).

A second, wider cap (``DINERI_LOBBY_PER_NETWORK``, 6) counts tables per IPv6 /48: a free
tunnel-broker /48 holds 65,536 /64s, and 60 of them (3 tables listed each) pushed a plain table
off page 1. An IPv4 address is its own network (no /24 grouping: NAT pools, campuses)."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from dineri.fanout import LocalFanout
from dineri.server.addresses import AddressKeys, network_of, wide_network_of
from dineri.server.app import create_app
from dineri.server.service import LOBBY_PAGE_SIZE, LOBBY_PER_HOST, TableService
from dineri.settings import Settings
from dineri.store import repo
from dineri.store.db import make_engine, migrate, sessions
from dineri.store.models import Table, utcnow

pytestmark = pytest.mark.timeout(180)
OPTIONS = {"seats": 2, "target": 11, "best_of": 1}
PER_ADDRESS = 3  # the default of DINERI_LOBBY_PER_ADDRESS
PER_NETWORK = 6  # the default of DINERI_LOBBY_PER_NETWORK
FLOOD = "203.0.113.66"
REAL = "198.51.100.7"


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'lobby.db'}"


def _app(url: str, **settings: Any) -> TestClient:
    """A testing app seen from 127.0.0.1 (a trusted proxy unless ``forwarded_allow_ips`` says
    otherwise): ``X-Forwarded-For`` then says which client each request comes from."""
    settings = {"guests_per_minute": 0, **settings}
    app = create_app(Settings(database_url=url, testing=True, allowed_hosts=["testserver"], **settings))
    return TestClient(app, client=("127.0.0.1", 50000))


class Guest:
    """A guest player whose requests come from ``address`` (``X-Forwarded-For``)."""

    def __init__(self, http: TestClient, name: str, address: str) -> None:
        self.http, self.address = http, address
        r = http.post("/api/players", json={"name": name}, headers={"X-Forwarded-For": address})
        assert r.status_code == 201, r.text
        self.id, self.token = r.json()["id"], r.json()["token"]
        http.cookies.clear()  # each guest speaks with its bearer token only

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {self.token}", "X-Forwarded-For": self.address}
        return self.http.request(method, path, json=body, headers=headers)

    def table(self, *, clock: int = 0, public: bool = True, sit: bool = False) -> str:
        r = self.call("POST", "/api/tables", {"options": OPTIONS, "public": public, "clock": clock})
        assert r.status_code == 201, r.text
        table_id = str(r.json()["id"])
        if sit:
            assert self.call("POST", f"/api/tables/{table_id}/seats", {"seat": 0}).status_code == 200
        return table_id


def _all_pages(http: TestClient) -> list[list[str]]:
    """Every lobby page's table ids, following the ``Link`` header."""
    pages, page = [], 1
    while True:
        r = http.get("/api/tables", params={"page": page})
        assert r.status_code == 200
        pages.append([t["id"] for t in r.json()])
        if "link" not in r.headers:
            return pages
        page += 1


def test_twenty_five_guests_of_one_address_do_not_fill_page_one(url: str) -> None:
    """The re-check's attack: 25 guests from one address each host 2 public tables with a turn
    clock and sit at them (50 of the most relevant kind: page 1 full), then a guest from another
    address opens a plain table (nobody seated, no clock: the least relevant kind). It is on
    page 1; 3 of the flood are listed in all; no page repeats or skips a table."""
    with _app(url) as http:
        guests = [Guest(http, f"Flood{i}", FLOOD) for i in range(25)]
        flood = {g.table(clock=15, sit=True) for g in guests for _ in range(2)}
        mine = Guest(http, "Amira", REAL).table()
        page_one = [t["id"] for t in http.get("/api/tables").json()]
        assert mine in page_one
        pages = _all_pages(http)
        listed = [t for p in pages for t in p]
        assert len(listed) == len(set(listed)) == PER_ADDRESS + 1
        assert len(flood & set(listed)) == PER_ADDRESS
        # Mine is the newest, and the flood's own seats and clocks do not lift its tables (the
        # lobby's tiers: test_lobby_presence).
        assert pages[0] == page_one and page_one[0] == mine
        # The cap is the address's, not a host's: another guest of the flood's address opening a
        # table now pushes an older flood table out rather than adding one.
        newer = Guest(http, "Flood-late", FLOOD).table(clock=15, sit=True)
        again = [t["id"] for t in http.get("/api/tables").json()]
        assert newer in again and len(flood & set(again)) == PER_ADDRESS - 1 and mine in again


def test_x_forwarded_for_from_an_untrusted_peer_changes_nothing(url: str) -> None:
    """The peer (127.0.0.1) is no trusted proxy here: 10 guests each claiming another address in
    ``X-Forwarded-For`` are one address, for the lobby (3 of their tables listed) and for the
    new guests a minute (the 4th is refused, whatever it claims)."""
    with _app(url, forwarded_allow_ips=["192.0.2.254"]) as http:
        made = {Guest(http, f"Spoof{i}", f"198.18.0.{i}").table(clock=30, sit=True) for i in range(10)}
        listed = {t["id"] for t in http.get("/api/tables").json()}
        assert len(listed & made) == PER_ADDRESS
    with _app(url.replace("lobby.db", "guests.db"), forwarded_allow_ips=["192.0.2.254"],
              guests_per_minute=3) as http:
        codes = [http.post("/api/players", json={"name": f"S{i}"},
                           headers={"X-Forwarded-For": f"198.18.1.{i}"}).status_code for i in range(4)]
        assert codes == [201, 201, 201, 429]


def test_a_trusted_proxy_s_addresses_count_and_ipv6_counts_by_64(url: str) -> None:
    """Behind a trusted proxy each forwarded client has its own cap; addresses of one IPv6 /64
    are one client (a subscriber holds the whole block), for the lobby and for new guests."""
    with _app(url) as http:
        own = [Guest(http, f"P{i}", f"192.0.2.{i + 1}").table(clock=15, sit=True) for i in range(5)]
        block = [Guest(http, f"V{i}", f"2001:db8:5:7::{i + 1:x}").table(clock=15, sit=True) for i in range(5)]
        other_block = Guest(http, "W", "2001:db8:5:8::1").table()
        mapped = Guest(http, "M", "::ffff:192.0.2.1").table()  # 192.0.2.1, written IPv4-mapped
        listed = {t["id"] for t in http.get("/api/tables").json()}
        assert set(own) <= listed and other_block in listed
        assert len(listed & set(block)) == PER_ADDRESS
        # 192.0.2.1 has two tables now (2 <= 3): both listed.
        assert mapped in listed
    with _app(url.replace("lobby.db", "guests.db"), guests_per_minute=2) as http:
        def new(address: str) -> int:
            return http.post("/api/players", json={"name": "G"},
                             headers={"X-Forwarded-For": address}).status_code
        assert [new(f"2001:db8:9:1::{i + 1}") for i in range(3)] == [201, 201, 429]
        assert new("2001:db8:9:2::1") == 201  # the next /64: another subscriber
    # A trusted proxy that passes on a made-up X-Forwarded-For: every text that is no IP
    # address is one client (the re-check of issue 7 got a fresh limit for each of yy0, yy1...).
    with _app(url.replace("lobby.db", "junk.db"), guests_per_minute=2) as http:
        assert [new(f"yy{i}") for i in range(3)] == [201, 201, 429]


def test_sixty_64s_of_one_48_do_not_push_a_plain_table_off_page_one(url: str) -> None:
    """The residual of the address cap: one free tunnel-broker /48 holds 65,536 /64s, each an
    address of its own (3 tables listed each). Two guests of each of 60 /64s of one /48 each
    host a seated, clocked table (120 of the most relevant kind); a plain table of another
    address is on page 1, and 6 of the flood are listed in all. Another /48 of the same /32 is
    another network (its tables listed besides), and IPv4 addresses of one /24 are not grouped:
    each keeps its 3 (a carrier's NAT pool, a campus)."""
    with _app(url) as http:
        flood = {Guest(http, f"Tunnel{i}", f"2001:db8:48:{i + 1:x}::1").table(clock=15, sit=True)
                 for i in range(60) for _ in range(2)}
        mine = Guest(http, "Amira", REAL).table()
        pages = _all_pages(http)
        listed = [t for p in pages for t in p]
        assert mine in pages[0]
        assert len(listed) == len(set(listed)) and len(flood & set(listed)) == PER_NETWORK
        neighbour = {Guest(http, f"Next{i}", f"2001:db8:49:{i + 1:x}::1").table(clock=15, sit=True)
                     for i in range(2)}
        campus = {Guest(http, f"Campus{i}", f"192.0.2.{i + 1}").table(clock=15, sit=True)
                  for i in range(3) for _ in range(PER_ADDRESS)}
        listed = [t for p in _all_pages(http) for t in p]
        assert neighbour <= set(listed) and campus <= set(listed) and mine in listed
        assert len(flood & set(listed)) == PER_NETWORK
    # 0 turns the network cap off: every /64 has its own 3 again.
    with _app(url.replace("lobby.db", "off.db"), lobby_per_network=0) as http:
        flood = {Guest(http, f"Tunnel{i}", f"2001:db8:48:{i + 1:x}::1").table(clock=15, sit=True)
                 for i in range(4) for _ in range(2)}
        listed = {t["id"] for t in http.get("/api/tables").json()}
        assert flood <= listed


def test_the_key_is_a_keyed_hash_kept_while_the_table_is_open(url: str) -> None:
    """A table stores a keyed hash of its creating network, never the address (and not a plain
    hash one could match against every IPv4 address); the table info says nothing of it; the key
    is cleared once the table leaves the lobby for good (started, or expired)."""
    keys = AddressKeys("a secret")
    assert keys.key("2001:db8::1") == keys.key("2001:db8::ffff:1") != keys.key("2001:db8:0:1::1")
    assert keys.key(FLOOD) != AddressKeys("another secret").key(FLOOD)
    assert network_of("::ffff:203.0.113.66") == FLOOD and network_of(None) == "?"
    assert network_of("2001:DB8::1") == "2001:db8::/64"
    assert network_of("testclient") == network_of("yy0") == network_of("yy1")
    assert wide_network_of("2001:db8:5:7::1") == "2001:db8:5::/48" == wide_network_of("2001:db8:5:ffff::9")
    assert wide_network_of("::ffff:203.0.113.66") == FLOOD == wide_network_of(FLOOD)  # IPv4: itself
    net = keys.network_key("2001:db8:5:7::1")
    assert net == keys.network_key("2001:db8:5:8::1") != keys.key("2001:db8:5:7::1")
    assert keys.network_key(FLOOD) == keys.key(FLOOD) != keys.network_key("203.0.113.67")
    with _app(url, secret_key="a secret", open_table_ttl=1800) as http:
        host, guest = Guest(http, "Host", FLOOD), Guest(http, "Guest", REAL)
        played, left = host.table(sit=True), host.table()
        info = host.call("GET", f"/api/tables/{played}").json()
        assert FLOOD not in str(info) and keys.key(FLOOD) not in str(info)
        engine = make_engine(url)
        sm = sessions(engine)
        with sm() as s:
            stored = {t.id: (t.creator_key, t.creator_net_key) for t in s.execute(select(Table)).scalars()}
        assert stored == {played: (keys.key(FLOOD),) * 2, left: (keys.key(FLOOD),) * 2}
        assert guest.call("POST", f"/api/tables/{played}/seats", {"seat": 1}).status_code == 200
        assert host.call("POST", f"/api/tables/{played}/start", {"first_dealer": 0}).status_code == 200
        with sm.begin() as s:
            t = s.get(Table, left)
            assert t is not None
            t.created_at = utcnow() - timedelta(hours=1)
        services = http.app.state.services  # type: ignore[attr-defined]
        assert http.portal.call(services.tables.expire_open_tables) == [left]  # type: ignore[union-attr]
        with sm() as s:
            after = {t.id: (t.creator_key, t.creator_net_key) for t in s.execute(select(Table)).scalars()}
        assert after == {played: (None, None), left: (None, None)}
        six = Guest(http, "Six", "2001:db8:5:7::1").table()
        with sm() as s:
            t = s.get(Table, six)
            assert t is not None
            assert (t.creator_key, t.creator_net_key) == (keys.key("2001:db8:5:7::2"),
                                                          keys.network_key("2001:db8:5:1::3"))
        engine.dispose()


# --- the query itself: both caps against a model of them, every page, SQLite and PostgreSQL ---

def _model(rows: list[dict[str, Any]], per_host: int, per_address: int,
           per_network: int = 10**6, host_since: Any = None) -> list[str]:
    """The lobby as the docs say it: none whose host was last here before ``host_since``; most
    relevant first; a host's first ``per_host``; of
    those, an address's first ``per_address`` (a table without a key has no address); of
    those, a network's first ``per_network`` (a table without a network key has no network)."""
    out: list[str] = []
    hosts: dict[str, int] = {}
    origins: dict[str, int] = {}
    networks: dict[str, int] = {}
    for r in _lobby_order(rows):
        if host_since is not None and (r["here"] or r["created_at"]) < host_since:
            continue
        hosts[r["host"]] = hosts.get(r["host"], 0) + 1
        if hosts[r["host"]] > per_host:
            continue
        origin = r["key"] or r["id"]
        origins[origin] = origins.get(origin, 0) + 1
        if origins[origin] > per_address:
            continue
        network = r["net"] or r["id"]
        networks[network] = networks.get(network, 0) + 1
        if networks[network] > per_network:
            continue
        out.append(r["id"])
    return out


def _lobby_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # another person seated, then the host here now, then the rest; newest first in each
    # (created_at desc, then id desc)
    by_new = sorted(rows, key=lambda r: (r["created_at"], r["id"]), reverse=True)
    return sorted(by_new, key=lambda r: 0 if r["guest"] else 1 if r["present"] else 2)


def _exercise_paging(db_url: str) -> None:
    migrate(db_url)
    engine = make_engine(db_url)
    sm: sessionmaker[Session] = sessions(engine)
    rng = random.Random(6)
    # 80 addresses: 0-39 in 8 networks of 5 (IPv6 /64s of a few /48s), 40-79 each its own
    # network (IPv4: the network key is the address key); and tables stored before 0006 (no
    # key) and between 0006 and 0007 (an address key, no network key).
    keys: list[tuple[str | None, str | None]] = [
        (f"{i:032x}", f"{1000 + i // 5:032x}" if i < 40 else f"{i:032x}") for i in range(80)]
    keys += [(None, None), (f"{7:032x}", None), (f"{90:032x}", None)]
    now = utcnow()
    away = 600  # lobby_host_away; no table's last presence lies within 30 s of its edge
    rows: list[dict[str, Any]] = []
    with sm.begin() as s:
        hosts = [repo.create_player(s, f"H{i}").id for i in range(250)]
        guests = [repo.create_player(s, f"G{i}").id for i in range(5)]
        for i in range(500):
            host, (key, net) = rng.choice(hosts), rng.choice(keys)
            clock, public = rng.choice((0, 0, 15, 60)), rng.random() > 0.1
            t = repo.create_table(s, host_id=host, game="chkobba", options=OPTIONS, public=public,
                                  clock=clock, creator_key=key, creator_net_key=net)
            age = rng.randrange(0, 1200) if i % 7 else 100  # some ties
            t.created_at = now - timedelta(seconds=age + 60 if away - 30 <= age <= away + 30 else age)
            # The host here (until a minute from now), gone lately, gone long ago, or never came.
            here = rng.choice((None, None, 60, -100, -900))
            t.host_here_until = now + timedelta(seconds=here) if here is not None else None
            if rng.random() < 0.4:
                repo.take_seat(s, t.id, 0, host)  # the host's own seat lifts nothing
            guest = rng.random() < 0.2
            if guest:
                repo.take_seat(s, t.id, 1, rng.choice(guests))
            elif rng.random() < 0.1:
                repo.take_seat(s, t.id, 1, guests[0], is_bot=True)  # nor does a computer's
            if public:
                rows.append({"id": t.id, "host": host, "key": key, "net": net, "guest": guest,
                             "present": here == 60, "here": t.host_here_until,
                             "created_at": t.created_at})
    host_since = now - timedelta(seconds=away)
    expected = _model(rows, LOBBY_PER_HOST, PER_ADDRESS, PER_NETWORK, host_since)
    assert len(expected) > 2 * LOBBY_PAGE_SIZE  # three pages at least
    # Each of the three caps and the host's absence drops tables here (so each is checked).
    assert len(_model(rows, 10**6, PER_ADDRESS, PER_NETWORK, host_since)) > len(expected)
    assert len(_model(rows, LOBBY_PER_HOST, 10**6, PER_NETWORK, host_since)) > len(expected)
    assert len(_model(rows, LOBBY_PER_HOST, PER_ADDRESS, host_since=host_since)) > len(expected)
    assert len(_model(rows, LOBBY_PER_HOST, PER_ADDRESS, PER_NETWORK)) > len(expected)

    async def run() -> None:
        service = TableService(sm, LocalFanout(), Settings(database_url=db_url, secret_key="k",
                                                           lobby_host_away=away))
        seen, page, more = [], 1, True
        while more:
            tables, more = await service.lobby_page(page)
            assert len(tables) == LOBBY_PAGE_SIZE or not more
            seen += [t["id"] for t in tables]
            page += 1
        assert seen == expected  # same order, no table twice, none skipped
        await service.stop()
    try:
        asyncio.run(run())
        with sm() as s:  # small pages straight from the query: the same sequence
            step = 7
            chunks = [[t.id for t, _ in repo.open_public_tables(s, per_host=LOBBY_PER_HOST,
                                                                per_address=PER_ADDRESS,
                                                                per_network=PER_NETWORK,
                                                                host_since=host_since,
                                                                offset=o, limit=step)]
                      for o in range(0, len(expected) + step, step)]
            assert [t for c in chunks for t in c] == expected
            uncapped = [t.id for t, _ in repo.open_public_tables(s, per_host=LOBBY_PER_HOST, limit=1000)]
            assert uncapped == _model(rows, LOBBY_PER_HOST, 10**6)
            no_network = [t.id for t, _ in repo.open_public_tables(s, per_host=LOBBY_PER_HOST,
                                                                   per_address=PER_ADDRESS, limit=1000)]
            assert no_network == _model(rows, LOBBY_PER_HOST, PER_ADDRESS)
    finally:
        engine.dispose()


def test_both_caps_page_exactly_on_sqlite(url: str) -> None:
    _exercise_paging(url)


@pytest.mark.postgres
def test_both_caps_page_exactly_on_postgresql(pg_url: str) -> None:
    _exercise_paging(pg_url)

