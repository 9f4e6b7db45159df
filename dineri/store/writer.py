"""Group commit (issue 8, item 2): one thread commits every table's writes, those that arrive
together in one transaction, and resolves each caller's future only after that commit.

A write is a function ``fn(session) -> value`` that only issues statements (it may be run
again: see below). A callable object whose class has a static ``run_many(session, writes) ->
values`` (``dineri.store.repo.Append``, a plain action) is run with the consecutive writes of its
class at once: one executemany per statement for all of them. The writer drains its queue (at
most :data:`MAX_BATCH` writes), runs them in order in one transaction and commits once: every
write is durable when its caller hears back, and the commit's fsync is shared by the whole group.

When a write raises (``Stale``, an ``IntegrityError``, a result hook), the group is rolled back
and each write of it is run again alone, in its own transaction, so one failing write never
takes the others with it. A write whose caller gave up (:class:`Unavailable`, past its
deadline) before the commit started is dropped, never committed.

Timeouts (issue 7, item 3): every write has a deadline (``timeout`` seconds after it was
queued); the caller waits at most that long and then gets :class:`Unavailable`. The database's
own timeouts (:func:`dineri.store.db.make_engine`) make a stalled statement fail rather than
hang the thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker


class AnswerBy:
    """When the current HTTP request must be answered (``at``: ``time.monotonic()``), set by
    :class:`dineri.server.deadline.Deadline` in :data:`DEADLINE`; ``at`` becomes ``None`` once the
    request's handler is done, so the tasks it started (timers, computer players), which copy the
    context, are bound by it only while it runs."""

    __slots__ = ("at",)

    def __init__(self, at: float | None) -> None:
        self.at = at


#: The current HTTP request's :class:`AnswerBy` (issue 7 item 3). ``asyncio.to_thread`` copies it
#: into the worker thread, so a request's transaction (``dineri.store.db.sessions``) that reaches
#: its commit after the request was answered ``unavailable`` rolls back instead: nothing is
#: applied after "not applied" was said. A write queued by :meth:`Writer.run` within a request
#: gets the earlier of its own deadline and this one.
DEADLINE: ContextVar[AnswerBy | None] = ContextVar("dineri_request_deadline", default=None)


def answer_by() -> float | None:
    """The current request's deadline (:data:`DEADLINE`), or ``None``."""
    clock = DEADLINE.get()
    return clock.at if clock is not None else None


log = logging.getLogger("dineri.writer")
T = TypeVar("T")
MAX_BATCH = 256  # writes committed together at most


class Unavailable(Exception):
    """The database did not answer a write within the timeout: the write was not applied,
    or (a stall during the commit itself) its outcome is unknown to this process until it
    reads the table again."""


@dataclass
class _Write(Generic[T]):
    fn: Callable[[Session], T]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[T]
    deadline: float  # time.monotonic()
    queued: float  # time.monotonic()


