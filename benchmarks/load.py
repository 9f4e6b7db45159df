"""The table service under load, against a bare broadcast server (issue 8, item 7).

Usage (one command; a short run fits a busy 2-core machine, the defaults are the issue's shape):

    python benchmarks/load.py --tables 100 --rates 50,100,200,400 --duration 6     # short
    python benchmarks/load.py                                  # 2,500 1v1 tables, rates to 4,000/s
    python benchmarks/load.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test

It starts a real ``dineri serve`` (SQLite in a temporary folder by default; a PostgreSQL URL gets
a fresh schema, dropped afterwards) and a *bare broadcast server* (the same uvicorn and WebSocket
framing, JSON frames of the same protocol, but no rules, no storage: it relays each action to the
table's two seats). Both are driven by the same client processes (``--procs``) over the real
protocol: every table is a 1v1 Chkobba match whose two seated clients (one socket each) play legal
moves (cut, keep, then a card: taking a table card of its value when there is one, else laid).
At each step of ``--rates`` (actions per second over all tables, open loop: each client process
sends its share on a clock to tables whose last action every seat has seen), it measures for
``--duration`` seconds:

- achieved actions/s (a table has one action in flight at a time: a rate above what the
  tables can carry is not achieved);
- latency of each action from its send until *every seat of its table* has it (the sender its
  ack, each seat a view or update at or past the action's last event): p50, p99, max;
- server CPU per action (user + system time of the server process over the step / actions);
- the server's RSS, and KiB per seated socket ((RSS with every socket connected − RSS of the
  started server before the measured tables) / sockets: tables included). The idle RSS is taken
  after one warm-up table (two players, seats, start), so what a first request loads once for
  the whole process (the games' modules, the 6 MB table of confusable characters that a first
  name check reads) is not counted as memory per socket.

``--restart N`` times a restart instead: N started tables, the server stopped and started again
on the same database; seconds until ``/healthz`` answers and until a table's first resume.

Then the ratio of Dineri's highest rate *held* (achieved ≥ 95 % of the target, p99 < 50 ms) to
the bare server's. Client processes share the machine with the servers: on 2 cores the clients'
own CPU counts against both servers alike (say "loaded machine" with the figures).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HELD_P99_MS = 50.0  # the latency bound
HELD_SHARE = 0.95  # a step is held when at least this share of its target rate was achieved
VALUES = {"A": 1, "Q": 8, "J": 9, "K": 10, **{str(n): n for n in range(2, 8)}}
TICKS = os.sysconf("SC_CLK_TCK")


# --- measuring a process ---------------------------------------------------------------------

def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (``/proc/pid/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` in KiB (``VmRSS``)."""
    m = re.search(r"VmRSS:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(m.group(1)) if m else 0


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 120.0) -> None:
    """Wait until ``url`` answers 200; raise if the process exits or it takes too long."""
    import httpx

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=2).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL after 10 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# --- the bare broadcast server ------------------------------------------------------------------

