"""Keep the garbage collector from stopping the loop for long (issue 8, item 5).

A server holds many long-lived objects (modules, the app, sockets, sessions, matches) and makes
many short-lived ones per action. CPython's collector walks every tracked object of the
generations it collects, so a pause grows with what those generations hold: a young collection
with the young threshold at 50,000 walked 50,000 live objects (18-50 ms of CPU measured under
benchmarks/load.py), and a full one walks every live socket and table (about 240 tracked objects
per seated socket). So, after start-up (:func:`tune`):

- everything alive is moved to the permanent generation (``gc.freeze()``: never walked again);
- the thresholds are small (:data:`THRESHOLDS`, 500 and 5: each young and middle pause is
  short, under 10 ms of CPU measured at load 10-14, and collections are frequent but cheap);
- :class:`Freezer`: after a middle or full collection that took :data:`FREEZE_AFTER_MS` of CPU
  or more, or that left :data:`OLD_LIMIT` objects or more in the old generation, what survived
  it is frozen too, so the old generations never grow to a long pause.
  In steady play those collections are quick and nothing is frozen; a burst of new sockets or
  tables freezes once. By default (``DINERI_GC_FREEZE_EVERY``) it freezes after *every*
  collection instead, young ones too: a table's state lives a second or so, from one action to
  the next, and each piece of it was walked by a young and again by a middle collection (half
  of the collector's CPU at 2,000 actions/s: :class:`Freezer`).
  The price: an object frozen this way that later dies *in a reference cycle* is never freed
  (an acyclic one is freed as usual by its reference count). So the server makes no such
  cycles where it churns: an action (judged, stored, its bundle cut into frames, its clock
  re-armed), a table socket (uvicorn's HTTP protocol of its upgrade:
  ``dineri.server.edge``), a table's lease (``dineri.store.lease``), the lobby query, a finished
  table evicted (the session's Frames holds it through a weak proxy); ``tests/server/test_gc.py``
  holds each to it. ``benchmarks/soak.py`` measures what is left: 4 minutes of 150 actions/s
  over 60 tables (105 matches, 577 resumes) froze 66 times and left **0** objects dead in a
  cycle among 350,000 frozen (main before: 236, mostly upgraded HTTP protocols; 71,000 in 10
  minutes before the lobby query was built once). ``soak.py --census`` names what the
  collector finds and where it was made.
- a *thaw* (:meth:`Freezer.thaw`, run by :func:`thaw_when_quiet` on the server's loop) is
  still there for a site that finds a new source: ``gc.unfreeze(); gc.collect(); gc.freeze()``
  when it froze an estimated :data:`THAW_OBJECTS` since the last thaw, at most every
  ``DINERI_GC_THAW_MINUTES`` (:data:`THAW_EVERY`), at a moment with no action in flight (or
  anyway after :data:`THAW_GRACE` more seconds). Off by default: it is one collection of the
  whole heap, a pause that grows with what the server holds (0.4-1.2 s of CPU for 0.35-1.3
  million objects), to free what is now nothing.

``dineri serve`` calls :func:`hold` first: no collection runs while the server imports and
builds itself (about 0.13 s of collections over a heap that is all kept anyway), and
:func:`tune` then freezes without the full collection (about 0.1 s for some 190,000 objects,
which found under 700 garbage ones; those stay frozen) unless Alembic ran (an upgrade leaves
some 6,000). :class:`Pauses` measures every collection (``gc.callbacks``), :class:`LoopStalls`
every late wake-up of the event loop whatever its cause; the server logs both (``gc pauses``)
when it stops, and the load benchmark prints them.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("dineri.gc")

#: (young, middle, old) thresholds after start-up: a young collection after 500 net
#: allocations of tracked objects (CPython: 700), a middle one after 5 young ones, a full one
#: after 10 middle ones (and only when the old generation grew by a quarter, CPython's rule).
#: A middle collection walks what survived the young ones since the last: at (1,000, 10, 10)
#: up to 19 ms of CPU under benchmarks/soak.py, at (500, 5, 10) up to 9 ms (and young ones 7-9 ms
#: either way, the same total), loads 9-19, back to back.
THRESHOLDS = (500, 5, 10)
#: CPU milliseconds of a middle or full collection from which what survived it is frozen.
FREEZE_AFTER_MS = 3.0
#: Objects in the old generation from which a middle or full collection freezes them (a full
#: collection of 20,000 takes about 8 ms of CPU here).
OLD_LIMIT = 20_000
COUNT_EVERY = 8  # middle collections between two listings of a small old generation
#: Estimated objects frozen by :class:`Freezer` since the last thaw from which it thaws.
THAW_OBJECTS = 200_000
#: Seconds between thaws at least (``DINERI_GC_THAW_MINUTES``; 0, the default: never). Each is
#: one collection of the whole heap, so its pause grows with what the server holds (1.1 s of CPU
#: for 1.27 million objects: 400 sockets and ten minutes of finished tables, benchmarks/soak.py),
#: while what it frees is what died in a cycle while frozen: nothing in benchmarks/soak.py since
#: the churning paths make no cycles (module docstring).
THAW_EVERY = 0.0
#: Seconds a due thaw waits for a quiet moment before it runs anyway.
THAW_GRACE = 120.0
THAW_CHECK = 5.0  # seconds between checks for a due thaw
QUIET_LATE_MS = 5.0  # a check waking this late found the loop busy
SLOW_MS = 10.0  # a pause at least this long is counted apart


BUCKETS_MS = (1.0, 5.0, 10.0, 25.0, 50.0, 100.0)  # pause histogram: < 1, < 5, … ≥ 100 ms


class _Callback:
    """A ``gc.callbacks`` hook that can be installed (idempotent) and removed."""

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        raise NotImplementedError

    def install(self) -> None:
        """Start receiving the collector's callbacks (idempotent)."""
        if self not in gc.callbacks:
            gc.callbacks.append(self)

    def remove(self) -> None:
        """Stop receiving them."""
        if self in gc.callbacks:
            gc.callbacks.remove(self)


