"""Group commit and database timeouts (issue 8 item 2, issue 7 item 3), for real: the writer
commits many tables' actions in shared transactions; a write that fails takes no other with
it; a stalled database refuses actions with ``unavailable`` (nothing applied), ``/readyz``
says 503, and start-up against a database that never answers exits non-zero with a clear error."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select, text
from sqlalchemy.orm import Session
from websockets.exceptions import ConnectionClosed

from dineri.fanout import LocalFanout
from dineri.server.service import TableService
from dineri.settings import Settings
from dineri.store import lease, repo
from dineri.store.db import make_engine, migrate, sessions
from dineri.store.models import Player
from dineri.store.writer import Unavailable, Writer
from tests.server.harness import ROOT, Api, Client, Server, free_port

pytestmark = pytest.mark.timeout(120)


def test_writes_arriving_together_share_a_commit(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)

    async def run() -> None:
        service = TableService(sm, LocalFanout(), Settings(database_url=url, grace_seconds=3600))
        await service.start()
        tables = []
        for i in range(20):
            with sm.begin() as s:
                a, b = repo.create_player(s, f"A{i}").id, repo.create_player(s, f"B{i}").id
            sess = await service.create_table(a, "chkobba", {"seats": 2, "target": 11, "best_of": 1}, True, 0)
            await sess.take_seat(a, 0, None, None)
            await sess.take_seat(b, 1, None, None)
            await sess.start(a, first_dealer=0)
            tables.append(sess)
        before_commits, before_writes = service.writer.commits, service.writer.writes
        replies = await asyncio.gather(*(t.act(1, "cut", {"type": "cut", "at": 3}) for t in tables))
        assert all(r["type"] == "ack" for r, _ in replies)
        writes = service.writer.writes - before_writes
        commits = service.writer.commits - before_commits
        assert writes == 20 and commits < writes  # 20 tables' actions, fewer transactions
        with sm() as s:
            for t in tables:
                m = repo.current_match(s, t.id)
                assert m is not None and repo.action_count(s, m.id) == 1
        await service.stop()
    asyncio.run(run())
    engine.dispose()


def test_a_failing_write_takes_no_other_with_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'f.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    writer = Writer(sm, timeout=10)

    def slow(s: Session) -> str:
        time.sleep(0.3)  # the others queue up meanwhile and form one group
        return str(repo.create_player(s, "first").id)

    def add(name: str) -> Any:
        def fn(s: Session) -> str:
            pid = str(repo.create_player(s, name).id)
            if name == "bad":
                raise ValueError("refused")
            return pid
        return fn

    async def run() -> list[Any]:
        first = asyncio.ensure_future(writer.run(slow))
        await asyncio.sleep(0.05)
        rest = [writer.run(add(n)) for n in ("p1", "bad", "p2", "p3")]
        return [await first, *await asyncio.gather(*rest, return_exceptions=True)]
    out = asyncio.run(run())
    writer.stop()
    assert isinstance(out[2], ValueError)
    with sm() as s:
        names = sorted(s.execute(select(Player.name)).scalars())
    assert names == ["first", "p1", "p2", "p3"]  # the bad write stored nothing, the others all
    engine.dispose()


def test_a_write_past_its_deadline_is_never_committed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'd.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    writer = Writer(sm, timeout=0.3)

    def slow(s: Session) -> None:
        repo.create_player(s, "late")
        time.sleep(0.6)  # past the caller's deadline, before the commit

    async def run() -> None:
        with pytest.raises(Unavailable):
            await writer.run(slow)
    asyncio.run(run())
    writer.stop()
    with sm() as s:
        assert list(s.execute(select(Player.name)).scalars()) == []
    engine.dispose()


@pytest.mark.postgres
def test_a_stalled_database_refuses_actions_and_readyz_says_so(pg_url: str) -> None:
    srv = Server(pg_url, DINERI_DB_TIMEOUT="1", DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    locker = make_engine(pg_url)
    try:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        assert api.http.get("/readyz").json() == {"status": "ready", "database": "ok"}

        async def play() -> None:
            c = await Client(srv, table["id"], players[1]["token"]).connect(last_event=0)
            with locker.connect() as conn:  # a stall: every write and the probe wait on this lock
                conn.execute(text("LOCK TABLE tables IN ACCESS EXCLUSIVE MODE"))
                t0 = time.monotonic()
                reply = await c.act({"type": "cut", "at": 4}, "cut-1")
                waited = time.monotonic() - t0
                assert reply["type"] == "error" and reply["code"] == "unavailable", reply
                assert waited < 5, waited
                async with httpx.AsyncClient(base_url=srv.base) as h:
                    r = await h.get("/readyz", timeout=10)
                assert r.status_code == 503 and r.json()["status"] == "unavailable", r.text
                conn.rollback()  # the stall ends
            async with httpx.AsyncClient(base_url=srv.base) as h:
                assert (await h.get("/readyz", timeout=10)).status_code == 200
            reply = await c.act({"type": "cut", "at": 4}, "cut-1")  # sent again, same id
            assert reply["type"] == "ack", reply
            again = await c.act({"type": "cut", "at": 4}, "cut-1")
            assert again == {**reply}
            await c.close()
        asyncio.run(play())
        engine = make_engine(pg_url)
        with sessions(engine)() as s:
            m = repo.current_match(s, table["id"])
            assert m is not None
            assert repo.record_of(s, m)["actions"] == [{"seat": 1, "type": "cut", "at": 4}]  # once
        engine.dispose()
    finally:
        locker.dispose()
        srv.stop()
        api.http.close()


@pytest.fixture
def black_hole() -> Iterator[int]:
    """A TCP port that accepts connections and never answers (a stalled database)."""
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(64)
    held: list[socket.socket] = []
    done = threading.Event()

    def accept() -> None:
        lsock.settimeout(0.2)
        while not done.is_set():
            try:
                conn, _ = lsock.accept()
                held.append(conn)
            except TimeoutError:
                continue
            except OSError:
                return
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield int(lsock.getsockname()[1])
    done.set()
    thread.join(2)
    for c in held:
        c.close()
    lsock.close()


def test_start_up_against_a_database_that_never_answers_exits_with_an_error(black_hole: int,
                                                                              tmp_path: Path) -> None:
    env = {**os.environ, "DINERI_DATABASE_URL": f"postgresql+psycopg://postgres@127.0.0.1:{black_hole}/test",
           "DINERI_DB_CONNECT_TIMEOUT": "2", "DINERI_SECRET_KEY": "x" * 32}
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "dineri.cli", "serve", "--port", str(free_port())],
                          cwd=ROOT, env=env, capture_output=True, timeout=60)
    took = time.monotonic() - t0
    err = proc.stderr.decode()
    assert proc.returncode != 0, err[-2000:]
    assert "database unavailable at start-up" in err, err[-2000:]
    assert took < 30, took


def test_sqlite_synchronous_is_the_setting(tmp_path: Path) -> None:
    for name, level in (("normal", 1), ("full", 2)):
        engine = make_engine(f"sqlite:///{tmp_path / (name + '.db')}", synchronous=name)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == level
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        engine.dispose()
    with pytest.raises(ValueError):
        make_engine(f"sqlite:///{tmp_path / 'x.db'}", synchronous="off")


@pytest.mark.postgres
def test_a_seat_that_drops_during_a_stall_still_forfeits_after_its_grace(pg_url: str) -> None:
    """Found by the adversarial pass: the seat's last socket closes while the database is
    stalled, so its ``player_away`` cannot be stored. Its grace must run all the same (then its
    side forfeits): before, the seat stayed away with no timer and the match never ended.
    A chat line in the stall is refused ``unavailable`` (it was an ``internal`` error)."""
    srv = Server(pg_url, DINERI_DB_TIMEOUT="1", DINERI_GRACE_SECONDS="3",
                 DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    locker = make_engine(pg_url)
    try:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)

        async def play() -> None:
            a = await Client(srv, table["id"], players[0]["token"]).connect(last_event=0)
            b = await Client(srv, table["id"], players[1]["token"]).connect(last_event=0)
            with locker.connect() as conn:
                conn.execute(text("LOCK TABLE events IN ACCESS EXCLUSIVE MODE"))
                start = len(a.frames)
                await a.send({"type": "chat", "id": "c1", "text": "hello?"})
                refused = await a.wait_for(lambda f: f["type"] == "error" and f.get("id") == "c1", start)
                assert refused["code"] == "unavailable", refused
                await b.close()  # seat 1's last socket: its player_away cannot be stored now
                await asyncio.sleep(2.5)  # past the database timeout
                conn.rollback()  # the stall ends
            over = await a.wait_for(lambda f: f["type"] == "event"
                                    and f["event"]["type"] == "match_over", timeout=20)
            assert over["event"]["reason"] == "forfeit" and over["event"]["winner"] == 0
            await a.close()
        asyncio.run(play())
    finally:
        locker.dispose()
        srv.stop()
        api.http.close()


def test_sigkill_during_a_burst_from_many_tables_loses_no_acknowledged_action(tmp_path: Path) -> None:
    """Issue 8: 16 tables act at once (their actions share group commits); the server is
    killed mid-burst; every acknowledged action of every table is in its stored record."""
    import random

    from tests.server.driver import Shadow, pick, stacked_decks

    db = tmp_path / "burst.db"
    srv = Server(f"sqlite:///{db}", DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    try:
        rng = random.Random(11)
        games = []
        for i in range(16):
            decks = stacked_decks(rng)
            table, players = api.full_table([f"A{i}", f"B{i}"], decks=decks, first_dealer=0)
            games.append((table, players, Shadow.start(2, 11, 1, 0, decks)))

        async def burst() -> None:
            clients = [[await Client(srv, t["id"], p["token"]).connect(last_event=0) for p in ps]
                       for t, ps, _ in games]

            async def play(shadow: Shadow, seats: list[Client]) -> None:
                with contextlib.suppress(ConnectionClosed, ConnectionError, TimeoutError, OSError):
                    while shadow.to_act() is not None:
                        seat = shadow.to_act()
                        assert seat is not None
                        action = pick(shadow, seat, rng)
                        reply = await seats[seat].act(action)
                        if reply["type"] != "ack":
                            return
                        shadow.apply(seat, action, reply["seq"])
            tasks = [asyncio.ensure_future(play(g[2], c)) for g, c in zip(games, clients, strict=True)]
            await asyncio.sleep(1.5)
            srv.kill()  # mid-burst, no shutdown at all
            await asyncio.gather(*tasks)
            for cs in clients:
                for c in cs:
                    with contextlib.suppress(ConnectionClosed, OSError):
                        await c.close()
        asyncio.run(burst())
        acked = sum(len(g[2].actions) for g in games)
        assert acked > 16  # the kill came mid-burst, after acknowledged actions
        engine = make_engine(f"sqlite:///{db}")
        with sessions(engine)() as s:
            for table, _, shadow in games:
                m = repo.current_match(s, table["id"])
                assert m is not None
                stored = repo.record_of(s, m)["actions"]
                # Every acknowledged action is stored, in order; at most the one in flight more.
                assert stored[:len(shadow.actions)] == shadow.actions
                assert len(stored) <= len(shadow.actions) + 1
        engine.dispose()
        srv.start()  # and the server starts again on what was stored
        assert api.http.get("/readyz").status_code == 200
    finally:
        srv.stop()
        api.http.close()


@pytest.mark.postgres
def test_readyz_says_unavailable_while_writes_are_refused_though_reads_answer(pg_url: str) -> None:
    """Adversarial pass: with only ``events`` locked, the read probe of ``/readyz`` answered
    while every action was refused ``unavailable``, and ``/readyz`` said 200. It now says 503
    until a write commits again."""
    srv = Server(pg_url, DINERI_DB_TIMEOUT="1", DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    locker = make_engine(pg_url)
    try:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)

        async def play() -> None:
            c = await Client(srv, table["id"], players[1]["token"]).connect(last_event=0)
            async with httpx.AsyncClient(base_url=srv.base) as h:
                assert (await h.get("/readyz", timeout=10)).status_code == 200
                with locker.connect() as conn:
                    conn.execute(text("LOCK TABLE events IN ACCESS EXCLUSIVE MODE"))
                    reply = await c.act({"type": "cut", "at": 4}, "cut-1")
                    assert reply["type"] == "error" and reply["code"] == "unavailable", reply
                    r = await h.get("/readyz", timeout=10)
                    assert r.status_code == 503 and r.json()["status"] == "unavailable", r.text
                    conn.rollback()
                reply = await c.act({"type": "cut", "at": 4}, "cut-1")  # the same id, now stored
                assert reply["type"] == "ack", reply
                assert (await h.get("/readyz", timeout=10)).status_code == 200
            await c.close()
        asyncio.run(play())
    finally:
        locker.dispose()
        srv.stop()
        api.http.close()


def _batch_tables(sm: Any, n: int) -> list[tuple[str, int]]:
    """``n`` tables with a match each (no event yet): ``(table id, match id)``."""
    out = []
    with sm.begin() as s:
        host = repo.create_player(s, "H")
        for _ in range(n):
            t = repo.create_table(s, host_id=host.id, game="chkobba", options={}, public=True, clock=0)
            m = repo.start_match(s, t, "chkobba", {"actions": []})
            out.append((t.id, m.id))
    return out


def _append(table: tuple[str, int], known: int, holder: tuple[str, int] | None = None) -> repo.Append:
    step = {"idx": known, "seat": 0, "client_id": f"c{known}", "action": {"type": "keep"}, "auto": False,
            "events_end": 1}
    return repo.Append(table[0], table[1], known, [{"type": "kept", "n": known}], [step], holder, None)


@pytest.mark.parametrize("db", ["sqlite", "postgres"])
def test_plain_actions_queued_together_are_one_statement_each(tmp_path: Path, db: str,
                                                              request: pytest.FixtureRequest,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 8 items 1–2: a group of plain actions (repo.Append) runs each statement once for
    the whole group (executemany), in order, with the fencing check; a table written twice in
    one group gets its numbers in order; the second write of a beaten table is refused alone.
    On PostgreSQL (issue 9 item 6) the raw path runs each run of the group as ONE statement
    (claims and both INSERTs over arrays, repo._PG_APPEND)."""
    url = request.getfixturevalue("pg_url") if db == "postgres" else f"sqlite:///{tmp_path / 'b.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    tables = _batch_tables(sm, 4)
    with sm.begin() as s:  # every event write holds its table's lease (issue 9 item 1)
        fences = [lease.take(s, t, "node-a", 60) for t, _ in tables]
    assert fences == [1, 1, 1, 1]
    fence, a = 1, ("node-a", 1)
    statements: list[tuple[str, bool]] = []
    params = repo._Driver.params  # every executemany of a group, through a Session or raw

    def seen(d: Any, rows: list[dict[str, Any]]) -> Any:
        statements.append((" ".join(d.sql.split()[:3]).upper(), True))
        return params(d, rows)
    monkeypatch.setattr(repo._Driver, "params", seen)
    if db == "postgres":
        import psycopg

        execute = psycopg.Cursor.execute

        def run_one(cur: Any, query: Any, *a: Any, **kw: Any) -> Any:
            statements.append((" ".join(str(query).split()[:3]).upper(), False))
            return execute(cur, query, *a, **kw)
        monkeypatch.setattr(psycopg.Cursor, "execute", run_one)

    writer = Writer(sm, timeout=10, on_loop=False)  # the thread's groups (the loop's: below)

    def slow(s: Session) -> None:
        time.sleep(0.3)  # the others queue up meanwhile and form one group

    async def run(writes: list[repo.Append]) -> list[Any]:
        first = asyncio.ensure_future(writer.run(slow))
        # Until the thread is inside the slow write (a loaded machine starts it late: the
        # writes below then joined its group, not a group of their own).
        while writer._busy_since is None:
            await asyncio.sleep(0.005)
        out = await asyncio.gather(*(writer.run(w) for w in writes), return_exceptions=True)
        await first
        return out
    writes = [_append(tables[0], 0, a), _append(tables[1], 0, a), _append(tables[2], 0, a),
              _append(tables[0], 1, a), _append(tables[3], 0, ("node-a", fence))]
    statements.clear()
    assert asyncio.run(run(writes)) == [[1], [1], [1], [2], [1]]
    updates = [many for st, many in statements if st.startswith("UPDATE TABLES")]
    inserts = [st for st, _ in statements if st.startswith("INSERT INTO EVENTS")]
    if db == "postgres":  # two runs (table 0 twice): two statements of claims and inserts, not 15
        assert [st for st, _ in statements if not st.startswith("SELECT")] == ["WITH C AS"] * 2, statements
    else:  # two chunks (table 0 twice): 2 UPDATEs, not 5
        assert len(updates) == 2 and len(inserts) == 2, statements
    # PostgreSQL: the group ran on the thread's raw connection (no Session), in one commit.
    assert writer.raw_commits == (1 if db == "postgres" else 0)
    with sm() as s:
        assert repo.events_after(s, tables[0][0], 0) == [(1, {"type": "kept", "n": 0}),
                                                          (2, {"type": "kept", "n": 1})]
        assert repo.client_acks(s, tables[0][1]) == {(0, "c0"): 1, (0, "c1"): 2}
    # A beaten write (stale numbers, a lost lease) in a group: refused alone, the others stored.
    with sm.begin() as s:
        later = datetime.now(UTC) + timedelta(seconds=120)  # node-a's lease ran out: node-b takes it
        assert lease.take(s, tables[3][0], "node-b", 60, now=later) is not None
    writes = [_append(tables[1], 1, a), _append(tables[2], 0, a), _append(tables[0], 2, a),
              _append(tables[3], 1, ("node-a", fence))]
    out = asyncio.run(run(writes))
    writer.stop()
    assert out[0] == [2] and out[2] == [3], out
    assert isinstance(out[1], repo.Conflict) and isinstance(out[3], repo.Conflict), out
    with sm() as s:
        assert [q for q, _ in repo.events_after(s, tables[1][0], 0)] == [1, 2]
        assert [q for q, _ in repo.events_after(s, tables[2][0], 0)] == [1]
        assert [q for q, _ in repo.events_after(s, tables[3][0], 0)] == [1]
    engine.dispose()


