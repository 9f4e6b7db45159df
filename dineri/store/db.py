"""Database engine, sessions and migrations.

:func:`make_engine` builds the SQLAlchemy engine for a URL (SQLite by default,
PostgreSQL through psycopg 3: ``postgresql+psycopg://...``); :func:`migrate`
applies the Alembic migrations of ``migrations/`` (``alembic upgrade head``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

ROOT = Path(__file__).resolve().parents[2]


def make_engine(url: str) -> Engine:
    """An engine for ``url``. SQLite gets WAL, a busy timeout and foreign keys, and may be
    used from worker threads (the server runs storage calls off the event loop)."""
    if url.startswith("sqlite"):
        eng = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(eng, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return eng
    return create_engine(url, pool_pre_ping=True)


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