class Pauses(_Callback):
    """Times every collection through ``gc.callbacks``: ``collections``, ``max_ms``,
    ``total_ms``, ``slow`` (pauses ≥ :data:`SLOW_MS`), ``by_generation`` (count per generation),
    and per generation the longest pause on the wall clock and in the thread's CPU time (a pause
    much longer on the wall than in CPU was the process waiting: for a core, or for the GIL held
    by another thread), a histogram over :data:`BUCKETS_MS`, and the most objects collected."""

    def __init__(self) -> None:
        self.collections = 0
        self.max_ms = 0.0
        self.total_ms = 0.0
        self.slow = 0
        self.by_generation = [0, 0, 0]
        self.max_by_generation = [0.0, 0.0, 0.0]
        self.max_cpu_by_generation = [0.0, 0.0, 0.0]
        self.histogram = [[0] * (len(BUCKETS_MS) + 1) for _ in range(3)]
        self.most_collected = [0, 0, 0]
        self._start = 0.0
        self._cpu = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            self._cpu = time.thread_time()
            return
        ms = (time.perf_counter() - self._start) * 1000.0
        cpu_ms = (time.thread_time() - self._cpu) * 1000.0
        gen = int(info.get("generation", 0))
        self.collections += 1
        self.total_ms += ms
        self.max_ms = max(self.max_ms, ms)
        self.slow += ms >= SLOW_MS
        self.by_generation[gen] += 1
        self.max_by_generation[gen] = max(self.max_by_generation[gen], ms)
        self.max_cpu_by_generation[gen] = max(self.max_cpu_by_generation[gen], cpu_ms)
        self.histogram[gen][sum(ms >= b for b in BUCKETS_MS)] += 1
        self.most_collected[gen] = max(self.most_collected[gen], int(info.get("collected", 0)))


    def summary(self) -> dict[str, Any]:
        """The figures as a JSON object (milliseconds rounded to 0.01)."""
        return {"collections": self.collections, "max_ms": round(self.max_ms, 2),
                "total_ms": round(self.total_ms, 2), "over_10ms": self.slow,
                "by_generation": list(self.by_generation),
                "max_ms_by_generation": [round(x, 2) for x in self.max_by_generation],
                "max_cpu_ms_by_generation": [round(x, 2) for x in self.max_cpu_by_generation],
                "histogram_ms": {"buckets": list(BUCKETS_MS),
                                 "by_generation": [list(h) for h in self.histogram]},
                "most_collected": list(self.most_collected)}