@pytest.mark.postgres
def test_a_raw_connection_killed_between_groups_loses_and_doubles_nothing(pg_url: str) -> None:
    """Issue 8 on PostgreSQL: the writer thread commits groups of plain actions on a raw
    connection of its own. Killed by the server between two groups (a restart, an idle
    timeout), the next group fails before its COMMIT: rolled back, it is run through a Session
    (a fresh pooled connection) and every write stored exactly once; the one after that opens a
    fresh raw connection. Lost leases stay refused on either path."""
    migrate(pg_url)
    engine = make_engine(pg_url)
    sm = sessions(engine)
    tables = _leased(sm, 3)
    writer = Writer(sm, timeout=10)
    a = ("node-a", 1)

    async def group(known: list[int], holders: list[tuple[str, int]]) -> list[Any]:
        return await asyncio.gather(*(writer.run(_append(t, k, h))
                                      for t, k, h in zip(tables, known, holders, strict=True)),
                                    return_exceptions=True)
    assert asyncio.run(group([0, 0, 0], [a, a, a])) == [[1], [1], [1]]
    assert writer.raw_commits == 1
    raw = writer._raw
    assert raw is not None and raw._conn is not None
    pid = raw._conn.info.backend_pid
    with engine.begin() as c:
        assert c.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}).scalar() is True
    time.sleep(0.2)
    out = asyncio.run(group([1, 1, 1], [a, ("node-b", 1), a]))
    assert out[0] == [2] and out[2] == [2] and isinstance(out[1], repo.Conflict), out
    assert writer.raw_commits == 1 and raw._conn is None  # that group went through a Session
    raw._open_after = 0.0  # no waiting out RETRY_OPEN
    assert asyncio.run(group([2, 1, 2], [a, a, a])) == [[3], [2], [3]]
    assert writer.raw_commits == 2 and raw._conn is not None and raw._conn.info.backend_pid != pid
    writer.stop()
    with sm() as s:
        assert [q for q, _ in repo.events_after(s, tables[0][0], 0)] == [1, 2, 3]
        assert [q for q, _ in repo.events_after(s, tables[1][0], 0)] == [1, 2]
        assert repo.action_count(s, tables[0][1]) == 3
    engine.dispose()


