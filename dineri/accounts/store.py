"""Account storage over a SQLAlchemy session (issue 14). Like ``dineri.store.repo``, nothing
here commits: the caller owns the transaction.
"""

from __future__ import annotations

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from dineri.accounts.models import Account, Moderation, Mute, RatedTable, Rating
from dineri.accounts.names import DELETED_NAME, name_key
from dineri.store.models import Player, utcnow


class AccountError(Exception):
    """A refused account operation: ``code`` (``taken``, ``already_claimed``, ``not_found``…)
    and an HTTP ``status``."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def by_username(s: Session, username: str) -> Account | None:
    """The account whose username looks like ``username`` (same :func:`name_key`), or ``None``."""
    return s.execute(select(Account).where(Account.username_key == name_key(username))).scalar_one_or_none()


def get(s: Session, player_id: str) -> Account | None:
    """The account of ``player_id`` (``None``: a guest)."""
    return s.get(Account, player_id)


def claim(s: Session, player_id: str, username: str, password_hash: str) -> Account:
    """Attach an account to the guest ``player_id`` (its matches stay its own, same id); its
    display name becomes ``username``. Raises ``already_claimed``, ``taken``, ``not_found``."""
    player = s.get(Player, player_id, with_for_update=True)
    if player is None:
        raise AccountError("not_found", "no such player", 404)
    if s.get(Account, player_id) is not None:
        raise AccountError("already_claimed", "this player already has an account")
    if by_username(s, username) is not None:
        raise AccountError("taken", "this username (or one that looks like it) is taken")
    account = Account(player_id=player_id, username=username, username_key=name_key(username),
                      password_hash=password_hash, hidden=False, created_at=utcnow())
    s.add(account)
    player.name = username
    s.flush()
    return account


def set_password(s: Session, account: Account, password_hash: str) -> None:
    """Store a new hash and revoke every token issued before (``token_version`` + 1)."""
    account.password_hash = password_hash
    revoke_tokens(s, account.player_id)


def revoke_tokens(s: Session, player_id: str) -> None:
    """Bump the player's ``token_version``: tokens issued before stop being valid."""
    player = s.get(Player, player_id)
    if player is not None:
        player.token_version = (player.token_version or 0) + 1


def delete_account(s: Session, account: Account) -> None:
    """Delete an account: its player row stays (its matches stay) under the name
    :data:`DELETED_NAME`; ratings, mutes and the login go; tokens are revoked."""
    pid = account.player_id
    s.execute(delete(Rating).where(Rating.player_id == pid))
    s.execute(delete(Mute).where((Mute.player_id == pid) | (Mute.muted_id == pid)))
    s.delete(account)
    player = s.get(Player, pid)
    if player is not None:
        player.name = DELETED_NAME
    revoke_tokens(s, pid)
    s.flush()


def rename(s: Session, account: Account, username: str) -> None:
    """Give the account (and its player) a new username. Raises ``taken``."""
    other = by_username(s, username)
    if other is not None and other.player_id != account.player_id:
        raise AccountError("taken", "this username (or one that looks like it) is taken")
    account.username, account.username_key = username, name_key(username)
    player = s.get(Player, account.player_id)
    if player is not None:
        player.name = username
    s.flush()


def moderate(s: Session, player_id: str, action: str, reason: str, detail: str = "") -> None:
    """Log an admin's ``action`` on ``player_id`` with its ``reason``."""
    s.add(Moderation(player_id=player_id, action=action, reason=reason, detail=detail, created_at=utcnow()))


def moderation_log(s: Session, player_id: str) -> list[Moderation]:
    """The admin actions on ``player_id``, oldest first."""
    q = select(Moderation).where(Moderation.player_id == player_id).order_by(Moderation.id)
    return list(s.execute(q).scalars())


def mutes_of(s: Session, player_id: str) -> set[str]:
    """The players whose chat ``player_id`` muted."""
    return set(s.execute(select(Mute.muted_id).where(Mute.player_id == player_id)).scalars())


def set_mute(s: Session, player_id: str, muted_id: str, muted: bool) -> None:
    """Mute (or unmute) ``muted_id``'s chat for ``player_id``. Raises ``not_found``, ``malformed``."""
    if muted_id == player_id:
        raise AccountError("malformed", "you cannot mute yourself", 422)
    if s.get(Player, muted_id) is None:
        raise AccountError("not_found", "no such player", 404)
    have = s.get(Mute, (player_id, muted_id))
    if muted and have is None:
        s.add(Mute(player_id=player_id, muted_id=muted_id))
    elif not muted and have is not None:
        s.delete(have)
    s.flush()


def set_rated(s: Session, table_id: str, rated: bool) -> None:
    """Mark a table rated (or not)."""
    have = s.get(RatedTable, table_id)
    if rated and have is None:
        s.add(RatedTable(table_id=table_id))
    elif not rated and have is not None:
        s.delete(have)
    s.flush()


def is_rated(s: Session, table_id: str) -> bool:
    """Whether the table is marked rated."""
    return s.get(RatedTable, table_id) is not None


def leaderboard(s: Session, mode: str, limit: int = 100) -> list[tuple[Account, Rating]]:
    """The accounts rated in ``mode``, best first (hidden pages and banned accounts left out)."""
    q = (select(Account, Rating).join(Rating, Rating.player_id == Account.player_id)
         .where(Rating.mode == mode, Account.hidden.is_(False), Account.banned_reason.is_(None))
         .order_by(Rating.rating.desc(), Account.username).limit(limit))
    return [(row[0], row[1]) for row in s.execute(q)]


def ratings_of(s: Session, player_ids: list[str]) -> dict[str, dict[str, Rating]]:
    """``player id -> mode -> Rating`` for the given players."""
    out: dict[str, dict[str, Rating]] = {}
    if player_ids:
        for r in s.execute(select(Rating).where(Rating.player_id.in_(player_ids))).scalars():
            out.setdefault(r.player_id, {})[r.mode] = r
    return out


def count(s: Session) -> int:
    """How many accounts exist."""
    return int(s.execute(select(func.count()).select_from(Account)).scalar_one())
