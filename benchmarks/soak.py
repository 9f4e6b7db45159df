"""A soak: a long run of a churning site, for what the collector's freezes leave behind.

Usage (the defaults are about 10 minutes at 300 actions/s):

    python benchmarks/soak.py --minutes 10 --rate 300 --tables 200
    python benchmarks/soak.py --minutes 2 --rate 100 --tables 50          # short
    DINERI_GC_THAW_OBJECTS=0 python benchmarks/soak.py ...                # no thaw (to compare)

It starts a real ``dineri serve`` (SQLite in a temporary folder) wrapped so that it answers two
signals, and drives it from this process over the real protocol: ``--tables`` slots each play
1v1 Chkobba matches (to 11 points, one game: a few hundred actions) one after another; each
match's players and table are new (REST: two guests, a table, two seats, a start), its two
sockets open, play legal moves (``benchmarks/load.py``'s ``choose``), and close when it is over;
one action in 50 a seat closes its socket and reconnects (``hello`` with its last event). Actions
go out open loop at ``--rate`` a second over all tables (a table has one in flight at a time).

Every ``--every`` seconds it prints a sample of the server: RSS (MiB), CPU seconds, the
frozen objects (``gc.get_freeze_count()``: it walks the frozen list, so sampled rarely), the
freezes and thaws so far (``gcpause.Freezer``), the old generation's size; with actions/s,
matches finished and the load average. At the end, with every client gone and the server idle,
the server does ``gc.collect()`` (ordinary garbage), then ``gc.unfreeze(); gc.collect()``: what
the second one finds unreachable was frozen and died in a cycle, i.e. **leaked** for as long as
the process lives (printed with its most common types, and how long that collection took).
The server's ``gc pauses`` line (its log) follows.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load import choose, cpu_seconds, free_port, rss_kib, stop, wait_healthy  # noqa: E402

RECONNECT_EVERY = 50  # one action in this many: a seat drops its socket and resumes


# --- inside the server process --------------------------------------------------------------------

def serve(port: int, out: Path, with_census: bool = False,
          thresholds: tuple[int, int, int] | None = None) -> None:
    """``dineri serve`` on ``port``, with SIGUSR1: append a sample line (JSON) to ``out``, and
    SIGUSR2: append the leak measure (below). Both run on the main thread, between callbacks of the
    event loop (Python runs signal handlers there), so no action is half done."""
    import gc

    from dineri.server import gcpause
    from dineri.server.cli import cmd_serve

    global census
    census = Census() if with_census else None
    if thresholds is not None:  # tune()'s default, bound when it was defined
        gcpause.tune.__defaults__ = (thresholds,)

    def freezer() -> Any:
        return next((c for c in gc.callbacks if isinstance(c, gcpause.Freezer)), None)

    def write(doc: dict[str, Any]) -> None:
        with open(out, "a") as f:
            f.write(json.dumps(doc) + "\n")

    def sample(signum: int, frame: Any) -> None:
        fz = freezer()
        t0 = time.perf_counter()
        frozen = gc.get_freeze_count()
        write({"kind": "sample", "frozen": frozen, "count_ms": round((time.perf_counter() - t0) * 1e3, 1),
               "old": len(gc.get_objects(2)), "freezes": fz.freezes if fz else None,
               "thaws": fz.thaws if fz is not None and hasattr(fz, "thaws") else None,
               "estimate": getattr(fz, "frozen_since_thaw", None)})

    def leak(signum: int, frame: Any) -> None:
        # This measure's own full collections are not pauses of serving: not timed.
        timers = [c for c in gc.callbacks if isinstance(c, gcpause.Pauses)]
        for c in timers:
            c.remove()
        try:
            measure()
        finally:
            for c in timers:
                c.install()

    def measure() -> None:
        plain = gc.collect()  # ordinary garbage, not frozen
        frozen = gc.get_freeze_count()
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)  # keep what it finds, to say what it was
        t0, c0 = time.perf_counter(), time.thread_time()
        leaked = gc.collect()
        ms, cpu_ms = (time.perf_counter() - t0) * 1e3, (time.thread_time() - c0) * 1e3
        gc.set_debug(0)
        kinds = collections.Counter(type(o).__qualname__ for o in gc.garbage)
        examples: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        for o in gc.garbage:  # what the SQLAlchemy objects were, to find where they are made
            name = type(o).__qualname__
            if name in ("Column", "ColumnClause", "BindParameter", "Label", "_anonymous_label"):
                with contextlib.suppress(Exception):
                    table = getattr(getattr(o, "table", None), "name", None)
                    examples[name][f"{table}.{o.key}" if name != "_anonymous_label" else str(o)[:40]] += 1
        gc.garbage.clear()
        gc.collect()
        gc.freeze()
        write({"kind": "leak", "plain_garbage": plain, "frozen_before": frozen, "leaked": leaked,
               "full_ms": round(ms, 1), "full_cpu_ms": round(cpu_ms, 1),
               "alive_after": len(gc.get_objects()) + gc.get_freeze_count(),
               "top": kinds.most_common(12),
               "examples": {k: v.most_common(6) for k, v in examples.items()}})

    def census_report(signum: int, frame: Any) -> None:
        assert census is not None
        with census.lock:
            census.take()
            write({"kind": "leak", "census": True, "rounds": census.rounds, "objects": census.objects,
                   "kinds": census.kinds.most_common(40), "sites": census.sites.most_common(60),
                   "plain_garbage": 0, "frozen_before": gc.get_freeze_count(), "leaked": 0,
                   "full_ms": 0, "full_cpu_ms": 0, "top": [], "examples": {}})

    signal.signal(signal.SIGUSR1, sample)
    signal.signal(signal.SIGUSR2, census_report if census else leak)
    if census:
        threading.Thread(target=census.run, name="soak-census", daemon=True).start()
    cmd_serve(argparse.Namespace(host="127.0.0.1", port=port))


class Census:
    """``--census``: what becomes cyclic garbage, and where it was made. Once the server has
    tuned its collector, its automatic collections are turned off (and the Freezer removed);
    every ``every`` seconds this thread collects with ``gc.DEBUG_SAVEALL``, counts the garbage
    by type and by the allocation site ``tracemalloc`` gives (the innermost frame in
    ``dineri/`` and the innermost of all), then frees it (a second collection without
    SAVEALL). Slow (tracemalloc, full collections): for finding sources, not for pauses."""

    def __init__(self, every: float = 0.5) -> None:
        self.every = every
        self.rounds = 0
        self.objects = 0
        self.kinds: collections.Counter[str] = collections.Counter()
        self.sites: collections.Counter[str] = collections.Counter()
        self.lock = threading.Lock()

    def run(self) -> None:
        import gc

        from dineri.server import gcpause

        while not any(isinstance(c, gcpause.Freezer) for c in gc.callbacks):
            time.sleep(0.05)  # the lifespan has not tuned yet
        for c in list(gc.callbacks):
            if isinstance(c, gcpause.Freezer):
                c.remove()
        gc.disable()
        gc.collect()  # start-up's garbage is not the serving's
        tracemalloc.start(30)  # only now: under it, start-up's imports took minutes
        while True:
            time.sleep(self.every)
            with self.lock:
                self.take()

    def take(self) -> None:
        import gc

        gc.disable()  # the lifespan's tune() or a thaw may have turned it on
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            found = list(gc.garbage)
            gc.garbage.clear()
        finally:
            gc.set_debug(0)
        self.rounds += 1
        self.objects += len(found)
        for o in found:
            kind = f"{type(o).__module__}.{type(o).__qualname__}"
            self.kinds[kind] += 1
            tb = tracemalloc.get_object_traceback(o)
            if tb is None:
                continue
            frames = list(tb)  # oldest first
            inner = frames[-1]
            own = next((f for f in reversed(frames) if "/dineri/" in f.filename), None)
            where = f"{_short(own.filename)}:{own.lineno}" if own is not None else "-"
            self.sites[f"{type(o).__qualname__} @ {where} <- {_short(inner.filename)}:{inner.lineno}"] += 1
        del found
        gc.collect()  # now free what was saved


def _short(path: str) -> str:
    for mark in ("/site-packages/", "/dineri/", "/lib/python3"):
        if mark in path:
            return path.split(mark, 1)[1]
    return path


census: Census | None = None


# --- the clients ------------------------------------------------------------------------------------

class Seat:
    def __init__(self, n: int) -> None:
        self.n, self.seq = n, -1
        self.ws: Any = None
        self.view: dict[str, Any] | None = None
        self.reader: asyncio.Task[None] | None = None


class Soak:
    """``tables`` slots playing matches one after another, actions paced at ``rate``/s."""

    def __init__(self, base: str, rate: float, tables: int, clock: int = 0) -> None:
        self.base, self.rate, self.tables, self.clock = base, rate, tables, clock
        self.ws_base = "ws" + base[4:]
        self.permits = asyncio.Semaphore(0)
        self.stopping = False
        self.actions = self.matches = self.reconnects = self.errors = self.timeouts = 0
        self.error_codes: collections.Counter[str] = collections.Counter()
        self.rng = random.Random(7)

    async def pace(self) -> None:
        start, released = time.perf_counter(), 0
        while not self.stopping:
            due = int((time.perf_counter() - start) * self.rate) - released
            for _ in range(max(0, due)):
                released += 1
                if self.permits._value < self.rate * 0.05:  # nobody ready: the permit is missed
                    self.permits.release()
            await asyncio.sleep(0.002)
        for _ in range(self.tables):
            self.permits.release()

    async def new_match(self, http: Any, i: int) -> tuple[str, list[str]]:
        tokens = []
        for n in (0, 1):
            r = await http.post("/api/players", json={"name": f"Soak {i}.{n}"})
            r.raise_for_status()
            tokens.append(r.json()["token"])
        http.cookies.clear()
        auth = [{"Authorization": f"Bearer {tok}"} for tok in tokens]
        r = await http.post("/api/tables", headers=auth[0], json={
            "game": "chkobba", "options": {"seats": 2, "target": 11, "best_of": 1},
            "public": False, "clock": self.clock})
        r.raise_for_status()
        tid, code = r.json()["id"], r.json()["code"]
        for n in (0, 1):
            (await http.post(f"/api/tables/{tid}/seats", headers=auth[n],
                             json={"seat": n, "code": code})).raise_for_status()
        (await http.post(f"/api/tables/{tid}/start", headers=auth[0], json={})).raise_for_status()
        http.cookies.clear()
        return tid, tokens

    async def connect(self, tid: str, token: str, s: Seat, changed: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        s.ws = await connect(f"{self.ws_base}/ws/tables/{tid}?token={token}", max_size=2**22,
                             open_timeout=60, ping_interval=None)
        s.view = None
        await s.ws.send(json.dumps({"type": "hello", "last_event": s.seq if s.seq >= 0 else None}))

        async def read(ws: Any) -> None:
            with contextlib.suppress(Exception):
                async for raw in ws:
                    f = json.loads(raw)
                    kind = f.get("type")
                    if kind == "view":
                        s.view, s.seq = f.get("view") or {}, f["seq"]
                    elif kind == "update" and s.view is not None:
                        s.view.update(f.get("view") or {})
                        s.seq = f["seq"]
                    elif kind == "error":
                        self.errors += 1
                        self.error_codes[str(f.get("code"))] += 1
                    changed.set()
        s.reader = asyncio.get_running_loop().create_task(read(s.ws))

    async def until(self, cond: Any, changed: asyncio.Event, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while not cond():
            changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), left)
        return True

    async def slot(self, http: Any, i: int) -> None:
        n = 0
        while not self.stopping:
            tid, tokens = await self.new_match(http, i * 100_000 + n)
            n += 1
            seats, changed = [Seat(0), Seat(1)], asyncio.Event()
            for s in seats:
                await self.connect(tid, tokens[s.n], s, changed)
            await self.until(lambda seats=seats: all(s.view is not None for s in seats), changed, 60)
            while not self.stopping:
                if any(s.view is not None and s.view.get("phase") == "over" for s in seats):
                    self.matches += 1
                    break
                move = next(((s, a) for s in seats if s.view is not None
                             and (a := choose(s.view, s.n)) is not None), None)
                if move is None:  # nobody to move yet (a view in flight)
                    if not await self.until(lambda seats=seats: any(
                            s.view is not None and choose(s.view, s.n) for s in seats), changed):
                        self.timeouts += 1
                        break
                    continue
                await self.permits.acquire()
                if self.stopping:
                    break
                s, action = move
                before = max(x.seq for x in seats)
                await s.ws.send(json.dumps({"type": "action", "id": f"s{self.actions}", "action": action}))
                self.actions += 1
                if not await self.until(lambda seats=seats, b=before: min(x.seq for x in seats) > b, changed):
                    self.timeouts += 1
                    break
                if self.rng.randrange(RECONNECT_EVERY) == 0:  # a dropped socket resumes
                    r = seats[self.rng.randrange(2)]
                    await r.ws.close()
                    if r.reader is not None:
                        await r.reader
                    await self.connect(tid, tokens[r.n], r, changed)
                    self.reconnects += 1
                    await self.until(lambda r=r: r.view is not None, changed, 30)
            for s in seats:
                with contextlib.suppress(Exception):
                    await s.ws.close()
                if s.reader is not None:
                    with contextlib.suppress(Exception):
                        await s.reader


def signal_and_read(pid: int, sig: int, out: Path, kind: str, timeout: float = 60.0) -> dict[str, Any]:
    """Signal the server and wait for its next ``kind`` line in ``out``."""
    seen = out.read_text().count("\n") if out.exists() else 0
    os.kill(pid, sig)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = out.read_text().splitlines() if out.exists() else []
        for line in lines[seen:]:
            doc = json.loads(line)
            if doc.get("kind") == kind:
                return dict(doc)
        time.sleep(0.1)
    raise TimeoutError(f"no {kind} from the server")


async def run(args: argparse.Namespace) -> None:
    import httpx

    tmp = Path(tempfile.mkdtemp(prefix="dineri-soak-"))
    out, log = tmp / "gc.jsonl", tmp / "dineri.log"
    port = free_port()
    env = {**os.environ, "DINERI_DATABASE_URL": f"sqlite:///{tmp / 'soak.db'}",
           "DINERI_GUESTS_PER_MINUTE": "0",
           "DINERI_MESSAGES_PER_SECOND": "1000", "DINERI_LOG_LEVEL": "WARNING",
           "DINERI_CONNECTIONS_PER_ADDRESS": "0", "DINERI_SECRET_KEY": os.urandom(16).hex()}
    with open(log, "ab") as f:
        proc = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--out", str(out),
                                 *(["--census"] if args.census else []),
                                 *(["--thresholds", args.thresholds] if args.thresholds else [])],
                                cwd=ROOT, env=env, stdout=f, stderr=f)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base + "/healthz", proc)
        time.sleep(1.0)
        soak = Soak(base, args.rate, args.tables, args.clock)
        first = signal_and_read(proc.pid, signal.SIGUSR1, out, "sample")
        print(f"start: RSS {rss_kib(proc.pid) / 1024:.1f} MiB, frozen {first['frozen']:,}, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)
        print(f"{'min':>5} {'RSS MiB':>8} {'CPU s':>7} {'frozen':>9} {'old':>6} {'freezes':>7} {'thaws':>5} "
              f"{'act/s':>6} {'matches':>7} {'reconn':>6} {'err':>4} {'tmo':>4} {'load1':>5}", flush=True)
        limits = httpx.Limits(max_connections=args.tables, max_keepalive_connections=args.tables)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
            pacer = asyncio.get_running_loop().create_task(soak.pace())
            slots = [asyncio.get_running_loop().create_task(soak.slot(http, i)) for i in range(args.tables)]
            t0, last_actions, last_t = time.monotonic(), 0, time.monotonic()
            end = t0 + args.minutes * 60
            while time.monotonic() < end:
                await asyncio.sleep(min(args.every, max(0.0, end - time.monotonic())))
                s = await asyncio.to_thread(signal_and_read, proc.pid, signal.SIGUSR1, out, "sample")
                now = time.monotonic()
                rate = (soak.actions - last_actions) / (now - last_t)
                last_actions, last_t = soak.actions, now
                print(f"{(now - t0) / 60:5.1f} {rss_kib(proc.pid) / 1024:8.1f} {cpu_seconds(proc.pid):7.1f} "
                      f"{s['frozen']:9,} {s['old']:6,} {'-' if s['freezes'] is None else s['freezes']:>7} "
                      f"{s['thaws'] if s['thaws'] is not None else '-':>5} "
                      f"{rate:6.0f} {soak.matches:7} {soak.reconnects:6} {soak.errors:4} {soak.timeouts:4} "
                      f"{os.getloadavg()[0]:5.1f}", flush=True)
            soak.stopping = True
            await pacer
            for t in slots:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(t, 30)
        print(f"{soak.actions:,} actions, {soak.matches:,} matches finished, {soak.reconnects:,} resumes; "
              f"errors by code: {dict(soak.error_codes)}", flush=True)
        time.sleep(3.0)  # every socket closed, the server idle
        s = signal_and_read(proc.pid, signal.SIGUSR1, out, "sample")
        print(f"idle: RSS {rss_kib(proc.pid) / 1024:.1f} MiB, frozen {s['frozen']:,} "
              f"(+{s['frozen'] - first['frozen']:,} "
              f"over the run), freezes {s['freezes']}, thaws {s['thaws']}", flush=True)
        lk = signal_and_read(proc.pid, signal.SIGUSR2, out, "leak", 120)
        if lk.get("census"):
            per = max(soak.actions, 1)
            print(f"census: {lk['objects']:,} cyclic garbage objects in {lk['rounds']} collections "
                  f"({lk['objects'] / per:.1f} per action)", flush=True)
            for k, v in lk["kinds"]:
                print(f"  {v:9,} {v / per:7.2f}/action  {k}", flush=True)
            print("by allocation site (type @ innermost dineri frame <- innermost frame):", flush=True)
            for k, v in lk["sites"]:
                print(f"  {v:9,} {v / per:7.2f}/action  {k}", flush=True)
            return
        print(f"leak: after gc.collect() ({lk['plain_garbage']} ordinary garbage), "
              f"gc.unfreeze(); gc.collect() "
              f"found {lk['leaked']:,} unreachable objects (of {lk['frozen_before']:,} frozen); that "
              f"collection took {lk['full_ms']} ms ({lk['full_cpu_ms']} ms CPU); RSS now "
              f"{rss_kib(proc.pid) / 1024:.1f} MiB", flush=True)
        print("leaked types:", ", ".join(f"{k} {v}" for k, v in lk["top"]), flush=True)
        for k, v in lk.get("examples", {}).items():
            print(f"  {k}:", ", ".join(f"{n} {c}" for n, c in v), flush=True)
    finally:
        stop(proc)
        for line in log.read_text(errors="replace").splitlines():
            if '"gc pauses"' in line:
                doc = json.loads(line)
                keep = ("collections", "max_ms", "total_ms", "over_10ms", "by_generation",
                        "max_ms_by_generation", "max_cpu_ms_by_generation", "freezes", "thaws", "thawed",
                        "thaw_max_ms", "thaw_max_cpu_ms")
                print("gc pauses:", json.dumps({k: doc[k] for k in keep if k in doc}), flush=True)
                hist = doc.get("histogram_ms", {})
                if hist:  # wall-clock pauses by generation, counts per bucket: < 1, < 5, ... >= 100 ms
                    print(f"gc pause histogram (ms buckets {hist['buckets']}):", flush=True)
                    for gen, row in enumerate(hist["by_generation"]):
                        print(f"  generation {gen}: {row}", flush=True)
                late = doc.get("loop_late", {})
                print("loop late:", json.dumps({k: late.get(k) for k in ("max_ms", "over_10ms", "worst")}),
                      "histogram (>= 1 ms late):", (late.get("histogram_ms") or {}).get("late"), flush=True)
        print(f"log: {log}", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--minutes", type=float, default=10.0)
    p.add_argument("--rate", type=float, default=300.0, help="actions/s over all tables")
    p.add_argument("--tables", type=int, default=200,
                   help="tables playing at once (each a match after another)")
    p.add_argument("--every", type=float, default=60.0, help="seconds between samples")
    p.add_argument("--clock", type=int, default=0, choices=(0, 15, 30, 60),
                   help="the tables' turn clock in seconds (0: none; a clock is re-armed on every action)")
    p.add_argument("--census", action="store_true",
                   help="instead of the leak: count the cyclic garbage by type and allocation site "
                        "(tracemalloc; the server's own collections off; slow)")
    p.add_argument("--thresholds", default=None,
                   help="the collector's thresholds after start-up, e.g. 500,5,10 (default: gcpause's)")
    p.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    p.add_argument("--out", type=Path, default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.serve is not None:
        th = tuple(int(x) for x in args.thresholds.split(",")) if args.thresholds else None
        serve(args.serve, args.out, args.census, th)  # type: ignore[arg-type]
        return
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
