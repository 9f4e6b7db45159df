"""The in-process computer of a game other than Chkobba (dineri/bot/inprocess.py ``GameMemory``):
a search level thinks off the event loop, and a seat keeps one player for the match."""

from __future__ import annotations

import asyncio
import random
import time
from types import SimpleNamespace
from typing import Any

from dineri.bot.inprocess import GameMemory


class SlowPlayer:
    """A player that thinks 0.3 s of wall time (a search at its cap), holding the thread."""

    name = "hard"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: dict[str, Any], events: list[dict[str, Any]],
               legal: list[dict[str, Any]]) -> dict[str, Any]:
        self.calls += 1
        time.sleep(0.3)
        return dict(legal[0])


def _session() -> Any:
    match = SimpleNamespace(over=False, legal_actions=lambda seat: [{"type": "draw"}, {"type": "forfeit"}])
    return SimpleNamespace(match=match, game_name="golf4")


def test_a_search_level_thinks_off_the_event_loop() -> None:
    async def run() -> tuple[dict[str, Any] | None, int]:
        memory = GameMemory()
        memory.players["hard"] = SlowPlayer()
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)
        task = asyncio.get_running_loop().create_task(ticker())
        action = await memory.decide(_session(), 1, {"seat": 1}, "hard", random.Random(1))
        task.cancel()
        return action, ticks

    action, ticks = asyncio.run(run())
    assert action == {"type": "draw"}  # never the forfeit
    assert ticks >= 10  # the loop ran on while the player thought (0.3 s)


def test_a_seat_keeps_one_player_for_the_match() -> None:
    async def run() -> tuple[Any, Any]:
        memory = GameMemory()
        await memory.decide(_session(), 1, {"seat": 1}, "easy", random.Random(2))
        first = memory.players["easy"]
        await memory.decide(_session(), 1, {"seat": 1}, "easy", random.Random(3))
        return first, memory.players["easy"]

    first, again = asyncio.run(run())
    assert first is again
