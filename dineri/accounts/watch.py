"""Games to watch (issue 14, item 5): public matches in progress with their players, score and
spectator count.

:class:`Watchers` counts the open table sockets per table (the table socket registers each one);
spectators are the sockets of anybody not seated there (each anonymous socket counts once, an
identified player once however many sockets). In memory, per process, behind this small
interface so several processes can later share it (issue 9).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from dineri.store.models import Table


class Watchers:
    """Open table sockets: ``table id -> {socket number: player id or None}``."""

    def __init__(self) -> None:
        self._open: dict[str, dict[int, str | None]] = {}
        self._numbers = itertools.count(1)

    def add(self, table_id: str, player_id: str | None) -> int:
        """Register a socket at ``table_id``; its number (for :meth:`remove`)."""
        n = next(self._numbers)
        self._open.setdefault(table_id, {})[n] = player_id
        return n

    def remove(self, table_id: str, number: int) -> None:
        """Forget a closed socket."""
        sockets = self._open.get(table_id)
        if sockets is not None:
            sockets.pop(number, None)
            if not sockets:
                del self._open[table_id]

    def spectators(self, table_id: str, seated: Iterable[str]) -> int:
        """How many watch ``table_id``: distinct identified players not in ``seated``, plus every
        anonymous socket."""
        seated = set(seated)
        sockets = self._open.get(table_id, {}).values()
        return sum(1 for p in sockets if p is None) + len({p for p in sockets if p and p not in seated})


def playing_public(s: Session, limit: int = 50) -> list[str]:
    """The ids of public tables whose match is in progress, newest first."""
    q = (select(Table.id).where(Table.public.is_(True), Table.status == "playing")
         .order_by(Table.created_at.desc(), Table.id).limit(limit))
    return list(s.execute(q).scalars())


def live_item(info: dict[str, Any], view: dict[str, Any] | None, spectators: int,
              rated: dict[str, Any] | None = None) -> dict[str, Any]:
    """One ``GET /api/watch`` item: ``{"table", "game", "options", "rated", "players": [{"seat",
    "side", "name", "rating", "provisional"}], "scores", "games_won", "spectators"}`` (scores as
    the game's public view has them; ``rating`` null for guests and computers). ``rated``: the
    table's :func:`dineri.accounts.tables.rated_info`."""
    view = view or {}
    seats = (rated or {}).get("seats", {})
    return {"table": info["id"], "game": info["game"], "options": info["options"],
            "rated": bool((rated or {}).get("rated")),
            "players": [{"seat": s["seat"], "side": s.get("side"), "name": s["player"],
                         "rating": seats.get(str(s["seat"]), {}).get("rating"),
                         "provisional": seats.get(str(s["seat"]), {}).get("provisional")}
                        for s in info["seats"]],
            "scores": view.get("scores", view.get("totals")), "games_won": view.get("games_won"),
            "spectators": spectators}
