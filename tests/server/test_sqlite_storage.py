"""A SQLite database whose directory or ``-shm`` cannot be written (issue 7, adversarial pass:
the ``-shm`` made unwritable mid-run killed the process with SIGBUS at its next write, no error,
no log). Start-up refuses such a database clearly, and ``/readyz`` answers 503 ``not writable``
while it lasts. ``chattr +i`` (immutable, refused even to root) stands in for an unwritable file
or directory; the tests skip where the file system has no such attribute."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from dineri.store.db import migrate, sqlite_storage_problem
from tests.server.harness import Server

pytestmark = pytest.mark.timeout(120)


def _immutable(path: Path, on: bool) -> bool:
    r = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True)
    return r.returncode == 0


@pytest.fixture
def frozen(tmp_path: Path) -> Iterator[list[Path]]:
    """Paths made immutable by the test (``frozen.append(path)`` after ``chattr +i``); made
    mutable again at the end, whatever happened."""
    made: list[Path] = []
    yield made
    for path in made:
        _immutable(path, False)


def test_the_check_names_what_cannot_be_written(tmp_path: Path, frozen: list[Path]) -> None:
    """No problem for a writable file, an in-memory database or PostgreSQL; a missing directory,
    an immutable directory and an immutable ``-shm`` are each named."""
    db = tmp_path / "d" / "x.db"
    url = f"sqlite:///{db}"
    assert "does not exist" in (sqlite_storage_problem(url) or "")
    db.parent.mkdir()
    migrate(url)
    assert sqlite_storage_problem(url) is None
    assert sqlite_storage_problem("sqlite://") is None
    assert sqlite_storage_problem("postgresql+psycopg://u@h/db") is None
    shm = Path(f"{db}-shm")
    shm.write_bytes(b"\0" * 32768)  # as a WAL connection leaves it
    if not _immutable(shm, True):
        pytest.skip("no chattr +i on this file system")
    frozen.append(shm)
    assert f"{shm} is not writable" in (sqlite_storage_problem(url) or "")
    _immutable(shm, False)
    assert _immutable(db.parent, True)
    frozen.append(db.parent)
    assert "is not writable" in (sqlite_storage_problem(url) or "")


def test_start_up_refuses_an_unwritable_database_directory(tmp_path: Path, frozen: list[Path]) -> None:
    """``dineri serve`` on a database in a directory nothing can be written to exits non-zero,
    logging ``database not writable at start-up`` with the reason (before: it started, and
    the first write failed or crashed)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    migrate(f"sqlite:///{folder / 'x.db'}")
    if not _immutable(folder, True):
        pytest.skip("no chattr +i on this file system")
    frozen.append(folder)
    # A set secret: else the generated one's file (beside the database) fails to be written first.
    srv = Server(f"sqlite:///{folder / 'x.db'}", DINERI_SECRET_KEY="k")
    with pytest.raises(RuntimeError, match="server exited"):
        srv.start()
    logged = srv.log_path.read_text()
    assert "database not writable at start-up" in logged and "is not writable" in logged


def test_readyz_reports_an_unwritable_database_directory(tmp_path: Path, frozen: list[Path]) -> None:
    """While the directory cannot be written ``/readyz`` answers ``503 not writable`` (a load
    balancer stops sending players to a process that would crash), then 200 again."""
    folder = tmp_path / "db"
    folder.mkdir()
    srv = Server(f"sqlite:///{folder / 'x.db'}").start()
    try:
        assert httpx.get(srv.base + "/readyz").status_code == 200
        if not _immutable(folder, True):
            pytest.skip("no chattr +i on this file system")
        frozen.append(folder)
        r = httpx.get(srv.base + "/readyz")
        assert r.status_code == 503 and r.json() == {"status": "unavailable", "database": "not writable"}
        _immutable(folder, False)
        assert httpx.get(srv.base + "/readyz").status_code == 200
    finally:
        srv.stop()
