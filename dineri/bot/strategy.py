"""How a bot chooses its Chkobba action from what its own seat may see (issues 3 and 12).

A bot never sees a hidden card: :class:`SeatMemory` keeps the public events of the current deal
and the seat's own views (``docs/protocol.md``), and :func:`choose` asks a computer player of
:mod:`dineri.players` (``random``, ``greedy``, or a level ``easy``/``medium``/``hard``) to decide
from that alone: the seat's view, those events and the action objects the seat may send, worked
out from its own knowledge (:func:`dineri.players.chkobba.info.legal_actions`; this includes
claiming a missed capture it saw, R19–R22, as a human player could).

- ``random``: a uniformly random card, then a uniformly random choice among its legal
  captures and laying it (R13–R17); a random cut, keep or table, and redeal answer.
- ``greedy``: the capture taking the most valuable cards: a chkobba first (R23), then
  the 7♦ (R26 Sab'a l-hayya), sevens and sixes (Barmila), diamonds (Dinari), card count
  (Karta); with no capture, it lays its least useful card.

Both claim every missed capture they can see. Neither proposes a redeal (R10).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from dineri.engine import CODE, legal_captures, parse_card
from dineri.players.chkobba.info import legal_actions, seat_info
from dineri.players.levels import LEVELS, STRATEGY_NAMES, make_player

Json = dict[str, Any]
#: Strategies a bot may use: the first bots' two and the levels (``dineri.players.levels``).
STRATEGIES = STRATEGY_NAMES


@dataclass
class SeatMemory:
    """What one seat has seen: the public events of the current deal (from its cut), the table as
    the events left it, and the window of a claim it may make (``window``: the laid card and the
    table before it, or ``None``).

    Feed every event with :meth:`on_event` in ``seq`` order and every view with
    :meth:`on_view`; a view replaces the tracked table (it is the truth).
    """

    seat: int
    seats: int = 2
    table: list[str] = field(default_factory=list)
    window: tuple[str, list[str]] | None = None
    events: list[Json] = field(default_factory=list)
    no_claim: bool = False
    #: the deal's ``cut`` event once an optional redeal proposal was weighed in that deal
    redeal_weighed: Json | None = None

    def on_view(self, view: Json) -> None:
        """Adopt a seat view (``seat_view`` shape): its table and seat count."""
        self.table = list(view.get("table") or [])
        opts = view.get("options") or {}
        self.seats = int(opts.get("seats", self.seats))
        if view.get("phase") != "play":
            self.window = None

    def on_event(self, event: Json) -> None:
        """Follow one public event (``docs/protocol.md``, Events)."""
        kind = event.get("type")
        if kind == "cut":
            self.events = []
        if kind not in ("chat", "commitment", "reveal"):
            self.events.append(event)
        self.no_claim = False
        if kind == "play":
            card, capture = event["card"], list(event.get("capture") or [])
            if capture:
                self.table = [c for c in self.table if c not in capture]
                self.window = None
            else:
                # R19: a lay that could have captured opens a window for the very next seat only.
                before = list(self.table)
                mine = (int(event["seat"]) + 1) % self.seats == self.seat
                could = bool(legal_captures(parse_card(card), [parse_card(c) for c in before]))
                self.window = (card, before) if mine and could else None
                self.table.append(card)
        elif kind == "claim":
            gone = {event["card"], *event.get("capture", [])}
            self.table = [c for c in self.table if c not in gone]
            self.window = None
        elif kind == "deal":
            self.table = list(event.get("table") or [])
            self.window = None
        elif kind in ("round_over", "match_over", "cut", "forfeit"):
            self.window = None
            if kind != "cut":
                self.table = []

    def forget_window(self) -> None:
        """Drop the window (its claim was refused, or the bot has played since)."""
        self.window = None
        self.no_claim = True


_PLAYERS: dict[tuple[int, str], Any] = {}


def choose(view: Json, memory: SeatMemory, strategy: str, rng: random.Random) -> Json | None:
    """The action object (``docs/protocol.md``, Chkobba action objects) for this seat now,
    or ``None`` when it is not this seat's move (or it has nothing it wants to do).

    ``view`` is the seat's own view (``seat_view`` shape: ``phase``, ``turn``, ``hand``,
    ``table``, ``pending_redeal``, …). Raises ``ValueError`` for an unknown strategy.
    """
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r} (one of {', '.join(STRATEGIES)})")
    legal = seat_actions(view, memory)
    if not legal:
        return None
    if strategy in LEVELS:
        # A search keeps no state between moves but its generator: one player per memory.
        key = (id(memory), strategy)
        player = _PLAYERS.get(key)
        if player is None:
            if len(_PLAYERS) > 256:
                _PLAYERS.clear()
            player = _PLAYERS[key] = make_player(strategy, rng.getrandbits(64))
    else:
        player = make_player(strategy, rng.getrandbits(64))
    return player.choose(view, memory.events, legal)


def seat_actions(view: Json, memory: SeatMemory) -> list[Json]:
    """The action objects the seat may send now, from its view and memory alone (R8–R22)."""
    info = seat_info(view, memory.events)
    legal = legal_actions(info)
    if memory.window is not None and info.turn == info.seat and not any(d["type"] == "claim" for d in legal):
        # Events that do not reach back to the deal's cut: the window the memory tracked (R19).
        card, before = memory.window
        table = list(view.get("table") or [])
        for cap in legal_captures(parse_card(card), [parse_card(c) for c in before]):
            codes = [CODE[c] for c in cap]
            if all(c in table for c in codes):
                legal.insert(0, {"type": "claim", "card": card, "capture": codes})
    if memory.no_claim:
        legal = [d for d in legal if d.get("type") != "claim"]
    return legal
