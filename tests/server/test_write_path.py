"""The write path (issue 8, item 1): the stored truth is the record's header and the action
log; the whole document, the rounds and the result are derived, and equal the game's own.
A plain action writes without reading anything the session knows."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from dineri.fanout import LocalFanout
from dineri.games import game_names
from dineri.server.service import TableService
from dineri.server.session import TableSession
from dineri.settings import Settings
from dineri.store import repo
from dineri.store.db import make_engine, migrate, sessions

GAMES = [("chkobba", {"seats": 2, "target": 11, "best_of": 1}),
         ("chkobba", {"seats": 4, "target": 11, "best_of": 1}),
         ("golf4", {"seats": 3, "rounds": 9}),
         ("seven_diamonds", {"seats": 4, "target": 500})]


async def _table(service: TableService, sm: Any, game: str, options: dict[str, Any]) -> TableSession:
    seats = 4 if game == "seven_diamonds" else int(options["seats"])
    with sm.begin() as s:
        players = [repo.create_player(s, f"P{i}").id for i in range(seats)]
    sess = await service.create_table(players[0], game, options, True, 0)
    for i, p in enumerate(players):
        await sess.take_seat(p, i, None, None)
    await sess.start(players[0])
    return sess


def _stored(sm: Any, sess: TableSession) -> tuple[dict[str, Any], list[Any], Any]:
    with sm() as s:
        m = repo.current_match(s, sess.id)
        assert m is not None and m.id == sess.match_id
        return repo.record_of(s, m), repo.round_results(s, m.id), repo.match_result(s, m.id)


@pytest.mark.parametrize(("game", "options"), [g for g in GAMES if g[0] in game_names()])
def test_derived_record_rounds_and_result_equal_the_games(tmp_path: Path, game: str,
                                                          options: dict[str, Any]) -> None:
    url = f"sqlite:///{tmp_path / 'w.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)

    async def run() -> None:
        service = TableService(sm, LocalFanout(), Settings(database_url=url, grace_seconds=3600))
        sess = await _table(service, sm, game, options)
        rng = random.Random(5)
        n = 0
        while sess.match is not None and not sess.match.over and n < 3000:
            seat = sess.match.to_act()
            assert seat is not None
            choices = [a for a in sess.match.legal_actions(seat) if a["type"] != "forfeit"]
            if n == 2999 or not choices:
                choices = [{"type": "forfeit"}]
            reply, _ = await sess.act(seat, f"c{n}", rng.choice(choices))
            assert reply["type"] == "ack", reply
            n += 1
            if n % 7 == 0 or sess.match.over:  # the document a reader gets mid-match
                record, rounds, result = _stored(sm, sess)
                assert record == sess.match.record()
        assert sess.match is not None and sess.match.over
        record, rounds, result = _stored(sm, sess)
        assert record == sess.match.record() and list(record) == list(sess.match.record())
        assert rounds == sess.match.rounds() and result == sess.match.result()
        # A fresh session (a restart) rebuilds the same match from the stored truth.
        again = TableSession(sess.id, sm, LocalFanout(), service.settings, service.lobby_changed)
        assert await again.load()
        assert again.match is not None and again.match.record() == sess.match.record()
        await service.stop()
        await again.close()
    asyncio.run(run())
    engine.dispose()


def test_a_plain_action_reads_nothing(tmp_path: Path) -> None:
    """No SELECT … FOR UPDATE of the table, no re-read of round numbers, no record rewrite:
    an action that ends no round is one transaction of one conditional UPDATE and the INSERTs
    of its events and its action row. Seen by SQLite itself (every connection's trace), so it
    holds on the event loop's own connection (``writer._Inline``) as on the writer thread's."""
    url = f"sqlite:///{tmp_path / 'r.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    statements: list[str] = []

    @event.listens_for(engine, "connect")
    def trace(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.set_trace_callback(lambda sql: statements.append(" ".join(sql.split())))

    async def run() -> None:
        service = TableService(sm, LocalFanout(), Settings(database_url=url, grace_seconds=3600))
        sess = await _table(service, sm, "chkobba", {"seats": 2, "target": 11, "best_of": 1})
        assert sess.match is not None
        for i, action in enumerate([{"type": "cut", "at": 5}, {"type": "keep"}]):
            seat = sess.match.to_act()
            assert seat is not None
            statements.clear()
            reply, _ = await sess.act(seat, f"x{i}", action)
            assert reply["type"] == "ack", reply
            kinds = [st.split()[0].upper() for st in statements]
            assert "SELECT" not in kinds, statements
            assert [st for st in statements if st.upper().startswith("UPDATE")] == [
                st for st in statements if st.upper().startswith("UPDATE TABLES SET NEXT_SEQ")], statements
            assert kinds.count("UPDATE") == 1, statements
            inserts = {st.split()[2].lower() for st in statements if st.upper().startswith("INSERT")}
            assert inserts == {"events", "actions"}, statements
            assert kinds.count("BEGIN") == 1 and kinds.count("COMMIT") == 1, statements
            assert not any("matches" in st.lower() for st in statements), statements
        await service.stop()
    asyncio.run(run())
    engine.dispose()
