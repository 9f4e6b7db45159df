"""A database that stalls, refuses writes or is locked (issue 7 item 3, adversarial re-check):
every REST answer and table-socket handshake is ``unavailable`` in bounded time (not ``500
internal``, not a hang), nothing of a refused request is applied, ``/readyz`` says so while
writes fail, and start-up against a locked schema says what it waits for and exits non-zero."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from sqlalchemy import text
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from dineri.store.db import alembic_config, make_engine, migrate
from tests.server.harness import ROOT, Api, Server, free_port

pytestmark = pytest.mark.timeout(180)


class StallProxy:
    """A TCP proxy to PostgreSQL that can stall: :meth:`pause` stops relaying bytes both ways,
    connections stay open (a database host that froze; the re-check SIGSTOPped such a proxy)."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.paused = threading.Event()
        self.done = threading.Event()
        self.lsock = socket.socket()
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen(128)
        self.lsock.settimeout(0.1)
        self.port = int(self.lsock.getsockname()[1])
        self.socks: list[socket.socket] = []
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self.done.is_set():
            try:
                client, _ = self.lsock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.socks += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while not self.done.is_set():
                if self.paused.is_set():  # read nothing: the sender's bytes wait in the kernel
                    time.sleep(0.02)
                    continue
                ready, _, _ = select.select([src], [], [], 0.05)
                if not ready:
                    continue
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def pause(self) -> None:
        self.paused.set()

    def resume(self) -> None:
        self.paused.clear()

    def close(self) -> None:
        self.done.set()
        self.lsock.close()
        for s in self.socks:
            with contextlib.suppress(OSError):
                s.close()


def _through(url: str, port: int) -> str:
    assert "127.0.0.1:5432" in url, url
    return url.replace("127.0.0.1:5432", f"127.0.0.1:{port}")


def _assert_unavailable(r: httpx.Response) -> None:
    assert r.status_code == 503, (r.request.method, r.request.url.path, r.status_code, r.text)
    assert r.json()["detail"]["code"] == "unavailable", r.text
    assert r.headers.get("retry-after") == "2", r.headers


@pytest.mark.postgres
def test_rest_and_handshakes_answer_unavailable_in_time_while_the_database_stalls(pg_url: str) -> None:
    """Re-check: with the database's host frozen, GET table/me/lobby, POST seats/players answered
    ``500 internal`` after 5-10 s, a loaded table's GET hung until the stall ended, a new table
    socket was never accepted. Now each answers ``503 unavailable`` (``Retry-After``) within the
    deadline (``DINERI_DB_TIMEOUT`` + 1 = 2 s here; asserted loosely, the machine is shared), the
    socket is closed 1011 before any frame, and nothing of a refused request is applied."""
    proxy = StallProxy(("127.0.0.1", 5432))
    srv = Server(_through(pg_url, proxy.port), DINERI_DB_TIMEOUT="1", DINERI_DB_CONNECT_TIMEOUT="2",
                 DINERI_LOBBY_PER_ADDRESS="0", DINERI_LOBBY_PER_NETWORK="0").start()
    api = Api(srv)
    try:
        host, guest = api.player("Amira"), api.player("Youssef")
        table = api.table(host)
        assert api.call("GET", f"/api/tables/{table['id']}").status_code == 200  # loaded
        bearer = {"Authorization": f"Bearer {guest['token']}"}

        async def during_stall() -> tuple[list[tuple[httpx.Response, float]], tuple[Any, float]]:
            async with httpx.AsyncClient(base_url=srv.base, timeout=30) as h:
                async def timed(method: str, path: str, **kw: Any) -> tuple[httpx.Response, float]:
                    t0 = time.monotonic()
                    r = await h.request(method, path, **kw)
                    return r, time.monotonic() - t0

                async def handshake() -> tuple[Any, float]:
                    t0 = time.monotonic()
                    try:
                        async with connect(f"{srv.ws_base}/ws/tables/{table['id']}?token={guest['token']}",
                                           open_timeout=30) as ws:
                            await ws.send('{"type": "hello", "last_event": null}')
                            got: Any = await asyncio.wait_for(ws.recv(), 30)
                    except ConnectionClosed as e:
                        got = e.rcvd.code if e.rcvd else None
                    return got, time.monotonic() - t0
                answers = await asyncio.gather(
                    timed("GET", f"/api/tables/{table['id']}"),
                    timed("GET", "/api/tables/nosuchtable00000"),
                    timed("GET", "/api/players/me", headers=bearer),
                    timed("GET", "/api/tables"),
                    timed("POST", f"/api/tables/{table['id']}/seats", headers=bearer, json={"seat": 1}),
                    timed("POST", "/api/players", json={"name": "Stalled"}),
                    timed("POST", "/api/tables", headers=bearer, json={"clock": 0}),
                )
                return answers, await handshake()

        proxy.pause()
        try:
            answers, (closed, took) = asyncio.run(during_stall())
        finally:
            proxy.resume()
        for r, waited in answers:
            _assert_unavailable(r)
            assert waited < 10, (r.request.url.path, waited)
        assert closed == 1011 and took < 10, (closed, took)

        # The stall is over: nothing of what was refused happened, and the server serves again.
        deadline = time.monotonic() + 30
        while api.http.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, "readyz never came back"
            time.sleep(0.5)
        engine = make_engine(pg_url)
        try:
            with engine.connect() as c:
                assert c.execute(text("SELECT count(*) FROM players WHERE name = 'Stalled'")).scalar() == 0
                assert c.execute(text("SELECT count(*) FROM tables WHERE host_id = :g"),
                                 {"g": guest["id"]}).scalar() == 0
                assert c.execute(text("SELECT count(*) FROM seats WHERE player_id = :g"),
                                 {"g": guest["id"]}).scalar() == 0
        finally:
            engine.dispose()
        assert api.sit(guest, table, seat=1).status_code == 200
    finally:
        srv.stop()
        api.http.close()
        proxy.close()


