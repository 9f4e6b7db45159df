"""Fixtures shared by every test folder: Debian's Chromium driven by Playwright, the console
errors of its pages, and a fresh PostgreSQL schema."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (Debian's package), one per test module: Playwright's sync API holds
    an event loop while it runs, so it must be closed before tests that call ``asyncio.run``."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        # In CI the browser tests must run against the real thing, never skip.
        (pytest.fail if os.environ.get("CI") else pytest.skip)(
            "chromium is not installed (apt-get install -y chromium)")
    from playwright import sync_api
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class ConsoleWatch:
    """Collects console errors and page errors of every page it watches."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Any) -> Any:
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page


@pytest.fixture
def console() -> ConsoleWatch:
    """Console errors of the test's pages (assert it stays empty)."""
    return ConsoleWatch()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema in database ``test`` (:func:`tests.pg.pg_schema`), dropped
    afterwards."""
    from tests.pg import pg_schema  # here: SQLAlchemy only for the tests that use PostgreSQL

    with pg_schema() as url:
        yield url
