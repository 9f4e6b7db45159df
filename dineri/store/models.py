"""SQLAlchemy 2 typed models of what the server stores (issue 3, item 6).

Records, views and events are kept as JSON text the store never looks inside.
Constraint names follow :data:`NAMING` so Alembic migrations are stable.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, MetaData, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base with the naming convention."""

    metadata = MetaData(naming_convention=NAMING)


class Player(Base):
    """A guest identity: a display name behind a signed token."""

    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Tokens carry the version they were issued with; bumping it revokes them all (migration 0002).
    token_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Table(Base):
    """A table: its options (JSON text), privacy, clock, host and status (open/playing/over).

    ``next_seq`` is the number the table's next event will get (events start at 1).
    """

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(64), unique=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[str] = mapped_column(Text)
    public: Mapped[bool] = mapped_column(Boolean)
    clock: Mapped[int] = mapped_column(Integer, default=0)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    next_seq: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The last seat taken or freed (null: none since the creation); open tables expire from it.
    seats_changed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The rematch table of a finished table: set once, by a conditional update, so processes
    # racing to create it agree on one (issue 9, migration 0004).
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # When a match in progress next needs its owner loaded (a clock or a grace period runs out;
    # issue 8 item 6): set with every action's write, polled by the service (null: at once).
    due_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)
    # A keyed hash of the address that created the table (dineri.server.addresses; never the
    # address itself), kept while the table is open: the lobby lists a few tables per address
    # (issue 7 item 6, migration 0006). Null: created without one (quick matches, before 0006).
    creator_key: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The same for the creating address's wider network (an IPv6 /48; an IPv4 address itself):
    # the lobby lists a few tables per network too (issue 7 item 6, migration 0007). Null:
    # created without one (before 0007): no network cap.
    creator_net_key: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # Until when the host is known to have a socket at the table (presence for the lobby,
    # issue 7 item 6: dineri/server/lobbyhosts.py): pushed forward while the host is connected
    # to some process, set to the moment the host's last socket there closed. Null: the host
    # never connected (the lobby counts from ``created_at``). Migration 0008.
    host_here_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Seat(Base):
    """A seated player (one row per taken seat)."""

    __tablename__ = "seats"
    # One player holds at most one seat of a table, whichever process seats them (issue 9).
    __table_args__ = (UniqueConstraint("table_id", "player_id", name="uq_seats_table_player"),)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)


class Removal(Base):
    """A player the host removed from an open table: a rematch request never seats them there
    again, on any process, after any restart (issue 7 item 10, issue 9 item 3)."""

    __tablename__ = "removals"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)


class Match(Base):
    """A match of a table, with its full record document (JSON text) kept up to date."""

    __tablename__ = "matches"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    record: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ActionLog(Base):
    """One accepted action: its index in the record, seat, client id, JSON and the ack's ``seq``."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("match_id", "idx", name="uq_actions_match_idx"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    idx: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    client_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    action: Mapped[str] = mapped_column(Text)
    auto: Mapped[bool] = mapped_column(Boolean, default=False)
    ack_seq: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EventLog(Base):
    """A numbered table event (public JSON), kept so reconnecting clients get what they missed."""

    __tablename__ = "events"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    event: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RoundResult(Base):
    """A finished round's result (the game's JSON) with each side's points."""

    __tablename__ = "round_results"
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    result: Mapped[str] = mapped_column(Text)


class MatchResult(Base):
    """A finished match: the winning side, why, and the game's result JSON."""

    __tablename__ = "results"
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str] = mapped_column(String(16))
    result: Mapped[str] = mapped_column(Text)
    ended_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableLease(Base):
    """A table's owner (issue 8 item 3, issue 9 item 1; :mod:`dineri.store.lease`): the node
    that may write it, the fencing number every write checks, and when the lease runs out."""

    __tablename__ = "table_leases"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(128), index=True)
    fence: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


# The account tables (issue 14) live in their own module on the same metadata.
from dineri.accounts import models as _accounts  # noqa: E402,F401
