"""Tables of accounts, ratings and moderation (issue 14; migration 0003).

An account is attached to an existing guest ``players`` row: claiming keeps the player id, so
every match the guest played stays theirs. Registered on :class:`dineri.store.models.Base`'s
metadata (imported at the end of ``dineri.store.models``).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from dineri.store.models import Base, utcnow


class Account(Base):
    """A claimed player: unique username (``username_key`` is its confusable skeleton, so two
    names that look alike cannot both exist), Argon2id hash, privacy and ban."""

    __tablename__ = "accounts"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    username: Mapped[str] = mapped_column(String(24))
    username_key: Mapped[str] = mapped_column(String(96), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    banned_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Base):
    """A player's Glicko-2 rating in one mode (``chkobba-1v1``, ``chkobba-2v2``, ``golf4``,
    ``seven_diamonds``): rating and RD on the Glicko scale, volatility, rated matches played."""

    __tablename__ = "ratings"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    vol: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RatingChange(Base):
    """One rated match's effect on one player: rating before and after (player page)."""

    __tablename__ = "rating_changes"
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(32))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    rd_after: Mapped[float] = mapped_column(Float)


class RatedTable(Base):
    """A table the host marked rated (before the start) or a quick-match table between accounts."""

    __tablename__ = "rated_tables"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)


class Mute(Base):
    """``player_id`` does not want to see ``muted_id``'s chat lines."""

    __tablename__ = "mutes"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    muted_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)


class Moderation(Base):
    """An admin's action on an account (``rename``, ``ban``, ``unban``) and why."""

    __tablename__ = "moderation"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(Text)
    detail: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
