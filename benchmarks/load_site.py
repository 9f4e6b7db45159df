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

``--server-cpu FRACTION`` (off by default) gives each Dineri process the same fixed CPU budget:
its own cgroup with a CFS quota of FRACTION of one core (cgroup v1's ``cpu.cfs_quota_us`` under
``/sys/fs/cgroup/cpu``, or cgroup v2's ``cpu.max``; root needed), every ``--cpu-period-ms``
(10 ms by default: a process throttled for the rest of a 100 ms period would stall up to
100 × (1 − FRACTION) ms, which alone breaks p99 < 50 ms), with 16 times the default CPU weight
so that it gets that budget when other work loads the machine (the quota is a cap, the weight
the floor). The clients, nginx, PostgreSQL and
Redis stay unconstrained. One process is then the bottleneck at its budget, and the ratio says
whether two processes at the same budget each carry as much (the site scales out) or something
they share (Redis's fan-out, PostgreSQL, the relay, nginx) holds them back. It shows scaling
*per process at a fixed budget*; it does not show what two unconstrained processes on two
machines would reach (the shared services here still run on the same 2 cores as everything).
The groups are removed at the end. ``--settle S`` waits up to S seconds after the tables are
made for the processes that created tables the other one serves to let them go (5 s unused:
``dineri.server.service.EVICT_ELSEWHERE_AFTER``), as they have during most of a real match.
After each step a ``#`` line gives each process's CPU (cores,
ms per action of the site and per action of its own tables, the share of quota periods it was
throttled in) and that of nginx, Redis, PostgreSQL (machine-wide: other work's queries count)
and the clients; after the tables are made, how many each process owns (their leases) and how
many tables' channels both processes subscribe to (those bundles reach the non-owner too).

Diagnosing a step (a stall of seconds, a p99 that jumps between runs): ``--timeline`` adds,
after each step, each second's CPU of each process (cores, share of quota periods throttled),
PostgreSQL's and the number of table channels both processes still subscribe to, and from each
client process each second's actions done and their worst latency, so a stall shows as a
process at its budget (throttled), one idle while waiting on something else, or the moment
creators let go of tables; ``--logs DIR`` keeps the servers' and nginx's logs there and prints
their warnings (and each server's gc and event-loop stall summary, logged when it stops) at the
end. ``--rates-two`` gives the two-process run its own steps (one process saturates at about
half the rate: finer steps around each one's limit, without running one process far past it);
``--refine N`` adds N steps to each run, halving the gap between its highest rate held and the
lowest one above it that was not (a grid of 50/s at 450/s alone is an 11 % step).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import load  # noqa: E402  (benchmarks/load.py)

from tests.multi.site import Site  # noqa: E402

CGROUP_V1 = Path("/sys/fs/cgroup/cpu")
CGROUP_V2_MOUNTS = (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified"))
SHARES_V1, WEIGHT_V2 = 16384, 1600  # 16 times the default weight (1024; v2: 100)


class CpuQuota:
    """One cgroup per named process with the same CPU quota: ``fraction`` of one core every
    ``period_us`` microseconds (cgroup v1 ``cpu.cfs_quota_us``/``cpu.cfs_period_us``, or v2
    ``cpu.max``, whichever has the cpu controller here). Raises ``RuntimeError`` when neither is
    usable (not root, no cpu controller), ``ValueError`` for a fraction outside (0, cores] or a
    quota under the kernel's 1 ms. :meth:`close` moves what is left back to the root group and
    removes the groups."""

    def __init__(self, fraction: float, period_us: int) -> None:
        cores = os.cpu_count() or 1
        if not 0 < fraction <= cores:
            raise ValueError(f"--server-cpu must be in (0, {cores}], not {fraction:g}")
        self.fraction, self.period_us = fraction, period_us
        self.quota_us = round(fraction * period_us)
        if self.quota_us < 1000 or period_us > 1_000_000:
            raise ValueError(f"a quota of {self.quota_us} us every {period_us} us: the kernel takes "
                             "1 ms to 1 s (raise --cpu-period-ms)")
        self.root, self.version = self._find()
        self.groups: dict[str, Path] = {}

    @staticmethod
    def _find() -> tuple[Path, int]:
        if (CGROUP_V1 / "cpu.cfs_quota_us").exists():
            return CGROUP_V1, 1
        for mount in CGROUP_V2_MOUNTS:
            controllers = mount / "cgroup.controllers"
            if controllers.exists() and "cpu" in controllers.read_text().split():
                subtree = mount / "cgroup.subtree_control"
                if "cpu" not in subtree.read_text().split():
                    subtree.write_text("+cpu")  # children of the root get cpu.max
                return mount, 2
        raise RuntimeError("no cgroup cpu controller here (v1 /sys/fs/cgroup/cpu or v2 cpu.max)")

    def describe(self) -> str:
        """The quota as printed with the figures."""
        weight = f"cpu.shares {SHARES_V1}" if self.version == 1 else f"cpu.weight {WEIGHT_V2}"
        return (f"{self.fraction:g} core per Dineri process (cgroup v{self.version} quota "
                f"{self.quota_us} us every {self.period_us} us, {weight})")

    def group(self, name: str) -> Path:
        """The group of ``name``, made with the quota on first use."""
        path = self.groups.get(name)
        if path is None:
            path = self.root / f"dineri-bench-{os.getpid()}-{name}"
            path.mkdir(exist_ok=True)
            self.groups[name] = path
            # A high weight as well: the quota caps the process, the weight makes sure it gets
            # its budget when other work loads the machine (a group otherwise competes as one
            # task of default weight, so at a load of 10 on 2 cores it got about 0.2 core).
            if self.version == 1:
                (path / "cpu.cfs_period_us").write_text(str(self.period_us))
                (path / "cpu.cfs_quota_us").write_text(str(self.quota_us))
                (path / "cpu.shares").write_text(str(SHARES_V1))
            else:
                (path / "cpu.max").write_text(f"{self.quota_us} {self.period_us}")
                (path / "cpu.weight").write_text(str(WEIGHT_V2))
        return path

    def add(self, name: str, pids: list[int]) -> None:
        """Put ``pids`` (each with its threads) into ``name``'s group."""
        procs = self.group(name) / "cgroup.procs"
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                procs.write_text(str(pid))

    def throttle(self, name: str) -> tuple[int, int]:
        """``(periods, throttled periods)`` of ``name``'s group so far."""
        stat = dict(line.split() for line in (self.group(name) / "cpu.stat").read_text().splitlines()
                    if len(line.split()) == 2)
        return int(stat.get("nr_periods", 0)), int(stat.get("nr_throttled", 0))

    def close(self) -> None:
        """Move any process left back to the root group and remove every group."""
        for path in self.groups.values():
            with contextlib.suppress(FileNotFoundError):
                for pid in (path / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        (self.root / "cgroup.procs").write_text(pid)
            for _ in range(50):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # a process still leaving
                    time.sleep(0.1)
        self.groups.clear()


def group_pids(leader: int) -> list[int]:
    """``leader`` and every process of its process group (a server's helpers)."""
    out = [leader]
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and int(d.name) != leader:
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[2]) == leader:
                    out.append(int(d.name))
    return out


def pids_named(*names: str) -> list[int]:
    """Every process whose command name is one of ``names`` (``/proc/pid/comm``)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError):
                if (d / "comm").read_text().strip() in names:
                    out.append(int(d.name))
    return out


def descendants(pid: int) -> list[int]:
    """The processes under ``pid`` (children, theirs, ...)."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
                children.setdefault(ppid, []).append(int(d.name))
    out, todo = [], list(children.get(pid, []))
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


@dataclass
class Snapshot:
    """CPU seconds so far of each part of the site (part -> pid -> seconds), at ``wall``
    (monotonic seconds)."""

    wall: float
    cpu: dict[str, dict[int, float]]
    throttle: dict[str, tuple[int, int]]

    def total(self, part: str) -> float:
        return sum(self.cpu.get(part, {}).values())

    def used(self, before: Snapshot, part: str) -> float:
        """CPU seconds ``part`` used since ``before``: per process, so one that exited meanwhile
        (another engineer's PostgreSQL connection) counts nothing rather than less than zero."""
        old = before.cpu.get(part, {})
        return sum(now - old.get(pid, 0.0) for pid, now in self.cpu.get(part, {}).items())


class SiteProcs:
    """Stands for ``Target.proc`` in load.py: ``pid`` is a marker that :func:`cpu_seconds` and
    :func:`rss_kib` (patched into load.py) answer with the sum over the site's running Dineri
    processes."""

    PID = -9

    def __init__(self, site: Site, quota: CpuQuota | None = None) -> None:
        self.site = site
        self.pid = self.PID
        self.quota = quota
        self.snapshots: list[Snapshot] = []
        self.owned: dict[str, int] = {}  # service -> tables whose lease it holds

    def running(self) -> dict[str, int]:
        """service -> pid of each running Dineri process."""
        return {svc: p.proc.pid for svc, p in self.site.procs.items() if p.proc is not None and p.running}

    def pids(self) -> list[int]:
        return list(self.running().values())

    def poll(self) -> int | None:
        return None

    def constrain(self) -> None:
        """Put each running Dineri process (with its helpers) into its quota group."""
        if self.quota is not None:
            for svc, pid in self.running().items():
                self.quota.add(svc, group_pids(pid))

    def snapshot(self) -> None:
        """Record the CPU so far of every part of the site (:class:`Snapshot`)."""
        def total(pids: list[int]) -> dict[int, float]:
            out = {}
            for pid in pids:
                with contextlib.suppress(OSError):
                    out[pid] = _cpu(pid)
            return out
        running = self.running()
        cpu = {svc: total(group_pids(pid)) for svc, pid in running.items()}
        nginx = self.site.nginx.proc
        cpu["nginx"] = total(group_pids(nginx.pid)) if nginx is not None else {}
        cpu["redis"] = total(pids_named("redis-server"))
        cpu["postgres"] = total(pids_named("postgres"))
        site_pids = {p for pid in [*running.values(), *([nginx.pid] if nginx else [])]
                     for p in group_pids(pid)}
        cpu["clients"] = total([p for p in descendants(os.getpid()) if p not in site_pids])
        throttle = ({svc: self.quota.throttle(svc) for svc in running}
                    if self.quota is not None else {})
        self.snapshots.append(Snapshot(time.monotonic(), cpu, throttle))

    def step_line(self, row: load.Row) -> str:
        """The last step's CPU by part (between the last two snapshots)."""
        a, b = self.snapshots[-2], self.snapshots[-1]
        wall = b.wall - a.wall
        actions = max(1.0, row.achieved * wall)  # the step's actions, warm-up included (as load.py)
        parts = []
        owned_all = sum(self.owned.values()) or 1
        for name in b.cpu:
            used = b.used(a, name)
            part = f"{name} {used / wall:.2f} cores"
            if name in self.site.procs:
                share = self.owned.get(name, 0) / owned_all
                own = f", {1000 * used / (actions * share):.2f} per own action" if share else ""
                part += f" ({1000 * used / actions:.2f} ms/act{own}"
                if name in b.throttle and name in a.throttle:
                    periods = b.throttle[name][0] - a.throttle[name][0]
                    throttled = b.throttle[name][1] - a.throttle[name][1]
                    part += f", throttled in {throttled / max(1, periods):.0%} of periods"
                part += ")"
            parts.append(part)
        return "#   CPU: " + "; ".join(parts)


class Timeline:
    """A thread sampling, every ``every`` seconds while a step runs, each Dineri process's CPU
    and throttled quota periods and PostgreSQL's CPU (machine-wide), so a stall inside a step
    shows as what the processes did meanwhile: at their budget (throttled), or idle (waiting on
    something else). :meth:`line` gives the last step's samples grouped by ``bucket`` seconds."""

    def __init__(self, procs: SiteProcs, table_ids: list[str], every: float = 0.1) -> None:
        import threading

        self.procs, self.every, self.table_ids = procs, every, table_ids
        self.samples: list[tuple[float, dict[str, float], dict[str, tuple[int, int]], float]] = []
        self.both: list[tuple[float, int]] = []  # (monotonic, channels with two subscribers)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="timeline", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2)

    def _run(self) -> None:
        pg: list[int] = []
        n = 0
        while not self._stop.is_set():
            if n % 20 == 0:
                pg = pids_named("postgres")
            if n % 10 == 0 and len(self.procs.running()) > 1:
                with contextlib.suppress(Exception):
                    self.both.append((time.monotonic(), doubly_subscribed(self.procs.site, self.table_ids)))
            n += 1
            running = self.procs.running()
            cpu: dict[str, float] = {}
            for svc, pid in running.items():
                with contextlib.suppress(OSError):
                    cpu[svc] = sum(_cpu(p) for p in group_pids(pid))
            thr = ({svc: self.procs.quota.throttle(svc) for svc in running}
                   if self.procs.quota is not None else {})
            pgs = 0.0
            for pid in pg:
                with contextlib.suppress(OSError):
                    pgs += _cpu(pid)
            self.samples.append((time.monotonic(), cpu, thr, pgs))
            self._stop.wait(self.every)

    def line(self, since: float, bucket: float = 1.0) -> str:
        """Per ``bucket`` seconds after ``since`` (monotonic): each process's cores and the share
        of its quota periods throttled, PostgreSQL's cores and (``both``) how many of the tables'
        channels both processes subscribe to."""
        xs = [x for x in self.samples if x[0] >= since]
        out = []
        i = 0
        while i < len(xs) - 1:
            j = i + 1
            while j < len(xs) - 1 and xs[j][0] - xs[i][0] < bucket:
                j += 1
            a, b = xs[i], xs[j]
            wall = b[0] - a[0]
            parts = []
            for svc in b[1]:
                if svc in a[1]:
                    part = f"{svc[-1]} {(b[1][svc] - a[1][svc]) / wall:.2f}"
                    if svc in a[2] and svc in b[2]:
                        periods = b[2][svc][0] - a[2][svc][0]
                        part += f"/{(b[2][svc][1] - a[2][svc][1]) / max(1, periods):.0%}"
                    parts.append(part)
            parts.append(f"pg {(b[3] - a[3]) / wall:.2f}")
            both = [n for t, n in self.both if a[0] <= t < b[0]]
            if both:
                parts.append(f"both {both[-1]}")
            out.append(f"{a[0] - since:.0f}s " + " ".join(parts))
            i = j
        return "#   per second (cores/throttled): " + " | ".join(out)


_site_procs: SiteProcs | None = None
_timeline: Timeline | None = None
_cpu, _rss = load.cpu_seconds, load.rss_kib


def cpu_seconds(pid: int) -> float:
    """load.cpu_seconds, summed over the site's Dineri processes (and their helpers) for the
    marker pid; each such call also records a :class:`Snapshot` (load.drive calls it before and
    after each step)."""
    if pid == SiteProcs.PID and _site_procs is not None:
        _site_procs.snapshot()
        if _timeline is not None:
            _step_marks.append(time.monotonic())
        return sum(_site_procs.snapshots[-1].total(svc) for svc in _site_procs.running())
    return _cpu(pid)


def rss_kib(pid: int) -> int:
    """load.rss_kib, summed likewise."""
    if pid == SiteProcs.PID and _site_procs is not None:
        return sum(_rss(p) for p in _site_procs.pids())
    return _rss(pid)


class Steps:
    """The rates of one run for load.drive: ``rates`` in order, then ``refine`` more steps, each
    halfway (rounded to ``grain``/s) between the highest rate held so far and the lowest rate
    above it that was not held, so the highest rate held is known to better than the grid's
    step (every step is still a fresh measurement: a rate held once and missed once counts as
    held, as load.highest_held reads the rows). :func:`show` records each row here."""

    def __init__(self, rates: list[float], refine: int, grain: float = 10.0) -> None:
        self.rates, self.refine, self.grain = rates, refine, grain
        self.rows: list[load.Row] = []

    def __iter__(self) -> Any:
        yield from self.rates
        for _ in range(self.refine):
            held = [r.target for r in self.rows if r.held]
            low = max(held, default=0.0)
            above = [r.target for r in self.rows if not r.held and r.target > low]
            if not above:
                return
            high = min(above)
            mid = round((low + high) / 2 / self.grain) * self.grain
            if mid <= low or mid >= high:
                return
            yield mid


_steps: Steps | None = None


def show(r: load.Row) -> None:
    """load.show, then the step's CPU by part (:meth:`SiteProcs.step_line`)."""
    if _steps is not None:
        _steps.rows.append(r)
    _show(r)
    if _site_procs is not None and len(_site_procs.snapshots) >= 2:
        print(_site_procs.step_line(r), flush=True)
    if _timeline is not None and len(_step_marks) >= 2:
        print(_timeline.line(_step_marks[-2]), flush=True)


_show = load.show
_step_marks: list[float] = []


def owners(site: Site, table_ids: list[str]) -> dict[str, int]:
    """service -> how many of ``table_ids`` it holds the lease of (node names end in the port)."""
    from sqlalchemy import bindparam, text

    from dineri.store.db import make_engine

    by_port = {str(port): svc for svc, port in site.ports.items()}
    engine = make_engine(site.db_url)
    try:
        with engine.connect() as c:
            rows = c.execute(text("SELECT owner, count(*) FROM table_leases WHERE table_id IN :ids "
                                  "AND expires_at > now() GROUP BY owner")
                             .bindparams(bindparam("ids", expanding=True)), {"ids": table_ids}).all()
    finally:
        engine.dispose()
    out = dict.fromkeys(site.services, 0)
    for owner, n in rows:
        svc = by_port.get(str(owner).rpartition(":")[2])
        if svc is not None:
            out[svc] += int(n)
    return out


def doubly_subscribed(site: Site, table_ids: list[str]) -> int:
    """How many of ``table_ids``' fan-out channels have more than one subscriber in Redis (each
    process subscribes once per loaded session: two means a non-owner gets every bundle too)."""
    import redis

    from tests.multi.site import REDIS

    r = redis.Redis.from_url(REDIS)
    try:
        counts = r.pubsub_numsub(*(f"{site.prefix}table:{tid}" for tid in table_ids))
    finally:
        r.close()
    return sum(1 for _, n in counts if int(n) > 1)


def run(site: Site, name: str, args: Any, rates: list[float], quota: CpuQuota | None) -> list[load.Row]:
    """Make fresh tables through nginx and drive them; the rows of every step."""
    global _site_procs
    _site_procs = SiteProcs(site, quota)
    _site_procs.constrain()
    target = load.Target(name, _site_procs, site.port)  # type: ignore[arg-type]
    time.sleep(1.0)
    target.rss_idle = rss_kib(SiteProcs.PID)
    t0 = time.monotonic()
    target.tables = asyncio.run(load.make_tables(site.base, args.tables))
    print(f"# {name}: {len(target.tables)} tables made through nginx in {time.monotonic() - t0:.1f} s; "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    ids = [tid for tid, _ in target.tables]
    _site_procs.owned = owners(site, ids)
    both = doubly_subscribed(site, ids)
    owned = _site_procs.owned
    busiest = max(owned.values()) / max(1, sum(owned.values()))
    bound = (f" (the busiest process serves {busiest:.0%} of the actions: two processes at one budget "
             f"carry at most {1 / busiest:.2f}× one)") if len([n for n in owned.values() if n]) > 1 else ""
    print(f"# {name}: tables owned (leases) {owned}{bound}; channels subscribed by more than one "
          f"process: {both} of {len(ids)}; pids {_site_procs.running()}", flush=True)
    if both and args.settle > 0:  # the steady state of a long match: creators have let go
        t0 = time.monotonic()
        while both and time.monotonic() - t0 < args.settle:
            time.sleep(1.0)
            both = doubly_subscribed(site, ids)
        print(f"# {name}: after {time.monotonic() - t0:.0f} s of --settle: {both} of {len(ids)} "
              "channels subscribed by more than one process", flush=True)
    global _timeline
    _timeline = Timeline(_site_procs, ids) if args.timeline else None
    if _timeline is not None:
        _timeline.start()
    try:
        global _steps
        _steps = Steps(rates, args.refine)
        rows = load.drive(target, _steps, args.duration, args.procs)  # type: ignore[arg-type]
    finally:
        if _timeline is not None:
            _timeline.stop()
        _timeline = None
    print(f"# {name}: channels subscribed by more than one process after the run: "
          f"{doubly_subscribed(site, ids)} of {len(ids)}", flush=True)
    print(f"# {name}: load average after the run {os.getloadavg()[0]:.2f}", flush=True)
    return rows


class TimedDriver(load.Driver):
    """load.py's client side, printing after each step (``--timeline``) each second's actions
    done and their worst latency, from this client process's tables: when a stall began."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.done_at: list[tuple[float, float]] = []  # (perf_counter when settled, latency)

    def settle(self, t: load.Table) -> None:
        sent = t.sent_at
        pending = t.pending
        super().settle(t)
        if self.recording and sent is not None and pending is not None and t.pending is None:
            now = time.perf_counter()
            self.done_at.append((now, now - sent))

    async def step(self, rate: float, duration: float, warmup: float = 1.0) -> dict[str, Any]:
        self.done_at = []
        t0 = time.perf_counter() + warmup
        out = await super().step(rate, duration, warmup)
        buckets: dict[int, list[float]] = {}
        for at, lat in self.done_at:
            buckets.setdefault(int(at - t0), []).append(lat)
        parts = [f"{k}s {len(v)} {1000 * max(v):.0f}" for k, v in sorted(buckets.items())]
        print(f"#   client {os.getpid()} per second (actions done, max ms): " + " | ".join(parts), flush=True)
        return out


def timed_worker(conn: Any, ws_base: str, tables: list[tuple[str, list[str]]]) -> None:
    """load.worker with :class:`TimedDriver` (``--timeline``)."""
    load.Driver = TimedDriver  # type: ignore[misc]
    load.worker(conn, ws_base, tables)


def report_logs(folder: Path, lines: int = 40) -> None:
    """Print the servers' log lines at WARNING or above (the last ``lines`` of each, with a count
    of each message), gc and loop-stall summaries included."""
    import collections
    import json

    for log in sorted(folder.glob("*.log")):
        if log.name in ("access.log",):
            continue
        keep, counts = [], collections.Counter[str]()
        for raw in log.read_text(errors="replace").splitlines():
            try:
                rec = json.loads(raw)
            except ValueError:
                if raw.strip():
                    keep.append(raw)
                    counts[raw[:60]] += 1
                continue
            level = str(rec.get("level", rec.get("levelname", ""))).upper()
            if level in ("WARNING", "ERROR", "CRITICAL") or "gc pauses" in raw:
                keep.append(raw)
                counts[str(rec.get("message", rec.get("msg", raw[:60])))] += 1
        print(f"# log {log}: {sum(counts.values())} warning lines: {dict(counts.most_common(8))}")
        for raw in keep[-lines:]:
            print(f"#   {raw[:2000]}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=500, help="1v1 tables per run (2 seated sockets each)")
    p.add_argument("--rates", default="100,200,400,600,800,1000,1500,2000",
                   help="comma-separated target actions/s over all tables")
    p.add_argument("--rates-two", default=None,
                   help="the two-process run's steps instead of --rates (e.g. finer steps around its limit)")
    p.add_argument("--refine", type=int, default=0, metavar="N",
                   help="after the steps, N more, each halfway between the highest rate held and the lowest "
                        "rate above it not held (to 10/s): the highest rate held to better than the grid")
    p.add_argument("--duration", type=float, default=8.0, help="measured seconds per step")
    p.add_argument("--procs", type=int, default=2, help="client processes")
    p.add_argument("--nginx-workers", default=None,
                   help="nginx worker_processes instead of deploy/nginx.conf's 'auto' (e.g. 1: one "
                        "core's worth of proxy on a 2-core machine shared with the clients)")
    p.add_argument("--server-cpu", type=float, default=None, metavar="FRACTION",
                   help="give each Dineri process its own cgroup with a CPU quota of FRACTION of a core "
                        "(e.g. 0.4; root; off by default): clients, nginx, PostgreSQL, Redis unconstrained")
    p.add_argument("--cpu-period-ms", type=float, default=10.0,
                   help="the quota's period (default 10 ms: the longest throttled stall is "
                        "period × (1 − FRACTION))")
    p.add_argument("--settle", type=float, default=0.0,
                   help="seconds to wait at most, once the tables are made, until no table's channel has "
                        "two processes subscribed (a process lets go of a table it created but does not "
                        "serve once unused for 5 s: a long match's steady state)")
    p.add_argument("--timeline", action="store_true",
                   help="after each step, each second's CPU of each process (throttled share), PostgreSQL's")
    p.add_argument("--logs", default=None, metavar="DIR",
                   help="keep the servers' and nginx's logs in DIR (else a temporary folder, removed), and "
                        "print their warnings and gc/loop-stall summaries at the end")
    p.add_argument("--log-level", default="WARNING", help="the servers' DINERI_LOG_LEVEL (default WARNING)")
    p.add_argument("--servers", default="1,2",
                   help="which runs: 1 (one process), 2 (two), or both (default 1,2)")
    args = p.parse_args()
    load.cpu_seconds, load.rss_kib, load.show = cpu_seconds, rss_kib, show
    if args.timeline:
        load.worker = timed_worker
    rates = [float(x) for x in args.rates.split(",") if x.strip()]
    rates_two = [float(x) for x in (args.rates_two or args.rates).split(",") if x.strip()]
    runs = {int(x) for x in args.servers.split(",") if x.strip()}
    if not runs or runs - {1, 2}:
        p.error("--servers takes 1, 2 or 1,2")
    quota = (CpuQuota(args.server_cpu, round(args.cpu_period_ms * 1000))
             if args.server_cpu is not None else None)
    print(f"load through nginx: {args.tables} tables a run, {args.procs} client processes, "
          f"{args.duration:g} s a step, nginx workers {args.nginx_workers or 'auto'}; "
          f"server CPU: {quota.describe() if quota else 'unconstrained'}; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    results: dict[str, list[load.Row]] = {}
    with contextlib.ExitStack() as stack:
        if args.logs:
            tmp = args.logs
            Path(tmp).mkdir(parents=True, exist_ok=True)
            stack.callback(report_logs, Path(tmp))
        else:
            tmp = stack.enter_context(tempfile.TemporaryDirectory())
        if quota is not None:
            stack.callback(quota.close)
        # A long grace: the one-process run's tables, whose sockets close when it ends, would
        # otherwise all forfeit (300 finished matches, on the first process only) 90 s later, in
        # the middle of the two-process run.
        env = {"DINERI_MESSAGES_PER_SECOND": "1000", "DINERI_LOG_LEVEL": args.log_level,
               "DINERI_GUESTS_PER_MINUTE": "0", "DINERI_GRACE_SECONDS": "3600"}
        site = Site(Path(tmp), **env)
        if args.nginx_workers is not None:  # the rendered copy only; deploy/nginx.conf is unchanged
            conf = Path(tmp) / "nginx" / "nginx.conf"
            conf.write_text(conf.read_text().replace("worker_processes auto;",
                                                     f"worker_processes {args.nginx_workers};"))
        with site:
            _first, second = site.services
            print(load.HEADER, flush=True)
            if 1 in runs:
                site.procs[second].stop()
                results["1 proc"] = run(site, "1 proc", args, rates, quota)
                site.start_service(second)
            if 2 in runs:
                results["2 procs"] = run(site, "2 procs", args, rates_two, quota)
    if len(results) < 2:
        print(f"load average at end {os.getloadavg()[0]:.2f}")
        return
    one, two = load.highest_held(results["1 proc"]), load.highest_held(results["2 procs"])
    ratio = f"{two / one:.2f}" if one else "n/a"
    budget = f"; {quota.describe()}" if quota else ""
    print(f"highest rate held through nginx (p99 < {load.HELD_P99_MS:g} ms, ≥ {load.HELD_SHARE:.0%} "
          f"achieved): one process {one:.0f}/s, two processes {two:.0f}/s, ratio {ratio} (goal 1.8)"
          f"{budget}")
    print(f"load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