def _schedstat(fd: int | None) -> tuple[int, int] | None:
    """Nanoseconds on a CPU and waiting in the run queue of the thread whose Linux
    ``/proc/thread-self/schedstat`` is open as ``fd`` (re-read in place: opening it for each
    read cost 43 µs, 100 times a second), or ``None``."""
    if fd is None:
        return None
    try:
        on_cpu, queued, _ = os.pread(fd, 128, 0).split()
        return int(on_cpu), int(queued)
    except (OSError, ValueError):
        return None


def _open_schedstat() -> int | None:
    """``/proc/thread-self/schedstat`` of the calling thread, opened, or ``None`` (not Linux)."""
    try:
        return os.open("/proc/thread-self/schedstat", os.O_RDONLY)
    except OSError:
        return None


class LoopStalls:
    """How late the event loop runs a task that sleeps :attr:`every` seconds at a time: every
    stall of the loop (a collection, a long callback, the GIL held by a worker thread, the
    process waiting for a core) shows as a late wake-up of about its length. ``max_ms``,
    ``over_10ms`` (wake-ups at least :data:`SLOW_MS` late) and a histogram over
    :data:`BUCKETS_MS` of the wake-ups at least 1 ms late. :meth:`start` on the running loop,
    :meth:`stop`; costs one wake-up every :attr:`every` seconds."""

    def __init__(self, every: float = 0.01) -> None:
        self.every = every
        self.wakeups = 0
        self.max_ms = 0.0
        self.slow = 0
        self.histogram = [0] * (len(BUCKETS_MS) + 1)
        self.worst: dict[str, float] = {}
        self.slow_spent: dict[str, float] = {}  # summed over the wake-ups ≥ SLOW_MS late
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        fd = _open_schedstat()  # the loop's own thread: this task runs on it
        try:
            await self._watch(loop, fd)
        finally:
            if fd is not None:
                os.close(fd)

    async def _watch(self, loop: asyncio.AbstractEventLoop, fd: int | None) -> None:
        sched = _schedstat(fd)
        while True:
            t = loop.time()
            before = sched
            await asyncio.sleep(self.every)
            late = (loop.time() - t - self.every) * 1000.0
            sched = _schedstat(fd)
            self.wakeups += 1
            if sched is not None and before is not None and (late > self.max_ms or late >= SLOW_MS):
                # Where the loop's thread was meanwhile: running, waiting for a core, or blocked
                # (on the GIL, mostly: the loop itself sleeps only in its selector).
                wall = (late / 1000.0 + self.every) * 1e9
                on_cpu, queued = sched[0] - before[0], sched[1] - before[1]
                spent = {"on_cpu_ms": on_cpu / 1e6, "runqueue_ms": queued / 1e6,
                         "blocked_ms": max(0.0, wall - on_cpu - queued) / 1e6}
                if late > self.max_ms:
                    self.worst = {k: round(v, 2) for k, v in spent.items()}
                if late >= SLOW_MS:
                    for k, v in spent.items():
                        self.slow_spent[k] = self.slow_spent.get(k, 0.0) + v
            self.max_ms = max(self.max_ms, late)
            self.slow += late >= SLOW_MS
            if late >= BUCKETS_MS[0]:
                self.histogram[sum(late >= b for b in BUCKETS_MS)] += 1

    def start(self) -> None:
        """Start watching the running loop."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self) -> None:
        """Stop watching."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def summary(self) -> dict[str, Any]:
        """The figures as a JSON object."""
        return {"wakeups": self.wakeups, "max_ms": round(self.max_ms, 2), "over_10ms": self.slow,
                "worst": self.worst, "slow_spent": {k: round(v, 1) for k, v in self.slow_spent.items()},
                "histogram_ms": {"buckets": list(BUCKETS_MS), "late": list(self.histogram)}}


_held = False  # hold() turned the collector off for the start-up


def hold() -> None:
    """Turn the collector off until :func:`tune` or :func:`release` (the start of ``dineri serve``:
    start-up builds objects that all live on, so collecting them is wasted time; issue 8 item 6)."""
    global _held
    _held = True
    gc.disable()


def release() -> None:
    """Turn the collector back on after :func:`hold` (untuned: ``DINERI_GC_TUNING=false``)."""
    global _held
    if _held:
        _held = False
        gc.enable()