@pytest.mark.parametrize("db", ["sqlite", "postgres"])
def test_a_group_stores_the_same_rows_through_any_path(tmp_path: Path, db: str,
                                                       request: pytest.FixtureRequest) -> None:
    """The raw group path (on PostgreSQL one statement over JSON rows, repo._PG_APPEND) stores
    exactly what a write alone stores through a Session: each event's and action's JSON text
    byte for byte (quotes, backslashes, non-ASCII), a missing client id as NULL, the ack numbers,
    and the table's due time set, cleared or left as it was (issue 8 item 6, issue 9 item 6)."""
    url = request.getfixturevalue("pg_url") if db == "postgres" else f"sqlite:///{tmp_path / 'r.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    tables = _leased(sm, 6)
    a = ("node-a", 1)
    due = datetime(2031, 5, 6, 7, 8, 9, 123456, tzinfo=UTC)
    earlier = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    with sm.begin() as s:  # a due time the third write of each half leaves as it is
        for t, _ in tables:
            repo.set_due(s, t, earlier)
    odd = {"type": "said", "text": 'قال "لا" \\ é\n\t', "n": 3, "nested": {"k": [1, None, True]}}

    def write(table: tuple[str, int], due_at: datetime | bool | None, client: str | None) -> repo.Append:
        step = {"idx": 0, "seat": 1, "client_id": client, "action": {"type": "say", "text": odd["text"]},
                "auto": client is None, "events_end": 2}
        return repo.Append(table[0], table[1], 0, [odd, {"type": "turn", "seat": 0}], [step], a, due_at)
    grouped = [write(tables[0], due, "c-1"), write(tables[1], None, None), write(tables[2], False, "c-3")]
    alone = [write(tables[3], due, "c-1"), write(tables[4], None, None), write(tables[5], False, "c-3")]
    writer = Writer(sm, timeout=10, on_loop=False)

    async def run() -> list[Any]:
        return await asyncio.gather(*(writer.run(w) for w in grouped))
    assert asyncio.run(run()) == [[1, 2]] * 3
    writer.stop()
    if db == "postgres":
        assert writer.raw_commits == 1
    for w in alone:  # each through a Session: the statements of run_many
        with sm.begin() as s:
            assert w(s) == [1, 2]

    def stored(table: tuple[str, int]) -> tuple[Any, ...]:
        with engine.connect() as c:
            events = c.execute(text("SELECT seq, event FROM events WHERE table_id = :t ORDER BY seq"),
                               {"t": table[0]}).all()
            actions = c.execute(text("SELECT idx, seat, client_id, action, auto, ack_seq FROM actions "
                                     "WHERE match_id = :m"), {"m": table[1]}).all()
            at = c.execute(text("SELECT next_seq, due_at FROM tables WHERE id = :t"), {"t": table[0]}).one()
        when = at[1]
        if isinstance(when, str):  # SQLite: text
            when = datetime.fromisoformat(when)
        if when is not None and when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        return ([tuple(e) for e in events], [tuple(x) for x in actions], at[0], when)
    for g, one, expect_due in zip(tables[:3], tables[3:], [due, None, earlier], strict=True):
        got, ref = stored(g), stored(one)
        assert got == ref, (got, ref)
        assert got[0][0] == (1, repo._dump(odd)) and got[2] == 3 and got[3] == expect_due
    assert stored(tables[1])[1][0][2] is None  # no client id: NULL
    engine.dispose()