def bare_app() -> Any:
    """A Starlette app with the table socket's framing and no rules or storage: ``hello`` gets a
    ``welcome`` and a small view; each ``action`` is numbered and relayed to the table's seats
    as an ``update`` frame (the sender's with its ack), each frame encoded once."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    tables: dict[str, dict[str, Any]] = {}

    async def healthz(request: Any) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def table_socket(ws: WebSocket) -> None:
        table_id = ws.path_params["table_id"]
        seat = int(ws.query_params.get("token", "seat0")[-1])
        await ws.accept()
        t = tables.setdefault(table_id, {"seq": 0, "turn": 0, "socks": {}})
        t["socks"][seat] = ws
        try:
            while True:
                msg = json.loads(await ws.receive_text())
                if msg["type"] == "hello":
                    await ws.send_text(json.dumps({"type": "welcome", "seat": seat, "last_event": t["seq"],
                                                   "resume": False, "table": {"id": table_id}}))
                    view = {"phase": "play", "turn": t["turn"], "seat": seat, "table": [],
                            "hand": ["AD", "2D", "3D"]}
                    await ws.send_text(json.dumps({"type": "view", "seq": t["seq"], "seat": seat,
                                                   "view": view}))
                elif msg["type"] == "action":
                    t["seq"] += 1
                    t["turn"] = 1 - seat
                    act = msg["action"]
                    event = {"seq": t["seq"], "event": {"type": act["type"], "seat": seat,
                                                        "card": act.get("card"), "capture": [],
                                                        "chkobba": False, "auto": False}}
                    base = {"type": "update", "seq": t["seq"], "events": [event], "view": {"turn": t["turn"]}}
                    other = json.dumps(base, separators=(",", ":"))
                    mine = json.dumps({**base, "ack": msg["id"]}, separators=(",", ":"))
                    for s, sock in list(t["socks"].items()):
                        with contextlib.suppress(Exception):
                            await sock.send_text(mine if s == seat else other)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            t["socks"].pop(seat, None)

    return Starlette(routes=[Route("/healthz", healthz),
                             WebSocketRoute("/ws/tables/{table_id}", table_socket)])


def run_bare(port: int) -> None:
    """Serve :func:`bare_app` on ``port`` (uvicorn, as ``dineri serve`` does)."""
    import uvicorn

    # The WebSocket settings of ``dineri serve`` (no permessage-deflate): the same framing.
    uvicorn.run(bare_app(), host="127.0.0.1", port=port, log_level="warning", ws_per_message_deflate=False)


# --- the servers under test ----------------------------------------------------------------------

@dataclass
class Target:
    """A started server: its process, base URL, and the tables (id, seat tokens) to drive."""

    name: str
    proc: subprocess.Popen[bytes]
    port: int
    tables: list[tuple[str, list[str]]] = field(default_factory=list)
    rss_idle: int = 0
    log: Path | None = None
    secret: str = ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextlib.contextmanager
def postgres_schema(url: str) -> Iterator[str]:
    """A fresh schema on the PostgreSQL ``url``, dropped afterwards; yields the URL that uses it."""
    from sqlalchemy import create_engine, text

    schema = "bench_" + secrets.token_hex(5)
    admin = create_engine(url)
    with admin.begin() as c:
        c.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def start_dineri(db_url: str, tmp: Path, gc_tuning: bool = True) -> Target:
    """``dineri serve`` with the benchmark's settings (no guest limit, a frame rate no client
    reaches, logs to a file; ``gc_tuning`` false: ``DINERI_GC_TUNING=0``)."""
    port = free_port()
    secret = secrets.token_hex(16)
    env = {**os.environ, "DINERI_DATABASE_URL": db_url, "DINERI_GUESTS_PER_MINUTE": "0",
           "DINERI_MESSAGES_PER_SECOND": "1000", "DINERI_LOG_LEVEL": "WARNING",
           "DINERI_SECRET_KEY": secret, "DINERI_GC_TUNING": "1" if gc_tuning else "0"}
    log = tmp / "dineri.log"
    with open(log, "ab") as out:
        proc = subprocess.Popen([sys.executable, "-m", "dineri.cli", "serve", "--port", str(port)],
                                cwd=ROOT, env=env, stdout=out, stderr=out)
    t = Target("dineri", proc, port, log=log, secret=secret)
    wait_healthy(t.base + "/healthz", proc)
    asyncio.run(make_tables(t.base, 1))  # one-off loads of a first request are no socket's
    time.sleep(1.0)  # let start-up settle before the idle RSS
    t.rss_idle = rss_kib(proc.pid)
    return t


def start_bare() -> Target:
    """The bare broadcast server in its own process."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, __file__, "--serve-bare", str(port)], cwd=ROOT)
    t = Target("bare", proc, port)
    wait_healthy(t.base + "/healthz", proc)
    time.sleep(1.0)
    t.rss_idle = rss_kib(proc.pid)
    return t


