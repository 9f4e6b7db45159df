"""Human tables stay responsive while computer players think (issue 12, item 6).

Usage: python benchmarks/bots_load.py [--tables 100] [--level hard] [--actions 60]

Starts a real server (SQLite, testing mode: computers move without pause, the harshest load),
then measures a human table's *ack latency* (a player's action sent over its WebSocket until its
``ack`` arrives) for ``--actions`` actions of two scripted players, first alone, then while
``--tables`` tables of two computers at ``--level`` play at once (their searches go to the
server's bounded process pool, never the event loop). Prints median, 95th percentile and max of
both runs. (``wire``'s ``benchmarks/load.py``
will measure the general load; this one isolates the computers.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dineri.players.chkobba.info import legal_actions, seat_info
from dineri.players.levels import make_player
from tests.server.harness import Api, Client, Server


async def human_table(api: Api, srv: Server, actions: int) -> list[float]:
    """Two scripted greedy players at one table; the ack latency (s) of each of their actions."""
    table, players = api.full_table(["Human A", "Human B"])
    clients = [await Client(srv, table["id"], p["token"]).connect() for p in players]
    greedy = make_player("greedy", 1)
    latencies: list[float] = []
    while len(latencies) < actions:
        moved = False
        for seat, c in enumerate(clients):
            view = c.last_view()["view"]
            if view.get("phase") == "over":
                return latencies
            events = [f["event"] for f in c.frames if f["type"] == "event"]
            legal = legal_actions(seat_info(view, events))
            if not legal or (view.get("turn") != seat and view.get("phase") != "redeal_vote"):
                continue
            action = greedy.choose(view, events, legal)
            if action is None:
                continue
            seq = c.last_seq()
            t0 = time.perf_counter()
            reply = await c.act(action)
            latencies.append(time.perf_counter() - t0)
            assert reply["type"] == "ack", reply
            for other in clients:
                await other.wait_for(lambda f, s=seq: f["type"] == "view" and f["seq"] > s, timeout=60)
            moved = True
            break
        if not moved:
            await asyncio.sleep(0.05)
    for c in clients:
        await c.close()
    return latencies


def bot_tables(api: Api, count: int, level: str) -> list[str]:
    """``count`` started tables of two computers at ``level``; their ids."""
    ids = []
    for i in range(count):
        if i % 8 == 0:
            host = api.player(f"Host {i // 8}")  # a player may create 10 tables a minute
        table = api.table(host, public=False)
        for seat in (0, 1):
            r = api.call("POST", f"/api/tables/{table['id']}/bots", host, json={"seat": seat, "level": level})
            assert r.status_code == 200, r.text
        assert api.start(host, table).status_code == 200
        ids.append(table["id"])
    return ids


def show(label: str, xs: list[float]) -> None:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    print(f"{label}: {len(xs)} actions, ack latency median {1000 * statistics.median(xs):.1f} ms, "
          f"p95 {1000 * p95:.1f} ms, max {1000 * xs[-1]:.1f} ms")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--level", default="hard")
    p.add_argument("--actions", type=int, default=60)
    args = p.parse_args()
    print(f"load average at start {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        srv = Server(f"sqlite:///{tmp}/dineri.db", DINERI_MESSAGES_PER_SECOND="5000").start(timeout=120)
        api = Api(srv)
        try:
            alone = asyncio.run(human_table(api, srv, args.actions))
            show("human table alone", alone)
            t0 = time.perf_counter()
            ids = bot_tables(api, args.tables, args.level)
            print(f"{len(ids)} tables of two '{args.level}' computers started in "
                  f"{time.perf_counter() - t0:.1f} s")
            busy = asyncio.run(human_table(api, srv, args.actions))
            show(f"human table beside {args.tables} computer tables", busy)
            print(f"load average at end {os.getloadavg()[0]:.2f}")
        finally:
            api.http.close()
            srv.stop()


if __name__ == "__main__":
    main()
