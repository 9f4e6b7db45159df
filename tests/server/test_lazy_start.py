"""Instant restart (issue 8 item 6): a restarted service loads no table up front, yet the turn
clocks and grace periods of tables nobody uses still fire (the due tables are polled)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from dineri.fanout import LocalFanout
from dineri.server.service import TableService
from dineri.settings import Settings
from dineri.store import repo
from dineri.store.db import make_engine, migrate, sessions

pytestmark = pytest.mark.timeout(120)


def test_a_restart_loads_nothing_yet_clocks_and_grace_periods_fire(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'z.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    settings = Settings(database_url=url, node="n1", grace_seconds=2.5, clock_scale=0.1)

    async def make(service: TableService, clock: int) -> str:
        with sm.begin() as s:
            a, b = repo.create_player(s, "A").id, repo.create_player(s, "B").id
        sess = await service.create_table(a, "chkobba", {"seats": 2, "target": 11, "best_of": 1}, True, clock)
        await sess.take_seat(a, 0, None, None)
        await sess.take_seat(b, 1, None, None)
        await sess.start(a, first_dealer=0)
        reply, _ = await sess.act(1, "c", {"type": "cut", "at": 1})
        assert reply["type"] == "ack"
        return sess.id

    def actions(table_id: str) -> list[dict]:
        with sm() as s:
            m = repo.current_match(s, table_id)
            assert m is not None
            return list(repo.record_of(s, m)["actions"])

    async def run() -> None:
        first = TableService(sm, LocalFanout(), settings)
        await first.start()
        idle = [await make(first, 0) for _ in range(5)]  # no clock: only the grace period
        timed = await make(first, 15)  # a 1.5 s turn clock (scaled)
        for sess in first.sessions.values():  # a crash: timers gone, leases left as they were
            sess._stop_timers()
        for task in (first._sweeper, first._renewer, first._poller):
            assert task is not None
            task.cancel()
        first.writer.stop()

        again = TableService(sm, LocalFanout(), settings)  # the same node, restarted
        t0 = time.monotonic()
        await again.start()
        assert time.monotonic() - t0 < 0.5 and not again.sessions  # nothing loaded up front
        # A resume needs only its own table.
        sess = await again.session(idle[0])
        assert sess is not None and sess.status == "playing" and list(again.sessions) == [idle[0]]
        # The timed table's clock fires with nobody there: the cutter's keep is made (auto).
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(actions(timed)) < 2:
            await asyncio.sleep(0.2)
        assert actions(timed)[1] == {"seat": 1, "type": "keep", "auto": True}
        # Every idle table's seats lapse after the grace period counted from the restart.
        while time.monotonic() < deadline and not all(actions(t)[-1]["type"] == "forfeit" for t in idle):
            await asyncio.sleep(0.2)
        assert all(actions(t)[-1]["type"] == "forfeit" for t in idle)
        assert time.monotonic() - t0 >= 2.0  # not before the grace period
        await again.stop()
    asyncio.run(run())
    engine.dispose()