async def make_tables(base: str, count: int, concurrency: int = 16) -> list[tuple[str, list[str]]]:
    """``count`` started 1v1 Chkobba tables (to 31 points, best of 5: long matches) through the
    REST API; returns ``(table id, [seat 0 token, seat 1 token])`` each."""
    import httpx

    out: list[tuple[str, list[str]]] = []
    sem = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        async def one(i: int) -> None:
            async with sem:
                tokens = []
                for n in (0, 1):
                    r = await http.post("/api/players", json={"name": f"Load {i}.{n}"})
                    r.raise_for_status()
                    tokens.append(r.json()["token"])
                http.cookies.clear()
                auth = [{"Authorization": f"Bearer {tok}"} for tok in tokens]
                r = await http.post("/api/tables", headers=auth[0], json={
                    "game": "chkobba", "options": {"seats": 2, "target": 31, "best_of": 5},
                    "public": False, "clock": 0})
                r.raise_for_status()
                tid, code = r.json()["id"], r.json()["code"]
                for n in (0, 1):
                    r = await http.post(f"/api/tables/{tid}/seats", headers=auth[n],
                                        json={"seat": n, "code": code})
                    r.raise_for_status()
                (await http.post(f"/api/tables/{tid}/start", headers=auth[0], json={})).raise_for_status()
                http.cookies.clear()
                out.append((tid, tokens))
        await asyncio.gather(*(one(i) for i in range(count)))
    return out


# --- the client processes ------------------------------------------------------------------------

