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

On a SQLite file in WAL mode with ``synchronous=NORMAL`` (the default: a commit writes the WAL
into the operating system's cache, no fsync), a group of plain actions only (writes whose class
also has a static ``run_raw(cursor, dialect, writes) -> values``) is committed on the event loop
itself, at the loop's next turn after the first of them was queued, on a connection of its own
(:class:`_Inline`): such a commit costs tens of microseconds, less than handing the group to the
thread and its answer back (a wake-up of the thread, the GIL passed twice, a wake-up of the loop;
issue 8: about a fifth of the server's time at a few hundred actions a second). The promise is
the same: the caller hears back after the commit. That connection never waits for the file's lock
(``busy_timeout`` 0) and never checkpoints (``wal_autocheckpoint`` 0: a checkpoint fsyncs). While
the thread commits a group of its own (it holds the file's lock), plain actions wait on the loop
for its end and are committed there then (handing them to the thread kept it busy, and then every
later group went there too); when the lock is taken by another connection, or anything fails, the
transaction is rolled back and the group goes to the thread as any other write (nothing of it
committed); the thread
runs a passive checkpoint every :data:`CHECKPOINT_EVERY` loop commits, so the WAL stays bounded.
With ``synchronous=FULL`` (an fsync per commit) or PostgreSQL (a network round trip) every write
goes to the thread. On PostgreSQL the thread runs a group of plain actions only through the same
raw statements on a connection of its own (:class:`_Raw`: no Session, no pool checkout); when
anything fails before its COMMIT, the group is rolled back and run as any other.

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
import sqlite3
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
CHECKPOINT_EVERY = 200  # commits on the loop between two passive WAL checkpoints on the thread


class Unavailable(Exception):
    """The database did not answer a write within the timeout: the write was not applied,
    or (a stall during the commit itself) its outcome is unknown to this process until it
    reads the table again."""


@dataclass(slots=True)
class _Write(Generic[T]):
    fn: Callable[[Session], T]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[T]
    deadline: float  # time.monotonic()
    queued: float  # time.monotonic()
    timer: asyncio.TimerHandle | None = None  # the caller's timeout, once the write is queued


class _Checkpoint:
    """A queue item: run a passive WAL checkpoint (after commits on the loop)."""


_CHECKPOINT = _Checkpoint()


class Writer:
    """The single writer thread of one database (start with :meth:`start`).

    ``timeout``: seconds a caller waits for its write's commit before :class:`Unavailable`.
    ``on_loop``: commit groups of plain actions on the event loop when the database allows it
    (a SQLite file, WAL, ``synchronous=NORMAL``: :class:`_Inline`); ``False``: always the thread.
    """

    def __init__(self, sm: sessionmaker[Session], *, timeout: float = 5.0, on_loop: bool = True,
                 delay: float = 0.0) -> None:
        self.sm = sm
        self.timeout = timeout
        # Seconds a loop group waits for more while busy (the last loop commit less than twice
        # that ago): bigger groups, fewer commits and WAL frames per action; 0: the next turn.
        self.delay = delay
        self._last_flush = 0.0
        self._queue: queue.SimpleQueue[_Write[Any] | _Checkpoint | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._busy_since: float | None = None  # when the write or commit in progress began
        # When a caller last got its commit, and last got "the database is away" (/readyz).
        self._ok_at: float | None = None
        self._failed_at: float | None = None
        self.commits = 0  # transactions committed (groups), for benchmarks and tests
        self.writes = 0  # writes committed
        self.loop_commits = 0  # of those, committed on the event loop (_Inline)
        self.loop_writes = 0  # writes of those
        self.raw_commits = 0  # of those, committed by the thread on its raw connection (_Raw)
        # Plain actions waiting for the loop's next turn (committed there: _flush).
        self._pending: list[_Write[Any]] = []
        # The loop waits for the thread's group to end (_flush deferred): the thread then wakes it.
        self._waiting: asyncio.AbstractEventLoop | None = None
        self._defer_timer: asyncio.TimerHandle | None = None  # the earliest waiting deadline
        self._inline = _Inline(sm) if on_loop and _Inline.may(sm) else None
        self._raw = _Raw(sm) if _Raw.may(sm) else None
        self._since_checkpoint = 0

    def start(self) -> None:
        """Start the thread (idempotent)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="dineri-writer", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Commit what is queued, then stop the thread."""
        pending, self._pending = self._pending, []
        if self._defer_timer is not None:
            self._defer_timer.cancel()
            self._defer_timer = None
        self._waiting = None
        if pending:  # not flushed by the loop (it is stopping): the thread commits them
            self.start()
            for w in pending:
                self._queue.put(w)
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout)
            self._thread = None
        if self._inline is not None:
            self._inline.close()
        if self._raw is not None:
            self._raw.close()

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
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        now = time.monotonic()
        deadline = now + self.timeout
        by = answer_by()  # an HTTP request's: never commit after it was answered
        if by is not None and by < deadline:
            deadline = by
        w = _Write(fn, loop, fut, deadline, now)
        if self._inline is not None and hasattr(type(fn), "run_raw"):
            # A plain action: committed at the loop's next turn with the others queued meanwhile
            # (_flush), or handed to the thread from there. No timer unless it is handed on.
            self._pending.append(w)
            if len(self._pending) == 1:
                if self.delay > 0 and now - self._last_flush < 2 * self.delay:
                    loop.call_later(self.delay, self._flush)
                else:
                    loop.call_soon(self._flush)
        else:
            self._hand_off(w, now)
        try:
            value = await fut
        except _TimedOut:
            self._failed_at = time.monotonic()
            raise Unavailable(f"the database did not answer within {self.timeout:g} s") from None
        except (Unavailable, OperationalError):
            self._failed_at = time.monotonic()
            raise
        finally:
            if w.timer is not None:
                w.timer.cancel()
        self._ok_at = time.monotonic()
        return value

    def _hand_off(self, w: _Write[Any], now: float) -> None:
        """Queue ``w`` for the thread, with its caller's timeout."""
        if self._thread is None:
            self.start()
        self._queue.put(w)
        # A timer instead of wait_for(shield(...)): one future and one handle per write (every
        # action). The thread never resolves a future that is done (timed out, cancelled).
        w.timer = w.loop.call_later(max(0.0, w.deadline - now), _time_out, w.future)

    def _flush(self) -> None:
        """The loop's turn after plain actions were queued: commit them here, in one
        transaction (:class:`_Inline`), or hand them to the thread when it is busy (a group in
        progress holds the file's lock) or the commit here failed (rolled back: nothing of
        them committed; the thread retries each alone if need be)."""
        batch, self._pending = self._pending, []
        self._last_flush = time.monotonic()
        if self._defer_timer is not None:
            self._defer_timer.cancel()
            self._defer_timer = None
        now = time.monotonic()
        live: list[_Write[Any]] = []
        for w in batch:
            if w.future.done():  # its caller is gone (cancelled)
                continue
            if now > w.deadline:
                w.future.set_exception(Unavailable("the database did not answer in time"))
                continue
            live.append(w)
        if not live:
            self._waiting = None
            return
        inline = self._inline
        # While the thread commits a group it holds the file's lock: no try here then, but no
        # hand-off either: the group waits on the loop until the thread's ends (the thread wakes
        # the loop, _end_group). Handed to the thread, plain actions kept it busy, and every
        # group after them went there too (the thread's slower path: under load 12 of 6,234
        # commits were the loop's). Writes queued for the thread but not begun do not matter
        # (another table's; a table's own writes wait for each other), nor does a checkpoint
        # (passive: it takes no writer's lock). Flag first, then look: the thread clears
        # ``_busy_since`` first, then looks at the flag, so one of the two always sees the other.
        if inline is not None and not inline.disabled:
            loop = live[0].loop
            self._waiting = loop
            if self._busy_since is not None:
                self._pending = live + self._pending
                # A thread stuck on a stalled database: the writes still fail at their deadline.
                first = min(w.deadline for w in live)
                self._defer_timer = loop.call_later(max(0.0, first - now), self._flush)
                return
            self._waiting = None
        if inline is not None and self._busy_since is None:
            values = inline.commit([w.fn for w in live])
            if values is not None:
                self.commits += 1
                self.writes += len(live)
                self.loop_commits += 1
                self.loop_writes += len(live)
                for w, v in zip(live, values, strict=True):
                    if not w.future.done():
                        w.future.set_result(v)
                self._since_checkpoint += 1
                if self._since_checkpoint >= CHECKPOINT_EVERY:
                    self._since_checkpoint = 0
                    if self._thread is None:
                        self.start()
                    self._queue.put(_CHECKPOINT)
                return
        for w in live:
            self._hand_off(w, now)

    # --- the thread ----------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            if isinstance(first, _Checkpoint):
                self._checkpoint()
                continue
            batch: list[_Write[Any]] = [first]
            stop = checkpoint = False
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                if isinstance(item, _Checkpoint):
                    checkpoint = True
                    continue
                batch.append(item)
            self._commit_group(batch)
            if checkpoint:
                self._checkpoint()
            if stop:
                return

    def _checkpoint(self) -> None:
        """A passive WAL checkpoint (the loop's commits never run one: it fsyncs). Passive: it
        copies what no reader still needs and waits for nobody; the next one does the rest."""
        try:
            with self.sm.kw["bind"].connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception as e:  # the next one tries again; the WAL only grows meanwhile
            log.warning("WAL checkpoint failed", extra={"error": repr(e)})

    def _commit_group(self, batch: list[_Write[Any]]) -> None:
        live = [w for w in batch if not self._expired(w)]
        if not live:
            return
        self._busy_since = time.monotonic()
        try:
            raw = self._raw
            if raw is not None and _plain(live):
                try:
                    done = raw.commit([w.fn for w in live], lambda: not any(self._expired(w) for w in live))
                except _CommitFailed:  # outcome unknown: refused, as a failed commit below
                    for w in live:
                        self._fail(w, Unavailable("the database refused the commit"))
                    return
                if done is not None:
                    self.commits += 1
                    self.raw_commits += 1
                    self.writes += len(live)
                    _resolve_all(live, done)
                    return
                # Rolled back, nothing of it committed: today's path (a Session, each alone if
                # one write fails) answers the writes still live.
                live = [w for w in live if not self._expired(w)]
                if not live:
                    return
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
            self._end_group()

    def _end_group(self) -> None:
        """The thread's group is over: the file's lock is free; wake the loop if plain actions
        wait for it (see :meth:`_flush`: clear first, then look)."""
        self._busy_since = None
        loop = self._waiting
        if loop is not None:
            self._waiting = None
            _call(loop, self._flush)

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


class _Inline:
    """The event loop's own connection to a SQLite file (WAL, ``synchronous=NORMAL``), for
    groups of plain actions (``run_raw``): the transaction runs on the raw ``sqlite3``
    connection (``BEGIN IMMEDIATE`` … ``COMMIT``), which never waits for the file's lock and
    never checkpoints. Opened on first use with the engine's own settings (its ``connect``
    hooks: foreign keys, WAL, synchronous), then kept."""

    RETRY_OPEN = 1.0  # seconds between tries to open the connection after it failed

    def __init__(self, sm: sessionmaker[Session]) -> None:
        self.engine = sm.kw["bind"]
        self.dialect = self.engine.dialect
        self._fairy: Any = None  # the pool's wrapper, detached: the connection is ours alone
        self._conn: Any = None  # the sqlite3 connection
        self._cur: Any = None
        self._open_after = 0.0
        self.disabled = False  # the file turned out not to be WAL with synchronous NORMAL

    @staticmethod
    def may(sm: sessionmaker[Session]) -> bool:
        """Whether ``sm``'s engine is a SQLite file (an in-memory database is one connection's
        own: another connection would see another database)."""
        engine = sm.kw.get("bind")
        if engine is None or getattr(engine, "dialect", None) is None or engine.dialect.name != "sqlite":
            return False
        database = engine.url.database
        return bool(database) and ":memory:" not in str(engine.url) and "mode=memory" not in str(engine.url)

    def _open(self) -> bool:
        if self._cur is not None:
            return True
        if self.disabled or time.monotonic() < self._open_after:
            return False
        try:
            fairy = self.engine.raw_connection()
            conn = fairy.driver_connection
            fairy.detach()  # ours alone from now on: never handed to another caller
            conn.isolation_level = None  # no implicit BEGIN: this class says BEGIN and COMMIT
            cur = conn.cursor()
            cur.execute("PRAGMA busy_timeout=0")
            cur.execute("PRAGMA wal_autocheckpoint=0")
            mode = str(cur.execute("PRAGMA journal_mode").fetchone()[0]).lower()
            sync = int(cur.execute("PRAGMA synchronous").fetchone()[0])
        except Exception as e:
            log.warning("no commits on the event loop for now", extra={"error": repr(e)})
            self._open_after = time.monotonic() + self.RETRY_OPEN
            return False
        if mode != "wal" or sync > 1:  # an fsync per commit (FULL) would stall the loop: the thread
            self.disabled = True
            with contextlib.suppress(Exception):
                fairy.close()
            return False
        self._fairy, self._conn, self._cur = fairy, conn, cur
        return True

    def commit(self, writes: list[Any]) -> list[Any] | None:
        """Run ``writes`` (all of one ``run_raw`` class) in one transaction and commit; their
        values, or ``None`` when nothing was committed (the lock is taken, or anything failed:
        rolled back; the caller hands them to the thread)."""
        if not self._open():
            return None
        cur = self._cur
        try:
            cur.execute("BEGIN IMMEDIATE")
        except Exception as e:
            if "locked" not in str(e) and "busy" not in str(e):
                self._drop(e)
            return None
        try:
            values = type(writes[0]).run_raw(cur, self.dialect, writes)
            cur.execute("COMMIT")
        except Exception as e:
            try:
                if self._conn.in_transaction:
                    cur.execute("ROLLBACK")
            except Exception as again:
                self._drop(again)
                return None
            if isinstance(e, sqlite3.OperationalError) and "locked" not in str(e):
                self._drop(e)  # read-only, I/O: a fresh connection later (the thread answers now)
            return None
        return list(values)

    def _drop(self, error: BaseException) -> None:
        log.warning("the event loop's connection failed; the writer thread commits for now",
                    extra={"error": repr(error)})
        self.close()
        self._open_after = time.monotonic() + self.RETRY_OPEN

    def close(self) -> None:
        """Close the connection (it is opened again at the next commit)."""
        fairy, self._fairy, self._conn, self._cur = self._fairy, None, None, None
        if fairy is not None:
            with contextlib.suppress(Exception):
                fairy.close()


def _plain(writes: list[_Write[Any]]) -> bool:
    """Whether ``writes`` are all of one class with a ``run_raw`` (plain actions)."""
    cls = type(writes[0].fn)
    return hasattr(cls, "run_raw") and all(type(w.fn) is cls for w in writes)


class _CommitFailed(Exception):
    """The COMMIT itself failed on :class:`_Raw`'s connection: the group's outcome is unknown."""


class _Raw:
    """The writer thread's own PostgreSQL connection for groups of plain actions (``run_raw``,
    issue 8): the group's statements run as executemany on the raw psycopg connection, in one
    transaction, without a SQLAlchemy Session and without a pool checkout (whose
    ``pool_pre_ping`` costs a ``SELECT 1`` round trip per transaction). The same statements and
    the same fence: ``run_raw`` runs what ``run_many`` runs (the lease and numbering claim, whose
    row count refuses a write that lost its lease or numbers; the unique keys of events and
    actions, so the same action is stored once). Opened on first use from the engine (its
    connect arguments: ``statement_timeout``), then kept, detached from the pool (the thread
    is its only user). Whatever fails before the COMMIT is rolled back and the connection, if
    broken, dropped: the writer then runs the group as before (nothing of it was committed, so
    running it again cannot apply anything twice). A failed COMMIT is :class:`_CommitFailed`."""

    RETRY_OPEN = 1.0  # seconds between tries to open the connection after it failed

    def __init__(self, sm: sessionmaker[Session]) -> None:
        self.engine = sm.kw["bind"]
        self.dialect = self.engine.dialect
        self._fairy: Any = None  # the pool's wrapper, detached
        self._conn: Any = None  # the psycopg connection
        self._open_after = 0.0

    @staticmethod
    def may(sm: sessionmaker[Session]) -> bool:
        """Whether ``sm``'s engine is PostgreSQL through psycopg 3."""
        engine = sm.kw.get("bind")
        dialect = getattr(engine, "dialect", None)
        return dialect is not None and dialect.name == "postgresql" and dialect.driver == "psycopg"

    def _open(self) -> bool:
        if self._conn is not None:
            return True
        if time.monotonic() < self._open_after:
            return False
        try:
            fairy = self.engine.raw_connection()
            conn = fairy.driver_connection
            fairy.detach()  # ours alone from now on
            if conn.info.transaction_status != 0:  # not idle: should not happen (pool reset)
                conn.rollback()
            conn.autocommit = False  # the first statement begins the transaction
        except Exception as e:
            log.warning("no raw group commits for now", extra={"error": repr(e)})
            self._open_after = time.monotonic() + self.RETRY_OPEN
            return False
        self._fairy, self._conn = fairy, conn
        return True

    def commit(self, writes: list[Any], still: Callable[[], bool]) -> list[Any] | None:
        """Run ``writes`` (all of one ``run_raw`` class) in one transaction and, if ``still()``
        (no caller gave up), commit; their values, or ``None`` when nothing was committed
        (rolled back). Raises :class:`_CommitFailed` when the COMMIT failed (outcome unknown)."""
        if not self._open():
            return None
        conn = self._conn
        try:
            with conn.cursor() as cur:
                values = type(writes[0]).run_raw(cur, self.dialect, writes)
            if not still():
                conn.rollback()
                return None
        except Exception as e:
            try:
                conn.rollback()
            except Exception:
                self._drop(e)
                return None
            if conn.broken:
                self._drop(e)
            return None
        try:
            conn.commit()
        except Exception as e:
            log.exception("group commit failed", extra={"writes": len(writes)})
            self._drop(e)
            raise _CommitFailed from e
        return list(values)

    def _drop(self, error: BaseException) -> None:
        log.warning("the writer's raw connection failed; a fresh one later",
                    extra={"error": repr(error)})
        self.close()
        self._open_after = time.monotonic() + self.RETRY_OPEN

    def close(self) -> None:
        """Close the connection (it is opened again at the next group)."""
        fairy, self._fairy, self._conn = self._fairy, None, None
        if fairy is not None:
            with contextlib.suppress(Exception):
                fairy.close()  # detached: closes the psycopg connection


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
