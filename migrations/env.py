"""Alembic environment: the URL comes from ``config.attributes["url"]`` (set by
:func:`dineri.store.db.migrate`) or else from the settings (``DINERI_DATABASE_URL``)."""

from __future__ import annotations

from alembic import context

from dineri.store.db import make_engine
from dineri.store.models import Base

config = context.config
target_metadata = Base.metadata
IDLE_MS = 60_000  # idle_in_transaction_session_timeout of the migration session (docs/server.md)


def _url() -> str:
    url = config.attributes.get("url")
    if url:
        return str(url)
    from dineri.settings import Settings

    return Settings().database_url


def run_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    # Statements unbounded (a migration's DDL may take long), each lock wait bounded (issue 7
    # item 3: a locked alembic_version hung start-up with nothing said): dineri.store.db.migrate.
    lock_timeout = float(config.attributes.get("lock_timeout", 30.0))
    engine = make_engine(_url(), connect_timeout=float(config.attributes.get("connect_timeout", 5.0)),
                         statement_timeout=None, lock_timeout=lock_timeout)
    watch = config.attributes.get("watch")
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            if conn.dialect.name == "postgresql":
                if isinstance(watch, dict):  # whoever reports on start-up can say what this waits for
                    watch["pid"] = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
                # A process that stalls mid-migration (its network, its machine) must not hold the
                # schema forever: the server ends a session idle in its transaction this long.
                conn.exec_driver_sql(f"SET LOCAL idle_in_transaction_session_timeout = {IDLE_MS}")
                # Processes starting together (a site's) migrate one at a time: the others wait
                # here, then find the schema at head (issue 9). One lock per schema. This wait
                # has no bound (the process migrating may run a long migration; its own lock
                # waits are bounded and its idleness too): start-up logs what it waits for.
                conn.exec_driver_sql("SET LOCAL lock_timeout = 0")
                conn.exec_driver_sql(
                    "SELECT pg_advisory_xact_lock(hashtext('dineri-migrate:' || current_schema()))")
                conn.exec_driver_sql(f"SET LOCAL lock_timeout = {max(1, int(lock_timeout * 1000))}")
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