class Freezer(_Callback):
    """A ``gc.callbacks`` hook: after a collection of the middle or old generation that took at
    least ``after_ms`` of the collecting thread's CPU time, or that left the old generation
    holding ``old_limit`` objects or more, ``gc.freeze()`` (what survived is never walked
    again). ``freezes``: how many times.

    What it froze and later dies in a reference cycle is never collected (a leak for the life of
    the process), so it also *thaws* (:meth:`thaw`: ``gc.unfreeze(); gc.collect(); gc.freeze()``,
    one full collection of the whole heap) when :meth:`thaw_due` says so: it froze an estimated
    ``thaw_objects`` objects or more since the last thaw (``frozen_since_thaw``: the old
    generation's size at each freeze, summed; an over-estimate, as most of them are still alive
    or die acyclically), and ``thaw_every`` seconds or more passed since the last thaw (or the
    start), and the server is quiet, or it has not been for :data:`THAW_GRACE` seconds more
    (the bound holds under a load that never stops). ``thaw_every`` 0: never.
    ``clock``: seconds (monotonic), for tests.

    The old generation is counted (``gc.get_objects(2)``, a list of it) after every old
    collection but only after every ``count_every``-th middle one, or every one once it held half
    of ``old_limit``: listing it after each of them was 5-11 % of the loop under load (py-spy).

    ``every``: freeze after *every* collection, young ones too (``DINERI_GC_FREEZE_EVERY``), so
    an object that survives one collection is never walked again. A table's state lives from
    one of its actions to the next (about a second with 2,500 tables at 2,500 actions/s), so
    without it each survivor was walked by a young collection, again by a middle one, and listed
    (issue 8: 14-17 % of the server's CPU in collections at 2,000 actions/s, 7-9 % with it,
    ``benchmarks/load.py`` on 5,000 sockets). The same price, paid more often: what dies in a
    cycle after surviving one collection is never freed (``benchmarks/soak.py`` counts it)."""

    def __init__(self, after_ms: float = FREEZE_AFTER_MS, old_limit: int = OLD_LIMIT, *,
                 thaw_objects: int = THAW_OBJECTS, thaw_every: float = THAW_EVERY,
                 clock: Callable[[], float] = time.monotonic, count_every: int = COUNT_EVERY,
                 every: bool = False) -> None:
        self.every = every
        self.after_ms = after_ms
        self.old_limit = old_limit
        self.count_every = max(1, count_every)
        self.counts = 0  # how many times the old generation was listed
        self._middles = 0
        self._old = 0  # its size when last listed
        self.thaw_objects = thaw_objects
        self.thaw_every = thaw_every
        self.freezes = 0
        self.frozen_since_thaw = 0
        self.thaws = 0
        self.thaw_max_ms = 0.0  # the longest thaw, wall clock and CPU
        self.thaw_max_cpu_ms = 0.0
        self.thawed = 0  # objects the thaws found unreachable (what would have leaked), summed
        self._clock = clock
        self._last_thaw = clock()
        self._thawing = False
        self._cpu = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._cpu = time.thread_time()
            return
        if self.every and not self._thawing:
            # Whatever survived this collection is walked by no later one (gc.freeze() moves the
            # generations' lists, whatever their length: no walk). Its size is not known without
            # one: the young threshold stands for it in the thaw's estimate.
            gc.freeze()
            self.freezes += 1
            self.frozen_since_thaw += gc.get_threshold()[0]
            return
        if int(info.get("generation", 0)) < 1 or self._thawing:
            return
        # The old generation's size: listing it costs about as much as walking it, and the
        # freeze keeps it under old_limit, so this stays small (a middle collection moved its
        # survivors there: without this, many quick ones could grow it to one long full pause).
        slow = (time.thread_time() - self._cpu) * 1000.0 >= self.after_ms
        if int(info["generation"]) == 1:
            self._middles += 1
        if (not slow and int(info["generation"]) == 1 and self._old < self.old_limit // 2
                and (self._middles - 1) % self.count_every):
            return  # a quick middle collection, an old generation known to be small
        old = len(gc.get_objects(2))
        self.counts += 1
        self._old = old
        if slow or old >= self.old_limit:
            # Safe here: the collection is over, its lists are no longer walked. (Not counted with
            # gc.get_freeze_count(): that walks the whole frozen list, tens of ms for a million.)
            gc.freeze()
            self.freezes += 1
            self.frozen_since_thaw += old  # the young generations are empty after this collection
            self._old = 0

    def thaw_due(self, quiet: bool) -> bool:
        """Whether to :meth:`thaw` now (rules in the class docstring); ``quiet``: no action in
        flight and the event loop idle."""
        if self.thaw_every <= 0 or self.frozen_since_thaw < self.thaw_objects:
            return False
        waited = self._clock() - self._last_thaw
        return waited >= self.thaw_every and (quiet or waited >= self.thaw_every + THAW_GRACE)

    def thaw(self) -> int:
        """``gc.unfreeze(); gc.collect(); gc.freeze()``: frees what died in a cycle while frozen,
        then freezes what is alive again (one pause over the whole heap: about 0.9 ms of CPU per
        1,000 objects here, benchmarks/soak.py); returns the objects found unreachable."""
        self._thawing = True  # its own full collection must not count as a freeze
        t0, cpu0 = time.perf_counter(), time.thread_time()
        try:
            gc.unfreeze()
            found = gc.collect()
            gc.freeze()
        finally:
            self._thawing = False
        self.thaw_max_ms = max(self.thaw_max_ms, (time.perf_counter() - t0) * 1000.0)
        self.thaw_max_cpu_ms = max(self.thaw_max_cpu_ms, (time.thread_time() - cpu0) * 1000.0)
        self.thaws += 1
        self.thawed += found
        self.frozen_since_thaw = 0
        self._last_thaw = self._clock()
        return found

    def thaw_summary(self) -> dict[str, Any]:
        """``thaws``, ``thawed`` (objects they found unreachable), ``thaw_max_ms`` and
        ``thaw_max_cpu_ms`` (the longest), ``frozen_since_thaw`` (the estimate)."""
        return {"thaws": self.thaws, "thawed": self.thawed, "thaw_max_ms": round(self.thaw_max_ms, 1),
                "thaw_max_cpu_ms": round(self.thaw_max_cpu_ms, 1),
                "frozen_since_thaw": self.frozen_since_thaw}