@pytest.fixture
def immutable() -> Iterator[Any]:
    """``set(paths, on)``: ``chattr +i``/``-i`` (a file nobody may write, not even root: the
    re-check's read-only database). Skips where chattr is refused; always undone."""
    if shutil.which("chattr") is None:
        pytest.skip("no chattr")
    marked: set[Path] = set()

    def mark(paths: list[Path], on: bool) -> None:
        for p in paths:
            r = subprocess.run(["chattr", "+i" if on else "-i", str(p)], capture_output=True, text=True)
            if r.returncode != 0:
                pytest.skip(f"chattr refused here: {r.stderr.strip()}")
            (marked.add if on else marked.discard)(p)
    yield mark
    for p in list(marked):
        subprocess.run(["chattr", "-i", str(p)], check=False)


def test_a_read_only_database_answers_unavailable_and_readyz_says_so(tmp_path: Path, immutable: Any) -> None:
    """Re-check: with the SQLite file and its WAL made immutable mid-run, ``POST /api/players``
    answered ``500 internal``, ``POST /api/tables`` dropped the connection, and ``/readyz``
    said 200 all along. Now both refuse ``503 unavailable``, ``/readyz`` answers 503 (its probe
    writes for real), and all three recover once the file is writable again."""
    db = tmp_path / "ro.db"
    srv = Server(f"sqlite:///{db}", DINERI_DB_TIMEOUT="1", DINERI_SECRET_KEY="r" * 40).start()
    api = Api(srv)
    try:
        host = api.player("Amira")
        api.table(host)
        assert api.http.get("/readyz").status_code == 200
        files = [db, db.with_name(db.name + "-wal")]
        assert all(f.exists() for f in files)
        immutable(files, True)
        r = api.call("POST", "/api/players", json={"name": "Frozen"})
        _assert_unavailable(r)
        r = api.call("POST", "/api/tables", host, json={"clock": 0})
        _assert_unavailable(r)
        r = api.http.get("/readyz")
        assert r.status_code == 503 and r.json()["status"] == "unavailable", r.text
        immutable(files, False)
        deadline = time.monotonic() + 20
        while api.http.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, "readyz never came back"
            time.sleep(0.3)
        assert api.call("POST", "/api/players", json={"name": "Thawed"}).status_code == 201
        assert api.call("POST", "/api/tables", host, json={"clock": 0}).status_code == 201
        engine = make_engine(f"sqlite:///{db}")
        try:
            with engine.connect() as c:
                assert c.execute(text("SELECT count(*) FROM players WHERE name = 'Frozen'")).scalar() == 0
                assert c.execute(text("SELECT count(*) FROM tables")).scalar() == 2
        finally:
            engine.dispose()
    finally:
        srv.stop()
        api.http.close()


