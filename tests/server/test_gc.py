"""No long pauses (issue 8, item 5): the collector is tuned after start-up, and timed."""

from __future__ import annotations

import asyncio
import collections
import gc
import json
import time
import weakref
from pathlib import Path
from typing import Any

import pytest

from dineri.fanout import LocalFanout
from dineri.server import gcpause
from dineri.server.service import TableService
from dineri.settings import Settings
from dineri.store import repo
from dineri.store.db import make_engine, migrate, sessions
from tests.server.harness import Server


def test_pauses_are_timed_by_generation() -> None:
    pauses = gcpause.Pauses()
    pauses.install()
    try:
        gc.collect()
        gc.collect(0)
    finally:
        pauses.remove()
    summary = pauses.summary()
    assert summary["collections"] >= 2
    assert summary["by_generation"][2] >= 1 and summary["by_generation"][0] >= 1
    assert 0 < summary["max_ms"] <= summary["total_ms"]
    assert pauses not in gc.callbacks


def test_tune_freezes_what_is_alive_and_sets_the_thresholds() -> None:
    before = gc.get_threshold()
    freezer = None
    try:
        freezer = gcpause.tune((12_345, 11, 77))
        assert gc.get_threshold() == (12_345, 11, 77)
        assert gc.get_freeze_count() > 1000  # every module, class and function loaded so far
        assert freezer in gc.callbacks
    finally:
        if freezer is not None:
            freezer.remove()
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_slow_old_collection_freezes_what_survived_a_quick_one_does_not() -> None:
    keep = [[i] for i in range(50_000)]  # tracked and alive: walked by every collection of them
    slow, quick = gcpause.Freezer(after_ms=0.0), gcpause.Freezer(after_ms=1e9, old_limit=10**9)
    try:
        gc.disable()  # only the collections below
        frozen = gc.get_freeze_count()
        quick.install()
        gc.collect(1)
        assert quick.freezes == 0 and gc.get_freeze_count() == frozen
        quick.remove()
        slow.install()
        gc.collect(0)  # the young generation alone never freezes
        assert slow.freezes == 0 and gc.get_freeze_count() == frozen
        gc.collect(1)
        assert slow.freezes == 1 and gc.get_freeze_count() >= frozen + len(keep)
        assert not any(o is keep[0] for g in range(3) for o in gc.get_objects(g))  # frozen: not walked
    finally:
        gc.enable()
        slow.remove()
        quick.remove()
        gc.unfreeze()


def test_freezing_after_every_collection_freezes_what_survived_a_young_one() -> None:
    """Issue 8 item 5 (``DINERI_GC_FREEZE_EVERY``): with ``every`` the survivors of any
    collection, a young one too, are frozen at once (walked by no later collection), while a
    young cycle dropped before it is still collected."""
    freezer = gcpause.Freezer(every=True)
    try:
        gc.collect()
        gc.disable()  # only the collections below
        frozen = gc.get_freeze_count()
        freezer.install()
        keep = [[i] for i in range(5_000)]
        dropped = weakref.ref(_Node())  # in a cycle with itself, and unreachable
        assert dropped() is not None
        assert gc.collect(0) >= 1  # the young cycle is found and freed
        assert dropped() is None
        assert freezer.freezes == 1 and gc.get_freeze_count() >= frozen + len(keep)
        assert not any(o is keep[0] for g in range(3) for o in gc.get_objects(g))  # frozen: not walked
    finally:
        gc.enable()
        freezer.remove()
        gc.unfreeze()


class _Node:
    """An object in a reference cycle with itself."""

    def __init__(self) -> None:
        self.me = self


def test_a_large_old_generation_is_frozen_however_quick() -> None:
    freezer = gcpause.Freezer(after_ms=1e9, old_limit=30_000, count_every=1)
    try:
        gc.collect()
        gc.freeze()  # the test process's own heap out of the way: the old generation is empty
        gc.disable()  # only the collections below
        freezer.install()
        keep = [[i] for i in range(10_000)]
        gc.collect(1)
        assert freezer.freezes == 0 and len(gc.get_objects(2)) >= len(keep)  # under the limit
        keep += [[i] for i in range(40_000)]
        gc.collect(1)
        assert freezer.freezes == 1 and not gc.get_objects(2)
    finally:
        gc.enable()
        freezer.remove()
        gc.unfreeze()


