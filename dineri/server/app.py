"""The FastAPI app factory (issue 3, item 1): ``create_app(settings)``.

Settings are read once here; migrations run on start (``alembic upgrade head``);
nothing is built at import time. The browser pages (``dineri.web.mount_web``) are
mounted when that package is present.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, NoReturn

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from sqlalchemy import Engine, text
from sqlalchemy.orm import Session
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from dineri.accounts.install import install as install_accounts
from dineri.admin.routes import admin_router
from dineri.bot.inprocess import BotLauncher
from dineri.fanout import make_fanout
from dineri.server import errors, gcpause, revocation, routes_players, routes_tables, ws
from dineri.server.auth import Tokens
from dineri.server.bodylimit import BodyLimit
from dineri.server.deadline import Deadline
from dineri.server.deps import Services
from dineri.server.forwarded import ForwardedProtoCase
from dineri.server.hosts import AllowedHosts
from dineri.server.ratelimit import Window
from dineri.server.service import TableService
from dineri.server.shared import SharedCounters
from dineri.settings import Settings
from dineri.store.db import make_engine, migrate, migration_wait, sessions, sqlite_storage_problem
from dineri.store.writer import answer_by

log = logging.getLogger("dineri.app")


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app for ``settings`` (default: read from ``DINERI_*`` now)."""
    settings = settings or Settings()
    engine = make_engine(settings.database_url, connect_timeout=settings.db_connect_timeout,
                         statement_timeout=settings.db_timeout, synchronous=settings.sqlite_synchronous)
    sm = sessions(engine)
    fanout = make_fanout(settings.redis_url, settings.redis_prefix)
    # Limits count site-wide in Redis when there is one (issue 9 item 3), else in process.
    shared = SharedCounters(settings.redis_url, settings.redis_prefix) if settings.redis_url else None
    services = Services(settings=settings, sm=sm,
                        tokens=Tokens(settings.resolved_secret(), settings.token_lifetime,
                                      legacy=settings.legacy_tokens,
                                      legacy_until=settings.legacy_tokens_until.timestamp()),
                        tables=TableService(sm, fanout, settings, shared=shared),
                        guests=Window(settings.guests_per_minute, shared=shared, name="guests"),
                        shared=shared)
    services.bot_launcher = bots = BotLauncher(delay=settings.resolved_bot_delay())
    services.tables.bots = bots  # computer seats play whenever their table is loaded or started

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # A SQLite file whose directory or -shm cannot be written would crash the process on its
        # first write (SIGBUS): refuse to start, saying why (issue 7, adversarial pass).
        problem = sqlite_storage_problem(settings.database_url)
        if problem is not None:
            log.error("database not writable at start-up", extra={"problem": problem})
            raise RuntimeError(f"database not writable: {problem}")
        migrated = await migrate_at_start(settings, engine.url.render_as_string(hide_password=True))
        await fanout.start()
        # Revoked tokens close their open sockets on every process (dineri/server/revocation.py).
        stop_revocations = revocation.subscribe(fanout, services.socket_tokens)
        await services.tables.start()  # loading a table also restarts its computer players
        freezer = None
        if settings.gc_tuning:  # what start-up built lives on: never walk it again (issue 8 item 5)
            freezer = gcpause.tune(collect=True if migrated else None,  # Alembic leaves garbage
                                   thaw_every=settings.gc_thaw_minutes * 60.0,
                                   every=settings.gc_freeze_every)
        else:
            gcpause.release()
        pauses = gcpause.Pauses()  # from here on: the pauses of serving, not tune()'s own collection
        pauses.install()
        stalls = gcpause.LoopStalls()  # every stall of the loop, whatever its cause
        stalls.start()
        thawer = None
        if freezer is not None and freezer.thaw_every > 0:  # frozen objects dead in a cycle: freed
            thawer = asyncio.get_running_loop().create_task(gcpause.thaw_when_quiet(
                freezer, lambda: any(s.lock.locked() for s in services.tables.sessions.values())))
        log.info("ready", extra={"tables_loaded": len(services.tables.sessions),
                                 "fanout": "redis" if settings.redis_url else "local"})
        yield
        pauses.remove()
        stalls.stop()
        if thawer is not None:
            thawer.cancel()
        if freezer is not None:
            freezer.remove()
        log.warning("gc pauses", extra={**pauses.summary(), "tuned": settings.gc_tuning,
                                        "freezes": freezer.freezes if freezer else 0,
                                        **(freezer.thaw_summary() if freezer else {}),
                                        "loop_late": stalls.summary()})
        w = services.tables.writer  # group sizes: benchmarks/load.py prints writes per commit
        log.warning("writer totals", extra={"commits": w.commits, "writes": w.writes,
                                            "loop_commits": w.loop_commits, "loop_writes": w.loop_writes,
                                            "raw_commits": w.raw_commits})
        await bots.stop()
        await services.tables.stop()
        stop_revocations()
        await fanout.stop()
        if shared is not None:
            await shared.close()
        engine.dispose()

    app = FastAPI(title="Dineri", version="0.1.0", lifespan=lifespan,
                  description="Chkobba at the table: players, tables, and the table WebSocket "
                              "(docs/protocol.md).")
    app.state.services = services
    app.state.settings = settings
    # Every HTTP request answered in time, 503 unavailable past it (issue 7 item 3).
    app.add_middleware(Deadline, seconds=settings.request_deadline())
    app.add_middleware(BodyLimit)  # REST bodies are small JSON objects: 16 KiB at most (413)
    app.add_middleware(AllowedHosts, allowed=settings.allowed_hosts)  # DNS rebinding (HTTP and sockets)
    if settings.forwarded_allow_ips:  # outermost: the checks inside see the client's real scheme/address
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.forwarded_allow_ips)
        app.add_middleware(ForwardedProtoCase)  # outside it: "HTTPS" counts as "https"
    errors.install(app)  # every error answer is {"detail": {"code", "message"}} (docs/protocol.md)

    @app.get("/healthz", tags=["health"])
    async def healthz() -> dict[str, str]:
        """Liveness: ``{"status": "ok"}``."""
        return {"status": "ok"}

    seen_storage: list[str | None] = [None]  # /readyz's last storage problem (logged when it changes)

    @app.get("/readyz", tags=["health"], responses={503: {"description": "the database does not answer"}})
    async def readyz() -> JSONResponse:
        """Readiness (issue 7, item 3): ``200 {"status": "ready", "database": "ok"}`` when the
        database answers a read of ``tables`` within ``DINERI_DB_TIMEOUT``, no write is stuck past it,
        a SQLite file's directory and ``-shm`` can be written (``"not writable"``, the reason logged:
        ``sqlite_storage_problem``) and, after a write was refused for the database, a probe
        through the writer commits; else ``503 {"status": "unavailable", "database": "..."}``."""
        writer = services.tables.writer
        problem = "writes stalled" if writer.stalled() else None
        if problem is None:  # SQLite: a directory or -shm that cannot be written (SIGBUS ahead)
            storage = await asyncio.to_thread(sqlite_storage_problem, settings.database_url)
            if storage != seen_storage[0]:  # logged once per change, not on every probe
                seen_storage[0] = storage
                if storage is not None:
                    log.error("database not writable", extra={"problem": storage})
            problem = "not writable" if storage is not None else None
        if problem is None and writer.suspect():
            try:  # the last write was refused: does a write transaction go through now?
                await writer.run(_write_probe)
            except Exception:
                problem = "writes refused"
        if problem is None:
            try:
                # Within the request's own deadline, so the answer keeps this shape.
                by = answer_by()
                left = settings.db_timeout if by is None else min(settings.db_timeout,
                                                                  by - time.monotonic() - 0.25)
                await asyncio.wait_for(asyncio.to_thread(_ping, engine), max(0.1, left))
            except Exception as e:
                problem = "timeout" if isinstance(e, TimeoutError) else type(e).__name__
        if problem is not None:
            return JSONResponse({"status": "unavailable", "database": problem}, status_code=503)
        return JSONResponse({"status": "ready", "database": "ok"})

    app.include_router(routes_players.router)
    app.include_router(routes_tables.router)
    app.include_router(ws.router)
    app.include_router(admin_router(settings, sm))
    install_accounts(app, services)
    _mount_web(app, settings)
    return app