def test_a_locked_sqlite_file_answers_unavailable_not_internal(tmp_path: Path) -> None:
    """Another process holds the SQLite file's write lock (``BEGIN IMMEDIATE``): a REST write waits
    out the busy timeout (``DINERI_DB_TIMEOUT``), then answers ``503 unavailable`` ("database is
    locked" used to answer ``500 internal``), ``/readyz`` says 503, and the same request passes
    once the lock is gone."""
    import sqlite3

    db = tmp_path / "locked.db"
    srv = Server(f"sqlite:///{db}", DINERI_DB_TIMEOUT="1", DINERI_SECRET_KEY="l" * 40).start()
    api = Api(srv)
    holder = sqlite3.connect(db, timeout=10, isolation_level=None)
    try:
        host = api.player("Amira")
        holder.execute("BEGIN IMMEDIATE")
        _assert_unavailable(api.call("POST", "/api/players", json={"name": "Locked"}))
        _assert_unavailable(api.call("POST", "/api/tables", host, json={"clock": 0}))
        assert api.http.get("/readyz").status_code == 503
        holder.execute("ROLLBACK")
        assert api.call("POST", "/api/players", json={"name": "Unlocked"}).status_code == 201
        deadline = time.monotonic() + 20  # the writer may still be in its refused probe a moment
        while api.http.get("/readyz").status_code != 200:
            assert time.monotonic() < deadline, "readyz never came back"
            time.sleep(0.3)
        names = {r[0] for r in holder.execute("SELECT name FROM players")}
        assert names == {"Amira", "Unlocked"}, names
    finally:
        holder.close()
        srv.stop()
        api.http.close()