def test_a_small_old_generation_is_listed_after_every_eighth_quick_middle_collection() -> None:
    """Listing the old generation after each middle collection cost 5-11 % of the loop: quick
    ones list it every ``count_every``-th time, every time once it holds half the limit, and an
    old (full) collection always; a growing old generation is still frozen at the limit."""
    freezer = gcpause.Freezer(after_ms=1e9, old_limit=30_000, count_every=8)
    try:
        gc.collect()
        gc.freeze()
        gc.disable()
        freezer.install()
        for _ in range(16):
            gc.collect(1)
        assert freezer.counts == 2 and freezer.freezes == 0  # the 1st and the 9th
        gc.collect(2)
        assert freezer.counts == 3
        gc.collect(1)
        gc.collect(1)
        assert freezer.counts == 4  # the 17th, not the 18th
        keep = [[i] for i in range(16_000)]
        for _ in range(6):
            gc.collect(1)  # the 19th-24th: not due
        assert freezer.counts == 4 and len(gc.get_objects(2)) >= len(keep)
        gc.collect(1)  # the 25th lists it: over half the limit, so listed every time from now on
        gc.collect(1)
        assert freezer.counts == 6 and freezer.freezes == 0
        keep += [[i] for i in range(16_000)]
        gc.collect(1)
        assert freezer.counts == 7 and freezer.freezes == 1 and not gc.get_objects(2)
    finally:
        gc.enable()
        freezer.remove()
        gc.unfreeze()


class _Cycle:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_thaw_frees_what_died_in_a_cycle_while_frozen_and_freezes_the_living_again() -> None:
    freezer = gcpause.Freezer(after_ms=0.0, old_limit=10**9)
    try:
        gc.collect()
        gc.freeze()  # the test process's own heap out of the way
        gc.disable()
        freezer.install()
        doomed = [_Cycle() for _ in range(1_000)]
        alive = [_Cycle() for _ in range(500)]
        gc.collect(1)  # "slow" (after_ms 0): what survived is frozen
        assert freezer.freezes == 1 and freezer.frozen_since_thaw >= len(doomed) + len(alive)
        watch = weakref.ref(doomed[0])
        del doomed
        gc.collect()
        assert watch() is not None  # dead in a cycle while frozen: the collector never sees it
        freezes, frozen = freezer.freezes, gc.get_freeze_count()
        assert freezer.thaw() >= 1_000 and watch() is None
        assert freezer.thaws == 1 and freezer.thawed >= 1_000 and freezer.frozen_since_thaw == 0
        assert freezer.freezes == freezes  # its own full collection is not a freeze
        assert gc.get_freeze_count() <= frozen - 1_000  # the living frozen again, the dead gone
        assert not any(o is alive[0] for g in range(3) for o in gc.get_objects(g))
    finally:
        gc.enable()
        freezer.remove()
        gc.unfreeze()


def test_a_thaw_is_due_after_enough_freezing_and_time_at_a_quiet_moment_or_after_the_grace() -> None:
    clock = _Clock()
    freezer = gcpause.Freezer(thaw_objects=100, thaw_every=60.0, clock=clock)
    freezer.frozen_since_thaw = 99
    clock.now += 10_000
    assert not freezer.thaw_due(quiet=True)  # too little frozen, however long ago
    freezer.frozen_since_thaw = 100
    assert freezer.thaw_due(quiet=True)
    freezer.thaw()  # resets the estimate and the time
    freezer.frozen_since_thaw = 10**6
    clock.now += 59
    assert not freezer.thaw_due(quiet=True)  # at most every thaw_every seconds
    clock.now += 1
    assert freezer.thaw_due(quiet=True) and not freezer.thaw_due(quiet=False)  # busy: it waits
    clock.now += gcpause.THAW_GRACE
    assert freezer.thaw_due(quiet=False)  # ... but not for ever
    never = gcpause.Freezer(thaw_objects=0, thaw_every=0.0, clock=clock)
    never.frozen_since_thaw = 10**9
    clock.now += 10**6
    assert not never.thaw_due(quiet=True)  # 0: never


