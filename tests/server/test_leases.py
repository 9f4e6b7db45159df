"""One owner per table (issue 8 item 3, issue 9 item 1): two table services (two processes'
worth: own node, own writer) on one database and one pub/sub (a shared ``LocalFanout`` standing for
Redis). The owner's lease is taken once; a process that does not own a table runs none of its
timers (issue 9: a restart forfeited the other process's idle matches) and writes none of its
events: it relays them to the owner; a stale owner's write changes nothing; a dead owner's table
is taken over. tests/multi/test_handoff.py does the same with real processes."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from dineri.fanout import LocalFanout
from dineri.server.relay import Relay, RelayTimeout
from dineri.server.service import TableService
from dineri.settings import Settings
from dineri.store import lease, repo
from dineri.store.db import make_engine, migrate, sessions
from dineri.store.models import EventLog, TableLease, utcnow

pytestmark = pytest.mark.timeout(120)


def _run(url: str) -> None:
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    bus = LocalFanout()  # Redis between the two processes' worth: one pub/sub both services use

    # relay_timeout 2 s: a loaded machine's owner may take more than half a second to answer.
    def service(node: str, fanout: LocalFanout = bus, relay: bool = True) -> TableService:
        return TableService(sm, fanout, Settings(database_url=url, node=node, grace_seconds=3600,
                                                 lease_seconds=1.5, relay_timeout=2), relay=relay)

    def stored(table_id: str) -> list[str]:
        with sm() as s:
            m = repo.current_match(s, table_id)
            assert m is not None
            return [x["type"] for x in repo.record_of(s, m)["actions"]]

    async def run() -> None:
        a, b = service("a"), service("b")
        await a.start()
        with sm.begin() as s:
            p0, p1 = repo.create_player(s, "Amira").id, repo.create_player(s, "Youssef").id
        sa = await a.create_table(p0, "chkobba", {"seats": 2, "target": 11, "best_of": 1}, True, 15)
        await sa.take_seat(p0, 0, None, None)
        await sa.take_seat(p1, 1, None, None)
        await sa.start(p0, first_dealer=0)
        assert sa.fence == 1 and sa._grace and bool(sa._clock_tasks)
        with sm() as s:
            held = lease.get(s, sa.id)
        assert held is not None and held.owner == "a" and held.fence == 1 and held.alive()

        # B starts (a restart of another process): it must not time out A's seats.
        await b.start()
        sb = await b.session(sa.id)
        assert sb is not None and sb.status == "playing"
        assert sb.fence is None and not sb._grace and not bool(sb._clock_tasks)
        # A misrouted action on B goes to A, the owner, which applies it under its lease (fence 1)
        # and answers; B writes nothing and stays without the lease and its timers.
        reply, fresh = await sb.act(1, "b-cut", {"type": "cut", "at": 3}, conn="b-socket")
        assert reply["type"] == "ack" and fresh, reply
        assert a.relay is not None and a.relay.served == 1
        assert sb.fence is None and not sb._grace and not bool(sb._clock_tasks)
        assert stored(sa.id) == ["cut"]
        again, fresh = await sb.act(1, "b-cut", {"type": "cut", "at": 3})  # resent: the same ack
        assert again == reply and not fresh
        reply, _ = await sa.act(1, "a-cut", {"type": "cut", "at": 3})
        assert reply["type"] == "error" and reply["code"] == "wrong_phase", reply  # no second cut

        # Without Redis (no relay) nothing reaches the owner: unavailable, nothing stored.
        c = service("c", LocalFanout(), relay=False)
        await c.start()
        sc = await c.session(sa.id)
        assert sc is not None
        reply, _ = await sc.act(1, "c-keep", {"type": "keep"})
        assert reply["type"] == "error" and reply["code"] == "unavailable", reply
        # An owner that does not answer (paused: here, deaf): unavailable within the bound.
        assert a.relay is not None
        a.relay.stop()
        reply, _ = await sb.act(1, "b-keep", {"type": "keep"})
        assert reply["type"] == "error" and reply["code"] == "unavailable", reply
        assert stored(sa.id) == ["cut"]
        await c.stop()

        # A stops renewing (a dead or paused process): its lease runs out, B takes the table over.
        assert a._renewer is not None
        a._renewer.cancel()
        await asyncio.sleep(0.3)  # a renewal already queued in A's writer commits first
        with sm.begin() as s:
            s.execute(update(TableLease).where(TableLease.table_id == sa.id)
                      .values(expires_at=utcnow() - timedelta(seconds=1)))
        reply, _ = await sb.act(1, "b-keep", {"type": "keep"})
        assert reply["type"] == "ack", reply
        assert sb.fence == 2 and bool(sb._clock_tasks)  # B reread the table, its clock runs now
        # The stale owner's fenced write fails and changes nothing: it learns it lost the table
        # (drops the session, stops its timers) and its action goes to B, judged on what B stored.
        await a.relay.start(a._serve_relayed)
        assert sa.match is not None and sa.match.to_act() == 1  # A still thinks: seat 1 keeps
        reply, _ = await sa.act(1, "a-late", {"type": "keep"})
        assert reply["type"] == "error" and reply["code"] == "wrong_phase", reply
        assert sa.fence is None and not bool(sa._clock_tasks) and sa.id not in a.sessions
        assert stored(sa.id) == ["cut", "keep"]  # no fork
        with sm() as s:
            held = lease.get(s, sa.id)
        assert held is not None and held.owner == "b" and held.fence == 2
        # B's renewal keeps its lease alive past its first life.
        await asyncio.sleep(2.0)
        with sm() as s:
            held = lease.get(s, sa.id)
        assert held is not None and held.owner == "b" and held.alive()
        await a.stop()
        await b.stop()
        with sm() as s:  # a clean stop hands the table on at once
            held = lease.get(s, sa.id)
        assert held is not None and not held.alive()
    asyncio.run(run())
    engine.dispose()


def _ping_pong(url: str) -> None:
    """Seat 0 plays through A (the owner), seat 1 through B, turn about, a whole match: B relays
    every one of its actions, the lease never moves (fence 1 throughout: no thrash), every
    action is stored once, and B's sockets get every event through the shared fan-out."""
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    bus = LocalFanout()

    def service(node: str) -> TableService:
        return TableService(sm, bus, Settings(database_url=url, node=node, grace_seconds=3600,
                                              lease_seconds=3, relay_timeout=2), relay=True)

    async def run() -> None:
        a, b = service("a"), service("b")
        await a.start()
        await b.start()
        with sm.begin() as s:
            p0, p1 = repo.create_player(s, "Amira").id, repo.create_player(s, "Youssef").id
        sa = await a.create_table(p0, "chkobba", {"seats": 2, "target": 11, "best_of": 1}, True, 0)
        await sa.take_seat(p0, 0, None, None)
        await sa.take_seat(p1, 1, None, None)
        await sa.start(p0, first_dealer=0)
        sb = await b.session(sa.id)
        assert sb is not None
        seen: list[int] = []
        bus.subscribe(f"table:{sa.id}", lambda bundle: seen.extend(seq for seq, _ in bundle["events"]))
        reloads = 0
        reload = sb._reload

        async def counted() -> None:
            nonlocal reloads
            reloads += 1
            await reload()
        sb._reload = counted  # type: ignore[method-assign]
        rng = random.Random(7)
        n = 0
        while sa.match is not None and not sa.match.over and n < 2000:
            seat = sa.match.to_act()
            assert seat is not None
            choices = ([x for x in sa.match.legal_actions(seat) if x["type"] != "forfeit"]
                       or [{"type": "forfeit"}])
            via = sa if seat == 0 else sb
            reply, _ = await via.act(seat, f"c{n}", rng.choice(choices))
            assert reply["type"] == "ack", reply
            n += 1
        assert sa.match is not None and sa.match.over
        assert a.relay is not None and a.relay.served > 10 and sb.fence is None
        # B relays without replaying the match first (A's bundles mark it stale each time).
        assert reloads == 0
        with sm() as s:
            held = lease.get(s, sa.id)
            m = repo.current_match(s, sa.id)
            assert m is not None
            assert len(repo.action_log(s, m.id)) == len(sa.match.record()["actions"])
            last = repo.get_table(s, sa.id)
            assert last is not None
        assert held is not None and held.owner == "a" and held.fence == 1
        assert not held.alive()  # the match is over: its owner gave the lease up
        assert seen == list(range(seen[0], last.next_seq))  # every event once, in order
        await asyncio.sleep(1.5)  # a renewal (every second) does not take it back
        with sm() as s:
            held = lease.get(s, sa.id)
        assert held is not None and not held.alive()
        await a.stop()
        await b.stop()
    asyncio.run(run())
    engine.dispose()


