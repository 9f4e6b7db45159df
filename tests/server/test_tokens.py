"""Player tokens (issue 7, item 11): the migration that adds ``players.token_version``, token
expiry with renewal, revocation, the ``Secure`` cookie behind HTTPS."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from dineri.store.db import alembic_config, make_engine, migrate
from dineri.store.models import Base

PG = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema, dropped afterwards."""
    schema = "t_" + secrets.token_hex(6)
    admin = make_engine(PG)
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    yield f"{PG}?options=-csearch_path%3D{schema}"
    with admin.begin() as c:
        c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()


def _migrated_matches_models(url: str) -> None:
    migrate(url)
    engine = make_engine(url)
    try:
        columns = {c["name"]: c for c in inspect(engine).get_columns("players")}
        assert "token_version" in columns and not columns["token_version"]["nullable"]
        assert "seats_changed_at" in {c["name"] for c in inspect(engine).get_columns("tables")}
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == []  # the models are exactly what the migrations build
    finally:
        engine.dispose()


def test_migrations_have_one_head() -> None:
    heads = ScriptDirectory.from_config(alembic_config("sqlite://")).get_heads()
    assert len(heads) == 1


def test_migration_0002_adds_token_version_on_sqlite(tmp_path: Path) -> None:
    _migrated_matches_models(f"sqlite:///{tmp_path / 'm.db'}")


@pytest.mark.postgres
def test_migration_0002_adds_token_version_on_postgres(pg_url: str) -> None:
    _migrated_matches_models(pg_url)


def test_an_existing_player_gets_token_version_0(tmp_path: Path) -> None:
    """Players stored before migration 0002 get version 0 (their tokens stay as valid as before)."""
    from alembic import command

    url = f"sqlite:///{tmp_path / 'old.db'}"
    command.upgrade(alembic_config(url), "0001")
    engine = make_engine(url)
    try:
        with engine.begin() as c:
            c.execute(text("INSERT INTO players (id, name, created_at) VALUES ('p1', 'Amira', '2026-01-01')"))
        migrate(url)
        with engine.connect() as c:
            assert c.execute(text("SELECT token_version FROM players WHERE id = 'p1'")).scalar_one() == 0
    finally:
        engine.dispose()
