"""One owner per table (issue 8 item 3, issue 9 item 1): two table services (two processes'
worth: own node, own writer) on one database. The owner's lease is taken once; a process that
does not own a table runs none of its timers (issue 9: a restart forfeited the other process's
idle matches); a stale owner's write changes nothing; a dead owner's table is taken over."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import update

from dineri.fanout import LocalFanout
from dineri.server.service import TableService
from dineri.settings import Settings
from dineri.store import lease, repo
from dineri.store.db import make_engine, migrate, sessions
from dineri.store.models import TableLease, utcnow
from tests.server.test_storage import pg_url  # noqa: F401 (fixture)

pytestmark = pytest.mark.timeout(120)


def _run(url: str) -> None:
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)

    def service(node: str) -> TableService:
        return TableService(sm, LocalFanout(), Settings(database_url=url, node=node, grace_seconds=3600,
                                                        lease_seconds=1.5))

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
        # A misrouted action on B is judged and stored (unfenced, event numbers checked); B stays
        # without the lease and its timers; A, the owner, reads the table again and goes on.
        reply, _ = await sb.act(1, "b-cut", {"type": "cut", "at": 3})
        assert reply["type"] == "ack", reply
        assert sb.fence is None and not sb._grace and not bool(sb._clock_tasks)
        reply, _ = await sa.act(1, "a-cut", {"type": "cut", "at": 3})
        assert reply["type"] == "error" and reply["code"] == "wrong_phase", reply  # no second cut

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
        # (drops the session, stops its timers) and its action is judged again on what B stored.
        assert sa.match is not None and sa.match.to_act() == 1  # A still thinks: seat 1 keeps
        reply, _ = await sa.act(1, "a-late", {"type": "keep"})
        assert reply["type"] == "error" and reply["code"] == "wrong_phase", reply
        assert sa.fence is None and not bool(sa._clock_tasks) and sa.id not in a.sessions
        with sm() as s:
            m = repo.current_match(s, sa.id)
            assert m is not None
            actions = repo.record_of(s, m)["actions"]
            assert [x["type"] for x in actions] == ["cut", "keep"]  # no fork
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


def test_one_owner_per_table_on_sqlite(tmp_path: Path) -> None:
    _run(f"sqlite:///{tmp_path / 'l.db'}")


@pytest.mark.postgres
def test_one_owner_per_table_on_postgresql(pg_url: str) -> None:  # noqa: F811
    _run(pg_url)


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
        assert [x.table_id for x in lease.expired(s)] == [table_id]
        assert lease.take(s, table_id, "y", 30) == 3
    engine.dispose()
