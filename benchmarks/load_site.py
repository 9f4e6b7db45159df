"""The load benchmark through nginx: one Dineri process against two (issue 9 item 6).

Usage (a short run fits a busy 2-core machine):

    python benchmarks/load_site.py --tables 100 --rates 50,100,200,400 --duration 6

It starts the site of ``docker-compose.yml`` on this machine the way ``tests/multi`` does
(Debian's nginx with ``deploy/nginx.conf``, the compose file's two ``dineri serve``, a fresh
PostgreSQL schema, its own Redis prefix; ``tests/multi/site.py``) and drives it with
``benchmarks/load.py``'s clients and steps (1v1 Chkobba tables, two seated sockets each, legal
moves, open-loop rate steps; latency until every seat of the table has the action), every
socket and REST call through nginx:

1. ``procs 1``: the second process is stopped, so nginx sends every table to the first one (the
   dead one is skipped: its connections are refused);
2. ``procs 2``: the second process started again: each table's sockets go to the process its id
   hashes to. Fresh tables are made for each run.

Printed per step as load.py does; "CPU ms/act" is the Dineri processes' CPU (nginx's not
counted), "RSS MiB" their sum. Then the highest rate each held (achieved ≥ 95 %, p99 < 50 ms)
and the ratio two/one (the issue's goal: at least 1.8). The clients share the machine with the
servers and nginx: on 2 cores, two server processes compete with the clients for the same CPU
(say "loaded machine" with the figures).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402  (benchmarks/load.py)

from tests.multi.site import Site  # noqa: E402


class SiteProcs:
    """Stands for ``Target.proc`` in load.py: ``pid`` is a marker that :func:`cpu_seconds` and
    :func:`rss_kib` (patched into load.py) answer with the sum over the site's running Dineri
    processes."""

    PID = -9

    def __init__(self, site: Site) -> None:
        self.site = site
        self.pid = self.PID

    def pids(self) -> list[int]:
        return [p.proc.pid for p in self.site.procs.values() if p.proc is not None and p.running]

    def poll(self) -> int | None:
        return None


_site_procs: SiteProcs | None = None
_cpu, _rss = load.cpu_seconds, load.rss_kib


def cpu_seconds(pid: int) -> float:
    """load.cpu_seconds, summed over the site's Dineri processes for the marker pid."""
    if pid == SiteProcs.PID and _site_procs is not None:
        return sum(_cpu(p) for p in _site_procs.pids())
    return _cpu(pid)


def rss_kib(pid: int) -> int:
    """load.rss_kib, summed likewise."""
    if pid == SiteProcs.PID and _site_procs is not None:
        return sum(_rss(p) for p in _site_procs.pids())
    return _rss(pid)


def run(site: Site, name: str, args: Any, rates: list[float]) -> list[load.Row]:
    """Make fresh tables through nginx and drive them; the rows of every step."""
    global _site_procs
    _site_procs = SiteProcs(site)
    target = load.Target(name, _site_procs, site.port)  # type: ignore[arg-type]
    time.sleep(1.0)
    target.rss_idle = rss_kib(SiteProcs.PID)
    t0 = time.monotonic()
    target.tables = asyncio.run(load.make_tables(site.base, args.tables))
    print(f"# {name}: {len(target.tables)} tables made through nginx in {time.monotonic() - t0:.1f} s; "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    rows = load.drive(target, rates, args.duration, args.procs)
    print(f"# {name}: load average after the run {os.getloadavg()[0]:.2f}", flush=True)
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=500, help="1v1 tables per run (2 seated sockets each)")
    p.add_argument("--rates", default="100,200,400,600,800,1000,1500,2000",
                   help="comma-separated target actions/s over all tables")
    p.add_argument("--duration", type=float, default=8.0, help="measured seconds per step")
    p.add_argument("--procs", type=int, default=2, help="client processes")
    p.add_argument("--nginx-workers", default=None,
                   help="nginx worker_processes instead of deploy/nginx.conf's 'auto' (e.g. 1: one "
                        "core's worth of proxy on a 2-core machine shared with the clients)")
    args = p.parse_args()
    load.cpu_seconds, load.rss_kib = cpu_seconds, rss_kib
    rates = [float(x) for x in args.rates.split(",") if x.strip()]
    print(f"load through nginx: {args.tables} tables a run, {args.procs} client processes, "
          f"{args.duration:g} s a step, nginx workers {args.nginx_workers or 'auto'}; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    results: dict[str, list[load.Row]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = {"DINERI_MESSAGES_PER_SECOND": "1000", "DINERI_LOG_LEVEL": "WARNING",
               "DINERI_GUESTS_PER_MINUTE": "0"}
        site = Site(Path(tmp), **env)
        if args.nginx_workers is not None:  # the rendered copy only; deploy/nginx.conf is unchanged
            conf = Path(tmp) / "nginx" / "nginx.conf"
            conf.write_text(conf.read_text().replace("worker_processes auto;",
                                                     f"worker_processes {args.nginx_workers};"))
        with site:
            _first, second = site.services
            site.procs[second].stop()
            print(load.HEADER, flush=True)
            results["1 proc"] = run(site, "1 proc", args, rates)
            site.start_service(second)
            results["2 procs"] = run(site, "2 procs", args, rates)
    one, two = load.highest_held(results["1 proc"]), load.highest_held(results["2 procs"])
    ratio = f"{two / one:.2f}" if one else "n/a"
    print(f"highest rate held through nginx (p99 < {load.HELD_P99_MS:g} ms, ≥ {load.HELD_SHARE:.0%} "
          f"achieved): one process {one:.0f}/s, two processes {two:.0f}/s, ratio {ratio} (goal 1.8)")
    print(f"load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