def test_the_thaw_task_waits_for_a_quiet_server_within_the_grace() -> None:
    clock = _Clock()
    freezer = gcpause.Freezer(thaw_objects=1, thaw_every=60.0, clock=clock)
    freezer.frozen_since_thaw = 5
    checks = 0

    def busy() -> bool:  # always an action in flight; counts the checks
        nonlocal checks
        checks += 1
        return True

    async def main() -> None:
        task = asyncio.get_running_loop().create_task(gcpause.thaw_when_quiet(freezer, busy, every=0.0))
        clock.now += 60.0
        while checks < 20:
            await asyncio.sleep(0)
        assert freezer.thaws == 0  # due, but the server is busy
        clock.now += gcpause.THAW_GRACE
        while freezer.thaws == 0 and checks < 10_000:
            await asyncio.sleep(0)
        task.cancel()
        assert freezer.thaws == 1 and freezer.frozen_since_thaw == 0

    try:
        asyncio.run(main())
    finally:
        gc.unfreeze()


def test_a_stall_of_the_loop_is_seen() -> None:
    async def run() -> dict:
        stalls = gcpause.LoopStalls(every=0.005)
        stalls.start()
        await asyncio.sleep(0.05)
        time.sleep(0.08)  # the loop is stuck: no callback runs meanwhile
        await asyncio.sleep(0.05)
        stalls.stop()
        return stalls.summary()
    summary = asyncio.run(run())
    assert summary["wakeups"] >= 2 and summary["over_10ms"] >= 1
    assert summary["max_ms"] >= 50.0  # the 80 ms block, less the sleep it fell into
    assert sum(summary["histogram_ms"]["late"]) >= 1
    # Where the loop's thread was (its schedstat, re-read in place): asleep, not on a CPU.
    assert summary["worst"]["blocked_ms"] >= 50.0 > summary["worst"]["on_cpu_ms"], summary


def test_a_finished_table_evicted_leaves_no_cyclic_garbage(tmp_path: Path) -> None:
    # With survivors frozen (Freezer), an object that dies in a cycle is never freed: a dropped
    # session must go by its reference count alone.
    url = f"sqlite:///{tmp_path / 'e.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    settings = Settings(database_url=url, node="n1", grace_seconds=0.3)

    async def run() -> list[object]:
        service = TableService(sm, LocalFanout(), settings)
        await service.start()
        for _ in range(3):
            with sm.begin() as s:
                a, b = repo.create_player(s, "A").id, repo.create_player(s, "B").id
            sess = await service.create_table(a, "chkobba", {"seats": 2, "target": 11, "best_of": 1}, True, 0)
            await sess.take_seat(a, 0, None, None)
            await sess.take_seat(b, 1, None, None)
            await sess.start(a, first_dealer=0)
        del sess
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(x.status == "over" for x in service.sessions.values()):
            await asyncio.sleep(0.1)  # nobody connects: every seat forfeits after its grace
        assert [x.status for x in service.sessions.values()] == ["over"] * 3
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            assert service.evict_finished(idle=0) == 3
            await asyncio.sleep(0.2)  # each session's close() runs
            gc.collect()
        finally:
            gc.set_debug(0)
        found = list(gc.garbage)
        gc.garbage.clear()
        await service.stop()
        return found

    found = asyncio.run(run())
    # Nothing at all, not only Dineri's own objects: its tasks, locks and SQLAlchemy rows too.
    assert [f"{type(o).__module__}.{type(o).__qualname__}" for o in found] == []
    engine.dispose()


