"""Restart time with N live tables (issue 8 item 6): how long a restarted ``dineri serve`` takes
to answer ``/healthz`` and to serve the first resume of a table.

Starts the server (``--root``: the checkout to run, default this one; SQLite in a temporary
folder), creates ``--tables`` 1v1 Chkobba tables over the REST API and starts their matches (all
live: ``playing``), stops the server, starts it again and prints: seconds from the process's
start to the first ``200`` of ``/healthz``, and to the ``view`` answering a ``hello`` (with
``last_event``, a resume) on a randomly chosen table. Run it against another checkout (e.g. an
older main) with ``--root`` for a before/after figure.

    .venv/bin/python benchmarks/restart.py --tables 1000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

HERE = Path(__file__).resolve().parents[1]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(root: Path, db: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DINERI_DATABASE_URL": db, "DINERI_TESTING": "1", "DINERI_GUESTS_PER_MINUTE": "0",
           "DINERI_SECRET_KEY": "b" * 64, "DINERI_LOG_LEVEL": "WARNING"}
    out = open(log, "ab")  # noqa: SIM115 (the child's)
    return subprocess.Popen([sys.executable, "-m", "dineri.cli", "serve", "--port", str(port)], cwd=root,
                            env=env, stdout=out, stderr=out)


def _healthy(base: str, proc: subprocess.Popen[bytes], timeout: float = 600) -> float:
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if proc.poll() is not None:
            raise RuntimeError("the server exited")
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return time.monotonic()
        except httpx.HTTPError:
            pass
        time.sleep(0.01)
    raise RuntimeError("no /healthz")


async def _make_tables(base: str, n: int) -> list[tuple[str, str]]:
    """``n`` started 1v1 tables; returns (table id, a seated player's token)."""
    out: list[tuple[str, str]] = []
    sem = asyncio.Semaphore(16)
    async def one(i: int) -> None:
        async with sem, httpx.AsyncClient(base_url=base, timeout=60) as h:  # own cookies per table
            a = (await h.post("/api/players", json={"name": f"A{i}"})).json()
            h.cookies.clear()
            b = (await h.post("/api/players", json={"name": f"B{i}"})).json()
            h.cookies.clear()
            ha, hb = ({"Authorization": f"Bearer {p['token']}"} for p in (a, b))
            t = (await h.post("/api/tables", headers=ha, json={
                "options": {"seats": 2, "target": 11, "best_of": 1}, "public": True, "clock": 0})).json()
            for head, seat in ((ha, 0), (hb, 1)):
                r = await h.post(f"/api/tables/{t['id']}/seats", headers=head, json={"seat": seat})
                assert r.status_code == 200, r.text
            r = await h.post(f"/api/tables/{t['id']}/start", headers=ha, json={"first_dealer": 0})
            assert r.status_code == 200, r.text
            out.append((t["id"], b["token"]))
    if True:
        await asyncio.gather(*(one(i) for i in range(n)))
    return out


async def _resume(ws_base: str, table_id: str, token: str) -> None:
    async with connect(f"{ws_base}/ws/tables/{table_id}?token={token}") as ws:
        await ws.send(json.dumps({"type": "hello", "last_event": 1}))
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if frame.get("type") in ("view", "update", "resync"):
                return


def main() -> None:
    """Parse the arguments, run, print the figures."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--root", default=str(HERE), help="the checkout whose server to run")
    args = p.parse_args()
    root = Path(args.root)
    tmp = Path(tempfile.mkdtemp())
    db = f"sqlite:///{tmp / 'restart.db'}"
    port = _port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    log = tmp / "server.log"
    proc = _serve(root, db, port, log)
    try:
        _healthy(base, proc)
        t0 = time.monotonic()
        tables = asyncio.run(_make_tables(base, args.tables))
        made = time.monotonic() - t0
    finally:
        proc.terminate()
        proc.wait(30)
    table_id, token = random.Random(1).choice(tables)
    start = time.monotonic()
    proc = _serve(root, db, port, log)
    try:
        healthy = _healthy(base, proc) - start
        asyncio.run(_resume(ws_base, table_id, token))
        resumed = time.monotonic() - start
    finally:
        proc.terminate()
        proc.wait(30)
    print(f"root={root} live tables={len(tables)} (made in {made:.1f} s): "
          f"restart to /healthz {healthy:.2f} s, "
          f"to the first resume {resumed:.2f} s")


if __name__ == "__main__":
    main()