def test_one_owner_per_table_on_sqlite(tmp_path: Path) -> None:
    _run(f"sqlite:///{tmp_path / 'l.db'}")


@pytest.mark.postgres
def test_one_owner_per_table_on_postgresql(pg_url: str) -> None:
    _run(pg_url)


def test_two_processes_playing_one_table_turn_about_do_not_move_its_lease(tmp_path: Path) -> None:
    _ping_pong(f"sqlite:///{tmp_path / 'p.db'}")


@pytest.mark.postgres
def test_two_processes_playing_one_table_turn_about_on_postgresql(pg_url: str) -> None:
    _ping_pong(pg_url)


def test_no_event_is_stored_without_the_lease(tmp_path: Path) -> None:
    """The store layer's fencing (issue 9 item 1): numbers are claimed only with the writer's
    ``(owner, fence)``, a stale fence claims nothing, and events are inserted only under a claim
    of the same transaction; an ORM add of an event is refused."""
    url = f"sqlite:///{tmp_path / 'f.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    with sm.begin() as s:
        host = repo.create_player(s, "H")
        table_id = repo.create_table(s, host_id=host.id, game="chkobba", public=True, clock=0,
                                     options={"seats": 2, "target": 11, "best_of": 1}).id
    ev = [{"type": "chat", "seat": 0, "name": "H", "text": "hi"}]
    with sm.begin() as s:
        assert lease.take(s, table_id, "x", 30) == 1
    with pytest.raises(repo.Unfenced), sm.begin() as s:
        repo.claim_seqs(s, table_id, 0, 1, None)
    with pytest.raises(repo.Unfenced), sm.begin() as s:
        repo.insert_events(s, table_id, 1, ev)  # no claim
    with pytest.raises(repo.Unfenced), sm.begin() as s:
        s.add(EventLog(table_id=table_id, seq=1, event="{}"))
        s.flush()
    with sm.begin() as s:
        t = repo.get_table(s, table_id)
        assert t is not None
        match_id = repo.start_match(s, t, "chkobba", {"actions": []}).id
    step = {"idx": 0, "seat": 0, "client_id": "c", "action": {"type": "keep"}, "auto": False, "events_end": 1}
    with pytest.raises(repo.Unfenced), sm.begin() as s:  # a plain action's batched write, no lease
        repo.Append(table_id, match_id, 0, ev, [step], None)(s)
    with sm.begin() as s:
        assert lease.take(s, table_id, "x", 30) == 2  # a takeover (here: the same node again)
    with sm.begin() as s:
        assert not repo.claim_seqs(s, table_id, 0, 1, ("x", 1))  # the stale fence: nothing
        assert not repo.claim_seqs(s, table_id, 0, 1, ("y", 2))  # not the owner: nothing
        with pytest.raises(repo.Unfenced):
            repo.insert_events(s, table_id, 1, ev)
    with sm.begin() as s:
        assert repo.claim_seqs(s, table_id, 0, 1, ("x", 2))
        assert repo.insert_events(s, table_id, 1, ev) == [1]
        with pytest.raises(repo.Unfenced):
            repo.insert_events(s, table_id, 1, ev)  # a claim covers its numbers once
    with sm() as s:
        assert repo.events_after(s, table_id, 0) == [(1, ev[0])]
        t = repo.get_table(s, table_id)
        assert t is not None and t.next_seq == 2
    engine.dispose()


