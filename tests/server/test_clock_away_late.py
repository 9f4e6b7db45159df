"""Issue 13 (the round-summary trial's forfeits): a seat whose turns the clock played
``DINERI_CLOCK_AWAY_TURNS`` times while it had no socket was away silently, and stayed so when its
player connected (only an action brings a seat away by the clock back): its grace ran out and its
side forfeited with no word on its page. Now the table is told when it connects
(``player_away``, ``reason: "clock"``, with ``forfeit_at``), and its own move still brings it
back."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tests.server.harness import Client, is_event, running

pytestmark = pytest.mark.timeout(120)


def test_a_seat_the_clock_played_before_it_connected_is_told_it_is_away(tmp_path: Path) -> None:
    # A 15 s clock runs 0.3 s; the grace (30 s) outlasts the test.
    with running(tmp_path / "late.db", DINERI_CLOCK_SCALE="0.02", DINERI_GRACE_SECONDS="30") as (srv, api):
        async def run() -> None:
            table, players = api.full_table(["Amira", "Youssef"], first_dealer=0, clock=15)
            watcher = await Client(srv, table["id"]).connect()  # a spectator of the public table

            def autos(seat: int) -> int:
                return sum(1 for f in watcher.frames if f["type"] == "event"
                           and f["event"].get("auto") is True and f["event"].get("seat") == seat)
            for _ in range(300):
                if autos(0) >= 4:
                    break
                await asyncio.sleep(0.05)
            assert autos(0) >= 4, "the clock did not play seat 0's turns"
            assert not [f for f in watcher.frames if f.get("event", {}).get("type") == "player_away"]
            amira = await Client(srv, table["id"], players[0]["token"]).connect()
            away = await watcher.wait_for(is_event("player_away"), timeout=10)
            assert away["event"] == {"type": "player_away", "seat": 0, "reason": "clock"}
            seat = (await amira.wait_for(lambda f: f["type"] in ("table", "view")
                                         and f["table"]["seats"][0]["away"]))["table"]["seats"][0]
            assert seat["away_reason"] == "clock" and time.time() < seat["forfeit_at"] <= time.time() + 30
            # Connecting again tells nothing more.
            again = await Client(srv, table["id"], players[0]["token"]).connect()
            await asyncio.sleep(0.5)
            assert len([f for f in watcher.frames if f.get("event", {}).get("type") == "player_away"
                        and f["event"]["seat"] == 0]) == 1
            for c in (watcher, amira, again):
                await c.close()
        asyncio.run(run())
