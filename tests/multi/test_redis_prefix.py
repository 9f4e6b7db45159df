"""``DINERI_REDIS_PREFIX``: sites sharing one Redis never hear each other (issue 9)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest

from dineri.fanout.redis import RedisFanout

REDIS = "redis://127.0.0.1:6379/0"


@pytest.mark.redis
def test_fanouts_with_other_prefixes_do_not_hear_each_other() -> None:
    async def run() -> tuple[list[Any], list[Any]]:
        site = f"t-{secrets.token_hex(4)}:"
        a, b, other = RedisFanout(REDIS, site), RedisFanout(REDIS, site), RedisFanout(REDIS, "o" + site)
        for f in (a, b, other):
            await f.start()
        heard: list[Any] = []
        strangers: list[Any] = []
        b.subscribe("lobby", heard.append)
        other.subscribe("lobby", strangers.append)
        await b.wait_subscribed()
        await other.wait_subscribed()
        await a.publish("lobby", {"n": 1})
        await other.publish("lobby", {"n": 2})
        for _ in range(100):
            if heard and strangers:
                break
            await asyncio.sleep(0.02)
        for f in (a, b, other):
            await f.stop()
        return heard, strangers
    heard, strangers = asyncio.run(run())
    assert heard == [{"n": 1}]
    assert strangers == [{"n": 2}]