def _lines(log: Path, msg: str) -> list[dict]:
    out = []
    for line in log.read_text(errors="replace").splitlines():
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        if isinstance(doc, dict) and doc.get("msg") == msg:
            out.append(doc)
    return out


def test_the_server_tunes_after_start_up_and_reports_its_pauses(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'gc.db'}")
    srv.log_path = tmp_path / "server.log"
    srv.start()
    srv.stop()
    tuned = _lines(srv.log_path, "gc tuned")
    assert tuned and tuned[-1]["frozen"] > 1000 and tuned[-1]["thresholds"] == list(gcpause.THRESHOLDS)
    report = _lines(srv.log_path, "gc pauses")
    assert report and report[-1]["tuned"] is True and report[-1]["thaws"] == 0  # none due yet
    # Counted from after tune(): its own full collection is not a pause of serving.
    assert report[-1]["by_generation"][2] == 0


def test_the_setting_turns_tuning_off(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'gc.db'}", DINERI_GC_TUNING="0")
    srv.log_path = tmp_path / "server.log"
    srv.start()
    srv.stop()
    assert not _lines(srv.log_path, "gc tuned")
    assert _lines(srv.log_path, "gc pauses")[-1]["tuned"] is False


def test_a_connections_frame_queue_is_bounded_ordered_and_wakes_its_reader() -> None:
    from dineri.server.ws import FrameQueue

    async def run() -> None:
        q = FrameQueue(2)
        reader = asyncio.get_running_loop().create_task(q.get())
        await asyncio.sleep(0)
        assert not reader.done()  # nothing queued: the reader waits
        q.put_nowait("a")
        assert await reader == "a"
        q.put_nowait("b")
        q.put_nowait(None)
        with pytest.raises(asyncio.QueueFull):
            q.put_nowait("c")  # full: refused, nothing added
        assert q.qsize() == 2 and await q.get() == "b" and q.get_nowait() is None and q.empty()
        with pytest.raises(asyncio.QueueEmpty):
            q.get_nowait()

    asyncio.run(run())


def _cyclic_garbage(run: Any) -> list[object]:
    """What ``run()`` (called with the collector off) leaves in reference cycles: found by one
    collection with ``gc.DEBUG_SAVEALL`` (a later freeze would keep such objects for good)."""
    gc.collect()
    gc.disable()
    try:
        run()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
    finally:
        gc.set_debug(0)
        gc.enable()
    found = list(gc.garbage)
    gc.garbage.clear()
    return found


def test_table_leases_leave_no_cyclic_garbage(tmp_path: Path) -> None:
    """Issue 8 item 5: a table's lease is taken (first an INSERT, later an UPDATE), renewed and
    released at every start and end of a match; built per call, those statements' SQLAlchemy
    expression objects (bind parameters, comparators) were reference cycles."""
    from dineri.store import lease

    url = f"sqlite:///{tmp_path / 'l.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    with sm.begin() as s:
        host = repo.create_player(s, "A").id
        ids = [repo.create_table(s, host_id=host, game="chkobba", options={"seats": 2}, public=True,
                                 clock=0).id for _ in range(7)]

    def leases(tables: list[str]) -> None:
        with sm.begin() as s:
            for tid in tables:
                fence = lease.take(s, tid, "n1", 30.0)
                assert fence is not None and lease.renew(s, "n1", 30.0)[tid] == fence
                assert lease.release(s, tid, "n1", fence)
                assert lease.take(s, tid, "n1", 30.0) == fence + 1  # the UPDATE path
                assert lease.release(s, tid, "n1", fence + 1)

    leases(ids[:1])  # SQLAlchemy compiles each statement once
    found = _cyclic_garbage(lambda: leases(ids[1:]))
    engine.dispose()
    assert [type(o).__qualname__ for o in found if type(o).__module__.startswith("sqlalchemy")] == []