def _serve(url: str, **env: str) -> subprocess.Popen[str]:
    full = {**os.environ, "DINERI_DATABASE_URL": url, "DINERI_SECRET_KEY": "m" * 40, **env}
    return subprocess.Popen([sys.executable, "-m", "dineri.cli", "serve", "--port", str(free_port())],
                            cwd=ROOT, env=full, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _ends(proc: subprocess.Popen[str], within: float) -> tuple[int | None, str, float]:
    t0 = time.monotonic()
    try:
        out, _ = proc.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        return None, out, time.monotonic() - t0
    return proc.returncode, out, time.monotonic() - t0


@pytest.mark.postgres
def test_start_up_on_a_locked_alembic_version_gives_up_and_exits(pg_url: str) -> None:
    """Re-check: ``LOCK TABLE alembic_version IN ACCESS EXCLUSIVE MODE`` held by a session, then
    ``dineri serve``: nothing logged for 70 s, then ``Exiting`` while the process lived on until
    the lock was released. The at-head read is now bounded (``DINERI_DB_TIMEOUT``): start-up
    logs the lock timeout and the process exits non-zero while the lock is still held."""
    migrate(pg_url)
    locker = make_engine(pg_url)
    try:
        with locker.connect() as conn:
            conn.execute(text("LOCK TABLE alembic_version IN ACCESS EXCLUSIVE MODE"))
            code, out, took = _ends(_serve(pg_url, DINERI_DB_TIMEOUT="1"), 40)
            conn.rollback()
    finally:
        locker.dispose()
    assert code not in (None, 0), (code, out[-3000:])
    assert "database unavailable at start-up" in out and "lock timeout" in out, out[-3000:]
    assert took < 30, took


@pytest.mark.postgres
def test_a_migration_waiting_for_a_lock_says_on_what_and_gives_up(pg_url: str) -> None:
    """A database one migration behind whose table that migration alters is locked by another
    session: start-up logs ``migration waiting`` with the blocking session (its pid and query)
    within seconds, gives up after ``DINERI_MIGRATION_LOCK_TIMEOUT`` (4 s here) and exits
    non-zero, the lock still held; the migration's DDL itself has no timeout."""
    migrate(pg_url)
    command.downgrade(alembic_config(pg_url), "-1")
    locker = make_engine(pg_url)
    try:
        with locker.connect() as conn:
            mine = conn.execute(text("SELECT pg_backend_pid()")).scalar()
            conn.execute(text("LOCK TABLE tables IN ACCESS EXCLUSIVE MODE"))
            proc = _serve(pg_url, DINERI_DB_TIMEOUT="1", DINERI_MIGRATION_LOCK_TIMEOUT="4")
            code, out, took = _ends(proc, 60)
            conn.rollback()
    finally:
        locker.dispose()
    assert code not in (None, 0), (code, out[-3000:])
    waiting = [line for line in out.splitlines() if "migration waiting" in line]
    assert waiting and f'"pid": {mine}' in waiting[0] and "LOCK TABLE tables" in waiting[0], out[-3000:]
    assert "database unavailable at start-up" in out and "lock timeout" in out, out[-3000:]
    assert took < 40, took
    migrate(pg_url)  # nothing half-applied: the migration runs whole once the lock is gone


@pytest.mark.postgres
def test_a_database_that_freezes_mid_migration_ends_the_process(pg_url: str) -> None:
    """The migration waits on a lock (a long ``DINERI_MIGRATION_LOCK_TIMEOUT``), then the
    database's host freezes: the migration's thread is stuck in the driver for good, so start-up
    must not wait on it. The next report's read gets no answer: start-up logs ``database
    unavailable at start-up`` and the process exits non-zero at once (before, the wait_for gave
    up after 70 s and the stuck thread kept the process alive after "Exiting")."""
    migrate(pg_url)
    command.downgrade(alembic_config(pg_url), "-1")
    proxy = StallProxy(("127.0.0.1", 5432))
    locker = make_engine(pg_url)
    try:
        with locker.connect() as conn:
            conn.execute(text("LOCK TABLE tables IN ACCESS EXCLUSIVE MODE"))
            proc = _serve(_through(pg_url, proxy.port), DINERI_DB_TIMEOUT="1", DINERI_DB_CONNECT_TIMEOUT="2",
                          DINERI_MIGRATION_LOCK_TIMEOUT="300")
            assert proc.stdout is not None
            seen: list[str] = []
            for line in proc.stdout:  # until start-up reports the migration's backend waiting
                seen.append(line)
                if "migration waiting" in line and '"backend"' in line:
                    break
            else:
                pytest.fail("".join(seen)[-3000:])
            proxy.pause()
            code, out, took = _ends(proc, 60)
            conn.rollback()
    finally:
        proxy.resume()
        locker.dispose()
        proxy.close()
    assert code not in (None, 0), (code, out[-3000:])
    assert "database unavailable at start-up" in out and "stopped answering" in out, out[-3000:]
    assert took < 30, took


@pytest.mark.postgres
def test_pooled_connections_are_pinged_only_after_sitting_idle(pg_url: str) -> None:
    """Issue 8 (no ``pool_pre_ping``): a checkout pings only a connection unused for over
    ``ping_idle`` seconds, and replaces it when the server killed it meanwhile; one used a
    moment ago is not pinged: if it died, its statement fails with a clear ``unavailable``
    error (never run again: a write of it is not applied, let alone twice) and the next
    checkout gets a fresh connection."""
    from dineri.store.db import unavailable

    engine = make_engine(pg_url, ping_idle=0.5)
    killer = make_engine(pg_url)
    def pid() -> int:
        with engine.connect() as c:
            return int(c.execute(text("SELECT pg_backend_pid()")).scalar_one())

    def kill(p: int) -> None:
        with killer.begin() as c:
            assert c.execute(text("SELECT pg_terminate_backend(:p)"), {"p": p}).scalar() is True
        time.sleep(0.2)
    first = pid()
    assert pid() == first  # the same pooled connection
    kill(first)
    time.sleep(0.6)  # idle past ping_idle: the checkout's ping finds it dead and replaces it
    second = pid()
    assert second != first
    kill(second)  # used a moment ago: not pinged, the statement meets the dead connection
    with pytest.raises(Exception) as refused, engine.begin() as c:
        c.execute(text("CREATE TABLE never_made (x int)"))
    assert unavailable(refused.value), refused.value
    assert pid() not in (first, second)  # the pool replaced it
    with engine.connect() as c:
        assert c.execute(text("SELECT to_regclass('never_made')")).scalar() is None
    engine.dispose()
    killer.dispose()


def test_a_socket_to_a_table_in_play_while_the_database_is_locked_is_closed_1011(tmp_path: Path) -> None:
    """Adversarial re-check: a table in play that this process has not loaded yet takes its lease
    on the socket's handshake; with the SQLite file's write lock held elsewhere that write fails,
    and its ``unavailable`` escaped the socket's opening (an ASGI traceback and an HTTP 500
    handshake). Now the socket is closed 1011 (docs/protocol.md), and once the lock goes the
    same socket opens and plays."""
    import sqlite3

    from tests.server.harness import Client, refusal

    db = tmp_path / "l.db"
    srv = Server(f"sqlite:///{db}", DINERI_DB_TIMEOUT="1").start()
    api = Api(srv)
    try:
        table, players = api.full_table(["Amira", "Youssef"], first_dealer=0)
        srv.kill()
        srv.start()  # the table is not loaded until it is used
        lock = sqlite3.connect(db, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # another writer holds the file's write lock
        try:
            url = f"{srv.ws_base}/ws/tables/{table['id']}?token={players[1]['token']}"
            assert asyncio.run(refusal(url, open_timeout=30)) == 1011
        finally:
            lock.execute("ROLLBACK")
            lock.close()

        async def play() -> dict[str, Any]:
            c = await Client(srv, table["id"], players[1]["token"]).connect()
            ack = await c.act({"type": "cut", "at": 3})
            await c.close()
            return ack
        assert asyncio.run(play())["type"] == "ack"
    finally:
        srv.stop()
        api.http.close()