def _leased(sm: Any, n: int) -> list[tuple[str, int]]:
    tables = _batch_tables(sm, n)
    with sm.begin() as s:
        for t, _ in tables:
            assert lease.take(s, t, "node-a", 60) == 1
    return tables


def test_plain_actions_of_one_loop_turn_commit_on_the_loop_in_one_transaction(tmp_path: Path) -> None:
    """Issue 8 item 2 on SQLite (WAL, synchronous NORMAL): plain actions queued in one turn of
    the event loop are committed there, together, without the writer thread (it never starts),
    and another connection reads them at once (committed before the callers heard back)."""
    url = f"sqlite:///{tmp_path / 'l.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    tables = _leased(sm, 3)
    writer = Writer(sm, timeout=10)

    async def run() -> list[Any]:
        return await asyncio.gather(*(writer.run(_append(t, 0, ("node-a", 1))) for t in tables))
    assert asyncio.run(run()) == [[1], [1], [1]]
    assert (writer.commits, writer.loop_commits, writer.writes) == (1, 1, 3)
    assert writer._thread is None  # no hand-off at all
    other = make_engine(url)
    with sessions(other)() as s:
        for t, m in tables:
            assert repo.events_after(s, t, 0) == [(1, {"type": "kept", "n": 0})]
            assert repo.client_acks(s, m) == {(0, "c0"): 1}
    writer.stop()
    other.dispose()
    engine.dispose()