def test_an_upgraded_connection_leaves_no_cyclic_garbage() -> None:
    """Issue 8 item 5: when a request upgrades to a WebSocket, uvicorn hands the transport to the
    socket's protocol and never tells the HTTP protocol its connection is lost, which is where
    it drops its parser (holding six bound methods of the protocol): every table socket left
    that protocol as cyclic garbage. ``dineri.server.edge.protocols`` drops it at the upgrade."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket
    from websockets.asyncio.client import connect

    from dineri.server.edge import Edge, protocols
    from tests.server.harness import free_port

    async def hello(ws: WebSocket) -> None:
        await ws.accept()
        await ws.send_text("hi")
        await ws.close()

    http, ws_protocol = protocols(Edge(0, [], 10.0))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(Starlette(routes=[WebSocketRoute("/ws", hello)]), host="127.0.0.1",
                                           port=port, http=http, ws=ws_protocol, lifespan="off",
                                           log_config=None))

    async def sockets() -> None:
        for _ in range(3):
            async with connect(f"ws://127.0.0.1:{port}/ws") as c:
                assert await c.recv() == "hi"
        await asyncio.sleep(0.2)  # the server's side closes too

    async def main() -> list[object]:
        serving = asyncio.get_running_loop().create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        await sockets()  # warm-up: first uses build what lives on
        gc.collect()
        gc.disable()
        try:
            await sockets()
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
        finally:
            gc.set_debug(0)
            gc.enable()
        found = list(gc.garbage)
        gc.garbage.clear()
        server.should_exit = True
        await serving
        return found

    found = asyncio.run(main())
    assert [o for o in found if isinstance(o, http)] == []
    assert not any(type(o).__module__.startswith("uvicorn") for o in found)


def test_actions_leave_no_cyclic_garbage(tmp_path: Path) -> None:
    """Issue 8 item 5: an action (judged, stored through the group-commit writer, its bundle
    published and cut into frames, the turn clock re-armed) makes no reference cycles, so the
    young collections find nothing and nothing frozen mid-action can leak."""
    from benchmarks.load import choose
    from dineri.server.frames import Receiver, frames_for

    url = f"sqlite:///{tmp_path / 'a.db'}"
    migrate(url)
    engine = make_engine(url)
    sm = sessions(engine)
    settings = Settings(database_url=url, node="n1", grace_seconds=3600)

    async def run() -> tuple[int, list[object]]:
        service = TableService(sm, LocalFanout(), settings)
        await service.start()
        with sm.begin() as s:
            a, b = repo.create_player(s, "A").id, repo.create_player(s, "B").id
        sess = await service.create_table(a, "chkobba", {"seats": 2, "target": 11, "best_of": 1}, True, 30)
        await sess.take_seat(a, 0, None, None)
        await sess.take_seat(b, 1, None, None)
        await sess.start(a, first_dealer=0)
        receivers = {0: Receiver(), 1: Receiver()}
        sent: list[str] = []

        def socket(bundle: dict[str, Any]) -> None:  # what a seated socket does with a bundle
            for seat, rx in receivers.items():
                sent.extend(frames_for(bundle, rx, seat, f"c{seat}"))
        service.fanout.subscribe(f"table:{sess.id}", socket)
        done = 0

        async def play(n: int) -> None:
            nonlocal done
            for _ in range(n):
                move = next(((seat, act) for seat in (0, 1)
                             if (act := choose(sess.view_for(seat) or {}, seat)) is not None), None)
                if move is None or sess.status != "playing":
                    return
                reply, fresh = await sess.act(move[0], f"x{done}", move[1], conn=f"c{move[0]}")
                assert reply["type"] == "ack" and fresh, reply
                done += 1
        await play(10)  # warm-up: first uses compile and cache what lives on
        before = done
        gc.collect()
        gc.disable()
        try:
            await play(60)
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
        finally:
            gc.set_debug(0)
            gc.enable()
        found = list(gc.garbage)
        gc.garbage.clear()
        await service.stop()
        return done - before, found

    acted, found = asyncio.run(run())
    engine.dispose()
    assert acted >= 40
    kinds = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in found)
    assert sum(kinds.values()) <= 10, kinds.most_common(10)  # none expected; a stray one-off allowed