def test_a_lease_is_taken_by_one_owner_at_a_time(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    with sm.begin() as s:
        host = repo.create_player(s, "H")
        t = repo.create_table(s, host_id=host.id, game="chkobba",
                              options={"seats": 2, "target": 11, "best_of": 1},
                              public=True, clock=0)
        table_id = t.id
    with sm.begin() as s:
        assert lease.take(s, table_id, "x", 30) == 1
        assert lease.take(s, table_id, "y", 30) is None  # x's lease is alive
        assert lease.take(s, table_id, "x", 30) == 2  # x again (a restart): a new fence
        assert lease.renew(s, "x", 30) == {table_id: 2}
        assert lease.renew(s, "y", 30) == {}
        assert lease.release(s, table_id, "x", 1) is False  # not that fence
        assert lease.release(s, table_id, "x", 2) is True
        assert lease.renew(s, "x", 30) == {}  # released stays released: the renewal skips it
        assert [x.table_id for x in lease.expired(s)] == [table_id]
        assert lease.take(s, table_id, "y", 30) == 3
    engine.dispose()


def test_a_relay_whose_redis_refuses_the_request_times_out_at_once() -> None:
    """Redis away when a write is relayed: the asker hears RelayTimeout (the action answers
    ``unavailable``: nothing was sent, so nothing applied), never a server error."""
    class Away(LocalFanout):
        async def publish(self, channel: str, message: dict[str, Any], *, confirm: bool = False) -> None:
            raise ConnectionError("redis is away")

    async def run() -> None:
        relay = Relay(Away(), "b", 5.0)
        with pytest.raises(RelayTimeout, match="redis is away"):  # the send failed: no waiting
            await relay.ask("a", "table", "act", {})
    asyncio.run(run())
