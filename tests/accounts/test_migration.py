"""Migration 0003 (issue 14, item 7): a database at the previous head (0002) with stored
matches upgrades to head keeping every match, which still replays to its stored result; the
upgraded players can claim accounts and find those matches on their page."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import MetaData, inspect, select, text

from dineri.accounts import store as accounts
from dineri.accounts.history import matches_of
from dineri.fanout import LocalFanout
from dineri.games import get_game
from dineri.server.service import TableService
from dineri.settings import Settings
from dineri.store import hooks, repo
from dineri.store.db import alembic_config, make_engine, migrate, sessions
from dineri.store.models import Match, MatchResult
from tests.pg import pg_schema

PREVIOUS_HEAD = "0002"


def _play_matches(url: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Three finished matches and one in progress, stored by the server's own code."""
    monkeypatch.setattr(hooks, "_HOOKS", [])  # no account tables exist at 0002
    engine = make_engine(url)
    sm = sessions(engine)
    rng = random.Random(14)

    async def run() -> list[str]:
        service = TableService(sm, LocalFanout(), Settings(database_url=url))
        with sm.begin() as s:
            ids = [repo.create_player(s, n).id for n in ("Amira", "Youssef", "Sami", "Lina")]
        for k, seats in enumerate((2, 4, 2, 2)):
            sess = await service.create_table(ids[k % 2], "chkobba",
                                              {"seats": seats, "target": 11, "best_of": 1}, True, 0)
            for i in range(seats):
                await sess.take_seat(ids[i], i, None, None)
            await sess.start(ids[k % 2], first_dealer=0)
            assert sess.match is not None
            for _ in range(rng.randrange(3, 12)):  # a few legal moves, then (mostly) a forfeit
                seat = sess.match.to_act()
                if seat is None or sess.match.over:
                    break
                legal = [a for a in sess.match.legal_actions(seat) if a["type"] != "forfeit"]
                if not legal:
                    break
                await sess.act(seat, None, rng.choice(legal))
            if k < 3:
                await sess.act(k % seats, None, {"type": "forfeit"})
        await service.stop()
        return ids
    try:
        return asyncio.run(run())
    finally:
        engine.dispose()


def _copy_into_old_schema(src_url: str, dst_url: str) -> None:
    """Copy every row of the tables the old schema has, in its columns only, from a database
    at head to one at :data:`PREVIOUS_HEAD`: the matches are played by today's server code
    (whose models know later columns, e.g. 0004's tables.rematch_id) and stored as 0002 stored
    them (every 0002 column is still written by today's code)."""
    src, dst = make_engine(src_url), make_engine(dst_url)
    old = MetaData()
    old.reflect(dst)
    with src.connect() as s, dst.begin() as d:
        have = set(inspect(src).get_table_names())
        for table in old.sorted_tables:  # parents before children (foreign keys)
            if table.name == "alembic_version" or table.name not in have:
                continue
            rows = [dict(r._mapping) for r in s.execute(table.select())]  # the old columns, typed
            if rows:
                d.execute(table.insert(), rows)
    src.dispose()
    dst.dispose()


def _check(url: str, monkeypatch: pytest.MonkeyPatch, head_url: str) -> None:
    command.upgrade(alembic_config(url), PREVIOUS_HEAD)
    migrate(head_url)
    ids = _play_matches(head_url, monkeypatch)
    _copy_into_old_schema(head_url, url)
    engine = make_engine(url)
    with engine.connect() as c:
        rows = c.execute(text("SELECT id, record, status FROM matches"))
        before = {row.id: (row.record, row.status) for row in rows}
        results = dict(c.execute(text("SELECT match_id, result FROM results")).all())
    assert len(before) == 4 and len(results) == 3
    assert "accounts" not in inspect(engine).get_table_names()
    migrate(url)
    monkeypatch.undo()
    sm = sessions(engine)
    with sm() as s:
        after = {m.id: (m.record, m.status) for m in s.execute(select(Match)).scalars()}
        assert after == before  # every match kept as it was
        game = get_game("chkobba")
        for mid, (record, status) in after.items():
            match = game.load(json.loads(record))  # still replays
            assert match.over == (status == "over")
            if match.over:
                stored = s.get(MatchResult, mid)
                assert stored is not None and json.loads(stored.result) == match.result()
                assert json.loads(results[mid]) == match.result()
    with sm.begin() as s:  # a guest from before the upgrade claims an account and finds its matches
        accounts.claim(s, ids[0], "Amira", "hash")
    with sm() as s:
        assert len(matches_of(s, ids[0], with_private=True)) == 3
        assert len(matches_of(s, ids[3], with_private=True)) == 1  # Lina played the 2v2 only
    engine.dispose()


def test_upgrade_from_0002_keeps_every_match_on_sqlite(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _check(f"sqlite:///{tmp_path / 'old.db'}", monkeypatch, f"sqlite:///{tmp_path / 'head.db'}")


@pytest.mark.postgres
def test_upgrade_from_0002_keeps_every_match_on_postgresql(pg_url: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    with pg_schema() as head_url:
        _check(pg_url, monkeypatch, head_url)
