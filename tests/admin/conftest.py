"""Fixtures of the admin tests: one real server with an admin token and matches actually played
(``dineri bot`` processes on stacked decks, a forfeit, a match in progress, a clock-driven one)."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.driver import stacked_decks
from tests.server.harness import ROOT, Api, Client, Server

TOKEN = "admin-token-for-tests"
EVIL = "<script>x()</script>"  # 20 characters: a valid display name


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A server with an admin token, and its matches: ``bots`` (over), ``forfeit``, ``idle``
    (in progress), ``clock`` (auto actions). Yields the server, an Api, and what each saw."""
    tmp = tmp_path_factory.mktemp("admin")
    srv = Server(f"sqlite:///{tmp / 'dineri.db'}", DINERI_ADMIN_TOKEN=TOKEN, DINERI_CLOCK_SCALE="0.02",
                 DINERI_MESSAGES_PER_SECOND="5000").start()
    api = Api(srv)
    procs: list[subprocess.Popen[str]] = []
    try:
        host = api.player("Host")
        table = api.table(host)
        url = f"{srv.base}/t/{table['id']}"
        for seat, (name, strategy) in enumerate([(EVIL, "random"), ("Greedy", "greedy")]):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "dineri.cli", "bot", url, "--seat", str(seat), "--name", name,
                 "--strategy", strategy, "--seed", str(seat), "--record", str(tmp / f"bot{seat}.json")],
                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        deadline = time.monotonic() + 30
        def seated() -> int:
            seats = api.call("GET", f"/api/tables/{table['id']}").json()["seats"]
            return sum(s["player"] is not None for s in seats)
        while seated() < 2:
            dead = [p.communicate()[1] for p in procs if p.poll() is not None]
            assert not dead and time.monotonic() < deadline, f"the bots did not sit down: {dead}"
            time.sleep(0.1)
        decks = stacked_decks(random.Random(7))
        assert api.start(host, table, first_dealer=0, decks=decks).status_code == 200
        outs = []
        for p in procs:
            out, err = p.communicate(timeout=240)
            assert p.returncode == 0, err
            outs.append(json.loads(out.strip().splitlines()[-1]))

        # A forfeited match, and one left in progress.
        ftable, fplayers = api.full_table(["Forfeiter", "Stayer"], decks=decks)

        async def forfeit() -> dict[str, Any]:
            c = await Client(srv, ftable["id"], fplayers[0]["token"]).connect()
            reply = await c.act({"type": "forfeit"})
            await c.close()
            return reply
        assert asyncio.run(forfeit())["type"] == "ack"
        itable, iplayers = api.full_table(["Idle One", "Idle Two"], decks=decks)
        # A clock table nobody plays: the turn clock acts for the players (auto actions).
        ctable, _ = api.full_table(["Sleepy A", "Sleepy B"], decks=decks, clock=15)
        time.sleep(2.0)
        yield {"server": srv, "api": api, "tmp": tmp, "bots": table, "bot_out": outs, "host": host,
               "forfeit": ftable, "idle": itable, "idle_players": iplayers, "clock": ctable}
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.communicate()
        api.http.close()
        srv.stop()


