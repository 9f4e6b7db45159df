"""Fixtures of the bot tests: one real testing server per module (SQLite)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.harness import Api, Server, running


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Api]]:
    """The module's testing server (5,000 messages per second allowed) and its REST helper."""
    with running(tmp_path_factory.mktemp("bot") / "dineri.db", DINERI_MESSAGES_PER_SECOND="5000") as both:
        yield both