def test_a_plain_action_meeting_the_files_lock_is_committed_by_the_thread(tmp_path: Path) -> None:
    """The loop never waits for SQLite's lock: while another connection holds it, the write goes
    to the writer thread (which waits for it, up to the busy timeout) and commits once."""
    url = f"sqlite:///{tmp_path / 'k.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    tables = _leased(sm, 1)
    writer = Writer(sm, timeout=10)
    locker = sqlite3.connect(tmp_path / "k.db", isolation_level=None, check_same_thread=False)
    locker.execute("BEGIN IMMEDIATE")
    threading.Timer(0.4, locker.rollback).start()

    async def run() -> Any:
        t0 = time.monotonic()
        out = await writer.run(_append(tables[0], 0, ("node-a", 1)))
        return out, time.monotonic() - t0
    out, waited = asyncio.run(run())
    writer.stop()
    locker.close()
    assert out == [1] and waited >= 0.3
    assert (writer.commits, writer.loop_commits) == (1, 0)
    with sm() as s:
        assert repo.events_after(s, tables[0][0], 0) == [(1, {"type": "kept", "n": 0})]
    engine.dispose()


def test_plain_actions_arriving_while_the_thread_commits_wait_and_commit_on_the_loop(tmp_path: Path) -> None:
    """Issue 8 item 2: plain actions queued while the writer thread is in a transaction (it holds
    the file's lock) wait on the loop until its commit, then commit there in one transaction:
    they are not handed to the thread (whose group would hold the lock for the next ones: under
    load nearly every plain action went to the thread), and none of them commits before the
    thread's write (a table's writes are stored in the order they were made)."""
    url = f"sqlite:///{tmp_path / 'w.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    tables = _leased(sm, 4)
    writer = Writer(sm, timeout=10)
    order: list[str] = []
    began = threading.Event()

    def slow(s: Session) -> str:  # not a plain action: the thread's
        began.set()
        s.execute(text("UPDATE tables SET status = status WHERE id = :t"), {"t": tables[0][0]})
        time.sleep(0.3)  # holds the file's lock
        order.append("thread")
        return "slow"

    async def run() -> list[Any]:
        first = asyncio.ensure_future(writer.run(slow))
        while not began.is_set():
            await asyncio.sleep(0.005)

        async def plain(t: tuple[str, int]) -> Any:
            out = await writer.run(_append(t, 0, ("node-a", 1)))
            order.append("loop")
            return out
        return [await first, *await asyncio.gather(*(plain(t) for t in tables[1:]))]
    assert asyncio.run(run()) == ["slow", [1], [1], [1]]
    writer.stop()
    assert order == ["thread", "loop", "loop", "loop"]
    assert (writer.loop_commits, writer.loop_writes, writer.commits) == (1, 3, 2)
    with sm() as s:
        for t in tables[1:]:
            assert repo.events_after(s, t[0], 0) == [(1, {"type": "kept", "n": 0})]
    engine.dispose()