class Writer:
    """The single writer thread of one database (start with :meth:`start`).

    ``timeout``: seconds a caller waits for its write's commit before :class:`Unavailable`.
    """

    def __init__(self, sm: sessionmaker[Session], *, timeout: float = 5.0) -> None:
        self.sm = sm
        self.timeout = timeout
        self._queue: queue.SimpleQueue[_Write[Any] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._busy_since: float | None = None  # when the write or commit in progress began
        # When a caller last got its commit, and last got "the database is away" (/readyz).
        self._ok_at: float | None = None
        self._failed_at: float | None = None
        self.commits = 0  # transactions committed (groups), for benchmarks and tests
        self.writes = 0  # writes committed

    def start(self) -> None:
        """Start the thread (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="dineri-writer", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Commit what is queued, then stop the thread."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout)
            self._thread = None

    def stalled(self) -> bool:
        """True when a write has been in progress for longer than the timeout (``/readyz``)."""
        since = self._busy_since
        return since is not None and time.monotonic() - since > self.timeout

    def suspect(self) -> bool:
        """True when the last write refused for the database (timeout, lock or statement
        timeout, connection lost) came after the last commit: ``/readyz`` then probes through
        this writer, since a read probe alone said "ok" while every write was refused
        (adversarial pass)."""
        failed = self._failed_at
        return failed is not None and (self._ok_at is None or self._ok_at < failed)

    def refused(self) -> None:
        """A write of this database failed outside this writer (a REST write on a worker thread
        met a locked, read-only or stalled database): :meth:`suspect` until a write commits, as
        for the writer's own (adversarial re-check: ``/readyz`` said 200 while REST writes
        failed)."""
        self._failed_at = time.monotonic()

    async def run(self, fn: Callable[[Session], T]) -> T:
        """Queue ``fn`` and return its value once its transaction committed. Raises what
        ``fn`` raised (nothing of it stored), or :class:`Unavailable` after the timeout."""
        if self._thread is None:
            self.start()
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        now = time.monotonic()
        deadline = now + self.timeout
        by = answer_by()  # an HTTP request's: never commit after it was answered
        if by is not None and by < deadline:
            deadline = by
        self._queue.put(_Write(fn, loop, fut, deadline, now))
        # A timer instead of wait_for(shield(...)): one future and one handle per write (every
        # action). The thread never resolves a future that is done (timed out, cancelled).
        timer = loop.call_later(max(0.0, deadline - now), _time_out, fut)
        try:
            value = await fut
        except _TimedOut:
            self._failed_at = time.monotonic()
            raise Unavailable(f"the database did not answer within {self.timeout:g} s") from None
        except (Unavailable, OperationalError):
            self._failed_at = time.monotonic()
            raise
        finally:
            timer.cancel()
        self._ok_at = time.monotonic()
        return value

    # --- the thread ----------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch: list[_Write[Any]] = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._commit_group(batch)
            if stop:
                return

    def _commit_group(self, batch: list[_Write[Any]]) -> None:
        live = [w for w in batch if not self._expired(w)]
        if not live:
            return
        self._busy_since = time.monotonic()
        try:
            values: list[Any] = []
            failed = False  # a write raised (else: the commit itself failed)
            try:
                with self.sm.begin() as s:
                    try:
                        values = _apply(s, live)
                    except Exception:
                        failed = True
                        raise
                    if any(self._expired(w) for w in live):  # a caller gave up: commit nothing
                        failed = True
                        raise _Retry
            except _Retry:
                pass
            except Exception:
                if not failed:  # the commit itself failed (database away): every write failed
                    log.exception("group commit failed", extra={"writes": len(live)})
                    for w in live:
                        self._fail(w, Unavailable("the database refused the commit"))
                    return
            if not failed:
                self.commits += 1
                self.writes += len(live)
                _resolve_all(live, values)
                return
            for w in live:  # one write failed: each alone, so the others still commit
                self._commit_alone(w)
        finally:
            self._busy_since = None

    def _commit_alone(self, w: _Write[Any]) -> None:
        if self._expired(w):
            return
        try:
            with self.sm.begin() as s:
                value = w.fn(s)
                if self._expired(w):
                    raise _Retry
        except _Retry:
            return
        except Exception as e:
            self._fail(w, e)
            return
        self.commits += 1
        self.writes += 1
        self._resolve(w, value)

    def _expired(self, w: _Write[Any]) -> bool:
        if time.monotonic() <= w.deadline:
            return False
        self._fail(w, Unavailable("the database did not answer in time"))
        return True

    @staticmethod
    def _resolve(w: _Write[Any], value: Any) -> None:
        def done() -> None:
            if not w.future.done():
                w.future.set_result(value)
        _call(w.loop, done)

    @staticmethod
    def _fail(w: _Write[Any], error: BaseException) -> None:
        def done() -> None:
            if not w.future.done():
                w.future.set_exception(error)
        _call(w.loop, done)


def _apply(s: Session, writes: list[_Write[Any]]) -> list[Any]:
    """Run the writes in order; a run of consecutive writes of one class with a ``run_many``
    static method (``dineri.store.repo.Append``) goes to it at once (one executemany per
    statement for the run instead of statements per write). Returns each write's value."""
    values: list[Any] = []
    i = 0
    while i < len(writes):
        fn = writes[i].fn
        many = getattr(type(fn), "run_many", None)
        if many is None:
            values.append(fn(s))
            i += 1
            continue
        j = i + 1
        while j < len(writes) and type(writes[j].fn) is type(fn):
            j += 1
        values.extend(many(s, [w.fn for w in writes[i:j]]))
        i = j
    return values


def _resolve_all(writes: list[_Write[Any]], values: list[Any]) -> None:
    """Hand each committed write its value: one callback per event loop for the whole group
    (each ``call_soon_threadsafe`` wakes the loop through its self-pipe)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
    for w, v in zip(writes, values, strict=True):
        by_loop.setdefault(w.loop, []).append((w.future, v))

    for loop, pairs in by_loop.items():
        def done(pairs: list[tuple[asyncio.Future[Any], Any]] = pairs) -> None:
            for fut, v in pairs:
                if not fut.done():
                    fut.set_result(v)
        _call(loop, done)


def _time_out(fut: asyncio.Future[Any]) -> None:
    if not fut.done():
        fut.set_exception(_TimedOut())


class _TimedOut(Exception):
    """A caller's wait for its write ran out (raised to it as :class:`Unavailable`)."""


def _call(loop: asyncio.AbstractEventLoop, fn: Callable[[], None]) -> None:
    with contextlib.suppress(RuntimeError):  # the caller's loop is closed (shutdown): nobody to tell
        loop.call_soon_threadsafe(fn)


class _Retry(Exception):
    """Roll the group back (a write expired before the commit)."""
