"""Fixtures: real servers on free ports (SQLite in a temporary folder, testing mode)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from dineri.store.db import make_engine, migrate, sessions
from tests.server.harness import Api, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One testing server per test module (default grace, no clock scaling)."""
    db = tmp_path_factory.mktemp("db") / "dineri.db"
    srv = Server(f"sqlite:///{db}", DINERI_MESSAGES_PER_SECOND="5000").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def api(server: Server) -> Iterator[Api]:
    """REST helper for the module's server."""
    a = Api(server)
    yield a
    a.http.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A fresh SQLite file path."""
    return tmp_path / "dineri.db"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[str, sessionmaker[Session]]]:
    """A migrated SQLite file: its URL and a session factory."""
    url = f"sqlite:///{tmp_path / 'lobby.db'}"
    migrate(url)
    engine = make_engine(url)
    yield url, sessions(engine)
    engine.dispose()