def test_with_a_commit_delay_a_busy_loop_gathers_later_actions_into_one_commit(tmp_path: Path) -> None:
    """``DINERI_SQLITE_COMMIT_DELAY_MS``: once the loop committed a group lately, the next group
    waits the delay for more: actions queued in later turns of the loop (here 10 ms apart, the
    delay 300 ms) share one commit, each acknowledged only after it; the first group after a
    quiet spell is committed at the loop's next turn."""
    url = f"sqlite:///{tmp_path / 'y.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    tables = _leased(sm, 4)
    writer = Writer(sm, timeout=10, delay=0.3)

    async def run() -> list[Any]:
        first = await writer.run(_append(tables[0], 0, ("node-a", 1)))  # quiet until now: at once
        assert (writer.loop_commits, writer.loop_writes) == (1, 1)

        async def later(t: tuple[str, int], after: float) -> Any:
            await asyncio.sleep(after)
            return await writer.run(_append(t, 0, ("node-a", 1)))
        rest = await asyncio.gather(*(later(t, 0.01 * i) for i, t in enumerate(tables[1:])))
        return [first, *rest]
    assert asyncio.run(run()) == [[1], [1], [1], [1]]
    writer.stop()
    assert (writer.loop_commits, writer.loop_writes) == (2, 4)
    with sm() as s:
        for t in tables:
            assert repo.events_after(s, t[0], 0) == [(1, {"type": "kept", "n": 0})]
    engine.dispose()


