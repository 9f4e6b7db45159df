"""Every write is fenced (issue 9 item 1), for real: two ``dineri serve`` processes on PostgreSQL
and Redis. An action sent to the process that does not own the table is relayed to the owner
(docs/server.md "One owner per table"): applied once, by the owner, under its lease, and the
lease does not move, even when the two processes take a table's actions turn about. An owner
that is paused (SIGSTOP: alive, its lease not expired) makes the action answer ``unavailable``
within ``DINERI_RELAY_TIMEOUT`` and nothing is written; once its lease ran out the other process
takes the table over (fence + 1); after SIGCONT the stale owner writes nothing."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import func, select

from dineri.store import lease, repo
from dineri.store.db import make_engine, sessions
from dineri.store.models import ActionLog, Table
from tests.multi.conftest import require_nginx
from tests.multi.site import Site
from tests.server.driver import Shadow, pick, stacked_decks
from tests.server.harness import Api, Client

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.timeout(300)]
LEASE = 6.0
RELAY = 1.5


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    require_nginx()
    with Site(tmp_path_factory.mktemp("handoff"), DINERI_MESSAGES_PER_SECOND="5000",
              DINERI_GRACE_SECONDS="120", DINERI_LEASE_SECONDS=str(LEASE),
              DINERI_RELAY_TIMEOUT=str(RELAY)) as s:
        yield s


class Db:
    """The site's database, read directly."""

    def __init__(self, site: Site) -> None:
        self.engine = make_engine(site.db_url)
        self.sm = sessions(self.engine)

    def lease(self, table_id: str) -> lease.Lease:
        with self.sm() as s:
            held = lease.get(s, table_id)
        assert held is not None
        return held

    def written(self, table_id: str) -> tuple[int, int]:
        """(the table's next event number, its match's logged actions)."""
        with self.sm() as s:
            t = s.get(Table, table_id)
            m = repo.current_match(s, table_id)
            assert t is not None and m is not None
            n = s.execute(select(func.count()).select_from(ActionLog).where(ActionLog.match_id == m.id))
            return t.next_seq, int(n.scalar_one())

    def actions(self, table_id: str) -> list[dict[str, Any]]:
        with self.sm() as s:
            m = repo.current_match(s, table_id)
            assert m is not None
            return list(repo.record_of(s, m)["actions"])

    def close(self) -> None:
        self.engine.dispose()


def _node(site: Site, svc: str) -> str:
    """The lease owner name of ``svc`` (``dineri serve``: host:port)."""
    import socket

    return f"{socket.gethostname()}:{site.ports[svc]}"


def _table(site: Site, api: Api, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]], Shadow, str, str]:
    """A started 1v1 table through nginx: (table, players, shadow, owner service, other service)."""
    decks = stacked_decks(random.Random(seed))
    table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=0)
    owner = site.owner_of(table["id"])
    other = next(s for s in site.services if s != owner)
    return table, players, Shadow.start(2, 11, 1, 0, decks), owner, other


def _seqs(c: Client) -> list[int]:
    return [f["seq"] for f in c.frames if f["type"] == "event"]


def test_an_action_sent_to_the_non_owner_is_applied_once_by_the_owner(site: Site) -> None:
    """Both seats on the process that does not own the table, then turn about across the two
    (the ping-pong case): every action acknowledged once, stored once, by the owner; the lease
    never moves (same owner, same fence: no hand-off thrash); every event reaches every socket
    in order."""
    api, db = Api(site.front), Db(site)
    try:
        table, players, shadow, owner, other = _table(site, api, 21)
        tid = table["id"]
        before = db.lease(tid)
        assert before.owner == _node(site, owner) and before.alive()
        rng = random.Random(3)

        async def run() -> None:
            far = [await Client(site.direct(other), tid, p["token"]).connect(last_event=0) for p in players]
            near = await Client(site.direct(owner), tid, players[0]["token"]).connect(last_event=0)
            for n in range(8):  # both seats through the non-owner
                seat = shadow.to_act()
                assert seat is not None
                action = pick(shadow, seat, rng)
                reply = await far[seat].act(action, f"far-{n}")
                assert reply["type"] == "ack", reply
                shadow.apply(seat, action, reply["seq"])
                assert db.actions(tid) == shadow.actions  # stored once, at once
                again = await far[seat].act(action, f"far-{n}")  # resent: the same ack, nothing more
                assert again == reply
            # Turn about: seat 0 through the owner, seat 1 through the other process, to the end.
            socket_of = {0: near, 1: far[1]}
            n = 0
            while (seat := shadow.to_act()) is not None:
                action = pick(shadow, seat, rng)
                reply = await socket_of[seat].act(action, f"pp-{n}")
                assert reply["type"] == "ack", reply
                shadow.apply(seat, action, reply["seq"])
                n += 1
            assert n > 10
            last = db.written(tid)[0] - 1
            for c in (*far, near):
                await c.wait_for(lambda f: f["type"] == "event" and f["seq"] == last, timeout=20)
                seqs = _seqs(c)
                assert seqs == list(range(1, last + 1)), c  # every event once, in order
                await c.close()
        asyncio.run(run())
        assert db.actions(tid) == shadow.actions
        after = db.lease(tid)
        assert (after.owner, after.fence) == (before.owner, before.fence)  # relayed, never handed over
        served = [line for line in site.procs[owner].log.read_text(errors="replace").splitlines()
                  if "serving relayed writes" in line and tid in line]
        assert served and _node(site, other) in served[0]  # the owner applied the other's actions
    finally:
        api.http.close()
        db.close()


