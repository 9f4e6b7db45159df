"""Restart time with N live tables (issue 8 item 6): how long a restarted ``dineri serve`` takes
to answer ``/healthz`` and to serve the first resume of a table.

Starts the server (``--root``: the checkout to run, default this one; SQLite in a temporary
folder), creates ``--tables`` 1v1 Chkobba tables over the REST API and starts their matches (all
live: ``playing``), stops the server, starts it again and prints: seconds from the process's
start to the first ``200`` of ``/healthz``, and to the ``view`` answering a ``hello`` (with
``last_event``, a resume) on a randomly chosen table. Run it against another checkout (e.g. an
older main) with ``--root`` for a before/after figure.

The clock starts just before the new process is spawned (exec, imports, migrations check and
uvicorn's start all count); ``/healthz`` is polled every 5 ms with a raw HTTP/1.1 request (cheap:
the poller must not take the CPU the server needs). ``--db FILE`` keeps the database (and the
tables' tokens, in ``FILE.tables.json``) so that later runs skip making the tables;
``--repeat K`` restarts K times and prints each run and the median.

Before timing, the checkout's modules are compiled to bytecode (``compileall``), as an installed
server has them (pip compiles what it installs; ``deploy/Dockerfile`` compiles at build): this
machine sets ``PYTHONDONTWRITEBYTECODE=1``, under which every start of an editable checkout would
compile the project's modules from source again (about 0.1 s). ``--no-compile`` skips that step
(then the figure includes whatever bytecode is, or is not, already there).

    .venv/bin/python benchmarks/restart.py --tables 1000
    .venv/bin/python benchmarks/restart.py --tables 1000 --db /tmp/r1000.db --repeat 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
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


def _get_ok(port: int, path: str) -> bool:
    """One raw ``GET path`` on 127.0.0.1:port: True when it answers 200 (False: refused, other)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as c:
            c.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            return c.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def _healthy(port: int, proc: subprocess.Popen[bytes], timeout: float = 600) -> float:
    """``time.monotonic()`` of the first 200 from ``/healthz``."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if proc.poll() is not None:
            raise RuntimeError("the server exited")
        if _get_ok(port, "/healthz"):
            return time.monotonic()
        time.sleep(0.005)
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
    p.add_argument("--db", default=None, help="SQLite file to keep and reuse (default: a temporary one)")
    p.add_argument("--no-compile", action="store_true", help="do not compile the checkout's modules first")
    p.add_argument("--repeat", type=int, default=1, help="restarts to time (each printed, then the median)")
    args = p.parse_args()
    root = Path(args.root)
    tmp = Path(tempfile.mkdtemp())
    db_file = Path(args.db).resolve() if args.db else tmp / "restart.db"
    db = f"sqlite:///{db_file}"
    saved = db_file.with_name(db_file.name + ".tables.json")
    port = _port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    log = tmp / "server.log"
    made = 0.0
    if args.db and saved.exists() and db_file.exists():
        tables = [tuple(t) for t in json.loads(saved.read_text())]
        if len(tables) != args.tables:
            raise SystemExit(f"{db_file} holds {len(tables)} tables, not {args.tables}")
    else:
        proc = _serve(root, db, port, log)
        try:
            _healthy(port, proc)
            t0 = time.monotonic()
            tables = asyncio.run(_make_tables(base, args.tables))
            made = time.monotonic() - t0
        finally:
            proc.terminate()
            proc.wait(30)
        if args.db:
            saved.write_text(json.dumps(tables))
    if not args.no_compile:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([sys.executable, "-m", "compileall", "-q", "dineri", "migrations"], cwd=root,
                       check=True, env=env)
    rng = random.Random(1)
    runs: list[tuple[float, float]] = []
    for _ in range(args.repeat):
        table_id, token = rng.choice(tables)
        start = time.monotonic()
        proc = _serve(root, db, port, log)
        try:
            healthy = _healthy(port, proc) - start
            asyncio.run(_resume(ws_base, table_id, token))
            resumed = time.monotonic() - start
        finally:
            proc.terminate()
            proc.wait(30)
        runs.append((healthy, resumed))
        print(f"root={root} live tables={len(tables)}" + (f" (made in {made:.1f} s)" if made else "") +
              f": restart to /healthz {healthy:.2f} s, to the first resume {resumed:.2f} s", flush=True)
    if len(runs) > 1:
        print(f"median of {len(runs)}: /healthz {statistics.median(r[0] for r in runs):.2f} s, "
              f"first resume {statistics.median(r[1] for r in runs):.2f} s "
              f"(load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