def test_plain_actions_waiting_for_a_stuck_thread_are_refused_at_their_deadline(tmp_path: Path) -> None:
    """Issue 7 item 3: a plain action waiting on the loop for a thread stuck in its transaction
    is answered ``Unavailable`` at its deadline, and never committed afterwards."""
    url = f"sqlite:///{tmp_path / 'd.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    tables = _leased(sm, 2)
    writer = Writer(sm, timeout=0.4)
    began = threading.Event()

    def stuck(s: Session) -> None:
        began.set()
        s.execute(text("UPDATE tables SET status = status WHERE id = :t"), {"t": tables[0][0]})
        time.sleep(1.2)

    async def run() -> tuple[list[Any], float]:
        first = asyncio.ensure_future(writer.run(stuck))
        while not began.is_set():
            await asyncio.sleep(0.005)
        t0 = time.monotonic()
        out = await asyncio.gather(writer.run(_append(tables[1], 0, ("node-a", 1))), first,
                                   return_exceptions=True)
        waited = time.monotonic() - t0
        await asyncio.sleep(1.2)  # the thread is done: nothing of the refused action commits now
        return out, waited
    out, waited = asyncio.run(run())
    writer.stop()
    assert isinstance(out[0], Unavailable) and isinstance(out[1], Unavailable), out
    assert 0.3 <= waited < 1.0, waited
    assert writer.loop_commits == 0
    with sm() as s:
        assert repo.events_after(s, tables[1][0], 0) == []
    engine.dispose()


