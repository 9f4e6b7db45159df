"""Open sockets lose their player's rights with the token they were opened with (issue 7 item 11,
adversarial re-check: a revoked token kept full seat rights on the sockets already open).

A socket's identity is read once, at its handshake; after that nothing on the hot path reads the
database again (a per-action token check would cost a read per action). Instead:

- **Revocation** (``POST /admin/api/players/{id}/revoke``, ``dineri revoke-tokens``) publishes
  ``{"player": id, "version": v}`` on the fan-out channel :data:`CHANNEL` (Redis when several
  processes: every process hears it). Each process keeps its open table sockets by player, with
  the token version each was opened with, and closes those of the player opened with a version
  below ``v`` with :data:`CLOSE_REVOKED`. A socket opened with the new token is not touched.
- **Expiry**: each socket is closed with :data:`CLOSE_REVOKED` when the token it was opened with
  expires (a timer on the loop; a first-format token at ``DINERI_LEGACY_TOKENS_UNTIL``). The client
  reconnects with its renewed token (renewal: ``docs/protocol.md`` section 1).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger("dineri.ws")

CHANNEL = "revocations"
CLOSE_REVOKED = 4401  # the socket's token was revoked or expired: sign in / reconnect with a valid one


class Kickable(Protocol):
    def kick(self, code: int) -> None: ...


@dataclass(eq=False)
class Held:
    """One open socket of a player: its connection, the token version it was opened with and
    its expiry timer."""

    player_id: str
    version: int
    conn: Kickable
    timer: asyncio.TimerHandle | None = field(default=None)


class SocketTokens:
    """Per process: the open table sockets of identified players (see the module doc)."""

    def __init__(self) -> None:
        self._by_player: dict[str, set[Held]] = {}

    def add(self, player_id: str, version: int, expires_at: float | None, conn: Kickable) -> Held:
        """Register ``conn`` opened with a token of ``version`` that expires at ``expires_at``
        (Unix seconds; ``None``: never). Returns the handle for :meth:`remove`."""
        held = Held(player_id, version, conn)
        if expires_at is not None:
            delay = max(0.0, expires_at - time.time())
            held.timer = asyncio.get_running_loop().call_later(delay, self._expired, held)
        self._by_player.setdefault(player_id, set()).add(held)
        return held

    def remove(self, held: Held) -> None:
        """The socket closed."""
        if held.timer is not None:
            held.timer.cancel()
        socks = self._by_player.get(held.player_id)
        if socks is not None:
            socks.discard(held)
            if not socks:
                del self._by_player[held.player_id]

    def _expired(self, held: Held) -> None:
        log.info("socket closed: its token expired", extra={"player": held.player_id})
        held.conn.kick(CLOSE_REVOKED)

    def revoked(self, message: dict[str, Any]) -> None:
        """A fan-out message ``{"player", "version"}``: close the player's sockets opened with an
        older token version. Malformed messages are ignored."""
        player, version = message.get("player"), message.get("version")
        if not isinstance(player, str) or type(version) is not int:
            return
        closing = [h for h in self._by_player.get(player, ()) if h.version < version]
        for held in closing:
            held.conn.kick(CLOSE_REVOKED)
        if closing:
            log.info("sockets closed: tokens revoked", extra={"player": player, "sockets": len(closing)})


def subscribe(fanout: Any, tokens: SocketTokens) -> Callable[[], None]:
    """Feed ``tokens`` from the fan-out's revocations (call after the fan-out started)."""
    unsubscribe: Callable[[], None] = fanout.subscribe(CHANNEL, tokens.revoked)
    return unsubscribe


async def announce(fanout: Any, player_id: str, version: int) -> None:
    """Tell every process that ``player_id``'s tokens below ``version`` are revoked."""
    # Confirmed: a revocation Redis did not take is logged by the caller (not silently lost).
    await fanout.publish(CHANNEL, {"player": player_id, "version": version}, confirm=True)
