"""The write path alone (issue 8 items 1–2): accepted actions per second through
:class:`dineri.server.session.TableSession` (judge, store, commit, ack), no sockets.

``--tables N`` 1v1 Chkobba tables each play random legal actions as fast as their acks come
back, all at once, for ``--seconds``; prints actions/s, CPU per action (the whole process:
event loop and writer thread) and the ack latency (median, p99: from ``act`` called to its ack,
the commit included). Each seat has a receiver on the table's channel that cuts its frames
from every bundle as a socket does (``frames.frames_for``, encoded) and drops them: the
session's whole path but the network (``--no-receivers``: the write path alone). SQLite in a
temporary file by default, PostgreSQL with ``--url postgresql+psycopg://...`` (a fresh schema,
dropped afterwards). ``--redis redis://127.0.0.1:6379/0``: the site's fan-out instead of the
in-process one (every bundle through Redis pub/sub, under a fresh prefix; the leases' relay and
the shared presence as ``dineri serve`` runs them with ``DINERI_REDIS_URL``).

    .venv/bin/python benchmarks/write_path.py --tables 50 --seconds 10
    .venv/bin/python benchmarks/write_path.py --url postgresql+psycopg://postgres@127.0.0.1:5432/test
    .venv/bin/python benchmarks/write_path.py --url postgresql+psycopg://postgres@127.0.0.1:5432/test \
        --redis redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import text

from dineri.fanout import make_fanout
from dineri.server import gcpause
from dineri.server.frames import Receiver, frames_for
from dineri.server.service import TableService
from dineri.settings import Settings
from dineri.store import repo
from dineri.store.db import make_engine, migrate, sessions


async def run(url: str, tables: int, seconds: float, receivers: bool = True,
              gc_tuning: bool = True, redis: str | None = None) -> dict[str, float]:
    """Play ``tables`` tables for ``seconds`` (``redis``: the fan-out's Redis URL, else in
    process); returns the figures."""
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    prefix = f"bench-{secrets.token_hex(4)}:"
    fanout = make_fanout(redis, prefix)
    await fanout.start()
    service = TableService(sm, fanout, Settings(database_url=url, grace_seconds=3600, redis_url=redis,
                                                redis_prefix=prefix))
    await service.start()
    sess_list = []
    sent = [0]  # characters of frames cut for the receivers
    for i in range(tables):
        with sm.begin() as s:
            a, b = repo.create_player(s, f"A{i}").id, repo.create_player(s, f"B{i}").id
        sess = await service.create_table(a, "chkobba", {"seats": 2, "target": 31, "best_of": 5}, True, 0)
        await sess.take_seat(a, 0, None, None)
        await sess.take_seat(b, 1, None, None)
        if receivers:
            for seat in (0, 1):
                rx, conn = Receiver(), f"conn{i}.{seat}"

                def receive(bundle: dict, rx: Receiver = rx, seat: int = seat, conn: str = conn) -> None:
                    sent[0] += sum(len(f) for f in frames_for(bundle, rx, seat, conn))
                service.fanout.subscribe(f"table:{sess.id}", receive)
        await sess.start(a, first_dealer=0)
        sess_list.append(sess)
    waiter = getattr(fanout, "wait_subscribed", None)
    if waiter is not None:
        await waiter()
    if gc_tuning:  # as the server does after start-up (dineri/server/gcpause.py)
        gcpause.tune()
    latencies: list[float] = []
    rng = random.Random(7)
    stop = time.perf_counter() + seconds

    async def play(sess: object) -> None:
        n = 0
        while time.perf_counter() < stop:
            m = sess.match  # type: ignore[attr-defined]
            if m is None or m.over:
                return
            seat = m.to_act()
            if seat is None:
                return
            action = rng.choice([a for a in m.legal_actions(seat) if a["type"] != "forfeit"])
            n += 1
            t0 = time.perf_counter()
            reply, _ = await sess.act(seat, f"c{n}", action)  # type: ignore[attr-defined]
            latencies.append(time.perf_counter() - t0)
            assert reply["type"] == "ack", reply

    t0 = time.perf_counter()
    cpu0 = time.process_time()
    w = service.writer
    c0, w0, l0 = w.commits, w.writes, w.loop_writes
    await asyncio.gather(*(play(s) for s in sess_list))
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    commits, loop_writes = w.commits - c0, w.loop_writes - l0
    await service.stop()
    await fanout.stop()
    engine.dispose()
    latencies.sort()
    n = len(latencies)
    return {"actions": n, "actions_per_s": n / wall, "cpu_ms_per_action": 1000 * cpu / max(n, 1),
            "median_ms": 1000 * statistics.median(latencies), "chars_per_action": sent[0] / max(n, 1),
            "p99_ms": 1000 * latencies[min(n - 1, int(n * 0.99))],
            "writes_per_commit": (w.writes - w0) / max(commits, 1),
            "loop_write_share": loop_writes / max(w.writes - w0, 1)}


def main() -> None:
    """Parse the arguments, run, print one line of figures."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--url", default="")
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--redis", default=None, help="the fan-out through this Redis (redis://...)")
    p.add_argument("--no-receivers", action="store_true", help="no frames cut: the write path alone")
    p.add_argument("--no-gc-tuning", action="store_true", help="CPython's collector defaults (the server "
                   "tunes it after start-up, as this benchmark does by default)")
    args = p.parse_args()
    schema = None
    if args.url.startswith("postgresql"):
        schema = "b_" + secrets.token_hex(6)
        admin = make_engine(args.url)
        with admin.begin() as c:
            c.execute(text(f"CREATE SCHEMA {schema}"))
        url = f"{args.url}?options=-csearch_path%3D{schema}"
    else:
        tmp = tempfile.mkdtemp()
        url = args.url or f"sqlite:///{os.path.join(tmp, 'bench.db')}"
    try:
        figures = asyncio.run(run(url, args.tables, args.seconds, not args.no_receivers,
                                  not args.no_gc_tuning, args.redis))
    finally:
        if schema is not None:
            with admin.begin() as c:
                c.execute(text(f"DROP SCHEMA {schema} CASCADE"))
            admin.dispose()
    kind = ("postgresql" if schema else "sqlite") + (" + redis" if args.redis else "")
    print(f"{kind} tables={args.tables} actions={figures['actions']:.0f} "
          f"actions/s={figures['actions_per_s']:.0f} cpu/action={figures['cpu_ms_per_action']:.2f}ms "
          f"ack median={figures['median_ms']:.1f}ms p99={figures['p99_ms']:.1f}ms "
          f"frames={figures['chars_per_action']:.0f} chars/action "
          f"writes/commit={figures['writes_per_commit']:.1f} "
          f"written on the loop={figures['loop_write_share']:.0%}")


if __name__ == "__main__":
    main()
