"""The table service in process (no sockets): loading and evicting sessions."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dineri.fanout import LocalFanout
from dineri.server.service import TableService
from dineri.settings import Settings
from dineri.store import repo
from dineri.store.db import make_engine, migrate, sessions


def test_finished_tables_leave_memory_and_reload(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'svc.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)

    async def run() -> None:
        service = TableService(sm, LocalFanout(), Settings(database_url=url))
        with sm.begin() as s:
            players = [repo.create_player(s, n).id for n in ("A", "B")]
        sess = await service.create_table(players[0], "chkobba", {"seats": 2, "target": 11, "best_of": 1},
                                          True, 0)
        for i, p in enumerate(players):
            await sess.take_seat(p, i, None, None)
        await sess.start(players[0], first_dealer=0)
        assert service.evict_finished(idle=0) == 0  # playing: kept
        reply, fresh = await sess.act(0, "f", {"type": "forfeit"})
        assert reply["type"] == "ack" and fresh and sess.status == "over"
        assert service.evict_finished(idle=3600) == 0  # used just now
        assert service.evict_finished(idle=0) == 1 and sess.id not in service.sessions
        again = await service.session(sess.id)
        assert again is not None and again is not sess
        assert again.status == "over" and again.match is not None and sess.match is not None
        assert again.match.result() == sess.match.result()
        await service.stop()
    asyncio.run(run())
    engine.dispose()