#: Seconds between start-up's reports of a migration still waiting (what it waits for).
MIGRATION_REPORT_EVERY = 3.0


async def migrate_at_start(settings: Settings, where: str) -> bool:
    """Run the migrations (:func:`dineri.store.db.migrate`) on a worker thread and say what they
    wait for (issue 7 item 3, adversarial re-check: a locked ``alembic_version`` hung start-up
    70 s with nothing logged, then the process outlived its own "Exiting"). Every
    :data:`MIGRATION_REPORT_EVERY` seconds a migration that has not finished is logged
    (``migration waiting``: on PostgreSQL its backend's state, wait event and the sessions
    blocking it). Each lock wait is bounded (``DINERI_MIGRATION_LOCK_TIMEOUT``), the DDL is not.
    Gives up, logging ``database unavailable at start-up``, when the migration fails (a lock
    timeout, say: raised, and uvicorn exits non-zero), when the database stops answering the
    report's own read, or when the steps before the migration's connection is known (connect, the
    at-head read) take longer than their timeouts allow: a thread stuck in the driver cannot be
    stopped, so the process exits at once (``os._exit(3)``). Returns whether Alembic ran."""
    url = settings.database_url
    log.info("applying migrations", extra={"database": where})
    watch: dict[str, Any] = {}
    job = asyncio.ensure_future(asyncio.to_thread(
        migrate, url, connect_timeout=settings.db_connect_timeout, timeout=settings.db_timeout,
        lock_timeout=settings.migration_lock_timeout, watch=watch))
    t0 = time.monotonic()
    # Before the migration's session is known: connect twice (the at-head read, Alembic's), one read.
    unwatched = 2 * settings.db_connect_timeout + settings.db_timeout + 5.0
    try:
        while True:
            done, _ = await asyncio.wait({job}, timeout=MIGRATION_REPORT_EVERY)
            if done:
                return bool(job.result())
            waited = round(time.monotonic() - t0, 1)
            pid = watch.get("pid")
            if pid is None:
                if url.startswith("sqlite"):  # no network to stall: its busy wait is the bound
                    log.warning("migration waiting", extra={"database": where, "waited_s": waited})
                    continue
                if waited > unwatched:
                    _give_up(where, f"no answer within {unwatched:g} s (connecting, reading alembic_version)")
                log.warning("migration waiting", extra={"database": where, "waited_s": waited,
                                                        "step": "connecting or reading alembic_version"})
                continue
            try:
                what = await asyncio.wait_for(asyncio.to_thread(
                    migration_wait, url, int(pid), connect_timeout=settings.db_connect_timeout,
                    timeout=settings.db_timeout), settings.db_connect_timeout + settings.db_timeout + 1.0)
            except Exception as e:  # the database does not answer a small read: the migration won't either
                _give_up(where, f"the database stopped answering during the migration: {e!r}")
            log.warning("migration waiting",
                        extra={"database": where, "waited_s": waited, "backend": pid, **what})
    except Exception as e:  # a failed migration (a lock timeout…): say so, exit non-zero
        log.error("database unavailable at start-up", extra={"database": where, "error": repr(e)})
        raise


def _give_up(where: str, why: str) -> NoReturn:
    log.error("database unavailable at start-up", extra={"database": where, "error": why})
    for handler in logging.getLogger().handlers:
        handler.flush()
    os._exit(3)  # the migration's thread waits in the driver: it would keep the process alive


def _write_probe(s: Session) -> None:
    # Every action inserts into events: a lock there refuses writes while reads of tables answer.
    s.execute(text("SELECT 1 FROM events LIMIT 1"))
    if s.get_bind().dialect.name == "sqlite":
        # A read-only file (or disk) reads fine: only a real write tells. Rewriting the header's
        # user_version (unused, kept as it is) writes a page, so it fails where an action would.
        version = int(s.execute(text("PRAGMA user_version")).scalar() or 0)
        s.execute(text(f"PRAGMA user_version = {version}"))


def _ping(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1 FROM tables LIMIT 1"))  # the tables every write touches


def _mount_web(app: FastAPI, settings: Settings) -> None:
    try:
        from dineri.web import mount_web
    except ImportError:  # the browser pages are optional
        return
    mount_web(app, settings)


def factory() -> FastAPI:
    """``uvicorn --factory dineri.server.app:factory``: settings from the environment."""
    return create_app(Settings())
