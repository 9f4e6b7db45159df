"""Database engine, sessions and migrations.

:func:`make_engine` builds the SQLAlchemy engine for a URL (SQLite by default,
PostgreSQL through psycopg 3: ``postgresql+psycopg://...``); :func:`migrate`
applies the Alembic migrations of ``migrations/`` (``alembic upgrade head``), waiting at most
``lock_timeout`` for any lock (issue 7 item 3); :func:`unavailable` tells a database that did
not answer (timeouts, a lost connection, a locked or read-only file) from a bug.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, make_url, text
from sqlalchemy import exc as sa_exc
from sqlalchemy.orm import Session, sessionmaker

from dineri.store.writer import Unavailable, answer_by

ROOT = Path(__file__).resolve().parents[2]

#: Seconds a pooled PostgreSQL connection may sit unused before its next checkout pings it.
PING_IDLE = 10.0


def make_engine(url: str, *, connect_timeout: float = 5.0, statement_timeout: float | None = 5.0,
                synchronous: str = "normal", lock_timeout: float | None = None,
                ping_idle: float = PING_IDLE) -> Engine:
    """An engine for ``url`` with timeouts (issue 7, item 3), in seconds.

    PostgreSQL: libpq ``connect_timeout`` (whole seconds, at least 2) and a server-side
    ``statement_timeout`` (``None``: none, for migrations), added to any ``options`` the URL
    already has; ``lock_timeout`` (``None``: the server's, none by default) bounds each wait for
    a lock only (a migration's DDL may run long, its lock waits may not). SQLite: WAL, foreign
    keys, a busy timeout (the wait for the file's lock) of ``lock_timeout``, else
    ``statement_timeout``, else 30 s, ``PRAGMA synchronous`` = ``synchronous`` (``normal`` or
    ``full``: docs/server.md "Durability and timeouts"); usable from worker threads. Both: waiting
    for a pooled connection is bounded by ``statement_timeout`` (30 s when ``None``), so a pool
    emptied by stalled connections answers ``TimeoutError`` instead of queueing callers forever.
    PostgreSQL: a pooled connection unused for over ``ping_idle`` seconds is pinged at checkout
    and replaced if dead (:func:`_ping_when_idle`; no ``pool_pre_ping``).
    Raises ``ValueError`` for another ``synchronous``."""
    if synchronous not in ("normal", "full"):
        raise ValueError(f"synchronous must be normal or full, not {synchronous!r}")
    pool_wait = 30.0 if statement_timeout is None else statement_timeout
    if url.startswith("sqlite"):
        busy = lock_timeout if lock_timeout is not None else pool_wait
        database = make_url(url).database
        memory = not database or ":memory:" in url or "mode=memory" in url  # one connection, no queue
        pool: dict[str, Any] = {} if memory else {"pool_timeout": pool_wait}
        eng = create_engine(url, connect_args={"check_same_thread": False, "timeout": busy}, **pool)

        @event.listens_for(eng, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={synchronous.upper()}")
            cur.close()

        @event.listens_for(eng, "handle_error")
        def _reopen_read_only(ctx: Any) -> None:
            # A connection opened while the file could not be written stays read-only for good
            # ("attempt to write a readonly database"): drop it, so a later one writes again.
            if "readonly database" in str(ctx.original_exception):
                ctx.is_disconnect = True

        return eng
    args: dict[str, Any] = {"connect_timeout": max(2, math.ceil(connect_timeout))}
    extra = []
    if statement_timeout is not None:
        extra.append(f"-cstatement_timeout={int(statement_timeout * 1000)}")
    if lock_timeout is not None:
        extra.append(f"-clock_timeout={max(1, int(lock_timeout * 1000))}")
    if extra:
        given = make_url(url).query.get("options")
        given = " ".join(given) if isinstance(given, tuple) else (given or "")
        args["options"] = " ".join([given, *extra]).strip()
    eng = create_engine(url, pool_timeout=pool_wait, connect_args=args)
    _ping_when_idle(eng, ping_idle)
    return eng


def _ping_when_idle(engine: Engine, idle: float) -> None:
    """Ping (``SELECT 1``) a pooled connection at checkout only when it sat unused in the pool
    for more than ``idle`` seconds; a failed ping makes the pool replace it (``DisconnectionError``:
    SQLAlchemy's pessimistic disconnect handling, up to three tries). ``pool_pre_ping`` pinged at
    every checkout: a round trip and 40–60 µs of client CPU per transaction (issue 8). A
    connection busy within the last ``idle`` seconds is used unchecked: if it died meanwhile (a
    server restart) its statement fails, is never run again (its outcome is the caller's
    ``unavailable``, so nothing is applied twice), and SQLAlchemy then invalidates the whole pool
    (every connection older than the failure is replaced at its next checkout)."""

    @event.listens_for(engine, "checkin")
    def _idle_from(_dbapi_conn: Any, record: Any) -> None:
        if record is not None:
            record.info["dineri_idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        since = record.info.get("dineri_idle_since")
        if since is None or time.monotonic() - since <= idle:
            return  # fresh, or used a moment ago
        try:
            with dbapi_conn.cursor() as cur:
                cur.execute("SELECT 1")
            dbapi_conn.rollback()  # the ping began a transaction: back to idle
        except Exception as e:
            raise sa_exc.DisconnectionError(f"pooled connection found dead: {e!r}") from e


#: Free bytes the file system of a SQLite database must have (the WAL and its -shm index grow
#: there); below it the storage check fails (start-up refuses, ``/readyz`` answers 503).
SQLITE_MIN_FREE = 16 * 1024 * 1024


def sqlite_storage_problem(url: str) -> str | None:
    """Why the SQLite file of ``url`` cannot be written safely now, or ``None`` (also for any
    other database, or an in-memory one). SQLite maps the ``-shm`` file of its WAL into memory:
    if that file cannot be written or grown (made read-only or immutable, truncated, a full
    disk) the process dies of SIGBUS at its next write instead of getting an error (seen by the
    adversarial pass, issue 7; ``chattr +i`` on the ``-shm`` reproduces it). What is checked:
    the database's directory exists and a file can be created in it (the WAL and ``-shm`` are
    created there), the database file, ``-wal`` and ``-shm`` open for writing where they exist,
    and at least :data:`SQLITE_MIN_FREE` bytes are free. A few system calls (``/readyz`` runs it
    on each probe). It cannot catch a file truncated between two looks."""
    if not url.startswith("sqlite"):
        return None
    database = make_url(url).database
    if not database or database == ":memory:" or "mode=memory" in url:
        return None
    path = Path(database).absolute()
    folder = path.parent
    if not folder.is_dir():
        return f"the database directory {folder} does not exist"
    try:
        fd, probe = tempfile.mkstemp(prefix=".dineri-probe-", dir=folder)
        try:
            os.write(fd, b"x")
        finally:
            os.close(fd)
            os.unlink(probe)
    except OSError as e:
        return f"the database directory {folder} is not writable ({e.strerror or e})"
    for suffix in ("", "-wal", "-shm"):
        target = Path(f"{path}{suffix}")
        if not target.exists():
            continue
        try:
            os.close(os.open(target, os.O_RDWR))
        except OSError as e:
            return f"{target} is not writable ({e.strerror or e})"
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    if free < SQLITE_MIN_FREE:
        return f"the database's file system has {free} bytes free (at least {SQLITE_MIN_FREE} needed)"
    return None


def unavailable(error: BaseException) -> bool:
    """Whether ``error`` says the database did not answer or refused to work, rather than a bug
    (issue 7 item 3): the writer's :class:`Unavailable`, any driver ``OperationalError``
    (PostgreSQL's statement, lock or connect timeouts, a lost connection, an administrator's
    shutdown; SQLite's "database is locked", "attempt to write a readonly database", "disk I/O
    error"), the pool's ``TimeoutError`` (no connection free within the pool timeout), and a
    connection found dead (``connection_invalidated``)."""
    if isinstance(error, Unavailable | sa_exc.OperationalError | sa_exc.TimeoutError):
        return True
    return isinstance(error, sa_exc.DBAPIError) and bool(error.connection_invalidated)


def sessions(engine: Engine) -> sessionmaker[Session]:
    """A session factory that keeps loaded objects usable after commit; a commit past the
    current HTTP request's deadline (``dineri.store.writer.DEADLINE``) raises
    :class:`Unavailable` and rolls back."""
    sm = sessionmaker(engine, expire_on_commit=False)
    event.listen(sm, "before_commit", _in_time)
    return sm


def _in_time(_session: Session) -> None:
    deadline = answer_by()
    if deadline is not None and time.monotonic() > deadline:
        raise Unavailable("the request was answered unavailable before this commit: nothing committed")


def alembic_config(url: str) -> Any:
    """The Alembic configuration of the repository's ``alembic.ini`` bound to ``url``."""
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.attributes["url"] = url
    return cfg


_REVISION = re.compile(r"^revision\s*(?::[^=]*)?=\s*['\"]([^'\"]+)['\"]\s*$", re.M)
_DOWN = re.compile(r"^down_revision\s*(?::[^=]*)?=\s*(None|['\"]([^'\"]+)['\"])\s*$", re.M)


def script_heads(versions: Path | None = None) -> frozenset[str] | None:
    """The head revisions of the migration scripts in ``versions`` (default ``migrations/versions``),
    read from each script's ``revision = '…'`` and ``down_revision = '…'|None`` lines without
    importing Alembic; ``None`` when a script does not have exactly one of each in that plain form
    (a merge's tuple, say): then only Alembic can tell."""
    folder = versions or ROOT / "migrations" / "versions"
    revisions: set[str] = set()
    downs: set[str] = set()
    for script in folder.glob("*.py"):
        text = script.read_text(encoding="utf-8")
        rev, down = _REVISION.findall(text), _DOWN.findall(text)
        if len(rev) != 1 or len(down) != 1:
            return None
        revisions.add(rev[0])
        if down[0][1]:
            downs.add(down[0][1])
    heads = frozenset(revisions - downs)
    return heads or None


def at_head(engine: Engine, heads: frozenset[str]) -> bool:
    """Whether the database of ``engine`` records exactly ``heads`` in ``alembic_version``
    (``False`` for a new database without that table). Raises what the read raises otherwise (a
    lock or statement timeout, a connection that fails: issue 7 item 3, the read is as bounded
    as ``engine``), so a locked ``alembic_version`` is reported, not taken for "behind"."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):  # a catalog read: takes no lock on it
            return False
        found = {row[0] for row in conn.execute(text("SELECT version_num FROM alembic_version"))}
    return found == heads


def migrate(url: str, *, connect_timeout: float = 5.0, timeout: float = 5.0, lock_timeout: float = 30.0,
            watch: dict[str, Any] | None = None) -> bool:
    """Apply every migration up to the latest (``alembic upgrade head``) on ``url``; returns whether
    Alembic ran.

    A database already at the scripts' head (:func:`script_heads`, :func:`at_head`: one read of
    ``alembic_version``, bounded by ``timeout`` seconds, ``connect_timeout`` to connect) is left
    alone without loading Alembic's environment, which costs about 0.1 s of a start-up (issue 8
    item 6); anything else (behind, a new database, a head the cheap reading cannot tell) runs the
    real upgrade, on a connection whose every lock wait is bounded by ``lock_timeout`` seconds
    (PostgreSQL ``lock_timeout``, SQLite's busy wait) and whose statements are not (a migration's
    DDL may take long). ``watch``: filled with ``{"pid": …}``, the migration connection's
    PostgreSQL backend, for :func:`migration_wait` to report on. Raises what the database raised
    (``OperationalError`` for a timeout: nothing of the failed migration is applied, each runs in
    one transaction)."""
    heads = script_heads()
    if heads is not None:
        # The lock wait gives up first, so a locked alembic_version is reported as a lock.
        engine = make_engine(url, connect_timeout=connect_timeout, statement_timeout=timeout,
                             lock_timeout=min(0.8 * timeout, lock_timeout))
        try:
            if at_head(engine, heads):
                return False
        finally:
            engine.dispose()
    from alembic import command

    cfg = alembic_config(url)
    cfg.attributes.update(connect_timeout=connect_timeout, lock_timeout=lock_timeout,
                          watch=watch if watch is not None else {})
    command.upgrade(cfg, "head")
    return True


def migration_wait(url: str, pid: int, *, connect_timeout: float = 5.0,
                   timeout: float = 5.0) -> dict[str, Any]:
    """What the PostgreSQL backend ``pid`` (a migration) is doing, read from another connection:
    ``{"state", "wait_event", "running_s", "query", "blocked_by": [{"pid", "state", "query",
    "since_s"}]}`` (queries cut to 200 characters); ``{}`` when the backend is gone. Raises what
    the read raises (the database does not answer: then nothing will progress)."""
    engine = make_engine(url, connect_timeout=connect_timeout, statement_timeout=timeout)
    try:
        with engine.connect() as conn:
            me = conn.execute(text(
                "SELECT state, wait_event_type, wait_event, "
                "EXTRACT(EPOCH FROM now() - query_start)::float, left(query, 200) "
                "FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}).first()
            if me is None:
                return {}
            blockers = conn.execute(text(
                "SELECT pid, state, left(query, 200), EXTRACT(EPOCH FROM now() - xact_start)::float "
                "FROM pg_stat_activity WHERE pid = ANY(pg_blocking_pids(:pid))"), {"pid": pid}).all()
    finally:
        engine.dispose()
    return {"state": me[0], "wait_event": f"{me[1]}:{me[2]}" if me[1] else None,
            "running_s": round(me[3] or 0.0, 1), "query": me[4],
            "blocked_by": [{"pid": b[0], "state": b[1], "query": b[2], "since_s": round(b[3] or 0.0, 1)}
                           for b in blockers]}
