"""Quick match (issue 14, item 4): "Play now" puts a player in a queue for a game, mode and
target; waiting players of close rating are paired, seated at a new public table and started.

The rating window widens with the wait: two players are paired when their ratings differ by at
most ``window(longer wait)`` = ``base + per_second × seconds`` (capped at ``widest``). A 2v2
group is the oldest waiting player and the three closest within its window; sides are balanced
(best and worst against the two middle ones). A player who chose a wait for a computer opponent
is offered one once they have waited that long.

The queue state sits behind :class:`QuickQueue` so several server processes can later share it
(issue 9: Redis or the database); :class:`MemoryQueue` is the one-process implementation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

#: The quick-match queues: (game, seats) -> rating mode (``dineri.ratings.modes``); a game is
#: offered only while it is registered (:func:`offered`).
QUEUES = {("chkobba", 2): "chkobba-1v1", ("chkobba", 4): "chkobba-2v2",
          ("seven_diamonds", 4): "seven_diamonds", ("golf4", 4): "golf4"}
#: The targets a queue offers: Chkobba's game points (R31), Seven Diamonds' 500 (S16), golf4's
#: number of rounds (G2: 9 or 18).
TARGETS = {"chkobba": (11, 21, 31), "seven_diamonds": (500,), "golf4": (9, 18)}


def options_of(game: str, seats: int, target: int) -> dict[str, int]:
    """The table options of a quick match (the game's own option keys): Chkobba one game to
    ``target``; Seven Diamonds four seats to ``target``; golf4 ``seats`` players, ``target``
    rounds."""
    if game == "golf4":
        return {"seats": seats, "rounds": target}
    if game == "seven_diamonds":
        return {"seats": seats, "target": target}
    return {"seats": seats, "target": target, "best_of": 1}


def offered(games: list[str]) -> list[dict[str, object]]:
    """The queues of the registered ``games``, in :data:`QUEUES` order: ``{"game", "seats",
    "mode", "targets"}`` (what the Play now form lists)."""
    return [{"game": g, "seats": n, "mode": mode, "targets": list(TARGETS[g])}
            for (g, n), mode in QUEUES.items() if g in games]


@dataclass(frozen=True)
class Key:
    """One queue: a game, its number of seats and its target."""

    game: str
    seats: int
    target: int

    @property
    def mode(self) -> str:
        """The rating mode of the queue (``chkobba-1v1`` …)."""
        return QUEUES[(self.game, self.seats)]


@dataclass
class Entry:
    """A waiting player: rating in the queue's mode, whether it is an account (only a group of
    accounts plays rated), when it joined (monotonic seconds), after how many seconds it
    wants a computer opponent offered (``None``: never) and the client address it joined from
    (the table it hosts keeps its keyed hash, for the lobby's address caps; ``None``: none)."""

    player_id: str
    key: Key
    rating: float
    account: bool
    joined: float
    bot_after: float | None = None
    address: str | None = None


@dataclass
class Ticket:
    """A player's quick-match state: ``waiting`` (with ``entry``), ``seated`` (``table``), or
    ``none``."""

    status: str
    entry: Entry | None = None
    table: str | None = None


@dataclass
class Widening:
    """The rating window: ``base`` points at once, ``per_second`` more each second of wait, at
    most ``widest``."""

    base: float = 100.0
    per_second: float = 20.0
    widest: float = 800.0

    def window(self, waited: float) -> float:
        """The largest rating difference accepted after ``waited`` seconds."""
        return min(self.base + self.per_second * max(waited, 0.0), self.widest)


class QuickQueue(Protocol):
    """Shared quick-match state (one process: :class:`MemoryQueue`)."""

    def join(self, entry: Entry) -> None:
        """Queue ``entry`` (replacing the player's previous entry or assignment)."""

    def leave(self, player_id: str) -> Entry | None:
        """Remove the player's entry; the removed entry or ``None``."""

    def ticket(self, player_id: str) -> Ticket:
        """The player's state."""

    def take_groups(self, now: float) -> list[list[Entry]]:
        """Remove and return every group that can be seated now."""

    def seat(self, player_ids: list[str], table_id: str) -> None:
        """Record that these players were seated at ``table_id``."""

    def waiting(self) -> list[Entry]:
        """Every waiting entry, oldest first."""


@dataclass
class MemoryQueue:
    """:class:`QuickQueue` in this process's memory."""

    widening: Widening = field(default_factory=Widening)
    entries: dict[str, Entry] = field(default_factory=dict)
    seated: dict[str, str] = field(default_factory=dict)

    def join(self, entry: Entry) -> None:
        """See :meth:`QuickQueue.join`."""
        self.seated.pop(entry.player_id, None)
        self.entries[entry.player_id] = entry

    def leave(self, player_id: str) -> Entry | None:
        """See :meth:`QuickQueue.leave`."""
        return self.entries.pop(player_id, None)

    def ticket(self, player_id: str) -> Ticket:
        """See :meth:`QuickQueue.ticket`."""
        if player_id in self.entries:
            return Ticket("waiting", entry=self.entries[player_id])
        if player_id in self.seated:
            return Ticket("seated", table=self.seated[player_id])
        return Ticket("none")

    def seat(self, player_ids: list[str], table_id: str) -> None:
        """See :meth:`QuickQueue.seat`."""
        for pid in player_ids:
            self.entries.pop(pid, None)
            self.seated[pid] = table_id
        if len(self.seated) > 10_000:  # old assignments: keep memory bounded
            for pid in list(self.seated)[:5_000]:
                del self.seated[pid]

    def waiting(self) -> list[Entry]:
        """See :meth:`QuickQueue.waiting`."""
        return sorted(self.entries.values(), key=lambda e: e.joined)

    def take_groups(self, now: float) -> list[list[Entry]]:
        """See :meth:`QuickQueue.take_groups` (:func:`groups` over the waiting entries)."""
        found = groups(self.waiting(), now, self.widening)
        for group in found:
            for e in group:
                self.entries.pop(e.player_id, None)
        return found


def groups(waiting: list[Entry], now: float, widening: Widening) -> list[list[Entry]]:
    """Pair (or group by four) ``waiting`` entries, oldest first, each group within the rating
    window of its longest waiter: 1v1 the closest candidate; 2v2 the three closest, returned in
    seat order with balanced sides (seats 0 and 2 against 1 and 3). Pure."""
    left = sorted(waiting, key=lambda e: e.joined)
    out: list[list[Entry]] = []
    used: set[str] = set()
    for oldest in left:
        if oldest.player_id in used:
            continue
        need = oldest.key.seats - 1
        window = widening.window(now - oldest.joined)
        near = sorted((e for e in left if e.player_id not in used and e.player_id != oldest.player_id
                       and e.key == oldest.key and abs(e.rating - oldest.rating) <= window),
                      key=lambda e: (abs(e.rating - oldest.rating), e.joined))
        if len(near) < need:
            continue
        group = [oldest, *near[:need]]
        used.update(e.player_id for e in group)
        if len(group) == 4:
            by = sorted(group, key=lambda e: -e.rating)
            group = [by[0], by[1], by[3], by[2]]  # sides: seats 0+2 (best, worst) v 1+3
        out.append(group)
    return out


def now() -> float:
    """The queue's clock (monotonic seconds)."""
    return time.monotonic()