def choose(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """A legal Chkobba move for ``seat`` from its own view, or ``None`` when it is not its move:
    cut at random (R8), keep (R9), refuse a redeal (R10), then the first card of the hand,
    taking one table card of the same value when there is one (R14), else laid (R17)."""
    if view.get("turn") != seat:
        return None
    phase = view.get("phase")
    if phase == "cut":
        return {"type": "cut"}
    if phase == "cut_choice":
        return {"type": "keep"}
    if phase == "redeal_vote":
        return {"type": "answer_redeal", "accept": False}
    if phase != "play" or not view.get("hand"):
        return None
    card = view["hand"][0]
    same = [c for c in view.get("table", []) if VALUES.get(c[:-1]) == VALUES.get(card[:-1])]
    return {"type": "play", "card": card, "capture": same[:1]}


class Seat:
    """One seated socket: its view as the frames leave it, and the last event number it has."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.ws: Any = None
        self.view: dict[str, Any] | None = None
        self.seq = -1  # the event number its view is at (-1: no view yet)


class Table:
    """A table driven by one client process: two seats, at most one action in flight."""

    def __init__(self, tid: str, tokens: list[str]) -> None:
        self.tid, self.tokens = tid, tokens
        self.seats = [Seat(0), Seat(1)]
        self.sent_at: float | None = None  # the action in flight: when it was sent
        self.pending: str | None = None  # its id
        self.ack_seq: int | None = None  # its ack's event number, once acked
        self.over = False
        self.n = 0


class Driver:
    """The client side of one process: connects every seat, then plays steps on request."""

    def __init__(self, ws_base: str, tables: list[tuple[str, list[str]]]) -> None:
        self.ws_base = ws_base
        self.tables = [Table(tid, toks) for tid, toks in tables]
        self.ready: list[Table] = []
        self.latencies: list[float] = []
        self.errors = 0
        self.timeouts = 0
        self.recording = False
        self.wake = asyncio.Event()

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        async def one(t: Table, s: Seat) -> None:
            for attempt in range(5):
                try:
                    s.ws = await connect(f"{self.ws_base}/ws/tables/{t.tid}?token={t.tokens[s.n]}",
                                         max_size=2**22, open_timeout=60, ping_interval=None)
                    break
                except (OSError, TimeoutError):
                    await asyncio.sleep(0.5 * (attempt + 1))
            else:
                raise ConnectionError(f"could not connect to table {t.tid}")
            asyncio.get_running_loop().create_task(self.read(t, s))
            await s.ws.send('{"type":"hello","last_event":null}')

        sem = asyncio.Semaphore(50)

        async def bounded(t: Table, s: Seat) -> None:
            async with sem:
                await one(t, s)
        await asyncio.gather(*(bounded(t, s) for t in self.tables for s in t.seats))
        deadline = time.monotonic() + 120
        while any(s.view is None for t in self.tables for s in t.seats):
            if time.monotonic() > deadline:
                raise TimeoutError("not every seat got its view")
            await asyncio.sleep(0.05)
        self.ready = [t for t in self.tables if self.movable(t)]

    def movable(self, t: Table) -> bool:
        return not t.over and any(s.view is not None and choose(s.view, s.n) for s in t.seats)

    async def read(self, t: Table, s: Seat) -> None:
        try:
            async for raw in s.ws:
                self.on_frame(t, s, json.loads(raw))
        except Exception:  # a lost socket shows as timeouts in the figures
            pass

    def on_frame(self, t: Table, s: Seat, f: dict[str, Any]) -> None:
        kind = f.get("type")
        if kind == "view":
            s.view, s.seq = f.get("view") or {}, f["seq"]
        elif kind == "update":
            if s.view is not None:
                s.view.update(f.get("view") or {})
                s.seq = f["seq"]
            if f.get("ack") is not None and f["ack"] == t.pending:
                t.ack_seq = f["seq"]
        elif kind == "ack":
            if f.get("id") == t.pending:
                t.ack_seq = f["seq"]
        elif kind == "error" and f.get("id") is not None and f.get("id") == t.pending:
            self.errors += 1
            t.ack_seq = -1  # refused: done once every seat has what it had
        else:
            return
        self.settle(t)

    def settle(self, t: Table) -> None:
        """If the action in flight has reached every seat, record its latency; the table is ready."""
        if t.pending is None or t.ack_seq is None or t.sent_at is None:
            return
        if any(s.seq < t.ack_seq for s in t.seats):
            return
        if self.recording:
            self.latencies.append(time.perf_counter() - t.sent_at)
        t.pending, t.sent_at, t.ack_seq = None, None, None
        if s_over(t):
            t.over = True
        elif self.movable(t):
            self.ready.append(t)
            self.wake.set()

    async def step(self, rate: float, duration: float, warmup: float = 1.0) -> dict[str, Any]:
        """Send ``rate`` actions/s (this process's share) for ``warmup + duration`` seconds; the
        figures cover the last ``duration`` seconds."""
        self.latencies, self.errors, self.timeouts = [], 0, 0
        loop_start = time.perf_counter()
        sent = missed = 0
        counted = 0
        self.recording = False
        rng = random.Random(1)
        while True:
            now = time.perf_counter()
            elapsed = now - loop_start
            if elapsed >= warmup + duration:
                break
            if not self.recording and elapsed >= warmup:
                self.recording, counted, missed = True, 0, 0
                self.latencies = []
                self.errors = 0
            due = int(elapsed * rate) - sent
            for _ in range(max(0, due)):
                sent += 1
                if not self.ready:
                    missed += 1
                    continue
                t = self.ready.pop(rng.randrange(len(self.ready)))
                self.send(t)
                if self.recording:
                    counted += 1
            self.expire(now)
            self.wake.clear()
            await asyncio.sleep(0.002)
        self.recording = False
        return {"latencies": self.latencies, "sent": counted, "missed": missed, "errors": self.errors,
                "timeouts": self.timeouts, "duration": duration}

    def send(self, t: Table) -> None:
        for s in t.seats:
            if s.view is not None and (action := choose(s.view, s.n)) is not None:
                t.n += 1
                t.pending = f"b{t.n}"
                t.ack_seq = None
                t.sent_at = time.perf_counter()
                frame = json.dumps({"type": "action", "id": t.pending, "action": action})
                asyncio.get_running_loop().create_task(s.ws.send(frame))
                return
        t.over = s_over(t)

    def expire(self, now: float) -> None:
        """An action unanswered for 10 s counts as a timeout; its table plays on."""
        for t in self.tables:
            if t.sent_at is not None and now - t.sent_at > 10.0:
                self.timeouts += 1
                t.pending, t.sent_at, t.ack_seq = None, None, None
                if self.movable(t):
                    self.ready.append(t)

    async def close(self) -> None:
        for t in self.tables:
            for s in t.seats:
                if s.ws is not None:
                    with contextlib.suppress(Exception):
                        await s.ws.close()


def s_over(t: Table) -> bool:
    return any(s.view is not None and s.view.get("phase") == "over" for s in t.seats)


def worker(conn: Any, ws_base: str, tables: list[tuple[str, list[str]]]) -> None:
    """A client process: connect, then run the steps the parent asks for over ``conn``."""
    async def main() -> None:
        d = Driver(ws_base, tables)
        await d.connect()
        conn.send(("connected", len(d.tables) * 2))
        loop = asyncio.get_running_loop()
        while True:
            cmd = await loop.run_in_executor(None, conn.recv)
            if cmd[0] == "step":
                conn.send(("result", await d.step(cmd[1], cmd[2])))
            else:
                await d.close()
                conn.send(("closed", None))
                return
    asyncio.run(main())


# --- one server's run ---------------------------------------------------------------------------

@dataclass
class Row:
    """One step's figures."""

    server: str
    sockets: int
    target: float
    achieved: float
    p50: float
    p99: float
    max: float
    cpu_ms: float
    rss_mib: float
    kib_socket: float
    errors: int
    timeouts: int

    @property
    def held(self) -> bool:
        return self.achieved >= HELD_SHARE * self.target and self.p99 < HELD_P99_MS


HEADER = (f"{'server':<7} {'sockets':>7} {'target/s':>8} {'got/s':>7} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7} {'CPU ms/act':>10} {'RSS MiB':>7} {'KiB/sock':>8} {'err':>4} {'lost':>4} held")


def show(r: Row) -> None:
    print(f"{r.server:<7} {r.sockets:>7} {r.target:>8.0f} {r.achieved:>7.0f} {r.p50:>7.1f} {r.p99:>7.1f} "
          f"{r.max:>7.1f} {r.cpu_ms:>10.3f} {r.rss_mib:>7.1f} {r.kib_socket:>8.1f} {r.errors:>4} "
          f"{r.timeouts:>4} {'yes' if r.held else 'no'}", flush=True)


def percentile(xs: list[float], q: float) -> float:
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def drive(target: Target, rates: list[float], duration: float, procs: int) -> list[Row]:
    """Connect every seat from ``procs`` client processes, then step through ``rates``."""
    ctx = multiprocessing.get_context("spawn")
    ws_base = f"ws://127.0.0.1:{target.port}"
    shares = [target.tables[i::procs] for i in range(procs)]
    pipes, workers = [], []
    for share in shares:
        parent, child = ctx.Pipe()
        p = ctx.Process(target=worker, args=(child, ws_base, share), daemon=True)
        p.start()
        pipes.append(parent)
        workers.append(p)
    rows: list[Row] = []
    try:
        sockets = sum(pipe.recv()[1] for pipe in pipes)
        time.sleep(1.0)
        rss_connected = rss_kib(target.proc.pid)
        kib_socket = (rss_connected - target.rss_idle) / max(1, sockets)
        for rate in rates:
            cpu0 = cpu_seconds(target.proc.pid)
            t0 = time.monotonic()
            for pipe in pipes:
                pipe.send(("step", rate / procs, duration))
            results = [pipe.recv()[1] for pipe in pipes]
            wall = time.monotonic() - t0
            cpu = cpu_seconds(target.proc.pid) - cpu0
            lat = sorted(x for r in results for x in r["latencies"])
            done = len(lat)
            # CPU over the whole step (warm-up included) per action sent in it.
            per_action = cpu / max(1, done * wall / duration)
            row = Row(target.name, sockets, rate, done / duration, 1000 * percentile(lat, 0.5),
                      1000 * percentile(lat, 0.99), 1000 * (lat[-1] if lat else float("nan")),
                      1000 * per_action, rss_kib(target.proc.pid) / 1024, kib_socket,
                      sum(r["errors"] for r in results), sum(r["timeouts"] for r in results))
            show(row)
            rows.append(row)
            if row.achieved < 0.5 * rate and row.p99 > 4 * HELD_P99_MS:
                break  # collapsed: higher rates tell nothing more
    finally:
        for pipe in pipes:
            with contextlib.suppress(Exception):
                pipe.send(("close",))
        for p in workers:
            p.join(10)
            if p.is_alive():
                p.kill()
    return rows


def highest_held(rows: list[Row]) -> float:
    return max((r.target for r in rows if r.held), default=0.0)


def gc_report(log: Path | None) -> str | None:
    """The server's garbage-collector pause summary from its log, when it wrote one."""
    if log is None or not log.exists():
        return None
    found = None
    docs: list[dict[str, Any]] = []
    for line in log.read_text(errors="replace").splitlines():
        with contextlib.suppress(ValueError):
            doc = json.loads(line)
            if isinstance(doc, dict) and doc.get("msg") in ("gc pauses", "writer totals"):
                docs.append(doc)
                if doc["msg"] == "gc pauses":
                    found = doc
    if found is None:
        return None
    out = (f"server GC ({'tuned' if found.get('tuned') else 'CPython defaults'}): "
           f"{found.get('collections')} collections {found.get('by_generation')} by generation, "
           f"pause max {found.get('max_ms')} ms, total {found.get('total_ms')} ms, "
           f"{found.get('over_10ms')} of 10 ms or more")
    if "max_ms_by_generation" in found:
        hist = found["histogram_ms"]
        out += (f"; longest by generation {found['max_ms_by_generation']} ms wall, "
                f"{found['max_cpu_ms_by_generation']} ms CPU; histogram (ms bounds {hist['buckets']}) "
                f"{hist['by_generation']}; most collected {found['most_collected']}; "
                f"{found.get('freezes', 0)} freezes")
    writer = next((d for d in docs if d.get("msg") == "writer totals"), None)
    if writer is not None and writer.get("commits"):
        out += (f"\n# writer (whole run): {writer['writes']} writes in {writer['commits']} commits "
                f"({writer['writes'] / writer['commits']:.1f} per commit); on the loop "
                f"{writer['loop_writes']} writes in {writer['loop_commits']} commits")
    late = found.get("loop_late")
    if late:
        out += (f"\n# event loop wake-ups ({late['wakeups']}, every 10 ms): latest {late['max_ms']} ms late, "
                f"{late['over_10ms']} of 10 ms or more; late ≥ 1 ms by bound "
                f"{late['histogram_ms']['buckets']}: {late['histogram_ms']['late']}; the latest spent "
                f"{late.get('worst')}, those ≥ 10 ms in all {late.get('slow_spent')}")
    return out


# --- restart mode ----------------------------------------------------------------------------

async def first_resume(ws_base: str, table: tuple[str, list[str]]) -> float:
    """Seconds from now until a seat of ``table`` has its ``view`` after a ``hello``."""
    from websockets.asyncio.client import connect

    t0 = time.perf_counter()
    while True:
        try:
            async with connect(f"{ws_base}/ws/tables/{table[0]}?token={table[1][0]}", open_timeout=30,
                               ping_interval=None) as ws:
                await ws.send('{"type":"hello","last_event":0}')
                while json.loads(await asyncio.wait_for(ws.recv(), 30)).get("type") != "view":
                    pass
                return time.perf_counter() - t0
        except (OSError, TimeoutError):
            await asyncio.sleep(0.02)


def restart(args: argparse.Namespace) -> None:
    """Time a restart with ``--restart N`` live tables: make them (started matches), stop the
    server, start it again on the same database, and print the seconds until ``/healthz``
    answers and until the first resume (hello to view) of a table is served."""
    import httpx

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        db = (stack.enter_context(postgres_schema(args.database_url)) if args.database_url
              else f"sqlite:///{tmp}/dineri.db")
        t = start_dineri(db, Path(tmp))
        port = t.port
        try:
            t.tables = asyncio.run(make_tables(t.base, args.restart))
        finally:
            stop(t.proc)
        env = {**os.environ, "DINERI_DATABASE_URL": db, "DINERI_LOG_LEVEL": "WARNING"}
        env["DINERI_SECRET_KEY"] = t.secret
        t0 = time.perf_counter()
        with open(Path(tmp) / "dineri2.log", "ab") as out:
            proc = subprocess.Popen([sys.executable, "-m", "dineri.cli", "serve", "--port", str(port)],
                                    cwd=ROOT, env=env, stdout=out, stderr=out)
        try:
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                        break
                if proc.poll() is not None:
                    raise RuntimeError("the restarted server exited")
                time.sleep(0.01)
            healthy = time.perf_counter() - t0
            resumed = healthy + asyncio.run(first_resume(f"ws://127.0.0.1:{port}", random.choice(t.tables)))
            print(f"restart with {len(t.tables)} live tables: /healthz after {healthy:.2f} s, "
                  f"first resume after {resumed:.2f} s (from the new process's start)")
        finally:
            stop(proc)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=2500, help="1v1 tables (2 seated sockets each)")
    p.add_argument("--rates", default="250,500,1000,1500,2000,2500,3000,4000",
                   help="comma-separated target actions/s over all tables")
    p.add_argument("--duration", type=float, default=10.0, help="measured seconds per step")
    p.add_argument("--procs", type=int, default=2, help="client processes")
    p.add_argument("--database-url", default=None,
                   help="PostgreSQL URL (a fresh schema is made and dropped); default SQLite in a temp dir")
    p.add_argument("--only", choices=("dineri", "bare"), default=None, help="run one server only")
    p.add_argument("--no-gc-tuning", action="store_true",
                   help="run Dineri with CPython's collector defaults (DINERI_GC_TUNING=0), to compare")
    p.add_argument("--restart", type=int, default=None, metavar="N",
                   help="instead: time a restart with N live tables (/healthz, first resume)")
    p.add_argument("--serve-bare", type=int, default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve_bare is not None:
        run_bare(args.serve_bare)
        return
    if args.restart is not None:
        restart(args)
        return
    rates = [float(x) for x in args.rates.split(",") if x.strip()]
    print(f"load: {args.tables} tables ({2 * args.tables} seated sockets), {args.procs} client processes, "
          f"{args.duration:g} s a step; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores",
          flush=True)
    print(HEADER, flush=True)
    results: dict[str, list[Row]] = {}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        if args.only != "bare":
            db = (stack.enter_context(postgres_schema(args.database_url)) if args.database_url
                  else f"sqlite:///{tmp}/dineri.db")
            t = start_dineri(db, Path(tmp), gc_tuning=not args.no_gc_tuning)
            try:
                t0 = time.monotonic()
                t.tables = asyncio.run(make_tables(t.base, args.tables))
                kind = "PostgreSQL" if args.database_url else "SQLite"
                print(f"# dineri on {kind}: {len(t.tables)} tables made in {time.monotonic() - t0:.1f} s",
                      flush=True)
                results["dineri"] = drive(t, rates, args.duration, args.procs)
            finally:
                stop(t.proc)
            report = gc_report(t.log)
            if report:
                print("# " + report)
        if args.only != "dineri":
            b = start_bare()
            try:
                b.tables = [(f"bare{i}", ["seat0", "seat1"]) for i in range(args.tables)]
                results["bare"] = drive(b, rates, args.duration, args.procs)
            finally:
                stop(b.proc)
    if "dineri" in results and "bare" in results:
        held_d, held_b = highest_held(results["dineri"]), highest_held(results["bare"])
        ratio = f"{held_d / held_b:.2f}" if held_b else "n/a"
        print(f"highest rate held (p99 < {HELD_P99_MS:g} ms, ≥ {HELD_SHARE:.0%} achieved): "
              f"dineri {held_d:.0f}/s, bare {held_b:.0f}/s, ratio {ratio}")
    print(f"load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
