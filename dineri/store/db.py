"""Database engine, sessions and migrations.

:func:`make_engine` builds the SQLAlchemy engine for a URL (SQLite by default,
PostgreSQL through psycopg 3: ``postgresql+psycopg://...``); :func:`migrate`
applies the Alembic migrations of ``migrations/`` (``alembic upgrade head``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker

ROOT = Path(__file__).resolve().parents[2]


def make_engine(url: str, *, connect_timeout: float = 5.0, statement_timeout: float | None = 5.0,
                synchronous: str = "normal") -> Engine:
    """An engine for ``url`` with timeouts (issue 7, item 3), in seconds.

    PostgreSQL: libpq ``connect_timeout`` (whole seconds, at least 2) and a server-side
    ``statement_timeout`` (``None``: none, for migrations), added to any ``options`` the URL
    already has; waiting for a pooled connection is bounded the same way. SQLite: WAL, foreign
    keys, a busy timeout of ``statement_timeout`` (30 s when ``None``), ``PRAGMA synchronous``
    = ``synchronous`` (``normal`` or ``full``: docs/server.md "Durability and timeouts"); usable
    from worker threads. Raises ``ValueError`` for another ``synchronous``."""
    if synchronous not in ("normal", "full"):
        raise ValueError(f"synchronous must be normal or full, not {synchronous!r}")
    if url.startswith("sqlite"):
        busy = 30.0 if statement_timeout is None else statement_timeout
        eng = create_engine(url, connect_args={"check_same_thread": False, "timeout": busy})

        @event.listens_for(eng, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={synchronous.upper()}")
            cur.close()

        return eng
    args: dict[str, Any] = {"connect_timeout": max(2, math.ceil(connect_timeout))}
    if statement_timeout is not None:
        given = make_url(url).query.get("options")
        given = " ".join(given) if isinstance(given, tuple) else (given or "")
        args["options"] = f"{given} -cstatement_timeout={int(statement_timeout * 1000)}".strip()
    pool_wait = 30.0 if statement_timeout is None else statement_timeout
    return create_engine(url, pool_pre_ping=True, pool_timeout=pool_wait, connect_args=args)


def sessions(engine: Engine) -> sessionmaker[Session]:
    """A session factory that keeps loaded objects usable after commit."""
    return sessionmaker(engine, expire_on_commit=False)


def alembic_config(url: str) -> Any:
    """The Alembic configuration of the repository's ``alembic.ini`` bound to ``url``."""
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    cfg.attributes["url"] = url
    return cfg


def migrate(url: str) -> None:
    """Apply every migration up to the latest (``alembic upgrade head``) on ``url``."""
    from alembic import command

    command.upgrade(alembic_config(url), "head")
