"""Sessions of tables another process writes are let go when unused (issue 9 item 6): two table
services (two processes' worth) on one database, each with its own fan-out end (its own local
subscribers, as each process has its own Redis connection) and a publish reaching both ends
(Redis). The process that created a table keeps a session of it, subscribed to its
fan-out channel, even once the match runs on the other process: every bundle of the match then
reached it too (measured with benchmarks/load_site.py: about 60 % of the tables of a
two-process run). ``TableService.evict_elsewhere`` drops such a session once nothing of this
process used it for ``EVICT_ELSEWHERE_AFTER`` seconds; a seated or watching socket, or the
table's lease, keeps it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from dineri.fanout import LocalFanout
from dineri.server.service import EVICT_ELSEWHERE_AFTER, TableService
from dineri.settings import Settings
from dineri.store import repo
from dineri.store.db import make_engine, migrate, sessions

pytestmark = pytest.mark.timeout(120)


class End(LocalFanout):
    """One process's end of a shared pub/sub: a publish reaches every end's local subscribers."""

    def __init__(self, ends: list[End]) -> None:
        super().__init__()
        self.ends = ends
        ends.append(self)

    async def publish(self, channel: str, message: dict[str, Any], *, confirm: bool = False) -> None:
        for end in self.ends:
            end._deliver(channel, message)


def test_a_table_created_here_and_played_elsewhere_is_let_go_once_unused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'e.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    ends: list[End] = []

    def service(node: str) -> TableService:
        return TableService(sm, End(ends), Settings(database_url=url, node=node, grace_seconds=3600,
                                              lease_seconds=30, relay_timeout=2), relay=True)

    def subscribers(table_id: str) -> int:  # over both processes
        return sum(end.listeners(f"table:{table_id}") for end in ends)

    async def run() -> None:
        a, b = service("a"), service("b")
        await a.start()
        await b.start()
        with sm.begin() as s:
            p0, p1 = repo.create_player(s, "Amira").id, repo.create_player(s, "Youssef").id
        # B creates the table (nginx sends creations to the least busy process); its seats and
        # start go to A (the table's process by the hash of its id), which takes the lease.
        sb = await b.create_table(p0, "chkobba", {"seats": 2, "target": 11, "best_of": 1}, False, 0)
        tid = sb.id
        sa = await a.session(tid)
        assert sa is not None
        await sa.take_seat(p0, 0, None, sb.code)
        await sa.take_seat(p1, 1, None, sb.code)
        await sa.start(p0, first_dealer=0)
        assert sa.fence is not None and sb.fence is None
        assert subscribers(tid) == 2  # B hears every bundle of A's match

        # Used a moment ago: kept. The owner never drops its own table.
        assert b.evict_elsewhere() == 0 and tid in b.sessions
        assert a.evict_elsewhere(idle=0) == 0 and tid in a.sessions
        sb.touched -= EVICT_ELSEWHERE_AFTER + 1
        assert b.evict_elsewhere() == 1 and tid not in b.sessions
        await asyncio.sleep(0)  # the session's close (its unsubscription) runs
        assert subscribers(tid) == 1  # only A's own session now
        assert a.evict_elsewhere(idle=0) == 0

        # A spectator's socket on B (it listens on the channel itself, no seat) keeps it too.
        sw = await b.session(tid)
        assert sw is not None and sw is not sb
        stop_watching = b.fanout.subscribe(f"table:{tid}", lambda bundle: None)
        sw.touched -= EVICT_ELSEWHERE_AFTER + 1
        assert b.evict_elsewhere() == 0
        stop_watching()
        assert b.evict_elsewhere() == 1
        await asyncio.sleep(0)
        assert subscribers(tid) == 1

        # Asked for again (a socket opens on B): reloaded, and a seat's socket there keeps it.
        sb2 = await b.session(tid)
        assert sb2 is not None and sb2 is not sw and subscribers(tid) == 2
        await sb2.connected(1)
        sb2.touched -= EVICT_ELSEWHERE_AFTER + 1
        assert b.evict_elsewhere(idle=0) == 0 and b.sessions[tid] is sb2
        # Its actions are relayed to A as before.
        assert sa.match is not None
        seat = sa.match.to_act()
        assert seat is not None
        action = next(x for x in sa.match.legal_actions(seat) if x["type"] != "forfeit")
        reply, _ = await sb2.act(seat, "b1", action)
        assert reply["type"] == "ack", reply
        # The last socket leaving counts as a use: kept for EVICT_ELSEWHERE_AFTER more seconds.
        await sb2.disconnected(1)
        assert b.evict_elsewhere() == 0
        sb2.touched -= EVICT_ELSEWHERE_AFTER + 1
        # ... and while its "gone" is on its way to the owner (the grace runs there).
        assert sb2._telling is not None and not sb2._telling.done()
        assert b.evict_elsewhere() == 0
        await sb2._telling
        assert b.evict_elsewhere() == 1
        await asyncio.sleep(0)
        assert subscribers(tid) == 1
        await a.stop()
        await b.stop()
    asyncio.run(run())
    engine.dispose()