def test_a_paused_owner_makes_the_action_unavailable_and_cannot_write_once_resumed(site: Site) -> None:
    api, db = Api(site.front), Db(site)
    table, players, shadow, owner, other = _table(site, api, 22)
    tid = table["id"]
    proc = site.procs[owner].proc
    assert proc is not None
    stopped = False
    rng = random.Random(5)
    try:
        async def run() -> dict[str, float]:
            nonlocal stopped
            far = [await Client(site.direct(other), tid, p["token"]).connect(last_event=0) for p in players]
            near = [await Client(site.direct(owner), tid, p["token"]).connect(last_event=0) for p in players]

            async def step(via: list[Client], cid: str) -> dict[str, Any]:
                seat = shadow.to_act()
                assert seat is not None
                action = pick(shadow, seat, rng)
                reply = await via[seat].act(action, cid)
                if reply["type"] == "ack":
                    shadow.apply(seat, action, reply["seq"])
                return reply

            for n in range(3):
                assert (await step(far, f"s{n}"))["type"] == "ack"
            held = db.lease(tid)
            written = db.written(tid)

            os.killpg(proc.pid, signal.SIGSTOP)  # alive, not answering; its lease not expired
            stopped = True
            paused_at = time.monotonic()
            seat = shadow.to_act()
            assert seat is not None
            action = pick(shadow, seat, rng)
            t0 = time.monotonic()
            reply = await far[seat].act(action, "while-paused")
            waited = time.monotonic() - t0
            assert reply["type"] == "error" and reply["code"] == "unavailable", reply
            assert waited < RELAY + 1.5, waited
            assert db.lease(tid).alive()  # the bound ran out first, not the lease
            assert db.written(tid) == written  # nothing written

            # Once the paused owner's lease ran out, the same action (same id) takes the table over.
            while db.lease(tid).alive():
                assert time.monotonic() - paused_at < LEASE + 5
                await asyncio.sleep(0.1)
            reply = await far[seat].act(action, "while-paused")
            assert reply["type"] == "ack", reply
            shadow.apply(seat, action, reply["seq"])
            took = time.monotonic() - paused_at
            taken = db.lease(tid)
            assert taken.owner == _node(site, other) and taken.fence == held.fence + 1
            assert db.actions(tid) == shadow.actions

            os.killpg(proc.pid, signal.SIGCONT)
            stopped = False
            # The request relayed during the pause reaches the resumed owner past its deadline:
            # dropped. Its own writes carry the old fence: refused; its socket's action goes to
            # the new owner and is applied there once.
            reply = await step(near, "after-resume")
            assert reply["type"] == "ack", reply
            assert db.actions(tid) == shadow.actions
            now = db.lease(tid)
            assert (now.owner, now.fence) == (taken.owner, taken.fence)
            for n in range(4):  # both processes' sockets keep playing, nothing forks
                assert (await step(near if n % 2 else far, f"t{n}"))["type"] == "ack"
            assert db.actions(tid) == shadow.actions
            last = db.written(tid)[0] - 1
            for c in (*far, *near):
                await c.wait_for(lambda f: f["type"] == "event" and f["seq"] == last, timeout=20)
                assert sorted(set(_seqs(c))) == list(range(1, last + 1))
                await c.close()
            return {"waited": waited, "took": took}
        times = asyncio.run(run())
        log = site.procs[owner].log.read_text(errors="replace")
        assert "relayed request dropped: past its deadline" in log
        assert "table lease lost" in log
        print(f"\npaused owner: unavailable after {times['waited']:.2f} s (bound {RELAY:g} s); "
              f"taken over {times['took']:.2f} s after the pause (lease {LEASE:g} s)")
    finally:
        if stopped:
            os.killpg(proc.pid, signal.SIGCONT)
        api.http.close()
        db.close()