def test_a_refused_write_in_a_loop_group_takes_no_other_with_it(tmp_path: Path) -> None:
    """A write of a loop group that is refused (its lease is another writer's) rolls the loop's
    transaction back; the thread then stores the others and refuses that one alone: nothing is
    stored twice, nothing of the refused one at all."""
    url = f"sqlite:///{tmp_path / 'r.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    tables = _leased(sm, 3)
    writer = Writer(sm, timeout=10)

    async def run() -> list[Any]:
        holders = [("node-a", 1), ("node-b", 1), ("node-a", 1)]
        writes = [_append(t, 0, h) for t, h in zip(tables, holders, strict=True)]
        return await asyncio.gather(*(writer.run(w) for w in writes), return_exceptions=True)
    out = asyncio.run(run())
    writer.stop()
    assert out[0] == [1] and out[2] == [1] and isinstance(out[1], repo.Conflict), out
    assert writer.loop_commits == 0
    with sm() as s:
        assert [q for q, _ in repo.events_after(s, tables[0][0], 0)] == [1]
        assert repo.events_after(s, tables[1][0], 0) == []
        assert [q for q, _ in repo.events_after(s, tables[2][0], 0)] == [1]
    engine.dispose()


def test_with_synchronous_full_every_commit_is_the_threads(tmp_path: Path) -> None:
    """``DINERI_SQLITE_SYNCHRONOUS=full`` fsyncs every commit: never on the event loop."""
    url = f"sqlite:///{tmp_path / 'full.db'}"
    migrate(url)
    engine = make_engine(url, synchronous="full")
    sm = sessions(engine)
    tables = _leased(sm, 2)
    writer = Writer(sm, timeout=10)

    async def run() -> list[Any]:
        return await asyncio.gather(*(writer.run(_append(t, 0, ("node-a", 1))) for t in tables))
    assert asyncio.run(run()) == [[1], [1]]
    writer.stop()
    assert writer.loop_commits == 0 and writer.writes == 2
    engine.dispose()


def test_loop_commits_leave_the_checkpoints_to_the_thread(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop's connection never checkpoints (an fsync); the thread runs a passive checkpoint
    every ``CHECKPOINT_EVERY`` loop commits, so the WAL does not grow without bound."""
    from dineri.store import writer as writer_module

    monkeypatch.setattr(writer_module, "CHECKPOINT_EVERY", 5)
    url = f"sqlite:///{tmp_path / 'c.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    tables = _leased(sm, 1)
    writer = Writer(sm, timeout=10)
    ran: list[int] = []
    real = Writer._checkpoint
    monkeypatch.setattr(Writer, "_checkpoint", lambda self: (ran.append(1), real(self)))

    async def run() -> None:
        for k in range(20):  # one at a time: 20 loop turns, 20 loop commits
            assert await writer.run(_append(tables[0], k, ("node-a", 1))) == [k + 1]
    asyncio.run(run())
    writer.stop()
    assert writer.loop_commits == 20 and len(ran) == 4
    with sm() as s:
        assert len(repo.events_after(s, tables[0][0], 0)) == 20
    wal = tmp_path / "c.db-wal"
    with sqlite3.connect(tmp_path / "c.db") as c:  # everything written is in the database file too
        busy, frames, done = c.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0 and frames == done, (frames, done, wal.stat().st_size)
    engine.dispose()
