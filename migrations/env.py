"""Alembic environment: the URL comes from ``config.attributes["url"]`` (set by
:func:`dineri.store.db.migrate`) or else from the settings (``DINERI_DATABASE_URL``)."""

from __future__ import annotations

from alembic import context

from dineri.store.db import make_engine
from dineri.store.models import Base

config = context.config
target_metadata = Base.metadata


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
    engine = make_engine(_url(), statement_timeout=None)  # waits for another process's migration
    with engine.connect() as conn:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            if conn.dialect.name == "postgresql":
                # Processes starting together (a site's) migrate one at a time: the others wait
                # here, then find the schema at head (issue 9). One lock per schema.
                conn.exec_driver_sql(
                    "SELECT pg_advisory_xact_lock(hashtext('dineri-migrate:' || current_schema()))")
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
