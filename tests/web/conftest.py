"""Fixtures for the browser tests: a real uvicorn on a free port (testing mode, its own
SQLite file) and Debian's Chromium driven by Playwright. Tests marked ``browser``."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(work: Path, port: int | None = None, **settings: str) -> Iterator[str]:
    """A ``dineri`` server with ``DINERI_TESTING=1`` and its own SQLite file under *work*; yields
    its base URL and stops it afterwards. *settings* add environment variables (``DINERI_BOT_DELAY``
    as ``BOT_DELAY="0.1"``). *port*: a given one (a server started again where it was), else a
    free one."""
    port = port or _free_port()
    env = {**os.environ, "DINERI_TESTING": "1", "DINERI_DATABASE_URL": f"sqlite:///{work / 'dineri.db'}",
           "DINERI_SECRET_KEY": "browser-tests", "DINERI_MESSAGES_PER_SECOND": "200",
           # Many guests, and their tables, from one address: no guest limit, and every table
           # listed in the lobby (not 3 of one address nor 6 of one network, issue 7 item 6) for
           # pages that look for theirs.
           "DINERI_GUESTS_PER_MINUTE": "0", "DINERI_LOBBY_PER_ADDRESS": "0",
           "DINERI_LOBBY_PER_NETWORK": "0",
           **{"DINERI_" + k: v for k, v in settings.items()}}
    log = open(work / "server.log", "wb")  # noqa: SIM115 (closed in the finally below)
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "dineri.server.app:factory",
         "--host", "127.0.0.1", "--port", str(port)],
        cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("server did not start: " + (work / "server.log").read_text()[-2000:])
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a running ``dineri`` server with ``DINERI_TESTING=1``; stopped afterwards."""
    pytest.importorskip("dineri.server.app")
    with running_server(tmp_path_factory.mktemp("server")) as base:
        yield base


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[str]:
    """A server of this test alone (an empty lobby, say); stopped after the test."""
    pytest.importorskip("dineri.server.app")
    with running_server(tmp_path) as base:
        yield base