async def thaw_when_quiet(freezer: Freezer, busy: Callable[[], bool], every: float = THAW_CHECK) -> None:
    """Check every ``every`` seconds whether ``freezer`` should thaw, and thaw it (a task of the
    server's loop, cancelled at shutdown). Quiet: ``busy()`` false (no action in flight) and this
    check woke less than :data:`QUIET_LATE_MS` late (the loop had nothing else to run)."""
    loop = asyncio.get_running_loop()
    while True:
        t = loop.time()
        await asyncio.sleep(every)
        late_ms = (loop.time() - t - every) * 1000.0
        if freezer.thaw_due(late_ms < QUIET_LATE_MS and not busy()):
            estimated = freezer.frozen_since_thaw
            found = freezer.thaw()
            log.info("gc thawed", extra={"unreachable": found, "estimated_frozen": estimated,
                                         "ms": round(freezer.thaw_max_ms, 1), "thaws": freezer.thaws})


def tune(thresholds: tuple[int, int, int] = THRESHOLDS, *, collect: bool | None = None,
         thaw_every: float = THAW_EVERY, every: bool = False) -> Freezer:
    """After start-up: freeze what is alive (``gc.freeze``), set ``thresholds``, install a
    :class:`Freezer` (thawing at most every ``thaw_every`` seconds, 0: never; ``every``: it
    freezes after every collection), collector on;
    returns the freezer (``remove()`` it to stop; :func:`thaw_when_quiet` runs its thaws).

    A full collection comes first when ``collect`` says so; by default (``None``) unless
    :func:`hold` kept the collector off since the process began (then there is next to no
    garbage to find, and walking the whole heap would delay the first answers by about 0.1 s)."""
    global _held
    if collect if collect is not None else not _held:
        gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    freezer = Freezer(thaw_every=thaw_every, every=every)
    freezer.install()
    log.info("gc tuned", extra={"frozen": gc.get_freeze_count(), "thresholds": list(thresholds),
                                "collected_first": bool(collect if collect is not None else not _held)})
    _held = False
    gc.enable()
    return freezer

