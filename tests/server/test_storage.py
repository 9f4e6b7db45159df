"""Storage on SQLite and on the real PostgreSQL (issue 3, item 6): migrations apply, every
table is written and read back, and a whole match through a server on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from sqlalchemy import inspect

from dineri.games import get_game
from dineri.store import lease, repo
from dineri.store.db import make_engine, migrate, sessions
from dineri.store.models import Base
from tests.server.driver import Shadow, play_out, stacked_decks
from tests.server.harness import Api, Client, Server


def _exercise(url: str) -> None:
    migrate(url)
    migrate(url)  # applying again is a no-op
    engine = make_engine(url)
    try:
        names = set(inspect(engine).get_table_names())
        assert set(Base.metadata.tables) <= names and "alembic_version" in names
        sm = sessions(engine)
        game = get_game("chkobba")
        with sm.begin() as s:
            host = repo.create_player(s, "Amira")
            guest = repo.create_player(s, "Youssef")
            t = repo.create_table(s, host_id=host.id, game="chkobba",
                                  options={"seats": 2, "target": 11, "best_of": 1}, public=True, clock=30)
            repo.take_seat(s, t.id, 0, host.id)
            repo.take_seat(s, t.id, 1, guest.id)
            table_id = t.id
        match, events = game.new_match({"seats": 2, "target": 11, "best_of": 1}, ["Amira", "Youssef"], 0)
        with sm.begin() as s:
            t = repo.get_table(s, table_id, lock=True)
            assert t is not None and [r.seat for r, _ in repo.seats_of(s, table_id)] == [0, 1]
            m = repo.start_match(s, t, "chkobba", match.record())
            # Every event write holds the table's lease (issue 9 item 1: fenced, or refused).
            fence = lease.take(s, table_id, "test", 600)
            assert fence is not None
            holder = ("test", fence)
            assert repo.claim_seqs(s, table_id, 0, len(events), holder)
            assert repo.insert_events(s, table_id, 1, events) == list(range(1, len(events) + 1))
            match_id = m.id
        rng = random.Random(3)
        n = 0
        acks: dict[tuple[int, str], int] = {}
        while not match.over:
            seat = match.to_act()
            assert seat is not None
            options = [a for a in match.legal_actions(seat) if a["type"] != "forfeit"]
            match, evs = match.apply(seat, rng.choice(options))
            while match.needs_deck():
                match, more = match.add_deck()
                evs += more
            with sm.begin() as s:
                known = repo.get_table(s, table_id).next_seq - 1  # type: ignore[union-attr]
                step = {"idx": n, "seat": seat, "client_id": f"c{n}", "action": match.last_action(),
                        "auto": False, "events_end": len(evs)}
                seqs = repo.append_actions(s, table_id=table_id, match_id=match_id, known=known, events=evs,
                                           steps=[step], holder=holder)
                assert seqs is not None and seqs[0] == known + 1
                assert repo.append_actions(s, table_id=table_id, match_id=match_id, known=known, events=evs,
                                           steps=[{**step, "client_id": "again"}],
                                           holder=holder) is None  # numbers taken
                acks[(seat, f"c{n}")] = seqs[-1]
                stored_rounds = len(repo.round_results(s, match_id))
                repo.store_rounds(s, match_id, stored_rounds + 1, match.rounds()[stored_rounds:])
                if match.result() is not None:
                    repo.finish_match(s, table_id, match_id, match.result() or {}, match.record())
                else:
                    repo.store_header(s, match_id, match.record())
            n += 1
        with sm() as s:
            stored = repo.current_match(s, table_id)
            assert stored is not None and stored.status == "over"
            assert json.loads(stored.record) == match.record() == repo.record_of(s, stored)
            assert game.load(json.loads(stored.record)).result() == match.result()
            assert len(repo.action_log(s, match_id)) == n == len(match.record()["actions"])
            assert repo.client_acks(s, match_id) == acks
            assert repo.round_results(s, match_id) == match.rounds()
            assert repo.match_result(s, match_id) == match.result()
            evs_back = repo.events_after(s, table_id, 0)
            assert [seq for seq, _ in evs_back] == list(range(1, len(evs_back) + 1))
            assert repo.get_table(s, table_id).status == "over"  # type: ignore[union-attr]
            assert repo.open_public_tables(s) == []
    finally:
        engine.dispose()


def test_storage_on_sqlite(tmp_path: Path) -> None:
    _exercise(f"sqlite:///{tmp_path / 'store.db'}")


@pytest.mark.postgres
def test_storage_on_postgresql(pg_url: str) -> None:
    _exercise(pg_url)


@pytest.mark.postgres
@pytest.mark.timeout(120)
def test_whole_match_on_postgresql_survives_sigkill(pg_url: str) -> None:
    srv = Server(pg_url, DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    try:
        rng = random.Random(11)
        decks = stacked_decks(rng)
        table, players = api.full_table(["Amira", "Youssef"], decks=decks, first_dealer=1)
        shadow = Shadow.start(2, 11, 1, 1, decks)

        async def part(stop: int | None) -> None:
            clients = [await Client(srv, table["id"], p["token"]).connect() for p in players]
            await play_out(shadow, clients, rng, stop_after=stop)
            for c in clients:
                await c.close()
        asyncio.run(part(15))
        srv.kill()
        srv.start()
        asyncio.run(part(None))
        record = api.call("GET", f"/api/tables/{table['id']}/record", players[0]).json()
        assert record["actions"] == shadow.actions
        assert record["result"]["winner"] == shadow.state.winner
    finally:
        srv.stop()
        api.http.close()
