"""Database engine, sessions and migrations.

:func:`make_engine` builds the SQLAlchemy engine for a URL (SQLite by default,
PostgreSQL through psycopg 3: ``postgresql+psycopg://...``); :func:`migrate`
applies the Alembic migrations of ``migrations/`` (``alembic upgrade head``).
"""

from __future__ import annotations

import math
import re
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
    """Whether the database of ``engine`` records exactly ``heads`` in ``alembic_version`` (any
    error, e.g. no such table in a new database: ``False``)."""
    from sqlalchemy import text

    try:
        with engine.connect() as conn:
            found = {row[0] for row in conn.execute(text("SELECT version_num FROM alembic_version"))}
    except Exception:  # a new database (no alembic_version yet), or one that does not answer
        return False
    return found == heads


def migrate(url: str) -> bool:
    """Apply every migration up to the latest (``alembic upgrade head``) on ``url``; returns whether
    Alembic ran.

    A database already at the scripts' head (:func:`script_heads`, :func:`at_head`: one read of
    ``alembic_version``) is left alone without loading Alembic's environment, which costs about
    0.1 s of a start-up (issue 8 item 6); anything else (behind, a new database, a head the cheap
    reading cannot tell) runs the real upgrade."""
    heads = script_heads()
    if heads is not None:
        engine = make_engine(url, statement_timeout=None)
        try:
            if at_head(engine, heads):
                return False
        finally:
            engine.dispose()
    from alembic import command

    command.upgrade(alembic_config(url), "head")
    return True
