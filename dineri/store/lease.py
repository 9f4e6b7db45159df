"""Table ownership (issue 8 item 3, issue 9 item 1): one lease row per table in the database.

A table is written by one process at a time: its owner. The owner takes the lease once, when it
loads the table (:func:`take`), renews every lease it holds in the background with one
statement (:func:`renew`), and every write of the table's events is conditioned on the lease's
fencing number (``repo.claim_seqs``: its one UPDATE requires the lease row with the writer's
owner and fence): once another process took the lease, a stale owner's write changes nothing and
fails. Taking a lease bumps ``fence``, so a takeover always invalidates the previous owner, even
one that is only paused.

A lease whose ``expires_at`` passed belongs to nobody alive: any process may take it (its
owner died or lost the database). A process takes back its own lease at once (``owner`` equal:
the same node restarted, e.g. after a SIGKILL), so a single-process site restarts without
waiting for its leases to run out. Owners are node names (``DINERI_NODE``: unique per process
of a site; ``dineri serve`` defaults it to ``host:port``).

Times are timezone-aware UTC datetimes; ``ttl`` in seconds. None of these functions commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from dineri.store.models import TableLease, utcnow


@dataclass(frozen=True)
class Lease:
    """A table's lease as stored: ``owner`` (node name), ``fence`` (bumped at every take),
    ``expires_at`` (UTC)."""

    table_id: str
    owner: str
    fence: int
    expires_at: datetime

    def alive(self, now: datetime | None = None) -> bool:
        """True while the lease has not expired."""
        return _aware(self.expires_at) > (now or utcnow())


def _aware(t: datetime) -> datetime:
    from datetime import UTC

    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)  # SQLite gives naive UTC


# The statements of every table's take, release and renewal, built once with bound parameters:
# built per call, SQLAlchemy's expression objects (bind parameters, comparators, anonymous
# labels) were reference cycles, garbage at every start and end of a match for the collector
# (issue 8 item 5: cyclic garbage frozen alive is never freed).
_TAKE = (update(TableLease)
         .where(TableLease.table_id == bindparam("l_table"),
                or_(TableLease.owner == bindparam("l_owner"), TableLease.expires_at <= bindparam("l_now")))
         .values(owner=bindparam("l_owner"), fence=TableLease.fence + 1, expires_at=bindparam("l_until"))
         .returning(TableLease.fence).execution_options(synchronize_session=False))
_FIRST = insert(TableLease).values(table_id=bindparam("l_table"), owner=bindparam("l_owner"), fence=1,
                                  expires_at=bindparam("l_until"))
_RENEW = (update(TableLease)
          .where(TableLease.owner == bindparam("l_owner"), TableLease.expires_at > bindparam("l_now"))
          .values(expires_at=bindparam("l_until"))
          .returning(TableLease.table_id, TableLease.fence).execution_options(synchronize_session=False))
_RELEASE = (update(TableLease)
            .where(TableLease.table_id == bindparam("l_table"), TableLease.owner == bindparam("l_owner"),
                   TableLease.fence == bindparam("l_fence"))
            .values(expires_at=bindparam("l_now")).execution_options(synchronize_session=False))


def get(s: Session, table_id: str) -> Lease | None:
    """The stored lease of ``table_id``, or ``None`` (never taken)."""
    row = s.get(TableLease, table_id)
    if row is None:
        return None
    return Lease(row.table_id, row.owner, row.fence, _aware(row.expires_at))


def take(s: Session, table_id: str, owner: str, ttl: float, *, now: datetime | None = None) -> int | None:
    """Take the lease of ``table_id`` for ``owner`` for ``ttl`` seconds: when nobody holds it,
    it expired, or ``owner`` holds it already. Returns the new fencing number (bumped: any
    write conditioned on an older one now fails), or ``None`` when another owner's lease is
    alive (nothing changed). One conditional UPDATE (an INSERT the first time)."""
    now = now or utcnow()
    until = now + timedelta(seconds=ttl)
    got = s.execute(_TAKE, {"l_table": table_id, "l_owner": owner, "l_now": now,
                            "l_until": until}).scalar_one_or_none()
    if got is not None:
        return int(got)
    if s.get(TableLease, table_id) is not None:
        return None  # another owner's live lease
    try:
        with s.begin_nested():
            s.execute(_FIRST, {"l_table": table_id, "l_owner": owner, "l_until": until})
    except IntegrityError:  # another process inserted it first: theirs now
        return None
    return 1


def renew(s: Session, owner: str, ttl: float, *, now: datetime | None = None) -> dict[str, int]:
    """Extend every lease ``owner`` still holds, and that has not run out or been released, by
    ``ttl`` seconds from now (one UPDATE). Returns ``table id -> fence`` of those leases: a table
    missing from it was taken over (or its lease ran out: take it again). Released leases (a
    finished match, a clean stop) stay released, so the renewal covers the live tables only,
    not every table the node ever owned."""
    now = now or utcnow()
    rows = s.execute(_RENEW, {"l_owner": owner, "l_now": now, "l_until": now + timedelta(seconds=ttl)})
    return {str(t): int(f) for t, f in rows}


def release(s: Session, table_id: str, owner: str, fence: int) -> bool:
    """Give the lease up (its table is over, or the process stops): it expires now, so any
    process may take it at once. ``False`` when it was not ``owner``'s with ``fence``."""
    result: Any = s.execute(_RELEASE, {"l_table": table_id, "l_owner": owner, "l_fence": fence,
                                       "l_now": utcnow()})
    return bool(result.rowcount)


def release_all(s: Session, owner: str) -> int:
    """Give up every lease of ``owner`` (a clean stop): other processes may take them at once."""
    q = (update(TableLease).where(TableLease.owner == owner).values(expires_at=utcnow())
         .execution_options(synchronize_session=False))
    result: Any = s.execute(q)
    return int(result.rowcount or 0)


def expired(s: Session, *, now: datetime | None = None, limit: int = 500) -> list[Lease]:
    """Leases that ran out (their owner is gone or lost the database), oldest first: the
    tables a takeover sweep may load."""
    now = now or utcnow()
    q = (select(TableLease).where(TableLease.expires_at <= now).order_by(TableLease.expires_at)
         .limit(limit))
    return [Lease(r.table_id, r.owner, r.fence, _aware(r.expires_at)) for r in s.execute(q).scalars()]


def forget(s: Session, table_id: str) -> None:
    """Delete the lease row of ``table_id`` (tests, cleanup)."""
    s.execute(delete(TableLease).where(TableLease.table_id == table_id))
